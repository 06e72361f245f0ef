"""The debrief report from a scripted workshop (issue 6): figures, exports, replay check.

One workshop is scripted through the services with a fake clock: two tables
whose sheets disagree on every trick with two cards of the led suit (HIGH at
table 1, LOW at table 2), three players each, a first round without clashes,
movement, and a second round with five scripted claim steps:

- D1 (table 1, game 1, trick 1): the newcomer gives in → settled by a change, 12.5 s,
  the locals' sheet (majority) prevails;
- D3 (table 1, game 2, trick 1): both locals give in → settled by a change, 30 s,
  the newcomer's sheet (minority) prevails;
- D5 (table 1, game 2, trick 2): claims differ, nobody gives in, the round ends → cut;
- D2 (table 2, game 1, trick 1): nobody gives in → time-out at its 45 s limit (the tick came a second later), locals' majority;
- table 2, trick 2: only two of three claim before the time limit → a time-out
  with a missing (null) claim and no dispute.
"""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest
from report_helpers import T0, Clock, build_scripted

from tournament import check_export, export, gamestate, report
from tournament.models import Claim, Dispute, Game, Movement, Player, TrickRecord

# The mark makes pytest-django set up the test database that the module fixture writes to.
pytestmark = pytest.mark.django_db


def db_facts(facts: dict) -> dict:
    """What the tests compare the report with, read from the rows before they are rolled back."""
    games = list(Game.objects.select_related("round"))
    return {
        "tricks": [
            (t.game_id, t.index, t.verdicts, t.claims, t.resolution, t.winner)
            for t in TrickRecord.objects.all()
        ],
        "disputes": Dispute.objects.count(),
        "claims": Claim.objects.count(),
        "changes": Claim.objects.filter(is_change=True).count(),
        "moves": Movement.objects.count(),
        "games": [(g.pk, g.round.kind, list(g.players), list(g.winners), g.seq) for g in games],
        "final_tables": {p.name: p.table.number for p in Player.objects.select_related("table")},
    }


