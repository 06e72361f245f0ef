"""A paused study on the phone of the player whose turn it is, in every game: the
turn waits for play ("Your turn when play continues."; a scored round's words are
the round's, tests/tournament/test_screens.py), and nothing in
the hand or the moves is said or drawn as playable (a tap is refused while paused).
It had said "Your turn. Lead any card." over cards named "2 of hearts, playable".
Resumed, the same screen is as before the pause.

Played by bots through the services, the screens rendered as the phones get them;
the rarer moves (7Up7Down's hook bid and blind card, All Fives' revoke call and
answers to a beg, Five Tricks' claims in a dispute and its suggested claim) reached
the way their own tests reach them.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from test_kind_all_fives import act as af_act
from test_kind_all_fives import af_workshop, play_revoke_trick, revoke_setup, study
from test_kind_seven_up import act as su_act
from test_kind_seven_up import fix_seed, play_until, seven_up_workshop, to_study
from tournament_helpers import (
    HIGH,
    LOW,
    game_at,
    make_workshop,
    open_dispute,
    play_until_claim,
    set_seat_sheets,
    state_of,
    tables_of,
    to_scored_round,
)

from games import five_tricks
from games import seven_up as su
from tournament import gamestate, selectors, services
from tournament.errors import PLAY_PAUSED, ROUND_PAUSED

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


class Moves(HTMLParser):
    """Every element a tap sends a move from (data-action act, play or claim): its
    attributes, and the words it shows."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict] = []
        self.open: list[tuple[str, dict]] = []  # the moves being read: tag, attributes

    def handle_starttag(self, tag, attrs):
        a = {k: "" if v is None else v for k, v in attrs}
        if a.get("data-action") in ("act", "play", "claim"):
            a["text"] = ""
            self.found.append(a)
            self.open.append((tag, a))

    def handle_endtag(self, tag):
        if self.open and self.open[-1][0] == tag:
            _, a = self.open.pop()
            a["text"] = " ".join(a["text"].split())

    def handle_data(self, data):
        for _, a in self.open:
            a["text"] += data


def moves_of(html: str) -> list[dict]:
    parser = Moves()
    parser.feed(html)
    parser.close()
    return parser.found


def assert_moves_held_by_the_pause(before: str, paused: str) -> None:
    """Every move a tap would send is marked data-paused and unavailable (table.js then
    sends nothing and says the pause's words, which the screen carries as the server's
    refusal words them); before the pause none is marked paused, nor after it (the
    resumed screen is the one before). 3 Tricks' cards only pick (nothing is sent),
    but a pick held by the pause says its words as a move does: marked too."""
    picks = re.findall(r"<button[^>]*data-pick=[^>]*>", paused)
    assert all("data-paused" in b and 'aria-disabled="true"' in b for b in picks), picks
    assert not [
        b for b in re.findall(r"<button[^>]*data-pick=[^>]*>", before) if "data-paused" in b
    ]
    moves = moves_of(paused)
    assert moves
    for move in moves:
        assert "data-paused" in move and move.get("aria-disabled") == "true", move
    # The pause's words are the phase's: play's in study (most tests here), the round's
    # in a scored round (Five Tricks' disputes).
    words = ROUND_PAUSED if 'data-phase="round"' in paused else PLAY_PAUSED
    assert f'data-paused-said="{words}"' in paused
    assert "data-paused-said" not in before
    assert moves_of(before)
    assert not [m for m in moves_of(before) if "data-paused" in m]


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
    assert "when play continues" not in before
    # Playable before the pause: the hint the pause takes away is there to take.
    playable = ", playable" if key != "three_tricks" else "tt-fits"
    assert playable in hand_of(before) or "tt-matches" in hand_of(before)

    services.round_pause(round_id=round_id)
    paused = screen(me)
    said = text_of(paused)
    assert re.search(r"Your turn( to play)? when play continues\.", said), said
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
    assert f"{words} when play continues" in text_of(paused), text_of(paused)
    buttons = re.findall(r"<button[^>]*data-action=[^>]*>", paused)
    assert buttons
    for button in buttons:
        assert 'aria-disabled="true"' in button, button
    assert_moves_held_by_the_pause(before, paused)
    services.round_resume(round_id=round_id)
    assert unclocked(screen(me)) == unclocked(before)


