"""The facilitator's live regions: one partial per region, for the page and for the socket.

A page and a websocket push render the same templates with the same context,
so a reload shows exactly what the last push showed. Each region's template has
a root element whose id is the region's key below. The panel's are Jinja2
(templates/jinja2/facilitator/, barnga/jinja2.py says why); the projector's and a
table's are Django's.
"""

from __future__ import annotations

import hashlib
import re

from django.template.loader import render_to_string

from tournament import selectors_facilitator as sf

PANEL_REGIONS = {
    "fac-status": "facilitator/_status.html",
    "fac-settings": "facilitator/_settings.html",  # in the status's box: see its template
    "fac-roster": "facilitator/_roster.html",
    "fac-movement": "facilitator/_movement.html",
    "fac-monitor": "facilitator/_monitor.html",
}
PROJECTOR_REGIONS = {
    "projector-heading": "facilitator/_projector_heading.html",
    "projector-live": "facilitator/_projector_live.html",
}
TABLE_REGIONS = {"fac-table": "facilitator/_table.html"}
VIEWS = ("panel", "projector", "table")


# A running clock's seconds and its text, up to the next tag:
# `data-seconds="123" data-running="1" … >2:03`. (A paused one is compared whole: a
# minute added during a pause changes only its seconds.)
_CLOCK_NOW = re.compile(r'(data-seconds=")[^"]*(" data-running="1"[^>]*>)[^<]*')


def settled(html: str) -> str:
    """A region as it stands apart from its running clocks' seconds.

    The page counts its clocks down itself, so a region whose only change is that a
    second has passed need not be sent again (nor replaced under the facilitator's
    pointer, nor the projector redrawn four times a second while tables play). A
    running clock carries its deadline, which pausing, resuming or adding time changes.
    """
    return _CLOCK_NOW.sub(r"\1\2", html)


# A form's CSRF input: in the page (rendered with its request), never in a push.
_CSRF_INPUT = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')


def digest(html: str) -> str:
    """A short fingerprint of a region as a push would carry it (settled, no CSRF input)."""
    return hashlib.sha1(settled(_CSRF_INPUT.sub("", html)).encode()).hexdigest()[:16]


def have(parts: dict[str, str]) -> str:
    """What a page holds, for its socket's first connection: "id:digest,id:digest"."""
    return ",".join(f"{rid}:{digest(html)}" for rid, html in parts.items())


def parse_have(text: str) -> dict[str, str]:
    """`have`'s text back as {region id: digest}; anything malformed is left out."""
    out = {}
    for item in text.split(",")[:16]:
        rid, _, value = item.partition(":")
        if rid and re.fullmatch(r"[0-9a-f]{16}", value):
            out[rid] = value
    return out


# The panel's monitor and the cards in it, each a region of its own (`mt-card-<table>`):
# a move at one table of 40 sent the whole monitor (84 kB, twice a second while they
# play, and the page parsed it all again); its card alone is about 2 kB. A card is a
# whole region still, from the same render as the monitor it sits in.
MONITOR = "fac-monitor"
# A card: its root to its end tag (no card holds another article; a name in it is
# escaped, so none holds "</article>" either).
_CARD = re.compile(r'<article id="(mt-card-\d+)"[^>]*>.*?</article>', re.S)


def monitor_parts(html: str) -> tuple[str, dict[str, str]]:
    """The monitor as its frame (each card left as an empty root: the heading, which
    tables, in what order) and its cards, {id: html}. Put back into the frame, the
    cards are the monitor again, character for character."""
    cards: dict[str, str] = {}

    def cut(match: re.Match) -> str:
        cards[match.group(1)] = match.group(0)
        return f'<article id="{match.group(1)}"></article>'

    return _CARD.sub(cut, html), cards


def context(view: str, workshop, *, table_number: int | None = None, skip=()) -> dict | None:
    if view == "panel":
        return sf.panel(workshop, roster="fac-roster" not in skip)
    if view == "projector":
        return sf.projector(workshop)
    if view == "table" and table_number is not None:
        return sf.table_detail(workshop, table_number)
    return None


def templates(view: str) -> dict[str, str]:
    return {"panel": PANEL_REGIONS, "projector": PROJECTOR_REGIONS, "table": TABLE_REGIONS}[view]


def render(
    view: str, workshop_id: int, user, *, table_number: int | None = None, skip=()
) -> dict[str, str] | None:
    """Every region of `view` as {id: html}, but those in `skip`; None when `user` may
    not see this workshop."""
    workshop = sf.own_workshop(workshop_id, user)
    if workshop is None:
        return None
    ctx = context(view, workshop, table_number=table_number, skip=skip)
    if ctx is None:
        return None
    return draw(view, ctx, skip=skip)


def draw(view: str, ctx: dict, request=None, *, skip=()) -> dict[str, str]:
    """Every region of `view` (but those in `skip`) from its context, as {id: html}: a
    push (no request) or a page (its request adds the forms' CSRF inputs, which
    `digest` leaves out)."""
    return {
        rid: render_to_string(tpl, ctx, request)
        for rid, tpl in templates(view).items()
        if rid not in skip
    }