@pytest.fixture(scope="module")
def scripted(django_db_setup, django_db_blocker):
    """Built once for the module inside a transaction that is rolled back afterwards."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as mp:
        test_name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
        assert test_name is None or connection.settings_dict["NAME"] == test_name, "not the test DB"
        clock = Clock(T0)
        mp.setattr("tournament.services.play.now", clock)
        mp.setattr("tournament.services.rounds.now", clock)
        gamestate.clear_cache()
        with transaction.atomic():
            user = get_user_model().objects.create_user("facilitator", password="pw-facilitator")
            facts = build_scripted(clock, user)
            facts["user"] = user
            facts["doc"] = json.loads(json.dumps(export.workshop_document(facts["workshop"])))
            facts["report"] = report.build_report(facts["doc"])
            facts["db"] = db_facts(facts)
            transaction.set_rollback(True)
        gamestate.clear_cache()
    return facts


def by_name(rows):
    return {r["name"]: r for r in rows}


# ------------------------------------------------------------------ figures


def test_disputes_how_they_ended_how_long_and_whose_sheet_prevailed(scripted):
    cl = scripted["report"]["clashes"]
    w = scripted["winners"]
    g1, g2, h1 = (scripted["games"][k] for k in ("g1", "g2", "h1"))
    assert cl["dispute_count"] == 4 == scripted["db"]["disputes"]
    assert cl["outcome_counts"] == {"changed": 2, "timeout": 1, "cut": 1, "left": 0, "open": 0}
    rows = {(d["game"], d["trick_index"]): d for d in cl["disputes"]}
    d1, d3, d5, d2 = rows[(g1.pk, 0)], rows[(g2.pk, 0)], rows[(g2.pk, 1)], rows[(h1.pk, 0)]
    assert [d["outcome"] for d in (d1, d3, d5, d2)] == ["changed", "changed", "cut", "timeout"]
    assert (d1["duration"], d3["duration"], d2["duration"], d5["duration"]) == (
        12.5,
        30.0,
        45.0,
        160.0,
    )
    assert (d1["since_round_start"], d2["since_round_start"]) == (20.0, 50.0)
    assert cl["duration"] == {"count": 3, "mean": 29.2, "median": 30.0, "max": 45.0}
    # Whole seconds are said without a ".0" ("45.0 s" read as a measuring instrument's).
    assert (type(cl["duration"]["median"]), type(cl["duration"]["mean"])) == (int, float)
    from django.template.loader import render_to_string

    html = render_to_string(
        "report/page.html", {"r": scripted["report"], "workshop": scripted["workshop"]}
    )
    assert "median 30 s, mean 29.2 s, longest 45 s" in html
    assert (d1["winner_seat"], d3["winner_seat"], d2["winner_seat"]) == (w["d1"], w["d3"], w["d2"])
    assert (d1["origin"], d1["support"]) == ("local", "majority")
    assert (d3["origin"], d3["support"]) == ("newcomer", "minority")
    assert (d2["origin"], d2["support"]) == ("local", "majority")
    assert (d5["origin"], d5["support"], d5["winner"]) == (None, None, None)
    assert cl["origins"] == {"local": 2, "newcomer": 1, "shared": 0, "none": 0}
    assert cl["support"] == {"majority": 2, "minority": 1, "tie": 0, "none": 0}
    assert d1["changed_by"] == ["P06"]
    assert sorted(d3["changed_by"]) == ["P03", "P05"]
    assert d5["changed_by"] == [] and d2["changed_by"] == []
    locals_d1 = sorted(s["name"] for s in d1["seats"] if s["local"])
    assert locals_d1 == ["P03", "P05"]


def test_every_claim_step_and_the_null_claim_time_out(scripted):
    cl = scripted["report"]["clashes"]
    h1 = scripted["games"]["h1"]
    rec = next(t for t in scripted["db"]["tricks"] if t[:2] == (h1.pk, 1))
    _, _, _, claims, resolution, winner = rec
    assert resolution == "timeout" and winner == scripted["seats"]["leader2"]  # 1-1: the leader
    assert claims.count(None) == 1
    outcomes = {o["key"]: o["count"] for o in cl["trick_outcomes"]}
    total = len(scripted["db"]["tricks"])
    assert outcomes["timeout"] == 2  # D2 and the null-claim trick
    assert outcomes["changed"] == 2  # D1 and D3
    assert outcomes["agreed"] == total - 4
    assert cl["tricks"] == total
    # D5, cut short by the round's end, awarded no trick but is a claim step that ended.
    assert outcomes["cut"] == 1
    assert sum(outcomes.values()) == total + 1


def test_clashes_matrix_and_disputes_per_table_and_round(scripted):
    cl = scripted["report"]["clashes"]
    clashing = [t for t in scripted["db"]["tricks"] if len(set(t[2])) > 1]
    assert cl["clash_count"] == len(clashing) >= 3
    flagged = {(c["game"], c["trick_number"]) for c in cl["clash_tricks"] if c["disputed"]}
    g1, g2, h1 = (scripted["games"][k] for k in ("g1", "g2", "h1"))
    assert {(g1.pk, 1), (g2.pk, 1), (h1.pk, 1)} <= flagged
    # Only two sheets exist, so every clash is a clash of table 1's and table 2's sheets.
    assert cl["matrix"]["sheets"] == ["T1", "T2"]
    assert cl["matrix"]["rows"][0]["cells"] == [None, len(clashing)]
    assert cl["matrix"]["rows"][1]["cells"] == [len(clashing), None]
    cells = {
        (t["table"], c["label"]): (c["disputes"], c["timeouts"])
        for t in cl["by_table_round"]
        for c in t["rounds"]
    }
    assert cells[(1, "Round 1")] == (0, 0) and cells[(2, "Round 1")] == (0, 0)
    assert cells[(1, "Round 2")] == (3, 0) and cells[(2, "Round 2")] == (1, 1)
    cut = {(t["table"], c["label"]): c["cut"] for t in cl["by_table_round"] for c in t["rounds"]}
    assert cut[(1, "Round 2")] == 1 and cut[(2, "Round 2")] == 0  # D5
    # Round 1 was played at home: no clash at all.
    assert all(c["label"] != "Round 1" for c in cl["clash_tricks"])


def test_gestures_counted_by_kind_in_and_out_of_disputes(scripted):
    g = scripted["report"]["clashes"]["gestures"]
    used = {k["kind"]: (k["in_dispute"], k["other"]) for k in g["used"]}
    assert used == {"question": (2, 0), "stop": (1, 0), "drawing": (1, 0), "smile": (0, 1)}
    assert (g["total"], g["in_dispute"]) == (5, 4)


def test_per_player_journeys_disputes_and_adapting(scripted):
    players = by_name(scripted["report"]["players"])
    mv = scripted["report"]["movement"]
    assert [c["label"] for c in mv["columns"]] == ["At home", "Round 1", "Round 2", "After Round 2"]
    final = scripted["db"]["final_tables"]
    expected_first = {
        "P01": [1, 1, 2],
        "P02": [2, 2, 2],
        "P03": [1, 1, 1],
        "P04": [2, 2, 2],
        "P05": [1, 1, 1],
        "P06": [2, 2, 1],
    }
    for name, path in expected_first.items():
        assert players[name]["journey"] == path + [final[name]], name
    assert players["P01"]["journey_text"].startswith("1 → 1 → 2 → ")
    figures = {
        n: (p["disputes"], p["adapted"], p["held"], p["claim_changes"]) for n, p in players.items()
    }
    assert figures == {
        "P01": (1, 0, 1, 0),
        "P02": (1, 0, 1, 0),
        "P03": (3, 1, 2, 1),
        "P04": (1, 0, 1, 0),
        "P05": (3, 1, 2, 1),
        "P06": (3, 1, 2, 1),
    }
    assert scripted["db"]["changes"] == 3
    assert players["P06"]["as_newcomer"] == 3 and players["P03"]["as_local"] == 3
    # D3's winner was P06's own claim; D1's was the locals'.
    assert players["P06"]["claim_won"] == 1 and players["P03"]["claim_won"] == 1
    wins = {n: (p["games_won"], p["games_played"]) for n, p in players.items()}
    for name, p in scripted["P"].items():
        games = [g for g in scripted["db"]["games"] if g[1] == "scored" and p.pk in g[2]]
        assert wins[name] == (sum(p.pk in g[3] for g in games), len(games))
    assert wins["P01"][0] >= 1 and wins["P02"][0] >= 1  # round 1's trick winners


def test_movement_table_and_round_one_results(scripted):
    mv = scripted["report"]["movement"]
    moves = [(m["label"], m["name"], m["from"], m["to"], m["direction"]) for m in mv["moves"]]
    assert moves[:2] == [("Round 1", "P01", 1, 2, "up"), ("Round 1", "P06", 2, 1, "down")]
    assert len(moves) == scripted["db"]["moves"]
    res = {r["label"]: r for r in scripted["report"]["results"]}
    t1, t2 = res["Round 1"]["tables"]
    assert (t1["games_played"], t1["games_cut"], t1["top"], t1["bottom"]) == (
        1,
        1,
        ["P01"],
        ["P03", "P05"],
    )
    assert t1["moved_up"] == ["P01"] and t1["moved_down"] == []
    assert (t2["top"], t2["bottom"], t2["moved_up"], t2["moved_down"]) == (
        ["P02"],
        ["P04", "P06"],
        [],
        ["P06"],
    )
    assert by_name(t1["players"])["P01"]["tricks"] == 1
    r2 = {t["table"]: t for t in res["Round 2"]["tables"]}
    assert r2[1]["games_played"] == 2 and r2[1]["games_completed"] == 1 and r2[1]["games_cut"] == 1
    assert r2[2]["games_played"] == 1 and r2[2]["games_cut"] == 1


def test_the_reveal_highlights_knobs_that_differ_from_the_table_below(scripted):
    rev = scripted["report"]["reveal"]
    cells = {row["knob"]: [c["differs"] for c in row["cells"]] for row in rev["rows"]}
    assert cells == {
        "ace": [False, False],
        "wins": [False, True],
        "trump": [False, False],
        "trump_when": [False, False],
    }
    assert rev["pairs"] == [{"a": 1, "b": 2, "knobs": ["wins"], "titles": ["Which card wins"]}]
    assert rev["distinct_sheets"] == 2
    assert [s["heading"] for s in rev["sheets"][0]["sections"]] == list(report.REVEAL_SECTIONS)


def test_debrief_guide_pairs_each_question_with_figures(scripted):
    guide = scripted["report"]["guide"]
    assert [q["id"] for q in guide] == ["expect", "notice", "feel", "act", "moved", "outside"]
    text = {q["id"]: " ".join(q["data"]) for q in guide}
    assert "Tables 1 and 2 differed in: which card wins." in text["expect"]
    assert "the first dispute came 0:20 into the round, at table 1" in text["notice"]
    assert (
        "4 disputes: 2 settled by a changed claim, 1 decided by the time limit and 1 cut short"
        " by the end of a round." in text["act"]
    )
    assert (
        "Players adapted (changed their claim) 3 times and held their claim 9 times (5 the claim "
        "that won; 1 outvoted when time ran out; 3 until the round ended)." in text["act"]
    )
    # Three disputes with a winner at tables of two locals and one newcomer: the
    # verdict most sheets backed won 2 (the locals'), a minority's 1 (the newcomer's,
    # when both locals gave in). Said so first, the locals' numbers beside them.
    assert text["outside"].startswith(
        "Of 3 disputes with a winner, the winner was the verdict of most players' sheets at "
        "the table in 2 and the verdict of fewer sheets in 1. The locals were outnumbered by "
        "newcomers in none of them: the winner was named by the locals' sheet alone in 2 and "
        "by a newcomer's sheet alone in 1."
    )
    # P01 won Round 1's only game at table 1 and moved up; P06 moved down from table 2.
    moved = next(q for q in guide if q["id"] == "moved")["data"]
    assert moved[:2] == [
        "Moved up after Round 1 (1 player): won 1 of 1 game (100 %) in Round 1, "
        "then did not win their one game at their new table in Round 2.",
        "Moved down after Round 1 (1 player): did not win their one game in Round 1, "
        "then 1 of 2 games (50 %) at their new table in Round 2.",
    ]
    # Of the 10 clashes, 3 were disputed; of the other 7, one trick's claims ran out of
    # time with a seat that never claimed: not agreed (all 7 were said to be).
    clashes = [t for t in scripted["db"]["tricks"] if len(set(t[2])) > 1]
    disputed = {(d["game"], d["trick_index"]) for d in scripted["report"]["clashes"]["disputes"]}
    quiet = [t for t in clashes if t[:2] not in disputed]
    assert (len(clashes), len(quiet)) == (10, 7)
    timed_out = [t for t in quiet if t[4] == "timeout"]
    assert len(timed_out) == 1 and None in timed_out[0][3]  # a seat never claimed
    assert (
        "6 of 10 clashes passed without a dispute: the players agreed although their sheets "
        "did not." in text["notice"]
    )
    assert (
        "1 of 10 clashes was decided when the time to claim ran out before everyone had "
        "claimed: no agreement, and no dispute." in text["notice"]
    )
    # P05's one stroke is one drawing, counted with the gestures.
    assert (
        "4 of 5 gestures and drawings were made during disputes (1 drawing: a picture of "
        "one or more strokes, 1 stroke in all)." in text["feel"]
    )
    # Durations in the seconds section 4 uses, not m:ss.
    d = scripted["report"]["clashes"]["duration"]
    assert f"A dispute lasted {d['median']} s (median), the longest {d['max']} s." in text["feel"]
    # The most adaptable are named; a bot among them is not held up to the class.
    adapters = [p for p in scripted["report"]["players"] if p["adapted"]]
    assert adapters and all(p["name"] in text["act"] for p in adapters[:3])
    # Nor one who left: a bot played on for them (its claims counted as theirs).
    for flag in ("is_bot", "has_left"):
        doc = json.loads(json.dumps(scripted["doc"]))
        for p in doc["players"]:
            p[flag] = p[flag] or p["id"] == adapters[0]["id"]
        act = next(q for q in report.build_report(doc)["guide"] if q["id"] == "act")["data"]
        named = " ".join(line for line in act if line.startswith("Adapted most"))
        assert adapters[0]["name"] not in named, flag


def test_how_the_disputes_ended_is_said_as_a_person_says_it_of_0_1_and_many(scripted):
    """The list under the chart and its alt text read "Time ran out: the most-claimed
    player won: 0", the guide "0 settled by a changed claim, 0 by the time limit"."""
    from django.template.loader import render_to_string

    from tournament import report_charts

    cl = scripted["report"]["clashes"]
    said = [
        "2 were settled when someone changed their claim",
        "1 ran out of time, and the most-claimed player won",
        "1 was cut short by the end of the round",
    ]
    assert [o["said"] for o in cl["dispute_outcomes"]] == said
    html = render_to_string(
        "report/page.html", {"r": scripted["report"], "workshop": scripted["workshop"]}
    )
    assert all(f"<li>{s}</li>" in html for s in said)
    assert "the most-claimed player won: " not in html
    assert report_charts.outcomes_chart(cl)["alt"] == (
        "Bar chart: how the disputes ended. " + "; ".join(said) + "."
    )
    assert [report.dispute_ending_said(k, 0) for k in ("changed", "timeout", "cut")] == [
        "None was settled by a changed claim",
        "None ran out of time",
        "None was cut short by the end of the round",
    ]
    assert report.dispute_ending_said("open", 1) == "1 is still open"
    assert report.dispute_ending_said("left", 3) == "3 were cut short when a player left the table"
    # The guide: one kind of ending said once, for one dispute or all of them.
    ends = dict.fromkeys(report.DISPUTE_OUTCOMES, 0)
    assert report._endings_line(ends) == "There was no dispute."
    assert report._endings_line({**ends, "cut": 1}) == (
        "The one dispute was cut short by the end of a round."
    )
    assert report._endings_line({**ends, "cut": 2}) == (
        "Both disputes were cut short by the end of a round."
    )
    assert report._endings_line({**ends, "open": 2}) == "Both disputes are still open."
    assert report._endings_line({**ends, "changed": 3}) == (
        "All 3 disputes were settled by a changed claim."
    )
    assert report._endings_line({**ends, "changed": 1, "cut": 2, "open": 1}) == (
        "4 disputes: 1 settled by a changed claim, 2 cut short by the end of a round and 1"
        " still open; none was decided by the time limit."
    )


