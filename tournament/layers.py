"""The channel layer of several web processes: Redis pub/sub, with pipelined publishes
(and channels-redis' list-based layer, CHANNEL_LAYER=core, made to lose no message
when a socket closes: KeepingRedisChannelLayer below).

channels-redis' RedisPubSubChannelLayer publishes one message per round trip to
Redis, under one lock per process. Every action sends two group messages (its
table and the facilitator), so under load that lock, not the CPU, capped a
process at about a hundred actions a second, with each publish waiting for the
event loop to come back round (README, "Scaling": the measurements). Here a
group_send joins a queue, and one task per event loop sends whatever has queued
in one pipeline, in order; the caller still waits until its message was sent.

Everything else (subscriptions, receiving, groups) is channels-redis' own. The
pub/sub layer keeps no per-channel capacity: a slow consumer's queue grows rather
than dropping messages (RedisChannelLayer drops past `capacity`, see settings).
What pub/sub cannot do is deliver to a process while its Redis connection is down;
a phone that missed a version catches up at the next change or when it resyncs.
"""

from __future__ import annotations

import asyncio

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

MAX_BATCH = 500


class _Publisher:
    """One shard's outgoing queue on one event loop."""

    def __init__(self, shard):
        self.shard = shard
        self.queue: list[tuple[str, bytes, asyncio.Future]] = []
        self.task: asyncio.Task | None = None

    async def publish(self, channel: str, data: bytes) -> None:
        done = asyncio.get_running_loop().create_future()
        self.queue.append((channel, data, done))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._drain())
        await done

    async def _drain(self) -> None:
        while self.queue:
            batch, self.queue = self.queue[:MAX_BATCH], self.queue[MAX_BATCH:]
            try:
                self.shard._ensure_redis()
                pipe = self.shard._redis.pipeline(transaction=False)
                for channel, data, _ in batch:
                    pipe.publish(channel, data)
                await pipe.execute()
            except Exception as exc:  # every waiter of this batch hears of it
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
            else:
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):
    """RedisPubSubChannelLayer whose group_send pipelines PUBLISHes (see module doc)."""

    async def group_send(self, group, message):
        layer = self._get_layer()  # one per event loop, and with it its shards
        channel = layer._get_group_channel_name(group)
        shard = layer._get_shard(channel)
        publisher = getattr(shard, "_barnga_publisher", None)
        if publisher is None:
            publisher = shard._barnga_publisher = _Publisher(shard)
        await publisher.publish(channel, self.serialize(message))


# channels-redis' own script (RedisChannelLayer._brpop_with_clean): what a receive popped
# and did not finish with goes back to the channel, in order.
_RESTORE_BACKUP = """
    local backed_up = redis.call('ZRANGE', ARGV[2], 0, -1, 'WITHSCORES')
    for i = #backed_up, 1, -2 do
        redis.call('ZADD', ARGV[1], backed_up[i], backed_up[i - 1])
    end
    redis.call('DEL', ARGV[2])
"""


class KeepingRedisChannelLayer(RedisChannelLayer):
    """RedisChannelLayer whose receive, cancelled while it waits on Redis, loses nothing.

    Every socket of a process shares one Redis inbox, and one socket's receive at a
    time pops it (BZPOPMIN) for all of them. When that socket closed, its receive was
    cancelled, and a message Redis had popped for it meanwhile, for any socket of the
    process, was dropped with the reply: another phone, open all along, missed that
    version (and stayed on it until the next change). Here the pop runs on, shielded
    from the cancellation, and what it pops goes back to the inbox with its score, in
    its place, for the next receive. (Overrides a private method of channels-redis
    4.3, whose version pyproject pins below 5.)"""

    async def _brpop_with_clean(self, index, channel, timeout):
        connection = self.connection(index)
        await connection.eval(_RESTORE_BACKUP, 0, channel, self._backup_channel_name(channel))
        pop = asyncio.ensure_future(connection.bzpopmin(channel, timeout=timeout))
        try:
            result = await asyncio.shield(pop)
        except asyncio.CancelledError:
            pop.add_done_callback(lambda done: self._put_back(connection, channel, done))
            raise
        if result is None:
            return None
        _, member, timestamp = result
        await connection.zadd(self._backup_channel_name(channel), {member: float(timestamp)})
        return member

    def _put_back(self, connection, channel, pop: asyncio.Future) -> None:
        if pop.cancelled() or pop.exception() is not None or pop.result() is None:
            return
        _, member, timestamp = pop.result()
        task = asyncio.ensure_future(connection.zadd(channel, {member: float(timestamp)}))
        _put_back_tasks.add(task)
        task.add_done_callback(_put_back_tasks.discard)


_put_back_tasks: set[asyncio.Task] = set()  # held until done (the loop keeps weak ones)
