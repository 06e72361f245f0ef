"""A phone with a seat that joins again under another name (a join page left open in
another tab, a phone passed on) keeps its seat, and its play page says why: "This
phone already has a seat in this workshop, as Rhea." That notice answers that join
only. It came in the address (?already=1): every reload said it again, and on the
page it stayed through the whole workshop."""

from __future__ import annotations

import pytest
from phones import join

from tournament import services
from tournament.models import Player

pytestmark = [pytest.mark.browser]
NOTICE = ".notice.already"


def join_as_someone_else(tab, name: str):
    """Join from a join page opened before this phone had its seat."""
    tab.fill("#name", name)
    tab.click("button[type=submit]")
    tab.wait_for_selector("#screen")


def test_the_already_seated_notice_is_said_once_and_goes_when_play_starts(live_server_url, phone):
    workshop = services.workshop_create(name="Join again", table_count=1, seats_per_table=4, seed=3)
    page = phone()
    # Two join pages left open in other tabs (a seated phone's /join is its play page).
    tabs = [page.context.new_page() for _ in range(2)]
    for tab in tabs:
        tab.goto(f"{live_server_url}/j/{workshop.code}")
    join(page, live_server_url, workshop.code, "Rhea")

    join_as_someone_else(tabs[0], "Sam")
    notice = tabs[0].locator(NOTICE)
    assert notice.inner_text().startswith(
        "This phone already has a seat in this workshop, as Rhea."
    )
    assert notice.get_attribute("role") == "status"
    assert list(Player.objects.values_list("name", flat=True)) == ["Rhea"]
    # Reloaded (or its tab restored later), the page no longer says it.
    tabs[0].reload()
    tabs[0].wait_for_selector("#screen")
    assert tabs[0].locator(NOTICE).count() == 0

    # Said again, and left on the page: once the study starts, it is past and goes.
    join_as_someone_else(tabs[1], "Tom")
    assert tabs[1].locator(NOTICE).count() == 1
    services.players_seat_home(workshop_id=workshop.pk)
    services.workshop_start_study(workshop_id=workshop.pk)
    tabs[1].wait_for_selector("#screen[data-phase=study]", timeout=8000)
    assert tabs[1].locator(NOTICE).count() == 0
    assert list(Player.objects.values_list("name", flat=True)) == ["Rhea"]
