"""All Fives: seeded bot games, property tests, and the replay command as a subprocess."""

import json
import pathlib
import random
import subprocess
import sys

import pytest
from games_helpers import replay_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from games import all_fives as af
from games.cards import full_deck
from games.replay import ReplayError, replay_document

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHEETS = [
    af.Sheet(ace=a, wins=w, follow=f)
    for a in ("high", "low")
    for w in ("highest", "lowest")
    for f in af.FOLLOW_VALUES
]


def mixed_config(rng: random.Random) -> af.Config:
    n = rng.choice([2, 3])
    return af.Config(
        table_rules=rng.choice(SHEETS),
        seat_rules=tuple(rng.choice(SHEETS) for _ in range(n)),
        mode=rng.choice(af.MODES),
        revoke_style=rng.choice(af.REVOKE_STYLES),
    )


def deck_cards(state: af.State) -> list[str]:
    """Every card of the current deck, wherever it is."""
    cards = [c for h in state.hands for c in h] + list(state.stock)
    cards += [state.turn_up, *state.set_aside]
    cards += [c for _, c in state.current]
    cards += [c for t in state.tricks for _, c in t.cards]
    return cards


def check_conserved(state: af.State) -> None:
    cards = deck_cards(state)
    assert sorted(cards) == sorted(full_deck())
    sizes = {len(h) for h in state.hands}
    if not state.current:
        assert len(sizes) == 1, "every hand holds the same number of cards between tricks"


def check_no_leaks(state: af.State) -> None:
    for seat in range(state.n_seats):
        v = af.view(state, seat)
        text = json.dumps(v)
        hidden = list(state.stock)
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden += hand
        for card in hidden:
            assert f'"{card}"' not in text, (seat, card)
        for secret in ("legal_for_table", "revokes", "verdicts", "seat_rules", "follow", "seed"):
            assert secret not in text
        assert v["actions"] == af.legal_actions(state, seat)


# ---------------------------------------------------------------- seeded bot games


@pytest.mark.parametrize("n", [2, 3])
def test_seeded_bot_games_of_the_seeds_rules_all_end_with_one_winner(n):
    cfg = af.Config.uniform(af.Sheet(), n)
    for seed in range(40):
        state, log = af.play_game(cfg, seed)
        assert af.is_over(state)
        outcome = af.result(state)
        assert len(outcome["winners"]) == 1
        winner = outcome["winners"][0]
        assert outcome["scores"][winner] >= 61
        assert outcome["scores"][winner] == max(outcome["scores"])
        # Every hand's tricks hold distinct cards, all the hand's cards.
        for h in state.history:
            cards = [c for t in h.tricks for _, c in t.cards]
            assert len(cards) == len(set(cards)) == n * len(h.tricks)
            assert len(h.tricks) == 6 + 3 * h.runs
        assert (state, log) == af.play_game(cfg, seed)


def test_seeded_bot_games_at_barnga_tables_end_and_replay():
    rng = random.Random(2024)
    revokes = upheld = redeals = 0
    for seed in range(80):
        cfg = mixed_config(rng)
        state, log = af.play_game(cfg, seed)
        assert af.is_over(state) and len(state.winners) == 1
        assert af.replay(cfg, log, seed=seed) == state
        for h in state.history:
            revokes += sum(len(t.revokes) for t in h.tricks)
            upheld += sum(c.upheld for c in h.calls)
            redeals += h.redeals
            if cfg.mode == "referee":
                assert not h.calls and not any(t.revokes for t in h.tricks)
    assert revokes and upheld  # the mix exercises the revoke rules


def _call_view(card: str) -> dict:
    """Seat 0's view after a trick led in hearts (trump spades) to which seat 1 played ``card``."""
    return {
        "seat": 0,
        "trump": "S",
        "actions": [
            {"type": "call_revoke", "seat": 0, "accused": 1},
            {"type": "play", "seat": 0, "card": "2D"},
        ],
        "tricks": [{"cards": [[0, "9H"], [1, card]]}],
        "hand": ["2D"], "current": [], "calls": [], "history": [],
    }  # fmt: skip


