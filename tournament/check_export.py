"""Check a workshop export: every game's replay input through the replay, against what was stored.

    python -m tournament.check_export FILE      (or: python manage.py check_export FILE)

For each game of a ``barnga.workshop/1`` document (docs/export.md) the game's
``replay`` object goes through ``games.replay.replay_document`` (exactly what
``python -m games replay`` runs) and the output is compared with the stored
result: tricks won per seat, the game's winners, and per trick its leader, cards,
winner and (Barnga mode) each seat's verdict, plus whether the game was complete
and whether the hands are the seed's deal. Every game, Five Tricks too, also has
its stored action log replayed from its seed with its kind (games.kinds:
``new_state`` then ``apply``, as tournament.gamestate does live), the outcome
compared with the stored scores, winners and state; a game of another base game
(its ``kind``: 7Up7Down, All Fives, 3 Tricks) then has its ``replay`` input run by
the replay command, whose scores and winners must be the stored ones. Prints one
line per game, OK or MISMATCH with the differences, then a summary.

Given the report's ZIP (report.zip), or a directory holding its files, it checks the
JSON document inside it the same way, then every CSV table against that document (check_tables):
the header is the export's own (export.CSV_COLUMNS, listed in docs/export.md), there is
one row per record of the JSON, and the key cells are the JSON's (games.csv's scores
and winners the replay's). One line per table, then a second summary.

Exit status: 0 every game (and table) matches; 1 at least one mismatch; 2 the file
cannot be read or is not a workshop export (a ZIP: holds no single JSON document).
Needs no Django and no database (games.kinds, tournament.export's tables and
tournament.report are pure).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import posixpath
import sys
import zipfile
import zlib
from dataclasses import dataclass, field
from types import SimpleNamespace

from games import five_tricks, jsontext, kinds
from games.errors import IllegalAction
from games.replay import ReplayError, replay_document

# Pure, no Django: the same start state as the live app; the CSV tables' columns and
# the replay the revokes table is built from.
from tournament import export, gamestate, report

SCHEMA = "barnga.workshop/1"  # tournament.export.SCHEMA; kept here so this runs without Django
EXIT_MISMATCH = 1
EXIT_BAD_INPUT = 2


class ExportError(Exception):
    """The document is not a readable workshop export."""


@dataclass
class GameCheck:
    game_id: object
    label: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # The replay's {"scores", "winners" (seats)}, where the log replayed to a result:
    # games.csv is checked against it (check_tables).
    outcome: dict | None = None
    # Winners stored by an earlier version of the rules (GameKind.winners_before):
    # {"now": the replay's seats, "then": the stored seats}; None otherwise.
    earlier: dict | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        head = f"game {self.game_id} ({self.label}): {'OK' if self.ok else 'MISMATCH'}"
        parts = self.problems + [f"note: {n}" for n in self.notes]
        return head + ("" if not parts else " — " + "; ".join(parts))


def check_kind_game(game: dict, check: GameCheck) -> GameCheck:
    """A game of any base game but Five Tricks: replay its log from its seed with its
    kind, then its replay input through the replay command."""
    replayed = replay_log(game, check)
    if replayed is not None:
        kind, players = replayed
        check_replay_command(game, kind, players, check)
    return check


def replay_log(game: dict, check: GameCheck):
    """Replay the game's stored action log from its seed with its kind (as
    tournament.gamestate does live) and compare the state, scores and winners with
    the stored ones. Returns (kind, players) when the game has a result to check
    further, else None (problems are in `check`)."""
    try:
        # An export from before the other games has no kind: Five Tricks.
        kind_key = game.get("kind", "five_tricks")
        kind = kinds.get(kind_key)
        players = list(game["players"])
        payloads = [a["payload"] for a in sorted(game["actions"], key=lambda a: a["seq"])]
        seqs = sorted(a["seq"] for a in game["actions"])
        state = gamestate.initial_state(
            SimpleNamespace(
                kind=kind_key,
                table_rules=game["table_rules"],
                seat_rules=game["seat_rules"],
                mode=game["mode"],
                seed=game["seed"],
            )
        )
    except KeyError as exc:
        check.problems.append(f"the game record lacks {exc} or names an unknown game")
        return None
    except (TypeError, ValueError) as exc:
        check.problems.append(f"the game cannot be set up from its record: {exc}")
        return None
    if seqs != list(range(1, len(seqs) + 1)):
        check.problems.append(f"the log's seqs are not 1..{len(seqs)}")
    for i, payload in enumerate(payloads):
        try:
            state, _ = kind.apply(state, payload)
        except (IllegalAction, KeyError, TypeError, ValueError) as exc:
            check.problems.append(f"action {i + 1} does not replay: {exc}")
            return None
    over = kind.is_over(state)
    stored_state = game.get("state")
    if over != (stored_state == "over"):
        check.problems.append(
            f"replay says the game is {'over' if over else 'unfinished'}, "
            f"stored state is {stored_state!r}"
        )
    if stored_state == "playing":
        if game.get("scores") or game.get("winners"):
            check.problems.append("a game in progress has stored results")
        return None
    check.outcome = kind.outcome(state)
    before = kind.winners_before(kind.end_reason(state) or None, check.outcome)
    if (
        stored_state == "over"
        and before is not None
        and sorted(players[s] for s in before) == sorted(game.get("winners") or [])
    ):
        # Stored by the rules of its day (3 Tricks: level piles after two passes were a
        # draw, both credited; now nobody is). The standings and movement were built on
        # them, so they stand: the replay's result is read as the game's own, and noted.
        now = sorted(players[s] for s in check.outcome["winners"])
        check.notes.append(
            f"winners stored by an earlier rule of {kind.title} (docs/export.md): "
            f"stored {sorted(game.get('winners') or [])}, the replay now gives {now}"
        )
        check.earlier = {"now": list(check.outcome["winners"]), "then": list(before)}
        check.outcome = {**check.outcome, "winners": list(before)}
    compare_outcome(game, players, check.outcome, "replay", check)
    # How it ended (3 Tricks' three ways). A document from before ended_by has none,
    # and a game finished before it was stored (migration 0013) has null: noted.
    if stored_state == "over" and (ended := kind.end_reason(state) or None):
        if game.get("ended_by") is None:
            check.notes.append(f"how it ended was not recorded (the replay says {ended!r})")
        elif ended != game["ended_by"]:
            check.problems.append(f"ended by: replay {ended!r}, stored {game['ended_by']!r}")
    elif stored_state == "over" and game.get("ended_by") is not None:
        check.problems.append(f"ended by: replay none, stored {game['ended_by']!r}")
    return kind, players


def compare_outcome(game: dict, players: list, outcome: dict, source: str, check: GameCheck):
    """`outcome` ({"scores", "winners"} as seats), said by `source`, against the stored ones
    (a Five Tricks game exported before scores were stored has none to compare)."""
    if (
        game.get("scores") is not None or game.get("kind", "five_tricks") != "five_tricks"
    ) and list(outcome["scores"]) != game.get("scores"):
        check.problems.append(
            f"scores: {source} {list(outcome['scores'])}, stored {game.get('scores')}"
        )
    winners = sorted(players[s] for s in outcome["winners"])
    if winners != sorted(game.get("winners") or []):
        check.problems.append(
            f"winners: {source} {winners}, stored {sorted(game.get('winners') or [])}"
        )


def check_replay_command(game: dict, kind, players: list, check: GameCheck) -> None:
    """The game's ``replay`` input through the replay command, against the stored
    scores and winners (an export written before the other games had one: noted)."""
    replay = game.get("replay")
    if replay is None:
        check.notes.append("no replay input (checked through its engine only)")
        return
    try:
        out = kind.replay_outcome(replay_document(replay))
        if check.earlier is not None and list(out["winners"]) == check.earlier["now"]:
            out = {**out, "winners": check.earlier["then"]}  # noted by replay_log
    except ReplayError as exc:
        check.problems.append(f"the replay command refused the input: {exc.payload.get('error')}")
        return
    except (KeyError, TypeError, ValueError) as exc:
        check.problems.append(f"the replay command's output cannot be read: {exc!r}")
        return
    compare_outcome(game, players, out, "replay command", check)


def compare_five_tricks_result(game: dict, players: list, out: dict, check: GameCheck) -> None:
    if out["tricks_won"] != game.get("tricks_won"):
        check.problems.append(
            f"tricks won: replay {out['tricks_won']}, stored {game.get('tricks_won')}"
        )
    # Exports from before scores were stored have none; a stored game's scores are its tricks.
    if game.get("scores") and out["tricks_won"] != game["scores"]:
        check.problems.append(f"scores: replay {out['tricks_won']}, stored {game['scores']}")
    winners = sorted(players[s] for s in out["winners"])
    if winners != sorted(game.get("winners") or []):
        check.problems.append(
            f"winners: replay {winners}, stored {sorted(game.get('winners') or [])}"
        )


def _label(game: dict, rounds: dict | None = None) -> str:
    """ "Round 1, table 2, game 1": the round as the report and every screen name it
    (report.short_label), not by its stored number, which counts the study round and
    silent play too. A round the document does not list keeps its stored number."""
    try:
        r = (rounds or {}).get(game.get("round"))
        name = report.short_label(r) if r else None
    except (KeyError, TypeError):  # a garbled record: its round unhashable, a field missing
        name = None
    if name is None:
        name = f"stored round {game.get('round')}"
    return f"{name}, table {game.get('table')}, game {game.get('number')}"


def _rounds(doc: dict) -> dict:
    """The document's rounds by their stored number (those it can read)."""
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        return {}
    return {
        r["number"]: r
        for r in rounds
        if isinstance(r, dict)
        and isinstance(r.get("number"), int)
        and isinstance(r.get("kind"), str)
    }


