"""7Up7Down's debrief report: the tricks the players' home sheets judged differently.

The table's sheet decides every trick in 7Up7Down, but each player learned their
home table's sheet; a newcomer's would have given some tricks to someone else. The
report left that figure out (a teaching review: "In 7Up7Down each player still
learned a home sheet, so the same replay could give it"), where Five Tricks' and All
Fives' referee reports count it. Only the knobs that decide who takes a trick (ace,
wins) count: a sheet that differs in the hook or the points judges every trick alike.
"""

from __future__ import annotations

import html as html_lib
import json
import random
from collections import Counter

import pytest
from report_helpers import play_two_rounds, words

from games import kinds
from games import seven_up as su
from games.tricks import TrickRules, trick_winner
from tournament import export, report, services
from tournament.models import Player, Workshop

pytestmark = pytest.mark.django_db

KIND = kinds.get("seven_up")
NAMES = ("Zanele", "Ingrid", "Oluwaseun", "Mireille", "Tadeusz", "Xiomara")


def sevens_played(owner, sheets: dict, *, ticks: int = 30, mode: str = "barnga") -> Workshop:
    """Six named students at two tables of three with `sheets` ({table: preset}),
    played by the bots' code in their seats through the home round and two scored
    rounds (the movement applied after each: newcomers at both tables in the second),
    and people again for the debrief."""
    w = services.workshop_create(
        name="Sevens",
        facilitator=owner,
        table_count=2,
        seats_per_table=3,
        seed=3,
        game="seven_up",
        mode=mode,
        bots_enabled=True,
    )
    services.sheets_assign(workshop_id=w.pk, assignment=sheets)
    for name in NAMES:
        services.player_join(workshop_id=w.pk, name=name)
    services.players_seat_home(workshop_id=w.pk)
    # The timer loop plays bots' seats: theirs, for the length of the tournament.
    Player.objects.filter(workshop=w).update(is_bot=True)
    play_two_rounds(w, ticks)
    Player.objects.filter(workshop=w).update(is_bot=False)
    services.workshop_start_debrief(workshop_id=w.pk)
    return Workshop.objects.get(pk=w.pk)


def judged_by_hand(doc: dict) -> dict[tuple[str, int], list[int]]:
    """{(round label, table): [tricks, judged differently]} of the scored rounds, each
    game replayed here from its seed and log with the engine alone, every trick's
    winner worked out under each player's home table's ace, wins and the deal's trump."""
    rounds = {r["number"]: r for r in doc["rounds"]}
    home_rules = {t["number"]: t["rules"] for t in doc["tables"]}
    homes = {p["id"]: p["home_table"] for p in doc["players"]}
    out: dict = {}
    for g in doc["games"]:
        rnd = rounds[g["round"]]
        if rnd["kind"] != "scored" or not g["actions"]:
            continue
        sheets = [KIND.rules_from_dict(home_rules[homes[pid]]) for pid in g["players"]]
        config = su.Config.from_rules(
            len(g["players"]), KIND.rules_from_dict(g["table_rules"]).to_dict()
        )
        state = su.new_match(config, seed=g["seed"])
        cell = out.setdefault((f"Round {rnd['scored_number']}", g["table"]), [0, 0])
        for a in sorted(g["actions"], key=lambda a: a["seq"]):
            trump = state.trump
            state, events = su.apply(state, a["payload"])
            for e in events:
                if e["type"] != "trick_complete":
                    continue
                cards = [tuple(c) for c in e["cards"]]
                said = {
                    trick_winner(cards, TrickRules(ace=r.ace, wins=r.wins, trump=trump))
                    for r in sheets
                }
                cell[0] += 1
                cell[1] += len(said) > 1
    return out


def page(fac, w, view: str | None = None) -> str:
    r = fac.get(f"/workshops/{w.pk}/report/" + (f"?view={view}" if view else ""))
    assert r.status_code == 200
    return r.content.decode()


