"""Against Daphne itself: the facilitator's pages and sockets are compressed, the
phones' sockets are not (barnga/deflate.py, the GZip middleware in settings)."""

from __future__ import annotations

import asyncio
import gzip
import json
import urllib.request

import pytest
import websockets
from security_world import world

from barnga import deflate
from tournament.identity import COOKIE, signed_cookie_value
from tournament.loadtest.servers import free_port, start_daphne, stop, wait_healthy

pytestmark = pytest.mark.django_db(transaction=True)


def test_only_a_deflate_offer_is_accepted():
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

    offer = PerMessageDeflateOffer()
    accepted = deflate.accept_deflate([offer])
    assert isinstance(accepted, PerMessageDeflateOfferAccept) and accepted.offer is offer
    assert deflate.accept_deflate([]) is None


@pytest.mark.slow
def test_the_panel_is_compressed_over_http_and_its_socket_and_a_phones_socket_is_not(settings):
    w = world()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = settings.DATABASES["default"]["NAME"]
    proc = start_daphne(
        port,
        {
            "DATABASE_URL": f"sqlite:///{db}",
            "BARNGA_RUN_TIMERS": "0",
            "REDIS_URL": "",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
        },
    )
    session = w.facilitator(w.alice).cookies["sessionid"].value
    panel = f"/workshops/{w.mine.pk}/"
    try:
        wait_healthy(base, proc)
        asked = urllib.request.Request(
            base + panel, headers={"Cookie": f"sessionid={session}", "Accept-Encoding": "gzip"}
        )
        with urllib.request.urlopen(asked) as r:
            assert r.headers["Content-Encoding"] == "gzip"
            assert "Accept-Encoding" in r.headers["Vary"]
            page = gzip.decompress(r.read()).decode()
        assert 'id="fac-roster"' in page
        plain = urllib.request.Request(base + panel, headers={"Cookie": f"sessionid={session}"})
        with urllib.request.urlopen(plain) as r:  # a client that does not ask: as it was
            assert r.headers["Content-Encoding"] is None
            assert 'id="fac-roster"' in r.read().decode()

        async def sockets():
            origin = {"origin": base}
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/facilitator/{w.mine.pk}/",
                additional_headers={"Cookie": f"sessionid={session}"},
                **origin,
            ) as fac:
                assert "permessage-deflate" in fac.response.headers["Sec-WebSocket-Extensions"]
                first = json.loads(await asyncio.wait_for(fac.recv(), 10))
                assert "fac-roster" in json.dumps(first)  # read through the compression
            cookie = f"{COOKIE}={signed_cookie_value(w.student.token)}"
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/play/",
                additional_headers={"Cookie": cookie},
                **origin,
            ) as phone:  # offered (the client's default), not taken
                assert phone.response.headers.get("Sec-WebSocket-Extensions") is None
                assert json.loads(await asyncio.wait_for(phone.recv(), 10))["t"]

        asyncio.run(sockets())
    finally:
        stop(proc, kill=True)  # a test server on a throwaway database
