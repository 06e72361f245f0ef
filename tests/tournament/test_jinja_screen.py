"""The phone screen's Jinja2 environment (barnga/jinja2.py) looks dict keys up first.

That only saves the AttributeError Jinja2 raises and catches for each `a.b` on a dict;
the screens it renders must be exactly those of a plain Jinja2 environment.
"""

from __future__ import annotations

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


def plain_env():
    """The screen's templates, filters and globals in a plain Jinja2 environment:
    markupsafe's own escape, attribute-first lookups, Django's own pluralize."""
    env = screen_env()
    plain = Environment(loader=env.loader, autoescape=env.autoescape, undefined=env.undefined)
    plain.filters.update(env.filters)
    plain.filters["pluralize"] = django_pluralize  # Django's own, not the screen's shortcut
    plain.globals.update(env.globals)
    return plain


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
    env, plain = screen_env(), plain_env()
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
@pytest.mark.parametrize(
    "kind,seats,board", [("seven_up", 3, "su"), ("all_fives", 3, "af"), ("three_tricks", 2, "tt")]
)
def test_the_other_games_render_exactly_as_a_plain_jinja2_environment_through_a_game(
    kind, seats, board
):
    """Their parts (templates/jinja2/play/games/, ported from Django's language) go
    through the screen's shortcuts too: every seat, move after move through a game
    and into the next, with names that need escaping and isolating."""
    from games import kinds
    from tournament import gamestate, services

    env, plain = screen_env(), plain_env()
    ours, theirs = env.get_template("play/_screen.html"), plain.get_template("play/_screen.html")
    w = services.workshop_create(
        name="Parts", game=kind, table_count=1, seats_per_table=seats, bots_enabled=True, seed=5
    )
    services.player_join(workshop_id=w.pk, name='O\'Brien & "Q" <b>')
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    to_scored_round(w)
    Player.objects.filter(workshop=w).update(is_bot=True)  # the bots play every seat
    (table,) = tables_of(w)
    first = game_at(table).pk
    into_next = 0
    for _ in range(3000):
        now = timezone.now()
        for player in Player.objects.filter(table=table):
            ctx = selectors.player_screen(player.pk, now)
            html = ours.render(ctx)
            assert html == theirs.render(ctx), player.name
            assert f'class="board {board}"' in html
            assert "<bdi>O&#39;Brien &amp; &#34;Q&#34; &lt;b&gt;</bdi>" in html
        game = game_at(table)
        into_next += game is not None and game.pk != first
        if game is None or into_next > 5:
            break
        state = gamestate.load_state(game)
        seat = kinds.get(kind).to_act(state)[0]
        assert services.game_bot_act(player_id=game.players[seat]) is not None
    assert game is not None and game.pk != first  # one game played through, the next begun


class _Html:
    def __html__(self):
        return "<b>safe</b>"

    def __repr__(self):  # the test's id: the same in every process (pytest-xdist)
        return "_Html()"


@pytest.mark.parametrize(
    "value",
    [
        "Ana & \"Bo\" <x> 'y'",
        "",
        "plain",
        0,
        7,
        -12,
        True,
        False,
        2.5,
        None,
        markupsafe.Markup("<i>m</i>"),
        mark_safe("<em>s</em>"),
        _Html(),
        ["<a>", 1],
    ],
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
