"""Playing at a table: cards, claims, dispute time-outs, gestures, and new games.

Every action goes through `_apply`: the table row is locked, the engine called,
one Action row appended with the next seq, derived rows (tricks, claims,
disputes) written, the table version bumped, and the change broadcast after
commit.
"""

from __future__ import annotations

import functools
import logging
import random
import re
import secrets
from dataclasses import dataclass, replace

from django.db import DatabaseError, IntegrityError, connection, transaction

from games import kinds
from games.errors import IllegalAction
from games.kinds import MoveError
from tournament import broadcast, gamestate, limits, rawsql, screencache, timing
from tournament.errors import (
    DuplicateAction,
    IllegalMove,
    InvalidInput,
    NotAllowed,
    NotFound,
    WrongPhase,
    paused_said,
)
from tournament.models import (
    Action,
    Claim,
    Dispute,
    Game,
    GameState,
    Gesture,
    Mode,
    Phase,
    Player,
    RefusedAttempt,
    Round,
    RoundState,
    Table,
    TrickRecord,
    Workshop,
)
from tournament.services.common import MOVED_ON, bump_table, check_version, get_player, now

PLAYING_PHASES = (Phase.STUDY, Phase.HOME, Phase.ROUND)
CLIENT_ID_MAX = 64
DRAWING_MAX_POINTS = 2000
GESTURE_KINDS = {k for k, _ in Gesture.KINDS}

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActResult:
    game_id: int
    seq: int
    version: int
    events: list
    # The actor's late sheet was folded away after this move (_folds_late_rules).
    rules_folded: bool = False


def seated_players(table: Table) -> list[Player]:
    """Players who take part in the next game: seated, in seat order."""
    return list(Player.objects.filter(table=table).order_by("seat"))


def current_game(table: Table, *, round_id: int | None = None) -> Game | None:
    qs = Game.objects.filter(table=table, state=GameState.PLAYING)
    if round_id is not None:
        qs = qs.filter(round_id=round_id)
    return qs.order_by("-pk").first()


def game_start(*, table: Table, rnd: Round, number: int | None = None) -> Game | None:
    """Deal a new game at `table` in `rnd`. Caller holds the table lock.

    The dealer rotates one seat per game; engine seat 0 sits at the dealer's
    left (a game whose engine cuts for its first dealer records the cut's). A table
    with too few players for the game waits. `number`: the game's number in
    the round when the caller knows it (the game that just ended there, plus one).
    A round whose time is up deals nothing (whoever asks: a game's end, a player
    leaving, a late joiner, a resume): the timer ends it within the second, and a
    game dealt now would only be cut at once, an empty game in every record.
    """
    if timing.is_expired(rnd.deadline, now()):
        return None
    workshop = rnd.workshop
    kind = kinds.get(workshop.game)
    players = seated_players(table)
    if len(players) < kind.min_seats:
        return None
    if len(players) > kind.max_seats:
        # The engine deals to at most max_seats: refuse (the caller's transaction rolls
        # back) rather than crash, so the facilitator can move someone first.
        raise InvalidInput(
            f"Table {table.number} has {len(players)} players; at most "
            f"{kind.max_seats} can play a game of {kind.title}. "
            "Move someone to another table first."
        )
    if number is None:
        number = Game.objects.filter(table=table, round=rnd).count() + 1
    dealer_index = (number - 1 + rnd.number) % len(players)
    order = players[dealer_index + 1 :] + players[: dealer_index + 1]
    game = Game(
        table=table,
        round=rnd,
        number=number,
        kind=kind.key,
        seed=secrets.randbits(62),
        dealer=players[dealer_index],
        players=[p.pk for p in order],
        table_rules=table.rules,
        # Each player plays by their home table's sheet where the game has per-seat
        # sheets (Barnga mode); otherwise the table's rules decide for everybody.
        seat_rules=[
            (p.rules or table.rules) if kind.per_seat_rules else table.rules for p in order
        ],
        mode=workshop.mode,
    )
    state = gamestate.initial_state(game)
    # All Fives and 3 Tricks cut for the first dealer from the seed: record theirs.
    seat = kind.first_dealer(state)
    if seat is not None:
        game.dealer = order[seat]
    game.save(force_insert=True)
    gamestate.remember(game, state)
    bump_table(table, deal=screencache.game_row(game))
    return game


