"""scripts/test.sh stopped early (a CI job cancelled, Ctrl-C): the run ends at once,
pytest is interrupted as by Ctrl-C (its fixtures stop the servers they started), and
the private Redis and the run's directory go.

The real script and bootstrap.sh run in a copy of scripts/ whose .venv/bin/python
stands in for pytest (a Python that waits and notes a KeyboardInterrupt) and passes
everything else to this interpreter; a no-op `uv` on PATH. Real redis-server.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tournament.loadtest.servers import ROOT

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")

PYTEST_STANDIN = """\
import pathlib, sys, time
here = pathlib.Path(sys.argv[1])
(here / "pytest.started").write_text("")
try:
    time.sleep(60)
except KeyboardInterrupt:
    (here / "pytest.interrupted").write_text("")
    sys.exit(2)
"""


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "scripts", root / "scripts")
    (tmp_path / "standin.py").write_text(PYTEST_STANDIN)
    venv_bin = root / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    python = venv_bin / "python"
    python.write_text(textwrap.dedent(f"""\
        #!/bin/bash
        if [ "$1 $2" = "-m ruff" ]; then exit 0; fi
        if [ "$1 $2" = "-m pytest" ]; then exec {sys.executable} {tmp_path}/standin.py {tmp_path}; fi
        exec {sys.executable} "$@"
        """))
    python.chmod(0o755)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "uv").write_text("#!/bin/bash\nexit 0\n")
    (tools / "uv").chmod(0o755)
    return root


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_a_signal_stops_the_run_interrupts_pytest_and_cleans_up(tmp_path, sig):
    root = _copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "BARNGA_TEST_DB"}
    env |= {"PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen(
        ["bash", str(root / "scripts" / "test.sh")], env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "pytest.started").exists():
            assert time.monotonic() < deadline and proc.poll() is None, proc.stdout.read()
            time.sleep(0.1)
        [work] = tmp_path.glob("barnga-test.*")
        port = int(re.search(r"port=(\d+)", (work / "redis.log").read_text()).group(1))
        socket.create_connection(("127.0.0.1", port), timeout=2).close()  # Redis is up
        proc.send_signal(sig)  # to the script alone, as a CI runner's cancel may
        status = proc.wait(timeout=15)
        assert status == (143 if sig == signal.SIGTERM else 130)
        assert (tmp_path / "pytest.interrupted").exists()  # its teardown ran
        assert not work.exists()
        with pytest.raises(OSError):  # no Redis left running
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
