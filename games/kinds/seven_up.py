"""7Up7Down (games/seven_up.py) as a workshop's base game.

A table's rules decide for everybody at it (there are no per-seat sheets): the
Barnga variation is that neighbouring tables play different knobs, 7Up7Down's own
(the hook rule, points per trick, points for an exact zero) and the two shared with
Five Tricks (where the ace ranks, whether the highest or the lowest card wins).
A match is 14 deals; a round usually ends it early and it counts with the points
of the deals scored so far.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace

from games import seven_up as su
from games.cards import SUIT_NAME_SINGULAR, SUIT_NAMES
from games.jsontext import check_keys
from games.tricks import check_order_knobs

from .base import ACE_AND_WINS_WORDS, GameKind, MoveError, clean_card

POINTS_MAX = 100


@dataclass(frozen=True)
class SevenUpRules:
    """One table's knobs. Immutable and hashable; invalid knobs raise ValueError."""

    hook: bool = True
    points_per_trick: int = 15
    zero_bid_points: int = 10
    ace: str = "high"
    wins: str = "highest"

    def __post_init__(self) -> None:
        if type(self.hook) is not bool:
            raise ValueError(f"hook must be true or false, not {self.hook!r}.")
        for key in ("points_per_trick", "zero_bid_points"):
            value = getattr(self, key)
            if type(value) is not int or not 0 <= value <= POINTS_MAX:
                raise ValueError(
                    f"{key} must be a whole number of points from 0 to {POINTS_MAX}, not {value!r}."
                )
        check_order_knobs(self.ace, self.wins)

    @classmethod
    def knobs(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: object) -> SevenUpRules:
        """Knobs from a dict; missing knobs take the classic game's value."""
        if not isinstance(d, Mapping):
            raise ValueError(
                f"7Up7Down rules must be an object with the keys {', '.join(cls.knobs())}."
            )
        check_keys(d, cls.knobs(), "rule knob")
        return cls(**d)

    def diff(self, other: SevenUpRules) -> list[str]:
        """Names of the knobs whose values differ between the two rule sets."""
        return [k for k in self.knobs() if getattr(self, k) != getattr(other, k)]


def _r(hook, ppt, zero, ace="high", wins="highest") -> SevenUpRules:
    return SevenUpRules(hook=hook, points_per_trick=ppt, zero_bid_points=zero, ace=ace, wins=wins)


# Ten rule sets, every one different; tests/tournament/test_kind_seven_up.py checks
# that sheet_assignment can keep neighbouring tables two knobs apart for 1..20 tables.
PRESETS: dict[str, SevenUpRules] = {
    "classic": _r(True, 15, 10),
    "no-hook-ace-low": _r(False, 15, 10, ace="low"),
    "lowest-wins": _r(True, 15, 10, wins="lowest"),
    "ace-low-tens": _r(True, 10, 10, ace="low"),
    "zero-pays-30": _r(False, 10, 30),
    "zero-pays-nothing": _r(True, 20, 0),
    "upside-down": _r(False, 15, 10, ace="low", wins="lowest"),
    "fives": _r(True, 5, 5, ace="low", wins="lowest"),
    "free-low": _r(False, 20, 0, wins="lowest"),
    "careful": _r(True, 10, 20, wins="lowest"),
}


def _title(rules: SevenUpRules) -> str:
    parts = [
        "hook" if rules.hook else "no hook",
        f"{rules.points_per_trick} a trick",
        f"exact zero {rules.zero_bid_points}",
    ]
    if rules.ace == "low":
        parts.append("ace low")
    if rules.wins == "lowest":
        parts.append("lowest wins")
    return ", ".join(parts)


PRESET_NAMES: dict[str, str] = {
    "classic": "Classic",
    "no-hook-ace-low": "No hook, ace low",
    "lowest-wins": "Lowest wins",
    "ace-low-tens": "Ace low, tens",
    "zero-pays-30": "Zero pays 30",
    "zero-pays-nothing": "Zero pays nothing",
    "upside-down": "Upside down",
    "fives": "Fives",
    "free-low": "Free and low",
    "careful": "Careful",
}
PRESET_TITLES: dict[str, str] = {
    name: f"{PRESET_NAMES[name]} ({_title(rules)})" for name, rules in PRESETS.items()
}