# The reads every action makes first, as plain SQL: building these queries through
# the ORM (joins, select_related) cost about twice the reads themselves, and they
# run while the table's lock is held (bench with PostgreSQL: 6 ms -> 3 ms).
@functools.cache
def _table_of_player_sql() -> str:
    return (
        f"SELECT {rawsql.columns(Table, 't')} FROM tournament_table t"
        " JOIN tournament_player p ON p.table_id = t.id WHERE p.id = %s" + _for_update()
    )


def _for_update() -> str:
    """Lock the table row as `select_for_update(of=("self",), no_key=True)` would
    (SQLite: none). NO KEY: rows that merely reference the table (a new game, a
    gesture) need not wait for the lock, as every service's locks are taken."""
    features = connection.features
    if not features.has_select_for_update:
        return ""
    mode = " FOR NO KEY UPDATE" if features.has_select_for_no_key_update else " FOR UPDATE"
    return mode + (" OF t" if features.has_select_for_update_of else "")


@functools.cache
def _action_reads_sql() -> str:
    """After the lock, one statement reads the rest of what an action checks: the
    player, their workshop, the table's game in progress with its round, and whether
    the client's action id was seen before (four statements before this)."""
    cols = ", ".join(
        rawsql.columns(m, a) for m, a in ((Player, "p"), (Workshop, "w"), (Game, "g"), (Round, "r"))
    )
    return (
        f"SELECT {cols}, EXISTS(SELECT 1 FROM tournament_action a"
        " WHERE a.actor_id = p.id AND a.client_action_id = %s)"
        " FROM tournament_player p JOIN tournament_workshop w ON w.id = p.workshop_id"
        " LEFT JOIN tournament_game g ON g.id = (SELECT id FROM tournament_game"
        " WHERE table_id = %s AND state = %s ORDER BY id DESC LIMIT 1)"
        " LEFT JOIN tournament_round r ON r.id = g.round_id WHERE p.id = %s"
    )


@dataclass
class _Reads:
    game: Game | None
    rnd: Round | None
    seen_client_id: bool


def _lock_for_action(player_id: int, client_action_id=None) -> tuple[Player, Table]:
    # One statement finds the player's table and locks it, one more reads the rest
    # (an action is a dozen round trips to the database; each one counts under load,
    # and all but the first are made holding the table's lock).
    if isinstance(player_id, bool) or not isinstance(player_id, int):
        raise NotFound("Unknown player.")
    # A malformed id (refused by _check_client_id) is not looked up: PostgreSQL
    # refuses a NUL in any text, which would fail the whole action with a 500.
    cid = client_action_id if well_formed_client_id(client_action_id) else None
    with rawsql.prepared_cursor() as cursor:
        cursor.execute(_table_of_player_sql(), [player_id])
        row = cursor.fetchone()
        if row is None:
            get_player(player_id)  # NotFound for an unknown player
            raise NotAllowed("You are not seated at a table yet.")
        (table,) = rawsql.instances(row, Table, using=connection.alias)
        # Re-read under the lock: a move between tables takes the same lock.
        cursor.execute(_action_reads_sql(), [cid, table.pk, GameState.PLAYING.value, player_id])
        row = cursor.fetchone()
    if row is None:
        raise NotFound("Unknown player.")
    player, workshop, game, rnd = rawsql.instances(
        row, Player, Workshop, Game, Round, using=connection.alias
    )
    if player.table_id != table.pk:
        raise NotAllowed("You have moved to another table; here is your new table.")
    player.workshop = workshop
    player._reads = _Reads(game=game, rnd=rnd, seen_client_id=bool(row[-1]))
    return player, table


