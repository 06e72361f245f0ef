"""The control panel while the class changes under it: a live push must not take
the control the facilitator is pressing or has focused (a region replaced between
pointerdown and click lost the click; a keyboard user's focus fell to the page).
Chromium, with the page's own socket."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from phones import heard, watch_heard

from tournament import services

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from tournament_helpers import (  # noqa: E402
    five_tricks_step,
    game_at,
    make_workshop,
    state_of,
    tables_of,
    to_scored_round,
)

pytestmark = [pytest.mark.browser]
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


def test_a_press_or_a_focus_in_the_roster_survives_a_push(facilitator_page, django_user_model):
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo", "Cai"], tables=1, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    roster = page.locator("#fac-roster")

    # A keyboard user on Bo's "Rename, remove, PIN": a join replaces the roster, and
    # the focus is on Bo's again, in the new roster.
    page.locator(f"#tools-{w.players.get(name='Bo').pk} summary").focus()
    services.player_join(workshop_id=w.pk, name="Dee")
    # The join's own push (a page puts all of a push's regions in at once): Dee shows.
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Dee')", timeout=8000
    )
    focus = page.evaluate(
        """() => { const a = document.activeElement;
             return [a.isConnected, !!a.closest('#fac-roster'), a.textContent.trim()]; }"""
    )
    assert focus == [True, True, "Rename, remove, PIN Bo"], focus

    # A press on Cai's: a push that arrives between pointerdown and pointerup leaves
    # the roster (and the pressed control) in place, so the click lands; the push is
    # put in as soon as the press is over.
    summary = page.locator(f"#tools-{w.players.get(name='Cai').pk} summary")
    summary.evaluate("el => { el.dataset.pressed = 'yes'; }")
    b = summary.bounding_box()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    page.mouse.down()
    services.player_join(workshop_id=w.pk, name="Eve")
    # The join's own push came: its status (not held) counts Eve, so the roster drawn
    # with it was held, not late. (Any push after a mark would do for a push still on
    # its way, and "Eve not in the roster" would hold of the screen before the join.)
    page.wait_for_function(
        "() => document.getElementById('fac-status').innerText.includes('5 players')",
        timeout=8000,
    )
    assert page.locator("[data-pressed=yes]").count() == 1  # the same element, not replaced
    assert "Eve" not in roster.inner_text()  # held while pressed
    page.mouse.up()
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Eve')", timeout=8000
    )
    # The click opened Cai's tools, and they stay open in the roster put in after it.
    assert page.locator(f"#tools-{w.players.get(name='Cai').pk}").get_attribute("open") == ""
    page.context.close()


def test_a_push_that_leaves_the_clock_as_it_was_does_not_set_it_back(
    facilitator_page, django_user_model
):
    """Pushes carry only changed regions, and every push restarts the page's clocks:
    a clock already counting keeps its end; only a clock just put in is set."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=4, tables=1, seats=4, seed=3, facilitator=user)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.wait_for_selector("#fac-status .timer[data-end]")
    end = page.evaluate("document.querySelector('#fac-status .timer').dataset.end")
    page.wait_for_timeout(1500)
    page.evaluate("window.Barnga.startClocks()")  # what a push of another region does
    assert page.evaluate("document.querySelector('#fac-status .timer').dataset.end") == end
    page.context.close()


