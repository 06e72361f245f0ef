"""Joins on PostgreSQL run side by side: they share the workshop's lock.

A class joining at once used to queue on the workshop row one join at a time (the
200-joins benchmark spent most of a join's time in that queue). Now a join takes
the row FOR SHARE: joins do not wait for each other, a phase change still waits for
the joins in progress, and the database's unique constraints keep names (ignoring
case and accents) apart when two joins pick the same at once; join orders come
from the rows' id sequence, so they never collide.
"""

from __future__ import annotations

import pytest
from fault_cluster import fresh_database, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)


def test_a_join_does_not_wait_for_another_join_but_a_phase_change_does(postgres_url, redis_url):
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, "barnga_joins_wait")
    result = run_python(
        """
        import threading, time
        from django.db import connection, transaction
        from tournament import services
        from tournament.models import Workshop
        from tournament.services.common import share_workshop

        w = services.workshop_create(name="Joins", table_count=2, seats_per_table=3, seed=1)
        holding, release = threading.Event(), threading.Event()

        def a_slow_join():
            with transaction.atomic():
                share_workshop(w.pk)  # what player_join takes first
                holding.set()
                release.wait(10)
            connection.close()

        holder = threading.Thread(target=a_slow_join)
        holder.start()
        holding.wait(10)
        started = time.monotonic()
        services.player_join(workshop_id=w.pk, name="Quick")
        join_waited = time.monotonic() - started

        phase = {}
        def close_joining():
            t0 = time.monotonic()
            services.workshop_set_joining(workshop_id=w.pk, locked=True)
            phase["waited"] = time.monotonic() - t0
            connection.close()

        closer = threading.Thread(target=close_joining)
        closer.start()
        time.sleep(1.0)
        phase["done_while_held"] = "waited" in phase
        release.set()
        holder.join()
        closer.join()
        result = {"join_waited": join_waited, **phase,
                  "locked": Workshop.objects.get(pk=w.pk).joining_locked}
        """,
        {**env, "DATABASE_URL": url},
    )
    # The holder keeps its shared lock for up to 10 s.
    assert result["join_waited"] < 3, result
    assert result["done_while_held"] is False, result
    assert result["waited"] >= 0.9 and result["locked"], result


def test_simultaneous_joins_get_distinct_names_orders_and_seats(postgres_url, redis_url):
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, "barnga_joins_crowd")
    result = run_python(
        running_round(
            """
        import threading
        from collections import Counter
        from django.db import connection
        from games import kinds
        from tournament import names, services
        from tournament.models import Player


        spellings = ["Alex", "alex", "ÁLEX", "Álex ", "Sam", "sam"]
        gate = threading.Barrier(18)
        errors = []

        def join(i):
            try:
                gate.wait(10)
                services.player_join(workshop_id=w.pk, name=spellings[i % len(spellings)])
            except Exception as exc:
                errors.append(repr(exc))
            finally:
                connection.close()

        threads = [threading.Thread(target=join, args=(i,)) for i in range(18)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        players = list(Player.objects.filter(workshop=w))
        keys = [names.name_key(p.name) for p in players]
        per_table = Counter(p.table_id for p in players)
        seats = Counter((p.table_id, p.seat) for p in players)
        result = {
            "errors": errors,
            "count": len(players),
            "distinct_keys": len(set(keys)),
            "stored_keys_match": all(p.name_key == names.name_key(p.name) for p in players),
            "orders": [p.join_order for p in sorted(players, key=lambda p: p.pk)],
            "unseated": sum(p.table_id is None for p in players),
            "fullest": max(per_table.values()),
            "max_seats": kinds.get(w.game).max_seats,
            "seat_clash": max(seats.values()),
        }
        """,
            tables=4,
            seats=2,
        ),
        {**env, "DATABASE_URL": url},
    )
    assert result["errors"] == [], result
    assert result["count"] == 26
    assert result["distinct_keys"] == 26 and result["stored_keys_match"], result
    # Join orders: one each, increasing with the rows (the late joiners' are their ids).
    assert len(set(result["orders"])) == 26 and result["orders"] == sorted(result["orders"])
    assert result["unseated"] == 0 and result["seat_clash"] == 1, result
    assert result["fullest"] <= result["max_seats"], result


