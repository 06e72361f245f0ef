"""The report's pages and downloads: only the workshop's facilitator sees them (issue 6)."""

from __future__ import annotations

import csv
import html as html_lib
import io
import json
import re
import zipfile
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.test import Client
from report_helpers import bots_played
from tournament_helpers import (
    HIGH,
    LOW,
    finish_trick,
    fresh,
    game_at,
    make_workshop,
    one_left_alone,
    open_dispute,
    play_one,
    set_seat_sheets,
    tables_of,
    to_home,
    to_scored_round,
)

from tournament import check_export, export, report, services, timers
from tournament.models import Game, Player, RefusedAttempt, Workshop

pytestmark = pytest.mark.django_db
User = get_user_model()

URLS = ("/report/", "/report.json", "/report.zip", "/report/claims.csv", "/report/actions.csv")


@pytest.fixture
def played(owner):
    """Two tables of bots with different sheets, played through to the debrief."""
    return bots_played(owner, sheets={1: "guide-1", 2: "guide-2"}, seed=3)


def test_the_facilitator_sees_every_section_with_captions_and_alt_text(fac, played):
    r = fac.get(f"/workshops/{played.pk}/report/")
    assert r.status_code == 200
    html = r.content.decode()
    for heading in (
        "1 The reveal",
        "2 Movement",
        "3 Results per round and table",
        "4 Clashes and disputes",
        "5 Per player",
        "6 Debrief guide",
    ):
        assert heading in html
    assert "Rule knobs per table" in html and "<caption>" in html
    assert "Where have you met this outside the game?" in html
    imgs = re.findall(r'<img src="data:image/svg\+xml;base64,[^"]+" alt="([^"]+)"', html)
    assert imgs and all(alt.strip() for alt in imgs)
    assert any(alt.startswith("Line chart: where each player sat") for alt in imgs)
    assert "report.css" in html
    assert "no-store" in r["Cache-Control"]
    # Both tables' rules are revealed, side by side.
    assert "Ace high (above the 7)" in html and "Ace low (below the 2)" in html
    # The day the class played heads the report; the footer's time is for people.
    first = played.rounds.order_by("started_at").first().started_at
    assert f"Played on {first.day} {first:%B %Y}" in html
    foot = html.split('<footer class="report-foot')[1]
    assert re.search(r"on \d{1,2} \w+ \d{4}, \d\d:\d\d UTC\.", foot), foot
    assert not re.search(r"\d{4}-\d\d-\d\dT", foot), foot


def test_a_tricks_cards_show_who_played_each_in_print_and_to_a_screen_reader(fac, played):
    """Each card of a clash or a dispute carries its player's name as text (a tooltip
    is neither printed nor shown on a phone), in the order played, the first led."""
    html = fac.get(f"/workshops/{played.pk}/report/").content.decode()
    names = set(Player.objects.filter(workshop=played).values_list("name", flat=True))
    plays = re.findall(r'<ol class="plays">(.*?)</ol>', html, re.S)
    assert plays
    for block in plays:
        shown = re.findall(r'<span class="by"><bdi>([^<]+)</bdi></span>', block)
        assert len(shown) == 3 and set(shown) <= names, block  # three seats per table
        spoken = re.findall(r'<span class="visually-hidden">([^<]+)</span>', block)
        assert len(spoken) == 3 and spoken[0].endswith(", led by"), spoken
        assert all(" of " in s for s in spoken), spoken  # "seven of spades", not "7♠"
    assert not re.search(r'<span class="mini[^"]*" title=', html)


def test_other_users_students_and_visitors_get_404(played, owner):
    other = Client()
    other.force_login(User.objects.create_user("mallory", password="a-long-pass-123"))
    visitor = Client()
    student = Client()
    # A student of this very workshop, with the player cookie the join page sets.
    w2 = make_workshop(players=0, tables=2)
    r = student.post("/join", {"code": w2.code, "name": "Sam"})
    assert r.status_code == 302 and student.cookies.get("barnga_player")
    Workshop.objects.filter(pk=w2.pk).update(facilitator=owner)
    for client in (other, visitor, student):
        for wid in (played.pk, w2.pk, 999999):
            for url in URLS:
                assert client.get(f"/workshops/{wid}{url}").status_code == 404, url


def test_an_unknown_csv_table_is_404_and_post_is_refused(fac, played):
    assert fac.get(f"/workshops/{played.pk}/report/passwords.csv").status_code == 404
    assert fac.post(f"/workshops/{played.pk}/report/").status_code == 405


def test_json_download_is_the_versioned_document_and_replays(fac, played):
    r = fac.get(f"/workshops/{played.pk}/report.json")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("application/json")
    assert "attachment" in r["Content-Disposition"] and ".json" in r["Content-Disposition"]
    doc = json.loads(r.content)
    assert doc["schema"] == export.SCHEMA
    assert len(doc["games"]) == Game.objects.filter(table__workshop=played).count()
    checks = check_export.check_document(doc)
    assert checks and all(c.ok for c in checks), [c.line() for c in checks if not c.ok]


def test_every_csv_table_downloads_with_a_header(fac, played):
    for kind in export.CSV_KINDS:
        r = fac.get(f"/workshops/{played.pk}/report/{kind}.csv")
        assert r.status_code == 200, kind
        assert r["Content-Type"].startswith("text/csv")
        text = r.content.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0] == export.csv_tables(export.workshop_document(played))[kind][0]


