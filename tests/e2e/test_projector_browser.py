"""The projector fits a big class on one screen: it cannot be scrolled in front of
the room. At 1280x720, the latest of sixty names that fit under the join code in the
lobby (the rest counted), and twelve tables' occupancy under the clock in a round."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from axe_check import assert_accessible
from phones import heard, watch_heard

from tournament import services

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from tournament_helpers import make_workshop  # noqa: E402

pytestmark = [pytest.mark.browser]
WAIT = 8000
SCREEN = {"width": 1280, "height": 720}
FIRST = ["Alexandra", "Bartholomew", "Chen", "Dmitri", "Esperanza", "Fatima", "Guillermo",
         "Hiroshi", "Ingrid", "Jean-Baptiste", "Kwame", "Leilani", "Mohammed", "Nguyen",
         "Olga", "Priyanka", "Quentin", "Rosalind", "Sven", "Tatiana"]  # fmt: skip


def below_the_screen(page) -> list[str]:
    """Whatever of the live view is drawn wholly or partly below the screen's edge."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#fac-live *')]
             .filter(e => e.getClientRects().length
                          && e.getBoundingClientRect().bottom > innerHeight + 1)
             .map(e => e.tagName + '.' + e.className + ' ' + e.textContent.trim().slice(0, 20))"""
    )


def bottom(page, selector: str) -> float:
    box = page.locator(selector).last.bounding_box()
    assert box is not None, selector
    return box["y"] + box["height"]


def projector_of_a_class(facilitator_page, django_user_model, names, tables):
    """A workshop of `tables` tables of five that `names` have joined, and its
    facilitator's projector page on a 1280x720 screen."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=names, tables=tables, seats=5, seed=3, facilitator=user)
    return w, facilitator_page(user, f"/workshops/{w.pk}/projector/", viewport=SCREEN)


def projector_at_a_bots_round(facilitator_page, django_user_model, **workshop):
    """A workshop (`workshop`: make_workshop's arguments) whose empty seats bots fill, at
    its first scored round, and its facilitator's projector page on a 1280x720 screen:
    the workshop, the round and the page."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(facilitator=user, bots_enabled=True, **workshop)
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    rnd = services.round_start(workshop_id=w.pk)
    return w, rnd, facilitator_page(user, f"/workshops/{w.pk}/projector/", viewport=SCREEN)


def shown_names(page) -> list[str]:
    """The lobby's names drawn on the screen (the earliest that do not fit are hidden)."""
    return page.locator(".proj-names li[data-name]:visible").all_inner_texts()


def test_sixty_names_and_twelve_tables_fit_the_projector(facilitator_page, django_user_model):
    names = [f"{FIRST[i % 20]} {'ABC'[i // 20]}" for i in range(60)]
    w, page = projector_of_a_class(facilitator_page, django_user_model, names, tables=12)
    # As many of the latest as fit, the rest counted (at the size the room reads).
    shown = shown_names(page)
    assert 0 < len(shown) < 60
    assert shown == names[-len(shown) :]
    assert page.inner_text(".proj-earlier").strip() == f"{60 - len(shown)} earlier…"
    assert below_the_screen(page) == []
    assert bottom(page, ".proj-names li") <= SCREEN["height"]
    assert bottom(page, ".proj-code") <= SCREEN["height"]

    # Each timed phase: its name on one line, the clock and every table in view.
    services.players_seat_home(workshop_id=w.pk)
    for start, name in [
        (services.workshop_start_study, "Study the rules"),
        (services.workshop_start_home, "Silent play at home tables"),
        (services.round_start, "Scored round · Round 1"),
    ]:
        start(workshop_id=w.pk)
        page.wait_for_function(
            "t => document.querySelector('.proj-phase')?.textContent.trim() === t",
            arg=name,
            timeout=WAIT,
        )
        page.wait_for_selector(".proj-clock", timeout=WAIT)
        assert page.locator(".proj-tables li").count() == 12
        # Nothing cut off at the screen's edge: the names were for joining, the count stays.
        assert below_the_screen(page) == [], name
        assert page.locator(".proj-names").count() == 0
        assert page.inner_text(".proj-names-h").strip() == "60 joined"
    page.context.close()


