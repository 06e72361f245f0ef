"""All Fives (games/all_fives.py) as a workshop's base game.

A table's secret rules are the engine's ``Sheet`` (three knobs: ``ace``, ``wins``,
``follow``); every seat plays by its home table's sheet in Barnga mode, where a
card the table's sheet forbids is a revoke the opponents may call. The game knobs
(61 to win, a called revoke costs 3 points) are the engine's defaults and the
same at every table: they are not part of a sheet (docs/all_fives.md, "In a
workshop").

Phone moves (``{"type": ..., ...}``): ``stand`` / ``beg`` (eldest), ``take_one`` /
``run`` (the dealer after a beg), ``play`` with ``card``, ``call_revoke`` with
``accused`` (a seat number). The acting seat is always the phone's own.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from games import all_fives
from games.all_fives import Sheet
from games.cards import SUIT_NAME_SINGULAR, SUIT_NAMES

from .base import ACE_AND_WINS_WORDS, GameKind, MoveError, clean_card

TITLE = "All Fives"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_ACE_WORDS = {"high": "Ace high", "low": "Ace low"}
_WINS_WORDS = {"highest": "highest wins", "lowest": "lowest wins"}
_FOLLOW_WORDS = {
    "suit": "follow suit",
    "suit_or_trump": "follow suit or trump",
    "any": "play any card",
}


def _preset_key(sheet: Sheet) -> str:
    return f"{sheet.ace}_{sheet.wins}_{sheet.follow}"


def _preset_title(sheet: Sheet) -> str:
    return f"{_ACE_WORDS[sheet.ace]}, {_WINS_WORDS[sheet.wins]}, {_FOLLOW_WORDS[sheet.follow]}"


# Every combination of the three knobs (2 × 2 × 3 = 12 sheets), the seed's first.
# Each sheet differs from 7 of the other 11 in two or three knobs, so
# tournament/sheet_assignment.auto_assign finds neighbours that differ in two
# knobs for any table count (beyond 12 tables it cycles through all 12).
PRESET_SHEETS: tuple[Sheet, ...] = tuple(
    Sheet(ace=a, wins=w, follow=f)
    for a, w, f in itertools.product(
        ("high", "low"), ("highest", "lowest"), all_fives.FOLLOW_VALUES
    )
)
PRESETS: dict[str, Sheet] = {_preset_key(s): s for s in PRESET_SHEETS}
PRESET_TITLES: dict[str, str] = {_preset_key(s): _preset_title(s) for s in PRESET_SHEETS}


# ---------------------------------------------------------------- the study sheet


def _order_text(sheet: Sheet) -> str:
    if sheet.ace == "high":
        return (
            "From lowest to highest the cards rank 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, "
            "king, ace: the ace is the highest card."
        )
    return (
        "From lowest to highest the cards rank ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, "
        "king: the ace is the lowest card."
    )


def _best_and_worst(sheet: Sheet) -> tuple[str, str]:
    low, high = ("ace", "king") if sheet.ace == "low" else ("2", "ace")
    return (high, low) if sheet.wins == "highest" else (low, high)


def _follow_text(sheet: Sheet) -> str:
    if sheet.follow == "suit":
        return (
            "The leader may play any card. The others must follow suit: if you hold a card of "
            "the suit that was led, you must play one. If you hold none, you may play any card, "
            "a trump or not."
        )
    if sheet.follow == "suit_or_trump":
        return (
            "The leader may play any card. If you hold a card of the suit that was led, you must "
            "play either a card of that suit or a trump; no other card is allowed. If you hold "
            "none, you may play any card."
        )
    return (
        "The leader may play any card, and so may everyone else: you never have to follow "
        "the suit that was led. You may always play a trump, or any other card."
    )


def sheet_text(sheet: Sheet, *, mode: str = "barnga") -> dict:
    """The study sheet for ``sheet``: a title and {heading, text} sections, from the knobs only."""
    word = "highest" if sheet.wins == "highest" else "lowest"
    best, worst = _best_and_worst(sheet)
    target, penalty = all_fives.TARGET, all_fives.REVOKE_PENALTY
    sections = [
        ("Cards", "A full pack of 52 cards, four suits. " + _order_text(sheet)),
        ("Players", "2 or 3 players, each for themselves."),
        (
            "Deal",
            "The phone picks the first dealer; after each hand the player on the dealer's left "
            "deals. The dealer gives each player six cards in two batches of three, starting "
            "with the player on their left (called eldest), then turns up the next card. The "
            "suit of the turned-up card is trumps for this hand. The turned-up card stays on "
            "the table and belongs to nobody.",
        ),
        (
            "Stand or beg",
            "Eldest looks at their cards and either stands (play with these trumps) or begs "
            "(asks for a new trump). After a beg the dealer chooses: give one point (eldest "
            "scores 1 point at once and the trump stays), or run the cards: the dealer puts the "
            "turned-up card aside, deals three more cards to each player and turns up the next "
            "card. If it is the same suit as before, the dealer does this again, until a new "
            "suit turns up. If the pack runs out first, all cards are shuffled and dealt again "
            "by the same dealer. Eldest can beg only once per hand; after a run everyone plays "
            "with all the cards they hold.",
        ),
        (
            "Playing",
            "Eldest leads the first trick. Then each other player, clockwise, plays one "
            "card; the cards played make a trick. " + _follow_text(sheet),
        ),
        (
            "Winning a trick",
            f"If anyone played a trump, the {word} trump wins the trick. Otherwise the {word} "
            f"card of the suit that was led wins; a card of another suit never wins. In each "
            f"suit the {best} is the best card and the {worst} the worst. The winner of a trick "
            "leads the next one.",
        ),
        (
            "Scoring",
            "When every player has played all their cards, each player scores for the trumps in the tricks "
            "they won: ace 4, king 3, queen 2, jack 1, ten 10, five 5. Other cards score "
            "nothing. Points are added to your total; the phone keeps score.",
        ),
        (
            "End of the game",
            f"The first player to reach {target} points when a hand is scored wins. If several "
            f"reach {target} in the same hand, the highest total wins; if they are tied, play "
            "another hand. If play is stopped early, the highest score so far wins (equal "
            "scores share the win)"
            + (
                ", but not a player whose revoke was called in the hand being played"
                if mode != "referee"
                else ""
            )
            + "; while every score is 0, nobody wins.",
        ),
        (
            "Revokes",
            "Playing a card these rules do not allow is a revoke. Any opponent may call it after "
            "the trick is complete and before the next card is led. A revoke that is called "
            f"costs the player {penalty} points, and they cannot win the game on this hand. A "
            "wrong call costs nothing.",
        )
        if mode != "referee"
        else (
            "Revokes",
            "The phone refuses any card the rules do not allow, so nobody can revoke and "
            "there is no revoke to call.",
        ),
    ]
    return {"title": TITLE, "sections": [{"heading": h, "text": t} for h, t in sections]}


# ---------------------------------------------------------------- the kind


class AllFives(GameKind):
    key = "all_fives"
    title = TITLE
    min_seats = all_fives.MIN_SEATS
    max_seats = all_fives.MAX_SEATS
    score_label = "points"
    per_seat_rules = True
    records_tricks = False
    records_revokes = True
    # The card that scores a game's last hand ends it: that hand's last trick and score
    # are said on the next screens (unheard_end), as any other hand's are on the next
    # hand's.
    keeps_final_state = True
    move_types = all_fives.ACTION_TYPES  # stand, beg, take_one, run, play, call_revoke
    # A call changes scores and who may win the hand, not what anyone may play or call
    # (a second call on the same card is refused by the engine, saying so).
    concurrent_moves = frozenset({"call_revoke"})
    template = "play/games/all_fives.html"
    presets = PRESETS
    preset_titles = PRESET_TITLES
    knob_titles = {"ace": "Ace", "wins": "Which card wins", "follow": "Following the lead"}
    knob_words = {
        **ACE_AND_WINS_WORDS,
        "follow": {
            "suit": "Follow suit",
            "suit_or_trump": "Follow suit or trump",
            "any": "Any card",
        },
    }

    # ---- rules
    def rules_from_dict(self, d: object) -> Sheet:
        return Sheet.from_dict(d if d else Sheet().to_dict())

    def sheet(self, rules: dict, *, mode: str = "barnga") -> dict:
        return sheet_text(self.rules_from_dict(rules), mode=mode)

    def summary(self, rules: dict) -> str:
        """The facilitator's line: "Ace high, highest wins, follow suit"."""
        return _preset_title(self.rules_from_dict(rules))

    # ---- play
    def config(self, *, table_rules: dict, seat_rules: Sequence[dict], mode: str):
        return all_fives.Config(
            table_rules=self.rules_from_dict(table_rules),
            seat_rules=tuple(self.rules_from_dict(r) for r in seat_rules),
            mode=mode,
        )

    def new_state(self, *, table_rules, seat_rules, mode, seed):
        return all_fives.new_game(
            self.config(table_rules=table_rules, seat_rules=seat_rules, mode=mode), seed=seed
        )

    def apply(self, state, action):
        return all_fives.apply(state, action)

    def is_over(self, state) -> bool:
        return all_fives.is_over(state)

    def outcome(self, state) -> dict:
        return self.replay_outcome(all_fives.result(state))

    def replay_input(self, *, table_rules, seat_rules, mode, seed, actions):
        config = self.config(table_rules=table_rules, seat_rules=seat_rules, mode=mode)
        return {"game": all_fives.GAME, **config.to_dict(), "seed": seed, "actions": list(actions)}

    def rule_breaks(self, *, table_rules, seat_rules, mode, seed, actions):
        """{"tricks", "clashes" (tricks the seats' sheets name different winners of),
        "log" (each revoke and call, in the log's order: see below)}, replayed from the
        log.

        A "log" entry says which of ``actions`` it was (``action``, 0-based), the
        ``hand`` (1-based) and the ``trick`` in it (0-based), the ``seat`` and the
        ``card``. A revoke (``"kind": "revoke"``, the card that broke the table's sheet,
        counted once its trick is finished) says whether a call ever named it
        (``called``); a call (``"kind": "call"``) the seat it named (``accused``), that
        seat's card and whether it named a revoke (``upheld``). A call can name only
        the last finished trick's card, before the next lead: an upheld one follows its
        revoke, in the same hand and trick."""
        try:
            state = self.new_state(
                table_rules=table_rules, seat_rules=seat_rules, mode=mode, seed=seed
            )
            out: dict = {"tricks": 0, "clashes": 0, "log": []}
            played: dict[int, int] = {}  # seat: its card's action, in the trick in progress
            revoke_at: dict[tuple[int, int, int], dict] = {}  # (hand, trick, seat): entry
            for i, action in enumerate(actions):
                # The hand the action is played in: a hand's last card scores it.
                hand = state.hand_no
                state, events = all_fives.apply(state, action)
                for e in events:
                    if e["type"] == "card_played":
                        played[e["seat"]] = i
                    elif e["type"] == "trick_won":
                        out["tricks"] += 1
                        out["clashes"] += len(set(e["verdicts"])) > 1
                        cards = dict(e["cards"])
                        for seat in e["revokes"]:
                            entry = {
                                "kind": "revoke",
                                "action": played[seat],
                                "hand": hand,
                                "trick": e["trick"],
                                "seat": seat,
                                "card": cards[seat],
                                "called": False,
                            }
                            revoke_at[(hand, e["trick"], seat)] = entry
                            out["log"].append(entry)
                        played = {}
                    elif e["type"] == "revoke_called":
                        out["log"].append(
                            {
                                "kind": "call",
                                "action": i,
                                "hand": hand,
                                "trick": e["trick"],
                                "seat": e["seat"],
                                "card": e["card"],
                                "accused": e["accused"],
                                "upheld": e["upheld"],
                            }
                        )
                        if e["upheld"]:
                            revoke_at[(hand, e["trick"], e["accused"])]["called"] = True
        except (all_fives.IllegalAction, KeyError, TypeError, ValueError):
            return None
        return out

    def replay_outcome(self, out: dict) -> dict:
        return {"winners": list(out["winners"]), "scores": list(out["scores"])}

    def calls_open(self, state) -> bool:
        return bool(state.calls_open)

    def to_act(self, state) -> list[int]:
        """The awaited seat first, then (while a revoke may be called) the other seats.

        The timer asks the other seats' bots before the awaited seat's (whose move
        closes the calls), and passes over a bot that chooses not to call.
        """
        seat = state.to_act
        if seat is None:
            return []
        if not state.calls_open:
            return [seat]
        return [seat] + [s for s in range(state.n_seats) if s != seat]

    def bot_action(self, state, seat: int, rng: random.Random):
        return all_fives.choose_from_view(
            all_fives.view(state, seat), rng, state.config.seat_rules[seat]
        )

    def first_dealer(self, state) -> int:
        """The seed's cut chooses the first dealer."""
        return state.dealer

    def progress(self, state) -> int:
        """Tricks finished in the whole game. A game over keeps its last hand's tricks
        in `tricks` as well as in its record in `history`: counted once."""
        done = sum(len(h.tricks) for h in state.history)
        return done if state.phase == all_fives.PHASE_OVER else done + len(state.tricks)

    def stage(self, state) -> str:
        # A game runs hand after hand to 61 points: which one the table is at.
        return "" if state.phase == all_fives.PHASE_OVER else f"hand {state.hand_no}"

    # ---- phone
    def clean_move(self, state, seat: int, kind: str, move: dict) -> dict:
        action = {"type": kind, "seat": seat}
        if kind == "play":
            action["card"] = clean_card(move.get("card"))
        elif kind == "call_revoke":
            accused = move.get("accused")
            if type(accused) is not int:
                raise MoveError("Say whose card you call a revoke on.")
            action["accused"] = accused
        return action

    def screen(self, state, seat: int, *, names: Sequence[str]) -> dict:
        return screen_context(all_fives.view(state, seat), names)

    def unheard_end(self, state, seat: int, *, names: Sequence[str]) -> dict | None:
        """The last hand's last trick and score: its last card ended the game, and the
        phone went from the turn to "Last game" (the totals only)."""
        last_hand = _last_hand(all_fives.view(state, seat), names)
        return {"last_hand": last_hand} if last_hand else None

    def first_trick_taken(self, state) -> bool:
        return bool(state.history) or bool(state.tricks)

    def spectator(self, state, *, names: Sequence[str]) -> dict:
        return {**all_fives.spectator_view(state), "names": list(names)}

    def new_hand(self, state, *, names: Sequence[str]) -> dict | None:
        """From a hand's end to the next hand's first card (its stand or beg, a run):
        who took the last trick, the points of the players' phones' "Hand 1 scored"
        line, and the next hand's dealer ("Hand 2 · Bea deals")."""
        if state.phase == all_fives.PHASE_OVER or not state.history:
            return None
        if state.tricks or state.current:
            return None
        h = state.history[-1]
        last = h.tricks[-1] if h.tricks else None
        return {
            "ended": f"Hand {h.hand}",
            "trick": len(h.tricks) if last else None,
            "taker": names[last.winner] if last else None,
            "next": f"Hand {state.hand_no}",
            "dealer": names[state.dealer],
            "cards": None,
            "points": [
                {
                    "name": names[s],
                    "points": h.points[s],
                    "penalty": h.penalties[s],
                    "score": h.scores[s],
                }
                for s in range(state.n_seats)
            ],
            "scored": None,
            # A beg may turn up another: a line that changed would be said again whole.
            "trump": None,
        }