def test_zip_holds_every_table_and_the_json(fac, played):
    r = fac.get(f"/workshops/{played.pk}/report.zip")
    assert r.status_code == 200 and r["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
    code = played.code.lower()
    assert sorted(names) == sorted(
        [f"barnga-{code}-workshop.json"] + [f"barnga-{code}-{k}.csv" for k in export.CSV_KINDS]
    )


def without_token(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"', "", html)


def test_a_finished_workshops_report_and_exports_are_built_once(
    fac, played, django_assert_max_num_queries
):
    """Each download built the whole document again (2.3 s of CPU for the report at
    200 players), while another class on the same server waited. Once the tournament
    is over nothing in it changes: the second download reads no game, action or claim."""
    first = fac.get(f"/workshops/{played.pk}/report/").content.decode()
    doc = json.loads(fac.get(f"/workshops/{played.pk}/report.json").content)
    # The session, the user, the workshop and its tables' versions: nothing more.
    with django_assert_max_num_queries(4):
        again = fac.get(f"/workshops/{played.pk}/report/").content.decode()
    assert without_token(again) == without_token(first) and "Rule knobs per table" in first
    csvs = [f"/workshops/{played.pk}/report/{kind}.csv" for kind in export.CSV_KINDS]
    firsts = [fac.get(url).content for url in csvs]
    with django_assert_max_num_queries(4 * (len(export.CSV_KINDS) + 2)):
        assert [fac.get(url).content for url in csvs] == firsts
        kept = json.loads(fac.get(f"/workshops/{played.pk}/report.json").content)
        assert fac.get(f"/workshops/{played.pk}/report.zip").status_code == 200
    # Read and written around by the report and the tables, the kept document is
    # still the stored workshop's, and each copy says when it was made.
    fresh_doc = export.workshop_document(played)
    for d in (doc, kept, fresh_doc):
        d.pop("exported_at")
    assert kept == doc == fresh_doc


def test_a_kept_report_is_built_again_when_the_workshop_changes(fac, played):
    """What can change once the tournament is over (a player leaving) is in the next
    download; before it, the tournament's own report changes with every move."""
    url = f"/workshops/{played.pk}/report.json"
    player = Player.objects.filter(workshop=played).order_by("join_order").first()
    assert not next(p for p in json.loads(fac.get(url).content)["players"] if p["id"] == player.pk)[
        "has_left"
    ]
    fac.get(f"/workshops/{played.pk}/report/")
    services.player_leave(player_id=player.pk, policy="bot")
    doc = json.loads(fac.get(url).content)
    assert next(p for p in doc["players"] if p["id"] == player.pk)["has_left"]
    html = fac.get(f"/workshops/{played.pk}/report/").content.decode()
    assert "the player left during the workshop" in html
    # A student who left and comes back with their PIN once the tournament is over
    # (a rejoin is no tournament action: the debrief allows it).
    w = make_workshop(players=4, tables=1)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner_of(played))
    services.round_end_now(round_id=to_scored_round(w).pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    student = Player.objects.filter(workshop=w).first()
    services.player_leave(player_id=student.pk, policy="bot")
    url = f"/workshops/{w.pk}/report.json"
    doc = json.loads(fac.get(url).content)
    assert next(p for p in doc["players"] if p["id"] == student.pk)["has_left"]
    services.player_rejoin(code=w.code, name=student.name, pin=fresh(student).pin)
    doc = json.loads(fac.get(url).content)
    assert not next(p for p in doc["players"] if p["id"] == student.pk)["has_left"]
    # A tournament in progress: nothing kept.
    w = make_workshop(players=4, tables=1)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner_of(played))
    rnd = to_scored_round(w)
    url = f"/workshops/{w.pk}/report.json"
    actions = lambda: sum(len(g["actions"]) for g in json.loads(fac.get(url).content)["games"])  # noqa: E731
    before = actions()
    play_one(game_at(tables_of(w)[0]))
    assert actions() == before + 1 and fresh(rnd).state == "running"


def owner_of(workshop: Workshop):
    return Workshop.objects.get(pk=workshop.pk).facilitator


def test_a_workshop_with_nothing_played_still_has_a_report(fac, owner):
    w = make_workshop(players=3, tables=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    r = fac.get(f"/workshops/{w.pk}/report/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "There were no disputes." in html and "No games were played." in html
    assert "still running" not in html  # a lobby has not started
    doc = json.loads(fac.get(f"/workshops/{w.pk}/report.json").content)
    assert doc["games"] == [] and check_export.check_document(doc) == []


def test_a_player_who_left_is_explained_under_the_players_table(fac, owner, played):
    note = "the player left during the workshop"
    assert note not in fac.get(f"/workshops/{played.pk}/report/").content.decode()
    w = make_workshop(players=3, tables=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    services.player_leave(player_id=Player.objects.filter(workshop=w).first().pk, policy="bot")
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert note in html and "what it did from then on is counted in their row" in html
    assert '<span class="tag">left</span> <span class="muted">before play began</span>' in html


def test_the_players_table_says_when_each_player_left(fac, owner):
    w = make_workshop(players=8, tables=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    rnd = to_scored_round(w)
    first, second = Player.objects.filter(workshop=w).order_by("join_order")[:2]
    services.player_leave(player_id=first.pk, policy="bot")
    services.round_end_now(round_id=rnd.pk)
    services.player_leave(player_id=second.pk, policy="bot")
    doc = json.loads(fac.get(f"/workshops/{w.pk}/report.json").content)
    assert all(p["left_at"] for p in doc["players"] if p["has_left"])
    rows = {p["name"]: p for p in report.build_report(doc)["players"]}
    assert (rows[first.name]["left_when"], rows[second.name]["left_when"]) == (
        "during Round 1",
        "after Round 1",
    )
    assert {p["left_when"] for p in rows.values() if not p["left"]} == {""}
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    # A bot plays both seats (the leave policy): said beside when they left.
    for p, when in ((first, "during Round 1"), (second, "after Round 1")):
        assert (
            f'<bdi>{p.name}</bdi> <span class="tag">left</span> <span class="muted">{when}; a bot'
            " took their seat</span>" in html
        )


def test_a_dispute_still_open_is_counted_as_open_not_as_cut(owner):
    """A report read mid-round: the open dispute is a claim step of its own kind."""
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    open_dispute(set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW]))
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    outcomes = {o["key"]: o["count"] for o in r["clashes"]["trick_outcomes"]}
    assert outcomes.get("open") == 1 and "cut" not in outcomes
    act = " ".join(next(q["data"] for q in r["guide"] if q["id"] == "act"))
    assert "held their claim 4 times (4 in a dispute still open)." in act
    assert sum(c["cut"] for t in r["clashes"]["by_table_round"] for c in t["rounds"]) == 1


def test_a_dispute_cut_when_a_player_left_is_not_called_cut_by_the_rounds_end(fac, owner):
    """Leave policy "skip": the leaver's table stops its game and deals again without
    them, and a dispute open there ends with it. The report said of both "cut short
    by the end of the round"."""
    w = make_workshop(players=8, tables=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    left = set_seat_sheets(t1, [HIGH, HIGH, HIGH, LOW])
    open_dispute(left)
    services.player_leave(player_id=left.players[0], policy="skip")
    ended = game_at(t2)
    play_one(ended)  # a card down: the round's end cuts a game that was played
    services.round_end_now(round_id=rnd.pk)

    doc = json.loads(fac.get(f"/workshops/{w.pk}/report.json").content)
    cut_by = {g["id"]: g["cut_by"] for g in doc["games"]}
    assert (cut_by[left.pk], cut_by[ended.pk]) == ("player_left", "round_end")
    games_csv = fac.get(f"/workshops/{w.pk}/report/games.csv").content.decode("utf-8-sig")
    rows = {int(r["game_id"]): r["cut_by"] for r in csv.DictReader(io.StringIO(games_csv))}
    assert (rows[left.pk], rows[ended.pk]) == ("player_left", "round_end")
    assert all(c.ok for c in check_export.check_document(doc))
    r = report.build_report(doc)
    (dispute,) = r["clashes"]["disputes"]
    assert (dispute["resolution"], dispute["outcome"]) == ("cut", "left")
    assert dispute["outcome_label"] == "Cut short when a player left the table"
    assert {k: v for k, v in r["clashes"]["outcome_counts"].items() if v} == {"left": 1}
    tricks = {o["key"]: o["count"] for o in r["clashes"]["trick_outcomes"]}
    assert tricks["left"] == 1 and "cut" not in tricks
    assert r["counts"]["disputes_unfinished"] == 1
    text = {q["id"]: " ".join(q["data"]) for q in r["guide"]}
    assert "The one dispute was cut short when a player left." in text["act"]
    # Everyone held their claim in it, each "until the round ended" before.
    assert (
        "Players never adapted (changed their claim) and held their claim 4 times (4 until a"
        " player left)." in text["act"]
    )
    t1_results = r["results"][-1]["tables"][0]
    assert (t1_results["games_cut"], t1_results["games_cut_by_leaving"]) == (1, 1)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert "Game 2 (cut short when a player left)" in html
    assert "Game 1 (cut short)" in html  # table 2's, by the round's end
    assert "(1 cut short when a player left: no trick awarded)" in html


def test_the_guide_tells_games_cut_when_a_player_left_from_the_rounds_end():
    """7Up has no claims: the debrief guide counts each round's games and how many
    were cut short, which it put down to the round's end."""
    w = services.workshop_create(
        name="Bids",
        table_count=2,
        seats_per_table=4,
        seed=3,
        game="seven_up",
        bots_enabled=True,
    )
    services.bots_fill(workshop_id=w.pk)
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    for _ in range(4):
        timers.tick(bot_delay=0)
    left = game_at(t1)
    assert left.seq > 0 and game_at(t2).seq > 0  # played, so counted
    services.player_leave(player_id=left.players[0], policy="skip")
    for _ in range(4):
        timers.tick(bot_delay=0)
    assert game_at(t1).seq > 0
    services.round_end_now(round_id=rnd.pk)
    assert fresh(left).cut_by == "player_left"
    cut = Game.objects.filter(round=rnd, state="cut")
    by_end = cut.filter(cut_by="round_end").count()
    assert by_end >= 2 and cut.count() == by_end + 1
    played = Game.objects.filter(round=rnd).count()
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    notice = " ".join(next(q["data"] for q in r["guide"] if q["id"] == "notice"))
    assert (
        f"Round {rnd.scored_number}: {played} games at 2 tables, {by_end} cut short by the end of the round "
        "and 1 when a player left." in notice
    ), notice


def test_a_running_workshop_warns_that_the_report_reveals_the_rules(fac, owner):
    w = make_workshop(players=4, tables=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert "still running" in html
    # The guide alone says so too: its figures tell how the tables' rules differ.
    for view in ("guide", "class-guide"):
        guide = fac.get(f"/workshops/{w.pk}/report/?view={view}").content.decode()
        assert "<strong>The workshop is still running.</strong> The guide's figures" in guide
        assert re.findall(r'<section id="(\w+)"', guide) == ["guide"]


def test_an_export_taken_mid_round_checks_ok():
    """A facilitator downloads the JSON while tables play: the games in progress have
    no result yet, and their tricks so far replay (they are not mismatches)."""
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    finish_trick(game_at(tables_of(w)[0]))
    doc = json.loads(json.dumps(export.workshop_document(w)))
    playing = [g for g in doc["games"] if g["state"] == "playing"]
    assert len(playing) == 2 and any(g["tricks"] for g in playing)
    checks = check_export.check_document(doc)
    assert len(checks) == len(doc["games"]) and all(c.ok for c in checks), [
        c.line() for c in checks
    ]
    # The report read now counts the tricks so far of the games in progress.
    rows = [
        g
        for rd in report.results(doc, report.Index(doc))
        for t in rd["tables"]
        for g in t["games"]
        if g["state"] == "playing"
    ]
    assert sum(x["tricks"] for g in rows for x in g["tricks"]) == sum(
        len(g["tricks"]) for g in playing
    )
    # A game in progress with a result stored is still found out.
    playing[0]["winners"] = [playing[0]["players"][0]]
    bad = [c for c in check_export.check_document(doc) if not c.ok]
    assert [c.game_id for c in bad] == [playing[0]["id"]], [c.line() for c in bad]
    assert "a game in progress has stored results" in bad[0].line()


def test_a_player_alone_at_a_table_is_in_the_rounds_results(fac, owner):
    """Three players, two tables: the one alone at table 2 played no game, and
    movement moved them all the same; the report's results list them too."""
    w = make_workshop(players=3, tables=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    rnd = to_scored_round(w, one_left_alone(w))
    alone = Player.objects.get(table=tables_of(w)[1])
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    results = html.split('id="results"')[1]
    table2 = results.split("<caption>Table 2: no game (too few players to deal to).")[1]
    table2 = table2.split("</table>")[0]
    assert alone.name in table2
    # Nobody there is "most" or "fewest", and there is no empty list of its games.
    assert "Most games won" not in table2 and "All tied" not in table2
    assert "Games at table 2" not in results


def assert_links_land(html: str) -> None:
    missing = set(re.findall(r'href="#([^"]+)"', html)) - set(re.findall(r' id="([^"]+)"', html))
    assert not missing, missing


def test_a_referee_workshop_counts_the_tricks_its_sheets_judged_differently(fac, owner):
    """In referee mode the table's sheet decides every trick, but a player from
    another table still saw tricks go against their own sheet: the report counts
    those (it said 0 of 48 while the export's verdicts differed on most) and says
    the workshop was in referee mode."""
    w = make_workshop(players=8, tables=2, mode="referee")
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW])
    for _ in range(3):
        finish_trick(game)
    doc = json.loads(json.dumps(export.workshop_document(w)))
    differing = sum(1 for g in doc["games"] for t in g["tricks"] if len(set(t["verdicts"])) > 1)
    assert differing > 0
    r = report.build_report(doc)
    assert r["referee"] and r["counts"]["clashes"] == differing
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert "referee mode" in html
    tricks = r["counts"]["tricks"]
    assert f"<strong>{differing}</strong> of {tricks} finished tricks judged differently" in html
    # Nobody claims in referee mode: the guide speaks of no disputes at all.
    notice = next(q for q in r["guide"] if q["id"] == "notice")["data"]
    assert notice and all("dispute" not in line for line in notice), notice
    for q in r["guide"]:
        assert all(
            " disputes:" not in line and "during disputes" not in line for line in q["data"]
        ), q
    assert "the table's sheet decided each (referee mode)." in notice[0]
    # Nor does the page: no claim steps, no disputes' endings, chart or columns, and
    # gestures are not split by disputes (there were none to split by).
    services.gesture_make(player_id=game.players[0], kind="stop")
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert "In referee mode nobody claims" in html
    for word in (
        "claim step",
        "How the disputes ended",
        "dispute</",
        " disputes<",
        "During a dispute",
        "during disputes",
        "Adapted",
        "Own claim won",
        "whether they adapted",
    ):
        assert word not in html, word
    assert '<th scope="col">Times used</th>' in html
    assert "4 Clashes</h2>" in html and "Tricks and clashes per table and round" in html
    # Every link within the page has its target ("See the figures" led to #disputes).
    assert_links_land(html)


def test_disputes_cut_by_a_rounds_end_are_said_beside_the_count(fac, owner):
    """A dispute the round's end cut short completed no trick, so it is a dispute
    without a clash: the headline says so (it showed more disputes than clashes
    with no word why)."""
    w = make_workshop(players=8, tables=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    rnd = to_scored_round(w)
    open_dispute(set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW]))
    services.round_end_now(round_id=rnd.pk)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    summary = html.split('aria-label="Key figures"')[1].split("</ul>")[0]
    assert "dispute (1 cut short by a round's end: no trick awarded)" in summary


def test_the_guides_questions_are_headings_a_screen_reader_can_step_through(fac, played):
    html = fac.get(f"/workshops/{played.pk}/report/").content.decode()
    guide = html.split('id="guide"')[1].split("</section>")[0]
    questions = re.findall(r'<h3 class="q" id="q-(\w+)-h">([^<]+)</h3>', guide)
    assert [q for q, _ in questions] == ["expect", "notice", "feel", "act", "moved", "outside"]
    # Six links of the same words: each is described by its question.
    assert guide.count('aria-describedby="q-') == 6


def test_twelve_tables_knobs_are_two_tables_of_ten_and_two(fac, owner):
    w = make_workshop(players=12, tables=12, seats=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert html.count('<table class="knobs">') == 2
    assert "Rule knobs per table, tables 1 to 10" in html
    assert "Rule knobs per table, tables 11 to 12" in html
    knobs = html.split("tables 11 to 12")[1].split("</table>")[0]
    assert "Table 12</th>" in knobs and "Table 10</th>" not in knobs


def test_a_knobs_star_marks_where_its_rule_changes_from_the_table_below(fac, owner):
    """The star was on every value that differed from either neighbour (16 of 20
    cells); now on those that differ from the table numbered one below, and a screen
    reader hears which table that is, as the key says to the eye."""
    w = make_workshop(players=12, tables=12, seats=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    rev = report.reveal(export.workshop_document(w))
    changes = sum(len(p["knobs"]) for p in rev["pairs"])
    starred = re.findall(
        r'<td class="differs"><span aria-hidden="true">★ </span>[^<]*<span class="visually-hidden"> \(differs from table (\d+)\)</span></td>',
        html,
    )
    assert changes and len(starred) == changes == html.count('<td class="differs">')
    # Each starred value's table (in the page's order) is the one after the table it
    # names: table 1 has none.
    marked = [
        c["table"] for b in rev["blocks"] for row in b["rows"] for c in row["cells"] if c["differs"]
    ]
    assert 1 not in marked and [int(n) + 1 for n in starred] == marked
    assert "differs from the table numbered one below" in html
    assert "neighbouring" not in html


def test_a_newcomers_chip_in_the_seating_grid_says_its_home_table_in_words(fac, played):
    """A newcomer's home table showed only as the colour of their chip's bar (no key
    said which colour was which, and print may be black and white), and a screen
    reader heard only where they came from. Now the chip says "home 2", heard as
    "(home table 2)"; a player at their home table is underlined, as before."""
    html = fac.get(f"/workshops/{played.pk}/report/").content.decode()
    grid = html.split('<table class="grid">')[1].split("</table>")[0]
    assert "home 2</span> = a newcomer from home table 2" in grid  # the key
    chips = re.findall(r'<li class="chip home-(\d+)( local)?">(.*?)</li>', grid)
    newcomers = [(home, text) for home, local, text in chips if not local]
    assert newcomers and len(newcomers) < len(chips)
    for home, text in newcomers:
        assert text.endswith(
            f' <span class="home-of" aria-hidden="true">home {home}</span>'
            f'<span class="visually-hidden">(home table {home})</span>'
        ), text
    for _home, local, text in chips:
        if local:
            assert "home-of" not in text and text.endswith("(home table)</span>"), text


def test_the_headline_says_how_many_games_were_in_scored_rounds(fac, owner):
    """'1 scored round · 4 games' counted the silent home round's games too."""
    w = make_workshop(players=8, tables=2)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_home(w)
    # The report counts the silent home round and the scored ones (study is practice),
    # but not a game the round's end cut before anyone played it.
    home = Game.objects.filter(table__workshop=w, round__kind="home")
    finish_trick(home.first())  # someone played at one home table: that game counts
    rnd = services.round_start(workshop_id=w.pk)
    games = Game.objects.filter(table__workshop=w, round__kind__in=["home", "scored"])
    scored = games.filter(round=rnd).count()
    played = games.count() - (home.count() - 1)
    assert home.count() > 1 and played > scored > 0
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert f"{played} games ({scored} in scored rounds)" in html


def test_a_sheet_played_at_several_tables_is_shown_once_with_them(fac, owner):
    """Forty tables repeat Five Tricks' seventeen sheets: the reveal showed forty sheet
    cards (ten printed pages). Each different sheet is one card naming its tables;
    the knob table still has every table."""
    w = services.workshop_create(name="Conference", facilitator=owner, table_count=20, seed=3)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    cards = re.findall(r'<section class="sheet-card"[^>]*>\s*<h3[^>]*>([^<]*)</h3>', html)
    assert len(cards) == 17 and "20 tables played 17 different sheets." in html
    named = [int(n) for c in cards for n in re.findall(r"\d+", c)]
    assert sorted(named) == list(range(1, 21))  # every table under one card, once
    rules = {t.number: t.rules for t in Workshop.objects.get(pk=w.pk).tables.all()}
    shared = [c for c in cards if c.startswith("Tables ")]
    assert len(shared) == 3, cards  # 20 tables, 17 sheets
    for card in shared:
        numbers = [int(n) for n in re.findall(r"\d+", card)]
        assert re.fullmatch(r"Tables \d+(, \d+)* and \d+", card)
        assert all(rules[n] == rules[numbers[0]] for n in numbers)
        assert f"The whole sheet of {card.lower()}" not in html  # Five Tricks: sections shown
    assert html.count('<table class="knobs">') == 2


def test_another_games_shared_sheet_opens_as_the_sheet_of_its_tables(fac, owner):
    from games import kinds

    distinct = len(set(kinds.get("seven_up").presets.values()))
    w = services.workshop_create(
        name="Sevens",
        facilitator=owner,
        game="seven_up",
        table_count=distinct + 1,
        seats_per_table=3,
    )
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert html.count('<section class="sheet-card"') == distinct
    assert re.search(r"<summary>The whole sheet of tables \d+ and \d+</summary>", html)


def test_the_guide_leaves_a_table_of_bots_alone_out_and_words_its_counts(monkeypatch):
    """7Up's guide named "Round 1, table 2: Bot C won most games (1); Bot B, Bot D and
    Bot E fewest (0)" of a table with no student at it. The page said "1 of 1 trick
    were judged" and "1 gesture and drawings"."""
    w = services.workshop_create(
        name="Bids", table_count=2, seats_per_table=3, seed=3, game="seven_up", bots_enabled=True
    )
    # The games' seeds fixed: dealt so that the bots' table ends with a most and a fewest.
    monkeypatch.setattr("tournament.services.play.secrets.randbits", lambda bits: 1)
    services.player_join(workshop_id=w.pk, name="Ana")
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    rnd = to_scored_round(w)
    for _ in range(40):
        timers.tick(bot_delay=0)
    services.round_end_now(round_id=rnd.pk)
    doc = json.loads(json.dumps(export.workshop_document(w)))
    r = report.build_report(doc)
    ix = report.Index(doc)
    bots_only = [
        t["table"]
        for rd in r["results"]
        if rd["scored"]
        for t in rd["tables"]
        if not t["tied"] and all(ix.players[x["id"]]["is_bot"] for x in t["players"])
    ]
    assert bots_only, "no table of bots alone had a most and a fewest: nothing to test"
    act = next(q["data"] for q in r["guide"] if q["id"] == "act")
    assert not [line for line in act for n in bots_only if f"table {n}:" in line], act
    html = render_to_string("report/page.html", {"r": r, "workshop": w})
    assert "<strong>0</strong> gestures and drawings</li>" in html
    assert_links_land(html)
    r["counts"]["gestures"] = 1
    assert "<strong>1</strong> gesture or drawing</li>" in render_to_string(
        "report/page.html", {"r": r, "workshop": w}
    )
    # One trick of one judged differently "was", as a revoke line of All Fives says it.
    counts = dict.fromkeys(("revokes", "by_newcomers", "upheld", "unnoticed", "refused"), 0)
    line = report._revoke_lines({"totals": {**counts, "clashes": 1, "tricks": 1}})[-1]
    assert line.startswith("1 of 1 trick was judged differently"), line


def test_one_clash_of_one_trick_was_judged_and_a_dispute_was_a_newcomers():
    w = make_workshop(players=4, tables=1)
    to_scored_round(w)
    finish_trick(game_at(tables_of(w)[0]))
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    r["clashes"].update(clash_count=1, tricks=1)
    r["players"][0].update(disputes=3, as_newcomer=2)
    html = render_to_string("report/page.html", {"r": r, "workshop": w})
    assert "1 of 1 trick was judged differently" in html
    assert "(2 as a newcomer)" in html
    # None as a newcomer is said by no note; every one, in words ("3 (3 as a newcomer)").
    for disputes, newcomer, said in ((3, 0, None), (2, 2, "both"), (4, 4, "all")):
        r["players"][0].update(disputes=disputes, as_newcomer=newcomer)
        html = render_to_string("report/page.html", {"r": r, "workshop": w})
        cell = f"<td>{disputes}"
        assert (
            cell + " <span" not in html
            if said is None
            else (f'{cell} <span class="muted">({said} as a newcomer)</span></td>' in html)
        ), (disputes, newcomer)
        assert f"({newcomer} as a newcomer)" not in html


def test_a_large_class_s_chart_alt_texts_name_tables_that_are_on_the_page(fac, owner):
    """Fifteen tables of three: the charts' alt texts sum up, and the tables they send
    a listener to are there, captioned as they say."""
    import html as html_lib

    from tournament import report_charts

    w = bots_played(owner, name="Fifteen", tables=15, seats=3, ticks=2)
    page = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    alts = [
        html_lib.unescape(alt)
        for alt in re.findall(r'<img src="data:image/svg\+xml;base64,[^"]+" alt="([^"]+)"', page)
    ]
    # Past twelve tables the movement chart is folded, its summary in view above it
    # (the image's own text then points back to it instead of repeating it).
    alts.append(listed_line(page, "chart-summary"))
    summed = [alt for alt in alts if "“" in alt]
    assert any(a.startswith("Line chart: where each player sat") for a in summed), alts
    # The disputes chart's sums up, or names only where there were disputes (a few, short).
    disputes = next(a for a in alts if a.startswith("Bar chart: disputes per table and round"))
    assert disputes in summed or not re.search(r"\b0\b", disputes), disputes
    assert all(len(alt) <= report_charts.ALT_MAX for alt in alts), [len(a) for a in alts]
    captions = [
        re.sub(r"<[^>]+>", "", c)
        for c in re.findall(r"<(?:caption|h2)[^>]*>(.*?)</(?:caption|h2)>", page, re.S)
    ]
    for alt in summed:
        for named in re.findall(r"“([^”]+)”", alt):
            assert any(named in c for c in captions), (named, captions)


def test_past_twenty_clashes_the_list_of_every_clash_is_folded_and_its_print_line_says_so():
    """The trick-by-trick clash list was folded in every report, a small class's one
    clash too, where the list of every dispute folds only past twenty (report.FOLD_ROWS).
    It folds by the same rule now: a few stay open to read; past twenty it folds, its
    print line naming the summary to open and tricks.csv, its summary a fold's."""
    import tournament_helpers

    assert "tricks" in export.CSV_KINDS  # the file its print line names
    w = make_workshop(players=4, tables=1)
    to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW])
    tournament_helpers.claim_all(game, open_dispute(game).claims[0])  # a clash, settled
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    one = r["clashes"]["clash_tricks"]
    assert len(one) == 1 == r["clashes"]["clash_count"]
    html = render_to_string("report/page.html", {"r": r, "workshop": w})
    assert 'id="every-clash"' not in html and "trick by trick" not in html
    assert '<table class="clash-list">' in html
    section = html.split('<section id="matrix"')[1].split("</section>")[0]
    assert "<details" not in section and "</details>" not in section
    r["clashes"] = {**r["clashes"], "clash_tricks": one * 20, "clash_count": 20}
    assert 'id="every-clash"' not in render_to_string("report/page.html", {"r": r, "workshop": w})
    r["clashes"] = {**r["clashes"], "clash_tricks": one * 21, "clash_count": 21}
    html = render_to_string("report/page.html", {"r": r, "workshop": w})
    assert (
        '<p class="print-only muted">The list of all 21 clashes, trick by trick, is left out'
        " of print: open “All 21 clashes, trick by trick” on screen before printing to"
        ' include it, or see tricks.csv.</p>\n  <details class="print-if-open fold"'
        ' id="every-clash"><summary>All 21 clashes, trick by trick</summary>'
    ) in html
    fold = html[html.index('<details class="print-if-open fold" id="every-clash">') :]
    assert fold.index('<table class="clash-list">') < fold.index("</details>")
    assert_links_land(html)


def test_past_twenty_disputes_the_list_of_every_dispute_is_folded():
    """At 200 players the table of every dispute (195 rows) was 30,000 px of a report
    98,000 px long, drawn open (found by a review). Past twenty it is folded, as the
    list of every clash is; a class's handful stay open."""
    assert "disputes" in export.CSV_KINDS  # the file its print line names
    w = make_workshop(players=4, tables=1)
    to_scored_round(w)
    open_dispute(set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW]))
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    one = r["clashes"]["disputes"]
    assert len(one) == 1
    html = render_to_string("report/page.html", {"r": r, "workshop": w})
    assert 'id="every-dispute"' not in html and '<table class="disputes">' in html
    r["clashes"]["disputes"] = one * 21
    html = render_to_string("report/page.html", {"r": r, "workshop": w})
    # Drawn by {% fold %}, as the other folds are: the print line names the summary to
    # open and the CSV that has every dispute; the summary is a fold's, big to tap.
    assert (
        '<p class="print-only muted">The table of all 21 disputes is left out of print: open'
        " “All 21 disputes, one by one” on screen before printing to include it, or see"
        ' disputes.csv.</p>\n  <details class="print-if-open fold" id="every-dispute">'
    ) in html
    fold = html[html.index('<details class="print-if-open fold" id="every-dispute">') :]
    assert fold.startswith(
        '<details class="print-if-open fold" id="every-dispute"><summary>All 21 disputes, one by'
    )
    assert fold.index('<table class="disputes">') < fold.index("</details>")
    assert_links_land(html)


def test_a_large_class_s_one_move_is_said_in_the_singular():
    """Past twelve tables the list of moves folds under "All 1 moves between rounds"
    where there was one (found reading the movement section for plural slips)."""
    w = make_workshop(players=4, tables=1)
    to_scored_round(w)
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    move = {"label": "Round 1", "name": "Ana", "from": 1, "to": 2, "direction": "up"}
    r["folded"] = True
    r["movement"]["listed"] = [{**move, "by_name": False, "edited": False}]
    html = render_to_string("report/page.html", {"r": r, "workshop": w})
    summary, note, held = folds_of(html)["every-move"]
    assert summary == "The one move between rounds"
    assert note.startswith("The list of the one move is left out of print: open “The one")
    r["movement"]["listed"] *= 2
    html = render_to_string("report/page.html", {"r": r, "workshop": w})
    assert folds_of(html)["every-move"][0] == "All 2 moves between rounds"


def test_disputes_without_a_winner_are_not_timed_nor_counted_in_zeros():
    """Read as an instructor would, a class whose disputes were all cut short (or are
    open) read "Time to resolve (settled or timed out): median — s, mean — s, longest
    — s" and two lines counting the winners' sheets, eight zeros: it says there was
    no winner instead. A dispute that ended with a winner is timed and counted."""
    w = make_workshop(players=4, tables=1)
    to_scored_round(w)
    open_dispute(set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW]))
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    assert r["clashes"]["dispute_count"] == 1 and r["clashes"]["with_winner"] == 0

    def facts(r) -> str:
        html = render_to_string("report/page.html", {"r": r, "workshop": w})
        return re.search(r'<ul class="facts">(.*?)</ul>', html, re.S).group(1)

    said = facts(r)
    assert "—" not in said and "Time to resolve" not in said and "The winner was" not in said
    assert (
        "<li>The dispute ended without a winner (cut short, or still open): it has no time"
        " to resolve and no winning sheet.</li>"
    ) in said
    two = {**r["clashes"], "disputes": r["clashes"]["disputes"] * 2, "dispute_count": 2}
    assert "<li>No dispute ended with a winner (each was cut short, or is still open)" in facts(
        {**r, "clashes": two}
    )
    # One settled: its time and its sheets said, the no-winner line not.
    settled = {
        **r["clashes"],
        "with_winner": 1,
        "duration": {"count": 1, "median": 12.0, "mean": 12.0, "max": 12.0},
        "winners_said": report.winners_sheets_said(
            {**r["clashes"]["support"], "majority": 1}, {**r["clashes"]["origins"], "local": 1}
        ),
    }
    said = facts({**r, "clashes": settled})
    assert "median 12.0 s, mean 12.0 s, longest 12.0 s" in said
    assert "<li>In the one dispute with a winner, the winner was the verdict of most" in said
    assert "<li>The winner was named by the locals&#x27; sheet alone.</li>" in said
    assert "without a winner" not in said