@pytest.mark.parametrize(
    "follow, card, calls",
    [
        ("suit", "3C", True), ("suit", "3S", True), ("suit", "3H", False),
        ("suit_or_trump", "3C", True), ("suit_or_trump", "3S", False),
        ("any", "3C", False), ("any", "3S", False),
    ],
)  # fmt: skip
def test_bots_call_revokes_only_on_cards_their_own_sheet_forbids(follow, card, calls):
    """A bot whose sheet lets anyone play any card called a revoke on every card off
    the led suit (7,267 refused calls in games where no sheet asked to follow)."""
    sheet = af.Sheet(follow=follow)
    rng = random.Random(1)
    chosen = {af.choose_from_view(_call_view(card), rng, sheet)["type"] for _ in range(40)}
    assert ("call_revoke" in chosen) is calls


def test_bots_where_nobody_must_follow_never_call():
    anyone = af.Sheet(follow="any")
    cfg = af.Config(table_rules=af.Sheet(), seat_rules=(anyone, anyone, anyone), mode="barnga")
    for seed in range(5):
        state, log = af.play_game(cfg, seed)
        assert not [a for a in log if a["type"] == "call_revoke"]


def test_bots_learn_to_follow_suit_once_caught():
    v = {
        "seat": 1,
        "actions": [
            {"type": "play", "seat": 1, "card": "2H"},
            {"type": "play", "seat": 1, "card": "AS"},
        ],
        "hand": ["2H", "AS"],
        "trump": "S",
        "current": [[0, "9H"]],
        "tricks": [],
        "calls": [],
        "history": [{"calls": [{"trick": 2, "caller": 0, "accused": 1, "upheld": True}]}],
    }
    rng = random.Random(0)
    assert {af.choose_from_view(v, rng)["card"] for _ in range(20)} == {"2H"}


# ---------------------------------------------------------------- hypothesis


@st.composite
def configs(draw):
    n = draw(st.sampled_from([2, 3]))
    sheet = st.sampled_from(SHEETS)
    return af.Config(
        table_rules=draw(sheet),
        seat_rules=tuple(draw(sheet) for _ in range(n)),
        mode=draw(st.sampled_from(af.MODES)),
        target=draw(st.sampled_from([15, 31, 61])),
        revoke_style=draw(st.sampled_from(af.REVOKE_STYLES)),
    )


def random_game(cfg, seed, driver, max_steps=400, check=None):
    """Random legal actions from random seats (calls included) for up to ``max_steps``."""
    rng = random.Random(driver)
    state = af.new_game(cfg, seed=seed)
    log = []
    for _ in range(max_steps):
        if check:
            check(state)
        if af.is_over(state):
            break
        options = [a for s in range(cfg.n_seats) for a in af.legal_actions(state, s)]
        mine = af.legal_actions(state, state.to_act)
        action = rng.choice(options if rng.random() < 0.3 else mine)
        state, events = af.apply(state, action)
        json.dumps(events)
        assert all("type" in e for e in events)
        log.append(action)
    return state, log


