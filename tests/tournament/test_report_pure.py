"""The report's pure parts without a database: replay inputs, the checker, the reveal (issue 6).

Games are driven straight through the engine with random plays, claims, changed
claims, missing claims and time-outs, then exported the way `workshop_document`
exports a stored game; the checker must find every one consistent.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string

from games import five_tricks as ft
from games.presets import PRESETS
from tournament import check_export, export, report

ROOT = Path(__file__).resolve().parents[2]
PRESET_NAMES = sorted(PRESETS)


def drive(seed: int, *, mode: str = "barnga", cut_after: int | None = None) -> dict:
    """One engine game with random claims, as an exported game record (no replay yet)."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    table = PRESETS[rng.choice(PRESET_NAMES)]
    seats = tuple(PRESETS[rng.choice(PRESET_NAMES)] for _ in range(n))
    config = ft.Config(table_rules=table, seat_rules=seats, mode=mode)
    game_seed = rng.randrange(2**40)
    state = ft.new_game(config, seed=game_seed)
    log = []

    def act(action):
        nonlocal state
        state, _ = ft.apply(state, action)
        log.append(action)

    while state.phase != "over" and (cut_after is None or len(log) < cut_after):
        if state.phase == "play":
            act(rng.choice(ft.legal_actions(state, state.to_act)))
            continue
        # The claim step: a random subset claims (some seats may never claim), some change.
        for _ in range(rng.randint(0, 2 * n)):
            if state.phase != "claim" or (cut_after is not None and len(log) >= cut_after):
                break
            seat = rng.randrange(n)
            options = ft.legal_actions(state, seat)
            if options:
                act(rng.choice(options))
        if state.phase == "claim" and (cut_after is None or len(log) < cut_after):
            act({"type": "timeout"})
    players = [1000 + s for s in range(n)]
    outcome = ft.result(state)
    return {
        "id": seed,
        "round": 1,
        "table": 1,
        "number": 1,
        "seed": game_seed,
        "players": players,
        "mode": mode,
        "state": "over" if ft.is_over(state) else "cut",
        "table_rules": table.to_dict(),
        "seat_rules": [r.to_dict() for r in seats],
        "actions": [{"seq": i + 1, "payload": a} for i, a in enumerate(log)],
        "tricks": [
            {
                "index": i,
                "leader": t.leader,
                "cards": [[s, c] for s, c in t.cards],
                "winner": t.winner,
                "verdicts": list(t.verdicts),
                "table_verdict": t.table_verdict,
                "resolution": t.resolution,
                "claims": list(t.claims),
            }
            for i, t in enumerate(state.completed)
        ],
        "tricks_won": list(outcome["tricks_won"]),
        "winners": [players[s] for s in outcome["winners"]],
        "_phase": state.phase,
    }


def exported(game: dict) -> dict:
    game = dict(game)
    game["replay"], game["unawarded_trick"] = export.replay_input(game)
    return game


def test_replay_inputs_reproduce_random_games_with_missing_and_changed_claims():
    null_claims = changed = 0
    for seed in range(150):
        game = exported(drive(seed))
        check = check_export.check_game(game)
        assert check.ok, (seed, check.line())
        for t in game["tricks"]:
            null_claims += t["resolution"] == "timeout" and None in t["claims"]
        changed += sum(1 for a in game["actions"] if a["payload"]["type"] == "claim") > sum(
            len([c for c in t["claims"] if c is not None]) for t in game["tricks"]
        )
    # The random drive did reach the cases that matter.
    assert null_claims > 20 and changed > 20


def test_referee_games_replay_with_the_tables_sheet_only():
    for seed in range(40):
        game = exported(drive(seed, mode="referee"))
        assert game["replay"]["seat_rules"] is None and game["replay"]["claims"] is None
        assert check_export.check_game(game).ok, seed


def test_games_cut_mid_trick_and_mid_claim():
    mid_claim = 0
    for seed in range(120):
        raw = drive(seed, cut_after=random.Random(seed).randint(0, 40))
        game = exported(raw)
        check = check_export.check_game(game)
        assert check.ok, (seed, check.line())
        if raw["_phase"] == "claim":
            mid_claim += 1
            # The unawarded trick is reported, not faked: its cards are not in plays.
            assert game["unawarded_trick"]["index"] == len(game["tricks"])
            assert check.notes and "never awarded" in check.notes[0]
            played = [
                a["payload"]["card"] for a in game["actions"] if a["payload"]["type"] == "play"
            ]
            assert (
                game["replay"]["plays"] + [c for _, c in game["unawarded_trick"]["cards"]] == played
            )
        else:
            assert game["unawarded_trick"] is None and not check.notes
    assert mid_claim > 5


def test_the_unawarded_tricks_note_says_what_stopped_its_claims():
    """The note said "when the round ended" also for a game a player's leaving cut,
    and for one still in play when the export was made."""
    raw = next(
        g
        for seed in range(200)
        if (g := drive(seed, cut_after=random.Random(seed).randint(0, 40)))["_phase"] == "claim"
    )
    notes = {}
    cases = (("cut", None), ("cut", "round_end"), ("cut", "player_left"), ("playing", None))
    for state, cut_by in cases:
        game = exported({**raw, "state": state, "cut_by": cut_by})
        if state == "playing":  # no results are stored before the game ends
            game.update(tricks_won=[], winners=[])
        check = check_export.check_game(game)
        assert check.ok and len(check.notes) == 1, check.line()
        notes[(state, cut_by)] = check.notes[0]
    assert "when the round ended" in notes[("cut", None)] == notes[("cut", "round_end")]
    assert "when a player left" in notes[("cut", "player_left")]
    assert "when this export was made" in notes[("playing", None)]


def test_the_checker_catches_changed_results():
    game = exported(drive(3))
    assert check_export.check_game(game).ok
    bad = json.loads(json.dumps(game))
    bad["winners"] = [9999]
    assert "winners" in check_export.check_game(bad).line()
    bad = json.loads(json.dumps(game))
    bad["tricks"][0]["verdicts"] = [9] * len(bad["players"])
    assert "verdicts" in check_export.check_game(bad).line()
    bad = json.loads(json.dumps(game))
    bad["seed"] += 1
    assert "not the deal of the game's seed" in check_export.check_game(bad).line()
    bad = json.loads(json.dumps(game))
    bad["state"] = "cut"
    assert "unfinished" not in check_export.check_game(bad).line()
    assert "stored state is 'cut'" in check_export.check_game(bad).line()


def test_the_checker_replays_the_stored_log_too():
    """A log changed beside an unchanged replay input passed: the replay input alone
    was checked. The stored log is played by the engine as well."""
    game = exported(drive(3))
    bad = json.loads(json.dumps(game))
    first, second = [a for a in bad["actions"] if a["payload"]["type"] == "play"][:2]
    first["payload"]["card"], second["payload"]["card"] = (
        second["payload"]["card"],
        first["payload"]["card"],
    )
    line = check_export.check_game(bad).line()
    assert "MISMATCH" in line and "action 1 does not replay" in line
    bad = json.loads(json.dumps(game))
    bad["actions"] = bad["actions"][:-1]
    line = check_export.check_game(bad).line()
    assert "MISMATCH" in line and "replay says the game is unfinished" in line