def test_past_sixty_players_the_per_player_table_shows_twenty_and_folds_the_rest():
    """At 200 players the per-player table was 12,800 px of the report, drawn open
    (found by a review); players.csv holds the same figures. Past sixty players the
    first twenty rows stay in view and the rest are folded, and printed only when
    opened, as the list of every dispute is."""
    w = make_workshop(players=4, tables=1)
    to_scored_round(w)
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    row = r["players"][0]

    def players_section(n: int) -> str:
        r["players"] = [{**row, "name": f"Pupil {i:03}"} for i in range(1, n + 1)]
        html = render_to_string("report/page.html", {"r": r, "workshop": w})
        assert_links_land(html)
        return html.split('<section id="players"', 1)[1].split("</section>", 1)[0]

    def names(html: str) -> list[str]:
        return re.findall(r"<bdi>(Pupil \d+)</bdi>", html)

    sixty = players_section(60)
    assert "<details" not in sixty and "print-only" not in sixty
    assert sixty.count('<table class="players">') == 1 and len(names(sixty)) == 60

    for n in (61, 200):
        section = players_section(n)
        # Drawn by {% fold %} as the other long lists are (it was a <details> of its
        # own, its summary not a fold's, big to tap, its print line in other words).
        shown, rest = section.split('<details class="print-if-open fold" id="every-player">', 1)
        assert names(shown) == [f"Pupil {i:03}" for i in range(1, 21)]
        assert rest.startswith(f"<summary>Show the other {n - 20} players</summary>")
        assert folds_of(section)["every-player"][:2] == (
            f"Show the other {n - 20} players",
            f"The table of the other {n - 20} players is left out of print: open “Show the"
            f" other {n - 20} players” on screen before printing to include it, or see"
            " players.csv.",
        )
        assert names(rest) == [f"Pupil {i:03}" for i in range(21, n + 1)]
        assert rest.index('<table class="players">') < rest.index("</details>")
        # The folded table says what it is, and has the same column headers.
        caption = re.search(r"<caption>(.*?)</caption>", rest, re.S).group(1)
        assert caption == f"The other {n - 20} players, in the same columns as above"
        head = re.compile(r"<thead>.*?</thead>", re.S)
        assert head.findall(shown) == head.findall(rest)


