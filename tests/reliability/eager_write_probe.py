"""Run by test_eager_write.py in a process of its own (a Twisted reactor runs once).

    python eager_write_probe.py eager|plain stream|reset

stream: a server on Twisted's asyncio reactor (as Daphne runs it) writes 300 messages
to one client, one or a few per turn of the loop: 100 small, 100 with some larger
than the socket's buffers hold (the client then reads slowly), 100 small. Prints a JSON line: the bytes
the client received equal what was written (in order), how many writes were made and
how many times the transport registered itself as a writer (Twisted's buffered path).

reset: the client resets the connection; the server, not reading, then writes. Prints whether the
protocol was told the connection was lost, and whether a write raised.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import socket
import struct
import sys
import threading
import time

from twisted.internet import asyncioreactor

asyncioreactor.install(asyncio.new_event_loop())

from twisted.internet import protocol, reactor  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
MODE, CASE = sys.argv[1], sys.argv[2]
if MODE == "eager":
    from barnga import eagerwrite

    eagerwrite.install()

SMALL = [60, 4000, 300, 4000, 80, 700, 60, 4000]
LARGE = [60, 4000, 2_000_000, 300, 700_000, 4000]
COUNT = 300
result: dict = {"writes": 0, "add_writer": 0, "write_errors": 0, "lost": False}
_add_writer = reactor.addWriter


def counting_add_writer(writer):
    result["add_writer"] += 1
    return _add_writer(writer)


reactor.addWriter = counting_add_writer


def message(i: int) -> bytes:
    # Small messages, then a stretch with some larger than the kernel's buffers, then small.
    sizes = LARGE if 100 <= i < 200 else SMALL
    size = sizes[i % len(sizes)]
    head = struct.pack(">II", i, size)
    return head + bytes([i % 251]) * (size - len(head))


class Server(protocol.Protocol):
    def connectionMade(self):
        self.factory.server = self
        if CASE == "reset":
            self.transport.stopReading()  # so that only a write can find the reset
        if CASE == "stream":
            self.i = 0
            reactor.callLater(0, self.more)

    def more(self):
        # One to three messages a turn, as a socket's views and acks go.
        for _ in range(1 + self.i % 3):
            if self.i == 100:
                result["add_writer_first_100"] = result["add_writer"]
            if self.i == COUNT:
                self.transport.loseConnection()
                return
            self.write(message(self.i))
            self.i += 1
        reactor.callLater(0, self.more)

    def write(self, data: bytes):
        result["writes"] += 1
        try:
            self.transport.write(data)
        except Exception as exc:  # noqa: BLE001 - what the probe reports
            result["write_errors"] += 1
            result["error"] = repr(exc)

    def connectionLost(self, reason):
        result["lost"] = True
        if CASE == "reset":
            reactor.callLater(0.2, reactor.stop)


factory = protocol.ServerFactory()
factory.protocol = Server
factory.server = None
port = reactor.listenTCP(0, factory, interface="127.0.0.1").getHost().port


def stream_client():
    expected = hashlib.sha256(b"".join(message(i) for i in range(COUNT))).hexdigest()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
    sock.connect(("127.0.0.1", port))
    got, total = hashlib.sha256(), 0
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        got.update(chunk)
        total += len(chunk)
        if 300_000 < total < 3_000_000:
            time.sleep(0.0005)  # slow in the stretch of large ones, so the kernel's buffers fill
    sock.close()
    result["same_bytes"] = got.hexdigest() == expected
    result["received"] = total
    reactor.callFromThread(reactor.stop)


def reset_client():
    sock = socket.socket()
    sock.connect(("127.0.0.1", port))
    while factory.server is None:
        time.sleep(0.01)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()  # RST
    time.sleep(0.3)

    def write_after_reset():
        for i in range(5):
            factory.server.write(message(i))

    reactor.callFromThread(write_after_reset)


threading.Thread(target=stream_client if CASE == "stream" else reset_client, daemon=True).start()
reactor.callLater(30, reactor.stop)
reactor.run()
print(json.dumps(result))
