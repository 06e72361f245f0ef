"""Choosing secret sheets for tables: pure, seeded, no database.

Automatic assignment gives every table a different preset (and different knobs), chosen so that
neighbouring tables (numbers n and n+1, the tables players move between) differ
in at least two knobs. A depth-first search over a seeded shuffle of the presets
finds such a sequence; with 20 presets it exists for any table count up to 20.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.tricks import TrickRules

MIN_NEIGHBOUR_DIFF = 2


class AssignmentError(ValueError):
    pass


def knob_difference(a: TrickRules, b: TrickRules) -> int:
    return len(a.diff(b))


def auto_assign(count: int, presets: Mapping[str, TrickRules], seed: int) -> list[str]:
    """Preset names for tables 1..count (index 0 = table 1)."""
    if count < 1:
        raise AssignmentError("A workshop needs at least one table.")
    distinct = len(set(presets.values()))
    if count > distinct:
        cycle = _search(distinct, presets, seed, wrap=True)
        return [cycle[i % distinct] for i in range(count)]
    return _search(count, presets, seed, wrap=False)


def _search(count: int, presets: Mapping[str, TrickRules], seed: int, *, wrap: bool) -> list[str]:
    names = list(presets)
    rng = random.Random(seed)
    rng.shuffle(names)
    chosen: list[str] = []
    used: set[str] = set()

    def search() -> bool:
        if len(chosen) == count:
            return (
                not wrap
                or knob_difference(presets[chosen[-1]], presets[chosen[0]]) >= MIN_NEIGHBOUR_DIFF
            )
        for name in names:
            if name in used or any(presets[c] == presets[name] for c in chosen):
                continue
            if chosen and knob_difference(presets[chosen[-1]], presets[name]) < MIN_NEIGHBOUR_DIFF:
                continue
            chosen.append(name)
            used.add(name)
            if search():
                return True
            chosen.pop()
            used.discard(name)
        return False

    if not search():
        raise AssignmentError(
            f"No way to give {count} tables different sheets with neighbours differing in "
            f"{MIN_NEIGHBOUR_DIFF} knobs."
        )
    return chosen


def check_assignment(rules: list[TrickRules]) -> list[str]:
    """Warnings for a manual assignment (allowed, but the facilitator should know)."""
    warnings = []
    for i in range(len(rules) - 1):
        d = knob_difference(rules[i], rules[i + 1])
        if 0 < d < MIN_NEIGHBOUR_DIFF:  # equal rules get their own warning below
            warnings.append(
                f"Tables {i + 1} and {i + 2} differ in only {d} rule{'s' if d != 1 else ''}: "
                f"neighbouring tables usually differ in {MIN_NEIGHBOUR_DIFF}."
            )
    for i in range(len(rules)):
        for j in range(i + 1, len(rules)):
            if rules[i] == rules[j]:
                warnings.append(f"Tables {i + 1} and {j + 1} have the same rules.")
    return warnings
