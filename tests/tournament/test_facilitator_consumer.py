"""The facilitator's websocket (issue 5): only the workshop's own facilitator,
regions pushed on every change and coalesced in bursts, and a projector feed
that carries no secret."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from facilitator_helpers import assert_no_secrets
from socket_helpers import facilitator_socket
from tournament_helpers import finish_trick, game_at, make_workshop, tables_of, to_scored_round

from tournament import gamestate, services
from tournament.models import Game, GameState, Player, Workshop
from tournament.templatetags.cards import card_face

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def session_cookie(username: str) -> str:
    user = User.objects.create_user(username, password="a-long-pass-123")
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


@database_sync_to_async
def owned_workshop(username: str, **kw) -> Workshop:
    w = make_workshop(**kw)
    Workshop.objects.filter(pk=w.pk).update(facilitator=User.objects.get(username=username))
    return w


async def regions(comm, timeout=3):
    """The next push, acknowledged as the page does once it has put it in."""
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["t"] == "regions":
            await comm.send_json_to({"action": "ack"})
            return msg


@pytest.fixture
def settle(monkeypatch):
    """`await settle(*comms)`: every message those sockets send for the changes announced
    so far, one list per socket, each push acknowledged as the page does.

    An ordering barrier, not a quiet time: a waiting test was slow and, on a busy
    machine, could end before a late push came. A mark goes to the workshop's
    facilitator group after the changes' messages (a channel's messages arrive in
    order, and each socket handles them one at a time: a socket that has handled the
    mark has handled them all); then every render they asked for is awaited (the
    coalescing task done); then a ping, whose pong comes after all the socket sent."""
    from channels.layers import get_channel_layer

    from tournament import broadcast
    from tournament.consumers_facilitator import FacilitatorConsumer

    live: list[FacilitatorConsumer] = []
    real_connect, real_disconnect = FacilitatorConsumer.connect, FacilitatorConsumer.disconnect

    async def connect(self):
        self.marks = set()
        live.append(self)
        await real_connect(self)

    async def disconnect(self, code):
        if self in live:
            live.remove(self)
        await real_disconnect(self, code)

    async def table_gesture(self, event):  # the panel ignores gestures: the mark is one
        self.marks.add(event.get("mark"))

    monkeypatch.setattr(FacilitatorConsumer, "connect", connect)
    monkeypatch.setattr(FacilitatorConsumer, "disconnect", disconnect)
    monkeypatch.setattr(FacilitatorConsumer, "table_gesture", table_gesture)
    marks = iter(range(1, 1_000_000))

    def idle(consumer, mark) -> bool:
        return mark in consumer.marks and (consumer._task is None or consumer._task.done())

    async def take(comm, into):
        into.append(await comm.receive_json_from())
        if into[-1]["t"] == "regions":
            await comm.send_json_to({"action": "ack"})

    async def run(*comms) -> list | list[list]:
        mark = next(marks)
        groups = {broadcast.facilitator_group(c.workshop_id) for c in live if c.group}
        for group in groups:
            await get_channel_layer().group_send(group, {"type": "table.gesture", "mark": mark})
        got: list[list] = [[] for _ in comms]
        async with asyncio.timeout(20):
            # A push waits for the last one's ack: read (and ack) while waiting.
            while not all(idle(c, mark) for c in live if c.group):
                for comm, into in zip(comms, got, strict=True):
                    if not await comm.receive_nothing(timeout=0.01, interval=0.005):
                        await take(comm, into)
            for comm, into in zip(comms, got, strict=True):
                await comm.send_json_to({"action": "ping"})
                while not (into and into[-1]["t"] == "pong"):
                    await take(comm, into)
                into.pop()
        return got[0] if len(comms) == 1 else got

    return run


async def test_own_workshop_gets_a_snapshot_of_every_panel_region():
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=3, tables=2)
    comm = facilitator_socket(w.pk, cookie)
    assert (await comm.connect())[0]
    snap = await regions(comm)
    assert snap["force"] is True
    assert set(snap["regions"]) == {
        "fac-status",
        "fac-settings",
        "fac-roster",
        "fac-movement",
        "fac-monitor",
    }
    assert (
        'id="fac-roster"' in snap["regions"]["fac-roster"]
        and "P03" in snap["regions"]["fac-roster"]
    )
    await comm.send_json_to({"action": "ping"})
    assert (await comm.receive_json_from())["t"] == "pong"
    await comm.send_json_to({"action": "sync"})
    assert (await regions(comm))["force"] is True
    await comm.disconnect()


@pytest.mark.parametrize("who", ["other", "anonymous"])
async def test_anyone_else_is_closed_with_4403(who):
    await session_cookie("ada")
    w = await owned_workshop("ada", players=2, tables=1)
    cookie = await session_cookie("mallory") if who == "other" else None
    comm = facilitator_socket(w.pk, cookie)
    connected, _ = await comm.connect()
    assert connected
    out = await comm.receive_output()
    assert out["type"] == "websocket.close" and out["code"] == 4403
    # And nothing of the workshop was sent first.
    assert await comm.receive_nothing()


async def test_a_missing_workshop_is_closed_with_4403():
    cookie = await session_cookie("ada")
    comm = facilitator_socket(999999, cookie)
    await comm.connect()
    out = await comm.receive_output()
    assert out["code"] == 4403


async def test_changes_are_pushed_and_bursts_are_coalesced(settle):
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=0, tables=2)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    await regions(comm)
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Zed")
    pushed = await regions(comm)
    assert pushed["force"] is False and "Zed" in pushed["regions"]["fac-roster"]
    # A burst of 20 joins: far fewer renders than messages, and the last render is complete.
    for i in range(20):
        await database_sync_to_async(services.player_join)(workshop_id=w.pk, name=f"Burst {i}")
    msgs = [m for m in await settle(comm) if m["t"] == "regions"]
    assert 1 <= len(msgs) <= 8
    assert "Burst 19" in msgs[-1]["regions"]["fac-roster"]
    await comm.disconnect()


async def test_connection_dots_follow_player_sockets(settle):
    """A phone connecting or going changes a dot: the panel is sent the dot, which the
    page sets in its roster, and the monitor with its own; the whole roster drawn again
    (350 kB at 200 players) for each phone that slept or woke kept the page busy."""
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=2, tables=1)
    await database_sync_to_async(services.players_seat_home)(workshop_id=w.pk)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    await regions(comm)
    player_id = await database_sync_to_async(lambda: w.players.first().pk)()
    await database_sync_to_async(services.player_set_connected)(player_id=player_id, connected=True)
    got = await settle(comm)
    dots = [m for m in got if m["t"] == "presence"]
    assert [{k: v for k, v in m.items() if k != "at"} for m in dots] == [
        {"t": "presence", "player": player_id, "connected": True}
    ]
    # When it was written, as each roster row says when its dot was read.
    seen = await database_sync_to_async(lambda: w.players.get(pk=player_id).last_seen)()
    assert dots[0]["at"] == seen.timestamp() * 1000
    pushed = [m["regions"] for m in got if m["t"] == "regions"]
    assert pushed and not any("fac-roster" in r for r in pushed), got
    assert 'class="dot on"' in pushed[-1]["fac-monitor"]
    # The roster drawn again (a sync, or any change it shows) has the dot too.
    await comm.send_json_to({"action": "sync"})
    assert 'class="dot on"' in (await regions(comm))["regions"]["fac-roster"]
    await comm.disconnect()


@database_sync_to_async
def play_a_while(w):
    """Study starts and a trick is played at every table, plus one card of the next."""
    services.workshop_start_study(workshop_id=w.pk)
    for table in tables_of(w):
        game = game_at(table)
        finish_trick(game)
        game.refresh_from_db()
        state = gamestate.load_state(game)
        services.game_play(player_id=game.players[state.to_act], card=state.hands[state.to_act][0])


async def test_projector_feed_never_carries_a_secret_but_the_table_feed_has_the_hands(settle):
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=8, tables=2, seats=4)
    proj = facilitator_socket(w.pk, cookie, "view=projector")
    table = facilitator_socket(w.pk, cookie, "view=table&table=1")
    await proj.connect()
    await table.connect()
    first = await regions(proj)
    assert set(first["regions"]) == {"projector-heading", "projector-live"}
    await regions(table)
    await play_a_while(w)
    proj_rest, table_msgs = await settle(proj, table)
    proj_msgs = [first, *proj_rest]
    for msg in proj_msgs:
        await database_sync_to_async(assert_no_secrets)(str(msg), w)
    assert any("Study the rules" in str(m) for m in proj_msgs)
    game = await database_sync_to_async(
        lambda: Game.objects.get(table__workshop=w, table__number=1, state=GameState.PLAYING)
    )()
    state = await database_sync_to_async(gamestate.load_state)(game)
    last = [m for m in table_msgs if m["t"] == "regions"][-1]["regions"]["fac-table"]
    for hand in state.hands:
        for card in hand:
            assert card_face(card) in last
    await proj.disconnect()
    await table.disconnect()


async def test_unknown_view_falls_back_to_the_panel(settle):
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=1, tables=1)
    comm = facilitator_socket(w.pk, cookie, "view=secret-stuff")
    await comm.connect()
    assert "fac-status" in (await regions(comm))["regions"]
    await comm.send_to(text_data="not json")
    await comm.send_json_to(["a list"])
    for _ in range(2):
        assert (await comm.receive_json_from(timeout=3))["code"] == "invalid"
    assert await settle(comm) == []
    await comm.disconnect()


async def test_facilitator_socket_answers_bad_messages_and_limits_floods():
    """Bad messages get a clear error; a flood gets one `rate` refusal, the rest dropped."""
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=2, tables=1)
    comm = facilitator_socket(w.pk, cookie)
    assert (await comm.connect())[0]
    await regions(comm)
    await comm.send_to(text_data="not json")
    assert (await comm.receive_json_from(timeout=3)) == {
        "t": "error",
        "code": "invalid",
        "message": "Unknown message.",
    }
    await comm.send_json_to({"action": "delete_everything"})
    assert (await comm.receive_json_from(timeout=3))["code"] == "invalid"
    await comm.send_to(text_data="[" * 30000)  # deeper than the parser goes
    assert (await comm.receive_json_from(timeout=3))["code"] == "invalid"
    # Nothing else came of them: a ping's pong is the next message.
    await comm.send_json_to({"action": "ping"})
    assert (await comm.receive_json_from(timeout=3)) == {"t": "pong"}
    # A fresh one-second window (the limit's own clock: a sleep is what it takes).
    await asyncio.sleep(1.1)
    for _ in range(40):
        await comm.send_json_to({"action": "ping"})
    # Handled in order: 20 pongs (BARNGA_WS_RATE), then one refusal...
    seen = [await comm.receive_json_from(timeout=3) for _ in range(21)]
    assert seen == [{"t": "pong"}] * 20 + [
        {"t": "error", "code": "rate", "message": "Slow down: too many messages."}
    ]
    # ...and the other 19 dropped: once a new window lets a ping through, its pong is
    # the next message (the socket handles its messages one at a time, in order).
    await asyncio.sleep(1.1)
    await comm.send_json_to({"action": "ping"})
    assert (await comm.receive_json_from(timeout=3)) == {"t": "pong"}
    await comm.disconnect()


async def test_a_join_reaches_the_roster_but_wakes_no_phone():
    """A crowd joining must not cost every phone a screen check per join: a join is
    announced to the facilitator's group, not to the workshop's phones."""
    from channels.layers import get_channel_layer

    from tournament import broadcast

    w = await owned_workshop_plain()
    layer = get_channel_layer()
    phones = await layer.new_channel()
    facilitator = await layer.new_channel()
    await layer.group_add(broadcast.players_group(w.pk), phones)
    await layer.group_add(broadcast.facilitator_group(w.pk), facilitator)
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Late")
    got = await asyncio.wait_for(layer.receive(facilitator), 2)
    assert got == {"type": "roster.changed", "workshop": w.pk}
    # Nothing for the phones: a mark sent to their group after the join's messages is
    # the first thing there (a channel's messages arrive in the order sent).
    await layer.group_send(broadcast.players_group(w.pk), {"type": "test.mark"})
    assert await asyncio.wait_for(layer.receive(phones), 2) == {"type": "test.mark"}
    # A change the phones do show (the phase) still reaches them.
    await database_sync_to_async(services.players_seat_home)(workshop_id=w.pk)
    got = await asyncio.wait_for(layer.receive(phones), 2)
    assert got["type"] == "workshop.changed"


@database_sync_to_async
def owned_workshop_plain():
    return make_workshop(players=3, tables=1, seats=4)


async def test_a_push_carries_only_the_regions_that_changed_and_sync_sends_all(settle):
    """A region replaced in the page takes the button under the pointer with it: a
    join changes the roster (and the counts in the status line), not the movement or
    the tables' monitor; a change nobody can see sends nothing."""
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=2, tables=2)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    first = await regions(comm)
    assert len(first["regions"]) == 5
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Zed")
    pushed = await regions(comm)
    assert "fac-roster" in pushed["regions"]
    assert not {"fac-movement", "fac-monitor"} & set(pushed["regions"]), list(pushed["regions"])
    # The same group message again: nothing on screen changed, so nothing is sent.
    from channels.layers import get_channel_layer

    from tournament import broadcast

    await get_channel_layer().group_send(
        broadcast.facilitator_group(w.pk), {"type": "roster.changed", "workshop": w.pk}
    )
    assert [m for m in await settle(comm) if m["t"] == "regions"] == []
    await comm.send_json_to({"action": "sync"})
    again = await regions(comm)
    assert again["force"] is True and len(again["regions"]) == 5
    await comm.disconnect()


