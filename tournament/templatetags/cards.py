"""Card faces for templates: "10H" → "10♥", spoken "10 of hearts"."""

from django import template

register = template.Library()

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}


@register.filter
def card_face(card: str) -> str:
    return f"{card[:-1]}{SYMBOLS[card[-1]]}"


@register.filter
def card_name(card: str) -> str:
    rank = card[:-1]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[card[-1]]}"


@register.filter
def card_colour(card: str) -> str:
    return "red" if card[-1] in "HD" else "black"
