"""The server-side clock: rounds end at their deadline with no browser open; pause,
resume, extend and end now (issue 3 "Timers"). Tests drive the clock with
`timers.tick(now=...)` instead of sleeping."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from tournament_helpers import (
    HIGH,
    LOW,
    after,
    assert_refused,
    expire,
    five_tricks_step,
    fresh,
    game_at,
    make_workshop,
    open_dispute,
    play_until_claim,
    set_seat_sheets,
    snapshot,
    state_of,
    tables_of,
    to_home,
    to_scored_round,
    verdict,
)

from tournament import services, timers
from tournament.errors import InvalidInput, NotFound, WrongPhase
from tournament.models import Dispute, Game, GameState, Phase, Round, RoundState

pytestmark = pytest.mark.django_db


@pytest.fixture
def scored():
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    return w, rnd


# ------------------------------------------------------------------ the deadline


def test_tick_ends_a_round_whose_deadline_passed_without_any_browser(scored):
    w, rnd = scored
    before = timers.tick(now=rnd.deadline - timedelta(seconds=1))
    assert before.rounds_finalised == []
    assert fresh(rnd).state == RoundState.RUNNING

    report = timers.tick(now=after(rnd.deadline))
    assert report.rounds_finalised == [rnd.pk]
    rnd.refresh_from_db()
    assert rnd.state == RoundState.FINISHED and rnd.finished_by == "timer"
    assert rnd.finished_at is not None
    assert {row["id"] for row in rnd.standings["players"]} == set(
        w.players.values_list("pk", flat=True)
    )
    assert "moves" in rnd.movement_preview
    assert fresh(w).phase == Phase.BETWEEN
    assert not Game.objects.filter(round=rnd, state=GameState.PLAYING).exists()
    assert Game.objects.filter(round=rnd, state=GameState.CUT).count() == 2

    # Exactly once: later ticks find nothing to do and change nothing.
    snap = snapshot()
    assert timers.tick(now=after(rnd.deadline, 60)).rounds_finalised == []
    assert snapshot() == snap


def test_tick_ends_study_and_home_rounds_too():
    w = make_workshop(players=4, tables=1)
    services.players_seat_home(workshop_id=w.pk)
    study = services.workshop_start_study(workshop_id=w.pk)
    assert timers.tick(now=after(study.deadline)).rounds_finalised == [study.pk]
    assert fresh(w).phase == Phase.STUDY  # the facilitator moves the workshop on
    assert fresh(study).movement_preview == {}  # movement only after scored rounds


def test_timer_finalise_of_a_round_still_running_does_nothing(scored):
    w, rnd = scored
    snap = snapshot()
    assert services.round_finalise(round_id=rnd.pk, by="timer") is False
    assert snapshot() == snap


def test_a_paused_round_is_not_ended_by_the_timer(scored):
    w, rnd = scored
    much_later = after(rnd.deadline, 3600)
    services.round_pause(round_id=rnd.pk)
    report = timers.tick(now=much_later)
    assert report.rounds_finalised == []
    assert fresh(rnd).state == RoundState.PAUSED
    assert services.round_finalise(round_id=rnd.pk, by="timer", at=much_later) is False


def test_round_finalise_unknown_round():
    assert_refused(lambda: services.round_finalise(round_id=424242), NotFound)


# ------------------------------------------------------------------ pause and resume


def test_pause_keeps_the_time_left_and_resume_gives_it_back(scored):
    w, rnd = scored
    left = (rnd.deadline - timezone.now()).total_seconds()
    v = fresh(w).version
    tv = [t.version for t in tables_of(w)]
    services.round_pause(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert rnd.state == RoundState.PAUSED and rnd.deadline is None
    assert abs(rnd.remaining_seconds - left) < 2 and rnd.paused_at is not None
    assert fresh(w).version == v + 1
    assert [t.version for t in tables_of(w)] == [x + 1 for x in tv]

    services.round_resume(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert rnd.state == RoundState.RUNNING
    assert rnd.remaining_seconds is None and rnd.paused_at is None
    assert abs((rnd.deadline - timezone.now()).total_seconds() - left) < 2


def test_resume_moves_claim_and_dispute_deadlines_on_by_the_pause_length():
    w = make_workshop(players=8, tables=2, dispute_seconds=30)
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    # Table 1 in a dispute, table 2 waiting for claims.
    game = set_seat_sheets(t1, [HIGH, HIGH, HIGH, LOW])
    open_dispute(game)
    dispute = Dispute.objects.get(game=game)
    g2 = game_at(t2)
    play_until_claim(g2)
    d1, d2, dd = fresh(game).claim_deadline, fresh(g2).claim_deadline, dispute.deadline
    services.round_pause(round_id=rnd.pk)
    # As if the pause had lasted 100 seconds.
    Round.objects.filter(pk=rnd.pk).update(paused_at=timezone.now() - timedelta(seconds=100))
    services.round_resume(round_id=rnd.pk)
    for before, now_ in (
        (d1, fresh(game).claim_deadline),
        (d2, fresh(g2).claim_deadline),
        (dd, fresh(dispute).deadline),
    ):
        assert abs((now_ - before).total_seconds() - 100) < 2
    # The dispute did not time out during the pause.
    assert timers.tick(now=after(dd, 50)).claims_timed_out == []
    assert fresh(dispute).resolved_at is None


def test_bots_in_a_dispute_are_asked_and_may_give_in_to_the_most_claimed_seat(monkeypatch):
    """Every seat has claimed in a dispute, so no seat is awaited; the clock must still
    ask the bots (the one outside the plurality may give in), or every dispute at a
    table of bots would run to its time-out. But not at once: a bot waits
    BARNGA_BOT_DISPUTE_DELAY after the last claim, as a person would."""
    import random

    from games import bots
    from tournament.models import Action, Player

    w = make_workshop(players=8, tables=2, dispute_seconds=30)
    to_scored_round(w)
    t1, _ = tables_of(w)
    game = set_seat_sheets(t1, [HIGH, HIGH, HIGH, LOW])
    state = open_dispute(game)
    dispute = Dispute.objects.get(game=game)
    Player.objects.filter(pk__in=game.players).update(is_bot=True)
    minority = [s for s, c in enumerate(state.claims) if state.claims.count(c) == 1]
    assert len(minority) == 1
    seat = minority[0]

    def dice(seed: int):
        """The bots' dice, seeded by the game's seed (which depends on row ids) in the
        app, fixed here."""
        for where in ("tournament.services.bot_rng", "tournament.services.play.bot_rng"):
            monkeypatch.setattr(where, lambda game, seat: random.Random(seed))

    assert random.Random(0).random() >= bots.GIVE_IN > random.Random(1).random()
    wait = timers.BOT_DISPUTE_DELAY_SECONDS
    assert wait >= 5  # the people at the table have time to make their case
    # Not even a bot that would give in moves before the dispute's wait is over.
    dice(1)
    report = timers.tick(now=after(dispute.opened_at, wait - 1), bot_delay=0)
    assert report.bot_actions == 0 and fresh(dispute).resolved_at is None
    # A bot that holds out this time does nothing until somebody's claim changes.
    dice(0)
    report = timers.tick(now=after(dispute.opened_at, wait + 1), bot_delay=0)
    assert report.bot_actions == 0 and fresh(dispute).resolved_at is None
    # One that gives in takes the most-claimed seat, and the dispute ends in agreement.
    dice(1)
    report = timers.tick(now=after(dispute.opened_at, wait + 2), bot_delay=0)
    assert report.bot_actions == 1 and report.claims_timed_out == []
    dispute = fresh(dispute)
    assert dispute.resolution == "unanimous" and dispute.resolved_at is not None
    last = Action.objects.filter(game=game).order_by("-seq").first()
    assert last.kind == "claim" and last.actor_id == game.players[seat]


def test_claims_do_not_time_out_while_paused():
    w = make_workshop(players=8, tables=2, dispute_seconds=30)
    rnd = to_scored_round(w)
    g = game_at(tables_of(w)[0])
    play_until_claim(g)
    services.round_pause(round_id=rnd.pk)
    assert timers.tick(now=after(fresh(g).claim_deadline, 600)).claims_timed_out == []


def test_resume_deals_at_a_table_whose_game_was_cut_during_the_pause():
    w = make_workshop(players=8, tables=2, leave_policy="skip")
    rnd = to_scored_round(w)
    t1 = tables_of(w)[0]
    old = game_at(t1)
    services.round_pause(round_id=rnd.pk)
    services.player_leave(player_id=old.players[0])
    assert fresh(old).state == GameState.CUT
    assert game_at(t1) is None  # nothing is dealt while paused
    services.round_resume(round_id=rnd.pk)
    new = game_at(t1)
    assert new is not None and new.round_id == rnd.pk and new.number == 2
    assert old.players[0] not in new.players and len(new.players) == 3
    # Tables whose game went on keep it.
    assert Game.objects.filter(round=rnd, table=tables_of(w)[1]).count() == 1


def test_claim_timeout_of_an_unknown_game():
    assert_refused(lambda: services.game_claim_timeout(game_id=123456), NotFound)


def test_pause_and_resume_refusals(scored):
    w, rnd = scored
    assert_refused(lambda: services.round_resume(round_id=rnd.pk), WrongPhase)
    services.round_pause(round_id=rnd.pk)
    assert_refused(lambda: services.round_pause(round_id=rnd.pk), WrongPhase)
    services.round_end_now(round_id=rnd.pk)
    assert_refused(lambda: services.round_pause(round_id=rnd.pk), WrongPhase)
    assert_refused(lambda: services.round_resume(round_id=rnd.pk), WrongPhase)
    assert_refused(lambda: services.round_pause(round_id=99999), NotFound)
    assert_refused(lambda: services.round_resume(round_id=99999), NotFound)


@pytest.mark.parametrize(
    "phase, name", [("study", "Study"), ("home", "Silent play"), ("round", "Round 1")]
)
def test_a_round_whose_time_is_up_is_not_paused(phase, name):
    """Pause pressed after the deadline, before the timer's tick ends the round: it
    had paused at 0:00, and Resume ended it at once. Refused, nothing changed, and
    the tick ends it."""
    w = make_workshop(players=4, tables=1, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    rnd = services.workshop_start_study(workshop_id=w.pk)
    if phase != "study":
        rnd = services.workshop_start_home(workshop_id=w.pk)
    if phase == "round":
        rnd = services.round_start(workshop_id=w.pk)
    expire(rnd)
    caught = assert_refused(lambda: services.round_pause(round_id=rnd.pk), WrongPhase)
    assert caught.message == f"{name} cannot be paused: its time is up, and it is ending now."
    assert timers.tick().rounds_finalised == [rnd.pk]
    assert fresh(rnd).state == RoundState.FINISHED and fresh(rnd).pauses == []


def test_a_round_with_time_left_is_paused_to_its_last_second(scored):
    w, rnd = scored
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() + timedelta(seconds=2))
    assert services.round_pause(round_id=rnd.pk).state == RoundState.PAUSED
    assert 0 < fresh(rnd).remaining_seconds <= 2


# ------------------------------------------------------------------ extend


def test_extend_a_running_round_adds_to_its_deadline(scored):
    w, rnd = scored
    deadline = rnd.deadline
    services.round_extend(round_id=rnd.pk, seconds=60)
    assert fresh(rnd).deadline == deadline + timedelta(seconds=60)
    assert timers.tick(now=after(deadline)).rounds_finalised == []
    assert timers.tick(now=after(deadline, 61)).rounds_finalised == [rnd.pk]


def test_extend_an_expired_round_counts_from_now(scored):
    w, rnd = scored
    expire(rnd, 300)
    services.round_extend(round_id=rnd.pk, seconds=60)
    rnd.refresh_from_db()
    assert abs((rnd.deadline - timezone.now()).total_seconds() - 60) < 2
    assert timers.tick().rounds_finalised == []
    assert rnd.state == RoundState.RUNNING


def test_extend_a_paused_round_adds_to_the_time_left(scored):
    w, rnd = scored
    services.round_pause(round_id=rnd.pk)
    left = fresh(rnd).remaining_seconds
    services.round_extend(round_id=rnd.pk, seconds=30)
    rnd.refresh_from_db()
    assert rnd.remaining_seconds == pytest.approx(left + 30)
    assert rnd.deadline is None and rnd.state == RoundState.PAUSED


def test_extend_refuses_bad_amounts(scored):
    w, rnd = scored
    for seconds in [0, -5, 3601, 1.5, "60", True, None]:
        assert_refused(
            lambda seconds=seconds: services.round_extend(round_id=rnd.pk, seconds=seconds),
            InvalidInput,
            case=seconds,
        )


def test_extend_refuses_finished_and_unknown_rounds(scored):
    w, rnd = scored
    services.round_end_now(round_id=rnd.pk)
    assert_refused(lambda: services.round_extend(round_id=rnd.pk, seconds=60), WrongPhase)
    assert_refused(lambda: services.round_extend(round_id=77777, seconds=60), NotFound)


# ------------------------------------------------------------------ end now


def test_end_now_ends_a_running_or_paused_round_once(scored):
    w, rnd = scored
    services.round_pause(round_id=rnd.pk)
    assert services.round_end_now(round_id=rnd.pk) is True
    rnd.refresh_from_db()
    assert rnd.state == RoundState.FINISHED and rnd.finished_by == "facilitator"
    assert rnd.remaining_seconds is None and rnd.paused_at is None
    snap = snapshot()
    assert services.round_end_now(round_id=rnd.pk) is False
    assert snapshot() == snap


def test_end_now_of_the_home_round_keeps_home_phase():
    w = make_workshop(players=4, tables=1)
    home = to_home(w)
    assert services.round_end_now(round_id=home.pk)
    assert fresh(w).phase == Phase.HOME
    services.round_start(workshop_id=w.pk)
    assert fresh(w).phase == Phase.ROUND


def test_claims_time_out_by_the_tick_clock():
    w = make_workshop(players=8, tables=2, dispute_seconds=20)
    to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, LOW, LOW])
    state = play_until_claim(game)
    deadline = fresh(game).claim_deadline
    assert timers.tick(now=deadline - timedelta(seconds=1)).claims_timed_out == []
    assert timers.tick(now=deadline).claims_timed_out == [game.pk]
    assert fresh(game).claim_deadline is None
    # Nobody claimed: the table sheet's winner takes the trick.
    from tournament.models import TrickRecord

    rec = TrickRecord.objects.get(game=game)
    assert rec.resolution == "timeout"
    assert rec.winner == verdict(state, tables_of(w)[0].rules)


def test_a_claim_time_limit_that_ran_out_before_the_round_did_decides_the_trick():
    """The tick runs once a second: when a dispute's time ran out 0.6 s before the
    round's, the next tick sees both. The dispute ended first, so its trick goes to
    the most-claimed seat; one whose time would run out after the round's is cut."""
    w = make_workshop(players=8, tables=2, dispute_seconds=20)
    rnd = to_scored_round(w)
    first, second = tables_of(w)
    game = set_seat_sheets(first, [HIGH, HIGH, HIGH, LOW])
    open_dispute(game)
    other = set_seat_sheets(second, [HIGH, HIGH, HIGH, LOW])
    open_dispute(other)
    deadline = fresh(rnd).deadline
    Game.objects.filter(pk=game.pk).update(claim_deadline=deadline - timedelta(seconds=0.6))
    Game.objects.filter(pk=other.pk).update(claim_deadline=deadline + timedelta(seconds=0.3))
    report = timers.tick(now=after(deadline, 0.5))
    assert report.claims_timed_out == [game.pk] and report.rounds_finalised == [rnd.pk]
    decided = Dispute.objects.get(game=game)
    assert decided.resolution == "timeout" and decided.winner is not None
    assert Dispute.objects.get(game=other).resolution == "cut"