# ---------------------------------------------------------------- the study sheet


def _order_text(rules: SevenUpRules) -> str:
    if rules.ace == "high":
        order = "2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king, ace: the ace is the top card"
    else:
        order = "ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king: the ace is the bottom card"
    return f"Within a suit the cards run from bottom to top {order}."


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def sheet_text(rules: SevenUpRules) -> dict:
    """The study sheet for ``rules``: our wording, generated from the knobs alone."""
    best = "highest" if rules.wins == "highest" else "lowest"
    if rules.ace == "high":
        best_card = "ace" if rules.wins == "highest" else "2"
    else:
        best_card = "king" if rules.wins == "highest" else "ace"
    sizes = ", ".join(str(k) for k in su.DEAL_SIZES)
    if rules.hook:
        hook = (
            "The dealer bids last and is on the hook: the dealer may not make a bid that "
            "brings the total of all bids to exactly the number of cards each player holds. "
            "So at least one player will miss."
        )
    else:
        hook = (
            "The dealer bids last and may bid anything from 0 up to the number of cards "
            "held, even if the bids then add up to exactly that number."
        )
    ppt, zero = rules.points_per_trick, rules.zero_bid_points
    sections = [
        ("Cards", "One full deck of 52 cards, no jokers. " + _order_text(rules)),
        (
            "Players and deals",
            "3 to 7 players. A match has 14 deals; each player gets "
            f"{sizes} cards in turn (seven down to one, then one up to seven). "
            "The deal moves one player to the left every deal.",
        ),
        (
            "Trump",
            "After each deal the next card of the pack is turned face up. Its suit is "
            "trump for that deal; the card itself stays out of play.",
        ),
        (
            "Bidding",
            "Starting at the dealer's left and going clockwise, each player says how many "
            "tricks they will take this deal, from 0 to the number of cards in their hand. " + hook,
        ),
        (
            "Play",
            "The player at the dealer's left leads any card. Going clockwise, each player "
            "must follow the suit that was led if they can; if they cannot, they may play any "
            "card, a trump or not. "
            f"If any trumps were played, the {best} trump takes the trick; otherwise the "
            f"{best} card of the suit that was led takes it. The {best_card} is the best "
            "card of a suit. Whoever takes a trick leads the next one.",
        ),
        (
            "Scoring",
            "After the last trick of a deal, compare each player's tricks with their bid. "
            f"Exactly right with a bid of 1 or more: {_points(ppt)} for each trick bid "
            f"(a bid of 3 made scores {3 * ppt}). Exactly right with a bid of 0: "
            f"{_points(zero)}. Any other result: no points. Your phone's score sheet "
            "keeps bid, tricks, made or missed and points, one row per deal.",
        ),
        (
            "The blind deal",
            "The second one-card deal is played blind: your phone shows everyone "
            "else's card (as if held on their foreheads) but never your own. Bid as "
            "usual, then play your card unseen when your turn comes.",
        ),
        (
            "Winning",
            "After all 14 deals the player with the most points wins; equal top scores "
            "share the win. If the match is stopped early, the points of the deals "
            "finished so far count; if not one deal has been scored, nobody wins.",
        ),
    ]
    return {
        "title": "7Up7Down",
        "sections": [{"heading": h, "text": t} for h, t in sections],
    }


# ---------------------------------------------------------------- the phone screen

MADE, MISSED = "✓", "✗"


