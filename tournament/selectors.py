"""Reads: what each screen may show, never more."""

from __future__ import annotations

from django.db import connection
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import five_tricks, kinds
from games.kinds.all_fives import call_said
from tournament import gamestate, names, rawsql, timing
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
    Table,
    Workshop,
)


def workshops_for(user):
    return Workshop.objects.filter(facilitator=user).order_by("-created_at")


def round_clock(rnd: Round | None, now=None) -> dict | None:
    if rnd is None:
        return None
    now = now or timezone.now()
    return {
        "id": rnd.pk,
        "label": str(rnd),
        "kind": rnd.kind,
        "state": rnd.state,
        "remaining": timing.remaining(rnd.deadline, now, rnd.remaining_seconds),
        # A running round's end as the phones count to it (None paused or unset).
        "deadline_ms": timing.epoch_ms(rnd.deadline) if rnd.state == RoundState.RUNNING else None,
    }


def workshop_overview(workshop_id: int, *, user) -> dict | None:
    """The facilitator's view of one of their own workshops (None for anyone else's)."""
    workshop = Workshop.objects.filter(pk=workshop_id, facilitator=user).first()
    if workshop is None:
        return None
    rnd = workshop.rounds.order_by("-number").first()
    tables = []
    players = list(workshop.players.select_related("table", "home_table"))
    games = {
        g.table_id: g
        for g in Game.objects.filter(table__workshop=workshop, state=GameState.PLAYING)
    }
    for table in workshop.tables.all():
        tables.append(
            {
                "number": table.number,
                "preset": kinds.get(workshop.game).preset_titles.get(table.preset, "Custom sheet"),
                "rules": table.rules,
                "players": [p for p in players if p.table_id == table.pk],
                "game": games.get(table.pk),
            }
        )
    return {
        "workshop": workshop,
        "round": round_clock(rnd),
        "tables": tables,
        "unseated": [p for p in players if p.table_id is None and not p.has_left],
    }


def workshop_code_exists(code: str) -> bool:
    return Workshop.objects.filter(code=code).exists()


def name_in_use(code: str, raw_name: object) -> str | None:
    """The name of a person already in the workshop `code` whose name is `raw_name`
    (ignoring case and accents), or None: a student who lost their phone's seat and
    types their name again should move it with the rejoin PIN, not sit twice; so
    should one removed and let back in (roster.player_let_back_in), not yet back."""
    try:
        key = names.name_key(names.clean_name(raw_name))
    except ValueError:
        return None
    return (
        Player.objects.filter(workshop__code=code, name_key=key, is_bot=False)
        .filter(Q(has_left=False) | Q(let_in_at__isnull=False) & ~Q(pin=""))
        .values_list("name", flat=True)
        .first()
    )


def player_by_token(token: str) -> Player | None:
    if not token:
        return None
    return Player.objects.select_related("workshop", "table").filter(token=token).first()


SILENT_PHASES = (Phase.HOME, Phase.ROUND, Phase.BETWEEN)
PLAY_PHASES = (Phase.STUDY, Phase.HOME, Phase.ROUND)


def player_screen(player_id: int, now=None) -> dict | None:
    """Everything one player's screen shows, built only from what their seat may see.

    The engine's `view` for the player's seat is the only source of game facts;
    other seats appear as names, counts and (in a dispute) claims. The player's
    own sheet is included only while studying, or until a player who joined after
    the study phase says they have read it (or makes a move in a scored round:
    services.play folds it then).

    Read fresh from the database (the page load). Sockets compose the same
    context from parts cached per version (`tournament.screencache`): what the
    whole workshop sees (`workshop_part`), what a whole table sees
    (`table_part`), and this seat's own part (`compose_screen`).
    """
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return None
    wpart = workshop_part(player.workshop_id)
    tpart = table_part(player.table_id, round_id=wpart["round_id"]) if player.table_id else None
    return compose_screen(player, wpart, tpart, now)


def _consistent(read, current_version, attempts: int = 3):
    """`read()` again until the version it was labelled with is still current after it.

    A part is read in several statements, each seeing the latest commit. Every change
    to what it holds bumps the version in the same transaction, so when the version
    is unchanged after the last statement, every statement saw that one version. A
    view whose label is older than its content would make the phone's next action
    look stale to the services (and one newer would let a stale one through).
    """
    part = None
    for _ in range(attempts):
        part = read()
        if part is None or current_version() == part["version"]:
            return part
    return part  # still moving after several reads: the services re-check anyway


