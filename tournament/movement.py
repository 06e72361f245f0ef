"""Movement of players between tables after a Barnga tournament round.

A pure module: no Django, no database, no clock. The tournament app's service
loads the round's standings, calls :func:`compute_movement`, shows the result to
the facilitator as a preview (RULES.md §2 rule 5) and stores whatever is applied.
It is also a command-line tool, ``python -m tournament.movement FILE`` (see
:func:`main`), whose JSON contract other tools depend on.

The rules (RULES.md §2, "Movement after each round"), computed from the standings
before anyone moves, so all moves are simultaneous:

1. Each table's players are ranked by games won, most first. Ties are broken by
   name in alphabetical order, case- and accent-insensitively (:func:`name_sort_key`:
   "émile", "Emile" and "EMILE" compare equal, and all come before "eve"). Names
   that compare equal that way ("Zoë" and "zoe", or two players both called
   "Ana") are ordered by join order, i.e. their order in ``TableStanding.players``.
2. ``k = 2`` if the table has more than four players, else ``k = 1``.
3. The first ``k`` of the ranking move up one table, the last ``k`` move down one
   table. Nobody is in both groups: the down group is the last ``k`` players who
   are not already in the up group. So a lone player only moves up; with 2-4
   players the top moves up and the bottom moves down; with 5 or more (k = 2)
   the top two move up and the bottom two move down.
4. Up-movers at the highest-numbered table stay; down-movers at the
   lowest-numbered table ("table 1") stay. With a single table everyone stays.

Table numbers. Only the numbers present in the input matter, and only their
order: "up one table" means to the next higher number present, "down one table"
to the next lower number present. Numbers may have gaps (tables 1, 2, 5: the
winner at table 2 goes to table 5) and need not start at 1 (the lowest number
present plays the part of table 1). A table with no players is still present:
it can receive players, and it can be the top or bottom table.

Order of the output (deterministic, and independent of the order of the tables
in the input): each new table lists the players who stay there in their ranked
order, then arrivals from the table below (their ranked order), then arrivals
from the table above (their ranked order). ``Movement.moves`` lists movers by
origin table number, then ranked order.

Player identity. ``Standing.key`` is an opaque id for the caller (the app passes
the player's pk); it defaults to the player's name. Explicitly given keys must be
unique. Players left without a key are told apart by position alone, so two of
them may share a name (the command line relies on this); output tables contain
the very ``Standing`` objects that were passed in.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "Move",
    "Movement",
    "MovementError",
    "Standing",
    "TableStanding",
    "compute_movement",
    "decided_by_name",
    "main",
    "movement_to_json",
    "name_sort_key",
    "rank_table",
    "tables_from_json",
]

LARGE_TABLE = 4  # a table with more players than this moves two up and two down
K_SMALL_TABLE = 1
K_LARGE_TABLE = 2

EXIT_OK = 0
EXIT_BAD_INPUT = 2
USAGE = "usage: python -m tournament.movement FILE  (FILE may be '-' for standard input)"


class MovementError(ValueError):
    """The standings given to movement are malformed; the message says how."""


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Standing:
    """One player's result for the round at their table."""

    name: str
    games_won: int
    key: object = None
    # Whether the caller gave ``key``; a defaulted key (the name) may repeat.
    key_given: bool = field(default=False, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_name(self.name, "name")
        _check_games_won(self.games_won, f"games_won of {self.name!r}")
        if self.key is None:
            object.__setattr__(self, "key", self.name)
        else:
            try:
                hash(self.key)
            except TypeError:
                raise MovementError(
                    f"key of {self.name!r} must be hashable, got {type(self.key).__name__}"
                ) from None
            object.__setattr__(self, "key_given", True)


@dataclass(frozen=True)
class TableStanding:
    """A table and its players in join order (first to sit down first)."""

    number: int
    players: tuple[Standing, ...] = ()

    def __post_init__(self) -> None:
        _check_table_number(self.number)
        if isinstance(self.players, (str, bytes, Mapping)) or not isinstance(
            self.players, Iterable
        ):
            raise MovementError(
                f"players of table {self.number} must be a sequence of Standing, "
                f"got {type(self.players).__name__}"
            )
        players = tuple(self.players)
        for player in players:
            if not isinstance(player, Standing):
                raise MovementError(
                    f"players of table {self.number} must be Standing objects, "
                    f"got {type(player).__name__}"
                )
        object.__setattr__(self, "players", players)


@dataclass(frozen=True)
class Move:
    """A player who changes table. Players who stay get no Move."""

    key: object
    name: str
    from_table: int
    to_table: int


@dataclass(frozen=True)
class Movement:
    """The seating after movement, and who moved.

    ``tables`` maps every input table number (ascending) to its new players;
    ``moves`` lists only the players who change table.
    """

    tables: dict[int, list[Standing]]
    moves: list[Move]


# --------------------------------------------------------------------- validation


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True games won is a bug, not a count.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_name(name: object, what: str) -> None:
    if not isinstance(name, str):
        raise MovementError(f"{what} must be a string, got {type(name).__name__}")
    if not name.strip():
        raise MovementError(f"{what} must not be empty")


def _check_games_won(games_won: object, what: str) -> None:
    if not _is_int(games_won):
        raise MovementError(
            f"{what} must be a non-negative integer, got {type(games_won).__name__} {games_won!r}"
        )
    if games_won < 0:
        raise MovementError(f"{what} must be a non-negative integer, got {games_won}")


def _check_table_number(number: object) -> None:
    if not _is_int(number):
        raise MovementError(
            f"table number must be an integer, got {type(number).__name__} {number!r}"
        )


def _as_list(items: object, what: str) -> list:
    if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
        raise MovementError(f"{what} must be a sequence, got {type(items).__name__}")
    return list(items)


# ------------------------------------------------------------------------ ranking


# Letters with a stroke or bar that Unicode does not decompose into a letter and a
# mark, though the default collation orders them as that letter with an accent.
_STROKES = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t",
                          "ı": "i", "ƀ": "b", "ƶ": "z", "ǥ": "g", "ɨ": "i", "ʉ": "u"})  # fmt: skip


