"""Setting up a workshop: creating it, joining, sheets and home tables, leaving."""

from __future__ import annotations

import itertools
import secrets
import unicodedata
from collections import Counter

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Max
from django.utils import timezone

from games import kinds
from tournament import broadcast, names
from tournament.errors import InvalidInput, JoiningClosed, NotAllowed, NotFound, WrongPhase
from tournament.models import (
    CutBy,
    Game,
    GameState,
    LeavePolicy,
    Mode,
    Phase,
    Player,
    Round,
    RoundKind,
    RoundState,
    Table,
    Workshop,
)
from tournament.services.common import (
    bump_table,
    bump_workshop,
    current_round,
    get_player,
    lock_tables,
    lock_workshop,
    now,
    refuse_overfull,
    require_phase,
    running_round,
    seated_tables,
    share_workshop,
    sizes_after,
)
from tournament.sheet_assignment import AssignmentError, auto_assign, check_assignment

LIMITS = {
    "table_count": (1, 250),
    "seats_per_table": (2, 8),
    "round_seconds": (30, 3600),
    "study_seconds": (30, 3600),
    "home_seconds": (30, 3600),
    "dispute_seconds": (10, 600),
}
GAMES = tuple(kinds.KINDS)
# A join code no workshop has: said by a join, and at once by the join page a QR
# code or a link opened with it (views_play.join).
UNKNOWN_CODE = "No workshop has that code. Check the code on the projector."


def _check_int(field: str, value) -> int:
    low, high = LIMITS[field]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(
            f"{field.replace('_', ' ').capitalize()} must be a whole number from {low} to {high}."
        )
    return value


