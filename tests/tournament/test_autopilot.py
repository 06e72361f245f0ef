"""Demo workshops run themselves: rounds end, players move, the next round starts."""

import http.server
import io
import os
import socket
import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import kinds
from tournament import timers
from tournament.loadtest.servers import free_port
from tournament.models import Action, Movement, Phase, Round, RoundKind, RoundState, Workshop

pytestmark = pytest.mark.django_db


def test_demo_command_creates_a_running_bot_workshop_and_prints_the_login(capsys):
    call_command("demo", "--password", "pw-for-test", "--tables", "3", "--seats", "4")
    out = capsys.readouterr().out
    assert "user: demo  password: pw-for-test" in out
    workshop = Workshop.objects.get()
    assert workshop.autopilot and workshop.phase == Phase.ROUND
    assert workshop.players.filter(is_bot=True).count() == 12
    assert workshop.code in out
    # Running it again reuses the workshop and prints a fresh password.
    call_command("demo")
    assert Workshop.objects.count() == 1


def test_setup_only_seats_the_bots_and_starts_no_clock_until_the_server_answers(capsys):
    """scripts/demo.sh's first call: the round clock and the log-in wait for the
    server (its second call, --wait-for-server), which may take a minute to listen."""
    from django.contrib.auth import get_user_model

    call_command("demo", "--password", "old", "--game", "all_fives")  # another demo workshop
    capsys.readouterr()
    port = free_port()  # a port nothing holds: the setup looks
    call_command("demo", "--setup-only", "--password", "new", "--url", f"http://127.0.0.1:{port}")
    out = capsys.readouterr().out
    assert f"Starting Barnga on http://127.0.0.1:{port}" in out and "password" not in out
    assert get_user_model().objects.get(username="demo").check_password("old")
    workshop = Workshop.objects.get(game="five_tricks")
    assert workshop.phase == Phase.LOBBY and not workshop.rounds.exists()
    assert workshop.players.filter(is_bot=True, table__isnull=False).count() == 12
    before = timezone.now()
    call_command("demo", "--password", "new")
    assert "user: demo  password: new" in capsys.readouterr().out
    workshop.refresh_from_db()
    first = Round.objects.get(workshop=workshop, kind=RoundKind.SCORED)
    assert workshop.phase == Phase.ROUND and first.deadline >= before + timedelta(seconds=180)


def test_the_waiter_gives_up_when_the_server_process_is_gone():
    from tournament.management.commands.demo import await_server, probe_url

    assert probe_url("http://0.0.0.0:8000") == "http://127.0.0.1:8000/healthz"
    assert probe_url("http://[::]:8000") == "http://[::1]:8000/healthz"
    assert probe_url("http://[::1]:8000") == "http://[::1]:8000/healthz"
    assert probe_url("http://192.0.2.7:8001") == "http://192.0.2.7:8001/healthz"
    # Not this process's parent: the server it was to wait for has exited.
    assert await_server("http://127.0.0.1:9/healthz", os.getppid() + 1) is False


@pytest.mark.parametrize("which", ["running", "zero", "negative"])
def test_the_waiter_refuses_a_pid_that_cannot_be_its_server(which):
    """A PID given by mistake looked like a server already gone: the command ended at
    once, exit 0, its demo never started and nothing said. A running process that is
    not its parent, or no process id at all, is refused in words; nothing is made."""
    from django.core.management.base import CommandError

    pid = {"running": os.getpid(), "zero": 0, "negative": -5}[which]
    words = "is not this command's parent" if which == "running" else "a process id"
    with pytest.raises(CommandError, match=words):
        call_command("demo", "--wait-for-server", str(pid), stdout=io.StringIO())
    assert not Workshop.objects.exists()


