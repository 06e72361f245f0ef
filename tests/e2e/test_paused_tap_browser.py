"""A tap on a move while the facilitator has paused the round is not sent: the phone
says the server's own words for the pause (data-paused-said) at once, as the
refusal's toast did after a round trip. Resumed, the same tap is sent and played. A
card the table's rules forbid, tapped while the round runs, is still sent: its
refusal is what the debrief counts (services.play._refusal_record). The frames the
page sends are counted on its websocket. Chromium."""

from __future__ import annotations

import json
import time

import pytest
from phones import (
    one_phone_at_a_round,
    table_version,
    toasts,
    version,
    wait_change,
    wait_toast,
    wait_version,
    watch_toasts,
)
from test_double_tap_browser import play_and_claim_until
from test_paused_other_games_browser import to_anas_move

from games import five_tricks
from tournament import gamestate, services
from tournament.errors import ROUND_PAUSED
from tournament.models import Action, Game, GameState, Player

pytestmark = [pytest.mark.browser]
WAIT = 8000
SIZE = {"width": 390, "height": 844}
SAID = "() => document.getElementById('announce').textContent"
# How many of the page's log lines say exactly these words.
SAID_AGAIN = """(words) => Array.from(document.querySelectorAll('#announce p'))
    .filter((p) => p.textContent === words).length"""


def moves_sent(page) -> list[dict]:
    """The moves (play, claim, act) the page sends from now on, as it sends them, and
    (marked "sync") each time it asks for its screen: the page is drawn again so that
    its socket opens under watch."""
    sent: list[dict] = []

    def frame(payload):
        try:
            msg = json.loads(payload)
        except (TypeError, ValueError):
            return
        if isinstance(msg, dict) and msg.get("action") in ("play", "claim", "act", "sync"):
            sent.append(msg)

    page.on("websocket", lambda ws: ws.on("framesent", frame))
    watch_toasts(page)
    page.reload()
    page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    return sent


def wait_sent(page, sent: list[dict], count: int) -> None:
    """Until `count` messages are in `sent`, then half a second more for any beyond
    them: Playwright hands the page's frames over as it can, late on a busy machine
    (a fixed 300 ms found none yet; 100 waits of 50 ms, about 5 s, could be beaten too)."""
    deadline = time.monotonic() + 15
    while len(sent) < count and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    page.wait_for_timeout(500)


