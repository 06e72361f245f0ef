"""Reads for the facilitator's screens: control panel, live monitor, one table, projector.

Three audiences, three levels of secrecy:
- `panel` and `monitor` are for the facilitator's own screen: sheets and
  standings, but only the cards already on the table.
- `table_detail` is the facilitator's click-through: every hand, every sheet
  (the engine's spectator view).
- `projector` is shown to the whole room: names, counts, phase and clock only.
  It never reads a table's rules, preset, game log or hand, so nothing secret can
  reach its template or its websocket messages.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from games import all_fives, five_tricks, kinds, seven_up, three_tricks
from games.cards import SUIT_NAMES, is_card
from games.kinds.five_tricks import KNOB_LABELS  # noqa: F401  (re-exported: older imports)
from games.presets import PRESET_TITLES, PRESETS
from tournament import gamestate, movement, names
from tournament.models import (
    Dispute,
    Game,
    GameState,
    LeavePolicy,
    Movement,
    Phase,
    Player,
    Round,
    RoundKind,
    RoundState,
    Table,
    Workshop,
)
from tournament.selectors import round_clock
from tournament.templatetags.cards import card_face, card_name
from tournament.templatetags.facilitator import dot, say_now

FIVE_TRICKS = "five_tricks"
# A roster longer than this is folded once play begins.
ROSTER_UNFOLDED = 60
# Up to this many tables a player's table is chosen from a list; past it, typed.
TABLES_TO_PICK = 12
# The status line of disputes names this many tables, then says how many more.
DISPUTES_NAMED = 8
# The status line of tables waiting for a phone names this many, then says how many
# more: naming all 40 (about 6 kB) went out with every pause, resume and +1 minute.
WAITING_NAMED = 5
# Past this many tables the monitor offers "Show only tables in dispute": 40 tables
# with 31 in dispute were cards over five screens (on a phone, a card is a third of one).
DISPUTES_ONLY_PAST = 6
# The engines' spectator views, for a kind that does not give its own `spectator`.
ENGINE_SPECTATOR = {
    "five_tricks": five_tricks.spectator_view,
    "seven_up": seven_up.spectator_view,
    "all_fives": all_fives.spectator_view,
    "three_tricks": three_tricks.spectator_view,
}


def own_workshop(workshop_id: int, user) -> Workshop | None:
    """The workshop if `user` facilitates it; None for anyone else's (and for anonymous users)."""
    if user is None or not user.is_authenticated:
        return None
    return Workshop.objects.filter(pk=workshop_id, facilitator=user).first()


def workshops_of(user) -> list[dict]:
    """The facilitator's workshops, newest first, each with its game and the people
    still in it (one query, however many workshops)."""
    here = Count("players", filter=Q(players__is_bot=False, players__has_left=False))
    return [
        {
            "workshop": w,
            "phase_label": Phase(w.phase).label,
            "game_title": kinds.TITLES.get(w.game, w.game),
            "players": w.people,
        }
        for w in Workshop.objects.filter(facilitator=user)
        .annotate(people=here)
        .order_by("-created_at")
    ]


def kind_of(workshop: Workshop) -> kinds.GameKind:
    return kinds.get(workshop.game)


def knobs_summary(rules: dict, kind: kinds.GameKind | None = None) -> str:
    """ "Ace high, highest wins, spades trump, trump only when void" — for the facilitator."""
    return (kind or kinds.get(FIVE_TRICKS)).summary(rules)


def sheet_title(table: Table, kind: kinds.GameKind | None = None) -> str:
    titles = (kind or kinds.get(FIVE_TRICKS)).preset_titles
    return titles.get(table.preset, "Custom sheet")


def _clock(rnd: Round | None, now) -> dict | None:
    clock = round_clock(rnd, now)
    if clock is not None:
        clock["running"] = rnd.state == RoundState.RUNNING
        clock["paused"] = rnd.state == RoundState.PAUSED
        clock["finished"] = rnd.state == RoundState.FINISHED
        # A running clock's seconds change every second, its deadline only when the
        # facilitator pauses, resumes or adds time (see regions.settled). In ms since
        # the epoch: the page counts to it (live.js).
        clock["deadline"] = clock["deadline_ms"] if clock["running"] and rnd.deadline else ""
    return clock


def remove_then(workshop: Workshop, *, is_bot: bool = False) -> str:
    """What Remove does to the seat after the lobby (the set-up's leave policy; a bot's
    seat goes), asked in its confirmation; "" in the lobby. What it did is `removed_then`."""
    if workshop.phase == Phase.LOBBY:
        return ""
    if workshop.leave_policy_for(is_bot=is_bot) == LeavePolicy.BOT:
        return " A bot will play their seat."
    return (
        " Their seat goes: a game in progress at their table is dealt again without"
        " them, if enough players are left."
    )


def remove_leaves_short(workshop: Workshop, rnd: Round | None, counts: dict[int, int]) -> dict:
    """{player id: words} for each player whose removal (the seat skipped, in a round)
    would cut their table's game and leave too few there to deal another: said in
    Remove's confirmation, before it, as `removed_then` says it after. `counts`: the
    players seated per table's pk. The confirmation had said the game is dealt again
    "if enough players are left", without saying whether they would be."""
    if rnd is None or rnd.state not in (RoundState.RUNNING, RoundState.PAUSED):
        return {}
    # Whose seat goes: everyone's, or (a bot playing a person's seat) the bots' only.
    skipped = (
        None
        if workshop.leave_policy == LeavePolicy.SKIP
        else set(workshop.players.filter(is_bot=True).values_list("pk", flat=True))
    )
    if skipped is not None and not skipped:
        return {}
    kind = kind_of(workshop)
    out = {}
    for table_id, number, players in Game.objects.filter(
        round=rnd, state=GameState.PLAYING
    ).values_list("table_id", "table__number", "players"):
        left = counts.get(table_id, 0) - 1
        if kind.short_of_game(left):
            words = _too_few(kind, number, left, would=True)
            out.update({p: words for p in players if skipped is None or p in skipped})
    return out


