"""Five Tricks, the Barnga game, as a workshop's base game.

Its phone screen, its ``play``/``claim`` messages and its derived rows (tricks,
claims, disputes, claim time limits) are the tournament's own
(tournament/services/play.py, selectors.game_screen): this kind gives the rest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games import bots, five_tricks
from games.presets import PRESET_TITLES, PRESETS
from games.sheets import sheet_text
from games.tricks import TrickRules

from .base import GameKind

# The facilitator's one-line summary of a sheet (``FiveTricks.summary``).
KNOB_LABELS = {
    "ace": {"high": "Ace high", "low": "Ace low"},
    "wins": {"highest": "highest wins", "lowest": "lowest wins"},
    "trump": {
        None: "no trump",
        "S": "spades trump",
        "H": "hearts trump",
        "D": "diamonds trump",
        "C": "clubs trump",
    },
    "trump_when": {"void": "trump only when void", "any": "trump any time"},
}


class FiveTricks(GameKind):
    key = "five_tricks"
    title = "Five Tricks"
    min_seats = five_tricks.MIN_SEATS
    max_seats = five_tricks.MAX_SEATS
    score_label = "tricks"
    per_seat_rules = True
    records_tricks = True
    keeps_final_state = True
    presets = PRESETS
    preset_titles = PRESET_TITLES

    def rules_from_dict(self, d: object) -> TrickRules:
        return TrickRules.from_dict(d if d else TrickRules().to_dict())

    def sheet(self, rules: dict, *, mode: str = "barnga") -> dict:
        return sheet_text(TrickRules.from_dict(rules))

    def summary(self, rules: dict) -> str:
        """ "Ace high, highest wins, spades trump, trump only when void"."""
        r = TrickRules.from_dict(rules)
        parts = [
            KNOB_LABELS["ace"][r.ace],
            KNOB_LABELS["wins"][r.wins],
            KNOB_LABELS["trump"][r.trump],
        ]
        if r.trump is not None:
            parts.append(KNOB_LABELS["trump_when"][r.trump_when])
        return ", ".join(parts)

    def config(self, *, table_rules: dict, seat_rules: Sequence[dict], mode: str):
        return five_tricks.Config(
            table_rules=TrickRules.from_dict(table_rules),
            seat_rules=tuple(TrickRules.from_dict(r) for r in seat_rules),
            mode=mode,
        )

    def new_state(self, *, table_rules, seat_rules, mode, seed):
        return five_tricks.new_game(
            self.config(table_rules=table_rules, seat_rules=seat_rules, mode=mode), seed=seed
        )

    def apply(self, state, action):
        return five_tricks.apply(state, action)

    def is_over(self, state) -> bool:
        return five_tricks.is_over(state)

    def outcome(self, state) -> dict:
        r = five_tricks.result(state)
        return {"winners": list(r["winners"]), "scores": list(r["tricks_won"])}

    def to_act(self, state) -> list[int]:
        """The player to play, or those yet to claim."""
        if state.phase == "play":
            return [state.to_act] if state.to_act is not None else []
        if state.phase == "claim":
            return [s for s, c in enumerate(state.claims) if c is None]
        return []

    def bots_to_ask(self, state) -> list[int]:
        """In a dispute every seat has claimed and none is awaited, but each may change
        its claim: all are asked (a bot with the plurality does nothing)."""
        if self.in_dispute(state):
            return list(range(len(state.claims)))
        return self.to_act(state)

    def bot_action(self, state, seat: int, rng: random.Random):
        return bots.choose_action(state, seat, rng)

    def in_dispute(self, state) -> bool:
        return state.phase == "claim" and bool(state.dispute)

    def first_trick_taken(self, state) -> bool:
        return bool(state.completed)

    def progress(self, state) -> int:
        return len(state.completed)


KIND = FiveTricks()
