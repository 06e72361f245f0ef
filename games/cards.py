"""Card notation shared by every game engine.

A card is a plain upper-case string: rank (A 2 3 4 5 6 7 8 9 10 J Q K) followed by
suit (S H D C), e.g. ``"AS"``, ``"7H"``, ``"10D"``. Plain strings keep states,
action logs and views JSON-able without conversion.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_NAME_SINGULAR = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}

# Five Tricks uses only A and 2-7 of each suit.
FIVE_TRICKS_RANKS = ("A", "2", "3", "4", "5", "6", "7")

_ALL_CARDS = frozenset(r + s for s in SUITS for r in RANKS)
_FIVE_TRICKS_CARDS = frozenset(r + s for s in SUITS for r in FIVE_TRICKS_RANKS)


def parse_card(text: object) -> str:
    """Return the canonical form of ``text`` ("as " -> "AS"), or raise ValueError."""
    if not isinstance(text, str):
        raise ValueError(f"A card must be written as text like 'AS' or '10D', not {text!r}.")
    card = text.strip().upper()
    if card in _ALL_CARDS:
        return card
    raise ValueError(
        f"{text!r} is not a card: write a rank (A, 2-10, J, Q, K) followed by a suit "
        "(S, H, D, C), for example 'AS', '7H' or '10D'."
    )


def is_card(text: object) -> bool:
    """True if ``text`` is already a canonical card string."""
    return isinstance(text, str) and text in _ALL_CARDS


def is_five_tricks_card(card: str) -> bool:
    """True if ``card`` (canonical) belongs to the 28-card Five Tricks deck."""
    return card in _FIVE_TRICKS_CARDS


def rank(card: str) -> str:
    """Rank part of a canonical card: "10D" -> "10"."""
    return card[:-1]


def suit(card: str) -> str:
    """Suit letter of a canonical card: "10D" -> "D"."""
    return card[-1]


def five_tricks_deck() -> list[str]:
    """The 28 Five Tricks cards in a fixed order (suit by suit, A then 2-7)."""
    return [r + s for s in SUITS for r in FIVE_TRICKS_RANKS]


def full_deck() -> list[str]:
    """The 52-card deck in a fixed order (suit by suit, A, 2-10, J, Q, K)."""
    return [r + s for s in SUITS for r in RANKS]


def shuffled(cards: Iterable[str], seed: int | str) -> list[str]:
    """A new list with ``cards`` shuffled by ``random.Random(seed)``; same seed, same order."""
    out = list(cards)
    random.Random(seed).shuffle(out)
    return out
