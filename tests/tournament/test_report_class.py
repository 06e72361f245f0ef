"""The report for the projector (`?view=class`): what a class discusses together,
no student's result beside their name.

The full report names each student's losses ("0 of 8" games won, "fewest: …", the
per-player table, journeys with the games won at each table, the guide's most and
fewest). Projected in front of the class it shamed students; the class view keeps
the rules, the counts per round and table, the clashes, disputes, gestures and
drawings and the guide's questions, and names nobody: not beside a result, and, to
be trusted at a glance, not at all (a drawing too is shown without its drawer).
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter

import pytest
from django.db.models import F
from django.test import Client
from report_helpers import T0, Clock, bots_played, build_scripted
from tournament_helpers import finish_trick, game_at, make_workshop, tables_of, to_scored_round

from tournament import export, report, reportcache, services, timers
from tournament.models import Game, GameState, Player, Workshop

pytestmark = pytest.mark.django_db

NAMES = ("Zanele", "Ingrid", "Oluwaseun", "Mireille", "Tadeusz", "Xiomara")


def page(fac, workshop, view: str | None = None) -> str:
    url = f"/workshops/{workshop.pk}/report/" + (f"?view={view}" if view else "")
    r = fac.get(url)
    assert r.status_code == 200
    return r.content.decode()


def readable(html: str) -> str:
    """The page with its charts' SVG decoded in place: a name drawn in a chart counts
    (and a name's letters met by chance in base64 do not)."""
    return re.sub(
        r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)",
        lambda m: base64.b64decode(m.group(1)).decode(),
        html,
    )


def names_in(html: str, names) -> list[str]:
    text = readable(html)
    return [n for n in names if n in text]


@pytest.fixture
def named(monkeypatch, owner):
    """The scripted Five Tricks workshop of test_report (two rounds, disputes settled,
    timed out and cut, gestures and a drawing), its six students renamed in the
    database once it is over. The round's stored standings keep the names they had
    (P01 …): the class view must name neither."""
    clock = Clock(T0)
    monkeypatch.setattr("tournament.services.play.now", clock)
    monkeypatch.setattr("tournament.services.rounds.now", clock)
    w = build_scripted(clock, owner)["workshop"]
    for i, name in enumerate(NAMES):
        Player.objects.filter(workshop=w, name=f"P{i + 1:02d}").update(name=name)
    Workshop.objects.filter(pk=w.pk).update(version=F("version") + 1)
    return Workshop.objects.get(pk=w.pk)


OLD_NAMES = tuple(f"P{i + 1:02d}" for i in range(6))


def three_tricks_named(owner) -> Workshop:
    """3 Tricks (no claims: its guide names who won most and fewest games at each
    table) with four named students at two tables, played by the bots' code in their
    seats through one scored round, and people again before the debrief."""
    w = services.workshop_create(
        name="Piles",
        facilitator=owner,
        table_count=2,
        seats_per_table=2,
        seed=3,
        game="three_tricks",
        bots_enabled=True,
    )
    for name in NAMES[:4]:
        services.player_join(workshop_id=w.pk, name=name)
    services.players_seat_home(workshop_id=w.pk)
    # The timer loop plays bots' seats: theirs, for the length of the tournament.
    Player.objects.filter(workshop=w).update(is_bot=True)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    rnd = services.round_start(workshop_id=w.pk)
    # Until a table's two players have won different numbers of games: a most and a
    # fewest for the full report to name (a game's winners are its players' ids).
    for _ in range(1500):
        over = Game.objects.filter(round=rnd, state=GameState.OVER)
        won = Counter(pid for g in over for pid in g.winners)
        if any(len({won[pid] for pid in g.players}) > 1 for g in over):
            break
        timers.tick(bot_delay=0)
    services.round_end_now(round_id=rnd.pk)
    Player.objects.filter(workshop=w).update(is_bot=False)
    services.workshop_start_debrief(workshop_id=w.pk)
    return Workshop.objects.get(pk=w.pk)