@transaction.atomic
def workshop_create(
    *,
    name: str,
    facilitator=None,
    game: str = "five_tricks",
    mode: str = Mode.BARNGA,
    table_count: int = 4,
    seats_per_table: int = 5,
    round_seconds: int = 300,
    study_seconds: int = 300,
    home_seconds: int = 180,
    dispute_seconds: int = 45,
    bots_enabled: bool = False,
    leave_policy: str = LeavePolicy.BOT,
    seed: int | None = None,
) -> Workshop:
    """A new workshop in the lobby, its tables each given a different secret sheet."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        raise InvalidInput("A workshop needs a name of 1–100 characters.")
    if names.has_hidden_characters(name):
        # A right-to-left override would turn the rest of every page it is on around.
        raise InvalidInput("A workshop's name cannot contain control or invisible characters.")
    if game not in GAMES:
        raise InvalidInput(f"Unknown game “{game}”.")
    kind = kinds.get(game)
    if mode not in Mode.values:
        raise InvalidInput("The mode is either Barnga or referee.")
    if leave_policy not in LeavePolicy.values:
        raise InvalidInput("When a player leaves, a bot takes the seat or the seat is skipped.")
    values = {
        "table_count": table_count,
        "seats_per_table": seats_per_table,
        "round_seconds": round_seconds,
        "study_seconds": study_seconds,
        "home_seconds": home_seconds,
        "dispute_seconds": dispute_seconds,
    }
    # The game's own range first: a number of seats outside it is answered with the
    # range that game is played in, not only the widest any game allows.
    seats_is_int = isinstance(seats_per_table, int) and not isinstance(seats_per_table, bool)
    if seats_is_int and not kind.min_seats <= seats_per_table <= kind.max_seats:
        raise InvalidInput(
            f"{kind.title} is played by {kind.min_seats}"
            f"{'' if kind.min_seats == kind.max_seats else f' to {kind.max_seats}'} "
            "players: choose that many seats per table."
        )
    for field, value in values.items():
        _check_int(field, value)
    try:
        preset_names = auto_assign(
            table_count, kind.presets, seed if seed is not None else secrets.randbits(32)
        )
    except AssignmentError as exc:
        raise InvalidInput(str(exc)) from None
    workshop = None
    for _ in range(20):
        try:
            with transaction.atomic():
                workshop = Workshop.objects.create(
                    name=name.strip(),
                    facilitator=facilitator,
                    code=names.new_code(),
                    game=game,
                    mode=mode,
                    bots_enabled=bool(bots_enabled),
                    leave_policy=leave_policy,
                    **values,
                )
            break
        except IntegrityError:  # join code already taken: draw another
            continue
    if workshop is None:
        raise InvalidInput("Could not find a free join code; please try again.")
    Table.objects.bulk_create(
        Table(workshop=workshop, number=i + 1, rules=kind.presets[p].to_dict(), preset=p)
        for i, p in enumerate(preset_names)
    )
    return workshop


@transaction.atomic
def sheets_assign(
    *, workshop_id: int, assignment: dict | None = None, seed: int | None = None
) -> list[str]:
    """Give each table its secret sheet; returns warnings for a manual choice.

    `assignment` maps table numbers to a preset name or a knobs dict (a custom
    sheet). None draws a new automatic assignment. Only in the lobby: once
    players have studied a sheet it stays theirs.
    """
    workshop = lock_workshop(workshop_id)
    require_phase(workshop, Phase.LOBBY)
    kind = kinds.get(workshop.game)
    presets = kind.presets
    tables = lock_tables(workshop_id)
    if assignment is None:
        try:
            chosen = auto_assign(
                len(tables), presets, seed if seed is not None else secrets.randbits(32)
            )
        except AssignmentError as exc:
            raise InvalidInput(str(exc)) from None
        new = {t.number: (presets[p], p) for t, p in zip(tables, chosen, strict=True)}
    else:
        if not isinstance(assignment, dict):
            raise InvalidInput("Give a sheet for each table.")
        by_number = {t.number: t for t in tables}
        new = {t.number: (kind.rules_from_dict(t.rules), t.preset) for t in tables}
        for key, value in assignment.items():
            try:
                number = int(key)
            except (TypeError, ValueError):
                raise InvalidInput(f"“{key}” is not a table number.") from None
            if number not in by_number:
                raise InvalidInput(f"There is no table {number}.")
            if isinstance(value, str):
                if value not in presets:
                    raise InvalidInput(f"There is no preset called “{value}”.")
                new[number] = (presets[value], value)
            elif isinstance(value, dict):
                try:
                    new[number] = (kind.rules_from_dict(value), "custom")
                except (ValueError, TypeError) as exc:
                    raise InvalidInput(f"Table {number}: {exc}") from None
            else:
                raise InvalidInput(f"Table {number}: give a preset name or the sheet's knobs.")
    for table in tables:
        rules, preset = new[table.number]
        table.rules = rules.to_dict()
        table.preset = preset
        table.save(update_fields=["rules", "preset"])
        Player.objects.filter(home_table=table).update(rules=table.rules)
        bump_table(table)
    bump_workshop(workshop)
    return check_assignment([new[t.number][0] for t in tables])


@transaction.atomic
def player_join(*, name, code: str | None = None, workshop_id: int | None = None) -> Player:
    """A student joins with a name. Late joiners sit at the smallest table."""
    if workshop_id is None:
        try:
            workshop_id = Workshop.objects.values_list("pk", flat=True).get(
                code=names.normalise_code(code)
            )
        except Workshop.DoesNotExist:
            raise NotFound(UNKNOWN_CODE) from None
    try:
        clean = names.clean_name(name)
    except names.NameError_ as exc:
        raise InvalidInput(str(exc)) from None
    if names.reserved_for_bots(clean):
        raise InvalidInput(
            f"“{clean}” is a name the computer players get. Please join with your own name."
        )
    # Joins share the workshop's lock: a class joining at once no longer queues one
    # join at a time on the workshop row (with 200 joins in 10 s most of a join's
    # time was that queue). Whatever locks the workshop itself (starting, seating,
    # closing joining) still waits for the joins in progress, and they for it.
    workshop = share_workshop(workshop_id)
    if workshop.joining_locked:
        raise JoiningClosed("The facilitator has closed joining for this workshop.")
    if workshop.phase == Phase.DEBRIEF:
        raise JoiningClosed("This workshop has finished.")
    # A late joiner sits at the smallest table at once: below this count no table
    # passes the engine's limit, one more would make a table that cannot be dealt to.
    # (In the lobby the facilitator can still drop players before seating.)
    kind = kinds.get(workshop.game)
    max_seats = kind.max_seats
    if (
        workshop.phase != Phase.LOBBY
        and workshop.players.filter(has_left=False).count() >= workshop.table_count * max_seats
    ):
        raise JoiningClosed("Every table is full.")
    # After the study phase nobody shows them their sheet: their screen does, until
    # they say they have read it.
    late = workshop.phase not in (Phase.LOBBY, Phase.STUDY)
    player = _add_player(workshop, clean, is_bot=False, rules_unread=late)
    if workshop.phase != Phase.LOBBY:
        _seat_at_smallest(workshop, player, kind, home=True)
    # Only the facilitator's roster shows a join (and a holder of the shared lock may
    # not bump the workshop's version): waking every phone for each join made a crowd
    # joining cost N² screen checks.
    broadcast.roster_changed_on_commit(workshop_id=workshop.pk)
    return player


def _seat_at_smallest(workshop: Workshop, player: Player, kind, *, home: bool) -> None:
    """Seat a player who arrives after the lobby (a late joiner, or one back after their
    seat was skipped) at the smallest table, and deal there if they make it playable.
    JoiningClosed when every table is full. Caller holds the workshop's lock."""
    table, seated_before = _smallest_table(workshop, kind.max_seats, _planned_change(workshop))
    _seat(player, table, home=home)
    if seated_before + 1 == kind.min_seats:  # this player makes the table playable
        _deal_if_idle(workshop, table)
    bump_table(table)  # the table's phones list their neighbours


