"""Two facilitators, their workshops, students, and every URL of the project.

`world()` builds: Alice's workshop in a scored round (two tables of four, each
table its own secret sheet), Bob's in the lobby, and a student at Alice's table 1.
`routes()` lists every URL pattern of the URLconf with sample arguments, so a
page or export added later is attacked without anyone editing these tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLResolver, get_resolver
from tournament_helpers import make_workshop, snapshot, to_scored_round

from games.presets import PRESET_TITLES
from games.sheets import sheet_text
from games.tricks import TrickRules
from tournament import export, services
from tournament.identity import COOKIE, signed_cookie_value
from tournament.models import Player, Table, Workshop
from tournament.views_facilitator import ACTIONS

PASSWORD = "a-long-pass-123"
# Pages anyone may open: the student's side, accounts and the health check.
PUBLIC = {
    "join",
    "join-slash",
    "rejoin",
    "short-join",
    "short-join-slash",
    "short-join-bare",
    "short-join-none",
    "play",
    "login",
    "logout",
    "signup",
    "healthz",
}


@dataclass
class World:
    alice: User
    bob: User
    mine: Workshop  # Alice's, in a scored round
    other: Workshop  # Bob's, in the lobby
    student: Player  # at Alice's table 1

    def facilitator(self, user: User) -> Client:
        client = Client()
        client.force_login(user)
        return client

    def student_client(self, player: Player | None = None) -> Client:
        client = Client()
        client.cookies[COOKIE] = signed_cookie_value((player or self.student).token)
        return client


def world() -> World:
    alice = User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    mine = make_workshop(players=8, tables=2, seats=4, facilitator=alice)
    to_scored_round(mine)
    other = make_workshop(players=0, tables=2, seats=4, facilitator=bob, seed=9)
    for name in ("Bea Other", "Cy Other", "Di Other"):
        services.player_join(workshop_id=other.pk, name=name)
    student = Player.objects.filter(workshop=mine, table__number=1).order_by("seat").first()
    return World(alice, bob, mine, other, student)


def sheet_phrases(rules: dict) -> set[str]:
    # Not the title: it is the game's name ("Five Tricks"), the same on every sheet
    # and shown openly (the projector names the game being played).
    sheet = sheet_text(TrickRules.from_dict(rules))
    return {s["text"] for s in sheet["sections"]}


def foreign_sheet_phrases(workshop: Workshop, own_rules: dict) -> set[str]:
    """Sentences of other tables' sheets that the own sheet does not also say."""
    own = sheet_phrases(own_rules)
    other = set()
    for table in Table.objects.filter(workshop=workshop):
        if table.rules != own_rules:
            other |= sheet_phrases(table.rules) - own
    return other


def secrets_of(workshop: Workshop) -> list[str]:
    """What nobody but the workshop's facilitator may read in a response."""
    words = [workshop.code]
    words += list(Player.objects.filter(workshop=workshop).values_list("name", flat=True))
    words += list(Player.objects.filter(workshop=workshop).values_list("token", flat=True))
    for table in Table.objects.filter(workshop=workshop):
        words += sorted(sheet_phrases(table.rules))
        if table.preset in PRESET_TITLES:
            words.append(PRESET_TITLES[table.preset])
    return words


# A page's CSRF token (the form field and htmx's header in base.html): 64 random
# letters and digits, which now and then contain a short player name such as "P02".
CSRF_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[A-Za-z0-9]{32,64}"')


def leaked(body: bytes | str, workshop: Workshop) -> list[str]:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    text = CSRF_TOKEN.sub(r'\1"', text)
    return [w for w in secrets_of(workshop) if w and w in text]


# ---------------------------------------------------------------- the URLconf


def _walk(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p.name


PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


def _values(param: str, workshop: Workshop) -> list[str]:
    if param == "workshop_id":
        return [str(workshop.pk)]
    if param == "number":
        return ["1"]
    if param == "name":  # a control of the panel
        return sorted(ACTIONS) + ["no-such-control"]
    if param == "kind":  # an export table
        return sorted(export.CSV_KINDS)
    if param == "code":
        return [workshop.code]
    raise AssertionError(
        f"a URL parameter <{param}> this test does not know: give it sample values in "
        "tests/security/security_world.py"
    )


def routes(workshop: Workshop, patterns=None) -> list[tuple[str, str, bool]]:
    """(url, name, names a workshop) for every route except Django's admin."""
    out = []
    for route, name in _walk(patterns if patterns is not None else get_resolver().url_patterns):
        if route.startswith("admin/") or route.startswith("^admin/"):
            continue
        urls = [""]
        for piece in re.split(r"(<[^>]+>)", route):
            m = PARAM.fullmatch(piece)
            values = _values(m.group(2), workshop) if m else [piece]
            urls = [u + v for u in urls for v in values]
        for url in urls:
            out.append(("/" + url, name, "<int:workshop_id>" in route))
    return out


__all__ = ["snapshot"]
