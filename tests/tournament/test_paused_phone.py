"""A paused round on the phone of the player whose turn it is, in every game: the
turn waits for the round ("Your turn when the round continues."), and nothing in
the hand or the moves is said or drawn as playable (a tap is refused while paused).
It had said "Your turn. Lead any card." over cards named "2 of hearts, playable".
Resumed, the same screen is as before the pause.

Played by bots through the services, the screens rendered as the phones get them.
"""

from __future__ import annotations

import random
import re

import pytest
from django.template.loader import render_to_string
from tournament_helpers import game_at, tables_of

from tournament import gamestate, selectors, services
from tournament.errors import ROUND_PAUSED

pytestmark = pytest.mark.django_db

# The game, its seats per table, and the moment its seat to act has moves to make.
GAMES = {
    "five_tricks": (3, lambda v: v["phase"] == "play"),
    "all_fives": (3, lambda v: v["phase"] == "play"),
    "seven_up": (3, lambda v: v["phase"] == "play" and not v.get("blind")),
    "three_tricks": (2, lambda v: v.get("can_act") and (v.get("can_lay") or v.get("target"))),
}


def screen(player_id: int) -> str:
    return render_to_string("play/_screen.html", selectors.player_screen(player_id))


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def unclocked(html: str) -> str:
    """The screen without its versions and clocks (a pause and resume move them)."""
    return re.sub(r' data-(?:w?version|seconds|deadline)="[^"]*"', "", html)


def assert_moves_held_by_the_pause(before: str, paused: str) -> None:
    """Every move a tap would send is marked data-paused (table.js then sends nothing
    and says the pause's words, which the screen carries as the server's refusal
    words them); before the pause none is, nor after it (the resumed screen is the
    one before). 3 Tricks' cards only pick (nothing is sent): not marked."""
    moves = re.findall(r"<button[^>]*data-action=\"(?:act|play|claim)\"[^>]*>", paused)
    assert moves
    for button in moves:
        assert re.search(r"\sdata-paused[\s>]", button), button
    assert f'data-paused-said="{ROUND_PAUSED}"' in paused
    assert "data-paused-said" not in before
    assert not re.search(r"<button[^>]*\sdata-paused[\s>]", before)


def hand_of(html: str) -> str:
    return html.split('aria-label="Your hand"', 1)[1].split("</section>", 1)[0]


def a_turn(key: str):
    """A study game of `key` played by bots up to a move of the seat to act: its
    round and that seat's player."""
    seats, moment = GAMES[key]
    w = services.workshop_create(
        name="Paused", game=key, table_count=1, seats_per_table=seats, seed=4, bots_enabled=True
    )
    services.bots_fill(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    game = game_at(tables_of(w)[0])
    rng = random.Random(5)
    for _ in range(300):
        game.refresh_from_db()
        seat = gamestate.kind_of(game).to_act(gamestate.load_state(game))[0]
        pid = game.players[seat]
        if moment(selectors.player_screen(pid)["game"]):
            return game.round_id, pid
        services.game_bot_act(player_id=pid, rng=rng)
    pytest.fail("the bots never reached the moment")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_paused_phone_says_the_turn_waits_and_shows_nothing_playable(key):
    round_id, me = a_turn(key)
    before = screen(me)
    assert "when the round continues" not in before
    # Playable before the pause: the hint the pause takes away is there to take.
    playable = ", playable" if key != "three_tricks" else "tt-fits"
    assert playable in hand_of(before) or "tt-matches" in hand_of(before)

    services.round_pause(round_id=round_id)
    paused = screen(me)
    said = text_of(paused)
    assert re.search(r"Your turn( to play)? when the round continues\.", said), said
    assert "Lead any card" not in said
    hand = hand_of(paused)
    assert ", playable" not in paused
    # Nor read out as making or blocking a trick (3 Tricks' words for playable).
    assert ", makes a trick with" not in hand and ", matches trick" not in hand
    assert not re.search(r'class="card [^"]*\b(legal|tt-fits|tt-matches)\b', hand), hand
    # Every card and every move a tap could send is marked unavailable.
    for button in re.findall(r"<button[^>]*data-(?:action|pick)=[^>]*>", paused):
        assert 'aria-disabled="true"' in button, button
    assert "Tap cards to pick them" not in said
    assert_moves_held_by_the_pause(before, paused)

    services.round_resume(round_id=round_id)
    assert unclocked(screen(me)) == unclocked(before)


# A seat's other steps: Five Tricks' claim, All Fives' stand or beg, 7Up7Down's bid.
STEPS = {
    "five_tricks": (lambda v: v["phase"] == "claim" and not v["dispute"], "Tap the winning card"),
    "all_fives": (lambda v: v["phase"] == "beg", "Your choice"),
    "seven_up": (lambda v: v["phase"] == "bid", "Your turn to bid"),
}


@pytest.mark.parametrize("key", list(STEPS))
def test_a_paused_phone_marks_every_move_unavailable_at_each_step(key, monkeypatch):
    moment, words = STEPS[key]
    monkeypatch.setitem(GAMES, key, (3, moment))
    round_id, me = a_turn(key)
    before = screen(me)
    assert f"{words}." in text_of(before) or f"{words}:" in text_of(before)
    services.round_pause(round_id=round_id)
    paused = screen(me)
    assert f"{words} when the round continues" in text_of(paused), text_of(paused)
    buttons = re.findall(r"<button[^>]*data-action=[^>]*>", paused)
    assert buttons
    for button in buttons:
        assert 'aria-disabled="true"' in button, button
    assert_moves_held_by_the_pause(before, paused)
    services.round_resume(round_id=round_id)
    assert unclocked(screen(me)) == unclocked(before)
