"""A workshop deleted (services.data) on PostgreSQL at the instant of a move, or of a
refused move being stored for the report.

The deletion locked only the workshop, then deleted the games, the players and the
tables in turn. A move holding its table's lock then waited to update its game,
which the deletion had deleted, while the deletion waited to delete that table; a
refusal being stored holds the player's row (services.play._keep_refusal), and when
it committed its foreign key waited for the deleted game, while the deletion waited
to delete that player. PostgreSQL cancelled one of the two ("deadlock detected").
The deletion now locks the workshop's tables and players before it deletes anything.
"""

from __future__ import annotations

import textwrap

import pytest
from fault_cluster import (
    TO_A_FORBIDDEN_CARD,
    UNTIL_A_LOCK_WAITS,
    fresh_database,
    run_python,
    running_round,
)

pytestmark = pytest.mark.django_db(transaction=False)

# `hold()` (called from inside a transaction) sets `held` and returns once another
# transaction waits for a lock, or after 5 s: the two are then interleaved as a
# deadlock needs, whichever locks the code takes.
HOLD = (
    UNTIL_A_LOCK_WAITS
    + TO_A_FORBIDDEN_CARD
    + """
from django.db import transaction
from tournament.services import data, play
from tournament.services.common import lock_workshop

held = threading.Event()

def hold():
    held.set()
    until_a_lock_waits()

out = {}

def delete_when_held():
    # What the facilitator's Delete and the retention purge do.
    try:
        assert held.wait(10)
        with transaction.atomic():
            counts = data._delete_workshop(lock_workshop(w.pk))
        out["delete"] = "ok"
        out["refusals_deleted"] = counts.get("RefusedAttempt", 0)
    except Exception as exc:
        out["delete"] = repr(exc)[:300]
    finally:
        connection.close()
"""
)


def _run(postgres_url, redis_url, name: str, code: str, mode: str = "barnga"):
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, name)
    return run_python(
        running_round(HOLD + textwrap.dedent(code), tables=1, seats=4, mode=mode),
        {**env, "DATABASE_URL": url},
    )


def test_a_workshop_deleted_beside_a_move_waits_for_the_move(postgres_url, redis_url):
    result = _run(
        postgres_url,
        redis_url,
        "barnga_delete_move",
        """
        from games import five_tricks
        from tournament import gamestate, services
        from tournament.models import Game, GameState, Workshop

        game = Game.objects.filter(state=GameState.PLAYING, table__workshop=w).first()
        state = gamestate.load_state(game)
        pid = game.players[state.to_act]
        card = five_tricks.legal_actions(state, state.to_act)[0]["card"]

        _active_game = play._active_game
        def held_after_the_table_lock(player, table):
            found = _active_game(player, table)
            hold()
            return found
        play._active_game = held_after_the_table_lock

        t = threading.Thread(target=delete_when_held)
        t.start()
        try:
            services.game_play(player_id=pid, card=card)
            out["move"] = "ok"
        except Exception as exc:
            out["move"] = repr(exc)[:300]
        t.join(30)
        out["left"] = Workshop.objects.filter(pk=w.pk).count()
        result = out
        """,
    )
    # The move made (acknowledged, never cancelled), then the workshop gone.
    assert result == {"move": "ok", "delete": "ok", "refusals_deleted": 0, "left": 0}, result


def test_a_workshop_deleted_beside_a_refusal_waits_for_its_row(postgres_url, redis_url):
    result = _run(
        postgres_url,
        redis_url,
        "barnga_delete_refusal",
        """
        from tournament import services
        from tournament.errors import IllegalMove
        from tournament.models import Game, RefusedAttempt, Workshop

        game = Game.objects.get(state="playing")
        seat, bad = to_a_forbidden_card(game)

        # Held once the refusal holds the player's row, before it writes its own.
        manager = RefusedAttempt.objects
        create = manager.create
        def held_create(**kwargs):
            hold()
            return create(**kwargs)
        manager.create = held_create
        # _keep_refusal logs a refusal it could not store (the student is told anyway).
        play.log.exception = lambda msg, *a, **k: out.setdefault("logged", []).append(msg)

        t = threading.Thread(target=delete_when_held)
        t.start()
        try:
            services.game_play(player_id=game.players[seat], card=bad)
            out["move"] = "not refused"
        except IllegalMove:
            out["move"] = "refused"
        except Exception as exc:
            out["move"] = repr(exc)[:300]
        t.join(30)
        out["left"] = Workshop.objects.filter(pk=w.pk).count()
        out["refusals"] = RefusedAttempt.objects.count()
        result = out
        """,
        mode="referee",
    )
    # The student told why; the refusal stored (nothing logged), then deleted with the
    # workshop.
    assert result == {
        "move": "refused",
        "delete": "ok",
        "refusals_deleted": 1,
        "left": 0,
        "refusals": 0,
    }, result


def test_a_refusal_after_its_players_row_is_deleted_stores_nothing(postgres_url, redis_url):
    result = _run(
        postgres_url,
        redis_url,
        "barnga_delete_then_refusal",
        """
        from tournament import services
        from tournament.errors import IllegalMove
        from tournament.models import Game, RefusedAttempt, Workshop

        game = Game.objects.get(state="playing")
        seat, bad = to_a_forbidden_card(game)
        try:
            services.game_play(player_id=game.players[seat], card=bad)
        except IllegalMove:
            pass
        # The refusal as _keeps_refusals hands it over, once its move has rolled back.
        record = RefusedAttempt.objects.values(
            *[f.attname for f in RefusedAttempt._meta.concrete_fields if not f.primary_key]
        ).get()

        # The deletion holds every lock it took, its rows deleted, until the refusal
        # waits for the player's row; then it commits.
        _delete = data._delete_workshop
        def deleted_then_held(workshop):
            counts = _delete(workshop)
            hold()
            return counts
        data._delete_workshop = deleted_then_held
        play.log.exception = lambda msg, *a, **k: out.setdefault("logged", []).append(msg)

        t = threading.Thread(target=delete_when_held)
        t.start()
        held.set()  # delete_when_held starts at once
        time.sleep(0.5)
        play._keep_refusal(dict(record))
        t.join(30)
        out["left"] = Workshop.objects.filter(pk=w.pk).count()
        out["refusals"] = RefusedAttempt.objects.count()
        result = out
        """,
        mode="referee",
    )
    # The workshop gone with its refusal; the late one found no player and kept
    # nothing, without an error logged.
    assert result == {"delete": "ok", "refusals_deleted": 1, "left": 0, "refusals": 0}, result