def test_the_guide_says_how_often_players_adapted_or_held_never_once_or_n_times():
    """It read "Players adapted (changed their claim) 0 times", and "1 times"."""
    assert report._adapted_held_line(1, 1, " (1 the claim that won)") == (
        "Players adapted (changed their claim) once and held their claim once (1 the claim"
        " that won)."
    )
    assert report._adapted_held_line(0, 8, " (8 until the round ended)") == (
        "Players never adapted (changed their claim) and held their claim 8 times (8 until the"
        " round ended)."
    )
    assert report._adapted_held_line(3, 0) == (
        "Players adapted (changed their claim) 3 times and never held their claim."
    )


def test_whose_sheet_won_the_disputes_is_said_without_noughts():
    """The guide read "… and in 0 one of two verdicts with equally many sheets" and "The
    locals were outnumbered by newcomers in 0 of them: … both the locals' and a
    newcomer's in 0": the counts that are not nought are said, listed with "and"."""
    none = dict.fromkeys(report.SUPPORT, 0)
    nobody = dict.fromkeys(report.ORIGINS, 0)
    assert report._whose_sheet_lines(
        {**none, "majority": 2, "tie": 1}, {**nobody, "local": 1, "shared": 2}, 0, 0
    ) == [
        "Of 3 disputes with a winner, the winner was the verdict of most players' sheets at "
        "the table in 2 and one of two verdicts with equally many sheets in 1.",
        "The locals were outnumbered by newcomers in none of them: the winner was named by "
        "the locals' sheet alone in 1 and by both the locals' and a newcomer's in 2.",
    ]
    # Every one of them alike: "in both", "in all 4".
    assert report._whose_sheet_lines({**none, "minority": 2}, {**nobody, "newcomer": 2}, 2, 1) == [
        "Of 2 disputes with a winner, the winner was the verdict of fewer sheets in both.",
        "The locals were outnumbered by newcomers in both (a lone local in 1): the winner was "
        "named by a newcomer's sheet alone in both.",
    ]
    assert report._whose_sheet_lines(
        {**none, "majority": 4}, {**nobody, "local": 3, "newcomer": 1}, 1, 0
    )[1] == (
        "The locals were outnumbered by newcomers in 1 of them: the winner was named by the "
        "locals' sheet alone in 3 and by a newcomer's sheet alone in 1."
    )
    assert report._whose_sheet_lines({**none, "majority": 4}, {**nobody, "local": 4}, 4, 0)[:1] == [
        "Of 4 disputes with a winner, the winner was the verdict of most players' sheets at "
        "the table in all 4."
    ]
    # One dispute: no count at all.
    assert report._whose_sheet_lines({**none, "tie": 1}, {**nobody, "local": 1}, 0, 0) == [
        "In the one dispute with a winner, the winner was one of two verdicts with equally "
        "many sheets.",
        "There the locals were not outnumbered by newcomers: the winner was named by the "
        "locals' sheet alone.",
    ]


def test_section_4_says_whose_sheet_won_the_disputes_without_noughts(scripted):
    """Section 4 read "The winner was the verdict of most players' sheets at the table
    in 2, of fewer sheets in 1, one of two verdicts with equally many sheets in 0." and
    "… by both the locals' and a newcomer's in 0, by no sheet in 0.": the guide's words
    now, the counts that are not nought listed with "and"."""
    import re

    from django.template.loader import render_to_string

    html = render_to_string(
        "report/page.html", {"r": scripted["report"], "workshop": scripted["workshop"]}
    )
    facts = re.search(r'<ul class="facts">(.*?)</ul>', html, re.S).group(1)
    assert (
        "<li>Of 3 disputes with a winner, the winner was the verdict of most players&#x27; "
        "sheets at the table in 2 and the verdict of fewer sheets in 1.</li>"
        "<li>The winner was named by the locals&#x27; sheet alone in 2 and by a "
        "newcomer&#x27;s sheet alone in 1.</li>"
    ) in facts
    assert not re.search(r"\bin (<strong>)?0\b", facts), facts
    none = dict.fromkeys(report.SUPPORT, 0)
    nobody = dict.fromkeys(report.ORIGINS, 0)
    said = report.winners_sheets_said
    assert said({**none, "tie": 2}, {**nobody, "shared": 1, "none": 1}) == [
        "Of 2 disputes with a winner, the winner was one of two verdicts with equally many "
        "sheets in both.",
        "The winner was named by both the locals' and a newcomer's in 1 and by no player's "
        "sheet in 1.",
    ]
    assert said({**none, "majority": 1}, {**nobody, "local": 1}) == [
        "In the one dispute with a winner, the winner was the verdict of most players' "
        "sheets at the table.",
        "The winner was named by the locals' sheet alone.",
    ]
    assert said(none, nobody) == []


