"""What a websocket message's write costs Daphne's event loop, with and without
barnga/eagerwrite.py.

    .venv/bin/python bench/writes.py [ROUNDS]

Each run is a process of its own (a Twisted reactor starts once per process): a
server on Twisted's asyncio reactor, as Daphne runs it, holds 20 loopback
connections; every turn of its loop writes one 4 KB message to each of 5 of them (a
table's screens after an action) until 100,000 writes, while a thread drains the
client ends. It prints the server thread's CPU per write. Modes alternate for ROUNDS
rounds (default 3); the last line is JSON with the medians.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

WRITES = 100_000
CONNS = 20
FANOUT = 5
SIZE = 4000

RUN = r"""
import asyncio, selectors, socket, sys, threading, time
from twisted.internet import asyncioreactor
asyncioreactor.install(asyncio.new_event_loop())
from twisted.internet import protocol, reactor
if sys.argv[1] == "eager":
    from barnga import eagerwrite
    eagerwrite.install()
WRITES, CONNS, FANOUT, SIZE = (int(a) for a in sys.argv[2:6])
MSG = b"x" * SIZE
conns, state = [], {"n": 0}

class Server(protocol.Protocol):
    def connectionMade(self):
        conns.append(self)
        if len(conns) == CONNS:
            reactor.callLater(0.2, start)

def start():
    t0 = time.thread_time()
    groups = CONNS // FANOUT
    def turn(k=0):
        g = k % groups
        for c in conns[g * FANOUT:(g + 1) * FANOUT]:
            c.transport.write(MSG)
        state["n"] += FANOUT
        if state["n"] < WRITES:
            reactor.callLater(0, turn, k + 1)
        else:
            reactor.callLater(0.5, finish, t0)  # let the last buffered writes go out
    turn()

def finish(t0):
    print((time.thread_time() - t0) / state["n"] * 1e6)
    reactor.stop()

factory = protocol.ServerFactory()
factory.protocol = Server
port = reactor.listenTCP(0, factory, interface="127.0.0.1").getHost().port

def drain():
    sel = selectors.DefaultSelector()
    for _ in range(CONNS):
        s = socket.create_connection(("127.0.0.1", port))
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select(1):
            try:
                if not key.fileobj.recv(1 << 20):
                    return
            except BlockingIOError:
                pass

threading.Thread(target=drain, daemon=True).start()
reactor.run()
"""


def once(mode: str) -> float:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run(
        [sys.executable, "-c", RUN, mode, str(WRITES), str(CONNS), str(FANOUT), str(SIZE)],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": root},
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    runs: dict[str, list[float]] = {"eager": [], "plain": []}
    for i in range(rounds):
        for mode in ("eager", "plain"):
            us = once(mode)
            runs[mode].append(us)
            print(f"round {i + 1} {mode}: {us:.1f} µs of the loop's CPU per write", flush=True)
    print(
        json.dumps(
            {
                "writes": WRITES,
                "message_bytes": SIZE,
                "eager_us_per_write": round(statistics.median(runs["eager"]), 1),
                "plain_us_per_write": round(statistics.median(runs["plain"]), 1),
            }
        )
    )


if __name__ == "__main__":
    main()
