"""Each All Fives study sheet says what the engine does with its knobs.

The sheet is written from the knobs alone (games/kinds/all_fives.py), the engine
plays by them (games/all_fives.py). For every sheet (every ace, wins and follow
value together) an explicit hand is played: the sheet's best card must take a
trick from a middle card, its worst card must lose one to it, and the cards the
engine lets a player follow with must be the ones the sheet's "Playing" allows.
"""

from __future__ import annotations

import itertools
import re

import pytest

from games import all_fives as af
from games.cards import full_deck
from games.kinds.all_fives import sheet_text
from games.tricks import ACE_VALUES, WINS_VALUES

RANK_OF_WORD = {"ace": "A", "king": "K", "2": "2"}
FILLERS = (["3C", "4C", "5C"], ["7C", "8C", "9C"])  # never led, never played
TRUMP_CARD = "4S"  # in the dealer's hand; the turn-up 2S makes spades trump

SHEETS = [
    af.Sheet(ace=a, wins=w, follow=f)
    for a, w, f in itertools.product(ACE_VALUES, WINS_VALUES, af.FOLLOW_VALUES)
]


def _sections(sheet: af.Sheet) -> dict[str, str]:
    return {s["heading"]: s["text"] for s in sheet_text(sheet)["sections"]}


def _best_middle_worst(text: str) -> tuple[str, str, str]:
    found = re.search(r"In each suit the (\w+) is the best card and the (\w+) the worst", text)
    assert found, text
    best, worst = (RANK_OF_WORD[w] for w in found.groups())
    # Whatever the knobs, the ace, the king and the 2 are a suit's two ends and one
    # card between them: the third of them is a middle card.
    (middle,) = {"A", "K", "2"} - {best, worst}
    return best, middle, worst


def _hand(sheet: af.Sheet, best: str, middle: str, worst: str):
    """Dealer 0, eldest 1. Eldest: the best heart, the worst diamond; the dealer: the
    middle heart and diamond and a trump."""
    eldest = [best + "H", worst + "D", *FILLERS[0], "6C"]
    dealer = [middle + "H", middle + "D", TRUMP_CARD, *FILLERS[1]]
    config = af.Config(table_rules=sheet, seat_rules=(sheet, sheet))
    deck = []
    for batch in range(2):
        for hand in (eldest, dealer):  # eldest (the dealer's left) first
            deck += hand[3 * batch : 3 * batch + 3]
    deck += ["2S"]
    deck += [c for c in full_deck() if c not in deck]
    state = af.new_game(config, dealer=0, decks=[deck])
    state, _ = af.apply(state, {"type": "stand", "seat": 1})
    return state


def _play(state, seat, card):
    state, _ = af.apply(state, {"type": "play", "seat": seat, "card": card})
    return state


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda s: f"{s.ace}-{s.wins}-{s.follow}")
def test_the_sheets_best_and_worst_cards_are_the_engines(sheet):
    text = _sections(sheet)
    best, middle, worst = _best_middle_worst(text["Winning a trick"])
    state = _hand(sheet, best, middle, worst)
    state = _play(_play(state, 1, best + "H"), 0, middle + "H")
    assert state.tricks[-1].winner == 1, "the sheet's best card takes the trick"
    assert state.to_act == 1  # the winner leads
    state = _play(_play(state, 1, worst + "D"), 0, middle + "D")
    assert state.tricks[-1].winner == 0, "the sheet's worst card loses the trick"


FOLLOW_WORDS = {
    # The sheet's words for following a heart lead while holding a heart and a trump.
    "you must play one. If you hold none": {"suit"},
    "either a card of that suit or a trump; no other card is allowed": {"suit", "trump"},
    "you never have to follow": {"suit", "trump", "other"},
}


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda s: f"{s.ace}-{s.wins}-{s.follow}")
def test_the_sheets_following_rule_is_the_cards_the_engine_allows(sheet):
    playing = _sections(sheet)["Playing"]
    said = [kinds for words, kinds in FOLLOW_WORDS.items() if words in playing]
    assert len(said) == 1, playing
    best, middle, worst = _best_middle_worst(_sections(sheet)["Winning a trick"])
    state = _play(_hand(sheet, best, middle, worst), 1, best + "H")
    allowed = {a["card"] for a in af.legal_actions(state, 0) if a["type"] == "play"}
    kind_of = {middle + "H": "suit", TRUMP_CARD: "trump"}
    assert {kind_of.get(card, "other") for card in allowed} == said[0]
