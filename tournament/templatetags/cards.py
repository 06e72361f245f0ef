"""Card faces for templates: "10H" → "10♥", spoken "10 of hearts"; and whole seconds."""

import math

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games.cards import RANKS, SUITS

register = template.Library()

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}


def _face(card: str) -> str:
    return f"{card[:-1]}{SYMBOLS[card[-1]]}"


def _name(card: str) -> str:
    rank = card[:-1]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[card[-1]]}"


def _parts(card: str) -> str:
    return (
        f'<span class="rank">{escape(card[:-1])}</span>'
        f'<span class="suit">{escape(SYMBOLS.get(card[-1:], ""))}</span>'
    )


def _colour(card: str) -> str:
    return "red" if card[-1] in "HD" else "black"


# Every card of a deck, written once and marked safe (its text is letters, digits
# and suit symbols): a phone's screen shows each card three times, and escaping
# each value again on every render was a noticeable part of a render.
_DECK = [rank + suit for suit in SUITS for rank in RANKS]
_FACES = {c: mark_safe(escape(_face(c))) for c in _DECK}
_NAMES = {c: mark_safe(escape(_name(c))) for c in _DECK}
_COLOURS = {c: mark_safe(_colour(c)) for c in _DECK}
# The rank above the suit, for a card too narrow for both on one line.
# A hand's card: the parts in one box, on one line as the face ("10♥") unless the
# card is narrow (a hand of seven on a small phone), where CSS stacks them.
_INDEXES = {c: mark_safe(f'<span class="index">{_parts(c)}</span>') for c in _DECK}


@register.filter
def card_face(card: str) -> str:
    return _FACES.get(card) or _face(card)


@register.filter
def card_index(card: str) -> str:
    """The face as a hand shows it: rank and suit in one box, stacked where narrow."""
    return _INDEXES.get(card) or mark_safe(f'<span class="index">{_parts(card)}</span>')


@register.filter
def card_name(card: str) -> str:
    return _NAMES.get(card) or _name(card)


@register.filter
def card_colour(card: str) -> str:
    return _COLOURS.get(card) or _colour(card)


@register.filter
def seconds(value) -> int:
    """Whole seconds for a timer, as `floatformat:0` writes a non-negative number
    (half up), without its Decimal arithmetic: a phone's screen shows one or two
    timers, and floatformat was a visible part of every render. Never negative."""
    return max(0, math.floor(float(value) + 0.5))