def _too_few(kind: kinds.GameKind, number: int, left: int, *, would: bool) -> str:
    waiting = "the player left there waits" if left == 1 else f"the {left} left there wait"
    return (
        f" Table {number} {'would have' if would else 'has'} too few players for a game of"
        f" {kind.title} (at least {kind.min_seats}): {waiting} until the round ends."
    )


def in_game_now(player: Player) -> bool:
    """Whether `player` plays in the game in progress at their table (read before a
    removal: skipping their seat cuts that game, and only then deals again)."""
    from tournament.services.play import current_game

    if player.table_id is None:
        return False
    game = current_game(player.table)
    return game is not None and player.pk in game.players


def removed_then(
    workshop: Workshop, table_id: int | None, *, in_game: bool, is_bot: bool = False
) -> str:
    """What Remove did to the seat at table `table_id` (the player's, read before, and
    `in_game`: whether they played in its game in progress), as its answer says it:
    read after it, so that it says what happened. Skipping a seat cuts that game and
    deals again only to a table left with enough players, and in a running round (a
    paused one deals on Resume); the answer had said it was dealt again when a player
    was left alone, waiting, until the round's end."""
    if workshop.phase == Phase.LOBBY:
        return ""
    if workshop.leave_policy_for(is_bot=is_bot) == LeavePolicy.BOT:
        return " A bot plays their seat."
    if table_id is None or not in_game:
        return " Their seat went."
    table = Table.objects.get(pk=table_id)
    rnd = Round.objects.filter(workshop=workshop).order_by("-number").first()
    if rnd is None or rnd.state not in (RoundState.RUNNING, RoundState.PAUSED):
        return " Their seat went."
    kind = kind_of(workshop)
    left = Player.objects.filter(table_id=table_id).count()
    if Game.objects.filter(table_id=table_id, round=rnd, state=GameState.PLAYING).exists():
        return f" Their seat went: table {table.number}'s game was dealt again without them."
    if kind.short_of_game(left):
        return " Their seat went." + _too_few(kind, table.number, left, would=False)
    if rnd.state == RoundState.PAUSED:
        return f" Their seat went: table {table.number} is dealt a new game when the round resumes."
    return f" Their seat went: table {table.number}'s game was cut short."


def _fresh_with_round(workshop: Workshop) -> Round | None:
    """Refresh `workshop` and return its latest round, read in one query: a phase
    change commits together with its round, and two reads on either side of that
    commit would pair the new round with the old phase (a lobby showing a clock)."""
    rnd = (
        Round.objects.select_related("workshop")
        .filter(workshop_id=workshop.pk)
        .order_by("-number")
        .first()
    )
    if rnd is None:
        workshop.refresh_from_db()
        return None
    for field in Workshop._meta.concrete_fields:
        setattr(workshop, field.attname, getattr(rnd.workshop, field.attname))
    rnd.workshop = workshop
    return rnd


def _controls(workshop: Workshop, rnd: Round | None, humans: int) -> dict:
    """Which buttons make sense now. The services refuse the rest anyway."""
    phase = workshop.phase
    live = rnd is not None and rnd.state != RoundState.FINISHED
    last_scored_unapplied = (
        rnd is not None
        and rnd.kind == RoundKind.SCORED
        and rnd.state == RoundState.FINISHED
        and rnd.movement_applied_at is None
    )
    return {
        "seat": phase == Phase.LOBBY,
        "bots": phase == Phase.LOBBY and workshop.bots_enabled,
        "start_study": phase == Phase.LOBBY and humans > 0,
        "start_home": phase == Phase.STUDY,
        "start_round": phase == Phase.HOME
        or (phase == Phase.BETWEEN and not last_scored_unapplied),
        "pause": live and rnd.state == RoundState.RUNNING,
        "resume": live and rnd.state == RoundState.PAUSED,
        "extend": live,
        "end_now": live,
        "debrief": phase in (Phase.STUDY, Phase.HOME, Phase.ROUND, Phase.BETWEEN),
        "movement": phase == Phase.BETWEEN and last_scored_unapplied,
    }


def _next_round_label(workshop: Workshop) -> str:
    done = Round.objects.filter(workshop=workshop, kind=RoundKind.SCORED).count()
    return f"Start round {done + 1}"


def panel_say(workshop: Workshop, now=None) -> str:
    """What the panel's status region would have a screen reader say now (its
    data-say), without drawing the panel: a control's answer carries it, so the change
    the control made is not said again when the socket brings the region."""
    rnd = _fresh_with_round(workshop)
    return say_now(Phase(workshop.phase).label, _clock(rnd, now or timezone.now()), workshop.phase)


def _same_rules(tables: list[Table]) -> dict[int, list[int]]:
    """For each table's pk, the numbers of the other tables that play its very rules
    (grouped by their written form: comparing every pair was 37 ms at 200 tables)."""
    groups = defaultdict(list)
    for t in tables:
        groups[json.dumps(t.rules, sort_keys=True)].append(t)
    return {
        t.pk: [u.number for u in group if u.pk != t.pk] for group in groups.values() for t in group
    }


