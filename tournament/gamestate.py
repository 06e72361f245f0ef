"""The bridge between stored games and the pure engine.

A game's live state is the engine's replay of its action log. Replays are cached
per (game id, seq): states are immutable, and the seq read under the table lock
says which state is current, so a cached state can never be stale.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from games import kinds

_CACHE_SIZE = 4096
_cache: OrderedDict[tuple[int, int], object] = OrderedDict()
_newest: dict[int, int] = {}  # game id → the highest seq cached
_cache_lock = Lock()


def kind_of(game) -> kinds.GameKind:
    return kinds.get(game.kind)


def initial_state(game):
    return kind_of(game).new_state(
        table_rules=game.table_rules, seat_rules=game.seat_rules, mode=game.mode, seed=game.seed
    )


def _remember(key, state) -> None:
    with _cache_lock:
        _cache[key] = state
        _cache.move_to_end(key)
        game_id, seq = key
        if seq >= _newest.get(game_id, -1):
            _newest[game_id] = seq
        while len(_cache) > _CACHE_SIZE:
            (old_game, old_seq), _ = _cache.popitem(last=False)
            if _newest.get(old_game) == old_seq:
                del _newest[old_game]


def load_state(game):
    """The state after the game's `seq` actions. Caller has read `game` fresh.

    A miss replays from the newest earlier state this process has (another process
    took the last actions): only the actions after it are read and applied.
    """
    key = (game.pk, game.seq)
    with _cache_lock:
        state = _cache.get(key)
        base_seq = _newest.get(game.pk)
        base = _cache.get((game.pk, base_seq)) if base_seq is not None else None
    if state is not None:
        return state
    if base is None or base_seq > game.seq:
        state, base_seq = initial_state(game), 0
    else:
        state = base
    # Only up to the seq read with `game`: a reader without the table lock (a screen)
    # may see later actions already, and a state cached under the wrong seq would be
    # served to every later reader of that seq.
    kind = kind_of(game)
    for payload in _payloads(game, base_seq):
        state, _ = kind.apply(state, payload)
    _remember(key, state)
    return state


_PAYLOADS_SQL = (
    "SELECT payload FROM tournament_action WHERE game_id = %s AND seq > %s AND seq <= %s"
    " ORDER BY seq"
)


def _payloads(game, after_seq: int) -> list:
    """The payloads of `game`'s actions after `after_seq`, up to `game.seq`, in order.

    Plain SQL on the statement-preparing cursor: a process that did not take a
    table's last actions itself (the other web process did, and its message has
    not arrived yet) reads them here, under the table's lock. Through the ORM,
    building the query took nine tenths of that read's interpreter time, and the
    read was 4.5 % of a web process's (py-spy --gil, 1,000 players)."""
    # Imported here: tournament.check_export replays with this module without Django.
    from django.db import DEFAULT_DB_ALIAS, connections

    from tournament import rawsql
    from tournament.models import Action

    db = connections[game._state.db or DEFAULT_DB_ALIAS]
    field = Action._meta.get_field("payload")
    with rawsql.prepared_cursor(db) as cursor:
        cursor.execute(_PAYLOADS_SQL, [game.pk, after_seq, game.seq])
        rows = cursor.fetchall()
    return [field.from_db_value(value, None, db) for (value,) in rows]


def replay_log(game):
    """Rebuild from the stored log alone (no cache): what the debrief and checks trust."""
    state, kind = initial_state(game), kind_of(game)
    for payload in game.actions.order_by("seq").values_list("payload", flat=True):
        state, _ = kind.apply(state, payload)
    return state


def remember(game, state) -> None:
    """Caller has just stored the action that produced `state` and set game.seq."""
    _remember((game.pk, game.seq), state)


def remember_on_commit(game, state) -> None:
    """As `remember`, once the caller's transaction has committed, and never if it
    rolls back: a state worked out for a seq that was not stored would be served to
    this process's next reader of that seq, and another process may store a
    different action under it. The key is the game's seq now."""
    from django.db import transaction

    key = (game.pk, game.seq)
    transaction.on_commit(lambda: _remember(key, state))


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
        _newest.clear()
