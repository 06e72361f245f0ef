"""The moves the table's rules refused, in the report's section 4 and its debrief guide
(report.refusals): workshops built through the services, exported, and read back."""

from __future__ import annotations

import csv
import io
import json
import re
from itertools import combinations

import pytest
from django.template.loader import render_to_string
from test_report_views import assert_links_land
from tournament_helpers import (
    fix_seed,
    game_at,
    make_workshop,
    play_one,
    state_of,
    tables_of,
    to_scored_round,
)

from games import five_tricks, three_tricks
from games.three_tricks import Config
from tournament import check_export, export, gamestate, limits, report, services
from tournament.errors import ROUND_PAUSED, IllegalMove, WrongPhase
from tournament.models import Player, RefusedAttempt, Workshop

pytestmark = pytest.mark.django_db


def refusable_turn(table, who, limit=300):
    """Play legal cards at `table` until a player in `who` is to act holding a card the
    table's sheet forbids: (game, seat, that card)."""
    for _ in range(limit):
        game = game_at(table)
        state = state_of(game)
        seat = state.to_act
        if game.players[seat] in who:
            legal = {a["card"] for a in five_tricks.legal_actions(state, seat)}
            bad = [c for c in state.hands[seat] if c not in legal]
            if bad:
                return game, seat, bad[0]
        play_one(game)
    pytest.fail("nobody in `who` was ever refused")


def refuse(game, seat, card, times=1) -> str:
    for _ in range(times):
        with pytest.raises(IllegalMove) as refused:
            services.game_play(player_id=game.players[seat], card=card)
    return refused.value.message


STUDENTS = ("Zanele", "Ingrid", "Oluwaseun", "Mireille", "Tadeusz", "Xiomara", "Bartek", "Keahi")


def test_a_referee_workshop_reports_refusals_by_newcomers_and_locals(fac, owner):
    w = make_workshop(players=8, tables=2, mode="referee", names=STUDENTS)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    rnd1 = to_scored_round(w)
    t1, t2 = tables_of(w)
    # Round 1: everyone at home; a local at table 1 is refused once.
    game, seat, card = refusable_turn(t1, set(game_at(t1).players))
    local = Player.objects.get(pk=game.players[seat])
    refuse(game, seat, card)
    services.round_end_now(round_id=rnd1.pk)
    services.movement_apply(round_id=rnd1.pk)
    services.round_start(workshop_id=w.pk)
    # Round 2: a newcomer from table 2 at table 1, refused twice.
    t1.refresh_from_db()
    newcomers = set(Player.objects.filter(table=t1, home_table=t2).values_list("pk", flat=True))
    assert newcomers
    game, seat, card = refusable_turn(t1, newcomers)
    newcomer = Player.objects.get(pk=game.players[seat])
    reason = refuse(game, seat, card, times=2)

    doc = json.loads(json.dumps(export.workshop_document(w)))
    assert [(x["player"], x["table"]) for x in doc["refusals"]] == [
        (local.pk, 1),
        (newcomer.pk, 1),
        (newcomer.pk, 1),
    ]
    last = doc["refusals"][-1]
    assert last["action"] == {"type": "play", "seat": seat, "card": card}
    assert last["reason"] == reason and last["game"] == game.pk
    assert not [c.line() for c in check_export.check_document(doc) if not c.ok]

    r = report.build_report(doc)
    rf = r["refusals"]
    own = sum(1 for x in doc["refusals"] if x["own_rules_allow"])
    assert rf["totals"] == {
        "refused": 3,
        "by_newcomers": 2,
        "by_locals": 1,
        "own_rules_allow": own,
        "own_rules_forbid": 3 - own,
    }
    by_cell = {(row["round"], row["table"]): row for row in rf["rows"]}
    # Every table and round with a game played (round 1's table 2 was dealt, not played).
    assert set(by_cell) == {("Round 1", 1), ("Round 2", 1), ("Round 2", 2)}
    assert {k: v for k, v in by_cell[("Round 1", 1)].items() if k != "round_number"} == {
        "round": "Round 1",
        "table": 1,
        "refused": 1,
        "by_newcomers": 0,
        "by_locals": 1,
        "own_rules_allow": 0,
        "own_rules_forbid": 1,
        "players": 1,
    }
    assert (by_cell[("Round 2", 1)]["by_newcomers"], by_cell[("Round 2", 1)]["by_locals"]) == (2, 0)
    assert by_cell[("Round 2", 2)]["refused"] == 0
    first = rf["examples"][0]  # newcomers first
    assert (first["name"], first["home"], first["newcomer"], first["times"]) == (
        newcomer.name,
        2,
        True,
        2,
    )
    assert first["reason"] == reason and first["tried"] == f"play {card}"
    assert rf["examples"][1]["name"] == local.name and not rf["examples"][1]["newcomer"]

    notice = next(q for q in r["guide"] if q["id"] == "notice")["data"]
    line = (
        f"At table 1 in Round 2, {newcomer.name} (a newcomer from table 2) was refused "
        f"2 times: “{reason}”"
    )
    assert any(x.startswith(line) for x in notice), notice
    said = "3 moves were refused: 2 by newcomers and 1 by players at their home table."
    assert rf["said"].startswith(said)
    assert "By the table's rules, " + rf["said"] in notice, notice

    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert 'id="refusals"' in html and "Moves the table's rules refused" in html
    assert f"At table 1 in Round 2, <bdi>{newcomer.name}</bdi> (a newcomer from table 2)" in html
    assert_links_land(html)

    # The class's view, for the projector: the same counts, nobody refused named.
    cls = report.build_report(doc, names=False)
    # Per table only how many: "By newcomers 1" at a table one player moved up to
    # would be that student, beside section 2's "1 moved up".
    assert cls["refusals"]["totals"] == rf["totals"] and cls["refusals"]["said"] == rf["said"]
    assert cls["refusals"]["rows"] == [
        {k: row[k] for k in ("round", "round_number", "table", "refused")} for row in rf["rows"]
    ]
    assert not [n for n in STUDENTS if n in json.dumps(cls, default=str)]
    # Who was refused how often (players.csv's figure) is the full report's alone.
    assert rf["by_player"] == {local.pk: 1, newcomer.pk: 2}
    assert cls["refusals"]["by_player"] == {}
    html = fac.get(f"/workshops/{w.pk}/report/?view=class").content.decode()
    assert 'id="refusals"' in html and said in html and "By newcomers" not in html
    assert not [n for n in STUDENTS if n in html]


