"""Phases and rounds: study, silent home play, scored rounds, timers, debrief.

A round ends exactly once: `round_finalise` locks the workshop row and re-reads
the round's state under that lock, so of several processes whose timer loops see
the same deadline, one finalises and the others find it finished.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from django.db import transaction

from games import kinds
from tournament import gamestate, movement, timing
from tournament.errors import InvalidInput, NotFound, WrongPhase
from tournament.models import (
    CutBy,
    Dispute,
    Game,
    GameState,
    Movement,
    Phase,
    Player,
    Round,
    RoundKind,
    RoundState,
    Seating,
    Workshop,
)
from tournament.services.common import (
    bump_table,
    bump_workshop,
    current_round,
    lock_tables,
    lock_workshop,
    now,
    refuse_overfull,
    require_phase,
    seated_tables,
    sizes_after,
)
from tournament.services.play import game_start
from tournament.services.workshops import players_seat_home, seat_unseated


def _lock_round(round_id: int) -> tuple[Workshop, Round]:
    try:
        workshop_id = Round.objects.values_list("workshop_id", flat=True).get(pk=round_id)
    except Round.DoesNotExist:
        raise NotFound("That round does not exist.") from None
    workshop = lock_workshop(workshop_id)
    rnd = Round.objects.select_for_update(no_key=True).get(pk=round_id)
    rnd.workshop = workshop
    return workshop, rnd


def _open_round(workshop: Workshop, kind: str, seconds: int) -> Round:
    """Caller holds the workshop lock and has finished any previous round."""
    at = now()
    last = current_round(workshop)
    scored_number = None
    if kind == RoundKind.SCORED:
        scored_number = Round.objects.filter(workshop=workshop, kind=RoundKind.SCORED).count() + 1
    rnd = Round.objects.create(
        workshop=workshop,
        number=(last.number + 1) if last else 1,
        kind=kind,
        scored_number=scored_number,
        started_at=at,
        deadline=timing.deadline_after(at, seconds),
    )
    rnd.workshop = workshop
    tables = lock_tables(workshop.pk)
    Seating.objects.bulk_create(
        Seating(round=rnd, player=p, table_number=p.table.number, seat=p.seat)
        for p in Player.objects.filter(workshop=workshop, table__isnull=False).select_related(
            "table"
        )
    )
    for table in tables:
        game_start(table=table, rnd=rnd)
    return rnd


def _finish_running(workshop: Workshop, by: str) -> None:
    """End the workshop's running or paused round, if any. Caller holds the workshop lock."""
    rnd = current_round(workshop, lock=True)
    if rnd is not None and rnd.state != RoundState.FINISHED:
        rnd.workshop = workshop
        _finalise(workshop, rnd, by)


def _enter_phase(workshop: Workshop, phase: str) -> None:
    """The facilitator moves the workshop on: its running round, if any, ends, and
    `phase` begins. Caller holds the workshop lock and has checked the phase."""
    _finish_running(workshop, "facilitator")
    workshop.phase = phase
    workshop.save(update_fields=["phase"])


@transaction.atomic
def workshop_start_study(*, workshop_id: int) -> Round:
    """Lobby → study: everyone seated at a home table reads its sheet and practises."""
    workshop = lock_workshop(workshop_id)
    require_phase(workshop, Phase.LOBBY)
    if not workshop.players.filter(has_left=False).exists():
        raise WrongPhase("Nobody has joined yet.")
    if not workshop.players.filter(has_left=False, table__isnull=False).exists():
        # Nobody seated yet: the automatic seating, as the panel's "Balance" does
        # (one by one at the smallest table would fill a table before the next).
        players_seat_home(workshop_id=workshop.pk)
        workshop.refresh_from_db()
    else:
        seat_unseated(workshop)
    workshop.phase = Phase.STUDY
    workshop.save(update_fields=["phase"])
    rnd = _open_round(workshop, RoundKind.STUDY, workshop.study_seconds)
    bump_workshop(workshop)
    return rnd


