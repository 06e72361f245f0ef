"""`python manage.py check_integrity [--workshop ID] [--json]`: stored games against their logs."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from tournament import integrity


class Command(BaseCommand):
    help = (
        "Replay every game's action log and compare it with the stored game, its tricks and "
        "winners (tournament.integrity). Exit status 1 when anything differs."
    )

    def add_arguments(self, parser):
        parser.add_argument("--workshop", type=int, help="only this workshop's games")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, **options):
        count, problems = integrity.workshop_problems(options.get("workshop"))
        if options["json"]:
            self.stdout.write(json.dumps({"games": count, "problems": problems}))
        else:
            for line in problems:
                self.stdout.write(line)
            self.stdout.write(f"{count} game(s) checked, {len(problems)} problem(s).")
        if problems:
            sys.exit(1)
