"""Fuzzing the player's websocket with hypothesis: every message type, and garbage.

A player whose turn it is not sends random JSON, wrong types, missing fields,
oversized payloads, actions naming other seats, tables and players, and actions
in the wrong phase (a claim while cards are played). After every message the
socket must still answer a ping (no crash, no close), every error must carry a
code and a sentence, and nothing may have changed: the only rows a message may
add are its own gesture, when the server did not refuse it.

One socket serves every example: hypothesis runs in a worker thread and hands
each exchange to the test's event loop.
"""

from __future__ import annotations

import asyncio
import json
import os

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from security_world import world
from socket_helpers import facilitator_socket, phone_socket
from tournament_helpers import snapshot

from tournament import gamestate
from tournament.models import Game, GameState, Gesture, Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
EXAMPLES = int(os.environ.get("BARNGA_FUZZ_EXAMPLES", "150"))
ACTIONS = ["play", "claim", "gesture", "sync", "ping"]
FIELDS = [
    "action",
    "card",
    "winner",
    "version",
    "id",
    "kind",
    "points",
    "seat",
    "table",
    "player",
    "player_id",
    "game",
    "workshop",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=15,
)


def messages(ids: dict) -> st.SearchStrategy:
    """Texts to send: near-valid actions, raw JSON of any shape, and non-JSON."""
    plausible = {
        "card": st.sampled_from(ids["cards"]) | st.text(max_size=5) | json_values,
        "winner": st.sampled_from(ids["players"]) | st.integers() | json_values,
        "version": st.sampled_from(ids["versions"]) | st.integers() | json_values,
        "id": st.text(min_size=1, max_size=70) | json_values,
        "kind": st.sampled_from(ids["kinds"]) | st.text(max_size=12) | json_values,
        "points": st.lists(st.lists(st.floats(-2, 2), min_size=0, max_size=3), max_size=5)
        | json_values,
        "seat": st.integers(-1, 9) | json_values,
        "table": st.sampled_from(ids["tables"]) | json_values,
        "player": st.sampled_from(ids["players"]) | json_values,
        "player_id": st.sampled_from(ids["players"]) | json_values,
        "game": st.sampled_from(ids["games"]) | json_values,
        "workshop": st.sampled_from(ids["workshops"]) | json_values,
    }
    action = st.fixed_dictionaries(
        {"action": st.sampled_from(ACTIONS) | st.text(max_size=10) | json_values},
        optional={k: v for k, v in plausible.items()},
    )
    # Well-formed actions with real cards, players and versions, plus stray fields
    # naming other seats, tables and games: what a tampered client would send.
    near_valid = st.fixed_dictionaries(
        {
            "action": st.sampled_from(["play", "claim", "gesture"]),
            "card": st.sampled_from(ids["cards"]),
            "winner": st.sampled_from(ids["players"]),
            "kind": st.sampled_from(ids["kinds"]),
        },
        optional={
            k: plausible[k]
            for k in ("version", "id", "seat", "table", "player", "player_id", "game", "points")
        },
    )
    as_json = (action | near_valid | json_values).map(lambda v: json.dumps(v))
    oversized = action.map(lambda v: json.dumps({**v, "pad": "x" * 70_000}))
    raw = st.text(max_size=200) | st.sampled_from(["", "{", "[]", "null", "\x00", "{}" * 1000])
    binary = st.binary(max_size=100) | as_json.map(str.encode)
    return st.one_of(as_json, as_json, as_json, oversized, raw, binary)


@database_sync_to_async
def arena():
    """Alice's workshop in a scored round; the fuzzer is at table 1, not to act."""
    w = world()
    game = Game.objects.get(table__workshop=w.mine, table__number=1, state=GameState.PLAYING)
    state = gamestate.load_state(game)
    fuzzer = Player.objects.get(pk=game.players[(state.to_act + 1) % state.n_seats])
    everyone = list(Player.objects.values_list("pk", flat=True))
    games = list(Game.objects.values_list("pk", "table_id", "table__version"))
    ids = {
        "cards": sorted({c for h in state.hands for c in h}) + ["ZZ", "10H", ""],
        "players": everyone,
        "versions": sorted({v for *_, v in games} | {0, -1, 10**9}),
        "kinds": ["thumbs_up", "drawing", "clear", "point", "nope"],
        "tables": [t for _, t, _ in games],
        "games": [g for g, _, _ in games],
        "workshops": [w.mine.pk, w.other.pk],
    }
    return fuzzer, ids


def comparable(snap: dict) -> dict:
    # Gestures are checked on their own; connection dots and last-seen times are not state.
    out = {k: v for k, v in snap.items() if k != "Gesture"}
    out["Player"] = [
        {k: v for k, v in row.items() if k not in ("connected", "last_seen")}
        for row in snap["Player"]
    ]
    return out


async def exchange(comm, text: str | bytes) -> list[dict]:
    """Send one frame (text, or binary for bytes), then a ping; every reply before the pong."""
    # Broadcasts of the previous message's gesture may still be on their way.
    while not await comm.receive_nothing(timeout=0.01, interval=0.005):
        await comm.receive_output()
    key = "bytes" if isinstance(text, bytes) else "text"
    await comm.send_input({"type": "websocket.receive", key: text})
    await comm.send_json_to({"action": "ping"})
    replies = []
    while True:
        msg = await comm.receive_json_from(timeout=10)
        if msg.get("t") == "pong":
            return replies
        replies.append(msg)


