"""The report opened while the tournament runs folds every table's rules away: a
laptop mirrored to the projector showed them on the first screen, just below the
warning to keep the report off the projector (teaching review, finding 9)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from tournament_helpers import fresh, make_workshop, to_scored_round

from tournament import export, report
from tournament.models import Phase

pytestmark = pytest.mark.django_db

FOLD = '<details class="reveal-fold"><summary>Show every table\'s rules</summary>'


def reveal_section(w, phase: str) -> str:
    rep = report.build_report(export.workshop_document(fresh(w)))
    w.phase = phase  # as the template reads it: the report is built from the document
    html = render_to_string("report/page.html", {"r": rep, "workshop": w, "charts": {}})
    return html.split('<section id="reveal"', 1)[1].split('<section id="movement"', 1)[0]


@pytest.fixture
def workshop():
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    return w


@pytest.mark.parametrize("phase", [Phase.STUDY, Phase.HOME, Phase.ROUND, Phase.BETWEEN])
def test_while_the_tournament_runs_the_rules_are_in_a_closed_details(workshop, phase):
    section = reveal_section(workshop, phase)
    heading, rest = section.split(FOLD, 1)
    # The heading stays in view; every rule is behind the closed summary.
    assert '<h2 id="h-reveal">1 The reveal: every table' in heading
    assert "knobs" not in heading and "sheet-card" not in heading
    assert 'class="knobs"' in rest and "sheet-card" in rest
    assert rest.rstrip().endswith("</div></details>\n</section>")
    assert FOLD.replace("<details", "<details open") not in section


@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.DEBRIEF])
def test_in_the_debrief_the_rules_are_open(workshop, phase):
    section = reveal_section(workshop, phase)
    assert "reveal-fold" not in section and "Show every table" not in section
    assert section.index('class="knobs"') < section.index("sheet-card")
