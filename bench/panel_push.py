"""What a late join costs the facilitator's panel at a conference's size, in a browser.

    .venv/bin/python bench/panel_push.py [--players 200] [--tables 40] [--joins 3] [--away 0]

A late join (as a removal, a rename or a PIN rejoin) pushes the panel its whole
Players list. This starts one Daphne process on this settings' database (set
REDIS_URL: the joins are made here and must reach the server's sockets), puts
`--players` players at `--tables` tables of 5 in a scored round, opens the panel in
Chromium at a phone's size (BARNGA_CHROMIUM names the executable; else Playwright's
own), and makes `--joins` late joins, 4 s apart. For each it reads from the page the
push that carried the list (its size) and the page's long tasks (the main thread busy
over 50 ms: a panel that does not answer a tap). Prints one JSON line: the first
load (the page's HTML bytes, its elements, the long tasks until 3 s after it was
live), the push's size, each join's long tasks in ms, and the longest. `--away`
players' phones are not connected (their tables wait, said in the status). The
workshop and its facilitator are deleted afterwards, and the server's log with them.

Before the players' tools were drawn on opening their box (_roster.html), a push of
200 rows froze this machine's panel 1.0 to 2.4 s, about 250 ms after it came:
Chromium's autofill (a task posted from autofill_agent.cc,
ExtractFormsAndNotifyPasswordAutofillAgent) laid the whole page out again for each of
the 200 rename forms. Those tools, then in a <template> of each row, were nearly half
of the page: a first load of 442 kB of HTML (4,663 elements), a push of 376-380 kB.
Drawn from one template for the whole list (_roster.html, facilitator.js fillTools),
the first load is 231 kB (4,464 elements) and the push 148-149 kB (one run each, on a
shared machine with a load average of 6 to 9 on 2 cores). The sizes are the app's,
the times the machine's: run it on a quiet one.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# In the page before its own script: each push's size, its regions and the time its
# handler took (the regions put in, the clocks restarted), and every long task.
WATCH = """
window.__pushes = [];
window.__longtasks = [];
new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__longtasks.push(Math.round(e.duration))))
  .observe({entryTypes: ['longtask']});
