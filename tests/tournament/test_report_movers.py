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

from django.template.loader import render_to_string

from games.presets import PRESETS
from tournament import export, report

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


def movers_doc() -> dict:
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
                "standings": _standings(ROUND_1, WON_1),
                "moves": [
                    {"player": p, "from": a, "to": b, "edited": False} for p, a, b in MOVES_1
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
                "standings": _standings(ROUND_2, WON_2),
                "moves": [],
                "movement_applied_at": None,
            },
        ],
        "games": _games(3, ROUND_1, WON_1) + _games(4, ROUND_2, WON_2),
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
        "Moved down after Round 1 (1 player): won 0 of 4 games (0 %) in Round 1, "
        "then 2 of 4 games (50 %) at their new table in Round 2.",
        "Stayed after Round 1 (4 players): won 4 of 16 games (25 %) in Round 1, "
        "then 5 of 16 games (31 %) in Round 2.",
        "Counted: people who played both rounds; bots, and players who left, are left out.",
    ]
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
    assert len(question(report.build_report(doc), "moved")["data"]) == 1


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
    # At home (not scored), Round 1, Round 2.
    assert players["Ana"]["journey_won_text"] == "1 → 1 (won 3 of 4) → 2 (won 0 of 4)"
    assert players["Fay"]["journey_won_text"] == "2 → 2 (won 0 of 4) → 1 (won 2 of 4)"
    assert players["Ana"]["journey_text"] == "1 → 1 → 2"  # the figure the charts use
    html = page(rep)
    # The arrow is for the eye; a screen reader hears "then".
    assert (
        '1 <span aria-hidden="true">→</span><span class="visually-hidden">then</span> '
        '1 (won 3 of 4) <span aria-hidden="true">→</span><span class="visually-hidden">then'
        "</span> 2 (won 0 of 4)"
    ) in html
    # A scored round sat at without a game dealt says so, not "won 0 of 0".
    doc = movers_doc()
    doc["games"] = [g for g in doc["games"] if not (g["round"] == 4 and g["table"] == 2)]
    players = {p["name"]: p for p in report.build_report(doc)["players"]}
    assert players["Ana"]["journey_won_text"] == "1 → 1 (won 3 of 4) → 2 (no game)"
