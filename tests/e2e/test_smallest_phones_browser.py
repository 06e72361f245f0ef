"""Every game at its largest table on the smallest phones, upright (320x568, 360x640)
and sideways (568x320, 640x360, 667x375): through the first moves, the seat with a
move has nothing wider than the phone, nothing drawn over anything else, no text
running out of its box, the table, its moves and its whole hand on the screen, and
every card and button it can tap at least 44x44 px (WCAG 2.5.5). Seven cards 40 px
wide at 320x568 and 39 px at 568x320 were targets too small; 3 Tricks' piles at
568x320 ran 9 px off the screen's left edge and over the hand and Lay; 7Up7Down's
deal line there ran 18 px out of its box; at 320x568 7Up's hand at a table of five
was 15-18 px below the screen's edge."""

from __future__ import annotations

import pytest
from phones import (
    first_moves,
    one_phone_at_a_round,
    other_game_at_a_round,
    play_until,
    touch_phone,
)

from tournament import services
from tournament.models import Player

pytestmark = [pytest.mark.browser]
WAIT = 8000
SIZES = [(320, 568), (360, 640), (568, 320), (640, 360), (667, 375)]
IDS = [f"{w}x{h}" for w, h in SIZES]

# What a seat reads or taps, each a box of its own: two of them that overlap are one
# drawn over the other (an element and what it holds are not compared).
PARTS = (
    ".status, .silence, .seat, .su-deal, .su-trump, .af-facts > *, .tt-pile, .tt-side,"
    " .whose, .su-bid-total, .trick > .card, .hand .card, .hand > .hint, #screen button,"
    " #screen summary"
)
# The screen as laid out: the boxes of `PARTS` on it, the pairs that overlap, the
# elements whose content runs past their box (not those cut short with "…"), the
# tappable ones under 44 px either way, and how much wider than the phone the page is.
LAYOUT = """(parts) => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'
    && !e.closest('.visually-hidden, details:not([open]) > :not(summary)');
  const label = (e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent.trim().slice(0, 24)}"`;
  const els = [...document.querySelectorAll(parts)].filter(shown);
  const boxes = els.map((e) => e.getBoundingClientRect());
  const overlaps = [];
  for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
    if (els[i].contains(els[j]) || els[j].contains(els[i])) continue;
    const a = boxes[i], b = boxes[j];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0.5 && h > 0.5) overlaps.push([label(els[i]), label(els[j]), Math.round(w), Math.round(h)]);
  }
  const spills = [...document.querySelectorAll('#screen *')].filter(shown).filter((e) => {
    const s = getComputedStyle(e);
    return e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1 && s.textOverflow !== 'ellipsis'
      && !['auto', 'scroll'].includes(s.overflowX);
  }).map((e) => [label(e), e.scrollWidth, e.clientWidth]);
  const small = [...document.querySelectorAll('#screen :is(button, summary, a, [data-action], [data-pick])')]
    .filter(shown).map((e) => [label(e), e.getBoundingClientRect()])
    .filter(([, r]) => r.width < 44 || r.height < 44).map(([l, r]) => [l, r.width, r.height]);
  return {overlaps, spills, small, wider: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


WIDEST_TRUMP = """() => {
  document.querySelector('#screen .su-trump-card').textContent = '10♦';
  document.querySelector('#screen .su-trump strong').textContent = 'diamonds';
}"""


def in_view(page, selector):
    """Each element `selector` matches that is not wholly on the unscrolled screen."""
    size = page.viewport_size
    assert page.evaluate("() => window.scrollY") == 0
    out = []
    for el in page.locator(selector).all():
        box = el.bounding_box()
        if box is None or not (
            -0.5 <= box["x"] <= box["x"] + box["width"] <= size["width"] + 0.5
            and -0.5 <= box["y"] <= box["y"] + box["height"] <= size["height"] + 0.5
        ):
            out.append((selector, el.inner_text()[:20], box))
    return out


def assert_laid_out(page, label, parts):
    layout = page.evaluate(LAYOUT, PARTS)
    assert layout["wider"] <= 0, (label, layout["wider"])
    assert layout["overlaps"] == [], (label, layout["overlaps"])
    assert layout["spills"] == [], (label, layout["spills"])
    assert layout["small"] == [], (label, layout["small"])
    missing = [m for p in parts if page.locator(p).count() for m in in_view(page, p)]
    assert missing == [], (label, missing)


# Each game's largest table (All Fives seats three, 3 Tricks two), the moves the test
# makes (7Up: five bids, then the trick's first cards) and what must be on the screen.
GAMES = {
    "seven_up": (5, 10, [".su-facts", ".seats", ".whose", ".trick", ".su-bids button"]),
    "all_fives": (3, 4, [".af-facts", ".seats", ".whose", ".trick", ".af-choice button"]),
    "three_tricks": (2, 3, [".whose", ".tt-theirs", ".tt-piles", ".tt-mine", ".tt-moves button"]),
}


@pytest.mark.parametrize("size", SIZES, ids=IDS)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_other_games_at_their_largest_table(live_server_url, browser, game, size):
    seats, moves, parts = GAMES[game]
    pages, w = other_game_at_a_round(
        browser,
        live_server_url,
        game,
        {"width": size[0], "height": size[1]},
        f"Smallest {game}",
        seats=seats,
    )
    for step, on_turn in first_moves(pages, w, moves):
        for page in on_turn:
            assert page.locator(".hand .card").count() >= 5, step
            assert_laid_out(page, (game, size, step), [*parts, ".hand .card"])
    if game == "seven_up":
        # The widest trump in place (the deal's is the seed's): the ten of diamonds.
        pages[0].evaluate(WIDEST_TRUMP)
        assert_laid_out(pages[0], (game, size, "10♦ trump"), [".su-facts", ".seats"])
    for page in pages:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_five_tricks_at_a_table_of_five(live_server_url, browser, size):
    """Ana's turn with seven cards, the claim step, and a dispute in which her phone
    offers "✓ <name> won" (the most it shows): the pad's switch on the screen too."""
    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        name="Smallest five tricks",
        seats=5,
        size={"width": size[0], "height": size[1]},
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    play_until(game, lambda state: state.phase == "play" and game.players[state.to_act] == ana)
    page.wait_for_selector(".hand .card.legal", timeout=WAIT)
    assert page.locator(".hand .card").count() >= 5
    assert_laid_out(page, (size, "play"), [".seats .seat", ".trick", ".whose", ".hand .card"])

    play_until(game, lambda state: state.phase != "play")
    page.wait_for_selector(".claim .primary", timeout=WAIT)
    assert_laid_out(page, (size, "claim"), [".seats .seat", ".trick .card", ".claim .primary"])

    winner = int(page.locator(".claim .primary").get_attribute("data-winner"))
    other = next(p for p in game.players if p != winner)
    for player in game.players:
        services.game_claim(player_id=player, winner_player_id=other if player == ana else winner)
    page.wait_for_selector(".dispute-title", timeout=WAIT)
    assert page.locator(".claim .primary").count() == 1
    assert_laid_out(
        page,
        (size, "dispute"),
        [
            ".trick .card",
            ".dispute-title",
            ".claim .primary",
            ".palette button",
            ".pad-wrap summary",
        ],
    )
    page.context.close()


def side_margin(page) -> float:
    return float(
        page.evaluate("parseFloat(getComputedStyle(document.querySelector('main')).paddingLeft)")
    )


@pytest.mark.parametrize("size", [(320, 568), (568, 320)], ids=["320x568", "568x320"])
def test_only_a_games_screen_has_its_side_margins_halved(live_server_url, browser, size):
    """Halved for seven 44 px cards in a row, the margins were halved on the join page,
    the lobby, the study and the rounds' ends too (body.play), which have no hand."""
    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        name="Margins",
        seats=4,
        size={"width": size[0], "height": size[1]},
    )
    page.wait_for_selector("#screen > .board", timeout=WAIT)
    guest = touch_phone(browser, {"width": size[0], "height": size[1]})
    guest.goto(f"{live_server_url}/join?code={w.code}")
    assert side_margin(page) == side_margin(guest) / 2 > 0
    guest.context.close()
    page.context.close()