def three_tricks_lay_refused(owner, names):
    """A 3 Tricks workshop of `owner` with `names` at two tables of two, in its scored
    round: (workshop, the first table's game, the seat to act, a lay of two of its
    cards the table's rules refuse)."""
    w = services.workshop_create(
        name="3 Tricks", game="three_tricks", table_count=2, seats_per_table=2, seed=7
    )
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    for name in names:
        services.player_join(workshop_id=w.pk, name=name)
    to_scored_round(w)
    game = fix_seed(game_at(tables_of(w)[0]), 11)
    state = gamestate.load_state(game)
    seat = state.to_act
    bad = next(
        list(p)
        for p in combinations(state.hands[seat], 2)
        if not three_tricks.is_trick(p, Config.from_dict(game.table_rules))
    )
    return w, game, seat, bad


def test_a_card_tapped_while_paused_is_no_refusal_in_the_report_or_exports(fac, owner):
    """The pause refused the card, not the table's rules: nothing is kept, so the
    debrief does not count a student's tap during a pause as a rule they met. The
    same forbidden card once the round continues is a refusal, kept and counted."""
    w = make_workshop(players=8, tables=2, mode="referee", names=STUDENTS)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    rnd = to_scored_round(w)
    t1, _ = tables_of(w)
    game, seat, card = refusable_turn(t1, set(game_at(t1).players))
    services.round_pause(round_id=rnd.pk)
    for _ in range(3):
        with pytest.raises(WrongPhase) as paused:
            services.game_play(player_id=game.players[seat], card=card)
        assert paused.value.message == ROUND_PAUSED
    assert not RefusedAttempt.objects.exists()
    doc = json.loads(json.dumps(export.workshop_document(w)))
    assert doc["refusals"] == []
    assert report.build_report(doc)["refusals"]["totals"]["refused"] == 0
    tables = export.csv_tables(doc)
    assert tables["refusals"][1] == []
    header, rows = tables["players"]
    assert [row[header.index("refused_moves")] for row in rows] == [0] * len(rows)

    services.round_resume(round_id=rnd.pk)
    refuse(game, seat, card)
    doc = json.loads(json.dumps(export.workshop_document(w)))
    assert [(x["player"], x["action"]["card"]) for x in doc["refusals"]] == [
        (game.players[seat], card)
    ]
    assert report.build_report(doc)["refusals"]["totals"]["refused"] == 1


def test_a_three_tricks_report_names_the_refused_lay(fac, owner):
    w, game, seat, bad = three_tricks_lay_refused(owner, ("Ana", "Bea", "Cai", "Dev"))
    with pytest.raises(IllegalMove):
        services.game_act(player_id=game.players[seat], move={"type": "lay", "cards": bad})
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    assert r["refusals"]["totals"] == {
        "refused": 1,
        "by_newcomers": 0,
        "by_locals": 1,
        "own_rules_allow": 0,
        "own_rules_forbid": 1,
    }
    assert r["refusals"]["said"] == (
        "1 move was refused, by a player at their home table. "
        "It was a slip the player's own rules forbid too."
    )
    assert r["refusals"]["examples"][0]["tried"] == "lay " + " ".join(bad)
    notice = next(q for q in r["guide"] if q["id"] == "notice")
    assert notice["section"] == "refusals"
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert "4 Refused moves and gestures</h2>" in html and "has no claims" in html
    assert_links_land(html)


