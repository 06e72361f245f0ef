"""Services tell named groups after commit that a new version exists (CONVENTIONS.md §4).

Uses the in-memory channel layer of the test settings; `transaction=True` so that
`on_commit` callbacks really run."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from tournament_helpers import (
    fresh,
    game_at,
    legal_card,
    make_workshop,
    state_of,
    tables_of,
    to_scored_round,
)

from tournament import services
from tournament.errors import IllegalMove
from tournament.models import Action

pytestmark = pytest.mark.django_db(transaction=True)


MARK = {"type": "test.mark"}


class Listener:
    """A socket's channel subscribed to some groups."""

    def __init__(self, *groups):
        self.layer = get_channel_layer()
        self.channel = async_to_sync(self.layer.new_channel)()
        for group in groups:
            async_to_sync(self.layer.group_add)(group, self.channel)

    def receive(self, timeout=1.0):
        async def get():
            return await asyncio.wait_for(self.layer.receive(self.channel), timeout)

        return async_to_sync(get)()

    def drain(self) -> list[dict]:
        """Every message sent to this channel so far. The services send their messages
        before they return (on commit, from this thread); a mark sent to the channel
        now comes after all of them (a channel's messages arrive in the order sent),
        so what comes before it is all there is: no quiet time to wait out."""
        async_to_sync(self.layer.send)(self.channel, MARK)
        messages = []
        while (message := self.receive()) != MARK:
            messages.append(message)
        return messages


@pytest.fixture
def playing():
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    t1, t2 = tables_of(w)
    return w, t1, t2, game_at(t1)


def test_a_play_tells_the_table_group_its_new_version(playing):
    w, t1, t2, game = playing
    at_table = Listener(f"table_{t1.pk}")
    facilitator = Listener(f"workshop_{w.pk}_facilitator")
    state = state_of(game)
    seat = state.to_act
    card = legal_card(state, seat)
    res = services.game_play(player_id=game.players[seat], card=card)
    expected = {"type": "table.changed", "table": t1.pk, "version": res.version}
    # The table's group also hears the move, for the server processes to follow the
    # game with (screencache.follow); the facilitator's does not need it, only that
    # nothing but the game changed (its roster is not drawn again for it).
    move = {
        "game": game.pk,
        "seq": res.seq,
        "action": {"type": "play", "seat": seat, "card": card},
        "claim_deadline": None,
        "barrier": res.version,
    }
    assert at_table.receive() == {**expected, "move": move}
    assert at_table.drain() == []  # one message per change
    assert {**expected, "game_only": True} in facilitator.drain()
    assert fresh(t1).version == res.version


def test_other_tables_hear_nothing(playing):
    w, t1, t2, game = playing
    elsewhere = Listener(f"table_{t2.pk}")
    state = state_of(game)
    services.game_play(player_id=game.players[state.to_act], card=legal_card(state, state.to_act))
    assert elsewhere.drain() == []


def test_a_refused_action_sends_nothing(playing):
    w, t1, t2, game = playing
    at_table = Listener(f"table_{t1.pk}", f"workshop_{w.pk}_players")
    state = state_of(game)
    other = (state.to_act + 1) % len(game.players)
    with pytest.raises(IllegalMove):
        services.game_play(player_id=game.players[other], card=state.hands[other][0])
    assert at_table.drain() == []
    assert not Action.objects.exists()


def test_nothing_is_sent_when_the_transaction_rolls_back(playing):
    w, t1, t2, game = playing
    at_table = Listener(f"table_{t1.pk}")
    state = state_of(game)

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        services.game_play(
            player_id=game.players[state.to_act], card=legal_card(state, state.to_act)
        )
        raise Abort
    assert at_table.drain() == []
    assert not Action.objects.exists()


def test_phase_changes_reach_the_players_group():
    w = make_workshop(players=4, tables=1)
    players = Listener(f"workshop_{w.pk}_players")
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    versions = [m["version"] for m in players.drain() if m["type"] == "workshop.changed"]
    assert versions and versions[-1] == fresh(w).version
    assert versions == sorted(versions)


def test_gestures_are_sent_to_the_table(playing):
    w, t1, t2, game = playing
    at_table = Listener(f"table_{t1.pk}")
    services.gesture_make(player_id=game.players[0], kind="me")
    messages = at_table.drain()
    assert [m["type"] for m in messages] == ["table.gesture"]
    assert messages[0]["table"] == t1.pk
