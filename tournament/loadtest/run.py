"""`manage.py loadtest`: set up, start servers, drive bot processes, check the log, report.

The command's process owns the database side (it builds the workshop through the
services and afterwards compares every acknowledged action with the stored log);
the bots run in separate client processes (tournament.loadtest.bots), all seats of
a table in the same one; the servers are Daphne processes started here, or the
ones at `--url` (which must share this settings' database and SECRET_KEY).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db import close_old_connections, connections

from tournament.loadtest import cpu, servers
from tournament.loadtest.panel import panel_line

SEATS = 5
# `--game` (a measuring aid beside the contract, which is Five Tricks at tables of 5):
# the other games the bots can play, each at a table size it deals to.
GAME_SEATS = {"five_tricks": SEATS, "seven_up": 5, "all_fives": 3}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def summarise(
    *, players: int, seconds: float, results: list[dict], lost: int, duplicated: int
) -> dict:
    latencies = [x for r in results for x in r["latencies"]]
    errors = Counter()
    for r in results:
        errors.update(r["errors"])
    actions = sum(len(r["acked"]) for r in results)
    return {
        "players": players,
        "actions": actions,
        "actions_per_s": round(actions / seconds, 1) if seconds else 0.0,
        "p50_ms": round(percentile(latencies, 50), 1),
        "p95_ms": round(percentile(latencies, 95), 1),
        "p99_ms": round(percentile(latencies, 99), 1),
        "errors": sum(errors.values()),
        "lost": lost,
        "duplicated": duplicated,
    }, errors


def latency_breakdown(results: list[dict]) -> str | None:
    """A note for stderr: p50/p95 by action kind, and from sending until the ack (the
    acting socket's own round trip, before the table's other seats are counted)."""
    by_kind: dict[str, list[float]] = {}
    acks: dict[str, list[float]] = {}
    for r in results:
        for kind, ms in zip(r.get("kinds", []), r["latencies"], strict=False):
            by_kind.setdefault(kind, []).append(ms)
        for kind, ms in r.get("ack_ms", []):
            acks.setdefault(kind, []).append(ms)
    if not by_kind:
        return None

    def figures(v: list[float]) -> str:
        return f"{percentile(v, 50):.0f}/{percentile(v, 95):.0f} ms"

    return "latency p50/p95 by kind: " + " · ".join(
        f"{kind} {figures(v)} (n={len(v)}; sent to ack {figures(acks.get(kind, []))})"
        for kind, v in sorted(by_kind.items())
    )


def latency_over_time(results: list[dict], every: float = 10.0) -> str | None:
    """A note for stderr: p95 in each `every` seconds of the run, by when the latency
    was taken. The tables start together, so their claim steps, and later their
    games' ends, come in waves; this shows them."""
    windows: dict[int, list[float]] = {}
    for r in results:
        for at, ms in zip(r.get("when", []), r["latencies"], strict=False):
            windows.setdefault(int(at // every), []).append(ms)
    if not windows:
        return None
    return f"p95 ms per {every:g} s: " + " ".join(
        f"{percentile(windows[i], 95):.0f}" for i in sorted(windows)
    )


# ---- the workshop
def into_first_round(workshop_id: int) -> None:
    """Everyone who joined seated at a home table, study and silent play gone through,
    and the first scored round started: where the load test and the benches play."""
    from tournament import services

    services.players_seat_home(workshop_id=workshop_id)
    services.workshop_start_study(workshop_id=workshop_id)
    services.workshop_start_home(workshop_id=workshop_id)
    services.round_start(workshop_id=workshop_id)


def setup_workshop(
    players: int, seconds: float, game: str = "five_tricks", facilitator=None
) -> tuple[int, list[list[tuple[int, str]]]]:
    """A workshop of `game` with `players` at tables of GAME_SEATS[game] (5 for Five
    Tricks), in a scored round that outlasts the run.

    Returns the workshop id and, per table, its seated players' (id, token) in seat order.
    """
    from tournament import services
    from tournament.models import Player

    seats = GAME_SEATS[game]
    tables = math.ceil(players / seats)
    round_seconds = int(min(3600, max(60, seconds + 300)))
    workshop = services.workshop_create(
        facilitator=facilitator,
        name=f"Load test {time.strftime('%H:%M:%S')}",
        game=game,
        table_count=tables,
        seats_per_table=seats,
        round_seconds=round_seconds,
        study_seconds=3600,
        home_seconds=3600,
        dispute_seconds=600,
    )
    for i in range(players):
        services.player_join(workshop_id=workshop.pk, name=f"Bot phone {i + 1}")
    into_first_round(workshop.pk)
    by_table: dict[int, list[tuple[int, str]]] = {}
    for pid, table_id, token in (
        Player.objects.filter(workshop=workshop)
        .order_by("table__number", "seat")
        .values_list("pk", "table_id", "token")
    ):
        by_table.setdefault(table_id, []).append((pid, token))
    return workshop.pk, list(by_table.values())


def check_log(workshop_id: int, acked: list[tuple[int, str]]) -> tuple[int, int]:
    """(lost, duplicated): acknowledged ids absent from the stored log, or stored twice."""
    from tournament.models import Action

    return compare(
        acked,
        Action.objects.filter(
            game__table__workshop_id=workshop_id, client_action_id__isnull=False
        ).values_list("actor_id", "client_action_id"),
    )


def compare(acked: list[tuple], stored_keys) -> tuple[int, int]:
    """(lost, duplicated) of acknowledged keys against the keys stored."""
    stored = Counter(stored_keys)
    lost = sum(1 for key in set(acked) if stored[key] == 0)
    duplicated = sum(1 for key in set(acked) if stored[key] > 1)
    duplicated += sum(n - 1 for n in Counter(acked).values() if n > 1)  # acked twice
    return lost, duplicated


def facilitator_session() -> tuple[object, str]:
    """A facilitator of its own for the run, and the cookie of a session logged in as
    them (`--facilitator`: the panel's socket is theirs only)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user(
        f"loadtest-{time.strftime('%Y%m%d-%H%M%S')}-{random.randrange(10**6)}",
        password=None,
    )
    client = Client()
    client.force_login(user)
    return (
        user,
        f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}",
    )


# ---- servers
def start_servers(
    count: int, *, baseline: bool, log_dir: Path, store: bool = False
) -> tuple[list, list[str]]:
    if count > 1 and settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
        raise SystemExit("--servers > 1 needs a shared channel layer: set REDIS_URL")
    env = {
        "BARNGA_BENCH_ECHO": "1" if baseline else "0",
        "BARNGA_BENCH_ECHO_STORE": "1" if store else "0",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
    }
    procs, urls = [], []
    for i in range(count):
        port = servers.free_port()
        path = log_dir / f"daphne-{i + 1}.log"
        procs.append(servers.start_daphne(port, env, path))
        urls.append(f"http://127.0.0.1:{port}")
    try:
        for proc, url in zip(procs, urls, strict=True):
            servers.wait_healthy(url, proc, timeout=60)
    except RuntimeError:
        for proc in procs:
            servers.stop(proc)
        raise
    return procs, urls


def server_for(urls: list[str], table: int, seat: int, seats: int = SEATS) -> str:
    """The server a seat's socket connects to: round robin over the sockets in the
    order they connect (table by table, seat by seat), as the compose proxy spreads
    connections. Tables of 5 on 2 servers then split 3/2 and 2/3 in turn, so each
    process carries half the sockets (a fixed 3/2 split put 60 % of them, and of the
    renders, on one process) and every table still spans both processes."""
    return urls[(table * seats + seat) % len(urls)]


def ws_target(base: str, path: str) -> tuple[str, str]:
    parts = urlsplit(base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{path}", f"{parts.scheme}://{parts.netloc}"


# ---- the clients
def client_specs(
    *,
    tables: list[list[dict]],
    procs: int,
    mode: str,
    think_ms: float,
    seconds: float,
    game: str = "five_tricks",
) -> list[dict]:
    specs = [
        {
            "mode": mode,
            "game": game,
            "think_ms": think_ms,
            "seconds": seconds,
            "seed": i,
            "rate": max(1, settings.BARNGA_WS_RATE // 2),
            "tables": [],
        }
        for i in range(procs)
    ]
    for i, seats in enumerate(tables):
        specs[i % procs]["tables"].append({"key": i, "seats": seats})
    return [s for s in specs if s["tables"]]


def drive(specs: list[dict], on_go=None, on_done=None) -> list[dict]:
    """Run the client processes; `on_go` and `on_done` are called as the measured
    run starts and once every client has reported."""
    from tournament.loadtest.bots import worker_main

    ctx = multiprocessing.get_context("spawn")
    workers = []
    for spec in specs:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=worker_main, args=(spec, child), daemon=True)
        proc.start()
        child.close()
        workers.append((proc, parent))
    try:
        started = time.monotonic()
        for _, pipe in workers:
            ready = pipe.recv()
            if ready["errors"]:
                log(f"connect errors: {ready['errors']}")
        log(f"all clients connected in {time.monotonic() - started:.1f} s")
        if on_go:
            on_go()
        for _, pipe in workers:
            pipe.send({"go": True})
        results = [pipe.recv() for _, pipe in workers]
        if on_done:
            on_done()
    finally:
        for proc, _ in workers:
            proc.join(timeout=30)
            if proc.is_alive():
                proc.kill()
    return results


def run(
    *,
    players: int,
    seconds: float,
    think_ms: float = 0,
    url: str | None = None,
    baseline: bool = False,
    baseline_store: bool = False,
    server_count: int = 1,
    client_procs: int = 2,
    game: str = "five_tricks",
    facilitator: bool = False,
) -> dict:
    """`baseline_store`: the bare echo, each message first stored in one durable
    transaction by the servers started here (tournament.loadtest.echo.store); its
    acknowledgements are then held against the stored rows, as a game's are."""
    options = dict(
        players=players,
        seconds=seconds,
        think_ms=think_ms,
        url=url,
        baseline=baseline or baseline_store,
        baseline_store=baseline_store,
        server_count=server_count,
        client_procs=client_procs,
        game=game,
        facilitator=facilitator,
    )
    if not baseline_store:
        return _run(**options)
    if url:
        raise ValueError("a stored echo needs servers started by the load test, not --url")
    from tournament.loadtest import echo

    with echo.tables():
        return _run(**options)


def _run(
    *,
    players,
    seconds,
    think_ms,
    url,
    baseline,
    baseline_store,
    server_count,
    client_procs,
    game,
    facilitator=False,
) -> dict:
    log_dir = Path(tempfile.mkdtemp(prefix="barnga-loadtest-"))
    procs: list = []
    if url:
        urls = [u.strip().rstrip("/") for u in url.split(",") if u.strip()]
    else:
        log(f"starting {server_count} server process(es); logs in {log_dir}")
        procs, urls = start_servers(
            server_count, baseline=baseline, log_dir=log_dir, store=baseline_store
        )
    try:
        workshop_id = None
        table_count = math.ceil(players / SEATS)
        if baseline:
            run_key = random.randrange(10**6) * 1000
            tables = [
                [
                    # The table's key stands for the player: a table's seats are in one
                    # client process, so (key, client id) names one acknowledged echo.
                    {
                        "player_id": run_key + t,
                        "cookie": None,
                        **dict(
                            zip(
                                ("url", "origin"),
                                ws_target(
                                    server_for(urls, t, s), f"/ws/bench/echo/?table={run_key + t}"
                                ),
                                strict=True,
                            )
                        ),
                    }
                    for s in range(min(SEATS, players - t * SEATS))
                ]
                for t in range(table_count)
            ]
            mode = "echo"
        else:
            from tournament.identity import COOKIE, signed_cookie_value

            started = time.monotonic()
            user, session = facilitator_session() if facilitator else (None, None)
            workshop_id, seated = setup_workshop(players, seconds, game, user)
            log(
                f"workshop {workshop_id} ({game}): {players} players at {len(seated)} tables, "
                f"set up in {time.monotonic() - started:.1f} s"
            )
            tables = []
            for t, seats in enumerate(seated):
                tables.append(
                    [
                        {
                            "player_id": pid,
                            "cookie": f"{COOKIE}={signed_cookie_value(token)}",
                            **dict(
                                zip(
                                    ("url", "origin"),
                                    ws_target(
                                        server_for(urls, t, s, GAME_SEATS[game]), "/ws/play/"
                                    ),
                                    strict=True,
                                )
                            ),
                        }
                        for s, (pid, token) in enumerate(seats)
                    ]
                )
            mode = "game"
        close_old_connections()
        connections.close_all()
        specs = client_specs(
            tables=tables,
            procs=client_procs,
            mode=mode,
            think_ms=think_ms,
            seconds=seconds,
            game=game,
        )
        if facilitator and workshop_id is not None:
            url_, origin = ws_target(urls[0], f"/ws/facilitator/{workshop_id}/?view=panel")
            specs.append(
                {
                    "mode": "panel",
                    "url": url_,
                    "origin": origin,
                    "cookie": session,
                    "seconds": seconds,
                }
            )
        pids = [p.pid for p in procs]
        marks: dict = {}

        def mark(key):
            marks[key] = (cpu.snapshot(pids), time.monotonic())

        results = drive(specs, on_go=lambda: mark("go"), on_done=lambda: mark("done"))
    finally:
        for proc in procs:
            servers.stop(proc)
    lost = duplicated = 0
    acked = [tuple(a) for r in results for a in r["acked"]]
    if workshop_id is not None:
        lost, duplicated = check_log(workshop_id, acked)
    elif baseline_store:
        from tournament.loadtest import echo

        lost, duplicated = compare(acked, echo.stored_keys())
    summary, errors = summarise(
        players=players, seconds=seconds, results=results, lost=lost, duplicated=duplicated
    )
    # The servers' logs are for reading a run that went wrong: a clean run's go (each
    # run, the test suite's among them, left a folder in the temporary directory). A
    # `stale` refusal is the protocol at work (a tap on a view the table had left).
    faults = {kind: n for kind, n in errors.items() if kind != "error:stale"}
    if procs and (faults or lost or duplicated):
        log(f"server logs kept in {log_dir}")
    else:
        shutil.rmtree(log_dir, ignore_errors=True)
    for sample in [x for r in results for x in r.get("samples", [])][:5]:
        log(f"refused: {sample}")
    for line in (latency_breakdown(results), latency_over_time(results), panel_line(results)):
        if line:
            log(line)
    views = sum(r["views"] for r in results)
    claimed_marks = sum(r.get("marks", 0) for r in results)
    log(
        f"views received: {views} ({views / seconds:.0f}/s), and {claimed_marks} claimed marks "
        f"instead of views; errors by kind: {dict(errors) or 'none'}"
    )
    if "go" in marks and "done" in marks:
        (start, t0), (end, t1) = marks["go"], marks["done"]
        clients = [r.get("cpu_s") for r in results]
        line = cpu.per_action(
            start,
            end,
            actions=summary["actions"],
            wall_s=t1 - t0,
            clients_s=sum(clients) if all(c is not None for c in clients) else None,
        )
        if line:
            log(line)
    return summary
