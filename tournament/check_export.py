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

Exit status: 0 every game matches; 1 at least one mismatch; 2 the file cannot be
read or is not a workshop export. Needs no Django and no database (games.kinds is pure).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from types import SimpleNamespace

from games import five_tricks, jsontext, kinds
from games.errors import IllegalAction
from games.replay import ReplayError, replay_document
from tournament import gamestate  # pure: the same start state as the live app, no Django

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
    compare_outcome(game, players, kind.outcome(state), "replay", check)
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


def _label(game: dict) -> str:
    return f"round {game.get('round')}, table {game.get('table')}, game {game.get('number')}"


def _when_unawarded(game: dict) -> str:
    """When the claim step of a game's unawarded trick stopped: its cut (by the round's
    end or a player leaving; a document from before cut_by means the round's end), or
    not yet (a game still in play when the export was made)."""
    if game.get("state") == "playing":
        return "when this export was made"
    if game.get("cut_by") == "player_left":
        return "when a player left and the game was cut"
    return "when the round ended"


def check_game(game: dict) -> GameCheck:
    """Replay one exported game and compare with its stored result."""
    check = GameCheck(game.get("id"), _label(game))
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
    return [_checked(i, g) for i, g in enumerate(games)]


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


def _checked(i: int, game: object) -> GameCheck:
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
        return GameCheck(game.get("id", f"#{i}"), _label(game), problems=wrong)
    try:
        return check_game(game)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        return GameCheck(
            game.get("id", f"#{i}"),
            _label(game),
            problems=[f"the game record cannot be read ({type(exc).__name__}: {exc})"],
        )


def run(path: str, out=None, err=None) -> int:
    """Check the export at `path` ("-": standard input); write to `out`/`err`; return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        checks = check_document(jsontext.parse(text))
    except (OSError, UnicodeDecodeError) as exc:
        err.write(f"Cannot read {path}: {exc}\n")
        return EXIT_BAD_INPUT
    except jsontext.BadJSON as exc:
        err.write(f"{path} is not valid JSON: {exc}\n")
        return EXIT_BAD_INPUT
    except ExportError as exc:
        err.write(f"{exc}\n")
        return EXIT_BAD_INPUT
    for c in checks:
        out.write(c.line() + "\n")
    bad = sum(1 for c in checks if not c.ok)
    out.write(f"{len(checks)} games: {len(checks) - bad} OK, {bad} MISMATCH\n")
    return EXIT_MISMATCH if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tournament.check_export",
        description="Replay every game of a workshop export and compare with the stored results.",
    )
    parser.add_argument("file", help="the export (report.json), or - for standard input")
    args = parser.parse_args(argv)
    return run(args.file)


if __name__ == "__main__":
    from games.cli import run_main

    run_main(main)