def _active_game(player: Player, table: Table) -> tuple[Game, Round]:
    workshop = player.workshop
    if workshop.phase not in PLAYING_PHASES:
        raise WrongPhase("No game is being played right now.")
    game, rnd = player._reads.game, player._reads.rnd
    if game is None:
        raise WrongPhase("No game is in progress at your table.")
    rnd.workshop = workshop  # the table's workshop: the same row
    game.round = rnd
    if rnd.state == RoundState.PAUSED:
        raise WrongPhase(paused_said(workshop.phase))
    if rnd.state != RoundState.RUNNING:
        raise WrongPhase("The round is over.")
    if timing.is_expired(rnd.deadline, now()):
        # Time is up, and the timer ends the round at its next tick: a move taken now
        # would count in a game that ended with the clock (RULES §2).
        raise WrongPhase("Time is up: the round is over.")
    return game, rnd


def _require_five_tricks(game: Game) -> None:
    if not gamestate.kind_of(game).records_tricks:
        raise InvalidInput("This table plays another game: use its own buttons.")


def well_formed_client_id(client_action_id) -> bool:
    """An id a phone may give its message: printable text of 1–CLIENT_ID_MAX characters."""
    return (
        isinstance(client_action_id, str)
        and 0 < len(client_action_id) <= CLIENT_ID_MAX
        and client_action_id.isprintable()
    )


def _check_client_id(player: Player, client_action_id) -> str | None:
    """Caller read the player with _lock_for_action(player_id, client_action_id)."""
    if client_action_id is None:
        return None
    if not well_formed_client_id(client_action_id):
        raise InvalidInput(
            f"An action id must be text of 1–{CLIENT_ID_MAX} characters, none of them control characters."
        )
    if player._reads.seen_client_id:
        raise DuplicateAction("That action was already received.")
    return client_action_id


def _seat_of(game: Game, player: Player) -> int:
    try:
        return game.players.index(player.pk)
    except ValueError:
        raise NotAllowed(
            "You joined this table during a game; you play from the next one."
        ) from None


