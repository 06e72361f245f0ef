"""`python manage.py check_integrity [--workshop ID] [--json]`: stored games against their logs."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from tournament import integrity
from tournament.models import Workshop


class Command(BaseCommand):
    help = (
        "Replay every game's action log and compare it with the stored game, its tricks and "
        "winners (tournament.integrity). Exit status 1 when anything differs."
    )

    def add_arguments(self, parser):
        parser.add_argument("--workshop", type=int, help="only this workshop's games")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, **options):
        wid = options.get("workshop")
        # (A number past the database's integers would be an OverflowError, not "none".)
        if wid is not None and not (0 < wid < 2**63 and Workshop.objects.filter(pk=wid).exists()):
            raise CommandError(f"There is no workshop {wid}.")
        count, problems = integrity.workshop_problems(wid)
        if options["json"]:
            self.stdout.write(json.dumps({"games": count, "problems": problems}))
        else:
            for line in problems:
                self.stdout.write(line)
            self.stdout.write(f"{count} game(s) checked, {len(problems)} problem(s).")
        if problems:
            sys.exit(1)