const d = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
Object.defineProperty(WebSocket.prototype, 'onmessage', {
  configurable: true,
  get() { return d.get.call(this); },
  set(fn) { d.set.call(this, (e) => {
    const t0 = performance.now();
    fn(e);
    const ms = performance.now() - t0;
    let regions = [];
    try { regions = Object.keys(JSON.parse(e.data).regions || {}); } catch (x) {}
    window.__pushes.push({bytes: e.data.length, regions, script_ms: Math.round(ms * 10) / 10});
  }); },
});
"""


def workshop(players: int, tables: int, facilitator, *, away: int = 0):
    """A scored round of `players` at `tables` tables of 5; `away` of them, spread over
    the tables, with their phone not connected (a table whose turn is one waits)."""
    from tournament import services
    from tournament.loadtest.run import into_first_round
    from tournament.models import Player

    w = services.workshop_create(
        name=f"Panel push {time.strftime('%H:%M:%S')}",
        table_count=tables,
        seats_per_table=5,
        round_seconds=3600,
        study_seconds=3600,
        home_seconds=3600,
        facilitator=facilitator,
    )
    for i in range(players):
        services.player_join(workshop_id=w.pk, name=f"Player {i + 1}")
    Player.objects.filter(workshop=w).update(connected=True)
    if away:
        ids = list(Player.objects.filter(workshop=w).order_by("pk").values_list("pk", flat=True))
        step = max(1, len(ids) // away)
        Player.objects.filter(pk__in=ids[::step][:away]).update(connected=False)
    into_first_round(w.pk)
    return w


@contextmanager
def bench_workshop(players: int, tables: int, *, away: int = 0):
    """`workshop`'s workshop and its facilitator, both deleted afterwards: a bench run
    leaves nothing in the database it ran on (it left a workshop of 200 each time)."""
    from tournament import services

    user = bench_user()
    w = None
    try:
        w = workshop(players, tables, user, away=away)
        yield w, user
    finally:
        if w is not None:
            services.workshop_delete(workshop_id=w.pk, facilitator=user)
        user.delete()


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "barnga.settings")
    # Playwright's sync API runs an event loop in this thread; the changes made between
    # its calls are ordinary blocking ORM calls (as in tests/e2e/conftest.py).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()


@contextmanager
def panel_page(w, user, *, slowdown: float | None = None, load_timeout: int = 60000):
    """The facilitator's panel of workshop `w`, logged in as `user`, open in Chromium
    at a phone's size (its CPU slowed `slowdown` times) on one Daphne process of its
    own, WATCH in the page, 3 s after it was live."""
    from django.conf import settings
    from django.test import Client
    from playwright.sync_api import sync_playwright

    from tournament.loadtest import servers

    if settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
        raise SystemExit("the changes made here must reach the server: set REDIS_URL")
    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value
    port = servers.free_port()
    url = f"http://127.0.0.1:{port}"
    log_dir = Path(tempfile.mkdtemp(prefix="barnga-panel-bench-"))  # removed afterwards
    proc = servers.start_daphne(port, {"LOG_LEVEL": "WARNING"}, log_dir / "daphne.log")
    try:
        servers.wait_healthy(url, proc, timeout=60)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=os.environ.get("BARNGA_CHROMIUM") or None,
                args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
            )
            try:
                ctx = browser.new_context(
                    viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
                )
                ctx.add_cookies([{"name": "sessionid", "value": session, "url": url}])
                ctx.add_init_script(WATCH)
                page = ctx.new_page()
                if slowdown:
                    cdp = ctx.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
                response = page.goto(f"{url}/workshops/{w.pk}/")
                page.wait_for_selector("#fac-live[data-updated]", timeout=load_timeout)
                page.wait_for_timeout(3000)
                page.first_load = first_load(page, len(response.body()))
                yield page
            finally:
                browser.close()
    finally:
        servers.stop(proc)
        proc.wait(timeout=30)
        shutil.rmtree(log_dir, ignore_errors=True)


def first_load(page, html_bytes: int) -> dict:
    """The page as it came: its HTML's size, its elements, the pushes its socket
    brought when it went live and the long tasks until now (3 s after)."""
    return page.evaluate(
        """(bytes) => ({
        html_bytes: bytes,
        elements: document.getElementsByTagName('*').length,
        pushes_bytes: __pushes.map((p) => p.bytes),
        longtasks_ms: __longtasks.slice(),
        longest_ms: Math.max(0, ...__longtasks),
      })""",
        html_bytes,
    )


def measured(page, change, wait_ms: int) -> dict:
    """What the page saw of `change()` (made here) within `wait_ms`: its pushes and
    its long tasks."""
    page.evaluate("() => { __pushes.length = 0; __longtasks.length = 0; }")
    change()
    page.wait_for_timeout(wait_ms)
    return page.evaluate("() => ({pushes: __pushes, longtasks: __longtasks})")


def bench_user():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(f"bench-{secrets.token_hex(4)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--joins", type=int, default=3)
    parser.add_argument("--away", type=int, default=0, help="players whose phone is away")
    args = parser.parse_args()
    django_setup()
    from tournament import services

    runs = []
    with (
        bench_workshop(args.players, args.tables, away=args.away) as (w, user),
        panel_page(w, user) as page,
    ):
        loaded = page.first_load
        for i in range(args.joins):
            seen = measured(
                page,
                lambda i=i: services.player_join(workshop_id=w.pk, name=f"Late {i + 1}"),
                4000,
            )
            roster = [p for p in seen["pushes"] if "fac-roster" in p["regions"]]
            runs.append(
                {
                    "push_bytes": roster[0]["bytes"] if roster else None,
                    "longtasks_ms": seen["longtasks"],
                }
            )
    longest = max((max(r["longtasks_ms"], default=0) for r in runs), default=0)
    print(
        json.dumps(
            {
                "players": args.players,
                "tables": args.tables,
                "first_load": loaded,
                "push_bytes": max((r["push_bytes"] or 0 for r in runs), default=0),
                "longest_freeze_ms": longest,
                "joins": runs,
            }
        ),
        flush=True,
    )
    return 0 if all(r["push_bytes"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
