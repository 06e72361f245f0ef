"""Create (or refresh) the demo facilitator and a demo workshop with bots playing.

scripts/demo.sh runs it twice around starting Daphne: `--setup-only` first (the
workshop with its bots in the lobby, no clock running; a refusal stops the script
before the server starts), then `--wait-for-server PID` in the background, which
waits until the server answers at --url, only then starts the first round and
prints the log-in. Its round clock and the printed address are both only good once
the server listens, which can take a minute on a loaded machine.
"""

import http.client
import os
import secrets
import socket
import time
import urllib.error
import urllib.request
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
LOOPBACK = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}


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


def probe_url(url: str) -> str:
    """Where to ask whether the server listening at `url` answers: its /healthz, at
    the loopback address when it listens on every interface."""
    parts = urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    if host in LOOPBACK:
        host = LOOPBACK[host]
    elif ":" in host:
        host = f"[{host}]"
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, "/healthz", "", ""))


# Straight to the server: a proxy in the environment (http_proxy) is not asked, which
# would answer for it too early, or never.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def answers(url: str) -> bool:
    """Whether an HTTP server answers at `url`: any status counts (an ALLOWED_HOSTS
    or HTTPS setting may turn the question away, but the server is listening). A
    program there that does not speak HTTP is no answer."""
    try:
        with _DIRECT.open(url, timeout=1):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError, http.client.HTTPException):
        return False


def port_taken(url: str) -> str | None:
    """Why a server could not listen where `url` says, when another program holds
    that port (in the words of the error), else None. The waiter takes any answer
    there for the demo's server: with the port taken it printed "ready" and a log-in
    for another program's page, then Daphne failed."""
    parts = urlsplit(url)
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            parts.hostname or "127.0.0.1",
            parts.port or 80,
            type=socket.SOCK_STREAM,
            flags=socket.AI_PASSIVE,
        )[0]
    except (OSError, ValueError):
        return None  # an address Daphne will refuse in its own words
    with socket.socket(family, kind, proto) as probe:
        # As Daphne (Twisted) does: a port whose last connections are closing is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def not_the_parent(server_pid: int) -> str | None:
    """Why `server_pid` cannot be the server to wait for, if it cannot. The waiter
    stops quietly when the server, its parent, is gone: a PID given by mistake would
    look the same and end the command at once, its demo never started, without a word.
    A running process that is not this one's parent is such a mistake; a PID that runs
    nothing may be a server that has already stopped (scripts/demo.sh: it failed)."""
    if server_pid <= 0:
        return f"--wait-for-server takes a process id (a number above 0), not {server_pid}."
    if os.getppid() == server_pid:
        return None
    try:
        os.kill(server_pid, 0)  # signal 0: is there such a process? (nothing is sent)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # there is one, another user's
    return (
        f"Process {server_pid} is not this command's parent (that is {os.getppid()}): "
        "--wait-for-server waits for the server that started it (scripts/demo.sh passes "
        "its own process id, which Daphne then takes)."
    )


def await_server(url: str, server_pid: int, interval: float = 0.2) -> bool:
    """Poll until the server answers at `url` (True), or until the server process,
    this process's parent, is gone (False: it could not start, or was stopped)."""
    while os.getppid() == server_pid:
        if answers(url):
            return True
        time.sleep(interval)
    return False


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
        when = parser.add_mutually_exclusive_group()
        when.add_argument(
            "--setup-only",
            action="store_true",
            help="Make the workshop and seat its bots, but start nothing and print no "
            "log-in: the server is still to start (scripts/demo.sh)",
        )
        when.add_argument(
            "--wait-for-server",
            type=int,
            metavar="PID",
            help="Wait until the server (process PID, this command's parent) answers at "
            "--url, then start the demo and print the log-in; quietly stop if it exits",
        )

    def handle(
        self, *args, url, game, tables, seats, password, setup_only, wait_for_server, **options
    ):
        if wait_for_server is not None:
            if why := not_the_parent(wait_for_server):
                raise CommandError(why)
            if not await_server(probe_url(url), wait_for_server):
                return
        if setup_only and (why := port_taken(url)):
            port = urlsplit(url).port or 80
            raise CommandError(
                f"Port {port} cannot be used ({why}): another program may be listening "
                f"there. Stop it, or start the demo on another port, e.g. PORT={port + 1}."
            )
        # All or nothing: a refused --tables or --seats leaves the old password working.
        try:
            with transaction.atomic():
                password, workshop = self._demo(
                    game,
                    tables,
                    seats,
                    password,
                    start=not setup_only,
                    warn=wait_for_server is None,
                )
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        if setup_only:
            self.stdout.write(
                f"\nStarting Barnga on {address_for_people(url)[0].rstrip('/')} ... the demo's "
                "log-in follows once it answers.\n"
            )
        else:
            self._print(url, password, workshop)
        self.stdout.flush()

    def _demo(self, game, tables, seats, password, *, start=True, warn=True):
        kind = kinds.get(game)
        if seats is None:
            seats = min(max(4, kind.min_seats), kind.max_seats)
        User = get_user_model()
        password = password or secrets.token_urlsafe(9)
        user, _ = User.objects.get_or_create(username=DEMO_USER)
        if start:  # the password printed with the address: a new one only then
            user.set_password(password)
        user.is_staff = True
        user.save()

        workshop = (
            Workshop.objects.filter(facilitator=user, name=DEMO_WORKSHOP, game=game)
            .exclude(phase=Phase.DEBRIEF)
            .first()
        )
        size = (workshop.table_count, workshop.seats_per_table) if workshop else None
        # Said once: the waiter after --setup-only finds the same workshop.
        if warn and size is not None and size != (tables, seats):
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
            workshop.refresh_from_db()
        if start and workshop.phase == Phase.LOBBY and workshop.autopilot:
            # Made by --setup-only (or just now): study and silent play at once, and
            # the first scored round's clock from now, the server answering.
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
