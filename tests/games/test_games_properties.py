"""Property tests: conservation, termination, no leaks, replay, bot legality."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import bots
from games import five_tricks as ft
from games.presets import PRESETS
from games.tricks import legal_cards, trick_winner

NAMES = sorted(PRESETS)


@st.composite
def configs(draw, modes=("barnga", "referee")):
    n = draw(st.integers(min_value=2, max_value=8))
    table = PRESETS[draw(st.sampled_from(NAMES))]
    seats = tuple(PRESETS[draw(st.sampled_from(NAMES))] for _ in range(n))
    mode = draw(st.sampled_from(modes))
    return ft.Config(table_rules=table, seat_rules=seats, mode=mode)


def random_game(config, deal_seed, driver_seed, check=None):
    """Play a game with random legal actions, random claims, changes and time-outs."""
    rng = random.Random(driver_seed)
    state = ft.new_game(config, seed=deal_seed)
    log = []
    n = config.n_seats
    steps = 0
    if check:
        check(state)
    while not ft.is_over(state):
        if state.phase == "play":
            action = rng.choice(ft.legal_actions(state, state.to_act))
        elif rng.random() < 0.15:
            action = {"type": "timeout"}
        else:
            options = ft.legal_actions(state, rng.randrange(n))
            action = rng.choice(options) if options else {"type": "timeout"}
        state, events = ft.apply(state, action)
        assert all(isinstance(e, dict) and "type" in e for e in events)
        json.dumps(events)
        log.append(action)
        steps += 1
        assert steps < 3000, "game did not end"
        if check:
            check(state)
    return state, log


def conserved(initial):
    dealt = sorted(c for h in initial.hands for c in h)

    def check(state):
        cards = [c for h in state.hands for c in h]
        cards += [c for _, c in state.current]
        cards += [c for t in state.completed for _, c in t.cards]
        assert sorted(cards) == dealt

    return check


def no_leaks(state):
    for seat in range(state.n_seats):
        v = ft.view(state, seat)
        text = json.dumps(v)
        for other, hand in enumerate(state.hands):
            if other != seat:
                for card in hand:
                    assert f'"{card}"' not in text
        for key in (
            "table_rules",
            "seat_rules",
            "verdicts",
            "table_verdict",
            "ace",
            "wins",
            "trump",
        ):
            assert f'"{key}"' not in text
        assert (v["claims"] is not None) == state.dispute
        assert v["hand"] == ft.sort_hand(state.hands[seat], state.config.seat_rules[seat])


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=60, deadline=None)
@given(configs(), SEEDS, SEEDS)
def test_cards_conserved_and_every_game_ends(config, deal_seed, driver_seed):
    initial = ft.new_game(config, seed=deal_seed)
    final, _ = random_game(config, deal_seed, driver_seed, check=conserved(initial))
    assert ft.is_over(final)
    assert all(len(h) == 0 for h in final.hands)
    # Every holder plays once per trick, so there are as many tricks as the longest hand.
    assert len(final.completed) == max(ft.deal_sizes(config.n_seats))
    assert sum(final.tricks_won) == len(final.completed)
    res = ft.result(final)
    assert res["winners"] and all(
        final.tricks_won[w] == max(final.tricks_won) for w in res["winners"]
    )


@settings(max_examples=40, deadline=None)
@given(configs(), SEEDS, SEEDS)
def test_no_view_leaks_a_hidden_card(config, deal_seed, driver_seed):
    random_game(config, deal_seed, driver_seed, check=no_leaks)


@settings(max_examples=60, deadline=None)
@given(configs(), SEEDS, SEEDS, st.floats(min_value=0, max_value=1))
def test_replaying_the_log_equals_the_live_state(config, deal_seed, driver_seed, cut):
    final, log = random_game(config, deal_seed, driver_seed)
    hands = ft.deal(config.n_seats, deal_seed)
    assert ft.replay(config, hands, log) == final
    k = int(cut * len(log))
    live = ft.new_game(config, hands=hands)
    for action in log[:k]:
        live, _ = ft.apply(live, action)
    assert ft.replay(config, hands, log[:k]) == live


@settings(max_examples=60, deadline=None)
@given(configs(), SEEDS)
def test_bots_never_play_illegally_by_their_own_sheet(config, seed):
    final, log = bots.play_game(config, seed)
    assert ft.is_over(final)
    state = ft.new_game(config, seed=seed)
    for action in log:
        if action["type"] == "play":
            seat = action["seat"]
            assert seat == state.to_act
            led = state.current[0][1][-1] if state.current else None
            assert action["card"] in legal_cards(state.hands[seat], led, config.rules_for(seat))
        elif action["type"] == "claim" and state.claims[action["seat"]] is None:
            # A bot's first claim is the winner under its own sheet.
            own = config.seat_rules[action["seat"]]
            assert action["winner"] == trick_winner(state.current, own)
        state, _ = ft.apply(state, action)
    assert state == final
