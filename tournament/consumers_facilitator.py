"""The facilitator's websocket: the panel, one table or the projector, kept live.

Thin like the player's: `connect` checks that the session user facilitates the
workshop (anyone else is closed with 4403), joins `workshop_<id>_facilitator`
and sends every region of the page it serves. Any change in the workshop then
re-renders those regions. A round start or a bot-filled lobby sends dozens of
change messages in a burst, so renders are coalesced: at most one every
THROTTLE seconds, and always one after the last change. A render that takes long
(the panel of a big workshop: about 0.1 s at 200 players, seconds at 1,000) spaces
the next ones further, so that one open panel takes at most RENDER_SHARE of the
time while the tables play: every move at every table announces a change.

A push carries only the regions whose HTML changed since the last one sent,
a running clock's passing seconds aside (regions.settled; a `sync` sends them
all): a region replaced in the page takes the button under the facilitator's
pointer with it. The monitor's table cards are regions too: when the monitor
changed in a few cards only (a move at one table of 40), those cards go alone,
each whole, from the same render (84 kB a push at 200 players became about
2 kB). And the page answers each push with `ack` once it has put it in: the
next push waits for that (ACK_WAIT at most), so a browser slower than the server
(a panel of 200 players) is sent the state as it is then, not a queue of old
snapshots that grows without bound.

The page says which view it is with `?view=panel|projector|table&table=N`; the
projector view renders only the projector's template, whose context holds no
sheet, preset or hand (see selectors_facilitator.projector).
"""

from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from games import jsontext
from tournament import broadcast, layerwatch, regions
from tournament.consumers import RateWindow, pong

log = logging.getLogger(__name__)
CLOSE_FORBIDDEN = 4403
THROTTLE = 0.25
RENDER_SHARE = 0.2
ACK_WAIT = 5.0
ROSTER = ("fac-roster",)
MONITOR_FRAME = "fac-monitor frame"  # in _sent: the monitor as sent, less its cards


def _render_timed(view, workshop_id, user, table_number, skip=()) -> tuple[dict | None, float]:
    """The regions, and the CPU time the render itself took on its thread: not the wait
    for a database thread or for the database, which a busy moment lengthens (a
    wall-clock cost of a second there held a class of eight's panel back 5 s)."""
    started = time.thread_time()
    snapshot = regions.render(view, workshop_id, user, table_number=table_number, skip=skip)
    return snapshot, time.thread_time() - started


