"""Every word a student reads on a small phone (320x568, 360x740, and the games'
screens sideways at 568x320 and 667x375) is at least 15 px.

The root is 18 px (static/css/barnga.css), but rules for small phones had shrunk
lines to fit: the players' names under the cards on the table were 12.6 px, the
silence line 12.96 px at 320 px wide, the dispute line and its clock 14.4 px, the
seats' badges ("dealer", "claimed") and 3 Tricks' hint 14.4 px. A phone is read on
the table at arm's length (50-70 cm), not at the 30 cm of reading one in the hand:
15 px there is about what 9-10 pt print is at reading distance, the smallest the
silence line or a name under a card may be and still be read without picking the
phone up. So the floor is 15 px for every word shown, labels included: a name under
a card is who to claim the trick for, a badge is who deals, and none of them is
decoration. Words only a screen reader gets (visually hidden) are not drawn and not
checked; a word hidden in a closed <details> is not shown either.

The screens: the lobby, the study with the rules sheet, Five Tricks at a table of
five in play, at the claim step and in a dispute (the silence line, the names under
the cards, the dispute line and its clock), All Fives, 7Up7Down and 3 Tricks at their
largest tables through the first moves of a deal (3 Tricks' counts under each side and
the hint above the hand were 14.4 px at 320x568), between rounds before and after a
move, and the debrief, each upright and sideways; on each screen no word is past
its edge and the page does not scroll sideways. Sideways the seats' counts and All Fives' score were 14.4 px in
every layout, 3 Tricks' counts under each side at 667 px wide or less, and at 568x320
7Up's "Trump: diamonds" and 3 Tricks' hint.
"""

from __future__ import annotations

import pytest
from phones import (
    OTHERS,
    first_moves,
    join,
    one_trick,
    other_game_at_a_round,
    play_until,
    seat_as,
    touch_phone,
    wait_version,
)

from tournament import services
from tournament.models import Game, GameState, Player, Round, Table

pytestmark = [pytest.mark.browser]
WAIT = 8000
FLOOR = 15
SIZES = [(320, 568), (360, 740)]
IDS = [f"{w}x{h}" for w, h in SIZES]
# Sideways (the smallest phone, 568x320, and an iPhone SE, 667x375): the rules for a
# phone held sideways shrink a game's screen only (#screen:has(> .board)); every test
# runs there too, between rounds and the debrief included (a phone turned after the
# round ends keeps them).
SIDEWAYS = [(568, 320), (667, 375)]
ALL_SIZES = SIZES + SIDEWAYS
ALL_IDS = IDS + [f"{w}x{h}" for w, h in SIDEWAYS]

# Whether an element is clipped to a pixel for a screen reader only (.visually-hidden,
# or a rule that hides a part the same way), or in a closed <details> (save its summary).
CLIPPED = """  const clipped = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const r = a.getBoundingClientRect(), s = getComputedStyle(a);
      if (r.width <= 1 && r.height <= 1 && s.overflow === 'hidden') return true;
      if (a.parentElement && a.parentElement.matches('details:not([open])') && a.tagName !== 'SUMMARY') return true;
    }
    return false;
  };
"""

# Each element of the page with words of its own (a text node, not only its
# children's) drawn under `floor` px: not display: none, not visibility: hidden, not
# in a closed <details> (save its summary) and not clipped to a pixel for a screen
# reader only (.visually-hidden, or a rule that hides a part the same way).
SMALL_TEXT = (
    """(floor) => {
"""
    + CLIPPED
    + """  return [...document.querySelectorAll('body *')]
    .filter((e) => [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .filter((e) => !['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(e.tagName))
    .filter((e) => parseFloat(getComputedStyle(e).fontSize) < floor - 0.01 && !clipped(e))
    .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent.trim().slice(0, 40)}" ${getComputedStyle(e).fontSize}`);
}"""
)


