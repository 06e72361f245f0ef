"""A bare Channels group echo: the ceiling `manage.py loadtest --baseline` measures.

Routed only when BARNGA_BENCH_ECHO=1 (see tournament/routing.py), never in
production. It speaks the load bots' half of the player protocol with none of
the game: a client joins `bench_<table>`; `{"action": "echo", "v": n, "id": x}`
is group-sent to the table (every member gets `{"t": "view", "v": n}`) and
acknowledged to the sender (`{"t": "ack", "id": x, "v": n}`). No database, no
rendering: the same fan-out of 5 through the same channel layer.

With BARNGA_BENCH_ECHO_STORE=1 (`manage.py loadtest --baseline-store`) each echo is
first stored, as the least any app that keeps every action must do: one durable
transaction on a database thread of the app's pool (consumers.in_db_thread), the
table's row upserted (the lock and version an action takes) and the message's row
inserted, then acknowledged. No reads, no game, no screen. The tables are the load
test's own (`create_tables`, `drop_tables`), made and dropped around the run.
"""

from __future__ import annotations

import contextlib
import json
import re
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connection, transaction

GROUP = re.compile(r"^[0-9]{1,9}$")
VERSIONS, LOG = "bench_echo_version", "bench_echo_log"
PAYLOAD = '{"type": "play", "seat": 1, "card": "5H"}'  # an action's size, stored as text


def create_tables() -> None:
    """The stored echo's tables, made by the load test's own process before the servers start."""
    ident = (
        "integer PRIMARY KEY"
        if connection.vendor == "sqlite"
        else "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
    )
    drop_tables()  # a run killed before it could drop them
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {VERSIONS} (key bigint PRIMARY KEY, v bigint NOT NULL)")
        cursor.execute(
            f"CREATE TABLE {LOG} (id {ident}, key bigint NOT NULL, v bigint NOT NULL,"
            " client_id varchar(64), payload text NOT NULL)"
        )


@contextlib.contextmanager
def tables():
    """The stored echo's tables for the length of a run, dropped however it ends."""
    create_tables()
    try:
        yield
    finally:
        drop_tables()


def stored_keys() -> list[tuple[int, str]]:
    """(table key, client id) of every stored echo, to hold the acknowledgements against."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, client_id FROM {LOG}")
        return [(int(k), c) for k, c in cursor.fetchall()]


def drop_tables() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {LOG}")
        cursor.execute(f"DROP TABLE IF EXISTS {VERSIONS}")


def store(key: int, version: int, client_id: str | None) -> None:
    """One echo, durably: its table's row (its lock) and its own row, in one transaction."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {VERSIONS} (key, v) VALUES (%s, 1)"
            f" ON CONFLICT (key) DO UPDATE SET v = {VERSIONS}.v + 1",
            [key],
        )
        cursor.execute(
            f"INSERT INTO {LOG} (key, v, client_id, payload) VALUES (%s, %s, %s, %s)",
            [key, version, client_id, PAYLOAD],
        )


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
        await self.send(
            text_data=json.dumps({"t": "view", "v": 0, "w": 0, "html": "", "force": True})
        )

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            content = json.loads(text_data or "")
            version = int(content["v"])
        except (ValueError, KeyError, TypeError):
            return
        if settings.BARNGA_BENCH_ECHO_STORE:
            from tournament.consumers import in_db_thread

            client_id = content.get("id")
            await in_db_thread(store)(
                int(self.group.removeprefix("bench_")),
                version,
                client_id if isinstance(client_id, str) else None,
            )
        await self.channel_layer.group_send(self.group, {"type": "bench.echo", "v": version})
        await self.send(text_data=json.dumps({"t": "ack", "id": content.get("id"), "v": version}))

    async def bench_echo(self, event):
        await self.send(
            text_data=json.dumps({"t": "view", "v": event["v"], "w": 0, "html": "", "force": False})
        )