def _when_unawarded(game: dict) -> str:
    """When the claim step of a game's unawarded trick stopped: its cut (by the round's
    end or a player leaving; a document from before cut_by means the round's end), or
    not yet (a game still in play when the export was made)."""
    if game.get("state") == "playing":
        return "when this export was made"
    if game.get("cut_by") == "player_left":
        return "when a player left and the game was cut"
    return "when the round ended"


def check_game(game: dict, rounds: dict | None = None) -> GameCheck:
    """Replay one exported game and compare with its stored result (`rounds`: the
    document's, by number, to name the game's round as the report does)."""
    check = GameCheck(game.get("id"), _label(game, rounds))
    if game.get("kind", "five_tricks") != "five_tricks":
        return check_kind_game(game, check)
    # The stored log itself, played by the engine as it was live: a log changed
    # beside an unchanged replay input was not caught by the replay alone.
    replay_log(game, check)
    try:
        players = list(game["players"])
        replay = game["replay"]
        stored_tricks = game["tricks"]
    except (KeyError, TypeError) as exc:
        check.problems.append(f"the game record lacks {exc}")
        return check
    try:
        expected_hands = [list(h) for h in five_tricks.deal(len(players), game["seed"])]
        if isinstance(replay, dict) and replay.get("hands") != expected_hands:
            check.problems.append("the hands are not the deal of the game's seed")
    except (KeyError, TypeError, ValueError):
        check.problems.append("the game's seed or seats cannot be dealt")
    try:
        out = replay_document(replay)
    except ReplayError as exc:
        check.problems.append(f"the replay refused the input: {exc.payload.get('error')}")
        return check
    if game.get("state") == "playing":
        # Exported mid-round: the tricks so far must replay; there is no result yet.
        if game.get("tricks_won") or game.get("scores") or game.get("winners"):
            check.problems.append("a game in progress has stored results")
    else:
        compare_five_tricks_result(game, players, out, check)
    if len(out["tricks"]) != len(stored_tricks):
        check.problems.append(
            f"tricks: replay completes {len(out['tricks'])}, stored {len(stored_tricks)}"
        )
    barnga = game.get("mode") != "referee"
    for i, (r, s) in enumerate(zip(out["tricks"], stored_tricks, strict=False)):
        diffs = []
        if r["leader"] != s.get("leader"):
            diffs.append(f"leader {r['leader']} vs {s.get('leader')}")
        if r["cards"] != [c for _, c in s.get("cards", [])]:
            diffs.append(f"cards {r['cards']} vs {[c for _, c in s.get('cards', [])]}")
        if r["winner"] != s.get("winner"):
            diffs.append(f"winner seat {r['winner']} vs {s.get('winner')}")
        if barnga and r["verdicts"] != s.get("verdicts"):
            diffs.append(f"verdicts {r['verdicts']} vs {s.get('verdicts')}")
        if diffs:
            check.problems.append(f"trick {i}: " + ", ".join(diffs) + " (replay vs stored)")
    stored_complete = game.get("state") == "over"
    if out["complete"] != stored_complete:
        check.problems.append(
            f"replay says the game is {'complete' if out['complete'] else 'unfinished'}, "
            f"stored state is {game.get('state')!r}"
        )
    unawarded = game.get("unawarded_trick")
    if unawarded:
        check.notes.append(
            f"trick {unawarded.get('index')} was still being claimed {_when_unawarded(game)}: it was "
            "never awarded and the replay format cannot express it, so its cards are not in plays"
        )
    return check