def _sheet_rows(v: dict, names: Sequence[str]) -> list[dict]:
    """The score sheet: one row per deal of the match, finished, in play or to come."""
    done = {row["deal"]: row for row in v["sheet"]}
    n = v["n_seats"]
    rows = []
    for number, cards in enumerate(su.DEAL_SIZES):
        row = {
            "number": number + 1,
            "cards": cards,
            "blind": number == su.BLIND_DEAL,
            "current": number == v["deal"] and v["phase"] in ("bid", "play"),
            "trump": None,
            "cells": [],
        }
        if number in done:
            r = done[number]
            row["trump"] = r["trump_card"]
            row["dealer"] = names[r["dealer"]]
            for s in range(n):
                row["cells"].append(
                    {
                        "bid": r["bids"][s],
                        "tricks": r["tricks_won"][s],
                        "made": r["made"][s],
                        "mark": MADE if r["made"][s] else MISSED,
                        "points": r["points"][s],
                    }
                )
        elif row["current"]:
            row["trump"] = v["trump_card"]
            row["dealer"] = names[v["dealer"]]
            for s in range(n):
                row["cells"].append(
                    {
                        "bid": v["bids"][s],
                        "tricks": v["tricks_won"][s] if v["phase"] == "play" else None,
                        "made": None,
                        "mark": "",
                        "points": None,
                    }
                )
        rows.append(row)
    return rows


def _last_deal(v: dict, names: Sequence[str]) -> dict | None:
    """The deal scored last, for the line a screen reader hears when it ends (the next
    deal's screen has its marks in view only in the score sheet)."""
    if not v["sheet"]:
        return None
    r = v["sheet"][-1]
    me = v["seat"]
    return {
        "number": r["deal"] + 1,
        "rows": [
            {
                "name": names[s],
                "me": s == me,
                "bid": r["bids"][s],
                "tricks": r["tricks_won"][s],
                "made": r["made"][s],
                "points": r["points"][s],
            }
            for s in range(v["n_seats"])
        ],
    }


