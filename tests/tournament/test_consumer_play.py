"""The player's websocket, end to end through the real ASGI application."""

import asyncio
import functools
import json

import pytest
from channels.db import database_sync_to_async
from socket_helpers import phone_socket, receive_type
from tournament_helpers import make_workshop, to_scored_round

from games import five_tricks
from tournament import gamestate, services
from tournament.identity import COOKIE
from tournament.models import Action, Game, GameState, Player, Round
from tournament.templatetags.cards import card_face

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def started_workshop(players=4, tables=1):
    w = make_workshop(players=players, tables=tables, seats=players)
    services.workshop_start_study(workshop_id=w.pk)
    game = Game.objects.get(state=GameState.PLAYING)
    return w, game, list(Player.objects.filter(pk__in=game.players))


@database_sync_to_async
def state_of(game_id):
    game = Game.objects.get(pk=game_id)
    return game, gamestate.load_state(game)


async def test_unknown_device_is_closed():
    comm = phone_socket(None)
    connected, _ = await comm.connect()
    assert connected
    out = await comm.receive_output()
    assert out["type"] == "websocket.close" and out["code"] == 4401


async def test_wrong_origin_is_refused():
    _, _, players = await started_workshop()
    comm = phone_socket(players[0], origin=b"http://evil.example")
    connected, _ = await comm.connect()
    assert not connected


async def test_snapshot_play_and_no_foreign_cards():
    w, game, players = await started_workshop()
    _, state = await state_of(game.pk)
    by_id = {p.pk: p for p in players}
    comms = {}
    for seat, pid in enumerate(game.players):
        comm = phone_socket(by_id[pid])
        assert (await comm.connect())[0]
        snap = await receive_type(comm, "view")
        assert snap["force"] is True
        # Own cards are there; nobody else's unplayed cards are.
        for other, hand in enumerate(state.hands):
            for card in hand:
                marker = f'data-card="{card}"'
                assert (marker in snap["html"]) == (other == seat)
        comms[seat] = comm
    leader = state.to_act
    card = five_tricks.legal_actions(state, leader)[0]["card"]
    version = snap["v"]
    await comms[leader].send_json_to(
        {"action": "play", "card": card, "version": version, "id": "a1"}
    )
    assert (await receive_type(comms[leader], "ack"))["id"] == "a1"
    _, after = await state_of(game.pk)
    for seat, comm in comms.items():
        view = await receive_type(comm, "view")
        assert view["v"] > version
        assert card_face(card) in view["html"]  # the played card is face up for everyone
        assert f'data-card="{card}"' not in view["html"]  # and no longer in a hand
        for other, hand in enumerate(after.hands):
            for c in hand:
                assert (f'data-card="{c}"' in view["html"]) == (other == seat)
    for comm in comms.values():
        await comm.disconnect()


async def phone_not_to_play():
    """A phone whose seat is not to play, connected: (socket, its first screen, a
    card of its hand)."""
    _, game, players = await started_workshop()
    _, state = await state_of(game.pk)
    by_id = {p.pk: p for p in players}
    not_turn = (state.to_act + 1) % state.n_seats
    comm = phone_socket(by_id[game.players[not_turn]])
    await comm.connect()
    snap = await receive_type(comm, "view")
    return comm, snap, state.hands[not_turn][0]


async def phone_to_play():
    """The phone of the seat to play (the leader), connected: (socket, its first
    screen, a card it may legally play)."""
    _, game, players = await started_workshop()
    _, state = await state_of(game.pk)
    by_id = {p.pk: p for p in players}
    leader = state.to_act
    comm = phone_socket(by_id[game.players[leader]])
    await comm.connect()
    snap = await receive_type(comm, "view")
    return comm, snap, five_tricks.legal_actions(state, leader)[0]["card"]


async def test_illegal_play_refused_with_reason_and_nothing_changes():
    comm, snap, card = await phone_not_to_play()
    await comm.send_json_to({"action": "play", "card": card, "version": snap["v"], "id": "x"})
    err = await receive_type(comm, "error")
    assert err["code"] == "illegal" and "turn" in err["message"].lower()
    assert await database_sync_to_async(Action.objects.count)() == 0
    await comm.disconnect()


