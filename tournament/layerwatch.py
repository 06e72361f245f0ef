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


def register(consumer) -> None:
    """Watch for `consumer`, which has `async layer_reset(event=None)`. Call from connect."""
    global _task
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return
    _members.add(consumer)
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_watch(url))


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


async def reset_all(why: str) -> int:
    members = [c for c in list(_members) if not getattr(c, "closed", False)]
    log.warning("Redis %s: resyncing %d socket(s)", why, len(members))
    for consumer in members:
        try:
            await consumer.layer_reset()
        except Exception:
            log.exception("could not resync %s", getattr(consumer, "channel_name", consumer))
    return len(members)
