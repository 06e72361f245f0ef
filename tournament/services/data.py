"""Students' data: deleting a workshop with everything about its students, and retention.

A workshop's students exist only inside it: players (names, PINs, device tokens),
their seats, games and action logs, claims, disputes, gestures and drawings,
movements and seatings all hang off the workshop, its tables or its rounds. No
other row names a student, and students have no accounts or sessions. Deleting
the workshop therefore deletes them all; `workshop_delete` returns how many rows
of each kind went, and the tests check that none is left.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

from django.db import transaction

from tournament import broadcast
from tournament.errors import NotFound
from tournament.models import Game, Player, Workshop
from tournament.services.common import lock_tables, lock_workshop, now


def _delete_workshop(workshop: Workshop) -> dict[str, int]:
    """Caller holds the workshop lock."""
    workshop_id = workshop.pk
    # Lock order: the workshop, its tables (by number), its players, and only then a
    # delete. A move holds its table's lock until it commits and updates its game on
    # the way; a refused move being stored (services.play._keep_refusal) holds its
    # player's row, and its row refers to the game. Deleting the game first and then
    # waiting for that table or player deadlocked with them on PostgreSQL
    # (tests/reliability/test_delete_postgres.py). NO KEY, as every lock; the deletes
    # below then take the rows FOR UPDATE with no move or refusal left to wait for.
    lock_tables(workshop_id)
    list(
        Player.objects.select_for_update(no_key=True)
        .filter(workshop_id=workshop_id)
        .values_list("pk", flat=True)
    )
    counts: Counter = Counter()
    # Games first: a game's dealer is protected (PROTECT) from a lone player deletion.
    _, per_model = Game.objects.filter(table__workshop=workshop).delete()
    counts.update(per_model)
    _, per_model = workshop.delete()
    counts.update(per_model)
    # After commit, open sockets hear of a version no row has: they find no workshop
    # or player behind it and close (phones go back to the join page).
    broadcast.workshop_changed_on_commit(workshop_id=workshop_id, version=2**31 - 1)
    return {label.rsplit(".", 1)[-1]: n for label, n in sorted(counts.items()) if n}


@transaction.atomic
def workshop_delete(*, workshop_id: int, facilitator) -> dict[str, int]:
    """The facilitator deletes one of their workshops and everything about its students.

    Anyone else's workshop is NotFound, as if it did not exist. Returns the number
    of rows deleted per model.
    """
    workshop = lock_workshop(workshop_id)
    if facilitator is None or workshop.facilitator_id != getattr(facilitator, "pk", None):
        raise NotFound("That workshop does not exist.")
    return _delete_workshop(workshop)


def expired_workshops(*, days: int, at: datetime | None = None):
    """Workshops created more than `days` days before `at` (default: now)."""
    cutoff = (at or now()) - timedelta(days=days)
    return Workshop.objects.filter(created_at__lt=cutoff).order_by("created_at")


def workshops_purge(*, days: int, at: datetime | None = None, dry_run: bool = False) -> list[dict]:
    """Delete every workshop older than the retention period, one transaction each.

    Returns what was (or, with `dry_run`, would be) deleted: id, name, code,
    creation time, and how many players (people) and bots each had.
    """
    done = []
    for workshop in expired_workshops(days=days, at=at):
        row = {
            "id": workshop.pk,
            "name": workshop.name,
            "code": workshop.code,
            "created_at": workshop.created_at,
            # Students' data: the bots that filled seats are no one's.
            "players": workshop.players.filter(is_bot=False).count(),
            "bots": workshop.players.filter(is_bot=True).count(),
        }
        if not dry_run:
            with transaction.atomic():
                try:
                    _delete_workshop(lock_workshop(workshop.pk))
                except NotFound:  # deleted meanwhile by its facilitator
                    continue
        done.append(row)
    return done
