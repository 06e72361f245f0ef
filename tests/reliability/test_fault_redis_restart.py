"""Restart Redis mid-round: play recovers within 10 seconds.

Redis holds the channel layer (and the cache). A restart drops every connection
and, without persistence, every group membership. Phones whose sockets break
reconnect; sockets that stay open must be put back in their groups by the
server, or they would wait forever for a table that has moved on. A FLUSHALL
(the groups lost, no connection dropped) shows that last case on its own.
"""

from __future__ import annotations

import pytest
import redis
from fault_cluster import (
    acked_ids,
    assert_nothing_lost,
    playing,
    two_processes_eight_phones,
    wait_until,
)

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.timeout(240)]

RECOVERY_SECONDS = 10


async def test_redis_restart_mid_round(cluster):
    ports, bots = await two_processes_eight_phones(cluster)
    async with playing(bots):
        await wait_until(lambda: len(acked_ids(bots)) >= 30, 60, "30 acknowledged actions")
        for fault in ("flush", "restart"):
            before = {bot.name: len(bot.acked) for bot in bots}
            closes = sum(len(bot.closes) for bot in bots)
            if fault == "flush":
                # Redis forgets every group but keeps every connection: no socket
                # notices, so only the server's own watch (tournament.layerwatch) helps.
                redis.Redis.from_url(cluster.redis.url).flushall()
            else:
                cluster.redis.restart()
            took = await wait_until(
                lambda before=before: all(len(bot.acked) >= before[bot.name] + 3 for bot in bots),
                30,
                f"every phone playing again after the {fault}",
            )
            if fault == "flush":
                assert sum(len(bot.closes) for bot in bots) == closes  # nobody reconnected
            assert took <= RECOVERY_SECONDS, f"play took {took:.1f} s to recover from the {fault}"

    await assert_nothing_lost(cluster, bots)
