"""What a player's action costs the web process and the database, without sockets.

    .venv/bin/python bench/actions.py [--tables 40] [--seconds 4] [--rounds 6]

The load test (`manage.py loadtest`) measures the whole path on a machine shared by
the servers, PostgreSQL, Redis and the bot clients, and runs of the same code
differ by ±15 %. This isolates an action's service call as a socket makes it: one
process, `--tables` tables of five playing Five Tricks as fast as they can, each
action through `consumers.in_db_thread` under `consumers.table_turn`, on this
settings' database (set DATABASE_URL for PostgreSQL; Redis is not used: messages
go to no one). Each of `--rounds` rounds runs `--seconds` and reports the actions
per second and the CPU milliseconds per action of this process (its event loop
and its database threads) and of the PostgreSQL server's processes (read from
/proc, found by name; 0 elsewhere: on a quiet machine, as every process of that
name counts). The figures include the bench's own choice of each move (the state
from the replay cache, looked up on a database thread too). Prints one JSON line:
every round, and the medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def postgres_cpu_seconds() -> float:
    """User + system CPU seconds of every process named postgres (0 without /proc)."""
    from tournament.loadtest.cpu import process_seconds

    found = subprocess.run(["pgrep", "-x", "postgres"], capture_output=True, text=True)
    # A process that ended meanwhile reads as None: left out.
    return sum(filter(None, (process_seconds(int(pid)) for pid in found.stdout.split())))


def setup(tables: int) -> list[int]:
    """A workshop of `tables` tables of five in a scored round; their ids."""
    from tournament import services
    from tournament.loadtest.run import into_first_round
    from tournament.models import Table

    w = services.workshop_create(
        name="Action bench",
        table_count=tables,
        seats_per_table=5,
        round_seconds=3600,
        study_seconds=3600,
        home_seconds=3600,
        dispute_seconds=600,
    )
    for i in range(tables * 5):
        services.player_join(workshop_id=w.pk, name=f"Bench {i + 1}")
    into_first_round(w.pk)
    return list(Table.objects.filter(workshop=w).values_list("pk", flat=True))


class Bench:
    def __init__(self, table_ids: list[int]):
        self.table_ids = table_ids
        self.done = 0
        self.serial = 0

    async def table(self, table_id: int, stop: asyncio.Event) -> None:
        """Act at one table until `stop`: the next legal card, or an agreeing claim."""
        from games import five_tricks
        from tournament import gamestate, services
        from tournament.consumers import in_db_thread, table_turn
        from tournament.models import Game, GameState

        def current():
            return Game.objects.filter(table_id=table_id, state=GameState.PLAYING).last()

        game = await in_db_thread(current)()
        while game is not None and not stop.is_set():
            state = await in_db_thread(gamestate.load_state)(game)
            if five_tricks.is_over(state):  # its last action dealt the next game
                game = await in_db_thread(current)()
                continue
            self.serial += 1
            call = {"player_id": None, "client_action_id": f"bench-{self.serial}"}
            if state.phase == "play":
                seat = state.to_act
                card = five_tricks.legal_actions(state, seat)[0]["card"]
                service, call["card"] = services.game_play, card
            else:
                seat = next(s for s, c in enumerate(state.claims) if c is None)
                winner = game.players[state.current[0][0]]
                service, call["winner_player_id"] = services.game_claim, winner
            call["player_id"] = game.players[seat]
            async with table_turn(table_id):
                result = await in_db_thread(service)(**call)
            self.done += 1
            game.seq = result.seq

    def snapshot(self) -> tuple[int, float, float, float]:
        """Actions done, this process's CPU, PostgreSQL's CPU, the clock."""
        return self.done, time.process_time(), postgres_cpu_seconds(), time.monotonic()

    async def round(self, seconds: float) -> dict:
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(self.table(t, stop)) for t in self.table_ids]
        await asyncio.sleep(0.5)  # every table under way
        done0, cpu0, pg0, t0 = self.snapshot()
        await asyncio.sleep(seconds)
        done1, cpu1, pg1, t1 = self.snapshot()
        stop.set()
        await asyncio.gather(*tasks)
        n = max(1, done1 - done0)
        return {
            "actions_per_s": round(n / (t1 - t0), 1),
            "web_cpu_ms": round((cpu1 - cpu0) / n * 1000, 3),
            "postgres_cpu_ms": round((pg1 - pg0) / n * 1000, 3),
        }


async def run(args, table_ids: list[int]) -> dict:
    bench = Bench(table_ids)
    rounds = [await bench.round(args.seconds) for _ in range(args.rounds)]
    return {
        "tables": args.tables,
        "rounds": rounds,
        **{
            f"median_{key}": statistics.median(r[key] for r in rounds)
            for key in ("actions_per_s", "web_cpu_ms", "postgres_cpu_ms")
        },
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args(argv)
    if args.tables < 1 or args.rounds < 1 or args.seconds <= 0:
        parser.error("--tables and --rounds must be at least 1, --seconds above 0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "barnga.settings")
    os.environ["BARNGA_RUN_TIMERS"] = "0"  # the bench's tables only
    os.environ["REDIS_URL"] = ""  # no one listens: messages need not leave the process
    import django

    django.setup()
    table_ids = setup(args.tables)  # before the event loop: the ORM is sync
    print(json.dumps(asyncio.run(run(args, table_ids))))
    return 0


if __name__ == "__main__":
    from games.cli import run_main

    run_main(main)