def _named_cards(cards, names, me: int) -> list[dict]:
    """Cards with who played them; under a card and in its label the phone's own is "you"."""
    return [
        {
            "seat": s,
            "name": names[s],
            "by": "you" if s == me else names[s],
            "card": c,
            "me": s == me,
        }
        for s, c in cards
    ]


def bars_anew(calls: Sequence[dict], i: int) -> bool:
    """Whether call ``i`` of a hand's ``calls`` (a view's) bars its accused from
    winning the game on this hand (RULES.md: an upheld call does), said with its
    verdict: upheld, and the first upheld call on that seat this hand."""
    c = calls[i]
    return c["upheld"] and not any(e["upheld"] and e["accused"] == c["accused"] for e in calls[:i])


def call_said(
    calls: Sequence[dict], i: int, names: Sequence[str], *, penalty: int, style: str
) -> dict:
    """Call ``i`` of a hand's ``calls`` (a view's) in the words a phone says it with,
    a player's or a watcher's: who called it on whom, on which trick, its verdict,
    what an upheld one cost (``penalty`` points, ``style`` "lose" or "bonus": the
    score beside a name changes unsaid) and whether it bars the accused from winning
    on this hand (seen only as the "revoke called" badge)."""
    c = calls[i]
    return {
        "caller": names[c["caller"]],
        "accused": names[c["accused"]],
        "trick": c["trick"] + 1,
        "upheld": c["upheld"],
        "points": penalty,
        "bonus": style == "bonus",
        "bars": bars_anew(calls, i),
    }