def test_forty_tables_fit_and_a_closed_workshop_shows_no_way_to_join(
    facilitator_page, django_user_model
):
    """A conference of 200 at forty tables: the clock and every table on one screen.
    Joining locked, or the debrief: the code, the QR code and "Scan the code" go; the
    debrief says the tournament is over, not also that joining is closed."""
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(200)]
    w, page = projector_of_a_class(facilitator_page, django_user_model, names, tables=40)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    page.wait_for_selector(".proj-clock", timeout=WAIT)
    assert page.locator(".proj-tables li").count() == 40
    assert below_the_screen(page) == []
    assert_accessible(page, "projector, forty tables")
    join = page.locator(".proj-join")
    assert join.is_visible()
    services.workshop_set_joining(workshop_id=w.pk, locked=True)
    page.wait_for_selector(".proj-locked", timeout=WAIT)
    assert not join.is_visible()
    services.workshop_set_joining(workshop_id=w.pk, locked=False)
    page.wait_for_selector(".proj-locked", state="detached", timeout=WAIT)
    assert join.is_visible()
    services.workshop_start_debrief(workshop_id=w.pk)
    phase_reads(page, "The tournament is over")
    assert not join.is_visible()
    # Over: said once, not beside "Joining is closed".
    assert page.locator(".proj-locked").count() == 0
    assert_accessible(page, "projector, debrief")
    page.context.close()


def test_forty_tables_in_a_round_with_bots_fit_the_projector(facilitator_page, django_user_model):
    """A round of forty tables: "Scored round · Round 1" is too long for the clock to
    stand beside it, so the clock took a line of its own and "5 joined · 195 bots" was
    cut off at the screen's foot (a review at 1280x720: 758 px of page on 720). The
    count stands beside the clock instead; nothing is below the screen's edge."""
    w, rnd, page = projector_at_a_bots_round(
        facilitator_page, django_user_model, names=FIRST[:5], tables=40, seats=5, seed=3
    )
    page.wait_for_selector(".proj-clock", timeout=WAIT)
    assert page.inner_text(".proj-phase").strip() == "Scored round · Round 1"
    assert page.locator(".proj-tables li").count() == 40
    assert page.inner_text(".proj-names-h").strip() == "5 joined · 195 bots"
    assert page.locator(".proj-join").is_visible()  # latecomers can still join
    height = page.evaluate("() => [document.documentElement.scrollHeight, innerHeight]")
    assert height[0] <= height[1], height
    assert below_the_screen(page) == []
    assert_accessible(page, "projector, a round of forty tables")
    # Paused too: "Paused" joins the clock's line, and the count still fits beside it.
    services.round_pause(round_id=rnd.pk)
    page.wait_for_selector(".proj-paused", timeout=WAIT)
    height = page.evaluate("() => [document.documentElement.scrollHeight, innerHeight]")
    assert height[0] <= height[1], height
    assert below_the_screen(page) == []
    assert small_type(page) == []  # read from the back of the room
    page.context.close()


def test_a_conference_lobby_shows_the_count_and_the_latest_names_on_one_screen(
    facilitator_page, django_user_model
):
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(200)]
    _, page = projector_of_a_class(facilitator_page, django_user_model, names, tables=40)
    assert page.inner_text(".proj-names-h").strip() == "200 joined"
    # The server sends the latest sixty; the screen shows as many of those as fit.
    assert page.locator(".proj-names li[data-name]").count() == 60
    shown = shown_names(page)
    assert 0 < len(shown) < 60
    assert shown == names[-len(shown) :]  # the latest to join, in order: a student finds their own
    assert page.inner_text(".proj-earlier").strip() == f"{200 - len(shown)} earlier…"
    assert below_the_screen(page) == []
    assert bottom(page, ".proj-names li") <= SCREEN["height"]
    page.context.close()


