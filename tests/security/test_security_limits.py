"""Guessing and flooding: join codes, rejoin PINs, locked workshops, websocket floods."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from security_world import world
from socket_helpers import phone_socket, receive_type
from tournament_helpers import snapshot

from tournament import names, services
from tournament.models import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pinned_rate_window"),
]


def wrong_code(code: str) -> str:
    while True:
        guess = names.new_code()
        if guess != code:
            return guess


def test_join_code_guessing_is_cut_off_per_address(settings):
    settings.BARNGA_JOIN_BAD_CODE_LIMIT = 5
    w = world()
    guesser = Client(REMOTE_ADDR="10.0.0.66")
    for _ in range(5):
        r = guesser.post("/join", {"code": wrong_code(w.mine.code), "name": "Mallory"})
        assert r.status_code == 400 and b"No workshop has that code" in r.content
    # Now even the right code is refused from that address, with a clear message ...
    r = guesser.post("/join", {"code": w.mine.code, "name": "Mallory"})
    assert r.status_code == 400 and b"Too many wrong codes" in r.content
    r = guesser.post("/join/rejoin", {"code": w.mine.code, "name": "x", "pin": "0000"})
    assert r.status_code == 400 and b"Too many wrong codes" in r.content
    assert not Player.objects.filter(name="Mallory").exists()
    # ... while the rest of the class joins as usual.
    r = Client(REMOTE_ADDR="10.0.0.7").post("/join", {"code": w.mine.code, "name": "Nina"})
    assert r.status_code == 302


def test_rejoin_pin_guessing_is_cut_off_per_name(settings):
    settings.BARNGA_REJOIN_BAD_PIN_LIMIT = 3
    w = world()
    victim = w.student
    wrong = [f"{n:04d}" for n in range(10) if f"{n:04d}" != victim.pin][:3]
    for i, pin in enumerate(wrong):  # from several addresses: the count is per name
        r = Client(REMOTE_ADDR=f"10.0.1.{i}").post(
            "/join/rejoin", {"code": w.mine.code, "name": victim.name.lower(), "pin": pin}
        )
        assert r.status_code == 400 and b"do not match" in r.content
    before = snapshot()
    r = Client(REMOTE_ADDR="10.0.1.99").post(
        "/join/rejoin", {"code": w.mine.code, "name": victim.name, "pin": victim.pin}
    )
    assert r.status_code == 400 and b"Too many wrong PINs" in r.content
    assert snapshot() == before  # the seat did not move to the guesser
    # Another student's rejoin is not affected.
    other = Player.objects.filter(workshop=w.mine).exclude(pk=victim.pk).first()
    r = Client().post("/join/rejoin", {"code": w.mine.code, "name": other.name, "pin": other.pin})
    assert r.status_code == 302


def test_wrong_pins_sent_together_are_held_to_the_limit(settings, monkeypatch):
    """The limit was read before a try and counted after it failed: 20 wrong PINs sent
    together (each waiting for the workshop's lock, here a barrier in front of the
    service) were all checked against the seat. A right PIN after them is refused."""
    import threading

    from django.db import close_old_connections

    settings.BARNGA_REJOIN_BAD_PIN_LIMIT = 5
    w = world()
    victim = w.student
    burst = 20
    wrong = [f"{n:04d}" for n in range(burst + 1) if f"{n:04d}" != victim.pin][:burst]
    original = services.player_rejoin
    barrier = threading.Barrier(burst, timeout=5)

    def queued(**kw):
        try:
            barrier.wait()
        except threading.BrokenBarrierError:  # the refused tries never come here
            pass
        return original(**kw)

    monkeypatch.setattr(services, "player_rejoin", queued)
    pages: list[bytes] = []

    def one(i: int, pin: str) -> None:
        try:
            pages.append(
                Client(REMOTE_ADDR=f"10.0.9.{i}")
                .post("/join/rejoin", {"code": w.mine.code, "name": victim.name, "pin": pin})
                .content
            )
        finally:
            close_old_connections()

    threads = [threading.Thread(target=one, args=(i, p)) for i, p in enumerate(wrong)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(pages) == burst
    assert sum(b"do not match" in p for p in pages) == 5
    assert sum(b"Too many wrong PINs" in p for p in pages) == burst - 5
    monkeypatch.setattr(services, "player_rejoin", original)
    before = snapshot()
    r = Client().post("/join/rejoin", {"code": w.mine.code, "name": victim.name, "pin": victim.pin})
    assert b"Too many wrong PINs" in r.content and snapshot() == before


def test_a_right_pin_or_an_unknown_code_is_no_wrong_pin(settings):
    """Each try counts before it is checked; a right one, or one refused for another
    reason than its PIN, is taken back."""
    settings.BARNGA_REJOIN_BAD_PIN_LIMIT = 2
    w = world()
    victim = w.student
    for _ in range(3):  # three moves to a new phone and back: no wrong PIN among them
        victim.refresh_from_db()
        r = Client().post(
            "/join/rejoin", {"code": w.mine.code, "name": victim.name, "pin": victim.pin}
        )
        assert r.status_code == 302
    for _ in range(3):
        r = Client(REMOTE_ADDR="10.0.8.1").post(
            "/join/rejoin", {"code": wrong_code(w.mine.code), "name": victim.name, "pin": "0000"}
        )
        assert b"No workshop has that code" in r.content
    victim.refresh_from_db()
    r = Client().post("/join/rejoin", {"code": w.mine.code, "name": victim.name, "pin": victim.pin})
    assert r.status_code == 302


def test_password_guessing_at_the_log_in_is_cut_off_per_name_and_per_address(settings):
    """200 wrong passwords for 'alice' from one address were all checked, and the right
    one after them logged in. The admin's log-in is the site's own."""
    from security_world import PASSWORD

    settings.BARNGA_LOGIN_FAIL_LIMIT, settings.BARNGA_LOGIN_FAIL_LIMIT_PER_ADDRESS = 3, 5
    w = world()
    for i in range(3):
        r = Client(REMOTE_ADDR="10.0.3.1").post(
            "/login/", {"username": "alice", "password": f"guess{i}"}
        )
        assert r.status_code == 200 and "_auth_user_id" not in r.client.session
    r = Client(REMOTE_ADDR="10.0.3.1").post("/login/", {"username": "ALICE ", "password": PASSWORD})
    assert r.status_code == 429 and b"Too many failed log-ins" in r.content
    assert b'value="ALICE "' in r.content  # the name typed stays in its field
    assert "_auth_user_id" not in r.client.session
    # From elsewhere (the facilitator's own laptop) Alice still gets in: nobody can
    # lock her out of her class by failing in her name.
    r = Client(REMOTE_ADDR="10.0.3.2").post("/login/", {"username": "alice", "password": PASSWORD})
    assert r.status_code == 302
    # Another facilitator is not held up; a right password is no failure.
    for _ in range(4):
        r = Client(REMOTE_ADDR="10.0.4.1").post(
            "/login/", {"username": "bob", "password": PASSWORD}
        )
        assert r.status_code == 302
    # Per address: five wrong names from one, and then none from there.
    guesser = Client(REMOTE_ADDR="10.0.5.5")
    for i in range(5):
        assert guesser.post("/login/", {"username": f"u{i}", "password": "x"}).status_code == 200
    assert guesser.post("/login/", {"username": "bob", "password": PASSWORD}).status_code == 429
    assert w.bob.check_password(PASSWORD)
    r = Client().get("/admin/login/?next=/admin/")
    assert r.status_code == 302 and r["Location"] == "/login/?next=/admin/"


def test_join_attempts_per_address_are_limited(settings):
    settings.BARNGA_JOIN_LIMIT_PER_ADDRESS = 3
    w = world()
    statuses = [  # five phones behind one address (a phone with a seat keeps it)
        Client(REMOTE_ADDR="10.0.2.1")
        .post("/join", {"code": w.mine.code, "name": f"Quick {i}"})
        .status_code
        for i in range(5)
    ]
    assert statuses == [302, 302, 302, 400, 400]


def test_locked_workshop_refuses_joins():
    w = world()
    services.workshop_set_joining(workshop_id=w.mine.pk, locked=True)
    before = snapshot()
    r = Client().post("/join", {"code": w.mine.code, "name": "Late Larry"})
    assert r.status_code == 400 and b"closed joining" in r.content
    assert snapshot() == before
    # Its players can still move their seat to a new phone.
    r = Client().post(
        "/join/rejoin", {"code": w.mine.code, "name": w.student.name, "pin": w.student.pin}
    )
    assert r.status_code == 302


async def _phone(w):
    """The student's phone socket, connected, its first screen received."""
    comm = phone_socket(w.student)
    assert (await comm.connect())[0]
    await receive_type(comm, "view")
    return comm


