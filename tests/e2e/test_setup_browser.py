"""The set-up form in Chromium: sent back with errors, the keyboard and the screen
reader start at the summary that says nothing was created (focus had stayed on the
page itself)."""

from __future__ import annotations

import pytest

from tournament.models import Workshop

pytestmark = [pytest.mark.browser]


def test_a_refused_set_up_puts_focus_on_the_error_summary(facilitator_page, django_user_model):
    user = django_user_model.objects.create_user("fac", password="unused-here")
    page = facilitator_page(user, "/workshops/new/", viewport={"width": 1280, "height": 800})
    page.fill("#id_name", "")
    page.fill("#id_table_count", "41")
    page.locator("#setup-form [type=submit]").last.click()
    page.wait_for_selector("#setup-errors")
    assert page.evaluate("document.activeElement.id") == "setup-errors"
    assert "nothing was created" in page.inner_text("#setup-errors")
    assert page.locator("#id_table_count_error").inner_text().strip() == "At most 40 tables."
    assert not Workshop.objects.exists()
    page.context.close()


def test_choosing_a_game_keeps_the_seats_inside_its_range(facilitator_page, django_user_model):
    """3 Tricks is two players: choosing it with the form's 5 seats made every first
    try fail. The seats follow the game into its range; a count inside is kept."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    page = facilitator_page(user, "/workshops/new/", viewport={"width": 390, "height": 844})
    seats = page.locator("#id_seats_per_table")
    # Each game's button is a finger's target beside its long description.
    for radio in page.locator('[name="game"]').all():
        assert radio.bounding_box()["width"] >= 20
    page.locator('[name="game"][value="three_tricks"]').check()
    assert seats.input_value() == "2"
    page.locator('[name="game"][value="seven_up"]').check()
    assert seats.input_value() == "3"
    seats.fill("6")
    page.locator('[name="game"][value="five_tricks"]').check()
    assert seats.input_value() == "6"
    page.locator('[name="game"][value="all_fives"]').check()
    assert seats.input_value() == "3"
    # Choosing sheets per table: Five Tricks' choices say their rules (long lines),
    # and still nothing is wider than the phone.
    page.locator('[name="game"][value="five_tricks"]').check()
    page.locator('[name="sheet_mode"][value="choose"]').check()
    assert page.locator("#id_sheet_1").is_visible()
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, overflow
    page.locator('[name="sheet_mode"][value="auto"]').check()
    page.locator('[name="game"][value="all_fives"]').check()
    page.fill("#id_name", "Seats follow")
    page.locator("#setup-form [type=submit]").last.click()
    page.wait_for_url("**/workshops/*/")
    made = Workshop.objects.get()
    assert (made.game, made.seats_per_table) == ("all_fives", 3)
    page.context.close()


def test_create_pressed_twice_makes_one_workshop(facilitator_page, django_user_model):
    """A double click on Create sent the form twice: two workshops, two join codes."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    page = facilitator_page(user, "/workshops/new/", viewport={"width": 1280, "height": 800})
    page.fill("#id_name", "Pressed twice")
    # Two presses in quick succession, the second before the next page arrives.
    page.evaluate(
        """() => { const f = document.getElementById('setup-form');
                   const b = f.querySelector('[type=submit]');
                   b.click(); setTimeout(() => b.click(), 50); }"""
    )
    page.wait_for_url("**/workshops/*/")
    page.wait_for_timeout(1000)  # long enough for a second request to have landed
    assert Workshop.objects.filter(name="Pressed twice").count() == 1
    # The panel opens on the answer, which a screen reader then reads (a status there
    # at load is not said): the join code to give the class.
    code = Workshop.objects.get(name="Pressed twice").code
    focus = page.evaluate("() => [document.activeElement.id, document.activeElement.innerText]")
    assert focus[0] == "fac-message" and f"the join code is {code}" in focus[1], focus
    page.context.close()


def test_set_up_again_shows_the_workshops_game_and_sheets(facilitator_page, django_user_model):
    """Set up again from the workshop list: the wizard opens on the earlier
    workshop's game, its per-table sheets shown (a custom sheet with its knobs),
    the tables it did not have hidden; created, the sheets are the same."""
    from games import kinds
    from tournament import services
    from tournament.models import Table

    user = django_user_model.objects.create_user("fac", password="unused-here")
    kind = kinds.get("seven_up")
    first, second = list(kind.presets)[:2]
    custom = {**kind.presets[second].to_dict(), "points_per_trick": 3}
    old = services.workshop_create(
        facilitator=user, name="Period 1", game="seven_up", table_count=3, seats_per_table=4
    )
    services.sheets_assign(workshop_id=old.pk, assignment={1: first, 2: custom})
    page = facilitator_page(user, "/", viewport={"width": 390, "height": 844})
    page.get_by_role("link", name="Set up again…").click()
    page.wait_for_url(f"**/workshops/new/?like={old.pk}")
    assert page.locator('[name="game"][value="seven_up"]').is_checked()
    assert page.locator('[name="sheet_mode"][value="choose"]').is_checked()
    assert page.locator("#id_seven_up_sheet_1").is_visible()
    assert page.locator("#id_seven_up_sheet_1").input_value() == first
    assert page.locator("#id_seven_up_sheet_2").input_value() == "custom"
    assert page.locator("#id_seven_up_custom_2_points_per_trick").is_visible()
    assert page.locator("#id_seven_up_custom_2_points_per_trick").input_value() == "3"
    assert not page.locator("#id_seven_up_custom_1_points_per_trick").is_visible()
    assert not page.locator("#id_seven_up_sheet_4").is_visible()  # three tables
    assert not page.locator("#id_sheet_1").is_visible()  # Five Tricks' sheets
    page.fill("#id_name", "Period 2")
    page.locator("#setup-form [type=submit]").last.click()
    page.wait_for_url("**/workshops/*/")
    new = Workshop.objects.get(name="Period 2")

    def sheets(w):
        return [(t.preset, t.rules) for t in Table.objects.filter(workshop=w).order_by("number")]

    assert (new.game, new.table_count, new.seats_per_table) == ("seven_up", 3, 4)
    assert sheets(new) == sheets(old)
    page.context.close()


def test_a_refused_sign_up_puts_focus_on_the_error_summary(browser, live_server_url):
    """Only the passwords wrong: focus went to the username (its autofocus), which was
    right, and nothing said that the account was not made."""
    from django.contrib.auth import get_user_model

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server_url}/signup/")
    page.fill("#id_username", "newfacilitator")
    page.fill("#id_password1", "a-long-pass-123")
    page.fill("#id_password2", "a-long-pass-124")
    with page.expect_navigation():
        page.click("button[type=submit]")
    page.wait_for_function("() => document.activeElement.id === 'signup-errors'", timeout=5000)
    assert "no account was created" in page.inner_text("#signup-errors")
    assert page.get_attribute("#id_password2", "aria-invalid") == "true"
    assert not get_user_model().objects.filter(username="newfacilitator").exists()
    context.close()
