"""A phone that loses the network says so and keeps saying so (the socket's close,
which follows, had replaced it with 'Reconnecting…'), then comes back by itself; a
socket already replaced has no say over the one in use, and a seat that is gone
stays gone when the phone wakes (static/js/live.js). Chromium."""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import lines_shown, one_phone_at_a_round, wait_line, watch_lines

pytestmark = [pytest.mark.browser]
OFFLINE = "Offline — waiting for the network…"


def test_offline_is_said_until_the_network_is_back(live_server_url, browser):
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Offline", seats=4, size={"width": 390, "height": 844}
    )
    banner = page.locator("#connection")
    watch_lines(page)
    page.context.set_offline(True)
    page.wait_for_function(
        "t => document.getElementById('connection').textContent === t", arg=OFFLINE
    )
    page.wait_for_timeout(1500)  # the socket's close and a reconnect attempt or two
    assert banner.is_visible() and banner.inner_text() == OFFLINE
    assert_accessible(page, "phone, offline")
    shown = lines_shown(page)
    page.context.set_offline(False)
    # Its return is said too, once, and then the line goes.
    wait_line(page, shown, "Connected again.", timeout=15000)
    banner.wait_for(state="hidden", timeout=15000)
    page.context.close()


# A WebSocket the test opens and closes by hand (static/js/live.js cannot tell).
FAKE_SOCKET = """
class FakeSocket {
  constructor(url) { this.url = url; this.readyState = 0; FakeSocket.made.push(this); }
  send() {}
  close() { this.readyState = 2; }
}
FakeSocket.made = [];
FakeSocket.CONNECTING = 0; FakeSocket.OPEN = 1; FakeSocket.CLOSING = 2; FakeSocket.CLOSED = 3;
window.WebSocket = FakeSocket;
"""


def test_a_dropped_sockets_late_close_does_not_cover_the_new_one(live_server_url, browser):
    """The network goes and comes back before the dropped socket has finished closing:
    the new socket opens, then the old one's close comes in. It put 'Reconnecting…'
    over the open socket, and it stayed (nothing reconnects an open socket)."""
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Blip", seats=4, size={"width": 390, "height": 844}
    )
    page.context.add_init_script(FAKE_SOCKET)
    page.reload()
    page.wait_for_function("() => WebSocket.made && WebSocket.made.length === 1")
    watch_lines(page)
    page.evaluate(
        """() => {
          const old = WebSocket.made[0];
          old.readyState = 1; old.onopen();
          window.dispatchEvent(new Event("offline"));   // the page drops the socket
          window.dispatchEvent(new Event("online"));    // and opens another at once
          const now = WebSocket.made[1];
          now.readyState = 1; now.onopen();
          old.readyState = 3; old.onclose({ code: 1006 });  // the old one's close, late
        }"""
    )
    assert page.evaluate("() => WebSocket.made.length") == 2
    page.wait_for_timeout(1500)  # any reconnection the late close would schedule
    # At most the open socket's own "Connected again.", said for a few seconds: every
    # text the line showed meanwhile (read from the page's log of them, not as it is
    # now: that text goes by itself, and a "Reconnecting…" could have come and gone).
    assert set(page.evaluate("() => window.__lines")) <= {"", "Connected again."}, page.evaluate(
        "() => window.__lines"
    )
    assert page.evaluate("() => WebSocket.made.length") == 2
    page.context.close()


def test_a_seat_gone_stays_gone_when_the_phone_wakes(live_server_url, browser):
    """A close that is final (the seat removed) stops the socket for good: waking the
    phone (visible again, back from the cache, the network back) had opened a new one,
    whose token no longer worked, and sent the page to the join form, taking away
    what had happened."""
    from tournament import services
    from tournament.models import Player

    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Gone", seats=4, size={"width": 390, "height": 844}
    )
    ana = Player.objects.get(workshop=w, name="Ana")
    services.player_kick(workshop_id=w.pk, player_id=ana.pk)
    page.get_by_role("alert").filter(has_text="The facilitator removed you").wait_for()
    url = page.url
    page.evaluate(
        """() => { document.dispatchEvent(new Event("visibilitychange"));
                   window.dispatchEvent(new Event("pageshow"));
                   window.dispatchEvent(new Event("online")); }"""
    )
    page.wait_for_timeout(2000)
    assert page.url == url
    assert page.get_by_role("alert").filter(has_text="The facilitator removed you").is_visible()
    page.context.close()
