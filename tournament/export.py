"""The whole workshop as one JSON document (schema ``barnga.workshop/1``) and as CSV tables.

`workshop_document` is the thin loader: it reads the stored rows of one workshop
and nothing else (no live state, no cache). Everything after it is a plain
function of that document: `replay_input` and `kind_replay_input` (a game's
input for ``python -m games replay``), `csv_tables` (one table per kind of
record), and `tournament.report.build_report` (the debrief's figures). The format is
documented in docs/export.md; change that page and bump SCHEMA together.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from datetime import datetime

from games import five_tricks, kinds
from games.errors import IllegalAction
from games.tricks import TrickRules
from tournament import limits, report

SCHEMA = "barnga.workshop/1"

# The CSV tables, in the order the report's download list shows them.
CSV_KINDS = (
    "actions",
    "tricks",
    "claims",
    "disputes",
    "gestures",
    "moves",
    "seatings",
    "games",
    # Added within version 1, after the others (the list and the ZIP keep their order).
    "refusals",
    "players",
    "revokes",
)

# players.csv's figures by the game's own columns, as the report's table shows them:
# a column the table does not show for this workshop is empty, not nought.
_DISPUTE_COLUMNS = (
    ("disputes", "disputes"),
    ("disputes_as_newcomer", "as_newcomer"),
    ("adapted", "adapted"),
    ("held", "held"),
    ("claim_changes", "claim_changes"),
    ("own_claim_won", "claim_won"),
)
_REVOKE_COLUMNS = (
    ("revokes", "revokes"),
    ("revokes_called", "called_on"),
    ("revoke_calls", "calls"),
    ("revoke_calls_refused", "calls_refused"),
)

# The columns every game row starts with.
GAME_COLUMNS = ("round", "round_label", "table", "game_id", "game_number")
# Added at the end of every table with a round (existing columns keep their places):
# the number the report gives that round ("Round 2" is 2; report.scored_number), empty
# for the study round and silent home play. `round` is the stored count of every
# round, the study round and home play included, so the report's Round 1 is round 3.
SCORED_ROUND = "scored_round"

# Every table's header, as docs/export.md lists it: csv_tables writes these, and
# tournament.check_export checks an exported ZIP's tables against them. A table only
# grows at its end (docs/export.md, "CSV tables").
CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "actions": GAME_COLUMNS
    + (
        "seq",
        "created_at",
        "kind",
        "actor_id",
        "actor",
        "seat",
        "card",
        "claimed_seat",
        "claimed_player",
        "payload",
        SCORED_ROUND,
    ),
    "tricks": GAME_COLUMNS
    + (
        "trick_index",
        "leader_seat",
        "leader",
        "cards",
        "winner_seat",
        "winner",
        "table_verdict",
        "verdicts",
        "sheets_disagree",
        "resolution",
        "final_claims",
        SCORED_ROUND,
    ),
    "claims": GAME_COLUMNS
    + (
        "trick_index",
        "created_at",
        "player_id",
        "player",
        "seat",
        "claimed_seat",
        "claimed_player",
        "is_change",
        "during_dispute",
        SCORED_ROUND,
    ),
    "disputes": GAME_COLUMNS
    + (
        "trick_index",
        "opened_at",
        "deadline",
        "resolved_at",
        "duration_seconds",
        "resolution",
        "initial_claims",
        "final_claims",
        "winner_seat",
        "winner",
        # Added at the end (existing columns keep their places): the claims' names.
        "initial_claimed_players",
        "final_claimed_players",
        SCORED_ROUND,
    ),
    "gestures": (
        "round",
        "round_label",
        "table",
        "game_id",
        "gesture_id",
        "created_at",
        "player_id",
        "player",
        "kind",
        "trick_index",
        "during_dispute",
        "card",
        "drawing_points",
        SCORED_ROUND,
    ),
    "moves": (
        "after_round",
        "round_label",
        "player_id",
        "player",
        "from_table",
        "to_table",
        "direction",
        "edited",
        # After which of the report's rounds (scored_round, as in the other tables).
        "after_scored_round",
    ),
    "seatings": ("round", "round_label", "player_id", "player", "table", "seat", SCORED_ROUND),
    "games": GAME_COLUMNS
    + (
        "state",
        "mode",
        "seed",
        "players_in_seat_order",
        "tricks_won",
        "winners",
        "tricks",
        "disputes",
        "started_at",
        "finished_at",
        "kind",
        "scores",
        "cut_by",
        "ended_by",
        SCORED_ROUND,
        # true where the report's figures count the game (report.Index.counts), false
        # for the study round's games and one dealt and cut before anyone acted.
        "in_report",
    ),
    "refusals": GAME_COLUMNS
    + (
        "created_at",
        "player_id",
        "player",
        "seat",
        "action",
        "reason",
        "own_rules_allow",
        SCORED_ROUND,
    ),
    "players": (
        "player_id",
        "player",
        "join_order",
        "home_table",
        "is_bot",
        "has_left",
        "left_at",
        "journey",
        "games_played",
        "games_won",
        "moves_up",
        "moves_down",
        *(column for column, _ in _DISPUTE_COLUMNS),
        *(column for column, _ in _REVOKE_COLUMNS),
        "refused_moves",
        "gestures_and_drawings",
        "drawings",
        # Each time away that ended (left, then back with the PIN): added last, after
        # the table's first columns were set.
        "away",
        "let_in_at",
    ),
    "revokes": GAME_COLUMNS
    + (
        "seq",
        "created_at",
        "kind",
        "player_id",
        "player",
        "seat",
        "card",
        "hand",
        "trick_index",
        "called_on_seat",
        "called_on_player",
        "upheld",
        "called",
        "newcomer",
        SCORED_ROUND,
    ),
}

# The columns each table gained at its end since it was first written, oldest first:
# an export made before some of them has today's header without a run of them at its
# end, and check_export checks it in the columns it has (a shorter header is no
# older export).
CSV_ADDED: dict[str, tuple[str, ...]] = {
    **{kind: (SCORED_ROUND,) for kind in ("actions", "tricks", "claims", "gestures", "seatings")},
    "disputes": ("initial_claimed_players", "final_claimed_players", SCORED_ROUND),
    "moves": ("after_scored_round",),
    "games": ("kind", "scores", "cut_by", "ended_by", SCORED_ROUND, "in_report"),
    "refusals": (SCORED_ROUND,),
    "players": ("away", "let_in_at"),
    "revokes": (SCORED_ROUND,),
}


# A trick's fields as the document names them (TrickRecord's own names).
TRICK_FIELDS = (
    "index",
    "leader",
    "cards",
    "winner",
    "verdicts",
    "table_verdict",
    "resolution",
    "claims",
    "created_at",
)


def iso(dt: datetime | None) -> str | None:
    return dt.isoformat() if dt is not None else None


# ---------------------------------------------------------------- loader (reads the database)


def workshop_document(workshop, *, exported_at: datetime | None = None) -> dict:
    """Every stored fact of `workshop` as a JSON-ready dict (see docs/export.md)."""
    from django.utils import timezone

    from tournament.models import (
        Action,
        Claim,
        Dispute,
        Game,
        Gesture,
        Movement,
        Player,
        RefusedAttempt,
        Round,
        Seating,
        TrickRecord,
    )

    tables = list(workshop.tables.order_by("number"))
    table_number = {t.pk: t.number for t in tables}
    players = list(Player.objects.filter(workshop=workshop).order_by("join_order"))
    rounds = list(Round.objects.filter(workshop=workshop).order_by("number"))
    round_number = {r.pk: r.number for r in rounds}

    seatings: dict[int, list] = {r.pk: [] for r in rounds}
    for s in Seating.objects.filter(round__workshop=workshop).order_by("table_number", "seat"):
        seatings[s.round_id].append(
            {"player": s.player_id, "table": s.table_number, "seat": s.seat}
        )
    moves: dict[int, list] = {r.pk: [] for r in rounds}
    for m in Movement.objects.filter(round__workshop=workshop).order_by("player__join_order"):
        moves[m.round_id].append(
            {"player": m.player_id, "from": m.from_table, "to": m.to_table, "edited": m.edited}
        )

    games = list(
        Game.objects.filter(table__workshop=workshop).order_by(
            "round__number", "table__number", "number"
        )
    )
    by_game: dict[int, dict[str, list]] = {
        g.pk: {"actions": [], "tricks": [], "claims": [], "disputes": []} for g in games
    }
    # The many rows (every action, trick and claim) are read as plain values, not
    # models: building 35,000 models was most of a 200-player workshop's export, and
    # each CSV, the JSON, the ZIP and the report read the document whole.
    actions = Action.objects.filter(game__table__workshop=workshop).order_by("game", "seq")
    for game_id, seq, actor, what, payload, at in actions.values_list(
        "game_id", "seq", "actor_id", "kind", "payload", "created_at"
    ):
        by_game[game_id]["actions"].append(
            {"seq": seq, "actor": actor, "kind": what, "payload": payload, "created_at": iso(at)}
        )
    tricks = TrickRecord.objects.filter(game__table__workshop=workshop).order_by("game", "index")
    for game_id, *row in tricks.values_list("game_id", *TRICK_FIELDS):
        trick = dict(zip(TRICK_FIELDS, row, strict=True))
        trick["created_at"] = iso(trick["created_at"])
        by_game[game_id]["tricks"].append(trick)
    claims = Claim.objects.filter(game__table__workshop=workshop).order_by("created_at", "pk")
    for game_id, index, player, seat, claimed, change, in_dispute, at in claims.values_list(
        "game_id",
        "trick_index",
        "player_id",
        "seat",
        "claimed_seat",
        "is_change",
        "during_dispute",
        "created_at",
    ):
        by_game[game_id]["claims"].append(
            {
                "trick_index": index,
                "player": player,
                "seat": seat,
                "claimed_seat": claimed,
                "is_change": change,
                "during_dispute": in_dispute,
                "created_at": iso(at),
            }
        )
    for d in (
        Dispute.objects.filter(game__table__workshop=workshop)
        .select_related("game__round")
        .order_by("opened_at", "pk")
    ):
        by_game[d.game_id]["disputes"].append(
            {
                "trick_index": d.trick_index,
                "opened_at": iso(d.opened_at),
                "deadline": iso(d.deadline),
                "resolved_at": iso(d.resolved_at),
                "duration_seconds": d.duration_seconds,
                "resolution": d.resolution or None,
                "initial_claims": d.initial_claims,
                "final_claims": d.final_claims or None,
                "winner": d.winner,
            }
        )

    kind = kinds.get(workshop.game)
    game_docs = []
    for g in games:
        record = {
            "id": g.pk,
            "kind": g.kind,
            "round": round_number[g.round_id],
            "table": table_number[g.table_id],
            "number": g.number,
            "seed": g.seed,
            "dealer": g.dealer_id,
            "players": list(g.players),
            "mode": g.mode,
            "state": g.state,
            "started_at": iso(g.started_at),
            "finished_at": iso(g.finished_at),
            # What cut a game short ("round_end" | "player_left"); None unless cut.
            "cut_by": g.cut_by or None,
            # How a finished game ended, where its kind has more than one way (3 Tricks:
            # "three_tricks" | "both_passed" | "drawing_stopped"); None otherwise.
            "ended_by": g.ended_by or None,
            "table_rules": g.table_rules,
            "seat_rules": g.seat_rules,
            "tricks_won": list(g.tricks_won),
            "scores": list(g.scores),
            "winners": list(g.winners),
            **by_game[g.pk],
        }
        # Each game's input for `python -m games replay` (tournament.check_export runs it).
        if g.kind == "five_tricks":
            replay, unawarded = replay_input(record)
        else:
            replay, unawarded = kind_replay_input(record), None
        record["unawarded_trick"] = unawarded
        record["replay"] = replay
        game_docs.append(record)

    game_round = {g.pk: round_number[g.round_id] for g in games}
    gestures = []
    for pk, table_id, game_id, player, gesture, index, in_dispute, payload, at in (
        Gesture.objects.filter(table__workshop=workshop)
        .order_by("created_at", "pk")
        .values_list(
            "pk",
            "table_id",
            "game_id",
            "player_id",
            "kind",
            "trick_index",
            "during_dispute",
            "payload",
            "created_at",
        )
    ):
        gestures.append(
            {
                "id": pk,
                "table": table_number[table_id],
                "round": game_round.get(game_id),
                "game": game_id,
                "player": player,
                "kind": gesture,
                "trick_index": index,
                "during_dispute": in_dispute,
                "payload": payload,
                "created_at": iso(at),
            }
        )

    # Added within version 1 (docs/export.md): a document without it has none.
    refusals = [
        {
            "round": round_number[round_id],
            "table": table_number[table_id],
            "game": game_id,
            "player": player,
            "seat": seat,
            "action": action,
            "reason": reason,
            "own_rules_allow": allow,
            "created_at": iso(at),
        }
        for round_id, table_id, game_id, player, seat, action, reason, allow, at in (
            RefusedAttempt.objects.filter(workshop=workshop)
            .order_by("created_at", "pk")
            .values_list(
                "round_id",
                "table_id",
                "game_id",
                "player_id",
                "seat",
                "action",
                "reason",
                "own_rules_allow",
                "created_at",
            )
        )
    ]

    return {
        "schema": SCHEMA,
        "exported_at": iso(exported_at or timezone.now()),
        "workshop": {
            "id": workshop.pk,
            "name": workshop.name,
            "code": workshop.code,
            "game": workshop.game,
            "mode": workshop.mode,
            "phase": workshop.phase,
            "table_count": workshop.table_count,
            "seats_per_table": workshop.seats_per_table,
            "round_seconds": workshop.round_seconds,
            "dispute_seconds": workshop.dispute_seconds,
            "created_at": iso(workshop.created_at),
            # Added within version 1: the refused moves kept per player and game, so a
            # report rebuilt from this document states the cap it was kept under.
            "refusals_kept": limits.REFUSALS_KEPT,
        },
        "tables": [
            {
                "number": t.number,
                "preset": t.preset,
                "preset_title": kind.preset_titles.get(t.preset, "Custom sheet"),
                "rules": t.rules,
            }
            for t in tables
        ],
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                # 1 for the first to join (the stored order may have gaps: PostgreSQL
                # takes it from a sequence that every workshop shares).
                "join_order": rank,
                "home_table": table_number.get(p.home_table_id),
                "rules": p.rules or None,
                "is_bot": p.is_bot,
                "has_left": p.has_left,
                "left_at": iso(p.left_at),
                "absences": [dict(a) for a in p.absences or []],
                # Added within version 1: when the facilitator last let them back in
                # after removing them (a new PIN, roster.player_let_back_in; null:
                # never). The time away it falls in was a removal.
                "let_in_at": iso(p.let_in_at),
                # Added within version 1: the table they sit at now (null: no seat). A
                # player who left keeps one where a bot plays it (leave policy "bot").
                "table": table_number.get(p.table_id),
            }
            for rank, p in enumerate(players, start=1)
        ],
        "rounds": [
            {
                "number": r.number,
                "kind": r.kind,
                "scored_number": r.scored_number,
                "label": str(r),
                "state": r.state,
                "started_at": iso(r.started_at),
                "finished_at": iso(r.finished_at),
                "finished_by": r.finished_by or None,
                "pauses": r.pauses,
                "standings": (r.standings or {}).get("players", []),
                "seatings": seatings[r.pk],
                "moves": moves[r.pk],
                # The rule's moves the facilitator cancelled: those players stayed.
                "kept": (r.movement_preview or {}).get("kept", []) if r.movement_applied_at else [],
                "movement_applied_at": iso(r.movement_applied_at),
            }
            for r in rounds
        ],
        "games": game_docs,
        "gestures": gestures,
        "refusals": refusals,
    }


# ---------------------------------------------------------------- replay input (pure)


def kind_replay_input(game: dict) -> dict | None:
    """The ``python -m games replay`` input for an exported game of a base game other
    than Five Tricks, written by its kind from the game's sheets, seed and log (None
    if the log does not play: tournament.check_export reports that game)."""
    payloads = [a["payload"] for a in game["actions"]]  # in seq order, as loaded
    try:
        return kinds.get(game["kind"]).replay_input(
            table_rules=game["table_rules"],
            seat_rules=game["seat_rules"],
            mode=game["mode"],
            seed=game["seed"],
            actions=payloads,
        )
    except (IllegalAction, KeyError, TypeError, ValueError):
        return None


def replay_input(game: dict) -> tuple[dict, dict | None]:
    """The ``python -m games replay`` input for one exported game, from its seed and log.

    Returns (input, unawarded_trick). `plays` are the log's cards in order;
    `claims` are each completed trick's final claims as the log left them (a seat
    that never claimed before a time-out is null, which the replay reads exactly
    as the live time-out did: that seat does not count). Referee games give no
    seat sheets and no claims, so the table's sheet decides, as it did live.

    A trick whose cards were all played but that was never awarded (the round
    ended while it was being claimed) cannot be written in the replay format,
    which wants one claims entry per complete trick and has no "unawarded". Its
    cards are left out of `plays` and returned as `unawarded_trick`
    ({"index", "cards", "claims"}); it did not count live either.
    """
    n = len(game["players"])
    hands = [list(h) for h in five_tricks.deal(n, game["seed"])]
    referee = game["mode"] == "referee"
    payloads = [a["payload"] for a in game["actions"]]
    plays = [p["card"] for p in payloads if p.get("type") == "play"]
    config = five_tricks.Config(
        table_rules=TrickRules.from_dict(game["table_rules"]),
        seat_rules=tuple(TrickRules.from_dict(r) for r in game["seat_rules"]),
        mode=game["mode"],
    )
    unawarded = None
    claims: list | None = None
    try:
        state = five_tricks.replay(config, hands, payloads)
    except (IllegalAction, ValueError):
        # A log the engine refuses: export it as it is; the checker reports the refusal.
        state = None
    if state is not None:
        if not referee:
            claims = [list(t.claims) for t in state.completed]
        if state.phase == five_tricks.PHASE_CLAIM:
            unawarded = {
                "index": len(state.completed),
                "cards": [[s, c] for s, c in state.current],
                "claims": list(state.claims),
            }
            plays = plays[: len(plays) - len(state.current)]
    elif not referee:
        claims = [list(t["claims"]) for t in game.get("tricks", [])]
    doc = {
        "game": "five_tricks",
        "rules": game["table_rules"],
        "seat_rules": None if referee else game["seat_rules"],
        "hands": hands,
        "plays": plays,
        "claims": claims,
    }
    return doc, unawarded


# ---------------------------------------------------------------- CSV tables (pure)


def _names(doc: dict) -> dict[int, str]:
    return {p["id"]: p["name"] for p in doc["players"]}


# A seat's claim that names nobody (a seat that never claimed), in a names cell.
NO_CLAIM = "(none)"


def _claimed_names(names: dict[int, str], game: dict, claims: Iterable[int | None]) -> str:
    """The player each seat's claim named, in seat order, separated by a space (as
    `players_in_seat_order`): the claims' seat numbers looked up in the game's seats."""
    return " ".join(
        NO_CLAIM if seat is None else names.get(game["players"][seat], "") for seat in claims
    )


def csv_tables(doc: dict) -> dict[str, tuple[list[str], list[list]]]:
    """{kind: (header, rows)} for every kind in CSV_KINDS. Seats and trick indexes are
    0-based, as in the JSON; `*_player` columns name the player in that seat."""
    names = _names(doc)
    labels = {r["number"]: r["label"] for r in doc["rounds"]}
    # Each table's last column but games.csv's in_report: the report's number for the round.
    scored = {r["number"]: report.scored_number(r) for r in doc["rounds"]}
    out: dict[str, tuple[list[str], list[list]]] = {}
    # Each game's log replayed as the report's section 4 replays it, every round's
    # games (the study round's too): All Fives' revokes and calls (revokes.csv), and
    # All Fives' and 7Up7Down's tricks (games.csv). The other games: none replayed.
    ix = report.Index(doc)
    breaks = (
        {g["id"]: report.game_breaks(ix, g) for g in doc["games"]}
        if ix.kind.key in TRICKS_REPLAYED
        else {}
    )

    def game_cols(g):
        return [g["round"], labels.get(g["round"], ""), g["table"], g["id"], g["number"]]

    rows = []
    for g in doc["games"]:
        for a in g["actions"]:
            p = a["payload"]
            winner = p.get("winner")
            rows.append(
                game_cols(g)
                + [
                    a["seq"],
                    a["created_at"],
                    a["kind"],
                    a["actor"],
                    names.get(a["actor"], "") if a["actor"] else "(timer)",
                    p.get("seat", ""),
                    p.get("card", ""),
                    "" if winner is None else winner,
                    "" if winner is None else names.get(g["players"][winner], ""),
                    json.dumps(p, sort_keys=True),
                    scored.get(g["round"]),
                ]
            )
    out["actions"] = (list(CSV_COLUMNS["actions"]), rows)

    rows = []
    for g in doc["games"]:
        for t in g["tricks"]:
            rows.append(
                game_cols(g)
                + [
                    t["index"],
                    t["leader"],
                    names.get(g["players"][t["leader"]], ""),
                    " ".join(c for _, c in t["cards"]),
                    t["winner"],
                    names.get(g["players"][t["winner"]], ""),
                    t["table_verdict"],
                    _numbers(t["verdicts"]),
                    len(set(t["verdicts"])) > 1,
                    t["resolution"],
                    _numbers(t["claims"]),
                    scored.get(g["round"]),
                ]
            )
    out["tricks"] = (list(CSV_COLUMNS["tricks"]), rows)

    rows = []
    for g in doc["games"]:
        for c in g["claims"]:
            rows.append(
                game_cols(g)
                + [
                    c["trick_index"],
                    c["created_at"],
                    c["player"],
                    names.get(c["player"], ""),
                    c["seat"],
                    c["claimed_seat"],
                    names.get(g["players"][c["claimed_seat"]], ""),
                    c["is_change"],
                    c["during_dispute"],
                    scored.get(g["round"]),
                ]
            )
    out["claims"] = (list(CSV_COLUMNS["claims"]), rows)

    rows = []
    for g in doc["games"]:
        for d in g["disputes"]:
            w = d["winner"]
            rows.append(
                game_cols(g)
                + [
                    d["trick_index"],
                    d["opened_at"],
                    d["deadline"],
                    d["resolved_at"] or "",
                    "" if d["duration_seconds"] is None else round(d["duration_seconds"], 3),
                    d["resolution"] or "open",
                    _numbers(d["initial_claims"]),
                    _numbers(d["final_claims"] or []),
                    "" if w is None else w,
                    "" if w is None else names.get(g["players"][w], ""),
                    _claimed_names(names, g, d["initial_claims"]),
                    _claimed_names(names, g, d["final_claims"] or []),
                    scored.get(g["round"]),
                ]
            )
    out["disputes"] = (list(CSV_COLUMNS["disputes"]), rows)

    rows = []
    for x in doc["gestures"]:
        payload = x["payload"] or {}
        rows.append(
            [
                x["round"] if x["round"] is not None else "",
                labels.get(x["round"], ""),
                x["table"],
                x["game"] if x["game"] is not None else "",
                x["id"],
                x["created_at"],
                x["player"],
                names.get(x["player"], ""),
                x["kind"],
                "" if x["trick_index"] is None else x["trick_index"],
                x["during_dispute"],
                payload.get("card", ""),
                len(payload.get("points", [])) if x["kind"] == "drawing" else "",
                scored.get(x["round"]),
            ]
        )
    out["gestures"] = (list(CSV_COLUMNS["gestures"]), rows)

    rows = []
    for r in doc["rounds"]:
        for m in r["moves"]:
            rows.append(
                [
                    r["number"],
                    r["label"],
                    m["player"],
                    names.get(m["player"], ""),
                    m["from"],
                    m["to"],
                    "up" if m["to"] > m["from"] else "down",
                    m["edited"],
                    scored.get(r["number"]),
                ]
            )
    out["moves"] = (list(CSV_COLUMNS["moves"]), rows)

    rows = []
    for r in doc["rounds"]:
        for s in r["seatings"]:
            rows.append(
                [
                    r["number"],
                    r["label"],
                    s["player"],
                    names.get(s["player"], ""),
                    s["table"],
                    s["seat"],
                    scored.get(r["number"]),
                ]
            )
    out["seatings"] = (list(CSV_COLUMNS["seatings"]), rows)

    rows = []
    for g in doc["games"]:
        rows.append(
            game_cols(g)
            + [
                g["state"],
                g["mode"],
                g["seed"],
                " ".join(names.get(p, "") for p in g["players"]),
                _numbers(g["tricks_won"]),
                " ".join(names.get(p, "") for p in g["winners"]),
                _tricks_played(g, breaks.get(g["id"])),
                len(g["disputes"]),
                g["started_at"],
                g["finished_at"] or "",
                g.get("kind", "five_tricks"),
                _numbers(g.get("scores", [])),
                # A document from before cut_by: a cut game was put down to the round's end.
                g.get("cut_by") or ("round_end" if g["state"] == "cut" else ""),
                g.get("ended_by") or "",
                scored.get(g["round"]),
                ix.counts(g),
            ]
        )
    out["games"] = (list(CSV_COLUMNS["games"]), rows)
    # The moves the table's rules refused (the JSON's `refusals`, in its order): in no
    # game's log, so in no other table. A document from before them has none.
    by_id = {g["id"]: g for g in doc["games"]}
    rows = []
    for x in doc.get("refusals") or []:
        game = by_id.get(x["game"], {})
        rows.append(
            [
                x["round"],
                labels.get(x["round"], ""),
                x["table"],
                x["game"],
                game.get("number", ""),
                x["created_at"],
                x["player"],
                names.get(x["player"], ""),
                x["seat"],
                json.dumps(x["action"], sort_keys=True),
                x["reason"],
                x["own_rules_allow"],
                scored.get(x["round"]),
            ]
        )
    out["refusals"] = (list(CSV_COLUMNS["refusals"]), rows)

    out["players"] = _players_table(doc, ix)

    # All Fives' revokes and revoke calls, the rows the report's section 4 counts
    # (report.game_breaks), game by game in the document's order, each in log order.
    rows = []
    for g in doc["games"]:
        br = breaks.get(g["id"])
        for e in br["rows"] if br else []:
            call = e["kind"] == "call"
            rows.append(
                game_cols(g)
                + [
                    e["seq"],
                    e["created_at"],
                    e["kind"],
                    e["player"],
                    names.get(e["player"], ""),
                    e["seat"],
                    e["card"],
                    e["hand"],
                    e["trick"],
                    e["accused"] if call else None,
                    names.get(e["accused_player"], "") if call else None,
                    e["upheld"] if call else None,
                    None if call else e["called"],
                    e["newcomer"],
                    scored.get(g["round"]),
                ]
            )
    out["revokes"] = (list(CSV_COLUMNS["revokes"]), rows)
    return out


# The games whose tricks games.csv counts from the log replayed (report.game_breaks):
# they keep no trick records, and the report replays them anyway (section 4).
TRICKS_REPLAYED = (kinds.ALL_FIVES.key, kinds.SEVEN_UP.key)


def _tricks_played(game: dict, breaks: dict | None) -> int | None:
    """games.csv's `tricks`: the completed tricks. Five Tricks keeps a record of each;
    All Fives' and 7Up7Down's are counted from their log replayed (None, an empty
    cell, for a log that does not play). 3 Tricks has no tricks: 0."""
    if game.get("kind") in TRICKS_REPLAYED:
        return breaks["tricks"] if breaks else None
    return len(game["tricks"])


def _players_table(doc: dict, ix: report.Index) -> tuple[list[str], list[list]]:
    """One row per player (bots too): who they are as the JSON has them, then the
    report's per-player figures (tournament.report.player_table, the same functions
    as section 5), so the spreadsheet and the report never disagree."""
    table = report.player_table(doc, ix)
    people = {p["id"]: p for p in doc["players"]}
    rows = []
    for r in table["rows"]:
        p = people[r["id"]]
        rows.append(
            [
                p["id"],
                p["name"],
                p["join_order"],
                p["home_table"],
                p["is_bot"],
                p["has_left"],
                p.get("left_at"),
                _numbers(r["journey"]),
                r["games_played"],
                r["games_won"],
                r["moves_up"],
                r["moves_down"],
                *(r[key] if table["disputes"] else None for _, key in _DISPUTE_COLUMNS),
                *(r[key] if table["revokes"] else None for _, key in _REVOKE_COLUMNS),
                r["refused"] if table["refusals"] else None,
                r["gestures"],
                r["drawings"],
                # Each time away that ended (left, then back with the PIN): added last,
                # after the table's first columns were set.
                "; ".join(f"{a['left']} to {a['back']}" for a in p.get("absences") or []),
                # When the facilitator last let them back in after removing them
                # (the JSON's `let_in_at`), added after `away`.
                p.get("let_in_at"),
            ]
        )
    return list(CSV_COLUMNS["players"]), rows


# Spreadsheets run a cell that starts with one of these as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class _Numbers(str):
    """A cell of whole numbers the export wrote itself (a seat per player, points per
    seat): "-2 6" is a score, not a formula, and is written as it is."""


def _numbers(values: Iterable[int | None]) -> _Numbers:
    return _Numbers(" ".join("none" if v is None else str(int(v)) for v in values))


def _cell(value) -> str | int | float:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if (
        isinstance(value, str)
        and not isinstance(value, _Numbers)
        and value.startswith(_FORMULA_START)
    ):
        return "'" + value
    return value


def csv_text(header: list[str], rows: Iterable[list]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return buf.getvalue()
