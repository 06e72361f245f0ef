"""Secret sheets: automatic and manual assignment (RULES.md §2; issue 3)."""

from __future__ import annotations

import itertools

import pytest
from tournament_helpers import assert_refused, fresh, make_workshop, tables_of, to_home

from games.presets import PRESETS
from games.tricks import TrickRules
from tournament import services
from tournament.errors import InvalidInput, NotFound, WrongPhase
from tournament.models import Player
from tournament.sheet_assignment import (
    MIN_NEIGHBOUR_DIFF,
    AssignmentError,
    auto_assign,
    check_assignment,
    knob_difference,
)

# Some seed sheets share knobs, so fewer distinct sheets than presets exist; that
# number is the most tables an automatic assignment can serve.
DISTINCT_SHEETS = len(set(PRESETS.values()))
SEEDS = [0, 1, 2, 7, 42, 2**31 - 1]


def assert_good_assignment(chosen: list[str], count: int) -> None:
    assert len(chosen) == count
    assert len(set(chosen)) == count, "every table a different preset"
    rules = [PRESETS[name] for name in chosen]
    assert len(set(rules)) == count, "every table different knobs"
    for a, b in itertools.pairwise(rules):
        assert knob_difference(a, b) >= MIN_NEIGHBOUR_DIFF
    assert check_assignment(rules) == []


# ------------------------------------------------------------------ pure assignment


@pytest.mark.django_db
def test_the_service_serves_as_many_tables_as_there_are_distinct_sheets():
    assert 10 <= DISTINCT_SHEETS <= len(PRESETS)
    w = services.workshop_create(name="W", table_count=DISTINCT_SHEETS, seed=2)
    assert_good_assignment([t.preset for t in tables_of(w)], DISTINCT_SHEETS)


@pytest.mark.parametrize("count", range(1, DISTINCT_SHEETS + 1))
@pytest.mark.parametrize("seed", SEEDS)
def test_auto_assign_every_count_and_seed(count, seed):
    assert_good_assignment(auto_assign(count, PRESETS, seed), count)


def test_auto_assign_is_seeded():
    assert auto_assign(6, PRESETS, 5) == auto_assign(6, PRESETS, 5)
    draws = {tuple(auto_assign(6, PRESETS, s)) for s in range(10)}
    assert len(draws) > 1


@pytest.mark.parametrize("count", [DISTINCT_SHEETS + 1, 2 * DISTINCT_SHEETS + 3, 250])
@pytest.mark.parametrize("seed", SEEDS[:3])
def test_auto_assign_beyond_the_distinct_sheets_repeats_them_with_neighbours_still_apart(
    count, seed
):
    chosen = auto_assign(count, PRESETS, seed)
    assert len(chosen) == count
    rules = [PRESETS[name] for name in chosen]
    for a, b in itertools.pairwise(rules):
        assert knob_difference(a, b) >= MIN_NEIGHBOUR_DIFF
    # Sheets repeat as rarely as possible: any run of DISTINCT_SHEETS tables is all different.
    for i in range(count - DISTINCT_SHEETS + 1):
        assert len(set(rules[i : i + DISTINCT_SHEETS])) == DISTINCT_SHEETS


@pytest.mark.parametrize("count", [0, -1])
def test_auto_assign_refuses_impossible_counts(count):
    with pytest.raises(AssignmentError):
        auto_assign(count, PRESETS, 1)


def test_check_assignment_warns_about_close_and_equal_neighbours():
    a = PRESETS["guide-1"]
    b = TrickRules(ace=a.ace, wins=a.wins, trump="H", trump_when=a.trump_when)  # differs in 1
    warnings = check_assignment([a, b, a])
    assert (
        "Tables 1 and 2 differ in only 1 rule: neighbouring tables usually differ in 2." in warnings
    )
    assert any("Tables 1 and 3 have the same rules" in w for w in warnings)


# ------------------------------------------------------------------ sheets_assign service


@pytest.mark.django_db
@pytest.mark.parametrize("tables", [1, 2, 5, 10, DISTINCT_SHEETS])
def test_service_automatic_assignment(tables):
    w = services.workshop_create(name="W", table_count=tables, seed=1)
    for seed in (3, 4):
        assert services.sheets_assign(workshop_id=w.pk, seed=seed) == []
        ts = tables_of(w)
        assert_good_assignment([t.preset for t in ts], tables)
        for t in ts:
            assert t.rules == PRESETS[t.preset].to_dict()


@pytest.mark.django_db
def test_workshop_create_assignment_is_already_good():
    w = services.workshop_create(name="W", table_count=8, seed=11)
    assert_good_assignment([t.preset for t in tables_of(w)], 8)


@pytest.mark.django_db
def test_service_assignment_bumps_versions():
    w = make_workshop(players=0, tables=3)
    versions = [t.version for t in tables_of(w)]
    wv = fresh(w).version
    services.sheets_assign(workshop_id=w.pk, seed=99)
    assert [t.version for t in tables_of(w)] == [v + 1 for v in versions]
    assert fresh(w).version == wv + 1