def test_a_seven_up_report_counts_the_tricks_the_home_sheets_judged_differently(fac, owner):
    # Two sheets that differ in which card wins: a newcomer's names another winner.
    w = sevens_played(owner, {1: "classic", 2: "lowest-wins"})
    doc = json.loads(json.dumps(export.workshop_document(w)))
    expected = judged_by_hand(doc)
    r = report.build_report(doc)
    rv = r["revokes"]
    assert rv is not None, "the report leaves 7Up7Down's tricks judged differently out"
    assert {
        (row["round"], row["table"]): [row["tricks"], row["clashes"]] for row in rv["rows"]
    } == expected
    tricks = sum(t for t, _ in expected.values())
    judged = sum(j for _, j in expected.values())
    # Round 1 at the home tables: one sheet per table, nothing judged differently;
    # Round 2's newcomers: some tricks, not all.
    assert sum(j for (rd, _), (_, j) in expected.items() if rd == "Round 1") == 0
    assert 0 < judged < tricks, expected
    assert rv["totals"]["tricks"] == tricks and rv["totals"]["clashes"] == judged
    assert rv["table_decides"] is True and rv["referee"] is False
    # No revoke or call: the table's sheet refuses what it forbids.
    assert not any(row[k] for row in rv["rows"] for k in ("revokes", "upheld", "refused"))

    full = page(fac, w)
    text = words(html_lib.unescape(full))
    # The summary at the top, and section 4 per round and table and in total.
    assert (
        f"{judged} of {tricks} finished tricks judged differently by the players' home sheets, "
        "which would have given them to different winners (the table's sheet decided each)"
    ) in text
    assert '<a href="#clashes">4 Clashes and gestures</a>' in full
    # Table 2's card says its rules once (it said "Lowest wins (hook, 15 a trick, exact
    # zero 10, lowest wins): Hook, 15 points a trick bid, …, lowest wins").
    assert (
        '<p class="muted">Lowest wins: Hook, 15 points a trick bid, 10 for a zero made, '
        "ace high, lowest wins</p>"
    ) in full
    section = full.split('<section id="clashes"')[1].split('<section id="players"')[0]
    assert '<h2 id="h-clashes">4 Clashes and gestures</h2>' in section
    assert f"The players' home sheets judged {judged} of {tricks} tricks differently." in words(
        section
    )
    assert "<caption>Tricks judged differently by round and table</caption>" in section
    for (rd, table), (t, j) in expected.items():
        assert (
            f'<tr><th scope="row">{rd}</th><td>{table}</td><td>{t}</td><td>{j}</td></tr>' in section
        )
    # What is counted, said in words: who takes a trick, not bidding or scoring.
    assert "Only the rules that decide who takes a trick count" in html_lib.unescape(section)
    assert "has no claims" not in section and "referee mode" not in full
    assert "Revokes (called)" not in full and "Revokes and calls" not in full
    # The refused moves stay in the section.
    assert "Moves the table's rules refused" in html_lib.unescape(section)
    # The guide's "What did you notice?" gives the figure and sends to section 4.
    notice = next(q for q in r["guide"] if q["id"] == "notice")
    assert notice["section"] == "clashes"
    assert notice["data"][0].startswith(
        f"{judged} of {tricks} tricks were judged differently by the players' home sheets: "
        "the table's sheet decided each"
    ), notice["data"]
    assert KIND.judged_words in notice["data"]


def test_a_seven_up_workshop_in_referee_mode_reads_as_in_barnga_mode(fac, owner):
    """The setup form lets a facilitator pick referee mode for 7Up7Down, where the
    table's sheet decides in either mode: its report read in All Fives' referee words,
    "it refuses a card it forbids, so there are no revokes to call", "(the table's sheet
    decided each: referee mode)" (found by a review). It reads as 7Up7Down's own."""
    w = sevens_played(owner, {1: "classic", 2: "lowest-wins"}, mode="referee")
    assert w.mode == "referee"
    doc = json.loads(json.dumps(export.workshop_document(w)))
    r = report.build_report(doc)
    rv = r["revokes"]
    assert rv["totals"]["clashes"], "nothing judged differently: nothing to test"
    assert rv["table_decides"] is True and rv["referee"] is False and r["referee"] is False
    judged, tricks = rv["totals"]["clashes"], rv["totals"]["tricks"]
    # The same document in Barnga mode gives the same report, but for the mode it names.
    barnga = json.loads(json.dumps(doc))
    barnga["workshop"]["mode"] = "barnga"
    other = report.build_report(barnga)
    assert other.pop("workshop")["mode"] == "barnga"
    assert other == {k: v for k, v in r.items() if k != "workshop"}
    for view in (None, "class", "guide", "class-guide"):
        full = page(fac, w, view)
        text = words(html_lib.unescape(full))
        assert "referee mode" not in text and "refuses a card" not in text, view
        if view in (None, "class"):
            assert (
                f"{judged} of {tricks} finished tricks judged differently by the players' "
                "home sheets, which would have given them to different winners (the "
                "table's sheet decided each)"
            ) in text
            assert "in 7Up7Down the table's sheet decides for everybody at it" in text
    notice = next(q for q in r["guide"] if q["id"] == "notice")
    assert notice["data"][0].startswith(
        f"{judged} of {tricks} tricks were judged differently by the players' home sheets: "
        "the table's sheet decided each"
    ), notice["data"]
    assert "referee" not in " ".join(notice["data"])