def test_the_class_view_names_no_student_and_keeps_what_the_class_discusses(fac, named):
    full = page(fac, named)
    html = page(fac, named, "class")
    # The full report names them, beside their results.
    assert names_in(full, NAMES) == list(NAMES)
    assert "5 Per player" in full and "Adapted most: " in full
    assert "Moved up after Round 1 (1 player): won 1 of 1 game" in full
    # The class's names none of them, nor their names of the round's standings, in
    # its text, its captions, its alt texts or its charts.
    assert names_in(html, NAMES + OLD_NAMES) == []
    # No per-player table, journey, "fewest", "most games", games won "of", rank.
    for said in (
        'class="players"',
        "Journey",
        "fewest",
        "Most games won",
        "won most games",
        "Adapted most",
        "Games won</th>",
        "(won ",
        'class="chips"',
        'class="disputes"',
        'class="plays"',
        "Line chart: where each player sat",
        "Whole workshop (JSON)",
    ):
        assert said not in html, said
    # One player's move is theirs: the class hears how many moved, not how they did.
    assert "Moved up after Round 1 (1 player): one player&#x27;s games are not shown" in html
    assert "won 1 of 1 game" not in html
    # What the class discusses together stays: the reveal, counts per round and table,
    # clashes, disputes, gestures, the drawing, the guide's questions.
    for kept in (
        "1 The reveal: every table",
        "Rule knobs per table",
        "2 Movement: how many sat where",
        "Players at each table at the start of each round",
        "After Round 1: 1 player moved up, 1 moved down and 4 stayed",
        "Round 2: games and disputes, and the moves after it, per table",
        "4 Clashes and disputes",
        "How every claim step ended",
        "Which sheets clashed",
        "Gestures by kind",
        '<ul class="drawings"',
        "Drawn at table 1, Round 2",
        "5 The class",
        "6 players.",
        "2 of the 6 changed tables once and played as newcomers; 4 never did.",
        "5 of the 6 made at least one gesture or drawing.",
        "6 Debrief guide",
        "What happened when you moved up, or down?",
        "Where have you met this outside the game?",
        "of the 6 players in a dispute adapted at least once.",
        "Stayed after Round 1 (4 players): won 1 of 4 games (25 %)",
        "for the class: no names",
    ):
        assert kept in html, kept
    # The same reveal, word for word, in both.
    reveal = lambda h: h.split('<section id="reveal"')[1].split("</section>\n\n<section")[0]  # noqa: E731
    assert reveal(html) == reveal(full)
    assert html.count('<h3 class="q"') == full.count('<h3 class="q"') == 6
    # Each view links to the other, in words that say what it gives; every "See the
    # figures" lands on a section of the page it is on.
    assert ">For the projector: the report without names</a>" in full
    assert f'href="/workshops/{named.pk}/report/?view=class"' in full
    assert f'href="/workshops/{named.pk}/report/">Full report, with names</a>' in html
    for h in (html, full):
        missing = set(re.findall(r'href="#([^"]+)"', h)) - set(re.findall(r' id="([^"]+)"', h))
        assert not missing, missing


def test_the_projected_views_show_not_the_facilitators_account(fac, named):
    """The class's views kept the site's bar with "Log out ada": a facilitator's
    login is often their own name or address, projected to the class."""
    assert ">Log out <bdi>ada</bdi></button>" in page(fac, named)
    assert ">Log out <bdi>ada</bdi></button>" in page(fac, named, "guide")
    for view in ("class", "class-guide"):
        html = page(fac, named, view)
        assert 'class="brand">Barnga</a>' in html
        assert "Log out" not in html and "<bdi>ada</bdi>" not in html, view


def test_the_class_report_holds_no_name_anywhere(named):
    """Not only the page: the figures the class's page is drawn from hold no name, so
    no template can show one by mistake."""
    doc = json.loads(json.dumps(export.workshop_document(named)))
    full = report.build_report(doc)
    rep = report.build_report(doc, names=False)
    text = json.dumps(rep, default=str)
    assert not [n for n in NAMES + OLD_NAMES if n in text]
    assert [n for n in NAMES if n in json.dumps(full, default=str)] == list(NAMES)
    # The counts of the class are the full report's.
    assert rep["counts"] == full["counts"] and rep["reveal"] == full["reveal"]
    assert rep["clashes"]["by_table_round"] == full["clashes"]["by_table_round"]
    assert len(rep["clashes"]["gestures"]["shown"]) == len(full["clashes"]["gestures"]["shown"])
    moved = [t for rd in rep["results"] for t in rd["tables"]]
    assert sum(t["up"] for t in moved) == sum(
        1
        for rd in full["results"]
        for t in rd["tables"]
        for p in t["players"]
        if p["moved"] == "up"
    )
    assert sum(c["players"] for row in rep["movement"]["seating"] for c in row["cells"]) == sum(
        len(c) for row in full["movement"]["grid"] for c in row["cells"]
    )


