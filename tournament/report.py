"""The debrief report's figures: plain functions of a workshop export document.

Input is the ``barnga.workshop/1`` document that `tournament.export.workshop_document`
loads from the stored rows (or that a facilitator kept as report.json), so the
report is built from the stored log alone and can be rebuilt weeks later from the
file. No Django, no database, no clock: tests feed documents and check numbers.

Words used throughout (docs/export.md repeats them):

- a **clash** is a completed trick whose seats' own sheets name different winners;
- a **dispute** is a claim step in which everyone had claimed and the claims
  disagreed; it ends when the claims become unanimous (someone changed their
  claim: *changed*), when the time limit passes (*timeout*), or when the round
  ends first (*cut*);
- at a table, **locals** are the players whose home table it is, **newcomers**
  everyone else; a dispute's winner *prevailed* for the locals' sheet if a local
  seat's sheet names that winner, for a newcomer's sheet likewise (*shared* when
  both do, *no sheet* when none does);
- **majority / minority**: the winner was named by more / fewer seats' sheets than
  any other seat was (*tie* when as many);
- in a dispute a player **adapted** if their final claim differs from the claim
  they held when the dispute opened, and **held** otherwise.

Only Five Tricks has claims, so only it has disputes. For any other base game (the
workshop's ``game``, each game's ``kind``: games.kinds) the report has the reveal
(the kind's knobs and study sheet), movement, results (games won and each game's
per-seat ``scores``), gestures and players; All Fives and 7Up7Down also the tricks
the players' own sheets judged differently (clashes, from each game's log replayed:
`revokes`), All Fives its revokes and calls, and any other game says that it has
no claims.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from datetime import datetime
from functools import cached_property
from itertools import combinations, groupby

from games import kinds
from games.cards import SUIT_NAMES
from games.replay import ReplayError, replay_document
from games.sheets import sheet_text
from games.tricks import KNOBS, TrickRules, trick_winner
from tournament import limits, timing
from tournament.movement import (
    MovementError,
    Standing,
    TableStanding,
    compute_movement,
    decided_by_name,
    name_sort_key,
)
from tournament.names import full_stop, said_as_list

FIVE_TRICKS = "five_tricks"

KNOB_TITLES = {
    "ace": "Ace",
    "wins": "Which card wins",
    "trump": "Trump suit",
    "trump_when": "When trumping is allowed",
}
REVEAL_SECTIONS = ("Following suit", "Winning a trick", "Trumps")
# The study round is practice with the rules in hand and talking allowed: the
# figures cover silent home play and the scored rounds (the exports hold everything).
REPORT_KINDS = ("home", "scored")
MOVEMENT_KINDS = REPORT_KINDS

DISPUTE_OUTCOMES = {
    "changed": "Settled when someone changed their claim",
    "timeout": "Time ran out: the most-claimed player won",
    "cut": "Cut short by the end of the round",
    "left": "Cut short when a player left the table",
    "open": "Still open",
}
# The endings that awarded no trick (cut short, or still open): in no count of tricks
# or clashes.
UNAWARDED = ("cut", "left", "open")
# Each ending as a person says it of 0, 1 and many disputes ("{n}" the count): the
# list under the chart and its alt text read "Time ran out: the most-claimed player
# won: 0" with the label and the count side by side.
DISPUTE_ENDINGS_SAID = {
    "changed": (
        "None was settled by a changed claim",
        "1 was settled when someone changed their claim",
        "{n} were settled when someone changed their claim",
    ),
    "timeout": (
        "None ran out of time",
        "1 ran out of time, and the most-claimed player won",
        "{n} ran out of time, and in each the most-claimed player won",
    ),
    "cut": (
        "None was cut short by the end of the round",
        "1 was cut short by the end of the round",
        "{n} were cut short by the end of the round",
    ),
    "left": (
        "None was cut short by a player leaving",
        "1 was cut short when a player left the table",
        "{n} were cut short when a player left the table",
    ),
    "open": ("None is still open", "1 is still open", "{n} are still open"),
}


def dispute_ending_said(key: str, n: int) -> str:
    """How many disputes ended as `key`, in words: "None ran out of time", "1 was
    cut short by the end of the round", "3 were settled when someone changed their claim"."""
    zero, one, many = DISPUTE_ENDINGS_SAID[key]
    return zero if not n else one if n == 1 else many.format(n=n)


TRICK_OUTCOMES = {
    "agreed": "Everyone agreed at once",
    "changed": "Agreed after a changed claim",
    "timeout": "Time ran out",
    "rules": "Decided by the table's sheet (referee)",
    "cut": "A dispute cut short by the end of the round (no trick awarded)",
    "left": "A dispute cut short when a player left (no trick awarded)",
    "open": "A dispute still open",
    # A claim step that never became a dispute (not everyone had claimed) also
    # awarded no trick when its game was cut, or is still under way.
    "claims_cut": "Claims cut short by the end of the round (no trick awarded)",
    "claims_left": "Claims cut short when a player left (no trick awarded)",
    "claims_open": "Claims still being made",
}
ORIGINS = {
    "local": "the locals' sheet",
    "newcomer": "a newcomer's sheet",
    "shared": "a sheet locals and newcomers shared",
    "none": "no player's sheet",
}
SUPPORT = {
    "majority": "the majority's sheet",
    "minority": "a minority's sheet",
    "tie": "one of two verdicts named by equally many sheets",
    "none": "no player's sheet",
}


# ---------------------------------------------------------------- small helpers


def parse_time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def knob_value(rules: dict, knob: str):
    """The knob as it plays: `trump_when` means nothing on a no-trump sheet."""
    r = TrickRules.from_dict(rules)
    if knob == "trump_when" and r.trump is None:
        return None
    return getattr(r, knob)


def knob_label(knob: str, value) -> str:
    if knob == "ace":
        return "Ace high (above the 7)" if value == "high" else "Ace low (below the 2)"
    if knob == "wins":
        return "Highest card wins" if value == "highest" else "Lowest card wins"
    if knob == "trump":
        return "No trump" if value is None else SUIT_NAMES[value].capitalize()
    if knob == "trump_when":
        if value is None:
            return "—"
        return "Only when out of the led suit" if value == "void" else "At any time"
    return str(value)


def _seconds(value: float | None) -> float | int | None:
    """To a tenth of a second; a whole number without its ".0" ("45 s", not "45.0 s")."""
    if value is None:
        return None
    tenths = round(value, 1)
    return int(tenths) if tenths == int(tenths) else tenths


def clock(seconds: float | None) -> str:
    """12.3 → "0:12"; None → "—"."""
    if seconds is None:
        return "—"
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def _into_round(seconds: float) -> str:
    """When in a round something came: "0:20 into the round"; under half a second (a
    bot's claim, a dispute at the first trick), "at the round's very start", not "0:00
    into the round"."""
    said = clock(seconds)
    return "at the round's very start" if said == "0:00" else f"{said} into the round"


def _lasted(seconds: float | int) -> str:
    """How long something lasted, to a tenth of a second (as _seconds rounds it): "12.5
    s"; under a twentieth, "under a tenth of a second", not "0 s"."""
    return f"{seconds} s" if seconds else "under a tenth of a second"


def _names_text(names: list[str]) -> str:
    return said_as_list(names) if names else "nobody"


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _none_or_plural(n: int, one: str, many: str | None = None) -> str:
    """ "no dispute", "1 dispute", "3 disputes": a count of none said in words."""
    return f"no {one}" if not n else _plural(n, one, many)


def _were(n: int) -> str:
    return "was" if n == 1 else "were"


def cut_by_leaving(game: dict) -> bool:
    """A game cut short when a player left (leave policy "skip"), not by its round's
    end; an export from before `cut_by` was recorded has none of these."""
    return game.get("state") == "cut" and game.get("cut_by") == "player_left"


def _cut_words(by_end: int, by_leaving: int) -> str:
    """The end of "3 games at 2 tables…": how many were cut short, and by what."""
    if by_leaving and by_end:
        return f", {by_end} cut short by the end of the round and {by_leaving} when a player left."
    if by_leaving:
        return f", {by_leaving} cut short when a player left."
    return f", {by_end} cut short by the end of the round." if by_end else "."


def bot_in_seat(name: str) -> str:
    """What played a seat after its player left (a bot, the workshop's leave setting)."""
    return f"the bot in {name}'s seat"


def then_bot(name: str, *, back: bool = False) -> str:
    """A round, or a move after it, that the player began and a bot in their seat ended
    (or, for a player who came back with their PIN, played some of)."""
    # In brackets, not after a comma: it stands in lists of names ("Ines, Mateo (…)").
    return f"{name} (a bot while they were away)" if back else f"{name} (a bot after they left)"


def gone_since(ix: Index, pid):
    """When the player left, if they are gone now. A player who came back (rejoined
    with their PIN) is not: what their seat did from then on is theirs (a review
    found a returned student's own games given to "the bot"); their time away is in
    `absences`."""
    player = ix.players.get(pid, {})
    return parse_time(player.get("left_at")) if player.get("has_left") else None


def seat_kept(ix: Index, pid) -> bool:
    """The player is gone now and a bot plays on in their seat (leave policy "a bot
    plays the seat"): the export's `players[].table` says it is still at a table. A
    document without it (older) reads as the seat gone."""
    player = ix.players.get(pid, {})
    return bool(player.get("has_left")) and player.get("table") is not None


def bot_played_after(ix: Index, pid) -> bool:
    """Whether a bot played the seat of a player gone now after they left: a game of
    the report's begun after, or a move in one they had begun (an action is the
    seat's player's, a bot's in it included)."""
    since = gone_since(ix, pid)
    return since is not None and bot_played_between(ix, pid, since)


def bot_played_between(ix: Index, pid, since, until=None) -> bool:
    """Whether a bot played the player's seat from `since` (they left) until `until`
    (they came back with their PIN; None: they are gone still): a game of the
    report's begun then, or a move in one they had begun (an action is the seat's
    player's, a bot's in it included)."""

    def within(at) -> bool:
        return at is not None and at >= since and (until is None or at < until)

    for g in ix.games:
        if pid not in g["players"]:
            continue
        if within(parse_time(g.get("started_at"))):
            return True
        if any(
            a["actor"] == pid and within(parse_time(a["created_at"]))
            for a in g.get("actions") or ()
        ):
            return True
    return False


def away_spans(ix: Index, pid) -> list[tuple]:
    """(left, back) for each time the player left, oldest first; `back` is None for
    the time away they are in now (`Index.away`, read once per document)."""
    return ix.away.get(pid, [])


def _span_at(ix: Index, pid, at) -> tuple | None:
    """The time away, (left, back), the player was in at `at` (a time or its text),
    if any: having left, and not yet back with their PIN."""
    when = parse_time(at) if isinstance(at, str) or at is None else at
    if when is None:
        return None
    return next(
        (
            (left, back)
            for left, back in away_spans(ix, pid)
            if left <= when and (back is None or when < back)
        ),
        None,
    )


def back_after(ix: Index, pid, at) -> bool:
    """Whether the time away the player was in at `at` (a time or its text) ended, they
    coming back with their PIN: a bot then played "while they were away", not "after
    they left". Not whether they are back now (a review found a student who came back
    twice in Round 1 and left for good in Round 3 read "after they left" in Round 1)."""
    span = _span_at(ix, pid, at)
    return span is not None and span[1] is not None


def left_by(ix: Index, pid, at) -> bool:
    """Whether the player was away at `at` (a time or its text): having left, and not
    yet back with their PIN. What their seat did then was a bot's, not theirs."""
    return _span_at(ix, pid, at) is not None


def seat_name(ix: Index, pid, at) -> str:
    """A player's name in a game or dispute that began at `at`: "the bot in X's seat"
    once they had left (a review found a student who left "playing, winning and
    moving" under their own name)."""
    return bot_in_seat(ix.name(pid)) if left_by(ix, pid, at) else ix.name(pid)


def kind_of(doc: dict) -> kinds.GameKind:
    """The workshop's base game (exports from before the choice are Five Tricks)."""
    return kinds.get((doc.get("workshop") or {}).get("game") or FIVE_TRICKS)


def game_scores(game: dict, claims: bool, kind: kinds.GameKind | None = None) -> list:
    """A game's per-seat score: Five Tricks' tricks won, any other game's stored scores.

    A game still in progress (a report read mid-round) has stored none yet: Five
    Tricks' tricks so far are counted, another game (given its `kind`) is replayed
    from its record to its score so far (as a round's end would count it), not shown
    as nought each."""
    if not claims:
        if game.get("scores") or game.get("state") != "playing" or kind is None:
            return list(game.get("scores") or [])
        return _scores_so_far(game, kind)
    if game["tricks_won"] or game.get("state") != "playing":
        return list(game["tricks_won"])
    won = [0] * len(game["players"])
    for t in game.get("tricks", []):
        if isinstance(t.get("winner"), int) and 0 <= t["winner"] < len(won):
            won[t["winner"]] += 1
    return won


def _scores_so_far(game: dict, kind: kinds.GameKind) -> list:
    """The score so far of a game in progress other than Five Tricks, from its
    ``replay`` input ([] for an export without one, or a log that does not play:
    tournament.check_export names that game)."""
    if not game.get("replay"):
        return []
    try:
        return list(kind.replay_outcome(replay_document(game["replay"]))["scores"])
    except (ReplayError, KeyError, TypeError, ValueError):
        return []


class Index:
    """Look-ups over one document."""

    def __init__(self, doc: dict):
        self.doc = doc
        self.kind = kind_of(doc)
        self.claims = self.kind.records_tricks
        # The table's sheet decided every trick: nobody claimed, no disputes. Only in a
        # game whose players play by their own sheets: in the others (7Up7Down, 3
        # Tricks) the table's sheet decides in either mode, and the setup form lets a
        # facilitator pick referee mode for them all the same. A review found 7Up7Down
        # reported in All Fives' referee words ("it refuses a card it forbids").
        self.referee = (
            self.kind.per_seat_rules and (doc.get("workshop") or {}).get("mode") == "referee"
        )
        self.players = {p["id"]: p for p in doc["players"]}
        self.rounds = {r["number"]: r for r in doc["rounds"]}
        self.tables = [t["number"] for t in sorted(doc["tables"], key=lambda t: t["number"])]
        self.table_rules = {
            t["number"]: self.kind.rules_from_dict(t["rules"]) for t in doc["tables"]
        }
        self.round_kinds = {r["number"]: r["kind"] for r in doc["rounds"]}
        self.games = [g for g in doc["games"] if self.counts(g)]
        self.gestures = [
            x
            for x in doc["gestures"]
            if x["round"] is None or self.round_kinds.get(x["round"]) in REPORT_KINDS
        ]
        # game_breaks of each game replayed so far (by the game record's identity): the
        # report's section 4, players.csv and revokes.csv read the same replay.
        self.breaks: dict[int, dict | None] = {}

    @cached_property
    def away(self) -> dict[int, list[tuple]]:
        """{player: [(left, back)]}, each time they left, oldest first: those they came
        back from with their PIN (`absences`), then the one they are in now (`back`
        None; `gone_since`). Exports from before `absences` was kept know only the last
        leaving of a player still gone."""
        out = {}
        for pid, player in self.players.items():
            spans = [
                (parse_time(a.get("left")), parse_time(a.get("back")))
                for a in player.get("absences") or []
            ]
            spans = [(left, back) for left, back in spans if left is not None and back is not None]
            left = gone_since(self, pid)
            if left is not None:
                spans.append((left, None))
            if spans:
                out[pid] = spans
        return out

    @cached_property
    def ties(self) -> dict[int, set]:
        """`name_ties` of the document: the results, the moves and the guide mark them."""
        return name_ties(self.doc)

    @cached_property
    def tally(self) -> dict[tuple[int, int], list[int]]:
        """`games_by_round`: the journeys and the movers' figures count from it."""
        return games_by_round(self)

    def counts(self, game: dict) -> bool:
        """Whether the report's figures (the results' games per table, and every
        section after them) count `game`: one of silent home play or a scored round,
        not the study round's. A game the round's end (or a leave) cut before anyone
        acted (a round skipped at once, as the demo's home round is) was dealt, not
        played: no results, no count. games.csv's `in_report` is this."""
        return self.round_kinds.get(game["round"]) in REPORT_KINDS and bool(
            game.get("actions", True) or game.get("state") != "cut"
        )

    def name(self, pid) -> str:
        p = self.players.get(pid)
        return p["name"] if p else "?"

    def label(self, round_number) -> str:
        r = self.rounds.get(round_number)
        return short_label(r) if r else "—"

    def home(self, pid):
        p = self.players.get(pid)
        return p["home_table"] if p else None

    def sheet_key(self, rules: dict) -> str:
        """Which table's sheet this is ("T3"), or a description of a sheet no table has."""
        r = self.kind.rules_from_dict(rules)
        for n in self.tables:
            if self.table_rules[n] == r:
                return f"T{n}"
        return "other"


# ---------------------------------------------------------------- 1. the reveal


def _differs(knob: str, a: dict, b: dict) -> bool:
    # When only one of two sheets has trumps, the trump row already shows it; "when
    # trumping is allowed" differs only between two sheets that both have trumps.
    if knob == "trump_when" and (a[knob] is None or b[knob] is None):
        return False
    return a[knob] != b[knob]


# A knob's value is starred (its "differs_from") where it differs from the table
# before it, numbered one below: along a rule's row, where that rule changes. Marked
# against both neighbours, one change starred two cells, and 16 of 20 cells carried
# the star (a teaching review): it no longer told anything. The pairs' list below
# the table names each pair's changes.


