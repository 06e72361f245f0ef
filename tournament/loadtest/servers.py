"""Starting real server processes: Daphne on a port, with the environment given."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen | None = None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url.rstrip("/") + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before it was healthy")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} not healthy after {timeout} s")
        time.sleep(0.1)


def start_daphne(port: int, env: dict, log_path: Path | str | None = None) -> subprocess.Popen:
    """One web process. Its output goes to `log_path` (or is discarded)."""
    log = open(log_path, "ab") if log_path else subprocess.DEVNULL
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "barnga.settings", **env}
    return subprocess.Popen(
        # A listen backlog of 1024 (Twisted's default is 50): a room's phones
        # reconnecting at once otherwise meet dropped SYNs and retransmit timeouts.
        [
            sys.executable,
            "-m",
            "daphne",
            "--proxy-headers",
            "-e",
            f"tcp:port={port}:interface=127.0.0.1:backlog=1024",
            "barnga.asgi:application",
        ],
        cwd=ROOT,
        env=full_env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def run_manage(args: list[str], env: dict, *, input_text: str | None = None) -> str:
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "barnga.settings", **env}
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        input=input_text,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def stop(proc: subprocess.Popen, *, kill: bool = False) -> None:
    if proc.poll() is not None:
        return
    proc.kill() if kill else proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def fresh_database(server_url: str, name: str) -> str:
    """A new, empty database `name` on the PostgreSQL server at `server_url` (any of its
    databases); returns its URL. Tests and benches migrate it with run_manage."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path=f"/{name}"))
