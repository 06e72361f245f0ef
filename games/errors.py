"""Exceptions shared by the game engines, and the refusals of a seat not at the table
and of a card that is none.

One exception type crosses the engine boundary for a refused action, so the app
can show its ``reason`` to the player as it is; another, for a replay document that
cannot be replayed, carries the JSON error object the ``replay`` command prints.
"""

from .cards import is_card, parse_card


class IllegalAction(Exception):
    """An action the rules do not allow; ``reason`` is a sentence a player can read."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ReplayError(Exception):
    """Bad replay input or an illegal play; ``payload`` is the JSON error object
    (``{"error": ..., "at": ...}``) that goes to stderr."""

    def __init__(self, message: str, **extra):
        super().__init__(message)
        self.payload = {"error": message, **extra}


def seat_of(value: object, n: int, what: str = "seat") -> int:
    """``value`` if it is a seat of a table of ``n`` (0 to n - 1), else IllegalAction
    naming ``what`` ("seat", "accused seat", ...). A bool is no seat."""
    if type(value) is not int or not 0 <= value < n:
        raise IllegalAction(f"There is no {what} {value!r} at this table (seats are 0 to {n - 1}).")
    return value


def card_of(action: dict) -> str:
    """The card ``action`` plays, canonical ("as " is "AS"), else IllegalAction saying
    how a card is written."""
    card = action.get("card")
    if is_card(card):
        return card
    try:
        return parse_card(card)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