async def test_a_move_or_a_deal_does_not_redraw_the_roster_but_any_other_change_does(settle):
    """At 1,000 players the roster is half of each render (0.24 of 0.5 s), and the
    tables' moves and deals are what keep a panel redrawing: a table's message marked
    `game_only` (a move or the next game dealt, and nothing else changed) leaves the
    roster as drawn. Here a name is changed behind the panel's back (no message of its
    own): such a message does not show it; a table's message without the mark (a
    seating, a round's start) does."""
    from channels.layers import get_channel_layer

    from tournament import broadcast
    from tournament.models import Player

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=3, tables=2)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    await regions(comm)
    await database_sync_to_async(
        lambda: Player.objects.filter(workshop=w, name="P02").update(name="Quietly renamed")
    )()
    layer, group = get_channel_layer(), broadcast.facilitator_group(w.pk)
    table = {"type": "table.changed", "table": 1, "version": 99}
    await layer.group_send(group, {**table, "game_only": True})
    pushed = [m for m in await settle(comm) if m["t"] == "regions"]
    assert not any("Quietly renamed" in html for m in pushed for html in m["regions"].values())
    assert not any("fac-roster" in m["regions"] for m in pushed)
    await layer.group_send(group, table)
    pushed = await regions(comm)
    assert "Quietly renamed" in pushed["regions"]["fac-roster"]
    await comm.disconnect()