def workshop_part(workshop_id: int, *, with_players: tuple[str, ...] = ()) -> dict | None:
    """What every player of a workshop sees alike: its phase and the current round.

    Four queries (five from the second scored round on: who the movement moved).
    Every change to these bumps `Workshop.version`, so a copy read at
    version w stays right until the next `workshop.changed` message. `with_players`
    adds every player's row (those fields, as tuples) under "players": seating,
    moves and renames bump the workshop version too.
    """

    def read():
        workshop = Workshop.objects.filter(pk=workshop_id).first()
        if workshop is None:
            return None
        rnd = Round.objects.filter(workshop_id=workshop.pk).order_by("-number").first()
        part = {
            "workshop": workshop,
            "version": workshop.version,
            "round": rnd,
            "round_id": rnd.pk if rnd else None,
            "arrivals": _arrivals(rnd),
            # Each table's version as the workshop's change left it: a change to both
            # (the movement) must not be drawn with the table's part from before it,
            # whose message a socket may hear after the workshop's (PlayerConsumer).
            "tables": dict(
                Table.objects.filter(workshop_id=workshop_id).values_list("pk", "version")
            ),
            # What a player's screen shows of it: equal digests render equal screens.
            "digest": (
                workshop.phase,
                rnd and (rnd.pk, rnd.state, rnd.deadline, rnd.remaining_seconds),
            ),
        }
        if with_players:
            part["players"] = {
                row[0]: row
                for row in Player.objects.filter(workshop_id=workshop_id).values_list(*with_players)
            }
        return part

    return _consistent(
        read,
        lambda: Workshop.objects.filter(pk=workshop_id).values_list("version", flat=True).first(),
    )


def _arrivals(rnd) -> dict[int, tuple[int, int]]:
    """In a scored round, who the movement before it (the last scored round's, stored
    when applied) moved: {player id: (from, to)}. One query, none in the first round."""
    if rnd is None or rnd.kind != RoundKind.SCORED or (rnd.scored_number or 0) < 2:
        return {}
    moves = Movement.objects.filter(
        round__workshop_id=rnd.workshop_id,
        round__kind=RoundKind.SCORED,
        round__scored_number=rnd.scored_number - 1,
    ).values_list("player_id", "from_table", "to_table")
    return {pid: (a, b) for pid, a, b in moves if a != b}


def table_part(table_id: int, *, round_id: int | None) -> dict | None:
    """What every seat of a table sees alike, read once per table version.

    Four statements (the game's state comes from the replay cache). Every change to
    any of it bumps `Table.version`; the round is the workshop's current one.
    """
    return _consistent(
        lambda: _read_table_part(table_id, round_id), lambda: _table_version(table_id)
    )


# Each process reads a table's part once per version, so under load these reads are
# a fifth of a web process's work; as plain SQL they cost a third of the ORM's
# query building (a bench with PostgreSQL: 1.5 ms against 4.2 ms per part).
_TABLE_SQL = (
    "SELECT t.*, w.version AS wversion FROM tournament_table t"
    " JOIN tournament_workshop w ON w.id = t.workshop_id WHERE t.id = %s"
)
_SEATED_SQL = "SELECT * FROM tournament_player WHERE table_id = %s ORDER BY seat"
_GAMES_SQL = (
    "SELECT * FROM tournament_game WHERE table_id = %s AND (state = %s OR round_id = %s)"
    " ORDER BY id DESC"
)


def _table_version(table_id: int) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT version FROM tournament_table WHERE id = %s", [table_id])
        row = cursor.fetchone()
    return row[0] if row else None