def check_document(doc: object) -> list[GameCheck]:
    if not isinstance(doc, dict):
        raise ExportError("The export must be a JSON object.")
    if doc.get("schema") != SCHEMA:
        raise ExportError(f"Unknown schema {doc.get('schema')!r}; this checker reads {SCHEMA!r}.")
    games = doc.get("games")
    if not isinstance(games, list):
        raise ExportError("The export has no list of games.")
    rounds = _rounds(doc)
    return [_checked(i, g, rounds) for i, g in enumerate(games)]


# The fields the checks read, by the type a workshop export gives them.
_SHAPES = {
    "players": (list, "a list"),
    "tricks": (list, "a list"),
    "tricks_won": (list, "a list"),
    "scores": (list, "a list"),
    "winners": (list, "a list"),
    "actions": (list, "a list"),
    "unawarded_trick": ((dict, type(None)), "an object or null"),
}


def _checked(i: int, game: object, rounds: dict) -> GameCheck:
    """One game's check; a record an export would never hold is a mismatch that says
    which field is wrong, never a traceback."""
    if not isinstance(game, dict):
        return GameCheck(f"#{i}", "?", problems=["not a game record"])
    wrong = [
        f"its {key} is not {what}"
        for key, (kinds_, what) in _SHAPES.items()
        if key in game and not isinstance(game[key], kinds_)
    ]
    if wrong:
        return GameCheck(game.get("id", f"#{i}"), _label(game, rounds), problems=wrong)
    try:
        return check_game(game, rounds)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        return GameCheck(
            game.get("id", f"#{i}"),
            _label(game, rounds),
            problems=[f"the game record cannot be read ({type(exc).__name__}: {exc})"],
        )