def _last_hand(v: dict, names: Sequence[str]) -> dict | None:
    """The hand last scored, from one seat's view: its last trick's taker and each
    seat's points (None before the first hand is scored)."""
    if not v["history"]:
        return None
    seat, n = v["seat"], v["n_seats"]
    h = v["history"][-1]
    return {
        "hand": h["hand"],
        "trump_name": SUIT_NAMES[h["trump"]],
        "trump_symbol": SUIT_SYMBOLS[h["trump"]],
        "took_one": h["took_one"],
        # Its last trick: who took it, never shown (its last card scored the hand).
        "last_trick": None
        if h["last_winner"] is None
        else {
            "number": h["tricks_played"],
            "winner": names[h["last_winner"]],
            "winner_is_me": h["last_winner"] == seat,
        },
        "rows": [
            {
                "name": names[s],
                "me": s == seat,
                "points": h["points"][s],
                "penalty": h["penalties"][s],
                "score": h["scores"][s],
            }
            for s in range(n)
        ],
    }


def screen_context(v: dict, names: Sequence[str]) -> dict:
    """The phone's context from one seat's view only (never the state)."""
    seat, n = v["seat"], v["n_seats"]
    actions = v["actions"]
    types = {a["type"] for a in actions}
    legal = set(v["legal"])
    to_act = v["to_act"]
    trump = v["trump"]
    seats = [
        {
            "seat": s,
            "name": names[s],
            "me": s == seat,
            "score": v["scores"][s],
            "count": v["hand_counts"][s],
            "points_taken": v["points_taken"][s],
            "dealer": s == v["dealer"],
            "eldest": s == v["eldest"],
            "turn": s == to_act,
            "barred": v["barred"][s],
        }
        for s in range(n)
    ]
    last_trick = None
    if v["tricks"]:
        t = v["tricks"][-1]
        last_trick = {
            "number": len(v["tricks"]),
            "cards": _named_cards(t["cards"], names, seat),
            "winner": names[t["winner"]],
            "winner_is_me": t["winner"] == seat,
        }
    calls = [
        {
            **call_said(v["calls"], i, names, penalty=v["revoke_penalty"], style=v["revoke_style"]),
            "caller_is_me": c["caller"] == seat,
            "accused_is_me": c["accused"] == seat,
        }
        for i, c in enumerate(v["calls"])
    ]
    phase = v["phase"]
    return {
        "seat": seat,
        "phase": phase,
        "mode": v["mode"],
        "target": v["target"],
        "hand_no": v["hand_no"],
        "seats": seats,
        "dealer_name": names[v["dealer"]],
        "eldest_name": names[v["eldest"]],
        "i_am_dealer": v["dealer"] == seat,
        "i_am_eldest": v["eldest"] == seat,
        "trump": trump,
        "trump_name": SUIT_NAMES[trump],
        "trump_singular": SUIT_NAME_SINGULAR[trump],
        "trump_symbol": SUIT_SYMBOLS[trump],
        "turn_up": v["turn_up"],
        "set_aside": list(v["set_aside"]),
        "begged": v["begged"],
        "took_one": v["took_one"],
        "runs": v["runs"],
        "redeals": v["redeals"],
        "stock_count": v["stock_count"],
        "my_turn": to_act == seat,
        "to_act_name": names[to_act] if to_act is not None else None,
        "can_stand": "stand" in types,
        "can_beg": "beg" in types,
        "can_take_one": "take_one" in types,
        "can_run": "run" in types,
        "can_play": "play" in types,
        "revoke_targets": [
            {"seat": a["accused"], "name": names[a["accused"]]}
            for a in actions
            if a["type"] == "call_revoke"
        ],
        "hand": [{"card": c, "legal": c in legal, "trump": c[-1] == trump} for c in v["hand"]],
        # After a run (nine cards or more): narrow cards, the rank above the suit.
        "hand_narrow": len(v["hand"]) > 7,
        "current": _named_cards(v["current"], names, seat),
        "last_trick": last_trick,
        "tricks_done": len(v["tricks"]),
        "calls": calls,
        "last_hand": _last_hand(v, names),
        "winners": [names[s] for s in v["winners"]] if v["winners"] is not None else None,
        # The phone calls its own player "you" (as the other games do): "you and Bea".
        # Said as "Ana, Bea and you" (the template's bdi_and: each name set apart).
        "winners_words": [("you" if s == seat else names[s]) for s in v["winners"] or []],
    }


KIND = AllFives()