# ------------------------------------------------------------------ a workshop of bots


def tick_until_a_game_ends_at_every_table(w, rnd, max_ticks=400):
    """Only the clock acts: bots play and claim, claim time limits pass."""
    tables = tables_of(w)
    for _ in range(max_ticks):
        if all(
            Game.objects.filter(table=t, round=rnd, state=GameState.OVER).exists() for t in tables
        ):
            return
        report = timers.tick(now=timezone.now(), bot_delay=0)
        if not report.bot_actions:
            # Everyone has claimed and the claims disagree: let the claim time limit
            # (10 s) pass, but not the round's (30 s).
            report = timers.tick(now=timezone.now() + timedelta(seconds=15), bot_delay=0)
            assert report.claims_timed_out
    pytest.fail("the bots did not finish a game at every table")


def assert_stored_games_replay(w):
    from games import five_tricks
    from tournament import gamestate
    from tournament.models import Action, TrickRecord

    games = Game.objects.filter(table__workshop=w)
    assert games.exists()
    for game in games:
        replayed = gamestate.replay_log(game)
        assert gamestate.load_state(game) == replayed
        assert replayed.seq == game.seq == Action.objects.filter(game=game).count()
        assert (game.state == GameState.OVER) == five_tricks.is_over(replayed)
        if game.state != GameState.PLAYING:
            result = five_tricks.result(replayed)
            assert game.tricks_won == result["tricks_won"]
            assert game.winners == [game.players[s] for s in result["winners"]]
        records = list(TrickRecord.objects.filter(game=game).order_by("index"))
        assert [(r.winner, r.resolution) for r in records] == [
            (t.winner, t.resolution) for t in replayed.completed
        ]


