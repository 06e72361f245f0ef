"""The facilitator's own services: workshop_setup, player_rename, player_kick (issue 5)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from tournament_helpers import (
    assert_refused,
    fresh,
    game_at,
    make_workshop,
    seated,
    tables_of,
    to_home,
)

from games.presets import PRESETS
from tournament import services
from tournament.errors import InvalidInput, NotFound, WrongPhase
from tournament.models import Action, Game, GameState, Phase, Player, Table, Workshop

pytestmark = pytest.mark.django_db

CUSTOM = {"ace": "low", "wins": "lowest", "trump": None, "trump_when": "void"}


def setup_kwargs(**kw):
    base = {
        "name": "Monday",
        "table_count": 3,
        "seats_per_table": 4,
        "round_seconds": 30,
        "study_seconds": 300,
        "home_seconds": 180,
        "dispute_seconds": 45,
        "seed": 5,
    }
    return {**base, **kw}


# ------------------------------------------------------------------ workshop_setup


def test_setup_creates_with_chosen_and_custom_sheets():
    user = User.objects.create_user("fac")
    w, warnings = services.workshop_setup(
        facilitator=user, sheets={1: "guide-1", 3: CUSTOM}, **setup_kwargs()
    )
    tables = tables_of(w)
    assert w.facilitator == user and w.round_seconds == 30
    assert tables[0].preset == "guide-1" and tables[0].rules == PRESETS["guide-1"].to_dict()
    assert tables[2].preset == "custom" and tables[2].rules == CUSTOM
    assert tables[1].preset in PRESETS  # left automatic
    assert isinstance(warnings, list)


def test_setup_with_a_bad_sheet_creates_nothing():
    user = User.objects.create_user("fac")
    with pytest.raises(InvalidInput):
        services.workshop_setup(facilitator=user, sheets={2: "no-such-sheet"}, **setup_kwargs())
    assert not Workshop.objects.exists() and not Table.objects.exists()


def test_setup_warns_about_equal_neighbours():
    _, warnings = services.workshop_setup(
        facilitator=None, sheets={1: "guide-1", 2: "guide-1"}, **setup_kwargs(table_count=2)
    )
    assert any("same rules" in w for w in warnings)


# ------------------------------------------------------------------ player_rename


def test_rename_changes_the_name_and_bumps_versions():
    w = make_workshop(players=4, tables=1, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    p = Player.objects.get(name="P01")
    table = Table.objects.get(pk=p.table_id)
    w_version, t_version = fresh(w).version, table.version
    services.player_rename(workshop_id=w.pk, player_id=p.pk, name="  Zoë   Ann ")
    assert fresh(p).name == "Zoë Ann"
    assert fresh(w).version > w_version
    assert fresh(table).version > t_version


@pytest.mark.parametrize(
    "name, error",
    [
        ("", "enter a name"),
        ("x" * 31, "at most 30"),
        ("bad\x00name", "control or invisible characters"),
        (None, "must be text"),
        ("p02", "already called"),  # another player's name, ignoring case
        ("P01", "already has that name"),
        ("Bot Z", "a name the computer players get"),  # a person would read as a bot
        ("bot", "a name the computer players get"),
    ],
)
def test_rename_refusals_change_nothing(name, error):
    w = make_workshop(players=3, tables=1, seats=4)
    p = Player.objects.get(name="P01")
    exc = assert_refused(
        lambda: services.player_rename(workshop_id=w.pk, player_id=p.pk, name=name), InvalidInput
    )
    assert error in exc.message


def test_rename_refuses_a_player_of_another_workshop():
    mine = make_workshop(players=1, tables=1)
    other = services.workshop_create(name="Other", table_count=1)
    stranger = services.player_join(workshop_id=other.pk, name="Eve")
    assert_refused(
        lambda: services.player_rename(workshop_id=mine.pk, player_id=stranger.pk, name="Mallory"),
        NotFound,
    )


def test_rename_may_change_only_the_case_of_ones_own_name():
    w = make_workshop(players=2, tables=1)
    p = Player.objects.get(name="P01")
    services.player_rename(workshop_id=w.pk, player_id=p.pk, name="p01")
    assert fresh(p).name == "p01"


def test_rename_refuses_a_removed_player_and_the_debrief():
    """The panel offers no Rename for a removed player or once the tournament is over;
    a page left open since then could still rename them."""
    w = make_workshop(players=4, tables=1, seats=4)
    to_home(w)
    gone = Player.objects.get(name="P01")
    services.player_kick(workshop_id=w.pk, player_id=gone.pk)
    exc = assert_refused(
        lambda: services.player_rename(workshop_id=w.pk, player_id=gone.pk, name="Ann"),
        InvalidInput,
    )
    assert "has left" in exc.message and fresh(gone).name == "P01"
    services.workshop_start_debrief(workshop_id=w.pk)
    other = Player.objects.get(name="P02")
    exc = assert_refused(
        lambda: services.player_rename(workshop_id=w.pk, player_id=other.pk, name="Bea"), WrongPhase
    )
    assert "over" in exc.message and fresh(other).name == "P02"


# ------------------------------------------------------------------ player_kick


def test_kick_in_the_lobby_deletes_the_player_and_frees_the_name():
    w = make_workshop(players=3, tables=1)
    p = Player.objects.get(name="P02")
    version = fresh(w).version
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    assert not Player.objects.filter(pk=p.pk).exists()
    assert fresh(w).version > version
    again = services.player_join(workshop_id=w.pk, name="P02")
    assert again.name == "P02"


def test_kick_a_seated_lobby_player_bumps_their_table():
    w = make_workshop(players=4, tables=1, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    table = tables_of(w)[0]
    before = table.version
    services.player_kick(workshop_id=w.pk, player_id=Player.objects.get(name="P03").pk)
    assert fresh(table).version > before
    assert [p.name for p in seated(table)] == ["P01", "P02", "P04"]


def test_kick_during_play_removes_the_seat_and_redeals():
    w = make_workshop(players=5, tables=1, seats=5, leave_policy="skip")
    to_home(w)
    table = tables_of(w)[0]
    game = game_at(table)
    p = Player.objects.get(pk=game.players[0])
    old_token = p.token
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    p = fresh(p)
    assert p.has_left and p.table_id is None and p.token != old_token
    assert fresh(game).state == GameState.CUT
    new = game_at(table)
    assert new is not None and p.pk not in new.players and len(new.players) == 4
    assert Game.objects.filter(pk=game.pk).exists()  # the record stays


def test_kick_during_play_with_the_bot_policy_leaves_a_bot_in_the_seat():
    """The set-up's "when you remove a player" choice: Remove always cut the game and
    dropped the seat, whatever the facilitator had chosen. With "a bot plays their
    seat" (the default) the game goes on, the bot plays for them, and only their
    phone and PIN lose the seat."""
    from datetime import timedelta

    from django.utils import timezone

    from tournament import gamestate, timers

    w = make_workshop(players=4, tables=1, seats=4)
    assert w.leave_policy == "bot"
    to_home(w)
    table = tables_of(w)[0]
    game = game_at(table)
    state = gamestate.load_state(game)
    p = Player.objects.get(pk=game.players[state.to_act])  # the seat the game waits for
    pin = p.pin
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    p = fresh(p)
    assert p.has_left and p.table_id == table.pk and p.pin != pin
    assert game_at(table).pk == game.pk  # not cut
    seq = game.seq
    report = timers.tick(timezone.now() + timedelta(seconds=5), bot_delay=0)
    assert report.bot_actions >= 1
    assert fresh(game).seq > seq  # the bot played the seat's turn
    assert Action.objects.filter(game=game, actor_id=p.pk).exists()
    assert_refused(lambda: services.player_rejoin(code=w.code, name=p.name, pin=pin), InvalidInput)


def test_kick_refusals():
    w = make_workshop(players=4, tables=1, seats=4)
    to_home(w)
    p = Player.objects.get(name="P01")
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    assert_refused(lambda: services.player_kick(workshop_id=w.pk, player_id=p.pk), InvalidInput)
    assert_refused(lambda: services.player_kick(workshop_id=w.pk, player_id=999999), NotFound)
    assert_refused(lambda: services.player_kick(workshop_id=w.pk, player_id="x"), NotFound)
    services.workshop_start_debrief(workshop_id=w.pk)
    assert fresh(w).phase == Phase.DEBRIEF
    other = Player.objects.get(name="P02")
    assert_refused(lambda: services.player_kick(workshop_id=w.pk, player_id=other.pk), WrongPhase)


def test_kick_refuses_a_player_of_another_workshop():
    mine = make_workshop(players=1, tables=1)
    other = services.workshop_create(name="Other", table_count=1)
    stranger = services.player_join(workshop_id=other.pk, name="Eve")
    assert_refused(
        lambda: services.player_kick(workshop_id=mine.pk, player_id=stranger.pk), NotFound
    )