def _read_table_part(table_id: int, round_id: int | None) -> dict | None:
    # With the workshop's version as read now: a screen must not pair this table with
    # a workshop part older than that (a game dealt for the study phase shown under
    # the lobby's heading, because the table's message arrived first).
    table = rawsql.first(Table, _TABLE_SQL, [table_id])
    if table is None:
        return None
    seated = list(Player.objects.raw(_SEATED_SQL, [table_id]))
    # The game in progress and this round's finished ones, in one query (round_id
    # None matches no finished game).
    games = Game.objects.raw(_GAMES_SQL, [table_id, GameState.PLAYING.value, round_id])
    game = None
    finished = []
    # The last of them that anyone played in: between rounds the phone's "last game"
    # (the round's end may have cut a game just dealt, which nobody touched).
    played = None
    latest = None  # the round's latest finished game's row
    for g in games:
        if g.state == GameState.PLAYING:
            game = game or g
        elif g.round_id == round_id:
            latest = latest or g
            finished.append(
                (
                    g.number,
                    g.state,
                    g.players,
                    g.winners,
                    g.cut_by,
                    g.scores,
                    g.ended_by,
                    # When it was cut (who watched it: _watched_end); None for a game
                    # that ended, as a process following the moves writes it too.
                    g.finished_at if g.state == GameState.CUT else None,
                )
            )
            if played is None and g.seq > 0:
                played = finished[-1]
    names = {p.pk: p.name for p in seated}
    wanted = (
        set(game.players if game else [])
        | set(finished[0][2] if finished else [])
        | set(played[2] if played else [])
    )
    missing = wanted - names.keys()
    if missing:  # someone who left the table mid-game or since the last game
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    state = gamestate.load_state(game) if game is not None else None
    wins: dict[int, int] = {}
    for finished_game in finished:
        for pid in finished_game[3]:
            wins[pid] = wins.get(pid, 0) + 1
    return {
        "table": table,
        "version": table.version,
        "wversion": table.wversion,
        "round_id": round_id,
        "seated": {p.pk: p for p in seated},
        "neighbours": [
            {
                "id": p.pk,
                "name": p.name,
                "is_bot": p.is_bot,
                "connected": p.connected,
                # A student who left, a bot playing on in their seat (leave policy "bot").
                "left": p.has_left and not p.is_bot,
            }
            for p in seated
        ],
        "game": game,
        "state": state,
        "previous": finished[0] if finished else None,
        "previous_state": _previous_state(latest, game, state),
        "played": played,
        "names": names,
        "wins": wins,
    }


def _previous_state(latest, game, state):
    """The engine state a Five Tricks, 7Up or All Fives game ended in (its kind's
    keeps_final_state), while its last trick may still be shown (previous_trick,
    unheard_end): until the next game's first trick is taken. None for a game cut
    short (its last trick taken was shown while it was played, and the trick in
    progress was never taken) and for the other kinds.
    Loaded only then: a game with tricks taken needs no other game's state."""
    if latest is None or latest.state != GameState.OVER:
        return None
    if not gamestate.kind_of(latest).keeps_final_state:
        return None
    if state is not None and gamestate.kind_of(game).first_trick_taken(state):
        return None
    return gamestate.load_state(latest)


def _last_games_end(player: Player, previous: tuple, final, state, names: dict, kind) -> dict:
    """What the last move of the game before this one did, on the screen of one of its
    players (`final`: the state that game ended in), while the game now played
    (`state`; None: none yet) has no trick taken: that move ended the game and the
    phone went on at once, so it was never shown nor said. Also while no game follows
    it: the screen between a game's end and the next deal, where a socket following
    the moves shows it first. For its players only: its cards were played face up to
    them. The screen's `previous_trick` (Five Tricks) or `unheard_end` (the kind's
    own: 7Up's last trick and last deal's score, All Fives' last hand's last trick and
    score); empty when there is none."""
    if final is None or previous is None:
        return {}
    if state is not None and kind.first_trick_taken(state):
        return {}
    number, _state, players, *_ = previous
    if player.pk not in players:
        return {}
    seat = players.index(player.pk)
    if kind.records_tricks:
        return {"previous_trick": _previous_trick(final, seat, number, players, names)}
    seat_names = [names.get(pid, "?") for pid in players]
    end = kind.unheard_end(final, seat, names=seat_names)
    return {"unheard_end": end and {**end, "game": number}}


