"""Connect storms against real servers: a crowd joining, and every phone reconnecting at once.

    .venv/bin/python bench/storms.py joins [--joiners 200] [--within 10] [--servers 2]
    .venv/bin/python bench/storms.py reconnect [--sockets 500] [--servers 2]

Like `manage.py loadtest`, it starts Daphne processes on this settings' database
(set DATABASE_URL and REDIS_URL for PostgreSQL and Redis), prepares a workshop through
the services and drives real clients from a separate process, then prints one JSON
line (human-readable notes go to stderr).

joins: a workshop is in a scored round with one player per table; `--joiners`
phones join over HTTP as a phone does (GET the join page, POST the form), spread
evenly over `--within` seconds, and each opens its websocket. A join's time runs
from its POST until its socket shows a view with its table: late joiners are seated
at once. Targets (README): all seated, p95 ≤ 1 s for 200 within 10 s. The servers
keep the default join limits: every join comes from one address, as a room's
phones do behind one NAT.

reconnect: `--sockets` players at tables of 5, all connected; then every socket is
dropped at once (the TCP connection aborted, as when a room's Wi-Fi blinks) and
reconnects straight away. A socket has resynced when its first view after
reconnecting arrives; each view's version is then checked against the database.
Target (README): 500 sockets all resynced within 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import math
import multiprocessing
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TABLE = re.compile(r'class="where">Table (\d+)<')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


# ------------------------------------------------------------------ clients (no Django)
async def http(host: str, port: int, method: str, path: str, headers: dict, body: bytes = b""):
    """One HTTP/1.1 request on its own connection: (status, [(header, value)], body)."""
    reader, writer = await asyncio.open_connection(host, port)
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Connection: close",
        f"Content-Length: {len(body)}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    pairs = [tuple(h.split(": ", 1)) for h in header_lines if ": " in h]
    return int(status_line.split()[1]), pairs, payload


def cookies_of(pairs) -> dict:
    out = {}
    for name, value in pairs:
        if name.lower() == "set-cookie":
            key, _, rest = value.partition("=")
            out[key] = rest.split(";", 1)[0]
    return out


async def join_one(spec: dict, i: int, start: float) -> dict:
    import websockets

    host, port = spec["host"], spec["ports"][i % len(spec["ports"])]
    origin = f"http://{host}:{port}"
    await asyncio.sleep(max(0.0, start + i * spec["gap"] - time.monotonic()))
    result = {"ok": False}
    try:
        # As a phone's browser asks for it: compressed (the GZip middleware).
        status, pairs, body = await http(
            host, port, "GET", f"/join?code={spec['code']}", {"Accept-Encoding": "gzip"}
        )
        if ("Content-Encoding", "gzip") in pairs:
            body = gzip.decompress(body)
        csrf = cookies_of(pairs)["csrftoken"]
        token = TOKEN.search(body.decode()).group(1)
        form = urlencode(
            {"csrfmiddlewaretoken": token, "code": spec["code"], "name": f"Joiner {i + 1}"}
        ).encode()
        posted = time.monotonic()
        status, pairs, body = await http(
            host,
            port,
            "POST",
            "/join",
            {
                "Cookie": f"csrftoken={csrf}",
                "Origin": origin,
                "Content-Type": "application/x-www-form-urlencoded",
            },
            form,
        )
        player_cookie = cookies_of(pairs).get("barnga_player")
        if status != 302 or not player_cookie:
            result["error"] = f"join answered {status}"
            return result
        result["http_ms"] = (time.monotonic() - posted) * 1000
        ws = await websockets.connect(
            f"ws://{host}:{port}/ws/play/",
            origin=origin,
            compression=None,
            ping_interval=None,
            additional_headers=[("Cookie", f"barnga_player={player_cookie}")],
            open_timeout=30,
        )
        try:
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg.get("t") == "view" and TABLE.search(msg["html"]):
                    result.update(ok=True, ms=(time.monotonic() - posted) * 1000)
                    break
        finally:
            await ws.close()
    except Exception as exc:  # reported, counted as not seated
        result["error"] = f"{type(exc).__name__}: {exc}"
    return result


async def joins_client(spec: dict) -> dict:
    start = time.monotonic() + 0.5
    results = await asyncio.gather(*(join_one(spec, i, start) for i in range(spec["joiners"])))
    return {"results": results, "span_s": time.monotonic() - start}


async def reconnect_client(spec: dict, conn) -> dict:
    import websockets

    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(100)

    async def connect(seat: dict):
        # As the phone's script does: retry after 0.5 s, doubling (static/js/live.js).
        backoff = 0.5
        for attempt in range(6):
            try:
                async with gate:
                    ws = await websockets.connect(
                        seat["url"],
                        origin=seat["origin"],
                        compression=None,
                        ping_interval=None,
                        additional_headers=[("Cookie", seat["cookie"])],
                        open_timeout=20,
                    )
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        if msg.get("t") == "view":
                            return ws, msg, time.monotonic()
            except (TimeoutError, OSError, websockets.WebSocketException):
                if attempt == 5:
                    raise
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 8)

    seats = spec["seats"]
    first = await asyncio.gather(*(connect(s) for s in seats), return_exceptions=True)
    failed = sum(isinstance(x, BaseException) for x in first)
    conn.send({"connected": len(seats) - failed})
    await loop.run_in_executor(None, conn.recv)
    dropped = time.monotonic()
    for item in first:  # the network blinks: no closing handshake
        if not isinstance(item, BaseException):
            item[0].transport.abort()
    gate = asyncio.Semaphore(len(seats))  # every phone reconnects at once
    again = await asyncio.gather(*(connect(s) for s in seats), return_exceptions=True)
    out = []
    for seat, item in zip(seats, again, strict=True):
        if isinstance(item, BaseException):
            out.append({"player": seat["player"], "ok": False, "error": repr(item)})
        else:
            ws, msg, at = item
            out.append(
                {"player": seat["player"], "ok": True, "v": msg["v"], "ms": (at - dropped) * 1000}
            )
            await ws.close()
    return {"results": out, "first_failed": failed}


def client_main(kind: str, spec: dict, conn) -> None:
    try:
        if kind == "joins":
            conn.send(asyncio.run(joins_client(spec)))
        else:
            conn.send(asyncio.run(reconnect_client(spec, conn)))
    finally:
        conn.close()


# ------------------------------------------------------------------ the bench (Django)
def start(servers_count: int, env: dict, log_dir: Path):
    from django.conf import settings

    from tournament.loadtest import servers

    if servers_count > 1 and settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith(
        "InMemoryChannelLayer"
    ):
        raise SystemExit("--servers > 1 needs a shared channel layer: set REDIS_URL")
    procs, ports = [], []
    for i in range(servers_count):
        ports.append(servers.free_port())
        procs.append(servers.start_daphne(ports[-1], env, log_dir / f"daphne-{i + 1}.log"))
    for proc, port in zip(procs, ports, strict=True):
        servers.wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=60)
    return procs, ports


def scored_workshop(players: int, *, tables: int):
    from tournament import services
    from tournament.loadtest.run import into_first_round

    w = services.workshop_create(
        name=f"Storm {time.strftime('%H:%M:%S')}",
        table_count=tables,
        seats_per_table=5,
        round_seconds=3600,
        study_seconds=3600,
        home_seconds=3600,
    )
    for i in range(players):
        services.player_join(workshop_id=w.pk, name=f"Seated {i + 1}")
    into_first_round(w.pk)
    w.refresh_from_db()
    return w


def run_client(kind: str, spec: dict, *, between=None) -> dict:
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=client_main, args=(kind, spec, child), daemon=True)
    proc.start()
    child.close()
    try:
        if between is not None:
            between(parent.recv())
            parent.send({"go": True})
        return parent.recv()
    finally:
        proc.join(timeout=30)


def bench_joins(args, ports) -> dict:
    from django.db import connections

    from tournament.models import Player

    tables = math.ceil(args.joiners / 5)
    w = scored_workshop(tables, tables=tables)
    connections.close_all()
    # Joins alternate between the processes, as a proxy without stickiness would send them.
    spec = {
        "host": "127.0.0.1",
        "ports": ports,
        "code": w.code,
        "joiners": args.joiners,
        "gap": args.within / args.joiners,
    }
    out = run_client("joins", spec)
    results = out["results"]
    ms = [r["ms"] for r in results if r["ok"]]
    seated_in_db = Player.objects.filter(
        workshop=w, name__startswith="Joiner ", table__isnull=False
    ).count()
    errors = [r["error"] for r in results if not r["ok"]]
    for e in errors[:5]:
        log(f"join failed: {e}")
    log(
        f"joins sent over {out['span_s']:.1f} s; HTTP part p95 "
        f"{percentile([r['http_ms'] for r in results if 'http_ms' in r], 95):.0f} ms"
    )
    return {
        "joiners": args.joiners,
        "within_s": args.within,
        "seated": len(ms),
        "seated_in_db": seated_in_db,
        "join_p50_ms": round(percentile(ms, 50), 1),
        "join_p95_ms": round(percentile(ms, 95), 1),
        "join_max_ms": round(max(ms or [0]), 1),
        "errors": len(errors),
    }


def bench_reconnect(args, ports) -> dict:
    from django.db import connections

    from tournament.identity import COOKIE, signed_cookie_value
    from tournament.models import Player, Table

    w = scored_workshop(args.sockets, tables=math.ceil(args.sockets / 5))
    seats = []
    for i, (pid, token) in enumerate(
        Player.objects.filter(workshop=w).order_by("pk").values_list("pk", "token")
    ):
        port = ports[i % len(ports)]
        seats.append(
            {
                "player": pid,
                "cookie": f"{COOKIE}={signed_cookie_value(token)}",
                "url": f"ws://127.0.0.1:{port}/ws/play/",
                "origin": f"http://127.0.0.1:{port}",
            }
        )
    connections.close_all()
    out = run_client(
        "reconnect",
        {"seats": seats},
        between=lambda ready: log(f"{ready['connected']} sockets connected; dropping them all"),
    )
    results = out["results"]
    ok = [r for r in results if r["ok"]]
    ms = [r["ms"] for r in ok]
    versions = dict(Table.objects.filter(workshop=w).values_list("pk", "version"))
    table_of = dict(Player.objects.filter(workshop=w).values_list("pk", "table_id"))
    stale = sum(1 for r in ok if r["v"] != versions[table_of[r["player"]]])
    return {
        "sockets": args.sockets,
        "resynced": len(ok),
        "resync_p50_ms": round(percentile(ms, 50), 1),
        "resync_p95_ms": round(percentile(ms, 95), 1),
        "all_resynced_ms": round(max(ms or [0]), 1),
        "stale_views": stale,
        "errors": len(results) - len(ok) + out["first_failed"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="kind", required=True)
    joins = sub.add_parser("joins")
    joins.add_argument("--joiners", type=int, default=200)
    joins.add_argument("--within", type=float, default=10.0)
    reconnect = sub.add_parser("reconnect")
    reconnect.add_argument("--sockets", type=int, default=500)
    for p in (joins, reconnect):
        p.add_argument("--servers", type=int, default=2)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "barnga.settings")
    import django

    django.setup()
    from tournament.loadtest import servers

    log_dir = Path(tempfile.mkdtemp(prefix="barnga-storm-"))
    # The join limits are the shipped defaults: every join here comes from one
    # address, as a room's phones do behind a school's or a venue's NAT.
    env = {"LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING")}
    log(f"starting {args.servers} server process(es); logs in {log_dir}")
    procs, ports = start(args.servers, env, log_dir)
    try:
        figures = bench_joins(args, ports) if args.kind == "joins" else bench_reconnect(args, ports)
    finally:
        for proc in procs:
            servers.stop(proc)
    print(json.dumps(figures), flush=True)
    return 0 if figures["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
