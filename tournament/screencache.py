"""The shared parts of players' screens, cached per process and keyed by version.

A change at a table is rendered on every socket at that table, a phase change on
every socket of the workshop. What those sockets see alike (`selectors.table_part`,
`selectors.workshop_part`) is read once per version per process instead of once
per socket; each socket then adds only its own seat (`selectors.compose_screen`),
without touching the database.

Why a cached part cannot be stale: every change to what a part holds bumps its
version in the same transaction (services.common.bump_table / bump_workshop), and
the message that announces version v reaches every socket that shows it. A socket
asks for a part *at least* as new as the newest version it has been told of; an
older cached copy is read again. A socket that does not know the current version
(it just connected, resynced or moved to another table) reads the versions from
the database first (`selectors.player_screen`'s row, see PlayerConsumer).

Reads (`load_*`) run on the database thread (database_sync_to_async); lookups
(`cached_*`) are dictionary reads, safe on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from enum import Enum

from django.db import DEFAULT_DB_ALIAS
from django.db.models import DateTimeField
from django.utils.dateparse import parse_datetime

from tournament import gamestate, selectors
from tournament.models import Game, GameState, Player

log = logging.getLogger(__name__)
MAX_ENTRIES = 10_000  # tables (or workshops) one process keeps; far above one event's

_workshops: dict[int, dict] = {}
_tables: dict[int, dict] = {}

PLAYER_FIELDS = (
    "id",
    "workshop_id",
    "name",
    "join_order",
    "home_table_id",
    "rules",
    "table_id",
    "seat",
    "is_bot",
    "has_left",
    "pin",
    "rules_unread",
)


def _store(cache: dict, key: int, part: dict) -> None:
    if len(cache) >= MAX_ENTRIES and key not in cache:
        cache.clear()
    cache[key] = part


def cached_workshop(workshop_id: int, min_version: int) -> dict | None:
    part = _workshops.get(workshop_id)
    return part if part is not None and part["version"] >= min_version else None


def cached_table(table_id: int, min_version: int, round_id: int | None) -> dict | None:
    part = _tables.get(table_id)
    if part is None or part["version"] < min_version or part["round_id"] != round_id:
        return None
    return part


def load_workshop(workshop_id: int, min_version: int) -> dict | None:
    """The workshop part at `min_version` or newer, with every player's row.

    The rows let each socket see its own seat change (moves, renames, seating:
    all bump the workshop version) without a query per socket.
    """
    part = cached_workshop(workshop_id, min_version)  # read meanwhile by another socket
    if part is not None:
        return part
    part = selectors.workshop_part(workshop_id, with_players=PLAYER_FIELDS)
    if part is None:
        _workshops.pop(workshop_id, None)
        return None
    _store(_workshops, workshop_id, part)
    return part


def load_table(table_id: int, min_version: int, round_id: int | None) -> dict | None:
    part = cached_table(table_id, min_version, round_id)
    if part is not None:
        return part
    part = selectors.table_part(table_id, round_id=round_id)
    if part is None:
        _tables.pop(table_id, None)
        return None
    current = _tables.get(table_id)
    # A read that began before an action here committed must not replace the part
    # that action stored (advance): keep the newer of the two.
    if current is None or current["round_id"] != round_id or current["version"] <= part["version"]:
        _store(_tables, table_id, part)
    return part


def advance(table, before: int, game, state, wversion: int) -> None:
    """After an action committed in this process: its table's part at version
    `before` plus that one action is the part at `table.version`. Stored without
    reading the database, so this process's sockets at the table render the change
    from memory (under load, re-reading a table's part per version per process was a
    fifth of a web process's work).

    Only when the cached part is exactly the one before the action (every change to
    a table bumps its version under the table's lock, which the action held) and
    the action changed nothing but the game in progress: not its end, not the
    seating (the caller does not call this then).
    """
    part = _tables.get(table.pk)
    if (
        part is None
        or part["version"] != before
        or part["game"] is None
        or part["game"].pk != game.pk
        or part["round_id"] != game.round_id
    ):
        return
    new = dict(
        part,
        table=table,
        version=table.version,
        wversion=max(part["wversion"], wversion),
        game=game,
        state=state,
    )
    if _tables.get(table.pk) is part:  # not replaced meanwhile by another thread's read
        _tables[table.pk] = new


def _copy_row(obj):
    """A shallow copy of a model instance, as copy.copy makes it (Django's own
    __getstate__, then what its __setstate__ does with memoryview fields, without
    the pickle-version warning) without pickling's detour through __reduce__, which
    was half the cost of following a move (py-spy)."""
    state = obj.__getstate__()
    for attr, value in state.pop("_memoryview_attrs", ()):
        state[attr] = memoryview(value)
    new = obj.__class__.__new__(obj.__class__)
    new.__dict__.update(state)
    return new


def game_row(game: Game) -> dict:
    """A new game's row as a `table.changed` message carries it (plain values only:
    the channel layer's msgpack has no datetimes or enums)."""
    row = {}
    for field in Game._meta.concrete_fields:
        value = getattr(game, field.attname)
        if isinstance(value, datetime):
            value = value.isoformat()
        elif isinstance(value, Enum):
            value = value.value
        row[field.attname] = value
    return row


def _game_from_row(row: dict) -> Game:
    values = dict(row)
    for field in Game._meta.concrete_fields:
        if isinstance(field, DateTimeField) and values.get(field.attname) is not None:
            values[field.attname] = parse_datetime(values[field.attname])
    game = Game(**values)
    game._state.adding = False
    game._state.db = DEFAULT_DB_ALIAS
    return game


def follow(message: dict) -> None:
    """A `table.changed` message that carries its move (one action in the game in
    progress, nothing else) or its deal (a new game, nothing else): advance this
    process's cached part by applying that action with the engine, as advance() does
    in the acting process, or by the dealt game. Every process then follows a table
    from its messages, game after game, and reads it again only when something else
    changed it (seating, a round's end). The new state also goes to the replay cache,
    so this process's next action at the table replays nothing.
    On the event loop: one engine step, no database."""
    move, deal = message.get("move"), message.get("deal")
    if not move and not deal:
        return
    table_id = message["table"]
    part = _tables.get(table_id)
    if part is None or part["version"] != message["version"] - 1:
        return
    try:
        new = _followed_move(part, move) if move else _followed_deal(part, deal)
    except Exception:  # not this process's business to judge: read the table instead
        log.exception("could not follow a change at table %s", table_id)
        return
    if new is None:
        return
    table = _copy_row(part["table"])
    table.version = message["version"]
    table.barrier = (move or deal)["barrier"]
    new.update(table=table, version=table.version)
    if _tables.get(table_id) is part:
        _tables[table_id] = new


def _followed_move(part: dict, move: dict) -> dict | None:
    old_game = part["game"]
    if (
        old_game is None
        or old_game.pk != move["game"]
        or old_game.seq != move["seq"] - 1
        or part["state"] is None
    ):
        return None
    kind = gamestate.kind_of(old_game)
    state, _ = kind.apply(part["state"], move["action"])
    if kind.is_over(state):
        # As the table reads after a game's end: no game in progress, this one the
        # round's latest finished game, its winners credited (services.record_outcome).
        outcome = kind.outcome(state)
        winners = [old_game.players[s] for s in outcome["winners"]]
        wins = dict(part["wins"])
        for pid in winners:
            wins[pid] = wins.get(pid, 0) + 1
        previous = (
            old_game.number,
            GameState.OVER.value,
            old_game.players,
            winners,
            "",
            list(outcome["scores"]),
            kind.end_reason(state),
            None,  # not cut (selectors._read_table_part)
        )
        # Finished by a move: also the last game anyone played in.
        # Its last trick is shown on the next game's first screens (selectors).
        final = state if kind.keeps_final_state else None
        return dict(
            part,
            game=None,
            state=None,
            previous=previous,
            played=previous,
            wins=wins,
            previous_state=final,
        )
    game = _copy_row(old_game)
    game.seq = move["seq"]
    deadline = move.get("claim_deadline")
    game.claim_deadline = parse_datetime(deadline) if deadline else None
    gamestate.remember(game, state)
    return dict(part, game=game, state=state)


def _followed_deal(part: dict, deal: dict) -> dict | None:
    game = _game_from_row(deal["game"])
    if part["game"] is not None or game.round_id != part["round_id"]:
        return None
    if not set(game.players) <= part["names"].keys():  # a name this part never read
        return None
    state = gamestate.initial_state(game)
    gamestate.remember(game, state)
    return dict(part, game=game, state=state)


_loading: dict[tuple, asyncio.Task] = {}


async def load_once(key: tuple, load):
    """Await `load()` (a coroutine function), sharing one run per key at a time.

    The sockets of one table hear of a change together; the first starts the read
    and the others wait for it instead of queueing the same read behind it.
    """
    task = _loading.get(key)
    if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
        task = asyncio.ensure_future(load())
        _loading[key] = task
        task.add_done_callback(lambda t: _loading.pop(key) if _loading.get(key) is t else None)
    return await asyncio.shield(task)


def player_from_row(row: tuple) -> Player:
    """A Player instance from a workshop part's row (enough for a screen; not for saving)."""
    player = Player(**dict(zip(PLAYER_FIELDS, row, strict=True)))
    player._state.adding = False
    return player


def player_digest(player: Player) -> tuple:
    """What a player's screen shows of their own row."""
    return (
        player.table_id,
        player.seat,
        player.name,
        player.pin,
        player.rules,
        player.has_left,
        player.rules_unread,
    )


def clear() -> None:
    _workshops.clear()
    _tables.clear()