def reveal(doc: dict) -> dict:
    kind = kind_of(doc)
    if not kind.records_tricks:
        return kind_reveal(doc, kind)
    tables = sorted(doc["tables"], key=lambda t: t["number"])
    values = [{k: knob_value(t["rules"], k) for k in KNOBS} for t in tables]
    rows = []
    for knob in KNOBS:
        cells = []
        for i, t in enumerate(tables):
            changed = i > 0 and _differs(knob, values[i - 1], values[i])
            before = tables[i - 1]["number"] if changed else None
            cells.append(
                {
                    "table": t["number"],
                    "value": values[i][knob],
                    "label": knob_label(knob, values[i][knob]),
                    "differs": before is not None,
                    "differs_from": before,
                }
            )
        rows.append({"knob": knob, "title": KNOB_TITLES[knob], "cells": cells})
    pairs = []
    for i in range(len(tables) - 1):
        diff = [k for k in KNOBS if _differs(k, values[i], values[i + 1])]
        pairs.append(
            {
                "a": tables[i]["number"],
                "b": tables[i + 1]["number"],
                "knobs": diff,
                "titles": [KNOB_TITLES[k] for k in diff],
            }
        )
    sheets = []
    for t in tables:
        text = sheet_text(TrickRules.from_dict(t["rules"]))
        sheets.append(
            {
                "table": t["number"],
                "preset_title": t.get("preset_title") or "",
                "sections": [s for s in text["sections"] if s["heading"] in REVEAL_SECTIONS],
            }
        )
    return _reveal(tables, rows, pairs, sheets, TrickRules.from_dict)


def _reveal(tables: list[dict], rows: list, pairs: list, sheets: list, rules_of, **extra) -> dict:
    """The reveal of either kind of game from its rows, pairs and sheets."""
    sheet_of = _sheet_numbers(tables, rules_of)
    numbers = [t["number"] for t in tables]
    return {
        "rows": rows,
        "blocks": _knob_blocks(rows, numbers),
        "pairs": pairs,
        "pairs_summary": pairs_summary(pairs, order=[row["knob"] for row in rows]),
        "sheets": sheets,
        "sheet_groups": _sheet_groups(sheets, sheet_of),
        "distinct_sheets": len(set(sheet_of.values())),
        "tables": numbers,
        "sheet_of": sheet_of,
        **extra,
    }


def _sheet_groups(sheets: list[dict], sheet_of: dict[int, int]) -> list[dict]:
    """Each different sheet once, with the tables that played it ("Tables 1, 18 and 35"):
    forty tables repeat seventeen sheets, and forty cards were ten printed pages."""
    groups: dict[int, dict] = {}
    for s in sheets:
        group = groups.setdefault(sheet_of[s["table"]], {**s, "tables": [], "titles": []})
        group["tables"].append(s["table"])
        if s["preset_title"] and s["preset_title"] not in group["titles"]:
            group["titles"].append(s["preset_title"])
    for group in groups.values():
        numbers = [str(n) for n in group["tables"]]
        group["heading"] = f"Table{'s' if len(numbers) > 1 else ''} {_names_text(numbers)}"
    return list(groups.values())


# The knob table's tables side by side: more than this many go on in another table
# below (forty columns were cut off at the twelfth in print, and scroll far on screen).
KNOB_COLUMNS = 10


def _knob_blocks(rows: list[dict], tables: list[int]) -> list[dict]:
    """The reveal's rows, KNOB_COLUMNS tables at a time."""
    return [
        {
            "tables": tables[i : i + KNOB_COLUMNS],
            "rows": [{**row, "cells": row["cells"][i : i + KNOB_COLUMNS]} for row in rows],
        }
        for i in range(0, len(tables), KNOB_COLUMNS)
    ]


def _sheet_numbers(tables: list[dict], rules_of) -> dict[int, int]:
    """{table number: which of the different sheets it played}: equal rules, equal number."""
    seen: dict = {}
    return {t["number"]: seen.setdefault(rules_of(t["rules"]), len(seen)) for t in tables}


def kind_reveal(doc: dict, kind: kinds.GameKind) -> dict:
    """The reveal for any other game: its knobs per table and each table's whole sheet."""
    tables = sorted(doc["tables"], key=lambda t: t["number"])
    values = [kind.rules_from_dict(t["rules"]).to_dict() for t in tables]
    knobs = list(
        dict.fromkeys([*kind.rules_from_dict({}).to_dict(), *(k for v in values for k in v)])
    )
    titles = {k: kind.knob_title(k) for k in knobs}

    def applies(knob, i):
        return kind.knob_applies(knob, values[i])

    def differ(knob, i, j):
        # A knob that means nothing on either sheet is no difference of its own: the
        # knob that turns it off already shows it.
        return applies(knob, i) and applies(knob, j) and values[i].get(knob) != values[j].get(knob)

    rows = []
    for knob in knobs:
        cells = []
        for i, t in enumerate(tables):
            before = tables[i - 1]["number"] if i > 0 and differ(knob, i - 1, i) else None
            value = values[i].get(knob) if applies(knob, i) else None
            cells.append(
                {
                    "table": t["number"],
                    "value": value,
                    "label": kind.knob_label(knob, value) if applies(knob, i) else "—",
                    "differs": before is not None,
                    "differs_from": before,
                }
            )
        rows.append({"knob": knob, "title": titles[knob], "cells": cells})
    pairs = []
    for i in range(len(tables) - 1):
        diff = [k for k in knobs if differ(k, i, i + 1)]
        pairs.append(
            {
                "a": tables[i]["number"],
                "b": tables[i + 1]["number"],
                "knobs": diff,
                "titles": [titles[k] for k in diff],
            }
        )
    sheets = [
        {
            "table": t["number"],
            # "Lowest wins", not "Lowest wins (hook, 15 a trick, …, lowest wins)": the
            # summary beside it lists every knob (a custom sheet keeps its title).
            "preset_title": kind.preset_names.get(t.get("preset") or "")
            or t.get("preset_title")
            or "",
            "summary": kind.summary(t["rules"]),
            "sections": kind.sheet(
                t["rules"], mode=(doc.get("workshop") or {}).get("mode") or "barnga"
            )["sections"],
        }
        for t in tables
    ]
    return _reveal(tables, rows, pairs, sheets, kind.rules_from_dict, full_sheets=True)


# ---------------------------------------------------------------- 2. movement


def scored_number(r: dict) -> int | None:
    """The number the report gives a round ("Round 2"): a scored round's own count;
    None for the study round and silent home play, which the report names in words.
    The CSV tables' `scored_round` is this."""
    if r["kind"] == "scored" and r.get("scored_number"):
        return r["scored_number"]
    return None


def short_label(r: dict) -> str:
    """What the report calls a round ("Round 1", "Study", "At home"): column headings
    short enough for a chart axis and a phone, and check_export's lines."""
    if (n := scored_number(r)) is not None:
        return f"Round {n}"
    return {"home": "At home", "study": "Study"}.get(r["kind"], r["label"])


# The movement grid's place, after those seated at a round's start, of a student who
# joined during it.
JOINED_DURING = 10**6


def movement(doc: dict, ix: Index) -> dict:
    """Where everyone sat at the start of each (home and scored) round, and how they moved."""
    columns = [r for r in doc["rounds"] if r["kind"] in MOVEMENT_KINDS and r["seatings"]]
    cols = []
    for r in columns:
        # Seated at the round's start; a student who joined during it, at the table the
        # round's standings list them at (after those seated at the start).
        where = {s["id"]: (s["table"], JOINED_DURING) for s in r.get("standings", [])}
        where.update({s["player"]: (s["table"], s["seat"]) for s in r["seatings"]})
        cols.append({"round": r["number"], "label": short_label(r), "where": where})
    # After the last round's movement there is no seating row: rebuild it from the moves.
    if columns and columns[-1]["moves"]:
        last = columns[-1]
        # Seated as the last round began, less anyone who has left since (during it,
        # the seat skipped, or after it: their move lapsed): nobody sits there now.
        # A seat a bot plays on after its player left stays (the projector counts it).
        where = {
            pid: (t, 0)
            for pid, (t, _) in cols[-1]["where"].items()
            if not ix.players.get(pid, {}).get("has_left") or seat_kept(ix, pid)
        }
        for m in last["moves"]:
            where[m["player"]] = (m["to"], 1)
        # "After Round 2": the round as every other place names it (its own column's too).
        cols.append({"round": None, "label": f"After {short_label(last)}", "where": where})

    started = {r["number"]: parse_time(r.get("started_at")) for r in doc["rounds"]}

    def bot_sat(pid: int, c: dict) -> bool:
        """A bot sat in the player's seat in this column: they had left before its round
        began, or (the seating after the last round) left at all."""
        if c["round"] is None:
            return bool(ix.players.get(pid, {}).get("has_left"))
        return left_by(ix, pid, started.get(c["round"]))

    order = [p["id"] for p in sorted(doc["players"], key=lambda p: p["join_order"])]
    seated = [pid for pid in order if any(pid in c["where"] for c in cols)]
    paths = {pid: [c["where"].get(pid, (None, None))[0] for c in cols] for pid in seated}

    grid = []
    for n in ix.tables:
        cells = []
        for ci, c in enumerate(cols):
            here = sorted(
                (pid for pid, (t, _) in c["where"].items() if t == n),
                key=lambda pid: (c["where"][pid][1], name_sort_key(ix.name(pid))),
            )
            chips = []
            for pid in here:
                before = paths[pid][ci - 1] if ci > 0 else None
                arrow = "" if before is None or before == n else ("up" if n > before else "down")
                bot_seat = bot_sat(pid, c)
                chips.append(
                    {
                        "id": pid,
                        "name": bot_in_seat(ix.name(pid)) if bot_seat else ix.name(pid),
                        "bot_seat": bot_seat,
                        "home": ix.home(pid),
                        "local": ix.home(pid) == n,
                        "arrow": arrow,
                        "from": before if arrow else None,
                        "bot": ix.players[pid]["is_bot"],
                        # Not there at the round's start (its seatings, the export's,
                        # have them from the next round): marked, not passed off as such.
                        "joined": c["where"][pid][1] == JOINED_DURING,
                    }
                )
            cells.append(chips)
        grid.append({"table": n, "cells": cells})

    # A move took a person to other rules if they then sat down to a round themself:
    # not after the last round, nor into a round begun after they left (a bot played
    # their seat, or nobody did).
    seated_rounds = sorted(c["round"] for c in cols if c["round"] is not None)

    def present(pid: int, rn: int) -> bool:
        return not left_by(ix, pid, started.get(rn))

    def next_round(rn: int) -> int | None:
        return next((n for n in seated_rounds if n > rn), None)

    # (player, round) where a bot played some of the player's games: they were away
    # when the game began (the results name those rows "(a bot while they were away)").
    bot_played = {
        (pid, g["round"])
        for g in ix.games
        for pid in g["players"]
        if left_by(ix, pid, g.get("started_at"))
    }

    def mover(pid: int, r: dict) -> str:
        """Who earned a move: the player, or a bot in their seat if they left before the
        round ended (all of it, or from when they left), or the player and a bot if they
        came back with their PIN after a bot played some of the round's games."""
        name = ix.name(pid)
        if left_by(ix, pid, r.get("started_at")):
            return bot_in_seat(name)
        ended = r.get("finished_at") or r.get("movement_applied_at")
        if left_by(ix, pid, ended):
            return then_bot(name, back=back_after(ix, pid, ended))
        if (pid, r["number"]) in bot_played:  # away during it, back by its end
            return then_bot(name, back=True)
        return name

    ties = ix.ties
    moves = []
    for r in doc["rounds"]:
        for m in r["moves"]:
            moves.append(
                {
                    "round": r["number"],
                    "label": short_label(r),
                    "player": m["player"],
                    "name": mover(m["player"], r),
                    "from": m["from"],
                    "to": m["to"],
                    "direction": "up" if m["to"] > m["from"] else "down",
                    "edited": m["edited"],
                    # As the results mark it: the name decided among equal games won.
                    "by_name": m["player"] in ties.get(r["number"], ()),
                    "bot": ix.players.get(m["player"], {}).get("is_bot", False),
                    "played_after": (after := next_round(r["number"])) is not None
                    and present(m["player"], after),
                }
            )
    # The moves table also lists the rule's moves the facilitator cancelled (the players
    # stayed): the results say "stayed (changed)" of them, and were alone in it.
    listed = []
    for r in doc["rounds"]:
        listed += [m for m in moves if m["round"] == r["number"]]
        listed += [
            {
                "round": r["number"],
                "label": short_label(r),
                "player": k["player"],
                "name": ix.name(k["player"]),
                "from": k["table"],
                "to": k["table"],
                "direction": f"stayed (the rule said table {k['rule']})",
                "edited": True,
            }
            for k in r.get("kept", [])
        ]

    def changes(tables: list) -> int:
        return sum(
            1
            for a, b in zip(tables, tables[1:], strict=False)
            if a is not None and b is not None and a != b
        )

    # The columns of rounds sat down to (not the seating after the last round's moves).
    sat = [i for i, c in enumerate(cols) if c["round"] is not None]

    def moves_played(pid: int) -> int:
        """Moves into a round the player then sat at themself: those made a newcomer."""
        path = [paths[pid][i] if present(pid, cols[i]["round"]) else None for i in sat]
        return changes(path)

    journeys = {
        pid: {
            "tables": paths[pid],
            # The columns in which a bot sat in their seat, in order (none: never). Not
            # just the first: a player who came back with their PIN sat in their seat
            # again (a review found the chart giving the bot the rest of the workshop).
            "bot_cols": [i for i, c in enumerate(cols) if pid in c["where"] and bot_sat(pid, c)],
            # Gone now: the bot's last stretch runs on to the end.
            "gone": bool(ix.players.get(pid, {}).get("has_left")),
            "text": " → ".join("—" if t is None else str(t) for t in paths[pid]),
            "moves": changes(paths[pid]),
            "moves_played": moves_played(pid),
        }
        for pid in seated
    }
    return {
        "columns": [{"round": c["round"], "label": c["label"]} for c in cols],
        "grid": grid,
        # The grid a column at a time: a large class's report folds each round's
        # seating on its own (FOLD_TABLES).
        "by_column": [
            {
                "round": c["round"],
                "label": c["label"],
                "rows": [{"table": row["table"], "cell": row["cells"][ci]} for row in grid],
            }
            for ci, c in enumerate(cols)
        ],
        "moves": moves,
        "listed": listed,
        "journeys": journeys,
        "players": seated,
    }


def name_ties(doc: dict) -> dict[int, set]:
    """Round number → the players whose move, or stay, the name decided among equal
    games won (RULES.md §2 rule 1: ties go in alphabetical order), after each scored
    round whose movement was applied.

    The rule is run again on the round's standings (those movement ranked, in join
    order per table, as the service passed them): a player is in the set if someone
    at their table won as many games and the rule gave them another outcome (one
    moved and the other stayed, or they moved opposite ways). A tie that changed
    nothing (two winners at the top table both stay) is not one. Only what the rule
    made counts: a move the facilitator edited or cancelled, or one that lapsed when
    the player left, is not the name's doing."""
    ties: dict[int, set] = {}
    for r in doc["rounds"]:
        if r["kind"] != "scored" or not r.get("movement_applied_at") or not r.get("standings"):
            continue
        by_table: dict[int, list[Standing]] = defaultdict(list)
        for s in r["standings"]:
            by_table[s["table"]].append(
                Standing(name=s["name"], games_won=s["games_won"], key=s["id"])
            )
        try:
            plan = compute_movement(
                [TableStanding(number=n, players=tuple(ps)) for n, ps in sorted(by_table.items())]
            )
        except MovementError:  # a document edited by hand: no marks rather than wrong ones
            continue
        rule = {m.key: m.to_table for m in plan.moves}
        kept = {k["player"] for k in r.get("kept", [])}
        moved_or_kept = set(rule) | kept | {m["player"] for m in r["moves"]}
        # As the rule said: its moves applied unedited, its stays (none cancelled or lapsed).
        rule_made = {
            m["player"] for m in r["moves"] if not m["edited"] and rule.get(m["player"]) == m["to"]
        } | {s["id"] for s in r["standings"] if s["id"] not in moved_or_kept}
        tied = set()
        for n, players in by_table.items():
            tied |= decided_by_name({p.key: (p.games_won, rule.get(p.key, n)) for p in players})
        ties[r["number"]] = tied & rule_made
    return ties


# ---------------------------------------------------------------- 3. results


