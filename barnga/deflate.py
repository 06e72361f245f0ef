"""The facilitator's sockets are compressed (permessage-deflate); the phones' are not.

The facilitator's panel is sent whole, region by region (CONVENTIONS 5): at 1,000
players its roster alone is 1.5 MB a push, which deflate makes 58 kB in 10 ms (the
rows repeat themselves). Browsers offer the extension on every socket; Daphne accepts it
on none. `install()` makes Daphne's socket protocol accept the offer on the
facilitator's socket paths only: a phone's messages are a few kilobytes, sent to
every seat on every move, where the server's CPU is what a class of 1,000 runs
short of (README, "Scaling"), and what they carry is not repetitive enough to pay.

The panel's pushes hold no secret a student could guess at through their sizes (no
CSRF token, no PIN: tournament/regions.py), so compressing them beside names the
students chose gives nothing away.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)
COMPRESSED_PATHS = ("/ws/facilitator/",)
_installed = False


def accept_deflate(offers):
    """The first permessage-deflate offer, accepted as offered (autobahn's own example)."""
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(offer)
    return None


def _refuse(offers):
    return None


def install() -> bool:
    """Wrap daphne's WebSocketProtocol.onConnect (once): it sees the request's path
    before the handshake's answer is written, which is when autobahn asks
    `perMessageCompressionAccept` about the client's offers."""
    global _installed
    if _installed:
        return True
    from autobahn.twisted.websocket import WebSocketServerProtocol
    from daphne.ws_protocol import WebSocketProtocol

    if not issubclass(WebSocketProtocol, WebSocketServerProtocol):
        log.warning("daphne's WebSocketProtocol is not autobahn's: sockets stay uncompressed")
        return False
    original = WebSocketProtocol.onConnect

    def onConnect(self, request):  # noqa: N802 (autobahn's name)
        compressed = request.path.startswith(COMPRESSED_PATHS)
        self.perMessageCompressionAccept = accept_deflate if compressed else _refuse
        return original(self, request)

    WebSocketProtocol.onConnect = onConnect
    _installed = True
    return True
