"""The player's websocket: thin. Authenticate, join groups, send views; receive, validate, call one service."""

from __future__ import annotations

import json
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string

from tournament import broadcast, selectors, services
from tournament.errors import ServiceError
from tournament.identity import token_from_cookie_value
from tournament.models import Gesture, Player

RESYNC_CODES = {"stale", "duplicate", "not_allowed", "wrong_phase"}
CLOSE_UNKNOWN = 4401
CLOSE_REPLACED = 4409


def render_screen(player_id: int) -> dict | None:
    ctx = selectors.player_screen(player_id)
    if ctx is None:
        return None
    html = render_to_string("play/_screen.html", ctx)
    table = ctx["table"]
    return {
        "html": html,
        "v": ctx["version"],
        "w": ctx["wversion"],
        "table_id": table.pk if table else None,
        "workshop_id": ctx["workshop"].pk,
    }


def player_for_token(token: str | None) -> Player | None:
    return selectors.player_by_token(token) if token else None


def drawing_since_clear(table_id: int, limit: int = 300) -> list:
    """The strokes on a table's pad now: every drawing since the last clear."""
    last_clear = (
        Gesture.objects.filter(table_id=table_id, kind="clear")
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    qs = Gesture.objects.filter(table_id=table_id, kind="drawing")
    if last_clear:
        qs = qs.filter(pk__gt=last_clear)
    return [g["points"] for g in qs.order_by("-pk").values_list("payload", flat=True)[:limit]][::-1]


class PlayerConsumer(AsyncJsonWebsocketConsumer):
    player_id: int | None = None
    table_id: int | None = None
    workshop_id: int | None = None

    async def connect(self):
        token = token_from_cookie_value(self.scope.get("cookies", {}).get("barnga_player"))
        player = await database_sync_to_async(player_for_token)(token)
        await self.accept()
        if player is None:
            await self.close(code=CLOSE_UNKNOWN)
            return
        self.player_id = player.pk
        self.workshop_id = player.workshop_id
        self.sent = (-1, -1)
        self.window_start = time.monotonic()
        self.window_count = 0
        await self.channel_layer.group_add(
            broadcast.players_group(self.workshop_id), self.channel_name
        )
        await self.channel_layer.group_add(
            broadcast.player_group(self.player_id), self.channel_name
        )
        await database_sync_to_async(services.player_set_connected)(
            player_id=self.player_id, connected=True
        )
        await self.send_view(force=True)

    async def disconnect(self, code):
        if self.player_id is None:
            return
        for group in (
            broadcast.players_group(self.workshop_id),
            broadcast.player_group(self.player_id),
            *([broadcast.table_group(self.table_id)] if self.table_id else []),
        ):
            await self.channel_layer.group_discard(group, self.channel_name)
        try:
            await database_sync_to_async(services.player_set_connected)(
                player_id=self.player_id, connected=False
            )
        except ServiceError:
            pass

    # ---- incoming
    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if self.player_id is None:
            return
        if bytes_data is not None or text_data is None:
            return await self.error("invalid", "Messages are JSON text.")
        if len(text_data) > settings.BARNGA_WS_MAX_BYTES:
            return await self.error("too_large", "That message is too large.")
        now = time.monotonic()
        if now - self.window_start >= 1.0:
            self.window_start, self.window_count = now, 0
        self.window_count += 1
        if self.window_count > settings.BARNGA_WS_RATE:
            return await self.error("rate", "Slow down: too many messages.")
        try:
            content = json.loads(text_data)
        except ValueError:
            return await self.error("invalid", "Messages are JSON objects.")
        if not isinstance(content, dict):
            return await self.error("invalid", "Messages are JSON objects.")
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs):
        action = content.get("action")
        if action == "ping":
            return await self.send_json({"t": "pong"})
        if action == "sync":
            return await self.send_view(force=True)
        version = content.get("version")
        client_id = content.get("id")
        try:
            result = None
            if action == "play":
                result = await database_sync_to_async(services.game_play)(
                    player_id=self.player_id,
                    card=content.get("card"),
                    expected_version=version,
                    client_action_id=client_id,
                )
            elif action == "claim":
                result = await database_sync_to_async(services.game_claim)(
                    player_id=self.player_id,
                    winner_player_id=content.get("winner"),
                    expected_version=version,
                    client_action_id=client_id,
                )
            elif action == "gesture":
                kind = content.get("kind")
                payload = {"points": content.get("points")} if kind == "drawing" else {}
                await database_sync_to_async(services.gesture_make)(
                    player_id=self.player_id, kind=kind, payload=payload
                )
            else:
                return await self.error("invalid", "Unknown action.")
        except ServiceError as exc:
            await self.error(exc.code, exc.message)
            if exc.code in RESYNC_CODES:
                await self.send_view(force=True)
            return
        if client_id is not None:
            # The version the action produced: a client (or the load test) knows
            # the table has caught up once every seat has shown it.
            await self.send_json({"t": "ack", "id": client_id, "v": result.version if result else None})

    async def error(self, code: str, message: str):
        await self.send_json({"t": "error", "code": code, "message": message})

    # ---- outgoing
    async def send_view(self, *, force: bool = False):
        view = await database_sync_to_async(render_screen)(self.player_id)
        if view is None:
            await self.close(code=CLOSE_UNKNOWN)
            return
        if view["table_id"] != self.table_id:
            await self.switch_table(view["table_id"])
        key = (view["v"], view["w"])
        if not force and key <= self.sent:
            return
        self.sent = max(self.sent, key)
        await self.send_json(
            {"t": "view", "v": view["v"], "w": view["w"], "html": view["html"], "force": force}
        )

    async def switch_table(self, table_id: int | None):
        if self.table_id:
            await self.channel_layer.group_discard(
                broadcast.table_group(self.table_id), self.channel_name
            )
        self.table_id = table_id
        if table_id:
            await self.channel_layer.group_add(broadcast.table_group(table_id), self.channel_name)
            strokes = await database_sync_to_async(drawing_since_clear)(table_id)
            await self.send_json({"t": "strokes", "strokes": strokes})

    async def table_changed(self, event):
        # Versions let a socket skip the render when it already showed this one.
        if event["table"] == self.table_id and event["version"] > self.sent[0]:
            await self.send_view()

    async def workshop_changed(self, event):
        if event["version"] > self.sent[1]:
            await self.send_view()

    async def table_gesture(self, event):
        if event["table"] != self.table_id:
            return
        g = event["gesture"]
        if g["kind"] == "drawing":
            await self.send_json({"t": "stroke", "points": g["payload"]["points"], "by": g["by"]})
        elif g["kind"] == "clear":
            await self.send_json({"t": "clear", "by": g["by"]})
        else:
            await self.send_json(
                {"t": "gesture", "kind": g["kind"], "name": g["name"], "by": g["by"]}
            )

    async def player_replaced(self, event):
        await self.close(code=CLOSE_REPLACED)
