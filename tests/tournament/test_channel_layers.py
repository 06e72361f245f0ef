"""Group messages are never dropped silently (README, "Running several processes": "Choices the measurements made").

channels-redis' RedisChannelLayer keeps at most `capacity` undelivered messages per
channel (all sockets of a process share one) and drops the rest, logging at INFO
only. These tests are the detector: a burst to a group that is not read yet, then
a count of what arrives. With a tiny capacity the count comes up short (so the
check works); with the configured one, and with the pipelined pub/sub layer (the
default with REDIS_URL; it has no capacity), everything arrives, in order.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from channels_redis.core import RedisChannelLayer

from tournament.layers import PipelinedPubSubChannelLayer

pytestmark = [pytest.mark.redis]

BURST = 600


async def burst_and_count(layer, *, sockets: int = 3) -> list[list[int]]:
    """Send BURST group messages before anyone reads; return what each socket got."""
    group = f"burst_{id(layer)}"
    channels = [await layer.new_channel() for _ in range(sockets)]
    for channel in channels:
        await layer.group_add(group, channel)
    await asyncio.gather(
        *(layer.group_send(group, {"type": "table.changed", "version": i}) for i in range(BURST))
    )
    got = []
    for channel in channels:
        seen = []
        while True:
            try:
                seen.append((await asyncio.wait_for(layer.receive(channel), 0.5))["version"])
            except TimeoutError:
                break
        got.append(seen)
    await layer.flush()
    return got


async def test_a_tiny_capacity_drops_and_the_count_notices(redis_url, caplog):
    layer = RedisChannelLayer(hosts=[redis_url], capacity=20, prefix="tiny")
    with caplog.at_level(logging.INFO, logger="channels_redis"):
        got = await burst_and_count(layer)
    assert all(len(seen) < BURST for seen in got)
    # …and the settings make channels-redis' INFO line about it visible.
    assert any("over capacity" in r.getMessage() for r in caplog.records)


def project_layers(monkeypatch, **env) -> dict:
    """CHANNEL_LAYERS as barnga/settings.py builds them from this environment."""
    import importlib

    import barnga.settings as project_settings

    for name in ("REDIS_URL", "CHANNEL_LAYER", "CHANNEL_CAPACITY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    try:
        return importlib.reload(project_settings).CHANNEL_LAYERS
    finally:
        for name in env:
            monkeypatch.delenv(name)
        importlib.reload(project_settings)


async def test_the_configured_capacity_keeps_a_burst(redis_url, monkeypatch):
    config = project_layers(monkeypatch, REDIS_URL=redis_url, CHANNEL_LAYER="core")["default"]
    assert config["CONFIG"]["capacity"] >= 5 * BURST
    layer = RedisChannelLayer(**{**config["CONFIG"], "prefix": "configured"})
    got = await burst_and_count(layer)
    assert [sorted(seen) for seen in got] == [list(range(BURST))] * 3


async def test_the_pipelined_pubsub_layer_keeps_a_burst_in_order(redis_url):
    layer = PipelinedPubSubChannelLayer(hosts=[redis_url], prefix="pipelined")
    got = await burst_and_count(layer)
    assert got == [list(range(BURST))] * 3


def test_settings_pick_the_pipelined_layer_with_redis(monkeypatch):
    layers = project_layers(monkeypatch, REDIS_URL="redis://127.0.0.1:1/0")
    assert layers["default"]["BACKEND"] == "tournament.layers.PipelinedPubSubChannelLayer"
    layers = project_layers(monkeypatch)
    assert layers["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"


async def test_the_layer_parses_redis_replies_in_c(redis_url):
    """hiredis (pyproject: redis[hiredis]) is the parser of the layer's connections:
    without it redis-py falls back to its pure-Python parser, a few per cent of a
    web process's time under load (bench/figures.sh fast)."""
    from redis._parsers import _AsyncHiredisParser

    layer = PipelinedPubSubChannelLayer(hosts=[redis_url], prefix="parser")
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "x.y"})
    assert (await asyncio.wait_for(layer.receive(channel), 2))["type"] == "x.y"
    shard = layer._get_layer()._shards[0]
    parsers = {type(c._parser) for c in shard._redis.connection_pool._available_connections}
    parsers |= {type(shard._pubsub.connection._parser)} if shard._pubsub.connection else set()
    assert parsers == {_AsyncHiredisParser}
    await layer.flush()


def test_each_parallel_worker_has_a_redis_database_of_its_own(redis_url):
    """scripts/test.sh runs most tests on two processes sharing one Redis: each
    numbers its workshops from 1, so each must have its groups in a database of its
    own (tests/conftest.py)."""
    import os

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    shared = os.environ.get("BARNGA_TEST_REDIS_URL")
    if worker is None:
        assert redis_url == (shared or redis_url)
    elif shared:
        assert redis_url.endswith(f"/{int(worker.removeprefix('gw'))}")
    else:  # no shared Redis: each worker started a redis-server of its own
        assert redis_url.startswith("redis://127.0.0.1:") and redis_url.endswith("/0")


async def test_a_socket_closing_as_a_message_comes_loses_no_one_elses(redis_url, monkeypatch):
    """All sockets of a process share one Redis inbox in the list-based layer, and one
    of them at a time waits on it (BZPOPMIN) for all. A socket that closed while it was
    the one waiting had its receive cancelled with a message already popped for the
    others: the message was gone, and a phone that stayed open missed that version
    (seen once in a browser test: a phone left on a game's end, its table's next deal
    never pushed). The layer the settings pick for CHANNEL_LAYER=core puts it back."""
    import importlib
    import threading
    import time

    config = project_layers(monkeypatch, REDIS_URL=redis_url, CHANNEL_LAYER="core")["default"]
    module, _, name = config["BACKEND"].rpartition(".")
    layer = getattr(importlib.import_module(module), name)(
        **{**config["CONFIG"], "prefix": "closing"}
    )
    group = "table_closing"
    closing, staying = await layer.new_channel(), await layer.new_channel()
    for channel in (closing, staying):
        await layer.group_add(group, channel)
    waiting = asyncio.ensure_future(layer.receive(closing))
    await asyncio.sleep(0.3)  # it holds the process's receive, blocked in BZPOPMIN
    other = asyncio.ensure_future(layer.receive(staying))
    await asyncio.sleep(0.1)

    def send_from_another_process():
        sender = RedisChannelLayer(hosts=[redis_url], prefix="closing")
        asyncio.run(sender.group_send(group, {"type": "table.changed", "version": 275}))

    # Sent while this loop is held up (a busy server): the popped reply waits unread
    # until the socket's close cancels its receive.
    thread = threading.Thread(target=send_from_another_process)
    thread.start()
    thread.join()
    time.sleep(0.2)
    waiting.cancel()
    try:
        got = await asyncio.wait_for(other, 2)  # the layer's own wait (5 s) is longer
    finally:
        await layer.flush()
    assert got["version"] == 275