def test_a_game_without_claims_says_how_many_won_not_who_won_most(fac, owner):
    """3 Tricks' guide names who won most and fewest games at each table under "What
    did you do about it?": the class hears how many won a game."""
    w = three_tricks_named(owner)
    full = page(fac, w)
    html = page(fac, w, "class")
    assert re.search(r"Round 1, table \d: \w+ won most games \(\d\); \w+ fewest", full), full
    assert names_in(html, NAMES[:4]) == []
    # ("fewest" alone is in a sheet's rules: "fewest blocked wins".)
    assert "won most games" not in html and not re.search(r"fewest \(", html)
    assert re.search(r"Round 1: \d of the 4 players who played won at least one game\.", html)
    assert "3 Tricks has no claims" in html and "Rule knobs per table" in html


def test_the_kept_report_keeps_the_two_views_apart(fac, named, django_assert_max_num_queries):
    """A finished workshop's report is built once per process and kept: the class's
    view must not be served the full one's text, nor the other way round."""
    full = page(fac, named)
    html = page(fac, named, "class")
    # Read after the full one was kept, the class's is its own.
    assert names_in(html, NAMES) == [] and "5 The class" in html
    kept = next(v for k, v in reportcache._kept.items() if k[0] == named.pk)
    assert {"page", "page-class"} <= set(kept)
    with django_assert_max_num_queries(8):
        again_full, again_class = page(fac, named), page(fac, named, "class")
    assert names_in(again_class, NAMES) == [] and names_in(again_full, NAMES) == list(NAMES)
    assert "5 The class" in again_class and "5 Per player" in again_full
    strip = lambda h: re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"', "", h)  # noqa: E731
    assert strip(again_full) == strip(full) and strip(again_class) == strip(html)
    # Anything but view=class is the full report, kept as one.
    assert strip(page(fac, named, "nonsense")) == strip(full)
    assert "<title>Debrief report for the class · " in html
    assert "<title>Debrief report · " in full


def guide_part(html: str) -> str:
    return html.split('<section id="guide"')[1].split("</section>")[0]


def test_the_debrief_guide_prints_alone_from_either_view(fac, named):
    """The whole report printed the guide, what a teacher holds in hand, last of
    twenty-one pages. Each view links to the guide alone: the workshop's name and
    date, the six questions with their figures, and nothing else; from the class's
    view, the class's guide, which names nobody; each kept apart."""
    full, cls = page(fac, named), page(fac, named, "class")
    base = f"/workshops/{named.pk}/report/"
    # At the top and beside the guide, in each view, a link to its own guide alone.
    assert full.count(f'href="{base}?view=guide">The debrief guide alone, to print</a>') == 2
    assert cls.count(f'href="{base}?view=class-guide">The debrief guide alone, to print</a>') == 2
    assert "?view=guide" not in cls
    guide, class_guide = page(fac, named, "guide"), page(fac, named, "class-guide")
    for html, whole in ((guide, base), (class_guide, base + "?view=class")):
        assert re.search(r'<h1 id="report-title"><bdi>Test workshop</bdi></h1>', html)
        first = named.rounds.order_by("started_at").first().started_at
        assert f"Played on {first.day} {first:%B %Y}" in html
        assert re.findall(r'<h3 class="q" id="q-(\w+)-h">', html) == re.findall(
            r'<h3 class="q" id="q-(\w+)-h">', full
        )
        # The guide and nothing else of the report.
        assert re.findall(r'<section id="(\w+)"', html) == ["guide"]
        assert "<img" not in html and "Rule knobs" not in html
        # Its links to the figures go to the whole report's sections, in its view.
        links = re.findall(r'<a href="([^"]*)" class="no-print" aria-describedby="q-', html)
        assert len(links) == 6 and all(re.fullmatch(re.escape(whole) + "#[a-z]+", a) for a in links)
        assert f'<a class="button" href="{whole}">The whole report' in html
    # Each guide's questions and figures are its view's, word for word.
    assert guide_part(guide).split("<ol")[1] == guide_part(full).split("<ol")[1].replace(
        'href="#', f'href="{base}#'
    )
    assert guide_part(class_guide).split("<ol")[1] == guide_part(cls).split("<ol")[1].replace(
        'href="#', f'href="{base}?view=class#'
    )
    assert names_in(class_guide, NAMES + OLD_NAMES) == []
    assert names_in(guide, NAMES) != []  # the facilitator's names who adapted most
    assert "<title>Debrief guide · " in guide
    assert "<title>Debrief guide for the class · " in class_guide
    kept = next(v for k, v in reportcache._kept.items() if k[0] == named.pk)
    assert {"page", "page-class", "page-guide", "page-class-guide"} <= set(kept)
    # Read again (kept), each is still its own.
    assert names_in(page(fac, named, "class-guide"), NAMES) == []


