"""A phone's double tap sends one move: the browser counts a double tap's taps and
the second is dropped (it was sent too, and refused with an error). A separate tap
right after a move is sent (static/js/table.js). In Chromium, Five Tricks at a table
of four with one phone."""

from __future__ import annotations

import json
import random
import time

import pytest
from phones import (
    one_phone_at_a_round,
    version,
    wait_change,
    wait_toast,
    wait_version,
    watch_toasts,
)

from games import five_tricks
from tournament import gamestate, services
from tournament.models import Action, Claim, Game, GameState, Player, Table

pytestmark = [pytest.mark.browser]
WAIT = 8000


def play_and_claim_until(workshop, ana: int, until):
    """Through the services: the table's seats play legal cards and settle each trick
    unanimously (everyone claims the first seat's player), game after game, until
    `until(state, Ana's seat)` holds in the game in progress."""
    while True:
        game = Game.objects.get(table__workshop=workshop, state=GameState.PLAYING)
        state = gamestate.load_state(game)
        if until(state, game.players.index(ana)):
            return
        if state.phase == "claim":
            for player in game.players:
                services.game_claim(player_id=player, winner_player_id=game.players[0])
        else:
            card = five_tricks.legal_actions(state, state.to_act)[0]["card"]
            services.game_play(player_id=game.players[state.to_act], card=card)


