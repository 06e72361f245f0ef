"""A phone's socket through a device clock set while the page runs (a phone's clock set
by the network, a laptop's NTP step). live.js timed its socket on the device's clock
(Date): set forward a minute shortly before the 10 s silence check, it took the socket
for a minute silent and replaced it ("Reconnecting…", the screen sent again); set back
with a ping out on a socket that had died silently, it waited a minute more for that
ping's answer. The socket's waits are now measured on performance.now(), which no one
sets; a phone that slept (Date went on, performance.now() may not have) still checks
its socket at once on waking, and a card tapped meanwhile keeps it (its own wait ends a
dead one). Chromium, one phone at a table of four (the others join through the
services)."""

from __future__ import annotations

import pytest
from clocks import MOVABLE, WAIT
from phones import one_phone_at_a_round, wait_version
from test_double_tap_browser import play_and_claim_until

from tournament.models import Action, Player, Table, Workshop

pytestmark = [pytest.mark.browser]

# Around the page's sockets (added after MOVABLE, so its lag and moved clock hold):
# sockets made are counted in window.__opened (when each was made, performance.now(), in
# window.__openedAt), screens received ("view") in
# window.__views, and pings that ask the time as they are sent in window.__pinged, the
# last one's time (performance.now()) in window.__pingedAt. window.__cut() makes every
# socket open now carry nothing either way and stay open, as a socket that died
# without closing does (a phone that slept, a network switched); new ones pass. Each
# text the connection line shows is kept in window.__lines, each one the toast shows in
# window.__toasts.
WATCH = """(() => {
  const Real = window.WebSocket;
  const open = [];
  window.__opened = window.__views = window.__pinged = 0;
  window.__openedAt = [];
  window.__lines = []; window.__toasts = [];
  window.__cut = () => { for (const s of open) s.__dead = true; };
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args); window.__opened++; window.__openedAt.push(performance.now()); open.push(this);
    }
    set onmessage(handler) {
      super.onmessage = (e) => {
        if (this.__dead) return;
        if (JSON.parse(e.data).t === "view") window.__views++;
        handler(e);
      };
    }
    send(data) {
      if (JSON.parse(data).clock === 1) { window.__pinged++; window.__pingedAt = performance.now(); }
      if (!this.__dead) super.send(data);
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const el = document.getElementById("connection");
    new MutationObserver(() => window.__lines.push(el.hidden ? "" : el.textContent))
      .observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
    const toast = document.getElementById("toast");
    if (toast) new MutationObserver(() => { if (!toast.hidden) window.__toasts.push(toast.textContent); })
      .observe(toast, { attributes: true, childList: true, characterData: true, subtree: true });
  });
})();"""


def watched_phone(browser, live_server_url, name: str):
    """One phone at a round, its device's clock movable (MOVABLE) and its sockets
    watched (WATCH), once the time asked as its socket opened is answered."""
    page, _, _ = one_phone_at_a_round(
        browser, live_server_url, name=name, seats=4, size={"width": 390, "height": 844}
    )
    page.add_init_script(script=MOVABLE)
    page.add_init_script(script=WATCH)
    page.reload()
    page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    page.wait_for_function("() => window.__answers >= 1", timeout=WAIT)
    return page


def next_check(page) -> None:
    """Until the next 10 s check has sent its ping (it asks the time, none being out)."""
    pinged = page.evaluate("() => window.__pinged")
    page.wait_for_function("n => window.__pinged > n", arg=pinged, timeout=12_000)


def lines(page) -> list[str]:
    return page.evaluate("() => window.__lines")


def replaced(page) -> None:
    """The new socket is open ("Connected again.", kept in window.__lines: it hides
    itself after 5 s), and the lost one was said."""
    page.wait_for_function("() => window.__lines.includes('Connected again.')", timeout=WAIT)
    assert "Reconnecting…" in lines(page), lines(page)


def at_my_turn(browser, live_server_url, name: str):
    """watched_phone at Ana's turn (the others played through the services): the page,
    Ana's id and how many moves she has made."""
    page = watched_phone(browser, live_server_url, name)
    w = Workshop.objects.get(name=name)
    ana = Player.objects.get(workshop=w, name="Ana").pk
    play_and_claim_until(w, ana, lambda state, seat: state.to_act == seat)
    wait_version(page, Table.objects.get(workshop=w).version)
    return page, ana, Action.objects.filter(actor_id=ana).count()


def tap_on_waking(page, network: str) -> str:
    """The device's clock a minute forward with the network as `network` (a script)
    makes it, and a legal card tapped once the step is seen and the wake check's ping
    sent: the card's name. It starts just after a check's ping is answered, so that
    the next is 10 s away and the wake check's ping is the only one out."""
    next_check(page)
    page.wait_for_function("() => window.__answers >= window.__asks", timeout=WAIT)
    pinged = page.evaluate(
        f"() => {{ {network}; window.__shift = 60000; return window.__pinged; }}"
    )
    page.wait_for_function("n => window.__pinged > n", arg=pinged, timeout=WAIT)
    card = page.locator("#screen .hand .card.legal").first
    name = card.get_attribute("data-card")
    card.click()
    return name


