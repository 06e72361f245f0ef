"""The public ``python -m games replay`` contract, driven as a subprocess."""

import json

import pytest
from games_helpers import cli_error, cli_ok, games_cli, replay_cli

from games import bots
from games import five_tricks as ft
from games.presets import PRESETS

HIGH = {"ace": "high", "wins": "highest", "trump": None, "trump_when": "void"}
LOW = {"ace": "low", "wins": "highest", "trump": "null", "trump_when": "void"}
HANDS = [["AH", "2S"], ["7H", "3S"], ["2H", "4S"]]


def doc(**kw):
    base = {
        "game": "five_tricks",
        "rules": HIGH,
        "hands": HANDS,
        "plays": ["AH", "7H", "2H", "2S", "3S", "4S"],
    }
    base.update(kw)
    return base


def test_normal_game(tmp_path):
    out = cli_ok(replay_cli(doc(), tmp_path))
    assert out == {
        "tricks": [
            {"leader": 0, "cards": ["AH", "7H", "2H"], "winner": 0, "verdicts": [0, 0, 0]},
            {"leader": 0, "cards": ["2S", "3S", "4S"], "winner": 2, "verdicts": [2, 2, 2]},
        ],
        "tricks_won": [1, 0, 1],
        "winners": [0, 2],
        "complete": True,
    }


def test_the_docs_replay_example_gives_the_output_the_docs_show(tmp_path):
    """docs/rules.md's record, as written there, replays to the output printed under
    it: a seat with its own sheet, claims that override it, co-winners."""
    from games_helpers import docs_replay_example

    record, output = docs_replay_example("rules.md", "The replay command")
    assert cli_ok(replay_cli(record, tmp_path)) == output


def test_plays_use_whoevers_turn_it_is(tmp_path):
    # After trick 1 the winner (seat 0) leads, so the order is 2S, 3S, 4S.
    proc = replay_cli(doc(), tmp_path)
    assert cli_ok(proc)["tricks"][1]["cards"] == ["2S", "3S", "4S"]


def test_seat_rules_and_claims(tmp_path):
    d = doc(
        seat_rules=[HIGH, LOW, HIGH],
        plays=["AH", "7H", "2H", "3S", "4S", "2S"],
        claims=[[1, 1, 0], [2, 0, 1]],
    )
    out = cli_ok(replay_cli(d, tmp_path))
    assert out["tricks"] == [
        # Seat 1's sheet (ace low) says 7H; two of three claims say seat 1.
        {"leader": 0, "cards": ["AH", "7H", "2H"], "winner": 1, "verdicts": [0, 1, 0]},
        # One claim each: the tie goes to the first seat clockwise from the leader (1).
        {"leader": 1, "cards": ["3S", "4S", "2S"], "winner": 1, "verdicts": [2, 2, 2]},
    ]
    assert out["tricks_won"] == [0, 2, 0] and out["winners"] == [1] and out["complete"] is True


def test_claims_may_hold_nulls_and_all_null_falls_back_to_rules(tmp_path):
    d = doc(claims=[[None, None, None], [None, 0, None]])
    out = cli_ok(replay_cli(d, tmp_path))
    assert [t["winner"] for t in out["tricks"]] == [0, 0]


def test_legality_is_by_the_acting_seats_own_sheet(tmp_path):
    table = {"ace": "high", "wins": "highest", "trump": "S", "trump_when": "void"}
    anytime = {"ace": "high", "wins": "highest", "trump": "s", "trump_when": "any"}
    d = doc(rules=table, plays=["AH", "3S", "2H"])
    payload = cli_error(replay_cli(d, tmp_path))
    assert payload["at"] == 1
    assert "seat 1 cannot play 3S" in payload["error"] and "must follow suit" in payload["error"]
    out = cli_ok(replay_cli(dict(d, seat_rules=[table, anytime, table]), tmp_path))
    assert out["tricks"] == [
        {"leader": 0, "cards": ["AH", "3S", "2H"], "winner": 1, "verdicts": [1, 1, 1]}
    ]
    assert out["complete"] is False


