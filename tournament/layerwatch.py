"""Resync open sockets after Redis lost messages or the channel layer's state.

When Redis restarts, is flushed or is unreachable for a moment, group messages
sent meanwhile are lost, and the layer may lose its group memberships too (the
core layer keeps them in Redis). Sockets that stayed open do not notice: they
wait for a table that has moved on, and a table whose player to act missed the
change stops for good.

So each web process watches Redis: it reads an epoch key (setting a random value
when it is missing) every BARNGA_LAYER_CHECK_SECONDS. A different value means
Redis lost its data; a failed read followed by a good one means messages may have
been lost. Either way every registered socket of this process joins its groups
again and re-reads its screen from the database (`consumer.layer_reset()`), and
once more a little later, for layers whose subscriber reconnects after us (the
pub/sub layer retries once a second). The reset is called directly, not sent
through the layer that just failed; it only adds to groups and asks for a render,
which consumers already serialise. With the in-memory layer this does nothing.

A change can also be committed and never announced: its process died between the
commit and the publish. Every BARNGA_VERSION_CHECK_SECONDS each process reads the
current versions of the tables and workshops its sockets show (`_watch_versions`);
a version the database had at one check that a socket showing that table or
workshop has not heard of by the next one is re-read and shown to it (a message in
flight arrives well within that time, so normal traffic causes no extra reads).
Socket by socket, not the newest any socket heard: one socket may miss a message
the others got (the list-based layer lost a message popped as another socket
closed), and a phone that reconnected meanwhile, sent the screen whole, hid that
miss from a check that took the newest (a phone left on a game's end, the next
deal shown to its neighbour only).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref

from django.conf import settings

log = logging.getLogger(__name__)
EPOCH_KEY = "barnga:layer-epoch"
AGAIN_AFTER = 3.0  # seconds: the second reset, after slower subscribers are back

_members: weakref.WeakSet = weakref.WeakSet()
_task: asyncio.Task | None = None
_versions_task: asyncio.Task | None = None


def register(consumer) -> None:
    """Watch for `consumer`, which has `async layer_reset(event=None)`. Call from connect."""
    global _task, _versions_task
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return
    _members.add(consumer)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done():
        _task = loop.create_task(_watch(url))
    if _versions_task is None or _versions_task.done():
        _versions_task = loop.create_task(_watch_versions())


def forget(consumer) -> None:
    """Call from disconnect."""
    _members.discard(consumer)


async def _read_epoch(client) -> bytes:
    await client.set(EPOCH_KEY, secrets.token_hex(8), nx=True)
    return await client.get(EPOCH_KEY)


async def _watch(url: str) -> None:
    import redis.asyncio

    interval = float(getattr(settings, "BARNGA_LAYER_CHECK_SECONDS", 1.0))
    client = redis.asyncio.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
    seen: bytes | None = None
    down = False
    while True:
        try:
            epoch = await _read_epoch(client)
        except Exception:  # Redis is unreachable: look again, then resync
            down = True
            await asyncio.sleep(interval)
            continue
        lost = seen is not None and epoch != seen
        if lost or down:
            why = "lost its data" if lost else "was unreachable"
            await reset_all(why)
            await asyncio.sleep(AGAIN_AFTER)
            await reset_all(f"{why} (again)")
        seen, down = epoch, False
        await asyncio.sleep(interval)


def _open_members() -> list:
    return [c for c in list(_members) if not getattr(c, "closed", False)]


async def reset_all(why: str) -> int:
    members = _open_members()
    log.warning("Redis %s: resyncing %d socket(s)", why, len(members))
    for consumer in members:
        try:
            await consumer.layer_reset()
        except Exception:
            log.exception("could not resync %s", getattr(consumer, "channel_name", consumer))
    return len(members)


def read_versions(table_ids: list[int], workshop_ids: list[int]) -> tuple[dict, dict]:
    """The current versions of these tables and workshops: ({id: version}, {id: version})."""
    from tournament.models import Table, Workshop

    tables = dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))
    workshops = dict(Workshop.objects.filter(pk__in=workshop_ids).values_list("pk", "version"))
    return tables, workshops


def _phones(members) -> list:
    """The phones' sockets among `members`: the versions they were sent are what the
    check compares (a facilitator's socket, registered for the Redis resets, keeps
    none, and read as one it stopped every check with an AttributeError)."""
    return [c for c in members if getattr(c, "watches_versions", False)]


def _heard(members) -> tuple[dict, dict]:
    """Per table and workshop, the version the socket furthest behind there has heard
    of (each socket's newest, of what it was sent and what it was told of)."""
    tables: dict[int, int] = {}
    workshops: dict[int, int] = {}
    for c in members:
        if c.table_id:
            v = max(c.want_v, c.shown_v)
            tables[c.table_id] = min(tables.get(c.table_id, v), v)
        w = max(c.want_w, c.shown_w)
        workshops[c.workshop_id] = min(workshops.get(c.workshop_id, w), w)
    return tables, workshops


async def check_versions(suspects: tuple[dict, dict]) -> tuple[dict, dict]:
    """One check. `suspects` are the versions found unheard at the previous check;
    those still unheard now are shown. Returns this check's suspects."""
    from tournament.consumers import in_db_thread

    members = _phones(_open_members())  # registered once their player is known (connect)
    if not members:
        return {}, {}
    behind_t = [c for c in members if max(c.want_v, c.shown_v) < suspects[0].get(c.table_id, -1)]
    behind_w = [c for c in members if max(c.want_w, c.shown_w) < suspects[1].get(c.workshop_id, -1)]
    if behind_t or behind_w:
        log.warning(
            "versions never announced to %d socket(s): tables %s, workshops %s; showing them",
            len({id(c) for c in behind_t + behind_w}),
            sorted({c.table_id for c in behind_t}),
            sorted({c.workshop_id for c in behind_w}),
        )
        for c in behind_t:
            c.request_view(v=suspects[0][c.table_id])
        for c in behind_w:
            c.request_view(w=suspects[1][c.workshop_id])
    tables, workshops = await in_db_thread(read_versions)(
        sorted({c.table_id for c in members if c.table_id}),
        sorted({c.workshop_id for c in members}),
    )
    heard_t, heard_w = _heard(members)  # messages that came in meanwhile
    return (
        {t: v for t, v in tables.items() if heard_t.get(t, -1) < v},
        {w: v for w, v in workshops.items() if heard_w.get(w, -1) < v},
    )


async def _watch_versions() -> None:
    interval = float(getattr(settings, "BARNGA_VERSION_CHECK_SECONDS", 5.0))
    suspects: tuple[dict, dict] = ({}, {})
    while True:
        await asyncio.sleep(interval)
        try:
            suspects = await check_versions(suspects)
        except Exception:  # the database away for a moment: look again next time
            log.exception("checking the sockets' versions")
            suspects = ({}, {})
