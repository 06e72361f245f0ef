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
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--pauses", type=int, default=3)
    parser.add_argument("--slowdown", type=float, default=4)
    parser.add_argument("--away", type=int, default=0, help="players whose phone is away")
    args = parser.parse_args()
    from panel_push import bench_workshop, django_setup, measured, panel_page

    django_setup()
    from tournament import services
    from tournament.models import Round

    runs = []
    with (
        bench_workshop(args.players, args.tables, away=args.away) as (w, user),
        panel_page(w, user, slowdown=args.slowdown, load_timeout=120000) as page,
    ):
        loaded = page.first_load
        rnd = Round.objects.filter(workshop=w).order_by("-pk").first()
        steps = [("pause", services.round_pause), ("resume", services.round_resume)]
        for _ in range(args.pauses):
            for name, step in steps:
                seen = measured(page, lambda step=step: step(round_id=rnd.pk), 3000)
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
    print(
        json.dumps(
            {
                "players": args.players,
                "tables": args.tables,
                "slowdown": args.slowdown,
                "away": args.away,
                "first_load": loaded,
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