def test_a_double_tap_plays_once_and_the_next_tap_counts(live_server_url, browser):
    page, w, _ = one_phone_at_a_round(
        browser, live_server_url, name="Double tap", seats=4, size={"width": 390, "height": 844}
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    socket = routed(page)

    # A double tap on a playable card: one move, and no error for the second tap.
    play_and_claim_until(w, ana, lambda state, seat: state.to_act == seat)
    wait_version(page, Table.objects.get(workshop=w).version)  # not a screen in between
    before = version(page)
    played = Action.objects.filter(actor_id=ana).count()
    page.locator(".hand .card.legal").first.dblclick()
    wait_change(page, before)
    socket.sent_so_far(page)
    assert len(socket.actions("play")) == 1, socket.sent  # the second tap sent nothing
    assert Action.objects.filter(actor_id=ana).count() == played + 1
    assert page.locator("#toast").is_hidden(), page.locator("#toast").text_content()

    # Ana plays a trick's last card and at once taps a card to claim, elsewhere on
    # the claim step's screen: that tap is not a double tap, and it counts.
    play_and_claim_until(
        w, ana, lambda state, seat: state.to_act == seat and len(state.current) == 3
    )
    wait_version(page, Table.objects.get(workshop=w).version)
    claims = Claim.objects.filter(player_id=ana).count()  # earlier tricks' claims
    before = version(page)
    page.locator(".hand .card.legal").first.click()
    wait_change(page, before)
    page.locator("#screen .trick button[data-action=claim]").first.click()
    page.wait_for_selector(".claim .mine", timeout=WAIT)
    assert Claim.objects.filter(player_id=ana).count() == claims + 1
    assert page.locator("#toast").is_hidden(), page.locator("#toast").text_content()
    page.context.close()


def test_the_keyboard_plays_once_and_keeps_its_place(live_server_url, browser):
    """Enter pressed twice on a card played it and then sent it again (refused: 'The
    table has moved on'): a keyboard's click has no tap count. After a move, focus fell
    to the page's top (a dozen Tabs from the next move); an opened 'last trick' closed
    at the next screen."""
    page, w, _ = one_phone_at_a_round(
        browser, live_server_url, name="Keys", seats=4, size={"width": 390, "height": 844}
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    socket = routed(page)
    play_and_claim_until(w, ana, lambda state, seat: state.to_act == seat and state.completed)
    wait_version(page, Table.objects.get(workshop=w).version)
    # The last trick, opened by the student, stays open across the next screens.
    last = page.locator("#screen details.last-trick")
    # A one-line summary, a 44 px target (it was its text's 26 px).
    assert last.locator("summary").bounding_box()["height"] >= 44
    last.locator("summary").click()
    assert last.evaluate("d => d.open")
    played = Action.objects.filter(actor_id=ana).count()
    before = version(page)
    page.locator(".hand .card.legal").first.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    wait_change(page, before)
    socket.sent_so_far(page)
    assert len(socket.actions("play")) == 1, socket.sent  # the second Enter sent nothing
    assert Action.objects.filter(actor_id=ana).count() == played + 1
    assert page.locator("#toast").is_hidden(), page.locator("#toast").text_content()
    # Focus is still in the screen (the hand), not on the page's body.
    assert page.evaluate("() => document.getElementById('screen').contains(document.activeElement)")
    assert page.locator("#screen details.last-trick").evaluate("d => d.open")
    page.context.close()


class HeldSocket:
    """The phone's socket routed through the test: what the page sends is kept in
    `sent`; while `hold` is on, what the server sends waits (a slow connection) until
    released, but for what `passes` lets through."""

    def __init__(self, page):
        self.hold, self.held, self.sent, self.probes = False, [], [], 0
        self.passes = lambda message: False
        page.route_web_socket("**/ws/play/**", self.route)

    def route(self, ws):
        server = ws.connect_to_server()

        def to_server(message):
            self.sent.append(str(message))
            server.send(message)

        def to_page(message):
            if self.hold and not self.passes(str(message)):
                self.held.append((ws, message))
            else:
                ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    def release(self, which=lambda message: True):
        for ws, message in [m for m in self.held if which(str(m[1]))]:
            self.held.remove((ws, message))
            ws.send(message)

    def release_all(self):
        self.hold = False
        self.release()

    def actions(self, action: str) -> list[str]:
        """The messages the page sent with this action."""
        return [m for m in self.sent if json.loads(m).get("action") == action]

    def release_answers(self, page):
        """The server's "received" messages alone, once the page has taken them: a
        gesture sent after them shows, the page's messages being taken in turn."""
        self.release(lambda m: '"ack"' in m)
        ws = self.held[0][0] if self.held else None
        assert ws is not None, "the screens are held back too"
        # A probe of its own each time (the same person's same gesture again is the
        # chip already shown, not a new one).
        self.probes += 1
        probe = f"Probe{self.probes}"
        ws.send(
            json.dumps({"t": "gesture", "kind": "thumbs_up", "name": probe, "by": -self.probes})
        )
        page.wait_for_selector(f".reactions .reaction:has-text('{probe}')", state="attached")

    def sent_so_far(self, page) -> None:
        """Until every message the page has sent has reached the test: a gesture sent
        now comes after them."""
        before = len(self.actions("gesture"))
        page.evaluate("() => document.querySelector('.palette [data-gesture]').click()")
        until(page, lambda: len(self.actions("gesture")) > before, "the gesture sent did not come")

    def tap_twice_more(self, page, control: str, busy: str) -> None:
        """`control` tapped with the server's messages held back (a slow connection),
        then tapped again while it is marked as on its way: after the double-tap
        window, and after the server's "received" alone has come; then everything
        is let through."""
        self.hold = True
        page.locator(control).click()
        page.wait_for_selector(busy, timeout=WAIT)
        page.wait_for_timeout(700)  # past the double-tap window: the point here
        page.locator(busy).click()
        self.wait_for(page, '"ack"')
        self.release_answers(page)
        assert page.locator(busy).count() == 1  # received, not yet on the screen
        page.locator(busy).click()
        self.release_all()

    def wait_for(self, page, text):
        until(page, lambda: any(text in str(m) for _, m in self.held), f"no {text} from the server")


def until(page, check, failure: str, timeout: float = 15) -> None:
    """Until `check()` holds, letting the page's socket's messages reach the test
    meanwhile, up to `timeout` s of the clock (50 waits of 100 ms, about 5 s, were
    beaten by a busy machine's late frames), else a failure saying `failure`."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, failure
        page.wait_for_timeout(50)


def routed(page) -> HeldSocket:
    """The phone's socket routed (and its page drawn again through it)."""
    socket = HeldSocket(page)
    page.reload()
    page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    return socket


def at_a_claim_step(browser, url, name):
    """Ana's phone, its socket routed, at a table of four at its first claim step:
    (page, workshop, Ana's id, socket)."""
    page, w, _ = one_phone_at_a_round(
        browser, url, name=name, seats=4, size={"width": 390, "height": 844}
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    socket = routed(page)
    play_and_claim_until(w, ana, lambda state, seat: state.phase == "claim")
    wait_version(page, Table.objects.get(workshop=w).version)
    return page, w, ana, socket


def test_a_tap_on_a_claim_still_on_its_way_sends_nothing(live_server_url, browser):
    """A claim tapped on a slow connection is marked as on its way until the screen
    shows it. Tapped again after the double-tap window (600 ms), it was sent again and
    refused with an error ("You already claim seat 0.") when the answers came; so it
    was too between the server's "received" and the screen showing the claim."""
    page, w, ana, socket = at_a_claim_step(browser, live_server_url, "Slow claim")

    socket.tap_twice_more(
        page,
        "#screen .trick button[data-action=claim] >> nth=0",
        "#screen .trick button.sending[aria-busy=true]",
    )
    page.wait_for_selector(".claim .mine", timeout=WAIT)
    # The claimed card tapped again, once its claim is shown ("did it take?"): it
    # went, refused with "You already claim ..." (seen at a 300 ms delay).
    mine = page.locator('#screen .trick button[data-action=claim][aria-pressed="true"]')
    assert mine.count() == 1
    mine.click()
    socket.sent_so_far(page)
    claims = socket.actions("claim")
    assert len(claims) == 1, claims
    assert Claim.objects.filter(player_id=ana).count() == 1
    assert page.locator("#toast").is_hidden(), page.locator("#toast").text_content()
    assert page.locator("#screen .sending").count() == 0
    page.context.close()


def test_a_tap_on_a_move_still_on_its_way_sends_nothing(live_server_url, browser):
    """As a claim: 3 Tricks' Pass tapped again on a slow connection went again, and
    came back refused ("not your turn")."""
    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        name="Slow pass",
        seats=2,
        game="three_tricks",
        size={"width": 390, "height": 844},
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    socket = routed(page)
    kind, rng = gamestate.kind_of(game), random.Random(5)
    while game.players[seat := kind.to_act(state := gamestate.load_state(game))[0]] != ana:
        move = {k: v for k, v in kind.bot_action(state, seat, rng).items() if k != "seat"}
        services.game_act(player_id=game.players[seat], move=move)
        game.refresh_from_db()
    wait_version(page, Table.objects.get(workshop=w).version)
    moves = Action.objects.filter(actor_id=ana).count()

    socket.tap_twice_more(page, "#screen .tt-pass", "#screen .tt-pass.sending[aria-busy=true]")
    page.wait_for_selector("#screen .tt-last:has-text('passed')", timeout=WAIT)
    socket.sent_so_far(page)
    acts = socket.actions("act")
    assert len(acts) == 1, acts
    assert Action.objects.filter(actor_id=ana).count() == moves + 1
    assert page.locator("#toast").is_hidden(), page.locator("#toast").text_content()
    assert page.locator("#screen .sending").count() == 0
    page.context.close()


def test_another_messages_refusal_leaves_a_move_on_its_way_marked(live_server_url, browser):
    """Any error unmarked the move on its way: a flurry of gestures refused "Slow
    down" while a claim's answer was slow, and the claim, still on its way, tapped
    again. A refusal names the message it refuses, and only its own unmarks a move."""
    page, w, ana, socket = at_a_claim_step(browser, live_server_url, "Refused other")

    # The claim's answers wait; the refusals, the pings' answers and the gestures'
    # echoes come as they come. Held too, until the test let them through, they left
    # the page hearing nothing for 6 s when a busy machine stalled the test: it gave
    # the socket up, claim and all ("The connection dropped"), and never saw "Slow
    # down". The echoes too: under load the server handled the 20 gestures before the
    # refusal at 120 ms each (the 20th echo came 5.6 s after the claim), and a real
    # connection slow for the claim's answer would not be silent for those.
    socket.hold = True
    socket.passes = lambda m: json.loads(m)["t"] in ("error", "pong", "gesture")
    watch_toasts(page)
    busy = "#screen .trick button.sending[aria-busy=true]"
    # The claim, and at once more gestures in a burst than two of the server's
    # one-second windows allow.
    page.evaluate(
        """() => { document.querySelector('#screen .trick button[data-action=claim]').click();
                   const b = document.querySelector('.palette [data-gesture]');
                   for (let i = 0; i < 45; i++) b.click(); }"""
    )
    page.wait_for_selector(busy, timeout=WAIT)
    wait_toast(page, 0, "Slow down", timeout=15000)  # after 20 gestures handled
    assert page.locator(busy).count() == 1  # the claim is still on its way
    socket.release_all()
    page.wait_for_selector(".claim .mine", timeout=WAIT)
    assert page.locator("#screen .sending").count() == 0
    assert Claim.objects.filter(player_id=ana).count() == 1
    assert len(socket.actions("claim")) == 1
    page.context.close()