# ---------------------------------------------------------------- the CSV tables (a ZIP)


@dataclass
class TableCheck:
    kind: str
    file: str  # its name in the ZIP or the directory
    rows: int = 0
    problems: list[str] = field(default_factory=list)
    # The columns added since the table was exported (its header the start of today's).
    added_since: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        if self.ok:
            since = ""
            if self.added_since:
                were = "was" if len(self.added_since) == 1 else "were"
                since = f" (exported before {', '.join(self.added_since)} {were} added)"
            return f"{self.file}: OK, {self.rows} row{'s' * (self.rows != 1)}{since}"
        return f"{self.file}: MISMATCH — " + "; ".join(self.problems)


@dataclass
class Bundle:
    """An exported ZIP's files (or a directory's): the JSON document's text and each
    CSV table's bytes, by kind (None: not there)."""

    json_name: str
    json_text: str
    tables: dict[str, tuple[str, bytes] | None]
    problems: dict[str, str] = field(default_factory=dict)  # kind: why it cannot be read


def _is_bundle(path: str) -> bool:
    """A directory, or a ZIP file (a pipe or a device is never one: it is read as JSON)."""
    return path != "-" and (
        os.path.isdir(path) or (os.path.isfile(path) and zipfile.is_zipfile(path))
    )


def read_bundle(path: str) -> Bundle:
    """The files of the report's ZIP (report.zip), or of a directory holding them. The
    ZIP names them barnga-<code>-workshop.json and barnga-<code>-<kind>.csv; a table is
    the file named <kind>.csv or ending in -<kind>.csv, the document as the one
    .json file. Raises ExportError when there is no single document to check against."""
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if os.path.isfile(os.path.join(path, n)))

        def read(name: str) -> bytes:
            with open(os.path.join(path, name), "rb") as fh:
                return fh.read()

        where = "the directory"
        return _bundle(names, read, where)
    try:
        with zipfile.ZipFile(path) as zf:
            names = [
                i.filename
                for i in zf.infolist()
                if not i.is_dir() and not i.filename.startswith("__MACOSX/")
            ]
            return _bundle(names, zf.read, "the ZIP")
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        zlib.error,
        NotImplementedError,
        RuntimeError,
    ) as exc:
        raise ExportError(f"Cannot read the ZIP {path}: {exc}") from None