def _previous_trick(
    final, seat: int | None, number: int, players: list, names: dict
) -> dict | None:
    """A Five Tricks game's last trick (game `number`, `final` the state it ended in)
    from `seat`'s view, in the shape and words of game_screen's `last_trick`, with the
    game's number and the trick's: its claim ended the game and dealt the next at once,
    so who took it, and how a dispute on it ended, was never shown nor said (each
    other trick is, on the screens after it, until the next one is taken). `seat`
    None: for a student who watched the game, from what anyone at the table saw (its
    cards face up, who took it), nobody "you"."""
    if not final.completed:
        return None
    if seat is None:
        t = final.completed[-1]
        last = {"winner": t.winner, "cards": t.cards}
    else:
        last = five_tricks.view(final, seat)["tricks"][-1]

    def name(s: int) -> str:
        return names.get(players[s], "?")

    return {
        "game": number,
        "trick": len(final.completed),
        "winner": name(last["winner"]),
        "winner_is_me": last["winner"] == seat,
        "cards": [{"name": name(s), "card": c, "me": s == seat} for s, c in last["cards"]],
        "how": _settled(final.completed[-1]),
        "claimed": _claimed(last),
    }


def compose_screen(player: Player, wpart: dict, tpart: dict | None, now=None) -> dict:
    """One seat's screen from the shared parts: no database access.

    `player` is the player's row (its `table_id` says which table part applies;
    a `tpart` for another table is ignored).
    """
    now = now or timezone.now()
    workshop = wpart["workshop"]
    rnd = wpart["round"]
    if tpart is not None and tpart["table"].pk != player.table_id:
        tpart = None
    table = tpart["table"] if tpart else None
    ctx = {
        "player": player,
        "workshop": workshop,
        "phase": workshop.phase,
        "phase_label": Phase(workshop.phase).label,
        "round": round_clock(rnd, now),
        "paused": bool(rnd and rnd.state == RoundState.PAUSED),
        "silent": workshop.phase in SILENT_PHASES,
        "can_gesture": table is not None and workshop.phase in PLAY_PHASES,
        "table": table,
        "version": table.version if table else 0,
        "wversion": workshop.version,
        "sheet": kinds.get(workshop.game).sheet(player.rules, mode=workshop.mode)
        if player.rules
        and (
            workshop.phase == Phase.STUDY
            or (player.rules_unread and workshop.phase in SILENT_PHASES)
        )
        else None,
        # Joined after the study phase: the sheet stays until they have read it.
        "sheet_late": workshop.phase != Phase.STUDY,
        "neighbours": [],
        "game": None,
        "last_game": None,
        # Moved here by the movement before this round: the phone says so all round
        # (a phone asleep between rounds, or a demo's quick start, never saw "Go to").
        "arrived": None,
        # Between rounds: games won this round, where the movement sends them, or (not
        # in the round's standings: joined since) the table they play at next.
        "games_won": None,
        "moved": None,
        "joined_since": None,
        "dealt_in": None,
        "watched_end": None,
        "previous_trick": None,
        "unheard_end": None,
    }
    arrived = (wpart.get("arrivals") or {}).get(player.pk)
    if (
        arrived
        and table is not None
        and workshop.phase == Phase.ROUND
        and arrived[1] == table.number
    ):
        ctx["arrived"] = {"from": arrived[0], "to": arrived[1]}
    if tpart is None:
        return ctx
    ctx["neighbours"] = list(tpart["neighbours"])
    if workshop.phase == Phase.DEBRIEF:
        # Nobody plays at a table any more: the screen sends them to the facilitator,
        # without the last game's line nor a watched game's end (the report has them).
        return ctx
    game = tpart["game"]
    if game is not None and player.pk in game.players:
        # Paused, the claim's time limit stands still (resuming moves it on by the
        # pause): what was left when the round was paused.
        at = rnd.paused_at if ctx["paused"] and rnd.paused_at is not None else now
        ctx["game"] = game_screen(game, player, at, state=tpart["state"], names=tpart["names"])
    elif game is not None:
        ctx["waiting_for_next_game"] = True
        ctx["watching"] = watching(game, tpart["state"], tpart["names"])
    elif workshop.phase in PLAY_PHASES and len(tpart["seated"]) < (
        fewest := kinds.get(workshop.game).min_seats
    ):
        # Nobody deals to a table this small: say so, not an empty table all round.
        ctx["too_few"] = fewest
    previous = tpart["previous"] if rnd is not None and tpart["round_id"] == rnd.pk else None
    if previous is not None and ctx["game"] is not None and player.pk not in previous[2]:
        # Seated during the last game here (they watched it) or since: this game is
        # their first at the table, and the phone says so (a screen reader heard only
        # "Ana leads." as the game they watched gave way to their own), with how the
        # game they watched ended in its players' words: the watcher saw every trick,
        # then heard only "Game 3 is over" while its players' phones named its winner.
        ctx["dealt_in"] = {
            "after": previous[0],
            "number": game.number,
            "ended": _ended(previous, tpart, kinds.get(workshop.game)),
        }
        # Five Tricks: the last trick of the game they watched, as its players hear it
        # (the claim on it ended the game and dealt them in at once: they heard every
        # other trick taken, not that one), until their game's first trick is taken.
        final = tpart.get("previous_state")
        if final is not None and kinds.get(workshop.game).records_tricks:
            ctx["previous_trick"] = _previous_trick(
                final, None, previous[0], previous[2], tpart["names"]
            )
    if previous is not None and workshop.phase in PLAY_PHASES and "watching" not in ctx:
        ctx.update(
            _last_games_end(
                player,
                previous,
                tpart.get("previous_state"),
                tpart["state"],
                tpart["names"],
                kinds.get(workshop.game),
            )
        )
    if previous is not None and ctx["game"] is None:
        ctx["watched_end"] = _watched_end(
            player, previous, tpart, rnd, table, kinds.get(workshop.game)
        )
    if previous is not None and workshop.phase not in PLAY_PHASES:
        # The round is over: a game dealt and cut before anyone played is not "the last
        # game" ("cut short: no winner yet"); the last one anyone played in is, if any.
        previous = tpart["played"]
    if previous is not None and player.pk in previous[2]:
        _number, _state, players, winners, _cut_by, scores, _ended_by, _at = previous
        names = tpart["names"]
        kind = kinds.get(workshop.game)

        def said(pid: int) -> str:  # the player is "you" on their own phone
            return "you" if pid == player.pk else names.get(pid, "?")

        ctx["last_game"] = {
            **_ended(previous, tpart, kind),
            # Said to the player as "you": "won by Ben and you", not their own name.
            "winners_words": [said(pid) for pid in winners],
            "i_won": player.pk in winners,
            # Each player's score in it (heard with the result: the next game's screen
            # has the new game's), in seat order, under the kind's name for it.
            "scores": [
                {"who": said(pid), "score": score}
                for pid, score in zip(players, scores or [], strict=False)
            ],
            "score_label": kind.score_label,
        }
    if rnd is not None:
        ctx["games_won"] = tpart["wins"].get(player.pk, 0) if tpart["round_id"] == rnd.pk else 0
    _between_rounds(ctx, player, workshop, rnd, table)
    return ctx


