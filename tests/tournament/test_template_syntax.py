"""No template syntax reaches a page.

Django's `{# #}` comment is one line only: one spread over several lines is not a
comment but text, shown on the page (and read aloud). The phone's page carried one
for a session. Jinja2's comments (templates/jinja2/) may span lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from tournament_helpers import make_workshop

from tournament.models import Player

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
DJANGO_TEMPLATES = sorted(
    p for p in TEMPLATES.rglob("*") if p.is_file() and "jinja2" not in p.parts
)


def unclosed_comments(text: str) -> list[int]:
    """Line numbers of `{#` with no `#}` after it on the same line."""
    return [n for n, line in enumerate(text.splitlines(), 1) if re.search(r"\{#(?!.*#\})", line)]


def test_the_check_finds_a_comment_over_two_lines_and_passes_one_line_comments():
    assert unclosed_comments("a\n  {# one\n  two #}\nb") == [2]
    assert unclosed_comments("{# one #} x {# two #}\n{% comment %}\nmany\n{% endcomment %}") == []


def test_the_django_templates_have_no_comment_over_several_lines():
    assert len(DJANGO_TEMPLATES) > 20  # the glob found the project's templates
    found = {
        str(p.relative_to(TEMPLATES)): lines
        for p in DJANGO_TEMPLATES
        if (lines := unclosed_comments(p.read_text()))
    }
    assert found == {}, f"use {{% comment %}} for comments over several lines: {found}"


# Elements with no role of their own: a screen reader skips an aria-label on them
# (ARIA prohibits naming the generic role), so a card read as "7 black spade suit"
# lost "not playable now", and a trick its "Cards on the table".
GENERIC = r"div|span|p|small|strong|em|b|i|abbr|td|th|dd|dt"


def unnamed_labels(text: str) -> list[str]:
    """Opening tags of generic elements with an aria-label but no role."""
    tags = re.finditer(rf"<(?:{GENERIC})\b[^>]*>", text)
    return [t.group(0) for t in tags if "aria-label=" in t.group(0) and "role=" not in t.group(0)]


def test_the_label_check_finds_a_label_on_a_generic_element_and_passes_roles():
    assert unnamed_labels('<span class="x"\n aria-label="7 of spades">7</span>') == [
        '<span class="x"\n aria-label="7 of spades">'
    ]
    assert unnamed_labels('<span role="img" aria-label="a">a</span><ol aria-label="b">') == []


def test_every_aria_label_in_the_templates_is_on_an_element_that_can_carry_it():
    every = sorted(p for p in TEMPLATES.rglob("*.html"))
    assert len(every) > len(DJANGO_TEMPLATES) > 20
    found = {
        str(p.relative_to(TEMPLATES)): tags
        for p in every
        if (tags := unnamed_labels(p.read_text()))
    }
    assert found == {}, f"give these a role (img, group) or visible words instead: {found}"


@pytest.mark.django_db
def test_a_students_page_shows_no_template_syntax():
    workshop = make_workshop(players=0, tables=1)
    client = Client()
    client.post("/join", {"code": workshop.code, "name": "Ana"})
    assert Player.objects.filter(workshop=workshop, name="Ana").exists()
    html = client.get("/play/").content.decode()
    assert "Welcome, <bdi>Ana</bdi>" in html
    for syntax in ("{#", "#}", "{%", "%}"):
        assert syntax not in html, syntax


def test_no_page_sends_a_facilitator_or_student_to_the_projects_own_files():
    """RULES.md and the seeds are the developers' references: a page says the rule."""
    every = sorted(p for p in TEMPLATES.rglob("*") if p.is_file())
    assert len(every) > len(DJANGO_TEMPLATES)  # the Jinja2 screens are included
    found = [
        str(p.relative_to(TEMPLATES))
        for p in every
        if re.search(r"RULES\.md|seeds/", p.read_text())
    ]
    assert found == []
