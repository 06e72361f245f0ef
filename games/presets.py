"""The twenty rule sheets of the seed documents as named presets.

``guide-N``: the ten Five Tricks sheets of the tournament guide (../shared/seeds/000), N
being the table number printed with the heart on each sheet's footer line (an
ace there means table 1). ``appendix-N``: the ten sheets of appendix 2
(../shared/seeds/002), N being the sheet's position in that document. The knobs were read
off each sheet as RULES.md section 1 instructs; the table in
tests/games/test_games_presets.py restates them one by one.
"""

from __future__ import annotations

from .tricks import TrickRules

_H, _L = "high", "low"
_HI, _LO = "highest", "lowest"


def _r(ace: str, wins: str, trump: str | None, trump_when: str = "void") -> TrickRules:
    return TrickRules(ace=ace, wins=wins, trump=trump, trump_when=trump_when)


PRESETS: dict[str, TrickRules] = {
    # Tournament guide (../shared/seeds/000). Every sheet makes the ace the best card: "ace
    # highest, highest wins" or "ace lowest, lowest wins".
    "guide-1": _r(_H, _HI, "S"),
    "guide-2": _r(_L, _LO, "H"),
    "guide-3": _r(_H, _HI, "D"),
    "guide-4": _r(_L, _LO, "C"),
    "guide-5": _r(_H, _HI, "H"),
    "guide-6": _r(_L, _LO, "S"),
    "guide-7": _r(_H, _HI, "C"),
    "guide-8": _r(_L, _LO, "D"),
    # Sheet 9 says "the club you played" in a hearts sheet: it means the heart.
    "guide-9": _r(_H, _HI, "H", "any"),
    "guide-10": _r(_L, _LO, "C", "any"),
    # Appendix 2 (../shared/seeds/002): "the strongest card takes the trick" everywhere, so
    # wins is always "highest"; "the ace is the weakest card" means ace low.
    "appendix-1": _r(_L, _HI, "S"),
    "appendix-2": _r(_L, _HI, None),
    "appendix-3": _r(_H, _HI, "S"),
    "appendix-4": _r(_H, _HI, "S", "any"),
    "appendix-5": _r(_L, _HI, "S", "any"),
    "appendix-6": _r(_L, _HI, "D", "any"),
    "appendix-7": _r(_H, _HI, "D", "any"),
    "appendix-8": _r(_H, _HI, "D"),
    # Same knobs as appendix-2: the seed has two identical no-trump sheets.
    "appendix-9": _r(_L, _HI, None),
    "appendix-10": _r(_L, _HI, "D"),
}

PRESET_TITLES: dict[str, str] = {
    # "Sheet", not "Table": a workshop deals these sheets to its tables in any order.
    **{f"guide-{n}": f"Sheet {n} (Tournament guide)" for n in range(1, 11)},
    **{f"appendix-{n}": f"Sheet {n} (Appendix 2)" for n in range(1, 11)},
}


def preset_names() -> list[str]:
    """Preset slugs in a stable order: guide-1..guide-10, then appendix-1..appendix-10."""
    return list(PRESETS)


def get_preset(name: str) -> TrickRules:
    """The preset called ``name``; ValueError naming the known ones otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"Unknown preset {name!r}; known: {', '.join(PRESETS)}.") from None
