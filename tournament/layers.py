"""The channel layer of several web processes: Redis pub/sub, with pipelined publishes.

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