async def test_a_real_move_reaches_the_panel_without_its_roster_and_a_rename_with_it(settle):
    """The services mark a game's move for the panels (broadcast.table_changed_on_commit):
    the monitor follows the move; the roster waits for a change of its own."""
    import random

    from tournament.models import Player

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=4, tables=1)
    await database_sync_to_async(to_scored_round)(w)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    await regions(comm)

    @database_sync_to_async
    def quiet_rename_then_move():
        Player.objects.filter(workshop=w, name="P02").update(name="Quietly renamed")
        game = game_at(tables_of(w)[0])
        kind = gamestate.kind_of(game)
        state = gamestate.load_state(game)
        seat = kind.to_act(state)[0]
        card = kind.bot_action(state, seat, random.Random(1))["card"]
        services.game_play(player_id=game.players[seat], card=card)

    await quiet_rename_then_move()
    pushed = [m for m in await settle(comm) if m["t"] == "regions"]
    assert any("fac-monitor" in m["regions"] for m in pushed)  # the move is shown
    assert not any("fac-roster" in m["regions"] for m in pushed)
    p03 = await database_sync_to_async(lambda: Player.objects.get(workshop=w, name="P03").pk)()
    await database_sync_to_async(services.player_rename)(
        workshop_id=w.pk, player_id=p03, name="Openly renamed"
    )
    roster = (await regions(comm, timeout=5))["regions"]["fac-roster"]
    assert "Openly renamed" in roster and "Quietly renamed" in roster
    await comm.disconnect()


