"""A phone's first connection after the page loaded: the page says which screen it
was drawn with (#app's data-have), and the socket sends a screen only when that one
is no longer current (the same screen again only replaced the one being tapped)."""

import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from socket_helpers import phone_socket
from tournament_helpers import make_workshop

from games import five_tricks
from tournament import gamestate, services
from tournament.identity import COOKIE, signed_cookie_value
from tournament.models import Game, GameState, Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def page_have(player) -> str:
    """What the player's page, loaded now, says it shows."""
    client = Client()
    client.cookies[COOKIE] = signed_cookie_value(player.token)
    html = client.get("/play/").content.decode()
    return re.search(r'id="app"[^>]*data-have="([^"]+)"', html).group(1)


@database_sync_to_async
def dealt(seats=4):
    w = make_workshop(players=seats, tables=1, seats=seats)
    services.workshop_start_study(workshop_id=w.pk)
    game = Game.objects.get(state=GameState.PLAYING)
    return game, [Player.objects.get(pk=pk) for pk in game.players]


@database_sync_to_async
def play_a_card(game_id):
    game = Game.objects.get(pk=game_id)
    state = gamestate.load_state(game)
    card = five_tricks.legal_actions(state, state.to_act)[0]["card"]
    services.game_play(player_id=game.players[state.to_act], card=card)


async def test_a_page_showing_the_current_screen_gets_no_screen_until_one_changes(phone_settle):
    game, players = await dealt()
    have = await page_have(players[0])
    v, w, r = have.split(".")
    assert int(v) > 0 and int(w) > 0 and r == "0"
    comm = phone_socket(players[0], query=f"?have={have}")
    assert (await comm.connect())[0]
    assert [m["t"] for m in await phone_settle(comm)] == ["strokes"]
    # The socket listens: the next move brings the next screen.
    await play_a_card(game.pk)
    views = [m for m in await phone_settle(comm) if m["t"] == "view"]
    assert len(views) == 1 and views[0]["v"] == int(v) + 1
    await comm.disconnect()


@pytest.mark.parametrize(
    "have",
    ["", "?have=", "?have=1.2", "?have=a.b.c", "?have=1.2.3.4", "?have=-1.-1.0"],
    ids=["none", "empty", "two-parts", "letters", "four-parts", "negative"],
)
async def test_a_page_that_says_nothing_usable_gets_the_screen(have, phone_settle):
    _, players = await dealt()
    comm = phone_socket(players[0], query=have)
    assert (await comm.connect())[0]
    views = [m for m in await phone_settle(comm) if m["t"] == "view"]
    assert len(views) == 1 and views[0]["force"] is True
    await comm.disconnect()


async def test_a_page_drawn_before_a_move_gets_the_screen_after_it(phone_settle):
    game, players = await dealt()
    have = await page_have(players[1])
    await play_a_card(game.pk)  # between the page's load and its socket
    comm = phone_socket(players[1], query=f"?have={have}")
    assert (await comm.connect())[0]
    views = [m for m in await phone_settle(comm) if m["t"] == "view"]
    assert len(views) == 1 and views[0]["v"] == int(have.split(".")[0]) + 1
    await comm.disconnect()


async def test_a_page_drawn_with_the_rules_unread_gets_the_screen_once_they_are_read(phone_settle):
    """Reading the rules (on another tab of the same phone) bumps no version: the page's
    rules flag tells its screen from the current one."""
    w = await database_sync_to_async(make_workshop)(players=3, tables=1, seats=5)
    await database_sync_to_async(services.players_seat_home)(workshop_id=w.pk)
    await database_sync_to_async(services.workshop_start_study)(workshop_id=w.pk)
    await database_sync_to_async(services.workshop_start_home)(workshop_id=w.pk)
    await database_sync_to_async(services.round_start)(workshop_id=w.pk)
    late = await database_sync_to_async(services.player_join)(code=w.code, name="Late")
    have = await page_have(late)
    assert have.endswith(".1")
    await database_sync_to_async(services.player_rules_read)(player_id=late.pk)
    comm = phone_socket(late, query=f"?have={have}")
    assert (await comm.connect())[0]
    views = [m for m in await phone_settle(comm) if m["t"] == "view"]
    assert len(views) == 1 and "I have read my rules" not in views[0]["html"]
    await comm.disconnect()
    # Its next page says the rules are read, and gets no screen.
    have = await page_have(late)
    assert have.endswith(".0")
    comm = phone_socket(late, query=f"?have={have}")
    assert (await comm.connect())[0]
    assert [m["t"] for m in await phone_settle(comm) if m["t"] == "view"] == []
    await comm.disconnect()