@pytest.mark.django_db
def test_manual_by_preset_name_and_custom_knobs():
    w = make_workshop(players=0, tables=3)
    t3_before = tables_of(w)[2]
    custom = {"ace": "low", "wins": "lowest", "trump": "s", "trump_when": "any"}
    warnings = services.sheets_assign(workshop_id=w.pk, assignment={1: "guide-9", "2": custom})
    t1, t2, t3 = tables_of(w)
    assert (t1.preset, t1.rules) == ("guide-9", PRESETS["guide-9"].to_dict())
    assert t2.preset == "custom"
    assert t2.rules == {"ace": "low", "wins": "lowest", "trump": "S", "trump_when": "any"}
    # A table left out keeps its sheet.
    assert (t3.preset, t3.rules) == (t3_before.preset, t3_before.rules)
    assert isinstance(warnings, list)


@pytest.mark.django_db
def test_manual_assignment_returns_warnings_but_is_allowed():
    w = make_workshop(players=0, tables=3)
    warnings = services.sheets_assign(
        workshop_id=w.pk, assignment={1: "guide-1", 2: "guide-1", 3: "appendix-3"}
    )
    # Equal neighbours are said once, as equal, not as "differ in only 0".
    assert "Tables 1 and 2 have the same rules." in warnings
    assert not any("differ in only 0" in x for x in warnings)
    assert [t.preset for t in tables_of(w)] == ["guide-1", "guide-1", "appendix-3"]


BAD_ASSIGNMENTS = [
    ["guide-1"],
    "guide-1",
    {1: "guide-99"},
    {1: "Guide-1"},
    {1: ""},
    {1: 5},
    {1: None},
    {9: "guide-1"},
    {0: "guide-1"},
    {"one": "guide-1"},
    {1: {"ace": "high"}},
    {1: {"ace": "middle", "wins": "highest", "trump": None, "trump_when": "void"}},
    {1: {"ace": "high", "wins": "most", "trump": None, "trump_when": "void"}},
    {1: {"ace": "high", "wins": "highest", "trump": "X", "trump_when": "void"}},
    {1: {"ace": "high", "wins": "highest", "trump": None, "trump_when": "never"}},
    {1: {"ace": "high", "wins": "highest", "trump": None, "trump_when": "void", "x": 1}},
    # One bad entry refuses the whole assignment.
    {1: "guide-2", 2: "nope"},
]


@pytest.mark.django_db
def test_manual_assignment_refuses_bad_names_and_knobs():
    w = make_workshop(players=4, tables=2)
    services.players_seat_home(workshop_id=w.pk)
    for assignment in BAD_ASSIGNMENTS:
        assert_refused(
            lambda a=assignment: services.sheets_assign(workshop_id=w.pk, assignment=a),
            InvalidInput,
            case=assignment,
        )


@pytest.mark.django_db
def test_assignment_refused_outside_the_lobby():
    w = make_workshop(players=4, tables=2)
    to_home(w)
    assert_refused(lambda: services.sheets_assign(workshop_id=w.pk), WrongPhase)
    assert_refused(
        lambda: services.sheets_assign(workshop_id=w.pk, assignment={1: "guide-1"}), WrongPhase
    )


@pytest.mark.django_db
def test_assignment_unknown_workshop():
    assert_refused(lambda: services.sheets_assign(workshop_id=31337), NotFound)


@pytest.mark.django_db
def test_players_own_sheet_follows_their_home_table():
    w = make_workshop(players=6, tables=2)
    services.players_seat_home(workshop_id=w.pk)
    services.sheets_assign(workshop_id=w.pk, assignment={1: "guide-2", 2: "appendix-6"})
    t1, t2 = tables_of(w)
    for p in Player.objects.filter(workshop=w):
        expected = {t1.pk: PRESETS["guide-2"], t2.pk: PRESETS["appendix-6"]}[p.home_table_id]
        assert p.rules == expected.to_dict()
    # Re-seating at home tables after a change also hands out the new sheet.
    services.sheets_assign(workshop_id=w.pk, seed=5)
    services.players_seat_home(workshop_id=w.pk)
    for p in Player.objects.filter(workshop=w).select_related("home_table"):
        assert p.rules == p.home_table.rules


@pytest.mark.django_db
def test_games_use_each_players_own_sheet_and_the_tables_sheet():
    w = make_workshop(players=8, tables=2)
    to_home(w)
    from tournament_helpers import game_at

    for t in tables_of(w):
        game = game_at(t)
        assert game.table_rules == t.rules
        owners = {p.pk: p.rules for p in Player.objects.filter(pk__in=game.players)}
        assert game.seat_rules == [owners[pid] for pid in game.players]
