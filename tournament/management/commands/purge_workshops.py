"""`python manage.py purge_workshops [--days N] [--dry-run]`: retention of students' data."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournament.services.data import workshops_purge

MAX_DAYS = 36_500


class Command(BaseCommand):
    help = (
        "Delete every workshop created more than BARNGA_RETENTION_DAYS days ago (default 30), "
        "with everything about its students. Run it daily, e.g. from cron."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=int,
            default=None,
            help="retention in days (default: the BARNGA_RETENTION_DAYS setting)",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="list what would be deleted, delete nothing"
        )

    def handle(self, *args, days=None, dry_run=False, **options):
        days = settings.BARNGA_RETENTION_DAYS if days is None else days
        if days < 1:
            raise CommandError("The retention must be at least one day.")
        if days > MAX_DAYS:  # a date that far back is before the calendar's year 1
            raise CommandError(f"The retention can be at most {MAX_DAYS:,} days (a hundred years).")
        rows = workshops_purge(days=days, dry_run=dry_run)
        verb = "Would delete" if dry_run else "Deleted"
        for row in rows:
            self.stdout.write(
                f"{verb} workshop {row['id']} “{row['name']}” ({row['code']}), created "
                f"{row['created_at']:%Y-%m-%d}, {row['players']} player(s)"
                + (f" and {row['bots']} bot(s)" if row["bots"] else "")
            )
        self.stdout.write(f"{verb} {len(rows)} workshop(s) older than {days} day(s).")
