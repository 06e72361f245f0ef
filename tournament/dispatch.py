"""A consumer's messages, one at a time, from its socket and from the channel layer.

Channels' AsyncConsumer waits on both sources with `await_many_dispatch`, which for
every message waits with asyncio.wait over a fresh task per source and then starts
another task: about 13 µs a message on this machine against 7 µs here (a bench of
100,000 messages, one per loop turn), on the message path that every action takes
half a dozen times (its own frame, and the table's change to every seat).

Here one long-lived task per source moves what it receives to a single queue, and
the consumer handles that queue's messages in arrival order, one at a time, as
Channels does: a handler finishes before the next message's starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time

from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer


class _SourceFailed:
    """A source's receive raised: the consumer raises it in turn, as Channels would."""

    def __init__(self, exc: BaseException):
        self.exc = exc


async def dispatch_in_turn(sources, dispatch) -> None:
    """Call `dispatch` with every message the `sources` (coroutine functions) return,
    one call at a time, until `dispatch` or a source raises; then stop the sources."""
    queue: asyncio.Queue = asyncio.Queue()

    async def pump(source):
        try:
            while True:
                queue.put_nowait(await source())
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001 (handed to the consumer, below)
            queue.put_nowait(_SourceFailed(exc))

    pumps = [asyncio.ensure_future(pump(source)) for source in sources]
    try:
        while True:
            message = await queue.get()
            if isinstance(message, _SourceFailed):
                raise message.exc
            await dispatch(message)
    finally:
        # As await_many_dispatch: cancel the receives and let them clean up (the
        # pub/sub layer unsubscribes a channel whose receive is cancelled).
        for task in pumps:
            task.cancel()
        for task in pumps:
            with contextlib.suppress(asyncio.CancelledError):
                await task


def stamped(receive):
    """`receive` whose socket frames ("websocket.receive") say when they arrived
    ("arrived": time.monotonic()), taken from the socket as they come, not when the
    consumer gets to them: a limit on how fast a phone sends counts them then."""

    async def arrived():
        message = await receive()
        if message.get("type") == "websocket.receive":
            message = {**message, "arrived": time.monotonic()}
        return message

    return arrived


class InTurnDispatchMixin:
    """AsyncConsumer.__call__ with `dispatch_in_turn` in place of await_many_dispatch
    (for async consumers: `base_send` is the server's send as it is). The socket's
    frames are stamped with their arrival (`stamped`)."""

    async def __call__(self, scope, receive, send):
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [stamped(receive)]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await dispatch_in_turn(sources, self.dispatch)
