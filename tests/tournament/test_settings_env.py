"""A variable of the environment that cannot be used stops manage.py and the web
process with one line naming it (barnga/env.py), not a traceback from a library."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_VARS = (
    "LOG_LEVEL",
    "REDIS_URL",
    "DATABASE_URL",
    "PROXY_HOPS",
    "PRODUCTION",
    "DEBUG",
    "SECRET_KEY",
    "BARNGA_GC_THRESHOLD",
)


def check(tmp_path, **env) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    base["DATABASE_URL"] = f"sqlite:///{tmp_path / 'never-used.sqlite3'}"
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("env", "line"),
    [
        (
            {"BARNGA_RETENTION_DAYS": "abc"},
            "barnga: BARNGA_RETENTION_DAYS must be a whole number, not 'abc'",
        ),
        ({"CONN_MAX_AGE": "x"}, "barnga: CONN_MAX_AGE must be a whole number, not 'x'"),
        (
            {"BARNGA_TIMER_INTERVAL": "fast"},
            "barnga: BARNGA_TIMER_INTERVAL must be a number of seconds, not 'fast'",
        ),
        (
            {"LOG_LEVEL": "LOUD"},
            "barnga: LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not 'LOUD'",
        ),
        (
            {"REDIS_URL": "localhost:6379"},
            "barnga: REDIS_URL must start redis://, rediss:// or unix://, not 'localhost:6379'",
        ),
        ({"DATABASE_URL": "garbage"}, "barnga: DATABASE_URL is not a database address (Scheme"),
        # A password with a slash, as base64 gives, breaks the address compose builds.
        (
            {"DATABASE_URL": "postgres://barnga:ab/cd@db:5432/barnga"},
            "barnga: DATABASE_URL is not a database address",
        ),
        ({"PROXY_HOPS": "0"}, "barnga: PROXY_HOPS must be at least 1, not 0"),
        ({"BARNGA_GC_THRESHOLD": "abc"}, "barnga: BARNGA_GC_THRESHOLD must be three whole numbers"),
        ({"PRODUCTION": "1", "SECRET_KEY": ""}, "barnga: SECRET_KEY must be set when PRODUCTION=1"),
        (
            {"PRODUCTION": "1", "SECRET_KEY": "k" * 50, "DEBUG": "1"},
            "barnga: DEBUG must be off when PRODUCTION=1",
        ),
    ],
)
def test_a_value_that_cannot_be_used_is_one_line_naming_it(tmp_path, env, line):
    done = check(tmp_path, **env)
    assert done.returncode == 2
    assert done.stderr.startswith(line) and done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("level", ["info", "Warning", " debug "])
def test_a_log_level_in_any_case_is_taken(tmp_path, level):
    """LOG_LEVEL=info stopped every start (logging takes capitals only)."""
    done = check(tmp_path, LOG_LEVEL=level)
    assert done.returncode == 0, done.stderr


def test_the_web_process_stops_with_the_same_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", "import barnga.asgi"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k not in SETTINGS_VARS},
            "DJANGO_SETTINGS_MODULE": "barnga.settings",
            "BARNGA_RUN_TIMERS": "0",
            "REDIS_URL": "garbage",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert (
        done.stderr
        == "barnga: REDIS_URL must start redis://, rediss:// or unix://, not 'garbage'\n"
    )