def _ended(previous: tuple, tpart: dict, kind) -> dict:
    """How a finished game ended, as anyone at its table saw it (the words of its
    players' "Last game" line and of its watcher's "Game 3 is over"): its winners, a
    draw, cut short (and who left), and how (3 Tricks). Never its scores: 7Up's are on
    a sheet only its players see."""
    number, state, players, winners, cut_by, _scores, ended_by, _at = previous
    names = tpart["names"]
    return {
        "number": number,
        "winners": [names.get(pid, "?") for pid in winners],
        "cut": state == GameState.CUT,
        # Cut when a player left (leave policy "skip"): who, those of its players no
        # longer at the table (the round's end cut the others).
        "left": [names.get(pid, "?") for pid in players if pid not in tpart["seated"]]
        if cut_by == CutBy.PLAYER_LEFT
        else None,
        "draw": kind.drawn(players, winners),
        # How it ended, where the kind has more than one way (3 Tricks).
        "how": kind.how_it_ended(ended_by, winners) if state != GameState.CUT else "",
    }


def _watched_end(player: Player, previous: tuple, tpart: dict, rnd, table, kind) -> dict | None:
    """How the game a student watched ended, when no game of theirs followed: the
    watching section went, and only "Round over" (or "Time is up") was heard, or, cut
    when a player left and no game could be dealt after it (the round paused, or too
    few left), nothing at all. For whoever sat at the table when it was cut and was not
    in the game; in the words of its players' own last-game line (`_ended`: a tie of all
    is "a draw" there, so here too; "cut short when Bea left"), without its scores
    (7Up's are on a sheet a watcher does not see)."""
    _number, _state, players, _winners, cut_by, _scores, _ended_by, cut_at = previous
    if player.pk in players:
        return None
    if cut_by not in (CutBy.ROUND_END, CutBy.PLAYER_LEFT):
        return None
    if cut_by == CutBy.ROUND_END and rnd.state != RoundState.FINISHED:
        return None
    if rnd.state == RoundState.FINISHED:
        # Sat here when the round ended (its standings): not brought by the movement
        # since, nor joined since.
        mine = _standing(rnd, player)
        if mine is None or mine["table"] != table.number:
            return None  # came to this table since
    if cut_by == CutBy.PLAYER_LEFT:
        row = tpart["seated"].get(player.pk)
        if row is None or cut_at is None or not _seated_before(row, cut_at):
            return None  # came to this table since
    return _ended(previous, tpart, kind)


