"""A player's phone socket and a facilitator's socket through the real ASGI application,
for consumer tests."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from channels.testing import WebsocketCommunicator

from barnga.asgi import application
from tournament.identity import COOKIE, signed_cookie_value


def site_socket(path: str, cookie: str | None = None, *, origin: bytes = b"http://localhost"):
    """A socket to `path` (its query string included) from a page of the site, not
    yet connected; `cookie` (as "name=value"), if any, sent with it."""
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def phone_socket(
    player=None, *, seat: str | None = None, query: str = "", origin: bytes = b"http://localhost"
):
    """`player`'s phone socket, not yet connected; or one whose seat cookie holds
    `seat` as it is (a forged or freshly issued value); neither: no seat cookie."""
    if player is not None:
        seat = signed_cookie_value(player.token)
    cookie = f"{COOKIE}={seat}" if seat is not None else None
    return site_socket("/ws/play/" + query, cookie, origin=origin)


def facilitator_socket(workshop_id, cookie=None, query="view=panel"):
    """The facilitator's socket of workshop `workshop_id`, not yet connected; `cookie`
    (as "sessionid=…") logs it in."""
    return site_socket(f"/ws/facilitator/{workshop_id}/?{query}", cookie)


async def receive_type(comm, *types: str, timeout: float = 3) -> dict:
    """The next message of one of `types`, skipping the others."""
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["t"] in types:
            return msg


@pytest.fixture
def phone_settle(monkeypatch):
    """`await phone_settle(comm)`: every message the phone's socket sends for what it
    has been told so far, in order (a fixture of tests/tournament's conftest).

    An ordering barrier instead of waiting for a quiet time (slow, and passed by a
    message later than the wait on a busy machine): first a ping, whose pong comes
    once the socket has handled what the test sent it (its messages are handled in
    order, one at a time); then a mark sent to the player's group, after the changes'
    messages, is handled after them (a channel's messages arrive in order); then the
    render they asked for is awaited (the socket's render task done); then another
    ping, whose pong follows all the socket sent."""
    from channels.layers import get_channel_layer

    from tournament import broadcast
    from tournament.consumers import PlayerConsumer

    live: list[PlayerConsumer] = []
    real_connect, real_gesture = PlayerConsumer.connect, PlayerConsumer.table_gesture

    async def connect(self):
        self.marks = set()
        live.append(self)
        await real_connect(self)

    async def table_gesture(self, event):
        if "mark" in event:  # for no table: the socket sends nothing for it
            self.marks.add(event["mark"])
            return
        await real_gesture(self, event)

    monkeypatch.setattr(PlayerConsumer, "connect", connect)
    monkeypatch.setattr(PlayerConsumer, "table_gesture", table_gesture)
    marks = itertools.count(1)

    async def pong(comm, got) -> None:
        await comm.send_json_to({"action": "ping"})
        while (msg := await comm.receive_json_from()) != {"t": "pong"}:
            got.append(msg)

    async def run(comm) -> list[dict]:
        got: list[dict] = []
        async with asyncio.timeout(20):
            await pong(comm, got)
        mark = next(marks)
        sockets = [c for c in live if c.player_id is not None and not c.closed]
        for player in {c.player_id for c in sockets}:
            await get_channel_layer().group_send(
                broadcast.player_group(player),
                {"type": "table.gesture", "table": None, "mark": mark},
            )
        async with asyncio.timeout(20):
            while not all(
                mark in c.marks and (c._render is None or c._render.done()) for c in sockets
            ):
                await asyncio.sleep(0.005)
            await pong(comm, got)
        return got

    return run
