"""The timer loop's reads do not grow with the database's history, on PostgreSQL.

Every web process ticks once a second. Finished workshops keep their players at
their last tables (bots among them) and their games, so a tick that scanned for
seated bots or for games in play read more every week. Here the rows each of the
tick's queries reads (its plans run with EXPLAIN ANALYZE, sequential scans off so
that the indexes decide) are counted before and after 30 finished workshops are
added: no more than before. bench/tick.py times a tick the same way at a larger scale.
"""

from __future__ import annotations

import textwrap

import pytest
from fault_cluster import RUNNING_ROUND, fresh_database, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)

# Run after the set-up of a running round (fault_cluster.running_round): `reads()`
# counts the rows each of a tick's SELECTs reads.
READS = """
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

def returned():
    # How many rows each of a tick's SELECTs hands to Python.
    with CaptureQueriesContext(connection) as captured:
        timers.tick(bot_delay=10**6)
    counts = []
    with connection.cursor() as cursor:
        for q in captured.captured_queries:
            if q["sql"].startswith("SELECT"):
                cursor.execute(q["sql"])
                counts.append(len(cursor.fetchall()))
    return counts

"""


def tick_probe(postgres_url: str, redis_url: str, name: str, code: str) -> dict:
    """Run READS and then `code` (which sets `result`; dedented) after a running round
    of 2 tables of 5, in a database of its own; the timer loop itself does not run."""
    env = {"REDIS_URL": redis_url, "BARNGA_RUN_TIMERS": "0"}
    url = fresh_database(postgres_url, name)
    return run_python(
        running_round(READS + textwrap.dedent(code), tables=2, seats=5),
        {**env, "DATABASE_URL": url},
    )


def grew(result: dict) -> list:
    return [(b, a) for b, a in zip(result["before"], result["after"], strict=True) if a > b]


def test_a_ticks_reads_do_not_grow_with_finished_workshops(postgres_url, redis_url):
    result = tick_probe(
        postgres_url,
        redis_url,
        "barnga_timer_queries",
        """
        before = reads()
        added = add_history(30, tables=4, seats=5, games=10)
        after = reads()
        result = {"before": before, "after": after, "added": added}
        """,
    )
    assert result["added"] == {"players": 600, "games": 1200}
    # Every query of the tick ran (rounds, claim time-outs, the seats bots play at
    # tables in play, those games, their last actions, autopilot) and read no more
    # rows than before. A plan may change with the tables' statistics; a query that
    # scanned the history would read more: it added 30 rounds, 600 seated players
    # (240 of them bots or players who left) and 1,200 finished games.
    assert len(result["before"]) == len(result["after"]) == 6
    assert grew(result) == [], result


def test_a_ticks_reads_do_not_grow_with_tables_in_play_where_nobody_is_automated(
    postgres_url, redis_url
):
    """A class in play where a player has left: every process's tick looks for the
    games bots must play for them. It loaded every game in play (and its state) to
    find those, every second: in a database the load tests had used, a tick took 22
    ms, against 5 over history alone (bench/figures.sh). Counted here: the rows each
    of the tick's queries hands to Python, before and after another class's 8 tables
    start playing. (The search for the automated seats itself reads the players at
    tables in play, in SQL: about one row per player in play.)"""
    result = tick_probe(
        postgres_url,
        redis_url,
        "barnga_timer_queries_live",
        textwrap.dedent(
            """
            from tournament.models import Game, GameState
            before = returned()
            # Another class, 8 tables in play, nobody left and no bots (w is now that one).
            """
        )
        + RUNNING_ROUND.format(tables=8, seats=5, mode="barnga")
        + textwrap.dedent(
            """
            in_play = Game.objects.filter(state=GameState.PLAYING).count()
            after = returned()
            result = {"before": before, "after": after, "in_play": in_play}
            """
        ),
    )
    assert result["in_play"] == 10  # the 2 tables of the class with players gone, and 8
    # rounds, claim time-outs, the automated seats, their games, their last actions,
    # autopilot: the 2 seats that left and their 2 games, before and after.
    assert len(result["before"]) == len(result["after"]) == 6
    assert result["before"][2:4] == [2, 2], result
    assert grew(result) == [], result