def _apply(
    *,
    game: Game,
    table: Table,
    actor: Player | None,
    action: dict,
    client_action_id: str | None = None,
    wversion: int | None = None,
) -> ActResult:
    """Caller holds the table lock and has checked phase and version. `wversion`:
    the workshop's version as read in this transaction (lets this process's screen
    cache take the change without reading it back: screencache.advance)."""
    kind = gamestate.kind_of(game)
    state = gamestate.load_state(game)
    try:
        new_state, events = kind.apply(state, action)
    except IllegalAction as exc:
        refused = IllegalMove(_with_names(exc.reason, game))
        # Kept by _keeps_refusals once this transaction has rolled back: nothing is
        # written here, and nothing at all on a legal action's path.
        refused.attempt = _refusal_record(game, table, actor, state, action, refused.message)
        raise refused from None
    at = now()
    game.seq += 1
    # The rows of an action go to the database together (rawsql.Writes: one round
    # trip on PostgreSQL) just before the table's version, or before the ORM writes
    # of a game's end. No savepoint: under the table lock the seq is free and the
    # client id was checked, so a unique violation means a duplicate the checks
    # missed, and the whole action is rolled back with it.
    writes = rawsql.Writes()
    writes.insert(
        Action,
        game_id=game.pk,
        seq=game.seq,
        actor_id=actor.pk if actor is not None else None,
        kind=action["type"],
        payload=action,
        events=events,
        client_action_id=client_action_id,
        created_at=at,
    )
    if kind.records_tricks:
        _record_derived(writes, game, state, new_state, action, actor, at)
    over = kind.is_over(new_state)
    if over:
        # The game's result joins the action's rows (the table's version too, below):
        # the game's end is the one action that also deals, under the same lock.
        ended = record_outcome(game, kind.outcome(new_state), GameState.OVER, at)
        game.ended_by = kind.end_reason(new_state)
        ended.append("ended_by")
        changed = {f: getattr(game, f) for f in ended}
    else:
        if not kind.records_tricks:
            pass  # no claim step
        elif new_state.phase == "claim" and (
            state.phase != "claim" or new_state.dispute != state.dispute
        ):
            # A claim step opened, or its claims turned into a dispute: a fresh time limit.
            game.claim_deadline = timing.deadline_after(at, game.round.workshop.dispute_seconds)
        elif new_state.phase != "claim":
            game.claim_deadline = None
        changed = {"claim_deadline": game.claim_deadline}
    writes.update(Game, {"id": game.pk}, seq=game.seq, **changed)
    gamestate.remember_on_commit(game, new_state)
    # Other players' claims do not make a claim stale; anything that ends the claim step
    # does. Nor do a kind's concurrent moves (All Fives' calls) make anything stale.
    claim = kind.records_tricks and action["type"] == "claim" and new_state.phase == "claim"
    barrier = not (claim or action["type"] in kind.concurrent_moves)
    before = table.version
    # The move travels with the table's message (the game's last one too: a process
    # that follows it works the result out with the engine, as record_outcome did).
    move = {
        "game": game.pk,
        "seq": game.seq,
        "action": action,
        "claim_deadline": game.claim_deadline.isoformat() if game.claim_deadline else None,
    }
    if claim and not state.dispute and not new_state.dispute and actor is not None:
        # A claim that keeps the trick waiting for claims, with no dispute before or
        # after: another seat's view (five_tricks.view) differs only in `claimed` (its
        # hand, the cards on the table, its own claim and suggestion, the time limit
        # and the tricks are as before; claims stay hidden until a dispute). Those
        # sockets send that seat's mark instead of a screen (consumers.PlayerConsumer).
        move["mark_claimed_by"] = actor.pk
    version = bump_table(table, barrier=barrier, move=move, writes=writes)
    _send_action(writes, game)
    if game.state == GameState.OVER and game.round.state == RoundState.RUNNING:
        game_start(table=table, rnd=game.round, number=game.number + 1)
        version = table.version
    elif game.state == GameState.PLAYING and wversion is not None:
        transaction.on_commit(lambda: screencache.advance(table, before, game, new_state, wversion))
    return ActResult(game_id=game.pk, seq=game.seq, version=version, events=events)


def _refusal_record(
    game: Game, table: Table, actor: Player | None, state, action: dict, reason: str
) -> dict | None:
    """The row a refused move leaves for the report (docs/export.md, "refusals"), or
    None. Kept: a person's move (not a bot's, nor the timer's) made on their turn, in a
    game where the table's rules decide what is legal for everybody (referee mode;
    a game without per-seat sheets: 7Up7Down, 3 Tricks). That is the moment a newcomer
    meets a rule they never saw. Not kept: a move out of turn (every sheet has the same
    turns), a claim, and Barnga mode's refusals, where the player's own sheet refused
    (their clashes are the claims, disputes and revokes)."""
    if actor is None or actor.automated or action.get("type") in ("claim", "timeout"):
        return None
    kind = gamestate.kind_of(game)
    if kind.per_seat_rules and game.mode != Mode.REFEREE:
        return None
    if actor.pk not in game.players:
        return None
    seat = game.players.index(actor.pk)
    if seat not in kind.to_act(state):
        return None
    own = actor.rules or None
    return {
        "own_rules_allow": kind.allowed_under(state, action, own) if own else None,
        "workshop_id": table.workshop_id,
        "round_id": game.round_id,
        "table_id": table.pk,
        "game_id": game.pk,
        "player_id": actor.pk,
        "seat": seat,
        "action": action,
        "reason": reason,
        "created_at": now(),
    }


