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


def test_name_keys_are_made_again_without_the_marks_drawn_as_nothing():
    """0012: a key stored with a variation selector in it is made again without, so the
    name counts as the name it looks like, unless another player has that key (twins
    who joined before keep theirs)."""
    from tournament.models import Player

    w = make_workshop(players=0, names=["❤️ Ana", "Alice", "Alice 2", "Bo\u034f"])
    # As the joins before it stored them: "Alice" + U+FE0F was a name of its own.
    Player.objects.filter(workshop=w, name="Alice 2").update(name="Alice\ufe0f")
    old_keys = {"❤️ Ana": "❤\ufe0f ana", "Alice\ufe0f": "alice\ufe0f", "Bo\u034f": "bo\u034f"}
    for name, key in old_keys.items():
        Player.objects.filter(workshop=w, name=name).update(name_key=key)
    migration = importlib.import_module("tournament.migrations.0012_player_name_key_marks")
    migration.rekey(apps, None)
    keys = dict(Player.objects.filter(workshop=w).values_list("name", "name_key"))
    assert keys == {
        "❤️ Ana": "❤ ana",
        "Alice": "alice",
        "Alice\ufe0f": "alice\ufe0f",
        "Bo\u034f": "bo",
    }
