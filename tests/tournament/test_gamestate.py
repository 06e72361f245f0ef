"""The replay cache (tournament.gamestate): a state is the replay of exactly `seq` actions."""

from __future__ import annotations

import pytest
from tournament_helpers import game_at, make_workshop, play_one, tables_of, to_scored_round

from tournament import gamestate
from tournament.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    w = make_workshop(players=4, tables=1, seats=4)
    to_scored_round(w)
    return game_at(tables_of(w)[0])


def stale_copy(game, seq: int) -> Game:
    """The game row as a reader saw it before the later actions were committed."""
    old = Game.objects.get(pk=game.pk)
    old.seq = seq
    return old


def test_a_reader_behind_the_log_gets_the_state_of_its_own_seq(game):
    for _ in range(3):
        play_one(game)
    game.refresh_from_db()
    gamestate.clear_cache()
    behind = gamestate.load_state(stale_copy(game, 1))  # actions 2 and 3 exist already
    assert behind.seq == 1
    # …and what it cached under seq 1 is still the seq-1 state for the next reader.
    assert gamestate.load_state(stale_copy(game, 1)) is behind
    assert gamestate.load_state(game).seq == game.seq == 3


def test_a_miss_replays_only_the_actions_after_the_newest_cached_state(
    game, django_assert_num_queries
):
    play_one(game)
    game.refresh_from_db()
    gamestate.clear_cache()
    first = gamestate.load_state(game)  # from the deal: one query for the log
    for _ in range(2):
        play_one(game)
    game.refresh_from_db()
    gamestate.clear_cache()
    gamestate.remember(stale_copy(game, 1), first)
    with django_assert_num_queries(1):
        now = gamestate.load_state(game)
    assert now.seq == 3
    full = gamestate.replay_log(game)
    assert now == full


@pytest.mark.django_db(transaction=True)
def test_an_action_whose_transaction_fails_leaves_no_state_cached_for_its_seq(monkeypatch):
    """The action ran, then its transaction failed (its commit lost, say): this
    process must not keep the state it worked out, cached under a seq that was never
    stored, for another process may store another action under that seq. Here the
    same seat's claim goes the other way; this process then reads the game at that
    seq and must get the replay of what was stored."""
    from django.db import transaction
    from tournament_helpers import play_until_claim

    from tournament import services

    w = make_workshop(players=4, tables=1, seats=4)
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    assert play_until_claim(game).phase == "claim"
    with pytest.raises(RuntimeError), transaction.atomic():
        services.game_claim(player_id=game.players[0], winner_player_id=game.players[1])
        raise RuntimeError("the commit was lost")
    # Another process, with its own cache, stores a different claim at that seq.
    with monkeypatch.context() as other_process:
        other_process.setattr(gamestate, "remember", lambda game, state: None)
        services.game_claim(player_id=game.players[0], winner_player_id=game.players[0])
    game.refresh_from_db()
    stored = gamestate.replay_log(game)
    assert stored.claims[0] == 0
    assert gamestate.load_state(game) == stored
