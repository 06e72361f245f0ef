"""Daphne's sockets send at once when nothing is waiting to be sent.

Twisted's TCP transport never writes in `write()`: it appends to a buffer and
registers the socket as a writer, and on the event loop's next turn sends the buffer
and unregisters it. Under the asyncio reactor that is two `epoll_ctl` calls, a trip
round the loop and a layer of callbacks for every websocket message, though the
socket could almost always have taken it at once (asyncio's own transports try
`send()` first for that reason).

`install()` makes the transport do the same: when its buffer is empty (and it is
not TLS, closing or half-closed), `write()` tries `send()` and hands Twisted only what
the kernel did not take, so order and back-pressure are as before (anything unsent
is buffered, then everything after it). Any error other than "would block" is left
for Twisted's own write to meet and report as it always has.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)
_installed = False
_STATE = ("connected", "disconnecting", "_writeDisconnected", "_writeDisconnecting",
          "dataBuffer", "offset", "_tempDataBuffer", "TLS")  # fmt: skip


def install() -> bool:
    """Patch twisted.internet.tcp.Connection.write (once). If this Twisted's transport
    is not shaped as the patch expects (the lockfile pins the version it was written
    against), leave it alone, say so in the log and return False."""
    global _installed
    if _installed:
        return True
    from twisted.internet import _newtls, abstract, tcp

    probe = abstract.FileDescriptor(reactor=object())
    missing = [
        name for name in _STATE if not hasattr(probe, name) and not hasattr(tcp.Connection, name)
    ]
    if tcp.Connection.write is not _newtls.ConnectionMixin.write or missing:
        log.warning(
            "eagerwrite: Twisted's transport is not as expected (%s); not installed", missing
        )
        return False
    buffered_write = tcp.Connection.write

    def write(self, data):
        if (
            data
            and not self.TLS
            and self.connected
            and not self.disconnecting
            and not self._writeDisconnected
            and not self._writeDisconnecting
            and not self._tempDataBuffer
            and self.offset == len(self.dataBuffer)
            and type(data) is bytes
        ):
            try:
                sent = self.socket.send(data)
            except OSError:
                # Would block: Twisted sends it when it can. Anything else: Twisted's
                # doWrite meets the error again and closes the connection as it would.
                sent = 0
            if sent == len(data):
                return
            data = data[sent:]
        buffered_write(self, data)

    write.__doc__ = buffered_write.__doc__
    tcp.Connection.write = write
    _installed = True
    return True
