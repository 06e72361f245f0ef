"""Whose turn, said once: at a trick's start the leader's phone says "Your turn.
Lead any card." and every other phone "<leader> leads."; once a card is down,
"<name> is playing.". The empty trick says only that no card is down (it had
repeated the leader's name under "is playing").

Played by bots through the services for each trick-taking game, the screens
rendered as the phones get them.
"""

from __future__ import annotations

import random
import re

import pytest
from django.template.loader import render_to_string
from tournament_helpers import game_at, tables_of

from tournament import gamestate, selectors, services
from tournament.models import Player

pytestmark = pytest.mark.django_db
TRICK_GAMES = ["five_tricks", "seven_up", "all_fives"]


def text_of(player_id: int) -> str:
    html = render_to_string("play/_screen.html", selectors.player_screen(player_id))
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def to_act(game) -> int:
    """The seat the game waits for."""
    game.refresh_from_db()
    return gamestate.kind_of(game).to_act(gamestate.load_state(game))[0]


def view(game, seat) -> dict:
    return selectors.player_screen(game.players[seat])["game"]


def bots_to(game, moment, rng, limit=300) -> int:
    """Bots act, one move at a time, until `moment(view of the seat to act)`; that seat."""
    for _ in range(limit):
        seat = to_act(game)
        if moment(view(game, seat)):
            return seat
        services.game_bot_act(player_id=game.players[seat], rng=rng)
    pytest.fail("the bots never reached the moment")


@pytest.mark.parametrize("key", TRICK_GAMES)
def test_the_leader_is_said_once_at_a_tricks_start_then_who_is_playing(key):
    w = services.workshop_create(
        name="Whose turn", game=key, table_count=1, seats_per_table=3, seed=2, bots_enabled=True
    )
    services.bots_fill(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    game = game_at(tables_of(w)[0])
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    rng = random.Random(3)
    checked = 0
    for _ in range(2):  # the first lead, and a lead after a trick
        leader = bots_to(game, lambda v: v["phase"] == "play" and not v["current"], rng)
        name = names[game.players[leader]]
        mine = text_of(game.players[leader])
        assert "Your turn" in mine and "Lead any card." in mine, mine
        for seat in set(range(len(game.players))) - {leader}:
            theirs = text_of(game.players[seat])
            assert f"{name} leads." in theirs, theirs
            assert "is playing" not in theirs and theirs.count(name + " leads") == 1, theirs
            # (All Fives keeps the last trick in view until the lead.)
            assert "No cards played yet." in theirs or re.search(r"Trick \d won by", theirs)
        # The leader acts until a card is down: All Fives' bot may first call a revoke
        # on the last trick (the deal is random, so now and then it did, and the lead
        # was never seen).
        nxt = bots_to(game, lambda v: bool(v["current"]), rng)
        if view(game, nxt)["current"]:
            other = next(s for s in range(len(game.players)) if s != nxt)
            after = text_of(game.players[other])
            assert f"{names[game.players[nxt]]} is playing." in after, after
            assert "Lead any card." not in text_of(game.players[nxt])
            checked += 1
    assert checked == 2
