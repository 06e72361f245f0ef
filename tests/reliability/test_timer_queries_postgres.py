"""The timer loop's reads do not grow with the database's history, on PostgreSQL.

Every web process ticks once a second. Finished workshops keep their players at
their last tables (bots among them) and their games, so a tick that scanned for
seated bots or for games in play read more every week. Here the rows each of the
tick's queries reads (its plans run with EXPLAIN ANALYZE, sequential scans off so
that the indexes decide) are counted before and after 30 finished workshops are
added: no more than before. bench/tick.py times a tick the same way at a larger scale.
"""

from __future__ import annotations

import pytest
from fault_cluster import create_template, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)


def test_a_ticks_reads_do_not_grow_with_finished_workshops(postgres_url, redis_url):
    env = {"REDIS_URL": redis_url, "BARNGA_RUN_TIMERS": "0"}
    url = create_template(postgres_url, "barnga_timer_queries", env)
    result = run_python(
        running_round(
            """
        import json
        from django.db import connection
        from django.test.utils import CaptureQueriesContext
        from bench.tick import add_history
        from tournament import timers
        from tournament.models import Player

        # One seat of the live workshop left: the tick looks for bots to play it.
        Player.objects.filter(workshop=w, seat=1).update(has_left=True)

        def rows(plan):
            n = 0
            if "Relation Name" in plan:
                loops = plan.get("Actual Loops", 1)
                n += (plan.get("Actual Rows", 0) + plan.get("Rows Removed by Filter", 0)) * loops
            for child in plan.get("Plans", []):
                n += rows(child)
            return n

        def reads():
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
            with CaptureQueriesContext(connection) as captured:
                report = timers.tick(bot_delay=10**6)  # no bot acts: the reads alone
            assert report.bot_actions == 0
            per_query = []
            with connection.cursor() as cursor:
                cursor.execute("SET enable_seqscan = off")
                for q in captured.captured_queries:
                    if not q["sql"].startswith("SELECT"):
                        continue
                    cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + q["sql"])
                    plan = cursor.fetchone()[0]
                    plan = json.loads(plan) if isinstance(plan, str) else plan
                    per_query.append(rows(plan[0]["Plan"]))
                cursor.execute("RESET enable_seqscan")
            return per_query

        before = reads()
        added = add_history(30, tables=4, seats=5, games=10)
        after = reads()
        result = {"before": before, "after": after, "added": added}
        """,
            tables=2,
            seats=5,
        ),
        {**env, "DATABASE_URL": url},
    )
    assert result["added"] == {"players": 600, "games": 1200}
    # Every query of the tick ran (rounds, claim time-outs, the seats bots play at
    # tables in play, those games, their last actions, autopilot) and read no more
    # rows than before. A plan may change with the tables' statistics; a query that
    # scanned the history would read more: it added 30 rounds, 600 seated players
    # (240 of them bots or players who left) and 1,200 finished games.
    assert len(result["before"]) == len(result["after"]) == 6
    grew = [(b, a) for b, a in zip(result["before"], result["after"], strict=True) if a > b]
    assert grew == [], result