@transaction.atomic
def workshop_start_home(*, workshop_id: int) -> Round:
    """Study → silent play at the home tables: sheets hidden, no talking, unscored."""
    workshop = lock_workshop(workshop_id)
    require_phase(workshop, Phase.STUDY)
    _enter_phase(workshop, Phase.HOME)
    rnd = _open_round(workshop, RoundKind.HOME, workshop.home_seconds)
    bump_workshop(workshop)
    return rnd


@transaction.atomic
def round_start(*, workshop_id: int) -> Round:
    """Home play or between rounds → the next scored round."""
    workshop = lock_workshop(workshop_id)
    require_phase(workshop, Phase.HOME, Phase.BETWEEN)
    if workshop.phase == Phase.BETWEEN:
        last = current_round(workshop)
        if last is not None and last.kind == RoundKind.SCORED and last.movement_applied_at is None:
            raise WrongPhase("Apply (or edit and apply) the movement before the next round.")
    _enter_phase(workshop, Phase.ROUND)
    rnd = _open_round(workshop, RoundKind.SCORED, workshop.round_seconds)
    bump_workshop(workshop)
    return rnd


@transaction.atomic
def workshop_start_debrief(*, workshop_id: int) -> Workshop:
    workshop = lock_workshop(workshop_id)
    require_phase(workshop, Phase.STUDY, Phase.HOME, Phase.ROUND, Phase.BETWEEN)
    _enter_phase(workshop, Phase.DEBRIEF)
    bump_workshop(workshop)
    return workshop


def cut_game(game: Game, by: str) -> None:
    """Stop a game in progress: it counts with the tricks taken so far. `by`: a
    CutBy value, what cut it (the round's end, or a player leaving).

    A trick still being claimed is not taken, so it does not count; its open
    dispute is closed as "cut". Caller holds the table lock.
    """
    from tournament.services.play import record_outcome

    state = gamestate.load_state(game)
    at = now()
    fields = record_outcome(game, gamestate.kind_of(game).outcome(state), GameState.CUT, at)
    game.cut_by = CutBy(by)
    game.save(update_fields=[*fields, "cut_by"])
    Dispute.objects.filter(game=game, resolved_at__isnull=True).update(
        resolved_at=at, resolution="cut"
    )


def round_standings(rnd: Round) -> dict:
    """Games won and played per player in `rnd`, from the stored games."""
    won: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    for players, winners in Game.objects.filter(round=rnd).values_list("players", "winners"):
        for pid in players:
            played[pid] += 1
        for pid in winners:
            won[pid] += 1
    rows = []
    for p in (
        Player.objects.filter(workshop_id=rnd.workshop_id, table__isnull=False)
        .select_related("table")
        .order_by("table__number", "join_order")
    ):
        rows.append(
            {
                "id": p.pk,
                "name": p.name,
                "table": p.table.number,
                "games_won": won[p.pk],
                "games_played": played[p.pk],
            }
        )
    return {"players": rows}


def compute_preview(standings: dict) -> dict:
    """The movement rule over the tables with players: a table nobody sits at (one the
    automatic seating left empty for a small class) is neither the top nor the bottom
    table and takes nobody. Counted as present, it took the top table's winner, alone,
    and left another player alone below: two tables too small for a game."""
    by_table: dict[int, list] = defaultdict(list)
    for row in standings["players"]:
        by_table[row["table"]].append(
            movement.Standing(name=row["name"], games_won=row["games_won"], key=row["id"])
        )
    result = movement.compute_movement(
        [movement.TableStanding(number=n, players=tuple(ps)) for n, ps in sorted(by_table.items())]
    )
    moves = [
        {"player": m.key, "name": m.name, "from": m.from_table, "to": m.to_table, "edited": False}
        for m in result.moves
    ]
    return {"computed": moves, "moves": moves}