# Each element with words of its own drawn past the screen's left or right edge (not
# clipped for a screen reader, not in a closed <details>, not the skip link, put off
# the screen until it has the focus, not in a box that scrolls sideways by itself),
# and the page wider than the screen (it
# scrolls sideways): a word off the edge is not read at any size.
OFF_EDGE = (
    """() => {
  const w = document.documentElement.clientWidth;
"""
    + CLIPPED
    + """  // In a box of its own that scrolls sideways (7Up's score sheet): not the page's edge.
  const scrolled = (e) => {
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return true;
    }
    return false;
  };
  const out = [...document.querySelectorAll('body *')]
    .filter((e) => [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .filter((e) => !['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(e.tagName) && !clipped(e))
    .filter((e) => !e.matches('.skip:not(:focus)') && !scrolled(e))
    .filter((e) => { const r = e.getBoundingClientRect(); return r.left < -0.5 || r.right > w + 0.5; })
    .map((e) => `past the edge: ${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent.trim().slice(0, 40)}"`);
  if (document.documentElement.scrollWidth > w) out.push(`scrolls sideways: ${document.documentElement.scrollWidth} > ${w}`);
  return out;
}"""
)


# Each box hidden for a screen reader (.visually-hidden, save the inline comma of
# .sep-said) drawn wider or taller than a pixel: a layout rule that outranks the
# class's width (the sideways columns' `width: 49%`) left 7Up's "Eve bid 0." a
# clipped box 250 px wide.
WIDE_HIDDEN = """() => [...document.querySelectorAll('.visually-hidden:not(.sep-said)')]
  .filter((e) => e.getClientRects().length)
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 1.5 || r.height > 1.5; })
  .map((e) => { const r = e.getBoundingClientRect();
    return `hidden box ${Math.round(r.width)}x${Math.round(r.height)}: ${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent.trim().slice(0, 40)}"`; })"""


class Findings:
    """What each screen drew under the floor, all of it kept: the test fails once at
    its end, listing every screen's small words (screenshots of each go to
    artifacts/)."""

    def __init__(self, artifacts, size):
        self.found: dict[str, list[str]] = {}
        self.artifacts = artifacts
        self.size = size

    def check(self, page, label):
        small = (
            page.evaluate(SMALL_TEXT, FLOOR) + page.evaluate(OFF_EDGE) + page.evaluate(WIDE_HIDDEN)
        )
        if small:
            self.found[label] = sorted(set(small))
        shot = f"text-size-{self.size[0]}x{self.size[1]}-{label}.png".replace(" ", "-")
        page.screenshot(path=str(self.artifacts / shot), full_page=True)

    def assert_none(self):
        assert self.found == {}, "\n".join(f"{k}: {v}" for k, v in self.found.items())


@pytest.mark.parametrize("size", ALL_SIZES, ids=ALL_IDS)
def test_five_tricks_from_the_lobby_to_a_dispute(live_server_url, browser, artifacts, size):
    seen = Findings(artifacts, size)
    w = services.workshop_create(name="Type", table_count=1, seats_per_table=5, seed=3)
    page = touch_phone(browser, {"width": size[0], "height": size[1]})
    join(page, live_server_url, w.code, "Ana")
    for other in OTHERS[:4]:
        services.player_join(code=w.code, name=other)
    page.wait_for_selector("#screen[data-phase=lobby]", timeout=WAIT)
    seen.check(page, "lobby")
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    page.wait_for_selector("#screen[data-phase=study] .sheet", timeout=WAIT)
    seen.check(page, "study")
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    ana = Player.objects.get(workshop=w, name="Ana").pk
    play_until(game, lambda state: state.phase == "play" and game.players[state.to_act] == ana)
    page.wait_for_selector(".hand .card.legal", timeout=WAIT)
    seen.check(page, "play")
    play_until(game, lambda state: state.phase != "play")
    page.wait_for_selector(".claim .primary", timeout=WAIT)
    seen.check(page, "claim")
    winner = int(page.locator(".claim .primary").get_attribute("data-winner"))
    other = next(p for p in game.players if p != winner)
    for player in game.players:
        services.game_claim(player_id=player, winner_player_id=other if player == ana else winner)
    page.wait_for_selector(".dispute-title .countdown", timeout=WAIT)
    seen.check(page, "dispute")
    page.context.close()
    seen.assert_none()


