"""A bare Channels group echo: the ceiling `manage.py loadtest --baseline` measures.

Routed only when BARNGA_BENCH_ECHO=1 (see tournament/routing.py), never in
production. It speaks the load bots' half of the player protocol with none of
the game: a client joins `bench_<table>`; `{"action": "echo", "v": n, "id": x}`
is group-sent to the table (every member gets `{"t": "view", "v": n}`) and
acknowledged to the sender (`{"t": "ack", "id": x, "v": n}`). No database, no
rendering: the same fan-out of 5 through the same channel layer.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

GROUP = re.compile(r"^[0-9]{1,9}$")


class EchoConsumer(AsyncWebsocketConsumer):
    group: str | None = None

    async def connect(self):
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        table = (query.get("table") or [""])[0]
        if not GROUP.match(table):
            await self.close(code=4400)
            return
        self.group = f"bench_{table}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=json.dumps({"t": "view", "v": 0, "w": 0, "html": "", "force": True}))

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            content = json.loads(text_data or "")
            version = int(content["v"])
        except (ValueError, KeyError, TypeError):
            return
        await self.channel_layer.group_send(self.group, {"type": "bench.echo", "v": version})
        await self.send(text_data=json.dumps({"t": "ack", "id": content.get("id"), "v": version}))

    async def bench_echo(self, event):
        await self.send(
            text_data=json.dumps({"t": "view", "v": event["v"], "w": 0, "html": "", "force": False})
        )