def test_refusals_csv_has_every_refused_move_after_the_game_columns(fac, owner):
    """The JSON's refusals were in no CSV table: refusals.csv has them, one a row, the
    game columns first, names that a spreadsheet would run as a formula defused."""
    w, game, seat, bad = three_tricks_lay_refused(owner, ("=1+1", "+Bea", "-Cai", "@Dev"))
    who = Player.objects.get(pk=game.players[seat])
    for _ in range(2):
        with pytest.raises(IllegalMove) as refused:
            services.game_act(player_id=who.pk, move={"type": "lay", "cards": bad})
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert f"/workshops/{w.pk}/report/refusals.csv" in html
    r = fac.get(f"/workshops/{w.pk}/report/refusals.csv")
    assert r.status_code == 200
    rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "round",
        "round_label",
        "table",
        "game_id",
        "game_number",
        "created_at",
        "player_id",
        "player",
        "seat",
        "action",
        "reason",
        "own_rules_allow",
        "scored_round",
    ]
    doc = export.workshop_document(w)
    assert len(doc["refusals"]) == 2 == len(rows) - 1
    row = dict(zip(rows[0], rows[1], strict=True))
    x = doc["refusals"][0]
    label = next(rd["label"] for rd in doc["rounds"] if rd["number"] == x["round"])
    assert row == {
        "round": str(x["round"]),
        "round_label": label,
        "table": "1",
        "game_id": str(game.pk),
        "game_number": str(game.number),
        "created_at": x["created_at"],
        "player_id": str(who.pk),
        "player": "'" + who.name,
        "seat": str(seat),
        "action": json.dumps({"cards": bad, "seat": seat, "type": "lay"}),
        "reason": refused.value.message,
        "own_rules_allow": "false",
        # The report's Round 1: stored round 3, after the study round and home play.
        "scored_round": "1",
    }
    assert x["round"] == 3
    # A document from before refusals were exported has none: a header alone.
    del doc["refusals"]
    assert export.csv_tables(doc)["refusals"] == (rows[0], [])


def test_a_barnga_mode_report_has_no_refusals_section(fac, owner):
    w = make_workshop(players=4, tables=1)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_scored_round(w)
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    assert r["refusals"] is None
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert 'id="refusals"' not in html
    # None are kept in Barnga mode: the table, a header alone, is served but not offered.
    assert "report/claims.csv" in html and "report/refusals.csv" not in html
    assert fac.get(f"/workshops/{w.pk}/report/refusals.csv").status_code == 200


def totals(refused, own, forbid, newcomers=None):
    newcomers = refused if newcomers is None else newcomers
    return {
        "refused": refused,
        "by_newcomers": newcomers,
        "by_locals": refused - newcomers,
        "own_rules_allow": own,
        "own_rules_forbid": forbid,
    }


@pytest.mark.parametrize(
    ("t", "words"),
    [
        (totals(1, 1, 0), "It was a move the player's own rules allow: a rule they never saw."),
        (totals(1, 0, 0), ""),  # their own sheet could not be asked
        (
            totals(3, 3, 0),
            "All of them were moves the players' own rules allow: rules they never saw.",
        ),
        (totals(2, 0, 2), "All of them were slips the players' own rules forbid too."),
        (
            totals(3, 2, 1),
            "2 of them were moves the player's own rules allow: a rule they never saw. "
            "The other was a slip their own rules forbid too.",
        ),
        (
            totals(4, 1, 3),
            "1 of them was a move the player's own rules allow: a rule they never saw. "
            "The rest were slips their own rules forbid too.",
        ),
        (
            totals(4, 1, 2),
            "1 of them was a move the player's own rules allow: a rule they never saw. "
            "2 were slips their own rules forbid too.",
        ),
        (totals(3, 0, 1), "1 was a slip their own rules forbid too."),
    ],
)
def test_the_refusals_words_are_right_for_one_for_all_and_for_none(t, words):
    n = t["refused"]
    said = report._refused_words(t)
    # Only the newcomers are said: "0 by players at their home table" said nothing.
    by = "by a newcomer" if n == 1 else "all by newcomers"
    assert said == (
        f"{n} move{'s' * (n != 1)} {'was' if n == 1 else 'were'} refused, {by}."
        + (" " + words if words else "")
    )


