"""Students' data: a facilitator deletes a workshop with everything about its students;
workshops past the retention period are purged by `manage.py purge_workshops`."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone
from security_world import world
from socket_helpers import phone_socket, receive_type
from tournament_helpers import MODELS, finish_trick, game_at, make_workshop, tables_of

from tournament import services
from tournament.errors import NotFound
from tournament.identity import COOKIE, signed_cookie_value
from tournament.models import (
    Action,
    Claim,
    Game,
    Gesture,
    Movement,
    Player,
    Round,
    RoundKind,
    Seating,
    Table,
    TrickRecord,
    Workshop,
)

pytestmark = pytest.mark.django_db(transaction=True)


def rows_of(workshop_id: int) -> dict[str, int]:
    """Every row that belongs to the workshop, per model."""
    by = {
        Workshop: {"pk": workshop_id},
        Table: {"workshop_id": workshop_id},
        Player: {"workshop_id": workshop_id},
        Round: {"workshop_id": workshop_id},
        Game: {"table__workshop_id": workshop_id},
        Action: {"game__table__workshop_id": workshop_id},
        TrickRecord: {"game__table__workshop_id": workshop_id},
        Claim: {"game__table__workshop_id": workshop_id},
        Gesture: {"table__workshop_id": workshop_id},
        Movement: {"round__workshop_id": workshop_id},
        Seating: {"round__workshop_id": workshop_id},
    }
    from tournament.models import Dispute, RefusedAttempt

    by[Dispute] = {"game__table__workshop_id": workshop_id}
    # (Not in MODELS, which assert_refused compares: a refused move is meant to add one.)
    by[RefusedAttempt] = {"workshop_id": workshop_id}
    assert set(by) >= set(MODELS), "a model this test does not know holds workshop data"
    return {m.__name__: m.objects.filter(**f).count() for m, f in by.items()}


def refused_in(workshop):
    """A move the table's rules refused, kept with the student's name and reason."""
    from tournament.models import Game, RefusedAttempt

    game = Game.objects.filter(table__workshop=workshop).order_by("pk").first()
    RefusedAttempt.objects.create(
        workshop=workshop,
        round=game.round,
        table=game.table,
        game=game,
        player_id=game.players[0],
        seat=0,
        action={"type": "play", "seat": 0, "card": "2S"},
        reason="You must follow suit: you hold a heart, so you must play a heart.",
        created_at=timezone.now(),
    )


def played_through(workshop):
    """A scored round with tricks, claims, gestures, an end and a movement."""
    from tournament_helpers import to_scored_round

    if Workshop.objects.get(pk=workshop.pk).phase == "lobby":
        to_scored_round(workshop)
    for table in tables_of(workshop):
        finish_trick(game_at(table))
        p = Player.objects.filter(table=table).first()
        services.gesture_make(player_id=p.pk, kind="drawing", payload={"points": [[0.1, 0.2]]})
    rnd = Round.objects.get(workshop=workshop, kind=RoundKind.SCORED)
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)


def test_owner_deletes_a_workshop_and_every_trace_of_its_students():
    w = world()
    played_through(w.mine)
    refused_in(w.mine)
    before = rows_of(w.mine.pk)
    assert all(
        before[m]
        for m in (
            "RefusedAttempt",
            "Player",
            "Game",
            "Action",
            "TrickRecord",
            "Claim",
            "Gesture",
            "Movement",
            "Seating",
        )
    )
    others = rows_of(w.other.pk)
    names = list(Player.objects.filter(workshop=w.mine).values_list("name", flat=True))

    alice = w.facilitator(w.alice)
    url = f"/workshops/{w.mine.pk}/delete/"
    page = alice.get(url)
    assert page.status_code == 200 and b"for good" in page.content
    # The confirmation must be the join code: anything else deletes nothing.
    wrong = alice.post(url, {"confirm": "yes"})
    assert wrong.status_code == 400 and b"Nothing was deleted" in wrong.content
    assert rows_of(w.mine.pk) == before
    # Another facilitator, or a student, cannot delete it even with the code.
    assert w.facilitator(w.bob).post(url, {"confirm": w.mine.code}).status_code == 404
    assert w.student_client().post(url, {"confirm": w.mine.code}).status_code == 302  # to login
    assert rows_of(w.mine.pk) == before

    done = alice.post(url, {"confirm": w.mine.code.lower()})
    assert done.status_code == 303 and done["Location"] == "/"
    assert all(n == 0 for n in rows_of(w.mine.pk).values()), rows_of(w.mine.pk)
    assert rows_of(w.other.pk) == others  # Bob's workshop untouched
    for name in names:
        assert not Player.objects.filter(name=name, workshop__facilitator=w.alice).exists()
    # The students' phones lose their seat; their old cookies open nothing.
    r = Client()
    r.cookies[COOKIE] = signed_cookie_value(w.student.token)
    assert r.get("/play/")["Location"] == "/join"
    assert alice.get(f"/workshops/{w.mine.pk}/report.json").status_code == 404


def test_delete_service_refuses_anyone_but_the_owner():
    w = world()
    before = rows_of(w.mine.pk)
    for who in (w.bob, None):
        with pytest.raises(NotFound):
            services.workshop_delete(workshop_id=w.mine.pk, facilitator=who)
    assert rows_of(w.mine.pk) == before
    counts = services.workshop_delete(workshop_id=w.mine.pk, facilitator=w.alice)
    assert counts["Player"] == before["Player"] and counts["Workshop"] == 1


@pytest.mark.asyncio
async def test_open_sockets_close_when_their_workshop_is_deleted():
    w = await database_sync_to_async(world)()
    comm = phone_socket(w.student)
    assert (await comm.connect())[0]
    await receive_type(comm, "view", timeout=3)
    await database_sync_to_async(services.workshop_delete)(
        workshop_id=w.mine.pk, facilitator=w.alice
    )
    while True:
        out = await comm.receive_output(timeout=3)
        if out["type"] == "websocket.close":
            break
    assert out["code"] == 4401  # the page goes back to the join form


def test_purge_command_deletes_workshops_past_retention(settings):
    settings.BARNGA_RETENTION_DAYS = 30
    old = make_workshop(players=4, tables=1, seats=4)
    played_through(old)
    middle = make_workshop(players=2, tables=1, seats=4, seed=3)
    fresh = make_workshop(players=2, tables=1, seats=4, seed=5)
    now = timezone.now()
    Workshop.objects.filter(pk=old.pk).update(created_at=now - timedelta(days=31))
    Workshop.objects.filter(pk=middle.pk).update(created_at=now - timedelta(days=10))
    fresh_rows = rows_of(fresh.pk)

    out = StringIO()
    call_command("purge_workshops", "--dry-run", stdout=out)
    assert f"Would delete workshop {old.pk}" in out.getvalue()
    assert "Would delete 1 workshop(s) older than 30 day(s)." in out.getvalue()
    assert rows_of(old.pk)["Workshop"] == 1  # a dry run deletes nothing

    out = StringIO()
    call_command("purge_workshops", stdout=out)
    assert "Deleted 1 workshop(s)" in out.getvalue()
    assert all(n == 0 for n in rows_of(old.pk).values())
    assert Workshop.objects.filter(pk=middle.pk).exists()
    assert rows_of(fresh.pk) == fresh_rows

    assert f"workshop {old.pk} “{old.name}” ({old.code}), created " in out.getvalue()
    assert out.getvalue().count("4 player(s)\n") == 1

    # --days overrides the setting; the setting itself is what a bare run uses. A bot
    # is counted as one, not as one of the students whose data goes.
    Player.objects.filter(pk=middle.players.order_by("pk").first().pk).update(is_bot=True)
    out = StringIO()
    call_command("purge_workshops", "--days", "7", stdout=out)
    assert f"workshop {middle.pk} “{middle.name}”" in out.getvalue()
    assert ", 1 player(s) and 1 bot(s)\n" in out.getvalue()
    assert not Workshop.objects.filter(pk=middle.pk).exists()
    settings.BARNGA_RETENTION_DAYS = 0
    with pytest.raises(Exception, match="at least one day"):
        call_command("purge_workshops", stdout=StringIO())
    assert Workshop.objects.filter(pk=fresh.pk).exists()
    for days in ("1000000", "99999999999"):  # back past year 1: refused, not a traceback
        with pytest.raises(CommandError, match="at most 36,500 days"):
            call_command("purge_workshops", "--days", days, "--dry-run", stdout=StringIO())
    assert Workshop.objects.filter(pk=fresh.pk).exists()
