"""scripts/demo.sh prints an address a phone can open and serves on the one asked for.

The real script runs in a copy of scripts/ beside a stand-in bootstrap.sh whose
interpreter only notes how it was called: no install, no database, no server.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tournament.loadtest.servers import ROOT


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
    migrate, demo, serve = run_demo(tmp_path, **env)
    assert migrate == "manage.py migrate --noinput"
    assert demo == f"manage.py demo --url {url} --game five_tricks"
    assert serve == f"-m daphne -b {bind} -p 8000 barnga.asgi:application"