def _bundle(names: list[str], read, where: str) -> Bundle:
    base = {n: posixpath.basename(n) for n in names}
    documents = [n for n in names if base[n].lower().endswith(".json")]
    if len(documents) != 1:
        raise ExportError(
            f"{where[0].upper()}{where[1:]} holds no JSON document (the export's workshop.json)."
            if not documents
            else f"{where[0].upper()}{where[1:]} holds more than one JSON document: "
            f"{', '.join(documents)}; check each on its own."
        )
    try:
        text = read(documents[0]).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExportError(f"{documents[0]} is not UTF-8: {exc}") from None
    bundle = Bundle(documents[0], text, {})
    for kind in export.CSV_KINDS:
        found = [n for n in names if base[n] == f"{kind}.csv" or base[n].endswith(f"-{kind}.csv")]
        if len(found) > 1:
            bundle.problems[kind] = f"{where} holds more than one: {', '.join(found)}"
        bundle.tables[kind] = (found[0], read(found[0])) if len(found) == 1 else None
    return bundle


def _want(value) -> str:
    """A JSON value as the export writes it in a cell (export._cell: true/false, empty
    for null, a formula-like text behind a ')."""
    return str(export._cell(value))


def _table_rows(
    kind: str, doc: dict, outcomes: dict[int, dict]
) -> tuple[tuple[str, str], list[dict]]:
    """(what a row is, in words: one and many; per row the JSON's values of the key columns, as
    cells) for the table `kind`, in the order the export writes its rows."""
    names = {p["id"]: p["name"] for p in doc["players"]}
    games = doc["games"]
    # The report's number for each round (report.scored_number): every table's
    # scored_round (moves.csv's after_scored_round).
    scored = {r["number"]: report.scored_number(r) for r in doc["rounds"]}
    if kind == "actions":
        return ("log entry", "log entries"), [
            {
                "game_id": g["id"],
                "seq": a["seq"],
                "kind": a["kind"],
                "actor_id": a["actor"],
                "scored_round": scored.get(g["round"]),
            }
            for g in games
            for a in g["actions"]
        ]
    if kind == "tricks":
        return ("trick record", "trick records"), [
            {
                "game_id": g["id"],
                "trick_index": t["index"],
                "leader_seat": t["leader"],
                "winner_seat": t["winner"],
                "scored_round": scored.get(g["round"]),
            }
            for g in games
            for t in g["tricks"]
        ]
    if kind == "claims":
        return ("claim", "claims"), [
            {
                "game_id": g["id"],
                "trick_index": c["trick_index"],
                "player_id": c["player"],
                "claimed_seat": c["claimed_seat"],
                "is_change": c["is_change"],
                "scored_round": scored.get(g["round"]),
            }
            for g in games
            for c in g["claims"]
        ]
    if kind == "disputes":
        return ("dispute", "disputes"), [
            {
                "game_id": g["id"],
                "trick_index": d["trick_index"],
                "resolution": d["resolution"] or "open",
                "winner_seat": d["winner"],
                "scored_round": scored.get(g["round"]),
            }
            for g in games
            for d in g["disputes"]
        ]
    if kind == "gestures":
        return ("gesture", "gestures"), [
            {
                "gesture_id": x["id"],
                "player_id": x["player"],
                "kind": x["kind"],
                "scored_round": scored.get(x["round"]),
            }
            for x in doc["gestures"]
        ]
    if kind == "moves":
        return ("applied move", "applied moves"), [
            {
                "after_round": r["number"],
                "player_id": m["player"],
                "from_table": m["from"],
                "to_table": m["to"],
                "after_scored_round": scored.get(r["number"]),
            }
            for r in doc["rounds"]
            for m in r["moves"]
        ]
    if kind == "seatings":
        return ("seating", "seatings"), [
            {
                "round": r["number"],
                "player_id": s["player"],
                "table": s["table"],
                "seat": s["seat"],
                "scored_round": scored.get(r["number"]),
            }
            for r in doc["rounds"]
            for s in r["seatings"]
        ]
    if kind == "games":
        ix = report.Index(doc)
        return ("game", "games"), [
            {
                **_game_row(g, names, outcomes.get(i)),
                "scored_round": scored.get(g["round"]),
                # The report's own test of which games it counts.
                "in_report": "true" if ix.counts(g) else "false",
            }
            for i, g in enumerate(games)
        ]
    if kind == "refusals":
        return ("refusal", "refusals"), [
            {
                "game_id": x["game"],
                "player_id": x["player"],
                "seat": x["seat"],
                "reason": x["reason"],
                "scored_round": scored.get(x["round"]),
            }
            for x in doc.get("refusals") or []
        ]
    if kind == "players":
        return ("player", "players"), [
            {
                "player_id": p["id"],
                "player": p["name"],
                "home_table": p["home_table"],
                "is_bot": p["is_bot"],
            }
            for p in doc["players"]
        ]
    if kind == "revokes":
        # The rows the report's section 4 counts: each game's log replayed with each
        # seat's own sheet (report.game_breaks), as the export writes them.
        ix = report.Index(doc)
        replayed = ix.kind.key in export.TRICKS_REPLAYED
        return ("revoke or call", "revokes and calls (the logs replayed)"), [
            {
                "game_id": g["id"],
                "seq": e["seq"],
                "kind": e["kind"],
                "player_id": e["player"],
                "scored_round": scored.get(g["round"]),
            }
            for g in games
            for e in ((report.game_breaks(ix, g) or {}).get("rows", []) if replayed else [])
        ]
    raise ValueError(kind)