def _standing(rnd, player: Player) -> dict | None:
    """The player's row in the round's standings (stored when it ended), if any."""
    return next((r for r in (rnd.standings or {}).get("players", []) if r["id"] == player.pk), None)


def _seated_before(row: Player, at) -> bool:
    """Whether a player now at a table sat there already at `at` (within the round).

    In a round a player comes to a table only by joining (seated as the row is made)
    or by coming back with their PIN after their seat was skipped (seated as the
    absence's "back" is written); both take the workshop's lock, as a player's leaving
    does, so either happened wholly before a cut by a leave or wholly after it. The
    latest of those times is when they sat down. A player back after leaving while a
    bot played their seat kept it: they count from their return, which may leave out
    one who watched (nothing said, as before) but never names a game to a newcomer."""
    since = row.created_at
    for away in row.absences or []:
        back = parse_datetime(away.get("back") or "")
        if back is not None and back > since:
            since = back
    return since <= at


def _between_rounds(ctx: dict, player: Player, workshop, rnd, table) -> None:
    """Between rounds the round's standings (stored when it ended) say what the player
    won wherever they played, and, once the movement is applied, where they sit now:
    the table's own games no longer include theirs after a move."""
    if workshop.phase != Phase.BETWEEN or rnd is None or not rnd.standings:
        return
    mine = _standing(rnd, player)
    if mine is None:
        # Joined after the round: they won nothing in it and the movement leaves them be.
        ctx["games_won"] = None
        ctx["joined_since"] = table.number if table is not None else None
        return
    ctx["games_won"] = mine["games_won"]
    if rnd.movement_applied_at is not None and table is not None:
        ctx["moved"] = {
            "from": mine["table"],
            "to": table.number,
            # Who sits there now, in seat order: a student looks for faces, not only
            # for a table's number.
            # A student who left is named with the bot that plays their seat: the
            # table read "With you: Bot E, Chloé and Bot I", Chloé gone.
            "with": [
                f"{n['name']} {names.LEFT_BOT_SEAT}" if n.get("left") else n["name"]
                for n in ctx["neighbours"]
                if n["id"] != player.pk
            ],
        }


# What the seat awaited is doing, where a game's step is not a card to play.
WATCHING_DOING = {"bid": "to bid", "beg": "to stand or beg", "dealer": "to answer the beg"}


