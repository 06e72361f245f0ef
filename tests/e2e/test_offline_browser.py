"""A phone that loses the network says so and keeps saying so (the socket's close,
which follows, had replaced it with 'Reconnecting…'), then comes back by itself.
Chromium."""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import one_phone_at_a_round

pytestmark = [pytest.mark.browser]
OFFLINE = "Offline — waiting for the network…"


def test_offline_is_said_until_the_network_is_back(live_server_url, browser):
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Offline", seats=4, size={"width": 390, "height": 844}
    )
    banner = page.locator("#connection")
    page.context.set_offline(True)
    page.wait_for_function(
        "t => document.getElementById('connection').textContent === t", arg=OFFLINE
    )
    page.wait_for_timeout(1500)  # the socket's close and a reconnect attempt or two
    assert banner.is_visible() and banner.inner_text() == OFFLINE
    assert_accessible(page, "phone, offline")
    page.context.set_offline(False)
    banner.wait_for(state="hidden", timeout=15000)
    page.context.close()