def screen_context(v: dict, names: Sequence[str]) -> dict:
    """Template context from one seat's engine view (never from the state)."""
    n, me = v["n_seats"], v["seat"]
    phase, to_act = v["phase"], v["to_act"]
    my_turn = to_act == me
    bids = v["bids"]
    seats = []
    for s in range(n):
        seats.append(
            {
                "seat": s,
                "name": names[s],
                "me": s == me,
                "dealer": s == v["dealer"],
                "turn": s == to_act,
                "bid": bids[s],
                "tricks": v["tricks_won"][s],
                "count": v["hand_counts"][s],
                "total": v["totals"][s],
            }
        )
    bid_buttons = []
    if phase == "bid" and my_turn:
        legal = set(v["legal_bids"])
        for b in range(v["cards"] + 1):
            bid_buttons.append(
                {
                    "bid": b,
                    "allowed": b in legal,
                    "hooked": b == v["forbidden_bid"],
                    "move": json.dumps({"type": "bid", "bid": b}),
                }
            )
    legal_cards = set(v["legal"])
    hand = [
        {
            "card": c,
            "legal": c in legal_cards,
            "move": json.dumps({"type": "play", "card": c}),
        }
        for c in v["hand"]
    ]
    foreheads = None
    if v["hand_hidden"]:
        played = {s for s, _ in v["current"]}
        foreheads = []
        for s in range(n):
            cards = v["visible_cards"][s]
            foreheads.append(
                {
                    "name": names[s],
                    "me": s == me,
                    "played": s in played,
                    "card": cards[0] if cards else None,
                }
            )
    last_trick = None
    if v["tricks"]:
        t = v["tricks"][-1]
        last_trick = {
            "number": len(v["tricks"]),
            "winner": names[t["winner"]],
            "winner_is_me": t["winner"] == me,
            "cards": [
                {"card": c, "name": names[s], "by": "you" if s == me else names[s], "me": s == me}
                for s, c in t["cards"]
            ],
        }
    previous_trick = None
    if v["previous_trick"]:
        # The last deal's last trick (its card ended the deal): "Trick 7 of deal 1".
        t = v["previous_trick"]
        previous_trick = {
            "number": t["number"],
            "deal": t["deal"] + 1,
            "winner": names[t["winner"]],
            "winner_is_me": t["winner"] == me,
            # card None: the blind deal's card this seat played last, never seen.
            "cards": [
                {"card": c, "name": names[s], "by": "you" if s == me else names[s], "me": s == me}
                for s, c in t["cards"]
            ],
        }
    latest_bid = None
    made = sum(b is not None for b in bids)
    if phase in ("bid", "play") and made and not v["tricks"] and not v["current"]:
        # The bid just made, said once to every seat (the dealer's last one too, at
        # the deal's first lead): bidding runs clockwise from the dealer's left, so
        # the latest bidder is the dealer's `made`th seat on (the kind's `bids`).
        s = (v["dealer"] + made) % n
        latest_bid = {"seat": s, "name": names[s], "me": s == me, "bid": bids[s]}
    trump = v["trump"]
    totals = v["totals"]
    standings = sorted(range(n), key=lambda s: (-totals[s], s))
    return {
        "phase": phase,
        "over": phase == "over",
        "deal_number": min(v["deal"], su.N_DEALS - 1) + 1,
        "n_deals": v["n_deals"],
        "cards": v["cards"],
        "blind": v["blind"],
        "dealer_name": names[v["dealer"]],
        "i_deal": v["dealer"] == me,
        "trump_card": v["trump_card"],
        "trump_suit": SUIT_NAMES[trump] if trump else None,
        "trump_singular": SUIT_NAME_SINGULAR[trump] if trump else None,
        "seats": seats,
        "my_turn": my_turn,
        "to_act_name": names[to_act] if to_act is not None else None,
        "bid_buttons": bid_buttons,
        "forbidden_bid": v["forbidden_bid"],
        "bids_total": sum(b for b in bids if b is not None),
        "latest_bid": latest_bid,
        "hook": v["rules"].get("hook", True),
        "hand": hand,
        "hand_hidden": v["hand_hidden"],
        "foreheads": foreheads,
        "can_play_blind": v["can_play_blind"],
        "blind_move": json.dumps({"type": "play_blind"}),
        # Under a card and in its label the phone's own is "you".
        "current": [
            {"card": c, "name": names[s], "by": "you" if s == me else names[s], "me": s == me}
            for s, c in v["current"]
        ],
        "last_trick": last_trick,
        "previous_trick": previous_trick,
        "last_deal": _last_deal(v, names),
        "names": list(names),
        "sheet_rows": _sheet_rows(v, names),
        "totals": totals,
        "winners": [names[s] for s in v["winners"] or []],
        "i_won": bool(v["winners"]) and me in v["winners"],
        "leader_names": [names[s] for s in standings if totals[s] == totals[standings[0]]]
        if any(totals)
        else [],
    }


# ---------------------------------------------------------------- the kind


def _clean_bid(value: object) -> int:
    if type(value) is not int:
        raise MoveError("Choose a bid: a number of tricks.")
    return value