def test_a_workshop_of_bots_is_played_by_the_clock_alone():
    from tournament.models import Action, Player, TrickRecord

    w = services.workshop_create(
        name="Bots",
        table_count=2,
        seats_per_table=3,
        bots_enabled=True,
        seed=5,
        study_seconds=30,
        home_seconds=30,
        round_seconds=30,
        dispute_seconds=10,
    )
    bots = services.bots_fill(workshop_id=w.pk)
    assert len(bots) == 6 and all(b.is_bot for b in bots)

    study = services.workshop_start_study(workshop_id=w.pk)
    tick_until_a_game_ends_at_every_table(w, study)
    home = services.workshop_start_home(workshop_id=w.pk)
    tick_until_a_game_ends_at_every_table(w, home)
    r1 = services.round_start(workshop_id=w.pk)
    tick_until_a_game_ends_at_every_table(w, r1)
    assert timers.tick(now=after(fresh(r1).deadline), bot_delay=0).rounds_finalised == [r1.pk]
    assert fresh(w).phase == Phase.BETWEEN
    services.movement_apply(round_id=r1.pk)
    r2 = services.round_start(workshop_id=w.pk)
    # After the movement the sheets at a table differ: disputes may arise and time out.
    tick_until_a_game_ends_at_every_table(w, r2)
    assert timers.tick(now=after(fresh(r2).deadline), bot_delay=0).rounds_finalised == [r2.pk]
    services.workshop_start_debrief(workshop_id=w.pk)

    bot_ids = set(Player.objects.filter(workshop=w, is_bot=True).values_list("pk", flat=True))
    actors = set(Action.objects.exclude(actor=None).values_list("actor", flat=True))
    assert actors and actors <= bot_ids
    assert Action.objects.filter(kind="claim").exists()
    assert TrickRecord.objects.filter(game__round=r1, resolution="unanimous").exists()
    r1.refresh_from_db()
    assert sum(row["games_won"] for row in r1.standings["players"]) >= 2
    assert_stored_games_replay(w)