def results(doc: dict, ix: Index) -> list[dict]:
    by_round_table: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for g in ix.games:
        by_round_table[(g["round"], g["table"])].append(g)
    # A game dealt at a table, counted or not (one the round's end or a leave cut
    # before anyone played is left out of the results: dealt, not played).
    dealt = {(g["round"], g["table"]) for g in doc["games"]}
    moved: dict[int, dict[int, tuple[str, bool]]] = {
        r["number"]: {
            # A move the facilitator cancelled: the player stayed, by their choice.
            **{k["player"]: ("", True) for k in r.get("kept", [])},
            **{
                m["player"]: ("up" if m["to"] > m["from"] else "down", m["edited"])
                for m in r["moves"]
            },
        }
        for r in doc["rounds"]
    }
    by_name = ix.ties
    # Who sat down in the round after each scored one: a player missing there left.
    rounds = [r for r in doc["rounds"] if r["kind"] in MOVEMENT_KINDS]
    seated_next = {
        a["number"]: {s["player"] for s in b["seatings"]} if b["seatings"] else None
        for a, b in zip(rounds, rounds[1:], strict=False)
    }
    # The tournament is over (the debrief began): after its last scored round nobody
    # moves, which is no omission.
    over = (doc.get("workshop") or {}).get("phase") == "debrief"
    last_scored = max((r["number"] for r in doc["rounds"] if r["kind"] == "scored"), default=None)
    out = []
    for r in doc["rounds"]:
        if r["kind"] not in REPORT_KINDS:
            continue
        applied = r["kind"] == "scored" and r.get("movement_applied_at") is not None
        after = seated_next.get(r["number"]) if applied else None
        # A round still being played (the report read mid-round) has no movement yet.
        finished = r.get("state", "finished") == "finished"
        # Whom movement ranked, by table: those seated at the round's end (stored as it
        # finishes). Someone who left during it, their seat given up, was not ranked:
        # listed last, apart; one who came back with the PIN is ranked where they sat.
        ranked_ids = (
            {(s["id"], s["table"]) for s in r["standings"]}
            if finished and "standings" in r
            else None
        )
        tables = []
        # A home round in which nobody played (skipped at once) has no results: not a
        # card of zeros per table. A scored round keeps them: its movement needs them.
        if r["kind"] != "scored" and not any(rn == r["number"] for rn, _ in by_round_table):
            continue
        for n in ix.tables:
            games = sorted(by_round_table.get((r["number"], n), []), key=lambda g: g["number"])
            # Also at the table without a game: seated at the start and waiting for
            # the next deal (or too few to deal to), or joined during the round
            # (movement moves them too).
            at_table = [s["player"] for s in r["seatings"] if s["table"] == n]
            at_table += [m["player"] for m in r["moves"] if m["from"] == n]
            # Seated there at the round's end though neither at its start nor moved: a
            # student who joined during it (the round's standings list them).
            at_table += [
                s["id"]
                for s in r.get("standings", [])
                if s["table"] == n and s["id"] not in at_table
            ]
            if not games and not at_table:
                continue
            won: Counter = Counter()
            tricks: Counter = Counter()
            played: Counter = Counter()
            # Games a bot played in a seat whose player had left before the game began.
            by_bot: Counter = Counter()
            # When the last of them began: the time away it fell in names the row.
            bot_began: dict = {}
            order: list[int] = []
            game_rows = []
            for g in games:
                scores = game_scores(g, ix.claims, ix.kind)
                for s, pid in enumerate(g["players"]):
                    if pid not in order:
                        order.append(pid)
                    played[pid] += 1
                    if left_by(ix, pid, g.get("started_at")):
                        by_bot[pid] += 1
                        bot_began[pid] = g.get("started_at")
                    tricks[pid] += scores[s] if s < len(scores) else 0
                for pid in g["winners"]:
                    won[pid] += 1
                game_rows.append(
                    {
                        "number": g["number"],
                        "state": g["state"],
                        "cut_by_leaving": cut_by_leaving(g),
                        "winners": [seat_name(ix, p, g.get("started_at")) for p in g["winners"]],
                        # As the phones say it: "a draw", and how it ended where the
                        # kind has more than one way (3 Tricks).
                        "draw": ix.kind.drawn(g["players"], g["winners"]),
                        "how": ix.kind.how_it_ended(g.get("ended_by"), g["winners"]),
                        # Per seat: tricks won (Five Tricks) or the game's score.
                        "tricks": [
                            {
                                "name": seat_name(ix, pid, g.get("started_at")),
                                # 0 for a log that does not play (check_export names it).
                                "tricks": scores[s] if s < len(scores) else 0,
                            }
                            for s, pid in enumerate(g["players"])
                        ],
                        "tricks_played": len(g["tricks"]),
                        "disputes": len(g["disputes"]),
                    }
                )
            order += [pid for pid in dict.fromkeys(at_table) if pid not in order]
            rows = []
            for pid in order:
                direction, edited = moved.get(r["number"], {}).get(pid, ("", False))
                if not finished:
                    direction = ""
                elif not applied:
                    direction = "not applied"
                elif not direction and (
                    pid not in after
                    if after is not None
                    # No round since: gone now (during the round, or after it: the
                    # move lapsed), unless a bot plays on in their seat: it stayed.
                    else ix.players.get(pid, {}).get("has_left") and not seat_kept(ix, pid)
                ):
                    direction = "left"
                name = ix.name(pid)
                # Away at the round's end, their seat still at the table: a bot in it
                # ended the round (and its move after is the bot's), though no game
                # began after they left. The seating calls it "the bot in X's seat";
                # this row read the plain name.
                bot_at_end = (
                    ranked_ids is not None
                    and (pid, n) in ranked_ids
                    and left_by(ix, pid, r.get("finished_at"))
                )
                rows.append(
                    {
                        "id": pid,
                        "name": name,
                        # What the row stands for: the player, a bot in their seat for
                        # every game (they had left), or the player then a bot.
                        "label": name
                        if not (by_bot[pid] or bot_at_end)
                        else bot_in_seat(name)
                        if by_bot[pid] == played[pid]
                        else then_bot(
                            name,
                            back=back_after(ix, pid, bot_began.get(pid) or r.get("finished_at")),
                        ),
                        "games_won": won[pid],
                        "games_played": played[pid],
                        "tricks": tricks[pid],
                        "moved": direction,
                        # Gone now, a bot playing on in the seat that stayed or moved.
                        "bot_seat": finished and applied and after is None and seat_kept(ix, pid),
                        "edited": edited,
                        # Moved, or stayed, by the name among equal games won.
                        "by_name": direction in ("up", "down", "")
                        and pid in by_name.get(r["number"], ()),
                        "unranked": ranked_ids is not None and (pid, n) not in ranked_ids,
                    }
                )
            # Movement's own ranking (RULES.md §2): games won, ties by name, then join order.
            rows.sort(
                key=lambda x: (
                    x["unranked"],
                    -x["games_won"],
                    name_sort_key(x["name"]),
                    ix.players.get(x["id"], {}).get("join_order", 0),
                )
            )
            # Most and fewest among those who played: a student who joined late, or sat
            # alone at a table too small to deal to, played none ("0 of 0" in the table).
            ranked = [x for x in rows if x["games_played"] and not x["unranked"]]
            best = max((x["games_won"] for x in ranked), default=0)
            worst = min((x["games_won"] for x in ranked), default=0)
            tables.append(
                {
                    "table": n,
                    "games": game_rows,
                    "games_played": len(games),
                    # No game counted and none dealt: too few players to deal to.
                    "none_dealt": (r["number"], n) not in dealt,
                    "games_completed": sum(1 for g in games if g["state"] == "over"),
                    "games_cut": sum(1 for g in games if g["state"] == "cut"),
                    "games_cut_by_leaving": sum(1 for g in games if cut_by_leaving(g)),
                    "players": rows,
                    # Fewer than two ranked who played (the others left, or played
                    # no game) is no tie: the caption says who won what, or that
                    # everyone who played left.
                    "ranked": len(ranked),
                    "tied": best == worst and len(ranked) > 1,
                    "top": [x["label"] for x in ranked if x["games_won"] == best],
                    "bottom": []
                    if best == worst
                    else [x["label"] for x in ranked if x["games_won"] == worst],
                    "best": best,
                    "worst": worst,
                    "moved_up": [x["label"] for x in rows if x["moved"] == "up"],
                    "moved_down": [x["label"] for x in rows if x["moved"] == "down"],
                }
            )
        if tables:
            out.append(
                {
                    "round": r["number"],
                    "label": short_label(r),
                    "kind": r["kind"],
                    "scored": r["kind"] == "scored",
                    "moved": applied,
                    "finished": finished,
                    "last": over and not applied and r["number"] == last_scored,
                    "tables": tables,
                }
            )
    return out


# ---------------------------------------------------------------- 4. clashes and disputes


def _dispute_claims(game: dict, d: dict) -> tuple[list, list, dict[int, int]]:
    """(claims when the dispute opened, final claims, changes per seat during it), from the claim log."""
    initial = list(d["initial_claims"])
    final = list(initial)
    changes: Counter = Counter()
    for c in game["claims"]:
        if c["trick_index"] == d["trick_index"] and c["during_dispute"]:
            final[c["seat"]] = c["claimed_seat"]
            changes[c["seat"]] += 1
    return initial, final, dict(changes)


def _verdicts_for(game: dict, trick_index: int, cards) -> list[int] | None:
    """Each seat's verdict on a trick: the stored record's, or for a cut trick, computed."""
    for t in game["tricks"]:
        if t["index"] == trick_index:
            return list(t["verdicts"])
    if cards:
        return [
            trick_winner([tuple(c) for c in cards], TrickRules.from_dict(r))
            for r in game["seat_rules"]
        ]
    return None


def dispute_rows(doc: dict, ix: Index) -> list[dict]:
    rows = []
    for g in ix.games:
        for d in g["disputes"]:
            initial, final, changes = _dispute_claims(g, d)
            cards = None
            for t in g["tricks"]:
                if t["index"] == d["trick_index"]:
                    cards = t["cards"]
            if (
                cards is None
                and g.get("unawarded_trick")
                and g["unawarded_trick"]["index"] == d["trick_index"]
            ):
                cards = g["unawarded_trick"]["cards"]
            verdicts = _verdicts_for(g, d["trick_index"], cards)
            resolution = d["resolution"] or "open"
            outcome = "changed" if resolution == "unanimous" else resolution
            if outcome == "cut" and cut_by_leaving(g):
                outcome = "left"
            winner = d["winner"]
            seats = list(range(len(g["players"])))
            locals_ = [s for s in seats if ix.home(g["players"][s]) == g["table"]]
            newcomers = [s for s in seats if s not in locals_]
            origin = support = None
            if winner is not None and verdicts is not None:
                local_won = any(verdicts[s] == winner for s in locals_)
                newcomer_won = any(verdicts[s] == winner for s in newcomers)
                origin = (
                    "shared"
                    if local_won and newcomer_won
                    else "local"
                    if local_won
                    else "newcomer"
                    if newcomer_won
                    else "none"
                )
                backing = Counter(verdicts)
                mine = backing.get(winner, 0)
                other = max((v for k, v in backing.items() if k != winner), default=0)
                support = (
                    "none"
                    if mine == 0
                    else "majority"
                    if mine > other
                    else "minority"
                    if mine < other
                    else "tie"
                )
            opened = parse_time(d["opened_at"])
            rnd = ix.rounds.get(g["round"], {})
            since_start = None
            if opened and rnd.get("started_at"):
                started = parse_time(rnd["started_at"])
                # The round's clock stood still while it was paused.
                since_start = (opened - started).total_seconds() - timing.paused_within(
                    [(parse_time(a), parse_time(b)) for a, b in rnd.get("pauses") or []],
                    started,
                    opened,
                )

            def name_of_seat(s, g=g, d=d):
                return None if s is None else seat_name(ix, g["players"][s], d["opened_at"])

            rows.append(
                {
                    "round": g["round"],
                    "label": ix.label(g["round"]),
                    "table": g["table"],
                    "game": g["id"],
                    "game_number": g["number"],
                    "trick_index": d["trick_index"],
                    "trick_number": d["trick_index"] + 1,
                    "cards": [{"name": name_of_seat(s), "card": c} for s, c in (cards or [])],
                    "opened_at": d["opened_at"],
                    "since_round_start": _seconds(since_start),
                    "duration": _seconds(d["duration_seconds"]),
                    "resolution": resolution,
                    "outcome": outcome,
                    "outcome_label": DISPUTE_OUTCOMES.get(outcome, outcome),
                    "winner_seat": winner,
                    "winner": name_of_seat(winner),
                    "seats": [
                        {
                            "seat": s,
                            "id": g["players"][s],
                            "name": name_of_seat(s),
                            "local": s in locals_,
                            "verdict": name_of_seat(verdicts[s]) if verdicts else None,
                            "initial": name_of_seat(initial[s]),
                            "final": name_of_seat(final[s]),
                            "adapted": initial[s] != final[s],
                            "changes": changes.get(s, 0),
                            "initial_won": winner is not None and initial[s] == winner,
                            "sheet_won": winner is not None
                            and verdicts is not None
                            and verdicts[s] == winner,
                        }
                        for s in seats
                    ],
                    "changed_by": [name_of_seat(s) for s in seats if initial[s] != final[s]],
                    "origin": origin,
                    "origin_label": ORIGINS.get(origin, "—") if origin else "no winner",
                    "support": support,
                    "support_label": SUPPORT.get(support, "—") if support else "—",
                }
            )
    rows.sort(key=lambda r: (r["opened_at"] or "", r["game"], r["trick_index"]))
    return rows


def _trick_outcome(game: dict, trick: dict) -> str:
    if trick["resolution"] == "rules":
        return "rules"
    if trick["resolution"] == "timeout":
        return "timeout"
    changed = any(c["is_change"] and c["trick_index"] == trick["index"] for c in game["claims"])
    return "changed" if changed else "agreed"


