"""People's and workshops' names in running text, isolated from what surrounds them.

A name is whatever its owner typed, in any script. Set beside digits or punctuation
in a line of English ("Bea 1, علي 2", "You said: דנה won."), a right-to-left name
takes its neighbours into its own direction and the line reads out of order. Each
name shown goes in a <bdi> element: the browser lays it out apart, in the direction
of its own first letter. (Attributes, <title> and <option> hold plain text and stay
as they are: a screen reader reads them in order.) Built into the Django templates
(settings: builtins); the phone screen's Jinja2 environment has its own bdi,
bdi_join and bdi_and ("Ana, Bea and you") writing the same element
(barnga/jinja2.py).
"""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from tournament import names

register = template.Library()


@register.filter
def bdi(name) -> str:
    """The name, escaped, as its own bidirectional island."""
    return mark_safe(f"<bdi>{conditional_escape(name)}</bdi>")


@register.filter
def bdi_join(names, separator=", ") -> str:
    """Names joined by `separator`, each its own island ("Most games won: A, B")."""
    return mark_safe(conditional_escape(separator).join(bdi(name) for name in names))


@register.filter
def bdi_and(people) -> str:
    """Names as a sentence lists them, each its own island: "Ana", "Ana and Bea",
    "Ana, Bea and Cleo" (a game's co-winners read "won by Ana, Bea")."""
    return mark_safe(names.said_as_list([bdi(name) for name in people]))


# Words (not names) as a sentence lists them, escaped as any text: "ace, which card
# wins and trump suit" (tournament.names).
register.filter("said_as_list", names.said_as_list)


# The full stop after names that end a sentence (tournament.names, which the report's
# sentences use too).
register.filter("full_stop", names.full_stop)