def test_a_clock_set_forward_keeps_a_working_socket(live_server_url, browser):
    """A minute forward a second before the silence check, on a network 1 s each way
    (the time asked on the clock's change is answered after the check): the check read
    a minute since the last message, dropped the socket and opened another. Now
    nothing is replaced, said or sent again, through that check and the next."""
    page = watched_phone(browser, live_server_url, "Forward")
    page.evaluate("() => { window.__lag = 1000; }")
    next_check(page)  # its answer, 2 s on its way, measures the slower trip
    page.wait_for_function("() => performance.now() >= window.__pingedAt + 9000", timeout=12_000)
    views = page.evaluate("() => { window.__shift = 60000; return window.__views; }")
    page.wait_for_timeout(12_000)  # the check a second later, and the next
    assert page.evaluate("() => window.__opened") == 1, lines(page)
    assert not any(lines(page)), lines(page)
    assert page.evaluate("() => window.__views") == views
    assert page.locator("#connection").is_hidden()
    page.context.close()


def test_a_clock_set_back_while_a_ping_waits_on_a_dead_socket(live_server_url, browser):
    """The socket died silently and the check's ping went on it; the clock is then set
    a minute back. The wait for that answer ran to its send time on the device's clock
    plus 6 s, a minute later than it should (and the silence check, a minute blind, did
    not end it): the phone stayed on a dead socket for a minute. Now it is replaced 6 s
    after the ping, as without the clock set."""
    page = watched_phone(browser, live_server_url, "Back")
    page.evaluate("() => window.__cut()")
    next_check(page)
    page.evaluate("() => { window.__shift = -60000; }")
    page.wait_for_function("() => window.__opened === 2", timeout=20_000)
    # The answer's wait (6 s) from the ping, and a margin: timed in the page, as a
    # wait from here also counted the test's own steps, slow on a busy machine.
    took = page.evaluate("() => window.__openedAt[1] - window.__pingedAt")
    assert took < 8000, took
    replaced(page)
    page.context.close()


@pytest.mark.parametrize("seen_again", [True, False], ids=["screen-on", "clock-only"])
def test_a_phone_waking_on_a_dead_socket_replaces_it_at_once(live_server_url, browser, seen_again):
    """A phone that slept: its socket died silently meanwhile, and its clock (Date) ran
    on through the sleep while performance.now() may stand still (a minute here). The
    socket is checked as soon as the page sees the clock move (half a second), and
    replaced once nothing answers for 3 s, whether the page was seen again (a phone's
    screen on: its sync waits for an answer) or not (a laptop's lid opened); not left
    until the next check's ping and its 6 s (up to 16 s) as the silence check on
    performance.now() alone would leave it, nor 6 s for the sync's answer (before, the
    device's clock said a minute silent at the next check, 0 to 10 s later)."""
    page = watched_phone(browser, live_server_url, "Woken")
    slept = page.evaluate(
        "() => { window.__cut(); window.__shift = 60000; return performance.now(); }"
    )
    if seen_again:
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => window.__opened === 2", timeout=20_000)
    # Within 5 s of the step, timed in the page (a wait from here also counted the
    # test's own steps, slow on a busy machine).
    took = page.evaluate("s => window.__openedAt[1] - s", slept)
    assert took < 5000, took
    replaced(page)
    page.context.close()


def test_a_move_tapped_on_waking_with_a_slow_network_is_kept(live_server_url, browser):
    """A phone woken with its radio slow for a while (1.8 s each way from the step on, a
    round trip of 3.6 s; the trips measured before were short), its student tapping a
    card at once, after the step is seen and its ping sent. The wake check gave the
    socket 3 s to answer, whatever was sent meanwhile: it dropped the socket with the
    move on its way, threw the move's answer away and said "The connection dropped. If
    your move is not on the table, tap it again." of a move the server had played. A
    move waiting now keeps the socket (its own wait, 6 s, ends a dead one)."""
    page, ana, played = at_my_turn(browser, live_server_url, "Slow waking")
    name = tap_on_waking(page, "window.__lag = 1800")
    # Played, and the screen says so (the move's answer, 3.6 s on its way, after the
    # wake check's 3 s).
    page.wait_for_selector(
        f'#screen .hand .card[data-card="{name}"]', state="detached", timeout=WAIT
    )
    assert Action.objects.filter(actor_id=ana).count() == played + 1
    assert page.evaluate("() => window.__toasts") == []
    assert page.evaluate("() => window.__opened") == 1, lines(page)
    assert not any(lines(page)), lines(page)
    page.context.close()


def test_a_move_tapped_on_waking_on_a_dead_socket_is_said(live_server_url, browser):
    """The same tap on a socket that died in the sleep: the wake check keeps it for the
    move, whose own wait (6 s from the wake check's ping) gives it up, says the move may
    not have gone, and opens another on which the card can be played again."""
    page, ana, played = at_my_turn(browser, live_server_url, "Dead waking")
    name = tap_on_waking(page, "window.__cut()")
    page.wait_for_function("() => window.__opened === 2", timeout=WAIT)
    replaced(page)
    assert page.evaluate("() => window.__toasts") == [
        "The connection dropped. If your move is not on the table, tap it again."
    ]
    assert Action.objects.filter(actor_id=ana).count() == played
    page.locator(f'#screen .hand .card[data-card="{name}"]').click()
    page.wait_for_selector(
        f'#screen .hand .card[data-card="{name}"]', state="detached", timeout=WAIT
    )
    assert Action.objects.filter(actor_id=ana).count() == played + 1
    page.context.close()
