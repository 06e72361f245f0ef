"""Reads: what each screen may show, never more."""

from __future__ import annotations

from django.utils import timezone

from games import five_tricks
from games.presets import PRESET_TITLES
from games.sheets import sheet_text
from games.tricks import TrickRules
from tournament import gamestate, timing
from tournament.models import Dispute, Game, GameState, Phase, Player, Round, RoundState, Workshop


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
                "preset": PRESET_TITLES.get(table.preset, "Custom sheet"),
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
    own sheet is included only while studying.
    """
    player = Player.objects.select_related("workshop", "table").filter(pk=player_id).first()
    if player is None:
        return None
    now = now or timezone.now()
    workshop = player.workshop
    rnd = workshop.rounds.order_by("-number").first()
    table = player.table
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
        "sheet": sheet_text(TrickRules.from_dict(player.rules))
        if workshop.phase == Phase.STUDY and player.rules
        else None,
        "neighbours": [],
        "game": None,
        "last_game": None,
    }
    if table is None:
        return ctx
    ctx["neighbours"] = list(
        Player.objects.filter(table=table)
        .order_by("seat")
        .values("id", "name", "is_bot", "connected")
    )
    game = Game.objects.filter(table=table, state=GameState.PLAYING).order_by("-pk").first()
    if game is not None and player.pk in game.players:
        ctx["game"] = game_screen(game, player, now)
    elif game is not None:
        ctx["waiting_for_next_game"] = True
    previous = (
        Game.objects.filter(table=table, round=rnd)
        .exclude(state=GameState.PLAYING)
        .order_by("-pk")
        .first()
        if rnd
        else None
    )
    if previous is not None and player.pk in previous.players:
        names = dict(Player.objects.filter(pk__in=previous.players).values_list("pk", "name"))
        ctx["last_game"] = {
            "number": previous.number,
            "winners": [names.get(pid, "?") for pid in previous.winners],
            "i_won": player.pk in previous.winners,
            "cut": previous.state == GameState.CUT,
        }
    if rnd is not None:
        won = sum(
            1
            for w in Game.objects.filter(round=rnd, table__workshop=workshop).values_list(
                "winners", flat=True
            )
            if player.pk in w
        )
        ctx["games_won"] = won
    return ctx


def game_screen(game: Game, player: Player, now) -> dict:
    """One seat's view of a game, with seats turned into names."""
    state = gamestate.load_state(game)
    seat = game.players.index(player.pk)
    v = five_tricks.view(state, seat)
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
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
                "claim_name": names.get(game.players[v["claims"][s]])
                if v["claims"] and v["claims"][s] is not None
                else None,
            }
        )
    my_claim = game.players[v["my_claim"]] if v["my_claim"] is not None else None

    def with_names(cards):
        return [
            {
                "seat": s,
                "id": game.players[s],
                "name": seats[s]["name"],
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
        "suggested_name": names.get(game.players[v["suggested_claim"]])
        if v["suggested_claim"] is not None
        else None,
        "dispute": v["dispute"],
        "claim_seconds": deadline,
        "last_trick": {
            "cards": with_names(last["cards"]),
            "winner": seats[last["winner"]]["name"],
        }
        if last
        else None,
        "tricks_played": len(v["tricks"]),
    }


def open_dispute_count(workshop_id: int) -> int:
    return Dispute.objects.filter(
        game__table__workshop_id=workshop_id, resolved_at__isnull=True
    ).count()