# ------------------------------------------------------------------ the rarer moves
# Each returns the round, the player whose phone shows the move, and which of its
# moves it is.


def hook_bid():
    """7Up7Down's first deal (7 cards): 3 + 2 + 1 bid, the dealer may not bid 1."""
    w = seven_up_workshop(preset="classic")
    game = fix_seed(to_study(w), 4)
    for seat, bid in ((0, 3), (1, 2), (2, 1)):
        su_act(game, seat, {"type": "bid", "bid": bid})
    return game.round_id, game.players[3], lambda m: "su-hooked" in m.get("class", "")


def blind_card():
    """7Up7Down's blind deal, bid: the seat to lead plays the card it cannot see."""
    w = seven_up_workshop(preset="classic", players=3, seats=3)
    game = fix_seed(to_study(w), 21)
    play_until(game, lambda s: s.deal_no == su.BLIND_DEAL and s.phase == "play")
    seat = gamestate.load_state(game).to_act
    return game.round_id, game.players[seat], lambda m: m["text"] == "Play my unseen card"


def revoke_call():
    """All Fives in Barnga mode: a trick with a revoke in it, its calls open."""
    game, r_seat = revoke_setup("barnga")
    leader, _ = play_revoke_trick(game, r_seat)
    return (
        game.round_id,
        game.players[leader],
        lambda m: m["text"].startswith("Call revoke:") and "call_revoke" in m["data-move"],
    )


def beg_answer(words: str):
    """All Fives: eldest begged; the dealer answers."""

    def moment():
        w = af_workshop()
        study(w)
        game = game_at(tables_of(w)[0])
        state = state_of(game)
        af_act(game, state.eldest, {"type": "beg"})
        return game.round_id, game.players[state.dealer], lambda m: m["text"] == words

    return moment


def dispute_claims():
    """Five Tricks: two sheets at a table, the claims differ; every card is claimable."""
    w = make_workshop(players=4, tables=1, seats=4)
    rnd = to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, LOW, LOW])
    open_dispute(game)
    return rnd.pk, game.players[0], lambda m: m["data-action"] == "claim"


def suggested_claim():
    """Five Tricks' claim step at the phone of the seat its own sheet says won."""
    w = make_workshop(players=4, tables=1, seats=4)
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    state = play_until_claim(game)
    top = five_tricks.view(state, 0)["suggested_claim"]
    assert five_tricks.view(state, top)["suggested_claim"] == top  # one sheet at the table
    return rnd.pk, game.players[top], lambda m: m["text"] == "✓ I won, by my rules"


RARER = {
    "7Up7Down hook bid": hook_bid,
    "7Up7Down blind card": blind_card,
    "All Fives revoke call": revoke_call,
    "All Fives take one": beg_answer("Give one point (take one)"),
    "All Fives run": beg_answer("Run the cards"),
    "Five Tricks dispute claims": dispute_claims,
    "Five Tricks suggested claim": suggested_claim,
}


@pytest.mark.parametrize("moment", list(RARER))
def test_a_paused_phone_holds_the_rarer_moves_too(moment):
    round_id, me, is_it = RARER[moment]()
    before = screen(me)
    mine = [m for m in moves_of(before) if is_it(m)]
    assert mine, moment
    for move in mine:
        assert "data-paused" not in move, move
    if moment == "7Up7Down hook bid":  # unavailable, paused or not; but sent, to be refused
        assert all(m.get("aria-disabled") == "true" for m in mine), mine

    services.round_pause(round_id=round_id)
    paused = screen(me)
    held = [m for m in moves_of(paused) if is_it(m)]
    assert len(held) == len(mine), (mine, held)
    for move in held:
        assert "data-paused" in move and move.get("aria-disabled") == "true", move
    assert_moves_held_by_the_pause(before, paused)
    # In study (All Fives' and 7Up7Down's here) the wait is play's, not a round's: the
    # dealer answering a beg was told "When the round continues, give one point".
    if 'data-phase="round"' not in paused:
        assert "round" not in text_of(paused).lower(), text_of(paused)

    services.round_resume(round_id=round_id)
    assert unclocked(screen(me)) == unclocked(before)
