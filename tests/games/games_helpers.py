"""Shared helpers for the engine tests (imported by name: tests/games is on sys.path)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

from games import five_tricks as ft
from games.tricks import TrickRules

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

HIGH = TrickRules(ace="high", wins="highest", trump=None)


def rules(ace="high", wins="highest", trump=None, trump_when="void") -> TrickRules:
    return TrickRules(ace=ace, wins=wins, trump=trump, trump_when=trump_when)


def config(table, n=None, *, seats=None, mode="barnga") -> ft.Config:
    if seats is None:
        return ft.Config.uniform(table, n, mode=mode)
    return ft.Config(table_rules=table, seat_rules=tuple(seats), mode=mode)


def play(state: ft.State, *cards: str, events: list | None = None) -> ft.State:
    """Play ``cards`` in order, each by whoever's turn it is (play phase only)."""
    for card in cards:
        assert state.phase == "play", f"cannot play {card} in phase {state.phase}"
        state, evs = ft.apply(state, {"type": "play", "seat": state.to_act, "card": card})
        if events is not None:
            events.extend(evs)
    return state


def claim(state: ft.State, seat: int, winner: int, events: list | None = None) -> ft.State:
    state, evs = ft.apply(state, {"type": "claim", "seat": seat, "winner": winner})
    if events is not None:
        events.extend(evs)
    return state


def claim_all(state: ft.State, winner: int) -> ft.State:
    for seat in range(state.n_seats):
        state = claim(state, seat, winner)
    return state


def timeout(state: ft.State, events: list | None = None) -> ft.State:
    state, evs = ft.apply(state, {"type": "timeout"})
    if events is not None:
        events.extend(evs)
    return state


def run_tricks(state: ft.State, tricks: list[list[str]]) -> ft.State:
    """Play whole tricks; in Barnga mode settle each by the table's sheet via a timeout."""
    for cards in tricks:
        state = play(state, *cards)
        if state.phase == "claim":
            state = timeout(state)
    return state


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def docs_replay_example(doc_name: str, heading: str = "The replay record") -> tuple[dict, object]:
    """The record and the printed output of a rules doc's replay example: the first
    two JSON blocks under its heading."""
    section = (DOCS / doc_name).read_text().split(f"\n## {heading}\n", 1)[1]
    record, output = [b.split("```", 1)[0] for b in section.split("```json\n")[1:3]]
    return json.loads(record), json.loads(output)


# ---------------------------------------------------------------- the command line


def games_cli(args, stdin=None) -> subprocess.CompletedProcess:
    """``python -m games ARGS`` from the project root, its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "games", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def replay_cli(doc, tmp_path, name="game.json") -> subprocess.CompletedProcess:
    """``python -m games replay`` on ``doc`` (an object, or text as it is) saved as a file."""
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return games_cli(["replay", str(path)])


def cli_ok(proc) -> dict:
    """The one JSON line a successful run printed."""
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.count("\n") == 1
    return json.loads(proc.stdout)


def cli_error(proc) -> dict:
    """The JSON error object a refused run printed to stderr, exit status 2."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == ""
    payload = json.loads(proc.stderr)
    assert isinstance(payload["error"], str) and payload["error"]
    return payload


# ---------------------------------------------------------------- 7Up7Down's first deal

# Three seats, deal 0 (7 cards), dealer seat 2: seat 0 bids first and leads. Trump
# hearts (AH). Seat 0 holds the top spades, seat 1 six low spades and the 2 of
# trumps, seat 2 clubs: seat 0 wins six spade tricks, seat 1 trumps the last.
SEVEN = [
    ["AS", "KS", "QS", "JS", "10S", "9S", "8S"],
    ["2S", "3S", "4S", "5S", "6S", "7S", "2H"],
    ["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
]
SEVEN_PLAYS = [
    "AS", "2S", "2C",
    "KS", "3S", "3C",
    "QS", "4S", "4C",
    "JS", "5S", "5C",
    "10S", "6S", "6C",
    "9S", "7S", "7C",
    "8S", "2H", "8C",
]  # fmt: skip
