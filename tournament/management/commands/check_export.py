"""`python manage.py check_export FILE`: the same check as `python -m tournament.check_export`."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from tournament import check_export


class Command(BaseCommand):
    help = (
        "Replay every game of a workshop export (barnga.workshop/1) and compare the tricks and "
        "winners with what was stored; given the report's ZIP, check its CSV tables against "
        "its JSON too. Exit status 1 on a mismatch, 2 on an unreadable file."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file",
            help="the export (report.json), - for standard input, or the report's ZIP "
            "(or a directory of its files)",
        )

    def handle(self, *args, **options):
        status = check_export.run(options["file"], out=self.stdout, err=self.stderr)
        if status:
            sys.exit(status)
