"""Load-test bots: each player a real websocket, acting like a phone would.

Runs in client processes spawned by `manage.py loadtest` (no Django here: the
server's CPU is what is measured, the clients only read and tap). A bot reads
the view HTML the server pushes, as the phone's script does: legal cards are
`class="card … legal" data-action="play" data-card="XX"`, and in the claim
phase the confirm button is `class="primary" data-action="claim"
data-winner="ID"`. It waits its think time, taps, and waits for the ack before
it acts again. In the other games (`--game`) it taps any live `data-action="act"`
control as the phone's script would send it: a legal card, a bid, a stand or beg,
never a control that is disabled, needs picked cards, or calls a revoke.

All seats of a table live in one process, so one clock times each action: from
sending it until every seat at that table has shown a view whose version is at
least the one the ack says the action produced.
"""

from __future__ import annotations

import asyncio
import bisect
import html as htmllib
import json
import random
import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field

import websockets

PLAY = re.compile(r'class="card [^"]*\blegal\b[^"]*"\s+data-action="play" data-card="([^"]+)"')
CLAIM = re.compile(r'class="primary" data-action="claim" data-winner="(\d+)"')
ACT = re.compile(r'<(?:button|span)\b([^>]*\bdata-action="act"[^>]*)>')
ATTR = re.compile(r"""([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'))?""")
CONNECT_PARALLEL = 50
RESYNC_CODES = {"stale", "duplicate", "not_allowed", "wrong_phase"}  # see PlayerConsumer
DRAIN_SECONDS = 10.0


def choose(html: str, rng: random.Random) -> dict | None:
    """What a phone showing `html` can tap now: a legal card, or the claim confirmation."""
    cards = PLAY.findall(html)
    if cards:
        return {"action": "play", "card": rng.choice(cards)}
    claim = CLAIM.search(html)
    if claim:
        return {"action": "claim", "winner": int(claim.group(1))}
    return None


def choose_act(html: str, rng: random.Random) -> dict | None:
    """What a phone showing `html` of a game other than Five Tricks can tap now: one
    of its live `act` controls (static/js/table.js sends `{"action": "act", "move"}`)."""
    moves = []
    for tag in ACT.finditer(html):
        attrs = {m.group(1): m.group(2) or m.group(3) or "" for m in ATTR.finditer(tag.group(1))}
        if (
            "disabled" in attrs
            or attrs.get("aria-disabled") == "true"
            or "data-with-picks" in attrs
            or ("data-card" in attrs and "legal" not in attrs.get("class", "").split())
        ):
            continue
        try:
            move = json.loads(htmllib.unescape(attrs.get("data-move", "")))
        except ValueError:
            continue
        if isinstance(move, dict) and move.get("type") != "call_revoke":
            moves.append(move)
    return {"action": "act", "move": rng.choice(moves)} if moves else None


@dataclass
class Seat:
    index: int
    player_id: int
    url: str
    origin: str
    cookie: str | None
    ws: object = None
    html: str = ""
    v: int = -1  # the latest view's table version
    shown_v: list = field(default_factory=list)  # increasing versions shown…
    shown_t: list = field(default_factory=list)  # …and when each was first shown
    inflight: str | None = None
    last_ack_v: int = -1
    timer: asyncio.TimerHandle | None = None
    await_resync: bool = False
    sends: deque = field(default_factory=deque)  # when its latest actions were sent

    def reached(self, version: int) -> float | None:
        """When this seat first showed a view of at least `version` (None: not yet)."""
        i = bisect.bisect_left(self.shown_v, version)
        return self.shown_t[i] if i < len(self.shown_t) else None


@dataclass
class Table:
    key: int
    seats: list[Seat]
    waiting: list = field(
        default_factory=list
    )  # (version, sent_at, kind) acked, not yet everywhere


