"""A phone held sideways shows the table, whose turn it is (or the claim) and the
hand without scrolling, in Chromium, and passes the accessibility audit: Five Tricks and
the other three games."""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import (
    LONG,
    OTHER_GAMES,
    OTHERS,
    assert_in_view,
    first_moves,
    first_round,
    join,
    not_in_view,
    one_phone_at_a_round,
    other_game_at_a_round,
    play_until,
    touch_phone,
    version,
    wait_change,
    whose_turn,
)

from tournament import services

pytestmark = [pytest.mark.browser]
WAIT = 8000
LANDSCAPE = {"width": 844, "height": 390}
# A smaller phone, or a browser whose toolbar takes part of the height sideways.
SMALL = {"width": 800, "height": 360}
# An iPhone SE sideways: seven cards of 44 px need most of its right column.
SE = {"width": 667, "height": 375}
# A common small Android phone (360x640) sideways.
TINY = {"width": 640, "height": 360}


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def sideways_phone(browser, url, code, name, size=LANDSCAPE):
    """A phone held sideways (844x390 unless `size` says) that has joined `code` as `name`."""
    page = touch_phone(browser, size)
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
    first_round(w.pk)
    sideways.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)

    for selector in (".seats", ".trick", ".whose", ".hand .card"):
        assert in_view(sideways, selector), selector
    assert_accessible(sideways, "phone sideways")

    # The claim step: the question and the cards to tap are in view too.
    for _ in range(4):
        on_turn = whose_turn(pages)
        before = version(on_turn)
        on_turn.locator(".hand .card.legal").first.click()
        wait_change(on_turn, before)
    sideways.wait_for_selector("[data-action=claim]", timeout=WAIT)
    for selector in (".trick .card", ".claim", ".claim .primary"):
        assert in_view(sideways, selector), selector
    sideways.context.close()


# Names cut short under every card on the table: at 640x360 five such cards wrapped
# four and one, the fifth card to claim below the screen's edge.


@pytest.mark.parametrize(
    ("seats", "size", "others"),
    [
        (5, LANDSCAPE, OTHERS),
        (5, SMALL, OTHERS),
        (5, SE, OTHERS),
        (5, TINY, OTHERS),
        (5, TINY, LONG),
        (8, LANDSCAPE, OTHERS),
        (4, SE, OTHERS),
        (4, TINY, OTHERS),
    ],
    ids=["5-844", "5-800", "5-667", "5-640", "5-640-long-names", "8-844", "4-667", "4-640"],
)
def test_five_tricks_sideways_at_a_full_table_and_in_a_dispute(
    live_server_url, browser, seats, size, others
):
    """A table of five (the default) or eight: the seats are lines (two columns from
    six), so the left column never pushes the hand, the claim or the gestures down.
    In play, the claim step and a dispute, every seat, every card on the table, the
    hand and (in a dispute) every gesture and the pad's switch are in view, and the
    cards to tap are at least 44 px."""
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Full table", seats=seats, size=size, others=others
    )

    def check(moment, parts, tappable):
        assert page.locator(".seats .seat").count() == seats
        missing = [m for p in parts for m in not_in_view(page, p)]
        assert missing == [], (seats, moment, missing)
        sizes = [el.bounding_box() for el in page.locator(tappable).all()]
        assert sizes and all(min(b["width"], b["height"]) >= 44 for b in sizes), (moment, sizes)
        # The hand is one row (seven cards at four seats too).
        rows = {round(el.bounding_box()["y"]) for el in page.locator(".hand .card").all()}
        assert len(rows) == 1, (moment, rows)

    # Play: the whole table's trick but the last card, through the services.
    play_until(game, lambda state: len(state.current) == seats - 1)
    page.wait_for_function(
        "n => document.querySelectorAll('#screen .trick .card').length === n", arg=seats - 1
    )
    check("play", [".seats .seat", ".trick .card", ".whose", ".hand .card"], ".hand .card")
    play_until(game, lambda state: state.phase != "play")  # the trick's last card
    page.wait_for_selector(".claim .primary", timeout=WAIT)
    check("claim", [".seats .seat", ".trick .card", ".claim", ".claim .primary"], ".trick .card")

    # A dispute: the first seat claims another card than the rest.
    winner = int(page.locator(".claim .primary").get_attribute("data-winner"))
    other = next(p for p in game.players if p != winner)
    for i, player in enumerate(game.players):
        services.game_claim(player_id=player, winner_player_id=other if i == 0 else winner)
    page.wait_for_selector(".dispute-title", timeout=WAIT)
    check(
        "dispute",
        [".seats .seat", ".trick .card", ".dispute-title", ".palette button", ".pad-wrap summary"],
        ".trick .card, .palette button",
    )
    assert_accessible(page, "phone sideways, a dispute")
    page.context.close()