@settings(max_examples=60, deadline=None)
@given(configs(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_cards_conserved_and_views_leak_nothing(cfg, seed, driver):
    def check(state):
        check_conserved(state)
        check_no_leaks(state)
        json.dumps(af.spectator_view(state))

    random_game(cfg, seed, driver, check=check)


@settings(max_examples=40, deadline=None)
@given(configs(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_replay_equals_live(cfg, seed, driver):
    live, log = random_game(cfg, seed, driver)
    assert af.replay(cfg, log, seed=seed) == live
    doc = {"game": "all_fives", **cfg.to_dict(), "seed": seed, "actions": log}
    out = replay_document(json.loads(json.dumps(doc)))
    assert {k: out[k] for k in ("winners", "scores", "hands_played", "complete")} == af.result(live)


@settings(max_examples=30, deadline=None)
@given(configs(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_explicit_decks_replay_the_seeded_game(cfg, seed, driver):
    live, log = random_game(cfg, seed, driver)
    decks = [af.seeded_deck(seed, k) for k in range(live.decks_used)]
    again = af.replay(cfg, log, dealer=af.cut_for_deal(cfg.n_seats, seed)[0], decks=decks)
    assert af.result(again) == af.result(live)
    assert again.hands == live.hands and again.history == live.history


@settings(max_examples=40, deadline=None)
@given(configs(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_refused_actions_leave_the_state_alone(cfg, seed, driver):
    state, _ = random_game(cfg, seed, driver, max_steps=60)
    rng = random.Random(driver)
    for _ in range(20):
        action = {
            "type": rng.choice(af.ACTION_TYPES),
            "seat": rng.randrange(cfg.n_seats),
            "card": rng.choice(full_deck()),
            "accused": rng.randrange(cfg.n_seats),
        }
        stripped = {"type": action["type"], "seat": action["seat"]}
        forms = [stripped, {**stripped, "card": action["card"]}]
        forms.append({**stripped, "accused": action["accused"]})
        listed = any(f in af.legal_actions(state, action["seat"]) for f in forms)
        try:
            after, _ = af.apply(state, action)
        except af.IllegalAction as exc:
            assert exc.reason and not listed
        else:
            assert listed and after.seq == state.seq + 1


# ---------------------------------------------------------------- the replay command


def test_cli_replays_bot_games_from_the_seed_and_from_explicit_decks(tmp_path):
    rng = random.Random(5)
    for seed in range(3):
        cfg = mixed_config(rng)
        state, log = af.play_game(cfg, seed)
        doc = {"game": "all_fives", **cfg.to_dict(), "seed": seed, "actions": log}
        proc = replay_cli(doc, tmp_path, "all_fives.json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["winners"] == list(state.winners) and out["complete"] is True
        assert [h["scores"] for h in out["hands"]] == [list(h.scores) for h in state.history]
        assert out == replay_document(doc)
        explicit = {
            "game": "all_fives",
            **cfg.to_dict(),
            "dealer": af.cut_for_deal(cfg.n_seats, seed)[0],
            "decks": [af.seeded_deck(seed, k) for k in range(state.decks_used)],
            "actions": log,
        }
        proc = replay_cli(explicit, tmp_path, "all_fives.json")
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == out


def test_cli_accepts_shorthand_actions_and_reports_per_hand_results(tmp_path):
    from test_games_all_fives import HANDS, WHOLE_HAND, stack

    doc = {
        "game": "all_fives",
        "players": 2,
        "mode": "referee",
        "target": 20,
        "dealer": 0,
        "decks": [stack(0, HANDS, "2S")],
        "actions": ["stand", *WHOLE_HAND],
    }
    proc = replay_cli(doc, tmp_path, "all_fives.json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["winners"] == [1] and out["scores"] == [0, 22] and out["complete"]
    (hand,) = out["hands"]
    assert hand["trump"] == "S" and hand["points"] == [0, 22]
    assert hand["tricks"][0] == {"leader": 1, "cards": ["AS", "5S"], "winner": 1}


def test_replay_record_reports_scored_hands_and_the_hand_in_progress_alike():
    """A record's hands: a scored one and the one in progress share keys and their order
    (the command prints them), the unscored hand with no points yet."""
    from test_games_all_fives import HANDS, WHOLE_HAND, stack

    doc = {
        "game": "all_fives",
        "players": 2,
        "dealer": 0,
        "decks": [stack(0, HANDS, "2S")],
        "actions": ["stand", *WHOLE_HAND, "beg", "take_one"],
    }
    out = af.replay_record(doc)
    keys = ["hand", "dealer", "trump", "begged", "took_one", "runs", "redeals", "tricks"]
    keys += ["calls", "points", "penalties", "barred", "scores", "complete"]
    scored, playing = out["hands"]
    assert list(scored) == keys and list(playing) == keys
    assert scored["tricks"][0] == {"leader": 1, "cards": ["AS", "5S"], "winner": 1}
    assert len(scored["tricks"]) == 6
    assert {k: v for k, v in scored.items() if k != "tricks"} == {
        "hand": 1,
        "dealer": 0,
        "trump": "S",
        "begged": False,
        "took_one": False,
        "runs": 0,
        "redeals": 0,
        "calls": [],
        "points": [0, 22],
        "penalties": [0, 0],
        "barred": [False, False],
        "scores": [0, 22],
        "complete": True,
    }
    # Hand 2 comes from the seed's second deck (seed 0 with explicit decks): the
    # dealer moves on, eldest (seat 0) begs and the dealer gives them one point.
    assert playing == {
        "hand": 2,
        "dealer": 1,
        "trump": af.seeded_deck(0, 1)[12][-1],
        "begged": True,
        "took_one": True,
        "runs": 0,
        "redeals": 0,
        "tricks": [],
        "calls": [],
        "points": None,
        "penalties": [0, 0],
        "barred": [False, False],
        "scores": [1, 22],
        "complete": False,
    }
    assert out["complete"] is False and out["winners"] == [1]


def test_cli_illegal_action_exits_2_with_its_index(tmp_path):
    doc = {
        "game": "all_fives",
        "players": 2,
        "seed": 3,
        "actions": [{"type": "beg"}, {"type": "take_one"}, {"type": "stand"}],
    }
    proc = replay_cli(doc, tmp_path, "all_fives.json")
    assert proc.returncode == 2 and proc.stdout == ""
    err = json.loads(proc.stderr)
    assert err["at"] == 2 and "right after the deal" in err["error"]


@pytest.mark.parametrize(
    "doc, message",
    [
        ("{not json", "not valid JSON"),
        ({"game": "all_fives", "players": 2, "seed": 1}, "Missing key 'actions'"),
        ({"game": "all_fives", "players": 4, "seed": 1, "actions": []}, "players"),
        ({"game": "all_fives", "seed": 1, "actions": []}, "players"),
        ({"game": "all_fives", "players": 2, "actions": []}, "seed"),
        ({"game": "all_fives", "players": 2, "seed": 1, "actions": [], "x": 1}, "Unknown key"),
        ({"game": "all_fives", "players": 2, "dealer": 0, "decks": [["AS"]], "actions": []}, "52"),
        (
            {"game": "all_fives", "rules": {"ace": "up"}, "players": 2, "seed": 1, "actions": []},
            "Missing",
        ),
        ({"game": "all_fives", "players": 2, "seed": 1, "actions": "stand"}, "list"),
        ({"game": "all_fives", "players": 2, "seed": 1, "actions": [7]}, "actions[0]"),
        ({"game": "all_fives", "players": 2, "seed": 1, "actions": ["sing"]}, "neither a card"),
    ],
)
def test_cli_malformed_input_exits_2_with_a_message(doc, message, tmp_path):
    proc = replay_cli(doc, tmp_path, "all_fives.json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert message in json.loads(proc.stderr)["error"]


def test_replay_document_errors_are_replay_errors():
    with pytest.raises(ReplayError) as info:
        replay_document({"game": "all_fives", "players": 2, "seed": 1, "actions": ["AS", "AS"]})
    assert info.value.payload["at"] == 0


def _over_record():
    state, log = af.play_game(af.Config.uniform(af.Sheet(), 2), 4)
    doc = {"game": "all_fives", "players": 2, "seed": 4, "actions": [*log, "stand"]}
    return doc, len(log)


@pytest.mark.parametrize(
    "actions, at, message",
    [
        ("stand", None, "actions must be a list."),
        (
            [{"type": "jump"}],
            0,
            "actions[0]: unknown action type 'jump' "
            "(known: stand, beg, take_one, run, play, call_revoke).",
        ),
        ([5], 0, "actions[0] must be a card, an action word or an action object."),
        (["XX"], 0, "actions[0]: 'XX' is neither a card nor one of beg, run, stand, take_one."),
    ],
)
def test_replay_record_refuses_a_bad_action_list_by_its_index(actions, at, message):
    doc = {"game": "all_fives", "players": 2, "seed": 1, "actions": actions}
    with pytest.raises(af.RecordError) as info:
        af.replay_record(doc)
    assert str(info.value) == message and info.value.at == at


def test_replay_record_refuses_an_action_after_the_game_is_over():
    doc, at = _over_record()
    with pytest.raises(af.RecordError) as info:
        af.replay_record(doc)
    assert str(info.value) == f"actions[{at}]: the game is already over."
    assert info.value.at == at


def test_engine_imports_without_django():
    code = (
        "import sys; sys.modules['django'] = None\n"
        "from games import all_fives as af\n"
        "s, _ = af.play_game(af.Config.uniform(af.Sheet(), 3), 1)\n"
        "print(af.result(s)['winners'])\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr


def test_the_docs_replay_example_gives_the_output_the_docs_show(tmp_path):
    """docs/all_fives.md's record, its deck's "..." the rest of the pack in order (no
    card of it is dealt: the second hand's deck comes from the seed), replays to the
    output printed under it: a called revoke, the hand's points and the next deal."""
    from games_helpers import docs_replay_example

    doc, output = docs_replay_example("all_fives.md")
    (deck,) = doc["decks"]
    assert deck[-1] == "..."
    doc["decks"] = [deck[:-1] + [c for c in full_deck() if c not in deck]]
    proc = replay_cli(doc, tmp_path, "all_fives.json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == output