def watching(game, state, names: dict) -> dict:
    """What a student seated during a game sees of it until the next deal: what anyone
    at the table sees, the cards face up in the middle and who is to act, from the
    facilitator's monitor's glance (never a hand). Their phone had said only "You play
    from the next game": at the table, nothing tied them to the game being played.
    `last`: the table's latest public event, shown (and said) while the middle is
    empty: who took the trick just played, or (3 Tricks, nothing in the middle) the
    last move; a screen reader heard nothing of the game going on. `new_hand`, in its
    place from a hand's (deal's) end to the next one's first card: how it ended and
    what began (the kind's `new_hand`); the lines had gone from the last hand's
    next-to-last trick to "Ana to stand or beg", its trick count restarting unsaid.
    `call`: beside `last`, All Fives' latest revoke call on that trick and its verdict
    (a point lost went unseen and unsaid). `dispute`: Five Tricks' claims differ (the
    watcher heard "the players say who won", then who took the trick, and nothing of
    the table arguing in silence); `last`'s `how` then says how the trick was settled,
    "timeout" (time ran out, as the players' phones say of any trick so settled) or
    "agreed" (after a dispute). Never a seat's claim. `bids`: 7Up7Down's bids of the
    deal in play, public at the table (every seat's phone shows them as made).
    From the table's cached part (`state`): no query."""
    from tournament.selectors_facilitator import _game_glance, spectator

    glance = _game_glance(game, names, False, state=state)
    kind = gamestate.kind_of(game)
    seat_names = [names.get(pid, "?") for pid in game.players]
    view = {}
    # `taken`: how many tricks are done; `final`: the last of them ({"winner", "how"}).
    if kind.records_tricks:
        taken, final = len(state.completed), None
        if taken:  # only the last trick is shown, so only its settling is worked out
            t = state.completed[-1]
            final = {"winner": t.winner, "how": _settled(t)}
        last_move = None
    else:
        view = spectator(kind, state, seat_names)
        tricks = view.get("tricks") or []
        taken, final = len(tricks), (tricks[-1] if tricks else None)
        last_move = view.get("last")
    new_hand = None if glance["current"] else kind.new_hand(state, names=seat_names)
    last = None
    if final and final.get("winner") is not None:
        last = {
            "trick": taken,
            "who": seat_names[final["winner"]],
            "how": final.get("how"),
        }
    elif last_move and (words := _move_words(last_move)):
        last = {"who": seat_names[last_move["seat"]], "did": words}
    # All Fives: a revoke called on the trick just taken (until the next lead), the
    # latest one, with its verdict: public at the table (the players' list of calls).
    calls = view.get("calls") or []
    on_last = [i for i, c in enumerate(calls) if c["trick"] == taken - 1]
    call = None
    if on_last and last is not None and not glance["current"] and new_hand is None:
        # In the players' words ("upheld, Bea loses 3 points and cannot win …").
        call = call_said(
            calls,
            on_last[-1],
            seat_names,
            penalty=view["config"]["revoke_penalty"],
            style=view["config"]["revoke_style"],
        )
    claiming = glance["records_tricks"] and glance["phase"] == "claim"
    return {
        "number": glance["number"],
        "current": glance["current"],
        "to_act": glance["to_act"],
        "doing": WATCHING_DOING.get(str(getattr(state, "phase", "")), "to play"),
        "claiming": claiming,
        "dispute": claiming and bool(glance["dispute"]),
        "last": last,
        "new_hand": new_hand,
        "call": call,
        # 7Up7Down: the deal's bids, shown and (the latest) said as each is made; the
        # watcher heard "Ana to bid", "Bea to bid", never what Ana bid.
        "bids": kind.bids(state, names=seat_names),
    }


def _settled(trick) -> str | None:
    """How a Five Tricks trick was settled, where its players' phones (game_screen's
    last trick) and its watchers' (watching's last line) say so: "timeout" (the time
    limit decided, a dispute or claims not all in), "agreed" (a dispute the players
    ended by changing claims); None when claimed alike at once, or refereed."""
    if trick.resolution == "timeout":
        return "timeout"
    if trick.resolution == "unanimous" and trick.disputed:
        return "agreed"
    return None


def _claimed(trick: dict) -> dict | None:
    """How many seats claimed a trick's winner when its dispute's time ran out (the
    seat's view of the trick: its claims, public once disputed, else None): `n` of
    `of`, `tie` when another seat was claimed as often (the leader's side won it).
    None for any other trick: claimed alike, or its claims never shown."""
    claims = trick.get("claims")
    if not claims or trick.get("resolution") != "timeout":
        return None
    n = claims.count(trick["winner"])
    tie = any(claims.count(c) == n for c in set(claims) - {trick["winner"], None})
    return {"n": n, "of": len(claims), "tie": tie}


def _move_words(last: dict) -> str | None:
    """A 3 Tricks move, after its player's name, in the words its opponent's screen
    uses, without the cards a swap took (only their count is public)."""
    if last["type"] == "lay":
        return "laid a trick"
    if last["type"] == "block":
        n = last.get("tricks_blocked") or 1
        return "blocked a trick" if n == 1 else f"blocked {n} tricks"
    if last["type"] == "swap":
        n = last.get("count") or 0
        return f"swapped {n} card{'' if n == 1 else 's'}"
    if last["type"] == "pass":
        return "passed"
    return None


