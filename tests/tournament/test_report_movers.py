"""How the movers fared: the debrief's question on moving up or down, with the games
the movers up, the movers down and the stayers won before and after a movement, and
each player's journey with the games won beside each scored round's table.

The workshop is a document built by hand, so every figure is known:

    Round 1 (4 games a table)             moved after it   Round 2 (4 games a table)
    table 1  Ana 3, Bob 1, Cyd 0           Ana up           table 1  Fay 2, Bob 1, Cyd 1
    table 2  Dan 3, Eve 1, Fay 0           Dan up, Fay down table 2  Eve 2, Bot 2, Ana 0
    table 3  Gus 2, Hal 2, Bot 0           Bot down         table 3  Dan 3, Gus 1, Hal 0

Hal left during Round 2 and Bot is a bot: both are left out of the figures. So the
movers up (Ana, Dan) won 6 of 8 games, then 3 of 8; the mover down (Fay) 0 of 4,
then 2 of 4; the stayers (Bob, Cyd, Eve, Gus) 4 of 16, then 5 of 16.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from tournament_helpers import fresh, make_workshop, to_scored_round

from games.presets import PRESETS
from tournament import export, report, services

NAMES = {1: "Ana", 2: "Bob", 3: "Cyd", 4: "Dan", 5: "Eve", 6: "Fay", 7: "Gus", 8: "Hal", 9: "Bot"}
ROUND_1 = {1: [1, 2, 3], 2: [4, 5, 6], 3: [7, 8, 9]}
ROUND_2 = {1: [2, 3, 6], 2: [5, 1, 9], 3: [7, 8, 4]}
# Winners of the four games at each table.
WON_1 = {1: [1, 1, 1, 2], 2: [4, 4, 4, 5], 3: [7, 7, 8, 8]}
WON_2 = {1: [6, 6, 2, 3], 2: [5, 5, 9, 9], 3: [4, 4, 4, 7]}
MOVES_1 = [(1, 1, 2), (4, 2, 3), (6, 2, 1), (9, 3, 2)]
SHEETS = {1: "guide-1", 2: "guide-2", 3: "guide-3"}
HOME = {pid: table for table, players in ROUND_1.items() for pid in players}


def _games(rnd: int, seating: dict, winners: dict) -> list[dict]:
    return [
        {
            "id": rnd * 100 + table * 10 + i,
            "round": rnd,
            "table": table,
            "number": i + 1,
            "players": players,
            "table_rules": PRESETS[SHEETS[table]].to_dict(),
            # Each seat plays by its home table's sheet.
            "seat_rules": [PRESETS[SHEETS[HOME[pid]]].to_dict() for pid in players],
            "state": "over",
            "tricks_won": [5 if pid == w else 0 for pid in players],
            "winners": [w],
            "tricks": [],
            "claims": [],
            "disputes": [],
        }
        for table, players in seating.items()
        for i, w in enumerate(winners[table])
    ]


def _standings(seating: dict, winners: dict) -> list[dict]:
    return [
        {
            "id": pid,
            "name": NAMES[pid],
            "table": table,
            "games_won": winners[table].count(pid),
            "games_played": len(winners[table]),
        }
        for table, players in seating.items()
        for pid in players
    ]


def _seatings(seating: dict) -> list[dict]:
    return [
        {"player": pid, "table": table, "seat": seat}
        for table, players in seating.items()
        for seat, pid in enumerate(players)
    ]


def movers_doc(won_1: dict = WON_1, moves_1: list = MOVES_1, won_2: dict = WON_2) -> dict:
    return {
        "schema": export.SCHEMA,
        "workshop": {"name": "Movers"},
        "tables": [
            {"number": n, "preset": p, "rules": PRESETS[p].to_dict()} for n, p in SHEETS.items()
        ],
        "players": [
            {
                "id": pid,
                "name": name,
                "join_order": pid,
                "home_table": HOME[pid],
                "is_bot": pid == 9,
                "has_left": pid == 8,
                "left_at": "2030-01-06T10:35:00+00:00" if pid == 8 else None,
            }
            for pid, name in NAMES.items()
        ],
        "rounds": [
            {
                "number": 2,
                "kind": "home",
                "scored_number": None,
                "label": "At home",
                "state": "finished",
                "started_at": "2030-01-06T09:50:00+00:00",
                "seatings": _seatings(ROUND_1),
                "standings": [],
                "moves": [],
                "movement_applied_at": None,
            },
            {
                "number": 3,
                "kind": "scored",
                "scored_number": 1,
                "label": "Round 1",
                "state": "finished",
                "started_at": "2030-01-06T10:00:00+00:00",
                "seatings": _seatings(ROUND_1),
                "standings": _standings(ROUND_1, won_1),
                "moves": [
                    {"player": p, "from": a, "to": b, "edited": False} for p, a, b in moves_1
                ],
                "movement_applied_at": "2030-01-06T10:20:00+00:00",
            },
            {
                "number": 4,
                "kind": "scored",
                "scored_number": 2,
                "label": "Round 2",
                "state": "finished",
                "started_at": "2030-01-06T10:30:00+00:00",
                "seatings": _seatings(ROUND_2),
                "standings": _standings(ROUND_2, won_2),
                "moves": [],
                "movement_applied_at": None,
            },
        ],
        "games": _games(3, ROUND_1, won_1) + _games(4, ROUND_2, won_2),
        "gestures": [],
    }


def question(rep: dict, qid: str) -> dict:
    return next(q for q in rep["guide"] if q["id"] == qid)


def page(rep: dict) -> str:
    workshop = SimpleNamespace(pk=1, name="Movers", code="ABCDEF", phase="debrief")
    return render_to_string("report/page.html", {"r": rep, "workshop": workshop})


def test_the_guide_asks_what_moving_did_with_the_movers_games_before_and_after():
    rep = report.build_report(movers_doc())
    q = question(rep, "moved")
    assert q["question"] == (
        "What happened when you moved up, or down? How did the people at your new table treat you?"
    )
    assert q["data"] == [
        "Moved up after Round 1 (2 players): won 6 of 8 games (75 %) in Round 1, "
        "then 3 of 8 games (38 %) at their new tables in Round 2.",
        "Moved down after Round 1 (1 player): won none of their 4 games in Round 1, "
        "then 2 of 4 games (50 %) at their new table in Round 2.",
        "Stayed after Round 1 (4 players): won 4 of 16 games (25 %) in Round 1, "
        "then 5 of 16 games (31 %) in Round 2.",
        "Counted: people who played both rounds; bots, and players who left, are left out.",
        # Gus and Hal tied at the top table, but both stayed: the name decided nothing.
        "None of the 4 moves was decided by name among equal games won.",
    ]
    # None won, in the words a teacher says ("won 0 of 4 games (0 %)"), after "then" too.
    assert report._won(0, 4, then=True) == "won none of their 4 games"
    assert report._won(0, 1) == "did not win their one game"
    assert report._won(3, 8, then=True) == "3 of 8 games (38 %)"
    # Asked after what the players did, before the world outside.
    assert [x["id"] for x in rep["guide"]] == [
        "expect",
        "notice",
        "feel",
        "act",
        "moved",
        "outside",
    ]
    html = page(rep)
    assert "How did the people at your new table treat you?" in html
    assert "then 3 of 8 games (38 %) at their new tables in Round 2." in html


def test_without_a_movement_between_rounds_played_the_question_says_so_in_a_line():
    doc = movers_doc()
    doc["rounds"][1]["movement_applied_at"] = None
    doc["rounds"][1]["moves"] = []
    assert question(report.build_report(doc), "moved")["data"] == [
        "Nobody played a round at a new table: no movement came between two scored rounds."
    ]
    # Nor after the last round: nobody played at the new table.
    doc = movers_doc()
    doc["rounds"] = doc["rounds"][:2]
    doc["games"] = [g for g in doc["games"] if g["round"] != 4]
    assert question(report.build_report(doc), "moved")["data"][0].startswith("Nobody played")
    # A movement came, but only bots (or players who have left) played on both sides
    # of it: said so, not "no movement came" beside a count of the moves made.
    doc = movers_doc()
    for p in doc["players"]:
        p["is_bot"] = True
    data = question(report.build_report(doc), "moved")["data"]
    assert data[0] == (
        "No person played both the round before a movement and the one after it "
        "(bots, and players who left, are left out)."
    ), data
    assert "decided by name" in data[1]


def test_a_round_being_played_is_counted_so_far():
    doc = movers_doc()
    doc["rounds"][2]["state"] = "playing"
    lines = question(report.build_report(doc), "moved")["data"]
    assert lines[0].endswith("then 3 of 8 games (38 %) at their new tables in Round 2 so far.")


def test_the_other_games_guide_asks_it_too():
    doc = movers_doc()
    seven_up = report.kinds.get("seven_up")
    rules = {
        n: seven_up.presets[p].to_dict() for n, p in zip(SHEETS, seven_up.presets, strict=False)
    }
    doc["workshop"]["game"] = "seven_up"
    doc["tables"] = [{"number": n, "preset": None, "rules": rules[n]} for n in SHEETS]
    for g in doc["games"]:
        g.update(
            kind="seven_up",
            table_rules=rules[g["table"]],
            seat_rules=[rules[HOME[pid]] for pid in g["players"]],
            scores=g["tricks_won"],
            tricks_won=[],
        )
    lines = question(report.build_report(doc), "moved")["data"]
    assert lines[0].startswith("Moved up after Round 1 (2 players): won 6 of 8 games (75 %)")


def test_each_journey_says_the_games_won_beside_each_scored_rounds_table():
    rep = report.build_report(movers_doc())
    players = {p["name"]: p for p in rep["players"]}
    # At home (not scored), Round 1, Round 2; each step's words held together by
    # no-break spaces (printed, a journey breaks at its arrows only).
    # None won is said in words, as the guide says it, not "won 0 of 4".
    assert players["Ana"]["journey_won_text"] == "1 → 1 (won 3 of 4) → 2 (won none of 4)".replace(
        " (won 3 of 4)", NB(" (won 3 of 4)")
    ).replace(" (won none of 4)", NB(" (won none of 4)"))
    assert spaced(players["Fay"]["journey_won_text"]) == "2 → 2 (won none of 4) → 1 (won 2 of 4)"
    assert players["Ana"]["journey_text"] == "1 → 1 → 2"  # the figure the charts use
    html = page(rep)
    # The arrow is for the eye; a screen reader hears "then".
    assert (
        '1 <span aria-hidden="true">→</span><span class="visually-hidden">then</span> '
        '1 (won 3 of 4) <span aria-hidden="true">→</span><span class="visually-hidden">then'
        "</span> 2 (won none of 4)"
    ) in spaced(html)
    assert "won 0 of" not in spaced(html)
    # One game, not won: "1 game, not won", not "won 0 of 1".
    doc = movers_doc()
    doc["games"] = [
        g for g in doc["games"] if not (g["round"] == 4 and g["table"] == 2 and g["number"] > 1)
    ]
    players = {p["name"]: p for p in report.build_report(doc)["players"]}
    assert spaced(players["Ana"]["journey_won_text"]) == "1 → 1 (won 3 of 4) → 2 (1 game, not won)"
    # A scored round sat at without a game dealt says so, not "won 0 of 0".
    doc = movers_doc()
    doc["games"] = [g for g in doc["games"] if not (g["round"] == 4 and g["table"] == 2)]
    players = {p["name"]: p for p in report.build_report(doc)["players"]}
    assert spaced(players["Ana"]["journey_won_text"]) == "1 → 1 (won 3 of 4) → 2 (no game)"


def NB(words: str) -> str:
    """`words` with no-break spaces for its spaces."""
    return words.replace(" ", "\u00a0")


def spaced(text: str) -> str:
    return text.replace("\u00a0", " ")


# --------------------------------------------------------------- moves decided by name

# Round 1 with ties: table 2 Dan 2, Eve 2, Fay 0 (Dan moves up over Eve by name); table
# 3 Gus 2, Bot 1, Hal 1 (Hal moves down, Bot stays, by name); table 1 has no tie.
TIED_1 = {1: [1, 1, 1, 2], 2: [4, 4, 5, 5], 3: [7, 7, 9, 8]}
TIED_MOVES = [(1, 1, 2), (4, 2, 3), (6, 2, 1), (8, 3, 2)]


def round_1(rep: dict) -> dict[int, list[tuple]]:
    rd = next(x for x in rep["results"] if x["label"] == "Round 1")
    return {
        t["table"]: [(p["name"], p["games_won"], p["moved"], p["by_name"]) for p in t["players"]]
        for t in rd["tables"]
    }


def test_a_move_or_stay_decided_by_name_among_equal_games_won_is_marked():
    rep = report.build_report(movers_doc(TIED_1, TIED_MOVES))
    assert round_1(rep) == {
        1: [("Ana", 3, "up", False), ("Bob", 1, "", False), ("Cyd", 0, "", False)],
        2: [("Dan", 2, "up", True), ("Eve", 2, "", True), ("Fay", 0, "down", False)],
        3: [("Gus", 2, "", False), ("Bot", 1, "", True), ("Hal", 1, "down", True)],
    }
    assert question(rep, "moved")["data"][-1] == (
        "2 of 4 moves were decided by name among equal games won: the player who moved had "
        "won as many games as one who stayed, or who moved the other way (ties go in "
        "alphabetical order); 2 stays were decided by name too."
    )
    html = page(rep)
    assert '<span aria-hidden="true">↑ </span>up <em>(tie, by name)</em>' in html
    assert '<span aria-hidden="true">↓ </span>down <em>(tie, by name)</em>' in html
    assert html.count("stayed <em>(tie, by name)</em>") == 2
    assert html.count("(tie, by name)</em>") == 4
    # The moves table in section 2 marks the same moves (Dan's up, Hal's down).
    marked = {m["name"]: m["by_name"] for m in rep["movement"]["moves"] if m["round"] == 3}
    assert marked == {"Ana": False, "Dan": True, "Fay": False, "Hal": True}, marked
    assert (
        html.count("<td>up (tie, by name)</td>") == html.count("<td>down (tie, by name)</td>") == 1
    )


def test_a_tie_that_changed_nothing_is_not_marked():
    """Gus and Hal won 2 each at the top table: the first would move up, but at the top
    table stays, as the second does. Nor is a move by games won: Ana's, Dan's."""
    rep = report.build_report(movers_doc())
    assert not [p for t in round_1(rep).values() for p in t if p[3]]
    assert "(tie, by name)</em>" not in page(rep)


def test_only_the_rules_moves_are_marked_not_the_facilitators():
    """Dan's move edited by the facilitator is theirs, not the name's ("changed"); Eve
    still stayed where the rule, by name, kept her."""
    doc = movers_doc(TIED_1, TIED_MOVES)
    doc["rounds"][1]["moves"][1]["edited"] = True
    rep = report.build_report(doc)
    assert round_1(rep)[2] == [
        ("Dan", 2, "up", False),
        ("Eve", 2, "", True),
        ("Fay", 0, "down", False),
    ]
    assert question(rep, "moved")["data"][-1].startswith("1 of 4 moves was decided by name")
    # Hal's move cancelled: he stayed by the facilitator's choice; Bot stayed either way.
    doc = movers_doc(TIED_1, TIED_MOVES)
    doc["rounds"][1]["moves"].pop()
    doc["rounds"][1]["kept"] = [{"player": 8, "table": 3, "rule": 2}]
    table_3 = round_1(report.build_report(doc))[3]
    assert table_3 == [("Gus", 2, "", False), ("Bot", 1, "", True), ("Hal", 1, "", False)]


@pytest.mark.django_db
def test_a_round_nobody_won_a_game_in_moved_everyone_by_name():
    """Ended before anyone played, a round left everyone on 0 games won: at each table
    of four the first name moved (up from table 1, down from table 2) and the others
    stayed, all by name. The facilitator cancelled table 2's move: theirs, unmarked."""
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    preview = fresh(rnd).movement_preview["moves"]
    up = next(m for m in preview if m["to"] == 2)
    services.movement_edit(round_id=rnd.pk, moves=[{"player": up["player"], "to": 2}])
    services.movement_apply(round_id=rnd.pk)
    rep = report.build_report(export.workshop_document(fresh(w)))
    rd = next(x for x in rep["results"] if x["label"] == "Round 1")
    rows = {p["name"]: p for t in rd["tables"] for p in t["players"]}
    assert all(p["games_won"] == 0 for p in rows.values())
    marked = {n for n, p in rows.items() if p["by_name"]}
    cancelled = next(n for n, p in rows.items() if p["edited"])
    assert rows[up["name"]]["moved"] == "up" and up["name"] in marked
    assert marked == set(rows) - {cancelled}
    assert question(rep, "moved")["data"][-1] == (
        "1 of 1 move was decided by name among equal games won: the player who moved had "
        "won as many games as one who stayed, or who moved the other way (ties go in "
        "alphabetical order); 6 stays were decided by name too."
    )


