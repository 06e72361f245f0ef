"""A real deployment on loopback for fault tests: PostgreSQL, a Redis we may restart,
Daphne processes we may kill, and players as websocket clients that play by themselves.

Nothing here imports the test database: the servers and the driver scripts reach
their own PostgreSQL database (cloned from a migrated template), and every check
reads that database through `python -c` driver scripts, as an operator would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field

import websockets
import websockets.exceptions

from tournament.loadtest.servers import ROOT, free_port, start_daphne, stop, wait_healthy

ARTIFACTS = ROOT / "artifacts" / "reliability"


# ---------------------------------------------------------------- Redis we can restart


class RedisServer:
    """A private redis-server on a fixed port: `restart()` keeps the address, loses the data."""

    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="barnga-fault-redis-")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed (scripts/test.sh installs it)"
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def stop(self, *, kill: bool = True) -> None:
        if self.proc is not None:
            stop(self.proc, kill=kill)
            self.proc = None

    def restart(self) -> None:
        self.stop(kill=True)
        self.start()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------- PostgreSQL databases


def _pg_connect(url: str, dbname: str | None = None):
    import psycopg

    kwargs = {"autocommit": True}
    if dbname:
        kwargs["dbname"] = dbname
    return psycopg.connect(url, **kwargs)


def database_url(server_url: str, name: str) -> str:
    return server_url.rsplit("/", 1)[0] + "/" + name


def create_template(server_url: str, name: str, env: dict) -> str:
    """A migrated database to clone per test (CREATE DATABASE ... TEMPLATE is fast)."""
    with _pg_connect(server_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = database_url(server_url, name)
    run_python(
        "from django.core.management import call_command; call_command('migrate', verbosity=0)",
        {**env, "DATABASE_URL": url},
    )
    return url


def clone_database(server_url: str, template: str, name: str) -> str:
    with _pg_connect(server_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return database_url(server_url, name)


# Per test worker: workers sharing one server (BARNGA_TEST_POSTGRES_URL) would drop
# and migrate it again while another clones it.
TEMPLATE = f"barnga_fault_template_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
_migrated: set[str] = set()


def ensure_template(server_url: str) -> str:
    """TEMPLATE on this server, migrated once per test process (a migration takes
    seconds; each test's clone of it a fraction of one)."""
    if server_url not in _migrated:
        create_template(server_url, TEMPLATE, {"REDIS_URL": ""})
        _migrated.add(server_url)
    return TEMPLATE


def fresh_database(server_url: str, name: str) -> str:
    """A migrated database of its own for one test: a clone of TEMPLATE."""
    return clone_database(server_url, ensure_template(server_url), name)


# ---------------------------------------------------------------- driver scripts


def run_python(code: str, env: dict, timeout: float = 120) -> object:
    """Run `code` in a fresh Django process with `env`; it may set `result` (returned, via JSON)."""
    script = (
        "import django, json, sys\n"
        "django.setup()\n"
        "result = None\n"
        + textwrap.dedent(code)
        + "\nsys.stdout.write('\\n@@RESULT@@' + json.dumps(result, default=str))\n"
    )
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "barnga.settings", **env}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"driver script failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.rsplit("@@RESULT@@", 1)[1])


# For run_python: `w`, a workshop with every seat taken and a scored round running.
RUNNING_ROUND = """
from tournament import services
w = services.workshop_create(name="Fault test", table_count={tables}, seats_per_table={seats},
                             round_seconds=600, dispute_seconds=10, mode="{mode}", seed=11)
for i in range({tables} * {seats}):
    services.player_join(workshop_id=w.pk, name=f"P{{i + 1:02d}}")
services.players_seat_home(workshop_id=w.pk)
services.workshop_start_study(workshop_id=w.pk)
services.workshop_start_home(workshop_id=w.pk)
services.round_start(workshop_id=w.pk)
"""


# For run_python, after RUNNING_ROUND: `until_a_lock_waits()`, called inside a
# transaction holding a lock, returns once another of this database's transactions
# waits for a lock (or after 5 s): the two are interleaved as a deadlock needs.
UNTIL_A_LOCK_WAITS = """
import threading, time
from django.db import connection

def until_a_lock_waits():
    deadline = time.monotonic() + 5
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            # (This database's sessions only; the statistics are read afresh each time.)
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                break
            time.sleep(0.02)
    time.sleep(0.2)  # the other side is parked on the lock it waits for
"""

# For run_python, after RUNNING_ROUND in referee mode (Five Tricks):
# `to_a_forbidden_card(game)` plays legal cards until the seat to act holds one the
# table's sheet forbids, and returns that seat and card.
TO_A_FORBIDDEN_CARD = """
def to_a_forbidden_card(game):
    from games import five_tricks
    from tournament import gamestate, services

    for _ in range(40):
        state = gamestate.load_state(game)
        seat = state.to_act
        legal = [a["card"] for a in five_tricks.legal_actions(state, seat)]
        bad = [c for c in state.hands[seat] if c not in legal]
        if bad:
            return seat, bad[0]
        services.game_play(player_id=game.players[seat], card=legal[0])
        game.refresh_from_db()
    raise AssertionError("no seat ever held a card it could not play")
"""


