"""`loadtest --facilitator`: the facilitator's panel open through the run.

A measuring aid beside the contract (its JSON line is unchanged): a facilitator
watches the workshop while the bots play, and every move at every table announces a
change to that panel, which its web process redraws (spaced by its render time:
tournament/consumers_facilitator.py) and sends, the regions that changed (of the
monitor, its changed table cards alone), compressed (barnga/deflate.py). The watcher
is a client process of its own that reads the panel's socket as the page's script
would (answering each push with `ack`, as the page does once it has put it in),
offering compression as a browser does, and counts what it was sent; the
latency figures then show what an open panel costs the tables.
"""

from __future__ import annotations

import asyncio
import json
import time

import websockets

ACK = json.dumps({"action": "ack"})  # what the page's script answers each push with


def empty_result() -> dict:
    """A bot client's result with nothing in it (run.summarise adds them all up): a
    bot client with no tables says what that is."""
    from tournament.loadtest.bots import Worker

    return Worker({"mode": "panel", "think_ms": 0, "seconds": 0, "tables": []}).result()


async def watch(spec: dict, conn) -> None:
    loop = asyncio.get_running_loop()
    started = time.monotonic()
    errors: dict[str, int] = {}
    ws = None
    try:
        ws = await websockets.connect(
            spec["url"],
            origin=spec["origin"],
            additional_headers=[("Cookie", spec["cookie"])],
            max_size=None,
            ping_interval=None,
            open_timeout=60,
        )
        await asyncio.wait_for(ws.recv(), 60)  # the first snapshot: the page as drawn
        await ws.send(ACK)
    except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as exc:
        errors[f"panel:{type(exc).__name__}"] = 1
    conn.send({"ready": True, "connect_s": time.monotonic() - started, "errors": errors})
    go = await loop.run_in_executor(None, conn.recv)
    cpu_start = time.process_time()
    pushes = drawn = largest = 0
    if ws is not None and go.get("go"):
        end = time.monotonic() + spec["seconds"]
        while (left := end - time.monotonic()) > 0:
            try:
                text = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            except websockets.exceptions.ConnectionClosed:
                errors["panel:closed"] = 1
                break
            if json.loads(text).get("t") != "regions":
                continue  # (a pong, an error: not a push)
            pushes += 1
            drawn += len(text)
            largest = max(largest, len(text))
            await ws.send(ACK)  # put in: the server may send the next push
    cpu_s = time.process_time() - cpu_start
    if ws is not None:
        await ws.close()
    conn.send(
        {
            **empty_result(),
            "errors": errors,
            "cpu_s": cpu_s,
            "panel": {
                "pushes": pushes,
                "bytes": drawn,
                "largest": largest,
                "seconds": spec["seconds"],
            },
        }
    )


def panel_line(results: list[dict]) -> str | None:
    """A note for stderr: what the facilitator's panel was sent while measured."""
    for r in results:
        if "panel" in r:
            p = r["panel"]
            return (
                f"facilitator panel: {p['pushes']} pushes in {p['seconds']:g} s, "
                f"{p['bytes'] / 1e6:.1f} MB as drawn (largest {p['largest'] / 1e3:.0f} kB; "
                "sent deflated)"
            )
    return None
