"""A student removed by mistake mid-round: the facilitator lets them back in from the
panel, reads out the new PIN, and the student, on their phone's join page, takes
their seat back from the bot and plays it. Chromium, real sockets."""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import heard, one_phone_at_a_round, play_until, wait_said, watch_heard

from tournament import gamestate
from tournament.models import Action, Player

pytestmark = [pytest.mark.browser]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def test_a_student_removed_by_mistake_is_let_back_in_and_plays_their_seat(
    live_server_url, browser, facilitator_page, django_user_model
):
    user = django_user_model.objects.create_user("fac", password="unused-here")
    # Referee mode: the others' tricks need no claims from phones nobody holds.
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Undo", seats=4, size=PHONE, mode="referee", facilitator=user
    )
    ana = Player.objects.get(workshop=w, name="Ana")
    panel = facilitator_page(user, f"/workshops/{w.pk}/", viewport=LAPTOP)
    panel.on("dialog", lambda d: d.accept())  # Remove's confirmation
    watch_heard(panel, "fac-announce")
    # The mis-tap: Ana removed, her phone told so; a bot plays her seat.
    panel.click(f"#tools-{ana.pk} summary")
    panel.click(f"#do-kick-{ana.pk}")
    page.get_by_role("alert").filter(has_text="The facilitator removed you").wait_for()
    # ...and how to come back if it was a mistake (it said to join again, anew).
    way_back = (
        "ask the facilitator to let you back in: they will tell you a new PIN. Then, on the"
        " join page, open “Moving to another phone?”"
    )
    assert way_back in page.locator("#screen").inner_text()
    let_in = panel.locator(f"#do-let-in-{ana.pk}")
    let_in.wait_for(timeout=8000)
    assert let_in.inner_text() == "Let Ana back in"
    # A second tab of the panel, as on another device of the facilitator's.
    other = facilitator_page(user, f"/workshops/{w.pk}/", viewport=LAPTOP)
    watch_heard(other, "fac-announce")
    # Let back in: the answer reads out the new PIN (focus takes a screen reader to
    # it). The other tab's log says so; this one's does not say it again.
    let_in.click()
    message = panel.locator("#fac-message")
    message.filter(has_text="Ana was let back in.").wait_for(timeout=8000)
    ana.refresh_from_db()
    assert (
        ana.has_left and ana.pin and f"Their new rejoin PIN is {ana.pin}." in (message.inner_text())
    )
    wait_said(other, 0, "Ana was let back in.")
    panel.wait_for_timeout(2500)  # past the log's 2 s for news to settle
    assert not [line for line in heard(panel) if "let back in" in line], heard(panel)
    other.context.close()
    panel.locator(f"#do-pin-{ana.pk}").wait_for(timeout=8000)  # the row offers her PIN now
    assert_accessible(panel, "panel, a removed student let back in")
    # Ana, on her phone's join page, with her name and the PIN read out to her.
    page.click("text=Go to the join page")
    page.click("details.rejoin summary")
    page.fill("#rcode", w.code)
    page.fill("#rname", "Ana")
    page.fill("#pin", ana.pin)
    page.click("details.rejoin button[type=submit]")
    page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=8000)
    ana.refresh_from_db()
    assert not ana.has_left and ana.table_id is not None
    wait_said(panel, 0, "Ana is back on a new phone.")
    # Her seat is hers again: the others play until her turn comes, and no bot plays
    # it for her (a bot acts within BARNGA_BOT_DELAY, 0.3 s here); her own tap does.
    seat = game.players.index(ana.pk)
    game.refresh_from_db()  # the bot played her lead meanwhile
    assert gamestate.load_state(game).to_act != seat
    play_until(game, lambda s: s.to_act == seat)
    card = page.locator("#screen .hand .card.legal").first
    card.wait_for(timeout=8000)
    page.wait_for_timeout(1500)
    seq = game.seq
    game.refresh_from_db()
    assert game.seq == seq and gamestate.load_state(game).to_act == seat
    card.click()
    # Her card is the next move. (Not "no card is legal on her screen": the bots may
    # close the trick within their 0.3 s, and if she took it she leads again.)
    for _ in range(80):
        if Action.objects.filter(game=game, seq=seq + 1).exists():
            break
        page.wait_for_timeout(100)
    assert Action.objects.get(game=game, seq=seq + 1).actor_id == ana.pk
    page.context.close()
    panel.context.close()
