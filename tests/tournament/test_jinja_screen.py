"""The phone screen's Jinja2 environment (barnga/jinja2.py) looks dict keys up first.

That only saves the AttributeError Jinja2 raises and catches for each `a.b` on a dict;
the screens it renders must be exactly those of a plain Jinja2 environment.
"""

from __future__ import annotations

import pytest
from django.template import engines
from django.utils import timezone
from jinja2 import Environment
from tournament_helpers import (
    five_tricks_step,
    game_at,
    make_workshop,
    tables_of,
    to_scored_round,
)

from tournament import selectors
from tournament.models import Player


def screen_env():
    return engines["jinja2"].env


def test_a_dict_key_is_found_before_a_dict_method_and_a_missing_one_is_empty():
    env = screen_env()
    t = env.from_string("[{{ d.items }}|{{ d.name }}|{{ d.nothing }}|{{ d.nothing.deeper }}]")
    assert t.render(d={"items": "cards", "name": "Ana"}) == "[cards|Ana||]"
    # Without the key, a dict's method is still a method (as in plain Jinja2).
    assert env.from_string("{{ d.get('x') }}").render(d={"x": 7}) == "7"
    # Objects keep attribute lookup.
    assert env.from_string("{{ p.name }}").render(p=Player(name="Bea")) == "Bea"


@pytest.mark.django_db
def test_every_seat_renders_exactly_as_a_plain_jinja2_environment_through_a_game():
    env = screen_env()
    plain = Environment(loader=env.loader, autoescape=env.autoescape, undefined=env.undefined)
    plain.filters.update(env.filters)
    plain.globals.update(env.globals)
    ours, theirs = env.get_template("play/_screen.html"), plain.get_template("play/_screen.html")

    w = make_workshop(players=5, tables=1, seats=5)
    to_scored_round(w)
    (table,) = tables_of(w)
    game = game_at(table)
    seen_claim = seen_play = False
    for _ in range(30):
        now = timezone.now()
        for player in Player.objects.filter(table=table):
            ctx = selectors.player_screen(player.pk, now)
            html = ours.render(ctx)
            assert html == theirs.render(ctx)
            seen_claim |= 'data-action="claim"' in html
            seen_play |= 'data-action="play"' in html
        five_tricks_step(game)
        if game_at(table) is None or game_at(table).pk != game.pk:
            break
    assert seen_claim and seen_play
