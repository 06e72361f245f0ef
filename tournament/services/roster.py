"""The facilitator's roster: set a workshop up from the wizard, rename and remove players.

Every function takes the workshop id as well as the player id and refuses a
player of another workshop, so a view that has checked who owns the workshop
cannot be steered into someone else's by a forged player id.
"""

from __future__ import annotations

from django.db import transaction

from tournament import broadcast, names
from tournament.errors import InvalidInput, NotFound, WrongPhase
from tournament.models import Phase, Player, Table, Workshop
from tournament.services.common import bump_table, bump_workshop, lock_workshop, now
from tournament.services.workshops import player_leave, sheets_assign, workshop_create


@transaction.atomic
def workshop_setup(
    *, facilitator, sheets: dict | None = None, **settings
) -> tuple[Workshop, list[str]]:
    """The set-up wizard: create the workshop and, if chosen, its sheets, all or nothing.

    `settings` are workshop_create's keyword arguments. `sheets` maps table numbers
    to a preset name or a knobs dict (tables it leaves out keep their automatic
    sheet). Returns the workshop and sheets_assign's warnings.
    """
    workshop = workshop_create(facilitator=facilitator, **settings)
    warnings: list[str] = []
    if sheets:
        warnings = sheets_assign(workshop_id=workshop.pk, assignment=sheets)
    return workshop, warnings


def _lock_member(workshop: Workshop, player_id) -> Player:
    """The player, locked; NotFound unless they belong to `workshop`. Caller holds its lock."""
    try:
        return Player.objects.select_for_update(no_key=True).get(
            pk=int(player_id), workshop=workshop
        )
    except (Player.DoesNotExist, TypeError, ValueError):
        raise NotFound("That player is not in this workshop.") from None


@transaction.atomic
def player_rename(*, workshop_id: int, player_id: int, name) -> Player:
    """Give a player another name, under the same rules as joining (tournament.names).

    A name another player of the workshop already has (ignoring case and accents)
    is refused rather than numbered: the facilitator chose it on purpose. A player
    who has left, and everyone once the tournament is over, keep their names.
    """
    workshop = lock_workshop(workshop_id)
    player = _lock_member(workshop, player_id)
    # As the panel, which offers no Rename then: a page left open must not either.
    if workshop.phase == Phase.DEBRIEF:
        raise WrongPhase("The tournament is over: names stay as they were played.")
    if player.has_left:
        raise InvalidInput(f"{player.name} has left the workshop: the name stays as it was played.")
    try:
        clean = names.clean_name(name)
    except names.NameError_ as exc:
        raise InvalidInput(str(exc)) from None
    if clean == player.name:
        raise InvalidInput(f"{player.name} already has that name.")
    if names.reserved_for_bots(clean) and not player.is_bot:
        raise InvalidInput(f"“{clean}” is a name the computer players get: choose another.")
    key = names.name_key(clean)
    others = workshop.players.exclude(pk=player.pk).values_list("name", flat=True)
    if any(names.name_key(n) == key for n in others):
        raise InvalidInput(f"Another player is already called “{clean}”.")
    # Lock order: the workshop, the player's row (FOR NO KEY UPDATE), their table, and
    # only then the new name. The name is in a unique index, so writing it locks the
    # row FOR UPDATE, which a move's Action (its foreign key to the mover) waits for
    # when it commits, holding the table's lock: written before the table was locked,
    # the two deadlocked on PostgreSQL (tests/reliability/test_roster_postgres.py).
    # The row's NO KEY lock lets that commit through, and the rename waits for it.
    table = (
        Table.objects.select_for_update(no_key=True).get(pk=player.table_id)
        if player.table_id
        else None
    )
    player.name = clean
    player.save(update_fields=["name"])
    if table is not None:
        # Seat lists show names: the table's screens re-render.
        bump_table(table)
    bump_workshop(workshop)
    return player


@transaction.atomic
def player_kick(*, workshop_id: int, player_id: int) -> None:
    """Remove a player from the workshop.

    In the lobby the player is deleted: nothing was played yet, the name is free
    again, and their phone, finding no player behind its cookie, returns to the
    join page. Later their games must stay in the record, so they leave as the
    workshop's leave policy says: a bot plays their seat, or the seat goes (the game
    in progress at their table is cut and redealt without them); a bot's seat goes
    (Workshop.leave_policy_for). Either way their device's token and their rejoin PIN
    stop working and their socket is closed.
    """
    workshop = lock_workshop(workshop_id)
    player = _lock_member(workshop, player_id)
    if workshop.phase == Phase.DEBRIEF:
        raise WrongPhase("The tournament is over: nobody can be removed now.")
    if workshop.phase == Phase.LOBBY:
        # The table's lock before the delete (a FOR UPDATE of the row), as in Rename.
        table = (
            Table.objects.select_for_update(no_key=True).get(pk=player.table_id)
            if player.table_id
            else None
        )
        player.delete()
        if table is not None:
            bump_table(table)
        bump_workshop(workshop)
        return
    if player.has_left:
        raise InvalidInput(f"{player.name} has already left the workshop.")
    player_leave(player_id=player.pk, policy=workshop.leave_policy_for(is_bot=player.is_bot))
    # No PIN either: a removed player cannot take the seat back by rejoining.
    # Lock order as Rename's: the token is a key, and this write locks the row FOR
    # UPDATE, which a move's commit waits for; player_leave has taken the table's
    # lock (if seated) by now, so no move there is between its lock and its commit.
    Player.objects.filter(pk=player.pk).update(token=names.new_token(), pin="", connected=False)
    broadcast.player_replaced_on_commit(player_id=player.pk, removed=True)


@transaction.atomic
def player_let_back_in(*, workshop_id: int, player_id: int) -> Player:
    """Undo a removal: the player gets a fresh rejoin PIN, which the panel reads out.

    Nothing else changes until the student comes back with it (player_rejoin, their
    name and the PIN on a phone's join page): a bot keeps playing their seat, or the
    seat stays gone, meanwhile. Back, they take their seat from the bot, or sit at
    the smallest table as a late joiner does. Only a person removed after the lobby
    (in the lobby Remove deletes them) and before the debrief.
    """
    workshop = lock_workshop(workshop_id)
    player = _lock_member(workshop, player_id)
    if workshop.phase == Phase.LOBBY:
        raise WrongPhase("In the lobby a removed player is gone: they join again with their name.")
    if workshop.phase == Phase.DEBRIEF:
        raise WrongPhase("The tournament is over: nobody can be let back in now.")
    if player.is_bot:
        raise InvalidInput(f"{player.name} is a bot: only a student can be let back in.")
    if not player.has_left:
        raise InvalidInput(f"{player.name} was not removed: they are still in the workshop.")
    if player.pin:
        raise InvalidInput(
            f"{player.name} can already come back: “Show the rejoin PIN” reads out their PIN."
        )
    # Lock order as Remove's: the workshop, then the player's row (FOR NO KEY UPDATE).
    # The PIN and the time are no keys, so this write takes no stronger lock, and no
    # table's: nothing at the table changes until the student is back.
    player.pin = names.new_pin()
    player.let_in_at = now()
    player.save(update_fields=["pin", "let_in_at"])
    # The panel's row offers the PIN, and the panel and the projector say who came in.
    broadcast.roster_changed_on_commit(workshop_id=workshop.pk)
    return player
