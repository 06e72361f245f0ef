"""`manage.py loadtest`: bot phones over real websockets; prints one JSON line.

A public contract (README, "Load test"):

    manage.py loadtest --players N --seconds S [--think-ms T] [--url BASE] [--baseline] [--servers K]

(`--baseline-store`, `--client-procs`, `--game`: measuring aids beside the contract.)

prints `{"players", "actions", "actions_per_s", "p50_ms", "p95_ms", "p99_ms",
"errors", "lost", "duplicated"}` on stdout (everything else goes to stderr) and
exits non-zero when an acknowledged action is lost or stored twice.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from tournament.loadtest.run import GAME_SEATS, run
from tournament.services.workshops import LIMITS


class Command(BaseCommand):
    help = "Drive N bot players over real websockets and print one JSON line of figures."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seconds", type=float, required=True)
        parser.add_argument(
            "--think-ms",
            type=float,
            default=0.0,
            help="a bot's think time before each tap (0: as fast as it can)",
        )
        parser.add_argument(
            "--url",
            default=None,
            help="target running server(s) (comma-separated) instead of starting one; "
            "they must share this settings' database and SECRET_KEY",
        )
        parser.add_argument(
            "--baseline",
            action="store_true",
            help="measure a bare Channels group echo (fan-out of 5) instead",
        )
        parser.add_argument(
            "--baseline-store",
            action="store_true",
            help="the bare echo, each message first stored in one durable "
            "transaction: the floor of any app that keeps every action",
        )
        parser.add_argument(
            "--servers",
            type=int,
            default=1,
            help="Daphne processes to start (more than 1 needs REDIS_URL)",
        )
        parser.add_argument(
            "--client-procs",
            type=int,
            default=2,
            help="bot client processes (all seats of a table in one)",
        )
        parser.add_argument(
            "--game",
            default="five_tricks",
            choices=sorted(GAME_SEATS),
            help="the game the bots play: Five Tricks at tables of 5 (the "
            "contract's), 7Up7Down at 5, All Fives at 3",
        )
        parser.add_argument(
            "--facilitator",
            action="store_true",
            help="also keep the workshop's facilitator panel open (on the "
            "first server) and say on stderr what it was sent",
        )

    def handle(self, *args, **opts):
        if opts["players"] < 2:
            raise CommandError("--players must be at least 2")
        # One workshop at tables of the game's size: refused here, before any server
        # is started.
        seats = GAME_SEATS[opts["game"]]
        most = LIMITS["table_count"][1] * seats
        if opts["baseline_store"] and opts["url"]:
            raise CommandError("--baseline-store starts its own servers: not with --url")
        echo = opts["baseline"] or opts["baseline_store"]
        if echo and opts["game"] != "five_tricks":
            raise CommandError("--game chooses the game the bots play: not with an echo baseline")
        if echo and opts["facilitator"]:
            raise CommandError("--facilitator opens a workshop's panel: not with an echo baseline")
        if not echo and opts["players"] > most:
            raise CommandError(
                f"--players must be at most {most} (a workshop has up to "
                f"{LIMITS['table_count'][1]} tables of {seats})"
            )
        if not 1 <= opts["seconds"] <= 3000:
            raise CommandError("--seconds must be from 1 to 3000")
        if opts["think_ms"] < 0:
            raise CommandError("--think-ms must not be negative")
        if opts["servers"] < 1 or opts["client_procs"] < 1:
            raise CommandError("--servers and --client-procs must be at least 1")
        summary = run(
            players=opts["players"],
            seconds=opts["seconds"],
            think_ms=opts["think_ms"],
            url=opts["url"],
            baseline=opts["baseline"],
            baseline_store=opts["baseline_store"],
            server_count=opts["servers"],
            client_procs=opts["client_procs"],
            game=opts["game"],
            facilitator=opts["facilitator"],
        )
        sys.stdout.write(json.dumps(summary) + "\n")
        sys.stdout.flush()
        if summary["lost"] or summary["duplicated"]:
            sys.stderr.write("FAILED: acknowledged actions lost or duplicated\n")
            sys.exit(1)
