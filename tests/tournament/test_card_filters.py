"""The card filters: every card of the deck written once, marked safe, and the same
text as before; anything else still written (and escaped) on the spot."""

from __future__ import annotations

import re

from django.template import Context, Template
from django.utils.safestring import SafeString

from games.cards import RANKS, SUITS
from tournament.templatetags.cards import card_colour, card_face, card_index, card_name


def test_every_card_of_the_deck():
    assert card_face("10H") == "10♥" and card_name("10H") == "10 of hearts"
    assert card_face("QS") == "Q♠" and card_name("QS") == "queen of spades"
    assert card_colour("AD") == "red" and card_colour("KC") == "black"
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for suit in SUITS:
        for rank in RANKS:
            card = rank + suit
            assert card_face(card) == rank + symbols[suit]
            assert card_name(card).endswith(
                " of " + {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[suit]
            )
            assert card_colour(card) == ("red" if suit in "HD" else "black")
            assert all(isinstance(f(card), SafeString) for f in (card_face, card_name, card_colour))


def test_a_value_outside_the_deck_is_still_escaped():
    html = Template("{% load cards %}{{ c|card_face }}|{{ c|card_name }}").render(
        Context({"c": "<b>H"})
    )
    assert html == "&lt;b&gt;♥|&lt;b&gt; of hearts"


def test_whole_seconds_are_what_floatformat_0_wrote():
    from django.template.defaultfilters import floatformat

    from tournament.templatetags.cards import seconds

    values = [0, 0.4, 0.5, 0.6, 1.5, 2.5, 59.49, 59.5, 299.999, 3600.0]
    values += [i / 8 for i in range(0, 8000)]
    for v in values:
        assert str(seconds(v)) == floatformat(v, 0), v
    assert seconds(-3.2) == 0


def test_card_index_is_the_parts_in_one_box_and_escapes_the_rest():
    """A hand's card: one box (on one line as the face, stacked by CSS where narrow)."""
    assert card_index("10H") == (
        '<span class="index"><span class="rank">10</span><span class="suit">♥</span></span>'
    )
    for card in (r + s for s in SUITS for r in RANKS):
        assert isinstance(card_index(card), SafeString)
        assert re.sub(r"<[^>]+>", "", card_index(card)) == card_face(card)
    assert "<b>" not in card_index("<b>H") and "&lt;b&gt;" in card_index("<b>H")