# The folds a report of more than report.FOLD_TABLES tables has, by id (the results'
# are "res-<round>-tables", one per round, and the seating's "seating-<column>"; the
# class's view has "class-seating" instead of the chart, the moves and the seating).
TABLE_FOLDS = ("every-pair", "every-sheet", "movement-chart", "every-move", "clashes-by-table")
FOLD = re.compile(r'<details class="print-if-open fold" id="([^"]+)"><summary>(.*?)</summary>')


def folds_of(html: str) -> dict[str, tuple[str, str, str]]:
    """Each fold of a large class's report: (its summary, the print note just before
    it, what it holds)."""
    found = {}
    for m in FOLD.finditer(html):
        note = re.search(r'<p class="print-only muted">([^<]*)</p>\s*$', html[: m.start()])
        depth, end = 1, m.end()
        for tag in re.finditer(r"<(/?)details\b", html[m.end() :]):
            depth += -1 if tag.group(1) else 1
            if not depth:
                end = m.end() + tag.start()
                break
        found[m.group(1)] = (m.group(2), note.group(1) if note else "", html[m.end() : end])
    return found


def listed_line(html: str, name: str) -> str:
    """A summary the page shows as a lead sentence and a list, a line a round
    (templates/report/_listed.html), read back as the one line report.listed's
    `line` says, unescaped."""
    block = re.search(rf'<div class="{name} listed">(.*?)</div>', html, re.S).group(1)
    lead = re.search(r"<p>(.*?)</p>", block, re.S).group(1)
    items = re.findall(r"<li>(.*?)</li>", block, re.S)
    # What follows the list: a paragraph, or a short sentence a paragraph.
    after = re.findall(r"<p>(.*?)</p>", block.split("</ul>", 1)[1], re.S) if items else []
    line = lead + (f" {'; '.join(items)}." if items else "") + "".join(f" {p}" for p in after)
    return html_lib.unescape(line)