@database_sync_to_async
def panel_have(username: str, workshop_id: int) -> str:
    """The panel page's `have`: the digests of the regions it was drawn with."""
    client = Client()
    client.force_login(User.objects.get(username=username))
    html = client.get(f"/workshops/{workshop_id}/").content.decode()
    return html.split('data-have="')[1].split('"')[0]


async def test_a_page_that_says_what_it_holds_is_not_sent_it_again(settle):
    """Every panel load sent the page twice: the HTML, then the same regions over the
    socket (700 kB each at 200 players). The page hands its socket the digests of what
    it drew; the first push carries only what changed since."""
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=3, tables=2)
    have = await panel_have("ada", w.pk)
    assert have.count(":") == 5
    comm = facilitator_socket(w.pk, cookie, query=f"view=panel&have={have}")
    assert (await comm.connect())[0]
    # One message that says the page is live and holds it all: no region in it.
    assert [m["regions"] for m in await settle(comm) if m["t"] == "regions"] == [{}]
    # Changed since the page was drawn: only that region comes.
    await comm.disconnect()
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Zed")
    comm = facilitator_socket(w.pk, cookie, query=f"view=panel&have={have}")
    await comm.connect()
    pushed = await regions(comm)
    assert "fac-roster" in pushed["regions"] and "fac-monitor" not in pushed["regions"]
    assert "Zed" in pushed["regions"]["fac-roster"]
    await comm.disconnect()
    # A garbled or foreign `have` is everything again.
    for bad in ("fac-status:nothex,fac-roster", "x" * 500, ""):
        comm = facilitator_socket(w.pk, cookie, query=f"view=panel&have={bad}")
        await comm.connect()
        assert len((await regions(comm))["regions"]) == 5
        await comm.disconnect()


