"""Data migrations, run on rows the services made."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from tournament_helpers import game_at, make_workshop, tables_of, to_scored_round

from tournament import services
from tournament.models import Game

pytestmark = pytest.mark.django_db


def test_games_cut_before_cut_by_was_recorded_are_given_what_cut_them():
    """0009: a game followed by another at its table in the same round was cut when a
    player left (the table was dealt again); the last one by the round's end."""
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    t1, _ = tables_of(w)
    services.player_leave(player_id=game_at(t1).players[0], policy="skip")
    services.round_end_now(round_id=rnd.pk)
    recorded = dict(Game.objects.values_list("pk", "cut_by"))
    scored = Game.objects.filter(round=rnd).values_list("cut_by", flat=True)
    assert sorted(scored) == ["player_left", "round_end", "round_end"]
    assert "" not in recorded.values()  # the home round's games: cut when it ended
    Game.objects.update(cut_by="")
    migration = importlib.import_module("tournament.migrations.0009_game_cut_by")
    migration.infer_cut_by(apps, None)
    assert dict(Game.objects.values_list("pk", "cut_by")) == recorded