def test_a_dispute_at_the_rounds_very_start_and_one_of_no_time_are_said_in_words(scripted):
    """The guide said "the first dispute came 0:00 into the round" (bots, or a dispute
    at the round's first trick), and would say a dispute "lasted 0 s"."""
    doc = json.loads(json.dumps(scripted["doc"]))
    games = {g["id"]: g for g in doc["games"]}
    g1 = games[scripted["games"]["g1"].pk]
    first = g1["disputes"][0]
    rnd = next(r for r in doc["rounds"] if r["number"] == g1["round"])
    rnd["started_at"] = first["opened_at"]
    for g in doc["games"]:
        for d in g["disputes"]:
            if d["duration_seconds"] is not None:
                d["duration_seconds"] = 0.04
    text = {q["id"]: " ".join(q["data"]) for q in report.build_report(doc)["guide"]}
    assert "the first dispute came at the round's very start, at table 1." in text["notice"]
    assert "0:00" not in text["notice"]
    assert (
        "A dispute lasted under a tenth of a second (median), the longest under a tenth of a"
        " second." in text["feel"]
    )
    assert " 0 s" not in text["feel"]
    assert report._into_round(0.4) == "at the round's very start"
    assert report._into_round(20) == "0:20 into the round"


# ------------------------------------------------------------------ exports


def test_json_export_schema_and_the_unrepresentable_cut_trick(scripted):
    doc = json.loads(json.dumps(scripted["doc"]))  # what a file holds
    assert doc["schema"] == "barnga.workshop/1"
    games = {g["id"]: g for g in doc["games"]}
    g2, h1 = games[scripted["games"]["g2"].pk], games[scripted["games"]["h1"].pk]
    # Game 2 at table 1 was cut while trick 2 was being claimed: its cards are not in plays.
    assert g2["unawarded_trick"]["index"] == 1 and len(g2["unawarded_trick"]["cards"]) == 3
    played = [a["payload"]["card"] for a in g2["actions"] if a["kind"] == "play"]
    assert g2["replay"]["plays"] == played[:3] and len(played) == 6
    assert len(g2["replay"]["claims"]) == 1
    # The null claim survives into the replay input.
    assert h1["replay"]["claims"][1].count(None) == 1
    assert h1["unawarded_trick"] is None
    assert len(doc["gestures"]) == 5
    assert sum(len(r["moves"]) for r in doc["rounds"]) == scripted["db"]["moves"]
    assert {d["resolution"] for g in doc["games"] for d in g["disputes"]} == {
        "unanimous",
        "timeout",
        "cut",
    }


def test_every_exported_game_passes_the_replay_checker(scripted, tmp_path):
    checks = check_export.check_document(json.loads(json.dumps(scripted["doc"])))
    assert len(checks) == len(scripted["db"]["games"])
    assert all(c.ok for c in checks), [c.line() for c in checks if not c.ok]
    noted = [c for c in checks if c.notes]
    assert [c.game_id for c in noted] == [scripted["games"]["g2"].pk]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(scripted["doc"]))
    out, err = io.StringIO(), io.StringIO()
    assert check_export.run(str(path), out=out, err=err) == 0
    lines = out.getvalue().splitlines()
    assert lines[-1] == f"{len(checks)} games: {len(checks)} OK, 0 MISMATCH"
    assert sum(": OK" in line for line in lines) == len(checks)


def test_the_checker_names_each_round_as_the_report_does(scripted, tmp_path):
    """A MISMATCH line leads the facilitator to the report's round: "Round 1" is the
    round every screen calls Round 1, not the stored number (study and silent play
    count there), and the study round and home play are named as in the report."""
    doc = json.loads(json.dumps(scripted["doc"]))
    rounds = {r["number"]: r for r in doc["rounds"]}
    named = {"study": "Study", "home": "At home"}
    want = {}
    for g in doc["games"]:
        r = rounds[g["round"]]
        name = f"Round {r['scored_number']}" if r["kind"] == "scored" else named[r["kind"]]
        want[g["id"]] = f"game {g['id']} ({name}, table {g['table']}, game {g['number']}): OK"
    # The script's scored games are in rounds whose stored number is not their own.
    assert any(rounds[g["round"]]["scored_number"] not in (None, g["round"]) for g in doc["games"])
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    assert check_export.run(str(path), out=out, err=io.StringIO()) == 0
    # (after " — " a line may carry notes)
    lines = [ln.split(" — ")[0] for ln in out.getvalue().splitlines() if ln.startswith("game ")]
    assert lines == [want[c.game_id] for c in check_export.check_document(doc)]
    # An export that lists no rounds still says which: by the stored number, saying so.
    del doc["rounds"]
    (first,) = check_export.check_document({**doc, "games": doc["games"][:1]})
    assert first.line().startswith(
        f"game {first.game_id} (stored round {doc['games'][0]['round']},"
    )


def tampered(doc: dict, how) -> dict:
    doc = json.loads(json.dumps(doc))
    how(doc)
    return doc


def test_a_tampered_export_fails_the_checker(scripted, tmp_path):
    h1_id = scripted["games"]["h1"].pk

    def h1(doc):
        return next(g for g in doc["games"] if g["id"] == h1_id)

    def swap_claim(doc):
        # D2 timed out 2–1 for the locals; give the newcomer's claim to a local.
        g = h1(doc)
        claims = g["replay"]["claims"][0]
        newcomer = claims[scripted["seats"]["s01"]]
        g["replay"]["claims"][0] = [newcomer] * len(claims)

    def stored_tricks(doc):
        g = h1(doc)
        g["tricks_won"][0] += 1

    def a_card(doc):
        g = h1(doc)
        g["replay"]["plays"][0], g["replay"]["plays"][1] = (
            g["replay"]["plays"][1],
            g["replay"]["plays"][0],
        )

    for how in (swap_claim, stored_tricks, a_card):
        checks = check_export.check_document(tampered(scripted["doc"], how))
        bad = [c for c in checks if not c.ok]
        assert [c.game_id for c in bad] == [h1_id], how.__name__
        assert "MISMATCH" in bad[0].line()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(tampered(scripted["doc"], swap_claim)))
    out = io.StringIO()
    assert check_export.run(str(path), out=out, err=io.StringIO()) == check_export.EXIT_MISMATCH
    assert out.getvalue().splitlines()[-1].endswith("1 MISMATCH")
    path.write_text(json.dumps({"schema": "something/9", "games": []}))
    err = io.StringIO()
    assert check_export.run(str(path), out=io.StringIO(), err=err) == check_export.EXIT_BAD_INPUT
    assert "Unknown schema" in err.getvalue()


def read_csv(doc, kind):
    header, rows = export.csv_tables(doc)[kind]
    text = export.csv_text(header, rows)
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_tables_hold_every_record(scripted):
    doc = scripted["doc"]
    db = scripted["db"]
    assert len(read_csv(doc, "claims")) == db["claims"]
    assert len(read_csv(doc, "tricks")) == len(db["tricks"])
    assert len(read_csv(doc, "moves")) == db["moves"]
    assert len(read_csv(doc, "games")) == len(db["games"])
    actions = read_csv(doc, "actions")
    assert len(actions) == sum(g[4] for g in db["games"])
    assert sum(a["kind"] == "timeout" and a["actor"] == "(timer)" for a in actions) == 2
    disputes = read_csv(doc, "disputes")
    assert sorted(d["resolution"] for d in disputes) == ["cut", "timeout", "unanimous", "unanimous"]
    d2 = next(d for d in disputes if d["resolution"] == "timeout")
    assert d2["duration_seconds"] == "45.0" and d2["table"] == "2"
    changes = [c for c in read_csv(doc, "claims") if c["is_change"] == "true"]
    assert sorted(c["player"] for c in changes) == ["P03", "P05", "P06"]
    assert all(c["during_dispute"] == "true" for c in changes)
    gestures = read_csv(doc, "gestures")
    assert [g["kind"] for g in gestures].count("question") == 2
    assert next(g for g in gestures if g["kind"] == "drawing")["drawing_points"] == "2"
    tricks = read_csv(doc, "tricks")
    assert sum("none" in t["final_claims"].split() for t in tricks) == 1
    seatings = read_csv(doc, "seatings")
    assert {(s["round_label"], s["player"], s["table"]) for s in seatings} >= {
        ("Round 2", "P06", "1"),
        ("Round 2", "P01", "2"),
    }