@pytest.mark.asyncio
async def test_websocket_flood_gets_one_refusal_and_the_socket_lives(settings, phone_settle):
    settings.BARNGA_WS_RATE = 10
    w = await database_sync_to_async(world)()
    comm = await _phone(w)
    before = await database_sync_to_async(snapshot)()
    for i in range(200):
        await comm.send_to(
            text_data=json.dumps({"action": "gesture", "kind": "smile", "id": f"f{i}"})
        )
    # Every reply, up to a barrier: in a new window (a ping now would be dropped),
    # phone_settle's ping comes after the 200, their echoes before its mark.
    await asyncio.sleep(1.1)
    replies = await phone_settle(comm)
    rate = [r for r in replies if r.get("code") == "rate"]
    assert len(rate) == 1 and rate[0]["message"]
    # It names the message it refused (a phone tells it from its move's refusal): one
    # past a full window's worth.
    assert rate[0]["id"] in {f"f{i}" for i in range(settings.BARNGA_WS_RATE, 200)}, rate
    after = await database_sync_to_async(snapshot)()
    # At most the first window's messages were handled.
    assert len(after["Gesture"]) - len(before["Gesture"]) <= 2 * settings.BARNGA_WS_RATE
    # Oversized, then a normal message: clear error, socket still open.
    await comm.send_to(text_data=json.dumps({"action": "ping", "pad": "x" * 70_000}))
    while (msg := await comm.receive_json_from(timeout=3))["t"] != "error":
        pass
    assert msg["code"] in ("too_large", "rate")
    await asyncio.sleep(1.1)  # a new window
    await comm.send_json_to({"action": "ping"})
    while (await comm.receive_json_from(timeout=3))["t"] != "pong":
        pass
    await comm.disconnect()


