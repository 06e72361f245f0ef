"""Drawings in the report: the phone sends one `drawing` gesture per pen stroke, and
the report counts a picture once, however many strokes it has; clearing the pad is
no gesture."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from tournament_helpers import fresh, game_at, make_workshop, tables_of, to_scored_round

from tournament import export, report, report_charts, services
from tournament.models import Player
from tournament.views_report import GESTURE_PALETTE

# One picture, "7 > A", as one_drawing.py of the teaching review drew it: six strokes.
SEVEN_OVER_ACE = [
    [[0.1, 0.1], [0.3, 0.1], [0.2, 0.5]],
    [[0.4, 0.3], [0.5, 0.35], [0.4, 0.4]],
    [[0.6, 0.5], [0.7, 0.1]],
    [[0.65, 0.5], [0.75, 0.5]],
    [[0.62, 0.3], [0.72, 0.3]],
    [[0.8, 0.2], [0.9, 0.2]],
]


def build(w) -> dict:
    return report.build_report(export.workshop_document(fresh(w)), gesture_palette=GESTURE_PALETTE)


@pytest.mark.django_db
def test_a_picture_of_six_strokes_and_a_clear_count_one_drawing():
    """Finding 5 of the teaching review: six strokes and a Clear added 7 to the total
    and 6 to "Drawing". They are one drawing, and the Clear is no gesture."""
    w = make_workshop(players=4, tables=1, seats=4, mode="referee")
    to_scored_round(w)
    pid = game_at(tables_of(w)[0]).players[0]
    services.gesture_make(player_id=pid, kind="stop")
    for s in SEVEN_OVER_ACE:
        services.gesture_make(player_id=pid, kind="drawing", payload={"points": s})
    services.gesture_make(player_id=pid, kind="clear")
    rep = build(w)
    g = rep["clashes"]["gestures"]
    assert (g["total"], g["drawings"], g["strokes"]) == (2, 1, 6)
    assert {k["kind"]: k["total"] for k in g["used"]} == {"stop": 1, "drawing": 1}
    assert all(k["kind"] != "clear" for k in g["kinds"])
    assert g["clears"]["total"] == 1
    assert rep["counts"]["gestures"] == 2
    name = Player.objects.get(pk=pid).name
    assert next(p for p in rep["players"] if p["name"] == name)["gestures"] == 2
    lines = [e for q in rep["guide"] for e in q["data"]]
    assert (
        "2 gestures and drawings were made (1 drawing: a picture of one or more strokes, "
        "6 strokes in all)." in lines
    ), lines
    chart = report_charts.gestures_chart(rep["clashes"], disputes=False)
    assert chart["title"] == "Gestures used (a drawing counts once per picture)"
    assert "Drawing: 1" in chart["alt"] and "Clear" not in chart["alt"]
    html = render_to_string("report/page.html", {"r": rep, "workshop": w, "charts": {}})
    section = html.split('id="h-gestures"', 1)[1].split("</section>", 1)[0]
    assert "A drawing counts once: a picture of one or more strokes" in section
    assert "(1 drawing, 6 strokes in all)" in section
    assert "The pad was cleared 1 time: not counted as a gesture." in section
    assert "Cleared the drawing" not in section


def stroke(id, *, player=1, table=1, trick=0, at=0, kind="drawing", dispute=False):
    return {
        "id": id,
        "table": table,
        "round": 2,
        "game": 10,
        "player": player,
        "kind": kind,
        "trick_index": trick,
        "during_dispute": dispute,
        "payload": {"points": [[0.1, 0.2], [0.3, 0.4]]} if kind == "drawing" else {},
        "created_at": f"2025-03-01T10:{at // 60:02d}:{at % 60:02d}+00:00",
    }


def pictures(*gestures) -> list[tuple]:
    ix = SimpleNamespace(gestures=list(gestures))
    return [(p["player"], p["table"], len(p["strokes"])) for p in report.drawings(ix)]


def test_a_picture_goes_on_through_others_strokes_and_its_drawers_gestures():
    # Two players draw on the same pad at once; the first also points between strokes.
    assert pictures(
        stroke(1),
        stroke(2, player=2, at=1),
        stroke(3, kind="point", at=2),
        stroke(4, at=3),
        stroke(5, player=2, at=4),
    ) == [(1, 1, 2), (2, 1, 2)]


def test_a_clear_of_the_tables_pad_by_anyone_ends_the_pictures_on_it():
    assert pictures(
        stroke(1),
        stroke(2, table=2, player=3, at=1),
        stroke(3, player=2, kind="clear", at=2),  # table 1's pad
        stroke(4, at=3),
        stroke(5, table=2, player=3, at=4),
    ) == [(1, 1, 1), (3, 2, 2), (1, 1, 1)]


def test_a_new_trick_or_a_minute_without_a_stroke_begins_a_new_picture():
    gap = report.DRAWING_GAP_SECONDS
    assert pictures(
        stroke(1),
        stroke(2, trick=1, at=5),
        stroke(3, trick=1, at=5 + gap),  # exactly the gap: the same picture
        stroke(4, trick=1, at=6 + 2 * gap),
    ) == [(1, 1, 1), (1, 1, 2), (1, 1, 1)]


def test_a_picture_finished_in_a_dispute_was_drawn_in_it():
    ix = SimpleNamespace(gestures=[stroke(1), stroke(2, at=2, dispute=True)])
    g = report.gestures({}, ix, GESTURE_PALETTE)
    assert (g["total"], g["in_dispute"], g["strokes"]) == (1, 1, 2)