def _game_row(game: dict, names: dict, outcome: dict | None) -> dict:
    """games.csv's key cells: the scores and winners the replay gave, where the log
    replayed to a result (as compare_outcome reads it), else the stored ones."""
    scores = game.get("scores", [])
    winners = list(game["winners"])
    if outcome is not None:
        if game.get("scores") is not None or game.get("kind", "five_tricks") != "five_tricks":
            scores = list(outcome["scores"])
        replayed = [game["players"][s] for s in outcome["winners"]]
        if set(replayed) != set(winners):
            winners = replayed
    return {
        # Not a column: where scores and winners come from, for the message.
        "_replayed": ("scores", "winners") if outcome is not None else (),
        "game_id": game["id"],
        "state": game["state"],
        "kind": game.get("kind", "five_tricks"),
        "players_in_seat_order": " ".join(names.get(p, "") for p in game["players"]),
        "scores": export._numbers(scores),
        "winners": " ".join(names.get(p, "") for p in winners),
    }


# At most this many rows that differ are named per table; the rest are counted.
ROWS_NAMED = 3


def check_table(kind: str, file: str, data: bytes, doc: dict, outcomes: dict) -> TableCheck:
    """One CSV table against the JSON document: its header is the export's
    (export.CSV_COLUMNS, which docs/export.md lists), it has one row per record of the
    JSON, and its key cells are the JSON's (games.csv's scores and winners: the replay's).
    Rows are numbered as a spreadsheet shows them: the header is row 1."""
    check = TableCheck(kind, file)
    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    except UnicodeDecodeError as exc:
        check.problems.append(f"not UTF-8: {exc}")
        return check
    except csv.Error as exc:
        check.problems.append(f"not a CSV table: {exc}")
        return check
    if not rows:
        check.problems.append("empty: no header row")
        return check
    header, rows = rows[0], rows[1:]
    check.rows = len(rows)
    columns = list(export.CSV_COLUMNS[kind])
    since = columns[len(header) :]
    if (
        since
        and header == columns[: len(header)]
        and since == list(export.CSV_ADDED[kind][-len(since) :])
    ):
        # Made before columns were added at the table's end (docs/export.md: a table
        # only grows there; export.CSV_ADDED): its cells are checked, the columns it
        # lacks named. A header cut anywhere else is no export's.
        check.added_since = since
    elif header != columns:
        lacks = [c for c in columns if c not in header]
        unknown = [c for c in header if c not in columns]
        said = []
        if lacks:
            said.append(f"lacks {', '.join(lacks)}")
        if unknown:
            said.append(f"has {', '.join(unknown)}, which the export does not write")
        if not said:
            said.append(f"its columns are not in the export's order ({', '.join(columns)})")
        check.problems.append("row 1 (the header): " + "; ".join(said) + " (docs/export.md)")
    what, want = _table_rows(kind, doc, outcomes)
    if len(rows) != len(want):
        check.problems.append(
            f"{len(rows)} row{'s' * (len(rows) != 1)}, the JSON has {len(want)} "
            f"{what[len(want) != 1]}"
        )
    at = {c: i for i, c in enumerate(header)}
    width = len(header)
    if kind == "players":  # in the report's order, not the JSON's: matched by id
        pairs, unmatched = _players_pairs(rows, want, at)
        check.problems.extend(unmatched)
    else:
        pairs = [(n, row, w) for n, (row, w) in enumerate(zip(rows, want, strict=False), start=2)]
    differ = []
    for n, row, w in pairs:
        if len(row) != width:
            differ.append(f"row {n} has {len(row)} cells, the header {width}")
            continue
        replayed = w.get("_replayed", ())
        diffs = [
            f"{c} is {row[at[c]]!r}, the {'replay' if c in replayed else 'JSON'}'s is {_want(v)!r}"
            for c, v in w.items()
            if c in at and row[at[c]] != _want(v)
        ]
        if diffs:
            differ.append(f"row {n}: " + ", ".join(diffs))
    check.problems.extend(differ[:ROWS_NAMED])
    if len(differ) > ROWS_NAMED:
        check.problems.append(f"{len(differ) - ROWS_NAMED} more rows differ")
    # A row dropped or added shifts every row after it: the first one named is where.
    if differ and len(rows) != len(want) and kind != "players":
        check.problems.append("a row is missing or extra at or before the first that differs")
    return check