def _keeps_refusals(service):
    """Wraps a player's move service (outside its transaction): a move the table's rules
    refused is stored once the move's transaction has rolled back, so the refusal the
    student is told and the stored row never disagree with the game (nothing of the move
    half-written, no acknowledged move lost). The refusal is raised on either way."""

    @functools.wraps(service)
    def wrapper(**kwargs):
        try:
            return service(**kwargs)
        except IllegalMove as exc:
            record = getattr(exc, "attempt", None)
            if record is not None:
                _keep_refusal(record)
            raise

    return wrapper


def _keep_refusal(record: dict) -> None:
    """Append one refused move, unless its player has limits.REFUSALS_KEPT in that game
    (read at each call, as the report reads it: one number for both). A
    failure to store it is logged: the student is still told why the move was refused."""
    try:
        with transaction.atomic():
            # Count under the player's row lock, held until the insert commits: two
            # refusals of one player at once (two phones, two sockets) would otherwise
            # both count REFUSALS_KEPT - 1 under PostgreSQL's READ COMMITTED, and both
            # insert. The player's row: it is the cap's own scope (per player; one game
            # at a time), and no move waits for it (a move reads the player unlocked, and
            # only a refused move comes here). Other services lock or update it holding
            # their workshop's or table's lock, which this transaction never waits for
            # (its insert only key-shares the rows it refers to, as every lock is NO
            # KEY): no deadlock. A workshop's deletion deletes the game this row refers
            # to, so it locks the players' rows first (services.data._delete_workshop).
            # An INSERT ... SELECT counting in one statement would still race without
            # a lock; an advisory lock is PostgreSQL's alone. SQLite
            # has no row locks, but its transactions begin IMMEDIATE (settings): one
            # writer at a time, the count holds there as it is.
            if not (
                Player.objects.select_for_update(no_key=True)
                .filter(pk=record["player_id"])
                .exists()
            ):
                return  # their workshop was deleted meanwhile: nobody's refusal to keep
            kept = RefusedAttempt.objects.filter(
                game_id=record["game_id"], player_id=record["player_id"]
            ).count()
            if kept < limits.REFUSALS_KEPT:
                RefusedAttempt.objects.create(**record)
    except DatabaseError:
        log.exception("A refused move could not be stored for the report.")


_SEAT = re.compile(r"\b([Ss])eat (\d+)\b")


def _with_names(reason: str, game: Game) -> str:
    """An engine's reason speaks of seat numbers; a phone shows names."""
    if not _SEAT.search(reason):
        return reason
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))

    def name(m: re.Match) -> str:
        seat = int(m.group(2))
        if seat < len(game.players) and game.players[seat] in names:
            return names[game.players[seat]]
        return m.group(0)

    return _SEAT.sub(name, reason)


def record_outcome(game: Game, outcome: dict, state: str, at) -> list[str]:
    """Set a finished (or cut) game's result fields; returns them for `save`."""
    game.state = state
    game.scores = list(outcome["scores"])
    if gamestate.kind_of(game).score_label == "tricks":
        game.tricks_won = list(outcome["scores"])
    game.winners = [game.players[s] for s in outcome["winners"]]
    game.finished_at = at
    game.claim_deadline = None
    return ["state", "scores", "tricks_won", "winners", "finished_at", "claim_deadline"]


def _send_action(writes: rawsql.Writes, game: Game) -> None:
    try:
        writes.send()
    except IntegrityError:
        game.seq -= 1
        raise DuplicateAction("That action was already received.") from None


