"""tournament.rawsql.instances on PostgreSQL: an action's one-row read of the player,
workshop, game and round gives the same field values as the ORM (JSON, timestamps)."""

from __future__ import annotations

import pytest
from fault_cluster import create_template, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)


def test_an_actions_reads_equal_the_orms_rows_on_postgres(postgres_url, redis_url):
    env = {"REDIS_URL": redis_url}
    url = create_template(postgres_url, "barnga_rawsql", env)
    result = run_python(running_round(
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
        """, tables=1, seats=4),
        {**env, "DATABASE_URL": url},
    )
    assert result == {"diffs": [], "seen": True, "players_is_list": True}
