"""The base games a workshop can play, by key (see base.py for what a kind is)."""

from __future__ import annotations

from .all_fives import KIND as ALL_FIVES
from .base import GameKind, MoveError
from .five_tricks import KIND as FIVE_TRICKS
from .seven_up import KIND as SEVEN_UP
from .three_tricks import KIND as THREE_TRICKS

KINDS: dict[str, GameKind] = {k.key: k for k in (FIVE_TRICKS, ALL_FIVES, THREE_TRICKS, SEVEN_UP)}
TITLES: dict[str, str] = {k: v.title for k, v in KINDS.items()}


def get(key: str) -> GameKind:
    """The kind for ``key``; KeyError for a game this app does not know."""
    return KINDS[key]


__all__ = ["KINDS", "TITLES", "GameKind", "MoveError", "get"]
