"""A claim marks the other phones' screens in place, and the marked screen is the
one the server would render (static/js/table.js markClaimed, in Chromium)."""

from __future__ import annotations

import pytest
from phones import dealt_table, play_until, version, wait_change

from tournament import services

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai"]

# The screen as a reader meets it: elements, attributes and text, without the
# whitespace between tags or the countdowns (they tick on their own).
CANONICAL = """el => {
  const out = [];
  const walk = (n) => {
    if (n.nodeType === 3) {
      const t = n.textContent.replace(/\\s+/g, " ").trim();
      if (t) out.push("#" + t);
      return;
    }
    if (n.nodeType !== 1) return;
    const attrs = [...n.attributes]
      .filter((a) => a.name !== "data-end" && a.name !== "data-seconds")
      .map((a) => a.name + "=" + a.value).sort();
    out.push("<" + n.tagName + " " + attrs.join(" "));
    if (!n.hasAttribute("data-seconds")) n.childNodes.forEach(walk);
    out.push(">");
  };
  walk(el);
  return out.join("\\n");
}"""

KEEP = """seat => {
  document.querySelectorAll('#screen .seats > li.seat')[seat].__kept = true;
  document.querySelector('#screen .status .timer').__kept = true;
}"""
KEPT = """seat => [
  document.querySelectorAll('#screen .seats > li.seat')[seat].__kept === true,
  document.querySelector('#screen .status .timer').__kept === true,
]"""


def test_a_claim_marks_the_other_screens_as_a_render_would(live_server_url, phone):
    workshop = services.workshop_create(
        name="Claim marks", table_count=1, seats_per_table=3, seed=5
    )
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    # The first trick, played through the services: then every seat claims.
    game.refresh_from_db()
    play_until(game, lambda state: state.phase != "play")
    for page in pages.values():
        page.wait_for_selector(".claim .primary", timeout=5000)

    for claimer in seat_names[:-1]:  # the last claim ends the trick: a new screen
        others = [pages[n] for n in seat_names if n != claimer]
        before = version(pages[claimer])
        seat = seat_names.index(claimer)
        for page in others:
            assert version(page) == before
            # The claimer's line, and the status bar's clock (drawn anew by any
            # screen the server sends), as they are now.
            page.evaluate(KEEP, seat)
        pages[claimer].locator(".claim .primary").click()
        # Its own screen too: it is one of the others next time, compared at once.
        wait_change(pages[claimer], before)
        for page in others:
            wait_change(page, before)
            # Marked in place: the seat's line is the one that was there.
            assert page.evaluate(KEPT, seat) == [True, True]
            item = page.locator(".seats > li.seat").nth(seat)
            assert item.locator(".claimed-badge").count() == 1
            marked = page.locator("#screen").evaluate(CANONICAL)
            # Ask for the whole screen (as a phone coming back does) and compare.
            page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
            page.wait_for_function(
                "() => document.querySelector('#screen .status .timer').__kept !== true"
            )
            assert version(page) == before + 1
            assert page.locator("#screen").evaluate(CANONICAL) == marked
    # Two marks are on the last claimer's screen, and the claim step is still open.
    last = pages[seat_names[-1]]
    assert last.locator(".claimed-badge").count() == 2
    assert last.locator(".claim .primary").count() == 1