def _record_derived(
    writes: rawsql.Writes, game: Game, before, after, action: dict, actor: Player | None, at
) -> None:
    """Claims, disputes and completed tricks, read off the state change."""
    trick_index = len(before.completed)
    if action["type"] == "claim" and actor is not None:
        seat = action["seat"]
        writes.insert(
            Claim,
            game_id=game.pk,
            trick_index=trick_index,
            player_id=actor.pk,
            seat=seat,
            claimed_seat=action["winner"],
            is_change=before.claims[seat] is not None,
            during_dispute=before.dispute,
            created_at=at,
        )
    if after.phase == "claim" and after.dispute and not before.dispute:
        writes.insert(
            Dispute,
            game_id=game.pk,
            trick_index=trick_index,
            opened_at=at,
            deadline=timing.deadline_after(at, game.round.workshop.dispute_seconds),
            initial_claims=list(after.claims),
        )
    if len(after.completed) > len(before.completed):
        trick = after.completed[-1]
        writes.insert(
            TrickRecord,
            game_id=game.pk,
            index=trick_index,
            leader=trick.leader,
            cards=[[s, c] for s, c in trick.cards],
            winner=trick.winner,
            winner_player_id=game.players[trick.winner],
            verdicts=list(trick.verdicts),
            table_verdict=trick.table_verdict,
            resolution=trick.resolution,
            claims=list(trick.claims),
            created_at=at,
        )
        # A time-out is decided at its deadline, even when the timer reaches it late (a
        # process restarted, say): the dispute lasted its time limit, not the downtime.
        decided = at
        if action["type"] == "timeout" and game.claim_deadline is not None:
            decided = min(at, game.claim_deadline)
        writes.update(
            Dispute,
            {"game_id": game.pk, "trick_index": trick_index, "resolved_at": None},
            resolved_at=decided,
            resolution=trick.resolution,
            final_claims=list(trick.claims),
            winner=trick.winner,
            winner_player_id=game.players[trick.winner],
        )


def _player_turn(
    player_id: int, client_action_id, expected_version, check, moved_on=MOVED_ON
) -> tuple:
    """What every player's action checks first, in this order: the table lock, the
    game in progress, `check(game)` (the kind of action fits the game), the client's
    id, the version the phone saw (`moved_on`: what a stale one is told, or a function
    of the game that says it), and the player's seat.
    Returns (player, table, game, client id, seat)."""
    player, table = _lock_for_action(player_id, client_action_id)
    game, _ = _active_game(player, table)
    check(game)
    cid = _check_client_id(player, client_action_id)
    check_version(table, expected_version, moved_on(game) if callable(moved_on) else moved_on)
    return player, table, game, cid, _seat_of(game, player)


def _apply_for(player: Player, table: Table, game: Game, cid: str | None, action: dict):
    result = _apply(
        game=game,
        table=table,
        actor=player,
        action=action,
        client_action_id=cid,
        wversion=player.workshop.version,
    )
    if player.rules_unread and player.workshop.phase == Phase.ROUND:
        # Folded once the move has committed (_folds_late_rules), not here: the move
        # holds the table's lock, and Remove and the PIN's rejoin lock the player's row
        # before the table's; an update of it here deadlocked with them on PostgreSQL.
        result = replace(result, rules_folded=True)
    return result


def _folds_late_rules(service):
    """Wraps a player's move service (outside its transaction, holding no lock): a
    latecomer who never tapped "I have read my rules" and makes a move in a scored
    round has started playing, and their sheet folds away as if they had tapped it
    (services.player_rules_read: the same row, so the monitor's "reading the rules"
    goes too). Left open, it lay under their hand all round for a neighbour to read
    (RULES §2: rules hidden then). Only their own screen changes: the caller renders it
    again from their row, as after the tap (consumers.PlayerConsumer). The move stands
    whatever happens here; `rules_folded` is false where nothing was left to fold (a tap
    came first)."""

    @functools.wraps(service)
    def wrapper(**kwargs):
        result = service(**kwargs)
        if result.rules_folded:
            from tournament.services.workshops import player_rules_read

            try:
                folded = player_rules_read(player_id=kwargs["player_id"])
            except (DatabaseError, NotFound):
                # (Removed meanwhile, or the database busy: the move is made, the sheet
                # stays open until the tap, as before this fold.)
                log.exception("A late sheet was not folded after a move")
                folded = False
            result = replace(result, rules_folded=folded)
        return result

    return wrapper


