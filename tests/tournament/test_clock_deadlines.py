"""The deadlines the pages count to, and the server's time the pings ask for.

Each countdown (a round's, a claim's, a dispute's; on a phone, the panel, a table's
page and the projector) carries its deadline in ms since the epoch (data-deadline)
beside the seconds left (data-seconds): live.js maps the deadline onto the device's
clock with the offset its pings measure, so a clock ends when the server's deadline
passes, not as late as the screen took to arrive. A paused clock has none."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from socket_helpers import facilitator_socket, phone_socket, receive_type
from test_facilitator_consumer import owned_workshop, regions, session_cookie
from test_screens import seat_screen
from tournament_helpers import (
    HIGH,
    LOW,
    fresh,
    game_at,
    make_workshop,
    open_dispute,
    play_until_claim,
    set_seat_sheets,
    tables_of,
    to_scored_round,
)

from tournament import services, timing
from tournament.consumers import pong
from tournament.models import Dispute, Game, Workshop


def ms(moment: datetime) -> str:
    return str(round(moment.timestamp() * 1000))


def deadline_of(html: str, cls: str) -> str | None:
    """The data-deadline of the first `<span class="{cls}…">` (None: it has none)."""
    tag = re.search(rf'<(?:span|p) class="{cls}[^"]*"[^>]*>', html)
    assert tag, f"no {cls} in the screen"
    found = re.search(r'data-deadline="([^"]*)"', tag.group(0))
    return found.group(1) if found else None


def test_a_deadline_is_said_in_whole_ms_since_the_epoch():
    at = datetime(2026, 12, 6, 14, 0, 5, 123_456, tzinfo=UTC)
    assert timing.epoch_ms(at) == 1_796_565_605_123
    assert timing.epoch_ms(None) is None


@pytest.mark.django_db
def test_a_phone_carries_its_rounds_and_its_claims_deadlines_not_while_paused():
    w = make_workshop(players=4, tables=1, seats=4, dispute_seconds=30)
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    me = game.players[0]
    html = seat_screen(me)
    assert deadline_of(html, "timer") == ms(fresh(rnd).deadline)

    play_until_claim(game)
    html = seat_screen(me)
    claim = Game.objects.get(pk=game.pk).claim_deadline
    assert deadline_of(html, "countdown") == ms(claim)
    assert deadline_of(html, "timer") == ms(fresh(rnd).deadline)

    # Paused: the clocks stand still at their seconds, with no deadline to count to.
    services.round_pause(round_id=rnd.pk)
    html = seat_screen(me)
    assert deadline_of(html, "timer") is None and deadline_of(html, "countdown") is None
    services.round_resume(round_id=rnd.pk)
    html = seat_screen(me)
    # Resumed: the claim's deadline moved by the pause, and the page is told the new one.
    assert deadline_of(html, "countdown") == ms(Game.objects.get(pk=game.pk).claim_deadline)
    assert deadline_of(html, "timer") == ms(fresh(rnd).deadline)


@pytest.mark.django_db
def test_a_disputes_countdown_carries_the_disputes_deadline():
    w = make_workshop(players=4, tables=1, seats=4, dispute_seconds=30)
    to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW])
    open_dispute(game)
    html = seat_screen(game.players[0])
    assert "Claims differ" in html
    dispute = Dispute.objects.get(game=game)
    assert deadline_of(html, "countdown") == ms(dispute.deadline)


@pytest.mark.django_db
def test_the_panel_a_tables_page_and_the_projector_carry_the_rounds_deadline(owner):
    w = make_workshop(players=4, tables=1, seats=4)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    rnd = to_scored_round(w)
    client = Client()
    client.force_login(owner)
    want = ms(fresh(rnd).deadline)
    for path, cls in (("", "timer"), ("tables/1/", "timer"), ("projector/", "proj-clock")):
        html = client.get(f"/workshops/{w.pk}/{path}").content.decode()
        assert deadline_of(html, cls) == want, path
    services.round_pause(round_id=rnd.pk)
    html = client.get(f"/workshops/{w.pk}/").content.decode()
    assert deadline_of(html, "timer") == ""


def test_a_ping_that_asks_the_time_is_answered_with_the_servers_time():
    before = time.time() * 1000
    answer = pong({"action": "ping", "clock": 1})
    assert answer["t"] == "pong" and before - 1 <= answer["now"] <= time.time() * 1000 + 1
    # A bare ping, or one asking in another shape, keeps its bare pong.
    for ping in (
        {"action": "ping"},
        {"action": "ping", "clock": "yes"},
        {"action": "ping", "clock": [1]},
    ):
        assert pong(ping) == {"t": "pong"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_both_sockets_answer_a_ping_asking_the_time():
    w = await database_sync_to_async(make_workshop)(players=4, tables=1, seats=4)
    player = await database_sync_to_async(lambda: w.players.first())()
    comm = phone_socket(player)
    assert (await comm.connect())[0]
    before = time.time() * 1000
    await comm.send_json_to({"action": "ping", "clock": 1})
    now = (await receive_type(comm, "pong"))["now"]
    assert before - 1 <= now <= time.time() * 1000 + 1
    await comm.disconnect()

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=3, tables=1)
    comm = facilitator_socket(w.pk, cookie)
    assert (await comm.connect())[0]
    await regions(comm)
    before = time.time() * 1000
    await comm.send_json_to({"action": "ping", "clock": 1})
    answer = await comm.receive_json_from(timeout=3)
    assert answer["t"] == "pong" and before - 1 <= answer["now"] <= time.time() * 1000 + 1
    await comm.disconnect()
