"""Shared fixtures: a real Redis server for the tests that need one."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from urllib.parse import urlsplit

import pytest


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


# Run one after another, never beside other tests (scripts/test.sh runs the rest in
# parallel first): they start server processes of their own, several at a time, and
# load the machine on purpose.
SERIAL_DIRS = ("load", "reliability", "topology")


def pytest_collection_modifyitems(config, items):
    tests = os.path.dirname(__file__)
    for item in items:
        part = os.path.relpath(str(item.path), tests).split(os.sep)[0]
        if part in SERIAL_DIRS:
            item.add_marker(pytest.mark.serial)


def worker_database(url: str) -> str:
    """`url` with the Redis database of this xdist worker (gw0 0, gw1 1, ...): the
    workers share scripts/test.sh's Redis, and each one's workshops are numbered from 1
    in a database of its own, so their groups and rate counters would otherwise meet."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    number = int(worker.removeprefix("gw"))
    if number > 15:
        pytest.fail(f"Redis has 16 databases: worker {worker} has none of its own")
    return urlsplit(url)._replace(path=f"/{number}").geturl()


@pytest.fixture(scope="session")
def redis_url():
    """BARNGA_TEST_REDIS_URL (scripts/test.sh starts one), or a private redis-server."""
    url = os.environ.get("BARNGA_TEST_REDIS_URL")
    if url:
        yield worker_database(url)
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed: run the suite with scripts/test.sh")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    workdir = tempfile.mkdtemp(prefix="barnga-redis-")
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            workdir,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            if _ping(port):
                break
            time.sleep(0.05)
        else:
            pytest.fail("redis-server did not start")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def pinned_rate_window(monkeypatch):
    """Rate-limit windows are fixed (`time.time() // window`): a test that counts joins
    and crosses a window's edge would start a fresh count and see no limit. Pin the
    limiter's clock in the middle of a window (of 60 s and of 600 s) and start with no
    counters, so a test's attempts all fall in one window."""
    from django.core.cache import cache

    from tournament import ratelimit

    pinned = (time.time() // 600) * 600 + 30.0

    class _Clock:
        @staticmethod
        def time() -> float:
            return pinned

    monkeypatch.setattr(ratelimit, "time", _Clock)
    cache.clear()
    yield pinned
    cache.clear()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_url():
    """A private PostgreSQL server (Debian's binaries), on a free port, for this run only."""
    url = os.environ.get("BARNGA_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.fail("PostgreSQL is not installed: run the suite with scripts/test.sh")
    bindir = os.path.dirname(found[-1])
    workdir = tempfile.mkdtemp(prefix="barnga-pg-")
    data = os.path.join(workdir, "data")
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        shutil.chown(workdir, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    subprocess.run(
        [*as_user, f"{bindir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    proc = subprocess.Popen(
        [
            *as_user,
            f"{bindir}/postgres",
            "-D",
            data,
            "-p",
            str(port),
            "-k",
            workdir,
            "-h",
            "127.0.0.1",
            "-c",
            "fsync=off",
            "-c",
            "synchronous_commit=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "max_connections=200",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            ready = subprocess.run(
                [f"{bindir}/pg_isready", "-h", "127.0.0.1", "-p", str(port)],
                stdout=subprocess.DEVNULL,
            )
            if ready.returncode == 0:
                break
            time.sleep(0.05)
        else:
            pytest.fail("PostgreSQL did not start")
        subprocess.run(
            [f"{bindir}/createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "barnga"],
            check=True,
        )
        yield f"postgres://postgres@127.0.0.1:{port}/barnga"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(workdir, ignore_errors=True)