def test_the_class_view_gives_the_figure_and_names_nobody(fac, owner):
    w = sevens_played(owner, {1: "classic", 2: "lowest-wins"})
    doc = json.loads(json.dumps(export.workshop_document(w)))
    full = report.build_report(doc)
    rep = report.build_report(doc, names=False)
    t = full["revokes"]["totals"]
    assert t["clashes"], "nothing judged differently: nothing to test"
    # The counts are the full report's; no name anywhere in what the page is drawn from.
    assert rep["revokes"]["rows"] == full["revokes"]["rows"]
    assert [n for n in NAMES if n in json.dumps(full, default=str)] == list(NAMES)
    assert not [n for n in NAMES if n in json.dumps(rep, default=str)]
    html = page(fac, w, "class")
    assert not [n for n in NAMES if n in html]
    text = words(html_lib.unescape(html))
    assert f"{t['clashes']} of {t['tricks']} finished tricks judged differently" in text
    notice = next(q for q in rep["guide"] if q["id"] == "notice")
    assert notice["data"][0].startswith(f"{t['clashes']} of {t['tricks']} tricks were judged")


def test_sheets_that_differ_in_bidding_or_scoring_judge_no_trick_differently():
    """The hook and the points never decide who takes a trick: a replay with home
    sheets that differ only in them counts no trick; one whose sheets differ in
    which card wins counts some, each a trick the engine gives another winner."""
    rng = random.Random(5)
    table = KIND.presets["classic"].to_dict()
    state = KIND.new_state(table_rules=table, seat_rules=[table] * 3, mode="barnga", seed=11)
    log = []
    while not KIND.is_over(state) and len(log) < 120:
        action = KIND.bot_action(state, KIND.to_act(state)[0], rng)
        state, _ = KIND.apply(state, action)
        log.append(action)
    scoring = [table, KIND.presets["zero-pays-nothing"].to_dict(), {**table, "hook": False}]
    assert {
        k for s in scoring[1:] for k in KIND.rules_from_dict(s).diff(KIND.rules_from_dict(table))
    } == {
        "hook",
        "points_per_trick",
        "zero_bid_points",
    }
    args = {"table_rules": table, "mode": "barnga", "seed": 11, "actions": log}
    alike = KIND.rule_breaks(seat_rules=scoring, **args)
    assert alike["tricks"] > 10 and alike["clashes"] == 0
    assert alike["log"] == []  # no revoke, no call
    winning = [table, KIND.presets["lowest-wins"].to_dict(), table]
    differ = KIND.rule_breaks(seat_rules=winning, **args)
    assert differ["tricks"] == alike["tricks"] and 0 < differ["clashes"] < differ["tricks"]
    # A log that does not play is no figure (check_export names that game).
    assert (
        KIND.rule_breaks(
            seat_rules=winning, **{**args, "actions": [{"type": "bid", "seat": 2, "bid": 99}]}
        )
        is None
    )


def test_a_seven_up_game_counts_the_home_sheets_not_the_stored_seat_rules(owner):
    """7Up's games store the table's sheet for every seat (the table's rules decide
    for everybody): the report reads each player's home sheet instead."""
    w = sevens_played(owner, {1: "classic", 2: "lowest-wins"}, ticks=20)
    doc = json.loads(json.dumps(export.workshop_document(w)))
    g = next(
        g
        for g in doc["games"]
        if g["actions"]
        and len({p["home_table"] for p in doc["players"] if p["id"] in g["players"]}) > 1
    )
    assert all(r == g["table_rules"] for r in g["seat_rules"])
    ix = report.Index(doc)
    homes = Counter(json.dumps(s, sort_keys=True) for s in report.own_sheets(ix, g))
    assert len(homes) == 2