class SevenUp(GameKind):
    key = "seven_up"
    title = "7Up7Down"
    min_seats = su.MIN_SEATS
    max_seats = su.MAX_SEATS
    score_label = "points"
    per_seat_rules = False
    records_tricks = False
    keeps_final_state = True
    move_types = ("bid", "play", "play_blind")
    template = "play/games/seven_up.html"
    presets = PRESETS
    preset_titles = PRESET_TITLES
    preset_names = PRESET_NAMES
    knob_titles = {
        "hook": "The dealer's hook",
        "points_per_trick": "Points a trick bid (made exactly)",
        "zero_bid_points": "Points for a zero bid made",
        "ace": "Ace",
        "wins": "Which card wins",
    }
    knob_words = ACE_AND_WINS_WORDS
    judged_words = (
        "Only the rules that decide who takes a trick count: where the ace ranks and "
        "whether the highest or the lowest card wins. Sheets that differ only in the "
        "hook or the points (bidding and scoring) judge every trick alike."
    )

    def knob_label(self, knob, value):
        if knob == "hook" and isinstance(value, bool):
            return "On: the dealer may not make the bids add up" if value else "Off"
        if knob in ("points_per_trick", "zero_bid_points") and type(value) is int:
            return _points(value)
        return super().knob_label(knob, value)

    # ---- rules
    def rules_from_dict(self, d: object) -> SevenUpRules:
        return SevenUpRules.from_dict(d if d else {})

    def sheet(self, rules: dict, *, mode: str = "barnga") -> dict:
        return sheet_text(self.rules_from_dict(rules))

    def summary(self, rules: dict) -> str:
        """The facilitator's line: "Hook, 15 points a trick bid, 10 for a zero made, ace high, highest wins"."""
        r = self.rules_from_dict(rules)
        return (
            f"{'Hook' if r.hook else 'No hook'}, {r.points_per_trick} points a trick bid, "
            f"{r.zero_bid_points} for a zero made, ace {r.ace}, {r.wins} wins"
        )

    # ---- play
    def config(self, *, table_rules: dict, n_seats: int) -> su.Config:
        rules = self.rules_from_dict(table_rules).to_dict()
        return su.Config.from_rules(n_seats, rules)

    def new_state(self, *, table_rules, seat_rules, mode, seed):
        # Engine seat 0 sits at the first dealer's left (tournament game_start): the
        # engine's default first dealer, the last seat, is that dealer.
        config = self.config(table_rules=table_rules, n_seats=len(seat_rules))
        return su.new_match(config, seed=seed)

    def with_table_rules(self, state, rules):
        try:
            knobs = self.rules_from_dict(rules).to_dict()
            # The seats and the first dealer stay: only the knobs change.
            return replace(state, config=replace(state.config, **knobs))
        except (ValueError, TypeError):
            return None

    def apply(self, state, action):
        return su.apply(state, action)

    def is_over(self, state) -> bool:
        return su.is_over(state)

    def outcome(self, state) -> dict:
        return self.replay_outcome(su.result(state))

    def replay_input(self, *, table_rules, seat_rules, mode, seed, actions):
        """7Up's replay input is the deals as dealt (docs/seven_up.md): the log is
        played from the seed to write them."""
        state = self.new_state(table_rules=table_rules, seat_rules=seat_rules, mode=mode, seed=seed)
        for action in actions:
            state, _ = su.apply(state, action)
        return su.to_record(state)

    def replay_outcome(self, out: dict) -> dict:
        return {"winners": list(out["winners"]), "scores": list(out["totals"])}

    def rule_breaks(self, *, table_rules, seat_rules, mode, seed, actions):
        """{"tricks", "clashes" (tricks the seats' own sheets, ``seat_rules``, give to
        different winners), "log": [] (no revoke, no call)}, replayed from the log. The
        table's sheet refuses what it forbids and gives each trick its winner, so no card
        breaks it and nobody calls; each player still learned a home sheet, which would
        have given some tricks to someone else. Only what decides who takes a trick
        counts (``Config.trick_winner``: ace and wins): sheets that differ only in the
        hook or the points judge every trick alike."""
        try:
            state = self.new_state(
                table_rules=table_rules, seat_rules=seat_rules, mode=mode, seed=seed
            )
            sheets = [self.with_table_rules(state, r) for r in seat_rules]
            if any(s is None for s in sheets):
                return None
            configs = [s.config for s in sheets]
            out: dict = {"tricks": 0, "clashes": 0, "log": []}
            for action in actions:
                # The trick's trump is the deal's: read before its last card ends the deal.
                trump = state.trump
                state, events = su.apply(state, action)
                for e in events:
                    if e["type"] == "trick_complete":
                        cards = [(s, c) for s, c in e["cards"]]
                        verdicts = {c.trick_winner(cards, trump) for c in configs}
                        out["tricks"] += 1
                        out["clashes"] += len(verdicts) > 1
        except (su.IllegalAction, KeyError, TypeError, ValueError):
            return None
        return out

    def to_act(self, state) -> list[int]:
        return [state.to_act] if state.to_act is not None else []

    def bot_action(self, state, seat: int, rng: random.Random):
        return su.choose_action(state, seat, rng)

    def progress(self, state) -> int:
        """Tricks finished in the match so far."""
        return sum(len(r.tricks) for r in state.history) + len(state.tricks)

    def stage(self, state) -> str:
        # A match is 14 deals: the monitor's "Game 1 · bid" told a facilitator timing
        # the round neither how far a table had come nor that it was in the blind deal.
        if state.phase == su.PHASE_OVER:
            return ""
        blind = ", blind deal" if state.deal_no == su.BLIND_DEAL else ""
        return f"deal {state.deal_no + 1} of {su.N_DEALS}{blind}"

    # ---- phone
    def clean_move(self, state, seat: int, kind: str, move: dict) -> dict:
        if kind == "bid":
            return {"type": "bid", "seat": seat, "bid": _clean_bid(move.get("bid"))}
        if kind == "play":
            return {"type": "play", "seat": seat, "card": clean_card(move.get("card"))}
        return {"type": "play_blind", "seat": seat}

    def screen(self, state, seat: int, *, names: Sequence[str]) -> dict:
        return screen_context(su.view(state, seat), names)

    def unheard_end(self, state, seat: int, *, names: Sequence[str]) -> dict | None:
        """The last deal's last trick and the deal's score: its card ended the game,
        and the phone went from "your turn" to "Last game" (its points only)."""
        v = su.view(state, seat)
        ctx = screen_context({**v, "previous_trick": su.last_deal_trick(state, seat)}, names)
        if ctx["previous_trick"] is None and ctx["last_deal"] is None:
            return None
        return {"previous_trick": ctx["previous_trick"], "last_deal": ctx["last_deal"]}

    def first_trick_taken(self, state) -> bool:
        return state.deal_no > 0 or bool(state.tricks)

    def spectator(self, state, *, names: Sequence[str]) -> dict:
        v = su.spectator_view(state)
        return {**v, "names": list(names)}

    def bids(self, state, *, names: Sequence[str]) -> dict | None:
        """The deal's bids, as every seat's line shows them ("bid 2", "bid –"): public
        from the moment each is made. Never the trump or a hand."""
        if state.phase == su.PHASE_OVER:
            return None
        n = state.n_seats
        made = sum(b is not None for b in state.bids)
        latest = None
        if made and not state.tricks and not state.current:
            # Bidding runs clockwise from the dealer's left: the latest bidder is the
            # dealer's `made`th seat on.
            seat = (state.dealer + made) % n
            latest = {"name": names[seat], "bid": state.bids[seat]}
        return {
            "seats": [{"name": names[s], "bid": state.bids[s]} for s in range(n)],
            "latest": latest,
        }

    def new_hand(self, state, *, names: Sequence[str]) -> dict | None:
        """From a deal's end to the next deal's first card (its bids): who took the last
        trick, who made their bid ("Ana bid 2, took 1, missed; …": the bids were said to
        all as they came, the tricks taken in view), and the next deal as the players'
        phones head it ("Deal 2 of 14 · 6 cards each", its dealer, its trump: the card
        turned up for all to see). The points stay on the score sheet, which a watching
        student does not see: a bid's worth is the table's own rule (15 a trick, or 20,
        or 10; an exact zero 10, 30 or nothing), and a student moved there mid-game
        learns it as the others did, by playing."""
        if state.phase == su.PHASE_OVER or not state.history:
            return None
        if state.tricks or state.current:
            return None
        r = state.history[-1]
        last = r.tricks[-1] if r.tricks else None
        blind = ", blind deal" if state.deal_no == su.BLIND_DEAL else ""
        return {
            "ended": f"Deal {r.number + 1}",
            "trick": len(r.tricks) if last else None,
            "taker": names[last.winner] if last else None,
            "next": f"Deal {state.deal_no + 1} of {su.N_DEALS}{blind}",
            "dealer": names[state.dealer],
            "cards": state.cards,
            "points": None,
            "scored": [
                {
                    "name": names[s],
                    "bid": r.bids[s],
                    "tricks": r.tricks_won[s],
                    "made": r.bids[s] == r.tricks_won[s],
                }
                for s in range(len(names))
            ],
            "trump": SUIT_NAMES[state.trump_card[-1]] if state.trump_card else None,
        }


KIND = SevenUp()