def running_round(code: str, *, tables: int, seats: int, mode: str = "barnga") -> str:
    """`code` (indented as the tests write it) after the RUNNING_ROUND set-up."""
    return RUNNING_ROUND.format(tables=tables, seats=seats, mode=mode) + textwrap.dedent(code)


SETUP = (
    RUNNING_ROUND
    + """
from tournament.identity import signed_cookie_value
from tournament.models import Player
result = {{"workshop": w.pk, "players": [
    {{"id": p.pk, "name": p.name, "table": p.table.number, "cookie": signed_cookie_value(p.token)}}
    for p in Player.objects.filter(workshop=w).select_related("table").order_by("join_order")]}}
"""
)

INTEGRITY = """
from tournament import integrity
count, problems = integrity.workshop_problems()
result = {"games": count, "problems": problems}
"""


# ---------------------------------------------------------------- the web processes


@dataclass
class Cluster:
    """Web processes on one PostgreSQL database and one Redis."""

    database_url: str
    redis: RedisServer
    name: str
    procs: dict[int, subprocess.Popen] = field(default_factory=dict)

    @property
    def env(self) -> dict:
        return {
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis.url,
            "BARNGA_RUN_TIMERS": "1",
            "BARNGA_TIMER_INTERVAL": "0.2",
            "BARNGA_BOT_DELAY": "0.2",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CONN_MAX_AGE": "60",
            "BARNGA_JOIN_LIMIT_PER_ADDRESS": "10000",
            "LOG_LEVEL": "WARNING",
        }

    def start(self, count: int = 1) -> list[int]:
        """Start `count` web processes at once; their ports, once all are healthy."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        started = {}
        for _ in range(count):
            port = free_port()
            started[port] = start_daphne(port, self.env, ARTIFACTS / f"{self.name}-{port}.log")
            self.procs[port] = started[port]
        for port, proc in started.items():
            wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=60)
        return list(started)

    def kill(self, port: int) -> None:
        stop(self.procs.pop(port), kill=True)

    def stop_all(self, *, kill: bool = False) -> None:
        for port in list(self.procs):
            stop(self.procs.pop(port), kill=kill)

    @property
    def ports(self) -> list[int]:
        return list(self.procs)

    def run(self, code: str) -> object:
        return run_python(code, self.env)

    def integrity(self) -> dict:
        return self.run(INTEGRITY)


# ---------------------------------------------------------------- players


PLAYABLE = re.compile(r'class="card[^"]*\blegal\b[^"]*"\s*data-action="play" data-card="([^"]+)"')
SUGGESTED = re.compile(r'class="primary" data-action="claim" data-winner="(\d+)"')
TRICK_CARD = re.compile(
    r'<button type="button" class="card([^"]*)"\s*data-action="claim" data-winner="(\d+)"'
)
TABLE = re.compile(r'<span class="where">Table (\d+)</span>')
PHASE = re.compile(r'data-phase="(\w+)"')


def decide(html: str) -> dict | None:
    """What a well-behaved player does on this screen: play a legal card, or claim.

    In a dispute everyone claims the leader's card, so disputes end unanimously
    instead of waiting for the time limit.
    """
    if "<strong>Your turn.</strong>" in html:
        cards = PLAYABLE.findall(html)
        if cards:
            return {"action": "play", "card": cards[0]}
    if 'class="dispute-title"' in html:
        trick = TRICK_CARD.findall(html)
        if trick and "claimed-by-me" not in trick[0][0]:
            return {"action": "claim", "winner": int(trick[0][1])}
        return None
    suggested = SUGGESTED.search(html)
    if suggested:
        return {"action": "claim", "winner": int(suggested.group(1))}
    return None


@dataclass
class Bot:
    """One player's phone: reconnects with back-off (as static/js/table.js does), to the
    first live process in `cluster_ports` starting from its own, and plays when it may."""

    name: str
    cookie: str
    home_port: int
    ports: list[int]  # shared and edited by the test: the processes a phone can reach
    acked: set[str] = field(default_factory=set)
    sent: list[str] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    connects: list[tuple[float, int]] = field(default_factory=list)
    closes: list[tuple[float, int | None]] = field(default_factory=list)
    views: int = 0
    version: int = -1
    wversion: int = -1
    html: str = ""
    last_view_at: float = 0.0
    play: bool = True
    counter: int = 0

    @property
    def phase(self) -> str | None:
        m = PHASE.search(self.html)
        return m.group(1) if m else None

    @property
    def table(self) -> int | None:
        m = TABLE.search(self.html)
        return int(m.group(1)) if m else None

    async def run(self, stopping: asyncio.Event) -> None:
        backoff = 0.25
        attempt = 0
        while not stopping.is_set():
            live = list(self.ports)
            if not live:
                await asyncio.sleep(0.1)
                continue
            start = live.index(self.home_port) if self.home_port in live else 0
            port = live[(start + attempt) % len(live)]
            try:
                async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/play/",
                    origin=f"http://127.0.0.1:{port}",
                    additional_headers={"Cookie": f"barnga_player={self.cookie}"},
                    open_timeout=5,
                    ping_interval=None,
                    max_size=2**22,
                ) as ws:
                    self.connects.append((time.monotonic(), port))
                    backoff = 0.25
                    await self._session(ws, stopping)
            except (TimeoutError, OSError, websockets.exceptions.WebSocketException) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                self.closes.append((time.monotonic(), code))
            if stopping.is_set():
                return
            attempt += 1
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 2.0)

    async def _session(self, ws, stopping: asyncio.Event) -> None:
        pinger = asyncio.ensure_future(self._ping(ws))
        try:
            while not stopping.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                msg = json.loads(raw)
                t = msg.get("t")
                if t == "view":
                    self.views += 1
                    self.version, self.wversion, self.html = msg["v"], msg["w"], msg["html"]
                    self.last_view_at = time.monotonic()
                    if self.play:
                        await self._act(ws, msg["v"], msg["html"])
                elif t == "claimed":
                    # Another seat's claim marked on this screen (static/js/table.js
                    # markClaimed): nothing this bot can tap changes.
                    if msg["from"] == self.version:
                        self.version = msg["v"]
                    elif msg["v"] > self.version:
                        await ws.send(json.dumps({"action": "sync"}))
                elif t == "ack":
                    self.acked.add(msg["id"])
                elif t == "error":
                    self.errors.append(msg)
        finally:
            pinger.cancel()

    async def _ping(self, ws) -> None:
        # The page pings every 10 s; a test wants quicker liveness.
        while True:
            await asyncio.sleep(2)
            await ws.send(json.dumps({"action": "ping"}))

    async def _act(self, ws, version: int, html: str) -> None:
        move = decide(html)
        if move is None:
            return
        await asyncio.sleep(random.uniform(0, 0.03))  # a human-ish jitter
        self.counter += 1
        cid = f"{self.name}-{self.counter}"
        self.sent.append(cid)
        await ws.send(json.dumps({**move, "version": version, "id": cid}))


async def wait_until(predicate, timeout: float, what: str, step: float = 0.1) -> float:
    """Seconds it took for `predicate()` to hold; AssertionError after `timeout`."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(step)
    return time.monotonic() - start