@pytest.mark.parametrize(
    "plays, at, words",
    [
        (["AH", "2H"], 1, "You do not hold 2H"),
        (["7H"], 0, "You do not hold 7H"),
        (["AH", "3S"], 1, "must follow suit"),
        (["AH", "7H", "2H", "2S", "3S", "4S", "AH"], 6, "already over"),
    ],
)
def test_illegal_play(tmp_path, plays, at, words):
    payload = cli_error(replay_cli(doc(plays=plays), tmp_path))
    assert payload["at"] == at and words in payload["error"]


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Windows editors start a UTF-8 file with a byte-order mark: it is not JSON's, but
    it is no reason to refuse the file."""
    assert cli_ok(replay_cli("\ufeff" + json.dumps(doc()), tmp_path)) == cli_ok(
        replay_cli(doc(), tmp_path)
    )


def test_plays_may_stop_early(tmp_path):
    out = cli_ok(replay_cli(doc(plays=["AH", "7H", "2H", "2S"]), tmp_path))
    assert out["complete"] is False and len(out["tricks"]) == 1
    assert out["tricks_won"] == [1, 0, 0] and out["winners"] == [0]
    out = cli_ok(replay_cli(doc(plays=["AH"]), tmp_path))
    assert out == {"tricks": [], "tricks_won": [0, 0, 0], "winners": [], "complete": False}
    out = cli_ok(replay_cli(doc(plays=[]), tmp_path))
    assert out["complete"] is False and out["winners"] == []


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", "not valid JSON"),
        ("[" * 100000, "nested too deeply"),
        ('{"game": ' + "1" * 5000 + "}", "more than 4,300 digits"),
        ("[1, 2]", "must be a JSON object"),
        (json.dumps(doc(game="no_such_game")), "Unknown game"),
        (json.dumps({k: v for k, v in doc().items() if k != "game"}), "Missing key 'game'"),
        (json.dumps(doc(extra=1)), "Unknown key"),
        (json.dumps({k: v for k, v in doc().items() if k != "plays"}), "Missing key 'plays'"),
        (json.dumps(doc(rules={"ace": "high"})), "rules"),
        (json.dumps(doc(rules={**HIGH, "trump": "X"})), "trump"),
        (json.dumps(doc(hands=[["AH", "ZZ"], ["7H"], ["2H"]])), "hands[0][1]"),
        (json.dumps(doc(hands=[["AH", "8S"], ["7H"], ["2H"]])), "not in the Five Tricks deck"),
        (json.dumps(doc(hands=[["AH", "2S"], ["AH"], ["2H"]])), "twice"),
        (json.dumps(doc(hands=[["ah", "2S"], ["AH"], ["2H"]])), "twice"),
        (json.dumps(doc(hands="AH 2S")), "hands must be a list"),
        (json.dumps(doc(hands=[["AH"]])), "2 to 8 hands"),
        (json.dumps(doc(hands=[["AH", 2], [], []])), "hands[0][1]"),
        (json.dumps(doc(plays="AH")), "plays must be a list"),
        (json.dumps(doc(plays=["AH", 7])), "plays[1]"),
        (json.dumps(doc(seat_rules=[HIGH, HIGH])), "seat_rules must be a list of 3"),
        (json.dumps(doc(seat_rules=[HIGH, HIGH, {"ace": "up"}])), "seat_rules[2]"),
        (json.dumps(doc(claims=[[0, 0]])), "claims[0] has 2 entries"),
        (json.dumps(doc(claims=[[0, 0, "0"], [2, 2, 2]])), "claims[0][2] must be a seat number"),
        (json.dumps(doc(claims=[[0, 0, True], [2, 2, 2]])), "claims[0][2] must be a seat number"),
        (json.dumps(doc(claims=[0, 0, 0])), "claims must be a list"),
        (json.dumps(doc(claims=[[0, 0, 0], [2, 2, 2], [0, 0, 0]])), "3 entries but only 2 tricks"),
        (json.dumps(doc(claims=[[0, 0, 0]])), "plays[5] completes trick 2, but claims has only 1"),
        (json.dumps(doc(claims=[[0, 0, 5], [2, 2, 2]])), "claims[0][2]"),
    ],
)
def test_malformed_input(tmp_path, text, words):
    payload = cli_error(replay_cli(text, tmp_path))
    assert words in payload["error"]


def test_a_malformed_play_says_where_and_a_json_value_is_written_as_json(tmp_path):
    # docs/rules.md: `at` when the problem shows at a play; values in JSON's words.
    payload = cli_error(replay_cli(doc(plays=["AH", "XX"]), tmp_path))
    assert payload["at"] == 1 and "plays[1]" in payload["error"]
    payload = cli_error(replay_cli(doc(claims=[[0, 0, True], [2, 2, 2]]), tmp_path))
    assert payload["error"].endswith("not true.") and "at" not in payload


def test_claim_naming_a_seat_not_in_the_trick(tmp_path):
    hands = [["AH", "2H"], ["3H"], ["4H", "5H"]]
    d = doc(hands=hands, plays=["AH", "3H", "4H", "2H", "5H"], claims=[[0, 0, 0], [1, 2, 2]])
    payload = cli_error(replay_cli(d, tmp_path))
    assert (
        payload["error"] == "claims[1][0]: Seat 1 did not play in this trick, so it cannot win it."
    )
    assert payload["trick"] == 1


def test_missing_file(tmp_path):
    payload = cli_error(games_cli(["replay", str(tmp_path / "nope.json")]))
    assert "Cannot read" in payload["error"]


def test_stdin_and_determinism(tmp_path):
    plays = ["AH", "7H", "2H", "3S", "4S", "2S"]
    text = json.dumps(doc(seat_rules=[HIGH, LOW, HIGH], plays=plays, claims=[[1, 1, 0], [2, 0, 1]]))
    a = games_cli(["replay", "-"], stdin=text)
    b = games_cli(["replay", "-"], stdin=text)
    c = replay_cli(text, tmp_path)
    assert cli_ok(a) == cli_ok(c)
    assert a.stdout == b.stdout == c.stdout
    keys = list(json.loads(a.stdout))
    assert keys == sorted(keys)
    assert a.stdout.startswith('{"complete": true, "tricks": [{"cards": ')


def test_a_full_seeded_bot_game_matches_the_engine(tmp_path):
    seats = [
        PRESETS["guide-2"],
        PRESETS["appendix-5"],
        PRESETS["guide-9"],
        PRESETS["appendix-1"],
        PRESETS["guide-6"],
    ]
    table = PRESETS["guide-1"]
    cfg = ft.Config(table_rules=table, seat_rules=tuple(seats))
    final, log = bots.play_game(cfg, 99)
    plays = [a["card"] for a in log if a["type"] == "play"]
    claims = [list(t.claims) for t in final.completed]
    d = {
        "game": "five_tricks",
        "rules": table.to_dict(),
        "seat_rules": [r.to_dict() for r in seats],
        "hands": [list(h) for h in ft.deal(5, 99)],
        "plays": [p.lower() for p in plays],
        "claims": claims,
    }
    out = cli_ok(replay_cli(d, tmp_path))
    assert out["complete"] is True
    assert [t["winner"] for t in out["tricks"]] == [t.winner for t in final.completed]
    assert [t["verdicts"] for t in out["tricks"]] == [list(t.verdicts) for t in final.completed]
    assert out["tricks_won"] == list(final.tricks_won)
    assert out["winners"] == ft.result(final)["winners"]


def test_cli_needs_a_subcommand():
    proc = games_cli([])
    assert proc.returncode == 2 and "usage" in proc.stderr


@pytest.mark.parametrize("games", ["-1", "0", "ten"])
def test_bench_refuses_a_number_of_games_below_one(games):
    """It printed {"games": -1, "plays": 0, ...} and exited 0."""
    proc = games_cli(["bench", "--games", games])
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"--games: must be a whole number of at least 1, not '{games}'" in proc.stderr


def test_bench_runs_and_reports_plays_per_second():
    proc = games_cli(["bench", "--games", "20", "--seed", "3"])
    assert proc.returncode == 0, proc.stderr
    first = json.loads(proc.stdout.splitlines()[0])
    assert first["games"] == 20 and first["plays"] > 20 * 10 and first["plays_per_second"] > 0
    again = json.loads(games_cli(["bench", "--games", "20", "--seed", "3"]).stdout.splitlines()[0])
    assert (again["plays"], again["actions"], again["timeouts"]) == (
        first["plays"],
        first["actions"],
        first["timeouts"],
    )
    assert "plays/s" in proc.stdout.splitlines()[1]
