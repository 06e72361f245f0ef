"""7Up7Down property tests: conservation, termination, no leaks, replay, bot legality."""

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import seven_up as su
from games.cards import full_deck

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def configs(draw):
    n = draw(st.integers(min_value=su.MIN_SEATS, max_value=su.MAX_SEATS))
    return su.Config(
        n,
        hook=draw(st.booleans()),
        points_per_trick=draw(st.sampled_from([15, 10, 1])),
        zero_bid_points=draw(st.sampled_from([10, 5, 0])),
        first_dealer=draw(st.integers(min_value=0, max_value=n - 1)),
    )


def random_match(config, seed, driver_seed, check=None, stop=None):
    """Play with random legal actions; ``stop`` (0..1) cuts the match short."""
    rng = random.Random(driver_seed)
    state = su.new_match(config, seed=seed)
    log = []
    limit = None if stop is None else int(stop * 14 * 7 * 8)
    if check:
        check(state)
    while not su.is_over(state) and (limit is None or len(log) < limit):
        action = rng.choice(su.legal_actions(state, state.to_act))
        state, events = su.apply(state, action)
        json.dumps(events)
        assert all(isinstance(e, dict) and "type" in e for e in events)
        log.append(action)
        assert len(log) <= 14 * 7 * 8, "match did not end"
        if check:
            check(state)
    return state, log


def conserved(state):
    """Every card dealt this deal is in a hand, the trick in progress or a finished trick."""
    if state.phase not in ("bid", "play"):
        return
    dealt = sorted(c for h in state.dealt for c in h)
    now = [c for h in state.hands for c in h] + [c for _, c in state.current]
    now += [c for t in state.tricks for _, c in t.cards]
    assert sorted(now) == dealt
    assert len(set(dealt)) == len(dealt) and state.trump_card not in dealt
    assert all(len(h) == state.cards for h in state.dealt)
    for record in state.history:
        played = sorted(c for t in record.tricks for _, c in t.cards)
        assert played == sorted(c for h in record.hands for c in h)


def _hidden_from(state, seat):
    """Seats whose current cards ``seat`` may not see: the others, or itself when blind."""
    if state.blind:
        return [seat]
    return [o for o in range(state.n_seats) if o != seat]


def _swap_hidden(state, seat):
    """The same state with the cards hidden from ``seat`` dealt differently.

    The hidden cards and the unseen ones (in no hand, not the trump card) are
    shuffled and dealt again to the same hidden places. A view that leaks nothing
    is the same for both states.
    """
    hidden = _hidden_from(state, seat)
    places = [(s, i) for s in hidden for i in range(len(state.hands[s]))]
    if not places:
        return None
    in_use = {c for h in state.dealt for c in h} | {state.trump_card}
    pool = [c for c in full_deck() if c not in in_use]
    pool += [state.hands[s][i] for s, i in places]
    random.Random(seat).shuffle(pool)
    mapping = {state.hands[s][i]: pool[j] for j, (s, i) in enumerate(places)}
    hands = tuple(tuple(mapping.get(c, c) for c in h) for h in state.hands)
    dealt = tuple(tuple(mapping.get(c, c) for c in h) for h in state.dealt)
    return dataclasses.replace(state, hands=hands, dealt=dealt)


def no_leaks(state):
    for seat in range(state.n_seats):
        v = su.view(state, seat)
        json.dumps(v)
        if state.phase not in ("bid", "play"):
            continue
        # Finished deals are public: the score sheet, and the last deal's last trick
        # (played face up; its cards may be dealt again, to anyone).
        public = {k: x for k, x in v.items() if k not in ("sheet", "previous_trick")}
        previous = v["previous_trick"]
        if previous is not None:
            record = state.history[-1]
            seen = [[s, c] for s, c in record.tricks[-1].cards]
            if record.number == su.BLIND_DEAL and seen[-1][0] == seat:
                seen[-1][1] = None  # its player never saw it: it ended the deal
            assert previous["cards"] == seen and not state.tricks
        text = json.dumps(public)
        for other in _hidden_from(state, seat):
            for card in state.hands[other]:
                assert f'"{card}"' not in text, (seat, other, card)
        other_world = _swap_hidden(state, seat)
        if other_world is not None:
            assert su.view(other_world, seat) == v
        if state.blind:
            assert v["hand"] == [] and v["legal"] == []
        else:
            assert v["hand"] == su.sort_hand(state.hands[seat])