def test_the_class_view_leaves_out_figures_that_would_be_each_movers_own():
    """Projected to a class that saw who moved, a group's games won are each member's
    own when the group is one player, or when it won none or all of its games."""
    rep = report.build_report(movers_doc(), names=False)
    assert question(rep, "moved")["data"][:3] == [
        "Moved up after Round 1 (2 players): won 6 of 8 games (75 %) in Round 1, "
        "then 3 of 8 games (38 %) at their new tables in Round 2.",
        "Moved down after Round 1 (1 player): one player's games are not shown to the class.",
        "Stayed after Round 1 (4 players): won 4 of 16 games (25 %) in Round 1, "
        "then 5 of 16 games (31 %) in Round 2.",
    ]
    # Ana and Dan won every game at their tables: "won 8 of 8" is each one's 4 of 4.
    # Their Round 2 (3 of 8) is still the class's story.
    swept = {**WON_1, 1: [1, 1, 1, 1], 2: [4, 4, 4, 4]}
    data = question(report.build_report(movers_doc(won_1=swept), names=False), "moved")["data"]
    assert data[0] == (
        "Moved up after Round 1 (2 players): won 3 of 8 games (38 %) at their new tables "
        "in Round 2 (their games in Round 1 are not shown to the class: the figure would "
        "be each player's own)."
    )
    assert not [line for line in data if "8 of 8" in line]
    # Both rounds all or nothing (Ana and Dan win none at their new tables): nothing shown.
    none = {**WON_2, 3: [7, 7, 7, 7]}
    doc = movers_doc(won_1=swept, won_2=none)
    data = question(report.build_report(doc, names=False), "moved")["data"]
    assert data[0] == (
        "Moved up after Round 1 (2 players): their games are not shown to the class "
        "(the figures would be each player's own)."
    )
    # The full report keeps them.
    full = question(report.build_report(movers_doc(won_1=swept)), "moved")["data"]
    assert full[0].startswith("Moved up after Round 1 (2 players): won 8 of 8 games (100 %)")