def test_disputes_csv_names_the_players_the_claims_named(scripted):
    """disputes.csv gave the claims as seat numbers ("2 2 0"), to be looked up in
    games.csv: the last two columns name them, seat by seat, after the old columns."""
    doc = copy.deepcopy(scripted["doc"])
    header, _ = export.csv_tables(doc)["disputes"]
    assert header[-5:] == [
        "winner_seat",
        "winner",
        "initial_claimed_players",
        "final_claimed_players",
        "scored_round",
    ]
    names = {p["id"]: p["name"] for p in doc["players"]}
    games = {g["id"]: g for g in doc["games"]}
    rows = read_csv(doc, "disputes")
    assert len(rows) == 4
    for row in rows:
        seats = games[int(row["game_id"])]["players"]
        for seat_col, name_col in (
            ("initial_claims", "initial_claimed_players"),
            ("final_claims", "final_claimed_players"),
        ):
            said = [names[seats[int(s)]] for s in row[seat_col].split()]
            assert row[name_col] == " ".join(said), (row, name_col)
    # The dispute cut short has no final claims, and so no names.
    cut = next(r for r in rows if r["resolution"] == "cut")
    assert cut["final_claims"] == cut["final_claimed_players"] == ""
    assert all(r["initial_claimed_players"] for r in rows)
    # A claimed player named like a formula is defused, as every name cell is.
    d = next(d for g in doc["games"] for d in g["disputes"] if d["resolution"] == "timeout")
    game = next(g for g in doc["games"] if d in g["disputes"])
    first = game["players"][d["initial_claims"][0]]
    next(p for p in doc["players"] if p["id"] == first)["name"] = "=1+1"
    row = next(r for r in read_csv(doc, "disputes") if r["resolution"] == "timeout")
    assert row["initial_claimed_players"].startswith("'=1+1")
    # A seat that never claimed (not in a dispute export makes, but the JSON allows it).
    d["final_claims"] = [None] + d["final_claims"][1:]
    row = next(r for r in read_csv(doc, "disputes") if r["resolution"] == "timeout")
    assert row["final_claimed_players"].split(" ")[0] == export.NO_CLAIM


PLAYER_COLUMNS = [
    "player_id",
    "player",
    "join_order",
    "home_table",
    "is_bot",
    "has_left",
    "left_at",
    "journey",
    "games_played",
    "games_won",
    "moves_up",
    "moves_down",
    "disputes",
    "disputes_as_newcomer",
    "adapted",
    "held",
    "claim_changes",
    "own_claim_won",
    "revokes",
    "revokes_called",
    "revoke_calls",
    "revoke_calls_refused",
    "refused_moves",
    "gestures_and_drawings",
    "drawings",
    "away",
    "let_in_at",
]


def test_players_csv_has_the_reports_per_player_figures(scripted):
    """No CSV had one row per player, the table a teacher most wants in a spreadsheet:
    players.csv has the report's section 5, figure for figure."""
    doc = copy.deepcopy(scripted["doc"])
    assert export.csv_tables(doc)["players"][0] == PLAYER_COLUMNS
    rows = {r["player"]: r for r in read_csv(doc, "players")}
    shown = by_name(scripted["report"]["players"])
    assert sorted(rows) == sorted(shown) == sorted(p["name"] for p in doc["players"])
    for name, p in shown.items():
        row = rows[name]
        assert row["player_id"] == str(p["id"]) and row["home_table"] == str(p["home_table"])
        assert row["journey"] == " ".join(str(t) for t in p["journey"])
        assert (row["games_won"], row["games_played"]) == (
            str(p["games_won"]),
            str(p["games_played"]),
        )
        assert row["disputes_as_newcomer"] == str(p["as_newcomer"])
        assert row["own_claim_won"] == str(p["claim_won"])
        assert row["gestures_and_drawings"] == str(p["gestures"])
        assert (row["is_bot"], row["has_left"], row["left_at"]) == ("false", "false", "")
    figures = {
        n: (r["disputes"], r["adapted"], r["held"], r["claim_changes"]) for n, r in rows.items()
    }
    assert figures["P03"] == ("3", "1", "2", "1") and figures["P01"] == ("1", "0", "1", "0")
    assert [rows[n]["join_order"] for n in ("P01", "P02", "P06")] == ["1", "2", "6"]
    # Round 1's moves: P01 up, P06 down (section 2's list).
    assert (rows["P01"]["moves_up"], rows["P01"]["moves_down"]) == ("1", "0")
    assert (rows["P06"]["moves_up"], rows["P06"]["moves_down"]) == ("0", "1")
    # P05's one stroke is one drawing, among their gestures.
    assert rows["P05"]["drawings"] == "1" and int(rows["P05"]["gestures_and_drawings"]) >= 1
    assert sum(int(r["drawings"]) for r in rows.values()) == 1
    # Five Tricks in Barnga mode: no revokes, no refusals kept; those cells are empty,
    # not nought (the report's table has no such column here).
    for r in rows.values():
        assert not [c for c in ("revokes", "revoke_calls", "refused_moves") if r[c]], r


def test_players_csv_counts_a_seat_a_bot_played_on_as_the_reports_table_does(scripted):
    """A student who left, a bot playing on in their seat: what the seat did from then
    on is in their row (as in the report), and has_left and left_at say from when. A
    bot is a row of its own, marked. A name a spreadsheet would run is defused."""
    doc = copy.deepcopy(scripted["doc"])
    people = {p["name"]: p for p in doc["players"]}
    round_two = next(r for r in doc["rounds"] if r["label"] == "Round 2")
    people["P06"].update(has_left=True, left_at=round_two["started_at"])
    people["P02"].update(is_bot=True)
    people["P03"]["name"] = "=1+1"
    rows = {r["player_id"]: r for r in read_csv(doc, "players")}
    shown = {p["id"]: p for p in report.build_report(doc)["players"]}
    gone = rows[str(people["P06"]["id"])]
    assert (gone["has_left"], gone["left_at"]) == ("true", round_two["started_at"])
    # Round 2's three disputes were the bot's in their seat: counted in their row.
    assert gone["disputes"] == str(shown[people["P06"]["id"]]["disputes"]) == "3"
    assert rows[str(people["P02"]["id"])]["is_bot"] == "true"
    assert rows[str(people["P03"]["id"])]["player"] == "'=1+1"
    raw = export.csv_text(*export.csv_tables(doc)["players"])
    assert "'=1+1" in raw and ",=1+1" not in raw


def test_who_drew_how_often_is_not_in_the_class_view(scripted):
    """players.csv's drawings come from the report's gestures figures; the class's view
    of the report (for the projector) keeps no one's count, as it keeps no name."""
    full = scripted["report"]["clashes"]["gestures"]
    p05 = next(p["id"] for p in scripted["doc"]["players"] if p["name"] == "P05")
    assert full["drawings_by_player"] == {p05: 1}
    cls = report.build_report(scripted["doc"], names=False)["clashes"]["gestures"]
    assert cls["drawings_by_player"] == {} == cls["by_player"]


def test_csv_cells_that_a_spreadsheet_would_run_are_defused():
    text = export.csv_text(["a", "b", "c"], [["=1+1", "-3", -3], ["@x", "ok", True]])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1] == ["'=1+1", "'-3", "-3"]
    assert rows[2] == ["'@x", "ok", "true"]


