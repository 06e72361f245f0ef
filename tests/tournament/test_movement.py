"""Movement after a round (RULES.md §2): pure tests, no database, no Django."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tournament.movement import (
    Move,
    Movement,
    MovementError,
    Standing,
    TableStanding,
    compute_movement,
    name_sort_key,
    rank_table,
    stays_by_edge,
)

# ------------------------------------------------------------------------ helpers


def table(number: int, *players: tuple[str, int]) -> TableStanding:
    """A table from (name, games won) pairs in join order."""
    return TableStanding(number, tuple(Standing(name, won) for name, won in players))


def names(players: list[Standing]) -> list[str]:
    return [player.name for player in players]


def destinations(movement: Movement) -> dict[str, int]:
    """Name -> new table, for tests whose names are unique."""
    where = {}
    for number, players in movement.tables.items():
        for player in players:
            assert player.name not in where, "test names must be unique"
            where[player.name] = number
    return where


def around(middle: TableStanding) -> list[TableStanding]:
    """``middle`` as table 2 between two other tables, so both directions show."""
    assert middle.number == 2
    return [table(1, ("low1", 1)), middle, table(3, ("high1", 1))]


# ------------------------------------------------------------------ name ordering


def test_name_sort_key_ignores_case_and_accents():
    assert name_sort_key("émile") == name_sort_key("Emile") == name_sort_key("EMILE")
    assert name_sort_key("Zoë") == name_sort_key("zoe") == name_sort_key("ZOË")
    assert name_sort_key("Émile") < name_sort_key("eve")
    assert name_sort_key("Ångström") < name_sort_key("Bob")
    assert name_sort_key("Straße") == name_sort_key("STRASSE")


def test_letters_with_a_stroke_sort_as_the_letter():
    """'Łukasz' sorted after 'Zoe' (NFKD leaves Ł whole), so a tie moved the wrong player."""
    assert name_sort_key("Łukasz") == name_sort_key("lukasz")
    assert name_sort_key("Øyvind") == "oyvind" and name_sort_key("Đorđe") == "dorde"
    assert sorted(["Zoe", "Łukasz", "Anna"], key=name_sort_key) == ["Anna", "Łukasz", "Zoe"]


def test_name_sort_key_rejects_non_strings():
    with pytest.raises(MovementError):
        name_sort_key(None)  # type: ignore[arg-type]


# ----------------------------------------------------------------------- ranking


def test_rank_by_games_won_most_first():
    ranked = rank_table(table(1, ("Ana", 1), ("Bob", 3), ("Cy", 2)).players)
    assert names(ranked) == ["Bob", "Cy", "Ana"]


def test_rank_ties_alphabetical_regardless_of_join_order():
    ranked = rank_table(table(1, ("Cy", 2), ("ana", 2), ("Bob", 2), ("Dee", 5)).players)
    assert names(ranked) == ["Dee", "ana", "Bob", "Cy"]


def test_rank_accents_and_case_do_not_affect_alphabetical_order():
    ranked = rank_table(table(1, ("eve", 1), ("Emile", 1), ("émile", 1), ("Adam", 1)).players)
    # "Emile" and "émile" compare equal, so join order decides between them;
    # both come before "eve" (an accent does not push é after e).
    assert names(ranked) == ["Adam", "Emile", "émile", "eve"]
    ranked = rank_table(table(1, ("eve", 1), ("émile", 1), ("Emile", 1)).players)
    assert names(ranked) == ["émile", "Emile", "eve"]


def test_rank_zoe_with_and_without_diaeresis_tie_by_join_order():
    assert names(rank_table(table(1, ("zoe", 0), ("Zoë", 0)).players)) == ["zoe", "Zoë"]
    assert names(rank_table(table(1, ("Zoë", 0), ("zoe", 0)).players)) == ["Zoë", "zoe"]


def test_rank_identical_names_by_join_order():
    first, second = Standing("Ana", 2, key=10), Standing("Ana", 2, key=20)
    assert [p.key for p in rank_table([first, second])] == [10, 20]
    assert [p.key for p in rank_table([second, first])] == [20, 10]


def test_rank_identical_names_without_keys_keeps_objects_apart():
    first, second = Standing("Ana", 2), Standing("Ana", 2)
    ranked = rank_table([second, first])
    assert ranked[0] is second and ranked[1] is first


def test_rank_empty_table():
    assert rank_table(()) == []


def test_rank_rejects_non_standings():
    with pytest.raises(MovementError):
        rank_table([("Ana", 2)])  # type: ignore[list-item]


# ------------------------------------------------------------- table sizes 1..8


# Table 2 of three; names are in ranked order already (distinct games won),
# joined in reverse so join order cannot be what puts them in place.
SIZES = {
    1: ({"A": 3}, {}),
    2: ({"A": 3}, {"B": 1}),
    3: ({"A": 3}, {"C": 1}),
    4: ({"A": 3}, {"D": 1}),
    5: ({"A": 3, "B": 3}, {"D": 1, "E": 1}),
    6: ({"A": 3, "B": 3}, {"E": 1, "F": 1}),
    7: ({"A": 3, "B": 3}, {"F": 1, "G": 1}),
    8: ({"A": 3, "B": 3}, {"G": 1, "H": 1}),
}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_table_of_each_size(size):
    letters = "ABCDEFGH"[:size]
    middle = table(2, *[(letter, 10 - i) for i, letter in reversed(list(enumerate(letters)))])
    movement = compute_movement(around(middle))

    up, down = SIZES[size]
    expected = {letter: 2 for letter in letters} | up | down
    where = destinations(movement)
    assert {letter: where[letter] for letter in letters} == expected
    # Nobody is in both groups, and the k of rule 2 holds.
    k = 2 if size > 4 else 1
    assert len(up) == min(k, size)
    assert len(down) == (0 if size == 1 else k)
    assert not set(up) & set(down)
    moved = {(m.name, m.from_table, m.to_table) for m in movement.moves if m.from_table == 2}
    assert moved == {(name, 2, to) for name, to in (up | down).items()}


def test_size_three_explicit():
    movement = compute_movement(around(table(2, ("Ana", 2), ("Bob", 5), ("Cy", 0))))
    where = destinations(movement)
    assert (where["Bob"], where["Ana"], where["Cy"]) == (3, 2, 1)


def test_lone_player_moves_up_only():
    movement = compute_movement([table(1, ("Solo", 0)), table(2, ("A", 1), ("B", 0))])
    assert destinations(movement)["Solo"] == 2
    assert Move("Solo", "Solo", 1, 2) in movement.moves


def test_lone_player_in_the_middle_moves_up_not_down():
    movement = compute_movement(around(table(2, ("Solo", 0))))
    assert destinations(movement)["Solo"] == 3


def test_lone_player_at_top_table_stays():
    movement = compute_movement([table(1, ("A", 1), ("B", 0)), table(2, ("Solo", 0))])
    assert destinations(movement) == {"A": 2, "B": 1, "Solo": 2}
    assert [m.name for m in movement.moves] == ["A"]


# -------------------------------------------------------------------------- ties


def test_tie_at_the_top_goes_alphabetically():
    where = destinations(compute_movement(around(table(2, ("Bob", 3), ("Ana", 3), ("Cy", 1)))))
    assert (where["Ana"], where["Bob"], where["Cy"]) == (3, 2, 1)


def test_tie_at_the_bottom_alphabetically_last_moves_down():
    where = destinations(compute_movement(around(table(2, ("Cy", 0), ("Ana", 3), ("Bob", 0)))))
    assert (where["Ana"], where["Bob"], where["Cy"]) == (3, 2, 1)


def test_tie_across_the_up_boundary_of_k2():
    # 5 players, k = 2: the second up place is shared by three players on 3 wins.
    middle = table(2, ("Eve", 3), ("Dan", 3), ("Cy", 3), ("Ann", 4), ("Bo", 0))
    where = destinations(compute_movement(around(middle)))
    assert {n: where[n] for n in ["Ann", "Cy", "Dan", "Eve", "Bo"]} == {
        "Ann": 3, "Cy": 3, "Dan": 2, "Eve": 1, "Bo": 1,
    }  # fmt: skip


def test_tie_across_the_down_boundary_of_k2():
    # 6 players: ranking Ann, Bo, Cy, then 1 win for Dan, Eli, Fay -> Eli and Fay down.
    middle = table(2, ("Fay", 1), ("Eli", 1), ("Dan", 1), ("Cy", 2), ("Bo", 3), ("Ann", 4))
    where = destinations(compute_movement(around(middle)))
    assert {n: where[n] for n in ["Ann", "Bo", "Cy", "Dan", "Eli", "Fay"]} == {
        "Ann": 3, "Bo": 3, "Cy": 2, "Dan": 2, "Eli": 1, "Fay": 1,
    }  # fmt: skip


def test_tie_across_the_k1_boundary_everyone_but_one():
    # Three tied on 2 for top; the alphabetical first goes up, last goes down.
    middle = table(2, ("Cy", 2), ("Ana", 2), ("Bob", 2), ("Dee", 0))
    where = destinations(compute_movement(around(middle)))
    assert {n: where[n] for n in ["Ana", "Bob", "Cy", "Dee"]} == {
        "Ana": 3, "Bob": 2, "Cy": 2, "Dee": 1,
    }  # fmt: skip


@pytest.mark.parametrize("size", range(1, 9))
def test_everyone_tied_goes_alphabetically(size):
    letters = "HGFEDCBA"[-size:]  # joined in reverse alphabetical order
    middle = table(2, *[(letter, 2) for letter in letters])
    ranked = sorted(letters)
    k = 2 if size > 4 else 1
    up = ranked[:k]
    down = ranked[max(k, size - k) :]
    where = destinations(compute_movement(around(middle)))
    for letter in letters:
        expected = 3 if letter in up else 1 if letter in down else 2
        assert where[letter] == expected, letter


def test_everyone_tied_at_zero_four_players():
    where = destinations(compute_movement(around(table(2, ("d", 0), ("C", 0), ("b", 0), ("A", 0)))))
    assert {n: where[n] for n in "AbCd"} == {"A": 3, "b": 2, "C": 2, "d": 1}


def test_accents_and_case_in_ties():
    middle = table(2, ("eve", 1), ("émile", 1), ("Emile", 1))
    where = destinations(compute_movement(around(middle)))
    # Ranking: émile, Emile (equal names: join order), eve.
    assert {n: where[n] for n in ["émile", "Emile", "eve"]} == {"émile": 3, "Emile": 2, "eve": 1}


def test_zoe_tie_by_join_order():
    where = destinations(compute_movement(around(table(2, ("zoe", 0), ("Zoë", 0)))))
    assert (where["zoe"], where["Zoë"]) == (3, 1)
    where = destinations(compute_movement(around(table(2, ("Zoë", 0), ("zoe", 0)))))
    assert (where["Zoë"], where["zoe"]) == (3, 1)


def test_identical_names_resolved_by_join_order():
    first, second = Standing("Ana", 1, key="first"), Standing("Ana", 1, key="second")
    movement = compute_movement(
        [table(1, ("x", 0)), TableStanding(2, (first, second)), table(3, ("y", 0))]
    )
    assert Move("first", "Ana", 2, 3) in movement.moves
    assert Move("second", "Ana", 2, 1) in movement.moves


def test_identical_names_without_keys_at_same_and_other_tables():
    a1, a2, a3 = Standing("Ana", 1), Standing("Ana", 1), Standing("Ana", 0)
    movement = compute_movement([TableStanding(1, (a1, a2)), TableStanding(2, (a3,))])
    # a1 (first joined) goes up; a2 (last) would go down but table 1 is the bottom;
    # a3 is a lone player at the top table: stays.
    assert movement.tables[1] == [a2]
    assert movement.tables[1][0] is a2
    assert [p is a3 for p in movement.tables[2]] == [True, False]
    assert movement.tables[2][1] is a1
    assert movement.moves == [Move("Ana", "Ana", 1, 2)]


# -------------------------------------------------------------------- edge tables


def test_top_table_up_movers_stay_and_table_one_down_movers_stay():
    tables = [
        table(1, ("a1", 5), ("a2", 4), ("a3", 3), ("a4", 2), ("a5", 1)),
        table(2, ("b1", 5), ("b2", 4), ("b3", 3), ("b4", 2), ("b5", 1)),
    ]
    movement = compute_movement(tables)
    assert destinations(movement) == {
        "a1": 2, "a2": 2, "a3": 1, "a4": 1, "a5": 1,
        "b1": 2, "b2": 2, "b3": 2, "b4": 1, "b5": 1,
    }  # fmt: skip
    assert names(movement.tables[1]) == ["a3", "a4", "a5", "b4", "b5"]
    assert names(movement.tables[2]) == ["b1", "b2", "b3", "a1", "a2"]


def test_single_table_everyone_stays():
    for size in range(0, 9):
        players = [(f"p{i}", i % 3) for i in range(size)]
        movement = compute_movement([table(7, *players)])
        assert movement.moves == []
        assert sorted(names(movement.tables[7])) == sorted(f"p{i}" for i in range(size))
        assert names(movement.tables[7]) == names(rank_table(table(7, *players).players))


def test_no_tables():
    assert compute_movement([]) == Movement(tables={}, moves=[])


def test_gaps_in_table_numbers_move_to_next_present_number():
    tables = [
        table(10, ("c", 1), ("C", 0)),
        table(1, ("a", 1), ("A", 0)),
        table(5, ("b", 1), ("B", 0)),
    ]
    movement = compute_movement(tables)
    assert list(movement.tables) == [1, 5, 10]
    assert movement.moves == [
        Move("a", "a", 1, 5),
        Move("b", "b", 5, 10),
        Move("B", "B", 5, 1),
        Move("C", "C", 10, 5),
    ]
    assert {n: names(p) for n, p in movement.tables.items()} == {
        1: ["A", "B"], 5: ["a", "C"], 10: ["c", "b"],
    }  # fmt: skip


def test_empty_tables_stay_present_and_receive_players():
    tables = [table(1, ("a", 1), ("b", 0)), table(2), table(3, ("c", 1), ("d", 0))]
    movement = compute_movement(tables)
    assert {n: names(p) for n, p in movement.tables.items()} == {
        1: ["b"], 2: ["a", "d"], 3: ["c"],
    }  # fmt: skip


def test_empty_top_table_takes_the_winner():
    movement = compute_movement([table(1, ("a", 1), ("b", 0)), table(2)])
    assert {n: names(p) for n, p in movement.tables.items()} == {1: ["b"], 2: ["a"]}


def test_negative_and_zero_table_numbers_are_just_ordered():
    movement = compute_movement([table(0, ("z", 1), ("y", 0)), table(-3, ("m", 1), ("n", 0))])
    assert destinations(movement) == {"z": 0, "y": -3, "m": 0, "n": -3}


def test_moves_are_simultaneous_from_standings_before_moving():
    # Table 1's winner arrives at table 2 but is not ranked there this round
    # (moving tables in turn would carry Ace on to table 3): table 2's movers
    # are decided among table 2's own players, and nobody moves twice.
    tables = [
        table(1, ("Ace", 9), ("Bee", 0)),
        table(2, ("Cat", 1), ("Dog", 0)),
        table(3, ("E", 0)),
    ]
    movement = compute_movement(tables)
    assert destinations(movement) == {"Ace": 2, "Bee": 1, "Cat": 3, "Dog": 1, "E": 3}


def test_output_order_stayers_ranked_then_from_below_then_from_above():
    tables = [
        table(1, ("a2", 1), ("a1", 2)),
        table(2, ("b4", 1), ("b3", 2), ("b2", 3), ("b1", 4)),
        table(3, ("c2", 1), ("c1", 2)),
    ]
    movement = compute_movement(tables)
    assert names(movement.tables[2]) == ["b2", "b3", "a1", "c2"]
    assert names(movement.tables[1]) == ["a2", "b4"]
    assert names(movement.tables[3]) == ["c1", "b1"]
    assert [(m.name, m.from_table, m.to_table) for m in movement.moves] == [
        ("a1", 1, 2), ("b1", 2, 3), ("b4", 2, 1), ("c2", 3, 2),
    ]  # fmt: skip


def test_keys_default_to_name_and_are_reported_in_moves():
    assert Standing("Ana", 0).key == "Ana"
    tables = [TableStanding(1, (Standing("Ana", 2, key=41), Standing("Bob", 0, key=42))), table(2)]
    assert compute_movement(tables).moves == [Move(41, "Ana", 1, 2)]


def test_players_list_is_converted_to_tuple():
    t = TableStanding(1, [Standing("Ana", 0)])  # type: ignore[arg-type]
    assert t.players == (Standing("Ana", 0),)


# ------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: Standing("Ana", -1), "non-negative"),
        (lambda: Standing("Ana", True), "non-negative integer"),
        (lambda: Standing("Ana", 1.0), "non-negative integer"),
        (lambda: Standing("Ana", "2"), "non-negative integer"),
        (lambda: Standing("Ana", None), "non-negative integer"),
        (lambda: Standing("", 1), "empty"),
        (lambda: Standing("   ", 1), "empty"),
        (lambda: Standing(None, 1), "string"),
        (lambda: Standing(7, 1), "string"),
        (lambda: Standing("Ana", 1, key=[1]), "hashable"),
        (lambda: TableStanding("1", ()), "integer"),
        (lambda: TableStanding(True, ()), "integer"),
        (lambda: TableStanding(1.0, ()), "integer"),
        (lambda: TableStanding(1, ("Ana",)), "Standing"),
        (lambda: TableStanding(1, "Ana"), "sequence"),
        (lambda: TableStanding(1, None), "sequence"),
    ],
)
def test_bad_values_are_refused_at_construction(build, message):
    with pytest.raises(MovementError, match=message):
        build()


@pytest.mark.parametrize(
    "tables, message",
    [
        ([table(1, ("a", 0)), table(1, ("b", 0))], "duplicate table number 1"),
        ([table(2), table(1), table(2)], "duplicate table number 2"),
        (
            [
                TableStanding(1, (Standing("Ana", 0, key=5),)),
                TableStanding(2, (Standing("Bob", 0, key=5),)),
            ],
            "duplicate key 5",
        ),
        (
            [TableStanding(1, (Standing("Ana", 0, key="k"), Standing("Ana", 1, key="k")))],
            "duplicate key",
        ),
        ([("1", [])], "TableStanding"),
        ([None], "TableStanding"),
        (table(1, ("a", 0)), "sequence"),
        (None, "sequence"),
        ("tables", "sequence"),
        ({1: table(1)}, "sequence"),
    ],
)
def test_bad_tables_are_refused(tables, message):
    with pytest.raises(MovementError, match=message):
        compute_movement(tables)


def test_forced_bad_values_are_still_caught():
    # Frozen dataclasses can be forced; compute_movement re-checks, not trusts.
    bad = Standing("Ana", 1)
    object.__setattr__(bad, "games_won", -4)
    with pytest.raises(MovementError, match="non-negative"):
        compute_movement([TableStanding(1, (bad,))])
    nameless = Standing("Ana", 1)
    object.__setattr__(nameless, "name", "")
    with pytest.raises(MovementError, match="empty"):
        compute_movement([TableStanding(1, (nameless,))])


def test_movement_error_is_a_value_error():
    assert issubclass(MovementError, ValueError)


def test_dataclasses_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Standing("Ana", 1).games_won = 2  # type: ignore[misc]


# ------------------------------------------------------------ property tests

NAMES = ["Ana", "ana", "Ána", "Bob", "bob", "Émile", "emile", "eve", "Zoë", "zoe", "Z", "Ole"]

player_st = st.builds(
    Standing,
    name=st.sampled_from(NAMES) | st.text(min_size=1, max_size=6).filter(str.strip),
    games_won=st.integers(min_value=0, max_value=6),
)
tables_st = st.lists(
    st.tuples(
        st.integers(min_value=-5, max_value=40),
        st.lists(player_st, max_size=8),
    ),
    max_size=7,
    unique_by=lambda t: t[0],
).map(lambda rows: [TableStanding(n, tuple(ps)) for n, ps in rows])


def _origin(tables: list[TableStanding]) -> dict[int, int]:
    """id(Standing) -> table number. Objects are distinct per seat in these tests."""
    return {id(p): t.number for t in tables for p in t.players}


def _distinct_objects(tables: list[TableStanding]) -> bool:
    ids = [id(p) for t in tables for p in t.players]
    return len(ids) == len(set(ids))


@given(tables_st)
def test_nobody_lost_or_duplicated_and_everyone_at_one_table(tables):
    assume(_distinct_objects(tables))
    movement = compute_movement(tables)
    assert sorted(movement.tables) == sorted(t.number for t in tables)
    seated = [id(p) for players in movement.tables.values() for p in players]
    assert sorted(seated) == sorted(_origin(tables))


@given(tables_st)
def test_movers_go_to_adjacent_present_table_and_moves_match_seating(tables):
    assume(_distinct_objects(tables))
    movement = compute_movement(tables)
    numbers = sorted(t.number for t in tables)
    origin = _origin(tables)
    moved = 0
    for number, players in movement.tables.items():
        for player in players:
            start = origin[id(player)]
            gap = numbers.index(number) - numbers.index(start)
            assert gap in (-1, 0, 1)
            moved += gap != 0
    assert moved == len(movement.moves)
    for move in movement.moves:
        assert abs(numbers.index(move.to_table) - numbers.index(move.from_table)) == 1
        assert any(
            p.name == move.name and p.key == move.key for p in movement.tables[move.to_table]
        )


@given(tables_st, st.randoms(use_true_random=False))
def test_invariant_to_order_of_tables(tables, random):
    shuffled = list(tables)
    random.shuffle(shuffled)
    assert compute_movement(shuffled) == compute_movement(tables)


@given(tables_st)
def test_top_moves_up_and_bottom_down_with_distinct_wins(tables):
    assume(_distinct_objects(tables))
    movement = compute_movement(tables)
    numbers = sorted(t.number for t in tables)
    new_table = {id(p): n for n, players in movement.tables.items() for p in players}
    for t in tables:
        wins = [p.games_won for p in t.players]
        if len(wins) < 2 or len(set(wins)) != len(wins):
            continue
        top = max(t.players, key=lambda p: p.games_won)
        bottom = min(t.players, key=lambda p: p.games_won)
        i = numbers.index(t.number)
        expected_top = numbers[i + 1] if i + 1 < len(numbers) else t.number
        expected_bottom = numbers[i - 1] if i > 0 else t.number
        assert new_table[id(top)] == expected_top
        assert new_table[id(bottom)] == expected_bottom


@given(tables_st)
def test_group_sizes_follow_k(tables):
    assume(_distinct_objects(tables))
    movement = compute_movement(tables)
    numbers = sorted(t.number for t in tables)
    for t in tables:
        n = len(t.players)
        k = 2 if n > 4 else 1
        ups = sum(1 for m in movement.moves if m.from_table == t.number and m.to_table > t.number)
        downs = sum(1 for m in movement.moves if m.from_table == t.number and m.to_table < t.number)
        assert ups == (0 if t.number == numbers[-1] else min(k, n))
        assert downs == (0 if t.number == numbers[0] or n <= 1 else k)


@given(st.lists(player_st, max_size=8))
def test_ranking_is_a_sorted_permutation(players):
    ranked = rank_table(players)
    assert sorted(map(id, ranked)) == sorted(map(id, players))
    keys = [(-p.games_won, name_sort_key(p.name)) for p in ranked]
    assert keys == sorted(keys)


@given(st.lists(player_st, max_size=8), st.randoms(use_true_random=False))
def test_ranking_ignores_join_order_when_names_differ(players, random):
    assume(len({name_sort_key(p.name) for p in players}) == len(players))
    shuffled = list(players)
    random.shuffle(shuffled)
    assert rank_table(shuffled) == rank_table(players)


def test_the_find_fields_letters_with_a_stroke_are_the_servers():
    """The panel's Find field (static/js/facilitator.js) folds a letter with a stroke
    as name_sort_key does: its map had seven of the server's twelve, so "Ƶofia" was
    found by "zofia" in the sorted names but not in the field."""
    import json
    import re
    from pathlib import Path

    from tournament.movement import _STROKES

    js = (Path(__file__).resolve().parents[2] / "static/js/facilitator.js").read_text()
    found = re.search(r"const STROKES = (\{[^}]*\});", js)
    table = {chr(k): v for k, v in _STROKES.items()}
    assert found and json.loads(found.group(1)) == table
    # The letters it replaces are the map's own.
    letters = re.search(r"\.replace\(/\[([^\]]+)\]/g, \(c\) => STROKES\[c\]\)", js)
    assert letters and set(letters.group(1)) == set(table)


def test_stays_by_edge_names_who_stays_only_for_want_of_a_table_that_way():
    """Rule 4: the winner at the top table and the loser at table 1 stay, and the plan
    said a bare "stays" of them as of the middle ranks. A middle table's movers, and
    the top table's loser and table 1's winner, all move: none is named."""
    tables = [
        table(1, ("a1", 3), ("b1", 2), ("c1", 1), ("d1", 0)),
        table(2, ("a2", 3), ("b2", 2), ("c2", 1), ("d2", 0)),
        table(3, ("a3", 3), ("b3", 2), ("c3", 1), ("d3", 0)),
    ]
    assert stays_by_edge(tables) == {"d1": "lowest", "a3": "top"}
    moved = {m.name for m in compute_movement(tables).moves}
    assert not moved & set(stays_by_edge(tables))
    # Five at a table: two each way, so two stay at either edge.
    five = [table(1, *((f"p{i}", 5 - i) for i in range(5))), table(2, ("q", 1), ("r", 0))]
    assert stays_by_edge(five) == {"p3": "lowest", "p4": "lowest", "q": "top"}