def chip_lines(page) -> list[str]:
    """Each table's chip that is not one line high, or whose words run past it or past
    the screen's edge: at forty tables "Table 38 6 players" wrapped (found by a
    review), and its grid row stood taller than the others."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.proj-tables li')].filter(li => {
             const s = getComputedStyle(li);
             const line = parseFloat(s.lineHeight)
               + parseFloat(s.paddingTop) + parseFloat(s.paddingBottom);
             const box = li.getBoundingClientRect();
             const spans = [...li.querySelectorAll(':scope > span')]
               .map(e => e.getBoundingClientRect());
             return Math.abs(box.height - line) > 1
               || li.scrollWidth > li.clientWidth
               || box.right > document.documentElement.clientWidth
               || spans.some(r => r.right > box.right + 0.5 || r.top - box.top > line / 2);
           }).map(li => li.textContent.replace(/\\s+/g, ' ').trim())"""
    )


@pytest.mark.parametrize(
    "screen", [(1920, 1080), (1366, 768), (1280, 720)], ids=["1080p", "1366", "720p"]
)
def test_forty_tables_chips_are_one_line_each_an_over_full_one_too(
    facilitator_page, django_user_model, screen
):
    """Forty tables of five, one with a sixth player ("Table 38 6 players": words, not
    "6/5"): every chip one line, its words inside it, at a projector's usual sizes."""
    from tournament.models import Player

    width, height = screen
    user = django_user_model.objects.create_user("fac", password="unused-here")
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(200)]
    w = make_workshop(names=names, tables=40, seats=5, seed=3, facilitator=user)
    # Seated by hand as the automatic seating did, but one of table 1's at table 38.
    services.players_seat_home(workshop_id=w.pk)
    seated = {p.pk: p.table.number for p in Player.objects.filter(workshop=w)}
    seated[next(pk for pk, n in seated.items() if n == 1)] = 38
    services.players_seat_home(workshop_id=w.pk, assignment=seated)
    services.workshop_start_study(workshop_id=w.pk)
    page = facilitator_page(
        user, f"/workshops/{w.pk}/projector/", viewport={"width": width, "height": height}
    )
    page.wait_for_selector(".proj-clock", timeout=WAIT)
    assert page.locator(".proj-tables.crowd li").count() == 40
    chips = page.locator(".proj-tables li").all_inner_texts()
    assert any(" ".join(c.split()) == "Table 38 6 players" for c in chips), chips
    assert chip_lines(page) == []
    assert below_the_screen(page) == []
    assert small_type(page) == []
    page.context.close()


def small_type(page, least: float = 18) -> list[str]:
    """The projector's words drawn smaller than `least` px, those for a screen reader
    aside: at forty tables on a 1280x720 screen the tables' chips were 17.3 px, under
    what the back of a room reads (found by a review of a conference's wall)."""
    return page.evaluate(
        """(least) => [...document.querySelectorAll('main *:not(.visually-hidden)')]
             .filter(e => e.getClientRects().length && [...e.childNodes]
               .some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
             .filter(e => parseFloat(getComputedStyle(e).fontSize) < least)
             .map(e => e.textContent.trim().slice(0, 20)
                  + ' ' + getComputedStyle(e).fontSize)""",
        least,
    )


