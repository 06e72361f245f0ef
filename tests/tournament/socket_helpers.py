"""A player's phone socket through the real ASGI application, for consumer tests."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from barnga.asgi import application
from tournament.identity import COOKIE, signed_cookie_value


def phone_socket(
    player=None, *, seat: str | None = None, query: str = "", origin: bytes = b"http://localhost"
):
    """`player`'s phone socket, not yet connected; or one whose seat cookie holds
    `seat` as it is (a forged or freshly issued value); neither: no seat cookie."""
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if player is not None:
        seat = signed_cookie_value(player.token)
    if seat is not None:
        headers.append((b"cookie", f"{COOKIE}={seat}".encode()))
    return WebsocketCommunicator(application, "/ws/play/" + query, headers=headers)


async def receive_type(comm, *types: str, timeout: float = 3) -> dict:
    """The next message of one of `types`, skipping the others."""
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["t"] in types:
            return msg
