"""tournament.dispatch: a consumer's two sources handled one message at a time, in
arrival order; a failing source or handler ends the loop and stops the sources."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.testing import WebsocketCommunicator

from tournament.dispatch import InTurnDispatchMixin, dispatch_in_turn


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 5))


def test_messages_are_handled_in_arrival_order_one_at_a_time():
    async def scenario():
        socket, layer = asyncio.Queue(), asyncio.Queue()
        handled, running = [], []

        async def dispatch(message):
            running.append(message)
            assert len(running) == 1, f"{message} began while {running[0]} ran"
            await asyncio.sleep(0.001)  # a handler that awaits (a database call)
            handled.append(message)
            running.remove(message)
            if message == "stop":
                raise StopConsumer

        loop = asyncio.ensure_future(dispatch_in_turn([socket.get, layer.get], dispatch))
        for message in ("a1", "b1", "a2", "b2", "b3"):
            (socket if message[0] == "a" else layer).put_nowait(message)
            await asyncio.sleep(0)
        layer.put_nowait("stop")
        with pytest.raises(StopConsumer):
            await loop
        return handled

    assert run(scenario()) == ["a1", "b1", "a2", "b2", "b3", "stop"]


def test_a_failing_source_fails_the_consumer_and_stops_the_other_source():
    async def scenario():
        cancelled = asyncio.Event()

        async def broken():
            raise ConnectionError("the layer went away")

        async def waiting():
            try:
                await asyncio.Event().wait()
            finally:
                cancelled.set()

        async def dispatch(message):
            raise AssertionError(f"nothing to dispatch, got {message}")

        with pytest.raises(ConnectionError, match="went away"):
            await dispatch_in_turn([waiting, broken], dispatch)
        return cancelled.is_set()

    assert run(scenario()) is True


def test_a_failing_handler_stops_both_sources_and_their_cleanup_runs():
    async def scenario():
        socket = asyncio.Queue()
        cleaned = []

        async def layer_receive():
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                await asyncio.sleep(0)  # as the pub/sub layer's unsubscribe does
                cleaned.append("layer")
                raise

        async def dispatch(message):
            raise ValueError(f"no handler for {message}")

        socket.put_nowait("x")
        with pytest.raises(ValueError, match="no handler for x"):
            await dispatch_in_turn([socket.get, layer_receive], dispatch)
        return cleaned

    assert run(scenario()) == ["layer"]


class Echo(InTurnDispatchMixin, AsyncJsonWebsocketConsumer):
    """A consumer on the mixin: its socket and its channel both reach handlers."""

    async def connect(self):
        await self.channel_layer.group_add("echo", self.channel_name)
        await self.accept()

    async def receive_json(self, content, **kwargs):
        await self.channel_layer.group_send("echo", {"type": "echo.say", "text": content["say"]})

    async def echo_say(self, event):
        await self.send_json({"heard": event["text"]})

    async def disconnect(self, code):
        await self.channel_layer.group_discard("echo", self.channel_name)


def test_a_consumer_on_the_mixin_hears_its_socket_and_its_group(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

    async def scenario():
        ws = WebsocketCommunicator(Echo.as_asgi(), "/echo/", headers=[(b"origin", b"http://t")])
        connected, _ = await ws.connect()
        assert connected
        heard = []
        for word in ("one", "two", "three"):
            await ws.send_json_to({"say": word})
            heard.append((await ws.receive_json_from(timeout=2))["heard"])
        await ws.disconnect()
        return heard

    assert run(scenario()) == ["one", "two", "three"]