def _require_other_game(game: Game) -> None:
    if gamestate.kind_of(game).records_tricks:
        raise InvalidInput("In this game, play a card or claim a trick.")


@_folds_late_rules
@_keeps_refusals
@transaction.atomic
def game_play(
    *,
    player_id: int,
    card: str,
    expected_version: int | None = None,
    client_action_id: str | None = None,
) -> ActResult:
    """A player plays a card from their hand."""
    if not isinstance(card, str) or not card.strip() or len(card) > 4:
        raise InvalidInput("Choose a card from your hand.")
    player, table, game, cid, seat = _player_turn(
        player_id, client_action_id, expected_version, _require_five_tricks
    )
    action = {"type": "play", "seat": seat, "card": card.strip().upper()}
    return _apply_for(player, table, game, cid, action)


LATE_CALL = (
    "Too late to call that revoke: the next card was led, which closes the calls on "
    "a trick. Here is the current state."
)


def _late_call_or_moved_on(game: Game) -> str:
    """What a stale revoke call is told: too late once the calls on the trick are
    closed (the next card led, the hand over); the general "moved on" while they are
    open, since the table moves on for other things too (a pause, a name changed, a
    seat taken over by a bot), and the call may then be made again."""
    state = gamestate.load_state(game)
    return MOVED_ON if getattr(state, "calls_open", False) else LATE_CALL


@_folds_late_rules
@_keeps_refusals
@transaction.atomic
def game_act(
    *,
    player_id: int,
    move: dict,
    expected_version: int | None = None,
    client_action_id: str | None = None,
) -> ActResult:
    """A player's move in a base game other than Five Tricks (a bid, a beg, a swap…).

    The game's kind checks the move's shape and makes it the acting seat's; the
    engine then decides whether it is legal now.
    """
    call = isinstance(move, dict) and move.get("type") == "call_revoke"
    player, table, game, cid, seat = _player_turn(
        player_id,
        client_action_id,
        expected_version,
        _require_other_game,
        _late_call_or_moved_on if call else MOVED_ON,
    )
    try:
        action = gamestate.kind_of(game).phone_action(gamestate.load_state(game), seat, move)
    except MoveError as exc:
        raise InvalidInput(str(exc)) from None
    return _apply_for(player, table, game, cid, action)


@_folds_late_rules
@transaction.atomic
def game_claim(
    *,
    player_id: int,
    winner_player_id: int,
    expected_version: int | None = None,
    client_action_id: str | None = None,
) -> ActResult:
    """A player says who they believe won the trick (or changes their claim)."""
    player, table, game, cid, seat = _player_turn(
        player_id, client_action_id, expected_version, _require_five_tricks
    )
    if _claim_too_late(game):
        raise WrongPhase("Time ran out for this trick: the most-claimed card takes it.")
    if isinstance(winner_player_id, bool) or not isinstance(winner_player_id, int):
        raise InvalidInput("Choose the player you think won the trick.")
    try:
        winner_seat = game.players.index(winner_player_id)
    except ValueError:
        raise InvalidInput("That player is not in this game.") from None
    action = {"type": "claim", "seat": seat, "winner": winner_seat}
    return _apply_for(player, table, game, cid, action)


def _claim_too_late(game: Game) -> bool:
    """A claim (a person's or a bot's) that comes once the claim step's time limit has
    passed decides nothing: the time-out does, at the timer's next tick (RULES §2). A
    changed claim a moment after a dispute's deadline had settled it as agreed."""
    return timing.is_expired(game.claim_deadline, now())


@transaction.atomic
def game_claim_timeout(*, game_id: int, at=None) -> ActResult | None:
    """The claim time limit passed: the most-claimed seat takes the trick.

    Called by the timer loop in every process; the table lock and the deadline
    re-read under it make sure it happens once. `at` is the timer's clock
    (default: now), so `timers.tick(now=...)` decides what has expired.
    """
    try:
        game = Game.objects.select_related("round__workshop").get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound("That game does not exist.") from None
    table = Table.objects.select_for_update(no_key=True).get(pk=game.table_id)
    game = Game.objects.select_related("round__workshop").get(pk=game_id)
    if (
        game.state != GameState.PLAYING
        or game.claim_deadline is None
        or not timing.is_expired(game.claim_deadline, at or now())
        or game.round.state != RoundState.RUNNING
    ):
        return None
    return _apply(game=game, table=table, actor=None, action={"type": "timeout"})