ADD_ATTEMPTS = 50


def _add_player(
    workshop: Workshop, clean_name: str, *, is_bot: bool, rules_unread: bool = False
) -> Player:
    """A new player with a name no other player of the workshop has (ignoring case
    and accents) and the next join order. Caller holds the workshop's lock, shared
    (joins) or its own.

    Joins run side by side on PostgreSQL, so the join order is the new row's id,
    drawn from its sequence first: increasing in the order joins reach the database
    and never the same twice (the roster's largest order + 1, which SQLite's one
    writer at a time keeps dense, made simultaneous joins collide and retry in a
    herd). Two joins may still pick the same name at once: the unique constraint on
    (workshop, name_key) refuses the later one, which reads the names again.
    """
    pk = order = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT nextval(pg_get_serial_sequence('tournament_player', 'id'))")
            pk = order = cursor.fetchone()[0]
    for attempt in range(ADD_ATTEMPTS):
        if pk is None:  # SQLite: one writer at a time, the next order is free
            roster = list(workshop.players.values_list("name_key", "join_order"))
            taken = {key for key, _ in roster}
            order = max((o for _, o in roster), default=0) + 1
        else:
            taken = set(workshop.players.values_list("name_key", flat=True))
        try:
            with transaction.atomic():
                return Player.objects.create(
                    id=pk,
                    workshop=workshop,
                    name=names.distinct_name(clean_name, taken),
                    join_order=order,
                    is_bot=is_bot,
                    rules_unread=rules_unread,
                    token=names.new_token(),
                    pin=names.new_pin(),
                )
        except IntegrityError:
            if attempt == ADD_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _deal_if_idle(workshop: Workshop, table: Table) -> None:
    """A table that had too few players for a game deals one once a late joiner
    makes it playable, rather than idling until the next round. Caller holds the
    workshop and table locks."""
    from tournament.services.play import current_game, game_start

    rnd = running_round(workshop)
    if rnd is not None and rnd.state == RoundState.RUNNING and current_game(table) is None:
        game_start(table=table, rnd=rnd)


def _unapplied_round(workshop: Workshop) -> Round | None:
    """Between rounds, the last scored round while its movement is still a plan (the
    round just ended, as the panel's plan reads it). Else None."""
    if workshop.phase != Phase.BETWEEN:
        return None
    rnd = current_round(workshop)
    if (
        rnd is None
        or rnd.kind != RoundKind.SCORED
        or rnd.state != RoundState.FINISHED
        or rnd.movement_applied_at is not None
    ):
        return None
    return rnd


def _planned_change(workshop: Workshop) -> Counter:
    """Between rounds, before the last scored round's movement is applied: how many
    players each table (by number) gains or loses by the plan as saved. Else empty."""
    change: Counter = Counter()
    rnd = _unapplied_round(workshop)
    if rnd is None:
        return change
    seated = seated_tables(workshop)
    change = sizes_after(seated, (rnd.movement_preview or {}).get("moves", []))
    change.subtract(seated.values())
    return change