async def test_the_next_push_waits_for_the_page_to_put_the_last_one_in():
    """A page slower than the server is sent the state as it is when it is ready, not
    a queue of old snapshots: until it acknowledges a push, no other is sent."""
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=0, tables=2)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    msg = await comm.receive_json_from(timeout=3)  # the snapshot, not acknowledged
    assert msg["t"] == "regions"
    for name in ("Ann", "Bo"):
        await database_sync_to_async(services.player_join)(workshop_id=w.pk, name=name)
    assert await comm.receive_nothing(timeout=1.0)
    await comm.send_json_to({"action": "ack"})
    pushed = await regions(comm)
    assert "Ann" in pushed["regions"]["fac-roster"] and "Bo" in pushed["regions"]["fac-roster"]
    await comm.disconnect()


@pytest.mark.parametrize("view", ["panel", "projector", "table&table=1"])
async def test_a_clock_counting_down_is_not_sent_again_but_added_time_is(view, settle):
    """The page counts a running clock down itself: a push whose only change is that
    seconds have passed (the tables play on, every move re-renders) sends nothing, so
    the projector is not redrawn and the panel's buttons not replaced under the
    pointer; a minute added changes the deadline, and that is sent."""
    from channels.layers import get_channel_layer

    from tournament import broadcast

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=8, tables=2)
    rnd = await database_sync_to_async(to_scored_round)(w)
    comm = facilitator_socket(w.pk, cookie, query=f"view={view}")
    await comm.connect()
    first = await regions(comm)
    clock_region = next(k for k, html in first["regions"].items() if 'role="timer"' in html)
    await asyncio.sleep(2.1)  # the clock reads two seconds less now
    await get_channel_layer().group_send(
        broadcast.facilitator_group(w.pk), {"type": "table.changed", "workshop": w.pk}
    )
    assert [m for m in await settle(comm) if m["t"] == "regions"] == []
    await database_sync_to_async(services.round_extend)(round_id=rnd.pk, seconds=60)
    pushed = await regions(comm)
    seconds = lambda html: int(html.split('data-seconds="')[1].split('"')[0])  # noqa: E731
    assert seconds(pushed["regions"][clock_region]) >= seconds(first["regions"][clock_region]) + 55
    # Paused, a minute added changes only the clock's seconds: that is sent too.
    await database_sync_to_async(services.round_pause)(round_id=rnd.pk)
    paused = await regions(comm)
    await settle(comm)
    await database_sync_to_async(services.round_extend)(round_id=rnd.pk, seconds=60)
    more = await regions(comm)
    assert seconds(more["regions"][clock_region]) == seconds(paused["regions"][clock_region]) + 60
    await comm.disconnect()


async def test_a_join_while_the_first_snapshot_is_drawn_is_pushed(monkeypatch):
    """The socket drew its first snapshot, then joined the workshop's group: a change
    committed in between was announced to nobody, and the panel missed it until
    something else changed."""
    from tournament import regions as regions_module

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=3, tables=2)
    draw = regions_module.render
    calls = []

    def racing(*args, **kw):
        out = draw(*args, **kw)
        if not calls:
            services.player_join(workshop_id=w.pk, name="Zed")
        calls.append(1)
        return out

    monkeypatch.setattr(regions_module, "render", racing)
    comm = facilitator_socket(w.pk, cookie)
    assert (await comm.connect())[0]
    first = await regions(comm)
    assert "Zed" not in first["regions"]["fac-roster"]  # drawn before the join
    later = await regions(comm, timeout=8)
    assert "Zed" in later["regions"]["fac-roster"]
    await comm.disconnect()


async def test_logging_out_closes_the_panels_socket():
    """After logout the page's socket went on pushing the workshop (its status region
    holds the tables' sheets) to whoever used the browser next."""
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=3, tables=2)
    comm = facilitator_socket(w.pk, cookie)
    assert (await comm.connect())[0]
    await regions(comm)
    other = facilitator_socket(w.pk, await session_cookie_of_another_login("ada"))
    assert (await other.connect())[0]
    await regions(other)

    def logout():
        client = Client()
        client.cookies["sessionid"] = cookie.split("=", 1)[1]
        return client.post("/logout/")

    response = await database_sync_to_async(logout)()
    assert response.status_code in (200, 302)
    out = await comm.receive_output(timeout=3)
    while out["type"] != "websocket.close":
        out = await comm.receive_output(timeout=3)
    assert out["code"] == 4403
    # The same facilitator logged in on another browser keeps theirs.
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Zed")
    later = await regions(other, timeout=8)
    assert "Zed" in later["regions"]["fac-roster"]
    await other.disconnect()