def test_a_rename_typed_then_folded_away_does_not_freeze_the_roster(
    facilitator_page, django_user_model
):
    """A name typed in a rename box that was then closed unsent held the roster back
    for good: joins stopped showing until some control was pressed (found by a
    review). Open and typed in (focus gone elsewhere), the roster is live and the name
    typed comes over into it; closed, it stays live."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo"], tables=1, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    roster = page.locator("#fac-roster")
    ana = w.players.get(name="Ana").pk
    page.locator(f"#tools-{ana} summary").click()
    page.fill(f"#rename-{ana}", "Anna")
    page.locator("h1").first.click()  # focus leaves the box, which stays open
    services.player_join(workshop_id=w.pk, name="Cai")
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Cai')", timeout=8000
    )
    assert page.input_value(f"#rename-{ana}") == "Anna"  # the facilitator may come back to it
    assert page.locator(f"#tools-{ana}").get_attribute("open") == ""
    page.locator(f"#tools-{ana} summary").click()  # folded away unsent
    services.player_join(workshop_id=w.pk, name="Dee")
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Dee')", timeout=8000
    )
    assert "Cai" in roster.inner_text()
    page.context.close()


def answer_of(page, press):
    """Press a control; its response's status, whether it was the message alone, and
    the message shown."""
    with page.expect_response(lambda r: "/do/" in r.url) as info:
        press()
    response = info.value
    # Focus on the answer, or on the refused field it describes.
    page.wait_for_function(
        """() => { const a = document.activeElement;
             return a && (a.id === 'fac-message'
               || a.getAttribute('aria-describedby') === 'fac-message'); }""",
        timeout=8000,
    )
    alone = response.headers.get("hx-retarget") == "#fac-message"
    return response.status, alone, page.inner_text("#fac-message").strip()


def test_with_the_socket_live_an_answer_is_its_message_and_a_refusal_keeps_the_edit(
    facilitator_page, django_user_model
):
    """A control's answer was the whole panel (700 kB at 200 players), drawn again for
    the socket, and put in over everything: a refused rename lost the name typed.
    With the socket live the answer is the message; the socket brings the roster."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo"], tables=1, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.wait_for_selector("#fac-live[data-updated]")  # the socket's first push: live
    roster = page.locator("#fac-roster")
    ana, bo = w.players.get(name="Ana").pk, w.players.get(name="Bo").pk

    page.locator(f"#tools-{bo} summary").click()
    page.fill(f"#rename-{bo}", "ana")
    status, alone, said = answer_of(page, lambda: page.click(f"#do-rename-{bo}"))
    assert (status, alone) == (400, True) and "already called" in said
    # The keyboard stays on the name to put right, marked and described by the answer.
    field = page.evaluate(
        """() => { const a = document.activeElement;
             return [a.id, a.getAttribute('aria-invalid'), a.getAttribute('aria-describedby')]; }"""
    )
    assert field == [f"rename-{bo}", "true", "fac-message"], field
    # The box stays open with what was typed; a push meanwhile does not take it.
    assert page.locator(f"#tools-{bo}").get_attribute("open") == ""
    assert page.input_value(f"#rename-{bo}") == "ana"
    services.player_join(workshop_id=w.pk, name="Cai")
    # The join's push came: its status (not held) counts Cai, and the roster drawn
    # with it is held. (A page puts a push in, or holds it, in the task that gets it.)
    page.wait_for_function(
        "() => document.getElementById('fac-status').innerText.includes('3 players')",
        timeout=8000,
    )
    assert page.input_value(f"#rename-{bo}") == "ana" and "Cai" not in roster.inner_text()

    page.fill(f"#rename-{bo}", "Bodil")
    status, alone, said = answer_of(page, lambda: page.click(f"#do-rename-{bo}"))
    assert (status, alone, said) == (200, True, "Bo is now called Bodil.")
    page.wait_for_function(
        "() => /Bodil/.test(document.getElementById('fac-roster').innerText)", timeout=8000
    )
    assert "Cai" in roster.inner_text()  # held no more
    assert page.locator(f"#tools-{bo}").get_attribute("open") is None  # folded, as done
    assert page.locator(f"#tools-{ana}").get_attribute("open") is None
    page.context.close()


def test_a_refused_apply_keeps_the_tables_chosen_on_screen(facilitator_page, django_user_model):
    """Apply takes the tables chosen on screen; refused (3 Tricks is two to a table),
    the whole panel came back with the saved plan and every choice was lost."""
    from tournament_helpers import to_scored_round

    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=4, tables=2, seats=2, seed=3, game="three_tricks", facilitator=user)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.wait_for_selector("#fac-live[data-updated]")
    selects = page.locator("#movement-form select")
    chosen = next(s for s in selects.all() if s.input_value() == "2")
    chosen.select_option("1")
    line = page.locator('[data-size-table="1"]')
    assert line.inner_text().startswith("table 1: 3")
    status, alone, said = answer_of(page, lambda: page.click("#do-movement-apply"))
    assert (status, alone) == (400, True) and "Table 1 would have 3 players" in said, said
    assert chosen.input_value() == "1" and line.inner_text().startswith("table 1: 3")
    # The answer has focus: a plan has a field per player, and its first is not the
    # one refused (it was marked invalid and focused).
    assert page.evaluate("() => document.activeElement.id") == "fac-message"
    assert page.locator("#movement-form [aria-invalid]").count() == 0
    chosen.select_option("2")
    status, alone, said = answer_of(page, lambda: page.click("#do-movement-apply"))
    assert (status, alone) == (200, True) and said.startswith("Movement applied"), said
    page.wait_for_selector("#fac-movement >> text=Applied.", timeout=8000)
    page.context.close()


def test_a_rename_that_never_arrived_is_still_an_edit(facilitator_page, django_user_model):
    """The network drops a control on its way: what was typed stays, and a push does
    not take it (the form was counted as sent, and its edit given up)."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo"], tables=1, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.wait_for_selector("#fac-live[data-updated]")
    bo = w.players.get(name="Bo").pk
    page.route("**/do/rename/", lambda route: route.abort())
    page.locator(f"#tools-{bo} summary").click()
    page.fill(f"#rename-{bo}", "Bodil")
    with page.expect_event("requestfailed"):
        page.click(f"#do-rename-{bo}")
    page.locator("h1").first.click()  # focus leaves the box, which stays open
    services.player_join(workshop_id=w.pk, name="Cai")
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Cai')", timeout=8000
    )
    assert page.input_value(f"#rename-{bo}") == "Bodil"  # carried over for the edit
    assert w.players.get(pk=bo).name == "Bo"
    page.context.close()


def test_a_seat_chosen_but_not_sent_keeps_the_roster_live(facilitator_page, django_user_model):
    """A table chosen for a player and not yet sent held the whole roster back: no
    join showed, and after the study began the lobby's seating stayed on screen for
    good. The new roster comes in with the choice kept; once there is no seating any
    more, the choice goes with it."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo", "Cai"], tables=2, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.wait_for_selector("#fac-live[data-updated]")
    roster = page.locator("#fac-roster")
    bo = w.players.get(name="Bo").pk
    page.select_option(f'select[name="home_{bo}"]', "2")
    page.locator("h1").first.click()  # focus leaves the select; nothing is sent
    services.player_join(workshop_id=w.pk, name="Dee")
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Dee')", timeout=8000
    )
    assert page.input_value(f'select[name="home_{bo}"]') == "2"  # still chosen, unsent
    # Sent now, it is what was chosen.
    status, alone, said = answer_of(page, lambda: page.click("#do-seat"))
    assert status == 200, said
    assert w.players.get(pk=bo).table.number == 2

    page.select_option(f'select[name="home_{bo}"]', "1")
    page.locator("h1").first.click()
    services.workshop_start_study(workshop_id=w.pk)
    page.wait_for_function("() => !document.getElementById('seat-form')", timeout=8000)
    assert roster.locator("select").count() == 0
    services.player_join(workshop_id=w.pk, name="Eve")
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Eve')", timeout=8000
    )
    page.context.close()


