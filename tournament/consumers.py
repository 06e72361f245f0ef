"""The player's websocket: thin. Authenticate, join groups, send views; receive, validate, call one service."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from urllib.parse import parse_qs

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections, connection, connections
from django.template.loader import render_to_string

from games import jsontext
from tournament import broadcast, layerwatch, rawsql, screencache, selectors, services
from tournament.dispatch import InTurnDispatchMixin
from tournament.errors import ServiceError
from tournament.identity import token_from_cookie_value
from tournament.models import Gesture, Player
from tournament.services.play import PLAYING_PHASES, well_formed_client_id

log = logging.getLogger(__name__)
RESYNC_CODES = {"stale", "duplicate", "not_allowed", "wrong_phase"}
CLOSE_UNKNOWN = 4401
CLOSE_REPLACED = 4409
CLOSE_REMOVED = 4410


# The sockets' database work runs on a pool of threads, each with its own connection,
# rather than on Channels' single database thread: an action waiting for a table lock
# held by another process then holds up only itself, not every socket of the process.
_db_pool = ThreadPoolExecutor(
    max_workers=settings.BARNGA_DB_THREADS, thread_name_prefix="barnga-db"
)


_tidied = threading.local()
HEALTH_CHECK_EVERY = 1.0  # seconds


def _tidy_connections() -> None:
    """Channels' database_sync_to_async calls close_old_connections() before and after
    every call, and with CONN_HEALTH_CHECKS each one then costs a `SELECT 1` round trip
    first. Here a thread does that at most once a second, and at once after an error."""
    now = time.monotonic()
    if now - getattr(_tidied, "at", -HEALTH_CHECK_EVERY) >= HEALTH_CHECK_EVERY or any(
        c.errors_occurred for c in connections.all(initialized_only=True)
    ):
        close_old_connections()
        _tidied.at = now


class _InDbThread(SyncToAsync):
    def thread_handler(self, loop, *args, **kwargs):
        _tidy_connections()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            _tidy_connections()


_turns: dict[int, list] = {}  # table id -> [asyncio.Lock, holders and waiters]


@contextlib.asynccontextmanager
async def table_turn(table_id: int | None):
    """One action per table at a time from this process's sockets.

    The service locks the table's row anyway; without this, when a table's seats
    all claim at once, their actions took several database threads of this process
    only to wait on that row lock, while other tables' actions queued behind them
    for a thread. Waiting here costs no thread. (The table may have changed since
    the socket last looked: the row lock still decides.)"""
    if table_id is None:
        yield
        return
    entry = _turns.get(table_id)
    if entry is None:
        entry = _turns[table_id] = [asyncio.Lock(), 0]
    entry[1] += 1
    try:
        async with entry[0]:
            yield
    finally:
        entry[1] -= 1
        if entry[1] == 0:
            del _turns[table_id]


def in_db_thread(func):
    """Run `func` on the pool, its thread's connection kept healthy (see _tidy_connections)."""
    return _InDbThread(func, thread_sensitive=False, executor=_db_pool)


# A socket's connect reads as plain SQL: when a room's phones all reconnect at once,
# building these queries through the ORM was a large part of each connect's work.
_PLAYER_BY_TOKEN = "SELECT * FROM tournament_player WHERE token = %s"
_PLAYER_WITH_VERSIONS = (
    "SELECT p.*, w.version AS workshop_version, t.version AS table_version"
    " FROM tournament_player p JOIN tournament_workshop w ON w.id = p.workshop_id"
    " LEFT JOIN tournament_table t ON t.id = p.table_id WHERE p.id = %s"
)


def pong(ping: dict) -> dict:
    """A ping's answer; with the server's time (ms since the epoch) when the ping asks
    for it (`"clock": 1`): the page measures its clock's offset from the server's with
    it (live.js) and counts to the deadlines the screens carry. A bare ping keeps its
    bare pong (tools and the load test compare it whole)."""
    if ping.get("clock") == 1:
        return {"t": "pong", "now": round(time.time() * 1000)}
    return {"t": "pong"}


def player_for_token(token: str | None) -> Player | None:
    if not token:
        return None
    return rawsql.first(Player, _PLAYER_BY_TOKEN, [token])