def chip_places(page) -> list[list[float]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('.proj-tables li, .proj-clock, .proj-phase')]
             .map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y]; })"""
    )


def under_the_line(page) -> list[str]:
    """What of the live view the connection line is drawn over (a name's or a table's
    chip, the count): what the room can no longer read while it shows."""
    return page.evaluate(
        """() => {
          const line = document.getElementById('connection').getBoundingClientRect();
          return [...document.querySelectorAll(
              '#projector-live :is(li, .proj-names-h, .proj-clock, .proj-phase)')]
            .filter(e => e.getClientRects().length)
            .filter(e => { const r = e.getBoundingClientRect();
                           return r.bottom > line.top && r.top < line.bottom
                                  && r.right > line.left && r.left < line.right; })
            .map(e => e.textContent.trim().slice(0, 20));
        }"""
    )


def test_the_lost_connection_line_covers_no_name_in_the_lobby(facilitator_page, django_user_model):
    """Laid over the screen's foot, the line hid the last row of the lobby's names (a
    student looking for their own did not find it while the network was gone). The
    names fit above the line's place, whether it shows or not: nothing moves when it
    comes or goes."""
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(60)]
    w, page = projector_of_a_class(facilitator_page, django_user_model, names, tables=12)
    before = shown_names(page)
    line = page.locator("#connection")
    page.context.set_offline(True)
    line.wait_for(state="visible", timeout=WAIT)
    assert under_the_line(page) == []
    assert shown_names(page) == before
    page.context.set_offline(False)
    line.wait_for(state="hidden", timeout=15000)
    assert shown_names(page) == before
    page.context.close()


@pytest.mark.parametrize("tables", [24, 40])
def test_the_lost_connection_line_moves_nothing_on_the_wall(
    facilitator_page, django_user_model, tables
):
    """The network gone (the laptop's wifi), then back: "Offline — waiting for the
    network…", then "Live updates are back.", on a line that took its own place above
    the phase. It pushed the clock and the tables down (the whole wall jumped, twice),
    and at forty tables the last rows went below a 1280x720 screen's edge. Laid over
    the foot of the screen instead: nothing moves, nothing is cut off."""
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(tables * 5)]
    w, page = projector_of_a_class(facilitator_page, django_user_model, names, tables=tables)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    page.wait_for_selector(".proj-clock", timeout=WAIT)
    before = chip_places(page)
    line = page.locator("#connection")
    page.context.set_offline(True)
    line.wait_for(state="visible", timeout=WAIT)
    assert line.inner_text() == "Offline — waiting for the network…"
    assert chip_places(page) == before
    assert below_the_screen(page) == []
    box = line.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SCREEN["height"]
    assert under_the_line(page) == []  # the last row of tables not hidden under it
    # Readable from the back of the room, as the rest of the wall.
    assert float(line.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 24
    assert_accessible(page, "projector, offline")
    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.getElementById('connection').textContent === 'Live updates are back.'",
        timeout=15000,
    )
    assert chip_places(page) == before
    line.wait_for(state="hidden", timeout=15000)
    assert chip_places(page) == before
    page.context.close()


READING = """() => [...document.querySelectorAll(
      '#projector-live :is(.proj-phase, .proj-clock, .proj-names-h, .proj-tables li)')]
    .map(e => e.matches('.proj-tables li') ? 'table' : e.className.split(' ')[0])
    .filter((k, i, all) => k !== 'table' || all[i - 1] !== 'table')"""


@pytest.mark.parametrize("tables", [12, 30])
def test_the_count_is_read_in_one_place_before_the_tables(
    facilitator_page, django_user_model, tables
):
    """Heard in the order the room reads it at any number of tables: the phase, the
    clock, the count, then the tables. Up to twenty-four tables the count came after
    every table; past that before them, as a heading over the tables' list (it heads
    nothing once the names it headed in the lobby are gone)."""
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(tables * 5)]
    w, page = projector_of_a_class(facilitator_page, django_user_model, names, tables=tables)
    assert page.locator("h2.proj-names-h").inner_text().strip() == f"{tables * 5} joined"
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    page.wait_for_selector(".proj-clock", timeout=WAIT)
    assert page.evaluate(READING) == ["proj-phase", "proj-clock", "proj-names-h", "table"]
    assert page.locator("#projector-live :is(h2, h3, [role=heading])").count() == 0
    assert page.inner_text(".proj-names-h").strip() == f"{tables * 5} joined"
    assert below_the_screen(page) == []
    page.context.close()


HEADING = "() => document.querySelector('h1').textContent.trim()"


def phase_reads(page, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('.proj-phase')?.textContent.trim() === t",
        arg=text,
        timeout=WAIT,
    )


def test_the_wall_says_a_round_over_and_the_tournament_over_and_its_title_follows(
    facilitator_page, django_user_model
):
    """Between rounds the wall read "Between rounds · Round 1" (over, or next?) and in
    the debrief "Debrief · Round 1"; its heading and tab said "Join …" to the end, as
    they stood outside the part of the page kept live. They say what the phones and
    the panel say: "Round 1 is over", "The tournament is over"; the title follows."""
    w, rnd, page = projector_at_a_bots_round(
        facilitator_page, django_user_model, names=FIRST[:3], tables=2, seats=4
    )
    phase_reads(page, "Scored round · Round 1")
    assert page.title() == "Join Test workshop · Barnga"
    assert page.evaluate(HEADING) == "Join Test workshop"

    services.round_end_now(round_id=rnd.pk)
    phase_reads(page, "Round 1 is over")
    assert page.title() == "Join Test workshop · Barnga"  # latecomers may still join
    # The movement applied, the wall says to move (the phones say where), big enough
    # for the back of the room, and the round still reads over.
    assert page.locator(".proj-moved").count() == 0
    services.movement_apply(round_id=rnd.pk)
    page.wait_for_selector(".proj-moved", timeout=WAIT)
    assert page.inner_text(".proj-moved") == "Go to the table your phone shows."
    assert (
        page.evaluate(
            "() => parseFloat(getComputedStyle(document.querySelector('.proj-moved')).fontSize)"
        )
        >= 24
    )
    phase_reads(page, "Round 1 is over")
    services.workshop_set_joining(workshop_id=w.pk, locked=True)
    page.wait_for_function(
        "() => document.title === 'Test workshop · Round 1 is over · Barnga'", timeout=WAIT
    )
    assert page.evaluate(HEADING) == "Test workshop: Round 1 is over"
    assert page.locator("h1").count() == 1

    services.workshop_start_debrief(workshop_id=w.pk)
    phase_reads(page, "The tournament is over")
    page.wait_for_function(
        "() => document.title === 'Test workshop · The tournament is over · Barnga'",
        timeout=WAIT,
    )
    assert page.evaluate(HEADING) == "Test workshop: The tournament is over"
    assert_accessible(page, "projector, the tournament over")
    # A reload draws what the pushes drew.
    page.reload()
    phase_reads(page, "The tournament is over")
    assert page.title() == "Test workshop · The tournament is over · Barnga"
    assert page.evaluate(HEADING) == "Test workshop: The tournament is over"
    page.context.close()


def test_a_screen_reader_hears_each_name_that_joins_the_lobby_once(
    facilitator_page, django_user_model
):
    """The names list was the live region (aria-live), and each push put in a new list
    whole: a live region that is itself new is often not announced at all. New names
    are said in the page's own log, which stays, once each (a burst in one line)."""
    w, page = projector_of_a_class(facilitator_page, django_user_model, FIRST[:3], tables=2)
    watch_heard(page, "fac-announce")
    services.player_join(workshop_id=w.pk, name="Zoë")
    page.wait_for_function("() => window.__heard.includes('Zoë joined (4 players).')", timeout=WAIT)
    for name in ("Uma", "Vic"):
        services.player_join(workshop_id=w.pk, name=name)
        page.wait_for_function(
            f"() => document.querySelector('.proj-names').innerText.includes('{name}')",
            timeout=WAIT,
        )
    page.wait_for_function(
        "() => window.__heard.includes('Uma and Vic joined (6 players).')", timeout=WAIT
    )
    page.wait_for_timeout(2500)  # (a line said twice would come after the burst's wait)
    assert heard(page) == [
        "Zoë joined (4 players).",
        "Uma and Vic joined (6 players).",
    ]
    # The list itself is no live region: it is new at each push.
    assert page.locator("#projector-live [aria-live]").count() == 0
    assert_accessible(page, "projector, the lobby")
    page.context.close()


