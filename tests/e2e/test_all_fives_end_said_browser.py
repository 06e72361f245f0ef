"""What a screen reader hears as an All Fives hand ends, and as a game ends.

A hand: its last card scores it and deals the next at once, and the phone went from
the turn to "Hand 1 scored: …": who took the last trick (its cards are the counters
scored) was never seen nor said. It is, before the hand's score.

A game (a player reaches 61 as a hand is scored) and the next game dealt: who took
the final hand's last trick, that hand's score, who won and the final points, each
once and in that order, before the new game's first line ("Hand 1, Bea deals, to
61."). A phone following the moves gets the game's end and the new deal as two
screens and said them in that order; one that got them as one screen (its socket back
after a moment offline, asleep) said the new hand first and who won the last game
after it. The last trick and the hand's score were said nowhere: the card that scored
the hand ended the game, and the phone went from the turn to "Last game" at once.
That hand's points are shown too, in the table each earlier hand's are shown in under
the next hand: a sighted student saw none of what was said."""

from __future__ import annotations

import random

import pytest
from phones import dealt_table, heard, table_version, wait_version, watch_heard

from games import all_fives as af
from tournament import gamestate, services

pytestmark = [pytest.mark.browser]


def ana_at_a_table(live_server_url, phone, name: str):
    """Ana's phone at a table of three (Bea and Cai played from the test process):
    her page, the game, the seats' names, and the game's state as it is now."""
    w = services.workshop_create(
        name=name, game="all_fives", table_count=1, seats_per_table=3, seed=5
    )
    pages, game, names = dealt_table(live_server_url, phone, w, ["Ana"], others=("Bea", "Cai"))

    def state_now():
        game.refresh_from_db()
        return gamestate.load_state(game)

    return pages["Ana"], game, names, state_now


def own_moves(state) -> list[dict]:
    """The seat to act's own moves (a stand, a take-one, a card), never a call."""
    v = af.view(state, state.to_act)
    return [
        {k: x for k, x in a.items() if k != "seat"}
        for a in v["actions"]
        if a["type"] != "call_revoke"
    ]


def test_the_hands_last_trick_is_said_before_its_score(live_server_url, phone):
    page, game, names, state_now = ana_at_a_table(live_server_url, phone, "All Fives end said")
    rng = random.Random(5)

    def move(state):
        services.game_act(player_id=game.players[state.to_act], move=rng.choice(own_moves(state)))

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


@pytest.mark.parametrize("offline", [False, True], ids=["following", "back-online"])
def test_who_won_and_the_final_points_are_said_once_before_the_next_game(
    live_server_url, phone, offline
):
    page, game, names, state_now = ana_at_a_table(live_server_url, phone, "All Fives game end")
    rng = random.Random(5)

    def ending(state):
        # The move that ends the game, if the seat to act has one.
        for move in own_moves(state):
            after, _ = af.apply(state, {**move, "seat": state.to_act})
            if after.phase == af.PHASE_OVER:
                return move, after
        return None

    # Every move but the game's last, from the test process.
    while (end := ending(state := state_now())) is None:
        services.game_act(player_id=game.players[state.to_act], move=rng.choice(own_moves(state)))
    move, over = end
    wait_version(page, table_version(game), timeout=8000)
    watch_heard(page)
    # Offline as the game ends, the phone gets the new game's screen only when back.
    page.context.set_offline(offline)
    services.game_act(player_id=game.players[state.to_act], move=move)
    page.context.set_offline(False)
    assert len(over.winners) == 1, over.winners
    page.wait_for_function(
        "() => window.__heard.some((l) => l.includes('Hand 1, '))", timeout=15000
    )
    page.wait_for_timeout(500)  # a later screen says none of it again
    said = ["you" if n == "Ana" else n for n in names]
    won = f"Last game (game 1): won by {said[over.winners[0]]}."
    points = "Points: " + ", ".join(f"{said[s]} {over.scores[s]}" for s in range(3)) + "."
    last = over.history[-1]
    trick = f"Trick {len(last.tricks)} won by {said[last.tricks[-1].winner]}."

    def row(s: int) -> str:
        penalty = f" (penalty {last.penalties[s]})" if last.penalties[s] else ""
        return f"{said[s]} {last.points[s]}{penalty}, total {last.scores[s]}"

    scored = f"Hand {last.hand} scored: " + "; ".join(row(s) for s in range(3)) + "."
    said_all = " ".join(heard(page))
    assert f"{won} {points}" in said_all, said_all
    assert f"{trick} {scored}" in said_all, said_all
    assert said_all.count("Last game") == 1, said_all
    assert said_all.count(trick) == said_all.count(scored) == 1, said_all
    # In order: the last trick, the hand's score, the game's end, then the new game.
    at = [said_all.index(x) for x in (trick, scored, won, "Hand 1, ")]
    assert at == sorted(at), said_all
    # What is said is shown, as each earlier hand's points are under the next hand: the
    # final hand's table was on no screen, the next game's has no hand of its own yet.
    box = page.locator("#screen .af-last-hand")
    assert box.count() == 1, page.inner_text("#screen")
    assert box.evaluate("el => el.open"), box.inner_html()
    summary = box.locator("summary").inner_text().replace("\xa0", " ")
    assert summary.startswith(f"Hand {last.hand} of game 1 ("), summary
    shown = [r.split("\t") for r in box.locator("tbody tr").all_inner_texts()]
    assert shown == [
        [names[s], str(last.points[s]), str(last.penalties[s] or "–"), str(last.scores[s])]
        for s in range(3)
    ], shown
    assert box.is_visible()