def test_a_move_after_the_rounds_time_is_up_is_refused_and_the_game_counts_as_it_stood():
    """Between the round's deadline and the timer's next tick (a second, longer on a
    busy server) a card was still taken: the last card of a game could win it after
    time was up. The game counts as it stood when the clock ran out (RULES §2)."""
    w = make_workshop(players=4, tables=1, seats=4, mode="referee")
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    while sum(len(h) for h in state_of(game).hands) > 1:
        five_tricks_step(game)
    stood = fresh(game)
    expire(rnd)
    with pytest.raises(WrongPhase, match="Time is up"):
        five_tricks_step(game)  # the last card
    assert (fresh(game).seq, fresh(game).state) == (stood.seq, GameState.PLAYING)
    timers.tick()
    assert fresh(rnd).state == RoundState.FINISHED
    assert _games(rnd, tables_of(w)[0]) == [(1, GameState.CUT, "round_end")]
    assert sum(fresh(game).tricks_won) == len(state_of(stood).completed) == 6


def test_a_game_a_claim_time_out_ends_after_the_rounds_time_is_up_deals_no_other():
    """The last trick's claim time ran out before the round's, and the tick that sees
    both decides the trick first: the game is over, and no new game is dealt only to
    be cut at once (an empty 'cut' game with no tricks stood in the records and the
    report)."""
    w = make_workshop(players=4, tables=1, seats=4)
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    while True:  # every trick claimed alike, the last one by three seats of four
        state = state_of(game)
        if state.phase == "claim" and not any(state.hands) and state.claims.count(None) == 1:
            break
        five_tricks_step(game)
    expire(rnd)
    deadline = fresh(rnd).deadline
    Game.objects.filter(pk=game.pk).update(claim_deadline=deadline - timedelta(seconds=0.6))
    report = timers.tick()
    assert report.claims_timed_out == [game.pk] and report.rounds_finalised == [rnd.pk]
    assert fresh(rnd).state == RoundState.FINISHED
    assert _games(rnd, tables_of(w)[0]) == [(1, GameState.OVER, "")]


