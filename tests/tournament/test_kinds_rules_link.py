"""While studying, the phase's name at the top of every game's phone is a link to
the table's rules: they come after the game, and in 7Up after its fourteen-row
score sheet (a student review found them 1,000 px down). Once the round is scored,
no link and no rules."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from tournament_helpers import tables_of

from games import kinds
from tournament import selectors, services
from tournament.models import Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("key", sorted(kinds.KINDS))
def test_a_link_at_the_top_leads_to_the_rules_while_studying(key):
    kind = kinds.get(key)
    seats = max(kind.min_seats, min(3, kind.max_seats))
    w = services.workshop_create(
        name="Rules", game=key, table_count=1, seats_per_table=seats, seed=2
    )
    for i in range(seats):
        services.player_join(workshop_id=w.pk, name=f"P{i}")
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    pid = Player.objects.filter(table=tables_of(w)[0]).first().pk
    html = render_to_string("play/_screen.html", selectors.player_screen(pid))
    link = html.index(
        '<a class="to-rules" href="#your-rules" aria-label="Study the rules: read your rules">'
        "Study the rules</a>"
    )
    assert (
        link
        < html.index('class="board')
        < html.index('<details class="sheet" id="your-rules" open>')
    )
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    html = render_to_string("play/_screen.html", selectors.player_screen(pid))
    assert "your-rules" not in html and 'class="board' in html
