"""Shared by the facilitator tests: what the projector must never show."""

from __future__ import annotations

import re

from games.presets import PRESET_TITLES
from tournament import gamestate
from tournament.models import Game, Table

SECRET_WORDS = [
    "highest",
    "lowest",
    "trump",
    "void",
    "ace high",
    "ace low",
    "spades",
    "hearts",
    "diamonds",
    "clubs",
    "tournament guide",
    "appendix",
    "custom sheet",
    "guide-",
    "sheet",
    "knob",
]


def assert_no_secrets(html: str, workshop) -> None:
    lower = html.lower()
    for word in SECRET_WORDS:
        assert re.search(rf"\b{re.escape(word)}", lower) is None, word
    for title in PRESET_TITLES.values():
        assert title.lower() not in lower
    for symbol in "♠♥♦♣":
        assert symbol not in html
    for game in Game.objects.filter(table__workshop=workshop):
        state = gamestate.load_state(game)
        for card in {c for hand in state.hands for c in hand} | {c for _, c in state.current}:
            assert re.search(rf"[>\"' ]{re.escape(card)}[<\"' ]", html) is None, card
    for t in Table.objects.filter(workshop=workshop):
        assert t.preset not in lower