def test_the_first_to_join_are_not_counted_twice(facilitator_page, django_user_model):
    """The class's first burst was said "4 players joined (4 players).": the count in
    all is said only when others joined before the names said."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=0, tables=2, seats=5, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/projector/", viewport=SCREEN)
    watch_heard(page, "fac-announce")
    for name in FIRST[:4]:
        services.player_join(workshop_id=w.pk, name=name)
    page.wait_for_function("() => window.__heard.length > 0", timeout=WAIT)
    services.player_join(workshop_id=w.pk, name="Zoë")
    page.wait_for_function("() => window.__heard.length > 1", timeout=WAIT)
    page.wait_for_timeout(2500)  # (a line said twice would come after the burst's wait)
    assert heard(page) == ["4 players joined.", "Zoë joined (5 players)."]
    page.context.close()


def test_a_seat_moved_to_another_phone_with_its_pin_is_no_join(facilitator_page, django_user_model):
    """A student whose phone died takes their seat back on another with the rejoin PIN:
    the same player, not a new one. The projector's log does not say they joined, and
    the count stays; in a round, back after their seat was skipped, they are counted
    once again. It says "… is back on a new phone." as the panel does
    (test_panel_browser), in the lobby and in a round (where it draws no names): it
    had said nothing of them."""
    from tournament.models import Player

    w, page = projector_of_a_class(facilitator_page, django_user_model, FIRST[:3], tables=2)
    watch_heard(page, "fac-announce")
    services.player_join(workshop_id=w.pk, name="Zoë")
    page.wait_for_function("() => window.__heard.includes('Zoë joined (4 players).')", timeout=WAIT)
    for name in ("Zoë", FIRST[0]):
        p = Player.objects.get(workshop=w, name=name)
        services.player_rejoin(code=w.code, name=name, pin=p.pin)
    # A join after them: its line comes after anything the rejoins made the page say.
    services.player_join(workshop_id=w.pk, name="Uma")
    # (In the burst of the rejoins before it: one line may say both.)
    page.wait_for_function(
        "() => window.__heard.some((l) => l.includes('Uma joined (5 players).'))", timeout=WAIT
    )
    page.wait_for_timeout(2500)  # (a line said twice would come after the burst's wait)
    said = " ".join(heard(page))
    assert re.findall(r"\w+ joined \(\d players\)\.", said) == [
        "Zoë joined (4 players).",
        "Uma joined (5 players).",
    ], said
    # The two rejoins, said once each: together, or apart if a busy machine sent them
    # more than the burst's wait apart.
    back = re.findall(r"\w[\w ]*? (?:is|are) back on a new phone\.", said)
    assert back in (
        ["Zoë and Alexandra are back on a new phone."],
        ["Zoë is back on a new phone.", "Alexandra is back on a new phone."],
    ), said
    assert page.inner_text("h2.proj-names-h").strip() == "5 joined"
    assert page.locator(".proj-names li[data-name]").count() == 5

    # In a round: one leaves, the seat skipped, and comes back with the PIN.
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    page.wait_for_function(
        "() => document.querySelector('.proj-phase')?.textContent.includes('Round 1')",
        timeout=WAIT,
    )
    before = len(heard(page))
    chen = Player.objects.get(workshop=w, name="Chen")
    services.player_leave(player_id=chen.pk, policy="skip")
    page.wait_for_function(
        "() => document.querySelector('.proj-names-h')?.textContent.trim() === '4 joined'",
        timeout=WAIT,
    )
    services.player_rejoin(code=w.code, name="Chen", pin=chen.pin)
    page.wait_for_function(
        "() => document.querySelector('.proj-names-h')?.textContent.trim() === '5 joined'",
        timeout=WAIT,
    )
    page.wait_for_function(
        "() => window.__heard.includes('Chen is back on a new phone.')", timeout=WAIT
    )
    page.wait_for_timeout(2500)
    assert heard(page)[before:].count("Chen is back on a new phone.") == 1
    assert not [line for line in heard(page)[before:] if "joined" in line]
    seats = page.locator(".proj-tables .visually-hidden").all_inner_texts()
    assert sum(int(s.split()[0]) for s in seats) == 5, seats
    page.context.close()