def test_past_twelve_tables_the_long_sections_fold_and_a_line_of_each_stays(fac, owner):
    """At 200 players (40 tables) the report was 60,000 px on a laptop, 115,000 on a
    phone: 120 result cards, a 7,900 px chart and a seating grid of 40 rows, 40 sheets
    (found by a review). Past twelve tables they fold, as the per-player rows do past
    sixty players: closed, each printed only when opened on screen (a line says so);
    what sums them up stays in view: each round's line, the chart's alt text."""
    w = bots_played(owner, name="Thirteen", tables=13, seats=3, ticks=2, seed=4)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert_links_land(html)
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    assert r["folded"]
    folds = folds_of(html)
    rounds = [rd["round"] for rd in r["results"]]
    columns = r["movement"]["columns"]
    assert rounds and len(columns) > 1
    assert sorted(folds) == sorted(
        [*TABLE_FOLDS, *(f"res-{n}-tables" for n in rounds)]
        + [f"seating-{i}" for i in range(1, len(columns) + 1)]
    )
    for summary, note, _ in folds.values():
        assert " is left out of print: open “" in note, note
        assert f"open “{summary}” on screen before printing to include" in note, note
    # Results: each round's line in view, its 13 cards folded.
    for rd in r["results"]:
        section = html.split(f'<section class="round" aria-labelledby="res-{rd["round"]}">')[1]
        section = section.split("</section>", 1)[0]
        summary, note, held = folds[f"res-{rd['round']}-tables"]
        assert summary == f"{rd['label']}: each of the 13 tables, its players and games"
        line = listed_line(section, "round-summary")
        assert line == rd["summary"]["line"] and line.startswith("13 tables, 39 players: ")
        assert section.index('class="round-summary listed"') < section.index("<details")
        assert held.count('<div class="result-card">') == 13
        assert section.count('<div class="result-card">') == 13
        assert note.endswith("or see games.csv.")
    # Movement: the chart folded, its alt text in view before it.
    # A lead, a line for each step between two columns (one sentence of 470 characters
    # at 200 players was a list in a sentence), the rest after.
    block = re.search(
        r'<div class="chart-summary listed"><p>([^<]*)</p>\s*<ul>(.*?)</ul>((?:\s*<p>[^<]*</p>)+)',
        html,
        re.S,
    )
    assert block.group(1) == (
        "Line chart: where each player sat, round by round: 39 players at 13 tables."
        " Changed tables:"
    )
    steps = re.findall(r"<li>([^<]*)</li>", block.group(2))
    assert [re.sub(r"^(\d+|nobody) ", "", i) for i in steps] == [
        f"from {a['label']} to {b['label']}" for a, b in zip(columns, columns[1:], strict=False)
    ]
    # After the list, a short sentence a paragraph (one paragraph of about 250
    # characters held who never moved, who moved most and where the tables are).
    closing = [html_lib.unescape(p) for p in re.findall(r"<p>([^<]*)</p>", block.group(3))]
    assert re.fullmatch(r"\d+ never changed tables\.", closing[0]), closing
    assert closing[-1] == "Each player's journey is in “Per player”.", closing
    assert all(len(p) <= 110 for p in closing), closing
    chart_line = " ".join(closing)
    summary, note, held = folds["movement-chart"]
    assert summary == "Show the chart, a line for each of the 39 players"
    # Heard once: opened, the chart's own text points back to the line (it repeated it).
    assert closing[0] not in held and re.search(r'alt="[^"]*: summed up above"', held)
    assert block.end() < html.index('id="movement-chart"')
    # It names the tables that hold who sat where: each round's, folded after the chart
    # (it said "under the chart", where the chart and the seating are both folded).
    assert "under the chart" not in chart_line
    named = re.search(
        r"Who sat where is in the tables “(.*?)”, one a round, folded after the chart\.",
        chart_line,
    )
    assert named, chart_line
    for i, col in enumerate(columns, start=1):
        assert f"<caption>{named.group(1)}: {col['label']} (" in folds[f"seating-{i}"][2]
    assert html.index('id="movement-chart"') < html.index('id="seating-1"')
    # Each round's seating: every table, every one seated then.
    for i, c in enumerate(r["movement"]["by_column"], start=1):
        summary, note, held = folds[f"seating-{i}"]
        assert summary == f"{columns[i - 1]['label']}: who sat at each of the 13 tables"
        assert re.findall(r'<th scope="row">Table (\d+)</th>', held) == [
            str(n) for n in range(1, 14)
        ]
        seated = sorted(p["name"] for row in c["rows"] for p in row["cell"])
        assert sorted(re.findall(r"<bdi>([^<]+)</bdi>", held)) == seated and seated
    assert '<table class="moves">' in folds["every-move"][2]
    # Reveal: the knob table in view, the pairs of neighbouring tables (a line a pair)
    # folded under a lead and a list counting them, a rule a line, the sheets folded.
    pairs = r["reveal"]["pairs"]
    summary, note, held = folds["every-pair"]
    assert summary == "Each of the 12 pairs of neighbouring tables"
    assert held.count("<li>Tables ") == len(pairs) == 12
    order = [row["knob"] for row in r["reveal"]["rows"]]
    said = report.pairs_summary(pairs, order=order)
    assert r["reveal"]["pairs_summary"] == said and len(said["items"]) > 1
    assert listed_line(html, "pairs-summary") == said["line"]
    block = re.search(r'<div class="pairs-summary listed"><p>([^<]*)</p>\s*<ul>(.*?)</ul>', html)
    assert block.group(1).endswith(" pairs of neighbouring tables differed, rule by rule:")
    assert re.findall(r"<li>([^<]*)</li>", block.group(2)) == [
        html_escape(i) for i in said["items"]
    ]
    assert all(re.fullmatch(r"[^;]+ in \d+ pairs?", i) for i in said["items"]), said
    at = block.start()
    assert html.index('<table class="knobs">') < at < html.index('id="every-pair"')
    assert '<ul class="pairs">' in held and html.count('<ul class="pairs">') == 1
    assert html.index('<table class="knobs">') < html.index('id="every-sheet"')
    sheets = folds["every-sheet"][2]
    assert sheets.count('<section class="sheet-card"') == len(r["reveal"]["sheet_groups"])
    assert html.count('<section class="sheet-card"') == len(r["reveal"]["sheet_groups"])


# A cell's counts (disputes, clashes, tricks, timed out, cut short); none is said in
# words ("no dispute", "no clash in 5 tricks", "no trick played to the end"): 0.
CLASH_CELL = re.compile(
    r'<td>(?:(\d+) disputes?|no dispute)<br><span class="muted">'
    r"(?:(?:(\d+) clash(?:es)?|no clash) in (\d+) tricks?|no trick played to the end)"
    r"(?:; (\d+) timed out)?(?:; (\d+) cut short, no trick)?</span></td>"
)


@pytest.fixture
def thirteen(owner):
    """Thirteen tables of three, five sheets between them, played long enough for
    tricks, clashes and disputes."""
    sheets = {n: f"guide-{n % 5 + 1}" for n in range(1, 14)}
    return bots_played(owner, name="Thirteen", tables=13, seats=3, sheets=sheets, ticks=14, seed=4)