def test_a_report_with_no_refused_move_says_so_in_a_line_and_draws_no_table(fac, owner):
    w = make_workshop(players=4, tables=1, mode="referee", names=STUDENTS[:4])
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_scored_round(w)
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    assert r["refusals"]["totals"]["refused"] == 0 and r["refusals"]["said"] == ""
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    section = html[
        html.index('id="refusals"') : html.index("</section>", html.index('id="refusals"'))
    ]
    assert "No move was refused." in section
    assert "0 moves" not in section and "The rest" not in section and "<table" not in section


def test_the_cap_the_report_states_is_the_one_the_service_keeps(fac, owner, monkeypatch):
    """The report says how many refused moves a player keeps per game from
    limits.REFUSALS_KEPT, the number the service stops at: changed, both follow."""
    monkeypatch.setattr(limits, "REFUSALS_KEPT", 3)
    w = make_workshop(players=4, tables=1, mode="referee", names=STUDENTS[:4])
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_scored_round(w)
    table = tables_of(w)[0]
    game, seat, card = refusable_turn(table, set(game_at(table).players))
    refuse(game, seat, card, times=5)
    doc = json.loads(json.dumps(export.workshop_document(w)))
    assert len(doc["refusals"]) == 3
    assert report.build_report(doc)["refusals"]["kept_most"] == 3
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert (
        "At most 3 refused moves are kept per player and game: a student who tried more "
        "was told each time, but is counted 3." in html
    )
    assert "At most 20" not in html and "counted 20" not in html


def test_a_report_rebuilt_from_a_document_states_the_cap_it_was_exported_under(owner):
    """The cap is in the document (workshop.refusals_kept): a report built later from an
    old JSON states that cap, not today's limits.REFUSALS_KEPT; a document from before
    the field states today's."""
    w = make_workshop(players=4, tables=1, mode="referee", names=STUDENTS[:4])
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_scored_round(w)
    table = tables_of(w)[0]
    game, seat, card = refusable_turn(table, set(game_at(table).players))
    refuse(game, seat, card, times=2)
    doc = json.loads(json.dumps(export.workshop_document(w)))
    assert doc["workshop"]["refusals_kept"] == limits.REFUSALS_KEPT
    doc["workshop"]["refusals_kept"] = 7  # exported by a server that kept 7
    rep = report.build_report(doc)
    assert rep["refusals"]["kept_most"] == 7
    html = render_to_string("report/_refusals.html", {"r": rep})
    assert "At most 7 refused moves are kept per player and game" in html
    assert "counted 7." in html and f"At most {limits.REFUSALS_KEPT} " not in html
    del doc["workshop"]["refusals_kept"]
    assert report.build_report(doc)["refusals"]["kept_most"] == limits.REFUSALS_KEPT


def players_table(html: str) -> tuple[list[str], dict[str, list[str]]]:
    """Section 5's per-player table as read on the page: its column headers, and each
    row's cells (the name's cell first) by the player's name, tags stripped."""

    def words(cell: str) -> str:
        return " ".join(re.sub(r"<[^>]+>", " ", cell).split())

    table = html.split('<table class="players">', 1)[1].split("</table>", 1)[0]
    head = re.search(r"<thead>(.*?)</thead>", table, re.S).group(1)
    headers = [words(h) for h in re.findall(r"<th scope=\"col\">(.*?)</th>", head, re.S)]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], re.S):
        cells = [words(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        name = re.search(r"<bdi>(.*?)</bdi>", row).group(1)
        rows[name] = cells
    return headers, rows


def test_the_players_table_shows_each_players_refused_moves_as_players_csv(fac, owner):
    """players.csv had a refused_moves column the report's per-player table lacked
    (found by a review): the table has it, each player's figure the CSV's."""
    w = make_workshop(players=8, tables=2, mode="referee", names=STUDENTS)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_scored_round(w)
    t1, t2 = tables_of(w)
    game, seat, card = refusable_turn(t1, set(game_at(t1).players))
    once = Player.objects.get(pk=game.players[seat])
    refuse(game, seat, card)
    game, seat, card = refusable_turn(t2, set(game_at(t2).players))
    twice = Player.objects.get(pk=game.players[seat])
    refuse(game, seat, card, times=2)

    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    headers, rows = players_table(html)
    column = headers.index("Refused moves")
    assert headers[column + 1] == "Gestures and drawings"  # in players.csv's order
    assert "refused moves (" in html.split('<table class="players">', 1)[1].split("</caption>")[0]
    shown = {name: int(cells[column]) for name, cells in rows.items()}
    served = fac.get(f"/workshops/{w.pk}/report/players.csv").content.decode("utf-8-sig")
    in_csv = {r["player"]: int(r["refused_moves"]) for r in csv.DictReader(io.StringIO(served))}
    assert shown == in_csv and sorted(shown) == sorted(STUDENTS)
    assert (shown[once.name], shown[twice.name]) == (1, 2) and sum(shown.values()) == 3
    # Bots' rows too, and the rest of each row kept its place.
    assert all(len(cells) == len(headers) for cells in rows.values())
