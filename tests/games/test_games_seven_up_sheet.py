"""Each 7Up7Down study sheet says what the engine does with its knobs.

The sheet is written from the knobs alone (games/kinds/seven_up.py), the engine
plays by them (games/seven_up.py): for every preset (between them every value of
every knob, and all four ace/wins pairs) an explicit one-card deal is played and
what the sheet's words predict (who takes the trick, what a made, a missed and a
zero bid score, which bid the dealer may not make) is compared with the engine.
"""

from __future__ import annotations

import re

import pytest

from games import seven_up as su
from games.kinds.seven_up import PRESETS, sheet_text

RANK_OF_WORD = {"ace": "A", "king": "K", "2": "2"}


def _sections(rules) -> dict[str, str]:
    return {s["heading"]: s["text"] for s in sheet_text(rules)["sections"]}


def _number(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    assert found, (pattern, text)
    return 0 if found.group(1) == "no" else int(found.group(1))


def _one_card_deal(rules, bids):
    """Deal 6 (the first one-card deal) at three seats, dealer 2: AS, KS and 2S, hearts trump."""
    config = su.Config(3, **rules.to_dict())
    state = su.new_match(config, start_deal=6)
    assert state.cards == 1 and state.dealer == 2
    state, _ = su.apply(
        state, {"type": "deal", "hands": [["AS"], ["KS"], ["2S"]], "trump_card": "4H"}
    )
    for b in bids:
        state, _ = su.apply(state, {"type": "bid", "seat": state.to_act, "bid": b})
    return state


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_sheets_best_card_takes_the_trick_and_its_points_are_the_engines(name):
    rules = PRESETS[name]
    text = _sections(rules)
    best_word = re.search(r"The (\w+) is the best card of a suit", text["Play"]).group(1)
    per_trick = _number(r"a bid of 1 or more: (\d+) points? for each trick bid", text["Scoring"])
    zero = _number(r"Exactly right with a bid of 0: (\d+) points?\.", text["Scoring"])
    missed = _number(r"Any other result: (no|\d+) points?\.", text["Scoring"])

    # Seats 0 and 1 bid one trick each, the dealer none (2 is not the 1 card: no hook).
    state = _one_card_deal(rules, [1, 1, 0])
    for card in ("AS", "KS", "2S"):
        state, _ = su.apply(state, {"type": "play", "seat": state.to_act, "card": card})
    record = state.history[0]
    hands = ["AS", "KS", "2S"]
    taker = next(s for s, c in enumerate(hands) if c[:-1] == RANK_OF_WORD[best_word])
    assert record.tricks_won == tuple(int(s == taker) for s in range(3)), (name, best_word)
    # One of the two seats that bid 1 always misses: the sheet's "any other result".
    expected = (
        per_trick * 1 if taker == 0 else missed,
        per_trick * 1 if taker == 1 else missed,
        zero if taker != 2 else missed,
    )
    assert record.points == expected, (name, text["Scoring"])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_sheets_hook_sentence_is_the_dealers_choice_in_the_engine(name):
    rules = PRESETS[name]
    bidding = _sections(rules)["Bidding"]
    on_the_hook = "may not make a bid that brings the total of all bids to exactly" in bidding
    assert on_the_hook != ("may bid anything" in bidding), bidding
    # Seats 0 and 1 bid 0 of the one card: a dealer's 1 would make the total 1.
    state = _one_card_deal(rules, [0, 0])
    assert state.to_act == state.dealer == 2
    assert su.legal_bids(state, 2) == ([0] if on_the_hook else [0, 1]), name
