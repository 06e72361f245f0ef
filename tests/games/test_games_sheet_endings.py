"""What every study sheet says about a game stopped early agrees with the engine: a
game stopped before anything was scored (no trick taken in Five Tricks, no deal scored
in 7Up7Down, every score 0 in All Fives, level piles in 3 Tricks) has no winner."""

from __future__ import annotations

import pytest

from games import kinds


def _rules(preset) -> dict:
    return preset.to_dict() if hasattr(preset, "to_dict") else dict(preset)


@pytest.mark.parametrize("key", sorted(kinds.KINDS))
def test_a_game_stopped_before_anything_counts_has_no_winner_and_every_sheet_says_so(key):
    kind = kinds.get(key)
    for name, preset in kind.presets.items():
        rules = _rules(preset)
        sections = kind.sheet(rules)["sections"]
        early = [s["text"] for s in sections if "stopped early" in s["text"]]
        assert len(early) == 1 and "nobody wins" in early[0], (key, name, sections)
        state = kind.new_state(
            table_rules=rules, seat_rules=[rules] * kind.min_seats, mode="barnga", seed=1
        )
        assert kind.outcome(state)["winners"] == [], (key, name)