def test_past_twelve_tables_the_clash_table_folds_under_a_line_of_its_totals(fac, thirteen):
    """At 200 players the table of tricks, clashes and disputes per table and round was
    2,700 px of a laptop, 8,800 of a phone. Past twelve tables it folds as the results
    do; its line says each round's totals, added up from the table, and the busiest
    table, so a facilitator can teach from it without opening it."""
    html = fac.get(f"/workshops/{thirteen.pk}/report/").content.decode()
    r = report.build_report(json.loads(json.dumps(export.workshop_document(thirteen))))
    summary, note, held = folds_of(html)["clashes-by-table"]
    assert summary == "Each of the 13 tables, round by round: tricks, clashes and disputes"
    assert note.startswith("The table of tricks, clashes and disputes per table and round is")
    assert note.endswith("or see tricks.csv.")
    line = listed_line(html, "clashes-summary")
    assert line == r["clashes"]["summary"]["line"]
    assert html.index('class="clashes-summary') < html.index('id="clashes-by-table"')
    # The whole table is in the fold, and the line's figures are its cells added up.
    rows = re.findall(r'<tr><th scope="row">Table (\d+)</th>(.*?)</tr>', held)
    assert [int(n) for n, _ in rows] == list(range(1, 14))
    cells = [[[int(x or 0) for x in c] for c in CLASH_CELL.findall(tds)] for _, tds in rows]
    labels = [rd["label"] for rd in r["clashes"]["rounds"]]
    assert len(labels) == 2 and all(len(row) == 2 for row in cells)
    for i, label in enumerate(labels):
        disputes, clashes, tricks, timeouts, cut = (
            sum(row[i][k] for row in cells) for k in range(5)
        )
        said = re.search(
            rf"{label}, (?:(?:(\d+) clash(?:es)?|no clash) in (\d+) tricks?|no trick played to"
            r" the end), (?:(\d+) disputes?|no dispute)"
            r"(?: \((\d+) timed out\))?(?:, (\d+) claim steps? cut short with no trick)?[;.]",
            line,
        )
        assert said, (label, line)
        assert [int(x or 0) for x in said.groups()] == [clashes, tricks, disputes, timeouts, cut]
    most = max(row[i][0] for row in cells for i in range(2))
    assert most and f"The most disputes at one table in a round: {most}, " in line
    # Not a class with nothing in it: tricks, disputes, claim steps cut by the round's
    # end (the bots' clashes are counted in the pure test of report.clashes_summary).
    assert line.startswith("13 tables, round by round: Round 1, no clash in ")
    assert all(sum(row[i][k] for row in cells for i in range(2)) for k in (0, 2, 4))


def test_past_twelve_tables_the_class_view_folds_its_tables_under_their_totals(fac, thirteen):
    """The class's view (the projector) has a 13-row table of counts per round, and one
    of how many sat at each table: past twelve tables each folds under a line of its
    totals, the figures of its "All tables" row, or its cells added up (a player who
    moved back to their home table counted as moved and at home in a cell, once in the
    line; those who stayed where an earlier move took them counted too). No
    CSV is named: the class's view links none."""
    html = fac.get(f"/workshops/{thirteen.pk}/report/?view=class").content.decode()
    assert_links_land(html)
    folds = folds_of(html)
    r = report.build_report(json.loads(json.dumps(export.workshop_document(thirteen))))
    rounds = [rd["round"] for rd in r["results"]]
    moves_after = []
    assert sorted(folds) == sorted(
        [
            "every-pair",
            "every-sheet",
            "class-seating",
            "clashes-by-table",
            *(f"res-{n}-tables" for n in rounds),
        ]
    )
    for summary, note, _ in folds.values():
        assert f"open “{summary}” on screen before printing to include it." in note, note
        assert ".csv" not in note
    # Each round: its line of totals in view, the table of 13 rows folded, whose
    # "All tables" row has the line's figures.
    for rd in r["results"]:
        section = html.split(f'<section class="round" aria-labelledby="res-{rd["round"]}">')[1]
        section = section.split("</section>", 1)[0]
        line = listed_line(section, "round-summary")
        summary, note, held = folds[f"res-{rd['round']}-tables"]
        assert summary == f"{rd['label']}: each of the 13 tables, its games, disputes and moves"
        assert section.index('class="round-summary listed"') < section.index("<details")
        assert len(re.findall(r'<th scope="row">Table \d+</th>', held)) == 13
        foot = re.search(r"<tfoot><tr><th scope=\"row\">All tables</th>(.*?)</tr>", held).group(1)
        players, games, disputes, up, down, stayed = (
            int(x) for x in re.findall(r"<td>(\d+)", foot)
        )
        # A lead, then a line each: games, disputes, the moves after it.
        block = re.search(
            r'<div class="round-summary listed"><p>([^<]*)</p>(.*?)</div>', section, re.S
        )
        assert block.group(1) == f"13 tables, {players} players:" and players == 39
        items = re.findall(r"<li>([^<]*)</li>", block.group(2))
        cut = re.search(r"\((\d+) cut short\)", foot)
        # Every game cut short: said once ("13 games, all cut short").
        every = re.search(r"<td>\d+, ((?:both |all )?cut short)</td>", foot)
        said = f"{games} game{'s' * (games != 1)}" + (
            f" ({cut.group(1)} cut short)" if cut else f", {every.group(1)}" if every else ""
        )
        said_disputes = f"{disputes} dispute{'s' * (disputes != 1)}" if disputes else "no dispute"
        assert items[:2] == [said, said_disputes]
        if rd["moved"]:
            said = f"{up or 'none'} up, {down or 'none'} down, {stayed or 'none'} stayed"
            assert items[2] == f"moves after it: {said}"
            moves_after.append(said)
        # Said once, in the line: not again under the folded table.
        assert section.count("The last round: nobody moves after it.") == ("The last round" in line)
    # Section 2 said each round's moves again under the seating, a list a round, the
    # same figures as the rounds' lines in section 3 (and by-name notes): it now says
    # where they are, once, and no figure of them.
    movement = html.split('id="h-movement"')[1].split("</section>", 1)[0]
    assert moves_after and "after-summary" not in movement
    assert "After Round" not in movement.split("</details>")[-1]
    assert re.search(
        r'<p class="after-pointer">How many moved up, moved down or stayed after each round,'
        r' and what decided it, is in <a href="#results">3 Results</a>, under each round\.</p>',
        movement,
    )
    assert "decided by name" not in movement
    # The seating: the grid folded, its line the cells added up, round by round.
    line = listed_line(html, "seating-summary")
    summary, note, held = folds["class-seating"]
    assert summary == "Each of the 13 tables, round by round: how many sat there"
    assert html.index('class="seating-summary') < html.index('id="class-seating"')
    rows = re.findall(r'<tr><th scope="row">Table \d+</th>(.*?)</tr>', held, re.S)
    assert len(rows) == 13
    for i, col in enumerate(r["movement"]["columns"]):
        tds = [re.findall(r"<td>(.*?)</td>", row)[i] for row in rows]

        def added(pattern, tds=tds):
            return sum(int(m) for td in tds for m in re.findall(pattern, td))

        players = added(r"<strong>(\d+)</strong> players?")
        up, down = added(r"(\d+) moved up"), added(r"(\d+) moved down")
        home, back = added(r"(\d+) at home"), added(r", (\d+) of them moved back home")
        away = added(r"(\d+) stayed where an earlier move took them")
        # Each player in one part of the cell (those who moved back home are counted as
        # moved and as at home: said so).
        assert up + down + home - back + away == players
        said = f"{col['label']}, {players} players"
        if home == players:
            assert re.search(re.escape(f"{said}, all at their home table") + "[;.]", line), line
        else:
            # Where they sat, each once; not again who moved (section 3's line says it).
            said += (
                f": {home or 'nobody'} at their home table and {players - home} at another table"
            )
            assert re.search(re.escape(said) + "[;.]", line), (said, line)
    assert line.startswith("13 tables, at the start of each round: ") and "moved" not in line
    assert folds["clashes-by-table"][0].startswith("Each of the 13 tables, round by round")


def refused_at_every_other_game(w: Workshop) -> int:
    """A refused move or two at most games of the scored rounds (bots are never
    refused), by the seat's players in turn, their own rules allowing it or not:
    the refusals a class of people would leave. How many were written."""
    games = Game.objects.filter(round__workshop=w, round__kind="scored").order_by("pk")
    n = 0
    for i, g in enumerate(games):
        for k in range(i % 3):
            RefusedAttempt.objects.create(
                workshop=w,
                round=g.round,
                table=g.table,
                game=g,
                player_id=g.players[k % len(g.players)],
                seat=k % len(g.players),
                action={"type": "play", "card": "2C"},
                reason="That card is not allowed here.",
                own_rules_allow=(True, False, None)[i % 3],
                created_at=g.round.started_at + timedelta(seconds=i + k),
            )
            n += 1
    return n


ROW = re.compile(r'<tr><th scope="row">([^<]+)</th>((?:<td>\d+</td>)+)</tr>')


def rows_of(held: str) -> list[tuple[str, list[int]]]:
    """A folded table of counts per round and table: (its row's round, its numbers)."""
    return [
        (rd, [int(x) for x in re.findall(r"<td>(\d+)</td>", tds)]) for rd, tds in ROW.findall(held)
    ]


def per_round(rows, column: int) -> dict[str, int]:
    """A column of `rows_of` added up per round, in the rounds' order."""
    out: dict[str, int] = {}
    for rd, cells in rows:
        out[rd] = out.get(rd, 0) + cells[column]
    return out


def the_most_said(rows, column: int, what: str, line: str) -> None:
    """The line ends naming the largest cell of `column` and where (up to three
    places, then how many tables in each round); nothing where every cell is 0."""
    top = max(cells[column] for _, cells in rows)
    if not top:
        assert "The most" not in line, line
        return
    at = {}
    for rd, cells in rows:
        at.setdefault(rd, [])
        if cells[column] == top:
            at[rd].append(cells[0])

    def listed(words: list) -> str:
        return (", ".join(map(str, words[:-1])) + " and " if len(words) > 1 else "") + str(
            words[-1]
        )

    named = sum(map(len, at.values())) <= 3
    where = [
        (
            f"table{'s' * (len(t) > 1)} {listed(sorted(t))}"
            if named
            else f"{len(t)} table{'s' * (len(t) != 1)}"
        )
        + f" in {rd}"
        for rd, t in at.items()
        if t
    ]
    said = "at " + listed(where)
    assert line.endswith(f" The most {what} at one table in a round: {top}, {said}."), line


