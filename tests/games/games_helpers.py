"""Shared helpers for the engine tests (imported by name: tests/games is on sys.path)."""

from __future__ import annotations

import json
import pathlib

from games import five_tricks as ft
from games.tricks import TrickRules

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"

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
