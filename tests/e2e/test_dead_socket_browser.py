"""A socket that dies without closing (a phone that slept, a network switched, a
router's mapping gone): the browser closes it only a minute after being told to,
and a card tapped meanwhile went nowhere while the phone still said "Your turn."
and the table waited. The page now gives up on a socket that leaves a message
unanswered for a few seconds, opens another, and says the move may not have gone
(static/js/live.js). The dead network is a proxy between the browser and the
server that keeps its connections open and drops their bytes."""

from __future__ import annotations

import asyncio
import socket
import threading
from urllib.parse import urlsplit

import pytest
from phones import dealt_table, wait_toast, watch_toasts

from games import five_tricks
from tournament import gamestate, services
from tournament.models import Game, Player

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai"]


class BlackholeProxy:
    """TCP from a free port to `target`; `blackhole()` makes every connection open now
    drop what it carries, both ways, and stay open. New connections pass."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.loop = asyncio.new_event_loop()
        self.conns: list[dict] = []
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        assert ready.wait(5)

    def _run(self, ready):
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(
            asyncio.start_server(self._handle, "127.0.0.1", self.port)
        )
        ready.set()
        self.loop.run_forever()
        server.close()

    async def _pipe(self, reader, writer, conn):
        try:
            while data := await reader.read(65536):
                if not conn["dead"]:
                    writer.write(data)
                    await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            if not conn["dead"]:
                writer.close()

    async def _handle(self, client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        conn = {"dead": False, "writers": (client_writer, server_writer)}
        self.conns.append(conn)
        await asyncio.gather(
            self._pipe(client_reader, server_writer, conn),
            self._pipe(server_reader, client_writer, conn),
        )

    def blackhole(self) -> int:
        def mark():
            for conn in self.conns:
                conn["dead"] = True
            return len(self.conns)

        return asyncio.run_coroutine_threadsafe(asyncio.to_thread(mark), self.loop).result(5)

    def stop(self):
        def close_all():
            for conn in self.conns:
                for w in conn["writers"]:
                    w.close()
            self.loop.stop()

        self.loop.call_soon_threadsafe(close_all)
        self.thread.join(5)


@pytest.fixture
def proxy(live_server_url):
    p = BlackholeProxy(urlsplit(live_server_url).port)
    yield p
    p.stop()


def test_a_card_tapped_on_a_dead_socket_is_said_and_can_be_played_again(phone, proxy):
    url = f"http://127.0.0.1:{proxy.port}"
    workshop = services.workshop_create(name="Dead", table_count=1, seats_per_table=3, seed=5)
    pages, game, _ = dealt_table(url, phone, workshop, NAMES)  # each joined through the proxy
    state = gamestate.load_state(game)
    leader = Player.objects.get(pk=game.players[state.to_act])
    page = pages[leader.name]
    page.wait_for_selector("#screen[data-phase=study] .whose strong", timeout=8000)
    card = five_tricks.legal_actions(state, state.to_act)[0]["card"]

    watch_toasts(page)
    assert proxy.blackhole() >= 3  # every phone's socket: open, and carrying nothing
    page.locator(f'.hand [data-card="{card}"]').click()
    # The tap was taken: the card is marked as on its way (and busy, to a screen reader).
    sending = page.locator(f'.hand [data-card="{card}"].sending')
    assert sending.get_attribute("aria-busy") == "true"
    # Within seconds, not the browser's minute: the phone says the move may not have
    # gone, and comes back on a new socket with the card still to play.
    wait_toast(page, 0, "The connection dropped", timeout=12000)
    assert page.locator(".sending").count() == 0  # no longer said to be on its way
    assert gamestate.load_state(Game.objects.get(pk=game.pk)).current == ()
    # (After "Connected again.", said for 5 s.)
    page.wait_for_selector("#connection", state="hidden", timeout=12000)
    page.wait_for_selector(f'.hand [data-card="{card}"]', timeout=8000)
    page.locator(f'.hand [data-card="{card}"]').click()
    page.wait_for_selector(f'.hand [data-card="{card}"]', state="detached", timeout=8000)
    played = gamestate.load_state(Game.objects.get(pk=game.pk)).current
    assert [c for _, c in played] == [card]
