"""What one tick of the timer loop costs as past workshops pile up.

    .venv/bin/python bench/tick.py [--workshops 300] [--tables 8] [--games 40] [--ticks 50]

Every web process runs `tournament.timers.tick` once a second, whatever the class
is doing, so its queries must not grow with the database's history. This adds
`--workshops` finished workshops (their rows written in bulk, as a demo or a class
leaves them: players still at their last tables, bots among them, every game over),
then one live workshop in a scored round whose seats bots fill, and times `--ticks`
ticks with the bots' pause set so that no bot acts (the tick's reads, not the
bots' moves). It runs on this settings' database: set DATABASE_URL for PostgreSQL
(bench/figures.sh does, `bash bench/figures.sh tick`). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


def add_history(workshops: int, *, tables: int, seats: int, games: int) -> dict:
    """Finished workshops, written in bulk: what the tick's queries must not scan."""
    from django.db import transaction
    from django.utils import timezone

    from tournament.models import (
        Game,
        GameState,
        Mode,
        Phase,
        Player,
        Round,
        RoundKind,
        RoundState,
        Table,
        Workshop,
    )

    now = timezone.now()
    counts = {"players": 0, "games": 0}
    for _ in range(workshops):
        with transaction.atomic():
            w = Workshop.objects.create(
                name="past",
                code=secrets.token_hex(4).upper(),
                phase=Phase.DEBRIEF,
                bots_enabled=True,
                table_count=tables,
                seats_per_table=seats,
            )
            ts = Table.objects.bulk_create(
                [Table(workshop=w, number=n + 1, rules={}) for n in range(tables)]
            )
            ps = Player.objects.bulk_create(
                [
                    Player(
                        workshop=w,
                        name=f"P{i}",
                        name_key=f"p{i}",
                        join_order=i + 1,
                        table=ts[i // seats],
                        home_table=ts[i // seats],
                        seat=i % seats,
                        is_bot=i % seats == 0,
                        has_left=i % seats == 1,
                        token=secrets.token_hex(16),
                        pin="1234",
                    )
                    for i in range(tables * seats)
                ]
            )
            r = Round.objects.create(
                workshop=w,
                number=1,
                kind=RoundKind.SCORED,
                scored_number=1,
                state=RoundState.FINISHED,
                started_at=now,
                deadline=now,
                finished_at=now,
            )
            Game.objects.bulk_create(
                [
                    Game(
                        table=t,
                        round=r,
                        number=g + 1,
                        seed=g,
                        dealer=ps[k * seats],
                        players=[p.pk for p in ps[k * seats : (k + 1) * seats]],
                        table_rules={},
                        seat_rules=[],
                        mode=Mode.BARNGA,
                        state=GameState.OVER,
                    )
                    for k, t in enumerate(ts)
                    for g in range(games)
                ]
            )
        counts["players"] += len(ps)
        counts["games"] += tables * games
    return counts


def live_workshop() -> None:
    from tournament import services

    w = services.workshop_create(
        name="live",
        facilitator=None,
        game="five_tricks",
        table_count=8,
        seats_per_table=5,
        round_seconds=3600,
        bots_enabled=True,
    )
    services.bots_fill(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workshops", type=int, default=300)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="games per table")
    parser.add_argument("--ticks", type=int, default=50)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "barnga.settings")
    os.environ.setdefault("BARNGA_RUN_TIMERS", "0")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament import timers

    started = time.monotonic()
    counts = add_history(args.workshops, tables=args.tables, seats=args.seats, games=args.games)
    live_workshop()
    print(f"history written in {time.monotonic() - started:.1f} s: {counts}", file=sys.stderr)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    with CaptureQueriesContext(connection) as captured:  # counted once, not timed
        timers.tick(bot_delay=10**6)
    queries = len(captured.captured_queries)
    timings = []
    for _ in range(args.ticks):
        t0 = time.perf_counter()
        report = timers.tick(bot_delay=10**6)  # no bot acts: the reads alone
        timings.append((time.perf_counter() - t0) * 1000)
        assert report.bot_actions == 0
    print(
        json.dumps(
            {
                "database": connection.vendor,
                "past_workshops": args.workshops,
                "players": counts["players"],
                "games": counts["games"],
                "ticks": args.ticks,
                "tick_p50_ms": round(percentile(timings, 50), 2),
                "tick_p95_ms": round(percentile(timings, 95), 2),
                "queries_per_tick": queries,
            }
        )
    )


if __name__ == "__main__":
    main()
