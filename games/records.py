"""Replay records made of a game's set-up and its list of actions (All Fives, 3 Tricks).

A record is checked and replayed the same way whatever the game: its keys, each
action in turn (an action object's type checked, its seat by default the seat to
act), none after the game's end, and an illegal one refused with its index.
The set-up and the action words a record may use stay with each game.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TypeVar

from .errors import IllegalAction

S = TypeVar("S")


class RecordError(ValueError):
    """A replay record that cannot be replayed; ``at`` indexes the refused action, if any."""

    def __init__(self, message: str, at: int | None = None):
        super().__init__(message)
        self.at = at


def check_record_keys(doc: dict, known: Collection[str], game: str) -> None:
    """Refuse a key ``known`` does not hold, and a record without its actions."""
    unknown = sorted(set(doc) - set(known))
    if unknown:
        raise RecordError(f"Unknown key(s) for {game}: {', '.join(unknown)}.")
    if "actions" not in doc:
        raise RecordError("Missing key 'actions'.")


def action_object(raw: dict, to_act: int | None, at: int, types: Sequence[str]) -> dict:
    """A copy of the record's action object; its seat, if missing, is ``to_act``."""
    action = dict(raw)
    if action.get("type") not in types:
        raise RecordError(
            f"actions[{at}]: unknown action type {action.get('type')!r} "
            f"(known: {', '.join(types)}).",
            at,
        )
    action.setdefault("seat", to_act)
    return action


def replay_actions(
    state: S,
    actions: object,
    *,
    apply: Callable[[S, dict], tuple[S, list[dict]]],
    is_over: Callable[[S], bool],
    record_action: Callable[[object, S, int], dict],
) -> S:
    """``state`` after every action of the record, each read by ``record_action``."""
    if not isinstance(actions, list):
        raise RecordError("actions must be a list.")
    for at, raw in enumerate(actions):
        if is_over(state):
            raise RecordError(f"actions[{at}]: the game is already over.", at)
        action = record_action(raw, state, at)
        try:
            state, _ = apply(state, action)
        except IllegalAction as exc:
            raise RecordError(f"actions[{at}]: {exc.reason}", at) from None
    return state