def panel(workshop: Workshop, now=None, *, roster: bool = True) -> dict:
    """The control panel: status and controls, roster, seating, movement, monitor.

    `roster=False` leaves out the roster's rows (its players, read and built: half of
    a redraw at 1,000 players), for a push that does not draw the roster region."""
    now = now or timezone.now()
    rnd = _fresh_with_round(workshop)
    tables = list(workshop.tables.all())
    tally = workshop.players.aggregate(
        humans=Count("pk", filter=Q(is_bot=False, has_left=False)),
        # Left with a bot playing their seat: still in the roster, not in the count.
        left_seated=Count("pk", filter=Q(is_bot=False, has_left=True, table__isnull=False)),
        bots=Count("pk", filter=Q(is_bot=True, has_left=False)),  # (a removed bot is gone)
    )
    humans = tally["humans"]
    counts = dict(
        workshop.players.filter(table__isnull=False)
        .order_by()
        .values_list("table_id")
        .annotate(n=Count("pk"))
    )
    same_as = _same_rules(tables)
    kind = kind_of(workshop)
    if roster:
        players = list(
            workshop.players.select_related("table", "home_table").order_by("join_order")
        )
        rows = {
            "roster": (listed := [p for p in players if not (p.has_left and p.table_id is None)]),
            # A conference's roster, once play begins, is folded: metres of rows otherwise.
            "roster_folded": len(listed) > ROSTER_UNFOLDED and workshop.phase != Phase.LOBBY,
            "left": [p for p in players if p.has_left and p.table_id is None],
            "unseated": [p.name for p in players if p.table_id is None and not p.has_left],
            "remove_leaves_short": remove_leaves_short(workshop, rnd, counts),
        }
    else:
        rows = {}
    ctx = {
        "workshop": workshop,
        "game_title": kind.title,
        "per_seat_rules": kind.per_seat_rules,
        "claims": kind.records_tricks,  # players claim trick winners (and dispute them)
        "phase": workshop.phase,
        "phase_label": Phase(workshop.phase).label,
        "round": _clock(rnd, now),
        "controls": _controls(workshop, rnd, humans),
        "next_round_label": _next_round_label(workshop),
        **rows,
        # What Remove does after the lobby (the set-up's leave policy), said in its
        # confirmation.
        "remove_then": remove_then(workshop),
        "remove_then_bot": remove_then(workshop, is_bot=True),
        "humans": humans,
        "bots": tally["bots"],
        "left_seated": tally["left_seated"],
        "tables": [
            {
                "number": t.number,
                "count": counts.get(t.pk, 0),
                "seats": workshop.seats_per_table,
                "sheet": sheet_title(t, kind),
                "knobs": knobs_summary(t.rules, kind),
                # Chosen by hand, two tables may play one sheet: their players never
                # meet other rules there, which the set-up's warning said only once.
                "same_as": same_as[t.pk],
            }
            for t in tables
        ],
        "table_numbers": [t.number for t in tables],
        # A table for each player is typed as a number past TABLES_TO_PICK tables: a
        # list of every table in every row was 7.8 MB of the panel at 1,000 players
        # (200 tables), 3.5 s to draw and a page the browser could hardly hold.
        "tables_typed": len(tables) > TABLES_TO_PICK,
        # Once the debrief began, a movement never applied is gone: nothing to apply.
        "movement": movement_preview(workshop, rnd, [t.number for t in tables])
        if rnd is not None and (workshop.phase != Phase.DEBRIEF or rnd.movement_applied_at)
        else None,
        "monitor": (tables_now := monitor(workshop, rnd=rnd, now=now)),
        "disputes_now": disputes_now(tables_now),
        "waiting_now": waiting_now(tables_now),
        "disputes_only": len(tables_now) > DISPUTES_ONLY_PAST,
    }
    return ctx


def usual_size(sizes: list[dict]) -> int | None:
    """What most tables of a movement plan will seat (a tie: the larger), among those
    with players, not over-full and not too few to play; None when there is no such
    table. The plan's summary by its top Apply names only the tables that seat
    something else: 200 rows and a 40-table line of sizes are too long to check.
    Mirrored by `usualSize` in static/js/facilitator.js, which redraws the summary as
    the facilitator types (a browser test holds the two to the same words)."""
    counts = Counter(t["count"] for t in sizes if t["count"] and not (t["over"] or t["few"]))
    return max(counts, key=lambda n: (counts[n], n)) if counts else None


