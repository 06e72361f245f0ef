"""Names in right-to-left scripts keep their place in a line (tournament/templatetags/names.py).

A name set beside digits or punctuation in an English line ("علي 2", "You said: דנה
won.") takes its neighbours into its own direction unless it is isolated. Every
screen that shows people's or the workshop's names is rendered here with Arabic and
Hebrew names, through whole games of each base game, and every place a name is
written as text must be an element of its own that isolates it: <bdi>, or an
element with a `dir` attribute. (Attributes, <title>, <option> and form values are
plain text that a screen reader reads in order: not checked.)
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone
from facilitator_helpers import VOID

from tournament import screencache, selectors, services, timers
from tournament.models import Player, Table, Workshop

pytestmark = pytest.mark.django_db

NAMES = ["علي", "דנה", "ليلى", "יוסי", "سارا", "מאיה"]
WORKSHOP = "ورشة ٣"
PLAIN = {"title", "option", "script", "style", "textarea"}


class _Names(HTMLParser):
    """Every text run holding one of `names`, with the element it is written in."""

    def __init__(self, names):
        super().__init__(convert_charrefs=True)
        self.names = names
        self.stack: list[tuple[str, dict]] = []
        self.found: list[tuple[str, dict, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if any(t in PLAIN for t, _ in self.stack):
            return
        if any(name in data for name in self.names):
            tag, attrs = self.stack[-1] if self.stack else ("", {})
            self.found.append((tag, attrs, data))


def not_isolated(html: str, names=(*NAMES, WORKSHOP)) -> list[str]:
    """The text runs where a name is written without an isolating element of its own."""
    parser = _Names(names)
    parser.feed(html)
    return [
        f"<{tag}> {data.strip()!r}"
        for tag, attrs, data in parser.found
        if not ((tag == "bdi" or "dir" in attrs) and data.strip() in names)
    ]


def count_names(html: str) -> int:
    parser = _Names((*NAMES, WORKSHOP))
    parser.feed(html)
    return len(parser.found)


@pytest.fixture(autouse=True)
def _empty_screencache():
    screencache.clear()
    yield
    screencache.clear()


@pytest.fixture
def fac():
    user = get_user_model().objects.create_user("rana", password="a-long-pass-123")
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def bot_workshop(user, game: str, *, tables: int = 2, seats: int = 3) -> Workshop:
    """A workshop of bots named in Arabic and Hebrew, seated, in the lobby."""
    w = services.workshop_create(
        name=WORKSHOP,
        facilitator=user,
        game=game,
        table_count=tables,
        seats_per_table=seats,
        bots_enabled=True,
        seed=5,
    )
    services.bots_fill(workshop_id=w.pk)
    for player, name in zip(Player.objects.filter(workshop=w).order_by("pk"), NAMES, strict=False):
        services.player_rename(workshop_id=w.pk, player_id=player.pk, name=name)
    services.players_seat_home(workshop_id=w.pk)
    return w


def phones(w) -> dict[str, str]:
    """Every seat's screen as its socket renders it, by player name."""
    return {
        p.name: render_to_string("play/_screen.html", selectors.player_screen(p.pk, timezone.now()))
        for p in Player.objects.filter(workshop=w)
    }


def assert_isolated(pages: dict[str, str]) -> int:
    """Each page's names are isolated; returns how many names were seen in all."""
    problems = {where: bad for where, html in pages.items() if (bad := not_isolated(html))}
    assert problems == {}
    return sum(count_names(html) for html in pages.values())


def test_the_check_finds_a_bare_name_and_passes_an_isolated_one():
    assert not_isolated("<p>You said: علي won.</p>") == ["<p> 'You said: علي won.'"]
    assert not_isolated('<p>You said: <span class="who">علي</span> won.</p>') == ["<span> 'علي'"]
    assert not_isolated("<p>You said: <bdi>علي</bdi> won.</p>") == []
    assert not_isolated('<p><span dir="auto">علي</span> 2</p>') == []
    assert not_isolated("<title>علي</title><p title='علي'>x</p>") == []


@pytest.mark.parametrize("game", ["five_tricks", "all_fives", "seven_up", "three_tricks"])
def test_every_phone_screen_through_a_round_isolates_names(game):
    seats = {"three_tricks": 2, "seven_up": 3, "all_fives": 2}.get(game, 3)
    w = bot_workshop(None, game, tables=2, seats=seats)
    seen = assert_isolated(phones(w))  # the lobby: "Welcome, …"
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    for _ in range(40):
        timers.tick(bot_delay=0)
        seen += assert_isolated(phones(w))
    assert seen > 200  # the names were on the screens, not missing from them


def test_the_facilitators_pages_and_the_report_isolate_names(fac):
    w = bot_workshop(fac.user, "five_tricks")
    pages = {"lobby panel": fac.get(f"/workshops/{w.pk}/").content.decode()}
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    for rounds in range(2):
        rnd = services.round_start(workshop_id=w.pk)
        for _ in range(30):
            timers.tick(bot_delay=0)
        pages[f"panel in round {rounds + 1}"] = fac.get(f"/workshops/{w.pk}/").content.decode()
        for number in Table.objects.filter(workshop=w).values_list("number", flat=True):
            pages[f"table {number}"] = fac.get(
                f"/workshops/{w.pk}/tables/{number}/"
            ).content.decode()
        pages["projector"] = fac.get(f"/workshops/{w.pk}/projector/").content.decode()
        services.round_end_now(round_id=rnd.pk)
        pages[f"panel after round {rounds + 1}"] = fac.get(f"/workshops/{w.pk}/").content.decode()
        services.movement_apply(round_id=rnd.pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    pages["report"] = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    pages["home"] = fac.get("/").content.decode()
    pages["delete"] = fac.get(f"/workshops/{w.pk}/delete/").content.decode()
    pages.update({f"phone of {n}": html for n, html in phones(w).items()})
    assert assert_isolated(pages) > 100


def test_both_template_languages_write_the_same_element_and_escape_the_name():
    from django.template import engines

    from barnga import jinja2 as screen
    from tournament.templatetags import names

    for name in ("Ana", "علي", "דנה 2"):
        assert str(screen.bdi(name)) == names.bdi(name) == f"<bdi>{name}</bdi>"
    assert screen.bdi_join(["علي", "Bea"]) == names.bdi_join(["علي", "Bea"])
    assert (
        str(screen.bdi_and(["علي", "Bea", "you"]))
        == "<bdi>علي</bdi>, <bdi>Bea</bdi> and <bdi>you</bdi>"
    )
    hostile = '<img src=x onerror="a()">'
    jinja = engines["jinja2"].env.from_string("{{ n|bdi }}").render(n=hostile)
    django = engines["django"].from_string("{{ n|bdi }}").render({"n": hostile})
    for html in (jinja, django):
        assert html.startswith("<bdi>&lt;img") and "<img" not in html
