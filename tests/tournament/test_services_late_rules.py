"""A latecomer's sheet folds away at their first move in a scored round.

A student who joined after the study reads their own sheet until they tap "I have
read my rules". One who never tapped kept the whole sheet open under their hand all
through a scored round, where a neighbour could read it (RULES §2: the rules are
hidden then), and the monitor said "reading the rules" all round. Their first move
there now folds it as the tap would: the same row, the same screen after.
"""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from tournament_helpers import (
    fresh,
    game_at,
    legal_card,
    make_workshop,
    one_left_alone,
    state_of,
    tables_of,
    to_home,
)

from tournament import broadcast, selectors, selectors_facilitator, services
from tournament.errors import IllegalMove
from tournament.models import Phase, Player

pytestmark = pytest.mark.django_db


def screen(player_id: int) -> str:
    return render_to_string("play/_screen.html", selectors.player_screen(player_id))


def reading(w) -> set[str]:
    """The facilitator's monitor: who is still reading their rules."""
    return {
        p["name"]
        for t in selectors_facilitator.monitor(fresh(w))
        for p in t["players"]
        if p["reading"]
    }


def to_their_turn(game, pid: int):
    """The others at `game` play until it is `pid`'s turn to play a card."""
    for _ in range(40):
        state = state_of(game)
        if state.phase == "play" and game.players[state.to_act] == pid:
            return state
        if state.phase != "play":
            pytest.fail("a trick ended before their turn")
        services.game_play(
            player_id=game.players[state.to_act], card=legal_card(state, state.to_act)
        )
    pytest.fail("their turn never came")


def not_in_hand(state, seat: int) -> str:
    """A card another seat holds: refused by the engine."""
    return next(h[0] for s, h in enumerate(state.hands) if s != seat and h)


def latecomer():
    """Three players, one alone at table 2 (no game there), in the silent play at
    home; a student who joins then sits at table 2 and is dealt in."""
    w = make_workshop(players=3, tables=2)
    to_home(w, one_left_alone(w))
    late = fresh(services.player_join(workshop_id=w.pk, name="Late"))
    assert late.rules_unread is True
    return w, late


def test_a_move_at_silent_home_play_leaves_the_sheet_open():
    w, late = latecomer()
    game = game_at(tables_of(w)[1])
    assert late.pk in game.players
    state = to_their_turn(game, late.pk)
    seat = game.players.index(late.pk)
    result = services.game_play(player_id=late.pk, card=legal_card(state, seat))
    assert result.rules_folded is False
    assert fresh(late).rules_unread is True  # still studying, as the others did
    assert 'id="your-rules"' in screen(late.pk)


def test_the_first_move_in_a_scored_round_folds_the_sheet_as_the_tap_does(monkeypatch):
    w, late = latecomer()
    services.round_start(workshop_id=w.pk)
    assert fresh(w).phase == Phase.ROUND
    game = game_at(tables_of(w)[1])
    assert late.pk in game.players
    html = screen(late.pk)
    assert 'id="your-rules"' in html and "You joined after the others studied" in html
    assert reading(w) == {"Late"}

    told = []
    monkeypatch.setattr(broadcast, "roster_changed_on_commit", lambda **kw: told.append(kw))
    state = to_their_turn(game, late.pk)
    seat = game.players.index(late.pk)
    # A refused move is no move: nothing changes, the sheet stays.
    with pytest.raises(IllegalMove):
        services.game_play(player_id=late.pk, card=not_in_hand(state, seat))
    assert fresh(late).rules_unread is True and told == []

    result = services.game_play(player_id=late.pk, card=legal_card(state, seat))
    assert fresh(late).rules_unread is False
    assert told == [{"workshop_id": w.pk}]  # the monitor hears of it
    assert reading(w) == set()
    html = screen(late.pk)
    assert 'id="your-rules"' not in html and "joined after" not in html
    assert result.rules_folded is True  # the socket renders this phone again
    # Folded as the tap folds it: nothing more to reopen than a student who tapped has.
    assert services.player_rules_read(player_id=late.pk) is False

    # Their next move (a claim, when their card ended the trick) folds nothing more.
    if state_of(game).phase == "claim":
        again = services.game_claim(player_id=late.pk, winner_player_id=late.pk)
    else:
        state = to_their_turn(game, late.pk)
        again = services.game_play(player_id=late.pk, card=legal_card(state, seat))
    assert again.rules_folded is False and told == [{"workshop_id": w.pk}]


def test_a_player_who_read_their_rules_is_not_told_again():
    w, late = latecomer()
    services.player_rules_read(player_id=late.pk)
    services.round_start(workshop_id=w.pk)
    game = game_at(tables_of(w)[1])
    state = to_their_turn(game, late.pk)
    seat = game.players.index(late.pk)
    result = services.game_play(player_id=late.pk, card=legal_card(state, seat))
    assert result.rules_folded is False
    assert Player.objects.get(pk=late.pk).rules_unread is False
