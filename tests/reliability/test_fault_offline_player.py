"""A phone offline for minutes comes back to the right seat and state.

The server's clock runs without any socket (`timers.tick(now=...)` travels in
time instead of waiting): while the phone is away its claim times out, the others
play on, the round ends and the movement sends its player to another table. On
reconnecting it sees exactly its own seat, hand and table as stored, and can play.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from socket_helpers import phone_socket, receive_type
from tournament_helpers import make_workshop, play_one, state_of

from games import five_tricks
from tournament import gamestate, integrity, services, timers
from tournament.models import Game, GameState, Player, Round, RoundKind, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
OFFLINE = timedelta(minutes=2)


@database_sync_to_async
def scored_round():
    w = make_workshop(players=8, tables=2, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    table = Table.objects.get(workshop=w, number=1)
    game = Game.objects.get(table=table, state=GameState.PLAYING)
    state = gamestate.load_state(game)
    away = Player.objects.get(pk=game.players[state.to_act])  # the leader goes offline
    return w, game, away


@database_sync_to_async
def while_away(game, away, at):
    """The others play the trick, claim the leader's card, and the clock moves on."""
    state = state_of(game)
    while state.phase == "play":
        play_one(game)
        state = state_of(game)
    assert state.phase == "claim"
    for pid in game.players:
        if pid != away.pk:
            services.game_claim(player_id=pid, winner_player_id=game.players[state.leader])
    assert state_of(game).phase == "claim"  # waiting for the phone that is away
    report = timers.tick(now=at)
    assert report.claims_timed_out == [game.pk]
    return Player.objects.get(pk=away.pk).connected


@database_sync_to_async
def expected_screen(player_id):
    player = Player.objects.select_related("table").get(pk=player_id)
    game = Game.objects.filter(table=player.table, state=GameState.PLAYING).first()
    state = gamestate.replay_log(game) if game else None
    hand = state.hands[game.players.index(player.pk)] if game and player.pk in game.players else ()
    return player, player.table.version, hand, state


@database_sync_to_async
def problems(workshop_id):
    return integrity.workshop_problems(workshop_id)[1]


def shows_hand(html: str, hand) -> bool:
    return sorted(re.findall(r'data-action="play" data-card="([^"]+)"', html)) == sorted(hand)


async def test_phone_offline_during_a_claim_comes_back_to_its_seat():
    w, game, away = await scored_round()
    comm = phone_socket(away)
    assert (await comm.connect())[0]
    view = await receive_type(comm, "view", timeout=5)
    state = await database_sync_to_async(state_of)(game)
    seat = game.players.index(away.pk)
    card = five_tricks.legal_actions(state, seat)[0]["card"]
    await comm.send_json_to({"action": "play", "card": card, "version": view["v"], "id": "lead"})
    await receive_type(comm, "ack", timeout=5)
    await comm.disconnect()  # the phone sleeps

    connected = await while_away(game, away, timezone.now() + OFFLINE)
    assert connected is False  # the facilitator sees it offline; nothing waited for it

    comm = phone_socket(away)
    assert (await comm.connect())[0]
    back = await receive_type(comm, "view", timeout=5)
    player, version, hand, state = await expected_screen(away.pk)
    assert back["v"] == version
    assert f'<span class="where">Table {player.table.number}</span>' in back["html"]
    assert shows_hand(back["html"], hand) and len(hand) == len(state.hands[seat])
    assert state.completed[-1].resolution == "timeout"
    assert state.completed[-1].claims[seat] is None  # its claim was never made, nor invented
    if state.to_act == seat:  # it can play on at once
        card = five_tricks.legal_actions(state, seat)[0]["card"]
        await comm.send_json_to(
            {"action": "play", "card": card, "version": back["v"], "id": "back"}
        )
        await receive_type(comm, "ack", timeout=5)
    await comm.disconnect()
    assert await problems(w.pk) == []


@database_sync_to_async
def round_over_and_moved(workshop, at):
    report = timers.tick(now=at)
    assert report.rounds_finalised
    rnd = Round.objects.get(workshop=workshop, kind=RoundKind.SCORED)
    services.movement_apply(round_id=rnd.pk)
    return {p.pk: (p.table.number, p.seat) for p in Player.objects.select_related("table")}


async def test_phone_offline_through_the_round_end_comes_back_at_its_new_table():
    w, game, _ = await scored_round()
    # Every player's phone sleeps through the end of the round and the movement.
    players = await database_sync_to_async(
        lambda: list(Player.objects.filter(workshop=w).select_related("table"))
    )()
    before = {p.pk: p.table.number for p in players}
    seats = await round_over_and_moved(
        w, timezone.now() + timedelta(seconds=w.round_seconds) + OFFLINE
    )
    assert any(seats[pid][0] != number for pid, number in before.items()), "nobody moved"
    for p in players:
        comm = phone_socket(p)
        assert (await comm.connect())[0]
        back = await receive_type(comm, "view", timeout=5)
        table, seat = seats[p.pk]
        player, version, _, _ = await expected_screen(p.pk)
        assert back["v"] == version
        assert f'<span class="where">Table {table}</span>' in back["html"]
        assert 'data-phase="between"' in back["html"]
        await comm.disconnect()
    assert await problems(w.pk) == []
