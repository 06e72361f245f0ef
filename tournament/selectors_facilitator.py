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

from collections import defaultdict

from django.utils import timezone

from games import five_tricks
from games.presets import PRESET_TITLES, PRESETS
from games.sheets import sheet_text
from games.tricks import TrickRules
from tournament import gamestate, names
from tournament.models import (
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
from tournament.selectors import round_clock

KNOB_LABELS = {
    "ace": {"high": "Ace high", "low": "Ace low"},
    "wins": {"highest": "highest wins", "lowest": "lowest wins"},
    "trump": {
        None: "no trump",
        "S": "spades trump",
        "H": "hearts trump",
        "D": "diamonds trump",
        "C": "clubs trump",
    },
    "trump_when": {"void": "trump only when void", "any": "trump any time"},
}


def own_workshop(workshop_id: int, user) -> Workshop | None:
    """The workshop if `user` facilitates it; None for anyone else's (and for anonymous users)."""
    if user is None or not user.is_authenticated:
        return None
    return Workshop.objects.filter(pk=workshop_id, facilitator=user).first()


def workshops_of(user) -> list[dict]:
    rows = []
    for w in Workshop.objects.filter(facilitator=user).order_by("-created_at"):
        rows.append(
            {
                "workshop": w,
                "phase_label": Phase(w.phase).label,
                "players": w.players.filter(is_bot=False, has_left=False).count(),
            }
        )
    return rows


def knobs_summary(rules: dict) -> str:
    """ "Ace high, highest wins, spades trump, trump only when void" — for the facilitator."""
    r = TrickRules.from_dict(rules)
    parts = [
        KNOB_LABELS["ace"][r.ace],
        KNOB_LABELS["wins"][r.wins],
        KNOB_LABELS["trump"][r.trump],
    ]
    if r.trump is not None:
        parts.append(KNOB_LABELS["trump_when"][r.trump_when])
    return ", ".join(parts)


def sheet_title(table: Table) -> str:
    return PRESET_TITLES.get(table.preset, "Custom sheet")


def _clock(rnd: Round | None, now) -> dict | None:
    clock = round_clock(rnd, now)
    if clock is not None:
        clock["running"] = rnd.state == RoundState.RUNNING
        clock["paused"] = rnd.state == RoundState.PAUSED
        clock["finished"] = rnd.state == RoundState.FINISHED
    return clock


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


def panel(workshop: Workshop, now=None) -> dict:
    """The control panel: status and controls, roster, seating, movement, monitor."""
    now = now or timezone.now()
    workshop.refresh_from_db()
    rnd = workshop.rounds.order_by("-number").first()
    tables = list(workshop.tables.all())
    players = list(workshop.players.select_related("table", "home_table").order_by("join_order"))
    humans = sum(1 for p in players if not p.is_bot and not p.has_left)
    counts = defaultdict(int)
    for p in players:
        if p.table_id:
            counts[p.table_id] += 1
    ctx = {
        "workshop": workshop,
        "phase": workshop.phase,
        "phase_label": Phase(workshop.phase).label,
        "round": _clock(rnd, now),
        "controls": _controls(workshop, rnd, humans),
        "next_round_label": _next_round_label(workshop),
        "roster": [p for p in players if not (p.has_left and p.table_id is None)],
        "left": [p for p in players if p.has_left and p.table_id is None],
        "humans": humans,
        "bots": sum(1 for p in players if p.is_bot),
        "tables": [
            {
                "number": t.number,
                "count": counts[t.pk],
                "seats": workshop.seats_per_table,
                "sheet": sheet_title(t),
                "knobs": knobs_summary(t.rules),
            }
            for t in tables
        ],
        "table_numbers": [t.number for t in tables],
        "movement": movement_preview(workshop, rnd) if rnd is not None else None,
        "monitor": monitor(workshop, rnd=rnd, now=now),
    }
    return ctx


def movement_preview(workshop: Workshop, rnd: Round) -> dict | None:
    """The last scored round's movement: an editable plan, or what was applied."""
    if rnd.kind != RoundKind.SCORED or rnd.state != RoundState.FINISHED:
        return None
    if rnd.movement_applied_at is not None:
        moves = list(
            Movement.objects.filter(round=rnd)
            .select_related("player")
            .order_by("from_table", "player__join_order")
        )
        return {
            "round": rnd,
            "applied": True,
            "moves": [
                {"name": m.player.name, "from": m.from_table, "to": m.to_table, "edited": m.edited}
                for m in moves
            ],
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
    return {"round": rnd, "applied": False, "rows": rows}


def monitor(workshop: Workshop, *, rnd: Round | None = None, now=None) -> list[dict]:
    """Every table at a glance: who sits there, the cards on the table, tricks,
    games won this round and whether a dispute is open. No hands."""
    if rnd is None:
        rnd = workshop.rounds.order_by("-number").first()
    tables = list(workshop.tables.all())
    seated = defaultdict(list)
    for p in Player.objects.filter(workshop=workshop, table__isnull=False).order_by("seat"):
        seated[p.table_id].append(p)
    won: dict[int, int] = defaultdict(int)
    games_done: dict[int, int] = defaultdict(int)
    playing: dict[int, Game] = {}
    if rnd is not None:
        for game in Game.objects.filter(round=rnd).order_by("number"):
            if game.state == GameState.PLAYING:
                playing[game.table_id] = game
            else:
                games_done[game.table_id] += 1
            for pid in game.winners:
                won[pid] += 1
    disputes = set(
        Dispute.objects.filter(
            game__table__workshop=workshop, resolved_at__isnull=True
        ).values_list("game_id", flat=True)
    )
    all_names = dict(workshop.players.values_list("pk", "name"))
    out = []
    for table in tables:
        game = playing.get(table.pk)
        glance = _game_glance(game, all_names, game.pk in disputes) if game else None
        tricks = glance["tricks_by_id"] if glance else {}
        out.append(
            {
                "number": table.number,
                "players": [
                    {
                        "id": p.pk,
                        "name": p.name,
                        "is_bot": p.is_bot,
                        "has_left": p.has_left,
                        "connected": p.connected,
                        "games_won": won[p.pk],
                        "tricks": tricks.get(p.pk) if game else None,
                    }
                    for p in seated[table.pk]
                ],
                "games_done": games_done[table.pk],
                "game": glance,
            }
        )
    return out


def _game_glance(game: Game, all_names: dict, open_dispute: bool) -> dict:
    state = gamestate.load_state(game)
    return {
        "number": game.number,
        "phase": state.phase,
        "current": [
            {"card": card, "name": all_names.get(game.players[seat], "?")}
            for seat, card in state.current
        ],
        "tricks_by_id": {pid: state.tricks_won[seat] for seat, pid in enumerate(game.players)},
        "tricks_played": len(state.completed),
        "to_act": all_names.get(game.players[state.to_act]) if state.to_act is not None else None,
        "dispute": open_dispute or state.dispute,
    }


def table_detail(workshop: Workshop, number: int, now=None) -> dict | None:
    """One table for the facilitator: the sheet, every hand, claims and verdicts."""
    now = now or timezone.now()
    table = workshop.tables.filter(number=number).first()
    if table is None:
        return None
    rnd = workshop.rounds.order_by("-number").first()
    players = list(Player.objects.filter(table=table).order_by("seat"))
    all_names = dict(workshop.players.values_list("pk", "name"))
    ctx = {
        "workshop": workshop,
        "table": table,
        "round": _clock(rnd, now),
        "phase_label": Phase(workshop.phase).label,
        "sheet": sheet_text(TrickRules.from_dict(table.rules)),
        "sheet_title": sheet_title(table),
        "knobs": knobs_summary(table.rules),
        "players": players,
        "game": None,
        "glance": next((t for t in monitor(workshop, rnd=rnd) if t["number"] == number), None),
    }
    game = Game.objects.filter(table=table, state=GameState.PLAYING).order_by("-pk").first()
    if game is None:
        return ctx
    v = five_tricks.spectator_view(gamestate.load_state(game))
    by_id = {p.pk: p for p in Player.objects.filter(pk__in=game.players)}
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


def projector(workshop: Workshop, now=None) -> dict:
    """The room's view. Reads names, counts, phase and clock only — see the module docstring."""
    now = now or timezone.now()
    workshop.refresh_from_db()
    rnd = workshop.rounds.order_by("-number").first()
    people = list(
        Player.objects.filter(workshop=workshop, is_bot=False, has_left=False)
        .order_by("join_order")
        .values_list("name", flat=True)
    )
    counts = defaultdict(int)
    for table_id in Player.objects.filter(workshop=workshop, table__isnull=False).values_list(
        "table_id", flat=True
    ):
        counts[table_id] += 1
    return {
        "code": workshop.code,
        "name": workshop.name,
        "phase": workshop.phase,
        "phase_label": Phase(workshop.phase).label,
        "joining_locked": workshop.joining_locked,
        "names": people,
        "bots": Player.objects.filter(workshop=workshop, is_bot=True).count(),
        "round": _clock(rnd, now),
        "tables": [
            {"number": n, "count": counts[pk], "seats": workshop.seats_per_table}
            for pk, n in workshop.tables.values_list("pk", "number")
        ],
    }


PRESET_CHOICES = [(slug, PRESET_TITLES[slug]) for slug in PRESETS]