def movement_preview(workshop: Workshop, rnd: Round, table_numbers: list[int]) -> dict | None:
    """The last scored round's movement: an editable plan, or what was applied."""
    if rnd.kind != RoundKind.SCORED or rnd.state != RoundState.FINISHED:
        return None
    if rnd.movement_applied_at is not None:
        moves = list(
            Movement.objects.filter(round=rnd)
            .select_related("player")
            .order_by("from_table", "player__join_order")
        )
        kept = rnd.movement_preview.get("kept", [])
        kept_names = dict(
            Player.objects.filter(pk__in=[k["player"] for k in kept]).values_list("pk", "name")
        )
        return {
            "round": rnd,
            "applied": True,
            "moves": [
                {"name": m.player.name, "from": m.from_table, "to": m.to_table, "edited": m.edited}
                for m in moves
            ],
            "kept": [{**k, "name": kept_names.get(k["player"], "?")} for k in kept],
        }
    standings = {row["id"]: row for row in rnd.standings.get("players", [])}
    computed = {m["player"]: m["to"] for m in rnd.movement_preview.get("computed", [])}
    planned = {m["player"]: m for m in rnd.movement_preview.get("moves", [])}
    rows = []
    for p in (
        Player.objects.filter(workshop=workshop, table__isnull=False)
        .select_related("table")
        .order_by("table__number", "join_order")
    ):
        here = p.table.number
        won = standings.get(p.pk, {}).get("games_won", 0)
        move = planned.get(p.pk)
        rows.append(
            {
                "id": p.pk,
                "name": p.name,
                "is_bot": p.is_bot,
                "table": here,
                "games_won": won,
                "computed": computed.get(p.pk, here),
                "to": move["to"] if move else here,
                "edited": bool(move and move.get("edited"))
                or (p.pk in computed and p.pk not in planned),
            }
        )
    # Within a table, in the order the movement rule ranks them (RULES.md §2).
    rows.sort(key=lambda r: (r["table"], -r["games_won"], names.name_key(r["name"])))
    # How many each table will seat with the plan as saved: an edit can overfill one.
    after = defaultdict(int)
    for r in rows:
        after[r["to"]] += 1
    # ...or leave a player alone at a table too small to deal to (they sit a round out).
    kind = kind_of(workshop)
    sizes = [
        {
            "number": n,
            "count": after[n],
            "over": after[n] > workshop.seats_per_table,
            "few": kind.short_of_game(after[n]),
        }
        for n in table_numbers
    ]
    usual = usual_size(sizes)
    odd = [t for t in sizes if t["over"] or t["few"] or t["count"] != usual]
    # A table where nobody won a game (none was finished, or every one was cut) is
    # ranked by name alone: the plan moves its players by the alphabet.
    by_table = defaultdict(list)
    for r in rows:
        by_table[r["table"]].append(r)
    unranked = [
        n
        for n, rs in sorted(by_table.items())
        if len(rs) > 1 and not any(r["games_won"] for r in rs)
    ]
    # What the name decided, as the report marks it after the movement.
    tied = set()
    for rs in by_table.values():
        tied |= movement.decided_by_name({r["id"]: (r["games_won"], r["computed"]) for r in rs})
    for r in rows:
        r["by_name"] = r["id"] in tied
    # Who stays only because no table lies the way their rank sends them (rule 4), over
    # the tables movement ranked (those with players, as services.rounds.compute_preview).
    ranked_at = defaultdict(list)
    for row in rnd.standings.get("players", []):
        ranked_at[row["table"]].append(
            movement.Standing(name=row["name"], games_won=row["games_won"], key=row["id"])
        )
    edge = movement.stays_by_edge(
        [movement.TableStanding(number=n, players=tuple(ps)) for n, ps in ranked_at.items()]
    )
    for r in rows:
        stood = standings.get(r["id"], {}).get("table") == r["table"]
        r["stays_by_edge"] = edge.get(r["id"]) if stood and r["computed"] == r["table"] else None
    return {
        "round": rnd,
        "applied": False,
        "rows": rows,
        "sizes": sizes,
        # The exceptions, for the summary under the top Apply.
        "odd_sizes": odd,
        "usual_size": usual,
        "usual_tables": len(sizes) - len(odd),
        "unranked": unranked,
        "unranked_said": names.said_as_list([str(n) for n in unranked]),
        # Every table that could play: said in a line, not forty numbers in bold.
        "unranked_all": len(unranked) > 1
        and len(unranked) == sum(1 for rs in by_table.values() if len(rs) > 1),
        "seats": workshop.seats_per_table,
        "least": kind.min_seats,
    }


def monitor(workshop: Workshop, *, rnd: Round | None = None, now=None) -> list[dict]:
    """Every table at a glance: who sits there, the cards on the table, tricks,
    games won this round and whether a dispute is open. No hands."""
    if rnd is None:
        rnd = workshop.rounds.order_by("-number").first()
    tables = list(workshop.tables.all())
    # Read as plain values, the columns shown and no more: a player's row holds their
    # sheet and a game's its five seats' sheets, and building 1,000 players and every
    # game of the round as models (their JSON decoded) was most of a panel's redraw
    # while 200 tables played.
    seated = defaultdict(list)
    all_names = {}
    for pk, name, is_bot, has_left, connected, unread, table_id in (
        Player.objects.filter(workshop=workshop)
        .order_by("seat")
        .values_list("pk", "name", "is_bot", "has_left", "connected", "rules_unread", "table_id")
    ):
        all_names[pk] = name
        if table_id is not None:
            seated[table_id].append(
                {
                    "id": pk,
                    "name": name,
                    "is_bot": is_bot,
                    "has_left": has_left,
                    "connected": connected,
                    "reading": unread,
                }
            )
    won: dict[int, int] = defaultdict(int)
    games_done: dict[int, int] = defaultdict(int)
    # Of those, cut short (a player left; between rounds, the round's end too).
    games_cut: dict[int, int] = defaultdict(int)
    playing: dict[int, Game] = {}
    # Once the round's movement is applied its players sit at other tables: its games
    # and wins are no longer the tables' (a card read "Hugo 1 won · 4 games finished"
    # of a table Hugo had just come to). The cards show the new seating alone.
    figures = rnd is not None and not (
        rnd.state == RoundState.FINISHED and rnd.movement_applied_at is not None
    )
    if figures:
        for table_id, state, winners in (
            Game.objects.filter(round=rnd)
            .exclude(state=GameState.PLAYING)
            .values_list("table_id", "state", "winners")
        ):
            games_done[table_id] += 1
            games_cut[table_id] += state == GameState.CUT
            for pid in winners:
                won[pid] += 1
        for game in Game.objects.filter(round=rnd, state=GameState.PLAYING).order_by("number"):
            playing[game.table_id] = game
            for pid in game.winners:
                won[pid] += 1
    # Each open dispute's game and when it opened (the same one query: the status
    # line lists the tables in dispute longest first, from this monitor).
    disputes: dict[int, object] = {}
    for game_id, opened_at in Dispute.objects.filter(
        game__table__workshop=workshop, resolved_at__isnull=True
    ).values_list("game_id", "opened_at"):
        disputes[game_id] = min(disputes.get(game_id, opened_at), opened_at)
    kind = kind_of(workshop)
    in_round = rnd is not None and rnd.state in (RoundState.RUNNING, RoundState.PAUSED)
    out = []
    for table in tables:
        game = playing.get(table.pk)
        glance = _game_glance(game, all_names, game.pk in disputes) if game else None
        tricks = glance["tricks_by_id"] if glance else {}
        scores = glance["scores_by_id"] if glance else {}
        # Whose turn it is while their phone is not connected: nothing at that table
        # moves until it is back, or until they are removed (a review saw a class of
        # 200 lose a table for a whole round to one dead phone, shown only by a dot).
        awaited = next(
            (p for p in seated[table.pk] if glance and p["id"] == glance["awaited"]), None
        )
        # Paused too: nothing at the table moves once it resumes, and a pause changed
        # every such card (a pause at 20 waiting tables pushed them all, 50 kB).
        stalled = (
            awaited is not None
            and in_round
            and not (awaited["connected"] or awaited["is_bot"] or awaited["has_left"])
        )
        out.append(
            {
                "number": table.number,
                "players": [
                    {
                        **p,  # "reading": joined after the study, still reading their sheet
                        "games_won": won[p["id"]] if figures else None,
                        "tricks": tricks.get(p["id"]) if game else None,
                        "score": scores.get(p["id"]) if game else None,
                    }
                    for p in seated[table.pk]
                ],
                "games_note": _games_note(games_done[table.pk], games_cut[table.pk]),
                "game": glance,
                "score_label": kind.score_label,
                # Seated but too few to deal a game: the table sits idle until more come.
                "needs": kind.min_seats if kind.short_of_game(len(seated[table.pk])) else None,
                # In a round nobody can be moved (the movement plan comes after it).
                "in_round": in_round,
                "waiting_for": awaited["name"] if stalled else None,
                # When its open dispute began (None: none, or no record of it yet).
                "dispute_since": disputes.get(game.pk) if glance and glance["dispute"] else None,
            }
        )
    return out


