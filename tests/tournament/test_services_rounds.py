"""Winners and standings at the end of a round (RULES.md §1 "Game winners", §2 "End of
a round"): a game in progress counts with the tricks taken so far."""

from __future__ import annotations

import pytest
from tournament_helpers import (
    HIGH,
    LOW,
    finish_trick,
    fresh,
    game_at,
    make_workshop,
    open_dispute,
    play_until_claim,
    set_seat_sheets,
    tables_of,
    to_home,
    to_scored_round,
)

from tournament import movement, services
from tournament.models import Dispute, Game, GameState, RoundState
from tournament.services.rounds import round_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def scored():
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    return w, rnd, t1, t2


def standings_by_id(rnd) -> dict[int, dict]:
    return {row["id"]: row for row in fresh(rnd).standings["players"]}


def test_an_incomplete_game_counts_with_the_tricks_so_far(scored):
    w, rnd, t1, t2 = scored
    game = game_at(t1)
    finish_trick(game, 2)
    services.round_end_now(round_id=rnd.pk)
    game.refresh_from_db()
    assert game.state == GameState.CUT and game.finished_at is not None
    assert game.tricks_won == [0, 0, 1, 0]
    assert game.winners == [game.players[2]]
    rows = standings_by_id(rnd)
    assert rows[game.players[2]]["games_won"] == 1
    for pid in game.players:
        assert rows[pid]["games_played"] == 1
        if pid != game.players[2]:
            assert rows[pid]["games_won"] == 0


def test_a_tie_makes_co_winners(scored):
    w, rnd, t1, _ = scored
    game = game_at(t1)
    for seat in (1, 3, 3, 1):
        finish_trick(game, seat)
    services.round_end_now(round_id=rnd.pk)
    game.refresh_from_db()
    assert game.tricks_won == [0, 2, 0, 2]
    assert sorted(game.winners) == sorted([game.players[1], game.players[3]])
    rows = standings_by_id(rnd)
    assert rows[game.players[1]]["games_won"] == rows[game.players[3]]["games_won"] == 1


def test_a_game_with_no_completed_trick_has_no_winner(scored):
    w, rnd, t1, t2 = scored
    g1, g2 = game_at(t1), game_at(t2)
    play_until_claim(g2)  # the last card is down but the trick is still being claimed
    services.round_end_now(round_id=rnd.pk)
    for g in (g1, g2):
        g.refresh_from_db()
        assert g.state == GameState.CUT and g.winners == [] and g.tricks_won == [0, 0, 0, 0]
    assert all(row["games_won"] == 0 for row in fresh(rnd).standings["players"])


def test_an_open_dispute_at_the_end_of_the_round_is_closed_as_cut():
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, LOW, LOW])
    open_dispute(game)
    dispute = Dispute.objects.get(game=game)
    tricks_before = len(fresh(game).trick_records.all())
    services.round_end_now(round_id=rnd.pk)
    dispute.refresh_from_db()
    assert dispute.resolution == "cut" and dispute.resolved_at is not None
    assert dispute.winner is None
    game.refresh_from_db()
    assert sum(game.tricks_won) == tricks_before  # the disputed trick is not counted
    assert game.claim_deadline is None


def test_standings_are_games_won_over_the_whole_round(scored):
    w, rnd, t1, _ = scored
    first = game_at(t1)
    for _ in range(7):  # a whole game: seat 0 takes every trick
        finish_trick(first, 0)
    first.refresh_from_db()
    assert first.state == GameState.OVER and first.winners == [first.players[0]]
    second = game_at(t1)
    assert second.number == 2
    winner_pid = first.players[0]
    seat_in_second = second.players.index(winner_pid)
    finish_trick(second, seat_in_second)
    services.round_end_now(round_id=rnd.pk)
    rows = standings_by_id(rnd)
    assert rows[winner_pid]["games_won"] == 2
    assert rows[winner_pid]["games_played"] == 2
    assert sum(r["games_won"] for r in rows.values()) == 2
    assert Game.objects.filter(round=rnd, table=t1).count() == 2


def test_round_standings_are_stored_once_and_match_a_recount(scored):
    w, rnd, t1, t2 = scored
    finish_trick(game_at(t1), 1)
    finish_trick(game_at(t2), 3)
    services.round_end_now(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert rnd.standings == round_standings(rnd)
    rows = rnd.standings["players"]
    assert [(r["table"], r["name"]) for r in rows] == sorted((r["table"], r["name"]) for r in rows)


def test_movement_preview_is_computed_at_the_end_of_a_scored_round(scored):
    w, rnd, t1, t2 = scored
    g1, g2 = game_at(t1), game_at(t2)
    finish_trick(g1, 3)
    finish_trick(g2, 0)
    services.round_end_now(round_id=rnd.pk)
    rnd.refresh_from_db()
    preview = rnd.movement_preview
    assert preview["moves"] == preview["computed"]
    tables = []
    for number in (1, 2):
        rows = [r for r in rnd.standings["players"] if r["table"] == number]
        tables.append(
            movement.TableStanding(
                number=number,
                players=tuple(
                    movement.Standing(name=r["name"], games_won=r["games_won"], key=r["id"])
                    for r in rows
                ),
            )
        )
    expected = movement.compute_movement(tables)
    assert {(m["player"], m["from"], m["to"]) for m in preview["moves"]} == {
        (m.key, m.from_table, m.to_table) for m in expected.moves
    }
    # 4 players a table: k = 1. The winner at table 1 goes up; the last at table 2 comes down.
    moves = {m["player"]: (m["from"], m["to"]) for m in preview["moves"]}
    assert moves[g1.players[3]] == (1, 2)
    assert len(moves) == 2 and all(not m["edited"] for m in preview["moves"])


def test_no_movement_preview_after_unscored_rounds():
    w = make_workshop(players=4, tables=2)
    home = to_home(w)
    services.round_end_now(round_id=home.pk)
    home.refresh_from_db()
    assert home.state == RoundState.FINISHED and home.movement_preview == {}
    assert home.standings["players"]
