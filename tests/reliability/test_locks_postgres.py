"""Row locks on PostgreSQL: a round's end and a game dealt at a table do not deadlock.

The round's end locks the workshop, the round, then every table; an action that
ends a game locks its table and deals the next game, whose row refers to the round
(a key-share lock on it). Locked FOR UPDATE, the round made that insert wait while
the round's end waited for the table: a deadlock (seen in CI). FOR NO KEY UPDATE
excludes the other services' locks just the same but lets the insert through.
"""

from __future__ import annotations

import pytest
from fault_cluster import fresh_database, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)


def test_a_new_game_referring_to_a_locked_round_does_not_wait(postgres_url, redis_url):
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, "barnga_locks")
    result = run_python(
        running_round(
            """
        import threading, time
        from django.db import connection, transaction
        from tournament import services
        from tournament.models import Game, GameState, Round, Table
        from tournament.services.play import game_start
        from tournament.services.rounds import _lock_round

        rnd = Round.objects.filter(workshop=w).order_by("-number").first()
        table = Table.objects.filter(workshop=w).order_by("number").first()

        locked, release = threading.Event(), threading.Event()

        def round_end_holding_its_locks():
            with transaction.atomic():
                _lock_round(rnd.pk)  # what round_finalise takes first
                locked.set()
                release.wait(10)
            connection.close()

        holder = threading.Thread(target=round_end_holding_its_locks)
        holder.start()
        locked.wait(10)
        started = time.monotonic()
        with transaction.atomic():
            t = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
            Game.objects.filter(table=t, state=GameState.PLAYING).update(state=GameState.OVER)
            game = game_start(table=t, rnd=Round.objects.get(pk=rnd.pk))
        waited = time.monotonic() - started
        release.set()
        holder.join()
        result = {"waited": waited, "dealt": game is not None}
        """,
            tables=2,
            seats=3,
        ),
        {**env, "DATABASE_URL": url},
    )
    assert result["dealt"]
    # The holder keeps its locks for up to 10 s: a wait means the insert was blocked.
    assert result["waited"] < 3, result