def _pause_ended(pauses: list, at) -> list:
    """The round's pauses with the one under way (if any) ended at `at`."""
    if pauses and pauses[-1][1] is None:
        return [*pauses[:-1], [pauses[-1][0], at.isoformat()]]
    return pauses


def _finalise(workshop: Workshop, rnd: Round, by: str) -> None:
    """Caller holds the workshop and round locks and has checked the round is not finished."""
    for table in lock_tables(workshop.pk):
        for game in Game.objects.filter(table=table, round=rnd, state=GameState.PLAYING):
            cut_game(game, CutBy.ROUND_END)
        bump_table(table)
    rnd.state = RoundState.FINISHED
    rnd.finished_at = now()
    rnd.finished_by = by
    rnd.remaining_seconds = None
    rnd.paused_at = None
    rnd.pauses = _pause_ended(rnd.pauses, rnd.finished_at)
    rnd.standings = round_standings(rnd)
    fields = ["state", "finished_at", "finished_by", "remaining_seconds", "paused_at"]
    fields += ["pauses", "standings"]
    if rnd.kind == RoundKind.SCORED:
        rnd.movement_preview = compute_preview(rnd.standings)
        fields.append("movement_preview")
        if workshop.phase == Phase.ROUND:
            workshop.phase = Phase.BETWEEN
            workshop.save(update_fields=["phase"])
    rnd.save(update_fields=fields)
    bump_workshop(workshop)


@transaction.atomic
def round_finalise(*, round_id: int, by: str = "timer", at=None) -> bool:
    """End a round; True if this call ended it, False if it was already over.

    The timer only ends a running round whose deadline has passed by its clock
    `at` (default: now); the facilitator ("end now") ends a running or paused one.
    """
    workshop, rnd = _lock_round(round_id)
    if rnd.state == RoundState.FINISHED:
        return False
    if by == "timer" and (
        rnd.state != RoundState.RUNNING or not timing.is_expired(rnd.deadline, at or now())
    ):
        return False
    _finalise(workshop, rnd, by)
    return True


def round_end_now(*, round_id: int) -> bool:
    return round_finalise(round_id=round_id, by="facilitator")


@transaction.atomic
def round_pause(*, round_id: int) -> Round:
    workshop, rnd = _lock_round(round_id)
    if rnd.state != RoundState.RUNNING:
        raise WrongPhase("Only a running round can be paused.")
    at = now()
    if timing.is_expired(rnd.deadline, at):
        # Its time ran out and the timer's next tick (within a second) ends it. Paused
        # now, it stood at 0:00 and Resume ended it at once, with nobody told why.
        raise WrongPhase(
            f"{rnd.short_name} cannot be paused: its time is up, and it is ending now."
        )
    rnd.remaining_seconds = timing.pause(rnd.deadline, at)
    rnd.paused_at = at
    rnd.pauses = [*rnd.pauses, [at.isoformat(), None]]
    rnd.deadline = None
    rnd.state = RoundState.PAUSED
    rnd.save(update_fields=["remaining_seconds", "paused_at", "pauses", "deadline", "state"])
    for table in lock_tables(workshop.pk):
        bump_table(table)
    bump_workshop(workshop)
    return rnd


@transaction.atomic
def round_resume(*, round_id: int) -> Round:
    """Resume; claim and dispute time limits are moved on by the length of the pause."""
    workshop, rnd = _lock_round(round_id)
    if rnd.state != RoundState.PAUSED:
        raise WrongPhase("Only a paused round can be resumed.")
    at = now()
    paused_for = at - rnd.paused_at if rnd.paused_at else timedelta(0)
    tables = lock_tables(workshop.pk)
    for game in Game.objects.filter(
        round=rnd, state=GameState.PLAYING, claim_deadline__isnull=False
    ):
        game.claim_deadline += paused_for
        game.save(update_fields=["claim_deadline"])
    for dispute in Dispute.objects.filter(game__round=rnd, resolved_at__isnull=True):
        dispute.deadline += paused_for
        dispute.save(update_fields=["deadline"])
    rnd.deadline = timing.resume(rnd.remaining_seconds or 0.0, at)
    rnd.remaining_seconds = None
    rnd.paused_at = None
    rnd.pauses = _pause_ended(rnd.pauses, at)
    rnd.state = RoundState.RUNNING
    rnd.save(update_fields=["deadline", "remaining_seconds", "paused_at", "pauses", "state"])
    # A skip-leave cuts a game and a late joiner may complete a table while the round
    # is paused; neither deals until now.
    _deal_where_idle(tables, rnd)
    for table in tables:
        bump_table(table)
    bump_workshop(workshop)
    return rnd


