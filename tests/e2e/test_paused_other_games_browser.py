"""A paused round on the phone whose turn it is, in All Fives, 7Up7Down and 3 Tricks
(Five Tricks': test_paused_browser). The render tests (test_paused_phone) read the
screens as the server draws them; here Chromium shows them, says them and sends the
taps: while paused the turn waits ("Your turn when the round continues."), no card or
move is offered as playable, a tap moves nothing; resumed, the same phone plays on.

One phone (Ana's); the table's other seats join through the services and move
through them, as a bot would, until Ana has a card (3 Tricks: Pass) to play.
Chromium."""

from __future__ import annotations

import random
import re
import time

import pytest
from phones import (
    one_phone_at_a_round,
    table_version,
    toasts,
    version,
    wait_change,
    wait_version,
    watch_toasts,
)

from tournament import gamestate, selectors, services
from tournament.models import Game, Player

pytestmark = [pytest.mark.browser]

# The game, its seats, the moment Ana's screen offers her a move to tap (7Up7Down's
# blind deal has no card she can see), and that move's control before the pause.
GAMES = {
    "all_fives": (3, lambda v: v["phase"] == "play", ".hand .card.legal"),
    "seven_up": (3, lambda v: v["phase"] == "play" and not v.get("blind"), ".hand .card.legal"),
    "three_tricks": (2, lambda v: v.get("can_act"), ".tt-pass"),
}
# Whatever a tap could send as a move, or pick a card for one.
MOVES = (
    "#screen [data-action=act], #screen [data-action=play], #screen [data-action=claim],"
    " #screen [data-pick]"
)
# The move controls a tap or Enter would work: enabled and not marked unavailable.
LIVE_MOVES = f"""() => Array.from(document.querySelectorAll({MOVES!r}))
    .filter(e => !e.disabled && e.getAttribute('aria-disabled') !== 'true')
    .map(e => e.outerHTML)"""
SAID = "() => document.getElementById('announce').textContent"
# The turn's line as it is shown: without its parts for a screen reader only (All
# Fives' "You stood: diamonds are trumps.", heard before "Your turn" until the first
# card, made a CI run's inner_text start with it when Ana's hand was stood on).
WHOSE_SHOWN = """() => { const c = document.querySelector('.whose').cloneNode(true);
  c.querySelectorAll('.visually-hidden').forEach((e) => e.remove());
  return c.textContent.replace(/\\s+/g, ' ').trim(); }"""


def to_anas_move(game, ana: int, moment) -> None:
    """The other seats (and Ana's, when hers is not yet a move to tap) move through
    the services, as their bots would, until Ana's screen offers her a move."""
    kind, rng = gamestate.kind_of(game), random.Random(7)
    for _ in range(200):
        game.refresh_from_db()
        state = gamestate.load_state(game)
        seat = kind.to_act(state)[0]
        if seat == ana and moment(selectors.player_screen(game.players[ana])["game"]):
            return
        action = kind.bot_action(state, seat, rng)
        move = {k: v for k, v in action.items() if k != "seat"}
        services.game_act(player_id=game.players[seat], move=move)
    pytest.fail("Ana never had a move to make")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_paused_phone_offers_no_move_and_plays_on_when_resumed(live_server_url, browser, key):
    seats, moment, move = GAMES[key]
    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        seats=seats,
        size={"width": 390, "height": 844},
        game=key,
        name=f"Paused {key}",
    )
    ana_id = Player.objects.get(workshop=w, name="Ana").pk
    ana = game.players.index(ana_id)
    to_anas_move(game, ana, moment)
    wait_version(page, table_version(game), timeout=8000)
    page.wait_for_selector(f"{move}:not([aria-disabled])", timeout=8000)
    assert page.evaluate(WHOSE_SHOWN).startswith("Your turn"), page.evaluate(WHOSE_SHOWN)
    assert page.evaluate(LIVE_MOVES)  # a move to take away
    # The control the phone plays with: the first playable card (3 Tricks: Pass).
    control = page.locator(move).first
    card = page.locator(".hand [data-card], .hand [data-pick]").first
    if key != "three_tricks":
        card = page.locator(f'.hand [data-card="{control.get_attribute("data-card")}"]')
    before_screen = page.locator("#screen .board").inner_text()
    before_hand = page.locator(".hand").inner_html()

    before = version(page)
    services.round_pause(round_id=game.round_id)
    wait_change(page, before)
    page.wait_for_selector("#screen[data-paused='1']")
    # Shown and said: the turn waits for the round.
    whose = page.evaluate(WHOSE_SHOWN)
    assert re.match(r"Your turn( to play)? when the round continues\.", whose), whose
    assert "Lead any card" not in whose
    page.wait_for_function(
        f"() => ({SAID})().includes('paused the round')"
        f" && ({SAID})().includes('when the round continues')",
        timeout=5000,
    )
    # No move is offered: each is disabled or marked so, none drawn or named playable.
    assert page.locator(MOVES).count(), "the moves are still there, each unavailable"
    assert page.evaluate(LIVE_MOVES) == []
    assert page.locator(".hand .card.legal, .hand .tt-fits, .hand .tt-matches").count() == 0
    labels = page.locator(MOVES).evaluate_all("els => els.map(e => e.ariaLabel || '')")
    assert not [x for x in labels if "playable" in x or "makes a trick" in x or "matches" in x]

    # A tap on a card (and 3 Tricks' Pass) moves nothing: refused, and said so.
    # (Forced: Playwright taps no aria-disabled element; a finger does.)
    seq = Game.objects.get(pk=game.pk).seq
    watch_toasts(page)
    card.click(force=True)
    if key == "three_tricks":
        assert card.get_attribute("aria-pressed") == "false"  # not picked
        control.click(force=True)
    # Answered (the refusal's toast) or, were the pause broken, applied.
    deadline = time.monotonic() + 15  # (5 s were beaten by a busy machine's stall)
    while not toasts(page):
        assert Game.objects.get(pk=game.pk).seq == seq, "a tap while paused was applied"
        assert time.monotonic() < deadline, "the tap was neither refused nor applied"
        page.wait_for_timeout(50)
    assert Game.objects.get(pk=game.pk).seq == seq
    assert "paused the round" in toasts(page)[0], toasts(page)

    # Resumed: the screen is as it was before the pause, and the phone plays on.
    before = version(page)
    services.round_resume(round_id=game.round_id)
    wait_change(page, before)
    page.wait_for_selector("#screen:not([data-paused])")
    page.wait_for_function(f"() => ({SAID})().includes('The round continues.')", timeout=5000)
    assert page.locator("#screen .board").inner_text() == before_screen
    assert page.locator(".hand").inner_html() == before_hand
    before = version(page)
    control.click()
    wait_change(page, before)
    game.refresh_from_db()
    assert game.seq == seq + 1
    assert game.actions.order_by("-pk").first().actor_id == ana_id
    page.context.close()