async def test_stale_action_refused_and_resynced():
    comm, snap, card = await phone_to_play()
    await comm.send_json_to({"action": "play", "card": card, "version": snap["v"] - 1, "id": "old"})
    err = await receive_type(comm, "error")
    assert err["code"] == "stale"
    resync = await receive_type(comm, "view")
    assert resync["force"] is True and resync["v"] == snap["v"]
    assert await database_sync_to_async(Action.objects.count)() == 0
    await comm.disconnect()


async def test_repeated_action_id_is_applied_once():
    comm, snap, card = await phone_to_play()
    msg = {"action": "play", "card": card, "version": snap["v"], "id": "same"}
    await comm.send_json_to(msg)
    await receive_type(comm, "ack")
    await comm.send_json_to(msg)
    err = await receive_type(comm, "error")
    assert err["code"] in ("duplicate", "stale")
    assert await database_sync_to_async(Action.objects.count)() == 1
    await comm.disconnect()


async def test_reconnect_gets_a_fresh_snapshot():
    _, game, players = await started_workshop()
    _, state = await state_of(game.pk)
    by_id = {p.pk: p for p in players}
    watcher = by_id[game.players[(state.to_act + 1) % state.n_seats]]
    comm = phone_socket(watcher)
    await comm.connect()
    first = await receive_type(comm, "view")
    await comm.disconnect()
    # While the watcher's phone sleeps, the leader plays.
    leader = state.to_act
    card = five_tricks.legal_actions(state, leader)[0]["card"]
    await database_sync_to_async(services.game_play)(player_id=game.players[leader], card=card)
    comm = phone_socket(watcher)
    await comm.connect()
    again = await receive_type(comm, "view")
    assert again["force"] and again["v"] > first["v"] and card_face(card) in again["html"]
    await comm.disconnect()


async def closed_with(comm, timeout=3) -> int:
    """The close code of a socket the server closes (messages before it skipped)."""
    while True:
        out = await comm.receive_output(timeout=timeout)
        if out["type"] == "websocket.close":
            return out["code"]


def _remove(w, player):
    services.player_kick(workshop_id=w.pk, player_id=player.pk)


def _take_to_another_device(w, player):
    services.player_rejoin(code=w.code, name=player.name, pin=player.pin)


@pytest.mark.parametrize(("change", "code"), [(_remove, 4410), (_take_to_another_device, 4409)])
async def test_a_removed_or_moved_seat_closes_its_socket(change, code):
    w, game, players = await started_workshop()
    comm = phone_socket(players[0])
    assert (await comm.connect())[0]
    await receive_type(comm, "view")
    await database_sync_to_async(change)(w, players[0])
    assert await closed_with(comm) == code


@pytest.mark.parametrize(("change", "code"), [(_remove, 4410), (_take_to_another_device, 4409)])
async def test_a_seat_removed_or_moved_while_its_socket_connects_is_closed(
    monkeypatch, change, code
):
    """Removed (or the PIN used on another phone) after the socket read its token and
    before it joined its player group: the closing message went to a group it was not
    in yet, and the socket stayed open, showing the hand and taking moves."""
    from tournament import consumers

    w, game, players = await started_workshop()
    read_token = consumers.player_for_token

    def racing(token):
        player = read_token(token)
        change(w, player)
        return player

    monkeypatch.setattr(consumers, "player_for_token", racing)
    comm = phone_socket(players[0])
    assert (await comm.connect())[0]
    assert await closed_with(comm) == code


@database_sync_to_async
def is_connected(player_id: int) -> bool:
    """The facilitator's dot for the player."""
    return Player.objects.values_list("connected", flat=True).get(pk=player_id)


async def test_an_old_sockets_close_leaves_the_new_one_connected():
    """A phone's network changes: its new socket connects before the server hears
    the old one go. The old one's close had turned the facilitator's dot off."""
    _, _, players = await started_workshop()
    old, new = phone_socket(players[0]), phone_socket(players[0])
    assert (await old.connect())[0]
    await receive_type(old, "view")
    assert (await new.connect())[0]
    await receive_type(new, "view")
    await old.disconnect()
    connected = functools.partial(is_connected, players[0].pk)
    assert await connected()
    await new.disconnect()
    assert not await connected()


