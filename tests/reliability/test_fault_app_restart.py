"""Restart the whole app between rounds: the workshop resumes where it was.

Two web processes and Redis are stopped after a round has ended; new ones start.
Every phone reconnects to the same screen (same table, phase and versions), the
facilitator applies the movement and starts the next round, and everyone plays
at the table the database says.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from fault_cluster import (
    Bot,
    acked_ids,
    assert_nothing_lost,
    playing,
    two_processes_eight_phones,
    wait_until,
)

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.timeout(240)]

END_ROUND = """
from tournament import services
from tournament.models import Round, RoundState
services.round_end_now(round_id=Round.objects.get(state=RoundState.RUNNING).pk)
"""
NEXT_ROUND = """
from tournament import services
from tournament.models import Player, Round, RoundKind, Workshop
w = Workshop.objects.get()
rnd = Round.objects.filter(kind=RoundKind.SCORED).order_by("-number").first()
moves = services.movement_apply(round_id=rnd.pk)
services.round_start(workshop_id=w.pk)
result = {
    "moved": len(moves),
    "tables": {p.name: p.table.number for p in Player.objects.select_related("table")},
}
"""
WON = re.compile(r"You won (\d+) game")


def screen(bot: Bot) -> tuple:
    won = WON.search(bot.html)
    return (bot.version, bot.wversion, bot.table, bot.phase, won.group(1) if won else None)


async def test_restart_everything_between_rounds(cluster):
    ports, bots = await two_processes_eight_phones(cluster)
    async with playing(bots):
        await wait_until(lambda: len(acked_ids(bots)) >= 30, 60, "30 acknowledged actions")
        await asyncio.to_thread(cluster.run, END_ROUND)
        await wait_until(lambda: all(bot.phase == "between" for bot in bots), 30, "the round's end")
        await asyncio.sleep(0.5)  # late views (connection dots) settle
        before = {bot.name: screen(bot) for bot in bots}
        connects = {bot.name: len(bot.connects) for bot in bots}

        ports.clear()  # the phones find nothing while everything restarts
        await asyncio.to_thread(cluster.stop_all)
        await asyncio.to_thread(cluster.redis.restart)
        ports.extend(await asyncio.to_thread(cluster.start, 2))

        await wait_until(
            lambda: all(len(bot.connects) > connects[bot.name] for bot in bots),
            30,
            "every phone back",
        )
        await wait_until(lambda: all(bot.views and bot.phase for bot in bots), 10, "views")
        after = {bot.name: screen(bot) for bot in bots}
        assert after == before, "a phone came back to a different screen"

        played = {bot.name: len(bot.acked) for bot in bots}
        nxt = await asyncio.to_thread(cluster.run, NEXT_ROUND)
        assert nxt["moved"] > 0
        await wait_until(
            lambda: all(len(bot.acked) >= played[bot.name] + 3 for bot in bots),
            60,
            "everyone playing in the next round",
        )
        assert {bot.name: bot.table for bot in bots} == nxt["tables"]

    await assert_nothing_lost(cluster, bots)
