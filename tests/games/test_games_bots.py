import random

import pytest
from games_helpers import HIGH, config, play, rules

from games import bots
from games import five_tricks as ft
from games.presets import PRESETS
from games.tricks import legal_cards


def _mixed_config(mode="barnga"):
    seats = [PRESETS["guide-2"], PRESETS["appendix-4"], PRESETS["guide-9"], PRESETS["appendix-2"]]
    return config(PRESETS["guide-1"], seats=seats, mode=mode)


def test_bot_plays_a_card_legal_by_its_own_sheet():
    own = rules(trump="H", trump_when="any")
    cfg = config(HIGH, seats=[HIGH, own])
    state = ft.new_game(cfg, hands=[["2S"], ["3S", "4H", "5D"]])
    state = play(state, "2S")
    seen = {bots.choose_action(state, 1, random.Random(i))["card"] for i in range(40)}
    assert seen == {"3S", "4H"}  # 4H is legal on its own sheet only; 5D never


def test_bot_returns_none_when_it_has_nothing_to_do():
    state = ft.new_game(config(HIGH, 3), seed=1)
    assert bots.choose_action(state, 1, random.Random(0)) is None
    assert bots.choose_action(state, 0, random.Random(0))["type"] == "play"


def test_bot_claims_by_its_own_sheet_then_waits():
    table, low = HIGH, rules(ace="low")
    cfg = config(table, seats=[table, low])
    state = ft.new_game(cfg, hands=[["AH"], ["7H"]])
    state = play(state, "AH", "7H")
    rng = random.Random(0)
    assert bots.choose_action(state, 0, rng) == {"type": "claim", "seat": 0, "winner": 0}
    assert bots.choose_action(state, 1, rng) == {"type": "claim", "seat": 1, "winner": 1}
    state, _ = ft.apply(state, {"type": "claim", "seat": 0, "winner": 0})
    assert bots.choose_action(state, 0, rng) is None  # claimed, no dispute yet


def test_bot_may_give_in_during_a_dispute():
    table, low = HIGH, rules(ace="low")
    cfg = config(table, seats=[table, table, low])
    state = ft.new_game(cfg, hands=[["AH"], ["2H"], ["7H"]])
    state = play(state, "AH", "2H", "7H")
    for seat, winner in enumerate([0, 0, 2]):
        state, _ = ft.apply(state, {"type": "claim", "seat": seat, "winner": winner})
    assert state.dispute
    moves = [bots.choose_action(state, 2, random.Random(i)) for i in range(30)]
    assert None in moves  # sometimes it holds out
    assert [m for m in moves if m] and all(
        m == {"type": "claim", "seat": 2, "winner": 0} for m in moves if m
    )  # and when it moves, it joins the majority
    assert bots.choose_action(state, 0, random.Random(1)) is None  # already with the majority


def test_choose_from_view_uses_only_the_view():
    state = ft.new_game(_mixed_config(), seed=5)
    v = ft.view(state, 0)
    assert bots.choose_from_view(v, random.Random(3)) == bots.choose_action(
        state, 0, random.Random(3)
    )


@pytest.mark.parametrize("mode", ["barnga", "referee"])
def test_seeded_bot_playthrough_is_deterministic_and_legal(mode):
    cfg = _mixed_config(mode)
    final, log = bots.play_game(cfg, 2024)
    again, log2 = bots.play_game(cfg, 2024)
    assert final == again and log == log2
    assert ft.is_over(final)
    assert ft.replay(cfg, ft.deal(4, 2024), log) == final
    state = ft.new_game(cfg, seed=2024)
    for action in log:
        if action["type"] == "play":
            seat = action["seat"]
            led = state.current[0][1][-1] if state.current else None
            assert action["card"] in legal_cards(state.hands[seat], led, cfg.rules_for(seat))
        state, _ = ft.apply(state, action)
    if mode == "referee":
        assert all(t.resolution == "rules" for t in final.completed)