def disputes_now(tables: list[dict], *, named: int = DISPUTES_NAMED) -> dict | None:
    """The tables of `monitor` in dispute, for the panel's status line: their
    numbers, the longest running first (then by number; one whose dispute has no
    record yet last), the first `named` of them and how many more. None: no dispute.

    At 40 tables a busy round had 31 in dispute over five screens of cards, with
    nothing at the top to say which (a review of a 200-student workshop)."""
    at = [t for t in tables if t["game"] and t["game"]["dispute"]]
    if not at:
        return None
    dated = sorted(
        (t for t in at if t["dispute_since"] is not None),
        key=lambda t: (t["dispute_since"], t["number"]),
    )
    undated = sorted(t["number"] for t in at if t["dispute_since"] is None)
    return _named_first([t["number"] for t in dated] + undated, named)


def waiting_now(tables: list[dict], *, named: int = WAITING_NAMED) -> dict | None:
    """The tables of `monitor` waiting for a phone not connected, for the panel's status
    line: how many, the first `named` as (number, whose phone), and how many more (their
    cards say so in the monitor). None: no table waits."""
    return _named_first(
        [(t["number"], t["waiting_for"]) for t in tables if t["waiting_for"]], named
    )


def _named_first(items: list, named: int) -> dict | None:
    """The status line's count of `items`, the first `named` of them and how many more;
    None: there are none."""
    if not items:
        return None
    return {"count": len(items), "named": items[:named], "more": max(0, len(items) - named)}


def _games_note(done: int, cut: int) -> str:
    """The monitor's count of a table's games this round: "2 games finished (1 cut short)";
    every one cut short as the report says it, "1 game finished, cut short", "2 games
    finished, both cut short" (it read "1 game finished (1 cut short)")."""
    if not done:
        return ""
    note = f"{done} game{'s' if done != 1 else ''} finished"
    if cut and cut == done:
        return f"{note}, {({1: '', 2: 'both '}).get(cut, 'all ')}cut short"
    return f"{note} ({cut} cut short)" if cut else note


def _game_glance(game: Game, all_names: dict, open_dispute: bool, *, state=None) -> dict:
    """The game at a glance, as anyone at the table sees it (no hand). `state`: the
    game's, when the caller has it (a phone's screen, from the table's cached part)."""
    kind = gamestate.kind_of(game)
    if state is None:
        state = gamestate.load_state(game)
    if not kind.records_tricks:
        return _kind_glance(game, kind, state, all_names)
    return {
        "number": game.number,
        "records_tricks": True,
        "phase": state.phase,
        "current": [
            {"card": card, "name": all_names.get(game.players[seat], "?")}
            for seat, card in state.current
        ],
        "tricks_by_id": {pid: state.tricks_won[seat] for seat, pid in enumerate(game.players)},
        "scores_by_id": {},
        "tricks_played": len(state.completed),
        "to_act": all_names.get(game.players[state.to_act]) if state.to_act is not None else None,
        # The player the game waits for (a claim step has its time limit: nobody).
        "awaited": game.players[state.to_act] if state.to_act is not None else None,
        "dispute": open_dispute or state.dispute,
    }