@pytest.mark.parametrize("size", ALL_SIZES, ids=ALL_IDS)
@pytest.mark.parametrize(
    ("game", "seats", "moves"), [("all_fives", 3, 4), ("seven_up", 5, 10), ("three_tricks", 2, 3)]
)
def test_the_other_games_at_their_largest_table_mid_deal(
    live_server_url, browser, artifacts, game, seats, moves, size
):
    seen = Findings(artifacts, size)
    pages, w = other_game_at_a_round(
        browser,
        live_server_url,
        game,
        {"width": size[0], "height": size[1]},
        f"Type {game}",
        seats=seats,
    )
    for step, on_turn in first_moves(pages, w, moves):
        for page in on_turn:
            seen.check(page, f"{game} move {step}")
    for page in pages:
        seen.check(
            page,
            f"{game} after {moves} moves, {page.locator('#screen').get_attribute('data-name')}",
        )
        page.context.close()
    seen.assert_none()


@pytest.mark.parametrize("size", ALL_SIZES, ids=ALL_IDS)
def test_between_rounds_with_a_move_and_the_debrief(live_server_url, browser, artifacts, size):
    seen = Findings(artifacts, size)
    w = services.workshop_create(name="Type moves", table_count=3, seats_per_table=3, seed=4)
    page = touch_phone(browser, {"width": size[0], "height": size[1]})
    join(page, live_server_url, w.code, "Mia")
    for name in ["Ana", "Ben", "Cat", "Dan", "Eve", "Fox", "Gil", "Zed"]:
        services.player_join(code=w.code, name=name)
    ids = seat_as(w)  # Mia, at table 2, moves up to table 3
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    one_trick(w)
    round1 = Round.objects.get(workshop=w, scored_number=1)
    services.round_end_now(round_id=round1.pk)
    page.wait_for_selector("#screen[data-phase=between]", timeout=WAIT)
    seen.check(page, "between rounds")
    services.movement_apply(round_id=round1.pk)
    assert Player.objects.get(pk=ids["Mia"]).table.number == 3
    wait_version(page, Table.objects.get(workshop=w, number=3).version, timeout=WAIT)
    page.wait_for_selector("#screen .going", timeout=WAIT)
    seen.check(page, "between rounds, moved")
    services.workshop_start_debrief(workshop_id=w.pk)
    page.wait_for_selector("#screen[data-phase=debrief]", timeout=WAIT)
    seen.check(page, "debrief")
    page.context.close()
    seen.assert_none()


def test_the_check_sees_small_words_and_not_hidden_ones(browser):
    """The check itself: a line at 14 px is found; one hidden for a screen reader, one
    hidden by display or visibility, one in a closed <details> are not."""
    page = browser.new_page()
    page.set_content(
        "<style>.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;"
        "clip:rect(0 0 0 0)}</style><body style='font-size:18px'>"
        "<p style='font-size:14px'>small</p><p>big <b style='font-size:12px'>tiny</b></p>"
        "<p class='visually-hidden' style='font-size:10px'>heard</p>"
        "<p style='font-size:10px;display:none'>gone</p>"
        "<p style='font-size:10px;visibility:hidden'>held</p>"
        "<details><summary>Open</summary><p style='font-size:10px'>folded</p></details>"
        "</body>"
    )
    found = page.evaluate(SMALL_TEXT, FLOOR)
    assert found == ['p. "small" 14px', 'b. "tiny" 12px'], found
    page.close()


def test_the_edge_check_sees_words_past_it_and_not_a_scrolling_box(browser):
    """The edge check itself: a line wider than the screen is found (and the page
    scrolling sideways); the skip link off the screen and a line inside a box that
    scrolls by itself are not."""
    page = browser.new_page(viewport={"width": 320, "height": 568})
    page.set_content(
        "<style>.skip{position:absolute;left:-999px}</style><body style='margin:0'>"
        "<a class='skip' href='#x'>Skip</a><p style='width:400px'>wide</p>"
        "<div style='overflow-x:auto'><p style='width:500px'>sheet</p></div></body>"
    )
    assert page.evaluate(OFF_EDGE) == [
        'past the edge: p. "wide"',
        "scrolls sideways: 400 > 320",
    ]
    page.close()
