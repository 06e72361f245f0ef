"""What a screen reader hears as an All Fives hand ends: the hand's last card
scores it and deals the next at once, and the phone went from the turn to "Hand 1
scored: …": who took the last trick (its cards are the counters scored) was never
seen nor said. It is, before the hand's score."""

from __future__ import annotations

import random

import pytest
from phones import dealt_table, heard, table_version, wait_version, watch_heard

from games import all_fives as af
from tournament import gamestate, services

pytestmark = [pytest.mark.browser]


def test_the_hands_last_trick_is_said_before_its_score(live_server_url, phone):
    w = services.workshop_create(
        name="All Fives end said", game="all_fives", table_count=1, seats_per_table=3, seed=5
    )
    pages, game, names = dealt_table(live_server_url, phone, w, ["Ana"], others=("Bea", "Cai"))
    page = pages["Ana"]
    rng = random.Random(5)

    def state_now():
        game.refresh_from_db()
        return gamestate.load_state(game)

    def move(state):
        # The seat to act's own move (a stand, a take-one, a card), never a call.
        v = af.view(state, state.to_act)
        mine = [a for a in v["actions"] if a["type"] != "call_revoke"]
        action = rng.choice(mine)
        services.game_act(
            player_id=game.players[state.to_act],
            move={k: x for k, x in action.items() if k != "seat"},
        )

    # Every move of the first hand but its last card, from the test process.
    while not (
        (state := state_now()).phase == af.PHASE_PLAY and sum(len(h) for h in state.hands) == 1
    ):
        move(state)
    wait_version(page, table_version(game), timeout=8000)
    watch_heard(page)
    move(state)
    page.wait_for_function(
        "() => window.__heard.some((l) => l.includes('Hand 1 scored'))", timeout=8000
    )
    scored = state_now().history[0]
    winner = scored.tricks[-1].winner
    said = "you" if names[winner] == "Ana" else names[winner]
    said_all = " ".join(heard(page))
    line = f"Trick {len(scored.tricks)} won by {said}. Hand 1 scored: "
    assert line in said_all, said_all
    assert said_all.count(f"Trick {len(scored.tricks)} won by") == 1, said_all
