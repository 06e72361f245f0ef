"""tournament.dispatch: a consumer's two sources handled one message at a time, in
arrival order; a failing source or handler ends the loop and stops the sources."""

from __future__ import annotations

import ast
import asyncio
import inspect
import textwrap

import pytest
from channels.consumer import AsyncConsumer
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


def _shape(function) -> tuple[set[str], set[str], set[str]]:
    """What a __call__ sets on self, the names it calls, and the exceptions it stops."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    sets, calls, stops = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and getattr(target.value, "id", "") == "self":
                    sets.add(target.attr)
        elif isinstance(node, ast.Call):
            f = node.func
            calls.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "?"))
        elif isinstance(node, ast.ExceptHandler) and node.type is not None:
            stops.add(ast.unparse(node.type))
    stops |= {
        ast.unparse(n.args[0])
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and getattr(n.func, "attr", getattr(n.func, "id", "")) == "suppress"
    }
    return sets, calls, stops


def test_the_mixin_still_does_what_channels_call_does():
    """InTurnDispatchMixin.__call__ is a copy of AsyncConsumer.__call__ with another
    dispatch loop (for async consumers only). If a new Channels sets more on the
    consumer, calls something more (a hop before each message, say) or stops on
    another exception, this fails: compare the two and bring the copy up to date."""
    theirs_sets, theirs_calls, theirs_stops = _shape(AsyncConsumer.__call__)
    ours_sets, ours_calls, ours_stops = _shape(InTurnDispatchMixin.__call__)
    assert (
        theirs_sets
        == ours_sets
        == {"scope", "channel_layer", "channel_name", "channel_receive", "base_send"}
    )
    # Theirs wraps a sync consumer's send and loops with await_many_dispatch; ours
    # serves async consumers, loops with dispatch_in_turn, and stamps the socket's
    # frames with their arrival (the phone's rate limit counts them then).
    assert (
        theirs_calls - {"async_to_sync", "await_many_dispatch"}
        == ours_calls - {"dispatch_in_turn", "suppress", "append", "stamped"}
        == {"get_channel_layer", "new_channel", "partial"}
    )
    assert theirs_stops == ours_stops == {"StopConsumer"}
