"""What a screen reader hears as a 7Up7Down game ends: the last card played scores
the last deal and ends the game at once, and the phone went from the turn to
"Last game … Points: …": who took the last trick and the last deal's score were
never seen nor said. They are, in that order, before the game's end."""

from __future__ import annotations

import random

import pytest
from phones import dealt_table, heard, table_version, wait_version, watch_heard

from games import seven_up as su
from tournament import gamestate, services
from tournament.models import Game

pytestmark = [pytest.mark.browser]


def test_the_last_trick_and_the_last_deals_score_are_said_before_the_games_end(
    live_server_url, phone
):
    w = services.workshop_create(
        name="7Up end said", game="seven_up", table_count=1, seats_per_table=3, seed=3
    )
    pages, game, names = dealt_table(live_server_url, phone, w, ["Ana"], others=("Bea", "Cai"))
    page = pages["Ana"]
    rng = random.Random(5)

    def move():
        game.refresh_from_db()
        state = gamestate.load_state(game)
        action = su.choose_action(state, state.to_act, rng)
        services.game_act(
            player_id=game.players[state.to_act],
            move={k: v for k, v in action.items() if k != "seat"},
        )

    # Every move but the game's last, from the test process.
    while True:
        game.refresh_from_db()
        state = gamestate.load_state(game)
        if state.deal_no == su.N_DEALS - 1 and state.phase == "play":
            if sum(len(h) for h in state.hands) == 1:
                break
        move()
    wait_version(page, table_version(game), timeout=8000)
    watch_heard(page)
    move()
    page.wait_for_function(
        "() => window.__heard.some((l) => l.includes('Last game'))", timeout=8000
    )
    ended = gamestate.load_state(Game.objects.get(pk=game.pk))
    last = ended.history[-1]
    ana = names.index("Ana")
    said = lambda seat: "you" if seat == ana else names[seat]  # noqa: E731
    said_all = " ".join(heard(page))
    trick = (
        f"Trick {su.DEAL_SIZES[-1]} of deal {su.N_DEALS} "
        f"taken by {said(last.tricks[-1].winner)}. Played: "
    )

    def row(s: int) -> str:
        bid, took, points = last.bids[s], last.tricks_won[s], last.points[s]
        made = "made it" if bid == took else "missed"
        return (
            f"{said(s)} bid {bid}, took {took}, {made}: {points} point{'' if points == 1 else 's'}"
        )

    score = f"Deal {su.N_DEALS} scored: " + "; ".join(row(s) for s in range(3)) + "."
    assert trick in said_all, said_all
    assert score in said_all, said_all
    # In order (the trick, the deal's score, the game's end), each said once.
    at = [said_all.index(trick), said_all.index(score), said_all.index("Last game")]
    assert at == sorted(at), said_all
    assert said_all.count(trick) == said_all.count(score) == 1, said_all
