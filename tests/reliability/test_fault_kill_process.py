"""kill -9 one of two web processes mid-round while the players play.

Two Daphne processes share PostgreSQL and Redis; eight phones (two tables of
four, each table's players split over both processes) play by themselves. One
process is killed without warning. Its phones reconnect to the other and play
on; nothing the server acknowledged is missing from the log; the round then
ends once, with both processes' timers running again; every game replays.
"""

from __future__ import annotations

import asyncio

import pytest
from fault_cluster import acked_ids, final_check, playing, two_processes_eight_phones, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.timeout(240)]


ROUND_RESULT = """
from tournament.models import Action, Game, GameState, Round, RoundKind, Workshop
rnd = Round.objects.get(kind=RoundKind.SCORED)
more = {
    "phase": Workshop.objects.get().phase,
    "rounds": list(Round.objects.filter(kind=RoundKind.SCORED).values("state", "finished_by")),
    "playing": Game.objects.filter(round=rnd, state=GameState.PLAYING).count(),
    "late_actions": Action.objects.filter(game__round=rnd, created_at__gt=rnd.finished_at).count(),
    "standings": len(rnd.standings.get("players", [])),
}
"""
END_SOON = """
from datetime import timedelta
from django.utils import timezone
from tournament.models import Round, RoundState
Round.objects.filter(state=RoundState.RUNNING).update(deadline=timezone.now() + timedelta(seconds=2))
"""


async def test_kill_one_of_two_processes_mid_round(cluster):
    ports, bots = await two_processes_eight_phones(cluster)
    a, b = ports
    async with playing(bots):
        await wait_until(lambda: len(acked_ids(bots)) >= 40, 60, "40 acknowledged actions")

        # Kill the process that holds more phones. The phones split 4/4, but one whose
        # first try failed has gone to the other process and stays there, so killing
        # A regardless once found only one phone on it.
        def phones_on(port):
            return [bot for bot in bots if bot.connects and bot.connects[-1][1] == port]

        victim, survivor = (a, b) if len(phones_on(a)) >= len(phones_on(b)) else (b, a)
        on_victim = phones_on(victim)
        assert len(on_victim) >= 4
        before = {bot.name: len(bot.acked) for bot in bots}

        ports.remove(victim)  # the phones find only the survivor from now on
        cluster.kill(victim)

        await wait_until(
            lambda: all(bot.connects[-1][1] == survivor for bot in on_victim),
            30,
            "the killed process's phones on the other",
        )
        await wait_until(
            lambda: all(len(bot.acked) >= before[bot.name] + 4 for bot in bots),
            60,
            "every phone playing on after the kill",
        )

        # A comes back (as a supervisor would restart it) while the round's time runs
        # out: two timer loops race to end it.
        [a2], _ = await asyncio.gather(
            asyncio.to_thread(cluster.start), asyncio.to_thread(cluster.run, END_SOON)
        )
        ports.append(a2)
        await wait_until(lambda: all(bot.phase == "between" for bot in bots), 30, "the round's end")

    result = await asyncio.to_thread(final_check, cluster, acked_ids(bots), ROUND_RESULT)
    assert result["missing"] == [], "acknowledged actions missing from the log"
    assert result["phase"] == "between"
    assert result["rounds"] == [{"state": "finished", "finished_by": "timer"}]
    assert result["playing"] == 0 and result["late_actions"] == 0
    assert result["standings"] == 8
    assert result["games"] >= 2
    assert result["problems"] == []
