"""Reads: what each screen may show, never more."""

from __future__ import annotations

from django.utils import timezone

from games.presets import PRESET_TITLES
from tournament import timing
from tournament.models import Game, GameState, Player, Round, Workshop


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