def game_screen(game: Game, player: Player, now, *, state=None, names=None) -> dict:
    """One seat's view of a game, with seats turned into names.

    `state` and `names` (player id → name) may come from a table part; without
    them they are read here.
    """
    state = state if state is not None else gamestate.load_state(game)
    seat = game.players.index(player.pk)
    if names is None:
        names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    kind = gamestate.kind_of(game)
    if not kind.records_tricks:
        return {
            "id": game.pk,
            "number": game.number,
            "kind": kind.key,
            "template": kind.template,
            # Each seat's player (the kinds' screens name seats only): a seat a bot
            # plays for a student who left says so on its line (play/_screen.html).
            "player_ids": list(game.players),
            **kind.screen(state, seat, names=[names.get(pid, "?") for pid in game.players]),
        }
    v = five_tricks.view(state, seat)
    seats = []
    for s, pid in enumerate(game.players):
        seats.append(
            {
                "seat": s,
                "id": pid,
                "name": names.get(pid, "?"),
                "me": s == seat,
                "count": v["hand_counts"][s],
                "tricks": v["tricks_won"][s],
                "turn": v["to_act"] == s,
                "claimed": v["claimed"][s],
                "claim": v["claims"][s] if v["claims"] else None,
                "claim_name": None
                if not v["claims"] or v["claims"][s] is None
                else "you"
                if v["claims"][s] == seat
                else names.get(game.players[v["claims"][s]]),
            }
        )
    my_claim = game.players[v["my_claim"]] if v["my_claim"] is not None else None

    def with_names(cards):
        return [
            {
                "seat": s,
                "id": game.players[s],
                "name": seats[s]["name"],
                # Under a card and in its label: the phone's own card is "you".
                "by": "you" if s == seat else seats[s]["name"],
                "card": c,
                "me": s == seat,
                "my_claim": game.players[s] == my_claim,
            }
            for s, c in cards
        ]

    legal = set(v["legal"])
    deadline = None
    if game.claim_deadline is not None and v["phase"] == "claim":
        deadline = timing.remaining(game.claim_deadline, now)
    last = v["tricks"][-1] if v["tricks"] else None
    return {
        "id": game.pk,
        "number": game.number,
        "mode": v["mode"],
        "phase": v["phase"],
        "my_turn": v["to_act"] == seat,
        "to_act_name": seats[v["to_act"]]["name"] if v["to_act"] is not None else None,
        "hand": [{"card": c, "legal": c in legal} for c in v["hand"]],
        "current": with_names(v["current"]),
        "seats": seats,
        "me": seats[seat],
        "suggested_claim": game.players[v["suggested_claim"]]
        if v["suggested_claim"] is not None
        else None,
        "my_claim": my_claim,
        "my_claim_name": names.get(my_claim),
        "my_claim_is_me": my_claim is not None and my_claim == game.players[seat],
        "suggested_name": names.get(game.players[v["suggested_claim"]])
        if v["suggested_claim"] is not None
        else None,
        "suggested_is_me": v["suggested_claim"] == seat,
        "dispute": v["dispute"],
        "claim_seconds": deadline,
        "claim_deadline_ms": timing.epoch_ms(game.claim_deadline) if deadline is not None else None,
        "last_trick": {
            "cards": with_names(last["cards"]),
            "winner": seats[last["winner"]]["name"],
            "winner_is_me": last["winner"] == seat,
            # How it was settled, in the watchers' words (`_settled`): "timeout" (not
            # agreed: the time limit decided) or "agreed" (a dispute the players ended
            # by agreeing, which had vanished from their own phones unsaid).
            "how": _settled(state.completed[-1]),
            # After a dispute the time limit decided: how many claimed the winner.
            "claimed": _claimed(last),
        }
        if last
        else None,
        "tricks_played": len(v["tricks"]),
    }


def open_dispute_count(workshop_id: int) -> int:
    return Dispute.objects.filter(
        game__table__workshop_id=workshop_id, resolved_at__isnull=True
    ).count()