def _games(rnd, table) -> list[tuple[int, str, str | None]]:
    return list(
        Game.objects.filter(round=rnd, table=table)
        .order_by("number")
        .values_list("number", "state", "cut_by")
    )


def test_a_player_leaving_after_the_rounds_time_is_up_deals_no_other():
    """A seat skipped after the deadline, before the tick: the game is cut for the
    leaver and nothing is dealt in its place (an empty game cut 'by the round's
    end' had counted as played for everyone there)."""
    w = make_workshop(players=8, tables=2, leave_policy="skip")
    rnd = to_scored_round(w)
    t1 = tables_of(w)[0]
    expire(rnd)
    services.player_leave(player_id=game_at(t1).players[0])
    timers.tick()
    assert fresh(rnd).state == RoundState.FINISHED
    assert _games(rnd, t1) == [(1, GameState.CUT, "player_left")]
    assert {r["games_played"] for r in fresh(rnd).standings["players"] if r["table"] == 1} == {1}


def test_a_late_joiner_after_the_rounds_time_is_up_is_dealt_no_game():
    """A joiner who makes a table of one playable after the deadline waits for the
    next round instead of getting a game the tick cuts at once."""
    w = make_workshop(players=3, tables=2, seats=4)  # tables of two and one
    rnd = to_scored_round(w)
    t2 = tables_of(w)[1]
    assert game_at(t2) is None
    expire(rnd)
    services.player_join(workshop_id=w.pk, name="Late")
    timers.tick()
    assert fresh(rnd).state == RoundState.FINISHED
    assert _games(rnd, t2) == []


