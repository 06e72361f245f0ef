"""What a student's phone can obtain: its own hand and sheet, nothing else.

Attacks from the player's side: the page and every websocket view during study
and play, messages naming other seats, tables or players, forged and stale
cookies, and the error messages themselves.
"""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from security_world import foreign_sheet_phrases, sheet_phrases, world
from socket_helpers import phone_socket, receive_type
from tournament_helpers import make_workshop, play_one, snapshot, tables_of

from tournament import gamestate, services
from tournament.identity import COOKIE, signed_cookie_value
from tournament.models import Action, Game, GameState, Player
from tournament.templatetags.cards import card_face, card_name

pytestmark = pytest.mark.django_db(transaction=True)


def others_cards_shown(html: str, state, seat: int) -> list[str]:
    """Cards in other seats' hands that the html names, in any form."""
    shown = []
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        for card in hand:
            if (
                f'data-card="{card}"' in html
                or re.search(rf"(?<![\w]){re.escape(card_face(card))}(?!\w)", html)
                or f'aria-label="{card_name(card)}' in html  # the sheet's prose may name cards
            ):
                shown.append(card)
    return shown


def test_play_page_shows_own_hand_only_and_no_foreign_sheet():
    w = make_workshop(players=8, tables=2, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)  # sheets are visible while studying
    for table in tables_of(w):
        game = Game.objects.get(table=table, state=GameState.PLAYING)
        for _ in range(3):  # three cards on the table, one player still to play
            play_one(game)
        game.refresh_from_db()
        state = gamestate.load_state(game)
        for seat, pid in enumerate(game.players):
            player = Player.objects.get(pk=pid)
            client = Client()
            client.cookies[COOKIE] = signed_cookie_value(player.token)
            html = client.get("/play/").content.decode()
            assert others_cards_shown(html, state, seat) == [], player.name
            assert all(f'data-card="{c}"' in html for c in state.hands[seat])
            own = player.rules
            assert "Your rules" in html  # the own sheet is there ...
            for phrase in foreign_sheet_phrases(w, own):  # ... and no other table's
                assert phrase not in html, (player.name, phrase)
            # Other players' rejoin PINs never reach this page.
            for other in Player.objects.filter(workshop=w).exclude(pk=pid):
                assert f"<strong>{other.pin}</strong>" not in html or other.pin == player.pin