def _kind_glance(game: Game, kind, state, all_names: dict) -> dict:
    """Any other game: the scores so far, who must act, and the cards face up in the
    middle (only those: the monitor never shows a hand)."""
    seat_names = [all_names.get(pid, "?") for pid in game.players]
    scores = kind.outcome(state)["scores"]
    view = spectator(kind, state, seat_names)
    return {
        "number": game.number,
        "records_tricks": False,
        "phase": str(getattr(state, "phase", "") or "").replace("_", " "),
        "current": [
            {"card": c, "name": seat_names[s]} for s, c in _pairs(view.get("current")) or []
        ],
        "tricks_by_id": {},
        "scores_by_id": {
            pid: scores[seat] for seat, pid in enumerate(game.players) if seat < len(scores)
        },
        "progress": kind.progress(state),
        "stage": kind.stage(state),
        # The seat awaited (not the seats that may call a revoke meanwhile: All Fives).
        "to_act": ", ".join(seat_names[s] for s in kind.to_act(state)[:1]) or None,
        "awaited": next((game.players[s] for s in kind.to_act(state)[:1]), None),
        "dispute": False,
    }


# ---------------------------------------------------------------- any game's spectator view

# Top-level keys that name a seat, or a list of seats.
SEAT_KEYS = {"to_act", "dealer", "leader", "eldest", "seat", "winner", "accused", "caller", "by"}
SEAT_LIST_KEYS = {"winners", "ahead_so_far"}
# Not worth a line for the facilitator (the seat count is the seat list; seq is internal).
SKIP_KEYS = {"game", "seq", "n_seats", "names", "hands", "current"}


def spectator(kind, state, seat_names) -> dict:
    """The engine's whole-table view of `state` (every hand): the kind's own, else the engine's."""
    try:
        return dict(kind.spectator(state, names=list(seat_names)))
    except NotImplementedError:
        fn = ENGINE_SPECTATOR.get(kind.key)
        return dict(fn(state)) if fn else {}


def _pairs(value) -> list[tuple[int, str]] | None:
    """[[seat, card], …] as pairs, or None when `value` is not such a list."""
    if not isinstance(value, list) or not value:
        return None
    out = []
    for item in value:
        if (
            isinstance(item, list | tuple)
            and len(item) == 2
            and isinstance(item[0], int)
            and is_card(item[1])
        ):
            out.append((item[0], item[1]))
        else:
            return None
    return out


def _label(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


# Keys whose one-letter value is a suit ("Trump: S" was read as the letter).
SUIT_KEYS = {"trump", "trump_suit", "led", "led_suit", "suit"}
# Inside a value: per-seat sheets are the seats' own ("Plays by: …"), not "3 items".
SKIP_INNER_KEYS = {"seat_rules"}


def _card(card: str) -> str:
    """A card's face, heard by its name (a face is read "3 black spade suit")."""
    return format_html(
        '<span aria-hidden="true">{}</span><span class="visually-hidden">{}</span>',
        card_face(card),
        card_name(card),
    )


def _joined(sep: str, parts) -> str:
    return mark_safe(sep.join(conditional_escape(p) for p in parts))


def _text(value, seat_names, key: str = "", *, per_seat: bool = True) -> str:
    """Any value of a spectator view as a short readable text, safe HTML (cards as faces
    heard by name, seats as names, suits by name). `per_seat` False: `value` is already
    one seat's, so a list as long as the table is not read as one item per seat."""
    n = len(seat_names)
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in SEAT_KEYS and isinstance(value, int) and 0 <= value < n:
        return seat_names[value]
    if key in SEAT_LIST_KEYS and isinstance(value, list):
        return ", ".join(seat_names[s] for s in value if isinstance(s, int) and 0 <= s < n) or "—"
    if isinstance(value, str):
        if key in SUIT_KEYS and value in SUIT_NAMES:
            return SUIT_NAMES[value]
        return _card(value) if is_card(value) else value.replace("_", " ")
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, dict):
        return _joined(
            ", ",
            (
                format_html("{} {}", _label(k).lower(), _text(v, seat_names, k))
                for k, v in value.items()
                if k not in SKIP_INNER_KEYS
            ),
        )
    if isinstance(value, list | tuple):
        pairs = _pairs(list(value))
        if pairs is not None:
            return _joined(
                ", ",
                (
                    format_html("{} ({})", _card(c), seat_names[s] if 0 <= s < n else s)
                    for s, c in pairs
                ),
            )
        if value and all(is_card(c) for c in value):
            return _joined(" ", (_card(c) for c in value))
        if per_seat and len(value) == n and n > 1 and all(not isinstance(x, dict) for x in value):
            return _joined(
                dot(),  # "Ana … · Bea …": the dot for the eye, a pause for the ear
                (
                    format_html("{} {}", seat_names[s], _text(x, seat_names))
                    for s, x in enumerate(value)
                ),
            )
        if all(isinstance(x, list | tuple) for x in value):
            return _joined(" | ", (_text(list(x), seat_names) for x in value)) or "—"
        if all(isinstance(x, dict) for x in value):
            return f"{len(value)} item{'s' if len(value) != 1 else ''}"
        return _joined(", ", (_text(x, seat_names) for x in value)) or "—"
    return json.dumps(value)


