"""A phone held sideways shows the table, whose turn it is (or the claim) and the
hand without scrolling, in Chromium, and passes the accessibility audit."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from phones import join, version, wait_change

from tournament import services

pytestmark = [pytest.mark.browser]
WAIT = 8000
LANDSCAPE = {"width": 844, "height": 390}


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["y"] >= 0 and box["y"] + box["height"] <= LANDSCAPE["height"]


def sideways_phone(browser, url, code, name):
    """A phone held sideways (844x390) that has joined `code` as `name`."""
    page = browser.new_context(viewport=LANDSCAPE, has_touch=True, is_mobile=True).new_page()
    join(page, url, code, name)
    return page


def test_a_phone_held_sideways_sees_table_turn_and_hand_at_once(live_server_url, browser, phone):
    w = services.workshop_create(name="Sideways", table_count=1, seats_per_table=4, seed=3)
    sideways = sideways_phone(browser, live_server_url, w.code, "Ana")
    others = []
    for name in ("Bea", "Cai", "Dev"):
        others.append(phone())
        join(others[-1], live_server_url, w.code, name)
    pages = [sideways, *others]
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    sideways.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)

    for selector in (".seats", ".trick", ".whose", ".hand .card"):
        assert in_view(sideways, selector), selector
    results = Axe().run(sideways)
    assert results.violations_count == 0, results.generate_report()

    # The claim step: the question and the cards to tap are in view too.
    for _ in range(4):
        on_turn = next(p for p in pages if p.locator(".hand .card.legal").count())
        before = version(on_turn)
        on_turn.locator(".hand .card.legal").first.click()
        wait_change(on_turn, before)
    sideways.wait_for_selector("[data-action=claim]", timeout=WAIT)
    for selector in (".trick .card", ".claim", ".claim .primary"):
        assert in_view(sideways, selector), selector
    sideways.context.close()


@pytest.mark.parametrize(
    ("game", "seats"), [("seven_up", 3), ("all_fives", 3), ("three_tricks", 2)]
)
def test_the_other_games_keep_one_column_sideways(live_server_url, browser, phone, game, seats):
    """Their boards are laid out otherwise: the two columns are Five Tricks' only."""
    w = services.workshop_create(
        name=f"Sideways {game}", game=game, table_count=1, seats_per_table=seats, seed=3
    )
    page = sideways_phone(browser, live_server_url, w.code, "Ana")
    for name in ["Bea", "Cai"][: seats - 1]:
        join(phone(), live_server_url, w.code, name)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    page.wait_for_selector("#screen[data-phase=study] .board .seats, #screen .hand", timeout=WAIT)
    board = page.locator("#screen > .board")
    assert board.evaluate("el => getComputedStyle(el).display") != "contents"
    assert page.evaluate("getComputedStyle(document.getElementById('screen')).display") != "grid"
    page.context.close()
