"""Phase transitions: lobby → study → home → scored round → between → round → debrief,
and every transition refused from the wrong phase (RULES.md §2; issue 3)."""

from __future__ import annotations

import pytest
from tournament_helpers import (
    assert_refused,
    fresh,
    game_at,
    make_workshop,
    one_left_alone,
    seated,
    tables_of,
)

from tournament import services
from tournament.errors import NotFound, WrongPhase
from tournament.models import (
    Game,
    GameState,
    Phase,
    Player,
    Round,
    RoundKind,
    RoundState,
    Seating,
)

pytestmark = pytest.mark.django_db


def current_round(w) -> Round:
    return Round.objects.filter(workshop=w).order_by("-number").first()


def goto(phase: str):
    """A workshop of 8 players at 2 tables, brought to `phase` by the services."""
    w = make_workshop(players=8, tables=2)
    if phase == Phase.LOBBY:
        return w
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    if phase == Phase.STUDY:
        return fresh(w)
    services.workshop_start_home(workshop_id=w.pk)
    if phase == Phase.HOME:
        return fresh(w)
    rnd = services.round_start(workshop_id=w.pk)
    if phase == Phase.ROUND:
        return fresh(w)
    services.round_end_now(round_id=rnd.pk)
    if phase == Phase.BETWEEN:
        return fresh(w)
    services.workshop_start_debrief(workshop_id=w.pk)
    assert phase == Phase.DEBRIEF
    return fresh(w)


def assert_round_opened(w, rnd, kind, number, scored_number=None):
    assert rnd.kind == kind and rnd.number == number and rnd.scored_number == scored_number
    assert rnd.state == RoundState.RUNNING and rnd.deadline > rnd.started_at
    seconds = {
        RoundKind.STUDY: w.study_seconds,
        RoundKind.HOME: w.home_seconds,
        RoundKind.SCORED: w.round_seconds,
    }[kind]
    assert abs((rnd.deadline - rnd.started_at).total_seconds() - seconds) < 1
    for t in tables_of(w):
        game = game_at(t)
        assert game is not None and game.round_id == rnd.pk and game.number == 1
        assert sorted(game.players) == sorted(p.pk for p in seated(t))
        assert game.seq == 0 and game.mode == w.mode
    # Where everyone sat when the round began.
    seatings = {(s.player_id, s.table_number, s.seat) for s in Seating.objects.filter(round=rnd)}
    expected = {
        (p.pk, p.table.number, p.seat)
        for p in Player.objects.filter(workshop=w, table__isnull=False).select_related("table")
    }
    assert seatings == expected


def test_the_whole_sequence_of_phases():
    w = make_workshop(players=8, tables=2)
    assert w.phase == Phase.LOBBY
    services.players_seat_home(workshop_id=w.pk)
    v = fresh(w).version

    study = services.workshop_start_study(workshop_id=w.pk)
    w = fresh(w)
    assert w.phase == Phase.STUDY and w.version > v
    assert_round_opened(w, study, RoundKind.STUDY, 1)

    home = services.workshop_start_home(workshop_id=w.pk)
    w = fresh(w)
    assert w.phase == Phase.HOME
    study.refresh_from_db()
    assert study.state == RoundState.FINISHED and study.finished_by == "facilitator"
    assert not Game.objects.filter(round=study, state=GameState.PLAYING).exists()
    assert_round_opened(w, home, RoundKind.HOME, 2)

    r1 = services.round_start(workshop_id=w.pk)
    w = fresh(w)
    assert w.phase == Phase.ROUND
    assert fresh(home).state == RoundState.FINISHED
    assert_round_opened(w, r1, RoundKind.SCORED, 3, scored_number=1)
    assert str(r1) == "Round 1"

    assert services.round_end_now(round_id=r1.pk) is True
    w = fresh(w)
    r1.refresh_from_db()
    assert w.phase == Phase.BETWEEN
    assert r1.state == RoundState.FINISHED and r1.finished_by == "facilitator"
    assert r1.standings["players"] and "moves" in r1.movement_preview
    assert_refused(lambda: services.round_start(workshop_id=w.pk), WrongPhase)

    services.movement_apply(round_id=r1.pk)
    r2 = services.round_start(workshop_id=w.pk)
    w = fresh(w)
    assert w.phase == Phase.ROUND
    assert_round_opened(w, r2, RoundKind.SCORED, 4, scored_number=2)

    services.workshop_start_debrief(workshop_id=w.pk)
    w = fresh(w)
    assert w.phase == Phase.DEBRIEF
    r2.refresh_from_db()
    assert r2.state == RoundState.FINISHED and r2.finished_by == "facilitator"
    assert r2.standings["players"]
    assert not Game.objects.filter(table__workshop=w, state=GameState.PLAYING).exists()


