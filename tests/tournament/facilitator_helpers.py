"""Shared by the facilitator tests: what the projector must never show."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from games.presets import PRESET_TITLES
from tournament import gamestate, regions
from tournament.models import Game, Table

SECRET_WORDS = [
    "highest",
    "lowest",
    "trump",
    "void",
    "ace high",
    "ace low",
    "spades",
    "hearts",
    "diamonds",
    "clubs",
    "tournament guide",
    "appendix",
    "custom sheet",
    "guide-",
    "sheet",
    "knob",
]


def assert_no_secrets(html: str, workshop) -> None:
    lower = html.lower()
    for word in SECRET_WORDS:
        assert re.search(rf"\b{re.escape(word)}", lower) is None, word
    for title in PRESET_TITLES.values():
        assert title.lower() not in lower
    for symbol in "♠♥♦♣":
        assert symbol not in html
    for game in Game.objects.filter(table__workshop=workshop):
        state = gamestate.load_state(game)
        for card in {c for hand in state.hands for c in hand} | {c for _, c in state.current}:
            assert re.search(rf"[>\"' ]{re.escape(card)}[<\"' ]", html) is None, card
    for t in Table.objects.filter(workshop=workshop):
        assert t.preset not in lower


# HTML's void elements: no end tag (test_bidi_names reads pages with the same).
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class _Spans(HTMLParser):
    """Where each element with an id starts and ends in a piece of HTML, read as a
    browser reads it (the standard library's parser, not the code under test)."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.text = text
        self.starts = [0]
        for line in text.split("\n")[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.stack: list[tuple[str, str | None, int]] = []
        self.spans: dict[str, tuple[int, int]] = {}
        self.feed(text)
        self.close()

    def _at(self) -> int:
        line, col = self.getpos()
        return self.starts[line - 1] + col

    def handle_starttag(self, tag, attrs):
        start, ident = self._at(), dict(attrs).get("id")
        if tag in VOID:
            if ident:
                self.spans[ident] = (start, start + len(self.get_starttag_text()))
            return
        self.stack.append((tag, ident, start))

    def handle_startendtag(self, tag, attrs):
        ident = dict(attrs).get("id")
        if ident:
            start = self._at()
            self.spans[ident] = (start, start + len(self.get_starttag_text()))

    def handle_endtag(self, tag):
        end = self.text.index(">", self._at()) + 1
        while self.stack:
            open_tag, ident, start = self.stack.pop()
            if ident:
                self.spans[ident] = (start, end)
            if open_tag == tag:
                return


def put_in(page: dict[str, str], pushed: dict[str, str]) -> dict[str, str]:
    """The page's regions ({id: html}) with a push put in as the page puts it: each
    region pushed replaces the element with its id, wherever it is (a table's card
    inside the monitor). A region pushed that the page does not hold fails."""
    page = dict(page)
    for ident, html in pushed.items():
        if ident in page:
            page[ident] = html
            continue
        holders = [rid for rid, text in page.items() if ident in _Spans(text).spans]
        assert len(holders) == 1, (ident, holders)
        text = page[holders[0]]
        start, end = _Spans(text).spans[ident]
        page[holders[0]] = text[:start] + html + text[end:]
    return page


@database_sync_to_async
def panel_now(workshop_id: int, username: str = "ada") -> dict[str, str]:
    """The panel's regions as a fresh whole render shows them to `username`."""
    return regions.render("panel", workshop_id, User.objects.get(username=username))


def same_page(page: dict[str, str], whole: dict[str, str]) -> bool:
    """Whether a page put together from pushes (put_in) is what a whole render shows,
    each region read as regions.settled reads it."""
    return {k: regions.settled(v) for k, v in page.items()} == {
        k: regions.settled(v) for k, v in whole.items()
    }


class _Tools(HTMLParser):
    """The roster's one template of a player's tools (its forms' attributes) and each
    row's box (details.row-tools: data-player, data-name, data-bot, data-short)."""

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.forms: list[dict] = []
        self.boxes: dict[str, dict] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "template":
            self.depth += 1
        elif tag == "form" and self.depth:
            self.forms.append(a)
        elif tag == "details" and "data-player" in a:
            self.boxes[a["data-player"]] = a

    def handle_endtag(self, tag):
        if tag == "template":
            self.depth -= 1


def player_tools(html: str, player_id: int) -> dict | None:
    """What a player's box draws when it opens, as facilitator.js fillTools draws it
    from the roster's template and the box (the browser test of the panel's tools
    compares the two): Remove's question, and whether there is a PIN button. None: no
    box (no tools, as for a player who left)."""
    seen = _Tools()
    seen.feed(html)
    box = seen.boxes.get(str(player_id))
    if box is None:
        return None
    bot = "data-bot" in box
    kick = next(f for f in seen.forms if "data-confirm" in f)
    ask = (
        kick["data-confirm"].replace("{name}", box["data-name"])
        + kick["data-then-bot" if bot else "data-then"]
        + box.get("data-short", "")
    )
    pin = not bot and any("data-person" in f for f in seen.forms)
    return {"ask": ask, "pin": pin, "name": box["data-name"]}
