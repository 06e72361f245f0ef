"""Command line for the engines (with cli.py, the only modules here that do I/O or read a clock).

    python -m games replay FILE|-      replay a game record, print the outcome as JSON
    python -m games bench [--games N] [--seed S]
                                       seeded bot games, card plays per second

``replay`` exits 0 with one JSON object on stdout, or 2 with ``{"error": ...}``
(and ``"at"`` for an illegal play) on stderr. See docs/rules.md for the schema.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from . import five_tricks as ft
from .bots import play_game
from .cli import run_main
from .jsontext import BadJSON, parse
from .presets import PRESETS
from .replay import ReplayError, replay_document

EXIT_BAD_INPUT = 2


def _fail(payload: dict) -> int:
    print(json.dumps(payload, sort_keys=True), file=sys.stderr)
    return EXIT_BAD_INPUT


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        return _fail({"error": f"Cannot read {args.file}: {exc}"})
    try:
        doc = parse(text)
    except BadJSON as exc:
        return _fail({"error": f"The input is not valid JSON: {exc}"})
    try:
        out = replay_document(doc)
    except ReplayError as exc:
        return _fail(exc.payload)
    print(json.dumps(out, sort_keys=True))
    return 0


def bench_configs(n_games: int, seed: int):
    """Deterministic mix of tables: 3-6 seats, random presets, seats with differing sheets."""
    rng = random.Random(seed)
    names = sorted(PRESETS)
    for _ in range(n_games):
        n = rng.randint(3, 6)
        table = PRESETS[rng.choice(names)]
        seats = tuple(PRESETS[rng.choice(names)] for _ in range(n))
        yield ft.Config(table_rules=table, seat_rules=seats, mode="barnga"), rng.randrange(2**32)


def cmd_bench(args: argparse.Namespace) -> int:
    configs = list(bench_configs(args.games, args.seed))
    plays = actions = timeouts = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for config, game_seed in configs:
        state, log = play_game(config, game_seed)
        actions += len(log)
        plays += sum(1 for a in log if a["type"] == "play")
        timeouts += sum(1 for t in state.completed if t.resolution == "timeout")
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    # Wall time is what a user waits; CPU time is steadier on a shared machine.
    rate = plays / elapsed if elapsed else float("inf")
    cpu_rate = plays / cpu if cpu else float("inf")
    summary = {
        "games": args.games,
        "seed": args.seed,
        "plays": plays,
        "actions": actions,
        "timeouts": timeouts,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "plays_per_second": round(rate),
        "plays_per_cpu_second": round(cpu_rate),
    }
    print(json.dumps(summary, sort_keys=True))
    print(
        f"{plays} card plays ({actions} actions, {args.games} games) in {elapsed:.2f} s: "
        f"{rate:,.0f} plays/s wall, {cpu_rate:,.0f} plays/s of CPU on one core"
    )
    return 0


def _games_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description="Card-game engine tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="replay a game record (JSON) and print the outcome")
    p_replay.add_argument("file", help="path to the JSON record, or - for standard input")
    p_replay.set_defaults(func=cmd_replay)
    p_bench = sub.add_parser("bench", help="play seeded bot games and report card plays per second")
    p_bench.add_argument(
        "--games", type=_games_count, default=1000, help="number of games (default 1000)"
    )
    p_bench.add_argument("--seed", type=int, default=0, help="seed for the table mix (default 0)")
    p_bench.set_defaults(func=cmd_bench)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    run_main(main)