def _smallest_table(
    workshop: Workshop, max_seats: int | None = None, planned: Counter | None = None
) -> tuple[Table, int]:
    """The table with the fewest players seated (then the lowest number), locked, and
    that number. Joins run side by side (they share the workshop's lock), so the count
    is taken again under the table's lock: a table another join filled meanwhile is
    passed over. Only the chosen table is locked (its seats change), not every table,
    which would hold up the games at all of them. `max_seats` None: no limit (the
    caller holds the workshop's own lock and decides). `planned` (by table number):
    what the movement about to be applied adds or takes; fewest counts after it (a
    latecomer seated by the sizes before it could make the plan overfill a table).

    "Fewest" passes over an empty table while a table with players has a planned
    seat free: the automatic seating leaves tables empty rather than a player alone
    with no game (`tables_to_fill`), and a latecomer sat alone there. A table past
    its planned seats comes after an empty one."""
    planned = planned or Counter()
    plan = workshop.seats_per_table

    def rank(n: int, number: int) -> tuple:
        return (0 if 0 < n < plan else 1 if n <= 0 else 2, n, number)

    counts = {
        pk: rank(n + planned[number], number)
        for pk, number, n in Table.objects.filter(workshop=workshop)
        .annotate(n=Count("seated_players"))
        .values_list("pk", "number", "n")
    }
    while counts:
        pk = min(counts, key=counts.get)
        # A table found full is let go (its savepoint rolled back releases its lock)
        # before the next is locked: two late joins rank the tables from counts read
        # apart, so they may try them in opposite orders, and each holding the one it
        # found full while waiting for the other's, they deadlocked on PostgreSQL (a
        # student was shown an error page; tests/reliability/test_joins_postgres.py).
        saved = transaction.savepoint()
        table = Table.objects.select_for_update(no_key=True).get(pk=pk)
        n = Player.objects.filter(table=table).count()
        if max_seats is None or n < max_seats:
            transaction.savepoint_commit(saved)
            return table, n
        transaction.savepoint_rollback(saved)
        transaction.savepoint_commit(saved)  # released: nothing of it is left open
        del counts[pk]
    raise JoiningClosed("Every table is full.")


def _seat(player: Player, table: Table, *, home: bool) -> None:
    """Seat at the end of `table`. Caller holds the table's lock."""
    top = Player.objects.filter(table=table).aggregate(m=Max("seat"))["m"]
    player.table = table
    player.seat = 0 if top is None else top + 1
    fields = ["table", "seat"]
    if home:
        player.home_table = table
        player.rules = table.rules
        fields += ["home_table", "rules"]
    player.save(update_fields=fields)


