"""Label in Name (WCAG 2.5.3) on the facilitator's pages: every button and link is
named with the words it shows, so a voice-control user who says what they see reaches
it, and a test that finds it by its visible text (get_by_role) does too."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from tournament_helpers import (
    HIGH,
    LOW,
    finish_trick,
    game_at,
    make_workshop,
    open_dispute,
    set_seat_sheets,
    tables_of,
)

from tournament import services

pytestmark = pytest.mark.django_db
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
CONTROLS = {"a", "button", "summary"}


class Controls(HTMLParser):
    """Per button, link and summary: (its visible text, its accessible name). The name
    is its aria-label, else its content without aria-hidden parts; visible text is its
    content without the visually-hidden parts."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []  # (tag, visible, name)
        self.stack: list[tuple[str, bool, bool]] = []  # per open element: tag, unseen, unheard
        self.open: list[dict] = []  # the controls being read
        # Per link: (its name, what describes it, its href).
        self.links: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
            said = a.get("aria-label") or a["value"]
            self.found.append((tag, a["value"], said))
        if tag in VOID:
            return
        unseen = "visually-hidden" in (a.get("class") or "").split()
        unheard = a.get("aria-hidden") == "true"
        self.stack.append((tag, unseen, unheard))
        if tag in CONTROLS:
            assert "aria-labelledby" not in a, f"read its label by id: {a}"
            self.open.append(
                {
                    "tag": tag,
                    "depth": len(self.stack),
                    "label": a.get("aria-label"),
                    "href": a.get("href"),
                    "described": a.get("aria-describedby") or "",
                    "seen": [],
                    "heard": [],
                }
            )

    def handle_endtag(self, tag):
        if not any(t == tag for t, _, _ in self.stack):
            return
        while True:
            t, _, _ = self.stack.pop()
            while self.open and self.open[-1]["depth"] > len(self.stack):
                c = self.open.pop()
                heard = c["label"] if c["label"] is not None else "".join(c["heard"])
                self.found.append(
                    (c["tag"], " ".join("".join(c["seen"]).split()), " ".join(heard.split()))
                )
                if c["tag"] == "a" and c["href"] is not None:
                    self.links.append((" ".join(heard.split()), c["described"], c["href"]))
            if t == tag:
                return

    def handle_data(self, data):
        if not self.open:
            return
        unseen = any(u for _, u, _ in self.stack)
        unheard = any(h for _, _, h in self.stack)
        for c in self.open:
            if not unseen:
                c["seen"].append(data)
            if not unheard:
                c["heard"].append(data)


def words(text: str) -> str:
    """The words of a text, as speech recognition hears them: no case, no punctuation
    or symbols (an arrow, a pencil), one space between."""
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())


def controls(html: str) -> list[tuple[str, str, str]]:
    parser = Controls()
    parser.feed(html)
    parser.close()
    return parser.found


def one_name_two_places(pages: dict[str, str]) -> list[tuple[str, str, list[str]]]:
    """Links of a page named alike (as words) that go to different places (WCAG 2.4.4):
    the disputes line's "table 4" went to the card, the card's own "Table 4" to the
    table's page. A link described (aria-describedby) is told apart by what describes it
    (the report's "See the figures", each described by its question). Per such name:
    (page, name, its hrefs)."""
    wrong = []
    for page, html in pages.items():
        parser = Controls()
        parser.feed(html)
        parser.close()
        places: dict[tuple[str, str], set[str]] = {}
        for name, described, href in parser.links:
            places.setdefault((words(name), described), set()).add(href)
        wrong += [(page, n, sorted(h)) for (n, _), h in places.items() if n and len(h) > 1]
    return wrong


def test_the_reader_of_controls():
    found = controls(
        '<p><button aria-label="Go on">Go</button> <a href="/">Back <span aria-hidden="true">'
        '→</span><span class="visually-hidden">to the list</span></a>'
        '<input type="submit" value="Send"></p>'
    )
    assert found == [
        ("button", "Go", "Go on"),
        ("a", "Back →", "Back to the list"),
        ("input", "Send", "Send"),
    ]


