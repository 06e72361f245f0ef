"""The debrief report in Chromium: a laptop screenshot, a phone screenshot and the printed PDF.

The workshop is the scripted one of tests/tournament/test_report.py (two tables
with clashing sheets, disputes settled, timed out and cut). The facilitator is
logged in with a session cookie; the artifacts go to artifacts/ for a person to
look at: report.png (and one report-SECTION.png per section), report-phone.png
and report.pdf (the print stylesheet).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from django.db.models import F  # noqa: E402
from report_helpers import T0, Clock, bots_played, build_scripted  # noqa: E402

from tournament import export, report  # noqa: E402
from tournament.models import Player, Workshop  # noqa: E402

pytestmark = [pytest.mark.browser]


# The results cards' column headers broken inside a word ("Playe r", "Trick s",
# "Move d" at 1280 px and in print): a header on more lines than it has words.
BROKEN_HEADERS = """() => [...document.querySelectorAll('.result-card thead th')].filter(th => {
  const range = document.createRange();
  range.selectNodeContents(th);
  const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  return lines > th.textContent.trim().split(/\\s+/).length;
}).map(th => th.textContent)"""


def broken_headers(page) -> list[str]:
    return page.evaluate(BROKEN_HEADERS)


def phone_report(facilitator_page, user, path: str, what: str):
    """The report page at `path` on a 360 px phone (`facilitator_page`, the fixture):
    nothing wider than the screen (the wide tables scroll inside their own box) and no
    accessibility violation."""
    from axe_check import assert_accessible

    page = facilitator_page(
        user, path, viewport={"width": 360, "height": 740}, is_mobile=True, device_scale_factor=2
    )
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1
    assert_accessible(page, what)
    return page


def scripted(monkeypatch, django_user_model):
    """Ada and her workshop played as report_helpers.build_scripted plays it, on its
    clock: (Ada, build_scripted's facts)."""
    clock = Clock(T0)
    monkeypatch.setattr("tournament.services.play.now", clock)
    monkeypatch.setattr("tournament.services.rounds.now", clock)
    user = django_user_model.objects.create_user("ada", password="a-long-pass-123")
    return user, build_scripted(clock, user)


def rename_behind_the_app(workshop, old: str, new: str) -> None:
    """The app refuses a rename once the tournament is over; the test renames in the
    database, and bumps the workshop's version as a service would, so the report
    kept for the finished workshop is built again (tournament/reportcache.py)."""
    Player.objects.filter(workshop=workshop, name=old).update(name=new)
    Workshop.objects.filter(pk=workshop.pk).update(version=F("version") + 1)


def test_the_report_in_a_browser_and_in_print(
    facilitator_page, artifacts, monkeypatch, django_user_model
):
    user, facts = scripted(monkeypatch, django_user_model)
    path = f"/workshops/{facts['workshop'].pk}/report/"
    page = facilitator_page(user, path, viewport={"width": 1280, "height": 900})
    assert page.locator("h1").inner_text() == "Test workshop"
    # Every chart is an image with alt text, and it loaded.
    charts = page.locator("figure.chart img")
    assert charts.count() == 4
    for i in range(charts.count()):
        img = charts.nth(i)
        assert img.get_attribute("alt")
        assert img.evaluate("el => el.complete && el.naturalWidth > 0")
    assert page.locator("table.disputes tbody tr").count() == 4
    assert broken_headers(page) == []
    page.screenshot(path=str(artifacts / "report.png"), full_page=True)
    for section in ("reveal", "movement", "results", "clashes", "players", "guide"):
        page.locator(f"section#{section}").screenshot(path=str(artifacts / f"report-{section}.png"))
    page.emulate_media(media="print")
    # A small class's trick-by-trick clash list (10 clashes) is open, and prints: no
    # line says it is left out. Past twenty it folds, and prints only when opened on
    # screen (tests/tournament/test_report_views.py).
    clash_list, note = page.locator("table.clash-list"), page.locator("#matrix .print-only")
    page.pdf(path=str(artifacts / "report.pdf"), format="A4", print_background=True)
    assert clash_list.is_visible() and note.count() == 0  # after the page's beforeprint
    # A4's printable width (186 mm): nothing is wider. A wider element (the per-player
    # table was) makes Chromium shrink every page to fit it, and the result cards, laid
    # out three abreast on the wider page, cut off their tables' last column.
    page.set_viewport_size({"width": 703, "height": 1000})
    wider = page.evaluate(
        """() => Array.from(document.querySelectorAll('main *'))
            .filter(el => el.getBoundingClientRect().right > 704)
            .map(el => el.tagName + '.' + el.className).slice(0, 5)"""
    )
    assert wider == []
    clipped = page.evaluate(
        """() => Array.from(document.querySelectorAll('.result-card'))
            .filter(card => card.scrollWidth > card.clientWidth + 1).length"""
    )
    assert page.locator(".result-card").count() >= 4 and clipped == 0
    assert broken_headers(page) == []
    # Each dispute's cards print in one row (stacked down a narrow column, a dispute
    # took a third of a page: 83 disputes were 25 pages).
    rows_of_cards = page.evaluate(
        """() => [...document.querySelectorAll('table.disputes tbody tr')].map(tr =>
            new Set([...tr.querySelectorAll('.mini')].map(m => Math.round(m.getBoundingClientRect().top))).size)"""
    )
    assert rows_of_cards and set(rows_of_cards) == {1}, rows_of_cards
    # A 30-letter name of one word: the seating grid's chips kept it on one line
    # and the grid's last rounds fell off the printed page (which cannot scroll).
    rename_behind_the_app(facts["workshop"], "P02", "Bartholomewbartholomewbartholo")
    page.reload()
    page.emulate_media(media="print")
    grid_right = page.evaluate(
        "() => document.querySelector('table.grid').getBoundingClientRect().right"
    )
    assert grid_right <= 704, grid_right
    page.context.close()

    ppage = facilitator_page(
        user, path, viewport={"width": 390, "height": 844}, is_mobile=True, device_scale_factor=2
    )
    # Only the wide tables (which scroll inside their own box) are wider than the screen.
    overflow = ppage.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    ppage.screenshot(path=str(artifacts / "report-phone.png"))
    assert overflow <= 1
    # A chart keeps its labels readable (drawn 18 px for 960 px: 720 px wide at least,
    # 12 px type) and scrolls sideways in its box, a keyboard stop named by its title.
    charts = ppage.evaluate(
        """() => [...document.querySelectorAll('figure.chart .scroll')].map(b => ({
          width: Math.round(b.querySelector('img').getBoundingClientRect().width),
          scrolls: b.scrollWidth > b.clientWidth + 1, tab: b.tabIndex, role: b.getAttribute('role'),
          label: b.getAttribute('aria-label')}))"""
    )
    assert len(charts) == 4, charts
    for c in charts:
        assert c["width"] >= 720 and c["scrolls"] and c["tab"] == 0 and c["role"] == "region", c
        assert c["label"].startswith("Chart: "), c  # not the same name as its section's
    ppage.locator("figure.chart .scroll").first.screenshot(
        path=str(artifacts / "report-phone-chart.png")
    )
    ppage.context.close()

    # A small phone (360 px) and a long name: the page does not scroll sideways, a
    # result card's table stays inside its card, and a wide table's caption (the
    # seating grid's key) wraps on the screen rather than scrolling off with it.
    rename_behind_the_app(facts["workshop"], "P01", "Maximilian-Alexander")
    small = facilitator_page(
        user, path, viewport={"width": 360, "height": 740}, is_mobile=True, device_scale_factor=2
    )
    fits = small.evaluate(
        """() => ({
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          cards: [...document.querySelectorAll('.result-card')].filter(c =>
            c.querySelector('table').getBoundingClientRect().right > c.getBoundingClientRect().right + 1).length,
          captions: [...document.querySelectorAll('.report caption')].filter(c =>
            c.getBoundingClientRect().right > innerWidth + 1).map(c => c.textContent.slice(0, 30)),
        })"""
    )
    assert small.get_by_text("Maximilian-Alexander").count() > 0
    assert fits == {"page": 0, "cards": 0, "captions": []}, fits
    # The tables that scroll sideways here can be reached and scrolled by keyboard
    # and are named by their captions (axe: scrollable-region-focusable); the ones
    # that fit are no extra stop.
    boxes = small.evaluate(
        """() => [...document.querySelectorAll('.scroll:not(figure.chart .scroll)')].map(b => ({
          scrolls: b.scrollWidth > b.clientWidth + 1, tab: b.tabIndex,
          label: b.getAttribute('aria-labelledby') || '',
          caption: (b.querySelector('caption') || {}).id || ''}))"""
    )
    assert any(b["scrolls"] for b in boxes) and any(not b["scrolls"] for b in boxes), boxes
    for b in boxes:
        assert (
            (b["tab"] == 0 and b["label"] == b["caption"] != "")
            if b["scrolls"]
            else (b["tab"] == -1 and not b["label"])
        ), b
    # Heard by the caption's words, not the marks it hides (a box was "Seating … (up
    # arrow moved up, …)").
    names = [
        line
        for box in small.locator(".scroll[role=region]").all()
        for line in box.aria_snapshot().splitlines()[:1]
    ]
    assert any(n.startswith('- region "Seating at the start of each round') for n in names), names
    assert not [n for n in names if set(n) & set("↑↓→✎")], names
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(small).response["violations"]
    assert [v["id"] for v in found if v["id"] == "scrollable-region-focusable"] == []
    small.context.close()


PAGES = re.compile(rb"/Type\s*/Page\b(?!s)")


def test_the_debrief_guide_prints_alone_in_a_few_pages(
    facilitator_page, artifacts, monkeypatch, django_user_model
):
    """The whole report printed the debrief guide, what a teacher holds in hand, on
    its last page (of 21 in a teaching review). A link in each view opens the guide
    alone, which prints as the workshop's name and date and the six questions with
    their figures, on a page or two; from the class's view, naming nobody. In print
    a newcomer's chip in the seating grid says its home table ("home 2")."""
    from axe_check import assert_accessible

    user, facts = scripted(monkeypatch, django_user_model)
    names = [p.name for p in Player.objects.filter(workshop=facts["workshop"])]
    path = f"/workshops/{facts['workshop'].pk}/report/"
    page = facilitator_page(user, path, viewport={"width": 1280, "height": 900})
    page.emulate_media(media="print")
    whole = len(PAGES.findall(page.pdf(format="A4", print_background=True)))
    # The seating grid in print: a newcomer's home table in words, not only a colour.
    marks = page.locator("table.grid .chip:not(.local) .home-of")
    assert marks.count() >= 2 and marks.first.is_visible()
    assert re.fullmatch(r"home \d", marks.first.inner_text())
    page.emulate_media(media="screen")
    for view, link_from in (("guide", path), ("class-guide", path + "?view=class")):
        page.goto(page.url.split("/workshops/")[0] + link_from)
        # The link at the top of the report, and the one beside its guide.
        links = page.get_by_role("link", name="The debrief guide alone, to print")
        assert links.count() == 2
        links.first.click()
        page.wait_for_url(f"**{path}?view={view}")
        assert page.locator("h1").inner_text() == "Test workshop"
        assert "Played on 6 January 2030" in page.locator(".report-head").inner_text()
        assert page.locator("h3.q").count() == 6
        assert_accessible(page, f"the debrief guide alone ({view}) at 1280 px")
        page.emulate_media(media="print")
        assert not page.get_by_role("button", name="Print or save as PDF").is_visible()
        # What prints: the head (name, date) and the guide, starting on the first page.
        assert page.locator("#guide").is_visible() and page.locator("h1").is_visible()
        assert page.locator("#guide > h2").evaluate("h => getComputedStyle(h).breakBefore") == (
            "auto"
        )
        pdf = page.pdf(path=str(artifacts / f"report-{view}.pdf"), format="A4")
        printed = len(PAGES.findall(pdf))
        assert printed <= 2 < whole, (printed, whole)
        text = page.locator("main").inner_text()
        if view == "class-guide":
            assert [n for n in names if n in text] == []
        page.emulate_media(media="screen")
        page.screenshot(path=str(artifacts / f"report-{view}.png"), full_page=True)
    page.context.close()

    phone = phone_report(
        facilitator_page, user, path + "?view=guide", "the debrief guide alone at 360 px"
    )
    phone.screenshot(path=str(artifacts / "report-guide-phone.png"), full_page=True)
    phone.context.close()


@pytest.mark.parametrize(
    ("game", "seats"), [("seven_up", 3), ("all_fives", 3), ("three_tricks", 2)]
)
def test_the_other_games_reports_pass_axe(
    request, transactional_db, django_user_model, game, seats
):
    """Each game's report has parts of its own (7Up7Down's scores, All Fives' revoke
    calls and cards that broke a sheet, 3 Tricks' piles): played by bots through a
    scored round, each passes the audit on a laptop and on a phone."""
    from axe_check import assert_accessible
    from tournament_helpers import play_until_finished

    from tournament import services
    from tournament.models import Round, RoundKind

    user = django_user_model.objects.create_user("ada", password="a-long-pass-123")
    w = services.workshop_create(
        facilitator=user,
        name=f"Report {game}",
        game=game,
        table_count=2,
        seats_per_table=seats,
        bots_enabled=True,
        seed=5,
    )
    human = services.player_join(workshop_id=w.pk, name="Ann")
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.player_leave(player_id=human.pk, policy="bot")
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    play_until_finished(w)
    services.round_end_now(round_id=Round.objects.get(workshop=w, kind=RoundKind.SCORED).pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    # The server starts now, on the rows the bots left (its timer loop has nothing to do).
    open_page = request.getfixturevalue("facilitator_page")
    path = f"/workshops/{w.pk}/report/"
    for viewport in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
        page = open_page(user, path, viewport=viewport)
        assert page.locator("h1").inner_text() == f"Report {game}"
        assert_accessible(page, f"{game} report at {viewport['width']} px")
        page.context.close()


def test_at_forty_tables_the_guide_alone_still_prints_on_two_pages(
    facilitator_page, artifacts, django_user_model
):
    """The guide's first question listed each pair of neighbouring tables, a line
    each: at 40 tables the guide alone printed on 4 A4 pages, from either view. Past
    twelve tables one line counts the pairs per rule (report._expect_lines), and the
    guide prints on two pages, as it does for a small class."""
    user = django_user_model.objects.create_user("ada", password="a-long-pass-123")
    w = bots_played(user, name="Forty", tables=40, seats=3, ticks=1, game="all_fives")
    for view in ("guide", "class-guide"):
        page = facilitator_page(
            user, f"/workshops/{w.pk}/report/?view={view}", viewport={"width": 1280, "height": 900}
        )
        page.emulate_media(media="print")
        pdf = page.pdf(path=str(artifacts / f"report-forty-{view}.pdf"), format="A4")
        assert len(PAGES.findall(pdf)) <= 2, view
        assert "39 pairs of neighbouring tables differed" in page.locator("#guide").inner_text()
        page.context.close()


def test_a_large_class_prints_its_movement_chart_at_the_pages_width(
    facilitator_page, artifacts, django_user_model
):
    """Twelve tables of five: the movement chart is taller than a printed page. Held to
    24 cm it printed at half its size (names 9 px high); it prints at the page's
    width, over more than one page (report_charts.PRINT_FIT)."""
    user = django_user_model.objects.create_user("ada", password="a-long-pass-123")
    w = bots_played(user, name="Sixty", tables=12, seats=5, ticks=8)
    # A4's printable width, as the first test sets it.
    page = facilitator_page(
        user, f"/workshops/{w.pk}/report/", viewport={"width": 703, "height": 1000}
    )
    page.emulate_media(media="print")
    chart = page.locator("figure.chart.tall img")
    assert chart.count() == 1 and "where each player sat" in chart.get_attribute("alt")
    natural = chart.evaluate("el => el.naturalHeight / el.naturalWidth")
    box = chart.bounding_box()
    assert box["width"] >= 700, box  # the page's width, not shrunk to fit 24 cm
    assert abs(box["height"] / box["width"] - natural) < 0.01
    assert box["height"] > 24 / 2.54 * 96, box  # taller than 24 cm: over more than a page
    # The chart runs on over the pages it needs: the report prints on more pages than
    # with the chart held to 24 cm, as it was.
    pages = re.compile(rb"/Type\s*/Page\b(?!s)")
    tall = len(pages.findall(page.pdf(path=str(artifacts / "report-sixty.pdf"), format="A4")))
    chart.evaluate("el => el.closest('figure').classList.remove('tall')")
    held = len(pages.findall(page.pdf(format="A4")))
    assert tall > held, (tall, held)
    page.context.close()


# The result cards: how far the page scrolls sideways, the cards whose table sticks
# out of them (or that stick out of the window), and the names that broke inside a
# word (a word's letters on two lines).
CARDS = """() => {
  const lines = range => new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  const brokenInAWord = text => [...text.data.matchAll(/\\S+/g)].some(word => {
    const range = document.createRange();
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    return lines(range) > 1;
  });
  const cards = [...document.querySelectorAll('.result-card')];
  return {
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    cards: cards.length,
    sticking_out: cards.filter(c => {
      const card = c.getBoundingClientRect(), table = c.querySelector('table').getBoundingClientRect();
      return table.right > card.right + 1 || card.right > innerWidth + 1;
    }).map(c => c.querySelector('caption').textContent.trim().slice(0, 9)).slice(0, 5),
    broken: [...document.querySelectorAll('.result-card tbody th bdi')]
      .filter(name => brokenInAWord(name.firstChild)).map(name => name.textContent).slice(0, 5),
  };
}"""


def test_forty_tables_result_cards_hold_their_tables(
    facilitator_page, artifacts, django_user_model
):
    """The 200-student workshop (40 tables of 5): the result cards of a scored round,
    four abreast at 1366 px with a fourth "Moved" column, held tables wider than
    themselves; the fourth card's table went past the window (the page scrolled
    sideways) and names broke inside a word ("Xime / na C.")."""
    user = django_user_model.objects.create_user("ada", password="a-long-pass-123")
    w = bots_played(user, name="Forty", tables=40, seats=5, ticks=1)
    # Names as a class has them (the bots' are short), a 30-letter one among them.
    firsts = ["Ximena", "Dmitri", "Chloé", "Mohammed", "Guadalupe", "Bartholomew", "Ana", "Wen"]
    players = list(Player.objects.filter(workshop=w).order_by("pk"))
    names = [f"{firsts[i % 8]} {chr(65 + i // 8)}." for i in range(len(players) - 1)]
    names.append("Maria Fernanda de los Santos G")
    for step in ([f"x{i}" for i in range(len(players))], names):  # no name taken twice
        for p, name in zip(players, step, strict=True):
            p.name = name
            p.save()
    page = facilitator_page(
        user, f"/workshops/{w.pk}/report/", viewport={"width": 1366, "height": 768}
    )
    # Past twelve tables the report folds each round's cards (report.FOLD_TABLES),
    # and prints a round's only when it was opened on screen; a line says so. (Each
    # round with a game played: home play has one only if the live server's timer
    # made a bot move in the moment it ran, so 2 or 3.)
    played = len(report.build_report(export.workshop_document(w))["results"])
    assert played in (2, 3)
    folds = page.locator("#results details.fold")
    notes = page.locator("#results .print-only")
    assert folds.count() == notes.count() == played
    page.emulate_media(media="print")
    assert not page.locator(".result-card").first.is_visible() and notes.first.is_visible()
    folds.first.evaluate("d => { d.open = true; }")
    assert page.locator(".result-card").first.is_visible() and not notes.first.is_visible()
    page.emulate_media(media="screen")
    assert page.locator(".round-summary").first.is_visible()
    # So does section 4's table per table and round, under its line of totals; and the
    # class's view its tables of counts (a table of 40 rows a round, and the seating's).
    clash_fold, clash_note = (
        page.locator("#clashes details.fold"),
        page.locator("#clashes .print-only"),
    )
    assert clash_fold.count() == clash_note.count() == 1
    assert page.locator(".clashes-summary").is_visible() and not clash_note.is_visible()
    assert not clash_fold.locator("table").is_visible()
    page.emulate_media(media="print")
    assert clash_note.is_visible() and not clash_fold.locator("table").is_visible()
    clash_fold.evaluate("d => { d.open = true; }")
    assert not clash_note.is_visible() and clash_fold.locator("table").is_visible()
    page.emulate_media(media="screen")
    cls = facilitator_page(
        user, f"/workshops/{w.pk}/report/?view=class", viewport={"width": 390, "height": 768}
    )
    assert cls.locator("#movement details.fold, #results details.fold").count() == 1 + played
    assert cls.locator(".seating-summary").is_visible()
    assert cls.locator(".round-summary").count() == played
    assert not cls.locator("table.class-seating").is_visible()
    cls.context.close()
    # The cards of every round, opened as a facilitator would.
    folds.evaluate_all("ds => ds.forEach(d => { d.open = true; })")
    # Laptops, a small laptop, phones. The two scored rounds' cards, and home play's
    # when it had a game played (above).
    widths = (1280, 1366, 1440, 1024, 390, 360)
    found = {}
    for width in widths:
        page.set_viewport_size({"width": width, "height": 768})
        found[width] = {**page.evaluate(CARDS), "headers": broken_headers(page)}
    fine = {"page": 0, "cards": played * 40, "sticking_out": [], "broken": [], "headers": []}
    expected = dict.fromkeys(widths, fine)
    # At 360 px "Bartholomew" is wider than what the other three columns leave it:
    # it breaks, inside its card.
    del found[360]["broken"]
    expected[360] = {k: v for k, v in fine.items() if k != "broken"}
    assert found == expected, json.dumps(found)
    # For a person to look at: the last scored round's first cards, and the long name's.
    last_round = page.locator("section.round").last
    for width, name in ((1366, "report-forty-cards"), (390, "report-forty-cards-phone")):
        page.set_viewport_size({"width": width, "height": 768})
        last_round.locator("h3").evaluate("h => h.scrollIntoView()")
        page.screenshot(path=str(artifacts / f"{name}.png"))
        last_round.locator("tbody th", has_text="Maria Fernanda").evaluate(
            "el => el.closest('.result-card').scrollIntoView()"
        )
        page.screenshot(path=str(artifacts / f"{name}-long-name.png"))
    page.context.close()


def test_the_class_view_for_the_projector(
    facilitator_page, artifacts, monkeypatch, django_user_model
):
    """From the full report a link opens the class's view (no student named), which
    passes the accessibility audit on a laptop and a phone, fits a small phone's
    width, and prints without its links; a link goes back to the full report."""
    from axe_check import assert_accessible

    user, facts = scripted(monkeypatch, django_user_model)
    names = [p.name for p in Player.objects.filter(workshop=facts["workshop"])]
    path = f"/workshops/{facts['workshop'].pk}/report/"
    page = facilitator_page(user, path, viewport={"width": 1280, "height": 800})
    page.get_by_role("link", name="For the projector: the report without names").click()
    page.wait_for_url("**/report/?view=class")
    text = page.locator("main").inner_text()
    assert "5 The class" in text and "Rule knobs per table" in text
    assert [n for n in names if n in text] == []
    assert_accessible(page, "the class's report at 1280 px")
    page.screenshot(path=str(artifacts / "report-class.png"))
    page.emulate_media(media="print")
    assert not page.locator(".view-switch").is_visible()
    page.pdf(path=str(artifacts / "report-class.pdf"), format="A4", print_background=True)
    page.emulate_media(media="screen")
    page.get_by_role("link", name="Full report, with names").click()
    page.wait_for_url(f"**{path}")
    assert page.get_by_role("heading", name="5 Per player").count() == 1
    page.context.close()

    small = phone_report(
        facilitator_page, user, path + "?view=class", "the class's report at 360 px"
    )
    small.screenshot(path=str(artifacts / "report-class-phone.png"))
    for section in ("movement", "results", "players"):
        small.locator(f"section#{section}").screenshot(
            path=str(artifacts / f"report-class-{section}-phone.png")
        )
    small.context.close()
