"""scripts/test.sh stopped early (a CI job cancelled, Ctrl-C, a kill of its process
group): the run ends at once, pytest is interrupted once, as by Ctrl-C (its fixtures
stop the servers they started), and the private Redis and the run's directory go. And
pytest can still read the terminal (--pdb).

The real script and bootstrap.sh run in a copy of scripts/. Its .venv/bin/python is
this interpreter with a stand-in `pytest` module first on the path (it notes that it
started, waits or reads a line, and notes each KeyboardInterrupt); a no-op `uv` on
PATH. Real redis-server.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path

import pytest

from tournament.loadtest.servers import ROOT

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")

STANDIN = """\
import os, pathlib, sys, time

here = pathlib.Path(os.environ["STANDIN_DIR"])


def console_main():
    (here / "pytest.started").write_text(str(os.getpid()))
    with open(here / "pytest.args", "a") as f:
        f.write(" ".join(sys.argv[1:]) + "\\n")
    if os.environ.get("STANDIN_EXIT"):
        return int(os.environ["STANDIN_EXIT"])
    try:
        if os.environ.get("STANDIN_READ"):
            (here / "pytest.read").write_text(sys.stdin.readline())
            return 0
        time.sleep(60)
    except KeyboardInterrupt:
        with open(here / "pytest.interrupted", "a") as f:
            f.write("x")
        try:
            time.sleep(2)  # its fixtures stop what they started
        except KeyboardInterrupt:
            with open(here / "pytest.interrupted", "a") as f:
                f.write("x")
        return 2
    return 0


if __name__ == "__main__":  # `python -m pytest`, as the script once ran it
    sys.exit(console_main())
"""


def _start(tmp_path: Path, *args: str, **popen) -> subprocess.Popen:
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "scripts", root / "scripts")
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "pytest.py").write_text(STANDIN)
    venv_bin = root / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    python = venv_bin / "python"
    python.write_text(
        textwrap.dedent(f"""\
        #!/bin/bash
        if [ "$1 $2" = "-m ruff" ]; then exit 0; fi
        PYTHONPATH={fake} exec {sys.executable} "$@"
        """)
    )
    python.chmod(0o755)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "uv").write_text("#!/bin/bash\nexit 0\n")
    (tools / "uv").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "BARNGA_TEST_DB"}
    env |= {
        "PATH": f"{tools}:{os.environ['PATH']}",
        "TMPDIR": str(tmp_path),
        "STANDIN_DIR": str(tmp_path),
    } | popen.pop("env", {})
    return subprocess.Popen(
        ["bash", str(root / "scripts" / "test.sh"), *args],
        env=env,
        start_new_session=True,
        **popen,
    )


def _run(tmp_path: Path, **popen) -> tuple[subprocess.Popen, Path]:
    proc = _start(tmp_path, **popen)
    deadline = time.monotonic() + 60
    while not (tmp_path / "pytest.started").exists():
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.1)
    [work] = tmp_path.glob("barnga-test.*")
    return proc, work


def _redis_port(work: Path) -> int:
    port = int(re.search(r"port=(\d+)", (work / "redis.log").read_text()).group(1))
    socket.create_connection(("127.0.0.1", port), timeout=2).close()  # Redis is up
    return port


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _end(proc: subprocess.Popen, tmp_path: Path) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    started = tmp_path / "pytest.started"
    if started.exists() and _alive(int(started.read_text())):
        os.kill(int(started.read_text()), signal.SIGKILL)


QUIET = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


@pytest.mark.parametrize(
    ("sig", "group", "status"),
    [(signal.SIGTERM, False, 143), (signal.SIGINT, False, 130), (signal.SIGINT, True, 130)],
    ids=["TERM to the script", "INT to the script", "Ctrl-C (INT to the group)"],
)
def test_a_signal_stops_the_run_interrupts_pytest_once_and_cleans_up(tmp_path, sig, group, status):
    proc, work = _run(tmp_path, **QUIET)
    try:
        port = _redis_port(work)
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)  # a CI runner's cancel may tell the script alone
        assert proc.wait(timeout=20) == status
        assert (tmp_path / "pytest.interrupted").read_text() == "x"  # once: its teardown ran
        assert not work.exists()
        with pytest.raises(OSError):  # no Redis left running
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        _end(proc, tmp_path)


def test_a_kill_of_the_runs_process_group_reaches_pytest(tmp_path):
    """`timeout -s KILL`, or a runner's last resort: pytest is in the script's group."""
    proc, _ = _run(tmp_path, **QUIET)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        time.sleep(0.5)
        assert not _alive(int((tmp_path / "pytest.started").read_text()))
    finally:
        _end(proc, tmp_path)


def test_pytest_reads_the_terminal_the_script_was_run_from(tmp_path):
    """--pdb and breakpoint() read the terminal: a background command of a script reads
    /dev/null, and one in a process group of its own is stopped by the read."""
    master, slave = os.openpty()

    def on_the_terminal():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc, _ = _run(
        tmp_path,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        preexec_fn=on_the_terminal,
        env={"STANDIN_READ": "1"},
    )
    os.close(slave)
    try:
        time.sleep(0.5)
        os.write(master, b"c\n")  # the developer answers pdb's prompt
        time.sleep(1.0)
        assert (tmp_path / "pytest.read").read_text() == "c\n"
        os.write(master, b"c\n")  # and again in the suite's second part
        assert proc.wait(timeout=15) == 0
        assert (tmp_path / "pytest.args").read_text().count("\n") == 2
    finally:
        _end(proc, tmp_path)
        os.close(master)


def _finished(tmp_path: Path, *args: str, status: str) -> tuple[int, list[str]]:
    proc = _start(tmp_path, *args, env={"STANDIN_EXIT": status}, **QUIET)
    try:
        code = proc.wait(timeout=30)
    finally:
        _end(proc, tmp_path)
    return code, (tmp_path / "pytest.args").read_text().splitlines()


@pytest.mark.parametrize("status", ["0", "1"])
def test_the_whole_suite_runs_side_by_side_then_the_serial_tests_and_fails_if_either_does(
    tmp_path, status
):
    """Without arguments: the tests not marked serial on two processes (xdist), then
    the serial ones alone; the script's status is the first failure's."""
    code, runs = _finished(tmp_path, status=status)
    assert runs == ["-n 2 --dist worksteal -m not serial", "-m serial"]
    assert code == int(status)


def test_arguments_are_one_pytest_run_of_just_those(tmp_path):
    code, runs = _finished(tmp_path, "-m", "browser", "-x", status="1")
    assert runs == ["-m browser -x"]
    assert code == 1