class FacilitatorConsumer(AsyncJsonWebsocketConsumer):
    workshop_id: int | None = None
    group: str | None = None
    session_group: str | None = None  # the login this socket was opened from
    _task: asyncio.Task | None = None
    _cost = 0.0  # the CPU time the latest render took, in seconds
    # The roster is redrawn only after a change that may show in it: a move in a game
    # or the next game dealt (a table's message marked `game_only`: that and nothing
    # else changed) does not. At 1,000 players the roster is half of each
    # render's time (0.24 of 0.5 s) and 1.4 MB, and the tables' moves and deals are
    # what keep a panel redrawing while they play (200 tables deal a game a second).
    _roster_changes = 0  # roster-changing messages seen
    _roster_drawn = -1  # the count the last roster drawn had seen

    async def connect(self):
        self.workshop_id = int(self.scope["url_route"]["kwargs"]["workshop_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        view = (query.get("view") or ["panel"])[0]
        self.view = view if view in regions.VIEWS else "panel"
        try:
            self.table_number = (
                int((query.get("table") or [""])[0]) if self.view == "table" else None
            )
        except ValueError:
            self.table_number = None
        self.user = self.scope.get("user")
        self._pending = False
        self._last = 0.0
        self._sent: dict[str, str] = {}
        self._acked = asyncio.Event()
        self.rate = RateWindow(settings.BARNGA_WS_RATE)
        await self.accept()
        # Listen before reading, as the phones' sockets do: a change committed while
        # the first snapshot is drawn is then announced (it was lost until a sync).
        # Group messages wait until this handler is done.
        group = broadcast.facilitator_group(self.workshop_id)
        await self.channel_layer.group_add(group, self.channel_name)
        snapshot = await self.render()
        self._roster_drawn = self._roster_changes
        if snapshot is None:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = group
        session = self.scope.get("session")
        key = getattr(session, "session_key", None)
        if key:
            self.session_group = broadcast.session_group(key)
            await self.channel_layer.group_add(self.session_group, self.channel_name)
        layerwatch.register(self)
        self._last = time.monotonic()
        # The page says what it was drawn with (`have`): send only the regions that
        # changed since, not the whole page again (700 kB at 200 players).
        held = regions.parse_have((query.get("have") or [""])[0])
        same = {k for k, v in snapshot.items() if held.get(k) == regions.digest(v)}
        self._sent.update({k: regions.settled(snapshot[k]) for k in same})
        if regions.MONITOR in same:
            self._remember_monitor(*regions.monitor_parts(snapshot[regions.MONITOR]))
        # Sent even when empty: the page then knows it is live and up to date.
        await self._send_regions(
            {k: v for k, v in snapshot.items() if k not in same}, force=True, empty=True
        )

    async def disconnect(self, code):
        layerwatch.forget(self)
        if self._task is not None:
            self._task.cancel()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.session_group is not None:
            await self.channel_layer.group_discard(self.session_group, self.channel_name)

    async def render(self, skip=()) -> dict | None:
        snapshot, self._cost = await database_sync_to_async(_render_timed)(
            self.view, self.workshop_id, self.user, self.table_number, skip
        )
        return snapshot

    async def push(self, *, force: bool = False):
        seen = self._roster_changes
        skip = ROSTER if self.view == "panel" and not force and seen == self._roster_drawn else ()
        snapshot = await self.render(skip)
        if snapshot is not None and not skip:
            self._roster_drawn = seen
        if snapshot is None:  # the workshop is gone, or no longer this user's
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self._send_regions(snapshot, force=force)

    async def _send_regions(self, snapshot: dict[str, str], *, force: bool, empty: bool = False):
        settled = {k: regions.settled(v) for k, v in snapshot.items()}
        regions_out = (
            snapshot
            if force
            else {k: v for k, v in snapshot.items() if self._sent.get(k) != settled[k]}
        )
        if regions.MONITOR in regions_out and self.view == "panel":
            frame, every = regions.monitor_parts(snapshot[regions.MONITOR])  # cut once
            cards = None if force else self._changed_cards(frame, every)
            if cards is None:
                self._remember_monitor(frame, every)
            else:
                # The page puts each card in by its id, in the monitor it holds.
                del regions_out[regions.MONITOR]
                self._sent[regions.MONITOR] = settled[regions.MONITOR]
                self._sent.update({k: regions.settled(v) for k, v in cards.items()})
                regions_out.update(cards)
        if not regions_out and not empty:
            return
        self._sent.update({k: settled[k] for k in regions_out if k in settled})
        self._acked.clear()
        await self.send_json({"t": "regions", "regions": regions_out, "force": force})

    def _changed_cards(self, frame: str, cards: dict[str, str]) -> dict[str, str] | None:
        """The monitor's cards (regions.monitor_parts) that changed since the last push,
        to be sent alone; None when the whole monitor is to go: its frame changed (a
        table added or gone, the heading) or most of its cards did (a phase begun, a new
        seating: one region is fewer swaps in the page, and no more bytes)."""
        if regions.settled(frame) != self._sent.get(MONITOR_FRAME):
            return None
        changed = {k: v for k, v in cards.items() if self._sent.get(k) != regions.settled(v)}
        return None if len(changed) * 2 > len(cards) else changed

    def _remember_monitor(self, frame: str, cards: dict[str, str]) -> None:
        """The whole monitor is in the page (sent, or held when it connected): so are
        its frame and each of its cards (regions.monitor_parts), as they are in it."""
        self._sent[MONITOR_FRAME] = regions.settled(frame)
        self._sent.update({k: regions.settled(v) for k, v in cards.items()})

    # ---- incoming: only keep-alive and resync; every control is an HTTP POST
    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if self.group is None:
            return
        verdict = self.rate.hit()
        if verdict != "ok":
            if verdict == "refuse":
                await self.send_json(
                    {"t": "error", "code": "rate", "message": "Slow down: too many messages."}
                )
            return
        if text_data is None or len(text_data) > settings.BARNGA_WS_MAX_BYTES:
            return await self.send_json(
                {"t": "error", "code": "invalid", "message": "Messages are JSON text up to 64 kB."}
            )
        try:
            content = jsontext.parse(text_data)
        except jsontext.BadJSON:
            content = None
        if not isinstance(content, dict) or content.get("action") not in ("ping", "sync", "ack"):
            return await self.send_json(
                {"t": "error", "code": "invalid", "message": "Unknown message."}
            )
        if content.get("action") == "ack":
            self._acked.set()
        elif content.get("action") == "ping":
            await self.send_json(pong(content))
        elif content.get("action") == "sync":
            await self.push(force=True)

    # ---- group messages: anything may change what a facilitator screen shows
    async def table_changed(self, event):
        # `game_only`: a move in a game or its next game dealt, and nothing else
        # (broadcast.table_changed_on_commit).
        self.changed(roster=not event.get("game_only"))

    async def workshop_changed(self, event):
        self.changed()

    async def player_connection(self, event):
        """A phone connected or went: a dot. The roster's is set in the page (the whole
        roster drawn again, 350 kB at 200 players, for each phone that slept or woke
        kept the panel's page busy for seconds on end); the monitor's comes with its
        region. `at` (when the dot was written; each roster row says when its dot was
        read) lets the page keep the newest word over an older roster it puts in
        later, or an older word that comes late."""
        if self.view == "panel":
            await self.send_json(
                {
                    "t": "presence",
                    "player": event["player"],
                    "connected": bool(event["connected"]),
                    "at": event.get("at", 0),
                }
            )
        self.changed(roster=self.view != "panel")

    async def roster_changed(self, event):
        self.changed()

    async def session_ended(self, event):
        """Its facilitator logged out in this browser: nothing more for this page."""
        await self.close(code=CLOSE_FORBIDDEN)

    async def table_gesture(self, event):
        pass  # gestures are for the table; the monitor shows state, not chatter

    async def layer_reset(self, event=None):
        """Redis lost messages or groups (tournament.layerwatch calls this): join the
        group again and re-render."""
        if self.group is not None:
            await self.channel_layer.group_add(self.group, self.channel_name)
            if self.session_group is not None:
                await self.channel_layer.group_add(self.session_group, self.channel_name)
            self.changed()

    def changed(self, *, roster: bool = True):
        if roster:
            self._roster_changes += 1
        self._pending = True
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._flush())

    async def _flush(self):
        while self._pending:
            spacing = max(THROTTLE, self._cost / RENDER_SHARE)
            wait = self._last + spacing - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            # The page has put the last push in (or ACK_WAIT passed): render now.
            try:
                await asyncio.wait_for(self._acked.wait(), ACK_WAIT)
            except TimeoutError:
                pass
            self._pending = False
            self._last = time.monotonic()
            try:
                await self.push()
            except Exception:  # one failed render must not stop later ones
                log.exception("facilitator render for workshop %s failed", self.workshop_id)
