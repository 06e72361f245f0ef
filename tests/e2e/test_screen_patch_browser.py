"""A new screen is patched into the old one (static/js/table.js patch): what is drawn
the same stays the same node, so a screen reader's place in the rules, the cards on
the table or the PIN, and the keyboard's focus, survive a tablemate's move."""

from __future__ import annotations

import pytest
from phones import dealt_table, play_until, version, wait_change

from tournament import services
from tournament.models import Round, RoundKind

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai"]
WAIT = 8000

MARK = """() => {
  document.querySelector('#screen details.sheet p').__kept = true;
  document.querySelector('#screen details.sheet > summary').__kept = true;
  document.querySelector('#screen footer.pin').__kept = true;
  const first = document.querySelector('#screen .trick .card');
  if (first) first.__kept = true;
}"""
KEPT = """() => ({
  rules: document.querySelector('#screen details.sheet p').__kept === true,
  summary: document.querySelector('#screen details.sheet > summary').__kept === true,
  pin: document.querySelector('#screen footer.pin').__kept === true,
  card: document.querySelector('#screen .trick .card').__kept === true,
  focus: document.activeElement.__kept === true && document.activeElement.tagName,
})"""


def test_a_tablemates_move_leaves_the_rules_the_pin_and_the_focus_in_place(live_server_url, phone):
    workshop = services.workshop_create(name="Patch", table_count=1, seats_per_table=3, seed=5)
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=study] details.sheet[open]", timeout=WAIT)
    # One card on the table, then a reader who is not to play next.
    play_until(game, lambda state: len(state.current) >= 1)
    reader = pages[seat_names[-1]]
    reader.wait_for_selector("#screen .trick .card", timeout=WAIT)
    reader.evaluate(MARK)
    reader.focus("#screen details.sheet > summary")
    before = version(reader)
    play_until(game, lambda state: len(state.current) >= 2)
    wait_change(reader, before)
    assert reader.locator("#screen .trick .card").count() == 2
    kept = reader.evaluate(KEPT)
    assert kept == {"rules": True, "summary": True, "pin": True, "card": True, "focus": "SUMMARY"}


def test_focus_left_on_the_screen_stays_there_through_the_next_screens(live_server_url, phone):
    workshop = services.workshop_create(name="Patch", table_count=1, seats_per_table=3, seed=5)
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    services.workshop_start_home(workshop_id=workshop.pk)
    rnd = services.round_start(workshop_id=workshop.pk)
    ana = pages["Ana"]
    ana.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    ana.focus("#screen .hand .card")
    services.round_end_now(round_id=rnd.pk)
    # The hand goes: focus goes to the screen, not to the top of the page...
    ana.wait_for_selector("#screen[data-phase=between]", timeout=WAIT)
    assert ana.evaluate("document.activeElement.id") == "screen"
    services.movement_apply(round_id=Round.objects.get(workshop=workshop, kind=RoundKind.SCORED).pk)
    ana.wait_for_selector("#screen .notice:has-text('You stay at table 1')", timeout=WAIT)
    # ...and stays there when the next screen comes.
    assert ana.evaluate("document.activeElement.id") == "screen"


def test_an_open_rejoin_pin_closes_at_a_new_phase_not_at_a_tablemates_move(live_server_url, phone):
    """A phone that slept with its PIN open woke at another table with the PIN still
    shown to its new neighbours."""
    workshop = services.workshop_create(name="Pin", table_count=1, seats_per_table=3, seed=5)
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    reader = pages[seat_names[-1]]
    reader.wait_for_selector("#screen[data-phase=study] .hand .card", timeout=WAIT)
    reader.click("details.pin-show summary")
    before = version(reader)
    play_until(game, lambda state: len(state.current) >= 1)
    wait_change(reader, before)
    assert reader.locator("details.pin-show[open]").count() == 1  # still as the student left it
    services.workshop_start_home(workshop_id=workshop.pk)
    reader.wait_for_selector("#screen[data-phase=home]", timeout=WAIT)
    assert reader.locator("details.pin-show").get_attribute("open") is None