def name_sort_key(name: str) -> str:
    """Key for case- and accent-insensitive alphabetical order of names.

    Compatibility-decomposes, drops combining marks and case-folds, so "Émile",
    "emile" and "EMILE" get the same key, and "Zoë" the same as "zoe"; a letter
    with a stroke counts as the letter ("Łukasz" as "lukasz", "Øyvind" as "oyvind").
    """
    if not isinstance(name, str):
        raise MovementError(f"name must be a string, got {type(name).__name__}")

    def strip_marks(text: str) -> str:
        decomposed = unicodedata.normalize("NFKD", text)
        return "".join(ch for ch in decomposed if not unicodedata.combining(ch))

    # Case folding can itself produce decomposable characters, hence twice.
    return strip_marks(strip_marks(name).casefold()).translate(_STROKES)


def _ranked_positions(players: Sequence[Standing]) -> list[int]:
    """Join-order indices of ``players`` in ranked order (rule 1)."""
    return sorted(
        range(len(players)),
        key=lambda i: (-players[i].games_won, name_sort_key(players[i].name), i),
    )


def decided_by_name(table: Mapping[object, tuple[int, int]]) -> set:
    """Of one table's players (key -> (games won, the table the movement sends them
    to)), those whose move or stay the name decided (rule 1's tie-break): a tablemate
    won as many games and goes elsewhere (one moves and the other stays, or they move
    opposite ways). A tie that changed nothing (two winners at the top table both
    stay) is not one."""
    return {
        key
        for key, (won, to) in table.items()
        if any(w == won and t != to for w, t in table.values())
    }


def rank_table(players: Iterable[Standing]) -> list[Standing]:
    """Rank one table's players (given in join order): most games won first,
    ties by :func:`name_sort_key`, then by join order."""
    seated = _as_list(players, "players")
    for player in seated:
        if not isinstance(player, Standing):
            raise MovementError(f"players must be Standing objects, got {type(player).__name__}")
    return [seated[i] for i in _ranked_positions(seated)]


def _movers(count: int) -> tuple[range, range]:
    """Ranked positions moving up and moving down at a table of ``count`` (rules 2-3)."""
    k = K_LARGE_TABLE if count > LARGE_TABLE else K_SMALL_TABLE
    up = range(min(k, count))
    # The down group never reaches into the up group: a lone player only goes up.
    down = range(max(k, count - k), count)
    return up, down


