"""Tell named groups, after commit, that something changed.

Groups: `table_<id>` (the players seated there), `workshop_<id>_players` (every
player's socket in a workshop, for phase and timer changes) and
`workshop_<id>_facilitator`. Messages carry ids and version numbers (and, to a
table's group, the move that made an in-game change, which the server processes use
to follow the game without reading it): each consumer renders the view its own
socket may see.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import threading
from datetime import datetime

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table_{table_id}"


def players_group(workshop_id: int) -> str:
    return f"workshop_{workshop_id}_players"


def facilitator_group(workshop_id: int) -> str:
    return f"workshop_{workshop_id}_facilitator"


def _server_loop():
    """The web server's event loop when this thread runs sync code for it (a socket's
    database call, via sync_to_async); None elsewhere (the timer thread, scripts)."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop


def _log_failure(group: str):
    def done(future):
        if not future.cancelled() and future.exception() is not None:
            log.error("group_send to %s failed", group, exc_info=future.exception())

    return done


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop()
    if loop is not None:
        # Hand the message to the server's loop and return: the database thread is free
        # for the next action at once instead of waiting for the loop to come round
        # (under load most of a thread's time went to that wait). Sends keep their
        # order (tasks start in order); consumers order messages by version anyway.
        try:
            future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        except RuntimeError:  # the loop closed meanwhile (shutdown)
            log.warning("group_send to %s dropped: the server is stopping", group)
            return
        future.add_done_callback(_log_failure(group))
        return

    def send():
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # a broken layer must not undo a committed action
            log.exception("group_send to %s failed", group)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        send()  # the usual case: a worker thread of sync_to_async, or the timer thread
        return
    # A sync caller inside a running event loop (a script or test that also drives
    # a browser) cannot use async_to_sync in its own thread.
    thread = threading.Thread(target=send)
    thread.start()
    thread.join()


def table_changed_on_commit(
    *,
    workshop_id: int,
    table_id: int,
    version: int,
    move: dict | None = None,
    deal: dict | None = None,
) -> None:
    """Caller is inside the service's transaction; the send happens after commit.

    `move` (an action in the game in progress, the only change: game id, seq, the
    engine's action, claim deadline, table barrier) or `deal` (a new game dealt, the
    only change: the game's row and the table barrier) lets each process advance its
    cached table part instead of reading it (tournament.screencache.follow). Only
    server processes read them; each phone is still sent its own seat's view."""
    message = {"type": "table.changed", "table": table_id, "version": version}
    at_table = to_panels = message
    if move is not None:
        at_table = {**message, "move": move}
    elif deal is not None:
        at_table = {**message, "deal": deal}
    if move is not None or deal is not None:
        # The facilitator's panels need not redraw their roster for it
        # (consumers_facilitator): a game's move or deal shows in none of its rows.
        to_panels = {**message, "game_only": True}

    def send():
        _send(table_group(table_id), at_table)
        _send(facilitator_group(workshop_id), to_panels)

    transaction.on_commit(send)


def workshop_changed_on_commit(*, workshop_id: int, version: int, phones: bool = True) -> None:
    """`phones=False`: only the facilitator's screens show the change (a join)."""
    message = {"type": "workshop.changed", "workshop": workshop_id, "version": version}

    def send():
        if phones:
            _send(players_group(workshop_id), message)
        _send(facilitator_group(workshop_id), message)

    transaction.on_commit(send)


def roster_changed_on_commit(*, workshop_id: int) -> None:
    """A player joined: only the facilitator's screens list them (the workshop's
    version is unchanged; a joining phone reads its own row when it connects)."""
    message = {"type": "roster.changed", "workshop": workshop_id}
    transaction.on_commit(lambda: _send(facilitator_group(workshop_id), message))


def gesture_on_commit(*, workshop_id: int, table_id: int, gesture: dict) -> None:
    """Gestures carry their content: every socket at the table shows the same thing."""
    message = {"type": "table.gesture", "table": table_id, "gesture": gesture}

    def send():
        _send(table_group(table_id), message)
        _send(facilitator_group(workshop_id), message)

    transaction.on_commit(send)


def player_group(player_id: int) -> str:
    return f"player_{player_id}"


def player_replaced_on_commit(*, player_id: int, removed: bool = False) -> None:
    """Close the player's open sockets: the seat moved to another device, or was removed."""
    message = {"type": "player.replaced", "removed": removed}
    transaction.on_commit(lambda: _send(player_group(player_id), message))


def player_presence_on_commit(*, player_id: int) -> None:
    """Ask the player's other open sockets, if any, to say they are there: the socket
    that closed turned the facilitator's dot off (a second tab closed, the first still
    playing)."""
    message = {"type": "player.presence"}
    transaction.on_commit(lambda: _send(player_group(player_id), message))


def session_group(session_key: str) -> str:
    """The facilitator's sockets opened from one browser's login (a digest: the key
    itself is a secret and never leaves the server in a group name)."""
    return "session_" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def session_ended_on_commit(*, session_key: str) -> None:
    """Close the sockets opened from a login that has just ended (logged out)."""
    message = {"type": "session.ended"}
    transaction.on_commit(lambda: _send(session_group(session_key), message))


def connection_changed_on_commit(
    *, workshop_id: int, player_id: int, connected: bool, at: datetime
) -> None:
    """Connection dots are the facilitator's business only. `at`: when the dot was
    written (the player's last_seen), so that a panel keeps the newest of two words
    that came out of order (two web processes) or after a roster drawn later."""
    message = {
        "type": "player.connection",
        "player": player_id,
        "connected": connected,
        "at": at.timestamp() * 1000,
    }
    transaction.on_commit(lambda: _send(facilitator_group(workshop_id), message))
