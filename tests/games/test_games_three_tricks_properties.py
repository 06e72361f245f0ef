"""3 Tricks: seeded bot games, property tests, and the replay command as a subprocess."""

import json
import pathlib
import random
import subprocess
import sys
from collections import Counter

import pytest
from games_helpers import replay_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from games import three_tricks as tt
from games.cards import full_deck
from games.replay import replay_document

ROOT = pathlib.Path(__file__).resolve().parents[2]


def all_cards(state: tt.State) -> list[str]:
    cards = [c for h in state.hands for c in h] + list(state.stock) + list(state.secondary)
    cards += [c for s in state.standing for t in s for c in t]
    cards += [c for p in state.blocked for t in p for c in t]
    return cards


def check_conserved(state: tt.State) -> None:
    assert sorted(all_cards(state)) == sorted(full_deck())
    # Between turns a hand holds 7 minus 2 per standing trick, unless drawing stopped short.
    for seat in (0, 1):
        expected = tt.HAND_SIZE - 2 * len(state.standing[seat])
        if state.outcome != tt.OUTCOME_TRICKS:
            assert len(state.hands[seat]) == expected or state.outcome == tt.OUTCOME_STOPPED
    assert not state.drawing_stopped or tt.is_over(state)


def check_result(state: tt.State) -> None:
    """A finished game's winners follow how it ended: the third trick's layer; the count
    when piles differ; level piles a draw (both) when drawing stopped, nobody after two
    passes. ``draw`` is true exactly when both seats won."""
    if not tt.is_over(state):
        return
    out = tt.result(state)
    a, b = out["blocked"]
    assert out["draw"] is (out["winners"] == [0, 1])
    if out["outcome"] == tt.OUTCOME_TRICKS:
        assert len(out["winners"]) == 1
    elif a != b:
        most = [0] if a > b else [1]
        assert out["winners"] == (most if state.config.count == "most" else [1 - most[0]])
    elif out["outcome"] == tt.OUTCOME_STOPPED:
        assert out["winners"] == [0, 1]
    else:
        assert out["outcome"] == tt.OUTCOME_PASSED and out["winners"] == []


def check_no_leaks(state: tt.State) -> None:
    for seat in (0, 1):
        v = tt.view(state, seat)
        text = json.dumps(v)
        hidden = list(state.hands[1 - seat]) + list(state.stock) + list(state.secondary)
        hidden += [c for p in state.blocked for t in p for c in t]
        for card in hidden:
            assert f'"{card}"' not in text, (seat, card)
        for secret in ("config", "seed", "stock_floor", "rank_match"):
            assert secret not in v
        assert v["actions"] == tt.legal_actions(state, seat)


def random_config(rng: random.Random) -> tt.Config:
    return tt.Config(
        aces=rng.choice(tt.ACES),
        block=rng.choice(tt.BLOCKS),
        rank_match=rng.choice(tt.RANK_MATCHES),
        max_swap=rng.choice([0, 1, 2, 3]),
        stock_floor=rng.choice([0, 5, 12]),
        count=rng.choice(tt.COUNTS),
    )


# ---------------------------------------------------------------- seeded bot games


def test_seeded_bot_games_of_the_seeds_rules_all_end():
    outcomes = Counter()
    reshuffles = 0
    for seed in range(300):
        state, log = tt.play_game(tt.Config(), seed)
        assert tt.is_over(state)
        check_conserved(state)
        check_result(state)
        outcome = tt.result(state)
        outcomes[outcome["outcome"]] += 1
        reshuffles += state.reshuffles
        if outcome["outcome"] == tt.OUTCOME_TRICKS:
            assert outcome["winners"] == [log[-1]["seat"]]
            assert len(state.standing[log[-1]["seat"]]) == 3
        assert (state, log) == tt.play_game(tt.Config(), seed)
    # Every way to end a game happens among these seeds, and the stock gets reshuffled.
    assert set(outcomes) == {tt.OUTCOME_TRICKS, tt.OUTCOME_STOPPED, tt.OUTCOME_PASSED}
    assert reshuffles > 0


def test_seeded_bot_games_at_variant_tables_end_and_replay():
    rng = random.Random(11)
    for seed in range(150):
        cfg = random_config(rng)
        state, log = tt.play_game(cfg, seed)
        assert tt.is_over(state)
        check_conserved(state)
        check_result(state)
        assert tt.replay(cfg, log, seed=seed) == state


# ---------------------------------------------------------------- hypothesis


@st.composite
def configs(draw):
    return tt.Config(
        aces=draw(st.sampled_from(tt.ACES)),
        block=draw(st.sampled_from(tt.BLOCKS)),
        rank_match=draw(st.sampled_from(tt.RANK_MATCHES)),
        max_swap=draw(st.integers(0, 3)),
        stock_floor=draw(st.sampled_from([0, 5, 20])),
        count=draw(st.sampled_from(tt.COUNTS)),
    )


