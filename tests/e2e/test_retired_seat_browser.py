"""A phone whose seat is no longer its own: moved to another device with the PIN, or
removed by the facilitator. It had kept the hand and the old PIN under a banner
(and a removed student read 'You'll be given a seat in a moment'); now only what
happened and the way to the join page remain. Chromium, real sockets."""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import one_phone_at_a_round, touch_phone, version, wait_change

from tournament import services
from tournament.models import Player, Round

pytestmark = [pytest.mark.browser]
PHONE = {"width": 390, "height": 844}


def assert_nothing_of_the_seat(page, said: str) -> None:
    """The tab's title says what happened (it said "Your turn" or "Scored round, table
    1" after the seat had gone: what a student switching back to the browser hears
    first), the screen's attributes no longer name the table or its game, and the
    gestures and the pad are gone with the screen."""
    assert page.title().startswith(f"{said} · Barnga"), page.title()
    assert (
        page.locator("#screen").evaluate(
            "s => ['title', 'table', 'game', 'canGesture'].filter(k => k in s.dataset)"
        )
        == []
    )
    assert page.locator("#talk, #pad").count() == 0


def test_a_seat_moved_away_or_removed_leaves_nothing_of_it_on_the_phone(live_server_url, browser):
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Retire", seats=4, size=PHONE
    )
    ana = Player.objects.get(workshop=w, name="Ana")
    # Her PIN takes the seat, so in play it is not on the screen for a neighbour to
    # read: it opens on a tap, and stays open over a new screen.
    pin = page.locator("details.pin-show strong")
    assert not pin.is_visible() and ana.pin not in page.inner_text("#screen")
    page.click("details.pin-show summary")
    assert pin.is_visible() and pin.inner_text() == ana.pin
    rnd = Round.objects.filter(workshop=w).latest("number")
    before = version(page)
    services.round_pause(round_id=rnd.pk)
    wait_change(page, before)
    assert page.locator("#screen[data-paused]").count() == 1 and pin.is_visible()
    services.round_resume(round_id=rnd.pk)
    # Ana's seat moves to a laptop with her PIN: the phone drops hand and PIN.
    laptop = touch_phone(browser, {"width": 1280, "height": 800})
    laptop.goto(f"{live_server_url}/join?code={w.code}")
    laptop.click("details.rejoin summary")
    laptop.fill("#rname", "Ana")
    laptop.fill("#pin", ana.pin)
    laptop.click("details.rejoin button[type=submit]")
    laptop.wait_for_selector("#screen .hand .card", timeout=8000)
    page.get_by_role("alert").filter(has_text="This seat was moved to another device.").wait_for()
    assert page.locator(".hand").count() == 0 and page.locator(".pin").count() == 0
    assert ana.pin not in page.inner_text("body")
    assert_nothing_of_the_seat(page, "Seat moved away")
    page.click("text=Go to the join page")
    page.wait_for_selector("text=This phone's seat is no longer in the game")
    assert_accessible(page, "join page, this phone's seat gone")

    # The facilitator removes Ana (now on the laptop): the laptop says so, nothing else.
    services.player_kick(workshop_id=w.pk, player_id=ana.pk)
    laptop.get_by_role("alert").filter(has_text="The facilitator removed you").wait_for()
    assert laptop.locator(".hand").count() == 0 and laptop.locator(".pin").count() == 0
    assert "given a seat" not in laptop.inner_text("body")
    assert_nothing_of_the_seat(laptop, "Removed")
    page.context.close()
    laptop.context.close()


def test_a_student_who_left_comes_back_with_the_pin_and_sits_down_again(live_server_url, browser):
    """Left with the seat skipped, then back on another phone with the PIN: the new
    phone said "You'll be given a seat in a moment" for the rest of the workshop (no
    control after the lobby seats anyone). Now it has a seat at the table, and plays
    from the next game."""
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Back", seats=4, size=PHONE, leave_policy="skip"
    )
    ana = Player.objects.get(workshop=w, name="Ana")
    services.player_leave(player_id=ana.pk)
    phone = touch_phone(browser, PHONE)
    phone.goto(f"{live_server_url}/join?code={w.code}")
    phone.click("details.rejoin summary")
    phone.fill("#rname", "Ana")
    phone.fill("#pin", ana.pin)
    phone.click("details.rejoin button[type=submit]")
    phone.get_by_text("A game is in progress at this table. You play from the next game.").wait_for(
        timeout=8000
    )
    assert "given a seat" not in phone.inner_text("#screen")
    assert "Table 1" in phone.inner_text("#screen")
    assert_accessible(phone, "phone back with the PIN, waiting for the next game")
    phone.context.close()
    page.context.close()