@database_sync_to_async
def session_cookie_of_another_login(username: str) -> str:
    client = Client()
    client.force_login(User.objects.get(username=username))
    return f"sessionid={client.cookies['sessionid'].value}"


async def test_a_render_that_only_waited_does_not_hold_the_next_one_back(monkeypatch):
    """A render that waited (for a database thread, for the database) is no sign of an
    expensive panel: the next push comes after THROTTLE as before."""
    from tournament import regions as regions_module

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=0, tables=2)
    draw = regions_module.render

    def waiting_render(*args, **kwargs):
        import time

        time.sleep(0.4)
        return draw(*args, **kwargs)

    monkeypatch.setattr(regions_module, "render", waiting_render)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    await regions(comm, timeout=10)
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Ann")
    await regions(comm, timeout=10)
    loop = asyncio.get_running_loop()
    at = loop.time()
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Bo")
    pushed = await regions(comm, timeout=10)
    assert "Bo" in pushed["regions"]["fac-roster"]
    assert loop.time() - at < 1.6  # not 5 x 0.4 s after the last render began
    await comm.disconnect()


SLOW_PUSH_WAIT = 60  # seconds


async def test_a_slow_render_spaces_the_next_ones_further(monkeypatch):
    """Every move at every table announces a change to the panel; a big workshop's
    panel takes long to draw (seconds at 1,000 players), so the renders are spaced
    by what the last one took (RENDER_SHARE), not only by THROTTLE."""
    from tournament import consumers_facilitator
    from tournament import regions as regions_module

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=0, tables=2)
    slow = 0.4
    draw = regions_module.render
    starts = []  # when each render began (the server's clock)

    def slow_render(*args, **kwargs):
        import time

        starts.append(time.monotonic())
        started = time.thread_time()
        while time.thread_time() - started < slow:  # a render's own work, not a wait
            pass
        return draw(*args, **kwargs)

    monkeypatch.setattr(regions_module, "render", slow_render)
    spacing = slow / consumers_facilitator.RENDER_SHARE
    assert spacing > 4 * consumers_facilitator.THROTTLE
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    # Each push is a slow render: 0.4 s of its thread's own CPU, which a loaded machine
    # gives out over many seconds of the clock (with CPU burners running, a 3 s wait for
    # the first snapshot timed out in 4 runs of 4, and 10 s waits in 3 runs of 15). A
    # wait's length is only how long a broken consumer takes to fail; the spacing is
    # checked below, on the renders' starts.
    await regions(comm, timeout=SLOW_PUSH_WAIT)
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Ann")
    first = await regions(comm, timeout=SLOW_PUSH_WAIT)
    await database_sync_to_async(services.player_join)(workshop_id=w.pk, name="Bo")
    second = await regions(comm, timeout=SLOW_PUSH_WAIT)
    assert "Ann" in first["regions"]["fac-roster"] and "Bo" in second["regions"]["fac-roster"]
    # The second render began the spacing after the first began (less a moment for the
    # first to reach its thread), not THROTTLE after. Measured between the renders'
    # starts, not the pushes' arrivals: a busy machine delays a delivery, not a start.
    assert starts[-1] - starts[-2] >= spacing - 0.2, (starts, spacing)
    await comm.disconnect()