def clashes(doc: dict, ix: Index, disputes: list[dict], palette=None) -> dict:
    clash_rows = []
    outcomes: Counter = Counter()
    per_cell: dict[tuple[int, int], Counter] = defaultdict(Counter)
    sheet_keys: set[str] = set()
    pair_counts: Counter = Counter()
    tricks_total = 0
    for g in ix.games:
        # In referee mode too: the table's sheet decided, but a newcomer's own sheet
        # named another winner, and saw the trick go against it.
        keys = [ix.sheet_key(r) for r in g["seat_rules"]]
        disputed = {d["trick_index"] for d in g["disputes"]}
        unawarded = g.get("unawarded_trick")
        if unawarded and unawarded["index"] not in disputed:
            # Its claims were under way (no dispute) when the game was cut: no trick.
            if g["state"] == "playing":
                key = "claims_open"
            elif cut_by_leaving(g):
                key = "claims_left"
            else:
                key = "claims_cut"
            outcomes[key] += 1
            per_cell[(g["round"], g["table"])]["cut"] += 1
        for t in g["tricks"]:
            tricks_total += 1
            cell = per_cell[(g["round"], g["table"])]
            cell["tricks"] += 1
            outcome = _trick_outcome(g, t)
            outcomes[outcome] += 1
            if len(set(t.get("verdicts") or [])) < 2:
                continue
            cell["clashes"] += 1
            pairs = set()
            for a, b in combinations(range(len(g["players"])), 2):
                if t["verdicts"][a] != t["verdicts"][b] and keys[a] != keys[b]:
                    pairs.add(tuple(sorted((keys[a], keys[b]), key=_sheet_sort)))
            for p in pairs:
                pair_counts[p] += 1
                sheet_keys.update(p)
            clash_rows.append(
                {
                    "round": g["round"],
                    "label": ix.label(g["round"]),
                    "table": g["table"],
                    "game": g["id"],
                    "game_number": g["number"],
                    "trick_number": t["index"] + 1,
                    "cards": [{"name": ix.name(g["players"][s]), "card": c} for s, c in t["cards"]],
                    "verdicts": [
                        {
                            "name": ix.name(pid),
                            "sheet": keys[s],
                            "verdict": ix.name(g["players"][t["verdicts"][s]]),
                        }
                        for s, pid in enumerate(g["players"])
                    ],
                    "winner": ix.name(g["players"][t["winner"]]),
                    "outcome": outcome,
                    "outcome_label": TRICK_OUTCOMES[outcome],
                    "disputed": t["index"] in disputed,
                }
            )
    for d in disputes:
        per_cell[(d["round"], d["table"])]["disputes"] += 1
        if d["outcome"] == "timeout":
            per_cell[(d["round"], d["table"])]["timeouts"] += 1
        elif d["outcome"] in UNAWARDED:
            # A dispute cut short (or still open) awarded no trick: count its claim step.
            per_cell[(d["round"], d["table"])]["cut"] += 1
            outcomes[d["outcome"]] += 1

    keys_sorted = sorted(sheet_keys, key=_sheet_sort)
    matrix = {
        "sheets": keys_sorted,
        "labels": [_sheet_label(k) for k in keys_sorted],
        "rows": [
            {
                "sheet": a,
                "label": _sheet_label(a),
                "cells": [
                    None if a == b else pair_counts.get(tuple(sorted((a, b), key=_sheet_sort)), 0)
                    for b in keys_sorted
                ],
            }
            for a in keys_sorted
        ],
        "pairs": [
            {"a": _sheet_label(a), "b": _sheet_label(b), "tricks": n}
            for (a, b), n in sorted(pair_counts.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
    }

    rounds_with_games = sorted({g["round"] for g in ix.games})
    by_table_round = [
        {
            "table": n,
            "rounds": [
                {
                    "round": rn,
                    "label": ix.label(rn),
                    "tricks": per_cell[(rn, n)]["tricks"],
                    "clashes": per_cell[(rn, n)]["clashes"],
                    "disputes": per_cell[(rn, n)]["disputes"],
                    "timeouts": per_cell[(rn, n)]["timeouts"],
                    "cut": per_cell[(rn, n)]["cut"],
                }
                for rn in rounds_with_games
            ],
        }
        for n in ix.tables
    ]

    durations = [
        d["duration"]
        for d in disputes
        if d["outcome"] in ("changed", "timeout") and d["duration"] is not None
    ]
    dispute_outcomes = Counter(d["outcome"] for d in disputes)
    origins = {k: sum(1 for d in disputes if d["origin"] == k) for k in ORIGINS}
    support = {k: sum(1 for d in disputes if d["support"] == k) for k in SUPPORT}
    return {
        "tricks": tricks_total,
        "clash_count": len(clash_rows),
        "clash_tricks": clash_rows,
        "trick_outcomes": [
            {"key": k, "label": TRICK_OUTCOMES[k], "count": outcomes.get(k, 0)}
            for k in TRICK_OUTCOMES
            if outcomes.get(k, 0)
            or k not in ("rules", "cut", "left", "open", "claims_cut", "claims_left", "claims_open")
        ],
        "disputes": disputes,
        "dispute_count": len(disputes),
        # Disputes that awarded no trick (cut short, or still open): in no count of tricks.
        "disputes_unawarded": sum(1 for d in disputes if d["outcome"] in UNAWARDED),
        "dispute_outcomes": [
            {
                "key": k,
                "label": DISPUTE_OUTCOMES[k],
                "count": dispute_outcomes.get(k, 0),
                "said": dispute_ending_said(k, dispute_outcomes.get(k, 0)),
            }
            for k in DISPUTE_OUTCOMES
            if dispute_outcomes.get(k, 0) or k not in ("left", "open")
        ],
        "outcome_counts": {k: dispute_outcomes.get(k, 0) for k in DISPUTE_OUTCOMES},
        "duration": {
            "count": len(durations),
            "mean": _seconds(statistics.fmean(durations)) if durations else None,
            "median": _seconds(statistics.median(durations)) if durations else None,
            "max": _seconds(max(durations)) if durations else None,
        },
        "origins": origins,
        "support": support,
        # The disputes that ended with a winner, whose sheets the origins count.
        "with_winner": sum(origins.values()),
        # Section 4's lines on them, the counts that are not nought (the guide's words).
        "winners_said": winners_sheets_said(support, origins),
        "matrix": matrix,
        "by_table_round": by_table_round,
        "rounds": [{"round": rn, "label": ix.label(rn)} for rn in rounds_with_games],
        "gestures": gestures(doc, ix, palette),
    }


def _sheet_sort(key: str):
    return (0, int(key[1:])) if key.startswith("T") else (1, key)


def _sheet_label(key: str) -> str:
    return f"Table {key[1:]}'s sheet" if key.startswith("T") else "A sheet no table had"


# The phone sends each pen stroke as its own `drawing` gesture (static/js/table.js):
# the report counts pictures, not strokes. A picture is the strokes one player made in
# a row at one table in one round, game and trick (its claim step), until the table's
# pad was cleared (by anyone: the pad is shared) or DRAWING_GAP_SECONDS passed since
# their last stroke. Their other gestures between two strokes do not end it.
DRAWING_GAP_SECONDS = 60
# `clear` wipes the pad: it says nothing by itself, so it is counted apart, not as a gesture.
NOT_GESTURES = ("clear",)
# The drawings shown as pictures in the report: those made during disputes first,
# the ones with the most strokes first, at most this many.
DRAWINGS_SHOWN = 6
# A drawing is shown on a box the pad's shape (the phone's canvas is 600 by 400);
# a stroke keeps at most this many of its points (up to 2,000 arrive), evenly spread.
DRAWING_BOX = (300, 200)
DRAWING_POINTS_SHOWN = 200


def drawings(ix: Index) -> list[dict]:
    """The pictures drawn, in the order they were begun (the export's order of the
    gestures), each with its strokes (lists of [x, y] points from 0 to 1)."""
    pictures: list[dict] = []
    drawing: dict[tuple, dict] = {}  # (table, player) -> the picture they are drawing
    for x in ix.gestures:
        if x["kind"] == "clear":
            for key in [k for k in drawing if k[0] == x["table"]]:
                del drawing[key]
            continue
        if x["kind"] != "drawing":
            continue
        at = parse_time(x.get("created_at"))
        where = (x["round"], x["game"], x["trick_index"])
        pic = drawing.get((x["table"], x["player"]))
        if (
            pic is None
            or pic["where"] != where
            or (at and pic["last"] and (at - pic["last"]).total_seconds() > DRAWING_GAP_SECONDS)
        ):
            pic = {
                "id": x["id"],
                "table": x["table"],
                "round": x["round"],
                "game": x["game"],
                "trick_index": x["trick_index"],
                "player": x["player"],
                "during_dispute": False,
                "strokes": [],
                "where": where,
                "last": at,
            }
            pictures.append(pic)
            drawing[(x["table"], x["player"])] = pic
        points = (x.get("payload") or {}).get("points")
        pic["strokes"].append(points if isinstance(points, list) else [])
        pic["last"] = at or pic["last"]
        # Begun before a dispute opened and finished in it counts as drawn in it.
        pic["during_dispute"] = pic["during_dispute"] or bool(x["during_dispute"])
    for pic in pictures:
        del pic["where"], pic["last"]
    return pictures


def _drawn_words(g: dict) -> str:
    """What a drawing in the count is: " (2 drawings: pictures of one or more strokes,
    9 strokes in all)", or nothing when nobody drew."""
    if not g["drawings"]:
        return ""
    what = "a picture" if g["drawings"] == 1 else "pictures"
    return (
        f" ({_plural(g['drawings'], 'drawing')}: {what} of one or more strokes, "
        f"{_plural(g['strokes'], 'stroke')} in all)"
    )


def _polyline(points) -> str:
    """A stroke's points (x, y from 0 to 1) as an SVG polyline's `points` on the
    DRAWING_BOX; a stroke of one point becomes a dot (a line too short to see but for
    its round ends). Points that are not pairs of numbers are left out."""
    w, h = DRAWING_BOX
    pts = [
        (min(1.0, max(0.0, float(p[0]))), min(1.0, max(0.0, float(p[1]))))
        for p in points
        if isinstance(p, list | tuple)
        and len(p) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
    ]
    if len(pts) > DRAWING_POINTS_SHOWN:
        step = (len(pts) - 1) / (DRAWING_POINTS_SHOWN - 1)
        pts = [pts[round(i * step)] for i in range(DRAWING_POINTS_SHOWN)]
    if len(pts) == 1:
        pts.append((pts[0][0] + 0.002, pts[0][1]))
    return " ".join(f"{x * w:.1f},{y * h:.1f}" for x, y in pts)


def shown_drawings(ix: Index, pictures: list[dict]) -> list[dict]:
    """The few drawings the report shows (DRAWINGS_SHOWN: during disputes first, then
    the busiest), in the order they were drawn, each with its strokes as polylines and
    the words that say who drew it, where and when."""
    ranked = sorted(
        enumerate(pictures),
        key=lambda ip: (not ip[1]["during_dispute"], -len(ip[1]["strokes"]), ip[0]),
    )[:DRAWINGS_SHOWN]
    step = "turn" if ix.kind.key == "three_tricks" else "trick"  # 3 Tricks counts turns
    shown = []
    for _, pic in sorted(ranked, key=lambda ip: ip[0]):
        where = f"at table {pic['table']}"
        if pic["round"] is not None:
            where += f", {ix.label(pic['round'])}"
        if pic["game"] is not None and pic["trick_index"] is not None:
            where += f", {step} {pic['trick_index'] + 1}"
        if pic["during_dispute"]:
            where += ", during a dispute"
        lines = [line for s in pic["strokes"] if (line := _polyline(s))]
        shown.append(
            {
                "id": pic["id"],
                "name": ix.name(pic["player"]),
                "where": where,
                "during_dispute": pic["during_dispute"],
                "strokes": len(pic["strokes"]),
                "lines": lines,
                "alt": (
                    f"Drawing by {ix.name(pic['player'])} {where}: "
                    f"{_plural(len(pic['strokes']), 'stroke')}"
                ),
            }
        )
    return shown


def gestures(doc: dict, ix: Index, palette=None) -> dict:
    """Gestures by kind: in disputes and at other times. `palette` is [(kind, emoji, label)].
    A drawing counts once per picture (`drawings`), however many strokes it has; clearing
    the pad is no gesture (`clears`, apart)."""
    in_dispute: Counter = Counter()
    other: Counter = Counter()
    by_player: Counter = Counter()
    clears: Counter = Counter()
    strokes = 0
    for x in ix.gestures:
        if x["kind"] in NOT_GESTURES:
            clears["in_dispute" if x["during_dispute"] else "other"] += 1
        elif x["kind"] == "drawing":
            strokes += 1
        else:
            (in_dispute if x["during_dispute"] else other)[x["kind"]] += 1
            by_player[x["player"]] += 1
    pictures = drawings(ix)
    for pic in pictures:
        (in_dispute if pic["during_dispute"] else other)["drawing"] += 1
        by_player[pic["player"]] += 1
    known = [(k, e, label) for k, e, label in (palette or []) if k not in NOT_GESTURES]
    seen = {k for k, _, _ in known}
    for k in sorted(set(in_dispute) | set(other)):
        if k not in seen:
            known.append((k, "", k.replace("_", " ").capitalize()))
    kinds = [
        {
            "kind": k,
            "emoji": e,
            "label": label,
            "in_dispute": in_dispute.get(k, 0),
            "other": other.get(k, 0),
            "total": in_dispute.get(k, 0) + other.get(k, 0),
        }
        for k, e, label in known
    ]
    return {
        "total": sum(in_dispute.values()) + sum(other.values()),
        "in_dispute": sum(in_dispute.values()),
        "kinds": kinds,
        "used": [k for k in kinds if k["total"]],
        "by_player": dict(by_player),
        # Drawings: pictures (each of one or more strokes), and the strokes in them.
        "drawings": len(pictures),
        # The pictures each player drew (counted in `by_player` too).
        "drawings_by_player": dict(Counter(pic["player"] for pic in pictures)),
        "strokes": strokes,
        "shown": shown_drawings(ix, pictures),
        "box": {"width": DRAWING_BOX[0], "height": DRAWING_BOX[1]},
        "clears": {
            "in_dispute": clears["in_dispute"],
            "other": clears["other"],
            "total": clears["in_dispute"] + clears["other"],
        },
    }


def own_sheets(ix: Index, game: dict) -> list:
    """Each seat's own sheet in `game`: the one the engine gave the seat where each
    player plays by their own (Five Tricks, All Fives: the game's `seat_rules`), else
    the sheet the player learned at their home table (the player's `rules`; the
    table's for one without, as a game's start gives it). 7Up7Down's `seat_rules` are
    the table's sheet for every seat: the table's rules decide for everybody."""
    if ix.kind.per_seat_rules:
        return list(game["seat_rules"])
    return [
        (ix.players.get(pid) or {}).get("rules") or game["table_rules"] for pid in game["players"]
    ]


def game_breaks(ix: Index, game: dict) -> dict | None:
    """One game's `GameKind.rule_breaks`, its log replayed with each seat's own sheet,
    and its revokes and calls as rows (`rows`, the log's order): each entry of the
    replay's `log` with the player in its seat (`player`; a call's `accused_player`),
    the log entry's `seq` and `created_at`, and whether that player was a `newcomer` at
    the table (away from their home table). None for a game whose kind records no such
    thing, or whose log does not play. The report's section 4 counts these rows and
    revokes.csv lists them (tournament.export)."""
    if id(game) not in ix.breaks:
        ix.breaks[id(game)] = _game_breaks(ix, game)
    return ix.breaks[id(game)]


def _game_breaks(ix: Index, game: dict) -> dict | None:
    try:
        br = ix.kind.rule_breaks(
            table_rules=game["table_rules"],
            seat_rules=own_sheets(ix, game),
            mode=game["mode"],
            seed=game["seed"],
            actions=[a["payload"] for a in game["actions"]],
        )
    except (KeyError, TypeError):  # a garbled record: check_export names it
        return None
    if br is None:
        return None
    players = game["players"]
    rows = []
    for e in br.get("log", []):
        pid = players[e["seat"]]
        logged = game["actions"][e["action"]]
        row = {
            **e,
            "seq": logged.get("seq"),
            "created_at": logged.get("created_at"),
            "player": pid,
            "newcomer": ix.home(pid) != game["table"],
        }
        if e["kind"] == "call":
            row["accused_player"] = players[e["accused"]]
        rows.append(row)
    return {**br, "rows": rows}


def revokes(doc: dict, ix: Index) -> dict | None:
    """All Fives: the cards that broke the table's sheet (revokes), the calls, and the
    tricks the players' own sheets judged differently (clashes), per round and table,
    from each game's log replayed (`game_breaks`). 7Up7Down: the tricks judged
    differently alone. None for a game that records no such thing.

    A call *upheld* named a revoke; a call *refused* named a card the table's sheet
    allows (a wrong guess, or other rules expected); an *unnoticed* revoke was never called.
    Where the table's sheet decided every card and trick (`table_decides`: a referee
    workshop, or 7Up7Down, whose players have no sheet of their own at the table) it
    refused the cards it forbids, so there are no revokes or calls: the clashes alone."""
    rows: dict[tuple[int, int], Counter] = {}
    per_player: dict[int, Counter] = defaultdict(Counter)
    for g in sorted(ix.games, key=lambda g: (g["round"], g["table"], g["number"])):
        br = game_breaks(ix, g)
        if br is None:
            continue
        row = rows.setdefault((g["round"], g["table"]), Counter())
        row["games"] += 1
        row["tricks"] += br["tricks"]
        row["clashes"] += br["clashes"]
        for e in br["rows"]:
            if e["kind"] == "revoke":
                row["revokes"] += 1
                row["by_newcomers"] += e["newcomer"]
                row["unnoticed"] += not e["called"]
                per_player[e["player"]]["revokes"] += 1
                continue
            per_player[e["player"]]["calls"] += 1
            if e["upheld"]:
                row["upheld"] += 1
                per_player[e["accused_player"]]["called_on"] += 1
            else:
                row["refused"] += 1
                row["refused_by_newcomers"] += e["newcomer"]
                per_player[e["player"]]["refused"] += 1
    if not rows:
        return None
    keys = (
        "games",
        "tricks",
        "clashes",
        "revokes",
        "by_newcomers",
        "upheld",
        "refused",
        "refused_by_newcomers",
        "unnoticed",
    )
    out = []
    for (rn, table), row in sorted(rows.items()):
        out.append({"round": ix.label(rn), "table": table, **{k: row[k] for k in keys}})
    return {
        "referee": ix.referee,
        "table_decides": ix.referee or not ix.kind.per_seat_rules,
        # Whose sheets judged the tricks: the seats' own where each plays by one (All
        # Fives); in 7Up7Down nobody does at the table, so the ones they learned at home.
        "sheets": "own" if ix.kind.per_seat_rules else "home",
        # What made a trick judged differently, where not every sheet difference does.
        "counted": ix.kind.judged_words,
        "rows": out,
        "totals": {k: sum(r.get(k, 0) for r in out) for k in keys},
        "by_player": {pid: dict(c) for pid, c in per_player.items()},
    }


REFUSAL_EXAMPLES = 5  # named examples in the report; the guide says the first


def _tried(action: dict) -> str:
    """What a refused move tried, in words ("play 5H", "bid 3", "lay 4C 5C")."""
    kind = str(action.get("type", "move"))
    cards = action.get("cards")
    cards = " ".join(str(c) for c in cards) if isinstance(cards, list) else ""
    if kind == "play" and action.get("card"):
        return f"play {action['card']}"
    if kind == "bid" and "bid" in action:
        return f"bid {action['bid']}"
    if kind == "block":
        return f"block with {cards}".strip()
    if kind in ("lay", "swap"):
        return f"{kind} {cards}".strip()
    return kind.replace("_", " ")


def refusals_kept(doc: dict) -> int:
    """The refused moves kept per player and game when `doc` was exported (its
    `workshop.refusals_kept`, added within version 1), or limits.REFUSALS_KEPT for a
    document from before it."""
    kept = (doc.get("workshop") or {}).get("refusals_kept")
    # (A count, or nothing to state: a document with another value states today's cap.)
    if isinstance(kept, int) and not isinstance(kept, bool) and kept >= 0:
        return kept
    return limits.REFUSALS_KEPT


def refusals(doc: dict, ix: Index) -> dict | None:
    """The moves the table's rules refused (docs/export.md, `refusals`), per round and
    table: by newcomers and by locals, and the players refused most, named with the
    reason they were told. None where each player's own sheet decides what is legal
    (Barnga mode of Five Tricks and All Fives: there the clashes are the claims,
    disputes and revokes). A player kept at most `kept_most` per game (the document's
    `workshop.refusals_kept`; one from before it, limits.REFUSALS_KEPT, which the service
    keeps): the figures are then a floor."""
    if ix.kind.per_seat_rules and not ix.referee:
        return None
    kinds_of = {r["number"]: r["kind"] for r in doc["rounds"]}
    cells: dict[tuple[int, int], Counter] = {(g["round"], g["table"]): Counter() for g in ix.games}
    people: dict[tuple[int, int, int], dict] = {}
    by_player: Counter = Counter()
    for x in doc.get("refusals") or []:
        if kinds_of.get(x["round"]) not in REPORT_KINDS:
            continue
        by_player[x["player"]] += 1
        key = (x["round"], x["table"])
        newcomer = ix.home(x["player"]) != x["table"]
        own = x.get("own_rules_allow") is True
        cell = cells.setdefault(key, Counter())
        cell["refused"] += 1
        cell["by_newcomers" if newcomer else "by_locals"] += 1
        cell["own_rules_allow"] += own
        # (Neither: the player had no sheet of their own to ask.)
        cell["own_rules_forbid"] += x.get("own_rules_allow") is False
        who = people.setdefault(
            (*key, x["player"]),
            {"times": 0, "own": 0, "newcomer": newcomer, "reason": x["reason"], "tried": set()},
        )
        who["times"] += 1
        if own and not who["own"]:  # the reason of a rule they never saw, if any
            who["reason"] = x["reason"]
        who["own"] += own
        who["tried"].add(_tried(x.get("action") or {}))
    rows = [
        {
            "round": ix.label(rn),
            "round_number": rn,
            "table": table,
            "refused": c["refused"],
            "by_newcomers": c["by_newcomers"],
            "by_locals": c["by_locals"],
            "own_rules_allow": c["own_rules_allow"],
            "own_rules_forbid": c["own_rules_forbid"],
            "players": sum(1 for k in people if k[:2] == (rn, table)),
        }
        for (rn, table), c in sorted(cells.items())
    ]
    examples = [
        {
            "round": ix.label(rn),
            "table": table,
            "name": ix.name(pid),
            "home": ix.home(pid),
            "newcomer": who["newcomer"],
            "times": who["times"],
            "own_rules_allow": who["own"],
            "tried": ", ".join(sorted(who["tried"])),
            "reason": who["reason"],
        }
        for (rn, table, pid), who in sorted(
            people.items(),
            key=lambda kv: (
                not kv[1]["newcomer"],
                -kv[1]["own"],
                -kv[1]["times"],
                kv[0][0],
                kv[0][1],
                name_sort_key(ix.name(kv[0][2])),
            ),
        )
    ][:REFUSAL_EXAMPLES]
    keys = ("refused", "by_newcomers", "by_locals", "own_rules_allow", "own_rules_forbid")
    totals = {k: sum(r[k] for r in rows) for k in keys}
    return {
        "rows": rows,
        "totals": totals,
        "said": _refused_words(totals) if totals["refused"] else "",
        "examples": examples,
        # How many refused moves were kept per player and game, for the report's words:
        # the cap the document was exported under, else (an older document) the number
        # the service stops at today (read at each call).
        "kept_most": refusals_kept(doc),
        # Each player's refused moves, for the per-player figures (players.csv).
        "by_player": dict(by_player),
    }


def _refused_by(
    newcomers: int, locals_: int, local: str = "local", locals_said: str = "locals"
) -> str:
    """Who made the refused moves, only counts above nought said: "2 by newcomers and 1
    by locals", "all by locals", "by a newcomer" (it read "0 by newcomers, 3 by
    locals"); "" for none."""
    if newcomers and locals_:
        return f"{newcomers} by newcomers and {locals_} by {locals_said}"
    if not newcomers and not locals_:
        return ""
    n, one, many = (
        (newcomers, "newcomer", "newcomers") if newcomers else (locals_, local, locals_said)
    )
    return f"by a {one}" if n == 1 else f"all by {many}"


def _refused_words(t: dict) -> str:
    """ "3 moves were refused: 2 by newcomers and 1 by players at their home table. 1 of
    them was a move …": the refusals counted in words, right for one, for none of a
    kind and for all of them."""
    n, own, forbid = t["refused"], t["own_rules_allow"], t["own_rules_forbid"]
    # Only counts above nought ("1 move was refused: 0 by newcomers, 1 by players at
    # their home table" before): "3 moves were refused, all by newcomers."
    newcomers, locals_ = t["by_newcomers"], t["by_locals"]
    by = _refused_by(
        newcomers, locals_, "player at their home table", "players at their home table"
    )
    said = f"{_plural(n, 'move')} {'was' if n == 1 else 'were'} refused" + (
        f": {by}." if newcomers and locals_ else f", {by}." if by else "."
    )
    if n == 1:
        if own:
            return said + " It was a move the player's own rules allow: a rule they never saw."
        return said + (" It was a slip the player's own rules forbid too." if forbid else "")
    if own == n:
        return said + " All of them were moves the players' own rules allow: rules they never saw."
    if forbid == n:
        return said + " All of them were slips the players' own rules forbid too."
    if own:
        said += (
            f" {own} of them {'was a move' if own == 1 else 'were moves'} the player's own "
            "rules allow: a rule they never saw."
        )
    if own and own + forbid == n:
        said += " The other was a slip" if forbid == 1 else " The rest were slips"
        said += " their own rules forbid too."
    elif forbid:  # (and some whose player had no sheet of their own to ask)
        said += (
            f" {forbid} {'was a slip' if forbid == 1 else 'were slips'} their own rules forbid too."
        )
    return said


def _refusal_lines(rf: dict, *, named: bool = True) -> list[str]:
    """The guide's figures for the moment a rule met someone who never saw it (not
    `named`, the class's view: the counts, no one refused)."""
    t = rf["totals"]
    if not t["refused"]:
        return [
            "The table's rules refused no move anyone made: ask whether anyone held back "
            "a move they expected to be refused."
        ]
    lines = ["By the table's rules, " + rf["said"]]
    if rf["examples"] and named:
        e = rf["examples"][0]
        who = f"a newcomer from table {e['home']}" if e["newcomer"] else "at their home table"
        lines.append(
            f"At table {e['table']} in {e['round']}, {e['name']} ({who}) was refused "
            f"{'once' if e['times'] == 1 else str(e['times']) + ' times'}: “{e['reason']}{full_stop(e['reason'])}” "
            "Ask them what they expected."
        )
    return lines


# ---------------------------------------------------------------- 5. per player


def left_when(doc: dict, left_at: str | None) -> str:
    """When in the workshop a player left ("during Round 2", "after the silent home
    play"); "" when it was not recorded."""
    at = parse_time(left_at)
    if at is None:
        return ""
    last = None
    for r in sorted(doc["rounds"], key=lambda r: r["number"]):
        if r.get("started_at") and parse_time(r["started_at"]) <= at:
            last = r
    if last is None:
        return "before play began"
    name = {"study": "the study round", "home": "the silent home play"}.get(
        last["kind"], short_label(last)
    )
    finished = parse_time(last.get("finished_at"))
    return f"during {name}" if finished is None or at <= finished else f"after {name}"


def _let_in_during(let_in_at: str | None, left: str | None, back: str | None = None) -> bool:
    """Whether the facilitator's latest let-back-in (`players[].let_in_at`) came in the
    time away from `left` to `back` (None: not back yet): that leaving was a removal
    (a removed player alone has no PIN until let back in)."""
    let_in, since = parse_time(let_in_at), parse_time(left)
    until = parse_time(back)
    return (
        let_in is not None
        and since is not None
        and since <= let_in
        and (until is None or let_in <= until)
    )


def _away_said(doc: dict, a: dict, let_in_at: str | None) -> str:
    """A time away that ended, as section 5 says it: "left during Round 2, back during
    Round 3", or "removed during Round 2, let back in during Round 2, back during
    Round 3" where the facilitator let them back in then: the absence's own `let_in`,
    or (an export from before it was kept) the player's latest `let_in_at`."""
    let_in_at = a.get("let_in") or let_in_at
    if _let_in_during(let_in_at, a["left"], a["back"]):
        return (
            f"removed {left_when(doc, a['left'])}, let back in {left_when(doc, let_in_at)},"
            f" back {left_when(doc, a['back'])}"
        )
    return f"left {left_when(doc, a['left'])}, back {left_when(doc, a['back'])}"


def _left_said(doc: dict, p: dict) -> str:
    """When a player gone now left ("during Round 2"), or, where the facilitator removed
    them and let them back in and they are not back yet, "removed during Round 2, let
    back in during Round 2, not back yet"."""
    when = left_when(doc, p.get("left_at"))
    if p.get("has_left") and _let_in_during(p.get("let_in_at"), p.get("left_at")):
        return f"removed {when}, let back in {left_when(doc, p['let_in_at'])}, not back yet"
    return when


def games_by_round(ix: Index) -> dict[tuple[int, int], list[int]]:
    """(player, round) → [games won, games played], over the report's games (a game
    dealt and cut before anyone played is not one); a co-winner is credited a win."""
    tally: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for g in ix.games:
        for pid in g["players"]:
            tally[(pid, g["round"])][1] += 1
        for pid in g["winners"]:
            tally[(pid, g["round"])][0] += 1
    return tally


def journey_won_text(doc: dict, ix: Index, moves: dict) -> dict[int, str]:
    """Each journey with the games won beside each scored round's table, e.g.
    "2 → 2 (won 3 of 4) → 3 (won none of 4) → 2": how a move went, not only where to.
    The home round is not scored (the "Games won" column leaves it out too)."""
    tally = ix.tally
    scored = {r["number"] for r in doc["rounds"] if r["kind"] == "scored"}
    rounds = [c["round"] for c in moves["columns"]]
    texts = {}
    for pid, journey in moves["journeys"].items():
        parts = []
        for rn, table in zip(rounds, journey["tables"], strict=True):
            if table is None:
                parts.append("—")
            elif rn in scored:
                won, played = tally.get((pid, rn), (0, 0))
                # None won said in words, not "won 0 of 4" (the guide's "did not win
                # their one game" is too long a step: the printed table overflowed A4).
                # Held together by no-break spaces: printed, a journey breaks at its arrows.
                if not played:
                    said = "no game"
                elif won:
                    said = f"won {won} of {played}"
                else:
                    said = "1 game, not won" if played == 1 else f"won none of {played}"
                parts.append(f"{table} ({said})".replace(" ", "\u00a0"))
            else:
                parts.append(str(table))
        texts[pid] = " → ".join(parts)
    return texts


def player_rows(
    doc: dict,
    ix: Index,
    moves: dict,
    disputes: list[dict],
    gesture_counts: dict,
    revoke_counts: dict | None = None,
    *,
    drawing_counts: dict | None = None,
    refusal_counts: dict | None = None,
) -> list[dict]:
    """Section 5's rows, one per player in the order they joined. A student who left
    and whose seat a bot then played has what the seat did from then on counted in
    their row (the other sections call it "the bot in their seat"); one whose seat was
    skipped has nothing after it."""
    won: Counter = Counter()
    played: Counter = Counter()
    scored_rounds = {r["number"] for r in doc["rounds"] if r["kind"] == "scored"}
    won_by_round: dict[int, Counter] = defaultdict(Counter)
    changes: Counter = Counter()
    for g in ix.games:
        if g["round"] in scored_rounds:
            for pid in g["players"]:
                played[pid] += 1
            for pid in g["winners"]:
                won[pid] += 1
                won_by_round[pid][g["round"]] += 1
        for c in g["claims"]:
            if c["is_change"]:
                changes[c["player"]] += 1
    stats: dict[int, Counter] = defaultdict(Counter)
    for d in disputes:
        for s in d["seats"]:
            st = stats[s["id"]]
            st["disputes"] += 1
            st["adapted" if s["adapted"] else "held"] += 1
            st["changes_in_disputes"] += s["changes"]
            if s["initial_won"]:
                st["claim_won"] += 1
            if s["sheet_won"]:
                st["sheet_won"] += 1
            if s["local"]:
                st["as_local"] += 1
            else:
                st["as_newcomer"] += 1
    journey_won = journey_won_text(doc, ix, moves)
    # The moves applied after each round (section 2's list), by direction.
    moved = Counter((m["player"], m["direction"]) for m in moves["moves"])
    rows = []
    for p in sorted(doc["players"], key=lambda p: p["join_order"]):
        pid = p["id"]
        journey = moves["journeys"].get(pid)
        st = stats[pid]
        rv = (revoke_counts or {}).get(pid, {})
        rows.append(
            {
                "id": pid,
                "name": p["name"],
                "home_table": p["home_table"],
                "bot": p["is_bot"],
                "left": p["has_left"],
                "left_when": _left_said(doc, p),
                # A bot took the seat they left (it plays on, or played after them): the
                # rest of the report calls it "the bot in X's seat".
                "bot_took_seat": bool(p["has_left"])
                and (seat_kept(ix, pid) or bot_played_after(ix, pid)),
                # Each time away that ended: "left during Round 2, back during Round 3",
                # and whether a bot played their seat meanwhile, as "a bot took their
                # seat" is said beside one who is gone still.
                "away": [
                    _away_said(doc, a, p.get("let_in_at"))
                    + (
                        "; a bot played their seat meanwhile"
                        if bot_played_between(ix, pid, parse_time(a["left"]), parse_time(a["back"]))
                        else ""
                    )
                    for a in p.get("absences") or []
                    if a.get("left") and a.get("back")
                ],
                "journey": journey["tables"] if journey else [],
                "journey_text": journey["text"] if journey else "—",
                "journey_won_text": journey_won.get(pid, "—"),
                "moves": journey["moves"] if journey else 0,
                "moves_played": journey["moves_played"] if journey else 0,
                "moves_up": moved[(pid, "up")],
                "moves_down": moved[(pid, "down")],
                "games_won": won[pid],
                "games_played": played[pid],
                "won_by_round": [won_by_round[pid][rn] for rn in sorted(scored_rounds)],
                "disputes": st["disputes"],
                "as_local": st["as_local"],
                "as_newcomer": st["as_newcomer"],
                "adapted": st["adapted"],
                "held": st["held"],
                "claim_changes": changes[pid],
                "claim_won": st["claim_won"],
                "sheet_won": st["sheet_won"],
                "gestures": gesture_counts.get(pid, 0),
                "drawings": (drawing_counts or {}).get(pid, 0),
                "refused": (refusal_counts or {}).get(pid, 0),
                "revokes": rv.get("revokes", 0),
                "called_on": rv.get("called_on", 0),
                "calls": rv.get("calls", 0),
                "calls_refused": rv.get("refused", 0),
            }
        )
    return rows


def _players(doc, ix, mov, disputes, gest: dict, rv: dict | None, rf: dict | None) -> list:
    """`player_rows` from the sections' own figures: the report's and players.csv's."""
    return player_rows(
        doc,
        ix,
        mov,
        disputes,
        gest["by_player"],
        (rv or {}).get("by_player", {}),
        drawing_counts=gest["drawings_by_player"],
        refusal_counts=(rf or {}).get("by_player", {}),
    )


def player_table(doc: dict, ix: Index | None = None) -> dict:
    """Section 5 alone, for the export's players.csv: the rows `build_report` shows,
    built by the same functions, and which of a game's own columns the table shows
    (`disputes`: Five Tricks' claims; `revokes`: All Fives' calls; `refusals`: where the
    table's rules decide what is legal and refused moves are kept). `ix`: the
    document's Index, if the caller has one (its replays are then made once)."""
    ix = ix or Index(doc)
    rv = None if ix.claims else revokes(doc, ix)
    rf = refusals(doc, ix)
    return {
        "rows": _players(
            doc, ix, movement(doc, ix), dispute_rows(doc, ix), gestures(doc, ix), rv, rf
        ),
        "disputes": ix.claims and not ix.referee,
        "revokes": rv is not None and not rv["table_decides"],
        "refusals": rf is not None,
    }


# ---------------------------------------------------------------- 6. the debrief guide


# The five questions of the debrief, in order; the figures under each differ by game.
_QUESTIONS = {
    "expect": (
        "What did you expect to happen when you sat down at a new table?",
        "Did anyone assume everybody played by the same rules? Why?",
    ),
    "notice": (
        "When did you first notice that something was different?",
        "The moment of surprise; who noticed first, newcomers or locals.",
    ),
    "feel": (
        None,  # worded per game: see _questions
        "Frustration, confusion, amusement; feeling foolish or feeling cheated.",
    ),
    "act": (
        "What did you do about it, without words?",
        "Giving in, insisting, teaching by gestures, copying the others.",
    ),
    "moved": (
        "What happened when you moved up, or down? How did the people at your new table treat you?",
        "Winners who began to lose at their new table, losers who began to win; being "
        "welcomed, corrected or ignored as a newcomer, and what the locals did.",
    ),
    "outside": (
        "Where have you met this outside the game?",
        "A new job, school or country; whose rules count when groups meet, and why.",
    ),
}
_SECTIONS = {"expect": "reveal", "feel": "gestures", "moved": "players", "outside": "players"}


def _questions(data: dict, *, feel: str, notice_section: str, act_section: str) -> list[dict]:
    sections = {**_SECTIONS, "notice": notice_section, "act": act_section}
    return [
        {
            "id": qid,
            "question": feel if qid == "feel" else question,
            "listen": listen,
            "data": data[qid],
            "section": sections[qid],
        }
        for qid, (question, listen) in _QUESTIONS.items()
    ]


def pairs_summary(pairs: list[dict], *, order: list[str] = (), aside: str = "") -> dict:
    """The reveal's pairs of neighbouring tables counted per rule (`listed`: a large
    class's report folds the list, a line a pair: 39 at 40 tables; its guide says it
    in one line): "All 39 pairs of neighbouring tables differed, rule by rule:", then
    "ace in 14 pairs", … a rule a line (in one sentence, four rules were 4 lines of a
    phone). A rule's title comes first, never after "in" ("14 in which card wins", "3
    in a block matches by" read wrong), and without brackets (a title may have its
    own); the rules in `order` (the knobs, as the rules table's rows go). `aside`
    follows "differed". No pair or one rule: a sentence, no list."""
    differed = [p for p in pairs if p["knobs"]]
    if not differed:
        return listed(f"All {len(pairs)} pairs of neighbouring tables played the same rules.", [])
    said = f"{len(differed)} of the {len(pairs)}"
    if len(differed) == len(pairs):
        said = f"All {len(pairs)}"
    said += " pairs of neighbouring tables differed"
    if len(differed) == 1:
        # The one pair named, as a small class's guide names each.
        p = differed[0]
        titles = said_as_list(p["titles"]).lower()
        return listed(f"{said} (tables {p['a']} and {p['b']}), in: {titles}.", [])
    per_rule = Counter(k for p in differed for k in p["knobs"])
    title = {k: t.lower() for p in differed for k, t in zip(p["knobs"], p["titles"], strict=True)}
    if len(per_rule) == 1:
        return listed(f"{said}{aside}, in one rule only: {title[next(iter(per_rule))]}.", [])
    place = {k: i for i, k in enumerate(order)}
    knobs = sorted(per_rule, key=lambda k: place.get(k, len(place)))  # (stable otherwise)
    counts = [f"{title[k]} in {_plural(per_rule[k], 'pair')}" for k in knobs]
    return listed(f"{said}{aside}, rule by rule:", counts)


def _expect_lines(rev: dict, mov: dict, played: str) -> list[str]:
    """What the tables played (`played`: "N tables played …") and how players moved.
    Past FOLD_TABLES tables the pairs of neighbouring tables are counted per rule in
    one line, not listed a line each (39 lines at 40 tables); section 1 lists them."""
    expect = [played]
    differed = [p for p in rev["pairs"] if p["knobs"]]
    if len(rev["pairs"]) + 1 > FOLD_TABLES and differed:
        expect.append(
            pairs_summary(
                rev["pairs"],
                order=[row["knob"] for row in rev["rows"]],
                aside=" (the report's section 1 lists each pair)",
            )["line"]
        )
    else:
        for p in differed:
            expect.append(
                f"Tables {p['a']} and {p['b']} differed in: {said_as_list(p['titles']).lower()}."
            )
    sheet_of = rev["sheet_of"]
    # People's moves into a round then played: a bot's, or one after the last round,
    # met nobody's rules (the players' section lists every move).
    moves = [m for m in mov["moves"] if m["played_after"] and not m["bot"]]
    across = [m for m in moves if sheet_of.get(m["from"]) != sheet_of.get(m["to"])]
    ups = sum(1 for m in across if m["direction"] == "up")
    if across:
        expect.append(
            f"{_plural(ups, 'move')} up and {_plural(len(across) - ups, 'move')} down took "
            "players to tables with other rules."
        )
    if len(across) < len(moves):
        same = len(moves) - len(across)
        expect.append(
            f"{_plural(same, 'move')} took players to a table with the same rules as the one they left."
        )
    return expect


def _movers_lines(players: list[dict]) -> list[str]:
    # People: a bot moved by the rule was nobody's newcomer (the head counts bots apart);
    # moved after the last round, nobody played as one either.
    movers = [p for p in players if p["moves_played"] and not p["bot"]]
    if not movers:
        return []
    return [
        f"{_plural(len(movers), 'player')} changed tables at least once: they were the newcomers."
    ]


def _won(won: int, played: int, *, then: bool = False) -> str:
    """ "won 9 of 16 games (56 %)": the count a teacher can check, then the share; after
    "then", "9 of 16 games (56 %)". None won is said as a teacher says it: "won none of
    their 4 games", "did not win their one game" (it read "won 0 of 1 game (0 %)")."""
    if not won:
        return "did not win their one game" if played == 1 else f"won none of their {played} games"
    said = f"{won} of {_plural(played, 'game')} ({int(100 * won / played + 0.5)} %)"
    return said if then else f"won {said}"


def _away_during(ix: Index, pid, r: dict) -> bool:
    """Whether any time the player was away overlaps the round (from its start to its
    end; one not finished runs on), whether they left before it or during it, came
    back during it or after it."""
    start, end = parse_time(r.get("started_at")), parse_time(r.get("finished_at"))
    return any(
        (end is None or left < end) and (back is None or start is None or back > start)
        for left, back in away_spans(ix, pid)
    )


def _moved_lines(doc: dict, ix: Index, *, named: bool = True) -> list[str]:
    """How the movers up, the movers down and the stayers did in the round before a
    movement and in the round after it: the winners who moved up and began to lose
    are the debrief's story. People only, who played both rounds themselves: a bot
    played by no one's rules, and for someone who left a bot played on in their seat
    (or nobody did). So a player gone now is left out, and so is one who came back
    with their PIN but was away at any time during either round: some of its games
    were the bot's, or their seat was skipped (a review found a returned student's
    bot-played round counted as theirs).

    Not `named` (the class's view): a group's figures are left out where they would
    be each member's own, read out to a class that saw who moved: a group of one, or
    a group that won none or all of its games in either round ("2 players: won 0 of
    2 games" says each of them won none)."""
    tally = ix.tally
    scored = [r for r in doc["rounds"] if r["kind"] == "scored"]

    def person(pid, *rounds: dict) -> bool:
        p = ix.players.get(pid) or {}
        return (
            bool(p)
            and not p.get("is_bot")
            and not p.get("has_left")
            and not any(_away_during(ix, pid, r) for r in rounds)
        )

    lines = []
    moved_between = False
    for r, nxt in zip(scored, scored[1:], strict=False):
        if not r.get("movement_applied_at"):
            continue
        moved_between = True
        went = {m["player"]: "up" if m["to"] > m["from"] else "down" for m in r["moves"]}
        groups: dict[str, list[int]] = {"up": [], "down": [], "stayed": []}
        for pid in ix.players:
            if (
                person(pid, r, nxt)
                and tally.get((pid, r["number"]))
                and tally.get((pid, nxt["number"]))
            ):
                groups[went.get(pid, "stayed")].append(pid)
        before, after = short_label(r), short_label(nxt)
        if nxt.get("state", "finished") != "finished":
            after += " so far"  # the report read while it is played
        for group, pids in groups.items():
            if not pids:
                continue
            won_b = sum(tally[(pid, r["number"])][0] for pid in pids)
            played_b = sum(tally[(pid, r["number"])][1] for pid in pids)
            won_a = sum(tally[(pid, nxt["number"])][0] for pid in pids)
            played_a = sum(tally[(pid, nxt["number"])][1] for pid in pids)
            who = (
                f"Moved {group} after {before} ({_plural(len(pids), 'player')})"
                if group != "stayed"
                else f"Stayed after {before} ({_plural(len(pids), 'player')})"
            )
            where = "" if group == "stayed" else " at their new table" + "s" * (len(pids) > 1)
            if not named and len(pids) == 1:
                lines.append(f"{who}: one player's games are not shown to the class.")
                continue
            hide_b = not named and won_b in (0, played_b)
            hide_a = not named and won_a in (0, played_a)
            if hide_b and hide_a:
                lines.append(
                    f"{who}: their games are not shown to the class (the figures would "
                    "be each player's own)."
                )
                continue
            if hide_b or hide_a:
                # The other round's figure still tells the class's story ("losers who
                # began to win"); the one left out would be each player's own.
                shown, hidden = (after, before) if hide_b else (before, after)
                won, played = (won_a, played_a) if hide_b else (won_b, played_b)
                lines.append(
                    f"{who}: {_won(won, played)}{where if hide_b else ''} in {shown} "
                    f"(their games in {hidden} are not shown to the class: the figure "
                    "would be each player's own)."
                )
                continue
            lines.append(
                f"{who}: {_won(won_b, played_b)} in {before}, "
                f"then {_won(won_a, played_a, then=True)}{where} in {after}."
            )
    if not lines and moved_between:
        # Said apart: the moves counted below are every seat's, bots' too.
        lines = [
            "No person played both the round before a movement and the one after it "
            "(bots, and players who left, are left out)."
        ]
    elif not lines:
        lines = [
            "Nobody played a round at a new table: no movement came between two scored rounds."
        ]
    else:
        lines.append(
            "Counted: people who played both rounds; bots, and players who left, are left out."
        )
    return lines + _name_tie_lines(doc, ix)


def _name_tie_lines(doc: dict, ix: Index) -> list[str]:
    """How many of the moves the name decided among equal games won (see name_ties):
    each of those players hears in the debrief that they won or lost, where their
    place in the alphabet did it."""
    ties = ix.ties
    rounds = [r for r in doc["rounds"] if r["number"] in ties]
    moves = [(r["number"], m["player"]) for r in rounds for m in r["moves"]]
    if not moves:
        return []
    by_name = sum(1 for rn, pid in moves if pid in ties[rn])
    stayed = sum(len(ties[r["number"]]) for r in rounds) - by_name
    if not by_name:
        line = (
            f"None of the {_plural(len(moves), 'move')} was decided by name among equal games won"
        )
    else:
        line = (
            f"{by_name} of {_plural(len(moves), 'move')} {_were(by_name)} decided by name among "
            "equal games won: the player who moved had won as many games as one who stayed, or "
            "who moved the other way (ties go in alphabetical order)"
        )
    if stayed:
        # Counted over every movement: "13 players" of a class of 12 read as wrong.
        line += f"; {_plural(stayed, 'stay')} {_were(stayed)} decided by name too"
    return [line + "."]


def _judged(clashes: int, tricks: int) -> str:
    """What comes before "judged differently", none said in words as section 4 of Five
    Tricks says it: "3 of 19 tricks were", "None of the 19 tricks was", "The one trick
    was not", "No trick was played to the end, so none was" (it read "0 of 19 tricks
    were")."""
    if clashes:
        return f"{clashes} of {_plural(tricks, 'trick')} {_were(clashes)}"
    if not tricks:
        return "No trick was played to the end, so none was"
    return "The one trick was not" if tricks == 1 else f"None of the {tricks} tricks was"


def _by_newcomers(n: int, of: int) -> str:
    """ " (2 by newcomers)", " (all by newcomers)", " (by a newcomer)"; "" for none (it
    read " (0 by newcomers)")."""
    if not n:
        return ""
    return (
        f" ({'by a newcomer' if of == 1 else 'all by newcomers'})"
        if n == of
        else f" ({n} by newcomers)"
    )


def _called(revokes: int, upheld: int, unnoticed: int, never: str) -> str:
    """How many revokes were called, only counts above nought: "1 called and 3 never
    called", "none called", "both called" (it read "0 called, 3 never called")."""
    if not unnoticed:
        return {1: "called", 2: "both called"}.get(revokes, "all called")
    if not upheld:
        return never if revokes == 1 else "none called"
    return f"{upheld} called and {unnoticed} {never}"


def _revoke_lines(rv: dict) -> list[str]:
    t = rv["totals"]
    judged = (
        f"{_judged(t['clashes'], t['tricks'])} judged "
        f"differently by the players' {rv.get('sheets', 'own')} sheets"
    )
    # What counts as judged differently, where not every sheet difference can (7Up).
    counted = [rv["counted"]] if rv.get("counted") else []
    if rv.get("referee"):
        # The table's sheet refused any card it forbids: no revoke, nothing to call.
        return [
            f"{judged}: the table's sheet decided each (referee mode), so nobody could "
            "play a card it forbids or call a revoke. Ask who noticed a trick go the "
            "way they did not expect.",
            *counted,
        ]
    if rv.get("table_decides"):
        # 7Up7Down: everyone plays by the table's sheet, but learned their home table's.
        return [
            f"{judged}: the table's sheet decided each, and each player had learned "
            "their home table's. Ask who noticed a trick go the way they did not expect.",
            *counted,
        ]
    lines = [
        f"{_plural(t['revokes'], 'card')} broke the sheet of the table {'it was' if t['revokes'] == 1 else 'they were'} "
        f"played at{_by_newcomers(t['by_newcomers'], t['revokes'])}: "
        f"{_called(t['revokes'], t['upheld'], t['unnoticed'], 'never called')}."
        if t["revokes"]
        else "No card broke the sheet of the table it was played at."
    ]
    if t["refused"]:
        lines.append(
            f"{_plural(t['refused'], 'call')} named a card the table's sheet allows"
            f"{_by_newcomers(t['refused_by_newcomers'], t['refused'])}: a wrong guess about the player's "
            "hand, or a caller who expected other rules."
        )
    lines.append(f"{judged} (the table's sheet decided each).")
    return lines


def _most_used(used: list[dict], count: str) -> str:
    """The three gestures most used, by their `count`, listed with "and": "question
    (2), stop (1) and drawing (1)" (it read "question (2), stop (1), drawing (1)")."""
    top = sorted(used, key=lambda k: -k[count])[:3]
    return said_as_list([f"{k['label'].lower()} ({k[count]})" for k in top])


def kind_guide(
    doc: dict,
    ix: Index,
    rev: dict,
    mov: dict,
    res: list[dict],
    cl: dict,
    players: list[dict],
    rv: dict | None = None,
    rf: dict | None = None,
    *,
    named: bool = True,
) -> list[dict]:
    """The debrief questions for a game without claims: the figures are sheets, scores,
    movement and gestures. Not `named`: the class's view (see for_the_class)."""
    title = ix.kind.title
    expect = _expect_lines(
        rev,
        mov,
        f"{_plural(len(rev['tables']), 'table')} played {title} by "
        f"{_plural(rev['distinct_sheets'], 'different sheet')}.",
    )
    if rv:
        # All Fives: a revoke call is the moment someone saw a card break their rules.
        notice = _revoke_lines(rv)
        if rf:  # referee mode: the table's sheet refused those cards instead
            notice += _refusal_lines(rf, named=named)
    elif rf:
        # A move the table's rules refused: the moment a rule met someone who never saw it.
        notice = _refusal_lines(rf, named=named)
    else:
        notice = [
            f"{title} has no claims: nothing records the moment a rule clashed, so ask for it."
        ]
    for rd in res:
        if not rd["scored"]:
            continue
        played = sum(t["games_played"] for t in rd["tables"])
        cut = sum(t["games_cut"] for t in rd["tables"])
        left = sum(t["games_cut_by_leaving"] for t in rd["tables"])
        notice.append(
            f"{rd['label']}: {_plural(played, 'game')} at "
            f"{_plural(sum(1 for t in rd['tables'] if t['games_played']), 'table')}"
            + _cut_words(cut - left, left)
        )
    g = cl["gestures"]
    feel = [
        f"{_plural(g['total'], 'gesture or drawing', 'gestures and drawings')} "
        f"{_were(g['total'])} made{_drawn_words(g)}."
    ]
    if g["used"]:
        feel.append(f"Most used: {_most_used(g['used'], 'total')}.")
    act = []
    for rd in res:
        if not rd["scored"]:
            continue
        for t in rd["tables"]:
            # A table of bots alone is nobody's to talk about.
            if all(ix.players.get(x["id"], {}).get("is_bot") for x in t["players"]):
                continue
            if t["bottom"] and named:  # (one ranked alone: no most and fewest to talk of)
                act.append(
                    f"{rd['label']}, table {t['table']}: {_names_text(t['top'])} won most games "
                    f"({t['best']}); {_names_text(t['bottom'])} fewest ({t['worst']})."
                )
        if not named:
            act += _winners_line(rd, ix)
    return _questions(
        {
            "expect": expect,
            "notice": notice,
            "feel": feel,
            "act": act,
            "moved": _moved_lines(doc, ix, named=named),
            "outside": _movers_lines(players),
        },
        feel="How did it feel when the others played by rules you did not know?",
        # (Referee All Fives: its refusals are in the clashes' section too.)
        notice_section=("clashes" if rv.get("table_decides") else "revokes")
        if rv
        else ("refusals" if rf else "results"),
        act_section="results",
    )


def _winners_line(rd: dict, ix: Index) -> list[str]:
    """The class's words for a scored round's most and fewest games won at each table:
    how many of the people who played won a game, nobody named (ranked players: one
    who left during the round played on as a bot, not as themself)."""
    people = [
        x
        for t in rd["tables"]
        for x in t["players"]
        if x["games_played"] and not x["unranked"] and not ix.players.get(x["id"], {}).get("is_bot")
    ]
    if not rd["scored"] or not people:
        return []
    won = sum(1 for x in people if x["games_won"])
    return [
        f"{rd['label']}: {won} of the {_plural(len(people), 'player')} who played won "
        "at least one game."
    ]


ADAPTED_NAMED = 3  # names in "Adapted most", unless more share the most changes
ADAPTED_TIED_NAMED = 8  # names listed when more than ADAPTED_NAMED share the most


def _adapters(players: list[dict]) -> list[dict]:
    """The people who adapted, most changes first, then by name as movement sorts
    names (accents and case aside: "Émile" before "emma")."""
    return sorted(
        (p for p in players if p["adapted"] and not p["bot"] and not p["left"]),
        key=lambda p: (-p["adapted"], name_sort_key(p["name"])),
    )


def _adapted_most(adapters: list[dict]) -> str:
    """ "Adapted most: …" for players sorted by changes made, most first. Players with
    as many changes are named together or not at all (cutting a tie at three named
    whoever came first in the alphabet)."""
    groups = [list(g) for _, g in groupby(adapters, key=lambda p: p["adapted"])]
    top = groups[0]
    if len(top) > ADAPTED_NAMED:
        names = [p["name"] for p in top[:ADAPTED_TIED_NAMED]]
        if len(top) > ADAPTED_TIED_NAMED:
            names.append(_plural(len(top) - ADAPTED_TIED_NAMED, "other"))
        changes = _plural(top[0]["adapted"], "change")
        said = f"Adapted most: {len(top)} players, {changes} each: {_names_text(names)}"
        return said + full_stop(said)
    named = []
    for group in groups:
        if len(named) + len(group) > ADAPTED_NAMED:
            break
        named += group
    return "Adapted most: " + _names_text([f"{p['name']} ({p['adapted']})" for p in named]) + "."


# The guide's words for how the disputes ended, in _endings_line's order.
ENDINGS_GUIDE = {
    "changed": "settled by a changed claim",
    "timeout": "decided by the time limit",
    "cut": "cut short by the end of a round",
    "left": "cut short when a player left",
    "open": "still open",
}


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _adapted_held_line(adapted: int, held: int, why: str = "") -> str:
    """How often the players changed their claim in a dispute and how often they held
    it (`why`: held until what), as a person says it: "Players never adapted (changed
    their claim) and held their claim 8 times (8 until the round ended)." It read
    "adapted (changed their claim) 0 times", and "1 times"."""
    said = (
        f"Players adapted (changed their claim) {_times(adapted)}"
        if adapted
        else "Players never adapted (changed their claim)"
    )
    said += f" and held their claim {_times(held)}{why}" if held else " and never held their claim"
    return said + "."


def _endings_line(oc: dict) -> str:
    """How the disputes ended, as a person says it: "4 disputes: 2 settled by a changed
    claim, 1 decided by the time limit and 1 cut short by the end of a round.", "Both
    disputes were cut short by the end of a round." (it read "2 disputes: 0 settled by a changed claim,
    0 by the time limit, 2 cut by the end of a round"). Where the endings are mixed, a
    dispute's ending the question asks about (settled, timed out) that none had is said."""
    total = sum(oc.values())
    if not total:
        return "There was no dispute."
    ended = [(oc[k], words) for k, words in ENDINGS_GUIDE.items() if oc.get(k)]
    missing = [
        words for k, words in ENDINGS_GUIDE.items() if k in ("changed", "timeout") and not oc.get(k)
    ]
    if len(ended) == 1:
        words = ended[0][1]
        # An open dispute is still open now: "is", not "was".
        now = oc.get("open")
        line = (
            f"The one dispute {'is' if now else 'was'} {words}"
            if total == 1
            else f"{'Both' if total == 2 else f'All {total}'} disputes {'are' if now else 'were'} {words}"
        )
    else:
        line = f"{_plural(total, 'dispute')}: " + said_as_list([f"{n} {w}" for n, w in ended])
    if missing and len(ended) > 1:
        line += "; none was " + " or ".join(missing)
    return line + "."


# Whose verdict won a dispute, by how many sheets backed it (`support`) and whose
# sheets they were (`origins`), in the order the guide says them.
SUPPORT_SAID = {
    "majority": "the verdict of most players' sheets at the table",
    "minority": "the verdict of fewer sheets",
    "tie": "one of two verdicts with equally many sheets",
    "none": "a verdict no player's sheet gave",
}
ORIGINS_SAID = {
    "local": "by the locals' sheet alone",
    "newcomer": "by a newcomer's sheet alone",
    "shared": "by both the locals' and a newcomer's",
    "none": "by no player's sheet",
}


def _in_how_many(n: int, total: int) -> str:
    """ "in 2", or of every one of `total` disputes "in both", "in all 3" (of one, "")."""
    if n == total:
        return "" if total == 1 else " in both" if total == 2 else f" in all {total}"
    return f" in {n}"


def _backed_line(support: dict, decided: int) -> str:
    """How many sheets backed the winning verdicts of the `decided` disputes with a
    winner, the counts that are not nought listed with "and": "Of 3 disputes with a
    winner, the winner was the verdict of most players' sheets at the table in 2 and
    the verdict of fewer sheets in 1." (the guide's line and section 4's)."""
    lead = (
        "In the one dispute with a winner, the winner was "
        if decided == 1
        else f"Of {decided} disputes with a winner, the winner was "
    )
    backed = [
        f"{words}{_in_how_many(support[k], decided)}"
        for k, words in SUPPORT_SAID.items()
        if support.get(k)
    ]
    return lead + said_as_list(backed) + "."


def _named_by(origins: dict) -> str:
    """Whose sheets named the winners, the counts that are not nought listed with
    "and": "by the locals' sheet alone in 2 and by a newcomer's sheet alone in 1"."""
    decided = sum(origins.values())
    return said_as_list(
        [
            f"{words}{_in_how_many(origins[k], decided)}"
            for k, words in ORIGINS_SAID.items()
            if origins.get(k)
        ]
    )


def winners_sheets_said(support: dict, origins: dict) -> list[str]:
    """Section 4's two lines on the disputes with a winner, in the guide's words
    (without the locals outnumbered, which the guide asks about). They read "… of
    fewer sheets in 0, one of two verdicts with equally many sheets in 0" and "by
    no sheet in 0"."""
    decided = sum(origins.values())
    if not decided:
        return []
    return [_backed_line(support, decided), f"The winner was named {_named_by(origins)}."]


def _whose_sheet_lines(support: dict, origins: dict, outnumbered: int, alone: int) -> list[str]:
    """The guide's two lines on whose verdict won the disputes with a winner, as a
    person says them: the counts that are not nought, listed with "and" ("Of 3
    disputes with a winner, the winner was the verdict of most players' sheets at the
    table in 2 and the verdict of fewer sheets in 1."). They read "… and in 0 one of
    two verdicts with equally many sheets" and "outnumbered by newcomers in 0 of them"."""
    decided = sum(origins.values())
    # Read alone, "the locals' sheet prevailed in 13, a newcomer's in 23" told of
    # newcomers imposing their rules, where the locals were mostly one among
    # newcomers: what won is how many sheets backed a verdict, said first.
    first = _backed_line(support, decided)
    if decided == 1:
        locals_said = (
            "There the locals were " + ("" if outnumbered else "not ") + "outnumbered by newcomers"
        )
        locals_said += " (a lone local)" if alone else ""
    else:
        locals_said = "The locals were outnumbered by newcomers " + (
            "in none of them"
            if not outnumbered
            else ("in both" if decided == 2 else "in all of them")
            if outnumbered == decided
            else f"in {outnumbered} of them"
        )
        if alone:
            locals_said += f" (a lone local in {alone})"
    return [first, f"{locals_said}: the winner was named {_named_by(origins)}."]


def _same_tricks(tricks: int) -> str:
    return (
        "the one trick" if tricks == 1 else "both tricks" if tricks == 2 else f"all {tricks} tricks"
    )


def _clashes_said(clashes_n: int, tricks: int, unawarded: list[dict]) -> str:
    """A round's clashes among its tricks, as a person says them ("the sheets at the
    table disagreed on 3 of 40 tricks", "agreed on both tricks"), and the disputes that
    awarded no trick, which no count of tricks holds: "… agreed on both tricks played
    to the end; one dispute, on a trick the sheets judged differently, was cut short
    before a winner was given". It read "disagreed on 0 of 4 tricks" beside them."""
    played = " played to the end" if unawarded else ""
    if not tricks:
        said = "no trick was played to the end"
    elif not clashes_n:
        said = f"the sheets at the table agreed on {_same_tricks(tricks)}{played}"
    elif clashes_n == tricks:
        said = f"the sheets at the table disagreed on {_same_tricks(tricks)}{played}"
    else:
        said = f"the sheets at the table disagreed on {clashes_n} of {_plural(tricks, 'trick')}{played}"
    for now, ended in ((False, ("cut", "left")), (True, ("open",))):
        these = [d for d in unawarded if d["outcome"] in ended]
        if not these:
            continue
        n = len(these)
        # Its seats' own sheets, from the trick's cards: a dispute may also come of a
        # claim against one's own sheet.
        differ = sum(1 for d in these if len({x["verdict"] for x in d["seats"]} - {None}) > 1)
        what = "one dispute" if n == 1 else f"{n} disputes"
        if differ == n:
            what += (
                ", on a trick the sheets judged differently,"
                if n == 1
                else (", on tricks the sheets judged differently,")
            )
        verb = ("is" if n == 1 else "are") if now else ("was" if n == 1 else "were")
        said += f"; {what} {verb} " + (
            "still open" if now else "cut short before a winner was given"
        )
        if 0 < differ < n:
            said += f" ({differ} on {'a trick' if differ == 1 else 'tricks'} the sheets judged differently)"
    return said


def guide(
    doc: dict,
    ix: Index,
    rev: dict,
    mov: dict,
    cl: dict,
    players: list[dict],
    rf: dict | None = None,
    *,
    named: bool = True,
) -> list[dict]:
    """Questions for the facilitator, each with the figures that illustrate it. Not
    `named`: the class's view, whose figures name nobody (see for_the_class)."""
    disputes = cl["disputes"]
    referee = ix.referee
    expect = _expect_lines(
        rev,
        mov,
        f"{_plural(len(rev['tables']), 'table')} played "
        f"{_plural(rev['distinct_sheets'], 'different sheet')}.",
    )

    notice = []
    scored = [r for r in doc["rounds"] if r["kind"] == "scored"]
    for r in scored:
        first = next((d for d in disputes if d["round"] == r["number"]), None)
        cells = [c for t in cl["by_table_round"] for c in t["rounds"] if c["round"] == r["number"]]
        tricks = sum(c["tricks"] for c in cells)
        clashes_n = sum(c["clashes"] for c in cells)
        # A dispute cut short (or still open) awarded no trick: it is in no count of
        # tricks or clashes, so said apart (bots' disputes cut by the round's end read
        # "disagreed on 0 of 4 tricks" beside them).
        unawarded = [d for d in disputes if d["round"] == r["number"] and d["outcome"] in UNAWARDED]
        line = f"{r['label']}: " + _clashes_said(clashes_n, tricks, unawarded)
        # Everyone at their home table (Round 1 always): one sheet per table, so no
        # clash is no finding; said so rather than "0 of 100 tricks".
        played_r = [g for g in ix.games if g["round"] == r["number"]]
        at_home = (
            not clashes_n
            and bool(played_r)
            and all(ix.home(pid) == g["table"] for g in played_r for pid in g["players"])
        )
        if at_home:
            line = (
                f"{r['label']} was played at the home tables, where everyone shares the "
                f"table's sheet: nothing to notice yet ({_plural(tricks, 'trick')})"
            )
        if at_home and (referee or first is None):
            line += "."
        elif referee:
            line += "; the table's sheet decided each (referee mode)."
        elif first is not None:
            line += (
                f"; the first dispute came {_into_round(first['since_round_start'])}, "
                f"at table {first['table']}."
            )
        else:
            line += "; there was no dispute."
        notice.append(line)
    if rf:  # referee mode: the table's sheet refused the cards it forbids
        notice += _refusal_lines(rf, named=named)
    # A clash with no dispute was agreed, or its claims ran out of time before everyone
    # had claimed (no dispute opens then): only the first is agreement.
    quiet = Counter(c["outcome"] for c in cl["clash_tricks"] if not c["disputed"])
    agreed = quiet["agreed"] + quiet["changed"]
    if cl["clash_count"] and not referee:  # in referee mode nobody claims: no disputes
        of_all = f"of {_plural(cl['clash_count'], 'clash', 'clashes')}"
        if agreed:
            notice.append(
                f"{agreed} {of_all} passed without a dispute: "
                "the players agreed although their sheets did not."
            )
        if quiet["timeout"]:
            notice.append(
                f"{quiet['timeout']} {of_all} {_were(quiet['timeout'])} decided when the time "
                "to claim ran out before everyone had claimed: no agreement, and no dispute."
            )
        if not agreed and not quiet["timeout"]:
            n = cl["clash_count"]
            notice.append(
                "The one clash became a dispute."
                if n == 1
                else f"Every one of the {n} clashes became a dispute."
            )

    g = cl["gestures"]
    feel = []
    in_disputes = [k for k in g["kinds"] if k["in_dispute"]]
    if in_disputes:
        feel.append(f"Most used during disputes: {_most_used(in_disputes, 'in_dispute')}.")
    if g["total"] and referee:
        feel.append(
            f"{_plural(g['total'], 'gesture or drawing', 'gestures and drawings')} {_were(g['total'])} made{_drawn_words(g)}."
        )
    elif g["total"]:
        feel.append(
            f"{g['in_dispute']} of {_plural(g['total'], 'gesture or drawing', 'gestures and drawings')} "
            f"{_were(g['in_dispute'])} made during disputes{_drawn_words(g)}."
        )
    else:
        feel.append(
            "No gestures or drawings were made: ask how the players made themselves understood."
        )
    oc = cl["outcome_counts"]
    if oc.get("timeout"):
        feel.append(f"{_plural(oc['timeout'], 'dispute')} ran out of time without agreement.")
    if cl["duration"]["count"]:
        # In seconds, as the disputes' section says it ("median 12.3 s").
        feel.append(
            f"A dispute lasted {_lasted(cl['duration']['median'])} (median), the longest "
            f"{_lasted(cl['duration']['max'])}."
        )

    act = [
        "Referee mode: nobody claimed, the table's sheet decided every trick. Ask what the "
        "players did when it went against their own sheet."
        if referee
        else _endings_line(oc)
    ]
    adapted = sum(p["adapted"] for p in players)
    held = sum(p["held"] for p in players)
    if adapted or held:
        # Holding a claim is not stubbornness when it is the claim that won: say which.
        # Without a winner: cut short ("cut", "left") or still open.
        kept = Counter(
            d["outcome"] if d["winner_seat"] is None else "won" if s["initial_won"] else "lost"
            for d in disputes
            for s in d["seats"]
            if not s["adapted"]
        )
        why = [
            f"{kept['won']} the claim that won" if kept["won"] else "",
            f"{kept['lost']} outvoted when time ran out" if kept["lost"] else "",
            f"{kept['cut']} until the round ended" if kept["cut"] else "",
            f"{kept['left']} until a player left" if kept["left"] else "",
            f"{kept['open']} in a dispute still open" if kept["open"] else "",
        ]
        why_text = f" ({'; '.join(w for w in why if w)})" if held else ""
        act.append(_adapted_held_line(adapted, held, why_text))
    # People, not the bots: the class talks about its own. Nor someone who left: a bot
    # played on for them, and the log does not say which claims were theirs.
    adapters = _adapters(players)
    if adapters and named:
        act.append(_adapted_most(adapters))
    elif adapters:
        # The class's words: how many adapted, not who adapted most.
        disputed = [p for p in players if p["disputes"] and not p["bot"] and not p["left"]]
        act.append(
            f"{len(adapters)} of the {_plural(len(disputed), 'player')} in a dispute "
            "adapted at least once."
        )

    outside = []
    o = cl["origins"]
    decided = sum(o.values())
    if decided:
        won = [d for d in disputes if d["origin"] in ORIGINS]
        locals_n = [sum(1 for x in d["seats"] if x["local"]) for d in won]
        outnumbered = sum(1 for d, n in zip(won, locals_n, strict=True) if n < len(d["seats"]) - n)
        alone = sum(1 for d, n in zip(won, locals_n, strict=True) if n == 1 < len(d["seats"]))
        outside += _whose_sheet_lines(cl["support"], o, outnumbered, alone)
    outside += _movers_lines(players)
    return _questions(
        {
            "expect": expect,
            "notice": notice,
            "feel": feel,
            "act": act,
            "moved": _moved_lines(doc, ix, named=named),
            "outside": outside,
        },
        feel="How did it feel when the others saw the trick differently?",
        notice_section="clashes",
        # Referee mode has no disputes (nor their section): what was done shows in the results.
        act_section="results" if ix.referee else "disputes",
    )


# ---------------------------------------------------------------- the whole report


# A large class's report folds its longest parts, each printed only when opened on
# screen first (a line says so): past FOLD_PLAYERS players the per-player rows after
# the first twenty; past FOLD_TABLES tables each round's results table by table (a
# line per round stays in view), each round's seating, the movement chart (its
# alt text stays in view) and the list of moves, the rule sheets, and section 4's
# table per table and round (clashes_summary in view; in the other games
# revokes_summary, refusals_summary); in the class's view its tables of counts per
# table (seating_summary, round_summary in view). At 200 players
# (40 tables) the report drawn open was 60,000 px tall on a laptop, 115,000 on a phone.
# Past FOLD_ROWS rows the lists of every dispute and of every clash, one by one, fold
# too (195 disputes were 30,000 px); a small class's few stay open to read.
# The template tag `fold` (templatetags/facilitator.py) draws each fold.
FOLD_PLAYERS = 60
FOLD_TABLES = 12
FOLD_ROWS = 20


def listed(lead: str, items: list[str], after: str | list[str] = "") -> dict:
    """A summary that is a list, round by round (or rule by rule): on the page a short
    `lead` sentence, a list of `items` and the sentence `after` it (40 tables over six
    rounds made one sentence 14 lines of a phone), or the short sentences, a
    paragraph each (`after_paragraphs`; `after`, them in one); `line`, the same words
    in one sentence, where one line is wanted (the guide's bullets). With no `items`,
    the lead is a sentence of its own, no list after it."""
    paragraphs = [p.strip() for p in ([after] if isinstance(after, str) else after)]
    paragraphs = [p for p in paragraphs if p]
    after = " ".join(paragraphs)
    line = f"{lead} {'; '.join(items)}." if items else lead
    return {
        "lead": lead,
        "items": items,
        "after": after,
        "after_paragraphs": paragraphs,
        "line": f"{line} {after}".strip(),
    }


def round_summary(rd: dict, *, disputes: bool) -> dict:
    """A round's results (`listed`), for the report of a large class that folds them
    table by table: the class view's totals (the "All tables" row, the moves after):
    "40 tables, 200 players:", then "120 games (3 cut short)", "45 disputes", "moves
    after it: 80 up, 80 down, 40 stayed", then what decided them. In one sentence it
    was six lines of a phone. One thing said (a round still being played): a sentence."""
    counts = _round_counts(rd)
    total = counts["total"]
    lead = f"{_plural(len(counts['tables']), 'table')}, {_plural(total['players'], 'player')}:"
    games = _plural(total["games_played"], "game")
    if total["games_cut"] and total["games_cut"] == total["games_played"]:
        # "1 game (1 cut short)" said the one game twice; as the tables' captions say it.
        games += f", {({1: '', 2: 'both '}).get(total['games_cut'], 'all ')}cut short"
    elif total["games_cut"]:
        games += f" ({total['games_cut']} cut short)"
    parts = [games]
    if disputes:
        parts.append(_none_or_plural(total["disputes"], "dispute"))
    after = ""
    if rd["moved"]:
        parts.append(
            f"moves after it: {total['up'] or 'none'} up, {total['down'] or 'none'} down,"
            f" {total['stayed'] or 'none'} stayed"
        )
        if total["left"]:
            parts.append(f"{total['left']} left the workshop")
        after = _after_notes(total)
    elif rd["last"]:
        after = "The last round: nobody moves after it."
    elif rd["scored"] and rd["finished"]:
        after = "Movement was not applied after this round."
    if len(parts) == 1:
        return listed(f"{lead} {parts[0]}.", [], after)
    return listed(lead, parts, after)


def _after_notes(total: dict) -> str:
    """What decided a round's moves and stays, as a sentence ("" if nothing did): the
    name among equal games won, the facilitator."""
    notes = []
    if total["by_name"]:
        notes.append(
            f"{total['by_name']} of these moves or stays {'was' if total['by_name'] == 1 else 'were'}"
            " decided by name among equal games won"
        )
    if total["changed"]:
        notes.append(
            f"{total['changed']} {'was' if total['changed'] == 1 else 'were'} changed by the"
            " facilitator"
        )
    return f"{'; '.join(notes)}." if notes else ""


def clashes_summary(cl: dict, *, disputes: bool) -> dict:
    """Section 4's table of tricks, clashes and disputes per table and round, a line a
    round (`listed`),
    for the report of a large class that folds it: each round's totals, and where a
    table had the most in a round. Home play shows no clash (one sheet a table); the
    rounds after movement show how many the newcomers brought."""
    tables, rounds = cl["by_table_round"], cl["rounds"]
    parts = []
    for i, rd in enumerate(rounds):
        cells = [t["rounds"][i] for t in tables]
        tricks = sum(c["tricks"] for c in cells)
        clashes = sum(c["clashes"] for c in cells)
        # None said in words, as the table it sums up says them ("0 clashes in 19
        # tricks, 0 disputes" was a line of noughts at every table's first round).
        if not tricks:
            part = f"{rd['label']}, no trick played to the end"
        elif not clashes:
            part = f"{rd['label']}, no clash in {_plural(tricks, 'trick')}"
        else:
            part = f"{rd['label']}, {_plural(clashes, 'clash', 'clashes')} in {_plural(tricks, 'trick')}"
        if disputes:
            part += f", {_none_or_plural(sum(c['disputes'] for c in cells), 'dispute')}"
            if timeouts := sum(c["timeouts"] for c in cells):
                part += f" ({timeouts} timed out)"
        if cut := sum(c["cut"] for c in cells):
            part += f", {_plural(cut, 'claim step')} cut short with no trick"
        parts.append(part)
    what = "disputes" if disputes else "clashes"
    cells = [
        (t["table"], rd["label"], t["rounds"][i][what])
        for t in tables
        for i, rd in enumerate(rounds)
    ]
    return listed(
        f"{_plural(len(tables), 'table')}, round by round:", parts, _the_most(cells, what)
    )


def _the_most(cells: list[tuple[int, str, int]], what: str) -> str:
    """ " The most disputes at one table in a round: 3, at table 2 in Round 2.": the
    largest of the (table, round label, count) cells and where, round by round in the
    rounds' order: up to three places named ("at table 2 in Round 1 and tables 5 and 9
    in Round 2": each round said once), more counted ("1, at 6 tables in Round 1 and 8
    tables in Round 2": "1, 14 times" did not say of what); "" where every count is 0."""
    top = max((n for *_, n in cells), default=0)
    if not top:
        return ""
    rounds = dict.fromkeys(label for _table, label, _n in cells)  # the rounds' order
    at: dict[str, list[int]] = {label: [] for label in rounds}
    for table, label, n in cells:
        if n == top:
            at[label].append(table)
    named = sum(map(len, at.values())) <= 3
    where = [
        (
            f"table{'s' * (len(tables) > 1)} {said_as_list([str(t) for t in sorted(tables)])}"
            if named
            else _plural(len(tables), "table")
        )
        + f" in {label}"
        for label, tables in at.items()
        if tables
    ]
    return f" The most {what} at one table in a round: {top}, at {said_as_list(where)}."


def _by_round(rows: list[dict]) -> dict[str, list[dict]]:
    """Section 4's rows per round and table (revokes, refusals), by round label, in
    the rounds' order."""
    out: dict[str, list[dict]] = {}
    for row in rows:
        out.setdefault(row["round"], []).append(row)
    return out


def revokes_summary(rv: dict) -> dict:
    """Section 4's table of revokes and calls per round and table (All Fives), or of
    the tricks judged differently (`table_decides`: 7Up7Down, referee mode), a line a
    round (`listed`),
    for the report of a large class that folds it: each round's totals over the
    tables, and where a table had the most revokes (tricks judged differently) in a
    round."""
    rows = rv["rows"]
    parts = []
    for label, in_round in _by_round(rows).items():
        n = {k: sum(r[k] for r in in_round) for k in rv["totals"]}
        # None said in words, as Five Tricks' line says "no clash in 19 tricks".
        if n["clashes"]:
            part = f"{label}, {n['clashes']} of {_plural(n['tricks'], 'trick')} judged differently"
        elif n["tricks"] == 1:
            part = f"{label}, 1 trick, not judged differently"
        elif n["tricks"]:
            part = f"{label}, none of {n['tricks']} tricks judged differently"
        else:
            part = f"{label}, no trick played to the end"
        if not rv["table_decides"] and n["revokes"]:
            # Only counts above nought ("(0 by newcomers): 1 called, 0 not called").
            part += (
                f", {_plural(n['revokes'], 'revoke')}"
                f"{_by_newcomers(n['by_newcomers'], n['revokes'])}:"
                f" {_called(n['revokes'], n['upheld'], n['unnoticed'], 'not called')}"
            )
            if n["refused"]:
                part += f", {_plural(n['refused'], 'call')} refused"
        elif not rv["table_decides"]:
            # ("0 revokes (0 by newcomers): 0 called, 0 not called" said nothing thrice.)
            part += ", no revokes"
            if n["refused"]:
                part += f", {_plural(n['refused'], 'call')} refused"
        parts.append(part)
    tables = len({r["table"] for r in rows})
    what, key = (
        ("tricks judged differently", "clashes") if rv["table_decides"] else ("revokes", "revokes")
    )
    most = _the_most([(r["table"], r["round"], r[key]) for r in rows], what)
    return listed(f"{_plural(tables, 'table')}, round by round:", parts, most)


def refusals_summary(rows: list[dict], *, by_whom: bool) -> dict:
    """Section 4's table of refused moves per round and table, a line a round (`listed`),
    for the report
    of a large class that folds it: each round's refusals over the tables (`by_whom`:
    how many by newcomers and by locals, which the class's view leaves out), and
    where a table had the most in a round."""
    parts = []
    for label, in_round in _by_round(rows).items():
        part = f"{label}, {_none_or_plural(sum(r['refused'] for r in in_round), 'move')} refused"
        if by_whom and (
            by := _refused_by(
                sum(r["by_newcomers"] for r in in_round), sum(r["by_locals"] for r in in_round)
            )
        ):
            part += f" ({by})"
        parts.append(part)
    tables = len({r["table"] for r in rows})
    most = _the_most([(r["table"], r["round"], r["refused"]) for r in rows], "refused moves")
    return listed(f"{_plural(tables, 'table')}, round by round:", parts, most)


def build_report(doc: dict, *, gesture_palette=None, names: bool = True) -> dict:
    """Every figure of the debrief report, from one export document; without `names`,
    the class's view of it (for_the_class)."""
    ix = Index(doc)
    rev = reveal(doc)
    mov = movement(doc, ix)
    res = results(doc, ix)
    disputes = dispute_rows(doc, ix)
    cl = clashes(doc, ix, disputes, gesture_palette)
    rv = None if ix.claims else revokes(doc, ix)
    rf = refusals(doc, ix)
    players = _players(doc, ix, mov, disputes, cl["gestures"], rv, rf)
    for rd in res:
        rd["summary"] = round_summary(rd, disputes=ix.claims and not ix.referee)
    if ix.claims:
        cl["summary"] = clashes_summary(cl, disputes=not ix.referee)
    if rv:
        rv["summary"] = revokes_summary(rv)
        rv["tables"] = len({row["table"] for row in rv["rows"]})
    if rf:
        rf["summary"] = refusals_summary(rf["rows"], by_whom=True)
        rf["tables"] = len({row["table"] for row in rf["rows"]})
    if ix.claims:
        questions = guide(doc, ix, rev, mov, cl, players, rf, named=names)
    else:
        questions = kind_guide(doc, ix, rev, mov, res, cl, players, rv, rf, named=names)
    rep = {
        "workshop": doc["workshop"],
        "game": ix.kind.key,
        "game_title": ix.kind.title,
        # Five Tricks' claims make clashes and disputes; no other game has them.
        "claims": ix.claims,
        "referee": ix.referee,
        # Past this many players the report folds its per-player rows (FOLD_PLAYERS);
        # with more than FOLD_TABLES tables, its long parts (`folded`).
        "fold_players_past": FOLD_PLAYERS,
        # Past this many, the list of every dispute, or of every clash, folds (FOLD_ROWS).
        "fold_rows_past": FOLD_ROWS,
        "folded": len(ix.tables) > FOLD_TABLES,
        # Claims and disputes: Five Tricks, not in referee mode (the table's sheet
        # decides each trick; nobody claims, so nobody disputes or adapts).
        "disputes": ix.claims and not ix.referee,
        "score_label": ix.kind.score_label,
        "schema": doc["schema"],
        "exported_at": doc.get("exported_at"),
        # When the class played: its first round's start (the workshop's creation if none).
        "played_on": min(
            (t for r in doc["rounds"] if (t := parse_time(r.get("started_at")))),
            default=parse_time((doc.get("workshop") or {}).get("created_at")),
        ),
        "built_at": parse_time(doc.get("exported_at")),
        "counts": {
            "players": sum(1 for p in doc["players"] if not p["is_bot"]),
            "bots": sum(1 for p in doc["players"] if p["is_bot"]),
            "rounds": sum(1 for r in doc["rounds"] if r["kind"] == "scored"),
            "games": len(ix.games),
            # Beside "6 scored rounds": how many of the games were in them.
            "scored_games": sum(
                1 for g in ix.games if (ix.rounds.get(g["round"]) or {}).get("kind") == "scored"
            ),
            "tricks": cl["tricks"],
            "clashes": cl["clash_count"],
            "disputes": cl["dispute_count"],
            # Cut short (a round's end, a player leaving): no trick completed, so no
            # clash counted for it.
            "disputes_unfinished": cl["outcome_counts"]["cut"] + cl["outcome_counts"]["left"],
            "disputes_cut_by_leaving": cl["outcome_counts"]["left"],
            # A report read mid-round: disputes not yet ended (the summary says so).
            "disputes_open": cl["outcome_counts"]["open"],
            "gestures": cl["gestures"]["total"],
            "left": sum(1 for p in doc["players"] if p["has_left"]),
            # Players who left and came back with their PIN (the per-player note).
            "came_back": sum(1 for p in doc["players"] if p.get("absences")),
            # Removed by the facilitator, then let back in (`players[].let_in_at`).
            "let_back_in": sum(1 for p in doc["players"] if p.get("let_in_at")),
        },
        "reveal": rev,
        "movement": mov,
        "results": res,
        "clashes": cl,
        # All Fives: the cards that broke a table's sheet and the calls on them.
        "revokes": rv,
        # Where the table's rules decide legality: the moves they refused.
        "refusals": rf,
        "players": players,
        "guide": questions,
    }
    return rep if names else for_the_class(rep)


# ---------------------------------------------------------------- the class's view


def for_the_class(rep: dict) -> dict:
    """The report for the projector (`?view=class`): what a class discusses together,
    with no student's name in it.

    Projected, the full report shamed students: "0 of 8" games won, "fewest: Ana",
    the per-player table, journeys with the games won at each table. This view keeps
    the reveal, the counts per round and table, the clashes, disputes and gestures,
    the drawings and the guide's questions (`rep` built with names=False: its figures
    are the class's). Each place a name stood beside a result gives a count instead
    ("4 players moved up"); the lists that are names (who sat where, each dispute's
    claims, each game's winner) are left to the full report. A drawing is shown
    without its drawer: not a result, but the view's promise is no names, which a
    facilitator can trust at a glance, and a caption "Ana, during a dispute" ties a
    student to one (a student may still say "that was mine").

    Nothing in it holds a name (tests/tournament/test_report_class.py checks the
    whole dict), so no template can show one by mistake."""
    mov, cl = rep["movement"], rep["clashes"]
    g = cl["gestures"]
    seating = [
        {"table": row["table"], "cells": [_seat_counts(cell) for cell in row["cells"]]}
        for row in mov["grid"]
    ]
    return {
        **{k: v for k, v in rep.items() if k not in ("movement", "results", "players")},
        "view": "class",
        "movement": {
            "columns": mov["columns"],
            "seating": seating,
            "seating_summary": seating_summary(mov["columns"], seating),
            # Movement applied after a round: its counts are in that round's line.
            "moved": any(rd["moved"] for rd in rep["results"]),
        },
        # Each round's line: counts only (round_summary), for a large class's fold.
        "results": [{**_round_counts(rd), "summary": rd["summary"]} for rd in rep["results"]],
        "clashes": {
            **cl,
            # One by one, each names who claimed what and who won the trick.
            "disputes": [],
            "clash_tricks": [],
            "gestures": {
                **g,
                "by_player": {},
                "drawings_by_player": {},
                "shown": [
                    {
                        **{k: v for k, v in d.items() if k not in ("name", "alt")},
                        "alt": f"Drawing {d['where']}: {_plural(d['strokes'], 'stroke')}",
                    }
                    for d in g["shown"]
                ],
            },
        },
        "revokes": rep["revokes"] and {k: v for k, v in rep["revokes"].items() if k != "by_player"},
        # Who was refused, and how often, is the full report's.
        # Per table, only how many: a table's one newcomer was "By newcomers 1" beside
        # section 2's "1 moved up" to it.
        "refusals": rep["refusals"]
        and {
            **rep["refusals"],
            "rows": [
                {k: row[k] for k in ("round", "round_number", "table", "refused")}
                for row in rep["refusals"]["rows"]
            ],
            "examples": [],
            "by_player": {},
            # Its line, without who: the class's table shows how many, no more.
            "summary": refusals_summary(rep["refusals"]["rows"], by_whom=False),
        },
        "players": [],
        "class_lines": _class_lines(rep),
    }


def seating_summary(columns: list[dict], seating: list[dict]) -> dict:
    """The class's seating grid (counts per table and round), a line a round (`listed`),
    for the report of a large class that folds it: at each round's start how many
    played, how many of them at their home table and how many at another.

    Who moved is said once, in each round's line in section 3 ("moves after it: 12 up,
    12 down, 28 stayed"): this line counted the movers again at the next round's start
    ("12 had moved up, 12 down and 22 stayed at their home table"), figures close to
    those but not the same (a stay at another table, a move back home, a player who
    left or joined), which a class could not tell apart."""
    parts = []
    for i, col in enumerate(columns):
        cells = [row["cells"][i] for row in seating]
        n = {k: sum(c[k] for c in cells) for k in ("players", "home", "joined")}
        part = f"{col['label']}, {_plural(n['players'], 'player')}"
        if n["players"] and n["home"] == n["players"]:
            part += f", {'all' if n['players'] > 1 else 'the one'} at their home table"
        elif n["players"]:
            # "nobody", not "0".
            other = n["players"] - n["home"]
            part += f": {n['home'] or 'nobody'} at their home table and {other} at another table"
        if n["joined"]:
            part += f" ({n['joined']} joined during it)"
        parts.append(part)
    return listed(f"{_plural(len(seating), 'table')}, at the start of each round:", parts)


def _seat_counts(chips: list[dict]) -> dict:
    """Who sat at a table at a round's start, counted: no names."""
    return {
        "players": len(chips),
        "up": sum(1 for c in chips if c["arrow"] == "up"),
        "down": sum(1 for c in chips if c["arrow"] == "down"),
        "home": sum(1 for c in chips if c["local"]),
        # At their home table by a move back to it: counted as moved and as at home.
        "back": sum(1 for c in chips if c["local"] and c["arrow"]),
        # Not moved there as this round began, and not at home: an earlier move took
        # them there (the rest are up, down or home: the four add up to the players).
        "away": sum(1 for c in chips if not c["local"] and not c["arrow"]),
        "joined": sum(1 for c in chips if c["joined"]),
    }


def _round_counts(rd: dict) -> dict:
    """A round's results per table, counted: games, and after a scored round how many
    moved up, moved down or stayed. No one's games won: at a table of four, "fewest:
    0" names its player to the three others."""
    tables = []
    for t in rd["tables"]:
        moved = Counter(x["moved"] for x in t["players"])
        tables.append(
            {
                "table": t["table"],
                "players": len(t["players"]),
                "games_played": t["games_played"],
                "games_cut": t["games_cut"],
                "none_dealt": t["none_dealt"],
                "disputes": sum(x["disputes"] for x in t["games"]),
                "up": moved["up"],
                "down": moved["down"],
                # "" is a stay once the movement was applied (an unfinished round's too).
                "stayed": moved[""],
                "left": moved["left"],
                "changed": sum(1 for x in t["players"] if x["edited"]),
                "by_name": sum(1 for x in t["players"] if x["by_name"]),
            }
        )
    keys = ("players", "games_played", "games_cut", "disputes", "up", "down", "stayed", "left")
    total = {k: sum(t[k] for t in tables) for k in (*keys, "changed", "by_name")}
    return {
        **{k: rd[k] for k in ("round", "label", "kind", "scored", "moved", "finished", "last")},
        "tables": tables,
        "total": total,
        "after": _after_words(rd, total) if rd["moved"] else None,
    }


def _after_words(rd: dict, total: dict) -> dict:
    """The class's words for the movement a round's results made (`listed`): "After
    Round 1:", then "4 players moved up", "4 moved down", "10 stayed", and what decided
    them after the list (_after_notes). Section 2 shows the sentence, `line`: "After
    Round 1: 4 players moved up, 4 moved down and 10 stayed." (listed's own line joins
    the items with ";"), up to FOLD_TABLES tables; past them each round's line in section
    3 (round_summary) says these figures, and section 2 says where they are."""
    lead = f"After {rd['label']}:"
    parts = _moves_said(total["up"], total["down"], total["stayed"])
    if total["left"]:
        parts.append(f"{total['left']} left the workshop")
    notes = _after_notes(total)
    return {
        **listed(lead, parts, notes),
        "line": f"{lead} {said_as_list(parts)}. {notes}".strip(),
    }


def _moves_said(up: int, down: int, stayed: int) -> list[str]:
    """How many moved up, moved down and stayed, as a person says it: "4 players moved
    up", "4 moved down", "10 stayed" (the noun once, with the first number), a count of
    none "nobody moved up" (it read "0 players moved up"), and "nobody moved up or
    down" for both."""
    if not (up or down):
        return [
            "nobody moved up or down",
            f"{_plural(stayed, 'player') if stayed else 'nobody'} stayed",
        ]
    parts, noun = [], True
    for n, what in ((up, "moved up"), (down, "moved down"), (stayed, "stayed")):
        if not n:
            parts.append(f"nobody {what}")
            continue
        parts.append(f"{_plural(n, 'player') if noun else n} {what}")
        noun = False
    return parts


def _class_lines(rep: dict) -> list[str]:
    """Section 5 for the class: the players as a group (people; bots counted apart)."""
    people = [p for p in rep["players"] if not p["bot"]]
    if not people:
        return ["No student played: only bots."] if rep["players"] else []
    bots = len(rep["players"]) - len(people)
    lines = [
        f"{_plural(len(people), 'player')}"
        + (f" and {_plural(bots, 'bot')}" if bots else "")
        + (f"; {rep['counts']['left']} left during the workshop" if rep["counts"]["left"] else "")
        + "."
    ]
    moves = Counter(p["moves_played"] for p in people)
    if any(n for n in moves):
        counts = sorted(n for n in moves if n)
        # In words: "1 3 times" read as one number after another.
        said = {1: "once", 2: "twice", **{n: f"{w} times" for n, w in enumerate(_SMALL, 3)}}
        times = (
            f" {said.get(counts[0], f'{counts[0]} times')}"
            if len(counts) == 1
            else " ("
            + said_as_list([f"{moves[n]} {said.get(n, f'{n} times')}" for n in counts])
            + ")"
        )
        # None said in words: "3 of the 3 changed tables …; 0 never did."
        lines.append(
            f"{len(people) - moves[0]} of the {len(people)} changed tables{times} and played as "
            f"newcomers; {moves[0]} never did."
            if moves[0]
            else f"{_all_of(len(people))} changed tables{times} and played as newcomers."
        )
    else:
        lines.append("Nobody played a round at a new table.")
    if rep["disputes"]:
        disputed = [p for p in people if p["disputes"] and not p["left"]]
        adapted = sum(1 for p in disputed if p["adapted"])
        if disputed:
            lines.append(
                f"{_plural(len(disputed), 'player')} took part in a dispute; "
                + (
                    f"{adapted} of them changed their claim in one at least once (adapted)."
                    if adapted
                    else "none of them ever changed their claim in one (adapted)."
                )
            )
    elif rep["revokes"] and not rep["revokes"]["table_decides"]:
        calls = sum(1 for p in people if p["calls"])
        revokes = sum(1 for p in people if p["revokes"])
        lines.append(
            (
                f"{calls} of the {len(people)} called a revoke at least once; "
                if calls
                else f"None of the {len(people)} called a revoke; "
            )
            + (f"{revokes}" if revokes else "none")
            + " played a card their table's sheet forbids."
        )
    gestured = sum(1 for p in people if p["gestures"])
    lines.append(
        f"{gestured} of the {len(people)} made at least one gesture or drawing."
        if gestured
        else f"None of the {len(people)} made a gesture or drawing."
    )
    return lines


_SMALL = ("three", "four", "five", "six", "seven", "eight", "nine")


def _all_of(n: int) -> str:
    """ "The one player", "Both players", "All 5 players": a group of which none is left out."""
    return {1: "The one player", 2: "Both players"}.get(n, f"All {n} players")
