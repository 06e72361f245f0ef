"""`manage.py loadtest`, small: 50 bot phones on 2 Daphne processes, Redis and PostgreSQL.

The command is a public contract (README, "Command-line contracts"): one JSON line on stdout,
and a non-zero exit when an acknowledged action is missing from the stored log or
stored twice. This runs it for real and holds it to zero lost, zero duplicated and
zero errors. Latency and throughput are benchmarks (README figures), not asserted.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid

import pytest

from tournament.loadtest.servers import ROOT, fresh_database, run_manage

pytestmark = [pytest.mark.slow, pytest.mark.redis]

KEYS = {
    "players",
    "actions",
    "actions_per_s",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "errors",
    "lost",
    "duplicated",
}


def migrated_env(prefix: str, redis_url: str, postgres_url: str) -> dict:
    """The environment of a run on a fresh, migrated PostgreSQL database of its own."""
    db = fresh_database(postgres_url, prefix + uuid.uuid4().hex[:8])
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "barnga.settings",
        "DATABASE_URL": db,
        "REDIS_URL": redis_url,
        "LOG_LEVEL": "WARNING",
    }
    run_manage(["migrate", "-v0"], env)
    return env


def loadtest(env: dict, *args: str, timeout: int) -> subprocess.CompletedProcess:
    """`manage.py loadtest` with `args`, run to its end in `env`: the finished process
    (stdout its JSON line, stderr its report), which exited 0."""
    done = subprocess.run(
        [sys.executable, "manage.py", "loadtest", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_fifty_players_on_two_processes_lose_nothing(redis_url, postgres_url):
    env = migrated_env("load_", redis_url, postgres_url)
    done = loadtest(env, "--players", "50", "--seconds", "15", "--servers", "2", timeout=150)
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout  # everything else goes to stderr
    figures = json.loads(lines[0])
    assert set(figures) == KEYS
    assert figures["players"] == 50
    assert figures["actions"] > 0, done.stderr[-3000:]
    assert (figures["lost"], figures["duplicated"]) == (0, 0), (figures, done.stderr[-3000:])
    # A bot that tapped on a view the table had just left gets a `stale` refusal and
    # a resync: the protocol working, not a fault. Any other error fails the test.
    import ast
    import re

    kinds = re.search(r"errors by kind: (\{[^}]*\})", done.stderr)
    other = {
        k: n
        for k, n in (ast.literal_eval(kinds.group(1)) if kinds else {}).items()
        if k != "error:stale"
    }
    assert other == {}, (figures, done.stderr[-3000:])
    # A clean run leaves no server logs behind in the temporary directory.
    logs = re.search(r"logs in (\S+)", done.stderr)
    assert logs and not os.path.exists(logs.group(1)), done.stderr[-3000:]
    assert figures["errors"] <= 5, (figures, done.stderr[-3000:])
    # Where the machine's time went, per action, beside the figures (README, "Figures").
    cpu = re.search(r"cpu ms per action: web ([\d.]+) · bot clients ([\d.]+)", done.stderr)
    assert cpu and float(cpu.group(1)) > 0 and float(cpu.group(2)) > 0, done.stderr[-3000:]


def test_the_stored_echo_keeps_every_acknowledged_message_and_its_tables_go(
    redis_url, postgres_url
):
    """`--baseline-store`, the floor the README's figures compare the app with: every
    acknowledged echo is a stored row (the run holds the acks against them and exits 1
    on any missing), and the run drops its two tables afterwards."""
    import psycopg

    env = migrated_env("echo_", redis_url, postgres_url)
    done = loadtest(
        env, "--players", "10", "--seconds", "4", "--servers", "2", "--baseline-store", timeout=120
    )
    figures = json.loads(done.stdout.strip())
    assert set(figures) == KEYS
    assert figures["actions"] > 0, done.stderr[-3000:]
    assert (figures["lost"], figures["duplicated"], figures["errors"]) == (0, 0, 0), figures
    with psycopg.connect(env["DATABASE_URL"]) as conn:
        left = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'bench_echo%%'"
        ).fetchall()
    assert left == []


@pytest.mark.parametrize(("game", "panel"), [("seven_up", False), ("all_fives", True)])
def test_the_other_games_bots_play_as_fast_as_they_can_and_lose_nothing(
    game, panel, redis_url, postgres_url
):
    """`--game` (README, "Command-line contracts"): bots at 7Up7Down or All Fives tables, at
    --think-ms 0 (where an All Fives seat acting several times running had passed the
    server's flood limit and waited for an answer that never came). The All Fives run
    keeps the facilitator's panel open too (`--facilitator`): it is sent the tables'
    moves through its compressed socket, and a panel that failed to connect or was
    closed would count as errors."""
    env = migrated_env("load_game_", redis_url, postgres_url)
    panel_args = ["--facilitator"] if panel else []
    done = loadtest(
        env, "--players", "15", "--seconds", "6", "--servers", "2", "--game", game, *panel_args,
        timeout=150,
    )  # fmt: skip
    figures = json.loads(done.stdout.strip())
    assert figures["actions"] > 30, done.stderr[-3000:]
    assert (figures["lost"], figures["duplicated"], figures["errors"]) == (0, 0, 0), (
        figures,
        done.stderr[-3000:],
    )
    assert f"({game}): 15 players" in done.stderr
    pushes = re.search(r"facilitator panel: (\d+) pushes in 6 s, [\d.]+ MB", done.stderr)
    if panel:
        assert pushes and int(pushes.group(1)) >= 2, done.stderr[-3000:]
    else:
        assert pushes is None