async def test_a_second_tabs_close_leaves_the_first_tab_connected():
    """The same phone opens the seat in a second tab and closes it: the newer socket's
    close turned the dot off while the first tab kept playing, and a facilitator
    might remove a student who is there. The first tab says it is still there."""
    _, _, players = await started_workshop()
    first, second = phone_socket(players[0]), phone_socket(players[0])
    assert (await first.connect())[0]
    await receive_type(first, "view")
    assert (await second.connect())[0]
    await receive_type(second, "view")
    connected = functools.partial(is_connected, players[0].pk)
    await second.disconnect()
    for _ in range(100):  # the first socket hears, and answers through the database
        if await connected():
            break
        await asyncio.sleep(0.02)
    assert await connected()
    # And the first tab's close, the last, turns it off.
    await first.disconnect()
    assert not await connected()


async def test_bad_messages_get_clear_errors():
    _, game, players = await started_workshop()
    comm = phone_socket(players[0])
    await comm.connect()
    await receive_type(comm, "view")
    await comm.send_to(text_data="not json")
    assert (await receive_type(comm, "error"))["code"] == "invalid"
    # Nested deeper than Python's parser goes (under the size limit): an error, and
    # the socket stays open.
    for text in ("[" * 30000, "1" * 5000):
        await comm.send_to(text_data=text)
        assert (await receive_type(comm, "error"))["code"] == "invalid"
    await comm.send_json_to({"action": "ping"})
    assert (await receive_type(comm, "pong"))["t"] == "pong"
    await comm.send_json_to(["a list"])
    assert (await receive_type(comm, "error"))["code"] == "invalid"
    await comm.send_json_to({"action": "launch"})
    assert (await receive_type(comm, "error"))["code"] == "invalid"
    await comm.send_to(text_data=json.dumps({"action": "ping", "pad": "x" * 70000}))
    assert (await receive_type(comm, "error"))["code"] == "too_large"
    await comm.send_json_to({"action": "play", "card": 7, "version": 0})
    assert (await receive_type(comm, "error"))["code"] == "invalid"
    assert await database_sync_to_async(Action.objects.count)() == 0
    await comm.disconnect()


async def test_a_refusal_names_the_message_it_refuses(phone_settle):
    """An error carries the id of the message refused, when it gave a well-formed one:
    the phone keeps a move on its way marked through another message's refusal."""
    comm, snap, card = await phone_not_to_play()
    await comm.send_json_to({"action": "play", "card": card, "version": snap["v"], "id": "p1"})
    err = await receive_type(comm, "error")
    assert (err["code"], err["id"]) == ("illegal", "p1")
    await comm.send_json_to({"action": "gesture", "kind": "launch", "id": "g1"})
    err = await receive_type(comm, "error")
    assert (err["code"], err["id"]) == ("invalid", "g1")
    await comm.send_json_to({"action": "launch", "id": "u1"})
    err = await receive_type(comm, "error")
    assert (err["code"], err["id"]) == ("invalid", "u1")
    # An id that is no id is not echoed (the same refusal, naming nothing).
    for bad in ({"x": 1}, "", "x" * 65, "a\nb"):
        await comm.send_json_to({"action": "play", "card": card, "version": snap["v"], "id": bad})
        err = await receive_type(comm, "error")
        assert err["code"] in ("illegal", "invalid") and "id" not in err, err
    # A gesture's id names it in a refusal only: its answer is its echo, not a "received".
    await comm.send_json_to({"action": "gesture", "kind": "thumbs_up", "id": "g2"})
    replies = await phone_settle(comm)
    assert [r["t"] for r in replies] == ["gesture"], replies
    assert await database_sync_to_async(Action.objects.count)() == 0
    await comm.disconnect()