def _players_pairs(rows: list, want: list[dict], at: dict) -> tuple[list, list[str]]:
    """players.csv's rows with the JSON's players, by player_id."""
    if "player_id" not in at:
        return [], []
    by_id: dict[str, tuple[int, list]] = {}
    unmatched = []
    for n, row in enumerate(rows, start=2):
        pid = row[at["player_id"]] if at["player_id"] < len(row) else ""
        if pid in by_id:
            unmatched.append(f"row {n}: player_id {pid} again (row {by_id[pid][0]})")
        by_id.setdefault(pid, (n, row))
    pairs = []
    for w in want:
        found = by_id.pop(_want(w["player_id"]), None)
        if found is None:
            unmatched.append(f"no row for player_id {w['player_id']} ({_want(w['player'])})")
        else:
            pairs.append((*found, w))
    for pid, (n, _) in sorted(by_id.items(), key=lambda kv: kv[1][0]):
        unmatched.append(f"row {n}: player_id {pid!r} is no player of the JSON")
    return pairs, unmatched


def check_tables(bundle: Bundle, doc: dict, checks: list[GameCheck]) -> list[TableCheck]:
    """Every CSV table of the bundle against its JSON document, in CSV_KINDS' order."""
    outcomes = {i: c.outcome for i, c in enumerate(checks) if c.outcome is not None}
    out = []
    for kind in export.CSV_KINDS:
        found = bundle.tables.get(kind)
        if kind in bundle.problems or found is None:
            why = bundle.problems.get(kind) or (
                f"not there: no file named {kind}.csv or …-{kind}.csv"
            )
            out.append(TableCheck(kind, f"{kind}.csv", problems=[why]))
            continue
        file, data = found
        try:
            out.append(check_table(kind, file, data, doc, outcomes))
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
            # A JSON record the export would never write: the games' lines name it.
            out.append(
                TableCheck(
                    kind,
                    file,
                    problems=[
                        f"the JSON's records for it cannot be read ({type(exc).__name__}: {exc})"
                    ],
                )
            )
    return out