def random_game(cfg, seed, driver, max_steps=300, check=None):
    """Random legal actions; passes are rare so games get deep into the stockpiles."""
    rng = random.Random(driver)
    state = tt.new_game(cfg, seed=seed)
    log = []
    for _ in range(max_steps):
        if check:
            check(state)
        if tt.is_over(state):
            break
        options = tt.legal_actions(state, state.to_act)
        moves = [a for a in options if a["type"] != "pass"]
        action = rng.choice(moves) if moves and rng.random() < 0.97 else options[-1]
        if action["type"] != "pass" and rng.random() < 0.5:
            lays = [a for a in options if a["type"] in ("lay", "block")]
            action = rng.choice(lays) if lays else action
        if not moves:
            action = next(a for a in options if a["type"] == "pass")
        state, events = tt.apply(state, action)
        json.dumps(events)
        log.append(action)
    return state, log


@settings(max_examples=80, deadline=None)
@given(configs(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_cards_conserved_and_views_leak_nothing(cfg, seed, driver):
    def check(state):
        check_conserved(state)
        check_result(state)
        check_no_leaks(state)
        json.dumps(tt.spectator_view(state))

    random_game(cfg, seed, driver, check=check)


@settings(max_examples=60, deadline=None)
@given(configs(), st.integers(0, 10**6), st.integers(0, 10**6), st.floats(0.2, 0.9))
def test_players_who_often_pass_get_the_result_their_ending_gives(cfg, seed, driver, pass_rate):
    """Games where passing is common end by two passes, with piles level or not."""
    rng = random.Random(driver)
    state = tt.new_game(cfg, seed=seed)
    for _ in range(300):
        if tt.is_over(state):
            break
        options = tt.legal_actions(state, state.to_act)
        passes = [a for a in options if a["type"] == "pass"]
        action = passes[0] if passes and rng.random() < pass_rate else rng.choice(options)
        state, events = tt.apply(state, action)
        if tt.is_over(state):
            assert events[-1] == {"type": "game_over", **tt.result(state)}
    check_result(state)


@settings(max_examples=60, deadline=None)
@given(configs(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_replay_equals_live(cfg, seed, driver):
    live, log = random_game(cfg, seed, driver)
    assert tt.replay(cfg, log, seed=seed) == live
    doc = {"game": "three_tricks", "rules": cfg.to_dict(), "seed": seed, "actions": log}
    out = replay_document(json.loads(json.dumps(doc)))
    assert {k: out[k] for k in tt.result(live)} == tt.result(live)


@settings(max_examples=60, deadline=None)
@given(configs(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_legal_actions_are_exactly_what_apply_accepts(cfg, seed, driver):
    state, _ = random_game(cfg, seed, driver, max_steps=40)
    if tt.is_over(state):
        return
    rng = random.Random(driver)
    seat = state.to_act
    legal = tt.legal_actions(state, seat)
    for action in legal:
        tt.apply(state, action)
    hand = list(state.hands[seat])
    for _ in range(30):
        kind = rng.choice(tt.ACTION_TYPES)
        cards = rng.sample(hand, min(len(hand), rng.randint(0, 4)))
        action = {"type": kind, "seat": seat}
        if kind != "pass":
            action["cards"] = cards
        listed = any(
            a["type"] == kind and sorted(a.get("cards", [])) == sorted(action.get("cards", []))
            for a in legal
        )
        try:
            tt.apply(state, action)
        except tt.IllegalAction as exc:
            assert exc.reason and not listed, action
        else:
            assert listed, action


def test_explicit_deck_and_reshuffles_replay_a_seeded_game(monkeypatch):
    for seed in range(60):
        state, log = tt.play_game(tt.Config(), seed)
        if state.reshuffles >= 2:
            break
    else:
        pytest.fail("no bot game reshuffled the secondary stockpile twice")
    # Record the orders the seeded game used, then hand them in explicitly with
    # another seed: the game must come out the same.
    orders = []
    seeded = tt._reshuffled

    def spy(state, secondary, index):
        order = seeded(state, secondary, index)
        orders.append(order)
        return order

    monkeypatch.setattr(tt, "_reshuffled", spy)
    assert tt.replay(tt.Config(), log, seed=seed) == state
    monkeypatch.undo()
    assert len(orders) == state.reshuffles
    explicit = tt.replay(
        tt.Config(),
        log,
        seed="another seed",
        dealer=state.dealer,
        deck=tt.seeded_deck(seed),
        reshuffles=orders,
    )
    assert tt.result(explicit) == tt.result(state)
    assert explicit.hands == state.hands and explicit.stock == state.stock
    assert explicit.blocked == state.blocked


# ---------------------------------------------------------------- the replay command


def test_cli_replays_bot_games(tmp_path):
    rng = random.Random(8)
    for seed in range(4):
        cfg = random_config(rng) if seed else tt.Config()
        state, log = tt.play_game(cfg, seed)
        doc = {"game": "three_tricks", "rules": cfg.to_dict(), "seed": seed, "actions": log}
        proc = replay_cli(doc, tmp_path, "three_tricks.json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["winners"] == list(state.winners) and out["complete"] is True
        assert out == replay_document(doc)


def test_cli_explicit_deck_with_shorthand_passes(tmp_path):
    from test_games_three_tricks import P0, P1, stack

    doc = {
        "game": "three_tricks",
        "dealer": 1,
        "deck": stack([P0, P1]),
        "actions": [
            {"type": "lay", "cards": ["6S", "7S"]},
            {"type": "block", "cards": ["6h", "6d"]},
            "pass",  # facing the fresh block: lets it stand, not counted
            "pass",
            "pass",
        ],
    }
    proc = replay_cli(doc, tmp_path, "three_tricks.json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["outcome"] == "both_passed" and out["winners"] == [0]
    assert out["blocked_tricks"] == [[["6S", "7S"]], []]
    assert out["standing_tricks"] == [[], [["6H", "6D"]]]


def test_cli_illegal_action_exits_2_with_its_index(tmp_path):
    doc = {"game": "three_tricks", "seed": 1, "actions": ["pass", {"type": "block", "cards": []}]}
    proc = replay_cli(doc, tmp_path, "three_tricks.json")
    assert proc.returncode == 2 and proc.stdout == ""
    err = json.loads(proc.stderr)
    assert err["at"] == 1 and "fresh trick" in err["error"]


@pytest.mark.parametrize(
    "doc, message",
    [
        ("[]", "JSON object"),
        ({"game": "three_tricks", "seed": 1}, "Missing key 'actions'"),
        ({"game": "three_tricks", "actions": []}, "seed"),
        ({"game": "three_tricks", "seed": 1, "actions": [], "hands": []}, "Unknown key"),
        ({"game": "three_tricks", "seed": 1, "rules": {"jokers": 2}, "actions": []}, "jokers"),
        (
            {"game": "three_tricks", "seed": 1, "rules": {"max_swap": "3"}, "actions": []},
            "max_swap",
        ),
        ({"game": "three_tricks", "deck": ["AS", "2S"], "actions": []}, "52"),
        ({"game": "three_tricks", "seed": 1, "reshuffles": "x", "actions": []}, "reshuffles"),
        ({"game": "three_tricks", "seed": 1, "actions": ["lay"]}, "actions[0]"),
        ({"game": "three_tricks", "seed": 1, "actions": [{"type": "fold"}]}, "unknown action"),
    ],
)
def test_cli_malformed_input_exits_2_with_a_message(doc, message, tmp_path):
    proc = replay_cli(doc, tmp_path, "three_tricks.json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert message in json.loads(proc.stderr)["error"]


def test_engine_imports_without_django():
    code = (
        "import sys; sys.modules['django'] = None\n"
        "from games import three_tricks as tt\n"
        "s, _ = tt.play_game(tt.Config(), 1)\n"
        "print(tt.result(s)['winners'])\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr


def test_the_docs_replay_example_gives_the_output_the_docs_show(tmp_path):
    """docs/three_tricks.md's record (its deck written out: the hands it deals are the
    scenario tests' P0 and P1) replays to the output printed under it."""
    from games_helpers import docs_replay_example
    from test_games_three_tricks import P0, P1, stack

    doc, output = docs_replay_example("three_tricks.md")
    deck = stack([P0, P1], dealer=doc["dealer"])
    assert [c for c in doc["deck"] if c != "..."] == deck[: len(doc["deck"]) - 1]
    doc["deck"] = deck
    del doc["reshuffles"]  # no reshuffle comes in this game; the block shows its shape
    proc = replay_cli(doc, tmp_path, "three_tricks.json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == output


@pytest.mark.parametrize(
    "actions, at, message",
    [
        ("pass", None, "actions must be a list."),
        (
            [{"type": "jump"}],
            0,
            "actions[0]: unknown action type 'jump' (known: lay, block, pass, swap).",
        ),
        ([5], 0, 'actions[0] must be "pass" or an action object.'),
        (["AS"], 0, 'actions[0] must be "pass" or an action object.'),
    ],
)
def test_replay_record_refuses_a_bad_action_list_by_its_index(actions, at, message):
    doc = {"game": "three_tricks", "seed": 1, "actions": actions}
    with pytest.raises(tt.RecordError) as info:
        tt.replay_record(doc)
    assert str(info.value) == message and info.value.at == at


def test_replay_record_refuses_an_action_after_the_game_is_over_and_defaults_seats():
    state, log = tt.play_game(tt.Config(), 3)
    # Seats left out are the seat to act's: the same game replays without them.
    seatless = [{k: v for k, v in a.items() if k != "seat"} for a in log]
    out = tt.replay_record({"game": "three_tricks", "seed": 3, "actions": seatless})
    assert out["winners"] == tt.result(state)["winners"]
    with pytest.raises(tt.RecordError) as info:
        tt.replay_record({"game": "three_tricks", "seed": 3, "actions": [*log, "pass"]})
    assert str(info.value) == f"actions[{len(log)}]: the game is already over."
    assert info.value.at == len(log)