def test_past_twelve_tables_all_fives_revokes_fold_under_a_line_of_their_totals(fac, owner):
    """All Fives' table of revokes and calls has a row per round and table: 80 at 40
    tables. Past twelve it folds as the clash table does, under a line of each
    round's totals added up from its rows; revokes.csv has every revoke and call. The
    class's view folds it too, naming no CSV."""
    w = bots_played(owner, name="Fives", tables=13, seats=2, ticks=6, seed=5, game="all_fives")
    for view in ("", "?view=class"):
        html = fac.get(f"/workshops/{w.pk}/report/{view}").content.decode()
        assert_links_land(html)
        summary, note, held = folds_of(html)["revokes-by-table"]
        assert summary == "Each of the 13 tables, round by round: revokes and calls"
        assert note.startswith("The table of revokes and calls per round and table is left out")
        assert note.endswith("or see revokes.csv.") if not view else ".csv" not in note
        line = listed_line(html, "revokes-summary")
        assert html.index('class="revokes-summary') < html.index('id="revokes-by-table"')
        # Round, table, tricks, judged differently, revokes, by newcomers, called, not
        # called, calls refused: each round's added up, as the line says them.
        rows = [(rd, [int(t), *cells]) for rd, (t, *cells) in rows_of(held)]
        assert len(rows) == 26 and sorted({c[0] for _, c in rows}) == list(range(1, 14))

        def revokes_said(rd: str, rows=rows) -> str:
            revokes, refused = per_round(rows, 3)[rd], per_round(rows, 7)[rd]
            calls = f"{refused} call{'s' * (refused != 1)} refused"
            if not revokes:  # said once (home play has none: one sheet a table)
                return ", no revokes" + (f", {calls}" if refused else "")
            newcomers, called = per_round(rows, 4)[rd], per_round(rows, 5)[rd]
            missed = per_round(rows, 6)[rd]
            # Only counts above nought: "(all by newcomers)", "none called".
            by = (
                ""
                if not newcomers
                else f" ({newcomers} by newcomers)"
                if newcomers < revokes
                else " (by a newcomer)"
                if revokes == 1
                else " (all by newcomers)"
            )
            if not missed:
                how = {1: "called", 2: "both called"}.get(revokes, "all called")
            elif not called:
                how = "not called" if revokes == 1 else "none called"
            else:
                how = f"{called} called and {missed} not called"
            return f", {revokes} revoke{'s' * (revokes != 1)}{by}: {how}" + (
                f", {calls}" if refused else ""
            )

        said = "; ".join(
            f"{rd}, {judged_said(per_round(rows, 2)[rd], per_round(rows, 1)[rd])}{revokes_said(rd)}"
            for rd in per_round(rows, 1)
        )
        assert line.startswith(f"13 tables, round by round: {said}."), (said, line)
        assert sum(per_round(rows, 1).values()) > 0  # tricks were played
        the_most_said(rows, 3, "revokes", line)


@pytest.mark.parametrize(
    ("game", "mode", "seats"), [("seven_up", "barnga", 3), ("all_fives", "referee", 2)]
)
def test_past_twelve_tables_judged_differently_and_refusals_fold_under_their_totals(
    fac, owner, game, mode, seats
):
    """Where the table's sheet decides (7Up7Down; All Fives in referee mode) section 4
    has a table of the tricks judged differently and one of the refused moves, each a
    row per round and table. Past twelve tables each folds under a line of each
    round's totals, added up from its rows. No CSV has the tricks judged differently
    (none is named); refusals.csv has every refused move. The class's view says how
    many were refused at each table, not by whom: its line neither."""
    w = bots_played(
        owner, name="Decides", tables=13, seats=seats, ticks=6, seed=5, game=game, mode=mode
    )
    assert refused_at_every_other_game(w)
    for view in ("", "?view=class"):
        html = fac.get(f"/workshops/{w.pk}/report/{view}").content.decode()
        assert_links_land(html)
        folds = folds_of(html)
        summary, note, held = folds["judged-by-table"]
        assert (
            summary == "Each of the 13 tables, round by round: tricks and those judged differently"
        )
        assert note.endswith(" on screen before printing to include it.")
        line = listed_line(html, "revokes-summary")
        rows = [(rd, [int(t), *cells]) for rd, (t, *cells) in rows_of(held)]
        assert len(rows) == 26
        tricks, judged = per_round(rows, 1), per_round(rows, 2)
        said = "; ".join(f"{rd}, {judged_said(judged[rd], tricks[rd])}" for rd in tricks)
        assert line.startswith(f"13 tables, round by round: {said}."), (said, line)
        the_most_said(rows, 2, "tricks judged differently", line)
        # The refused moves: in the full report by newcomers and by locals too.
        summary, note, held = folds["refusals-by-table"]
        assert summary == "Each of the 13 tables, round by round: moves refused"
        assert note.endswith("or see refusals.csv.") if not view else ".csv" not in note
        line = listed_line(html, "refusals-summary")
        assert html.index('class="refusals-summary') < html.index('id="refusals-by-table"')
        rows = [(rd, [int(t), *cells]) for rd, (t, *cells) in rows_of(held)]
        assert len(rows) == 26
        refused = per_round(rows, 1)
        if view:
            assert all(len(cells) == 2 for _, cells in rows)  # table, refused
            said = "; ".join(f"{rd}, {moves_said(n)} refused" for rd, n in refused.items())
            assert "newcomer" not in line
        else:
            newcomers, locals_ = per_round(rows, 2), per_round(rows, 3)
            said = "; ".join(
                f"{rd}, {moves_said(n)} refused{by_whom_said(newcomers[rd], locals_[rd])}"
                for rd, n in refused.items()
            )
        assert line.startswith(f"13 tables, round by round: {said}."), (said, line)
        assert sum(refused.values()) == RefusedAttempt.objects.filter(workshop=w).count()
        the_most_said(rows, 1, "refused moves", line)


def moves_said(n: int) -> str:
    return f"{n} move{'s' * (n != 1)}" if n else "no move"


def by_whom_said(newcomers: int, locals_: int) -> str:
    """ "(2 by newcomers and 1 by locals)", "(all by locals)", "(by a newcomer)": only
    counts above nought."""
    if newcomers and locals_:
        return f" ({newcomers} by newcomers and {locals_} by locals)"
    n, one, many = (
        (newcomers, "newcomer", "newcomers") if newcomers else (locals_, "local", "locals")
    )
    return "" if not n else f" (by a {one})" if n == 1 else f" (all by {many})"


@pytest.mark.parametrize(
    ("game", "mode", "seats"), [("all_fives", "barnga", 2), ("seven_up", "referee", 3)]
)
def test_up_to_twelve_tables_section_4s_tables_of_the_other_games_stay_open(
    fac, owner, game, mode, seats
):
    """Twelve tables: the revokes, judged-differently and refusals tables as they were,
    open, with no line above them."""
    w = bots_played(
        owner, name="Twelve", tables=12, seats=seats, ticks=2, seed=5, game=game, mode=mode
    )
    refused_at_every_other_game(w)
    for view in ("", "?view=class"):
        html = fac.get(f"/workshops/{w.pk}/report/{view}").content.decode()
        assert folds_of(html) == {}
        for word in ("revokes-summary", "refusals-summary", "print-only", "-by-table"):
            assert word not in html, word
        assert "by round and table</caption>" in html


def test_the_fold_tag_writes_the_print_note_and_the_closed_details_from_one_summary():
    """{% fold %} (templatetags/facilitator.py) draws every fold of a large class's
    report: the summary said once, escaped like any text, the id put together from
    its parts, a CSV named only when given; a tag without an id is refused."""
    from django.template import Context, Template, TemplateSyntaxError

    tpl = Template(
        '{% load facilitator %}{% fold "res-" n "-tables" csv=csv %}'
        "{{ label }}: each table{% left_out %}{{ label }}, table by table,{% endfold %}</details>"
    )
    html = tpl.render(Context({"n": 3, "csv": "games.csv", "label": "R<1>"}))
    assert html == (
        '<p class="print-only muted">R&lt;1&gt;, table by table, is left out of print: open'
        " “R&lt;1&gt;: each table” on screen before printing to include it, or see"
        ' games.csv.</p>\n  <details class="print-if-open fold" id="res-3-tables">'
        "<summary>R&lt;1&gt;: each table</summary></details>"
    )
    assert tpl.render(Context({"n": 3, "csv": "", "label": "R"})).startswith(
        '<p class="print-only muted">R, table by table, is left out of print: open “R: each'
        " table” on screen before printing to include it.</p>"
    )
    with pytest.raises(TemplateSyntaxError):
        Template("{% load facilitator %}{% fold %}a{% left_out %}b{% endfold %}")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ('"res-" csv="games.csv" n', "takes csv= only as its last part"),
        ('"res-" csv=name "-tables"', "takes csv= only as its last part"),
        ('"res-" csv="a.csv" csv="b.csv"', "takes csv= only as its last part"),
        ('"res-" n csv=', "takes csv= only as its last part, with a value"),
        ('"res-" n cvs="games.csv"', "has no option 'cvs=\"games.csv\"'"),
        ('"res-" n csv = "games.csv"', "has no option '='"),
        ('csv="games.csv"', "needs an id"),
    ],
)
def test_the_fold_tag_refuses_an_option_out_of_place_in_words(args, said):
    """csv= is the tag's last part: elsewhere Django said "Could not parse the
    remainder", and a bare "csv=" at the end named no file without a word."""
    from django.template import Template, TemplateSyntaxError

    with pytest.raises(TemplateSyntaxError) as refused:
        Template(f"{{% load facilitator %}}{{% fold {args} %}}a{{% left_out %}}b{{% endfold %}}")
    assert said in str(refused.value), refused.value
    assert '{% fold "id" [more of the id] [csv="name.csv"] %}' in str(refused.value)


