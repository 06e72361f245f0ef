"""Create (or refresh) the demo facilitator and a demo workshop with bots playing."""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import kinds
from tournament import services
from tournament.errors import ServiceError
from tournament.models import Phase, Workshop

DEMO_USER = "demo"
DEMO_WORKSHOP = "Demo workshop"


class Command(BaseCommand):
    help = "Create the demo facilitator login and a demo workshop whose seats bots play."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="Base URL to print")
        parser.add_argument("--game", choices=sorted(kinds.KINDS), default="five_tricks",
                            help="The base game (default: Five Tricks)")
        parser.add_argument("--tables", type=int, default=3)
        parser.add_argument("--seats", type=int, default=None,
                            help="Seats per table (default: 4, within the game's range)")
        parser.add_argument("--password", default=None, help="Demo password (default: a new random one)")

    def handle(self, *args, url, game, tables, seats, password, **options):
        # All or nothing: a refused --tables or --seats leaves the old password working.
        try:
            with transaction.atomic():
                password, workshop = self._demo(game, tables, seats, password)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self._print(url, password, workshop)

    def _demo(self, game, tables, seats, password):
        kind = kinds.get(game)
        if seats is None:
            seats = min(max(4, kind.min_seats), kind.max_seats)
        User = get_user_model()
        password = password or secrets.token_urlsafe(9)
        user, _ = User.objects.get_or_create(username=DEMO_USER)
        user.set_password(password)
        user.is_staff = True
        user.save()

        workshop = (
            Workshop.objects.filter(facilitator=user, name=DEMO_WORKSHOP, game=game)
            .exclude(phase=Phase.DEBRIEF)
            .first()
        )
        if workshop is not None and (tables, seats) != (workshop.table_count, workshop.seats_per_table):
            self.stderr.write(
                f"The demo workshop already exists with {workshop.table_count} tables of "
                f"{workshop.seats_per_table}: it is kept as it is (end it to make another)."
            )
        if workshop is None:
            workshop = services.workshop_create(
                name=DEMO_WORKSHOP,
                facilitator=user,
                game=game,
                table_count=tables,
                seats_per_table=seats,
                round_seconds=180,
                study_seconds=120,
                bots_enabled=True,
            )
            Workshop.objects.filter(pk=workshop.pk).update(autopilot=True)
            services.bots_fill(workshop_id=workshop.pk)
            services.workshop_start_study(workshop_id=workshop.pk)
            services.workshop_start_home(workshop_id=workshop.pk)
            services.round_start(workshop_id=workshop.pk)
            workshop.refresh_from_db()
        return password, workshop

    def _print(self, url, password, workshop):
        base = url.rstrip("/")
        self.stdout.write(
            "\n".join(
                [
                    "",
                    "Barnga demo is ready.",
                    f"  Facilitator log-in: {base}/login/  user: {DEMO_USER}  password: {password}",
                    f"  Demo workshop:      {base}/workshops/{workshop.pk}/  (join code {workshop.code})",
                    "",
                ]
            )
        )