def test_the_exports_are_the_same_whichever_view_was_read(fac, named):
    """The JSON and CSV downloads are public contracts: the class's view changes none."""
    before = {
        "json": json.loads(fac.get(f"/workshops/{named.pk}/report.json").content),
        **{k: fac.get(f"/workshops/{named.pk}/report/{k}.csv").content for k in export.CSV_KINDS},
    }
    page(fac, named, "class")
    after = {
        "json": json.loads(fac.get(f"/workshops/{named.pk}/report.json").content),
        **{k: fac.get(f"/workshops/{named.pk}/report/{k}.csv").content for k in export.CSV_KINDS},
    }
    before["json"].pop("exported_at"), after["json"].pop("exported_at")
    assert before == after


def test_a_running_workshops_class_view_folds_the_rules_and_names_nobody(fac, owner):
    """Read while the tournament runs ("so far"), nothing is kept and the rules stay
    folded: the class's view too."""
    w = make_workshop(players=6, tables=2, seats=3, names=list(NAMES))
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_scored_round(w)
    finish_trick(game_at(tables_of(w)[0]))
    html = page(fac, w, "class")
    assert names_in(html, NAMES) == []
    assert '<details class="reveal-fold">' in html and "The workshop is still running" in html
    assert names_in(page(fac, w), NAMES)


def _row(**kw) -> dict:
    return {
        "bot": False,
        "left": False,
        "moves_played": 0,
        "disputes": 0,
        "adapted": 0,
        "gestures": 0,
        "calls": 0,
        "revokes": 0,
        **kw,
    }


def test_the_class_section_counts_the_players_as_a_group():
    """Section 5 for the class: how many moved (once, twice), called revokes or
    gestured; bots counted apart, nobody named."""
    rep = {
        "counts": {"left": 1},
        "disputes": False,
        "revokes": {"referee": False, "table_decides": False},
        "players": [
            _row(moves_played=1, calls=2, gestures=1),
            _row(moves_played=2, revokes=1),
            _row(moves_played=1, left=True),
            _row(),
            _row(bot=True, moves_played=3, calls=5),
        ],
    }
    assert report._class_lines(rep) == [
        "4 players and 1 bot; 1 left during the workshop.",
        "3 of the 4 changed tables (2 once and 1 twice) and played as newcomers; 1 never did.",
        "1 of the 4 called a revoke at least once; 1 played a card their table's sheet forbids.",
        "1 of the 4 made at least one gesture or drawing.",
    ]
    # None said in words, not "0 never did", "0 of the 2 called a revoke", "1 3 times".
    movers = [_row(moves_played=1), _row(moves_played=3)]
    assert report._class_lines({**rep, "players": movers}) == [
        "2 players; 1 left during the workshop.",
        "Both players changed tables (1 once and 1 three times) and played as newcomers.",
        "None of the 2 called a revoke; none played a card their table's sheet forbids.",
        "None of the 2 made a gesture or drawing.",
    ]
    disputed = [_row(moves_played=2, disputes=1, adapted=0)] * 3
    assert report._class_lines({**rep, "disputes": True, "players": disputed})[1:3] == [
        "All 3 players changed tables twice and played as newcomers.",
        "3 players took part in a dispute; none of them ever changed their claim in one (adapted).",
    ]
    assert report._class_lines({**rep, "players": [_row(bot=True)]}) == [
        "No student played: only bots."
    ]


def test_the_class_view_is_the_facilitators_alone(named, django_user_model):
    """Another facilitator, or a visitor, gets the same 404 for the class's view as
    for the report: it is not a public page for the projector to open."""
    other = Client()
    other.force_login(django_user_model.objects.create_user("mallory", password="a-long-pass-123"))
    for client in (other, Client()):
        assert client.get(f"/workshops/{named.pk}/report/?view=class").status_code == 404