async def test_gestures_and_strokes_reach_the_table():
    _, game, players = await started_workshop()
    a, b = players[0], players[1]
    ca, cb = phone_socket(a), phone_socket(b)
    await ca.connect()
    await cb.connect()
    await receive_type(ca, "view")
    await receive_type(cb, "view")
    await ca.send_json_to({"action": "gesture", "kind": "thumbs_up"})
    g = await receive_type(cb, "gesture")
    assert g["kind"] == "thumbs_up" and g["name"] == a.name
    await ca.send_json_to(
        {"action": "gesture", "kind": "drawing", "points": [[0.1, 0.2], [0.3, 0.4]]}
    )
    s = await receive_type(cb, "stroke")
    assert s["points"] == [[0.1, 0.2], [0.3, 0.4]] and s["by"] == a.pk
    assert s["name"] == a.name  # the phone says who drew
    await ca.send_json_to({"action": "gesture", "kind": "clear"})
    c = await receive_type(cb, "clear")
    assert c["by"] == a.pk and c["name"] == a.name
    await ca.send_json_to(
        {"action": "gesture", "kind": "drawing", "points": [[0.1, 0.2], [0.3, 0.4]]}
    )
    await receive_type(cb, "stroke")
    # A late arrival sees the pad as it is.
    cc = phone_socket(players[2])
    await cc.connect()
    strokes = await receive_type(cc, "strokes")
    assert strokes["strokes"] == [[[0.1, 0.2], [0.3, 0.4]]]
    for c in (ca, cb, cc):
        await c.disconnect()