FOCUS_EVENTS = """() => { window.__focusins = 0;
  document.addEventListener('focusin', () => { window.__focusins += 1; }, true); }"""


def test_a_focused_table_link_stays_the_same_element_while_the_tables_play(
    facilitator_page, django_user_model
):
    """The monitor is redrawn at every move: a keyboard user on "Table 2" had a new link
    focused each time, which a screen reader says again (8 times in 15 s in a review)."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=8, tables=2, seats=4, seed=3, facilitator=user)
    to_scored_round(w)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    link = page.locator("#mt-2 a")
    link.focus()
    link.evaluate("el => { el.mine = 'yes'; }")  # a property: the attributes are redrawn
    page.evaluate(FOCUS_EVENTS)
    game = game_at(tables_of(w)[1])
    for _ in range(3):
        five_tricks_step(game)
        # That move's own push: the cards in the middle as stored (one more each
        # time), not any push after a mark, which a push still on its way from the
        # move before would do.
        cards = len(state_of(game).current)
        assert cards > 0
        page.wait_for_function(
            "n => document.querySelectorAll('#fac-monitor [data-table=\"2\"] .mini-card')"
            ".length === n",
            arg=cards,
            timeout=8000,
        )
    # The moves are shown, and the link is the same element, focused all along.
    focus = page.evaluate(
        """() => { const a = document.activeElement;
             return [a.isConnected, a.mine || '', a.textContent.trim(), window.__focusins]; }"""
    )
    assert focus == [True, "yes", "Table 2", 0], focus
    page.context.close()


def test_a_card_pushed_while_the_monitor_is_held_is_not_undone_when_it_is_put_in(
    facilitator_page, django_user_model
):
    """A move at one table sends its card alone (consumers_facilitator). A whole
    monitor held back under a press (every phone come back: no table waits now), then
    a card put in at once beside the press: the monitor put in on release has that
    card as it came, not as it was before the move."""
    from django.db import transaction

    from tournament import broadcast
    from tournament.models import Player

    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=16, tables=4, seats=4, seed=3, facilitator=user)
    to_scored_round(w)
    Player.objects.filter(workshop=w).update(connected=False)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    mini = "n => document.querySelectorAll('#mt-card-3 .mini-card').length === n"
    page.wait_for_function(mini, arg=0, timeout=8000)
    assert page.locator("#fac-monitor [data-waiting]").count() == 4
    # A press on the monitor's heading: in the monitor, in no card.
    page.locator("#monitor-h").scroll_into_view_if_needed()
    page.locator("#monitor-h").evaluate("el => { el.dataset.pressed = 'yes'; }")
    b = page.locator("#monitor-h").bounding_box()
    page.mouse.move(b["x"] + 5, b["y"] + b["height"] / 2)
    page.mouse.down()
    # Every phone back, every card changed: the whole monitor comes, and is held.
    with transaction.atomic():
        Player.objects.filter(workshop=w).update(connected=True)
        broadcast.workshop_changed_on_commit(workshop_id=w.pk, version=10**6, phones=False)
    page.wait_for_selector("#fac-status .waiting-line", state="detached", timeout=8000)
    assert page.locator("#fac-monitor [data-waiting]").count() == 4
    assert page.locator("[data-pressed=yes]").count() == 1  # held: the same heading
    game = game_at(tables_of(w)[2])
    five_tricks_step(game)
    page.wait_for_function(mini, arg=1, timeout=8000)  # its card alone, put in at once
    page.mouse.up()
    page.wait_for_function(
        "() => document.querySelectorAll('#fac-monitor [data-waiting]').length === 0",
        timeout=8000,
    )
    assert page.locator("#mt-card-3 .mini-card").count() == len(state_of(game).current) == 1
    page.context.close()


def test_a_control_that_goes_with_the_round_leaves_focus_on_the_panels_heading(
    facilitator_page, django_user_model
):
    """The round ended with focus on "+1 minute": the button went with the clock, and
    focus fell to the top of the page just when the next step is due."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=8, tables=2, seats=4, seed=3, facilitator=user)
    rnd = to_scored_round(w)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.locator("#do-extend").focus()
    services.round_end_now(round_id=rnd.pk)
    page.wait_for_selector("#do-extend", state="detached", timeout=8000)
    focus = page.evaluate("() => [document.activeElement.id, document.activeElement.tagName]")
    assert focus == ["status-h", "H2"], focus
    # And keeps it through the region's next update (a join changes its counts): the
    # update took the tabindex that let the heading hold it, and focus fell again.
    services.player_join(workshop_id=w.pk, name="Late")
    page.wait_for_function(
        "() => /9 players/.test(document.getElementById('fac-status').innerText)", timeout=8000
    )
    assert page.evaluate("() => document.activeElement.id") == "status-h"
    # Tab goes on from there to the next step, not from the top of the page.
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('#fac-status')")
    page.context.close()


