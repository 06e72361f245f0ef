"""Races between threads with their own database connections: a round is finalised
once, and actions at one table are serialised (issue 3 "Concurrency")."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from tournament_helpers import (
    expire,
    fix_seed,
    fresh,
    game_at,
    legal_card,
    make_workshop,
    play_until_claim,
    state_of,
    tables_of,
    to_scored_round,
)

from tournament import gamestate, services, timers
from tournament.errors import ServiceError
from tournament.models import Action, Claim, Game, GameState, RoundState, Table, TrickRecord

pytestmark = pytest.mark.django_db(transaction=True)


def race(*calls, timeout=30):
    """Run each call in its own thread (own DB connection), released together.

    Returns one ("ok", value) or ("error", exception) per call, in call order.
    """
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = ("ok", call())
        except Exception as exc:  # reported to the test, which decides
            results[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
        assert not t.is_alive(), "a thread hung"
    return results


def assert_seq_log(game):
    seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)), "gaps or duplicates in the action log"
    game.refresh_from_db()
    assert game.seq == len(seqs)
    # What is stored replays to what the engine says.
    assert gamestate.replay_log(game).seq == game.seq
    return seqs


def test_two_timers_racing_finalise_one_round_once():
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    expire(rnd)
    wv = fresh(w).version
    tv = {t.pk: t.version for t in tables_of(w)}
    results = race(
        lambda: services.round_finalise(round_id=rnd.pk, by="timer"),
        lambda: services.round_finalise(round_id=rnd.pk, by="timer"),
    )
    assert all(kind == "ok" for kind, _ in results), results
    assert sorted(value for _, value in results) == [False, True]
    rnd.refresh_from_db()
    assert rnd.state == RoundState.FINISHED and rnd.finished_by == "timer"
    assert rnd.standings["players"] and rnd.movement_preview["moves"] is not None
    games = Game.objects.filter(round=rnd)
    assert games.count() == 2  # nothing dealt twice
    assert all(g.state == GameState.CUT for g in games)
    # Every bump happened once: the workshop and each table moved on by exactly one version.
    assert fresh(w).version == wv + 1
    assert {t.pk: t.version for t in tables_of(w)} == {pk: v + 1 for pk, v in tv.items()}


def test_the_timer_and_the_facilitator_racing_end_the_round_once():
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    expire(rnd)
    results = race(
        lambda: timers.tick(bot_delay=3600).rounds_finalised,
        lambda: services.round_end_now(round_id=rnd.pk),
    )
    assert all(kind == "ok" for kind, _ in results), results
    (_, ticked), (_, ended) = results
    assert (ticked == [rnd.pk]) != ended  # exactly one of them ended it
    assert fresh(rnd).finished_by == ("timer" if ticked else "facilitator")


@pytest.fixture
def table():
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    t1 = tables_of(w)[0]
    return t1, fix_seed(game_at(t1), 2024)


def test_two_players_playing_at_once_are_serialised(table):
    t1, game = table
    first = state_of(game).to_act
    second = (first + 1) % len(game.players)

    def play_when_my_turn(seat):
        def call():
            for _ in range(400):
                g = Game.objects.get(pk=game.pk)
                state = gamestate.load_state(g)
                if state.to_act == seat:
                    try:
                        return services.game_play(
                            player_id=g.players[seat], card=legal_card(state, seat)
                        )
                    except ServiceError:
                        pass  # the table moved on under us: look again
                time.sleep(0.005)
            raise AssertionError("never my turn")

        return call

    results = race(play_when_my_turn(second), play_when_my_turn(first))
    assert all(kind == "ok" for kind, _ in results), results
    assert sorted(r.seq for _, r in results) == [1, 2]
    assert assert_seq_log(game) == [1, 2]
    actors = list(Action.objects.filter(game=game).order_by("seq").values_list("actor", flat=True))
    assert actors == [game.players[first], game.players[second]]


def test_one_player_sending_two_cards_at_once_gets_one_played(table):
    t1, game = table
    state = state_of(game)
    seat = state.to_act
    pid = game.players[seat]
    a, b = state.hands[seat][:2]
    v = fresh(t1).version
    results = race(
        lambda: services.game_play(player_id=pid, card=a, expected_version=v),
        lambda: services.game_play(player_id=pid, card=b, expected_version=v),
    )
    oks = [value for kind, value in results if kind == "ok"]
    errors = [value for kind, value in results if kind == "error"]
    assert len(oks) == 1 and len(errors) == 1
    assert isinstance(errors[0], ServiceError) and errors[0].code in {"stale", "illegal"}
    assert assert_seq_log(game) == [1]
    assert fresh(t1).version == v + 1


def test_the_same_message_twice_at_once_is_applied_once(table):
    t1, game = table
    state = state_of(game)
    seat = state.to_act
    card = legal_card(state, seat)
    results = race(
        *[
            lambda: services.game_play(
                player_id=game.players[seat], card=card, client_action_id="tap-1"
            )
        ]
        * 3
    )
    oks = [value for kind, value in results if kind == "ok"]
    errors = [value for kind, value in results if kind == "error"]
    assert len(oks) == 1 and len(errors) == 2
    assert all(e.code == "duplicate" for e in errors), errors
    assert assert_seq_log(game) == [1]


def test_everyone_claiming_at_once_awards_the_trick_once(table):
    t1, game = table
    state = play_until_claim(game)
    winner = game.players[state.current[0][0]]
    seq0 = fresh(game).seq
    results = race(
        *[
            (lambda pid=pid: services.game_claim(player_id=pid, winner_player_id=winner))
            for pid in game.players
        ]
    )
    assert all(kind == "ok" for kind, _ in results), results
    assert sorted(r.seq for _, r in results) == list(range(seq0 + 1, seq0 + 5))
    assert_seq_log(game)
    assert Claim.objects.filter(game=game).count() == 4
    rec = TrickRecord.objects.get(game=game)
    assert rec.resolution == "unanimous" and rec.winner_player_id == winner
    assert state_of(game).phase == "play"


def test_a_move_between_tables_and_a_play_at_once_never_corrupt():
    # A skip-policy leave cuts the game while a teammate plays: the play either lands
    # before the cut or is refused; the new game starts clean.
    w = make_workshop(players=8, tables=2, leave_policy="skip")
    to_scored_round(w)
    t1 = tables_of(w)[0]
    game = game_at(t1)
    state = state_of(game)
    seat = state.to_act
    leaver = game.players[(seat + 1) % 4]
    v = fresh(t1).version
    results = race(
        lambda: services.game_play(
            player_id=game.players[seat], card=legal_card(state, seat), expected_version=v
        ),
        lambda: services.player_leave(player_id=leaver),
    )
    assert results[1][0] == "ok", results
    if results[0][0] == "error":  # the leave came first: the play was decided on the old game
        assert results[0][1].code == "stale"
        assert Action.objects.filter(game=game).count() == 0
    else:
        assert results[0][1].game_id == game.pk
    assert_seq_log(game)
    game.refresh_from_db()
    assert game.state == GameState.CUT
    new = game_at(Table.objects.get(pk=t1.pk))
    assert new.seq == 0 and leaver not in new.players


def test_one_players_refusals_at_once_keep_no_more_than_the_cap():
    """Refused moves are kept up to REFUSALS_KEPT per player and game, counted then
    inserted: on SQLite transactions begin IMMEDIATE (one writer at a time), so refusals
    arriving together still keep the cap. (PostgreSQL: tests/reliability/
    test_refusals_postgres.py, where the player's row lock is what holds it.)"""
    from games import five_tricks
    from tournament.errors import IllegalMove
    from tournament.limits import REFUSALS_KEPT
    from tournament.models import RefusedAttempt

    w = make_workshop(players=8, tables=2, mode="referee")
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    for _ in range(40):
        state = state_of(game)
        seat = state.to_act
        legal = {a["card"] for a in five_tricks.legal_actions(state, seat)}
        bad = [c for c in state.hands[seat] if c not in legal]
        if bad:
            break
        services.game_play(player_id=game.players[seat], card=sorted(legal)[0])
    else:
        pytest.fail("no seat ever held a card it could not play")
    player = game.players[seat]
    calls = [lambda: services.game_play(player_id=player, card=bad[0])] * (REFUSALS_KEPT + 10)
    results = race(*calls)
    assert all(kind == "error" and isinstance(e, IllegalMove) for kind, e in results), results
    assert RefusedAttempt.objects.filter(game=game, player_id=player).count() == REFUSALS_KEPT
