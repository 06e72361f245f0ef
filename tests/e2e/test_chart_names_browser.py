"""The report's movement chart in Chromium: every name at a line's end is drawn
wholly inside the picture, long names too (a fixed margin cut "Maximilian-Alexander"
to "Maximilian-Alexa")."""

from __future__ import annotations

import pytest

from tournament import report_charts

pytestmark = [pytest.mark.browser]


def _movement(names):
    """Six columns (at home, four rounds, after the last): the more columns, the
    closer the lines' ends come to the picture's right edge."""
    pids = list(range(1, len(names) + 1))
    return {
        "columns": [{"label": "At home"}, *({"label": f"Round {r}"} for r in range(1, 6))],
        "players": pids,
        "grid": [{"table": 1}, {"table": 2}],
        "journeys": {p: {"tables": [1 + (p + c) % 2 for c in range(6)], "text": ""} for p in pids},
    }


@pytest.mark.parametrize(
    "names",
    [
        ["Ana", "Bo", "Cai", "Dev"],
        ["Maximilian-Alexander", "Wolfgang Wilhelmsson", "Ana", "Mohammed Abdelrahman"],
        ["W" * 40, "Ana", "Bo", "Cai"],
    ],
    ids=["short", "long", "forty"],
)
def test_every_name_is_inside_the_chart(browser, names):
    chart = report_charts.paths_chart(_movement(names), dict(enumerate(names, start=1)))
    page = browser.new_page()
    page.set_viewport_size({"width": chart["width"], "height": chart["height"]})
    page.set_content(f"<body style='margin:0'>{chart['svg']}</body>")
    page.eval_on_selector("svg", f"s => s.style.width = '{chart['width']}px'")
    # Each name's box, the picture drawn at its own width from the page's left edge.
    boxes = page.evaluate(
        """() => {
             const svg = document.querySelector('svg').getBoundingClientRect();
             return [...document.querySelectorAll('text.label')].map(t => {
               const b = t.getBoundingClientRect();
               return [t.textContent, b.left - svg.left, b.right - svg.left, svg.width]; });
           }"""
    )
    assert len(boxes) == len(names)
    assert all(0 <= left and right <= width for _, left, right, width in boxes), boxes
    shown = {text for text, *_ in boxes}
    assert {n for n in names if n != "W" * 40} <= shown  # real names whole
    assert ("W" * 40 in names) == any(t.startswith("WWW") and t.endswith("…") for t in shown)
    assert all(n in chart["alt"] for n in names)  # the alt text keeps every whole name
    page.close()