def _per_seat(value, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and _pairs(value) is None


def _records(value) -> bool:
    """A list of records (a log: deals, tricks, calls…), shown as a table."""
    return isinstance(value, list) and bool(value) and all(isinstance(x, dict) for x in value)


def _as_told(view: dict) -> dict:
    """The engine's figures as a facilitator reads them: 7Up's deals counted from 1, the
    current one out of how many ("Deal 0" was an index; past the last, the last), All
    Fives' hand as "Hand", and before the game is over no result yet: its winners are
    who is ahead so far (a count, not a result), and an outcome, a draw and a completion
    flag that cannot be told yet are left out."""
    over = view.get("phase") == "over"
    n_deals = view.get("n_deals")
    out = {}
    for key, value in view.items():
        if key == "complete" or (not over and key in ("outcome", "draw")):
            continue
        if key == "deal" and isinstance(value, int) and isinstance(n_deals, int):
            value = f"{min(value, n_deals - 1) + 1} of {n_deals}"
        elif isinstance(n_deals, int) and _records(value):
            # The score sheet's rows name their deal by the same index.
            value = [
                {**row, "deal": row["deal"] + 1} if isinstance(row.get("deal"), int) else row
                for row in value
            ]
        elif key == "n_deals" and isinstance(view.get("deal"), int):
            continue
        elif key == "hand_no":
            key = "hand"  # "Hand no 1"
        elif key == "winners" and not over:
            if not value:
                continue
            key = "ahead_so_far"
        out[key] = value
    return out


def generic_spectator(view: dict, seat_names: list[str], to_act: list[int]) -> dict:
    """A spectator view of any game laid out for one template: a row per seat (hand,
    then every per-seat figure), the table's facts, and every list of records
    (deals, tricks, calls…) as a table."""
    view = _as_told(view)
    n = len(seat_names)
    hands = view.get("hands") if isinstance(view.get("hands"), list) else None
    seat_keys, facts, logs = [], [], []
    for key, value in view.items():
        if key in SKIP_KEYS:
            continue
        if _records(value):
            columns = list(dict.fromkeys(k for row in value for k in row))
            logs.append(
                {
                    "title": _label(key),
                    "columns": [_label(c) for c in columns],
                    "rows": [[_text(row.get(c), seat_names, c) for c in columns] for row in value],
                }
            )
        elif _per_seat(value, n) and key not in SEAT_LIST_KEYS:
            seat_keys.append(key)
        elif isinstance(value, list) and not value:
            continue
        else:
            facts.append({"label": _label(key), "value": _text(value, seat_names, key)})
    seats = [
        {
            "seat": s,
            "name": seat_names[s],
            "turn": s in to_act,
            "hand": list(hands[s]) if hands and s < len(hands) else [],
            "facts": [
                {"label": _label(k), "value": _text(view[k][s], seat_names, k, per_seat=False)}
                for k in seat_keys
            ],
        }
        for s in range(n)
    ]
    return {
        "seats": seats,
        "facts": facts,
        "logs": logs,
        "current": [
            {"card": c, "name": seat_names[s] if 0 <= s < n else "?"}
            for s, c in _pairs(view.get("current")) or []
        ],
    }


def table_detail(workshop: Workshop, number: int, now=None) -> dict | None:
    """One table for the facilitator: the sheet, every hand, claims and verdicts."""
    now = now or timezone.now()
    table = workshop.tables.filter(number=number).first()
    if table is None:
        return None
    rnd = _fresh_with_round(workshop)
    players = list(Player.objects.filter(table=table).order_by("seat"))
    all_names = dict(workshop.players.values_list("pk", "name"))
    kind = kind_of(workshop)
    ctx = {
        "workshop": workshop,
        "table": table,
        "game_title": kind.title,
        "score_label": kind.score_label,
        "round": _clock(rnd, now),
        "phase_label": Phase(workshop.phase).label,
        "phase": workshop.phase,
        "sheet": kind.sheet(table.rules, mode=workshop.mode),
        "sheet_title": sheet_title(table, kind),
        "knobs": knobs_summary(table.rules, kind),
        "players": players,
        "game": None,
        "glance": next((t for t in monitor(workshop, rnd=rnd) if t["number"] == number), None),
    }
    game = Game.objects.filter(table=table, state=GameState.PLAYING).order_by("-pk").first()
    if game is None:
        return ctx
    # Seated here since the deal (joined or moved in mid-game): they play the next one.
    ctx["waiting"] = [p.name for p in players if p.pk not in game.players]
    by_id = {p.pk: p for p in Player.objects.filter(pk__in=game.players)}
    game_kind = gamestate.kind_of(game)
    if not game_kind.records_tricks:
        state = gamestate.load_state(game)
        seat_names = [all_names.get(pid, "?") for pid in game.players]
        # The seat awaited only: while All Fives' calls are open, to_act lists every
        # seat that may call a revoke too, and each line said "to act".
        to_act = game_kind.to_act(state)[:1]
        laid_out = generic_spectator(spectator(game_kind, state, seat_names), seat_names, to_act)
        scores = game_kind.outcome(state)["scores"]
        for seat in laid_out["seats"]:
            p = by_id.get(game.players[seat["seat"]])
            seat["is_bot"] = bool(p and p.is_bot)
            seat["connected"] = bool(p and p.connected)
            seat["score"] = scores[seat["seat"]] if seat["seat"] < len(scores) else None
            own = game.seat_rules[seat["seat"]] if seat["seat"] < len(game.seat_rules) else None
            seat["sheet"] = knobs_summary(own, game_kind) if own else None
            seat["other_sheet"] = bool(own) and own != game.table_rules
        ctx["game"] = {
            "number": game.number,
            "generic": True,
            "mode": game.mode,
            "phase": str(getattr(state, "phase", "") or "").replace("_", " "),
            "per_seat_rules": game_kind.per_seat_rules,
            **laid_out,
        }
        return ctx
    v = five_tricks.spectator_view(gamestate.load_state(game))
    seats = []
    for s, pid in enumerate(game.players):
        p = by_id.get(pid)
        own = v["seat_rules"][s]
        seats.append(
            {
                "seat": s,
                "name": all_names.get(pid, "?"),
                "is_bot": bool(p and p.is_bot),
                "connected": bool(p and p.connected),
                "hand": v["hands"][s],
                "tricks": v["tricks_won"][s],
                "turn": v["to_act"] == s,
                "claim": all_names.get(game.players[v["claims"][s]])
                if v["claims"][s] is not None
                else None,
                "sheet": knobs_summary(own),
                "other_sheet": own != v["table_rules"],
                "verdict": all_names.get(game.players[v["current_verdicts"][s]])
                if v["current_verdicts"] is not None
                else None,
            }
        )
    ctx["game"] = {
        "number": game.number,
        "mode": v["mode"],
        "phase": v["phase"],
        "seats": seats,
        "current": [{"card": c, "name": seats[s]["name"]} for s, c in v["current"]],
        "table_verdict": all_names.get(game.players[v["current_table_verdict"]])
        if v["current_table_verdict"] is not None
        else None,
        "dispute": v["dispute"],
        "tricks": [
            {
                "index": i + 1,
                "cards": [{"card": c, "name": seats[s]["name"]} for s, c in t["cards"]],
                "winner": seats[t["winner"]]["name"],
                "table_winner": seats[t["table_verdict"]]["name"],
                "resolution": t["resolution"],
            }
            for i, t in enumerate(v["tricks"])
        ],
    }
    return ctx


# The projector lists at most this many names, the latest to join: more do not fit
# one screen, and a student looks for their own name as it arrives.
PROJECTOR_NAMES = 60


def projector_phase(phase: str, clock: dict | None) -> list[str]:
    """The projector's phase line, in its parts (drawn with a dot between them).

    Between rounds and in the debrief the round's label alone read as a round to come
    ("Between rounds · Round 1": over, or next?). They are said as the phones and the
    panel say them: the round over ("Round over", "Round 1 over"), the tournament over.
    No next round is promised: the facilitator alone knows whether that was the last."""
    if phase == Phase.DEBRIEF:
        return ["The tournament is over"]
    scored = clock is not None and clock["kind"] == RoundKind.SCORED
    if phase == Phase.BETWEEN and scored:
        return [f"{clock['label']} is over"]
    if phase == Phase.ROUND and scored:
        return [Phase(phase).label, clock["label"]]
    return [Phase(phase).label]


def projector(workshop: Workshop, now=None) -> dict:
    """The room's view. Reads names, counts, phase and clock only — see the module docstring."""
    now = now or timezone.now()
    rnd = _fresh_with_round(workshop)
    clock = _clock(rnd, now)
    phase_parts = projector_phase(workshop.phase, clock)
    # The page's heading and its tab: how to join while one may, else the workshop
    # and where it stands (a region of their own, kept live: they said "Join …" to
    # the end of the debrief).
    joining_open = not workshop.joining_locked and workshop.phase != Phase.DEBRIEF
    if joining_open:
        title = f"Join {workshop.name} · Barnga"
    else:
        title = f"{workshop.name} · {' · '.join(phase_parts)} · Barnga"
    people = list(
        Player.objects.filter(workshop=workshop, is_bot=False, has_left=False)
        .order_by("join_order")
        .values_list("name", flat=True)
    )
    # The students whose seat came back on another phone with its PIN, and when: the
    # page says "… is back on a new phone." as the panel does (facilitator.js, people).
    back = [
        {"pk": pk, "name": name, "at": int(at.timestamp())}
        for pk, name, at in Player.objects.filter(
            workshop=workshop, is_bot=False, has_left=False, moved_at__isnull=False
        )
        .order_by("moved_at")
        .values_list("pk", "name", "moved_at")
    ]
    # The students the facilitator let back in after removing them, not back yet: the
    # page says "… was let back in." as the panel does (facilitator.js, people).
    let_in = [
        {"pk": pk, "name": name, "at": int(at.timestamp())}
        for pk, name, at in Player.objects.filter(
            workshop=workshop, is_bot=False, has_left=True, let_in_at__isnull=False
        )
        .exclude(pin="")
        .order_by("let_in_at")
        .values_list("pk", "name", "let_in_at")
    ]
    counts = defaultdict(int)
    for table_id in Player.objects.filter(workshop=workshop, table__isnull=False).values_list(
        "table_id", flat=True
    ):
        counts[table_id] += 1
    return {
        "code": workshop.code,
        "name": workshop.name,
        "game_title": kind_of(workshop).title,
        "phase": workshop.phase,
        "phase_label": Phase(workshop.phase).label,
        "phase_parts": phase_parts,
        "joining_locked": workshop.joining_locked,
        "joining_open": joining_open,
        "title": title,
        "names": people[-PROJECTOR_NAMES:],
        "joined": len(people),
        "earlier": max(0, len(people) - PROJECTOR_NAMES),
        "bots": Player.objects.filter(workshop=workshop, is_bot=True, has_left=False).count(),
        # Students who left, a bot playing on in their seat: the tables' chips count
        # those seats, so the line of counts says them too ("2 joined · 9 bots" was 11
        # against the chips' 12).
        "bot_seats": Player.objects.filter(
            workshop=workshop, is_bot=False, has_left=True, table__isnull=False
        ).count(),
        "round": clock,
        "back": back,
        "let_in": let_in,
        # The movement applied, the round to come not started: the phones say where
        # each sits now ("Go to table 2", "You stay at table 1"), and the wall says to
        # look (it read "Round 1 is over" before and after alike).
        "moved": workshop.phase == Phase.BETWEEN
        and rnd is not None
        and rnd.movement_applied_at is not None,
        "tables": [
            {"number": n, "count": counts[pk], "seats": workshop.seats_per_table}
            for pk, n in workshop.tables.values_list("pk", "number")
        ],
    }


PRESET_CHOICES = [(slug, PRESET_TITLES[slug]) for slug in PRESETS]