@pytest.mark.parametrize("size", [TINY, SE], ids=["640", "667"])
def test_sideways_after_a_move_the_line_saying_so_leaves_the_table_in_view(
    live_server_url, browser, size
):
    """The round after a move, "You moved up to table 2 (from table 1)." stays all
    round (a phone asleep between rounds never saw "Go to table 2"). Sideways it took
    a row of its own above both columns, and at 640x360 the cards to claim ran off
    the screen's foot. It sits at the top of the right column now."""
    from tournament.models import Game, GameState, Player, Round

    w = services.workshop_create(name="Moved sideways", table_count=2, seats_per_table=5, seed=3)
    page = touch_phone(browser, size)
    join(page, live_server_url, w.code, "Ana")
    for other in [*OTHERS, "Ida", "Jo"]:
        services.player_join(code=w.code, name=other)
    first_round(w.pk)
    ana = Player.objects.get(workshop=w, name="Ana")
    home = ana.table.number
    rnd = Round.objects.filter(workshop=w).order_by("-number").first()
    services.round_end_now(round_id=rnd.pk)
    # Ana and one of the other table swap: five a table, as before.
    swap = Player.objects.filter(workshop=w, table__number=3 - home).first()
    moves = [{"player": ana.pk, "to": 3 - home}, {"player": swap.pk, "to": home}]
    services.movement_edit(round_id=rnd.pk, moves=moves)
    services.movement_apply(round_id=rnd.pk)
    services.round_start(workshop_id=w.pk)
    page.wait_for_selector("#screen[data-phase=round] .arrived", timeout=WAIT)
    ana.refresh_from_db()
    game = Game.objects.get(table=ana.table, state=GameState.PLAYING)
    seats = len(game.players)
    assert seats == 5
    play_until(game, lambda state: state.phase != "play")
    page.wait_for_selector(".claim .primary", timeout=WAIT)
    assert page.locator(".trick .card").count() == seats
    missing = [
        m
        for p in (".arrived", ".seats .seat", ".trick .card", ".claim", ".claim .primary")
        for m in not_in_view(page, p)
    ]
    assert missing == [], missing
    assert_accessible(page, "phone sideways, the round after a move")
    page.context.close()


@pytest.mark.parametrize("size", [LANDSCAPE, SMALL, SE, TINY], ids=["844", "800", "667", "640"])
@pytest.mark.parametrize("game", list(OTHER_GAMES))
def test_the_other_games_sideways_show_table_turn_moves_and_hand(
    live_server_url, browser, game, size
):
    """Each seat's phone held sideways, through the first moves of a game: the
    table on the left and whose turn, the moves and the hand on the right, all in
    view, nothing wider than the phone, and the accessibility audit passes."""
    parts = OTHER_GAMES[game][1]
    pages, w = other_game_at_a_round(browser, live_server_url, game, size, f"Sideways {game}")
    assert_accessible(pages[0], f"{game} sideways")

    for step, on_turn in first_moves(pages, w, OTHER_GAMES[game][2]):
        for page in pages:
            # Only the parts this moment has (7Up's trick once bidding is over).
            present = [p for p in parts if page.locator(p).count()]
            assert {".whose", ".hand .card"} <= set(present), (step, present)
            assert_in_view(page, present, (game, step), controls=page in on_turn)
    for page in pages:
        page.context.close()


# An iPhone SE of the first size (320x568) sideways.
SE1 = {"width": 568, "height": 320}

# The status bar's parts (phase, table, clock), each as [top, bottom] in px.
STATUS_PARTS = """() => Array.from(document.querySelector('#screen .status').children)
  .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 1).map((r) => [r.top, r.bottom])"""


def test_the_smallest_phone_sideways_keeps_the_status_bar_one_row_and_the_cards_to_claim_in_view(
    live_server_url, browser
):
    """At 568x320 the status bar beside the silence line was 275 px wide for 283 px of
    phase, table and clock: the clock went to a second row, the bar grew from 36 to
    68 px, and the cards to claim at a table of four ran 6 px below the screen's edge."""
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Smallest sideways", seats=4, size=SE1
    )
    play_until(game, lambda state: state.phase != "play")
    page.wait_for_selector(".claim .primary", timeout=WAIT)
    parts = page.evaluate(STATUS_PARTS)
    assert len(parts) == 3, parts
    # One row: every part's box overlaps every other's height.
    assert max(top for top, _ in parts) < min(bottom for _, bottom in parts), parts
    missing = [
        m for p in (".seats .seat", ".trick .card", ".claim .primary") for m in not_in_view(page, p)
    ]
    assert missing == [], missing
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    page.context.close()
