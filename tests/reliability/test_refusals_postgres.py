"""Refused moves kept on PostgreSQL (services.play._keep_refusal): the cap of
REFUSALS_KEPT per player and game holds when one player's refusals arrive at the same
instant (two phones, two sockets), each on a connection of its own. Under READ
COMMITTED a count then an insert let every one of them see room for one more."""

from __future__ import annotations

import textwrap

import pytest
from fault_cluster import TO_A_FORBIDDEN_CARD, fresh_database, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)

THREADS = 40


def test_refusals_at_the_same_instant_keep_no_more_than_the_cap(postgres_url, redis_url):
    # A pool as large as the threads: none waits for a connection, all count at once.
    env = {"REDIS_URL": redis_url, "DB_POOL_SIZE": str(THREADS + 8)}
    url = fresh_database(postgres_url, "barnga_refusals")
    result = run_python(
        running_round(
            TO_A_FORBIDDEN_CARD
            + textwrap.dedent(f"""
        import threading
        from django.db import connection
        from tournament import services
        from tournament.errors import IllegalMove
        from tournament.models import Game, RefusedAttempt
        from tournament.services import play
        from tournament.limits import REFUSALS_KEPT

        game = Game.objects.get(state="playing")
        seat, bad = to_a_forbidden_card(game)
        player = game.players[seat]

        def at_once(call):
            # `call` from every thread, each on a connection of its own, released
            # together; how many raised IllegalMove (the student told why).
            barrier = threading.Barrier({THREADS})
            told = []

            def run():
                try:
                    barrier.wait(30)
                    call()
                except IllegalMove:
                    told.append(1)
                finally:
                    connection.close()

            threads = [threading.Thread(target=run) for _ in range({THREADS})]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert not any(t.is_alive() for t in threads), "a thread hung"
            return len(told)

        # The whole move, as phones send it: each thread waits for the table's lock in
        # turn, then stores its refusal beside the threads released just before it.
        told = at_once(lambda: services.game_play(player_id=player, card=bad))
        kept = RefusedAttempt.objects.filter(game=game, player_id=player)
        # The storing alone, every thread at the same instant (from 0 kept): another
        # seat's refusal of the same move, as _keeps_refusals hands it over.
        record = kept.values(
            *[f.attname for f in RefusedAttempt._meta.concrete_fields if not f.primary_key]
        )[0]
        other = (seat + 1) % len(game.players)
        record.update(player_id=game.players[other], seat=other)
        at_once(lambda: play._keep_refusal(dict(record)))
        result = {{
            "told": told,
            "kept": kept.count(),
            "kept_at_once": RefusedAttempt.objects.filter(
                game=game, player_id=game.players[other]
            ).count(),
            "cap": REFUSALS_KEPT,
        }}
        """),
            tables=1,
            seats=4,
            mode="referee",
        ),
        {**env, "DATABASE_URL": url},
    )
    # Every student was told; the report kept exactly the cap, not one row more.
    assert result == {"told": THREADS, "kept": 20, "kept_at_once": 20, "cap": 20}, result