class Worker:
    def __init__(self, spec: dict):
        self.mode = spec["mode"]  # "game" | "echo"
        self.choose = choose if spec.get("game", "five_tricks") == "five_tricks" else choose_act
        self.think = spec["think_ms"] / 1000.0
        # Actions a seat sends in any second at most, in a game: half the server's
        # flood limit (settings.BARNGA_WS_RATE), which drops a message past it
        # unanswered. The server counts in windows of its own, so two of the bot's
        # seconds can meet in one: half keeps even that under the limit. A person
        # never comes near it; a bot at --think-ms 0 that acts several times running
        # (All Fives' dealer, a trick's winner leading) would. The echo has no limit.
        self.rate = spec.get("rate", 10) if self.mode == "game" else None
        self.seconds = spec["seconds"]
        self.rng = random.Random(spec.get("seed", 0))
        self.tables = [
            Table(
                key=t["key"],
                seats=[Seat(index=i, **s) for i, s in enumerate(t["seats"])],
            )
            for t in spec["tables"]
        ]
        self.running = False
        self.counter = 0
        self.sent: dict[str, tuple[Table, Seat, float, str, str]] = {}  # …, text, kind
        self.latencies: list[float] = []
        self.kinds: list[str] = []  # each latency's action ("play", "claim", "echo")
        self.when: list[float] = []  # and when it was taken, in seconds since the start
        self.go_at = 0.0
        self.ack_ms: list[tuple[str, float]] = []  # (kind, sent until acknowledged)
        self.acked: list[tuple[int, str]] = []
        self.errors: Counter = Counter()
        self.views = 0
        self.marks = 0  # "claimed" marks received instead of views
        self.actions_sent = 0
        self.samples: list[str] = []  # a few refused actions, for the report

    # ---- connecting
    async def connect_all(self) -> None:
        gate = asyncio.Semaphore(CONNECT_PARALLEL)
        seats = [(t, s) for t in self.tables for s in t.seats]
        await asyncio.gather(*(self.connect(t, s, gate) for t, s in seats))

    async def connect(self, table: Table, seat: Seat, gate: asyncio.Semaphore) -> None:
        headers = [("Cookie", seat.cookie)] if seat.cookie else []
        for attempt in range(5):
            async with gate:
                try:
                    seat.ws = await websockets.connect(
                        seat.url,
                        origin=seat.origin,
                        additional_headers=headers,
                        compression=None,
                        ping_interval=None,
                        open_timeout=30,
                        max_size=2**22,
                    )
                    first = json.loads(await asyncio.wait_for(seat.ws.recv(), 30))
                    while first.get("t") != "view":
                        first = json.loads(await asyncio.wait_for(seat.ws.recv(), 30))
                    self.on_view(table, seat, first, time.perf_counter())
                    asyncio.get_running_loop().create_task(self.read(table, seat))
                    return
                except (TimeoutError, OSError, websockets.WebSocketException):
                    if seat.ws is not None:
                        await seat.ws.close()
                        seat.ws = None
            await asyncio.sleep(0.2 * (attempt + 1))
        self.errors["connect"] += 1

    async def read(self, table: Table, seat: Seat) -> None:
        try:
            async for raw in seat.ws:
                now = time.perf_counter()
                msg = json.loads(raw)
                t = msg.get("t")
                if t == "view":
                    self.on_view(table, seat, msg, now)
                elif t == "claimed":
                    self.on_claimed_mark(table, seat, msg, now)
                elif t == "ack":
                    self.on_ack(table, seat, msg, now)
                elif t == "error":
                    self.errors[f"error:{msg.get('code')}"] += 1
                    if len(self.samples) < 5:
                        self.samples.append(
                            f"{msg.get('code')}: {msg.get('message')} (player {seat.player_id}, "
                            f"view v{seat.v}, action {seat.inflight and self.sent[seat.inflight][3]})"
                        )
                    self.sent.pop(seat.inflight, None)
                    seat.inflight = None
                    # Refusals the server answers with a fresh view: act on that one,
                    # not again on the view that was refused (as the phone's script does).
                    seat.await_resync = msg.get("code") in RESYNC_CODES
                    self.consider(table, seat)
        except websockets.ConnectionClosed as exc:
            if self.running or seat.inflight:
                self.errors[f"closed:{exc.rcvd.code if exc.rcvd else 'none'}"] += 1

    # ---- what arrives
    def on_view(self, table: Table, seat: Seat, msg: dict, now: float) -> None:
        self.views += 1
        if msg.get("force"):
            seat.await_resync = False
        seat.html = msg.get("html") or ""
        self.shown(table, seat, msg.get("v") or 0, now)

    def on_claimed_mark(self, table: Table, seat: Seat, msg: dict, now: float) -> None:
        """Another seat's claim marked on this screen (static/js/table.js markClaimed):
        the screen it follows with only that mark new, so what the bot can tap is the
        same. On any other screen it asks for the whole one, as the phone does."""
        self.marks += 1
        if seat.v >= msg["v"]:
            return
        if seat.v != msg["from"]:
            self.errors["claimed:not_following"] += 1
            asyncio.get_running_loop().create_task(self.sync(seat))
            return
        self.shown(table, seat, msg["v"], now)

    async def sync(self, seat: Seat) -> None:
        try:
            await seat.ws.send(json.dumps({"action": "sync"}))
        except websockets.ConnectionClosed:
            self.errors["send:closed"] += 1

    def shown(self, table: Table, seat: Seat, v: int, now: float) -> None:
        """The seat's screen now shows table version v."""
        seat.v = v
        if not seat.shown_v or v > seat.shown_v[-1]:
            seat.shown_v.append(v)
            seat.shown_t.append(now)
        if table.waiting:
            floor = min(s.shown_v[-1] if s.shown_v else -1 for s in table.seats)
            still = []
            for version, sent_at, kind in table.waiting:
                if version <= floor:
                    self.record(kind, (now - sent_at) * 1000)
                else:
                    still.append((version, sent_at, kind))
            table.waiting = still
        self.consider(table, seat)

    def on_ack(self, table: Table, seat: Seat, msg: dict, now: float) -> None:
        cid = msg.get("id")
        sent = self.sent.pop(cid, None)
        if sent is None:
            self.errors["ack:unknown"] += 1
            return
        sent_at, kind = sent[2], sent[4]
        self.ack_ms.append((kind, (now - sent_at) * 1000))
        seat.inflight = None
        self.acked.append((seat.player_id, cid))
        version = msg.get("v")
        if version is None:
            self.errors["ack:no_version"] += 1
            return
        seat.last_ack_v = max(seat.last_ack_v, version)
        times = [s.reached(version) for s in table.seats]
        if all(t is not None for t in times):
            self.record(kind, (max(times) - sent_at) * 1000)
        else:
            table.waiting.append((version, sent_at, kind))
        self.consider(table, seat)

    def record(self, kind: str, ms: float) -> None:
        self.latencies.append(ms)
        self.kinds.append(kind)
        self.when.append(time.perf_counter() - self.go_at)

    # ---- acting
    def next_action(self, table: Table, seat: Seat) -> dict | None:
        if self.mode == "echo":
            n = len(table.seats)
            if seat.v >= 0 and seat.v % n == seat.index:
                return {"action": "echo", "v": seat.v + 1}
            return None
        return self.choose(seat.html, self.rng)

    def consider(self, table: Table, seat: Seat) -> None:
        if (
            not self.running
            or seat.inflight
            or seat.timer is not None
            or seat.ws is None
            or seat.await_resync
        ):
            return
        if seat.v < seat.last_ack_v:  # its own last action is not on its screen yet
            return
        if self.next_action(table, seat) is None:
            return
        if self.think > 0:
            delay = self.think * self.rng.uniform(0.5, 1.5)
            seat.timer = asyncio.get_running_loop().call_later(delay, self.fire, table, seat)
        else:
            self.fire(table, seat)

    def fire(self, table: Table, seat: Seat) -> None:
        seat.timer = None
        if not self.running or seat.inflight or seat.await_resync or seat.v < seat.last_ack_v:
            return
        action = self.next_action(table, seat)  # from the latest view, not the one that woke it
        if action is None:
            return
        if self.rate is not None:
            now = time.perf_counter()
            while seat.sends and now - seat.sends[0] >= 1.0:
                seat.sends.popleft()
            if len(seat.sends) >= self.rate:
                wait = seat.sends[0] + 1.0 - now + 0.001
                seat.timer = asyncio.get_running_loop().call_later(wait, self.fire, table, seat)
                return
            seat.sends.append(now)
        self.counter += 1
        cid = f"lt{self.counter}"
        action["id"] = cid
        if self.mode == "game":
            action["version"] = seat.v
        seat.inflight = cid
        text = json.dumps(action)
        self.sent[cid] = (table, seat, time.perf_counter(), text, action["action"])
        self.actions_sent += 1
        asyncio.get_running_loop().create_task(self.send(seat, text))

    async def send(self, seat: Seat, text: str) -> None:
        try:
            await seat.ws.send(text)
        except websockets.ConnectionClosed:
            self.errors["send:closed"] += 1
            self.sent.pop(seat.inflight, None)
            seat.inflight = None

    # ---- the run
    async def run(self) -> None:
        self.go_at = time.perf_counter()
        self.running = True
        for table in self.tables:
            for seat in table.seats:
                self.consider(table, seat)
        await asyncio.sleep(self.seconds)
        self.running = False
        for table in self.tables:
            for seat in table.seats:
                if seat.timer is not None:
                    seat.timer.cancel()
                    seat.timer = None
        deadline = time.monotonic() + DRAIN_SECONDS
        while (self.sent or any(t.waiting for t in self.tables)) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self.sent:
            self.errors["timeout:no_ack"] += len(self.sent)
        stuck = sum(len(t.waiting) for t in self.tables)
        if stuck:
            self.errors["timeout:not_everywhere"] += stuck

    async def close_all(self) -> None:
        await asyncio.gather(
            *(s.ws.close() for t in self.tables for s in t.seats if s.ws is not None),
            return_exceptions=True,
        )

    def result(self) -> dict:
        return {
            "latencies": self.latencies,
            "kinds": self.kinds,
            "when": self.when,
            "ack_ms": self.ack_ms,
            "acked": self.acked,
            "errors": dict(self.errors),
            "views": self.views,
            "marks": self.marks,
            "sent": self.actions_sent,
            "samples": self.samples,
        }


async def _main(spec: dict, conn) -> None:
    loop = asyncio.get_running_loop()
    worker = Worker(spec)
    started = time.monotonic()
    await worker.connect_all()
    conn.send(
        {"ready": True, "connect_s": time.monotonic() - started, "errors": dict(worker.errors)}
    )
    go = await loop.run_in_executor(None, conn.recv)
    cpu_start = time.process_time()
    if go.get("go"):
        await worker.run()
    cpu_s = time.process_time() - cpu_start  # this client's own CPU while measured
    await worker.close_all()
    conn.send({**worker.result(), "cpu_s": cpu_s})


def worker_main(spec: dict, conn) -> None:
    """Entry point of one client process (multiprocessing, spawn): bots, or the
    facilitator's panel (`--facilitator`)."""
    try:
        if spec["mode"] == "panel":
            from tournament.loadtest.panel import watch

            asyncio.run(watch(spec, conn))
        else:
            asyncio.run(_main(spec, conn))
    finally:
        conn.close()
