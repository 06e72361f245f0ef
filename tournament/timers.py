"""The server-side clock: rounds end, claim time limits pass and bots act without any browser.

`tick(now)` does one pass and is what tests call. Every web process runs
`start_background_loop()`, a daemon thread calling `tick` once a second; the
services lock and re-check under the lock, so several processes ticking at once
still end each round once.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections
from django.db.models import F, Max, Q
from django.utils import timezone

from tournament import gamestate
from tournament.errors import ServiceError
from tournament.models import Action, Game, GameState, Phase, Player, Round, RoundState, Workshop

log = logging.getLogger(__name__)
BOT_DELAY_SECONDS = float(getattr(settings, "BARNGA_BOT_DELAY", 1.0))
BOT_DISPUTE_DELAY_SECONDS = float(getattr(settings, "BARNGA_BOT_DISPUTE_DELAY", 10.0))
BOT_CALL_DELAY_SECONDS = float(getattr(settings, "BARNGA_BOT_CALL_DELAY", 4.0))

_loop_started = False
_loop_lock = threading.Lock()


@dataclass
class TickReport:
    rounds_finalised: list[int] = field(default_factory=list)
    claims_timed_out: list[int] = field(default_factory=list)
    bot_actions: int = 0
    autopilot_rounds: list[int] = field(default_factory=list)


def tick(now: datetime | None = None, *, bot_delay: float | None = None) -> TickReport:
    from tournament import services

    now = now or timezone.now()
    delay = timedelta(seconds=BOT_DELAY_SECONDS if bot_delay is None else bot_delay)
    # In a dispute the wait is the longer of the two (BARNGA_BOT_DISPUTE_DELAY).
    dispute_delay = max(delay, timedelta(seconds=BOT_DISPUTE_DELAY_SECONDS))
    # While a breach may be called, with people at the table (BARNGA_BOT_CALL_DELAY).
    call_delay = max(delay, timedelta(seconds=BOT_CALL_DELAY_SECONDS))
    report = TickReport()
    # Claim time limits first: one that ran out before its round did decides its
    # trick (the rules' time-out), though the tick comes after both; one that would
    # run out after the round's end is cut with the round.
    for game_id in (
        Game.objects.filter(
            state=GameState.PLAYING, claim_deadline__lte=now, round__state=RoundState.RUNNING
        )
        .filter(claim_deadline__lte=F("round__deadline"))
        .values_list("pk", flat=True)
    ):
        try:
            if services.game_claim_timeout(game_id=game_id, at=now) is not None:
                report.claims_timed_out.append(game_id)
        except ServiceError:  # one table's trouble must not stop the other tables' clocks
            log.exception("claim time-out of game %s", game_id)
    for round_id in Round.objects.filter(state=RoundState.RUNNING, deadline__lte=now).values_list(
        "pk", flat=True
    ):
        try:
            if services.round_finalise(round_id=round_id, by="timer", at=now):
                report.rounds_finalised.append(round_id)
                # One line per round over all processes: the two-process test counts it.
                log.info("round %s finalised by timer (pid %s)", round_id, os.getpid())
        except ServiceError:
            log.exception("finalising round %s", round_id)
    report.bot_actions = _bots_act(now, delay, dispute_delay, call_delay)
    report.autopilot_rounds = _autopilot(now)
    return report


AUTOPILOT_PAUSE = timedelta(seconds=15)
# A demo left running plays this many scored rounds, then waits for the facilitator
# (an hour of rounds made a 33-page report).
AUTOPILOT_ROUNDS = 6


def _autopilot(now: datetime) -> list[int]:
    """Demo workshops: 15 s after a scored round ends, move the players; 15 s later
    (their phones say where to go) start the next, up to AUTOPILOT_ROUNDS scored rounds."""
    from tournament import services

    started = []
    for workshop_id in Workshop.objects.filter(autopilot=True, phase=Phase.BETWEEN).values_list(
        "pk", flat=True
    ):
        rnd = Round.objects.filter(workshop_id=workshop_id).order_by("-number").first()
        if rnd is None or rnd.finished_at is None or now - rnd.finished_at < AUTOPILOT_PAUSE:
            continue
        if (rnd.scored_number or 0) >= AUTOPILOT_ROUNDS:
            # Done: off, so the timer loop stops looking at this workshop every second.
            Workshop.objects.filter(pk=workshop_id).update(autopilot=False)
            continue
        try:
            if rnd.movement_applied_at is None:
                services.movement_apply(round_id=rnd.pk)
                continue
            if now - rnd.movement_applied_at < AUTOPILOT_PAUSE:
                continue
            started.append(services.round_start(workshop_id=workshop_id).pk)
        except ServiceError as exc:  # another process got there first
            log.info("autopilot for workshop %s: %s", workshop_id, exc.message)
    return started


def _bots_act(
    now: datetime, delay: timedelta, dispute_delay: timedelta, call_delay: timedelta
) -> int:
    from tournament import services

    # Bots and players who left stay seated in finished workshops too: look for them
    # only at tables with a game in play (a partial index finds those games, however
    # many finished ones the database holds).
    automated = dict(  # player id -> table id
        Player.objects.filter(Q(is_bot=True) | Q(has_left=True))
        .filter(
            table__games__state=GameState.PLAYING, table__games__round__state=RoundState.RUNNING
        )
        .order_by()
        .values_list("pk", "table_id")
        .distinct()
    )
    if not automated:
        return 0
    # Only those tables' games: a class where one player has left must not have every
    # table's game (and its state) read by every process every second.
    games = [
        game
        for game in Game.objects.filter(
            state=GameState.PLAYING,
            round__state=RoundState.RUNNING,
            table_id__in=set(automated.values()),
        ).select_related("round")
        if not automated.keys().isdisjoint(game.players)
    ]
    last = dict(
        Action.objects.filter(game__in=games)
        .values("game")
        .annotate(t=Max("created_at"))
        .values_list("game", "t")
    )
    count = 0
    for game in games:
        # A pause stops the bots' waiting too: the people get their time again after it.
        since = last.get(game.pk, game.started_at)
        resumed = game.round.resumed_last()
        idle = now - (max(since, resumed) if resumed is not None else since)
        if idle < delay:
            continue
        state = gamestate.load_state(game)
        kind = gamestate.kind_of(game)
        if idle < dispute_delay and kind.in_dispute(state):
            continue  # people are making their case: a bot does not jump in at once
        if (
            idle < call_delay
            and kind.calls_open(state)
            and not automated.keys() >= set(game.players)
        ):
            continue  # people may call a breach on the last trick until the next lead
        seats = kind.bots_to_ask(state)
        # The awaited seat comes first and the others may act only until it
        # moves (All Fives: a revoke can be called until the next card is led), so
        # the others' bots are asked first. A bot with nothing it wants to do passes
        # to the next; its choice is seeded by the game's seed and seq, so it is
        # worked out here first and the table is locked only for a bot that will act
        # (game_bot_act decides again under the lock).
        for seat in seats[1:] + seats[:1]:
            pid = game.players[seat]
            if pid not in automated:
                continue
            if kind.bot_action(state, seat, services.bot_rng(game, seat)) is None:
                continue
            try:
                acted = services.game_bot_act(player_id=pid) is not None
            except ServiceError as exc:  # the table moved on meanwhile: next tick
                log.info("bot %s could not act: %s", pid, exc.message)
                break
            if acted:
                count += 1
                break  # one bot action per game per tick: people see each card land
    return count


def _loop(interval: float) -> None:
    while True:
        try:
            tick()
        except Exception:
            log.exception("timer tick failed")
        finally:
            close_old_connections()
        time.sleep(interval)


def start_background_loop() -> bool:
    """Start the timer thread once per process (skipped when BARNGA_RUN_TIMERS is off)."""
    global _loop_started
    if not getattr(settings, "BARNGA_RUN_TIMERS", True):
        return False
    with _loop_lock:
        if _loop_started:
            return False
        _loop_started = True
    thread = threading.Thread(
        target=_loop, args=(settings.BARNGA_TIMER_INTERVAL,), name="barnga-timers", daemon=True
    )
    thread.start()
    return True