# ----------------------------------------------------------------------- movement


def _validated_tables(tables: object) -> list[TableStanding]:
    listed = _as_list(tables, "tables")
    numbers: set[int] = set()
    explicit_keys: dict[object, str] = {}
    for table in listed:
        if not isinstance(table, TableStanding):
            raise MovementError(f"tables must be TableStanding objects, got {type(table).__name__}")
        # Frozen dataclasses can still be forced, so check again rather than trust.
        _check_table_number(table.number)
        if table.number in numbers:
            raise MovementError(f"duplicate table number {table.number}")
        numbers.add(table.number)
        if not isinstance(table.players, tuple):
            raise MovementError(f"players of table {table.number} must be a tuple")
        for player in table.players:
            if not isinstance(player, Standing):
                raise MovementError(
                    f"players of table {table.number} must be Standing objects, "
                    f"got {type(player).__name__}"
                )
            _check_name(player.name, f"name of a player at table {table.number}")
            _check_games_won(
                player.games_won, f"games_won of {player.name!r} at table {table.number}"
            )
            if player.key_given:
                try:
                    seen = explicit_keys.get(player.key)
                except TypeError:
                    raise MovementError(
                        f"key of {player.name!r} at table {table.number} must be hashable"
                    ) from None
                if seen is not None:
                    raise MovementError(
                        f"duplicate key {player.key!r} ({seen} and {player.name!r} at table "
                        f"{table.number})"
                    )
                explicit_keys[player.key] = f"{player.name!r} at table {table.number}"
    return listed


def compute_movement(tables: Sequence[TableStanding]) -> Movement:
    """Apply the movement rules to one round's standings (see the module docstring).

    Raises :class:`MovementError` on malformed input. The result depends only on
    the standings, not on the order of ``tables``.
    """
    ordered = sorted(_validated_tables(tables), key=lambda table: table.number)
    numbers = [table.number for table in ordered]
    stayers: dict[int, list[Standing]] = {n: [] for n in numbers}
    from_below: dict[int, list[Standing]] = {n: [] for n in numbers}
    from_above: dict[int, list[Standing]] = {n: [] for n in numbers}
    moves: list[Move] = []

    for index, table in enumerate(ordered):
        here = table.number
        above = numbers[index + 1] if index + 1 < len(numbers) else None
        below = numbers[index - 1] if index > 0 else None
        ranked = rank_table(table.players)
        up, down = _movers(len(ranked))
        for position, player in enumerate(ranked):
            if position in up and above is not None:
                from_below[above].append(player)
                moves.append(Move(player.key, player.name, here, above))
            elif position in down and below is not None:
                from_above[below].append(player)
                moves.append(Move(player.key, player.name, here, below))
            else:
                stayers[here].append(player)

    seating = {n: stayers[n] + from_below[n] + from_above[n] for n in numbers}
    return Movement(tables=seating, moves=moves)


def stays_by_edge(tables: Sequence[TableStanding]) -> dict[object, str]:
    """The players whose rank would move them but who stay because no table lies that
    way (rule 4): key → "top" (an up-mover at the highest-numbered table) or "lowest"
    (a down-mover at the lowest). The plan's "Rule says" gave them a bare "stays",
    as if their games had kept them there."""
    ordered = sorted(_validated_tables(tables), key=lambda table: table.number)
    edge: dict[object, str] = {}
    for index, table in enumerate(ordered):
        ranked = rank_table(table.players)
        up, down = _movers(len(ranked))
        for position, player in enumerate(ranked):
            if position in up and index == len(ordered) - 1:
                edge[player.key] = "top"
            elif position in down and index == 0:
                edge[player.key] = "lowest"
    return edge


# --------------------------------------------------------------------------- JSON


