"""A small phone held upright: on its turn the student sees the table, whose turn
it is, its moves and the whole hand without scrolling, and taps a card (Five Tricks at a
table of five, the default, also in a dispute; the other three games at theirs; in
Chromium)."""

from __future__ import annotations

import pytest
from phones import (
    LONG,
    OTHER_GAMES,
    OTHERS,
    assert_in_view,
    first_moves,
    not_in_view,
    one_phone_at_a_round,
    other_game_at_a_round,
    play_until,
    version,
    wait_change,
)

from tournament import services
from tournament.models import Player

pytestmark = [pytest.mark.browser]
WAIT = 8000


# An iPhone SE's screen, and two common small Android ones (360x640 is also what a
# taller phone keeps under its browser's bars).
SMALL_PHONES = pytest.mark.parametrize(
    "size", [(375, 667), (360, 740), (360, 640)], ids=["375x667", "360x740", "360x640"]
)


@pytest.mark.parametrize(
    ("size", "others"),
    [((375, 667), OTHERS), ((360, 740), OTHERS), ((360, 640), OTHERS), ((360, 640), LONG)],
    ids=["375x667", "360x740", "360x640", "360x640-long-names"],
)
def test_a_small_phone_at_a_table_of_five_sees_its_whole_turn(
    live_server_url, browser, size, others
):
    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        name="Upright",
        seats=5,
        size={"width": size[0], "height": size[1]},
        others=others,
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    # The others play (through the services) until it is Ana's turn.
    play_until(game, lambda state: game.players[state.to_act] == ana)
    page.wait_for_selector(".hand .card.legal", timeout=WAIT)
    assert page.locator(".seats .seat").count() == 5
    assert page.locator(".hand .card").count() >= 5
    # And the gestures, the one way to speak in silent play: they had come below the
    # "Playing as … / Rejoin PIN" footer, the palette's first row at the fold.
    missing = [
        m
        for p in (".seats .seat", ".trick .card", ".whose", ".hand .card")
        + (".reactions", ".palette button")
        for m in not_in_view(page, p)
    ]
    assert missing == [], missing
    assert page.evaluate(
        "() => document.getElementById('talk').nextElementSibling.matches('footer.pin')"
    )
    before = version(page)
    page.locator(".hand .card.legal").first.click()
    wait_change(page, before)

    # The trick's last cards, then a dispute: Ana claims another card than the rest.
    game.refresh_from_db()
    play_until(game, lambda state: state.phase != "play")
    page.wait_for_selector(".claim .primary", timeout=WAIT)
    winner = int(page.locator(".claim .primary").get_attribute("data-winner"))
    page.click(f'.trick button[data-winner="{next(p for p in game.players if p != winner)}"]')
    for player in game.players:
        if player != ana:
            services.game_claim(player_id=player, winner_player_id=winner)
    page.wait_for_selector(".dispute-title", timeout=WAIT)
    # The five cards to claim are one row; the dispute, the others' reactions and
    # every gesture are in view. "You said" is read out, not shown, in a dispute.
    assert len({round(c.bounding_box()["y"]) for c in page.locator(".trick .card").all()}) == 1
    missing = [
        m
        for p in (".trick .card", ".dispute-title", ".reactions", ".palette button")
        for m in not_in_view(page, p)
    ]
    assert missing == [], missing
    mine = page.locator(".claim .mine")
    assert "You said" in mine.text_content()
    assert mine.evaluate("e => getComputedStyle(e).display") != "none"
    assert (
        page.get_by_role("group", name="Who won this trick?").get_by_text("You said").count() == 1
    )
    page.context.close()


@SMALL_PHONES
@pytest.mark.parametrize("game", list(OTHER_GAMES))
def test_the_other_games_upright_show_the_seat_on_turn_its_moves_and_hand(
    live_server_url, browser, game, size
):
    """Through the first moves of each game (7Up's bids and first trick, All Fives'
    stand and first trick up to the next lead with revoke calls open, 3 Tricks' first
    turns): a seat with a move sees the table, whose turn, every control (44 px or
    more) and its whole hand, one row of up to seven cards, with nothing wider than
    the phone."""
    upright_turns(live_server_url, browser, game, size, OTHERS)


# Each name on the table (seat lines, 3 Tricks' sides) in px: its height, and its
# font's size.
NAMES = """() => Array.from(
  document.querySelectorAll("#screen :is(.seat > .name, .tt-name)"),
  (e) => [e.textContent.trim(), e.getBoundingClientRect().height,
          parseFloat(getComputedStyle(e).fontSize)])"""


@pytest.mark.parametrize("game", list(OTHER_GAMES))
def test_the_other_games_upright_with_long_names(live_server_url, browser, game):
    """As above at 360x640 with names of up to 30 characters: a name is one line, cut
    short (3 Tricks' side headers took two lines each and its moves went to the
    screen's edge)."""

    def one_line(page):
        names = page.evaluate(NAMES)
        assert names and all(h < 1.8 * size for _, h, size in names), names

    upright_turns(live_server_url, browser, game, (360, 640), LONG, one_line)


def upright_turns(live_server_url, browser, game, size, others, check=None):
    parts = OTHER_GAMES[game][1]
    pages, w = other_game_at_a_round(
        browser,
        live_server_url,
        game,
        {"width": size[0], "height": size[1]},
        f"Upright {game}",
        others,
    )
    for step, on_turn in first_moves(pages, w, OTHER_GAMES[game][2]):
        for page in on_turn:
            present = [p for p in parts if page.locator(p).count()]
            assert {".whose", ".hand .card"} <= set(present), (step, present)
            rows = {
                round(b["y"]) for b in (c.bounding_box() for c in page.locator(".hand .card").all())
            }
            assert len(rows) == 1, (game, step, rows)
            assert_in_view(page, present, (game, step), controls=True)
            if check is not None:
                check(page)
    for page in pages:
        page.context.close()