def test_a_nul_in_a_join_code_or_an_action_id_is_bad_input_on_postgresql(postgres_url, redis_url):
    """PostgreSQL refuses a NUL in any text it is sent: a code or an action id with
    one was a 500 (the join) or a dead socket (the action) there, while SQLite
    took it. Each is refused with a sentence, and nothing is written."""
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, "barnga_nul_input")
    result = run_python(
        running_round(
            """
        from django.test import Client
        from tournament import services
        from tournament.errors import ServiceError
        from tournament.models import Action, Player

        before = (Player.objects.count(), Action.objects.count())
        client = Client(HTTP_HOST="localhost")
        joined = client.post("/join", {"code": w.code + "\\x00", "name": "Nul"})
        rejoined = client.post("/join/rejoin", {"code": "\\x00" + w.code, "name": "P01", "pin": "1234"})
        player = Player.objects.filter(workshop=w, table__isnull=False).first()
        try:
            services.game_play(player_id=player.pk, card="AS", expected_version=None,
                               client_action_id="a\\x00b")
            refused = None
        except ServiceError as exc:
            refused = exc.message
        result = {
            "join": joined.status_code, "rejoin": rejoined.status_code,
            "rejoin_text": rejoined.content.decode(), "refused": refused,
            "after": (Player.objects.count() - 1, Action.objects.count()), "before": before,
        }
        """,
            tables=1,
            seats=4,
        ),
        {**env, "DATABASE_URL": url, "ALLOWED_HOSTS": "localhost"},
    )
    # The code read past the NUL is the workshop's: the join goes ahead as "Nul".
    assert result["join"] == 302, result
    assert result["rejoin"] == 400 and "do not match" in result["rejoin_text"], result
    assert "control characters" in result["refused"], result
    assert result["after"] == list(result["before"]), result


def test_two_late_joins_passing_full_tables_in_opposite_orders_do_not_deadlock(
    postgres_url, redis_url
):
    """A late join ranks the tables from counts read unlocked, then locks the first
    and counts again: a table filled meanwhile is passed over. It was passed over
    still locked, so two joins that read the counts apart (joins between them filled
    a table) held one table each while waiting for the other's: "deadlock detected",
    an error page for one student. A full table's lock now goes before the next."""
    url = fresh_database(postgres_url, "barnga_joins_full_tables")
    result = run_python(
        """
        import threading
        from django.db import connection
        from tournament import services
        from tournament.models import Player, Table
        from tournament.services import workshops

        # All Fives seats 2 or 3. Two seated: the automatic seating fills table 1 and
        # leaves table 2 empty (no player alone with no game).
        w = services.workshop_create(name="Joins", game="all_fives", table_count=2,
                                     seats_per_table=3, round_seconds=600, seed=11)
        for i in range(2):
            services.player_join(workshop_id=w.pk, name=f"P{i + 1}")
        services.players_seat_home(workshop_id=w.pk)
        services.workshop_start_study(workshop_id=w.pk)
        services.workshop_start_home(workshop_id=w.pk)
        services.round_start(workshop_id=w.pk)

        # Each late join is held before each table lock it takes (its own thread's hook).
        real_table, local = workshops.Table, threading.local()

        class Objects:
            def filter(self, *args, **kwargs):
                return real_table.objects.filter(*args, **kwargs)

            def select_for_update(self, **kwargs):
                if getattr(local, "hook", None):
                    local.hook()
                return real_table.objects.select_for_update(**kwargs)

        class Held:
            objects = Objects()
            DoesNotExist = real_table.DoesNotExist

        workshops.Table = Held
        counted = {1: threading.Event(), 2: threading.Event()}
        go = threading.Event()
        both_hold_a_full_table = threading.Barrier(2, timeout=5)
        told = {}

        def late(n):
            calls = [0]

            def hook():
                calls[0] += 1
                if calls[0] == 1:  # counts read; about to lock the table ranked first
                    counted[n].set()
                    go.wait(20)
                elif calls[0] == 2:  # that table found full; about to lock the next
                    try:
                        both_hold_a_full_table.wait()
                    except threading.BrokenBarrierError:
                        pass  # the other found a seat or no second table to lock

            local.hook = hook
            try:
                p = services.player_join(workshop_id=w.pk, name=f"Late{n}")
                told[n] = f"seated at {p.table.number}"
            except Exception as exc:
                told[n] = f"{type(exc).__name__}: {exc}"
            finally:
                connection.close()

        first = threading.Thread(target=late, args=(1,))
        first.start()
        assert counted[1].wait(10)  # read table 1: 2, table 2: 0 (table 1 first)
        services.player_join(workshop_id=w.pk, name="Other1")  # table 1 full
        second = threading.Thread(target=late, args=(2,))
        second.start()
        assert counted[2].wait(10)  # read table 1: 3 (full): table 2 first
        for i in range(3):
            services.player_join(workshop_id=w.pk, name=f"Other{i + 2}")  # table 2 full
        go.set()
        first.join(30)
        second.join(30)
        result = {
            "told": told,
            "seated": sorted(
                Player.objects.filter(workshop=w, table__isnull=False)
                .values_list("table__number", flat=True)
            ),
        }
        """,
        {"REDIS_URL": redis_url, "DATABASE_URL": url},
    )
    # Both are told what a full workshop says (a page, not an error), and nothing moved.
    assert result["told"] == {
        "1": "JoiningClosed: Every table is full.",
        "2": "JoiningClosed: Every table is full.",
    }, result
    assert result["seated"] == [1, 1, 1, 2, 2, 2], result