def _deal_where_idle(tables: list, rnd: Round) -> list:
    """Deal a game of `rnd` at each of `tables` (locked) that has none; returns the
    tables dealt to (a table too small for a game gets none)."""
    dealt = []
    for table in tables:
        if not Game.objects.filter(table=table, round=rnd, state=GameState.PLAYING).exists():
            if game_start(table=table, rnd=rnd) is not None:
                dealt.append(table)
    return dealt


@transaction.atomic
def round_extend(*, round_id: int, seconds: int) -> Round:
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 1 <= seconds <= 3600:
        raise InvalidInput("Extend by 1 to 3600 seconds.")
    workshop, rnd = _lock_round(round_id)
    if rnd.state == RoundState.FINISHED:
        raise WrongPhase("That round is over.")
    rnd.deadline, rnd.remaining_seconds = timing.extend(
        rnd.deadline, rnd.remaining_seconds, seconds, now()
    )
    rnd.save(update_fields=["deadline", "remaining_seconds"])
    if rnd.state == RoundState.RUNNING:
        # A game that ended after the time was up dealt no other (play._apply): with
        # the time added, its table plays on.
        for table in _deal_where_idle(lock_tables(workshop.pk), rnd):
            bump_table(table)
    bump_workshop(workshop)
    return rnd


def _clean_moves(workshop: Workshop, moves) -> list[dict]:
    if not isinstance(moves, list):
        raise InvalidInput("Give the moves as a list.")
    numbers = set(workshop.tables.values_list("number", flat=True))
    players = {
        p.pk: p
        for p in Player.objects.filter(workshop=workshop, table__isnull=False).select_related(
            "table"
        )
    }
    # A player who has left since the plan was drawn (their seat skipped): a page
    # drawn before still sends their row, and their move lapses, as in movement_apply.
    gone = set(
        Player.objects.filter(workshop=workshop, table__isnull=True, has_left=True).values_list(
            "pk", flat=True
        )
    )
    seen = set()
    clean = []
    for move in moves:
        if not isinstance(move, dict):
            raise InvalidInput("Each move names a player and a table.")
        pid, to = move.get("player"), move.get("to")
        if not isinstance(pid, bool) and pid in gone:
            continue
        if isinstance(pid, bool) or not isinstance(pid, int) or pid not in players:
            raise InvalidInput("A move names a player who is not seated in this workshop.")
        if isinstance(to, bool) or not isinstance(to, int) or to not in numbers:
            raise InvalidInput(f"There is no table {to}.")
        if pid in seen:
            raise InvalidInput(f"{players[pid].name} is moved twice.")
        seen.add(pid)
        if players[pid].table.number != to:
            clean.append(
                {
                    "player": pid,
                    "name": players[pid].name,
                    "from": players[pid].table.number,
                    "to": to,
                }
            )
    return clean