def write_doc(tmp_path, games, name="export.json") -> Path:
    doc = {"schema": export.SCHEMA, "games": [exported(g) for g in games]}
    for g in doc["games"]:
        g.pop("_phase", None)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def run_module(*args):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_check_export_command_line_needs_no_django(tmp_path):
    path = write_doc(tmp_path, [drive(1), drive(2), drive(5, cut_after=9)])
    ok = run_module("tournament.check_export", str(path))
    assert ok.returncode == 0, ok.stderr
    lines = ok.stdout.splitlines()
    assert lines[-1] == "3 games: 3 OK, 0 MISMATCH"
    assert all(": OK" in line for line in lines[:3])

    doc = json.loads(path.read_text())
    doc["games"][1]["tricks_won"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    out = run_module("tournament.check_export", str(bad))
    assert out.returncode == 1
    assert "game 2 (stored round 1, table 1, game 1): MISMATCH — tricks won" in out.stdout

    for text, words in [
        ("{not json", "is not valid JSON"),
        ("[" * 100000, "is not valid JSON: it is nested too deeply"),
        ('{"schema": ' + "1" * 5000 + "}", "more than 4,300 digits"),
    ]:
        bad.write_text(text)
        refused = run_module("tournament.check_export", str(bad))
        assert refused.returncode == 2 and words in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr
    # A byte-order mark (a file re-saved by a Windows editor) is read.
    path.write_text("\ufeff" + path.read_text())
    assert run_module("tournament.check_export", str(path)).returncode == 0
    assert run_module("tournament.check_export", str(tmp_path / "missing.json")).returncode == 2


def test_manage_py_check_export(tmp_path, capsys):
    path = write_doc(tmp_path, [drive(7)])
    call_command("check_export", str(path))
    assert capsys.readouterr().out.splitlines()[-1] == "1 games: 1 OK, 0 MISMATCH"
    doc = json.loads(path.read_text())
    doc["games"][0]["winners"] = []
    path.write_text(json.dumps(doc))
    with pytest.raises(SystemExit) as exit_info:
        call_command("check_export", str(path))
    assert exit_info.value.code == 1


def test_the_public_replay_command_accepts_an_exported_game(tmp_path):
    # A game whose replay input has null claims: the case the replay contract must carry.
    game = next(
        g
        for g in (exported(drive(s)) for s in range(100))
        if any(None in c for c in g["replay"]["claims"] or [])
    )
    path = tmp_path / "one.json"
    path.write_text(json.dumps(game["replay"]))
    out = run_module("games", "replay", str(path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["tricks_won"] == game["tricks_won"]
    assert sorted(game["players"][s] for s in result["winners"]) == sorted(game["winners"])
    assert [t["winner"] for t in result["tricks"]] == [t["winner"] for t in game["tricks"]]


def test_reveal_marks_a_knob_where_it_differs_from_the_table_numbered_one_below():
    """Marked where a value differed from either neighbour, a change between two
    tables starred both, and most cells carried the star (16 of 20 in a teaching
    review): now it marks where the rule changes, reading from table 1 up."""
    tables = [
        {"number": i + 1, "preset": p, "preset_title": p, "rules": PRESETS[p].to_dict()}
        for i, p in enumerate(["appendix-1", "appendix-2", "appendix-3", "appendix-4"])
    ]
    rev = report.reveal({"tables": tables})
    cells = {
        row["knob"]: [(c["differs"], c["differs_from"]) for c in row["cells"]]
        for row in rev["rows"]
    }
    # appendix-1 ace low S void; -2 ace low no trump; -3 ace high S void; -4 ace high S any.
    no = (False, None)
    assert cells["ace"] == [no, no, (True, 2), no]
    assert cells["trump"] == [no, (True, 1), (True, 2), no]
    # A no-trump sheet has no "when": only 3 and 4, which both have trumps, differ there.
    assert cells["trump_when"] == [no, no, no, (True, 3)]
    # One star for each change the pairs' list names.
    assert sum(c[0] for row in cells.values() for c in row) == sum(
        len(p["knobs"]) for p in rev["pairs"]
    )
    assert [p["knobs"] for p in rev["pairs"]] == [["trump"], ["ace", "trump"], ["trump_when"]]
    assert rev["rows"][2]["cells"][1]["label"] == "No trump"
    assert rev["distinct_sheets"] == 4


@pytest.mark.parametrize(
    "game, presets, knob, title, labels",
    [
        ("three_tricks", ["seed", "pairs", "long-stock"], "stock_floor", "Drawing stops at",
         ["5 cards left", "8 cards left", "The last card"]),
        ("three_tricks", ["seed", "swap-one-short", "long-stock"], "max_swap", "Swap at most",
         ["3 cards", "1 card", "4 cards"]),
        ("seven_up", ["classic", "zero-pays-nothing", "upside-down"], "hook", "The dealer's hook",
         ["On: the dealer may not make the bids add up", "On: the dealer may not make the bids add up", "Off"]),
        ("all_fives", ["high_highest_suit", "high_highest_suit_or_trump", "high_highest_any"],
         "follow", "Following the lead", ["Follow suit", "Follow suit or trump", "Any card"]),
    ],
)  # fmt: skip
def test_other_games_reveal_their_knobs_in_words(game, presets, knob, title, labels):
    """The reveal named 3 Tricks' knobs by their code ('Stock floor 5') and its values raw."""
    from games import kinds

    kind = kinds.get(game)
    tables = [
        {"number": i + 1, "preset": p, "rules": kind.presets[p].to_dict()}
        for i, p in enumerate(presets)
    ]
    rev = report.reveal({"workshop": {"game": game}, "tables": tables})
    row = next(r for r in rev["rows"] if r["knob"] == knob)
    assert row["title"] == title
    assert [c["label"] for c in row["cells"]] == labels
    words = " ".join(
        [r["title"] for r in rev["rows"]] + [c["label"] for r in rev["rows"] for c in r["cells"]]
    )
    assert "_" not in words and "True" not in words and "Stock floor" not in words


@pytest.mark.parametrize("game", ["seven_up", "all_fives", "three_tricks"])
def test_a_sheet_card_says_its_rules_once(game):
    """7Up7Down's card read "Lowest wins (hook, 15 a trick, exact zero 10, lowest wins):
    Hook, 15 points a trick bid, 10 for a zero made, ace high, lowest wins": its
    preset's title lists the knobs for the facilitator's choice, and the summary after
    it lists them all again. It names the preset and gives the summary; the other
    games' cards, whose titles are names, and a custom sheet's are as they were."""
    from games import kinds

    kind = kinds.get(game)
    presets = list(kind.presets)[1:3]
    tables = [
        {"number": i + 1, "preset": p, "preset_title": kind.preset_titles[p],
         "rules": kind.presets[p].to_dict()}
        for i, p in enumerate(presets)
    ] + [{"number": 3, "preset": "custom", "preset_title": "Custom sheet",
          "rules": kind.presets[list(kind.presets)[0]].to_dict()}]  # fmt: skip
    cards = report.reveal({"workshop": {"game": game}, "tables": tables})["sheet_groups"]
    titles = [c["titles"] for c in cards]
    summaries = [c["summary"] for c in cards]
    assert summaries == [kind.summary(t["rules"]) for t in tables]
    if game == "seven_up":
        # (The second preset, "No hook, ace low", had each knob of its name thrice.)
        assert titles == [["No hook, ace low"], ["Lowest wins"], ["Custom sheet"]]
        assert (
            summaries[1] == "Hook, 15 points a trick bid, 10 for a zero made, ace high, lowest wins"
        )
        for card in cards:
            assert "(" not in card["titles"][0]
    else:
        assert titles == [[kind.preset_titles[p]] for p in presets] + [["Custom sheet"]]


def test_3_tricks_reveal_neither_shows_nor_marks_a_rank_match_where_blocks_take_suits():
    """A sheet that blocks by suit only ('a matching rank is not enough') showed 'Blocking
    by rank takes: A pair of the rank', starred as differing from its neighbour."""
    from games import kinds

    kind = kinds.get("three_tricks")
    knobs = [
        {"block": "suit", "rank_match": "pair"},
        {"block": "suit_or_rank", "rank_match": "card"},
        {"block": "suit_or_rank", "rank_match": "pair"},
    ]
    tables = [
        {"number": i + 1, "preset": "", "rules": {**kind.presets["seed"].to_dict(), **k}}
        for i, k in enumerate(knobs)
    ]
    rev = report.reveal({"workshop": {"game": "three_tricks"}, "tables": tables})
    row = next(r for r in rev["rows"] if r["knob"] == "rank_match")
    assert [c["label"] for c in row["cells"]] == ["—", "Any card of the rank", "A pair of the rank"]
    assert [c["differs_from"] for c in row["cells"]] == [None, None, 2]
    assert [p["knobs"] for p in rev["pairs"]] == [["block"], ["rank_match"]]


def test_the_knob_table_goes_ten_tables_at_a_time():
    """Forty tables side by side printed as far as table 12; the rest were cut off."""
    names = sorted(PRESETS)
    tables = [
        {
            "number": n,
            "preset": names[n % len(names)],
            "rules": PRESETS[names[n % len(names)]].to_dict(),
        }
        for n in range(1, 24)
    ]
    rev = report.reveal({"tables": tables})
    assert [b["tables"] for b in rev["blocks"]] == [
        list(range(1, 11)),
        list(range(11, 21)),
        [21, 22, 23],
    ]
    for b in rev["blocks"]:
        assert [r["knob"] for r in b["rows"]] == [r["knob"] for r in rev["rows"]]
        assert all([c["table"] for c in r["cells"]] == b["tables"] for r in b["rows"])


def test_an_empty_workshop_still_makes_a_report():
    doc = {
        "schema": export.SCHEMA,
        "workshop": {"name": "Empty"},
        "tables": [{"number": 1, "preset": "guide-1", "rules": PRESETS["guide-1"].to_dict()}],
        "players": [],
        "rounds": [],
        "games": [],
        "gestures": [],
    }
    r = report.build_report(doc)
    assert r["counts"]["games"] == 0 and r["clashes"]["dispute_count"] == 0
    assert r["movement"]["columns"] == [] and r["results"] == []
    assert [q["id"] for q in r["guide"]] == ["expect", "notice", "feel", "act", "moved", "outside"]
    for kind, (header, rows) in export.csv_tables(doc).items():
        assert header and rows == [], kind


def test_results_rank_players_as_movement_does_and_say_who_left_and_what_was_not_applied():
    """Round 1 at table 2 (five players): three won a game each, and tricks would order
    them Émile, eve, Ana; movement ranks them by name (accents and case aside): Ana,
    Émile, eve, then Bob and Zoë. The facilitator changed Émile's move; eve did not
    sit down again. After round 2 the debrief began: its movement was not applied."""
    names = {1: "Ana", 2: "Bob", 3: "Émile", 4: "eve", 5: "Zoë"}
    five = [1, 2, 3, 4, 5]

    def game(rnd, number, table, players, tricks_won, winners):
        return {
            "id": rnd * 10 + number,
            "round": rnd,
            "number": number,
            "table": table,
            "players": players,
            "state": "over",
            "tricks_won": tricks_won,
            "winners": winners,
            "tricks": [],
            "disputes": [],
        }

    def seatings(where):
        return [{"player": p, "table": t, "seat": i} for i, (p, t) in enumerate(where.items())]

    doc = {
        "schema": export.SCHEMA,
        "workshop": {"name": "Ranks"},
        "tables": [
            {"number": n, "preset": p, "rules": PRESETS[p].to_dict()}
            for n, p in [(1, "guide-1"), (2, "guide-2"), (3, "guide-3")]
        ],
        "players": [
            {
                "id": pid,
                "name": name,
                "join_order": pid,
                "home_table": 2,
                "is_bot": False,
                "has_left": pid == 4,
            }
            for pid, name in names.items()
        ],
        "rounds": [
            {
                "number": 1,
                "kind": "scored",
                "scored_number": 1,
                "label": "Round 1",
                "seatings": seatings(dict.fromkeys(five, 2)),
                "moves": [
                    {"player": 1, "from": 2, "to": 3, "edited": False},
                    {"player": 3, "from": 2, "to": 3, "edited": True},
                    {"player": 2, "from": 2, "to": 1, "edited": False},
                    {"player": 5, "from": 2, "to": 1, "edited": False},
                ],
                "movement_applied_at": "2026-11-25T10:20:00+00:00",
            },
            {
                "number": 2,
                "kind": "scored",
                "scored_number": 2,
                "label": "Round 2",
                "seatings": seatings({1: 3, 3: 3, 2: 1, 5: 1}),
                "moves": [],
                "movement_applied_at": None,
            },
        ],
        "games": [
            game(1, 1, 2, five, [2, 0, 1, 2, 1], [1, 4]),
            game(1, 2, 2, five, [0, 1, 3, 1, 1], [3]),
            game(2, 1, 3, [1, 3], [3, 2], [1]),
        ],
        "gestures": [],
    }
    res = report.results(doc, report.Index(doc))
    first = res[0]["tables"][0]
    assert [(p["name"], p["games_won"], p["moved"], p["edited"]) for p in first["players"]] == [
        ("Ana", 1, "up", False),
        ("Émile", 1, "up", True),
        ("eve", 1, "left", False),
        ("Bob", 0, "down", False),
        ("Zoë", 0, "down", False),
    ]
    assert res[0]["moved"] and not res[1]["moved"]
    assert [p["moved"] for p in res[1]["tables"][0]["players"]] == ["not applied"] * 2


def FakeWorkshop():  # noqa: N802 - stands in for the model the template reads
    return SimpleNamespace(pk=1, name="Last", code="ABCDEF", phase="debrief")


def test_the_last_round_of_a_finished_tournament_says_so_not_movement_not_applied():
    """Every last-round card said "Movement was not applied after this round." with a
    Moved column of dashes, as if something was forgotten: once the debrief began,
    the last scored round is said to be the last, and its cards have no Moved column."""
    doc = one_round_doc(
        "Last",
        ["guide-1", "guide-2"],
        [(1, "P1"), (2, "P2"), (3, "P3"), (4, "P4")],
        seatings=[(1, 1), (2, 1), (3, 2), (4, 2)],
        moves=[(1, 1, 2), (3, 2, 1)],
        then=True,
    )
    doc["workshop"]["phase"] = "debrief"
    rep = report.build_report(doc)
    assert [(x["label"], x["last"]) for x in rep["results"]] == [
        ("Round 1", False),
        ("Round 2", True),
    ]
    html = render_to_string("report/_body.html", {"r": rep, "workshop": FakeWorkshop()})
    last = html.split('id="res-2"', 1)[1]
    assert last.count("The last round: nobody moves after it.") == 2
    assert "Movement was not applied" not in html and ">Moved<" not in last
    # Still running (a round ended, its movement not yet applied): said as before.
    doc["workshop"]["phase"] = "scored"
    rep = report.build_report(doc)
    assert not rep["results"][1]["last"]
    html = render_to_string("report/_body.html", {"r": rep, "workshop": FakeWorkshop()})
    assert html.count("Movement was not applied after this round.") == 2


def one_round_doc(name, presets, players, *, seatings, moves, games=(), then=False) -> dict:
    """A workshop document of one applied scored round: `presets` per table in
    number order, `players` as (id, name), `seatings` as (player, table), `moves` as
    (player, from, to). `then`: a second round follows, everyone seated where the
    moves took them."""
    doc = {
        "schema": export.SCHEMA,
        "workshop": {"name": name},
        "tables": [
            {"number": n, "preset": p, "rules": PRESETS[p].to_dict()}
            for n, p in enumerate(presets, start=1)
        ],
        "players": [
            {
                "id": pid,
                "name": who,
                "join_order": pid,
                "home_table": 2,
                "is_bot": False,
                "has_left": False,
            }
            for pid, who in players
        ],
        "rounds": [
            {
                "number": 1,
                "kind": "scored",
                "scored_number": 1,
                "label": "Round 1",
                "seatings": [
                    {"player": p, "table": t, "seat": i} for i, (p, t) in enumerate(seatings)
                ],
                "moves": [{"player": p, "from": a, "to": b, "edited": False} for p, a, b in moves],
                "movement_applied_at": "2026-11-25T10:20:00+00:00",
            }
        ],
        "games": list(games),
        "gestures": [],
    }
    if then:
        to = {p: b for p, _, b in moves}
        doc["rounds"].append(
            {
                "number": 2,
                "kind": "scored",
                "scored_number": 2,
                "label": "Round 2",
                "seatings": [
                    {"player": p, "table": to.get(p, t), "seat": i}
                    for i, (p, t) in enumerate(seatings)
                ],
                "moves": [],
                "movement_applied_at": None,
            }
        )
    return doc


def guide(doc: dict, qid: str) -> list[str]:
    return next(q for q in report.build_report(doc)["guide"] if q["id"] == qid)["data"]


def two_moved(name: str, *, then: bool = False) -> dict:
    """Three at table 2 (tables 1 and 2 share a sheet, table 3 has another): after the
    round P1 moves up to table 3, P2 down to table 1."""
    return one_round_doc(
        name,
        ["guide-1", "guide-1", "guide-2"],
        [(1, "P1"), (2, "P2"), (3, "P3")],
        seatings=[(1, 2), (2, 2), (3, 2)],
        moves=[(1, 2, 3), (2, 2, 1)],
        then=then,
    )


def test_the_guide_counts_only_moves_between_different_rules_as_such():
    """Tables 1 and 2 played the same sheet: a move between them met no other rules."""
    doc = two_moved("Same sheets", then=True)
    expect = guide(doc, "expect")
    assert "1 move up and 0 moves down took players to tables with other rules." in expect
    assert "1 move took players to a table with the same rules as the one they left." in expect
    assert "3 tables played 2 different sheets." in expect
    assert guide(doc, "outside")[0] == (
        "2 players changed tables at least once: they were the newcomers."
    )


def test_a_move_into_a_round_begun_after_the_player_left_made_no_newcomer():
    """P1 left between the rounds (a bot played the seat on): the bot met the other
    rules, not P1, yet the guide counted P1 as a newcomer and P1's move as a person's."""
    doc = two_moved("Left between rounds", then=True)
    doc["rounds"][1]["started_at"] = "2026-11-25T10:30:00+00:00"
    doc["players"][0].update(has_left=True, left_at="2026-11-25T10:25:00+00:00")
    assert guide(doc, "outside")[0] == (
        "1 player changed tables at least once: they were the newcomers."
    )
    expect = guide(doc, "expect")
    assert "0 moves up and 0 moves down" not in " ".join(expect)
    assert "1 move took players to a table with the same rules as the one they left." in expect
    assert not [line for line in expect if "other rules" in line], expect
    # Left after the round began: they played it, as a newcomer.
    doc["players"][0]["left_at"] = "2026-11-25T10:35:00+00:00"
    assert guide(doc, "outside")[0].startswith("2 players changed tables")


def test_moves_after_the_last_round_made_no_newcomers():
    """Moved after the last round, nobody played at another table, yet the guide said
    "3 players changed tables at least once: they were the newcomers" and counted the
    moves as meeting other rules, beside a players' table of "0 as newcomer"."""
    doc = two_moved("Moved at the end")
    rep = report.build_report(doc)
    assert [m["name"] for m in rep["movement"]["moves"]] == ["P1", "P2"]  # still listed
    expect = guide(doc, "expect")
    assert not [line for line in expect if "move" in line], expect
    assert not [line for line in guide(doc, "outside") if "newcomers" in line]
    # A bot's move into a round played is no one's either.
    doc = one_round_doc(
        "A bot moved",
        ["guide-1", "guide-2"],
        [(1, "P1"), (2, "Bot A")],
        seatings=[(1, 1), (2, 1)],
        moves=[(2, 1, 2)],
        then=True,
    )
    doc["players"][1]["is_bot"] = True
    assert not [line for line in guide(doc, "expect") if "move" in line]


def test_results_list_who_sat_at_a_table_without_playing_a_game():
    """Finn joined during round 1 and sat at table 2 waiting for the next deal; Gil sat
    alone at table 1 (too few for a game). Movement moved both: the results list
    them, with no game won, not only the players of the table's games."""
    doc = one_round_doc(
        "Late",
        ["guide-1", "guide-2"],
        [(1, "Ana"), (2, "Bob"), (3, "Finn"), (4, "Gil")],
        seatings=[(1, 2), (2, 2), (4, 1)],
        moves=[(1, 2, 1), (3, 2, 1), (4, 1, 2)],
        games=[
            {
                "id": 1,
                "round": 1,
                "number": 1,
                "table": 2,
                "players": [1, 2],
                "state": "over",
                "tricks_won": [3, 2],
                "winners": [1],
                "tricks": [],
                "disputes": [],
            },
        ],
    )
    res = report.results(doc, report.Index(doc))
    by_table = {t["table"]: t for t in res[0]["tables"]}
    assert [
        (p["name"], p["games_won"], p["games_played"], p["moved"]) for p in by_table[2]["players"]
    ] == [
        ("Ana", 1, 1, "down"),
        ("Bob", 0, 1, ""),
        ("Finn", 0, 0, "down"),
    ]
    assert [(p["name"], p["games_played"], p["moved"]) for p in by_table[1]["players"]] == [
        ("Gil", 0, "up"),
    ]
    assert by_table[1]["games_played"] == 0
    # A home round skipped at once (the demo's) was seated but played nothing: no
    # results for it, not a card of zeros per table.
    home = {
        **doc["rounds"][0],
        "number": 0,
        "kind": "home",
        "scored_number": None,
        "label": "At home",
        "moves": [],
        "movement_applied_at": None,
    }
    doc["rounds"].insert(0, home)
    assert [rd["round"] for rd in report.results(doc, report.Index(doc))] == [1]
    # The demo's home round deals a game at each table and the round's end cuts them
    # before anyone plays: no results card of zeros, no count of those games either.
    doc["games"] += [
        {"id": 10 + n, "round": 0, "number": 1, "table": n, "players": [1, 2], "state": "cut",
         "tricks_won": [0, 0], "winners": [], "tricks": [], "disputes": [], "claims": [],
         "actions": []}
        for n in (1, 2)
    ]  # fmt: skip
    assert [rd["round"] for rd in report.results(doc, report.Index(doc))] == [1]
    assert [g["id"] for g in report.Index(doc).games] == [1]


def _all_fives_game(
    seed: int, home: list[int], sheets: list[str], table_sheet: str, mode: str = "barnga"
) -> tuple[dict, object]:
    """One All Fives game at table 1 played by bots (revoke calls now and then, in Barnga
    mode), as an exported game record, and the engine's final state."""
    from games import kinds

    kind = kinds.get("all_fives")
    rng = random.Random(seed)
    seat_rules = [kind.presets[s].to_dict() for s in sheets]
    table_rules = kind.presets[table_sheet].to_dict()
    state = kind.new_state(table_rules=table_rules, seat_rules=seat_rules, mode=mode, seed=seed)
    log = []
    while not kind.is_over(state):
        for seat in kind.to_act(state):
            action = kind.bot_action(state, seat, rng)
            if action is not None:
                state, _ = kind.apply(state, action)
                log.append(action)
                break
    players = [100 + s for s in range(len(sheets))]
    return {
        "id": seed, "kind": "all_fives", "round": 2, "table": 1, "number": 1, "seed": seed,
        "players": players, "mode": mode, "state": "over", "table_rules": table_rules,
        "seat_rules": seat_rules, "tricks_won": [], "scores": list(state.scores),
        "winners": [players[s] for s in state.winners], "claims": [], "tricks": [], "disputes": [],
        "actions": [{"seq": i + 1, "payload": a} for i, a in enumerate(log)],
    }, state  # fmt: skip


def test_an_all_fives_report_counts_revokes_and_calls_from_the_log():
    """All Fives' revoke calls, the one moment its log records of a rule clashing, never
    reached the report ('All Fives has no claims: nothing records the moment …')."""
    # Seat 1 is a newcomer from a table where any card may be played; the table follows suit.
    game, state = _all_fives_game(
        7, [1, 2], ["high_highest_suit", "high_highest_any"], "high_highest_suit"
    )
    tricks = [t for h in state.history for t in h.tricks]
    calls = [c for h in state.history for c in h.calls]
    assert any(t.revokes for t in tricks) and any(c.upheld for c in calls), (
        "the seed plays no called revoke"
    )
    doc = _fives_doc(game, "barnga")
    r = report.build_report(doc)
    revokes = sum(len(t.revokes) for t in tricks)
    upheld = sum(c.upheld for c in calls)
    refused = sum(not c.upheld for c in calls)
    by_ben = sum(t.revokes.count(1) for t in tricks)
    assert revokes == by_ben, "only the newcomer's sheet lets a card break the table's"
    assert r["revokes"]["rows"] == [
        {"round": "Round 1", "table": 1, "games": 1, "tricks": len(tricks),
         "clashes": sum(len(set(t.verdicts)) > 1 for t in tricks), "revokes": revokes,
         "by_newcomers": by_ben, "upheld": upheld, "refused": refused,
         "refused_by_newcomers": sum(not c.upheld and c.caller == 1 for c in calls),
         "unnoticed": revokes - upheld}
    ]  # fmt: skip
    ben = next(p for p in r["players"] if p["name"] == "Ben")
    assert ben["revokes"] == revokes and ben["called_on"] == upheld
    notice = next(q for q in r["guide"] if q["id"] == "notice")
    assert notice["section"] == "revokes"
    assert notice["data"][0].startswith(
        f"{revokes} cards broke the sheet of the table they were played at"
    )
    # Never called, not "never noticed": a revoke seen and let pass is not called either.
    assert 0 < upheld < revokes
    assert (
        f"(all by newcomers): {upheld} called and {revokes - upheld} never called."
        in (notice["data"][0])
    )


def _fives_doc(game: dict, mode: str, second: str = "high_highest_any") -> dict:
    """A workshop of two tables (All Fives' suit-following sheet and `second`): Ana at
    home at table 1, Ben a newcomer from table 2, both at table 1 in Round 1."""
    return {
        "schema": export.SCHEMA,
        "workshop": {"name": "Fives", "game": "all_fives", "mode": mode},
        "tables": [{"number": n, "preset": p, "rules": report.kinds.get("all_fives").presets[p].to_dict()}
                   for n, p in ((1, "high_highest_suit"), (2, second))],
        "players": [{"id": 100 + s, "name": name, "home_table": home, "is_bot": False, "has_left": False,
                     "join_order": s} for s, (name, home) in enumerate((("Ana", 1), ("Ben", 2)))],
        "rounds": [{"number": 2, "kind": "scored", "scored_number": 1, "label": "Round 1",
                    "seatings": [{"player": 100, "table": 1, "seat": 0}, {"player": 101, "table": 1, "seat": 1}],
                    "moves": [], "started_at": None}],
        "games": [game],
        "gestures": [],
    }  # fmt: skip


def _page(r: dict) -> str:
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    workshop = SimpleNamespace(pk=1, name=r["workshop"]["name"], code="ABCDEF", phase="debrief")
    return render_to_string("report/page.html", {"r": r, "workshop": workshop})


def test_a_referee_all_fives_report_counts_the_tricks_judged_differently():
    """In referee mode the table's sheet refuses a card it forbids (no revokes, no calls),
    but the players' own sheets still name different winners: the report dropped those
    with the revokes and said "there are no clashes … to count" (98 of 482 tricks in an
    audit's workshop), where Five Tricks' referee report and docs/export.md count them."""
    # Ben's home sheet: the lowest card wins.
    sheets = ["high_highest_suit", "high_lowest_suit"]
    game, state = _all_fives_game(7, [1, 2], sheets, "high_highest_suit", mode="referee")
    tricks = [t for h in state.history for t in h.tricks]
    clashes = sum(len(set(t.verdicts)) > 1 for t in tricks)
    assert clashes and not any(t.revokes for t in tricks), "the seed judges no trick differently"
    r = report.build_report(_fives_doc(game, "referee", "high_lowest_suit"))
    rv = r["revokes"]
    assert rv["referee"] is True
    assert rv["rows"] == [
        {"round": "Round 1", "table": 1, "games": 1, "tricks": len(tricks), "clashes": clashes,
         "revokes": 0, "by_newcomers": 0, "upheld": 0, "refused": 0, "refused_by_newcomers": 0,
         "unnoticed": 0}
    ]  # fmt: skip
    notice = next(q for q in r["guide"] if q["id"] == "notice")
    assert notice["section"] == "clashes"
    assert notice["data"][0].startswith(
        f"{clashes} of {len(tricks)} tricks were judged differently by the players' own sheets: "
        "the table's sheet decided each (referee mode)"
    )
    assert all("broke the sheet" not in line for line in notice["data"])
    html = _page(r)
    # "of N finished", as Five Tricks' and 7Up7Down's lines say it.
    assert (
        f"<strong>{clashes}</strong> of {len(tricks)} finished tricks judged differently "
        "by the players' sheets (the table's sheet decided each: referee mode)"
    ) in html
    assert '<h2 id="h-clashes">4 Clashes and gestures</h2>' in html
    assert f"The players' own sheets judged {clashes} of {len(tricks)} tricks differently." in html
    assert "no clashes or disputes to count" not in html
    # No revoke in referee mode: no column of them, here or in the players' table.
    assert "Revokes (called)" not in html and "Calls (refused)" not in html
    assert "Revokes and calls" not in html
    # Barnga mode's report of the same sheets says it is not one in referee mode.
    game, _ = _all_fives_game(7, [1, 2], sheets, "high_highest_suit")
    barnga = report.build_report(_fives_doc(game, "barnga", "high_lowest_suit"))
    assert barnga["revokes"]["referee"] is False
    assert '<h2 id="h-clashes">4 Revokes and gestures</h2>' in _page(barnga)


def test_section_four_of_all_fives_says_none_in_words():
    """With nothing judged differently, no revoke and no call, section 4 of All Fives
    read "The players' own sheets judged 0 of 12 tricks differently." and "0 cards
    broke the table's sheet (0 played by newcomers); 0 were called and 0 were not. 0
    calls were refused.", the guide "0 of 12 tricks were judged differently": said in
    words ("0 were called and 3 were not": "none was called"). Counts above nought stay
    figures."""
    sheets = ["high_highest_suit", "high_lowest_suit"]
    game, _ = _all_fives_game(7, [1, 2], sheets, "high_highest_suit", mode="referee")
    r = report.build_report(_fives_doc(game, "referee", "high_lowest_suit"))
    tricks = r["revokes"]["totals"]["tricks"]
    assert tricks > 1
    zero = dict.fromkeys(r["revokes"]["totals"], 0)

    def said(rep) -> str:
        html = _page(rep).split('<section id="clashes"')[1].split("</section>")[0]
        return " ".join(re.sub(r"<[^>]+>", " ", html).split())

    r["revokes"]["totals"] = {**zero, "tricks": tricks}
    assert f"The players' own sheets judged none of the {tricks} tricks differently." in said(r)
    notice = report._revoke_lines(r["revokes"])[0]
    assert notice.startswith(
        f"None of the {tricks} tricks was judged differently by the players' own sheets:"
    ), notice
    r["revokes"]["totals"] = {**zero, "tricks": 1}
    assert "The players' own sheets did not judge the one trick differently." in said(r)
    assert report._revoke_lines(r["revokes"])[0].startswith("The one trick was not judged")
    r["revokes"]["totals"] = zero
    assert "No trick was played to the end." in said(r)
    # Barnga mode: the revokes and the calls.
    game, _ = _all_fives_game(7, [1, 2], sheets, "high_highest_suit")
    barnga = report.build_report(_fives_doc(game, "barnga", "high_lowest_suit"))
    barnga["revokes"]["totals"] = {**zero, "tricks": tricks}
    assert (
        "No card broke the table's sheet. Nobody called a revoke. The players' own sheets"
        f" judged none of the {tricks} tricks differently."
    ) in said(barnga)
    assert report._revoke_lines(barnga["revokes"])[0] == (
        "No card broke the sheet of the table it was played at."
    )
    # The guide's counts above nought alone ("(0 by newcomers): 0 called, 3 never called").
    barnga["revokes"]["totals"].update(revokes=3, unnoticed=3, refused=2, refused_by_newcomers=1)
    assert report._revoke_lines(barnga["revokes"])[:2] == [
        "3 cards broke the sheet of the table they were played at: none called.",
        "2 calls named a card the table's sheet allows (1 by newcomers): a wrong guess about"
        " the player's hand, or a caller who expected other rules.",
    ]
    barnga["revokes"]["totals"].update(
        revokes=1, by_newcomers=1, unnoticed=0, upheld=1, refused=1, refused_by_newcomers=0
    )
    assert report._revoke_lines(barnga["revokes"])[:2] == [
        "1 card broke the sheet of the table it was played at (by a newcomer): called.",
        "1 call named a card the table's sheet allows: a wrong guess about the player's hand,"
        " or a caller who expected other rules.",
    ]
    barnga["revokes"]["totals"].update(revokes=0, by_newcomers=0, upheld=0, refused=0)
    barnga["revokes"]["totals"].update(revokes=2, by_newcomers=1, upheld=2, refused=0)
    assert (
        "2 cards broke the table's sheet (1 played by newcomers); both were called."
        " No call was refused."
    ) in said(barnga)
    # Only counts above nought: "(0 played by newcomers); 0 were called and 3 were not".
    barnga["revokes"]["totals"].update(revokes=3, by_newcomers=0, upheld=0, unnoticed=3)
    assert "3 cards broke the table's sheet; none was called. Nobody called" in said(barnga)
    barnga["revokes"]["totals"].update(revokes=1, by_newcomers=1, upheld=0, unnoticed=1)
    assert "1 card broke the table's sheet (played by a newcomer); it was not called." in said(
        barnga
    )
    barnga["revokes"]["totals"].update(revokes=4, by_newcomers=4, upheld=1, unnoticed=3)
    assert (
        "4 cards broke the table's sheet (all played by newcomers); 1 was called and 3 were not."
    ) in said(barnga)


REVOKES_HEADER = [
    "round", "round_label", "table", "game_id", "game_number", "seq", "created_at", "kind",
    "player_id", "player", "seat", "card", "hand", "trick_index", "called_on_seat",
    "called_on_player", "upheld", "called", "newcomer", "scored_round",
]  # fmt: skip


def _csv_ready(doc: dict) -> dict:
    """`_fives_doc` with what the CSV tables read and the report does not: each log
    entry's time, kind and actor, and the games' times."""
    for g in doc["games"]:
        for a in g["actions"]:
            p = a["payload"]
            a.update(
                created_at=f"2026-03-02T10:{a['seq'] // 60:02d}:{a['seq'] % 60:02d}+00:00",
                kind=p["type"],
                actor=g["players"][p["seat"]],
            )
        g.update(started_at="2026-03-02T10:00:00+00:00", finished_at="2026-03-02T11:00:00+00:00")
    return doc


def test_revokes_csv_lists_each_revoke_and_call_the_report_counts_in_log_order():
    """The report's section 4 counted All Fives' revokes and calls, but no CSV table
    held them: revokes.csv has one row per revoke and per call, from the same replay."""
    game, state = _all_fives_game(
        7, [1, 2], ["high_highest_suit", "high_highest_any"], "high_highest_suit"
    )
    doc = _csv_ready(_fives_doc(game, "barnga"))
    doc["players"][1]["name"] = "=1+1"  # a spreadsheet would run it as a formula
    expected = []  # from the engine's own record of the game, hand by hand
    for h in state.history:
        for i, t in enumerate(h.tricks):
            cards = dict(t.cards)
            for seat in t.revokes:
                called = any(c.trick == i and c.accused == seat and c.upheld for c in h.calls)
                expected.append(["revoke", seat, cards[seat], h.hand, i, "", "", "", called])
            for c in h.calls:
                if c.trick == i:
                    row = ["call", c.caller, cards[c.accused], h.hand, i, c.accused]
                    expected.append(row + [["Ana", "'=1+1"][c.accused], c.upheld, ""])
    kinds_seen = {row[0] for row in expected}
    assert kinds_seen == {"revoke", "call"} and any(row[8] is False for row in expected), (
        "the seed plays no revoke left uncalled"
    )
    header, rows = export.csv_tables(doc)["revokes"]
    assert header == REVOKES_HEADER
    cells = [[export._cell(v) for v in row] for row in rows]
    as_read = [
        [kind, int(seat), card, hand, trick, called_seat, called_player, upheld, called]
        for kind, seat, card, hand, trick, called_seat, called_player, upheld, called in (
            (r[7], r[10], r[11], r[12], r[13], r[14], r[15], r[16], r[17]) for r in cells
        )
    ]
    bools = {"true": True, "false": False, "": ""}
    for row in as_read:
        row[7], row[8] = bools[row[7]], bools[row[8]]
    assert as_read == expected
    actions = {a["seq"]: a for a in game["actions"]}
    for r in cells:
        assert r[:5] == [2, "Round 1", 1, 7, 1]
        # seq is the log entry of the card, or of the call; created_at its time.
        logged = actions[r[5]]
        assert r[6] == logged["created_at"]
        assert logged["payload"]["type"] == {"revoke": "play", "call": "call_revoke"}[r[7]]
        assert logged["payload"]["seat"] == r[10]
        if r[7] == "revoke":
            assert logged["payload"]["card"] == r[11]
        else:
            assert logged["payload"]["accused"] == r[14]
        # The player in the row's seat, and whether they were away from home (Ben is).
        assert (r[8], r[9], r[18]) == [(100, "Ana", "false"), (101, "'=1+1", "true")][r[10]]
        # Stored round 2 is the report's "Round 1".
        assert r[19] == 1
    assert [r[5] for r in cells] == sorted(r[5] for r in cells)
    # The report counts the same rows.
    t = report.build_report(doc)["revokes"]["totals"]
    assert t["revokes"] == sum(r[7] == "revoke" for r in cells)
    assert t["by_newcomers"] == sum(r[7] == "revoke" and r[18] == "true" for r in cells)
    assert t["upheld"] == sum(r[16] == "true" for r in cells)
    assert t["refused"] == sum(r[16] == "false" for r in cells)
    assert t["unnoticed"] == sum(r[17] == "false" for r in cells)
    # Written out, the formula-like name is defused.
    text = export.csv_text(header, rows)
    assert ",'=1+1," in text and ",=1+1," not in text


def test_revokes_csv_has_every_rounds_games_and_a_referee_workshop_none():
    """Like the other record tables it holds the study round's games too (the report
    counts the home and scored rounds); in referee mode there is nothing to call."""
    game, _ = _all_fives_game(
        7, [1, 2], ["high_highest_suit", "high_highest_any"], "high_highest_suit"
    )
    doc = _csv_ready(_fives_doc(game, "barnga"))
    study = {**json.loads(json.dumps(game)), "id": 8, "round": 1}
    doc["rounds"].insert(
        0,
        {**doc["rounds"][0], "number": 1, "kind": "study", "scored_number": None, "label": "Study"},
    )
    doc["games"].insert(0, study)
    _, rows = export.csv_tables(doc)["revokes"]
    by_game = [r[3] for r in rows]
    assert by_game == sorted(by_game, key=[8, 7].index) and by_game.count(8) == by_game.count(7) > 0
    # The report numbers only the scored round: the study game's rows have no number.
    assert {(r[3], r[19]) for r in rows} == {(8, None), (7, 1)}
    assert report.build_report(doc)["revokes"]["totals"]["revokes"] == sum(
        r[3] == 7 and r[7] == "revoke" for r in rows
    )
    ref, _ = _all_fives_game(
        7, [1, 2], ["high_highest_suit", "high_lowest_suit"], "high_highest_suit", mode="referee"
    )
    header, rows = export.csv_tables(_csv_ready(_fives_doc(ref, "referee", "high_lowest_suit")))[
        "revokes"
    ]
    assert header == REVOKES_HEADER and rows == []


def test_games_csv_counts_all_fives_tricks_from_the_replay():
    """games.csv's `tricks` was 0 for every All Fives game (it counted Five Tricks' trick
    records, which All Fives does not keep): it is the tricks the log's replay finished."""
    for mode, second in (("barnga", "high_highest_any"), ("referee", "high_lowest_suit")):
        game, state = _all_fives_game(
            7, [1, 2], ["high_highest_suit", second], "high_highest_suit", mode=mode
        )
        played = sum(len(h.tricks) for h in state.history)
        header, rows = export.csv_tables(_csv_ready(_fives_doc(game, mode, second)))["games"]
        assert played > 0
        assert dict(zip(header, rows[0], strict=True))["tricks"] == played, mode
    # A log that does not play: how many tricks is not known, an empty cell.
    game["actions"][3]["payload"] = {"type": "play", "seat": 0, "card": "XX"}
    header, rows = export.csv_tables(_csv_ready(_fives_doc(game, "referee", "high_lowest_suit")))[
        "games"
    ]
    assert dict(zip(header, rows[0], strict=True))["tricks"] is None


def adapters(*counts: tuple[str, int]) -> list[dict]:
    return [{"name": n, "adapted": k} for n, k in counts]


def test_a_name_ending_with_a_full_stop_ends_its_sentence_once():
    """ "Ana E." (a common way to tell two Anas apart) ending a sentence read "Ana E.."
    in the report and on a table's page (found by a review)."""
    from tournament.names import full_stop

    assert full_stop("Lena B.") == "" and full_stop("Lena") == "."
    assert full_stop(["Kofi F.", "Lena B."]) == "" and full_stop(["Lena B.", "Kofi"]) == "."
    assert full_stop([]) == "." and full_stop(None) == "."
    last = adapters(("Bo", 1), ("Cy", 1), ("Di", 1), ("Zoe A.", 1))
    assert report._adapted_most(last) == (
        "Adapted most: 4 players, 1 change each: Bo, Cy, Di and Zoe A."
    )


def test_adapted_most_names_a_tie_whole_or_not_at_all():
    """Sorted by changes then name and cut at three, "Adapted most" named three of five
    players tied at one change: whoever came first in the alphabet."""
    tied = adapters(("Valentina", 1), ("Wen", 1), ("Xavier", 1), ("Yusuf", 1), ("Zoe", 1))
    assert (
        report._adapted_most(tied)
        == "Adapted most: 5 players, 1 change each: Valentina, Wen, Xavier, Yusuf and Zoe."
    )
    # A tie after the first places is left out whole, not cut.
    assert (
        report._adapted_most(adapters(("Ana", 4), ("Bo", 3), ("Cai", 2), ("Dev", 2)))
        == "Adapted most: Ana (4) and Bo (3)."
    )
    assert (
        report._adapted_most(adapters(("Ana", 2), ("Bo", 1), ("Cai", 1)))
        == "Adapted most: Ana (2), Bo (1) and Cai (1)."
    )
    many = adapters(*((f"P{i:02}", 2) for i in range(10)), ("Zed", 1))
    assert report._adapted_most(many) == (
        "Adapted most: 10 players, 2 changes each: "
        "P00, P01, P02, P03, P04, P05, P06, P07 and 2 others."
    )


def test_adapted_most_sorts_names_as_movement_does():
    """Sorted by lower case, "Émile" came after "emma", "Ines" and "Luz": the rest of the
    report sorts accents and case aside."""
    players = [
        {**p, "bot": False, "left": False}
        for p in adapters(("emma", 1), ("Ines", 1), ("Luz", 1), ("Émile", 1))
    ]
    assert report._adapted_most(report._adapters(players)) == (
        "Adapted most: 4 players, 1 change each: Émile, emma, Ines and Luz."
    )


def test_no_knob_title_holds_a_comma():
    """The guide lists the knobs two tables differ in with commas: 3 Tricks' "When
    drawing stops, the winner has" read as two knobs ("…, drawing stops at, when drawing
    stops, the winner has.")."""
    from games import kinds

    titles = [(kind.key, t) for kind in kinds.KINDS.values() for t in kind.knob_titles.values()]
    assert len(titles) > 10 and not [t for t in titles if "," in t[1]]


def over_game(gid, rnd, table, players, winners, at, *, won=None, disputes=()) -> dict:
    """A finished Five Tricks game of a hand-built document, begun at `at` ("10:01"
    on 2026-11-25), its number its id; `won` per seat (3 to each winner, 2 to the
    others if not given)."""
    return {
        "id": gid,
        "round": rnd,
        "number": gid,
        "table": table,
        "players": players,
        "state": "over",
        "started_at": f"2026-11-25T{at}:00+00:00",
        "tricks_won": won if won is not None else [3 if p in winners else 2 for p in players],
        "winners": winners,
        "tricks": [],
        "claims": [],
        "seat_rules": [PRESETS["guide-1"].to_dict()] * len(players),
        "disputes": list(disputes),
    }


def test_what_a_bot_did_in_the_seat_of_a_player_who_left_is_said_to_be_the_bots():
    """Ana left 10 minutes into Round 1 (a bot took her seat): the bot won the game
    begun after that, which moved "Ana" up, and she went on winning at table 2 in
    Round 2, her line running on in the chart, under her name everywhere but the
    players' table (a review of the report as a teaching document)."""

    def game(gid, rnd, table, players, won, winners, at, disputes=()):
        return over_game(gid, rnd, table, players, winners, at, won=won, disputes=disputes)

    dispute = {
        "trick_index": 0,
        "initial_claims": [0, 1],
        "opened_at": "2026-11-25T10:32:00+00:00",
        "duration_seconds": 45.0,
        "resolution": "timeout",
        "winner": 0,
    }
    doc = one_round_doc(
        "Left",
        ["guide-1", "guide-2"],
        [(1, "Ana"), (2, "Ben"), (3, "Cy"), (4, "Dee")],
        seatings=[(1, 1), (2, 1), (3, 2), (4, 2)],
        moves=[(1, 1, 2), (3, 2, 1)],
        games=[
            game(1, 1, 1, [1, 2], [1, 4], [2], "10:01"),
            game(2, 1, 1, [1, 2], [4, 1], [1], "10:11"),  # the bot's
            game(3, 1, 2, [3, 4], [3, 2], [3], "10:01"),
            game(4, 2, 2, [1, 4], [4, 1], [1], "10:31", [dispute]),  # the bot's
        ],
        then=True,
    )
    doc["rounds"][0].update(
        started_at="2026-11-25T10:00:00+00:00", finished_at="2026-11-25T10:15:00+00:00"
    )
    doc["rounds"][1]["started_at"] = "2026-11-25T10:30:00+00:00"
    doc["players"][0].update(has_left=True, left_at="2026-11-25T10:10:00+00:00")
    rep = report.build_report(doc)

    r1, r2 = rep["results"]
    t1 = r1["tables"][0]
    ana = "Ana (a bot after they left)"
    assert [p["label"] for p in t1["players"]] == [ana, "Ben"]
    # One game each, ranked by name: the bot's win moved "Ana" up.
    assert (t1["top"], t1["moved_up"]) == ([ana, "Ben"], [ana])
    assert [g["winners"] for g in t1["games"]] == [["Ben"], ["the bot in Ana's seat"]]
    t2 = r2["tables"][1]
    assert t2["top"] == ["the bot in Ana's seat"]
    assert t2["games"][0]["tricks"][0]["name"] == "the bot in Ana's seat"
    # The move after Round 1, the seating grid and the disputes.
    mv = rep["movement"]
    assert [m["name"] for m in mv["moves"]] == [ana, "Cy"]
    chips = {
        c["label"]: [p for row in mv["grid"] for p in row["cells"][i]]
        for i, c in enumerate(mv["columns"])
    }
    assert [p["name"] for p in chips["Round 1"] if p["id"] == 1] == ["Ana"]
    assert [p["name"] for p in chips["Round 2"] if p["id"] == 1] == ["the bot in Ana's seat"]
    assert mv["journeys"][1]["bot_cols"] == [1] and mv["journeys"][2]["bot_cols"] == []
    (d,) = rep["clashes"]["disputes"]
    assert [s["name"] for s in d["seats"]] == ["the bot in Ana's seat", "Dee"]
    assert d["winner"] == "the bot in Ana's seat"
    # The per-player table still names her, with when she left.
    assert rep["players"][0]["name"] == "Ana" and rep["players"][0]["left_when"] == "during Round 1"
    # The chart: her own line ends at Round 1, the bot's goes on dotted, and the alt says so.
    from tournament import report_charts

    chart = report_charts.paths_chart(mv, {p["id"]: p["name"] for p in rep["players"]})
    assert "Ana: tables 1 then 2, a bot in their seat from Round 2;" in chart["alt"]
    assert chart["bot_seats"]
    import base64

    svg = base64.b64decode(chart["src"].split(",", 1)[1]).decode()
    assert "Ana (bot)" in svg and "stroke-dasharray:2,6" in svg
    html = _page(rep)
    assert "<bdi>Ana (a bot after they left)</bdi>" in html
    assert "won by <bdi>the bot in Ana&#x27;s seat</bdi>" in html

    # Had she come back (her PIN on a new phone: no longer gone, her leaving's time
    # kept, her return's not recorded), her seat's games are hers again, not a bot's
    # (found by a review of the day's changes).
    doc["players"][0]["has_left"] = False
    rep = report.build_report(doc)
    r1, r2 = rep["results"]
    assert [p["label"] for p in r1["tables"][0]["players"]] == ["Ana", "Ben"]
    assert [g["winners"] for g in r1["tables"][0]["games"]] == [["Ben"], ["Ana"]]
    assert r2["tables"][1]["top"] == ["Ana"]
    assert [m["name"] for m in rep["movement"]["moves"]] == ["Ana", "Cy"]
    assert rep["movement"]["journeys"][1]["bot_cols"] == []
    assert rep["clashes"]["disputes"][0]["winner"] == "Ana"
    html = _page(rep)
    assert "the bot in" not in html and "(a bot after" not in html

    # With her return recorded (since `absences`: she left at 10:10 and was back at
    # 10:20, between the rounds), the bot's game in Round 1 is the bot's again, and
    # Round 2 is hers.
    doc["players"][0]["absences"] = [
        {"left": "2026-11-25T10:10:00+00:00", "back": "2026-11-25T10:20:00+00:00"}
    ]
    rep = report.build_report(doc)
    r1, r2 = rep["results"]
    away = "Ana (a bot while they were away)"
    assert [p["label"] for p in r1["tables"][0]["players"]] == [away, "Ben"]
    assert [g["winners"] for g in r1["tables"][0]["games"]] == [["Ben"], ["the bot in Ana's seat"]]
    assert r2["tables"][1]["top"] == ["Ana"]
    assert [m["name"] for m in rep["movement"]["moves"]] == [away, "Cy"]
    assert rep["movement"]["journeys"][1]["bot_cols"] == []
    assert rep["clashes"]["disputes"][0]["winner"] == "Ana"
    # A bot played her seat meanwhile (Round 1's second game): said beside her time
    # away, as "a bot took their seat" is beside one gone still (it was not said).
    assert rep["players"][0]["away"] == [
        "left during Round 1, back after Round 1; a bot played their seat meanwhile"
    ]
    html = _page(rep)
    assert f"<bdi>{away}</bdi>" in html
    assert "(left during Round 1, back after Round 1; a bot played their seat meanwhile)" in html
    # The table's note says what the mark means, and whose the bot's games are.
    assert "“Left …, back …” beside a name: the player left and came back with their PIN." in html
    assert "what it did while they were away is counted in their row" in html
    assert "(a bot after they left)" not in html
    # Away during Round 2 as well (a second time, not back yet): its games are the bot's.
    doc["players"][0].update(has_left=True, left_at="2026-11-25T10:30:00+00:00")
    rep = report.build_report(doc)
    assert rep["results"][1]["tables"][1]["top"] == ["the bot in Ana's seat"]
    assert rep["players"][0]["left_when"] == "during Round 2"
    # Away only in the middle of Round 1 (its second game the bot's), back before its
    # end: her move after it is hers and the bot's, as her results row says (a review
    # found the row "(a bot while they were away)" beside a move under her name alone).
    doc["players"][0].update(has_left=False, left_at="2026-11-25T10:10:00+00:00")
    doc["players"][0]["absences"] = [
        {"left": "2026-11-25T10:10:00+00:00", "back": "2026-11-25T10:12:00+00:00"}
    ]
    rep = report.build_report(doc)
    assert [p["label"] for p in rep["results"][0]["tables"][0]["players"]][0] == away
    assert [m["name"] for m in rep["movement"]["moves"]] == [away, "Cy"]
    # Away a while no game began at her seat and nothing was played in it (10:02 to
    # 10:05, in her first game, which has no moves recorded here): no bot is said.
    doc["players"][0]["absences"] = [
        {"left": "2026-11-25T10:02:00+00:00", "back": "2026-11-25T10:05:00+00:00"},
        {"left": "2026-11-25T10:10:00+00:00", "back": "2026-11-25T10:12:00+00:00"},
    ]
    assert report.build_report(doc)["players"][0]["away"] == [
        "left during Round 1, back during Round 1",
        "left during Round 1, back during Round 1; a bot played their seat meanwhile",
    ]
    # A move in her seat while she was away is the bot's too, a game begun before.
    doc["games"][0]["actions"] = [{"actor": 1, "created_at": "2026-11-25T10:03:00+00:00"}]
    assert report.build_report(doc)["players"][0]["away"][0] == (
        "left during Round 1, back during Round 1; a bot played their seat meanwhile"
    )


def three_rounds_away_in_round_2() -> dict:
    """Ana, Ben, Cy and Dee at tables 1 and 2 for three scored rounds (Round 1
    10:00–10:15, Round 2 10:30–10:45, Round 3 11:00–11:15). Ana wins at table 1 and
    moves up; she leaves at 10:25 and is back with her PIN at 10:55, so a bot plays
    all of her Round 2 (it loses at table 2, and the seat moves down), and she plays
    Round 3 at table 1 herself."""

    game = over_game

    doc = one_round_doc(
        "Away in Round 2",
        ["guide-1", "guide-2"],
        [(1, "Ana"), (2, "Ben"), (3, "Cy"), (4, "Dee")],
        seatings=[(1, 1), (2, 1), (3, 2), (4, 2)],
        moves=[(1, 1, 2), (4, 2, 1)],
        games=[
            game(1, 1, 1, [1, 2], [1], "10:01"),
            game(2, 1, 2, [3, 4], [3], "10:01"),
            game(3, 2, 2, [1, 3], [3], "10:31"),  # the bot's
            game(4, 2, 1, [2, 4], [2], "10:31"),
            game(5, 3, 1, [1, 4], [1], "11:01"),
            game(6, 3, 2, [2, 3], [3], "11:01"),
        ],
        then=True,
    )
    r1, r2 = doc["rounds"]
    r1.update(started_at="2026-11-25T10:00:00+00:00", finished_at="2026-11-25T10:15:00+00:00")
    r2.update(
        started_at="2026-11-25T10:30:00+00:00",
        finished_at="2026-11-25T10:45:00+00:00",
        moves=[
            {"player": 1, "from": 2, "to": 1, "edited": False},
            {"player": 2, "from": 1, "to": 2, "edited": False},
        ],
        movement_applied_at="2026-11-25T10:50:00+00:00",
    )
    doc["rounds"].append(
        {
            "number": 3,
            "kind": "scored",
            "scored_number": 3,
            "label": "Round 3",
            "seatings": [
                {"player": p, "table": t, "seat": i}
                for i, (p, t) in enumerate([(1, 1), (4, 1), (2, 2), (3, 2)])
            ],
            "moves": [],
            "movement_applied_at": None,
            "started_at": "2026-11-25T11:00:00+00:00",
            "finished_at": "2026-11-25T11:15:00+00:00",
        }
    )
    doc["players"][0]["absences"] = [
        {"left": "2026-11-25T10:25:00+00:00", "back": "2026-11-25T10:55:00+00:00"}
    ]
    return doc


def _chart_svg(chart: dict) -> str:
    import base64

    return base64.b64decode(chart["src"].split(",", 1)[1]).decode()


def test_the_paths_chart_gives_the_bot_only_the_rounds_it_sat_in_a_returned_players_seat():
    """A review found the chart drawing Ana's seat as the bot's from Round 2 to the end
    ("a bot in their seat from Round 2"), though she was back for Round 3: only the
    column in which the bot sat is its, and her own line takes up again after it."""
    from tournament import report_charts

    doc = three_rounds_away_in_round_2()
    rep = report.build_report(doc)
    mv = rep["movement"]
    assert [c["label"] for c in mv["columns"]] == ["Round 1", "Round 2", "Round 3"]
    names = {p["id"]: p["name"] for p in rep["players"]}
    chart = report_charts.paths_chart(mv, names)
    assert "Ana: tables 1 then 2 then 1, a bot in their seat in Round 2;" in chart["alt"]
    assert "from Round" not in chart["alt"] and chart["bot_seats"]
    svg = _chart_svg(chart)
    # Her line ends with her own name, not the bot's; the bot's stretch is dotted.
    assert ">Ana<" in svg and ">Ana (bot)<" not in svg and "stroke-dasharray:2,6" in svg
    # No line is drawn straight across a column it has no point in (pygal joins the
    # points either side of a gap): her own line would cross the bot's Round 2.
    import re

    lines = [
        [float(x) for x in re.findall(r"([\d.]+) [\d.]+", d)]
        for d in re.findall(r'<path d="M([^"]*)" class="line reactive', svg)
    ]
    xs = sorted({x for line in lines for x in line})
    # Ben's, Cy's and Dee's lines and the bot's stretch: Ana's own two rounds are
    # dots apart, with the bot's between them.
    assert len(xs) == 3 and len(lines) == 4, lines
    for line in lines:
        at = [xs.index(x) for x in line]
        assert at == list(range(at[0], at[0] + len(at))), lines
    assert mv["journeys"][1]["bot_cols"] == [1] and mv["journeys"][1]["gone"] is False
    assert all(not mv["journeys"][p]["bot_cols"] for p in (2, 3, 4))
    # The long alt's summary says the same.
    said = report_charts._paths_summary("Steps", mv, names, 2)
    assert "A bot sat in the seat of a player who left: Ana's in Round 2." in said["after"]

    # Gone again during Round 3 (still gone): the bot did not sit down at Round 3's
    # start, so still "in Round 2" (the columns are the rounds' starts).
    doc["players"][0].update(has_left=True, left_at="2026-11-25T11:05:00+00:00")
    mv = report.build_report(doc)["movement"]
    assert mv["journeys"][1]["bot_cols"] == [1] and mv["journeys"][1]["gone"] is True
    assert (
        "Ana: tables 1 then 2 then 1, a bot in their seat in Round 2;"
        in (report_charts.paths_chart(mv, names)["alt"])
    )
    # Gone again before Round 3 began, for good: from Round 3 on, as for anyone gone.
    doc["players"][0]["left_at"] = "2026-11-25T10:58:00+00:00"
    mv = report.build_report(doc)["movement"]
    assert mv["journeys"][1]["bot_cols"] == [1, 2]
    chart = report_charts.paths_chart(mv, names)
    assert "Ana: tables 1 then 2 then 1, a bot in their seat from Round 2;" in chart["alt"]
    assert ">Ana (bot)<" in _chart_svg(chart)
    # Back at 10:55 and gone for good from 10:58 (no return between the two rounds'
    # starts would show): three columns, the bot in the last two.
    doc["players"][0]["absences"] = [
        {"left": "2026-11-25T10:05:00+00:00", "back": "2026-11-25T10:06:00+00:00"}
    ]
    doc["rounds"][0]["started_at"] = "2026-11-25T10:05:30+00:00"
    mv = report.build_report(doc)["movement"]
    assert mv["journeys"][1]["bot_cols"] == [0, 2]
    assert (
        "Ana: tables 1 then 2 then 1, a bot in their seat in Round 1 and from Round 3;"
        in (report_charts.paths_chart(mv, names)["alt"])
    )


def test_the_guide_leaves_a_player_out_of_the_movers_figures_for_rounds_they_were_away_in():
    """Ana was away for all of Round 2, a bot playing her seat (it lost): the guide's
    "moving up or down" counted her as a mover up after Round 1 who then lost, and as
    a mover down after Round 2 (a review). She is left out of both pairs of rounds, in
    the facilitator's guide and the class's."""
    doc = three_rounds_away_in_round_2()
    for rep in (report.build_report(doc), report.build_report(doc, names=False)):
        moved = next(q for q in rep["guide"] if q["id"] == "moved")["data"]
        said = " ".join(moved)
        assert "Moved up after Round 1" not in said, moved
        assert "Moved down after Round 2" not in said, moved
        # The others are still there: Dee moved down after Round 1, Ben up after Round 2.
        assert "Moved down after Round 1 (1 player)" in said, moved
        assert "Moved up after Round 2 (1 player)" in said, moved

    # Away only between the rounds (left after Round 1 ended, back before Round 2
    # began): every game of both rounds was hers, and she counts.
    doc["players"][0]["absences"] = [
        {"left": "2026-11-25T10:20:00+00:00", "back": "2026-11-25T10:25:00+00:00"}
    ]
    doc["games"][2]["winners"] = [1]  # now her own game
    moved = " ".join(
        next(q for q in report.build_report(doc)["guide"] if q["id"] == "moved")["data"]
    )
    assert "Moved up after Round 1 (1 player): won 1 of 1 game (100 %) in Round 1" in moved
    # Away a few minutes in the middle of Round 3 (a game of it the bot's): out of
    # Round 2 to Round 3, still in Round 1 to Round 2.
    doc["players"][0]["absences"] = [
        {"left": "2026-11-25T11:05:00+00:00", "back": "2026-11-25T11:07:00+00:00"}
    ]
    moved = " ".join(
        next(q for q in report.build_report(doc)["guide"] if q["id"] == "moved")["data"]
    )
    assert "Moved up after Round 1 (1 player)" in moved
    assert "Moved down after Round 2" not in moved


def test_a_bot_in_a_seat_is_said_to_play_while_they_were_away_by_the_time_away_it_played_in():
    """ "(a bot after they left)" was chosen by whether the player is back now: Ana,
    back in Round 2 and gone for good in Round 3, read "after they left" in Round 2 as
    well (a review). Each round's wording comes from the time away that covered it."""
    doc = three_rounds_away_in_round_2()
    # Away from 10:40 (during Round 2, after its game began) to 10:55; gone for good
    # from 11:05 (during Round 3, after its game began).
    doc["players"][0]["absences"] = [
        {"left": "2026-11-25T10:40:00+00:00", "back": "2026-11-25T10:55:00+00:00"}
    ]
    doc["games"] += [
        {**doc["games"][2], "id": 7, "number": 7, "started_at": "2026-11-25T10:41:00+00:00"},
        {**doc["games"][4], "id": 8, "number": 8, "started_at": "2026-11-25T11:06:00+00:00"},
    ]  # the bot's: while she was away, then after she left
    doc["players"][0].update(has_left=True, left_at="2026-11-25T11:05:00+00:00")
    rep = report.build_report(doc)

    def label(rn: int) -> str:
        rows = [p for t in rep["results"][rn - 1]["tables"] for p in t["players"]]
        return next(p["label"] for p in rows if p["id"] == 1)

    assert label(2) == "Ana (a bot while they were away)"
    assert label(3) == "Ana (a bot after they left)"
    # The moves: after Round 2 (away at its end, 10:45, back at 10:55) "while".
    moves = {(m["round"], m["player"]): m["name"] for m in rep["movement"]["moves"]}
    assert moves[(2, 1)] == "Ana (a bot while they were away)"


def table_row(n, moved, *, games=1, cut=0, disputes=0, edited=(), by_name=()):
    """A table of a round's results as report.results gives it: `moved`, each of its
    players' move; `edited` and `by_name`, the indexes of those whose move the
    facilitator changed or that was decided by name."""
    return {
        "table": n,
        "games_played": games,
        "games_cut": cut,
        "none_dealt": False,
        "games": [{"disputes": disputes}],
        "players": [
            {"moved": m, "edited": i in edited, "by_name": i in by_name}
            for i, m in enumerate(moved)
        ],
    }


def round_1(*tables):
    """Round 1, scored, finished and its movement applied, at `tables`."""
    return {
        "round": 3,
        "label": "Round 1",
        "kind": "scored",
        "scored": True,
        "moved": True,
        "finished": True,
        "last": False,
        "tables": list(tables),
    }


def test_a_rounds_line_sums_up_its_tables_in_the_class_views_figures():
    """A large class's report folds a round's tables and keeps this summary in view: the
    totals of the class's "All tables" row and the moves after, a lead and a list."""

    rd = round_1(
        table_row(1, ["up", "", "", "down"], games=3, cut=1, disputes=2, edited=(3,)),
        table_row(2, ["up", ""]),
    )
    # On the page a lead and a list (in one sentence it was six lines of a phone at 40
    # tables), what decided the moves after it.
    said = report.round_summary(rd, disputes=True)
    assert {k: said[k] for k in ("lead", "items", "after")} == {
        "lead": "2 tables, 6 players:",
        "items": ["4 games (1 cut short)", "2 disputes", "moves after it: 2 up, 1 down, 3 stayed"],
        "after": "1 was changed by the facilitator.",
    }
    for t in rd["tables"]:
        for p in t["players"]:
            p["by_name"] = True
        t["players"][-1]["moved"] = "left"
    said = report.round_summary(rd, disputes=False)
    assert said["items"] == [
        "4 games (1 cut short)",
        "moves after it: 2 up, none down, 2 stayed",
        "2 left the workshop",
    ]
    assert said["after"] == (
        "6 of these moves or stays were decided by name among equal games won; 1 was changed"
        " by the facilitator."
    )
    # One thing to say: a sentence, no list of one.
    last = {**rd, "label": "Round 2", "moved": False, "last": True, "tables": [table_row(1, [""])]}
    assert report.round_summary(last, disputes=False) == {
        "lead": "1 table, 1 player: 1 game.",
        "items": [],
        "after": "The last round: nobody moves after it.",
        "after_paragraphs": ["The last round: nobody moves after it."],
        "line": "1 table, 1 player: 1 game. The last round: nobody moves after it.",
    }
    assert report.round_summary({**last, "last": False}, disputes=True)["line"] == (
        "1 table, 1 player: 1 game; no dispute. Movement was not applied after this round."
    )
    # Every game cut short: said once, as the tables' captions say it ("1 game (1 cut
    # short)" said the one game twice).
    for games, said in (
        (1, "1 game, cut short"),
        (2, "2 games, both cut short"),
        (3, "3 games, all cut short"),
    ):
        cut = {**last, "tables": [table_row(1, [""], games=games, cut=games)]}
        assert report.round_summary(cut, disputes=False)["lead"] == f"1 table, 1 player: {said}."
    # A round still being played: nothing said of moves.
    assert report.round_summary({**last, "last": False, "finished": False}, disputes=False) == {
        "lead": "1 table, 1 player: 1 game.",
        "items": [],
        "after": "",
        "after_paragraphs": [],
        "line": "1 table, 1 player: 1 game.",
    }


def test_the_class_views_moves_after_a_round_are_a_lead_and_a_list():
    """Section 2 of the class's view says under the seating grid how many moved after
    each round. At 40 tables, with what decided them, one sentence was six lines of a
    390-px phone a round: past twelve tables the page shows a lead and a line a part
    (report.listed), what decided them after the list; up to there, `line`, the
    sentence it was."""

    rd = round_1(table_row(1, ["up", "", "", "down"]), table_row(2, ["up", "", "down", ""]))
    after = report._round_counts(rd)["after"]
    assert (after["lead"], after["items"], after["after"]) == (
        "After Round 1:",
        ["2 players moved up", "2 moved down", "4 stayed"],
        "",
    )
    assert after["line"] == "After Round 1: 2 players moved up, 2 moved down and 4 stayed."
    # Who left, and what decided the moves: the notes after the list, a sentence.
    rd["tables"] = [
        table_row(1, ["up", "", "left", "down"], edited=(3,), by_name=(0, 1)),
        table_row(2, ["up", "", "down", ""], by_name=(2,)),
    ]
    after = report._round_counts(rd)["after"]
    assert after["items"] == [
        "2 players moved up",
        "2 moved down",
        "3 stayed",
        "1 left the workshop",
    ]
    notes = (
        "3 of these moves or stays were decided by name among equal games won; 1 was"
        " changed by the facilitator."
    )
    assert after["after"] == notes
    assert after["line"] == (
        f"After Round 1: 2 players moved up, 2 moved down, 3 stayed and 1 left the workshop. {notes}"
    )
    # No movement applied: nothing to say.
    assert report._round_counts({**rd, "moved": False})["after"] is None


def _clash_cell(tricks, clashes, disputes=0, timeouts=0, cut=0):
    return {
        "tricks": tricks,
        "clashes": clashes,
        "disputes": disputes,
        "timeouts": timeouts,
        "cut": cut,
    }


def test_the_clash_tables_line_adds_up_each_round_and_names_where_most_happened():
    """A large class's report folds section 4's table per table and round under this
    line: each round's tricks, clashes and disputes added up over the tables, and the
    table and round with the most disputes (clashes in referee mode)."""
    cl = {
        "rounds": [{"label": "Round 1"}, {"label": "Round 2"}],
        "by_table_round": [
            {"table": 1, "rounds": [_clash_cell(10, 0), _clash_cell(9, 3, 2, timeouts=1)]},
            {"table": 2, "rounds": [_clash_cell(8, 0), _clash_cell(11, 4, 3, cut=1)]},
            {"table": 3, "rounds": [_clash_cell(1, 0), _clash_cell(7, 1, 1)]},
        ],
    }
    assert report.clashes_summary(cl, disputes=True)["line"] == (
        "3 tables, round by round: Round 1, no clash in 19 tricks, no dispute;"
        " Round 2, 8 clashes in 27 tricks, 6 disputes (1 timed out), 1 claim step cut short"
        " with no trick. The most disputes at one table in a round: 3, at table 2 in Round 2."
    )
    assert report.clashes_summary(cl, disputes=False)["line"] == (
        "3 tables, round by round: Round 1, no clash in 19 tricks;"
        " Round 2, 8 clashes in 27 tricks, 1 claim step cut short with no trick."
        " The most clashes at one table in a round: 4, at table 2 in Round 2."
    )
    # Ties are named up to three, then counted; nothing at all names no table.
    tied = {
        **cl,
        "by_table_round": [
            {"table": n, "rounds": [_clash_cell(1, 1, 1), _clash_cell(1, 1, 1)]} for n in (1, 2)
        ],
    }
    assert report.clashes_summary(tied, disputes=True)["line"].endswith(
        "The most disputes at one table in a round: 1, at 2 tables in Round 1 and 2 tables"
        " in Round 2."
    )
    tied["by_table_round"] = tied["by_table_round"][:1]
    assert report.clashes_summary(tied, disputes=True)["line"] == (
        "1 table, round by round: Round 1, 1 clash in 1 trick, 1 dispute; Round 2, 1 clash"
        " in 1 trick, 1 dispute. The most disputes at one table in a round: 1, at table 1"
        " in Round 1 and table 1 in Round 2."
    )
    quiet = {**cl, "by_table_round": [{"table": 1, "rounds": [_clash_cell(0, 0)] * 2}]}
    assert report.clashes_summary(quiet, disputes=True)["line"] == (
        "1 table, round by round: Round 1, no trick played to the end, no dispute;"
        " Round 2, no trick played to the end, no dispute."
    )


def _revoke_row(rd, table, tricks, clashes, revokes=0, newcomers=0, upheld=0, refused=0):
    return {
        "round": rd,
        "table": table,
        "games": 1,
        "tricks": tricks,
        "clashes": clashes,
        "revokes": revokes,
        "by_newcomers": newcomers,
        "upheld": upheld,
        "refused": refused,
        "refused_by_newcomers": 0,
        "unnoticed": revokes - upheld,
    }


def test_the_revokes_line_adds_up_each_rounds_revokes_and_calls_over_the_tables():
    """A large class's report folds All Fives' table of revokes and calls per round and
    table (7Up7Down's and referee mode's of tricks judged differently) under this line."""
    rows = [
        _revoke_row("Round 1", 1, 10, 0),
        _revoke_row("Round 1", 2, 9, 1, revokes=1, upheld=1, refused=2),
        _revoke_row("Round 2", 1, 8, 3, revokes=2, newcomers=2, upheld=1),
        _revoke_row("Round 2", 2, 11, 4, revokes=3, newcomers=1, refused=1),
    ]
    keys = [k for k in rows[0] if k not in ("round", "table")]
    rv = {"table_decides": False, "rows": rows, "totals": dict.fromkeys(keys, 0)}
    assert report.revokes_summary(rv)["line"] == (
        "2 tables, round by round: Round 1, 1 of 19 tricks judged differently, 1 revoke:"
        " called, 2 calls refused; Round 2, 7 of 19 tricks judged differently, 5 revokes"
        " (3 by newcomers): 1 called and 4 not called, 1 call refused. The most revokes at"
        " one table in a round: 3, at table 2 in Round 2."
    )
    # Only counts above nought: none called, all by newcomers, no call refused.
    missed = {**rv, "rows": [_revoke_row("Round 1", 1, 10, 2, revokes=3, newcomers=3)]}
    assert report.revokes_summary(missed)["items"] == [
        "Round 1, 2 of 10 tricks judged differently, 3 revokes (all by newcomers): none called"
    ]
    assert report.revokes_summary({**rv, "table_decides": True})["line"] == (
        "2 tables, round by round: Round 1, 1 of 19 tricks judged differently; Round 2, 7 of"
        " 19 tricks judged differently. The most tricks judged differently at one table in a"
        " round: 4, at table 2 in Round 2."
    )
    # A round without a revoke says so once, and the calls refused if any.
    calm = {
        **rv,
        "rows": [
            {**r, "revokes": 0, "by_newcomers": 0, "upheld": 0, "unnoticed": 0} for r in rv["rows"]
        ],
    }
    assert report.revokes_summary(calm)["line"].startswith(
        "2 tables, round by round: Round 1, 1 of 19 tricks judged differently, no revokes,"
        " 2 calls refused; Round 2, 7 of 19 tricks judged differently, no revokes, 1 call"
        " refused."
    )
    # Nothing judged differently: no table named.
    quiet = {**rv, "table_decides": True, "rows": [_revoke_row("Round 1", 1, 1, 0)]}
    assert report.revokes_summary(quiet)["line"] == (
        "1 table, round by round: Round 1, 1 trick, not judged differently."
    )
    # None said in words ("0 of 19 tricks judged differently"), and no trick at all.
    quiet["rows"] = [_revoke_row("Round 1", 1, 10, 0), _revoke_row("Round 1", 2, 9, 0)]
    quiet["rows"] += [_revoke_row("Round 2", 1, 0, 0)]
    assert report.revokes_summary(quiet)["items"] == [
        "Round 1, none of 19 tricks judged differently",
        "Round 2, no trick played to the end",
    ]


def test_the_refusals_line_adds_up_each_rounds_refused_moves_and_by_whom_only_if_asked():
    """A large class's report folds the table of refused moves per round and table under
    this line; the class's view, which shows how many per table and not by whom, has
    the line without newcomers and locals."""

    def row(rd, table, newcomers, locals_):
        return {
            "round": rd,
            "table": table,
            "refused": newcomers + locals_,
            "by_newcomers": newcomers,
            "by_locals": locals_,
        }

    rows = [row("Round 1", 1, 0, 2), row("Round 1", 2, 0, 1), row("Round 2", 1, 3, 0)]
    rows.append(row("Round 2", 2, 1, 2))
    assert report.refusals_summary(rows, by_whom=True)["line"] == (
        "2 tables, round by round: Round 1, 3 moves refused (all by locals);"
        " Round 2, 6 moves refused (4 by newcomers and 2 by locals). The most refused moves at"
        " one table in a round: 3, at tables 1 and 2 in Round 2."
    )
    # On the page: a lead sentence, a line a round, and the most after them.
    assert report.refusals_summary(rows, by_whom=True) == {
        "lead": "2 tables, round by round:",
        "items": [
            "Round 1, 3 moves refused (all by locals)",
            "Round 2, 6 moves refused (4 by newcomers and 2 by locals)",
        ],
        "after": "The most refused moves at one table in a round: 3, at tables 1 and 2 in Round 2.",
        "after_paragraphs": [
            "The most refused moves at one table in a round: 3, at tables 1 and 2 in Round 2."
        ],
        "line": report.refusals_summary(rows, by_whom=True)["line"],
    }
    assert report.refusals_summary(rows[:1], by_whom=False)["line"] == (
        "1 table, round by round: Round 1, 2 moves refused. The most refused moves at one"
        " table in a round: 2, at table 1 in Round 1."
    )
    # Only counts above nought said ("(0 by newcomers, 3 by locals)" before), one
    # refused move by whom in words, and none in words.
    one = [row("Round 1", 1, 1, 0), row("Round 2", 1, 0, 1), row("Round 3", 1, 0, 0)]
    assert report.refusals_summary(one, by_whom=True)["items"] == [
        "Round 1, 1 move refused (by a newcomer)",
        "Round 2, 1 move refused (by a local)",
        "Round 3, no move refused",
    ]
    assert report.refusals_summary([row("Round 1", 1, 0, 0)], by_whom=False)["line"] == (
        "1 table, round by round: Round 1, no move refused."
    )


def test_the_class_seating_line_adds_up_who_sat_at_home_at_each_rounds_start():
    """The class's view folds its seating counts past twelve tables under this line."""

    def seat(players, up=0, down=0, home=0, away=0, joined=0):
        return {
            "players": players,
            "up": up,
            "down": down,
            "home": home,
            "back": 0,
            "away": away,
            "joined": joined,
        }

    columns = [{"label": "Round 1"}, {"label": "Round 2"}]
    seating = [
        {"table": 1, "cells": [seat(4, home=4), seat(4, up=1, down=1, home=2)]},
        {"table": 2, "cells": [seat(3, home=3), seat(5, up=2, home=3, joined=1)]},
    ]
    # Where they sat, not who moved: section 3's round line says the moves once (this
    # line said "3 had moved up, 1 down and 5 stayed at their home table", close to that
    # line's "moves after it: 3 up, 1 down, 4 stayed" and not the same).
    assert report.seating_summary(columns, seating)["line"] == (
        "2 tables, at the start of each round: Round 1, 7 players, all at their home table;"
        " Round 2, 9 players: 5 at their home table and 4 at another table"
        " (1 joined during it)."
    )
    # Those who stayed where an earlier move took them are at another table too.
    seating[0]["cells"][1] = seat(6, up=1, down=1, home=2, away=2)
    assert report.seating_summary(columns, seating)["line"].endswith(
        " Round 2, 11 players: 5 at their home table and 6 at another table (1 joined during it)."
    )
    alone = [{"table": 1, "cells": [seat(1, home=1), seat(0)]}]
    assert report.seating_summary(columns, alone)["line"] == (
        "1 table, at the start of each round: Round 1, 1 player, the one at their home"
        " table; Round 2, 0 players."
    )


def test_the_class_seating_line_counts_a_mover_back_home_once_at_their_home_table():
    """A mover who came back to their home table was counted as moved and as at home:
    "2 had moved up, 2 down and 3 at their home table" of 4 players added up to 7.
    The line counts each player once, at their home table or at another (_seat_counts:
    a chip both local and with an arrow is one of `home` and of `back`)."""
    chips = [
        {"arrow": "up", "local": True, "joined": False},
        {"arrow": "up", "local": False, "joined": False},
        {"arrow": "down", "local": True, "joined": False},
        {"arrow": "down", "local": False, "joined": False},
        {"arrow": "", "local": True, "joined": False},
    ]
    counts = report._seat_counts(chips)
    assert counts == {
        "players": 5,
        "up": 2,
        "down": 2,
        "home": 3,
        "back": 2,
        "away": 0,
        "joined": 0,
    }
    columns = [{"label": "Round 2"}, {"label": "Round 3"}]
    seating = [
        {"table": 1, "cells": [counts, report._seat_counts(chips[1:2] + chips[3:])]},
        {"table": 2, "cells": [report._seat_counts(chips[:1]), report._seat_counts([])]},
    ]
    assert report.seating_summary(columns, seating)["line"] == (
        "2 tables, at the start of each round: Round 2, 6 players: 4 at their home table"
        " and 2 at another table; Round 3, 3 players: 1 at their home table and 2 at"
        " another table."
    )


def test_the_movers_are_counted_as_a_person_says_it_nobody_not_0():
    """Section 2 read "After Round 1: 0 players moved up, 2 moved down and 4 stayed"
    and "0 had moved up, 2 down": a count of none is "nobody", and "player" is said
    once, with the first number (report._moves_said)."""

    def after(*moved):
        return report._round_counts(round_1(table_row(1, moved)))["after"]

    said = after("down", "down", "", "", "", "")
    assert said["items"] == ["nobody moved up", "2 players moved down", "4 stayed"]
    assert said["line"] == "After Round 1: nobody moved up, 2 players moved down and 4 stayed."
    said = after("up", "", "")
    assert said["line"] == "After Round 1: 1 player moved up, nobody moved down and 2 stayed."
    said = after("", "", "")
    assert said["line"] == "After Round 1: nobody moved up or down and 3 players stayed."
    said = after("up", "down")
    assert said["line"] == "After Round 1: 1 player moved up, 1 moved down and nobody stayed."
    # The seating line: "nobody at their home table", never "0 at their home table".
    chip = {"up": {"arrow": "up", "local": False, "joined": False}}
    chip["down"] = {**chip["up"], "arrow": "down"}
    chip["home"] = {"arrow": "", "local": True, "joined": False}
    chip["away"] = {"arrow": "", "local": False, "joined": False}

    def seated(*cells):
        columns = [{"label": f"Round {i}"} for i in range(1, len(cells) + 1)]
        seating = [
            {"table": 1, "cells": [report._seat_counts([chip[c] for c in cell]) for cell in cells]}
        ]
        return report.seating_summary(columns, seating)["items"]

    assert seated(["down", "down", "home"], ["up", "away"], ["home", "away"]) == [
        "Round 1, 3 players: 1 at their home table and 2 at another table",
        "Round 2, 2 players: nobody at their home table and 2 at another table",
        "Round 3, 2 players: 1 at their home table and 1 at another table",
    ]


def test_the_pairs_line_counts_the_pairs_that_differed_per_rule():
    """Past twelve tables section 1's list of pairs of neighbouring tables (a line a
    pair) folds under this summary; the guide says it too, in one line. A rule's title
    comes first, its count after it: "12 in which card wins" and "3 in a block matches
    by" read wrong. Where every pair differed it says "All 12", not "12 of the 12".
    Rule by rule, a lead and a list, a rule a line (one sentence of four rules was four
    lines of a phone); no list for one rule or one pair."""

    def pair(a, *titles):
        return {"a": a, "b": a + 1, "knobs": list(titles), "titles": list(titles)}

    def said(s: dict) -> tuple:
        return s["lead"], s["items"]

    pairs = [pair(1, "Ace", "Which card wins"), pair(2), pair(3, "Ace"), pair(4, "Ace")]
    assert said(report.pairs_summary(pairs)) == (
        "3 of the 4 pairs of neighbouring tables differed, rule by rule:",
        ["ace in 3 pairs", "which card wins in 1 pair"],
    )
    assert report.pairs_summary(pairs)["line"] == (
        "3 of the 4 pairs of neighbouring tables differed, rule by rule: ace in 3 pairs;"
        " which card wins in 1 pair."
    )
    assert said(report.pairs_summary([p for p in pairs if p["knobs"]])) == (
        "All 3 pairs of neighbouring tables differed, rule by rule:",
        ["ace in 3 pairs", "which card wins in 1 pair"],
    )
    blocks = [pair(1, "A block matches by"), pair(2), pair(3, "A block matches by")]
    assert said(report.pairs_summary(blocks, aside=" (section 1 lists each pair)")) == (
        "2 of the 3 pairs of neighbouring tables differed (section 1 lists each pair), in"
        " one rule only: a block matches by.",
        [],
    )
    one = [pair(1), pair(2, "Swap at most", "Drawing stops at"), pair(3)]
    assert report.pairs_summary(one, aside=" (section 1 lists each pair)")["line"] == (
        "1 of the 3 pairs of neighbouring tables differed (tables 2 and 3), in: swap at"
        " most and drawing stops at."
    )
    # The rules as the rules table's rows go (`order`), not as they first differ; a
    # title's own brackets stand alone (7Up7Down's "(made exactly)").
    late = [pair(1, "Points a trick bid (made exactly)"), pair(2, "Ace"), pair(3, "Ace")]
    for p in late:
        p["knobs"] = [{"Ace": "ace"}.get(t, "points") for t in p["titles"]]
    assert said(report.pairs_summary(late, order=["ace", "points"])) == (
        "All 3 pairs of neighbouring tables differed, rule by rule:",
        ["ace in 2 pairs", "points a trick bid (made exactly) in 1 pair"],
    )
    same = [{**p, "knobs": [], "titles": []} for p in pairs]
    assert report.pairs_summary(same) == {
        "lead": "All 4 pairs of neighbouring tables played the same rules.",
        "items": [],
        "after": "",
        "after_paragraphs": [],
        "line": "All 4 pairs of neighbouring tables played the same rules.",
    }


def test_past_twelve_tables_the_guide_counts_what_neighbouring_tables_differed_in():
    """The guide's first question listed every pair of neighbouring tables, a line
    each: 39 lines beside "What did you expect" at 40 tables, more than the rest of
    the guide. Past twelve tables (report.FOLD_TABLES) one line counts the pairs per
    rule; section 1 still lists each pair. Up to twelve, a line a pair, as before."""

    def pairs(n: int) -> list[dict]:
        out = []
        for a in range(1, n):
            titles = ["Ace", "Which card wins"] if a % 3 else []
            titles += ["Following the lead"] if a % 2 else []
            out.append({"a": a, "b": a + 1, "knobs": titles, "titles": titles})
        return out

    played = "13 tables played 4 different sheets."
    mov = {"moves": []}
    rows = [{"knob": k} for k in ("Ace", "Which card wins", "Following the lead")]
    rev = {"pairs": pairs(13), "sheet_of": {}, "rows": rows}
    assert report._expect_lines(rev, mov, played) == [
        played,
        "10 of the 12 pairs of neighbouring tables differed (the report's section 1 lists"
        " each pair), rule by rule: ace in 8 pairs; which card wins in 8 pairs; following"
        " the lead in 6 pairs.",
    ]
    twelve = report._expect_lines({**rev, "pairs": pairs(12)}, mov, played)
    assert twelve[1:3] == [
        "Tables 1 and 2 differed in: ace, which card wins and following the lead.",
        "Tables 2 and 3 differed in: ace and which card wins.",
    ]
    assert len(twelve) == 1 + 10  # a line for each pair that differed (not tables 6 and 7)