def test_a_negative_score_in_games_csv_is_a_number_not_a_defused_formula(scripted):
    """All Fives' scores go below zero after a called revoke: games.csv wrote the
    seats' scores "-2 6" as "'-2 6" (the formula guard), unlike the JSON's [-2, 6]."""
    doc = copy.deepcopy(scripted["doc"])
    game = doc["games"][0]
    game["scores"] = [-2] + [6] * (len(game["players"]) - 1)
    row = next(r for r in read_csv(doc, "games") if r["game_id"] == str(game["id"]))
    assert row["scores"] == " ".join(str(x) for x in game["scores"])
    assert row["scores"].startswith("-2 ")


def test_a_student_who_joined_during_a_round_is_in_its_results_and_the_seating_after():
    """The report left out a student who joined mid-round and was not moved: the
    round's standings had them at their table, the results card, the round's column
    of the movement chart and the 'after' column did not (reviews found it)."""
    from tournament_helpers import fresh, make_workshop, to_scored_round

    from tournament import services

    w = make_workshop(players=10, tables=2, seats=6)
    rnd = to_scored_round(w)
    late = services.player_join(workshop_id=w.pk, name="Pz")
    table = fresh(late).table.number
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    rep = report.build_report(export.workshop_document(fresh(w)))
    scored = next(r for r in rep["results"] if r["label"].startswith("Round"))
    card = next(t for t in scored["tables"] if t["table"] == table)
    assert "Pz" in [p["name"] for p in card["players"]]
    # They played no game in it: neither the table's most nor its fewest games won.
    assert next(p for p in card["players"] if p["name"] == "Pz")["games_played"] == 0
    assert "Pz" not in card["top"] + card["bottom"]
    labels = [c["label"] for c in rep["movement"]["columns"]]
    journey = rep["movement"]["journeys"][late.pk]["tables"]
    # In the round they joined during (the chart had "—" there), and after it.
    assert journey[labels.index("Round 1")] == table and journey[-1] == table
    after = rep["movement"]["grid"][table - 1]["cells"][-1]
    assert "Pz" in [chip["name"] for chip in after]
    # Marked so in the grid "at the start of each round" (the export's seatings have
    # them from the next round only; a review read the grid as contradicting it).
    during = rep["movement"]["grid"][table - 1]["cells"][labels.index("Round 1")]
    marks = {chip["name"]: chip["joined"] for chip in during}
    assert marks["Pz"] is True and not any(v for k, v in marks.items() if k != "Pz")
    assert not next(chip for chip in after if chip["name"] == "Pz")["joined"]
    from django.template.loader import render_to_string

    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert html.count("(joined during it)") == 1
    i = html.index("(joined during it)")
    assert "<bdi>Pz</bdi>" in html[html.rindex("<li", 0, i) : i]


@pytest.mark.django_db
def test_a_game_cut_before_anyone_acted_counts_in_the_standings_not_the_results():
    """docs/export.md: the stored standings count a game dealt and cut at once as
    played; the report's results leave it out (dealt, not played)."""
    from tournament_helpers import fresh, game_at, make_workshop, tables_of, to_scored_round

    from tournament import services

    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    untouched = game_at(tables_of(w)[0])
    services.round_end_now(round_id=rnd.pk)
    assert fresh(untouched).state == "cut" and not untouched.actions.exists()
    doc = export.workshop_document(fresh(w))
    scored = next(r for r in doc["rounds"] if r["number"] == rnd.number)
    seated = set(untouched.players)
    assert {s["games_played"] for s in scored["standings"] if s["id"] in seated} == {1}
    rows = next(x for x in report.results(doc, report.Index(doc)) if x["round"] == rnd.number)
    table = next(t for t in rows["tables"] if t["table"] == 1)
    assert table["games_played"] == 0
    assert {p["games_played"] for p in table["players"] if p["id"] in seated} == {0}


@pytest.mark.django_db
def test_a_player_who_left_mid_round_is_in_its_results_not_its_standings():
    """docs/export.md: the stored standings are the players seated when the round
    ended (movement ranks them); one who left during it (the seat skipped, their
    game cut) is not in them, and the report's results still list them."""
    from tournament_helpers import fresh, game_at, make_workshop, tables_of, to_scored_round

    from tournament import services

    w = make_workshop(players=10, tables=2)
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    gone = game.players[0]
    services.player_leave(player_id=gone, policy="skip")
    assert fresh(game).state == "cut" and fresh(game).cut_by == "player_left"
    services.round_end_now(round_id=rnd.pk)
    doc = export.workshop_document(fresh(w))
    scored = next(r for r in doc["rounds"] if r["number"] == rnd.number)
    assert gone not in {s["id"] for s in scored["standings"]}
    assert set(game.players) - {gone} <= {s["id"] for s in scored["standings"]}
    rows = next(x for x in report.results(doc, report.Index(doc)) if x["round"] == rnd.number)
    table = next(t for t in rows["tables"] if t["table"] == 1)
    assert [p["id"] for p in table["players"]].count(gone) == 1


def test_round_one_at_the_home_tables_is_said_so_not_a_finding_of_nought(scripted):
    """Round 1 is played at the home tables, where everyone shares the sheet: the guide
    said "the sheets at the table disagreed on 0 of 2 tricks; there was no dispute", a
    nought presented as a finding. Round 2, with newcomers, keeps its figures."""
    notice = next(q["data"] for q in scripted["report"]["guide"] if q["id"] == "notice")
    assert notice[0] == (
        "Round 1 was played at the home tables, where everyone shares the table's sheet: "
        "nothing to notice yet (2 tricks)."
    )
    # Every trick played to the end in Round 2 was a clash, and D5 was cut short.
    assert notice[1] == (
        "Round 2: the sheets at the table disagreed on all 10 tricks played to the end; one "
        "dispute, on a trick the sheets judged differently, was cut short before a winner was "
        "given; the first dispute came 0:20 into the round, at table 1."
    )


def test_a_rounds_clashes_and_its_disputes_that_awarded_no_trick_are_said_as_a_person_would():
    """It read "the sheets at the table disagreed on 0 of 4 tricks" beside disputes cut
    short, whose tricks no count of tricks holds."""

    def cut(*verdicts, outcome="cut"):
        return {"outcome": outcome, "seats": [{"verdict": v} for v in verdicts]}

    said = report._clashes_said
    assert said(3, 40, []) == "the sheets at the table disagreed on 3 of 40 tricks"
    assert said(0, 1, []) == "the sheets at the table agreed on the one trick"
    assert said(2, 2, []) == "the sheets at the table disagreed on both tricks"
    assert said(0, 4, [cut("A", "B", "A")]) == (
        "the sheets at the table agreed on all 4 tricks played to the end; one dispute, on a "
        "trick the sheets judged differently, was cut short before a winner was given"
    )
    assert said(0, 0, [cut("A", "B"), cut("B", "A", outcome="left")]) == (
        "no trick was played to the end; 2 disputes, on tricks the sheets judged differently, "
        "were cut short before a winner was given"
    )
    # A dispute of claims against one's own sheet; one still open (read mid-round).
    assert said(1, 3, [cut("A", "A"), cut("A", "B"), cut("B", "A", outcome="open")]) == (
        "the sheets at the table disagreed on 1 of 3 tricks played to the end; 2 disputes were "
        "cut short before a winner was given (1 on a trick the sheets judged differently); "
        "one dispute, on a trick the sheets judged differently, is still open"
    )
    assert said(0, 2, [cut(None, None)]) == (
        "the sheets at the table agreed on both tricks played to the end; one dispute was cut "
        "short before a winner was given"
    )