def run(path: str, out=None, err=None) -> int:
    """Check the export at `path` (a JSON document, "-" for standard input, or the
    report's ZIP or a directory of its files); write to `out`/`err`; return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    bundle = None
    try:
        if _is_bundle(path):
            # The report's ZIP (or its files in a directory): the JSON inside it, then
            # every CSV table against that JSON.
            bundle = read_bundle(path)
            text = bundle.json_text
        elif path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        doc = jsontext.parse(text)
        checks = check_document(doc)
    except (OSError, UnicodeDecodeError) as exc:
        err.write(f"Cannot read {path}: {exc}\n")
        return EXIT_BAD_INPUT
    except jsontext.BadJSON as exc:
        err.write(f"{bundle.json_name if bundle else path} is not valid JSON: {exc}\n")
        return EXIT_BAD_INPUT
    except ExportError as exc:
        err.write(f"{exc}\n")
        return EXIT_BAD_INPUT
    for c in checks:
        out.write(c.line() + "\n")
    bad = sum(1 for c in checks if not c.ok)
    out.write(f"{len(checks)} games: {len(checks) - bad} OK, {bad} MISMATCH\n")
    if bundle is not None:
        tables = check_tables(bundle, doc, checks)
        for t in tables:
            out.write(t.line() + "\n")
        bad_tables = sum(1 for t in tables if not t.ok)
        out.write(
            f"{len(tables)} CSV tables: {len(tables) - bad_tables} OK, {bad_tables} MISMATCH\n"
        )
        bad += bad_tables
    return EXIT_MISMATCH if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tournament.check_export",
        description="Replay every game of a workshop export and compare with the stored results.",
    )
    parser.add_argument(
        "file",
        help="the export (report.json), - for standard input, or the report's ZIP "
        "(or a directory of its files: its CSV tables are checked too)",
    )
    args = parser.parse_args(argv)
    return run(args.file)


if __name__ == "__main__":
    from games.cli import run_main

    run_main(main)
