"""tournament.rawsql.instances: models built from one plain-SQL row equal the ORM's."""

from __future__ import annotations

import pytest
from django.db import transaction
from tournament_helpers import game_at, make_workshop, play_one, tables_of, to_scored_round

from tournament.models import Action, Game, Player, Round, Workshop
from tournament.services import play

pytestmark = pytest.mark.django_db


def same_fields(a, b) -> None:
    assert type(a) is type(b)
    for f in type(a)._meta.concrete_fields:
        assert getattr(a, f.attname) == getattr(b, f.attname), f.attname


def test_an_actions_reads_equal_the_orms_rows():
    w = make_workshop(players=8, tables=2, seats=4)
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    play_one(game, client_action_id="c1")  # JSON, dates and a client id to look up
    pid = Action.objects.get(client_action_id="c1").actor_id
    with transaction.atomic():
        player, table = play._lock_for_action(pid, "c1")
    same_fields(player, Player.objects.get(pk=pid))
    same_fields(player.workshop, Workshop.objects.get(pk=w.pk))
    fresh = Game.objects.get(pk=game.pk)
    same_fields(player._reads.game, fresh)
    same_fields(player._reads.rnd, Round.objects.get(pk=fresh.round_id))
    assert isinstance(player._reads.game.players, list) and player.workshop.created_at.tzinfo
    assert player._reads.seen_client_id is True
    with transaction.atomic():
        assert play._lock_for_action(pid, "never")[0]._reads.seen_client_id is False


def test_instances_are_saved_rows_and_run_init_receivers_when_there_are_any():
    from django.db import connection
    from django.db.models import signals

    from tournament import rawsql

    w = make_workshop(players=4, tables=1, seats=4)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {rawsql.columns(Workshop, 'w')} FROM tournament_workshop w WHERE w.id = %s",
            [w.pk],
        )
        row = cursor.fetchone()
    (plain,) = rawsql.instances(row, Workshop)
    same_fields(plain, Workshop.objects.get(pk=w.pk))
    assert plain._state.adding is False and plain._state.db == "default"
    assert plain == Workshop.objects.get(pk=w.pk)  # same model and primary key
    # A saved row: save() updates it (no second workshop), refresh reads it back.
    plain.name = "Renamed"
    plain.save(update_fields=["name"])
    assert Workshop.objects.count() == 1 and Workshop.objects.get(pk=w.pk).name == "Renamed"
    plain.refresh_from_db()
    assert plain.name == "Renamed"

    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append((sender, instance.pk))

    signals.post_init.connect(receiver, sender=Workshop)
    try:
        (built,) = rawsql.instances(row, Workshop)
    finally:
        signals.post_init.disconnect(receiver, sender=Workshop)
    assert seen == [(Workshop, w.pk)]
    assert built.name != "Renamed" and built._state.adding is False  # the row as read


def test_no_game_in_progress_reads_as_none():
    w = make_workshop(players=4, tables=1, seats=4)
    w.refresh_from_db()
    from tournament import services

    services.players_seat_home(workshop_id=w.pk)
    pid = Player.objects.filter(workshop=w).first().pk
    with transaction.atomic():
        player, _ = play._lock_for_action(pid)
    assert player._reads.game is None and player._reads.rnd is None


def test_writes_fill_what_the_orm_would_and_match_nulls_in_where():
    from datetime import timedelta

    from django.utils import timezone

    from tournament import rawsql
    from tournament.models import Dispute

    w = make_workshop(players=4, tables=1, seats=4)
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    at = timezone.now()
    writes = rawsql.Writes()
    # Not given: final_claims (default list), resolution ("" for a blank CharField),
    # resolved_at, winner (NULL).
    writes.insert(
        Dispute,
        game_id=game.pk,
        trick_index=0,
        opened_at=at,
        deadline=at + timedelta(seconds=9),
        initial_claims=[0, 1, None, 0],
    )
    writes.insert(
        Dispute,
        game_id=game.pk,
        trick_index=1,
        opened_at=at,
        deadline=at,
        initial_claims=[],
        resolved_at=at,
        resolution="timeout",
    )
    # Only the unresolved one matches `resolved_at: None`.
    writes.update(
        Dispute,
        {"game_id": game.pk, "resolved_at": None},
        resolution="unanimous",
        winner=2,
        final_claims=[2, 2, 2, 2],
    )
    assert Dispute.objects.count() == 0  # nothing is sent before send()
    writes.send()
    open_, closed = Dispute.objects.order_by("trick_index")
    assert (open_.initial_claims, open_.final_claims, open_.resolution, open_.winner) == (
        [0, 1, None, 0],
        [2, 2, 2, 2],
        "unanimous",
        2,
    )
    assert open_.resolved_at is None and open_.opened_at == at
    assert (closed.final_claims, closed.resolution, closed.winner) == ([], "timeout", None)
    assert writes.statements == []  # sent once