def test_a_seating_cell_says_how_many_at_home_had_moved_back_there():
    """The class's seating grid counts a player who moved back to their home table
    under "moved up" (or down) and under "at home": the cell says how many of those
    at home moved back, as the line above the grid does (report.seating_summary), so
    that "1 moved up, 1 moved down, 2 at home" at a table of three adds up: "2 at
    home, 1 of them moved back home" (it said "2 at home (1 moved back)", and a review
    could not tell whether that one was a fifth player or which of the movers)."""
    from django.template.loader import render_to_string

    chips = [
        {"arrow": "up", "local": True, "joined": False},
        {"arrow": "down", "local": False, "joined": False},
        {"arrow": "", "local": True, "joined": False},
    ]
    counts = report._seat_counts(chips)
    columns = [{"label": "Round 3"}]
    seating = [{"table": 4, "cells": [counts]}]
    r = {
        "folded": False,
        "results": [],
        "movement": {
            "columns": columns,
            "seating": seating,
            "seating_summary": report.seating_summary(columns, seating),
        },
    }
    html = render_to_string("report/_class_movement.html", {"r": r})
    cell = re.search(r"<td>(.*?)</td>", html).group(1)
    said = " ".join(re.sub(r"<[^>]+>", " ", cell).split())
    assert said == "3 players ↑ 1 moved up ↓ 1 moved down 2 at home, 1 of them moved back home"
    # The line says where they sat, not again who moved (section 3 says that once).
    assert r["movement"]["seating_summary"]["line"].endswith(
        "Round 3, 3 players: 2 at their home table and 1 at another table."
    )
    # One who stayed where an earlier move took them: a line of the cell, and of the line.
    chips.append({"arrow": "", "local": False, "joined": False})
    seating[0]["cells"] = [report._seat_counts(chips)]
    r["movement"]["seating_summary"] = report.seating_summary(columns, seating)
    html = render_to_string("report/_class_movement.html", {"r": r})
    cell = re.search(r"<td>(.*?)</td>", html).group(1)
    said = " ".join(re.sub(r"<[^>]+>", " ", cell).split())
    # Said as the line says it ("1 here since an earlier move" left a teacher asking
    # what had happened to that one), and so does the caption.
    assert said == (
        "4 players ↑ 1 moved up ↓ 1 moved down 2 at home, 1 of them moved back home"
        " 1 stayed where an earlier move took them"
    )
    assert re.search(
        r"<caption>[^<]*, and how many stayed where an earlier move had taken them</caption>", html
    )
    assert r["movement"]["seating_summary"]["line"].endswith(
        "Round 3, 4 players: 2 at their home table and 2 at another table."
    )


SEATED_AS = re.compile(
    r"(?P<label>[^;:,]+), (?P<players>\d+) players?"
    r"(?:, all at their home table"
    r"|: (?P<home>\d+|nobody) at their home table and (?P<away>\d+) at another table)"
    r"(?: \(\d+ joined during it\))?"
)


def test_the_class_seating_line_accounts_for_every_player_after_two_movements(owner):
    """The seating line said "12 had moved up, 12 down and 10 at their home table" of
    39 players (found by a review): those who stayed at a table an earlier move had
    taken them to were in no part, and those who moved back home were in two. Each
    player is now in one part, at their home table or at another, and the parts add
    up to the players seated. Who moved is section 3's round line's, not this one's."""
    w = bots_played(owner, name="Five", tables=5, seats=3, ticks=2, seed=4)
    rep = report.build_report(json.loads(json.dumps(export.workshop_document(w))), names=False)
    mov = rep["movement"]
    line = mov["seating_summary"]["line"]
    assert line.startswith("5 tables, at the start of each round: ") and line.endswith(".")
    parts = line.removeprefix("5 tables, at the start of each round: ")[:-1].split("; ")
    labels = [c["label"] for c in mov["columns"]]
    assert len(labels) == len(parts) == 4  # home play, two scored rounds, after the last
    away = 0
    for i, (label, part) in enumerate(zip(labels, parts, strict=True)):
        cells = [row["cells"][i] for row in mov["seating"]]
        players = sum(c["players"] for c in cells)
        assert players == 15 and part.startswith(f"{label}, 15 players"), part
        if ":" in part:  # the parts as heard, an aside in brackets left out, add up
            heard = re.sub(r" \([^)]*\)", "", part.split(": ", 1)[1])
            assert sum(int(x) for x in re.findall(r"(?:^|, | and )(\d+) ", heard)) == 15, part
    for label, part in zip(labels, parts, strict=True):
        said = SEATED_AS.fullmatch(part)
        assert said and said["label"] == label, part
        assert "moved" not in part, part
        away += int(said["away"] or 0)
    # After two movements some sat where the first one had taken them.
    assert away
