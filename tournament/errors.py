"""Errors a service raises: each carries a code for clients and a sentence for people.

A service raises before it writes anything, or inside its transaction so that the
rollback leaves nothing changed.
"""

# What a player's move is told while the facilitator has paused the round: the
# service's refusal, and the words the phone says itself for a tap on a move marked
# paused (templates/jinja2/play/_screen.html, static/js/table.js), one sentence.
ROUND_PAUSED = "The facilitator has paused the round."
# Study and silent play are not rounds to a student (the screen calls them "Study the
# rules" and "Silent play at home tables"): their pause is said as play's.
PLAY_PAUSED = "The facilitator has paused play."


def paused_said(phase: str) -> str:
    """The pause's sentence in the workshop's `phase` (a Phase value)."""
    return ROUND_PAUSED if phase == "round" else PLAY_PAUSED


def goes_on(phase: str) -> str:
    """What a paused player waits for, in `phase`: "the round continues" or "play continues"."""
    return "the round continues" if phase == "round" else "play continues"


class ServiceError(Exception):
    code = "error"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class InvalidInput(ServiceError):
    code = "invalid"


class WrongPhase(ServiceError):
    code = "wrong_phase"


class NotAllowed(ServiceError):
    code = "not_allowed"


class IllegalMove(ServiceError):
    """The engine refused the action (not your turn, must follow suit, ...)."""

    code = "illegal"


class StaleAction(ServiceError):
    """The action was decided on a view the table has moved past; resync and retry."""

    code = "stale"


class DuplicateAction(ServiceError):
    """The same client action id was already applied; nothing was done twice."""

    code = "duplicate"


class NotFound(ServiceError):
    code = "not_found"


class JoiningClosed(ServiceError):
    code = "joining_closed"
