"""The ``replay`` contract: a deal, its rules and its plays in, the tricks and winners out.

``replay_document(doc)`` checks and replays one parsed JSON document and returns
the output object; anything wrong raises ``ReplayError`` whose ``payload`` is the
JSON error object (``{"error": ..., "at": ...}``). Games register in ``REPLAYERS``
by the document's ``"game"`` key. No I/O here: ``games/__main__.py`` reads and prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from . import all_fives, three_tricks
from . import five_tricks as ft
from . import seven_up as su
from .cards import parse_card
from .errors import IllegalAction, ReplayError
from .tricks import TrickRules

FIVE_TRICKS_KEYS = {"game", "rules", "seat_rules", "hands", "plays", "claims"}


def _rules(value: object, where: str) -> TrickRules:
    try:
        return TrickRules.from_dict(value)
    except ValueError as exc:
        raise ReplayError(f"{where}: {exc}") from None


def _card(value: object, where: str, **extra) -> str:
    try:
        return parse_card(value)
    except ValueError as exc:
        raise ReplayError(f"{where}: {exc}", **extra) from None


def replay_five_tricks(doc: dict) -> dict:
    unknown = sorted(set(doc) - FIVE_TRICKS_KEYS)
    if unknown:
        raise ReplayError(f"Unknown key(s) for five_tricks: {', '.join(unknown)}.")
    for key in ("rules", "hands", "plays"):
        if key not in doc:
            raise ReplayError(f"Missing key {key!r}.")
    table = _rules(doc["rules"], "rules")

    hands = doc["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise ReplayError("hands must be a list with one list of cards per seat.")
    n = len(hands)
    if not ft.MIN_SEATS <= n <= ft.MAX_SEATS:
        raise ReplayError(f"Five Tricks needs {ft.MIN_SEATS} to {ft.MAX_SEATS} hands, not {n}.")
    hands = [[_card(c, f"hands[{s}][{i}]") for i, c in enumerate(h)] for s, h in enumerate(hands)]

    if doc.get("seat_rules") is None:
        seat_rules = (table,) * n
    else:
        raw = doc["seat_rules"]
        if not isinstance(raw, list) or len(raw) != n:
            raise ReplayError(f"seat_rules must be a list of {n} rule sheets, one per hand.")
        seat_rules = tuple(_rules(r, f"seat_rules[{s}]") for s, r in enumerate(raw))

    plays = doc["plays"]
    if not isinstance(plays, list):
        raise ReplayError("plays must be a list of cards.")
    plays = [_card(c, f"plays[{i}]", at=i) for i, c in enumerate(plays)]

    claims = doc.get("claims")
    if claims is not None:
        if not isinstance(claims, list) or not all(isinstance(c, list) for c in claims):
            raise ReplayError(
                "claims must be a list with, per completed trick, a list of one claim per seat."
            )
        for t, trick_claims in enumerate(claims):
            if len(trick_claims) != n:
                raise ReplayError(
                    f"claims[{t}] has {len(trick_claims)} entries; there are {n} seats."
                )
            for s, c in enumerate(trick_claims):
                if c is not None and type(c) is not int:
                    raise ReplayError(
                        f"claims[{t}][{s}] must be a seat number or null, not {json.dumps(c)}."
                    )

    try:
        config = ft.Config(table_rules=table, seat_rules=seat_rules, mode="barnga")
        state = ft.new_game(config, hands=hands)
    except ValueError as exc:
        raise ReplayError(f"hands: {exc}") from None

    for at, card in enumerate(plays):
        if state.phase == ft.PHASE_OVER:
            raise ReplayError(
                f"plays[{at}]: the game is already over; {card} cannot be played.", at=at
            )
        seat = state.to_act
        try:
            state, _ = ft.apply(state, {"type": "play", "seat": seat, "card": card})
        except IllegalAction as exc:
            raise ReplayError(
                f"plays[{at}]: seat {seat} cannot play {card}: {exc.reason}", at=at
            ) from None
        if state.phase == ft.PHASE_CLAIM:
            state = _decide(state, claims, at)

    if claims is not None and len(claims) > len(state.completed):
        raise ReplayError(
            f"claims has {len(claims)} entries but only {len(state.completed)} tricks were completed."
        )
    outcome = ft.result(state)
    return {
        "tricks": [
            {
                "leader": t.leader,
                "cards": [c for _, c in t.cards],
                "winner": t.winner,
                "verdicts": list(t.verdicts),
            }
            for t in state.completed
        ],
        "tricks_won": outcome["tricks_won"],
        "winners": outcome["winners"],
        "complete": ft.is_over(state),
    }


def _decide(state: ft.State, claims: list | None, at: int) -> ft.State:
    """Award the trick just finished: by the given claims as at time-out, else by the table's sheet."""
    index = len(state.completed)
    if claims is not None:
        if index >= len(claims):
            raise ReplayError(
                f"plays[{at}] completes trick {index + 1}, but claims has only {len(claims)} "
                "entries.",
                at=at,
            )
        for seat, winner in enumerate(claims[index]):
            if winner is None:
                continue
            try:
                state, _ = ft.apply(state, {"type": "claim", "seat": seat, "winner": winner})
            except IllegalAction as exc:
                raise ReplayError(f"claims[{index}][{seat}]: {exc.reason}", trick=index) from None
            if state.phase != ft.PHASE_CLAIM:
                return state  # unanimous so far and complete: already awarded
    # A timeout with no claims falls back to the table's sheet.
    state, _ = ft.apply(state, {"type": "timeout"})
    return state


def _from_record(replay_record: Callable[[dict], dict]) -> Callable[[dict], dict]:
    """Adapt a module's ``replay_record`` (its errors are ValueErrors with ``at``) to ReplayError."""

    def run(doc: dict) -> dict:
        try:
            return replay_record(doc)
        except ValueError as exc:
            at = getattr(exc, "at", None)
            raise ReplayError(str(exc), **({} if at is None else {"at": at})) from None

    return run


REPLAYERS: dict[str, Callable[[dict], dict]] = {
    "five_tricks": replay_five_tricks,
    # 7Up7Down records (docs/seven_up.md): the engine raises ReplayError itself.
    "seven_up": su.replay_record,
    "all_fives": _from_record(all_fives.replay_record),
    "three_tricks": _from_record(three_tricks.replay_record),
}


def replay_document(doc: object) -> dict:
    """Replay one parsed input document with the game its ``"game"`` key names."""
    if not isinstance(doc, dict):
        raise ReplayError("The input must be a JSON object.")
    if "game" not in doc:
        raise ReplayError(f"Missing key 'game': one of {', '.join(sorted(REPLAYERS))}.")
    game = doc.get("game")
    replayer = REPLAYERS.get(game) if isinstance(game, str) else None
    if replayer is None:
        raise ReplayError(f"Unknown game {game!r}; known: {', '.join(sorted(REPLAYERS))}.")
    return replayer(doc)
