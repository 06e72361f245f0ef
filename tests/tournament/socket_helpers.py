"""A player's phone socket through the real ASGI application, for consumer tests."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from barnga.asgi import application
from tournament.identity import COOKIE, signed_cookie_value


def cookie_for(player) -> str:
    """The Cookie header value of the phone that holds `player`'s seat."""
    return f"{COOKIE}={signed_cookie_value(player.token)}"


def phone_socket(player=None, *, query: str = "", origin: bytes = b"http://localhost"):
    """`player`'s phone socket (no seat cookie when None), not yet connected."""
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if player is not None:
        headers.append((b"cookie", cookie_for(player).encode()))
    return WebsocketCommunicator(application, "/ws/play/" + query, headers=headers)


async def receive_type(comm, *types: str, timeout: float = 3) -> dict:
    """The next message of one of `types`, skipping the others."""
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["t"] in types:
            return msg