def test_the_waiter_stops_quietly_when_its_server_has_gone():
    """A PID that runs nothing is a server that stopped before the waiter looked (the
    script's Daphne failed): no error on top of the server's own, nothing started."""
    import subprocess

    gone = subprocess.Popen(["true"])
    gone.wait()  # reaped: its id now runs nothing
    out = io.StringIO()
    call_command("demo", "--wait-for-server", str(gone.pid), stdout=out)
    assert out.getvalue() == "" and not Workshop.objects.exists()


def test_setup_only_on_a_port_another_program_holds_says_so_and_makes_nothing():
    """The waiter takes any answer at the address for the demo's server: with the port
    taken (another demo, another program) it printed "ready" and a log-in for that
    program's page, then Daphne failed. The setup now refuses before anything."""
    from django.core.management.base import CommandError

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(CommandError, match=f"Port {port} cannot be used.*PORT={port + 1}"):
            call_command(
                "demo", "--setup-only", "--url", f"http://127.0.0.1:{port}", stdout=io.StringIO()
            )
    assert not Workshop.objects.exists()


def test_the_waiter_asks_the_server_itself_and_no_other_program():
    """A proxy in the environment (http_proxy) answered for the server, or, closed,
    kept the waiter from ever hearing it; a program there that speaks no HTTP made
    the waiter fail with a traceback."""
    from tournament.management.commands.demo import answers

    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    closed = free_port()
    try:
        with pytest.MonkeyPatch.context() as env:
            env.setenv("http_proxy", f"http://127.0.0.1:{closed}")
            env.setenv("HTTP_PROXY", f"http://127.0.0.1:{closed}")
            env.delenv("no_proxy", raising=False)
            env.delenv("NO_PROXY", raising=False)
            assert answers(f"http://127.0.0.1:{server.server_port}/healthz") is True
    finally:
        server.shutdown()
        server.server_close()
    with socket.socket() as garbled:
        garbled.bind(("127.0.0.1", 0))
        garbled.listen()

        def babble():
            conn, _ = garbled.accept()
            with conn:
                conn.recv(1024)
                conn.sendall(b"SSH-2.0-not-http\r\n")

        threading.Thread(target=babble, daemon=True).start()
        assert answers(f"http://127.0.0.1:{garbled.getsockname()[1]}/healthz") is False


@pytest.mark.parametrize(
    "args, words",
    [
        (["--tables", "0"], "Table count must be"),
        (["--tables", "1000"], "Table count must be"),
        (["--seats", "1"], "Five Tricks is played by"),
        (["--game", "three_tricks", "--seats", "5"], "2"),
    ],
)
def test_demo_with_impossible_tables_or_seats_says_so_and_changes_nothing(args, words):
    """A refused demo keeps the old password and makes no workshop."""
    from django.contrib.auth import get_user_model
    from django.core.management.base import CommandError

    call_command("demo", "--password", "first", "--game", "all_fives", stdout=io.StringIO())
    with pytest.raises(CommandError, match=words):
        call_command("demo", "--password", "second", *args, stdout=io.StringIO())
    assert get_user_model().objects.get(username="demo").check_password("first")
    assert Workshop.objects.count() == 1


@pytest.mark.parametrize("listen", ["0.0.0.0:8000", "[::]:8000"])
def test_a_demo_on_every_interface_prints_an_address_phones_can_open(listen, capsys):
    """`HOST=0.0.0.0 bash scripts/demo.sh` printed http://0.0.0.0:8000/login/; a
    projector opened there puts 0.0.0.0 in its join address and QR code."""
    from tournament.management.commands.demo import network_address

    call_command("demo", "--password", "x", "--url", f"http://{listen}")
    out = capsys.readouterr().out
    host = network_address()
    assert "0.0.0.0" not in out and "[::]" not in out
    assert f"http://{host or '127.0.0.1'}:8000/login/" in out
    assert ("phones need this machine's address" in out) == (host is None)


def test_demo_says_when_an_existing_workshop_keeps_its_size(capsys):
    call_command("demo", "--password", "x", "--tables", "3")
    call_command("demo", "--password", "x", "--tables", "5")
    assert "already exists with 3 tables of 4: it is kept as it is" in capsys.readouterr().err
    assert Workshop.objects.get().table_count == 3