async def open_socket(player) -> WebsocketCommunicator:
    comm = phone_socket(player)
    assert (await comm.connect())[0]
    await exchange(comm, json.dumps({"action": "sync"}))
    return comm


async def test_fuzz_player_socket(settings):
    settings.BARNGA_WS_RATE = 10**6  # floods have their own test; here every message is handled
    fuzzer, ids = await arena()
    sockets = [await open_socket(fuzzer)]
    loop = asyncio.get_running_loop()
    seen_codes: set[str] = set()

    def run(coro):
        future = asyncio.run_coroutine_threadsafe(coro, loop)
        try:
            return future.result(60)
        except BaseException:
            future.cancel()
            raise

    @hypothesis_settings(
        max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(text=messages(ids))
    def one_message(text):
        if sockets[-1].future.done():  # a crash in an earlier example: a fresh socket
            sockets.append(run(open_socket(fuzzer)))
        comm = sockets[-1]
        before = snapshot()
        try:
            replies = run(exchange(comm, text))
        except AssertionError:
            if comm.future.done() and comm.future.exception() is None:
                raise AssertionError(f"the socket closed on {text[:200]!r}") from None
            raise
        except Exception as exc:
            if comm.future.done():
                raise AssertionError(f"the consumer crashed on {text[:200]!r}: {exc!r}") from exc
            raise
        after = snapshot()
        errors = [r for r in replies if r.get("t") == "error"]
        for err in errors:
            assert isinstance(err.get("code"), str) and err["code"], err
            assert isinstance(err.get("message"), str) and err["message"].strip(), err
            seen_codes.add(err["code"])
        assert {r.get("t") for r in replies} <= {
            "error",
            "view",
            "ack",
            "strokes",
            "stroke",
            "gesture",
            "clear",
        }, replies
        assert comparable(after) == comparable(before), f"{text[:200]!r} changed the game"
        new = [g for g in after["Gesture"] if g not in before["Gesture"]]
        if errors:
            assert new == [], f"{text[:200]!r} was refused ({errors}) but left a gesture"
        for g in new:
            assert g["player_id"] == fuzzer.pk and g["table_id"] == fuzzer.table_id

    try:
        await asyncio.to_thread(one_message)
    finally:
        for comm in sockets:
            if not comm.future.done():
                await comm.disconnect()
    # The fuzzer reached the refusals that matter (not just "invalid").
    assert {"invalid", "too_large", "illegal"} <= seen_codes, seen_codes
    assert await database_sync_to_async(Gesture.objects.exclude(player=fuzzer).count)() == 0


async def test_wrong_phase_actions_are_refused_clearly():
    """In the lobby of Bob's workshop nothing can be played, claimed or gestured."""

    @database_sync_to_async
    def lobby_player():
        w = world()
        return Player.objects.filter(workshop=w.other).first()

    player = await lobby_player()
    comm = phone_socket(player)
    assert (await comm.connect())[0]
    before = await database_sync_to_async(snapshot)()
    for msg in (
        {"action": "play", "card": "AS", "id": "p"},
        {"action": "claim", "winner": player.pk, "id": "c"},
        {"action": "gesture", "kind": "smile"},
    ):
        replies = await exchange(comm, json.dumps(msg))
        [err] = [r for r in replies if r["t"] == "error"]
        assert err["code"] in ("wrong_phase", "not_allowed") and err["message"].strip()
        assert not [r for r in replies if r["t"] == "ack"]
    assert comparable(await database_sync_to_async(snapshot)()) == comparable(before)
    await comm.disconnect()


async def test_fuzz_facilitator_socket(settings):
    """The facilitator's socket takes only ping and sync; anything else is refused
    with an error, changes nothing and leaves the socket open."""
    from django.test import Client

    # Examples come faster than a person could send them; floods are tested
    # separately (test_facilitator_consumer: one `rate` refusal, the rest dropped).
    settings.BARNGA_WS_RATE = 100_000

    @database_sync_to_async
    def owner():
        w = world()
        client = Client()
        client.force_login(w.alice)
        return w, client.cookies["sessionid"].value

    w, session = await owner()
    comm = facilitator_socket(w.mine.pk, f"sessionid={session}")
    assert (await comm.connect())[0]
    assert (await comm.receive_json_from(timeout=5))["t"] == "regions"
    loop = asyncio.get_running_loop()

    async def send_and_ping(text):
        while not await comm.receive_nothing(timeout=0.01, interval=0.005):
            await comm.receive_output()
        key = "bytes" if isinstance(text, bytes) else "text"
        await comm.send_input({"type": "websocket.receive", key: text})
        await comm.send_json_to({"action": "ping"})
        while (await comm.receive_json_from(timeout=10)).get("t") != "pong":
            pass

    @hypothesis_settings(
        max_examples=max(20, EXAMPLES // 3),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        text=st.one_of(
            (
                json_values
                | st.fixed_dictionaries(
                    {
                        "action": st.sampled_from(
                            ["sync", "ping", "start-round", "kick", "end-now"]
                        )
                        | json_values
                    },
                    optional={"player": json_values, "workshop": json_values},
                )
            ).map(json.dumps),
            st.text(max_size=100),
            st.binary(max_size=50),
            st.just(json.dumps({"action": "sync", "pad": "x" * 70_000})),
        )
    )
    def one_message(text):
        before = snapshot()
        asyncio.run_coroutine_threadsafe(send_and_ping(text), loop).result(60)
        assert comparable(snapshot()) == comparable(before)
        assert not comm.future.done()

    try:
        await asyncio.to_thread(one_message)
    finally:
        await comm.disconnect()