def bot_rng(game: Game, seat: int) -> random.Random:
    """A bot's dice at a seat: seeded by the game and its seq, so asking again
    before the game moves gives the same answer."""
    return random.Random(f"{game.seed}:{game.seq}:{seat}")


@transaction.atomic
def game_bot_act(*, player_id: int, rng: random.Random | None = None) -> ActResult | None:
    """A bot (or the bot standing in for a player who left) does what its seat has to do."""
    player, table = _lock_for_action(player_id)
    if not player.automated:
        raise NotAllowed("Only bots are played automatically.")
    try:
        game, _ = _active_game(player, table)
    except WrongPhase:
        return None
    if player.pk not in game.players:
        return None
    seat = game.players.index(player.pk)
    state = gamestate.load_state(game)
    action = gamestate.kind_of(game).bot_action(state, seat, rng or bot_rng(game, seat))
    if action is None:
        return None
    if action["type"] == "claim" and _claim_too_late(game):
        return None
    return _apply(game=game, table=table, actor=player, action=action)


@transaction.atomic
def gesture_make(*, player_id: int, kind: str, payload: dict | None = None) -> Gesture:
    """A silent gesture or a drawing stroke, shown to the table and recorded."""
    if not isinstance(kind, str) or kind not in GESTURE_KINDS:  # a dict is not even hashable
        raise InvalidInput("Unknown gesture.")
    payload = payload or {}
    if not isinstance(payload, dict):
        raise InvalidInput("A gesture's details must be an object.")
    payload = _clean_gesture_payload(kind, payload)
    player, table = _lock_for_action(player_id)
    if player.workshop.phase not in PLAYING_PHASES:
        raise WrongPhase("Gestures are for the tables while games are played.")
    game = current_game(table)
    trick_index = None
    during_dispute = False
    if game is not None:
        state = gamestate.load_state(game)
        game_kind = gamestate.kind_of(game)
        trick_index = game_kind.progress(state)
        during_dispute = bool(game_kind.records_tricks and state.phase == "claim" and state.dispute)
    gesture = Gesture.objects.create(
        table=table,
        game=game,
        player=player,
        kind=kind,
        payload=payload,
        trick_index=trick_index,
        during_dispute=during_dispute,
    )
    broadcast.gesture_on_commit(
        workshop_id=table.workshop_id,
        table_id=table.pk,
        gesture={
            "id": gesture.pk,
            "kind": kind,
            "payload": payload,
            "by": player.pk,
            "name": player.name,
        },
    )
    return gesture


def _clean_gesture_payload(kind: str, payload: dict) -> dict:
    if kind == "point" and "card" in payload:
        card = payload.get("card")
        if not isinstance(card, str) or not 2 <= len(card) <= 3:
            raise InvalidInput("Point at a card on the table.")
        return {"card": card.upper()}
    if kind == "drawing":
        points = payload.get("points")
        if not isinstance(points, list) or not (1 <= len(points) <= DRAWING_MAX_POINTS):
            raise InvalidInput(f"A stroke has 1–{DRAWING_MAX_POINTS} points.")
        clean = []
        for pt in points:
            if (
                not isinstance(pt, list | tuple)
                or len(pt) != 2
                or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in pt)
                or not all(0 <= v <= 1 for v in pt)
            ):
                raise InvalidInput("Stroke points are pairs of numbers from 0 to 1.")
            clean.append([round(float(pt[0]), 4), round(float(pt[1]), 4)])
        return {"points": clean}
    return {}