@pytest.mark.parametrize(
    ("trust", "hops", "forwarded", "address"),
    [
        (False, 1, "203.0.113.5", "10.1.1.1"),  # no proxy trusted: the peer
        (True, 1, "203.0.113.5", "203.0.113.5"),  # the compose proxy's hop
        (True, 1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # a client's own claim ignored
        (True, 2, "203.0.113.5, 172.18.0.1", "203.0.113.5"),  # a TLS front, then nginx
        (True, 2, "6.6.6.6, 203.0.113.5, 172.18.0.1", "203.0.113.5"),
        (True, 2, "172.18.0.1", "172.18.0.1"),  # fewer hops than said: the first
        (True, 1, "", "10.1.1.1"),
    ],
)
def test_the_client_address_is_the_hop_our_own_proxies_wrote(
    settings, trust, hops, forwarded, address
):
    """Behind a TLS front and nginx every phone was the front's address: one guesser's
    wrong codes locked every class on the server out (PROXY_HOPS=2 now)."""
    from django.test import RequestFactory

    from tournament import ratelimit

    settings.TRUST_PROXY, settings.PROXY_HOPS = trust, hops
    request = RequestFactory().get("/", REMOTE_ADDR="10.1.1.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert ratelimit.client_address(request) == address


async def _replies(comm, count: int) -> list[dict]:
    """The socket's next messages, up to `count` gestures' echoes or a refusal, each
    given 10 s (a busy machine; phone_settle gives a message 1 s)."""
    got: list[dict] = []
    while sum(m["t"] == "gesture" for m in got) < count and not any(m["t"] == "error" for m in got):
        got.append(await comm.receive_json_from(timeout=10))
    return got


def _slow_gestures(monkeypatch, seconds):
    """Each gesture stored `seconds(n)` late (n: 0 for the first): a busy server."""
    real, calls = services.gesture_make, []

    def slow(**kwargs):
        time.sleep(seconds(len(calls)))
        calls.append(1)
        return real(**kwargs)

    monkeypatch.setattr(services, "gesture_make", slow)


@pytest.mark.asyncio
async def test_a_burst_is_refused_though_the_server_handles_it_slowly(
    settings, monkeypatch, phone_settle
):
    """The messages a phone sends are counted as they arrive: handled one at a time
    on a busy server (120 ms each here), a burst of 25 sent at once was never more
    than 10 a second as handled, so all were stored and none refused (a browser test
    waited in vain for "Slow down")."""
    settings.BARNGA_WS_RATE = 10
    w = await database_sync_to_async(world)()
    comm = await _phone(w)
    before = await database_sync_to_async(snapshot)()
    _slow_gestures(monkeypatch, lambda n: 0.12)
    for i in range(25):
        await comm.send_to(
            text_data=json.dumps({"action": "gesture", "kind": "smile", "id": f"b{i}"})
        )
    replies = await _replies(comm, 25)
    await asyncio.sleep(1.1)  # phone_settle's ping in a new window
    replies += await phone_settle(comm)
    rate = [r for r in replies if r.get("code") == "rate"]
    assert [r["id"] for r in rate] == ["b10"], replies
    after = await database_sync_to_async(snapshot)()
    assert len(after["Gesture"]) - len(before["Gesture"]) == 10
    await comm.disconnect()


@pytest.mark.asyncio
async def test_messages_sent_apart_are_not_one_burst_after_a_stall(
    settings, monkeypatch, phone_settle
):
    """A server stalled (the first gesture 1.5 s in the database here) handles what a
    phone sent meanwhile at once: 16 messages sent over more than a second, 8 at a
    time, were taken for one burst, the 11th refused and the rest dropped (a move
    among them lost without a word, and its phone gave the socket up)."""
    settings.BARNGA_WS_RATE = 10
    w = await database_sync_to_async(world)()
    comm = await _phone(w)
    before = await database_sync_to_async(snapshot)()
    _slow_gestures(monkeypatch, lambda n: 1.5 if n == 0 else 0)
    for batch in range(2):
        for i in range(8):
            await comm.send_to(
                text_data=json.dumps({"action": "gesture", "kind": "smile", "id": f"s{batch}{i}"})
            )
        await asyncio.sleep(1.1)
    replies = await _replies(comm, 16)
    assert [r for r in replies if r["t"] == "error"] == []
    replies += await phone_settle(comm)
    assert [r for r in replies if r["t"] == "error"] == []
    after = await database_sync_to_async(snapshot)()
    assert len(after["Gesture"]) - len(before["Gesture"]) == 16
    await comm.disconnect()
