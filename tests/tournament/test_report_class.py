"""The report for the projector (`?view=class`): what a class discusses together,
no student's result beside their name.

The full report names each student's losses ("0 of 8" games won, "fewest: …", the
per-player table, journeys with the games won at each table, the guide's most and
fewest). Projected in front of the class it shamed students; the class view keeps
the rules, the counts per round and table, the clashes, disputes, gestures and
drawings and the guide's questions, and names nobody: not beside a result, and, to
be trusted at a glance, not at all (a drawing too is shown without its drawer).
"""

from __future__ import annotations

import json

import pytest
from django.db.models import F
from report_helpers import T0, Clock, build_scripted

from tournament import export, report
from tournament.models import Player, Workshop

pytestmark = pytest.mark.django_db

NAMES = ("Zanele", "Ingrid", "Oluwaseun", "Mireille", "Tadeusz", "Xiomara")


@pytest.fixture
def named(monkeypatch, owner):
    """The scripted Five Tricks workshop of test_report (two rounds, disputes settled,
    timed out and cut, gestures and a drawing), its six students renamed in the
    database once it is over. The round's stored standings keep the names they had
    (P01 …): the class view must name neither."""
    clock = Clock(T0)
    monkeypatch.setattr("tournament.services.play.now", clock)
    monkeypatch.setattr("tournament.services.rounds.now", clock)
    w = build_scripted(clock, owner)["workshop"]
    for i, name in enumerate(NAMES):
        Player.objects.filter(workshop=w, name=f"P{i + 1:02d}").update(name=name)
    Workshop.objects.filter(pk=w.pk).update(version=F("version") + 1)
    return Workshop.objects.get(pk=w.pk)


OLD_NAMES = tuple(f"P{i + 1:02d}" for i in range(6))


def test_the_class_report_holds_no_name_anywhere(named):
    """Not only the page: the figures the class's page is drawn from hold no name, so
    no template can show one by mistake."""
    doc = json.loads(json.dumps(export.workshop_document(named)))
    full = report.build_report(doc)
    rep = report.build_report(doc, names=False)
    text = json.dumps(rep, default=str)
    assert not [n for n in NAMES + OLD_NAMES if n in text]
    assert [n for n in NAMES if n in json.dumps(full, default=str)] == list(NAMES)
    # The counts of the class are the full report's.
    assert rep["counts"] == full["counts"] and rep["reveal"] == full["reveal"]
    assert rep["clashes"]["by_table_round"] == full["clashes"]["by_table_round"]
    assert len(rep["clashes"]["gestures"]["shown"]) == len(full["clashes"]["gestures"]["shown"])
    moved = [t for rd in rep["results"] for t in rd["tables"]]
    assert sum(t["up"] for t in moved) == sum(
        1
        for rd in full["results"]
        for t in rd["tables"]
        for p in t["players"]
        if p["moved"] == "up"
    )
    assert sum(c["players"] for row in rep["movement"]["seating"] for c in row["cells"]) == sum(
        len(c) for row in full["movement"]["grid"] for c in row["cells"]
    )


def _row(**kw) -> dict:
    return {
        "bot": False,
        "left": False,
        "moves_played": 0,
        "disputes": 0,
        "adapted": 0,
        "gestures": 0,
        "calls": 0,
        "revokes": 0,
        **kw,
    }


def test_the_class_section_counts_the_players_as_a_group():
    """Section 5 for the class: how many moved (once, twice), called revokes or
    gestured; bots counted apart, nobody named."""
    rep = {
        "counts": {"left": 1},
        "disputes": False,
        "revokes": {"referee": False},
        "players": [
            _row(moves_played=1, calls=2, gestures=1),
            _row(moves_played=2, revokes=1),
            _row(moves_played=1, left=True),
            _row(),
            _row(bot=True, moves_played=3, calls=5),
        ],
    }
    assert report._class_lines(rep) == [
        "4 players and 1 bot; 1 left during the workshop.",
        "3 of the 4 changed tables (2 once, 1 twice) and played as newcomers; 1 never did.",
        "1 of the 4 called a revoke at least once; 1 played a card their table's sheet forbids.",
        "1 of the 4 made at least one gesture or drawing.",
    ]
    assert report._class_lines({**rep, "players": [_row(bot=True)]}) == [
        "No student played: only bots."
    ]