def html_escape(text: str) -> str:
    import html as html_lib

    return html_lib.escape(text)


@pytest.mark.parametrize(("tables", "seats"), [(4, 3), (12, 2)])
def test_a_class_of_up_to_twelve_tables_has_none_of_the_large_class_folds(
    fac, owner, tables, seats
):
    """A twelve-player class, and twelve tables: the report as it was, open."""
    w = bots_played(owner, name="Small", tables=tables, seats=seats, ticks=2, seed=4)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert folds_of(html) == {}
    for word in ("round-summary", "chart-summary", ' fold"', 'id="seating-', '-tables"'):
        assert word not in html, word
    assert html.count('<table class="grid">') == 1
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    assert not r["folded"] and len(r["results"]) == 2
    assert html.count('<div class="result-card">') == tables * 2
    assert '<figure class="chart' in html.split('<section id="movement"')[1].split("</section>")[0]
    # The clash table and, in the class's view, its tables of counts: open, no line.
    cls = fac.get(f"/workshops/{w.pk}/report/?view=class").content.decode()
    assert folds_of(cls) == {}
    for page in (html, cls):
        for word in ("clashes-summary", "seating-summary", "round-summary", "print-only"):
            assert word not in page, word
        assert "pairs-summary" not in page
        assert page.split('<ul class="pairs">')[1].split("</ul>")[0].count("<li>") == tables - 1
    assert "Tricks, clashes and disputes per table and round</caption>" in html
    assert cls.count('<table class="compact class-results">') == 2
    assert cls.count('<table class="grid class-seating">') == 1


def test_names_ending_with_a_full_stop_end_the_results_caption_once(fac, owner):
    """ "fewest: Kofi F., Lena B.." (found by a review): names written "Ana E." to tell
    two Anas apart end a sentence with their own full stop."""
    w = make_workshop(names=["Ana E.", "Ben F.", "Cy G.", "Di H."], tables=1, facilitator=owner)
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    while fresh(game).state != "over":
        finish_trick(game, winner_seat=0)
    services.round_end_now(round_id=rnd.pk)
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    caption = re.search(r"Most games won: .*?</caption>", html, re.S)
    assert caption, "nobody won more than another: no most and fewest to read"
    assert ".</bdi>." not in caption.group(0), caption.group(0)
    assert "fewest: <bdi>Ben F.</bdi>, <bdi>Cy G.</bdi> and <bdi>Di H.</bdi> " in caption.group(0)


def _clash_cell(disputes: int) -> dict:
    return {"tricks": 5, "clashes": disputes, "disputes": disputes, "timeouts": 0, "cut": 0}


def test_a_large_class_s_clash_line_names_its_ties_in_words(owner):
    """The folded clash table's line, as the report shows it: ties up to three are
    named, more are counted round by round ("1, 14 times" did not say of what)."""
    w = make_workshop(players=4, tables=1)
    to_scored_round(w)
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    r["folded"] = True
    cl = r["clashes"]
    cl["rounds"] = [
        {**cl["rounds"][0], "label": "Round 1"},
        {**cl["rounds"][0], "label": "Round 2"},
    ]

    def line(ones: set[tuple[int, int]]) -> str:
        cl["by_table_round"] = [
            {"table": t, "rounds": [_clash_cell(int((t, i) in ones)) for i in (1, 2)]}
            for t in range(1, 15)
        ]
        cl["summary"] = report.clashes_summary(cl, disputes=True)
        html = render_to_string("report/page.html", {"r": r, "workshop": w})
        return listed_line(html, "clashes-summary")

    many = {(t, 1) for t in range(1, 7)} | {(t, 2) for t in range(7, 15)}
    assert line(many) == (
        "14 tables, round by round: Round 1, 6 clashes in 70 tricks, 6 disputes;"
        " Round 2, 8 clashes in 70 tricks, 8 disputes. The most disputes at one table in a"
        " round: 1, at 6 tables in Round 1 and 8 tables in Round 2."
    )
    assert line({(t, 2) for t in range(3, 7)}).endswith(
        " The most disputes at one table in a round: 1, at 4 tables in Round 2."
    )
    # Counted in the rounds' order, whichever table comes first.
    assert line({(1, 2), (2, 2), (3, 1), (4, 1), (5, 1)}).endswith(
        " The most disputes at one table in a round: 1, at 3 tables in Round 1 and 2 tables"
        " in Round 2."
    )
    # Up to three named, each round said once.
    assert line({(2, 1), (5, 2), (9, 2)}).endswith(
        " The most disputes at one table in a round: 1, at table 2 in Round 1 and tables 5"
        " and 9 in Round 2."
    )
    assert line({(13, 2), (5, 2), (7, 2)}).endswith(
        " The most disputes at one table in a round: 1, at tables 5, 7 and 13 in Round 2."
    )


def test_past_twelve_tables_a_round_by_round_line_is_a_lead_and_a_list(fac, thirteen):
    """Past twelve tables the lines above the folded tables listed every round in one
    sentence (over six rounds, 14 lines of a phone: found by a review). The page says a
    short lead sentence, then a list of a line a round, then where the most were: in
    that order for a screen reader, and printed (nothing of it folds)."""
    r = report.build_report(json.loads(json.dumps(export.workshop_document(thirteen))))
    labels = [rd["label"] for rd in r["clashes"]["rounds"]]
    columns = [c["label"] for c in r["movement"]["columns"]]
    for view, blocks in (
        ("", {"clashes-summary": ("round by round", labels)}),
        (
            "?view=class",
            {
                "clashes-summary": ("round by round", labels),
                "seating-summary": ("at the start of each round", columns),
            },
        ),
    ):
        html = fac.get(f"/workshops/{thirteen.pk}/report/{view}").content.decode()
        for name, (lead, rounds) in blocks.items():
            block = re.search(
                rf'<div class="{name} listed"><p>([^<]*)</p>\s*<ul>(.*?)</ul>\s*(?:<p>([^<]*)</p>)?',
                html,
                re.S,
            )
            assert block, (view, name)
            assert block.group(1) == f"13 tables, {lead}:"
            items = re.findall(r"<li>([^<]*)</li>", block.group(2))
            assert [i.split(", ")[0] for i in items] == rounds and len(rounds) > 1
            if name == "clashes-summary":
                assert block.group(3).startswith("The most disputes at one table in a round: ")
            # Before its fold, outside it: in view, and printed.
            fold = "class-seating" if name == "seating-summary" else "clashes-by-table"
            assert block.end() < html.index(f'id="{fold}"')
            assert "<details" not in html[block.start() : block.end()]


def judged_said(judged: int, tricks: int) -> str:
    """A round's tricks judged differently as report.revokes_summary says them, none in
    words ("none of 26 tricks judged differently")."""
    if judged:
        return f"{judged} of {tricks} trick{'s' * (tricks != 1)} judged differently"
    if not tricks:
        return "no trick played to the end"
    return (
        "1 trick, not judged differently"
        if tricks == 1
        else f"none of {tricks} tricks judged differently"
    )


REFEREE_CELL = re.compile(
    r'<td><span class="muted">'
    r"(?:(?:(\d+) clash(?:es)?|no clash) in (\d+) tricks?|no trick played to the end)"
    r"(?:; (\d+) timed out)?(?:; (\d+) cut short, no trick)?</span></td>"
)


def test_a_large_referee_class_s_clash_line_counts_clashes_not_disputes(fac, owner):
    """In referee mode nobody claims: the folded clash table's line adds up each
    round's clashes and tricks, names no dispute, and ends with where most clashes
    happened, each figure the folded table's."""
    w = bots_played(owner, name="Referee", tables=13, seats=3, ticks=6, seed=4, mode="referee")
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    summary, _note, held = folds_of(html)["clashes-by-table"]
    assert summary == "Each of the 13 tables, round by round: tricks, clashes"
    line = listed_line(html, "clashes-summary")
    assert "dispute" not in line and "timed out" not in line, line
    rows = re.findall(r'<tr><th scope="row">Table (\d+)</th>(.*?)</tr>', held)
    assert [int(n) for n, _ in rows] == list(range(1, 14))
    cells = {
        int(n): [[int(x or 0) for x in c] for c in REFEREE_CELL.findall(tds)] for n, tds in rows
    }
    labels = re.findall(r'<th scope="col">(Round \d+)</th>', held)
    assert len(labels) == 2 and all(len(c) == 2 for c in cells.values())
    said = []
    for i, label in enumerate(labels):
        clashes, tricks = (sum(c[i][k] for c in cells.values()) for k in (0, 1))
        # None said in words, as report.clashes_summary says it.
        part = f"{label}, " + (
            f"{clashes} clash{'es' * (clashes != 1)} in {tricks} trick{'s' * (tricks != 1)}"
            if clashes
            else f"no clash in {tricks} trick{'s' * (tricks != 1)}"
            if tricks
            else "no trick played to the end"
        )
        if cut := sum(c[i][3] for c in cells.values()):
            part += f", {cut} claim step{'s' * (cut != 1)} cut short with no trick"
        said.append(part)
    assert line.startswith(f"13 tables, round by round: {'; '.join(said)}."), (said, line)
    assert sum(c[i][0] for c in cells.values() for i in range(2)), "no clash at all"
    # (Named table by table, each table's rounds in turn, as the line names them.)
    by_table = [(labels[i], [n, c[i][0]]) for n, c in cells.items() for i in range(2)]
    the_most_said(by_table, 1, "clashes", line)


def test_a_workshop_of_bots_only_is_headed_by_its_bots_not_0_players(fac, played):
    """The header counted people first: a bots-only run read "0 players and 6 bots"."""
    html = fac.get(f"/workshops/{played.pk}/report/").content.decode()
    head = html.split('<header class="report-head">')[1].split("</header>")[0]
    assert "0 players" not in head
    assert re.search(r"· 6 bots, no students\s*·", head), head
