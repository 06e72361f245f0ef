"""Each 3 Tricks study sheet says what the engine does with its knobs.

The sheet is written from the knobs alone (games/kinds/three_tricks.py), the
engine plays by them (games/three_tricks.py). For each value of a knob an explicit
deal is played and what the sheet's words predict is compared with the engine:
which aces make a run, which tricks block 6♠7♠, how many cards a swap may take and
where drawing stops.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from games import three_tricks as tt
from games.cards import full_deck
from games.kinds.three_tricks import sheet_for


def _text(config: tt.Config) -> str:
    return " ".join(s["text"] for s in sheet_for(config)["sections"])


def _section(config: tt.Config, heading: str) -> str:
    return next(s["text"] for s in sheet_for(config)["sections"] if s["heading"] == heading)


def _start(config: tt.Config, first: list[str], second: list[str]) -> tt.State:
    """Seat 0 plays first (seat 1 deals); the rest of the deck in its fixed order."""
    deck = [c for pair in zip(first, second, strict=True) for c in pair]
    deck += [c for c in full_deck() if c not in deck]
    return tt.new_game(config, deck=deck, dealer=1)


def _act(state: tt.State, kind: str, cards=None) -> tt.State:
    action = {"type": kind, "seat": state.to_act}
    if cards is not None:
        action["cards"] = list(cards)
    return tt.apply(state, action)[0]


# ---------------------------------------------------------------- aces

# Seat 0 holds the ace, 2 and king of hearts and four cards that make no trick.
ACES_HAND = ["AH", "2H", "KH", "4C", "7D", "9S", "JC"]
OTHER_HAND = ["3S", "5D", "8C", "10H", "QD", "6C", "2D"]


@pytest.mark.parametrize("aces", ["wild", "low", "high"])
def test_the_sheets_aces_make_the_runs_the_engine_lets_you_lay(aces):
    config = tt.Config(aces=aces)
    said = _section(config, "Aces")
    state = _start(config, ACES_HAND, OTHER_HAND)
    lays = {frozenset(a["cards"]) for a in tt.legal_actions(state, 0) if a["type"] == "lay"}
    wild = said.startswith("Aces are wild")
    assert (frozenset({"AH", "2H"}) in lays) == (wild or "ace-2 is a run" in said)
    assert (frozenset({"KH", "AH"}) in lays) == (wild or "king-ace is a run" in said)
    # A wild ace is a trick with any card; an ordinary ace only with its run partner.
    assert (frozenset({"AH", "9S"}) in lays) == wild


# ---------------------------------------------------------------- blocking

LAID = ["6S", "7S", "2C", "4D", "10C", "QH", "KD"]  # seat 0 lays 6♠7♠
# Seat 1's two-card tricks: a spade run, a pair with a spade, a pair of sixes, a heart
# run with a six; nothing else in the hand makes a trick.
BLOCKER = ["3S", "4S", "9H", "9S", "6H", "6D", "5H"]
SUIT_RUN, SPADE_PAIR, SIXES, SIX_RUN = (
    frozenset(t) for t in (("3S", "4S"), ("9H", "9S"), ("6H", "6D"), ("5H", "6H"))
)


@pytest.mark.parametrize("block", ["suit_or_rank", "suit", "rank"])
@pytest.mark.parametrize("rank_match", ["pair", "card"])
def test_the_sheets_blocking_rule_is_the_blocks_the_engine_allows(block, rank_match):
    config = tt.Config(block=block, rank_match=rank_match)
    said = _section(config, "Blocking")
    by_suit = "hold a card of the same suit" in said and "a matching suit is not enough" not in said
    by_pair = "be a pair of the same rank" in said and "a matching rank is not enough" not in said
    by_card = "hold a card of the same rank" in said and "a matching rank is not enough" not in said
    expected = set()
    if by_suit:
        expected |= {SUIT_RUN, SPADE_PAIR}
    if by_pair or by_card:
        expected.add(SIXES)
    if by_card:
        expected.add(SIX_RUN)
    state = _act(_start(config, LAID, BLOCKER), "lay", ["6S", "7S"])
    blocks = {frozenset(a["cards"]) for a in tt.legal_actions(state, 1) if a["type"] == "block"}
    assert blocks == expected, said


# ---------------------------------------------------------------- swapping


def _swap_words(said: str) -> int:
    if "Swapping cards is not allowed" in said:
        return 0
    if "swap one card:" in said:
        return 1
    found = re.search(r"swap up to (\d+) cards:", said)
    assert found, said
    return int(found.group(1))


@pytest.mark.parametrize("max_swap", range(8))
def test_the_sheets_swap_limit_is_the_engines(max_swap):
    config = tt.Config(max_swap=max_swap)
    most = _swap_words(_section(config, "Passing and swapping"))
    state = _start(config, ACES_HAND, OTHER_HAND)
    sizes = {len(a["cards"]) for a in tt.legal_actions(state, 0) if a["type"] == "swap"}
    assert sizes == set(range(1, most + 1)), (max_swap, most)
    if most:
        swapped = _act(state, "swap", ACES_HAND[:most])
        assert len(swapped.hands[0]) == 7 and len(swapped.secondary) == most
    if most < 7:
        with pytest.raises(tt.IllegalAction, match=f"at most {most}"):
            _act(state, "swap", ACES_HAND[: most + 1])


# ---------------------------------------------------------------- where drawing stops


def _floor_words(said: str) -> int:
    if "Drawing stops for good when the stockpile is empty" in said:
        return 0
    found = re.search(r"the stockpile is down to (\d+) (cards?) or fewer", said)
    assert found, said
    n, word = int(found.group(1)), found.group(2)
    assert word == ("card" if n == 1 else "cards"), said
    return n


@pytest.mark.parametrize("stock_floor", [0, 1, 2, 5, 12, 30])
def test_drawing_stops_where_the_sheet_says(stock_floor):
    config = tt.Config(stock_floor=stock_floor)
    floor = _floor_words(_section(config, "The stockpiles"))
    state = _act(_start(config, LAID, BLOCKER), "lay", ["6S", "7S"])
    # One card above the sheet's floor and no secondary stockpile: the blocked
    # player wants two cards and gets one.
    state = replace(state, stock=state.stock[: floor + 1], secondary=())
    state = _act(state, "block", ["3S", "4S"])
    assert len(state.hands[0]) == 6 and len(state.stock) == floor
    assert tt.is_over(state) and tt.result(state)["outcome"] == "drawing_stopped"
