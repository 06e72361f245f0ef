"""bench/actions.py: an action's service call timed without sockets, on PostgreSQL.

A benchmark, so nothing about its speed is asserted: that it plays (every table
acts, through the services, and what it stored is a consistent log), and that it
prints its one JSON line with a figure for each round, or refuses bad arguments.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import pytest
from fault_cluster import clone_database

from tournament.loadtest.servers import ROOT, run_manage

pytestmark = [pytest.mark.slow]


def bench(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "bench/actions.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_action_bench_plays_through_the_services_and_prints_its_figures(
    postgres_url, fault_template
):
    db = clone_database(postgres_url, fault_template, "bench_actions_" + uuid.uuid4().hex[:8])
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "barnga.settings",
        "DATABASE_URL": db,
        "LOG_LEVEL": "WARNING",
    }
    done = bench(["--tables", "3", "--rounds", "2", "--seconds", "0.5"], env)
    assert done.returncode == 0, done.stderr[-3000:]
    (line,) = done.stdout.strip().splitlines()
    figures = json.loads(line)
    assert figures["tables"] == 3 and len(figures["rounds"]) == 2
    for r in figures["rounds"]:
        assert r["actions_per_s"] > 0 and r["web_cpu_ms"] > 0 and r["postgres_cpu_ms"] >= 0
    assert figures["median_actions_per_s"] > 0
    # What it played is stored as the services store it: every table's log replays.
    checked = run_manage(
        [
            "shell",
            "-c",
            "from tournament import integrity; "
            "from tournament.models import Action; "
            "n, problems = integrity.workshop_problems(); "
            "print(n, len(problems), Action.objects.count())",
        ],
        env,
    ).split()
    games, problems, actions = (int(x) for x in checked[-3:])
    assert problems == 0 and games >= 3 and actions > 3


def test_the_action_bench_refuses_a_round_count_of_zero():
    done = bench(["--rounds", "0"], {**os.environ})
    assert done.returncode == 2 and "--rounds must be at least 1" in done.stderr
    assert done.stdout == ""