@settings(max_examples=40, deadline=None)
@given(configs(), SEEDS, SEEDS)
def test_cards_conserved_and_every_match_ends(config, seed, driver_seed):
    final, log = random_match(config, seed, driver_seed, check=conserved)
    assert su.is_over(final) and len(final.history) == 14
    assert [r.cards for r in final.history] == list(su.DEAL_SIZES)
    assert len(log) == sum(config.n_seats * (1 + k) for k in su.DEAL_SIZES)
    for record in final.history:
        assert sum(record.tricks_won) == record.cards
        assert all(0 <= b <= record.cards for b in record.bids)
        if config.hook:
            assert sum(record.bids) != record.cards
        for b, w, p in zip(record.bids, record.tricks_won, record.points, strict=True):
            assert p == su.deal_points(b, w, config)
    res = su.result(final)
    assert res["totals"] == [sum(r.points[s] for r in final.history) for s in range(config.n_seats)]
    assert res["winners"] == [s for s, t in enumerate(res["totals"]) if t == max(res["totals"])]


@settings(max_examples=25, deadline=None)
@given(configs(), SEEDS, SEEDS)
def test_no_view_leaks_a_hidden_card(config, seed, driver_seed):
    random_match(config, seed, driver_seed, check=no_leaks)


@settings(max_examples=40, deadline=None)
@given(configs(), SEEDS, SEEDS, st.floats(min_value=0, max_value=1))
def test_replaying_the_log_equals_the_live_state(config, seed, driver_seed, cut):
    final, log = random_match(config, seed, driver_seed)
    assert su.replay(config, log, seed=seed) == final
    k = int(cut * len(log))
    live = su.new_match(config, seed=seed)
    for action in log[:k]:
        live, _ = su.apply(live, action)
    assert su.replay(config, log[:k], seed=seed) == live


@settings(max_examples=40, deadline=None)
@given(configs(), SEEDS, SEEDS, st.floats(min_value=0, max_value=1))
def test_the_replay_record_equals_the_live_match(config, seed, driver_seed, stop):
    """to_record -> replay_record reproduces the live bids, tricks and points, even mid-deal."""
    live, _ = random_match(config, seed, driver_seed, stop=stop)
    out = su.replay_record(su.to_record(live))
    res = su.result(live)
    assert out["totals"] == res["totals"] and out["winners"] == res["winners"]
    rows = out["deals"]
    in_progress = live.phase in ("bid", "play")
    assert len(rows) == len(live.history) + in_progress
    for row, record in zip(rows, live.history, strict=False):
        assert row["trump"] == record.trump
        assert row["bids"] == list(record.bids)
        assert row["tricks_won"] == list(record.tricks_won)
        assert row["points"] == list(record.points)
        assert [(t["leader"], t["winner"]) for t in row["tricks"]] == [
            (t.leader, t.winner) for t in record.tricks
        ]
    if in_progress:
        row = rows[-1]
        assert row["bids"] == list(live.bids) and row["points"] == [None] * config.n_seats
        assert row["tricks_won"] == list(live.tricks_won)
        done = [t for t in row["tricks"] if t["winner"] is not None]
        assert len(done) == len(live.tricks)
        assert len(row["tricks"]) == len(live.tricks) + bool(live.current)


@settings(max_examples=30, deadline=None)
@given(configs(), SEEDS)
def test_bots_never_act_illegally(config, seed):
    final, log = su.play_match(config, seed)
    assert su.is_over(final)
    state = su.new_match(config, seed=seed)
    for action in log:
        assert action in su.legal_actions(state, state.to_act)
        state, _ = su.apply(state, action)
    assert state == final