async def test_moves_at_a_few_tables_send_their_cards_alone_and_the_page_adds_up(settle):
    """A move at one table of 40 sent the whole monitor (84 kB, twice a second while the
    tables play). Now a push whose monitor changed in a few cards carries those cards
    alone, each a whole region (`mt-card-N`); a change to most cards (a round's end)
    or a sync sends the monitor whole, and a pause sends none. Whatever came, the page put together from the pushes
    (as facilitator.js does: each region by its id, a card inside the monitor) is
    exactly what a fresh whole render shows."""
    from facilitator_helpers import panel_now, put_in, same_page
    from tournament_helpers import play_one

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=24, tables=6, seats=4)
    rnd = await database_sync_to_async(to_scored_round)(w)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    first = await regions(comm)
    assert set(first["regions"]) == {
        "fac-status",
        "fac-settings",
        "fac-roster",
        "fac-movement",
        "fac-monitor",
    }
    page = first["regions"]
    assert page["fac-monitor"].count('<article id="mt-card-') == 6

    @database_sync_to_async
    def moves(numbers, trick=False):
        for table in tables_of(w):
            if table.number in numbers:
                (finish_trick if trick else play_one)(game_at(table))

    async def pushes():
        return [m["regions"] for m in await settle(comm) if m["t"] == "regions"]

    sent = []
    for numbers, trick in (({1}, False), ({3}, True), ({1, 5}, False), ({3}, False)):
        await moves(numbers, trick)
        got = await pushes()
        assert got, numbers
        for pushed in got:
            # The tables moved at, and no other: a card is sent when it changed.
            cards = {k for k in pushed if k.startswith("mt-card-")}
            assert "fac-monitor" not in pushed, list(pushed)
            assert cards and cards <= {f"mt-card-{n}" for n in numbers}, (numbers, list(pushed))
            assert "fac-roster" not in pushed
            page = put_in(page, pushed)
            sent.append(pushed)
        assert same_page(page, await panel_now(w.pk)), numbers

    # A pause changes no card (a table waiting for a phone waits through it): no card.
    await database_sync_to_async(services.round_pause)(round_id=rnd.pk)
    got = await pushes()
    monitor = [k for p in got for k in p if k == "fac-monitor" or k.startswith("mt-card-")]
    assert got and not monitor, [list(p) for p in got]
    for pushed in got:
        page = put_in(page, pushed)
    assert same_page(page, await panel_now(w.pk))
    await database_sync_to_async(services.round_resume)(round_id=rnd.pk)
    await moves({2, 6}, True)
    for pushed in await pushes():
        page = put_in(page, pushed)
    assert same_page(page, await panel_now(w.pk))
    # Every card changes as the round ends: the whole monitor.
    await database_sync_to_async(services.round_end_now)(round_id=rnd.pk)
    got = await pushes()
    assert any("fac-monitor" in p for p in got), [list(p) for p in got]
    assert not any(k.startswith("mt-card-") for p in got for k in p)
    for pushed in got:
        page = put_in(page, pushed)
    assert same_page(page, await panel_now(w.pk))
    # A sync is everything again, the monitor whole.
    await comm.send_json_to({"action": "sync"})
    again = await regions(comm)
    assert "fac-monitor" in again["regions"] and again["force"] is True
    assert same_page(put_in(page, again["regions"]), await panel_now(w.pk))
    await comm.disconnect()


async def test_a_page_that_holds_the_monitor_is_sent_a_moved_tables_card_alone(settle):
    """The page drawn over HTTP holds the monitor (its `have` says so): a move at one
    table of three then sends that table's card, not the monitor again."""
    from tournament_helpers import play_one

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=12, tables=3, seats=4)
    await database_sync_to_async(to_scored_round)(w)
    have = await panel_have("ada", w.pk)
    comm = facilitator_socket(w.pk, cookie, query=f"view=panel&have={have}")
    assert (await comm.connect())[0]
    assert [m["regions"] for m in await settle(comm) if m["t"] == "regions"] == [{}]
    await database_sync_to_async(lambda: play_one(game_at(tables_of(w)[1])))()
    pushed = [m["regions"] for m in await settle(comm) if m["t"] == "regions"]
    assert pushed and all("fac-monitor" not in p for p in pushed), [list(p) for p in pushed]
    assert {k for p in pushed for k in p if k.startswith("mt-")} == {"mt-card-2"}
    await comm.disconnect()


