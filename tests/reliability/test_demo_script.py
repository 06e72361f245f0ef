"""scripts/demo.sh prints an address a phone can open and serves on the one asked for.

The real script runs in a copy of scripts/ beside a stand-in bootstrap.sh (no
install): first with an interpreter that only notes how it was called, then with
the project's own behind a wrapper that makes Daphne slow to start, as on a loaded
machine, with a database of the test's own.
"""

from __future__ import annotations

import http.server
import os
import queue
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tournament.loadtest.servers import ROOT, free_port

READY = "Barnga demo is ready."
ROUND_SECONDS = 180  # the demo workshop's round (tournament/management/commands/demo.py)


def run_demo(tmp_path: Path, **env) -> list[str]:
    """The interpreter's command lines when `bash scripts/demo.sh` runs with `env`."""
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    shutil.copy(ROOT / "scripts" / "demo.sh", scripts / "demo.sh")
    calls = tmp_path / "calls"
    python = tmp_path / "python"
    python.write_text(f'#!/bin/bash\necho "$*" >> {calls}\n')
    python.chmod(0o755)
    (scripts / "bootstrap.sh").write_text(f'VENV_PY="{python}"\n')
    done = subprocess.run(
        ["bash", str(scripts / "demo.sh")],
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return calls.read_text().splitlines()


@pytest.mark.parametrize(
    ("host", "url", "bind"),
    [
        (None, "http://127.0.0.1:8000", "127.0.0.1"),
        ("0.0.0.0", "http://0.0.0.0:8000", "0.0.0.0"),  # the command prints the network address
        ("::", "http://[::]:8000", "::"),
        ("::1", "http://[::1]:8000", "::1"),
    ],
)
def test_the_demo_hands_the_command_an_address_and_daphne_the_host(tmp_path, host, url, bind):
    env = {"HOST": host} if host else {}
    migrate, setup, *rest = run_demo(tmp_path, **env)
    assert migrate == "manage.py migrate --noinput"
    assert setup == f"manage.py demo --url {url} --game five_tricks --setup-only"
    # The waiter runs beside the server: either may note its call first.
    waiter = next(call for call in rest if "--wait-for-server" in call)
    assert re.fullmatch(
        f"manage.py demo --url {re.escape(url)} --game five_tricks "
        r"--wait-for-server \d+",
        waiter,
    )
    assert rest == [waiter, f"-m daphne -b {bind} -p 8000 barnga.asgi:application"] or rest == [
        f"-m daphne -b {bind} -p 8000 barnga.asgi:application",
        waiter,
    ]


class Demo:
    """`bash scripts/demo.sh` running for real, Daphne starting `server_delay` s late."""

    def __init__(self, tmp_path: Path, port: int, server_delay: float) -> None:
        scripts = tmp_path / "scripts"
        scripts.mkdir()
        shutil.copy(ROOT / "scripts" / "demo.sh", scripts / "demo.sh")
        python = tmp_path / "python"
        python.write_text(
            "#!/bin/bash\n"
            f'if [ "$1 $2" = "-m daphne" ]; then sleep {server_delay}; fi\n'
            f'exec {sys.executable} "$@"\n'
        )
        python.chmod(0o755)
        (scripts / "bootstrap.sh").write_text(f'cd "{ROOT}"\nVENV_PY="{python}"\n')
        self.db = tmp_path / "demo.sqlite3"
        self.log = tmp_path / "server.log"
        self.proc = subprocess.Popen(
            ["bash", str(scripts / "demo.sh")],
            env={
                "PATH": os.environ["PATH"],
                "PORT": str(port),
                "DATABASE_URL": f"sqlite:///{self.db}",
            },
            stdout=subprocess.PIPE,
            stderr=self.log.open("wb"),
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def line(self, timeout: float = 120) -> str:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no more output; server log: {self.log.read_text()}") from None

    def until(self, text: str, timeout: float = 120) -> list[str]:
        seen = []
        end = time.monotonic() + timeout
        while not seen or text not in seen[-1]:
            seen.append(self.line(max(0.1, end - time.monotonic())))
        return seen

    def waiters(self) -> list[int]:
        """The background waiters this run started that are still alive."""
        found = []
        for entry in Path("/proc").iterdir():
            try:
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"--wait-for-server" in cmd and str(self.proc.pid).encode() in cmd:
                found.append(int(entry.name))
        return found

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pid in self.waiters():
            os.kill(pid, signal.SIGKILL)


def gone_within(seconds: float, check) -> bool:
    end = time.monotonic() + seconds
    while check():
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True


def test_the_ready_line_comes_once_the_printed_address_answers(tmp_path):
    """ "Barnga demo is ready." was printed before Daphne listened: on a loaded machine
    the address answered 15 s later, "connection refused" meanwhile. Ctrl-C still
    stops the exec'd server cleanly, and the waiter with it."""
    port = free_port()
    demo = Demo(tmp_path, port, server_delay=3)
    try:
        demo.until(READY)
        login = demo.line(5)
        url = re.search(r"Facilitator log-in: (\S+)  user: demo  password: \S+", login)
        assert url and url[1] == f"http://127.0.0.1:{port}/login/", login
        with urllib.request.urlopen(url[1], timeout=5) as page:
            assert page.status == 200
        assert "Demo workshop:      http://127.0.0.1" in demo.line(5)
        demo.proc.send_signal(signal.SIGINT)
        assert demo.proc.wait(timeout=15) == 0
        assert gone_within(5, demo.waiters)
    finally:
        demo.stop()


def test_the_first_rounds_clock_starts_when_the_server_answers(tmp_path):
    """The demo's round 1 was started before Daphne listened: its clock ran down while
    the server was still starting (by 47 s in the review)."""
    port = free_port()
    demo = Demo(tmp_path, port, server_delay=8)
    try:
        health = f"http://127.0.0.1:{port}/healthz"
        while True:
            try:
                with urllib.request.urlopen(health, timeout=1):
                    break
            except OSError:
                assert demo.proc.poll() is None, demo.log.read_text()
                time.sleep(0.05)
        answered = datetime.now(UTC)
        demo.until(READY)
        with sqlite3.connect(demo.db) as db:
            ((deadline,),) = db.execute(
                "SELECT deadline FROM tournament_round WHERE kind = 'scored'"
            ).fetchall()
        left = (datetime.fromisoformat(deadline).replace(tzinfo=UTC) - answered).total_seconds()
        assert ROUND_SECONDS - 3 <= left <= ROUND_SECONDS + 15, left
    finally:
        demo.stop()


@pytest.mark.parametrize("holder", ["silent", "http"])
def test_a_port_another_program_holds_stops_the_demo_before_anything(tmp_path, holder):
    """The port is taken, by a socket that never answers HTTP or by another web server
    (another demo: the waiter took its answer for the demo's own and printed "ready"
    and a log-in, then Daphne failed). The setup refuses with the port and a way on;
    nothing says ready, no server or waiter is started."""
    if holder == "http":
        taken = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
        threading.Thread(target=taken.serve_forever, daemon=True).start()
        port = taken.server_port
    else:
        taken = socket.socket()
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
    demo = Demo(tmp_path, port, server_delay=0)
    try:
        assert demo.proc.wait(timeout=120) != 0
        demo.reader.join(timeout=5)  # the output's end: nothing holds it open
        assert not demo.reader.is_alive()
        output = list(demo.lines.queue)
        assert not any(READY in line for line in output), output
        assert not any("Starting Barnga on" in line for line in output), output
        assert f"Port {port} cannot be used" in demo.log.read_text()
        assert gone_within(5, demo.waiters)
        with sqlite3.connect(demo.db) as db:
            assert db.execute("SELECT count(*) FROM tournament_workshop").fetchone() == (0,)
    finally:
        demo.stop()
        if holder == "http":
            taken.shutdown()
            taken.server_close()
        else:
            taken.close()