async def test_cookie_from_the_join_page_opens_the_socket():
    """The cookie the join view sets is the one the websocket accepts."""
    from django.test import AsyncClient

    w, _, _ = await started_workshop()
    client = AsyncClient()
    response = await client.post("/join", {"code": w.code.lower(), "name": "Late Lou"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    value = response.cookies[COOKIE].value
    comm = phone_socket(seat=value)
    assert (await comm.connect())[0]
    view = await receive_type(comm, "view")
    assert "Late Lou" in view["html"]
    await comm.disconnect()


async def test_a_dealt_table_never_shows_under_the_old_phase():
    """Starting the study deals (the table's message goes out first) and changes the
    phase (the workshop's message after it): the first screen with a hand already
    says study, not lobby."""

    @database_sync_to_async
    def seated_lobby():
        w = make_workshop(players=4, tables=1, seats=4)
        services.players_seat_home(workshop_id=w.pk)
        return w, Player.objects.filter(workshop=w).first()

    @database_sync_to_async
    def start(w):
        services.workshop_start_study(workshop_id=w.pk)

    w, player = await seated_lobby()
    comm = phone_socket(player)
    assert (await comm.connect())[0]
    snap = await receive_type(comm, "view")
    assert 'data-phase="lobby"' in snap["html"] and 'class="hand"' not in snap["html"]
    await start(w)
    seen = []
    while True:
        msg = await receive_type(comm, "view")
        seen.append(msg)
        if 'class="hand"' in msg["html"]:
            break
    for msg in seen:
        if 'class="hand"' in msg["html"]:
            assert 'data-phase="study"' in msg["html"], "a dealt hand under the lobby's phase"
    await comm.disconnect()


@database_sync_to_async
def _pad_after_a_clear():
    from tournament.consumers import table_pad
    from tournament.models import Gesture

    w = make_workshop(players=4, tables=2, seats=2)
    services.workshop_start_study(workshop_id=w.pk)
    p = Player.objects.filter(workshop=w, table__number=1).first()
    other = Player.objects.filter(workshop=w, table__number=2).first()

    def draw(player, kind, x):
        Gesture.objects.create(
            table=player.table,
            player=player,
            kind=kind,
            payload={"points": [[x, x]]} if kind == "drawing" else {},
        )

    draw(p, "drawing", 0.1)
    draw(p, "clear", 0)
    draw(p, "drawing", 0.2)
    draw(other, "drawing", 0.9)  # another table's pad
    draw(p, "thumbs_up", 0)
    draw(p, "drawing", 0.3)
    study = Round.objects.get(workshop=w)
    assert table_pad(p.table_id)[0] == table_pad(other.table_id)[0] == study.pk
    return (
        table_pad(p.table_id)[1],
        table_pad(p.table_id, limit=1)[1],
        table_pad(other.table_id)[1],
    )


async def test_a_pad_shows_its_own_strokes_since_the_last_clear_oldest_first():
    mine, newest, theirs = await _pad_after_a_clear()
    assert mine == [[[0.2, 0.2]], [[0.3, 0.3]]]
    assert newest == [[[0.3, 0.3]]]
    assert theirs == [[[0.9, 0.9]]]


@database_sync_to_async
def late_joiner():
    """A workshop in its silent play at home, and a student who joins then."""
    w = make_workshop(players=4, tables=1, seats=5)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    return services.player_join(workshop_id=w.pk, name="Late")


async def test_a_late_joiner_says_they_have_read_their_rules_and_the_sheet_goes():
    late = await late_joiner()
    comm = phone_socket(late)
    assert (await comm.connect())[0]
    first = await receive_type(comm, "view")
    assert 'id="your-rules"' in first["html"] and 'data-action="rules-read"' in first["html"]
    await comm.send_json_to({"action": "rules_read", "id": "r1"})
    got = {}  # the ack and the new screen, in either order
    while not {"ack", "view"} <= got.keys():
        msg = await comm.receive_json_from(timeout=3)
        got.setdefault(msg["t"], msg)
    assert got["ack"]["id"] == "r1"
    assert 'id="your-rules"' not in got["view"]["html"]
    assert "joined after" not in got["view"]["html"]
    read = await database_sync_to_async(Player.objects.get)(pk=late.pk)
    assert read.rules_unread is False
    await comm.disconnect()


@database_sync_to_async
def late_joiner_to_play():
    """A scored round; a student who joins then, dealt in at a table of two, and the
    other player has played until it is the student's turn: the student and a card
    they may play."""
    from tournament_helpers import game_at, legal_card, one_left_alone

    w = make_workshop(players=3, tables=2)
    to_scored_round(w, one_left_alone(w))
    late = services.player_join(workshop_id=w.pk, name="Late")
    game = game_at(late.table)
    while True:
        game.refresh_from_db()
        state = gamestate.load_state(game)
        pid = game.players[state.to_act]
        if pid == late.pk:
            return late, legal_card(state, state.to_act)
        services.game_play(player_id=pid, card=legal_card(state, state.to_act))


async def test_a_latecomers_first_move_in_a_scored_round_folds_their_sheet():
    """Never tapped "I have read my rules": the first move takes the sheet away as the
    tap does, on this phone too (its own row changed, not the table's)."""
    late, card = await late_joiner_to_play()
    comm = phone_socket(late)
    assert (await comm.connect())[0]
    first = await receive_type(comm, "view")
    assert 'id="your-rules"' in first["html"]
    await comm.send_json_to({"action": "play", "card": card, "id": "m1"})
    last = None
    acked = False
    while not acked or last is None or 'id="your-rules"' in last["html"]:
        msg = await comm.receive_json_from(timeout=3)
        acked = acked or (msg["t"] == "ack" and msg["id"] == "m1")
        last = msg if msg["t"] == "view" else last
    assert "joined after" not in last["html"]
    read = await database_sync_to_async(Player.objects.get)(pk=late.pk)
    assert read.rules_unread is False
    await comm.disconnect()


async def test_a_new_round_starts_with_a_clean_pad_on_every_phone():
    """Strokes drawn in one round are not on the pad of the next: a phone that stays at
    its table gets the pad again, clean, before the new round's screen, and a phone
    that connects later sees only the new round's strokes (the old ones stay stored)."""
    from tournament.models import Gesture

    w, _, players = await started_workshop()
    a, b = players[0], players[1]
    ca = phone_socket(a)
    await ca.connect()
    assert (await receive_type(ca, "strokes"))["strokes"] == []
    await receive_type(ca, "view")
    await ca.send_json_to({"action": "gesture", "kind": "drawing", "points": [[0.1, 0.1]]})
    assert (await receive_type(ca, "stroke"))["points"] == [[0.1, 0.1]]

    await database_sync_to_async(services.workshop_start_home)(workshop_id=w.pk)
    pad = await receive_type(ca, "strokes")
    assert pad["strokes"] == []
    view = await receive_type(ca, "view")
    assert 'data-phase="home"' in view["html"]

    await ca.send_json_to({"action": "gesture", "kind": "drawing", "points": [[0.5, 0.5]]})
    assert (await receive_type(ca, "stroke"))["points"] == [[0.5, 0.5]]
    cb = phone_socket(b)
    await cb.connect()
    assert (await receive_type(cb, "strokes"))["strokes"] == [[[0.5, 0.5]]]
    assert await database_sync_to_async(Gesture.objects.filter(kind="drawing").count)() == 2
    # Later screens of the same round leave the pad alone: a pause redraws them.
    home = await database_sync_to_async(
        lambda: Round.objects.filter(workshop=w).order_by("-number").first()
    )()
    assert home.kind == "home"
    await database_sync_to_async(services.round_pause)(round_id=home.pk)
    seen = []
    while 'data-paused="1"' not in (msg := await ca.receive_json_from(timeout=3)).get("html", ""):
        seen.append(msg["t"])
    assert "strokes" not in seen
    for c in (ca, cb):
        await c.disconnect()


async def test_a_phone_moved_between_rounds_gets_none_of_its_new_tables_drawings():
    """Between rounds, a phone moved to another table was sent that table's pad of the
    round just played: drawings made there to settle its disputes, its own rules maybe,
    which a newcomer never saw drawn (hidden between rounds, but in the message and on
    the page's canvas). Between rounds no pad is sent; the next round starts clean."""

    @database_sync_to_async
    def round_played_and_moved():
        w = make_workshop(players=4, tables=2, seats=2)
        rnd = to_scored_round(w)
        drawer = Player.objects.filter(workshop=w, table__number=2).first()
        services.gesture_make(player_id=drawer.pk, kind="drawing", payload={"points": [[0.5, 0.5]]})
        services.round_end_now(round_id=rnd.pk)
        rnd.refresh_from_db()
        up = next(m for m in rnd.movement_preview["moves"] if (m["from"], m["to"]) == (1, 2))
        services.movement_apply(round_id=rnd.pk)
        return w, Player.objects.get(pk=up["player"]), drawer

    w, mover, drawer = await round_played_and_moved()
    for player in (mover, drawer):  # the newcomer, and one who stays (the pad is hidden)
        comm = phone_socket(player)
        assert (await comm.connect())[0]
        assert (await receive_type(comm, "strokes"))["strokes"] == [], player.name
        view = await receive_type(comm, "view")
        assert 'data-phase="between"' in view["html"] and 'data-table="2"' in view["html"]
        await comm.disconnect()
    # The next round's pad is clean, as before; the stroke stays stored for the record.
    await database_sync_to_async(services.round_start)(workshop_id=w.pk)
    comm = phone_socket(mover)
    assert (await comm.connect())[0]
    assert (await receive_type(comm, "strokes"))["strokes"] == []
    await comm.disconnect()


async def test_a_phone_that_stays_names_who_sits_with_it_now_from_the_workshops_message(
    phone_settle, monkeypatch
):
    """Applying the movement bumps every table and the workshop. A phone at a table
    that stays heard of the workshop's change first (the facilitator's Apply also
    saves the plan: one more workshop message, before the tables'): it drew "You
    stay at table 1. With you: <the one who had just left>" from its table's cached
    part, then the right line a moment later (a walk through a 7Up workshop: said
    twice, the first wrong). The workshop's part now carries each table's version,
    so the table read with it is at least as new as the movement."""
    from tournament import broadcast

    @database_sync_to_async
    def round_over():
        w = make_workshop(players=6, tables=2, seats=3)
        rnd = to_scored_round(w)
        services.round_end_now(round_id=rnd.pk)
        rnd.refresh_from_db()
        moves = {(m["from"], m["to"]): m["player"] for m in rnd.movement_preview["moves"]}
        leaver, comer = moves[(1, 2)], moves[(2, 1)]
        stayer = Player.objects.filter(table__number=1, table__workshop=w).exclude(pk=leaver)[0]
        return rnd, stayer, Player.objects.get(pk=leaver), Player.objects.get(pk=comer)

    rnd, stayer, leaver, comer = await round_over()
    comm = phone_socket(stayer)
    assert (await comm.connect())[0]
    await phone_settle(comm)
    # Only the workshop's message reaches the phone: the tables' come later, if at all.
    monkeypatch.setattr(broadcast, "table_changed_on_commit", lambda **kw: None)
    await database_sync_to_async(services.movement_apply)(round_id=rnd.pk)
    views = [m["html"] for m in await phone_settle(comm) if m["t"] == "view"]
    assert views, "the movement's workshop message drew no screen"
    stay = [
        h[h.index("You stay at table 1.") :].split("</span>")[0] for h in views if "You stay" in h
    ]
    assert stay and all(comer.name in s and leaver.name not in s for s in stay), stay
    await comm.disconnect()
