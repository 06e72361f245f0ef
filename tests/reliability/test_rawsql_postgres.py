"""tournament.rawsql.instances on PostgreSQL: an action's one-row read of the player,
workshop, game and round gives the same field values as the ORM (JSON, timestamps)."""

from __future__ import annotations

import pytest
from fault_cluster import fresh_database, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)


def test_an_actions_reads_equal_the_orms_rows_on_postgres(postgres_url, redis_url):
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, "barnga_rawsql")
    result = run_python(
        running_round(
            """
        from django.db import transaction
        from tournament import services
        from tournament import gamestate
        from tournament.models import Action, Game, Player, Round, Workshop
        from tournament.services import play

        game = Game.objects.get(state="playing")
        state = gamestate.load_state(game)
        from games import five_tricks
        seat = state.to_act
        card = five_tricks.legal_actions(state, seat)[0]["card"]
        services.game_play(player_id=game.players[seat], card=card, client_action_id="c1")
        pid = Action.objects.get(client_action_id="c1").actor_id
        with transaction.atomic():
            player, table = play._lock_for_action(pid, "c1")
        pairs = [
            (player, Player.objects.get(pk=pid)),
            (player.workshop, Workshop.objects.get(pk=w.pk)),
            (player._reads.game, Game.objects.get(pk=game.pk)),
            (player._reads.rnd, Round.objects.get(pk=game.round_id)),
        ]
        diffs = [
            f"{type(a).__name__}.{f.attname}"
            for a, b in pairs
            for f in type(b)._meta.concrete_fields
            if getattr(a, f.attname) != getattr(b, f.attname)
        ]
        result = {"diffs": diffs, "seen": player._reads.seen_client_id,
                  "players_is_list": isinstance(player._reads.game.players, list)}
        """,
            tables=1,
            seats=4,
        ),
        {**env, "DATABASE_URL": url},
    )
    assert result == {"diffs": [], "seen": True, "players_is_list": True}


def test_a_replay_after_a_cache_miss_equals_the_logs_on_postgres(postgres_url, redis_url):
    """gamestate.load_state reads the actions it has not seen with plain SQL on the
    statement-preparing cursor: on PostgreSQL the payloads come back as the engine
    wants them (dicts, not JSON text), in order, and only those up to the game's seq."""
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, "barnga_replay")
    result = run_python(
        running_round(
            """
        from games import five_tricks
        from tournament import gamestate, services
        from tournament.models import Game

        game = Game.objects.get(state="playing")
        states = [gamestate.load_state(game)]
        for i in range(3):
            state = states[-1]
            seat = state.to_act
            card = five_tricks.legal_actions(state, seat)[0]["card"]
            services.game_play(player_id=game.players[seat], card=card, client_action_id=f"c{i}")
            game.refresh_from_db()
            states.append(gamestate.load_state(game))
        checks = {}
        # Every miss, from nothing and from each earlier state, many times over
        # (psycopg prepares the statement after a few runs).
        for run in range(8):
            for base in range(3):
                gamestate.clear_cache()
                behind = Game.objects.get(pk=game.pk)
                behind.seq = base
                gamestate.remember(behind, states[base])
                checks[(run, base)] = gamestate.load_state(game) == states[3]
        gamestate.clear_cache()
        middle = Game.objects.get(pk=game.pk)
        middle.seq = 2
        result = {
            "all": all(checks.values()),
            "middle": gamestate.load_state(middle) == states[2],
            "log": gamestate.replay_log(game) == states[3],
            "seq": game.seq,
        }
        """,
            tables=1,
            seats=4,
        ),
        {**env, "DATABASE_URL": url},
    )
    assert result == {"all": True, "middle": True, "log": True, "seq": 3}
