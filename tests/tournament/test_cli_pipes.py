"""Every command-line tool ends quietly when its reader stops early (`… | head -1`),
as a Unix tool does, and keeps its exit status otherwise.

Each runs as a real subprocess with standard output a pipe whose reading end is
already closed: what `cmd | head -1` becomes once head has its line, without the race.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.cli import EXIT_READER_GONE

REPO = Path(__file__).resolve().parents[2]


def _env(tmp_path, unbuffered: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUNBUFFERED", "REDIS_URL")}
    if unbuffered:  # as the Dockerfile sets it
        env["PYTHONUNBUFFERED"] = "1"
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'cli.sqlite3'}"  # never a real database
    return env


def _commands(tmp_path) -> dict[str, list[str]]:
    standings = tmp_path / "standings.json"
    standings.write_text(
        json.dumps({"tables": [{"number": 1, "players": [{"name": "Ana", "games_won": 1}]}]})
    )
    export = tmp_path / "report.json"
    export.write_text(json.dumps({"schema": "barnga.workshop/1", "games": []}))
    py = sys.executable
    return {
        "games bench": [py, "-m", "games", "bench", "--games", "3"],
        "tournament.movement": [py, "-m", "tournament.movement", str(standings)],
        "tournament.check_export": [py, "-m", "tournament.check_export", str(export)],
        "manage.py check_export": [py, "manage.py", "check_export", str(export)],
    }


def _run(cmd, tmp_path, unbuffered: bool, reader_gone: bool) -> subprocess.CompletedProcess:
    read_end, write_end = os.pipe()
    if reader_gone:
        os.close(read_end)
    try:
        return subprocess.run(
            cmd,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=_env(tmp_path, unbuffered),
            timeout=120,
        )
    finally:
        os.close(write_end)
        if not reader_gone:
            os.close(read_end)


NAMES = ["games bench", "tournament.movement", "tournament.check_export", "manage.py check_export"]


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("name", NAMES)
def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path, name, unbuffered):
    proc = _run(_commands(tmp_path)[name], tmp_path, unbuffered, reader_gone=True)
    assert proc.stderr == "" and proc.returncode == EXIT_READER_GONE, proc.stderr


@pytest.mark.parametrize("name", NAMES)
def test_a_reader_that_reads_on_sees_the_commands_own_status(tmp_path, name):
    proc = _run(_commands(tmp_path)[name], tmp_path, unbuffered=False, reader_gone=False)
    assert proc.returncode == 0, proc.stderr


def test_an_error_keeps_its_status_and_its_line(tmp_path):
    missing = str(tmp_path / "missing.json")
    for cmd in (
        [sys.executable, "-m", "games", "replay", missing],
        [sys.executable, "manage.py", "check_export", missing],
    ):
        proc = _run(cmd, tmp_path, unbuffered=False, reader_gone=True)
        assert proc.returncode == 2 and "missing.json" in proc.stderr
        assert "Traceback" not in proc.stderr
