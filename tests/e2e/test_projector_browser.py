"""The projector fits a big class on one screen: it cannot be scrolled in front of
the room. At 1280x720, sixty names fit under the join code in the lobby, and twelve
tables' occupancy under the clock in a round."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tournament import services

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from tournament_helpers import make_workshop  # noqa: E402

pytestmark = [pytest.mark.browser]
WAIT = 8000
SCREEN = {"width": 1280, "height": 720}
FIRST = ["Alexandra", "Bartholomew", "Chen", "Dmitri", "Esperanza", "Fatima", "Guillermo",
         "Hiroshi", "Ingrid", "Jean-Baptiste", "Kwame", "Leilani", "Mohammed", "Nguyen",
         "Olga", "Priyanka", "Quentin", "Rosalind", "Sven", "Tatiana"]  # fmt: skip


def bottom(page, selector: str) -> float:
    box = page.locator(selector).last.bounding_box()
    assert box is not None, selector
    return box["y"] + box["height"]


def projector_of_a_class(facilitator_page, django_user_model, names, tables):
    """A workshop of `tables` tables of five that `names` have joined, and its
    facilitator's projector page on a 1280x720 screen."""
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=names, tables=tables, seats=5, seed=3, facilitator=user)
    return w, facilitator_page(user, f"/workshops/{w.pk}/projector/", viewport=SCREEN)


def test_sixty_names_and_twelve_tables_fit_the_projector(facilitator_page, django_user_model):
    names = [f"{FIRST[i % 20]} {'ABC'[i // 20]}" for i in range(60)]
    w, page = projector_of_a_class(facilitator_page, django_user_model, names, tables=12)
    assert page.locator(".proj-names li").count() == 60
    assert bottom(page, ".proj-names li") <= SCREEN["height"]
    assert bottom(page, ".proj-code") <= SCREEN["height"]

    # Each timed phase: its name on one line, the clock and every table in view.
    services.players_seat_home(workshop_id=w.pk)
    for start, name in [
        (services.workshop_start_study, "Study the rules"),
        (services.workshop_start_home, "Silent play at home tables"),
        (services.round_start, "Scored round · Round 1"),
    ]:
        start(workshop_id=w.pk)
        page.wait_for_function(
            "t => document.querySelector('.proj-phase')?.textContent.trim() === t",
            arg=name,
            timeout=WAIT,
        )
        page.wait_for_selector(".proj-clock", timeout=WAIT)
        assert page.locator(".proj-tables li").count() == 12
        assert bottom(page, ".proj-clock") <= SCREEN["height"], name
        assert bottom(page, ".proj-tables li") <= SCREEN["height"], name
    page.context.close()


def test_a_conference_lobby_shows_the_count_and_the_latest_names_on_one_screen(
    facilitator_page, django_user_model
):
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(200)]
    _, page = projector_of_a_class(facilitator_page, django_user_model, names, tables=40)
    assert page.inner_text(".proj-names-h").strip() == "200 joined"
    shown = page.locator(".proj-names li:not(.proj-earlier)").all_inner_texts()
    assert shown == names[-60:]  # the latest to join, in order: a student finds their own
    assert page.inner_text(".proj-earlier").strip() == "140 earlier…"
    assert bottom(page, ".proj-names li") <= SCREEN["height"]
    page.context.close()