def test_unscored_rounds_ended_by_the_timer_keep_their_phase():
    w = goto(Phase.STUDY)
    rnd = current_round(w)
    assert services.round_end_now(round_id=rnd.pk)
    assert fresh(w).phase == Phase.STUDY
    # ... and the facilitator moves on from there.
    services.workshop_start_home(workshop_id=w.pk)
    assert fresh(w).phase == Phase.HOME
    assert fresh(rnd).finished_by == "facilitator"


def test_debrief_straight_from_study_home_and_between():
    for phase in (Phase.STUDY, Phase.HOME, Phase.BETWEEN):
        w = goto(phase)
        services.workshop_start_debrief(workshop_id=w.pk)
        assert fresh(w).phase == Phase.DEBRIEF
        assert not Round.objects.filter(workshop=w).exclude(state=RoundState.FINISHED).exists()


ALLOWED = {
    "workshop_start_study": {Phase.LOBBY},
    "workshop_start_home": {Phase.STUDY},
    "round_start": {Phase.HOME},  # BETWEEN only after the movement is applied
    "workshop_start_debrief": {Phase.STUDY, Phase.HOME, Phase.ROUND, Phase.BETWEEN},
}


@pytest.mark.parametrize("phase", [p.value for p in Phase])
def test_transitions_from_the_wrong_phase_are_refused(phase):
    w = goto(phase)
    refused = [name for name, allowed in sorted(ALLOWED.items()) if phase not in allowed]
    assert refused
    for name in refused:
        exc = assert_refused(
            lambda name=name: getattr(services, name)(workshop_id=w.pk), WrongPhase, case=name
        )
        assert exc.code == "wrong_phase"
    # The allowed ones still work afterwards.
    for name, allowed in sorted(ALLOWED.items()):
        if phase in allowed:
            getattr(services, name)(workshop_id=w.pk)
            assert fresh(w).phase != phase
            break


@pytest.mark.parametrize("service", sorted(ALLOWED))
def test_transitions_of_an_unknown_workshop(service):
    make_workshop(players=2, tables=1)
    assert_refused(lambda: getattr(services, service)(workshop_id=987654), NotFound)


def test_study_refused_with_nobody_or_only_leavers():
    w = make_workshop(players=0, tables=2)
    assert_refused(lambda: services.workshop_start_study(workshop_id=w.pk), WrongPhase)
    p = services.player_join(workshop_id=w.pk, name="Solo")
    services.player_leave(player_id=p.pk)
    assert_refused(lambda: services.workshop_start_study(workshop_id=w.pk), WrongPhase)


def test_round_start_between_rounds_needs_the_movement_applied():
    w = goto(Phase.BETWEEN)
    rnd = current_round(w)
    assert_refused(lambda: services.round_start(workshop_id=w.pk), WrongPhase)
    services.movement_apply(round_id=rnd.pk)
    r2 = services.round_start(workshop_id=w.pk)
    assert r2.scored_number == 2


def test_a_table_with_one_player_waits_without_a_game():
    w = make_workshop(players=3, tables=2)
    services.players_seat_home(workshop_id=w.pk, assignment=one_left_alone(w))
    services.workshop_start_study(workshop_id=w.pk)
    t1, t2 = tables_of(w)
    assert game_at(t1) is not None
    assert game_at(t2) is None and len(seated(t2)) == 1


def test_dealer_rotates_between_games_and_rounds():
    w = goto(Phase.HOME)
    home = current_round(w)
    t1 = tables_of(w)[0]
    players = seated(t1)
    g = game_at(t1)
    # Engine seat 0 sits at the dealer's left.
    d = [p.pk for p in players].index(g.dealer_id)
    assert g.players[0] == players[(d + 1) % len(players)].pk
    assert g.players[-1] == g.dealer_id
    r1 = services.round_start(workshop_id=w.pk)
    g1 = game_at(t1)
    assert g1.round_id == r1.pk and g1.dealer_id != g.dealer_id
    assert home.number + 1 == r1.number