def test_every_table_with_a_round_ends_with_the_reports_number_for_it(scripted):
    """`round` counts the study round and home play, so the report's "Round 1" is
    round 3 and a facilitator filtering round=1 got the study games. Every table with
    a round ends with the number the report labels it with; the study round and home
    play have none."""
    doc = scripted["doc"]
    ix = report.Index(doc)
    kinds = {r["number"]: r["kind"] for r in doc["rounds"]}
    assert kinds == {1: "study", 2: "home", 3: "scored", 4: "scored"}
    seen: dict[str, set] = {}
    for kind in export.CSV_KINDS:
        header, _ = export.csv_tables(doc)[kind]
        if "round" not in header and "after_round" not in header:
            assert "scored_round" not in header, kind
            continue
        rnd, column = (
            ("after_round", "after_scored_round") if kind == "moves" else ("round", "scored_round")
        )
        assert header[-1 - (kind == "games")] == column, kind
        for row in read_csv(doc, kind):
            n = int(row[rnd])
            if kinds[n] == "scored":
                # The report's own label for that round names the same number.
                assert ix.label(n) == f"Round {row[column]}", (kind, row)
                assert row[column] == {3: "1", 4: "2"}[n]
            else:
                assert row[column] == "", (kind, row)
            seen.setdefault(kind, set()).add(n)
    # Study and home rows were there to be left unnumbered, and scored ones in every table.
    assert seen["seatings"] == seen["games"] == {1, 2, 3, 4}
    assert seen["moves"] == seen["actions"] == seen["tricks"] == seen["claims"] == {3, 4}
    assert seen["disputes"] == seen["gestures"] == {4}


@pytest.mark.django_db
def test_games_csv_says_which_games_the_reports_figures_count():
    """games.csv listed every game dealt while the report leaves out the study round's
    and a game dealt and cut before anyone played: a facilitator checking the report's
    "Table 1: N games" against it found more rows. `in_report` is the report's own test."""
    from tournament_helpers import fresh, game_at, make_workshop, play_one, tables_of, to_home

    from tournament import services
    from tournament.models import Round

    w = make_workshop(players=8, tables=2)
    t1, t2 = tables_of(w)
    home = to_home(w)
    play_one(game_at(t1))  # a home game played: the report counts it
    untouched_home = game_at(t2)
    rnd = services.round_start(workshop_id=w.pk)
    untouched = game_at(t1)  # dealt, then the round ends before anyone plays
    played = game_at(t2)
    play_one(played)
    services.round_end_now(round_id=rnd.pk)
    assert fresh(untouched).state == "cut" and not untouched.actions.exists()
    assert fresh(played).state == "cut" and played.actions.exists()
    doc = export.workshop_document(fresh(w))
    study = Round.objects.get(workshop=w, kind="study")
    rows = {int(g["game_id"]): g for g in read_csv(doc, "games")}
    says = {pk: (row["round"], row["in_report"]) for pk, row in rows.items()}
    study_games = [pk for pk, (n, _) in says.items() if n == str(study.number)]
    assert study_games and {says[pk][1] for pk in study_games} == {"false"}
    assert says[untouched_home.pk] == (str(home.number), "false")
    assert says[played.pk] == (str(rnd.number), "true")
    assert says[untouched.pk] == (str(rnd.number), "false")
    home_played = next(
        pk for pk, (n, _) in says.items() if n == str(home.number) and pk != untouched_home.pk
    )
    assert says[home_played][1] == "true"
    # The report's games per table are the rows it says true of.
    ix = report.Index(doc)
    counted = {g["id"] for g in ix.games}
    assert counted == {pk for pk, (_, yes) in says.items() if yes == "true"}
    result = next(x for x in report.results(doc, ix) if x["round"] == rnd.number)
    t = {x["table"]: x["games_played"] for x in result["tables"]}
    assert t == {1: 0, 2: 1}


def test_a_cut_games_several_winners_are_listed_with_and(scripted):
    """A game the round's end cut, two players level on tricks: its line in the results
    read "won by P01, P04", a list with no "and" where every other list of names in the
    report has one."""
    from django.template.loader import render_to_string

    doc = copy.deepcopy(scripted["doc"])
    game = next(g for g in doc["games"] if g["state"] == "cut" and g["round"] == 4)
    game["winners"] = list(game["players"][:2])
    names = {p["id"]: p["name"] for p in doc["players"]}
    first, second = (names[pid] for pid in game["winners"])
    html = render_to_string(
        "report/page.html",
        {"r": report.build_report(doc), "workshop": scripted["workshop"]},
    )
    assert f"(cut short): won by <bdi>{first}</bdi> and <bdi>{second}</bdi> · " in html
    assert f"won by <bdi>{first}</bdi>, <bdi>{second}</bdi>" not in html


def test_section_four_says_a_dispute_cut_short_is_on_a_trick_not_among_those_counted(scripted):
    """It read "10 of 12 tricks were judged differently …; 5 claim steps became a
    dispute", and a bots' workshop "0 of 6 tricks …; 2 claim steps became a dispute":
    a dispute cut short awarded no trick, so its trick is in no count of tricks."""
    from django.template.loader import render_to_string

    cl = scripted["report"]["clashes"]
    assert (cl["dispute_count"], cl["disputes_unawarded"]) == (4, 1)
    html = render_to_string(
        "report/page.html", {"r": scripted["report"], "workshop": scripted["workshop"]}
    )
    section = html.split('<section id="clashes"')[1].split("</p>")[0]
    assert (
        f"became a <em>dispute</em> (everyone claimed, and the claims disagreed), 1 of them on "
        f"a trick cut short before it was awarded, and so not among the {cl['tricks']}." in section
    )
    # Every dispute cut short: said of them all.
    doc = copy.deepcopy(scripted["doc"])
    for g in doc["games"]:
        g["disputes"] = [d for d in g["disputes"] if d["resolution"] == "cut"]
    rep = report.build_report(doc)
    html = render_to_string("report/page.html", {"r": rep, "workshop": scripted["workshop"]})
    section = html.split('<section id="clashes"')[1].split("</p>")[0]
    assert "1 claim step became a <em>dispute</em>" in section
    assert "disagreed), its trick cut short before it was awarded, and so not among the" in section


def test_a_tables_most_and_fewest_games_won_are_listed_with_and(scripted):
    """The results' captions read "Most games won: P05, P06; fewest: P03, P05": lists
    of names with no "and", where every other list of names in the report has one."""
    from django.template.loader import render_to_string

    html = render_to_string(
        "report/page.html", {"r": scripted["report"], "workshop": scripted["workshop"]}
    )
    captions = [c for c in html.split("<caption>") if c.startswith("Table ")]
    # Round 1, table 1: P01 won its game; Round 2, table 1: P05 and P06 won one each.
    assert any(
        "Most games won: <bdi>P01</bdi>; fewest: <bdi>P03</bdi> and <bdi>P05</bdi>." in c
        for c in captions
    ), captions
    assert any(
        "Most games won: <bdi>P05</bdi> and <bdi>P06</bdi>; fewest: <bdi>P03</bdi>." in c
        for c in captions
    ), captions
    assert not [c for c in captions if "</bdi>, <bdi>" in c.split("</caption>")[0]], captions