def test_a_refused_name_left_open_does_not_hold_the_roster(facilitator_page, django_user_model):
    """A refused rename left open (focus gone elsewhere) held the whole roster: three
    students joined over two minutes, and none was shown or said."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo"], tables=1, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    bo = w.players.get(name="Bo").pk
    page.locator(f"#tools-{bo} summary").click()
    page.fill(f"#rename-{bo}", "ana")
    answer_of(page, lambda: page.click(f"#do-rename-{bo}"))
    page.locator("h1").first.click()  # on with the workshop, the box still open
    services.player_join(workshop_id=w.pk, name="Cai")
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Cai')", timeout=8000
    )
    # The name typed and the open box came over into the new roster.
    assert page.input_value(f"#rename-{bo}") == "ana"
    assert page.locator(f"#tools-{bo}").get_attribute("open") == ""
    page.context.close()


CONNECTION_WRITES = """() => { window.__conn = [];
  const el = document.getElementById('connection');
  new MutationObserver(() => window.__conn.push(el.hidden ? '(hidden)' : el.textContent))
    .observe(el, { childList: true, characterData: true, subtree: true, attributes: true,
                   attributeFilter: ['hidden'] }); }"""


def test_a_lost_socket_is_said_once_and_its_return_is_said(
    browser, log_in, live_server_url, django_user_model
):
    """Each retry wrote "Live updates lost — reconnecting…" again (4 times in 4 s in a
    review), and the socket's return was silent: the facilitator kept doubting the panel."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo"], tables=1, seats=4, seed=3, facilitator=user)
    context = browser.new_context(**LAPTOP)
    log_in(context, user)
    page = context.new_page()
    sockets = []
    refuse = {"n": 0}

    def route(ws):
        if refuse["n"]:
            refuse["n"] -= 1
            ws.close()  # refused: the page retries after its backoff
            return
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws/facilitator/**", route)
    page.goto(f"{live_server_url}/workshops/{w.pk}/")
    page.wait_for_selector("#fac-live[data-updated]", timeout=8000)
    page.evaluate(CONNECTION_WRITES)
    refuse["n"] = 3
    sockets[-1].close()  # the live socket drops; three tries fail, the fourth connects
    page.wait_for_function("() => window.__conn.includes('Live updates are back.')", timeout=15000)
    writes = [t for t in page.evaluate("window.__conn") if t != "(hidden)"]
    assert writes == ["Live updates lost — reconnecting…", "Live updates are back."], writes
    assert len(sockets) == 2
    # It goes by itself, and the panel is live again.
    page.wait_for_selector("#connection", state="hidden", timeout=8000)
    services.player_join(workshop_id=w.pk, name="Cai")
    # The join's push itself (the new socket's first push may come after a mark read
    # here, and a wait for any push would then be met by it).
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Cai')", timeout=8000
    )
    context.close()


def test_an_answer_with_focus_stays_until_the_facilitator_moves_on(
    facilitator_page, django_user_model
):
    """A push 8 s after a control emptied its answer (a rejoin PIN being read out)
    while focus was on it: hidden, it dropped focus to the top of the page."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo"], tables=1, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.click("#do-joining-lock")
    page.wait_for_function(
        "() => document.activeElement.id === 'fac-message'"
        " && document.activeElement.textContent.trim() !== ''",
        timeout=8000,
    )
    answer = page.inner_text("#fac-message")
    page.wait_for_timeout(8500)
    ana = w.players.get(name="Ana").pk
    services.player_rename(workshop_id=w.pk, player_id=ana, name="Anna")
    # The rename's own push is in (a page puts all of a push's regions in, and keeps or
    # empties the answer, at once): the answer was kept by it, not checked before it.
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Anna')", timeout=8000
    )
    assert page.inner_text("#fac-message") == answer
    assert page.evaluate("() => document.activeElement.id") == "fac-message"
    # Moved on: the next push takes it away.
    page.keyboard.press("Tab")
    services.player_rename(workshop_id=w.pk, player_id=ana, name="Ana")
    page.wait_for_function(
        "() => !document.getElementById('fac-roster').innerText.includes('Anna')", timeout=8000
    )
    assert page.inner_text("#fac-message").strip() == ""
    page.context.close()


def test_a_focused_row_stays_its_players_when_names_change_hands(
    facilitator_page, django_user_model
):
    """Two updates in one (the page busy a moment): Bo renamed Bea and Ana renamed Bo.
    Focus on Bo's tools went by their words to Ana's row, in silence."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana", "Bo"], tables=1, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    ana, bo = w.players.get(name="Ana").pk, w.players.get(name="Bo").pk
    page.locator(f"#tools-{bo} summary").focus()
    # The page's thread busy for 3 s: the updates meanwhile are taken together.
    page.evaluate(
        "() => { setTimeout(() => { const t = Date.now(); while (Date.now() - t < 3000); }, 0); }"
    )
    services.player_rename(workshop_id=w.pk, player_id=bo, name="Bea")
    services.player_rename(workshop_id=w.pk, player_id=ana, name="Bo")
    # Both renames are in (a push with Bea alone, the second still on its way, would
    # leave focus where it was for a reason that is not the one checked): Bea shows,
    # and Ana's row is called Bo.
    page.wait_for_function(
        """([ana, bo]) => {
             const name = (id) => document.querySelector(`#player-${id} .who`).innerText;
             return name(bo).includes('Bea') && !name(ana).includes('Ana'); }""",
        arg=[ana, bo],
        timeout=8000,
    )
    focus = page.evaluate(
        """() => [document.activeElement.id,
                  document.activeElement.textContent.replace(/\\s+/g, ' ').trim()]"""
    )
    assert focus == [f"tools-summary-{bo}", "Rename, remove, PIN Bea"], focus
    page.context.close()


def test_a_focused_row_stays_focused_when_the_roster_folds(facilitator_page, django_user_model):
    """Past 60 players after the lobby the roster folds into a box: a focused row's
    tools, put in the closed box, lost focus to the top of the page."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=60, tables=12, seats=6, seed=3, facilitator=user)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    assert page.locator("#roster-fold").count() == 0
    first = w.players.get(name="P01").pk
    page.locator(f"#tools-{first} summary").focus()
    services.player_join(workshop_id=w.pk, name="Late")
    page.wait_for_selector("#roster-fold", state="attached", timeout=8000)
    focus = page.evaluate(
        "() => [document.activeElement.id, document.getElementById('roster-fold').open]"
    )
    assert focus == [f"tools-summary-{first}", True], focus
    page.context.close()


def test_an_answer_the_workshop_has_moved_on_from_does_not_stay_as_true(
    facilitator_page, django_user_model
):
    """ "Round 1: one more minute, 2:14 left now." stayed at the top of the panel after
    the round ran out (the answer keeps focus, and kept its place while it had it; found
    by a review of the facilitator's side). Once the situation moves on by itself, an
    answer with focus is marked as from before, and quietly; one without goes at once."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=4, tables=1, seats=4, seed=3, facilitator=user)
    rnd = to_scored_round(w)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.wait_for_selector("#fac-live[data-updated]")  # the socket's first push: live
    message = page.locator("#fac-message")

    # Its own control's push (the clock's new end) leaves the answer as it is.
    deadline = page.get_attribute("#fac-status .timer", "data-deadline")
    status, alone, said = answer_of(page, lambda: page.click("#do-extend"))
    assert (status, alone) == (200, True) and "one more minute" in said, said
    # That push itself: the clock with its new end is in.
    page.wait_for_function(
        "d => document.querySelector('#fac-status .timer').dataset.deadline !== d",
        arg=deadline,
        timeout=8000,
    )
    assert message.inner_text().strip() == said
    assert page.evaluate("document.activeElement.id") == "fac-message"

    # Paused from elsewhere (another tab): focused, the answer stays, marked as from
    # before, and is no longer a live region (the pause itself is said).
    services.round_pause(round_id=rnd.pk)
    page.wait_for_function(
        "() => document.getElementById('fac-message').classList.contains('old')", timeout=8000
    )
    assert message.inner_text().strip() == f"Earlier: {said}"
    assert message.locator("[role]").count() == 0
    assert page.evaluate("document.activeElement.id") == "fac-message"

    # Resumed here, then the round ended from elsewhere with focus gone from the
    # answer: it goes with the push that says so.
    status, alone, said = answer_of(page, lambda: page.click("#do-resume"))
    assert status == 200 and "continues" in said, said
    page.wait_for_function(
        "() => !document.getElementById('fac-message').classList.contains('old')"
    )
    page.locator("h1").first.click()
    services.round_end_now(round_id=rnd.pk)
    # The push that says so (the resume's own may come first): the answer goes with it.
    page.wait_for_function(
        "() => document.getElementById('fac-status').dataset.say.includes('over')", timeout=8000
    )
    assert message.inner_text().strip() == ""
    page.context.close()


SHOWN = """() => Array.from(document.querySelectorAll('#fac-monitor article[data-table]'))
  .filter((c) => !c.hidden).map((c) => Number(c.dataset.table))"""


def test_only_the_tables_in_dispute_are_shown_through_pushes_and_a_reload(
    facilitator_page, django_user_model
):
    """40 tables with 31 in dispute were cards over five screens. Past a few tables the
    monitor has "Show only tables in dispute": checked by keyboard, focus stays on it,
    the other cards hide and are counted; a card entering or leaving a dispute (its own
    push) shows or hides at once, a whole monitor pushed keeps it, and so does a reload
    (the server still draws every card)."""
    from tournament_helpers import HIGH, LOW, claim_all, open_dispute, set_seat_sheets

    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=32, tables=8, seats=4, seed=3, facilitator=user)
    rnd = to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[2], [HIGH, HIGH, LOW, LOW])
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.wait_for_selector("#fac-live[data-updated]")
    box = page.get_by_role("checkbox", name="Show only tables in dispute")
    assert box.is_visible() and not box.is_checked()
    assert page.evaluate(SHOWN) == list(range(1, 9))
    box.focus()
    # What the log says after each press, not a line still there from before it.
    watch_heard(page, "fac-announce")
    page.keyboard.press("Space")
    assert box.is_checked()
    assert page.evaluate("() => document.activeElement.id") == "mt-disputes-only"
    assert page.evaluate(SHOWN) == []
    count = page.locator("#mt-hidden-count")
    none = "No table is in dispute now: all 8 hidden"
    assert count.inner_text() == none
    from playwright.sync_api import expect

    expect(box).to_have_accessible_description(none)
    # The description is not read again as the box changes: the count is said.
    assert heard(page)[-1:] == [none]

    # A dispute opens at table 3 by the players' own claims: its card comes alone and
    # shows at once; the others stay hidden, and focus stays on the box.
    page.evaluate(FOCUS_EVENTS)
    open_dispute(game)
    page.wait_for_function(f"() => ({SHOWN})().join() === '3'", timeout=8000)
    assert count.inner_text() == "7 tables not in dispute hidden"
    assert page.locator("#mt-card-3").get_attribute("data-dispute") is not None
    from axe_check import assert_accessible

    assert_accessible(page, "panel, only the tables in dispute shown")
    assert page.evaluate("() => [document.activeElement.id, window.__focusins]") == [
        "mt-disputes-only",
        0,
    ]

    # Reloaded: still checked, still only table 3, every card still in the page.
    page.reload()
    page.wait_for_selector("#fac-live[data-updated]")
    watch_heard(page, "fac-announce")  # the page's log, anew
    assert box.is_checked()
    assert page.locator("#fac-monitor article[data-table]").count() == 8
    assert page.evaluate(SHOWN) == [3]
    assert count.inner_text() == "7 tables not in dispute hidden"

    # Settled by the same players' claims: its card hides at once.
    box.focus()
    claim_all(game, state_of(game).current[0][0])
    page.wait_for_function(f"() => ({SHOWN})().length === 0", timeout=8000)
    assert count.inner_text() == none

    # The waiting line's link to a hidden card (no phone is connected here: every table
    # waits) shows that card and brings it into view.
    link = page.locator('#fac-status .waiting-line a[href^="#mt-"]').last
    number = int(link.get_attribute("href").removeprefix("#mt-"))
    assert number not in page.evaluate(SHOWN)
    link.click()
    page.wait_for_function(f"() => ({SHOWN})().join() === '{number}'", timeout=8000)
    kept = f"7 tables not in dispute hidden; table {number} shown, as you went to it"
    page.wait_for_function(
        "t => document.getElementById('mt-hidden-count').textContent === t", arg=kept, timeout=8000
    )
    top = page.locator(f"#mt-{number}").bounding_box()["y"]
    assert 0 <= top < LAPTOP["viewport"]["height"], top
    box.focus()

    # The round's end changes every card: the whole monitor comes, and the box, still
    # focused and checked, still hides them (but the card the address still names).
    page.evaluate("() => { document.querySelector('#fac-monitor .tables').mine = 'yes'; }")
    services.round_end_now(round_id=rnd.pk)
    page.wait_for_function(
        "() => !document.querySelector('#fac-monitor .tables').mine", timeout=8000
    )
    assert box.is_checked()
    assert page.evaluate(SHOWN) == [number]
    assert count.inner_text() == kept
    assert page.evaluate("() => document.activeElement.id") == "mt-disputes-only"

    # Unchecked: every table again, no count, and the page says so.
    since = len(heard(page))
    page.keyboard.press("Space")
    assert page.evaluate(SHOWN) == list(range(1, 9))
    assert count.inner_text() == ""
    assert heard(page)[since:][-1:] == ["Every table shown."]
    # Checked again: the card the link went to goes with the others.
    page.keyboard.press("Space")
    assert (
        page.evaluate(SHOWN) == []
        and count.inner_text() == "No table is in dispute now: all 8 hidden"
    )
    assert "#mt-" not in page.url
    page.context.close()


def _only_disputes_at_table_3(page, w):
    """The box checked by keyboard, a dispute opened at table 3 by its players' own
    claims, and its card alone shown: the game in dispute."""
    from tournament_helpers import HIGH, LOW, open_dispute, set_seat_sheets

    game = set_seat_sheets(tables_of(w)[2], [HIGH, HIGH, LOW, LOW])
    box = page.get_by_role("checkbox", name="Show only tables in dispute")
    box.focus()
    page.keyboard.press("Space")
    assert box.is_checked() and page.evaluate(SHOWN) == []
    open_dispute(game)
    page.wait_for_function(f"() => ({SHOWN})().join() === '3'", timeout=8000)
    assert page.locator("#mt-hidden-count").inner_text() == "7 tables not in dispute hidden"
    return game, box


def test_a_card_with_focus_in_it_that_leaves_its_dispute_stays_until_focus_leaves(
    facilitator_page, django_user_model
):
    """With "Show only tables in dispute" checked, a keyboard user on a card's heading
    link ("Table 3") while its dispute ends: hidden at once, the card would have taken
    the focus with it to the top of the page. It stays, the same link focused, until
    focus leaves it; then it hides with the others."""
    from tournament_helpers import claim_all, state_of

    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=32, tables=8, seats=4, seed=3, facilitator=user)
    to_scored_round(w)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.wait_for_selector("#fac-live[data-updated]")
    game, box = _only_disputes_at_table_3(page, w)
    link = page.locator("#mt-3 a")
    link.focus()
    page.evaluate("() => { document.activeElement.mine = 'yes'; }")
    page.evaluate(FOCUS_EVENTS)

    # Settled by the players' claims: the card's own push comes, it is no longer in
    # dispute, and it stays shown with the very link still focused (no focus moved).
    claim_all(game, state_of(game).current[0][0])
    page.wait_for_function(
        "() => !document.getElementById('mt-card-3').hasAttribute('data-dispute')", timeout=8000
    )
    assert page.evaluate(SHOWN) == [3]
    assert page.evaluate(
        """() => { const a = document.activeElement;
          return [a.mine, a.isConnected, a.textContent.trim(), !!a.closest('#mt-card-3'),
                  window.__focusins]; }"""
    ) == ["yes", True, "Table 3", True, 0]
    # The card kept is not counted among those hidden.
    assert page.locator("#mt-hidden-count").inner_text() == "7 tables not in dispute hidden"

    # Focus leaves the card (back to the box): it hides with the others.
    box.focus()
    page.wait_for_function(f"() => ({SHOWN})().length === 0", timeout=8000)
    assert page.locator("#mt-hidden-count").inner_text() == (
        "No table is in dispute now: all 8 hidden"
    )
    assert page.evaluate("() => document.activeElement.id") == "mt-disputes-only"
    page.context.close()


def test_only_the_tables_in_dispute_stay_shown_after_the_socket_reconnects(
    browser, log_in, live_server_url, django_user_model
):
    """The panel's socket dropped and came back: the whole monitor comes again, every
    card drawn by the server; the box stays checked and still hides the cards not in
    dispute, and the pushes after it still show and hide them."""
    from tournament_helpers import claim_all, state_of

    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=32, tables=8, seats=4, seed=3, facilitator=user)
    to_scored_round(w)
    context = browser.new_context(**LAPTOP)
    log_in(context, user)
    page = context.new_page()
    sockets = []

    def route(ws):
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws/facilitator/**", route)
    page.goto(f"{live_server_url}/workshops/{w.pk}/")
    page.wait_for_selector("#fac-live[data-updated]", timeout=8000)
    game, box = _only_disputes_at_table_3(page, w)

    page.evaluate("() => { document.querySelector('#fac-monitor .tables').mine = 'yes'; }")
    # The cards shown after each change to the page (a mutation observer's callback
    # runs once the message that made it is wholly put in): never every card, even
    # for a moment, until a later push or a focus change put the filter back.
    page.evaluate(
        f"""() => {{ window.__shown = [];
          new MutationObserver(() => window.__shown.push(({SHOWN})().join()))
            .observe(document.body, {{ childList: true, subtree: true }}); }}"""
    )
    sockets[-1].close()  # the live socket drops; the page connects again
    page.wait_for_function(
        "() => !document.querySelector('#fac-monitor .tables').mine", timeout=15000
    )
    # Connected again (a ping unanswered on a loaded machine may drop one more).
    assert len(sockets) >= 2
    assert set(page.evaluate("window.__shown")) == {"3"}
    assert box.is_checked()
    assert page.locator("#fac-monitor article[data-table]").count() == 8
    assert page.evaluate(SHOWN) == [3]
    assert page.locator("#mt-hidden-count").inner_text() == "7 tables not in dispute hidden"

    # Live again, and still filtered: the dispute settled, its card hides too.
    claim_all(game, state_of(game).current[0][0])
    page.wait_for_function(f"() => ({SHOWN})().length === 0", timeout=8000)
    assert page.locator("#mt-hidden-count").inner_text() == (
        "No table is in dispute now: all 8 hidden"
    )
    context.close()


def test_a_pause_leaves_the_open_settings_box_as_it_was_and_a_new_sheet_comes_into_it(
    facilitator_page, django_user_model
):
    """The settings and secret sheets were redrawn with the clock at each pause (40
    tables' sheets: 187 ms of script on a slow phone). They are their own region now,
    in the status's box right under its lines: a pause leaves the open box the very
    same element, and a sheet changed in the lobby comes into it, still open."""
    from tournament.models import Table

    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=8, tables=2, seats=4, seed=3, facilitator=user)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    page.locator("#settings-details summary").click()
    place = """() => { const d = document.getElementById('settings-details');
      const box = d.closest('section'); const status = document.getElementById('fac-status');
      return [d.open, box.classList.contains('fac-status'), box === status.parentElement,
              status.nextElementSibling === d.parentElement, !!d.dataset.kept]; }"""
    assert page.evaluate(place) == [True, True, True, True, False]

    # In the lobby a new sheet for table 1: the box is pushed, and stays open.
    from games import kinds

    table = Table.objects.get(workshop=w, number=1)
    other = next(p for p in kinds.get(w.game).presets if p != table.preset)
    before = page.locator("#settings-details li").first.inner_text()
    services.sheets_assign(workshop_id=w.pk, assignment={1: other})
    page.wait_for_function(
        "t => document.querySelector('#settings-details li').innerText !== t",
        arg=before,
        timeout=8000,
    )
    assert page.evaluate(place)[:4] == [True, True, True, True]

    rnd = to_scored_round(w)
    page.wait_for_selector("#fac-status .timer[data-running='1']", timeout=8000)
    page.evaluate("() => { document.getElementById('settings-details').dataset.kept = '1'; }")
    services.round_pause(round_id=rnd.pk)
    page.wait_for_selector("#fac-status .badge:text('paused')", timeout=8000)
    # The clock's region was put in; the box beside it was not touched.
    assert page.evaluate(place) == [True, True, True, True, True]
    page.context.close()


def test_a_players_tools_are_drawn_from_one_template_with_their_name_as_text(
    facilitator_page, django_user_model
):
    """Each row's rename, PIN and remove are drawn, when their box opens, from the
    roster's one template and what the row carries (a copy of them in each of 200
    rows was 292 kB of the panel's first load and of each push of the list). A name
    is user input: quotes, <, & and right-to-left letters come out as typed, as
    text, in every label, the rename's field and Remove's question; a bot has no
    PIN, and its question says what becomes of its seat and of its table."""
    from tournament import selectors_facilitator as sf

    user = django_user_model.objects.create_user("fac", password="unused-here")
    odd = '<b>"Ann"&amp; עדן'
    w = make_workshop(
        names=[odd, "Bo", "Cai"],
        tables=2,
        seats=2,
        seed=3,
        facilitator=user,
        bots_enabled=True,
        leave_policy="bot",
    )
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    to_scored_round(w)
    w.refresh_from_db()
    short = sf.panel(w)["remove_leaves_short"]
    assert short, "a table of a bot and one other: removing the bot leaves it short"
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    drawn = """(pk) => {
        const box = document.getElementById('tools-' + pk);
        const text = (sel) => { const el = box.querySelector(sel); return el && el.textContent; };
        const kick = document.getElementById('do-kick-' + pk).form;
        return {
          markup: box.querySelectorAll('b').length,
          label: text('label[for="rename-' + pk + '"]'),
          value: document.getElementById('rename-' + pk).value,
          rename: document.getElementById('do-rename-' + pk).form.id,
          pin: text('#do-pin-' + pk),
          kick: text('#do-kick-' + pk),
          ask: kick.getAttribute('hx-confirm'),
          players: Array.from(box.querySelectorAll('input[name="player"]'), (i) => i.value),
          csrf: Array.from(box.querySelectorAll('form'),
            (f) => !!(f.querySelector('input[name="csrfmiddlewaretoken"]') || {}).value),
          bdi: Array.from(box.querySelectorAll('form bdi'), (b) => b.textContent),
          processed: Array.from(box.querySelectorAll('form'), (f) => !!f['htmx-internal-data']),
        };
    }"""

    def expected(p):
        return {
            "markup": 0,
            "label": f"New name for {p.name}",
            "value": p.name,
            "rename": f"rename-form-{p.pk}",
            "pin": None if p.is_bot else f"Show the rejoin PIN of {p.name}",
            "kick": f"Remove {p.name}",
            "ask": f"Remove {p.name} from the workshop?"
            + sf.remove_then(w, is_bot=p.is_bot)
            + short.get(p.pk, ""),
            "players": [str(p.pk)] * (2 if p.is_bot else 3),
            "csrf": [True] * (2 if p.is_bot else 3),
            "bdi": [p.name] * (2 if p.is_bot else 3),
            "processed": [True] * (2 if p.is_bot else 3),
        }

    # One template for the whole list; a closed box holds nothing until it opens.
    assert page.locator("#fac-roster template").count() == 1
    assert page.locator("#fac-roster details.row-tools > :not(summary)").count() == 0
    players = list(w.players.order_by("pk"))
    assert any(p.is_bot for p in players) and any(p.pk in short for p in players)
    for p in players:
        page.locator(f"#tools-{p.pk} summary").click()
        assert page.evaluate(drawn, p.pk) == expected(p), p.name
    ann = w.players.get(name=odd)
    # Carried across a push of the list (a late join), an edit in it too.
    page.fill(f"#rename-{ann.pk}", "Ann")
    page.locator("h1").first.click()
    services.player_join(workshop_id=w.pk, name="Dee")
    page.wait_for_function(
        "() => document.getElementById('fac-roster').innerText.includes('Dee')", timeout=8000
    )
    again = page.evaluate(drawn, ann.pk)
    assert again == {**expected(ann), "value": "Ann"}, again
    assert page.locator("#fac-roster b").count() == 0
    page.context.close()
