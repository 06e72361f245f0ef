"""The seats' lines on a student's phone: what each shows, and says.

All Fives' own seat line at 568x320 with the dealer's badge ("Ana (you) 0 / 61 6 cards
dealer") was wider than its box: its counts, cut short first, were 0 px wide ("6
cards" read out only), and cut short at 667x375: there "dealer" is read out, not
shown, as the hand's line above says "you deal".
"""

from __future__ import annotations

import pytest
from phones import other_game_at_a_round

pytestmark = [pytest.mark.browser]

# A seat line's parts as drawn: each part's class, box width and whether its text is
# cut (wider than its box), and whether the line's parts are wider than the line.
LINE = """(li) => ({
  parts: [...li.children].map((e) => ({
    cls: e.className, width: e.getBoundingClientRect().width, cut: e.scrollWidth > e.clientWidth,
  })),
  overflows: li.scrollWidth > li.clientWidth,
})"""


@pytest.mark.parametrize("size", [(568, 320), (667, 375)], ids=["568x320", "667x375"])
def test_all_fives_dealers_own_line_shows_its_cards(live_server_url, browser, size):
    pages, _ = other_game_at_a_round(
        browser,
        live_server_url,
        "all_fives",
        {"width": size[0], "height": size[1]},
        "Deal",
        seats=3,
    )
    own = "#screen .seats > li.me"
    dealer = next(p for p in pages if p.locator(f"{own} .badge", has_text="dealer").count())
    line = dealer.locator(own).evaluate(LINE)
    meta = next(part for part in line["parts"] if part["cls"] == "meta")
    assert meta["width"] > 0 and not meta["cut"], line
    assert not line["overflows"], line
    # Who deals still shown: the hand's line above the seats says "you deal".
    assert "you deal" in dealer.locator("#screen .af-hand-no").inner_text()
    assert dealer.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    for page in pages:
        page.context.close()