@transaction.atomic
def movement_edit(*, round_id: int, moves: list[dict]) -> dict:
    """Replace the preview's moves with the facilitator's ([{"player": id, "to": n}])."""
    workshop, rnd = _lock_round(round_id)
    if rnd.kind != RoundKind.SCORED or rnd.state != RoundState.FINISHED:
        raise WrongPhase("Movement is decided after a scored round has ended.")
    # After the debrief has begun nobody moves any more: the report shows the last seating.
    require_phase(workshop, Phase.BETWEEN)
    if rnd.movement_applied_at is not None:
        raise WrongPhase("That movement has already been applied.")
    clean = _clean_moves(workshop, moves)
    # Once applied a movement cannot be undone: refuse now a table the engine cannot deal to.
    refuse_overfull(kinds.get(workshop.game), sizes_after(seated_tables(workshop), clean))
    computed = {(m["player"], m["to"]) for m in rnd.movement_preview.get("computed", [])}
    for m in clean:
        m["edited"] = (m["player"], m["to"]) not in computed
    rnd.movement_preview = {**rnd.movement_preview, "moves": clean}
    rnd.save(update_fields=["movement_preview"])
    bump_workshop(workshop)
    return rnd.movement_preview


@transaction.atomic
def movement_apply(*, round_id: int) -> list[Movement]:
    """Move the players as the (possibly edited) preview says; once per round.

    At each table those who stay keep their order and arrivals sit after them,
    in the order of the table they came from.
    """
    workshop, rnd = _lock_round(round_id)
    if rnd.kind != RoundKind.SCORED or rnd.state != RoundState.FINISHED:
        raise WrongPhase("Movement is applied after a scored round has ended.")
    # After the debrief has begun nobody moves any more: the report shows the last seating.
    require_phase(workshop, Phase.BETWEEN)
    if rnd.movement_applied_at is not None:
        raise WrongPhase("That movement has already been applied.")
    tables = lock_tables(workshop.pk)
    by_number = {t.number: t for t in tables}
    # Someone who left (seat skipped) since the preview is no longer seated: their move lapses
    # instead of blocking the movement, and with it the next round.
    still_seated = set(
        Player.objects.filter(workshop=workshop, table__isnull=False).values_list("pk", flat=True)
    )
    moves = _clean_moves(
        workshop,
        [
            {"player": m["player"], "to": m["to"]}
            for m in rnd.movement_preview.get("moves", [])
            if m["player"] in still_seated
        ],
    )
    edited = {m["player"] for m in rnd.movement_preview.get("moves", []) if m.get("edited")}
    target = {m["player"]: m["to"] for m in moves}
    seated = list(
        Player.objects.filter(workshop=workshop, table__isnull=False)
        .select_related("table")
        .order_by("table__number", "seat")
    )
    # A student who joined since the plan was made sits where they joined: the plan
    # may now put more players at a table than the game deals to, and once applied
    # nothing could move them (the next round would refuse to start).
    refuse_overfull(
        kinds.get(workshop.game),
        sizes_after({p.pk: p.table.number for p in seated}, moves),
        then=" Change the plan before applying it.",
    )
    stay = [p for p in seated if p.pk not in target]
    arrive = [p for p in seated if p.pk in target]
    Player.objects.filter(pk__in=[p.pk for p in seated]).update(seat=None)
    next_seat = {t.pk: 0 for t in tables}
    records = []
    for p in stay + arrive:
        table = by_number[target.get(p.pk, p.table.number)]
        if p.pk in target:
            records.append(
                Movement(
                    round=rnd,
                    player=p,
                    from_table=p.table.number,
                    to_table=table.number,
                    edited=p.pk in edited,
                )
            )
        Player.objects.filter(pk=p.pk).update(table=table, seat=next_seat[table.pk])
        next_seat[table.pk] += 1
    Movement.objects.bulk_create(records)
    # The rule's moves the facilitator cancelled (the player stays): no Movement row
    # says so, and the report and the export would not know it was their choice.
    kept = [
        {"player": m["player"], "table": m["from"], "rule": m["to"]}
        for m in rnd.movement_preview.get("computed", [])
        if m["player"] in still_seated and m["player"] not in target
    ]
    rnd.movement_preview = {**rnd.movement_preview, "kept": kept}
    rnd.movement_applied_at = now()
    rnd.save(update_fields=["movement_applied_at", "movement_preview"])
    for table in tables:
        bump_table(table)
    bump_workshop(workshop)
    return records
