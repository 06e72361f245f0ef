"""Create (or refresh) the demo facilitator and a demo workshop with bots playing."""

import secrets
import socket
from urllib.parse import urlsplit, urlunsplit

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import kinds
from tournament import services
from tournament.errors import ServiceError
from tournament.models import Phase, Workshop

DEMO_USER = "demo"
DEMO_WORKSHOP = "Demo workshop"
EVERY_INTERFACE = {"0.0.0.0", "::"}


def network_address() -> str | None:
    """This machine's address on its network (None if it has no route out): a UDP
    socket's connect picks the outgoing interface and sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: never reached
        except OSError:
            return None
        return probe.getsockname()[0]


def address_for_people(url: str) -> tuple[str, str | None]:
    """The base address to print, and a note. A server listening on every interface
    (HOST=0.0.0.0) is opened at this machine's network address: the projector's join
    address and QR code are built from the address its page was opened at, and no
    phone can open 0.0.0.0."""
    parts = urlsplit(url)
    if parts.hostname not in EVERY_INTERFACE:
        return url, None
    found = network_address()
    host = found or "127.0.0.1"
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    note = (
        None
        if found
        else "  No network address found: phones need this machine's address in place of 127.0.0.1."
    )
    return urlunsplit(parts._replace(netloc=netloc)), note


class Command(BaseCommand):
    help = "Create the demo facilitator login and a demo workshop whose seats bots play."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="Base URL to print")
        parser.add_argument(
            "--game",
            choices=sorted(kinds.KINDS),
            default="five_tricks",
            help="The base game (default: Five Tricks)",
        )
        parser.add_argument("--tables", type=int, default=3)
        parser.add_argument(
            "--seats",
            type=int,
            default=None,
            help="Seats per table (default: 4, within the game's range)",
        )
        parser.add_argument(
            "--password", default=None, help="Demo password (default: a new random one)"
        )

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
        if workshop is not None and (tables, seats) != (
            workshop.table_count,
            workshop.seats_per_table,
        ):
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
        url, note = address_for_people(url)
        base = url.rstrip("/")
        lines = [
            "",
            "Barnga demo is ready.",
            f"  Facilitator log-in: {base}/login/  user: {DEMO_USER}  password: {password}",
            f"  Demo workshop:      {base}/workshops/{workshop.pk}/  (join code {workshop.code})",
        ]
        self.stdout.write("\n".join([*lines, *([note] if note else []), ""]))