@transaction.atomic
def players_seat_home(*, workshop_id: int, assignment: dict | None = None) -> dict[int, int]:
    """Seat everyone at a home table; returns {player id: table number}.

    Automatic: players in join order dealt round the tables, so table sizes differ
    by at most one, over as many tables as keep each at the game's minimum
    (`tables_to_fill`: five players at three tables of four sit 3 and 2, not 2, 2 and
    a lone player with no game). `assignment` maps player ids to table numbers (the
    facilitator's choice); players it leaves out are placed automatically. Bots
    beyond the seats (people joined after them) are removed.
    """
    workshop = lock_workshop(workshop_id)
    require_phase(workshop, Phase.LOBBY)
    tables = lock_tables(workshop_id)
    by_number = {t.number: t for t in tables}
    # Players who left in the lobby get no seat.
    players = list(workshop.players.filter(has_left=False).order_by("join_order"))
    chosen: dict[int, Table] = {}
    if assignment:
        if not isinstance(assignment, dict):
            raise InvalidInput("Give a table number for each player.")
        ids = {p.pk for p in players}
        # Someone who left since the page was drawn: it still sends their row, and
        # their choice lapses (as a move does in rounds._clean_moves).
        gone = set(workshop.players.filter(has_left=True).values_list("pk", flat=True))
        for key, number in assignment.items():
            try:
                pid = int(key)
            except (TypeError, ValueError):
                raise InvalidInput(f"“{key}” is not a player.") from None
            if pid in gone:
                continue
            if pid not in ids:
                raise InvalidInput(
                    "A player on this list is no longer in this workshop (removed since "
                    "the page was shown). Reload the page and choose again."
                )
            if isinstance(number, bool) or not isinstance(number, int) or number not in by_number:
                raise InvalidInput(f"There is no table {number}.")
            chosen[pid] = by_number[number]
    # People who joined after the bots filled the tables take bots' seats: the bots
    # the seats cannot hold go (the last made first; nothing was played yet).
    # ("Seat as chosen" sends every seated player's table, a bot's own included: a bot
    # only "chosen" where it already sits may still give way.)
    surplus = len(players) - len(tables) * workshop.seats_per_table
    spare = [
        p
        for p in reversed(players)
        if p.is_bot and (p.pk not in chosen or chosen[p.pk].pk == p.table_id)
    ][: max(0, surplus)]
    if spare:
        Player.objects.filter(pk__in=[b.pk for b in spare]).delete()
        players = [p for p in players if p not in spare]
        for b in spare:
            chosen.pop(b.pk, None)
    sizes = {t.pk: 0 for t in tables}
    for table in chosen.values():
        sizes[table.pk] += 1
    kind = kinds.get(workshop.game)
    # The automatic part fills the tables someone was chosen for, then the lowest
    # numbers, up to as many tables as the class fills to the game's minimum.
    want = tables_to_fill(len(players), len(tables), kind, workshop.seats_per_table)
    filled = [t for t in tables if sizes[t.pk]]
    filled += [t for t in tables if not sizes[t.pk]][: max(0, want - len(filled))]
    for player in players:
        if player.pk not in chosen:
            table = min(filled, key=lambda t: (sizes[t.pk], t.number))
            chosen[player.pk] = table
            sizes[table.pk] += 1
    # More than the game deals to: said now, not at Start study (nothing is seated).
    if len(players) > len(tables) * kind.max_seats:  # no choice of tables helps
        raise InvalidInput(
            f"{len(players)} players cannot sit at {len(tables)} tables: a game of "
            f"{kind.title} seats at most {kind.max_seats}. Remove players, or set up a "
            "workshop with more tables."
        )
    refuse_overfull(
        kind,
        {t.number: sizes[t.pk] for t in tables},
        " Choose another table for someone, or remove a player.",
    )
    Player.objects.filter(workshop=workshop).update(table=None, seat=None)
    next_seat = {t.pk: 0 for t in tables}
    for player in players:
        table = chosen[player.pk]
        player.table = table
        player.home_table = table
        player.rules = table.rules
        player.seat = next_seat[table.pk]
        next_seat[table.pk] += 1
        player.save(update_fields=["table", "home_table", "rules", "seat"])
    for table in tables:
        bump_table(table)
    bump_workshop(workshop)
    return {p.pk: chosen[p.pk].number for p in players}


