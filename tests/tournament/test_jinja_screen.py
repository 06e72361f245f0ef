"""The phone screen's Jinja2 environment (barnga/jinja2.py) looks dict keys up first.

That only saves the AttributeError Jinja2 raises and catches for each `a.b` on a dict;
the screens it renders must be exactly those of a plain Jinja2 environment.
"""

from __future__ import annotations

import re

import markupsafe
import pytest
from django.template import engines
from django.template.defaultfilters import pluralize as django_pluralize
from django.utils import timezone
from django.utils.safestring import mark_safe
from jinja2 import Environment
from tournament_helpers import (
    five_tricks_step,
    game_at,
    make_workshop,
    tables_of,
    to_scored_round,
)

from barnga.jinja2 import output_escape, pluralize
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
    plain.filters["pluralize"] = django_pluralize  # Django's own, not the screen's shortcut
    plain.globals.update(env.globals)
    ours, theirs = env.get_template("play/_screen.html"), plain.get_template("play/_screen.html")
    # The plain one escapes with markupsafe's own escape (Markup objects).
    assert ours.root_render_func.__globals__["escape"] is output_escape
    assert theirs.root_render_func.__globals__["escape"] is markupsafe.escape

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


@pytest.mark.django_db
@pytest.mark.parametrize("kind,seats", [("seven_up", 3), ("all_fives", 3), ("three_tricks", 2)])
def test_the_other_games_parts_render_exactly_as_djangos_own_render(kind, seats):
    """dtl() renders a game's Django template without number localisation: every seat's
    part, move after move through a game and into the next, must be the text Django's
    own render (which localises) writes."""
    from django.template.loader import render_to_string

    from barnga.jinja2 import dtl
    from games import kinds
    from tournament import gamestate, services

    w = services.workshop_create(
        name="Parts", game=kind, table_count=1, seats_per_table=seats, bots_enabled=True, seed=5
    )
    services.bots_fill(workshop_id=w.pk)
    to_scored_round(w)
    (table,) = tables_of(w)
    first = game_at(table).pk
    env = screen_env()
    assert env.globals["dtl"] is dtl
    numbers = into_next = 0
    for _ in range(3000):
        now = timezone.now()
        for player in Player.objects.filter(table=table):
            ctx = selectors.player_screen(player.pk, now)
            if not ctx.get("game"):
                continue
            template = ctx["game"]["template"]
            ours = env.from_string("{{ dtl(t) }}").render({**ctx, "t": template})
            assert ours == render_to_string(template, ctx, using="django"), player.name
            numbers += len(re.findall(r">\d+<", ours))
        game = game_at(table)
        into_next += game is not None and game.pk != first
        if game is None or into_next > 5:
            break
        state = gamestate.load_state(game)
        seat = kinds.get(kind).to_act(state)[0]
        assert services.game_bot_act(player_id=game.players[seat]) is not None
    assert game is not None and game.pk != first  # one game played through, the next begun
    assert numbers > 0  # numbers written as text: what localisation would have touched


class _Html:
    def __html__(self):
        return "<b>safe</b>"


@pytest.mark.parametrize(
    "value",
    ['Ana & "Bo" <x> \'y\'', "", "plain", 0, 7, -12, True, False, 2.5, None,
     markupsafe.Markup("<i>m</i>"), mark_safe("<em>s</em>"), _Html(), ["<a>", 1]],
    ids=repr,
)
def test_the_screens_output_escape_writes_what_markupsafe_escape_writes(value):
    assert output_escape(value) == str(markupsafe.escape(value))


def test_a_missing_name_writes_nothing_through_the_output_escape():
    env = screen_env()
    assert env.from_string("[{{ nothing }}|{{ d.nothing.deeper }}]").render(d={}) == "[|]"


@pytest.mark.parametrize("value", [0, 1, 2, -1, "1", "2", 1.0, [1], [1, 2], None])
@pytest.mark.parametrize("arg", ["s", "y,ies", "es"])
def test_the_screens_pluralize_is_djangos(value, arg):
    assert pluralize(value, arg) == django_pluralize(value, arg)


@pytest.mark.django_db
def test_a_name_written_as_markup_is_shown_as_text_on_every_seat_through_a_game():
    """Names are the players' own text: through the fast output escape they still
    reach every screen (seat list, cards on the table, claims) escaped, never as markup."""
    from tournament import services

    hostile = '<img src=x onerror="a()">&'
    w = services.workshop_create(name="Escapes", table_count=1, seats_per_table=5, seed=7)
    services.player_join(workshop_id=w.pk, name=hostile)
    for i in range(4):
        services.player_join(workshop_id=w.pk, name=f"P{i + 1:02d}")
    to_scored_round(w)
    (table,) = tables_of(w)
    game = game_at(table)
    template = screen_env().get_template("play/_screen.html")
    shown = 0
    for _ in range(12):
        now = timezone.now()
        for player in Player.objects.filter(table=table):
            html = template.render(selectors.player_screen(player.pk, now))
            assert "<img" not in html and 'onerror="' not in html
            shown += html.count(str(markupsafe.escape(hostile)))
        five_tricks_step(game)
    assert shown >= 5 * 12  # on every seat's screen, every time