def tables_from_json(document: object) -> list[TableStanding]:
    """Build standings from the command line's input document.

    ``{"tables": [{"number": 1, "players": [{"name": "Ana", "games_won": 2}]}]}``,
    players in join order. Unknown members are ignored. Raises
    :class:`MovementError` naming the offending place, e.g. ``tables[0].players[1]``.
    """
    if not isinstance(document, dict):
        raise MovementError(f"input must be a JSON object, got {_json_type(document)}")
    if "tables" not in document:
        raise MovementError('input is missing "tables"')
    raw_tables = document["tables"]
    if not isinstance(raw_tables, list):
        raise MovementError(f'"tables" must be an array, got {_json_type(raw_tables)}')

    tables = []
    for t, raw_table in enumerate(raw_tables):
        where = f"tables[{t}]"
        _require_members(raw_table, where, ("number", "players"))
        number = raw_table["number"]
        if not _is_int(number):
            raise MovementError(f"{where}.number must be an integer, got {_json_type(number)}")
        raw_players = raw_table["players"]
        if not isinstance(raw_players, list):
            raise MovementError(f"{where}.players must be an array, got {_json_type(raw_players)}")
        players = []
        for p, raw_player in enumerate(raw_players):
            at = f"{where}.players[{p}]"
            _require_members(raw_player, at, ("name", "games_won"))
            name, games_won = raw_player["name"], raw_player["games_won"]
            if not isinstance(name, str):
                raise MovementError(f"{at}.name must be a string, got {_json_type(name)}")
            if not name.strip():
                raise MovementError(f"{at}.name must not be empty")
            if not _is_int(games_won) or games_won < 0:
                raise MovementError(
                    f"{at}.games_won must be a non-negative integer, got "
                    f"{_json_type(games_won)} {json.dumps(games_won)}"
                )
            players.append(Standing(name=name, games_won=games_won))
        tables.append(TableStanding(number=number, players=tuple(players)))
    return tables


def movement_to_json(movement: Movement) -> dict:
    """The command line's output document (names only, no keys)."""
    return {
        "tables": [
            {"number": number, "players": [player.name for player in players]}
            for number, players in movement.tables.items()
        ],
        "moves": [
            {"name": move.name, "from": move.from_table, "to": move.to_table}
            for move in movement.moves
        ],
    }


def _require_members(raw: object, where: str, members: tuple[str, ...]) -> None:
    """Raise MovementError unless `raw`, found at `where`, is an object with every one
    of `members`, naming the first that is missing."""
    if not isinstance(raw, dict):
        raise MovementError(f"{where} must be an object, got {_json_type(raw)}")
    for member in members:
        if member not in raw:
            raise MovementError(f'{where} is missing "{member}"')


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _no_duplicate_members(pairs: list[tuple[str, object]]) -> dict:
    # json.loads would silently keep the last of two "number"s; refuse instead.
    document: dict = {}
    for member, value in pairs:
        if member in document:
            raise MovementError(f"duplicate member {json.dumps(member)} in a JSON object")
        document[member] = value
    return document


def _read_input(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise MovementError(f"cannot read {path}: {exc.strerror or exc}") from None


def _parse(raw: bytes) -> object:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MovementError(f"input is not UTF-8: {exc.reason} at byte {exc.start}") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_members)
    except json.JSONDecodeError as exc:
        raise MovementError(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise MovementError("invalid JSON: nested too deeply") from None
    except MovementError:
        raise
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise MovementError("invalid JSON: a number has more than 4,300 digits") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m tournament.movement FILE`` (``-`` for stdin).

    ``argv`` excludes the program name (default ``sys.argv[1:]``). Prints the
    movement as one JSON object on stdout and returns 0; on bad input prints one
    line on stderr, nothing on stdout, and returns 2.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return EXIT_OK
    if len(args) != 1:
        _complain(f"expected exactly one argument; {USAGE}")
        return EXIT_BAD_INPUT
    try:
        document = _parse(_read_input(args[0]))
        output = movement_to_json(compute_movement(tables_from_json(document)))
    except MovementError as exc:
        _complain(str(exc))
        return EXIT_BAD_INPUT
    sys.stdout.write(json.dumps(output) + "\n")
    return EXIT_OK


def _complain(message: str) -> None:
    # One line, whatever the message carries (names may hold newlines).
    one_line = " ".join(message.splitlines())
    sys.stderr.write(f"movement: error: {one_line}\n")


if __name__ == "__main__":
    from games.cli import run_main

    run_main(main)