def all_fives_at_stand(browser, url):
    """Ana's phone, watched, at an All Fives table of three where she stands or begs."""
    page, w, game = one_phone_at_a_round(
        browser, url, seats=3, size=SIZE, game="all_fives", name="Paused stand"
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    to_anas_move(game, game.players.index(ana), lambda v: v.get("can_stand"))
    sent = moves_sent(page)
    wait_version(page, table_version(game), timeout=WAIT)
    return page, game, ana, sent, "#screen [data-action=act][data-move*=stand]"


def five_tricks_at_claim(browser, url):
    """Ana's phone, watched, at a Five Tricks table of four at its first claim step."""
    page, w, game = one_phone_at_a_round(browser, url, seats=4, size=SIZE, name="Paused claim")
    ana = Player.objects.get(workshop=w, name="Ana").pk
    sent = moves_sent(page)
    play_and_claim_until(w, ana, lambda state, seat: state.phase == "claim")
    wait_version(page, table_version(game), timeout=WAIT)
    return page, game, ana, sent, "#screen .trick button[data-action=claim]"


@pytest.mark.parametrize("at", [all_fives_at_stand, five_tricks_at_claim], ids=["stand", "claim"])
def test_a_move_tapped_while_paused_is_not_sent_and_the_pause_is_said(live_server_url, browser, at):
    page, game, ana, sent, move = at(browser, live_server_url)
    page.wait_for_selector(f"{move}:not([aria-disabled])", timeout=WAIT)
    before = version(page)
    services.round_pause(round_id=game.round_id)
    wait_change(page, before)
    page.wait_for_selector("#screen[data-paused='1']")
    control = page.locator(move).first
    assert control.get_attribute("aria-disabled") == "true"
    assert control.get_attribute("data-paused") is not None
    seq = Game.objects.get(pk=game.pk).seq

    # Tapped (forced: Playwright taps no aria-disabled element; a finger does), and
    # again later, as a student who saw nothing happen would. Each tap asks for the
    # screen (a phone that missed the resume learns of it) and sends no move.
    del sent[:]
    for tap in range(2):
        said = page.evaluate(SAID_AGAIN, ROUND_PAUSED)
        shown = len(toasts(page))
        control.click(force=True)
        assert wait_toast(page, shown, timeout=WAIT) == ROUND_PAUSED
        if tap:
            # The toast still shows the same words: an alert whose text is unchanged may
            # not be read again, so they are said in the page's log too.
            page.wait_for_function(
                f"() => ({SAID_AGAIN})({json.dumps(ROUND_PAUSED)}) > {said}", timeout=WAIT
            )
        page.wait_for_timeout(2100)  # past the double-tap window and the 2 s between asks
    assert page.get_attribute("#toast", "role") == "alert"  # said, as a refusal is
    assert [m["action"] for m in sent] == ["sync", "sync"], "a move tapped while paused was sent"
    # Enter held down (a key's repeats, each a click): one ask and one saying for the
    # lot, not one each (each sync is answered with the whole screen).
    said = page.evaluate(SAID_AGAIN, ROUND_PAUSED)
    control.focus()
    for _ in range(12):
        page.keyboard.press("Enter")
    wait_sent(page, sent, 3)
    assert [m["action"] for m in sent] == ["sync"] * 3, sent
    assert page.evaluate(SAID_AGAIN, ROUND_PAUSED) <= said + 1
    del sent[:]
    assert Game.objects.get(pk=game.pk).seq == seq

    # Resumed: the same tap goes, once, and is played.
    before = version(page)
    services.round_resume(round_id=game.round_id)
    wait_change(page, before)
    page.wait_for_selector("#screen:not([data-paused])")
    page.wait_for_function(f"() => ({SAID})().includes('The round continues.')", timeout=5000)
    assert control.get_attribute("data-paused") is None
    before = version(page)
    control.click()
    wait_change(page, before)
    sent[:] = [m for m in sent if m["action"] != "sync"]
    assert len(sent) == 1 and sent[0]["action"] in ("act", "claim"), sent
    last = Action.objects.filter(game_id=game.pk).order_by("-seq").first()
    assert last.actor_id == ana and last.seq == seq + 1
    assert last.kind == ("stand" if sent[0]["action"] == "act" else "claim")
    page.context.close()


def test_a_card_the_rules_forbid_is_still_sent_while_the_round_runs(live_server_url, browser):
    """aria-disabled alone (not paused) is a card the rules forbid: sent, and refused
    by the server in the rules' words."""
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, seats=4, size=SIZE, name="Forbidden card"
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    sent = moves_sent(page)

    def forbidden(state, seat):
        if state.phase != "play" or state.to_act != seat:
            return False
        legal = {a["card"] for a in five_tricks.legal_actions(state, seat)}
        return any(c not in legal for c in state.hands[seat])

    play_and_claim_until(w, ana, forbidden)
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    wait_version(page, table_version(game), timeout=WAIT)
    state = gamestate.load_state(game)
    seat = game.players.index(ana)
    legal = {a["card"] for a in five_tricks.legal_actions(state, seat)}
    card = next(c for c in state.hands[seat] if c not in legal)
    tile = page.locator(f'.hand .card[data-card="{card}"]')
    assert tile.get_attribute("aria-disabled") == "true"
    assert tile.get_attribute("data-paused") is None
    seq = game.seq
    tile.click(force=True)
    refusal = wait_toast(page, 0, timeout=WAIT)
    assert [m.get("card") for m in sent if m["action"] != "sync"] == [card]
    assert "paused" not in refusal
    assert Game.objects.get(pk=game.pk).seq == seq
    page.context.close()


def test_a_three_tricks_card_tapped_while_paused_says_the_pause(live_server_url, browser):
    """A 3 Tricks card is picked on the phone (for Lay, Block or Swap), nothing sent: a
    card tapped while paused picked nothing and said nothing, where every other game's
    card says the pause's words at once. It says them too now, picks nothing, sends no
    move (only the ask for the screen); resumed, a tap picks it again."""
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, seats=2, size=SIZE, game="three_tricks", name="Paused pick"
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    to_anas_move(game, game.players.index(ana), lambda v: v.get("can_act"))
    sent = moves_sent(page)
    wait_version(page, table_version(game), timeout=WAIT)
    card = page.locator(".tt-hand [data-pick]").first
    page.wait_for_selector(".tt-hand [data-pick]:not([aria-disabled])", timeout=WAIT)
    assert card.get_attribute("data-paused") is None
    before = version(page)
    services.round_pause(round_id=game.round_id)
    wait_change(page, before)
    page.wait_for_selector("#screen[data-paused='1']")
    assert card.get_attribute("aria-disabled") == "true"
    assert card.get_attribute("data-paused") is not None
    seq = Game.objects.get(pk=game.pk).seq

    del sent[:]
    card.click(force=True)  # a finger taps what Playwright will not
    assert wait_toast(page, 0, timeout=WAIT) == ROUND_PAUSED
    assert page.get_attribute("#toast", "role") == "alert"
    assert card.get_attribute("aria-pressed") == "false"  # not picked
    wait_sent(page, sent, 1)
    assert [m["action"] for m in sent] == ["sync"], sent
    assert Game.objects.get(pk=game.pk).seq == seq

    # Resumed: a tap picks the card, as before the pause, and says the count.
    before = version(page)
    services.round_resume(round_id=game.round_id)
    wait_change(page, before)
    page.wait_for_selector("#screen:not([data-paused])")
    assert card.get_attribute("data-paused") is None
    page.wait_for_timeout(700)  # past the double-tap window
    card.click()
    assert card.get_attribute("aria-pressed") == "true"
    page.wait_for_function(f"() => ({SAID})().includes('1 picked.')", timeout=WAIT)
    page.context.close()