@pytest.mark.asyncio
async def test_socket_messages_cannot_act_for_another_seat_table_or_player():
    w = await database_sync_to_async(world)()

    @database_sync_to_async
    def setting():
        game = Game.objects.get(table__workshop=w.mine, table__number=1, state=GameState.PLAYING)
        state = gamestate.load_state(game)
        me = Player.objects.get(pk=game.players[(state.to_act + 1) % state.n_seats])
        turn = Player.objects.get(pk=game.players[state.to_act])
        elsewhere = Game.objects.get(
            table__workshop=w.mine, table__number=2, state=GameState.PLAYING
        )
        other_state = gamestate.load_state(elsewhere)
        return game, state, me, turn, elsewhere, other_state

    game, state, me, turn, elsewhere, other_state = await setting()
    comm = phone_socket(me)
    assert (await comm.connect())[0]
    view = await receive_type(comm, "view")
    before = await database_sync_to_async(snapshot)()
    turn_card = state.hands[state.to_act][0]
    other_card = other_state.hands[other_state.to_act][0]
    attempts = [
        # Play the card of the player whose turn it is, claiming to be them.
        {
            "action": "play",
            "card": turn_card,
            "version": view["v"],
            "player": turn.pk,
            "player_id": turn.pk,
            "seat": state.to_act,
        },
        # Play at the other table, naming its game and table.
        {
            "action": "play",
            "card": other_card,
            "game": elsewhere.pk,
            "table": elsewhere.table_id,
            "table_id": elsewhere.table_id,
            "seat": other_state.to_act,
        },
        # Claim for another table's player, or for a player of another workshop.
        {"action": "claim", "winner": elsewhere.players[0], "version": view["v"]},
        {
            "action": "claim",
            "winner": await database_sync_to_async(
                lambda: Player.objects.filter(workshop=w.other).first().pk
            )(),
        },
        {
            "action": "gesture",
            "kind": "thumbs_up",
            "table": elsewhere.table_id,
            "player": turn.pk,
            "invalid": True,
            "points": "x",
        },
    ]
    replies = []
    for msg in attempts:
        await comm.send_json_to(msg)
        await comm.send_json_to({"action": "ping"})
        while (reply := await comm.receive_json_from(timeout=3))["t"] != "pong":
            replies.append(reply)
    errors = [r for r in replies if r["t"] == "error"]
    assert len(errors) == 4, replies
    mine = game.players.index(me.pk)
    foreign = {c for other, hand in enumerate(state.hands) if other != mine for c in hand} | {
        c for hand in other_state.hands for c in hand
    }
    for err in errors:
        assert err["code"] in {"illegal", "invalid", "not_allowed"} and err["message"].strip()
        # An error names no card of anyone else's hand.
        assert not [c for c in foreign if re.search(rf"\b{c}\b", err["message"])], err
    after = await database_sync_to_async(snapshot)()
    # Only the gesture happened, made by this player at their own table.
    assert {k: v for k, v in after.items() if k != "Gesture"} == {
        k: v for k, v in before.items() if k != "Gesture"
    }
    [gesture] = [g for g in after["Gesture"] if g not in before["Gesture"]]
    assert gesture["player_id"] == me.pk and gesture["table_id"] == me.table_id
    assert await database_sync_to_async(Action.objects.count)() == 0
    await comm.disconnect()


@pytest.mark.asyncio
async def test_forged_stale_and_foreign_cookies_get_no_seat():
    w = await database_sync_to_async(world)()
    good = signed_cookie_value(w.student.token)
    forged = [
        "",
        "garbage",
        good[:-2] + ("AA" if not good.endswith("AA") else "BB"),  # signature broken
        signed_cookie_value("not-a-token"),
        w.student.token,  # the raw token, unsigned
    ]
    for value in forged:
        comm = phone_socket(seat=value)
        connected, _ = await comm.connect()
        assert connected
        out = await comm.receive_output(timeout=3)
        assert out == {"type": "websocket.close", "code": 4401}, value
        await comm.disconnect()

    # A player moved to another device: the old cookie stops working at once.
    @database_sync_to_async
    def rejoin():
        student = Player.objects.get(pk=w.student.pk)
        services.player_rejoin(code=w.mine.code, name=student.name, pin=student.pin)

    await rejoin()
    comm = phone_socket(seat=good)
    await comm.connect()
    assert (await comm.receive_output(timeout=3)) == {"type": "websocket.close", "code": 4401}
    await comm.disconnect()


def test_projector_shows_no_sheet_and_no_card():
    """The projector is read by the whole room."""
    w = world()
    html = w.facilitator(w.alice).get(f"/workshops/{w.mine.pk}/projector/").content.decode()
    for table in w.mine.tables.all():
        for phrase in sheet_phrases(table.rules):
            assert phrase not in html
    for game in Game.objects.filter(table__workshop=w.mine, state=GameState.PLAYING):
        state = gamestate.load_state(game)
        for hand in state.hands:
            for card in hand:
                assert f'data-card="{card}"' not in html and card_name(card) not in html


def test_a_student_of_one_workshop_learns_nothing_of_another():
    w = world()
    client = w.student_client()
    for url in (
        f"/workshops/{w.other.pk}/",
        f"/workshops/{w.other.pk}/report.json",
        f"/join?code={w.other.code}",
        f"/j/{w.other.code}",
        "/play/",
    ):
        body = client.get(url, follow=True).content.decode()
        for p in Player.objects.filter(workshop=w.other):
            assert p.name not in body, url