def test_resuming_a_round_paused_after_its_time_ran_out_deals_nothing():
    """Paused with nothing left (as a Pause pressed after the deadline left a round
    before it was refused: one may be in the database), a seat skipped while paused,
    then resumed: the table whose game was cut gets no game the tick would cut at once."""
    w = make_workshop(players=8, tables=2, leave_policy="skip")
    rnd = to_scored_round(w)
    t1 = tables_of(w)[0]
    services.round_pause(round_id=rnd.pk)
    Round.objects.filter(pk=rnd.pk).update(remaining_seconds=0.0)
    services.player_leave(player_id=game_at(t1).players[0])
    services.round_resume(round_id=rnd.pk)
    timers.tick()
    assert fresh(rnd).state == RoundState.FINISHED
    assert _games(rnd, t1) == [(1, GameState.CUT, "player_left")]


def test_a_minute_added_deals_at_a_table_whose_game_was_cut_as_time_ran_out():
    """A game cut as time ran out (a player left, the seat skipped), then '+1 minute'
    before the timer's tick: the table that dealt no new game gets one, and plays on."""
    w = make_workshop(players=4, tables=1, seats=4, leave_policy="skip")
    rnd = to_scored_round(w)
    t1 = tables_of(w)[0]
    expire(rnd)
    services.player_leave(player_id=game_at(t1).players[0])
    assert not Game.objects.filter(round=rnd, state=GameState.PLAYING).exists()
    services.round_extend(round_id=rnd.pk, seconds=60)
    assert len(Game.objects.get(round=rnd, state=GameState.PLAYING).players) == 3
    assert timers.tick().rounds_finalised == []


# ------------------------------------------------------------------ pauses in the record


