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


def index(*gestures, kind="five_tricks"):
    """What gestures() reads of a report.Index."""
    return SimpleNamespace(
        gestures=list(gestures),
        kind=SimpleNamespace(key=kind),
        label=lambda rn: f"Round {rn - 1}",
        name={1: "Ana", 2: "Ben", 3: "<b>Chloé</b>"}.get,
    )


def pictures(*gestures) -> list[tuple]:
    return [(p["player"], p["table"], len(p["strokes"])) for p in report.drawings(index(*gestures))]


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
    g = report.gestures({}, index(stroke(1), stroke(2, at=2, dispute=True)), GESTURE_PALETTE)
    assert (g["total"], g["in_dispute"], g["strokes"]) == (1, 1, 2)


def test_the_drawings_shown_are_those_of_disputes_then_the_busiest_in_drawing_order():
    """Finding 5: the strokes were stored, yet no drawing was shown. At most
    DRAWINGS_SHOWN are: those made during disputes first, then those with most strokes."""
    n = report.DRAWINGS_SHOWN
    # n + 2 one-stroke drawings at other times, each in its own trick; then a
    # three-stroke one at another time and a one-stroke one during a dispute.
    gs = [stroke(i, trick=i) for i in range(1, n + 3)]
    gs += [stroke(100 + i, trick=50, player=2, at=10 + i) for i in range(3)]
    gs += [stroke(200, trick=60, player=3, at=30, dispute=True)]
    g = report.gestures({}, index(*gs), GESTURE_PALETTE)
    shown = g["shown"]
    assert len(shown) == n and g["drawings"] == n + 4
    assert [d["id"] for d in shown] == [1, 2, 3, 4, 100, 200]
    assert shown[-1]["alt"] == (
        "Drawing by <b>Chloé</b> at table 1, Round 1, trick 61, during a dispute: 1 stroke"
    )
    assert shown[-2]["alt"] == "Drawing by Ben at table 1, Round 1, trick 51: 3 strokes"
    # Each stroke is a polyline on the pad's box; a one-point stroke, a dot.
    assert shown[-2]["lines"] == ["30.0,40.0 90.0,80.0"] * 3
    one = stroke(1)
    one["payload"] = {"points": [[0.5, 0.5]]}
    (dot,) = report.gestures({}, index(one), GESTURE_PALETTE)["shown"][0]["lines"]
    assert dot == "150.0,100.0 150.6,100.0"


def test_a_long_stroke_is_thinned_and_garbled_points_are_left_out():
    long = stroke(1)
    long["payload"] = {"points": [[i / 1999, 0.5] for i in range(2000)] + [["x", 1], True]}
    (line,) = report.gestures({}, index(long), GESTURE_PALETTE)["shown"][0]["lines"]
    pts = line.split()
    assert len(pts) == report.DRAWING_POINTS_SHOWN
    assert (pts[0], pts[-1]) == ("0.0,100.0", "300.0,100.0")


def test_3_tricks_drawings_are_placed_by_turn():
    (d,) = report.gestures({}, index(stroke(1, trick=4), kind="three_tricks"), None)["shown"]
    assert d["alt"] == "Drawing by Ana at table 1, Round 1, turn 5: 1 stroke"


@pytest.mark.django_db
def test_the_drawings_show_as_svg_pads_with_their_drawer_and_place_escaped():
    w = make_workshop(players=4, tables=1, seats=4, mode="referee")
    to_scored_round(w)
    pid = game_at(tables_of(w)[0]).players[0]
    for s in SEVEN_OVER_ACE:
        services.gesture_make(player_id=pid, kind="drawing", payload={"points": s})
    rep = build(w)
    (d,) = rep["clashes"]["gestures"]["shown"]
    name = Player.objects.get(pk=pid).name
    assert d["alt"] == f"Drawing by {name} at table 1, Round 1, trick 1: 6 strokes"
    html = render_to_string("report/page.html", {"r": rep, "workshop": w, "charts": {}})
    section = html.split('id="h-gestures"', 1)[1].split("</section>", 1)[0]
    assert '<h4 id="h-drawings">The drawing</h4>' in section
    svg = section.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'viewBox="0 0 300 200" role="img"' in svg
    assert f'aria-label="{d["alt"]}"' in svg and f"<title>{d['alt']}</title>" in svg
    assert svg.count("<polyline ") == 6
    assert '<polyline points="30.0,20.0 90.0,20.0 60.0,100.0"/>' in svg
    # The CSP forbids style attributes: the strokes are drawn by report.css's classes.
    assert "style=" not in section
    assert f"<figcaption><bdi>{name}</bdi> at table 1, Round 1, trick 1 · 6 strokes" in section

    # A name is escaped, in the caption and in the accessible name.
    d["name"], d["alt"] = "<i>Ana</i>", 'Drawing by <i>"Ana"</i>'
    html = render_to_string("report/page.html", {"r": rep, "workshop": w, "charts": {}})
    assert "<i>Ana</i>" not in html and "<i>&quot;Ana&quot;</i>" not in html
    assert "<bdi>&lt;i&gt;Ana&lt;/i&gt;</bdi>" in html
    assert 'aria-label="Drawing by &lt;i&gt;&quot;Ana&quot;&lt;/i&gt;"' in html