def tables_to_fill(players: int, tables: int, kind, seats_per_table: int) -> int:
    """How many of `tables` an automatic seating fills with `players`: all of them
    when the class fills each to the game's minimum, else fewer, so that no table
    sits short of a game; never so few that a table passes its planned seats when
    more tables would not (3 Tricks' pairs: five players still sit 2, 2 and 1)."""
    if players == 0:
        return tables
    no_short = players // kind.min_seats  # tables that can each have a game
    within_plan = -(-players // seats_per_table)  # tables the plan's seats need
    return max(1, min(tables, max(no_short, within_plan)))


def seat_unseated(workshop: Workshop) -> None:
    """Seat anyone who joined after the seating. Caller holds the locks.

    In the lobby a person who joined after the bots filled the tables takes a bot's
    seat (the bot goes: nothing was played yet); otherwise the smallest table."""
    for player in workshop.players.filter(table__isnull=True, has_left=False).order_by(
        "join_order"
    ):
        bot = _bot_to_give_way(workshop) if workshop.phase == Phase.LOBBY else None
        if bot is None:
            table, _ = _smallest_table(workshop)
            _seat(player, table, home=True)
            continue
        table, seat = bot.table, bot.seat
        bot.delete()
        player.table = player.home_table = table
        player.rules, player.seat = table.rules, seat
        player.save(update_fields=["table", "home_table", "rules", "seat"])
        bump_table(table)


def _bot_to_give_way(workshop: Workshop) -> Player | None:
    """A seated bot at the table with the fewest people (then the most bots), locked."""
    seated = workshop.players.filter(table__isnull=False, has_left=False)
    people = Counter(seated.filter(is_bot=False).values_list("table_id", flat=True))
    bots = list(seated.filter(is_bot=True).select_related("table").order_by("-seat"))
    if not bots:
        return None
    per_table = Counter(b.table_id for b in bots)
    bot = min(bots, key=lambda b: (people[b.table_id], -per_table[b.table_id], b.table.number))
    Table.objects.select_for_update(no_key=True).get(pk=bot.table_id)
    return bot


def _letters(n: int) -> str:
    """0 → A, 25 → Z, 26 → AA: short, distinct bot names."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


@transaction.atomic
def bots_fill(*, workshop_id: int) -> list[Player]:
    """Fill every table up to its seat count with bots (lobby only, and only in a
    workshop whose facilitator turned bots on)."""
    workshop = lock_workshop(workshop_id)
    require_phase(workshop, Phase.LOBBY)
    if not workshop.bots_enabled:
        raise NotAllowed("Bots are off for this workshop.")
    # Bots first would take the seats the people who joined are waiting for, and
    # seating them afterwards would overfill the tables.
    waiting = workshop.players.filter(is_bot=False, has_left=False, table__isnull=True).count()
    if waiting:
        raise NotAllowed(
            f"Seat the {waiting} player{'s' if waiting != 1 else ''} who joined first "
            "(“Balance tables automatically” or “Seat as chosen”), then fill the empty "
            "seats with bots."
        )
    tables = lock_tables(workshop_id)
    created = []
    # The first free letters: a bot that gave its seat to a person left a gap.
    taken = set(workshop.players.filter(is_bot=True).values_list("name", flat=True))
    letters = (f"Bot {_letters(n)}" for n in itertools.count())
    for table in tables:
        seated = Player.objects.filter(table=table).count()
        for _ in range(max(0, workshop.seats_per_table - seated)):
            name = next(name for name in letters if name not in taken)
            bot = _add_player(workshop, name, is_bot=True)
            _seat(bot, table, home=True)
            created.append(bot)
        bump_table(table)
    bump_workshop(workshop, phones=False)
    return created


@transaction.atomic
def bots_remove(*, workshop_id: int) -> int:
    """Remove every bot (lobby only): their seats are free again. Returns how many."""
    workshop = lock_workshop(workshop_id)
    require_phase(workshop, Phase.LOBBY)
    bots = workshop.players.filter(is_bot=True)
    seated_at = set(bots.values_list("table_id", flat=True))
    tables = [t for t in lock_tables(workshop_id) if t.pk in seated_at]
    removed, _ = bots.delete()
    for table in tables:
        bump_table(table)
    bump_workshop(workshop, phones=False)
    return removed


@transaction.atomic
def player_leave(*, player_id: int, policy: str | None = None) -> Player:
    """A player leaves: a bot plays their seat, or the seat is skipped.

    Skipping cuts the game in progress at their table (it counts with the tricks
    taken so far, like a game at the end of a round) and deals a new one without
    them.
    """
    from tournament.services.play import game_start

    player = get_player(player_id)
    policy = policy or player.workshop.leave_policy
    if policy not in LeavePolicy.values:
        raise InvalidInput("When a player leaves, a bot takes the seat or the seat is skipped.")
    workshop = lock_workshop(player.workshop_id)
    player = Player.objects.get(pk=player_id)
    if player.has_left:
        raise InvalidInput("That player has already left.")
    player.has_left = True
    player.left_at = now()
    player.connected = False
    fields = ["has_left", "left_at", "connected"]
    table = (
        Table.objects.select_for_update(no_key=True).get(pk=player.table_id)
        if player.table_id
        else None
    )
    if policy == LeavePolicy.SKIP:
        player.table = None
        player.seat = None
        fields += ["table", "seat"]
    player.save(update_fields=fields)
    if table is not None:
        if policy == LeavePolicy.SKIP:
            game = (
                Game.objects.filter(table=table, state=GameState.PLAYING)
                .select_related("round")
                .first()
            )
            if game is not None and player.pk in game.players:
                from tournament.services.rounds import cut_game

                cut_game(game, CutBy.PLAYER_LEFT)
                if game.round.state == RoundState.RUNNING:
                    game_start(table=table, rnd=game.round)
        bump_table(table)
    bump_workshop(workshop)
    return player


_SET_CONNECTED = (
    "UPDATE tournament_player SET connected = %s, last_seen = %s WHERE id = %s"
    " RETURNING workshop_id"
)
# A socket's close turns the dot off only if no socket of the player connected since
# this one did (a phone whose network changed connects anew before the server hears
# that its old socket has gone).
_SET_DISCONNECTED = (
    "UPDATE tournament_player SET connected = %s, last_seen = %s WHERE id = %s AND last_seen = %s"
    " RETURNING workshop_id"
)


def player_set_connected(*, player_id: int, connected: bool, since=None):
    """Connection dots for the facilitator; no game state changes. Returns the time
    written (a socket's connect keeps it: `since` when it closes, so that only the
    player's latest socket turns the dot off; without `since`, any close does).

    Told to the facilitator only: a message to every player's socket per connect
    made a connect storm of N phones cost N² messages. One statement (atomic by
    itself), as plain SQL: every socket's connect and disconnect runs it, and when
    a room's phones all reconnect at once the ORM's query building was a large part
    of each connect's work.
    """
    try:
        pk = int(player_id)
    except (TypeError, ValueError):
        raise NotFound("Unknown player.") from None
    at = now()
    with connection.cursor() as cursor:
        if since is not None and not connected:
            cursor.execute(_SET_DISCONNECTED, [False, at, pk, since])
            row = cursor.fetchone()
            if row is None:  # a newer socket is the player's now (or the row is gone)
                return at
        else:
            cursor.execute(_SET_CONNECTED, [bool(connected), at, pk])
            row = cursor.fetchone()
    if row is None:
        raise NotFound("Unknown player.")
    broadcast.connection_changed_on_commit(
        workshop_id=row[0], player_id=pk, connected=connected, at=at
    )
    if not connected:
        broadcast.player_presence_on_commit(player_id=pk)
    return at


def player_rules_read(*, player_id: int) -> bool:
    """A player who joined after the study phase has read their sheet: it leaves
    their screen. True when it was still unread. Only their own screen changes
    (their socket renders it again from their row), and the facilitator's monitor."""
    try:
        pk = int(player_id)
    except (TypeError, ValueError):
        raise NotFound("Unknown player.") from None
    workshop_id = Player.objects.filter(pk=pk).values_list("workshop_id", flat=True).first()
    if workshop_id is None:
        raise NotFound("Unknown player.")
    done = bool(Player.objects.filter(pk=pk, rules_unread=True).update(rules_unread=False))
    if done:  # the monitor's "reading the rules" goes
        broadcast.roster_changed_on_commit(workshop_id=workshop_id)
    return done


@transaction.atomic
def workshop_set_joining(*, workshop_id: int, locked: bool) -> Workshop:
    workshop = lock_workshop(workshop_id)
    if workshop.phase == Phase.DEBRIEF:
        # Nobody joins a finished tournament, whatever a page left open since says.
        raise WrongPhase("The tournament is over: joining stays closed.")
    workshop.joining_locked = bool(locked)
    workshop.save(update_fields=["joining_locked"])
    bump_workshop(workshop)
    return workshop


def _out_of_the_plan(workshop: Workshop, player: Player) -> None:
    """A student whose seat went, back before the movement planned is applied: their
    move in it (the rule's, from the table they played at) no longer applies. They sit
    where the plan leaves most room, as a late joiner does, and stay there: their old
    move kept moved them on Apply from the table they had just been given, and the
    rule's move they then did not make was recorded as the facilitator's choice (the
    report's "stayed (changed)"). The others' moves are as planned. Caller holds the
    workshop's lock; the round's is taken after it, as movement_edit does."""
    rnd = _unapplied_round(workshop)
    if rnd is None:
        return
    rnd = Round.objects.select_for_update(no_key=True).get(pk=rnd.pk)
    plan = rnd.movement_preview or {}
    kept = {
        key: [m for m in plan.get(key, []) if m["player"] != player.pk]
        for key in ("moves", "computed")
    }
    if all(len(kept[key]) == len(plan.get(key, [])) for key in kept):
        return
    rnd.movement_preview = {**plan, **kept}
    rnd.save(update_fields=["movement_preview"])


def _seat_returning(workshop: Workshop, player: Player) -> None:
    """A student whose seat was skipped when they left, back with their PIN, plays
    again: seated at the smallest table as a late joiner is (their sheet stays their
    home table's). Every table full: they wait unseated, as the panel shows. Caller
    holds the workshop's lock."""
    if player.table_id is not None or workshop.phase in (Phase.LOBBY, Phase.DEBRIEF):
        return
    _out_of_the_plan(workshop, player)
    try:
        _seat_at_smallest(
            workshop, player, kinds.get(workshop.game), home=player.home_table_id is None
        )
    except JoiningClosed:
        return


@transaction.atomic
def player_rejoin(*, code, name, pin) -> Player:
    """Move a seat to a new device: the right name and PIN give a fresh token.

    The old device's token stops working, and its socket is told to close.
    """
    try:
        workshop_id = Workshop.objects.values_list("pk", flat=True).get(
            code=names.normalise_code(code)
        )
    except Workshop.DoesNotExist:
        raise NotFound("No workshop has that code.") from None
    if not isinstance(name, str) or not isinstance(pin, str):
        raise InvalidInput("Give your name and the PIN from your old screen.")
    key = names.name_key(" ".join(name.split()))
    # A phone's keyboard may type full-width digits ("１２３４"): they are the PIN's.
    pin = unicodedata.normalize("NFKC", pin).strip()
    pin = "".join(str(unicodedata.decimal(c, c)) for c in pin)  # and "١٢٣٤" too
    if not (pin.isascii() and pin.isdigit()):
        raise InvalidInput(
            "The PIN is the four digits under “Rejoin PIN” at the bottom of your old screen."
        )
    workshop = lock_workshop(workshop_id)
    candidates = [
        p
        for p in Player.objects.select_for_update(no_key=True).filter(
            workshop_id=workshop_id, is_bot=False
        )
        if names.name_key(p.name) == key
    ]
    # A removed player's PIN is "" (roster.player_kick), which no typed PIN matches,
    # until the facilitator lets them back in with a new one (roster.player_let_back_in).
    player = next((p for p in candidates if p.pin and secrets.compare_digest(p.pin, pin)), None)
    if player is None:
        raise InvalidInput("That name and PIN do not match a player in this workshop.")
    old = player.pk
    returning = player.has_left
    player.token = names.new_token()
    player.pin = names.new_pin()
    player.has_left = False
    player.moved_at = timezone.now()
    fields = ["token", "pin", "has_left", "moved_at"]
    if returning and player.left_at is not None:
        # The report gives the seat's games in between to the bot that played them.
        back = {"left": player.left_at.isoformat(), "back": player.moved_at.isoformat()}
        if player.let_in_at is not None and player.let_in_at >= player.left_at:
            # A removal the facilitator undid: kept with it, as `let_in_at` is only the
            # latest (a student let back in twice read "left …, back …" the first time).
            back["let_in"] = player.let_in_at.isoformat()
        player.absences = [*player.absences, back]
        fields.append("absences")
    # Back in a seat a bot played: the table's screens say a bot plays it until they
    # are drawn again. Its lock first, as in roster.player_kick: the token is a key,
    # and the write below locks the row FOR UPDATE, which the bot's move (an Action
    # naming this player), holding the table's lock, waits for when it commits.
    table = (
        Table.objects.select_for_update(no_key=True).get(pk=player.table_id)
        if returning and player.table_id
        else None
    )
    # Nothing after the write waits for a table a move may hold: _seat_returning locks
    # one only for a player with no seat, whom no move in progress refers to.
    player.save(update_fields=fields)
    if table is not None:
        # No barrier: the game is as it was, so a move another seat sent meanwhile stands.
        bump_table(table, barrier=False)
    if returning:
        # The workshop's record changed (a finished workshop's kept report is keyed by
        # its version: tournament/reportcache.py); no phone shows who has left.
        bump_workshop(workshop, phones=False)
    _seat_returning(workshop, player)
    broadcast.player_replaced_on_commit(player_id=old)
    # The panel's row says the seat is on a new phone (and a screen reader hears it).
    broadcast.roster_changed_on_commit(workshop_id=workshop_id)
    return player