async def test_a_pause_at_forty_tables_pushes_the_clock_without_the_secret_sheets(settle):
    """The status was pushed whole at each pause, resume and +1 minute, and it held the
    folded settings and all 40 tables' secret sheets (9.4 kB; 187 ms of script on a slow
    phone). The sheets are a region of their own now (fac-settings), in the same box:
    a pause sends the clock and its controls alone, without a word of any sheet, and
    the page put together from the pushes is still what a fresh render shows."""
    from facilitator_helpers import panel_now, put_in, same_page

    from tournament import selectors_facilitator as sf

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=200, tables=40, seats=5)
    rnd = await database_sync_to_async(to_scored_round)(w)
    # Every phone there (no line of 40 tables waiting for theirs).
    await database_sync_to_async(Player.objects.filter(workshop_id=w.pk).update)(connected=True)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    page = (await regions(comm))["regions"]
    sheets = await database_sync_to_async(lambda: sf.panel(Workshop.objects.get(pk=w.pk)))()
    lines = [f"Table {t['number']}: {t['sheet']}" for t in sheets["tables"]]
    assert len(lines) == 40 and all(line in "".join(page.values()) for line in lines)

    steps = {
        "pause": lambda: services.round_pause(round_id=rnd.pk),
        "+1 minute": lambda: services.round_extend(round_id=rnd.pk, seconds=60),
        "resume": lambda: services.round_resume(round_id=rnd.pk),
    }
    for step, call in steps.items():
        await database_sync_to_async(call)()
        got = [m["regions"] for m in await settle(comm) if m["t"] == "regions"]
        status = [p["fac-status"] for p in got if "fac-status" in p]
        assert status, (step, [list(p) for p in got])
        assert not any("fac-settings" in p for p in got), step
        for html in status:
            assert "secret sheets" not in html and not any(line in html for line in lines)
            assert len(html) < 3000, (step, len(html))  # (about 2.3 kB)
        for pushed in got:
            page = put_in(page, pushed)
        assert same_page(page, await panel_now(w.pk)), step
    # The sheets are still in the page, in the box under the clock, as the page draws it.
    assert 'id="settings-details"' in page["fac-settings"]
    assert all(line in page["fac-settings"] for line in lines)
    await comm.disconnect()


async def test_a_pause_while_tables_wait_for_phones_pushes_the_clock_alone(settle):
    """With no phone connected every table of 40 waits for one. A pause cleared each
    card's wait and a resume put it back: both pushed the status with every card (at
    20 waiting tables 50 and 58 kB, bench/panel_pause.py), and the status named all 40
    tables (6 kB). Now a table waits through a pause as before it, so a pause and a
    resume send the clock alone, and the status names five tables and counts the rest."""
    from facilitator_helpers import panel_now, put_in, same_page

    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=200, tables=40, seats=5)
    rnd = await database_sync_to_async(to_scored_round)(w)
    await database_sync_to_async(Player.objects.filter(workshop_id=w.pk).update)(connected=False)
    comm = facilitator_socket(w.pk, cookie)
    await comm.connect()
    page = (await regions(comm))["regions"]
    assert page["fac-monitor"].count("data-waiting=") == 40

    for step, call in (("pause", services.round_pause), ("resume", services.round_resume)):
        await database_sync_to_async(call)(round_id=rnd.pk)
        got = [m["regions"] for m in await settle(comm) if m["t"] == "regions"]
        assert [list(p) for p in got] == [["fac-status"]], (step, [list(p) for p in got])
        status = got[0]["fac-status"]
        line = status[status.index('class="warn waiting-line"') :].split("</p>")[0]
        assert "Waiting for phones not connected at 40 tables:</strong>" in line, line
        assert line.count('href="#mt-') == 5, line
        assert '<a href="#fac-monitor">35 more in the Tables list</a>' in line, line
        assert len(status) < 3500, (step, len(status))
        page = put_in(page, got[0])
        assert same_page(page, await panel_now(w.pk)), step
    await comm.disconnect()


@database_sync_to_async
def removed_mid_round(w) -> Player:
    to_scored_round(w)
    p = Player.objects.get(workshop=w, name="P01")
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    return Player.objects.get(pk=p.pk)


async def test_let_back_in_reaches_the_panels_roster_and_the_projectors_log():
    """Another tab's panel, or the projector, learns of it: the row offers the PIN
    (not "Let … back in" again) and both carry when, for their log's "… was let back in.",
    while the projector names nobody on its screen."""
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=4, tables=1, seats=4)
    p = await removed_mid_round(w)
    panel = facilitator_socket(w.pk, cookie)
    projector = facilitator_socket(w.pk, cookie, query="view=projector")
    await panel.connect()
    await projector.connect()
    first = (await regions(panel))["regions"]["fac-roster"]
    assert f'id="do-let-in-{p.pk}"' in first and "data-let-in" not in first
    assert "proj-let-in" not in (await regions(projector))["regions"]["projector-live"]
    back = await database_sync_to_async(services.player_let_back_in)(
        workshop_id=w.pk, player_id=p.pk
    )
    roster = (await regions(panel))["regions"]["fac-roster"]
    at = int(back.let_in_at.timestamp())
    assert f'data-let-in="{at}"' in roster
    assert f'id="do-let-in-{p.pk}"' not in roster and f'id="do-pin-{p.pk}"' in roster
    live = (await regions(projector))["regions"]["projector-live"]
    assert f'<ul class="proj-let-in" hidden><li data-seat="{p.pk}" data-name="P01"' in live
    assert f'data-let-in="{at}"' in live
    await panel.disconnect()
    await projector.disconnect()
