"""A move committed and never announced: its process died between the commit and the
publish (the kill test met this about one run in ten). The phones on the other
process never hear of the new version, and when the move hands the turn to one of
them the table stops for good. Each process's version check (tournament.layerwatch)
finds the version in the database and shows it.

The fault is made exactly: a driver process makes the move through the services
with its announcements switched off, as if it had died right after the commit.
"""

from __future__ import annotations

import asyncio

import pytest
from fault_cluster import SETUP, Bot, acked_ids, assert_nothing_lost, playing, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.timeout(240)]

# Table 1's phones sit still; the driver plays for them (announced, as usual) until
# the game awaits a card that does not end a trick (a finished trick opens a claim
# step, which the timer would end and announce), then plays that card unannounced.
SILENT_MOVE = """
from tournament import broadcast, gamestate, services
from tournament.models import Game, GameState

def awaited():
    game = Game.objects.get(table__number=1, state=GameState.PLAYING)
    state = gamestate.load_state(game)
    kind = gamestate.kind_of(game)
    for seat in kind.to_act(state):
        move = kind.bot_action(state, seat, services.bot_rng(game, seat))
        if move is not None:
            return game, state, seat, move
    raise AssertionError("nobody to act at table 1")

for _ in range(200):
    game, state, seat, move = awaited()
    if move["type"] == "play" and len(state.current) < len(game.players) - 1:
        break
    if move["type"] == "play":
        services.game_play(player_id=game.players[seat], card=move["card"])
    else:
        services.game_claim(player_id=game.players[seat], winner_player_id=game.players[move["winner"]])
broadcast.table_changed_on_commit = lambda **kwargs: None
broadcast.workshop_changed_on_commit = lambda **kwargs: None
done = services.game_play(player_id=game.players[seat], card=move["card"])
result = {"version": done.version}
"""


async def test_a_move_never_announced_reaches_every_phone(cluster):
    (a, b), setup = await asyncio.gather(
        asyncio.to_thread(cluster.start, 2),
        asyncio.to_thread(cluster.run, SETUP.format(tables=2, seats=4, mode="barnga")),
    )
    ports = [a, b]
    table_of = {p["name"]: p["table"] for p in setup["players"]}
    seen: dict[int, int] = {}  # per table, so that each table spans both processes
    bots = []
    for p in setup["players"]:
        k = seen[p["table"]] = seen.get(p["table"], -1) + 1
        bots.append(Bot(name=p["name"], cookie=p["cookie"], home_port=ports[k % 2], ports=ports))
    at_one = [bot for bot in bots if table_of[bot.name] == 1]
    assert {bot.home_port for bot in at_one} == {a, b}  # table 1 spans both processes
    async with playing(bots):
        await wait_until(lambda: len(acked_ids(bots)) >= 20, 60, "20 acknowledged actions")
        for bot in at_one:
            bot.play = False
        await asyncio.sleep(1.0)  # table 1's actions in flight are answered
        moved = await asyncio.to_thread(cluster.run, SILENT_MOVE)
        before = {bot.name: len(bot.acked) for bot in bots}
        for bot in at_one:
            bot.play = True
        # No message announced the move, yet every phone at the table shows it…
        await wait_until(
            lambda: all(bot.version >= moved["version"] for bot in at_one),
            15,  # two checks 5 s apart (BARNGA_VERSION_CHECK_SECONDS), then a render
            "table 1's phones showing the unannounced move",
        )
        # …and the table plays on.
        await wait_until(
            lambda: all(len(bot.acked) >= before[bot.name] + 2 for bot in at_one),
            30,
            "table 1 playing on",
        )

    await assert_nothing_lost(cluster, bots)