async def two_processes_eight_phones(cluster: Cluster) -> tuple[list[int], list[Bot]]:
    """Two web processes, started while a running round of two tables of four is set
    up, and a phone per player, every other one at each process. The ports are the
    list the phones look in: a test that changes it changes where they reconnect."""
    ports, setup = await asyncio.gather(
        asyncio.to_thread(cluster.start, 2),
        asyncio.to_thread(cluster.run, SETUP.format(tables=2, seats=4, mode="barnga")),
    )
    bots = [
        Bot(name=p["name"], cookie=p["cookie"], home_port=ports[i % 2], ports=ports)
        for i, p in enumerate(setup["players"])
    ]
    return ports, bots


def acked_ids(bots) -> set[str]:
    return set().union(*(b.acked for b in bots))


@contextlib.asynccontextmanager
async def playing(bots):
    """The bots' phones play until the block ends, then are stopped."""
    stopping = asyncio.Event()
    tasks = [asyncio.ensure_future(bot.run(stopping)) for bot in bots]
    try:
        yield
    finally:
        stopping.set()
        await asyncio.gather(*tasks, return_exceptions=True)


async def assert_nothing_lost(cluster, bots) -> None:
    """Every acknowledged action is in the log, and every game replays as stored."""
    result = await asyncio.to_thread(final_check, cluster, acked_ids(bots))
    assert result["missing"] == []
    assert result["problems"] == []


def final_check(cluster: Cluster, acked: set[str], extra: str = "") -> dict:
    """One driver run after the faults: which acknowledged ids the log lacks, every
    game's replay against what is stored, and whatever `extra` code puts in `more`."""
    return cluster.run(
        f"""
from tournament import integrity
from tournament.models import Action
ids = {sorted(acked)!r}
found = set(Action.objects.filter(client_action_id__in=ids).values_list("client_action_id", flat=True))
count, problems = integrity.workshop_problems()
more = {{}}
{textwrap.dedent(extra)}
result = {{"missing": sorted(set(ids) - found), "games": count, "problems": problems, **more}}
"""
    )