def test_the_rules_two_tables_differ_in_and_the_gestures_most_used_are_listed_with_and(scripted):
    """Section 1 read "Tables 1 and 2: differ in ace, which card wins, trump suit, when
    trumping is allowed", the guide "… differed in: ace, which card wins, trump suit"
    and "Most used during disputes: question (2), stop (1), drawing (1)": lists with
    no "and", where the report's other lists have one."""
    from django.template.loader import render_to_string

    rep = copy.deepcopy(scripted["report"])
    (pair,) = rep["reveal"]["pairs"]
    pair["titles"] = ["Ace", "Which card wins", "Trump suit"]
    html = render_to_string("report/page.html", {"r": rep, "workshop": scripted["workshop"]})
    assert "<li>Tables 1 and 2: differ in ace, which card wins and trump suit</li>" in html
    rev = {"pairs": [{**pair, "knobs": ["ace", "wins", "trump"]}], "sheet_of": {}, "rows": []}
    expect = report._expect_lines(rev, {"moves": []}, "2 tables played 2 different sheets.")
    assert expect[1] == "Tables 1 and 2 differed in: ace, which card wins and trump suit."
    feel = next(q["data"] for q in scripted["report"]["guide"] if q["id"] == "feel")
    (most,) = [line for line in feel if line.startswith("Most used")]
    # Question twice, a stop and a drawing once each, during the disputes.
    assert most in (
        "Most used during disputes: question (2), stop (1) and drawing (1).",
        "Most used during disputes: question (2), drawing (1) and stop (1).",
    ), most
    # Other games' guides count each kind once: the same list.
    kinds = [
        {"label": "Smile", "total": 1},
        {"label": "Question", "total": 4},
        {"label": "Stop", "total": 2},
        {"label": "Drawing", "total": 1},
    ]
    assert report._most_used(kinds, "total") == "question (4), stop (2) and smile (1)"
    assert report._most_used(kinds[:1], "total") == "smile (1)"


def test_games_all_cut_short_and_disputes_none_or_all_as_a_newcomer_said_in_words(scripted):
    """A small class's report read "Table 1: 1 game (1 cut short)." and, per player,
    "1 (0 as a newcomer)", "3 (3 as a newcomer)": counts a person would not say."""
    import re

    from django.template.loader import render_to_string

    html = render_to_string(
        "report/page.html", {"r": scripted["report"], "workshop": scripted["workshop"]}
    )
    # Round 1: the one game at each table cut by the round's end; Round 2, table 1: 2
    # games, the second cut short.
    assert html.count("<caption>Table 1: 1 game, cut short.") == 1
    assert html.count("<caption>Table 2: 1 game, cut short.") == 2
    assert "<caption>Table 1: 2 games (1 cut short)." in html
    assert "(1 cut short)." not in html.replace("2 games (1 cut short).", "")
    rows = {
        name: re.search(rf"<bdi>{name}</bdi>.*?</tr>", html.split('id="players"')[1], re.S)[0]
        for name in ("P01", "P02", "P06")
    }
    # P01: one dispute, a newcomer at table 2; P02: one, at home; P06: three, a newcomer.
    assert '<td>1 <span class="muted">(as a newcomer)</span></td>' in rows["P01"]
    assert "<td>1</td>" in rows["P02"] and "newcomer" not in rows["P02"]
    assert '<td>3 <span class="muted">(all as a newcomer)</span></td>' in rows["P06"]


def test_the_table_of_tricks_per_table_and_round_says_none_in_words(scripted):
    """Its cells read "0 disputes / 0 clashes in 1 trick" (Round 1, at home), and a
    table whose round ended before a trick was played "0 clashes in 0 tricks"."""
    import re

    from django.template.loader import render_to_string

    def cells(rep) -> list[str]:
        html = render_to_string("report/page.html", {"r": rep, "workshop": scripted["workshop"]})
        table = html.split("per table and round</caption>")[1].split("</table>")[0]
        return [re.sub(r"<[^>]+>", " ", c).split() for c in re.findall(r"<td>(.*?)</td>", table)]

    said = [" ".join(c) for c in cells(scripted["report"])]
    # Table 1: Round 1, Round 2; table 2: Round 1, Round 2.
    assert said == [
        "no dispute no clash in 1 trick",
        "3 disputes 8 clashes in 8 tricks; 1 cut short, no trick",
        "no dispute no clash in 1 trick",
        "1 dispute 2 clashes in 2 tricks; 1 timed out",
    ], said
    rep = copy.deepcopy(scripted["report"])
    cell = rep["clashes"]["by_table_round"][0]["rounds"][0]
    cell.update(tricks=0, clashes=0, disputes=0, cut=1)
    assert " ".join(cells(rep)[0]) == (
        "no dispute no trick played to the end; 1 cut short, no trick"
    )


def test_the_class_views_games_cut_short_are_said_as_the_full_reports_captions(scripted):
    """The class's table of games per table read "1 (1 cut short)", and its "All tables"
    row "2 (2 cut short)", where the full report's captions say "1 game, cut short"."""
    import re

    from django.template.loader import render_to_string

    rep = report.build_report(scripted["doc"], names=False)
    html = render_to_string("report/_class_results.html", {"r": rep})
    games = [
        re.findall(r'<th scope="row">(Table \d|All tables)</th><td>\d+</td><td>([^<]*)</td>', s)
        for s in html.split('<section class="round"')[1:]
    ]
    # Round 1: one game at each table, cut by the round's end; Round 2, table 1: 2
    # games, the second cut short.
    assert games == [
        [
            ("Table 1", "1, cut short"),
            ("Table 2", "1, cut short"),
            ("All tables", "2, both cut short"),
        ],
        [
            ("Table 1", "2 (1 cut short)"),
            ("Table 2", "1, cut short"),
            ("All tables", "3 (2 cut short)"),
        ],
    ], games


def test_section_four_opens_with_no_clash_and_no_dispute_in_words(scripted):
    """A class whose sheets never met read "0 of 10 tricks were judged differently by
    the sheets …; 0 claim steps became a dispute": said in words, as a person says
    them. The key figures above keep their numbers ("0 of 10 finished tricks")."""
    import re

    from django.template.loader import render_to_string

    def opening(**counts) -> str:
        rep = copy.deepcopy(scripted["report"])
        rep["clashes"].update(counts)
        html = render_to_string("report/page.html", {"r": rep, "workshop": scripted["workshop"]})
        section = html.split('<section id="clashes"')[1].split("</p>")[0].split("<p>", 1)[1]
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", section))

    quiet = {"clash_count": 0, "dispute_count": 0, "disputes_unawarded": 0}
    assert opening(**quiet, tricks=10) == (
        "None of the 10 tricks was judged differently by the sheets of the players at the "
        "table (a clash); no claim step became a dispute (everyone claimed, and the claims "
        "disagreed)."
    )
    assert opening(**quiet, tricks=1).startswith("The one trick was not judged differently by")
    # No trick played to the end; a dispute cut short is then among no count to be "not
    # among the 0".
    said = opening(**{**quiet, "dispute_count": 1, "disputes_unawarded": 1}, tricks=0)
    assert said == (
        "No trick was played to the end, so none was judged differently by the sheets of the "
        "players at the table (a clash); 1 claim step became a dispute (everyone claimed, "
        "and the claims disagreed), its trick cut short before it was awarded."
    )
    # Counts above nought stay figures.
    assert opening(clash_count=3, tricks=10, dispute_count=2, disputes_unawarded=0).startswith(
        "3 of 10 tricks were judged differently by the sheets"
    )


def test_a_games_tricks_are_listed_with_and(scripted):
    """Each game's line in the results read "· tricks P03 0, P05 0, P01 1": a list with
    no "and", where the line's winners ("won by P01 and P04") have one."""
    import re

    from django.template.loader import render_to_string

    html = render_to_string(
        "report/page.html", {"r": scripted["report"], "workshop": scripted["workshop"]}
    )
    lines = re.findall(r'<ol class="games">(.*?)</ol>', html, re.S)
    said = [
        re.sub(r"<[^>]+>", "", t)
        for games in lines
        for t in re.findall(r" · tricks (.*?)(?: · |</li>)", games)
    ]
    # Round 1's two games, then Round 2's three: three players a table.
    assert said == [
        "P03 0, P05 0 and P01 1",
        "P04 0, P06 0 and P02 1",
        "P06 7, P03 0 and P05 0",
        "P03 0, P05 1 and P06 0",
        "P01 0, P02 2 and P04 0",
    ], said
