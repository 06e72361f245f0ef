"""Pieces every service uses: locking, versions, broadcasting after commit."""

from __future__ import annotations

from collections import Counter

from django.db import connection
from django.utils import timezone

from tournament import broadcast, rawsql
from tournament.errors import InvalidInput, NotFound, StaleAction, WrongPhase
from tournament.models import Phase, Player, Round, RoundState, Table, Workshop


def now():
    return timezone.now()


def lock_workshop(workshop_id: int) -> Workshop:
    """Lock order everywhere: workshop, then round, then tables by number, then the
    players' rows (a key written on one, its name or token, only once its table is
    held: a move's log entry waits for that row while it holds the table).

    Every lock is FOR NO KEY UPDATE: it excludes the other services' locks as FOR
    UPDATE would, but not the key-share lock a new row takes on the rows it refers
    to. (With FOR UPDATE, a game dealt at a table, which refers to the round, waited
    for a round's end holding the round and waiting for that table: a deadlock.)"""
    try:
        return Workshop.objects.select_for_update(no_key=True).get(pk=workshop_id)
    except Workshop.DoesNotExist:
        raise NotFound("That workshop does not exist.") from None


_SHARE_WORKSHOP = "SELECT * FROM tournament_workshop WHERE id = %s FOR SHARE"


def share_workshop(workshop_id: int) -> Workshop:
    """The workshop, locked FOR SHARE: many holders at once (joins), but none beside
    a service that locks it with lock_workshop (a phase change, seating, closing
    joining), which waits for them and they for it. A holder must not update the row.

    SQLite runs one write transaction at a time (IMMEDIATE), so a plain read there."""
    if connection.vendor == "postgresql":
        workshop = rawsql.first(Workshop, _SHARE_WORKSHOP, [workshop_id])
    else:
        workshop = Workshop.objects.filter(pk=workshop_id).first()
    if workshop is None:
        raise NotFound("That workshop does not exist.")
    return workshop


def lock_tables(workshop_id: int) -> list[Table]:
    return list(
        Table.objects.select_for_update(no_key=True)
        .filter(workshop_id=workshop_id)
        .order_by("number")
    )


def get_player(player_id: int) -> Player:
    try:
        return Player.objects.select_related("workshop").get(pk=player_id)
    except (Player.DoesNotExist, ValueError, TypeError):
        raise NotFound("Unknown player.") from None


def bump_table(
    table: Table,
    *,
    barrier: bool = True,
    move: dict | None = None,
    deal: dict | None = None,
    writes=None,
) -> int:
    """Caller holds the table lock. Returns the new version and broadcasts it after commit.

    `move`: the change was one action in the game in progress (possibly its last) and
    nothing else; `deal`: a new game was dealt and nothing else (screencache.game_row).
    The message carries it so every process can follow the table without reading it
    (screencache.follow). `writes` (rawsql.Writes): the update joins them, to be sent
    by the caller, instead of being saved now."""
    table.version += 1
    if barrier:
        table.barrier = table.version
    if writes is None:
        table.save(update_fields=["version", "barrier"])
    else:
        writes.update(Table, {"id": table.pk}, version=table.version, barrier=table.barrier)
    broadcast.table_changed_on_commit(
        workshop_id=table.workshop_id,
        table_id=table.pk,
        version=table.version,
        move=None if move is None else {**move, "barrier": table.barrier},
        deal=None if deal is None else {"game": deal, "barrier": table.barrier},
    )
    return table.version


def bump_workshop(workshop: Workshop, *, phones: bool = True) -> int:
    """Caller holds the workshop lock. `phones=False` when no phone's screen shows
    the change: the phones are not woken (a socket that reads later still gets the
    new version)."""
    workshop.version += 1
    workshop.save(update_fields=["version"])
    broadcast.workshop_changed_on_commit(
        workshop_id=workshop.pk, version=workshop.version, phones=phones
    )
    return workshop.version


MOVED_ON = "The table has moved on since you acted; here is the current state."


def check_version(table: Table, expected: int | None, moved_on: str = MOVED_ON) -> None:
    """Refuse an action decided on a view the table has moved past.

    `expected` is the table version the client saw. Other players' claims do not
    make a claim stale (everyone claims at once), so an action is fresh when
    barrier <= expected <= version. None skips the check (bots and the timer
    act on the state they read under the lock). `moved_on`: what a stale action is
    told (an action that only an earlier moment allowed says so).
    """
    if expected is None:
        return
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise InvalidInput("The version must be a whole number.")
    if expected > table.version:
        raise StaleAction("That view is from the future: please reload.")
    if expected < table.barrier:
        raise StaleAction(moved_on)


def seated_tables(workshop: Workshop) -> dict[int, int]:
    """{player id: table number} for everyone seated in `workshop`."""
    return dict(
        Player.objects.filter(workshop=workshop, table__isnull=False).values_list(
            "pk", "table__number"
        )
    )


def sizes_after(seated: dict[int, int], moves) -> Counter:
    """How many players each table (by number) seats once `moves` ([{"player": id,
    "to": number}]) are made from `seated` ({player id: table number}). A move for
    someone no longer seated (they left since the plan) lapses."""
    target = {m["player"]: m["to"] for m in moves}
    return Counter(target.get(pid, number) for pid, number in seated.items())


def refuse_overfull(kind, sizes: dict[int, int], then: str = "") -> None:
    """Refuse a seating that gives a table (number: players) more players than `kind`
    deals to; `then` says what to do about it."""
    for number, size in sorted(sizes.items()):
        if size > kind.max_seats:
            raise InvalidInput(
                f"Table {number} would have {size} players; at most "
                f"{kind.max_seats} can play a game of {kind.title}.{then}"
            )


def require_phase(workshop: Workshop, *phases: str) -> None:
    if workshop.phase not in phases:
        names = ", ".join(Phase(p).label for p in phases)
        raise WrongPhase(
            f"Not possible during “{Phase(workshop.phase).label}” (only during: {names})."
        )


def current_round(workshop: Workshop, *, lock: bool = False) -> Round | None:
    qs = Round.objects.filter(workshop=workshop).order_by("-number")
    if lock:
        qs = qs.select_for_update(no_key=True)
    return qs.first()


def running_round(workshop: Workshop) -> Round | None:
    rnd = current_round(workshop)
    if rnd is None or rnd.state == RoundState.FINISHED:
        return None
    return rnd