def connect_reads(
    player_id: int, table_id: int | None
) -> tuple[Player | None, tuple[int | None, list], object]:
    """A socket's connect: mark the player connected, then read the pad (its round and
    strokes: table_pad) and the player's row with its current versions (after the
    socket joined its groups). Also returns when the player was marked connected
    (None if they were gone)."""
    try:
        since = services.player_set_connected(player_id=player_id, connected=True)
    except ServiceError:  # gone meanwhile: the view below closes the socket
        since = None
    pad = table_pad(table_id) if table_id else (None, [])
    return player_with_versions(player_id), pad, since


def page_shows(scope, fresh: Player) -> bool:
    """Whether the page opening this socket says (`have=V.W.R`: table version, workshop
    version, rules unread 0 or 1) it shows the screen of `fresh`, a row read with its
    versions (`player_with_versions`). A screen is drawn from those versions and the
    player's row, and every change to the row but "rules read" bumps the workshop's."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    try:
        v, w, r = (int(n) for n in (query.get("have") or [""])[0].split("."))
    except ValueError:
        return False
    return (v, w, r) == (fresh.table_version or 0, fresh.workshop_version, int(fresh.rules_unread))


def player_with_versions(player_id: int) -> Player | None:
    """The player's row as it is now, with its workshop's and table's current versions
    (`workshop_version`, `table_version`: None when not seated)."""
    return rawsql.first(Player, _PLAYER_WITH_VERSIONS, [player_id])


# The pad's round (the workshop's latest), then its strokes since that round started
# and since the pad's last clear, newest first.
_PAD_ROUND_SQL = (
    "SELECT r.id, r.started_at, w.phase FROM tournament_round r JOIN tournament_table t"
    " ON t.workshop_id = r.workshop_id JOIN tournament_workshop w ON w.id = t.workshop_id"
    " WHERE t.id = %s ORDER BY r.number DESC LIMIT 1"
)
_STROKES_SQL = (
    "SELECT * FROM tournament_gesture WHERE table_id = %s AND kind = 'drawing' AND id > COALESCE("
    "(SELECT MAX(id) FROM tournament_gesture WHERE table_id = %s AND kind = 'clear'), 0)"
    " AND created_at >= %s ORDER BY id DESC LIMIT %s"
)
_BEFORE_ANY_ROUND = datetime(1970, 1, 1, tzinfo=UTC)


def table_pad(table_id: int, limit: int = 300) -> tuple[int | None, list]:
    """The round a table's pad belongs to (the workshop's latest; None before the
    first) and its strokes now: every drawing since that round started and since the
    last clear (at most `limit`, the newest), oldest first. A new round starts with a
    clean pad: those who drew on it may have moved on, and the newcomers never saw it
    drawn (the strokes stay stored for the record). Between rounds (and in the
    debrief) the pad is hidden and none is sent: a phone the movement brought here was
    sent the drawings made at this table in the round just played, to settle its
    disputes, perhaps its rules."""
    with connection.cursor() as cursor:
        cursor.execute(_PAD_ROUND_SQL, [table_id])
        row = cursor.fetchone()
    round_id, since, phase = row if row else (None, _BEFORE_ANY_ROUND, None)
    if phase is not None and phase not in PLAYING_PHASES:
        return round_id, []
    rows = Gesture.objects.raw(_STROKES_SQL, [table_id, table_id, since, limit])
    return round_id, [g.payload["points"] for g in rows][::-1]


def said_id(text: str):
    """The id a message gives, if it is a JSON object (None otherwise): read only for
    the one refusal per window, so that the phone knows which of its messages it was."""
    try:
        content = jsontext.parse(text)
    except jsontext.BadJSON:
        return None
    return content.get("id") if isinstance(content, dict) else None


class RateWindow:
    """Messages per second on one connection: "ok", then "refuse" once, then "drop"."""

    def __init__(self, limit: int):
        self.limit = limit
        self.start = time.monotonic()
        self.count = 0

    def hit(self, now: float | None = None) -> str:
        """A message, at `now` (time.monotonic(); by default this moment)."""
        if now is None:
            now = time.monotonic()
        if now - self.start >= 1.0:
            self.start, self.count = now, 0
        self.count += 1
        if self.count <= self.limit:
            return "ok"
        return "refuse" if self.count == self.limit + 1 else "drop"


class PlayerConsumer(InTurnDispatchMixin, AsyncJsonWebsocketConsumer):
    """One phone. Views are rendered by one task per socket (`_render_pending`), so a
    burst of changes costs at most one render in flight and one queued, and each
    render uses the shared parts cached per version (`tournament.screencache`).
    Messages are handled one at a time as Channels does, with a lighter loop
    (`tournament.dispatch`): a socket's phone sends few, but it hears every change."""

    player_id: int | None = None
    # tournament.layerwatch compares the versions this socket was sent with the
    # database's, and shows one never announced.
    watches_versions = True
    table_id: int | None = None
    workshop_id: int | None = None
    # When this socket marked its player connected: only the player's latest socket's
    # close turns the facilitator's dot off (services.player_set_connected).
    connected_since = None
    _render: asyncio.Task | None = None

    async def dispatch(self, message):
        # Channels' AsyncConsumer.dispatch first awaits aclose_old_connections(), a hop
        # to the database thread for every message, group messages included: under load
        # that hop cost as much as the rest (PERFORMANCE-NOTES). Every database call here
        # goes through in_db_thread, which closes stale connections around itself.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        token = token_from_cookie_value(self.scope.get("cookies", {}).get("barnga_player"))
        player = await in_db_thread(player_for_token)(token)
        await self.accept()
        if player is None:
            await self.close(code=CLOSE_UNKNOWN)
            return
        self.player_id = player.pk
        self.workshop_id = player.workshop_id
        # Versions shown (v: table, w: workshop) and the newest announced.
        self.shown_v = self.shown_w = self.want_v = self.want_w = -1
        self.want_force = False
        self.closed = False
        self.pad_round = None  # the round of the pad last sent (table_pad)
        self.player: Player | None = None  # own row, as of workshop version player_w
        self.player_w = -1
        self.last_digest = None
        self.marks_game = None
        self.rate = RateWindow(settings.BARNGA_WS_RATE)
        await self.channel_layer.group_add(
            broadcast.players_group(self.workshop_id), self.channel_name
        )
        await self.channel_layer.group_add(
            broadcast.player_group(self.player_id), self.channel_name
        )
        # Listen before reading: a change committed in between is then announced.
        self.table_id = player.table_id
        if self.table_id:
            await self.channel_layer.group_add(
                broadcast.table_group(self.table_id), self.channel_name
            )
        layerwatch.register(self)
        # One trip to the database thread for everything a connect reads and writes:
        # when a room's phones all reconnect at once, those trips are the queue.
        fresh, (self.pad_round, strokes), self.connected_since = await in_db_thread(connect_reads)(
            self.player_id, self.table_id
        )
        if fresh is not None and fresh.token != player.token:
            # Removed, or the seat moved to another device, after the token was read
            # and before this socket joined its player group: the message closing it
            # went to a group it was not in yet. The row says so now.
            await self.close(code=CLOSE_REMOVED if fresh.has_left else CLOSE_REPLACED)
            return
        if self.table_id:
            await self.send_json({"t": "strokes", "strokes": strokes})
        if fresh is not None and fresh.table_id == self.table_id and page_shows(self.scope, fresh):
            # The page was drawn from this very state a moment ago: the same screen
            # again would only replace the one the student may be tapping.
            self.player, self.player_w = fresh, fresh.workshop_version
            self.shown_v, self.shown_w = fresh.table_version or 0, fresh.workshop_version
            return
        await self.send_view(force=True, fresh=fresh)

    async def disconnect(self, code):
        if self.player_id is None:
            return
        self.closed = True
        layerwatch.forget(self)
        if self._render is not None:
            self._render.cancel()
        for group in (
            broadcast.players_group(self.workshop_id),
            broadcast.player_group(self.player_id),
            *([broadcast.table_group(self.table_id)] if self.table_id else []),
        ):
            await self.channel_layer.group_discard(group, self.channel_name)
        try:
            await in_db_thread(services.player_set_connected)(
                player_id=self.player_id, connected=False, since=self.connected_since
            )
        except ServiceError:
            pass

    # ---- incoming
    async def websocket_receive(self, message):
        """As Channels', passing on when the frame arrived (tournament.dispatch.stamped)."""
        arrived = message.get("arrived")
        if message.get("text") is not None:
            await self.receive(text_data=message["text"], arrived=arrived)
        else:
            await self.receive(bytes_data=message.get("bytes"), arrived=arrived)

    async def receive(self, text_data=None, bytes_data=None, arrived=None, **kwargs):
        if self.player_id is None:
            return
        if bytes_data is not None or text_data is None:
            return await self.error("invalid", "Messages are JSON text.")
        if len(text_data) > settings.BARNGA_WS_MAX_BYTES:
            return await self.error("too_large", "That message is too large.")
        # Counted as the frames arrived, not as they are handled: handled one at a time
        # at 120 ms each (a busy server), a burst of 45 gestures was never more than 20
        # in a second here, all 45 were stored and echoed, and none refused; and after a
        # stall, messages sent over seconds were handled within one second, and those
        # past 20 refused and dropped (a move among them lost without a word).
        verdict = self.rate.hit(arrived)
        if verdict != "ok":
            # One refusal per window, the rest dropped: a flood is not echoed back.
            if verdict == "refuse":
                await self.error("rate", "Slow down: too many messages.", said_id(text_data))
            return
        try:
            content = jsontext.parse(text_data)
        except jsontext.BadJSON:
            return await self.error("invalid", "Messages are JSON objects.")
        if not isinstance(content, dict):
            return await self.error("invalid", "Messages are JSON objects.")
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs):
        action = content.get("action")
        if action == "ping":
            return await self.send_json(pong(content))
        if action == "sync":
            return self.request_view(force=True)
        version = content.get("version")
        client_id = content.get("id")
        try:
            result = None
            if action in ("play", "claim", "act"):
                if action == "play":
                    call = functools.partial(services.game_play, card=content.get("card"))
                elif action == "claim":
                    call = functools.partial(
                        services.game_claim, winner_player_id=content.get("winner")
                    )
                else:
                    call = functools.partial(services.game_act, move=content.get("move"))
                async with table_turn(self.table_id):
                    result = await in_db_thread(call)(
                        player_id=self.player_id,
                        expected_version=version,
                        client_action_id=client_id,
                    )
                if result.rules_folded:
                    # The move folded a latecomer's sheet away: only this seat's screen
                    # changes, rendered again from its row (as after "rules_read").
                    self.request_view(force=True)
            elif action == "rules_read":
                # Only this seat's screen changes: rendered again from its row.
                await in_db_thread(services.player_rules_read)(player_id=self.player_id)
                self.request_view(force=True)
            elif action == "gesture":
                kind = content.get("kind")
                payload = {"points": content.get("points")} if kind == "drawing" else {}
                await in_db_thread(services.gesture_make)(
                    player_id=self.player_id, kind=kind, payload=payload
                )
            else:
                return await self.error("invalid", "Unknown action.", client_id)
        except ServiceError as exc:
            await self.error(exc.code, exc.message, client_id)
            if exc.code in RESYNC_CODES:
                self.request_view(force=True)
            return
        if client_id is not None and action != "gesture":
            # The version the action produced: a client (or the load test) knows
            # the table has caught up once every seat has shown it. (A gesture's
            # answer is its echo; its id only names it in a refusal.)
            await self.send_json(
                {"t": "ack", "id": client_id, "v": result.version if result else None}
            )

    async def error(self, code: str, message: str, client_id=None):
        """A refusal, naming the message refused by its id when it gave a well-formed
        one: a phone with a move on its way tells that move's refusal from another's
        (a gesture's "Slow down" had unmarked a card still on its way)."""
        reply = {"t": "error", "code": code, "message": message}
        if well_formed_client_id(client_id):
            reply["id"] = client_id
        await self.send_json(reply)

    # ---- outgoing
    def request_view(self, *, v: int = -1, w: int = -1, force: bool = False) -> None:
        """Ask for a render of at least table version v / workshop version w."""
        self.want_v = max(self.want_v, v)
        self.want_w = max(self.want_w, w)
        self.want_force = self.want_force or force
        if self._render is None or self._render.done():
            self._render = asyncio.ensure_future(self._render_pending())

    async def _render_pending(self):
        try:
            while not self.closed and (
                self.want_force or self.want_v > self.shown_v or self.want_w > self.shown_w
            ):
                force, self.want_force = self.want_force, False
                await self.send_view(force=force)
        except Exception:  # one failed render must not stop the socket's later ones
            log.exception("render for player %s failed", self.player_id)

    async def send_view(
        self, *, force: bool = False, fresh: Player | None = None, as_forced: bool = False
    ):
        """Render this seat's screen and send it, unless it shows nothing new.

        Forced (connect, sync, resync after a refused action): the versions are read
        from the database first. Otherwise the newest announced versions say how new
        the cached parts must be. Composing and rendering touch no database.
        """
        if force:
            player = fresh or await in_db_thread(player_with_versions)(self.player_id)
            if player is None:
                return await self.close_unknown()
            self.player, self.player_w = player, player.workshop_version
            wmin, tmin = player.workshop_version, player.table_version or 0
        else:
            wmin, tmin = self.want_w, self.want_v
        wpart = screencache.cached_workshop(self.workshop_id, wmin)
        if wpart is None:
            wpart = await screencache.load_once(
                ("w", self.workshop_id),
                lambda: in_db_thread(screencache.load_workshop)(self.workshop_id, wmin),
            )
            if wpart is not None and wpart["version"] < wmin:  # that read began too early
                wpart = await in_db_thread(screencache.load_workshop)(self.workshop_id, wmin)
            if wpart is None:
                return await self.close_unknown()
        if wpart["version"] > self.player_w:  # own row may have changed: moved, renamed…
            row = wpart["players"].get(self.player_id)
            if row is None:
                return await self.close_unknown()
            self.player, self.player_w = screencache.player_from_row(row), wpart["version"]
        if self.player.table_id != self.table_id:
            await self.switch_table(self.player.table_id)
            if not force:  # the new table's current version is not known here
                return await self.send_view(force=True)
        elif self.table_id and wpart["round_id"] != self.pad_round:
            # A new round at the same table: its pad starts clean (table_pad).
            await self.send_pad()
        tpart = None
        if self.table_id:
            rid = wpart["round_id"]
            tid = self.table_id
            # The movement bumps the tables and the workshop at once: drawn on the
            # workshop's message alone, a phone that stays named who had just left.
            tmin = max(tmin, wpart.get("tables", {}).get(tid, 0))
            tpart = screencache.cached_table(tid, tmin, rid)
            if tpart is None:
                tpart = await screencache.load_once(
                    ("t", tid, rid),
                    lambda: in_db_thread(screencache.load_table)(tid, tmin, rid),
                )
                if tpart is not None and tpart["version"] < tmin:  # that read began too early
                    tpart = await in_db_thread(screencache.load_table)(tid, tmin, rid)
        if tpart is not None and tpart["wversion"] > wpart["version"]:
            # The table was read after a workshop change this socket has not yet
            # heard of: render both new, never the new table under the old phase.
            self.want_w = max(self.want_w, tpart["wversion"])
            self.want_v = max(self.want_v, tpart["version"])
            return await self.send_view(as_forced=force or as_forced)
        v, w = (tpart["version"] if tpart else 0), wpart["version"]
        digest = (self.table_id, v, wpart["digest"], screencache.player_digest(self.player))
        force = force or as_forced
        if not force and (digest == self.last_digest or (v <= self.shown_v and w <= self.shown_w)):
            # Nothing this screen shows has changed (a join elsewhere, a facilitator's
            # setting): no render, no message.
            self.shown_v, self.shown_w = max(self.shown_v, v), max(self.shown_w, w)
            return
        ctx = selectors.compose_screen(self.player, wpart, tpart)
        html = render_to_string("play/_screen.html", ctx)
        self.shown_v, self.shown_w = max(self.shown_v, v), max(self.shown_w, w)
        self.last_digest = digest
        game = ctx["game"]
        # The game whose seats this screen lists, each with its "claimed" mark.
        self.marks_game = game["id"] if game and "seats" in game else None
        await self.send_json({"t": "view", "v": v, "w": w, "html": html, "force": force})

    async def close_unknown(self):
        self.closed = True
        await self.close(code=CLOSE_UNKNOWN)

    async def switch_table(self, table_id: int | None):
        if self.table_id:
            await self.channel_layer.group_discard(
                broadcast.table_group(self.table_id), self.channel_name
            )
        self.table_id = table_id
        self.shown_v = self.want_v = -1  # versions count per table
        if table_id:
            await self.channel_layer.group_add(broadcast.table_group(table_id), self.channel_name)
            await self.send_pad()

    async def send_pad(self):
        """The table's pad as it is now, in place of the phone's (table_pad)."""
        self.pad_round, strokes = await in_db_thread(table_pad)(self.table_id)
        await self.send_json({"t": "strokes", "strokes": strokes})

    async def table_changed(self, event):
        # The first socket of this process to hear of an in-game move advances the
        # cached table part with it; the others find it done (screencache.follow).
        screencache.follow(event)
        # Versions let a socket skip the render when it already showed this one.
        if event["table"] != self.table_id or event["version"] <= self.shown_v:
            return
        if self._only_a_mark(event):
            return await self.send_claimed_mark(event)
        self.request_view(v=event["version"])

    def _only_a_mark(self, event) -> bool:
        """Another seat's claim that changes this screen only in that seat's mark
        (services.play: `mark_claimed_by`), and this socket shows the version just
        before it with nothing else to render."""
        move = event.get("move")
        by = move.get("mark_claimed_by") if move else None
        return (
            by is not None
            and by != self.player_id
            and move["game"] == self.marks_game
            and event["version"] == self.shown_v + 1
            and (self._render is None or self._render.done())
            and not self.want_force
            and self.want_v <= self.shown_v
            and self.want_w <= self.shown_w
        )

    async def send_claimed_mark(self, event):
        """The screen of version v with one seat marked as claimed: what a render of v
        would show (the phone checks it shows v - 1, else asks for the screen)."""
        v = event["version"]
        self.shown_v = v
        if self.last_digest is not None:
            self.last_digest = (self.table_id, v, *self.last_digest[2:])
        seat = event["move"]["action"]["seat"]
        await self.send_json({"t": "claimed", "v": v, "from": v - 1, "seat": seat})

    async def workshop_changed(self, event):
        if event["version"] > self.shown_w:
            self.request_view(w=event["version"])

    async def table_gesture(self, event):
        if event["table"] != self.table_id:
            return
        g = event["gesture"]
        # Strokes and clears carry the name too: the phone says who drew (table.js).
        if g["kind"] == "drawing":
            await self.send_json(
                {"t": "stroke", "points": g["payload"]["points"], "by": g["by"], "name": g["name"]}
            )
        elif g["kind"] == "clear":
            await self.send_json({"t": "clear", "by": g["by"], "name": g["name"]})
        else:
            await self.send_json(
                {"t": "gesture", "kind": g["kind"], "name": g["name"], "by": g["by"]}
            )

    async def player_presence(self, event):
        """Another socket of this player closed and turned the facilitator's dot off:
        this one is still open, and says so (it is the player's latest now)."""
        if self.closed:
            return
        try:
            self.connected_since = await in_db_thread(services.player_set_connected)(
                player_id=self.player_id, connected=True
            )
        except ServiceError:
            pass

    async def player_replaced(self, event):
        await self.close(code=CLOSE_REMOVED if event.get("removed") else CLOSE_REPLACED)

    async def layer_reset(self, event=None):
        """Redis lost messages or groups (tournament.layerwatch calls this): join the
        groups again and re-read the screen. Safe beside the socket's own handlers."""
        for group in (
            broadcast.players_group(self.workshop_id),
            broadcast.player_group(self.player_id),
            *([broadcast.table_group(self.table_id)] if self.table_id else []),
        ):
            await self.channel_layer.group_add(group, self.channel_name)
        self.request_view(force=True)