def test_autopilot_moves_players_and_starts_the_next_round():
    call_command("demo", "--password", "x")
    workshop = Workshop.objects.get()
    first = Round.objects.get(workshop=workshop, kind=RoundKind.SCORED)
    # Bots play while the round runs.
    now = timezone.now()
    for i in range(30):
        timers.tick(now=now + timedelta(seconds=i), bot_delay=0)
    assert Action.objects.filter(game__round=first).count() > 0
    Round.objects.filter(pk=first.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    report = timers.tick(bot_delay=0)
    assert first.pk in report.rounds_finalised
    assert report.autopilot_rounds == []  # not before the pause is over
    workshop.refresh_from_db()
    assert workshop.phase == Phase.BETWEEN
    assert timers.tick(now=timezone.now() + timedelta(seconds=5)).autopilot_rounds == []
    # ...then the movement is applied, and the phones say where to go for a while...
    assert timers.tick(now=timezone.now() + timedelta(seconds=20)).autopilot_rounds == []
    first.refresh_from_db()
    assert first.movement_applied_at is not None
    workshop.refresh_from_db()
    assert workshop.phase == Phase.BETWEEN
    # ...before round 2 starts.
    report = timers.tick(now=timezone.now() + timedelta(seconds=40))
    assert len(report.autopilot_rounds) == 1
    workshop.refresh_from_db()
    assert workshop.phase == Phase.ROUND
    assert Movement.objects.filter(round=first).count() == len(first.movement_preview["moves"])
    second = Round.objects.get(pk=report.autopilot_rounds[0])
    assert second.scored_number == 2 and second.state == RoundState.RUNNING


def test_autopilot_stops_after_its_rounds_and_leaves_the_rest_to_the_facilitator():
    call_command("demo", "--password", "x")
    workshop = Workshop.objects.get()
    last = Round.objects.get(workshop=workshop, kind=RoundKind.SCORED)
    Round.objects.filter(pk=last.pk).update(
        scored_number=timers.AUTOPILOT_ROUNDS, deadline=timezone.now() - timedelta(seconds=1)
    )
    assert last.pk in timers.tick(bot_delay=0).rounds_finalised
    report = timers.tick(now=timezone.now() + timedelta(seconds=60))
    assert report.autopilot_rounds == []
    workshop.refresh_from_db()
    last.refresh_from_db()
    assert workshop.phase == Phase.BETWEEN and last.movement_applied_at is None
    assert not workshop.autopilot  # the timer loop no longer looks at it


@pytest.mark.parametrize("game", sorted(kinds.KINDS))
def test_every_base_game_runs_a_demo_round_and_moves_on(game, capsys):
    call_command("demo", "--password", "x", "--game", game)
    workshop = Workshop.objects.get(game=game)
    kind = kinds.get(game)
    assert workshop.seats_per_table == min(max(4, kind.min_seats), kind.max_seats)
    first = Round.objects.get(workshop=workshop, kind=RoundKind.SCORED)
    now = timezone.now()
    for i in range(40):
        timers.tick(now=now + timedelta(seconds=i), bot_delay=0)
    assert Action.objects.filter(game__round=first, game__kind=game).count() > 0
    Round.objects.filter(pk=first.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert first.pk in timers.tick(bot_delay=0).rounds_finalised
    timers.tick(now=timezone.now() + timedelta(seconds=20))  # the movement
    report = timers.tick(now=timezone.now() + timedelta(seconds=40))
    assert len(report.autopilot_rounds) == 1
    second = Round.objects.get(pk=report.autopilot_rounds[0])
    assert second.scored_number == 2 and second.state == RoundState.RUNNING
    # Every table of the next round is dealt its game again.
    assert second.games.filter(kind=game).count() == workshop.table_count