def a_label_not_in_its_name(pages: dict[str, str]) -> tuple[list, int]:
    wrong, seen = [], 0
    for page, html in pages.items():
        for tag, visible, name in controls(html):
            if not words(visible):
                continue  # an icon-only control: nothing visible to say
            seen += 1
            # Whole words in order: "Go" is not in "Goodbye".
            if f" {words(visible)} " not in f" {words(name)} ":
                wrong.append((page, tag, visible.strip(), name.strip()))
    return wrong, seen


def test_a_label_is_found_in_its_name_as_whole_words():
    page = {
        "p": '<button aria-label="Goodbye">Go</button><button aria-label="Go on">Go</button>'
        '<a href="/" aria-label="Open the report now">the report</a>'
    }
    wrong, seen = a_label_not_in_its_name(page)
    assert seen == 3 and wrong == [("p", "button", "Go", "Goodbye")]


def test_every_control_on_the_facilitators_pages_is_named_with_its_words():
    user = get_user_model().objects.create_user("ada", password="a-long-pass-123")
    client = Client()
    client.force_login(user)
    w = make_workshop(players=8, tables=2, facilitator=user)
    base = f"/workshops/{w.pk}"
    pages = {}

    def visit(phase: str, *urls: str) -> None:
        for url in urls:
            r = client.get(url)
            assert r.status_code == 200, url
            pages[f"{phase} {url}"] = r.content.decode()

    visit("lobby", "/", "/workshops/new/", f"{base}/", f"{base}/projector/", f"{base}/delete/")
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    visit("study", f"{base}/")
    services.workshop_start_home(workshop_id=w.pk)
    visit("home", f"{base}/")
    rnd = services.round_start(workshop_id=w.pk)
    t1, _ = tables_of(w)
    finish_trick(game_at(t1))
    visit("round", f"{base}/", f"{base}/tables/1/", f"{base}/projector/")
    open_dispute(set_seat_sheets(t1, [HIGH, HIGH, LOW, LOW]))  # the status names it
    visit("dispute", f"{base}/")
    assert (
        '<a href="#mt-1" aria-label="table 1 in the Tables list">table 1</a>'
        in (pages[f"dispute {base}/"])
    )
    services.round_pause(round_id=rnd.pk)
    visit("paused", f"{base}/")
    services.round_resume(round_id=rnd.pk)
    services.round_end_now(round_id=rnd.pk)
    visit("movement", f"{base}/")
    services.movement_apply(round_id=rnd.pk)
    visit("between rounds", f"{base}/")
    services.workshop_start_debrief(workshop_id=w.pk)
    visit("debrief", f"{base}/", f"{base}/report/", "/")

    wrong, seen = a_label_not_in_its_name(pages)
    assert not wrong, wrong
    assert seen > 30, seen  # the pages' controls were read
    assert one_name_two_places(pages) == []
    # The one the README names, by the words it shows.
    between = controls(pages[f"between rounds {base}/"])
    debrief = [c for c in between if "debrief" in words(c[1])]
    assert debrief and all(words(c[1]) == words(c[2]) for c in debrief), debrief


def test_an_aria_label_without_the_words_shown_is_caught():
    wrong, seen = a_label_not_in_its_name(
        {
            "x": '<button aria-label="End the tournament and start the debrief">End the tournament → debrief</button>'
        }
    )
    assert seen == 1 and wrong


def test_two_links_named_alike_to_different_places_are_caught():
    page = (
        '<a href="#mt-4">table 4</a> <h3><a href="/t/4/">Table 4</a></h3>'
        '<a href="/r/">Report</a> <a href="/r/">report</a>'
        '<a href="#mt-5" aria-label="table 5 in the Tables list">table 5</a>'
        '<a href="/t/5/">Table 5</a>'
        '<a href="#a" aria-describedby="qa">See</a><a href="#b" aria-describedby="qb">See</a>'
    )
    assert one_name_two_places({"p": page}) == [("p", "table 4", ["#mt-4", "/t/4/"])]