@pytest.fixture
def clock(monkeypatch):
    from report_helpers import T0, Clock

    c = Clock(T0)
    monkeypatch.setattr("tournament.services.play.now", c)
    monkeypatch.setattr("tournament.services.rounds.now", c)
    return c


def _disputed(clock, dispute_seconds: int):
    w = make_workshop(players=4, tables=1, seats=4, dispute_seconds=dispute_seconds)
    clock.at(0)
    rnd = to_scored_round(w)
    clock.at(20)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, LOW, LOW])
    open_dispute(game)
    return w, rnd, game, Dispute.objects.get(game=game)


def _report(w):
    from tournament import export, report

    doc = export.workshop_document(fresh(w))
    return doc, report.build_report(doc)


def test_a_dispute_over_a_pause_lasts_its_time_limit_in_the_record_and_the_report(clock):
    """A pause stops a dispute's time limit (resume moves the deadline on): the record
    and the report leave the pause out of how long it lasted and of when it came."""
    w, rnd, game, dispute = _disputed(clock, dispute_seconds=45)
    clock.at(25)
    services.round_pause(round_id=rnd.pk)
    clock.at(205)  # three minutes of explaining
    services.round_resume(round_id=rnd.pk)
    clock.at(246)  # 45 s of the dispute's time limit have run: 5 before, 40 after
    assert timers.tick(now=clock.now, bot_delay=0).claims_timed_out == [game.pk]
    dispute = fresh(dispute)
    assert dispute.resolution == "timeout"
    assert dispute.duration_seconds == 45.0
    services.round_end_now(round_id=rnd.pk)
    doc, rep = _report(w)
    [row] = doc["rounds"][-1:]
    assert len(row["pauses"]) == 1 and row["pauses"][0][1] is not None
    assert doc["games"][-1]["disputes"][0]["duration_seconds"] == 45.0
    [d] = rep["clashes"]["disputes"]
    assert d["duration"] == 45.0 and d["since_round_start"] == 20.0
    assert rep["clashes"]["duration"]["max"] == 45.0


def test_a_dispute_cut_while_the_round_is_paused_leaves_the_pause_out(clock):
    w, rnd, game, dispute = _disputed(clock, dispute_seconds=45)
    clock.at(30)
    services.round_pause(round_id=rnd.pk)
    clock.at(300)
    services.round_end_now(round_id=rnd.pk)
    dispute = fresh(dispute)
    assert dispute.resolution == "cut" and dispute.duration_seconds == 10.0
    doc, _ = _report(w)
    assert doc["rounds"][-1]["pauses"] == [[clock.at(30).isoformat(), clock.at(300).isoformat()]]


def test_a_time_out_the_timer_reached_late_is_recorded_at_its_deadline(clock):
    """No process ticked when the time limit ran out (a restart): the trick is decided by
    the first tick, but the dispute lasted its time limit, not the downtime."""
    w, rnd, game, dispute = _disputed(clock, dispute_seconds=45)
    clock.at(150)
    assert timers.tick(now=clock.now, bot_delay=0).claims_timed_out == [game.pk]
    dispute = fresh(dispute)
    assert dispute.resolution == "timeout"
    assert dispute.resolved_at == dispute.deadline and dispute.duration_seconds == 45.0


def test_bots_give_the_people_their_dispute_wait_again_after_a_pause(clock, monkeypatch):
    """A bot gives the people 10 s after the last claim to make their case; a pause 2 s
    after it does not count as that time (they could not claim while paused)."""
    import random

    from tournament.models import Player

    w, rnd, game, dispute = _disputed(clock, dispute_seconds=120)
    Player.objects.filter(pk__in=game.players).update(is_bot=True)
    for where in ("tournament.services.bot_rng", "tournament.services.play.bot_rng"):
        monkeypatch.setattr(where, lambda game, seat: random.Random(1))  # gives in
    wait = timers.BOT_DISPUTE_DELAY_SECONDS
    clock.at(22)
    services.round_pause(round_id=rnd.pk)
    clock.at(142)
    services.round_resume(round_id=rnd.pk)
    assert timers.tick(now=after(clock.now, wait - 1), bot_delay=0).bot_actions == 0
    assert timers.tick(now=after(clock.now, wait + 1), bot_delay=0).bot_actions == 1
