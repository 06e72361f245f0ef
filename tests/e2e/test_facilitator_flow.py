"""A facilitator runs a workshop from a laptop while eight phones play (issue 5).

The facilitator signs up, creates a 2-table workshop in the wizard (rounds of
30 s, the minimum), opens the projector view, and eight players join from
separate phone-sized browser contexts. The facilitator seats them, runs study,
silent play and one scored round, edits one player's table in the movement
preview and applies it; every phone then shows its new table.

Server: the `live_server_url` fixture of tests/e2e/conftest.py, i.e. Daphne in a
subprocess on a free port, against this run's file-backed test database (the
`BARNGA_TEST_DB` file). pytest-django's `live_server` is WSGI-only and serves no
websockets. Daphne runs its own timer loop (every 0.2 s), so the round really
ends by its timer: to keep the test short, the test moves the running round's
deadline to one second from now instead of waiting the full 30 s; the server's
timer then finalises it and the panel receives the movement preview over its
socket without a reload.

Screenshots (artifacts/, gitignored): facilitator-projector.png (during the
round), facilitator-panel.png (during the round), facilitator-movement.png (the
edited preview), facilitator-table.png (one table, all hands).

Run alone: `BARNGA_TEST_DB=/tmp/e2e.sqlite3 .venv/bin/python -m pytest -m browser
tests/e2e/test_facilitator_flow.py`.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournament.models import Phase, Player, Round, RoundKind, Workshop
from tournament.templatetags.cards import card_face

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai", "Dev", "Eli", "Fay", "Gus", "Hal"]
WAIT = 8000


def message(page) -> str:
    return page.inner_text("#fac-message")


def click_and_wait_message(page, selector: str, text: str):
    page.click(selector)
    page.wait_for_function(
        "t => (document.getElementById('fac-message')?.textContent || '').includes(t)",
        arg=text,
        timeout=WAIT,
    )


def test_facilitator_runs_study_silent_play_a_round_and_movement(
    live_server_url, browser, phone, artifacts, transactional_db, sign_up
):
    url = live_server_url
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    fac = laptop.new_page()

    # 1. Sign up, then the wizard.
    sign_up(fac, "facilitator")
    fac.fill("#id_name", "Browser workshop")
    fac.fill("#id_table_count", "2")
    fac.fill("#id_seats_per_table", "4")
    fac.fill("#id_round_minutes", "0.5")
    # The per-table sheet choices appear only when asked for.
    assert not fac.locator("#per-table").is_visible()
    fac.check("input[name=sheet_mode][value=choose]")
    assert fac.locator(".table-sheet[data-table='2']").is_visible()
    assert not fac.locator(".table-sheet[data-table='3']").is_visible()
    fac.check("input[name=sheet_mode][value=auto]")
    fac.click("#setup-form button[type=submit]")
    fac.wait_for_selector("#fac-status")
    workshop = Workshop.objects.get()
    assert (workshop.table_count, workshop.seats_per_table, workshop.round_seconds) == (2, 4, 30)
    code = fac.inner_text("#fac-status .code").strip()
    assert code == workshop.code
    fac.wait_for_selector("#fac-live[data-updated]", timeout=WAIT)  # the socket's snapshot

    # 2. The projector, in its own tab.
    proj = laptop.new_page()
    proj.set_viewport_size({"width": 1280, "height": 720})
    proj.goto(f"{url}/workshops/{workshop.pk}/projector/")
    assert proj.inner_text(".proj-code").strip() == code
    assert f"/j/{code}" in proj.inner_text(".proj-url")
    assert proj.locator(".proj-qr svg").count() == 1
    proj.wait_for_selector("#fac-live[data-updated]", timeout=WAIT)

    # 3. Eight phones join; names appear live on the projector and the panel.
    # Each step is started on every phone before waiting on any, as a room would.
    phones = {name: phone() for name in NAMES}
    for page in phones.values():
        page.goto(f"{url}/j/{code}", wait_until="commit")
    for name, page in phones.items():
        page.fill("#name", name)
        page.click("button[type=submit]", no_wait_after=True)
    for page in phones.values():
        page.wait_for_selector("#screen", timeout=WAIT)
    proj.wait_for_function(
        "() => document.querySelectorAll('.proj-names li').length === 8", timeout=WAIT
    )
    fac.wait_for_function(
        "() => document.querySelectorAll('#fac-roster .roster-row').length === 8", timeout=WAIT
    )

    # 4. Seat at home tables, study, silent play, round 1.
    click_and_wait_message(fac, "#do-seat-auto", "8 players seated")
    # By keyboard: the panel is replaced whole, and focus goes to the answer (a
    # screen reader reads it), not to the top of the page; Tab goes on from there.
    fac.focus("#do-start-study")
    fac.keyboard.press("Enter")
    fac.wait_for_function(
        "t => (document.getElementById('fac-message')?.textContent || '').includes(t)",
        arg="Study has started",
        timeout=WAIT,
    )
    assert fac.evaluate("document.activeElement.id") == "fac-message"
    fac.keyboard.press("Tab")
    assert fac.evaluate("document.getElementById('panel').contains(document.activeElement)")
    for page in phones.values():
        page.wait_for_selector(".sheet", timeout=WAIT)
    click_and_wait_message(fac, "#do-start-home", "Silent play")
    for page in phones.values():
        page.wait_for_selector(".silence", timeout=WAIT)
        assert page.locator(".sheet").count() == 0
    click_and_wait_message(fac, "#do-start-round", "Round 1 has started")
    assert Workshop.objects.get().phase == Phase.ROUND

    # A card played on a phone shows up on the monitor.
    player_on_turn = None
    for page in phones.values():
        page.wait_for_selector("#screen[data-phase=round] .hand", timeout=WAIT)
    for name, page in phones.items():
        if page.locator(".hand .card.legal").count():
            player_on_turn = name
            card = page.locator(".hand .card.legal").first.get_attribute("data-card")
            page.locator(".hand .card.legal").first.click()
            break
    assert player_on_turn is not None, "nobody's turn on any phone"
    fac.wait_for_function(
        "n => document.querySelectorAll('#fac-monitor .mini-card').length >= n", arg=1, timeout=WAIT
    )
    proj.wait_for_selector(".proj-clock", timeout=WAIT)
    proj_html = proj.content()
    assert card_face(card) not in proj.inner_text("body")
    assert "trump" not in proj_html.lower() and "highest" not in proj_html.lower()
    proj.screenshot(path=str(artifacts / "facilitator-projector.png"))
    fac.screenshot(path=str(artifacts / "facilitator-panel.png"), full_page=True)

    # The click-through shows every hand (facilitator only).
    table_page = laptop.new_page()
    table_page.goto(f"{url}/workshops/{workshop.pk}/tables/1/")
    assert table_page.locator(".spectator-seats .card").count() > 4
    table_page.screenshot(path=str(artifacts / "facilitator-table.png"), full_page=True)
    table_page.close()

    # 5. The round's timer runs out (deadline moved close; the server's timer ends it).
    rnd = Round.objects.get(workshop=workshop, kind=RoundKind.SCORED)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() + timedelta(seconds=1))
    fac.wait_for_selector("#do-movement-apply", timeout=WAIT)
    rnd.refresh_from_db()
    assert rnd.finished_by == "timer"

    # 6. One manual edit: someone the rule keeps at table 1 goes to table 2.
    moving = {m["player"] for m in rnd.movement_preview["moves"]}
    stayer = next(
        p for p in Player.objects.filter(workshop=workshop, table__number=1) if p.pk not in moving
    )
    sizes_before = fac.inner_text(".movement-sizes")
    fac.select_option(f"select[name=to_{stayer.pk}]", "2")
    # Apply takes the choice on screen, saved or not: the table sizes follow it now.
    sizes = fac.inner_text(".movement-sizes")
    assert sizes != sizes_before and "not saved yet; Apply takes them" in sizes, sizes
    fac.screenshot(path=str(artifacts / "facilitator-movement.png"), full_page=True)
    click_and_wait_message(fac, "#do-movement-apply", "Movement applied")
    rnd.refresh_from_db()
    assert rnd.movement_applied_at is not None
    assert Player.objects.get(pk=stayer.pk).table.number == 2

    # 7. Every phone shows its new table.
    expected = {p.name: p.table.number for p in Player.objects.filter(workshop=workshop)}
    assert len(moving) + 1 == sum(1 for m in rnd.movements.all() if m.from_table != m.to_table)
    for name, page in phones.items():
        # Before Apply a stayer's phone already said "Table N": the movement is shown
        # once "you may move to another table" has gone.
        page.wait_for_function(
            "t => (document.querySelector('#screen .where')?.textContent || '').trim() === t"
            " && !document.getElementById('screen').textContent.includes('may move to another')",
            arg=f"Table {expected[name]}",
            timeout=WAIT,
        )
    assert "Start round 2" in fac.inner_text("#do-start-round")
    laptop.close()
