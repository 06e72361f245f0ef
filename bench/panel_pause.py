"""What a pause and a resume cost the facilitator's panel at a conference's size, in a
browser with its CPU slowed down (a phone's stand-in).

    .venv/bin/python bench/panel_pause.py [--players 200] [--tables 40] [--pauses 3] [--slowdown 4]

As bench/panel_push.py (its workshop, its Daphne process: set REDIS_URL), then
`--pauses` times a pause and a resume, 3 s apart, with Chromium's CPU slowed
`--slowdown` times (DevTools' CPU throttling). For each it reads from the page the
push that carried the status (its size and the time the page's script took to put
it in) and the page's long tasks. Prints one JSON line: the largest status push,
the longest script time and the longest long task, and every step.

The status held every table's secret sheet, folded, until they became a region of
their own (facilitator/_settings.html): at 40 tables a pause's push went from 9.4 to
2.5 kB. The script times are the machine's and vary with its load (on a shared one,
13 to 300 ms for the same push): run it on a quiet one, and more than once.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--pauses", type=int, default=3)
    parser.add_argument("--slowdown", type=float, default=4)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "barnga.settings")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # as panel_push.py
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from panel_push import workshop
    from playwright.sync_api import sync_playwright

    from tournament import services
    from tournament.loadtest import servers
    from tournament.models import Round

    if settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
        raise SystemExit("the pauses made here must reach the server: set REDIS_URL")
    user = get_user_model().objects.create_user(f"bench-{secrets.token_hex(4)}")
    w = workshop(args.players, args.tables, user)
    rnd = Round.objects.filter(workshop=w).order_by("-pk").first()
    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value

    port = servers.free_port()
    url = f"http://127.0.0.1:{port}"
    log_dir = Path(tempfile.mkdtemp(prefix="barnga-panel-pause-"))
    proc = servers.start_daphne(port, {"LOG_LEVEL": "WARNING"}, log_dir / "daphne.log")
    runs = []
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
                cdp = ctx.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.slowdown})
                page.goto(f"{url}/workshops/{w.pk}/")
                page.wait_for_selector("#fac-live[data-updated]", timeout=120000)
                page.wait_for_timeout(3000)
                steps = [("pause", services.round_pause), ("resume", services.round_resume)]
                for _ in range(args.pauses):
                    for name, step in steps:
                        page.evaluate("() => { __pushes.length = 0; __longtasks.length = 0; }")
                        step(round_id=rnd.pk)
                        page.wait_for_timeout(3000)
                        seen = page.evaluate("() => ({pushes: __pushes, longtasks: __longtasks})")
                        status = [p for p in seen["pushes"] if "fac-status" in p["regions"]]
                        runs.append(
                            {
                                "step": name,
                                "pushes": seen["pushes"],
                                "status_bytes": status[0]["bytes"] if status else None,
                                "script_ms": status[0]["script_ms"] if status else None,
                                "longtasks_ms": seen["longtasks"],
                            }
                        )
            finally:
                browser.close()
    finally:
        servers.stop(proc)
    print(
        json.dumps(
            {
                "players": args.players,
                "tables": args.tables,
                "slowdown": args.slowdown,
                "status_bytes": max((r["status_bytes"] or 0 for r in runs), default=0),
                "script_ms": max((r["script_ms"] or 0 for r in runs), default=0),
                "longest_freeze_ms": max(
                    (max(r["longtasks_ms"], default=0) for r in runs), default=0
                ),
                "steps": runs,
            }
        ),
        flush=True,
    )
    return 0 if all(r["status_bytes"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
