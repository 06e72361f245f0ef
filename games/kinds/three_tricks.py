"""3 Tricks (games/three_tricks.py) as a workshop's base game: tables of two.

One Config per table (no per-seat sheets: the table's rules decide for both
players, and the engine refuses a move with the rule it breaks). Presets are
twenty variants of the seed's game, every two of them at least two knobs apart,
so tournament/sheet_assignment.py can deal them to any number of tables.

The phone screen is built from ``three_tricks.view(state, seat)`` alone. Which
hand cards to highlight comes from the view's legal actions (``lay_partners``,
``block_partners``): the cards that lay a trick now, and the cards that block the
opponent's fresh trick, each with the cards it would go with.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from games import three_tricks
from games.cards import parse_card
from games.three_tricks import Config

from .base import GameKind, MoveError, clean_cards


def _p(aces="wild", block="suit_or_rank", rank_match="pair", max_swap=3, stock_floor=5,
       count="most") -> Config:  # fmt: skip
    return Config(aces=aces, block=block, rank_match=rank_match, max_swap=max_swap,
                  stock_floor=stock_floor, count=count)  # fmt: skip


# Every two presets differ in at least two knobs (tests/tournament/test_kind_three_tricks.py),
# and none pairs block "suit" with rank_match "card" (rank_match would mean nothing there).
PRESETS: dict[str, Config] = {
    "seed": _p(),
    "suits": _p(block="suit", max_swap=2),
    "pairs": _p(block="rank", stock_floor=8),
    "any-rank": _p(rank_match="card", count="fewest"),
    "low-aces": _p(aces="low", max_swap=2),
    "high-aces": _p(aces="high", stock_floor=8),
    "fewest": _p(max_swap=1, count="fewest"),
    "swap-one-short": _p(max_swap=1, stock_floor=12),
    "low-suits": _p(aces="low", block="suit", count="fewest"),
    "high-ranks": _p(aces="high", block="rank", rank_match="card"),
    "low-pairs-fewest": _p(aces="low", block="rank", max_swap=1, count="fewest"),
    "high-suits-short": _p(aces="high", block="suit", max_swap=1, stock_floor=10),
    "wild-ranks-fewest": _p(block="rank", rank_match="card", max_swap=2, count="fewest"),
    "long-stock": _p(max_swap=4, stock_floor=0),
    "low-any-rank": _p(aces="low", rank_match="card", stock_floor=10),
    "high-fewest": _p(aces="high", max_swap=2, count="fewest"),
    "suits-fewest-long": _p(block="suit", stock_floor=0, count="fewest"),
    "low-swap-one": _p(aces="low", max_swap=1, stock_floor=8, count="fewest"),
    "high-any-rank-swap-4": _p(aces="high", rank_match="card", max_swap=4, count="fewest"),
    "wild-pairs-swap-1": _p(block="rank", max_swap=1, stock_floor=3),
}

PRESET_TITLES: dict[str, str] = {
    "seed": "The seed's game (wild aces, block by suit or a pair)",
    "suits": "Blocks by suit only, swap up to 2",
    "pairs": "Blocks by a pair only, drawing stops at 8",
    "any-rank": "Any card of the rank blocks, fewest blocked wins",
    "low-aces": "Aces low, swap up to 2",
    "high-aces": "Aces high, drawing stops at 8",
    "fewest": "Fewest blocked wins, swap 1",
    "swap-one-short": "Swap 1, drawing stops at 12",
    "low-suits": "Aces low, blocks by suit, fewest wins",
    "high-ranks": "Aces high, any card of the rank blocks (no suit)",
    "low-pairs-fewest": "Aces low, blocks by a pair, swap 1, fewest wins",
    "high-suits-short": "Aces high, blocks by suit, swap 1, drawing stops at 10",
    "wild-ranks-fewest": "Any card of the rank blocks (no suit), swap 2, fewest wins",
    "long-stock": "Swap up to 4, draw to the last card",
    "low-any-rank": "Aces low, any card of the rank blocks, drawing stops at 10",
    "high-fewest": "Aces high, swap up to 2, fewest wins",
    "suits-fewest-long": "Blocks by suit, draw to the last card, fewest wins",
    "low-swap-one": "Aces low, swap 1, drawing stops at 8, fewest wins",
    "high-any-rank-swap-4": "Aces high, any card of the rank blocks, swap 4, fewest wins",
    "wild-pairs-swap-1": "Blocks by a pair only, swap 1, drawing stops at 3",
}


# ---------------------------------------------------------------- the study sheet


def _aces_text(c: Config) -> str:
    if c.aces == "wild":
        return (
            "Aces are wild: an ace stands for whatever card your trick needs. A trick "
            "cannot be made of aces alone, so lay an ace with at least one other card. "
            "A wild ace's own suit and rank count for nothing: it matches no suit or rank "
            "when blocking."
        )
    if c.aces == "low":
        return (
            "Aces are ordinary cards, the lowest of each suit: ace-2 is a run, "
            "king-ace is not. An ace makes pairs only with other aces."
        )
    return (
        "Aces are ordinary cards, the highest of each suit: king-ace is a run, "
        "ace-2 is not. An ace makes pairs only with other aces."
    )


def _instead(c: Config) -> str:
    """What a turn may do besides laying or blocking: no swap at a table of max_swap 0."""
    return "pass or swap" if c.max_swap else "pass"


def _block_text(c: Config) -> str:
    if c.rank_match == "pair":
        by_rank = "be a pair of the same rank as one of its cards"
    else:
        by_rank = "hold a card of the same rank as one of its cards"
    by_suit = "hold a card of the same suit as one of its cards"
    need = {
        "suit_or_rank": f"either {by_suit}, or {by_rank}",
        "suit": f"{by_suit} (a matching rank is not enough)",
        "rank": f"{by_rank} (a matching suit is not enough)",
    }[c.block]
    return (
        "When your opponent has just laid a trick, you may block it: lay a two-card "
        f"trick from your hand that matches it. To match, your trick must {need}. "
        "Only the trick laid on the turn just before yours can be blocked; once you "
        f"{_instead(c)} instead, it stands. Your block stands in front of you as your own "
        "next trick, and your opponent may block it back. With two tricks standing you "
        "cannot block: your next trick must be the three-card one."
    )


def _turn_text(c: Config) -> str:
    also = ", pass or swap" if c.max_swap else " or pass"
    return (
        "On your turn do exactly one thing: lay your next trick face up in front of "
        f"you, block{also}. If your opponent has just laid a trick, you may "
        f"block it{also}, but not lay a trick of your own."
    )


def _swap_text(c: Config) -> str:
    if c.max_swap == 0:
        return (
            "Instead of laying or blocking you may pass. Swapping cards is not allowed "
            "at this table."
        )
    if c.max_swap == 1:
        swap = "one card: put it face down on the secondary stockpile, then draw one"
    else:
        swap = (
            f"up to {c.max_swap} cards: put them face down on the secondary stockpile, "
            "then draw as many"
        )
    return (
        f"Instead of laying or blocking you may pass, or swap {swap} from the stockpile. Either "
        "way your turn ends. A trick standing in front of you stays there while you "
        "pass or swap."
    )


def _stock_text(c: Config) -> str:
    if c.stock_floor == 0:
        stop = "the stockpile is empty and there is no secondary stockpile"
    else:
        stop = (
            f"the stockpile is down to {c.stock_floor} card{'s' if c.stock_floor != 1 else ''} "
            "or fewer and there is no secondary stockpile"
        )
    return (
        "As soon as the stockpile runs out, shuffle the secondary stockpile: it becomes "
        f"the stockpile and drawing goes on. Drawing stops for good when {stop}; a "
        "player may then be left with fewer than seven cards."
    )


def _end_text(c: Config) -> str:
    who = "most" if c.count == "most" else "fewest"
    return (
        "The game ends when drawing stops, or when both players pass one after the "
        "other (a pass that lets a trick just laid stand does not count). Then each player counts the tricks in their own blocked-trick pile "
        f"(tricks still standing do not count): the player with the {who} blocked "
        "tricks wins. Equal piles when drawing stops are a draw. Equal piles after "
        "both players passed mean nobody wins. If play is stopped early, the piles so "
        "far are counted the same way; equal piles then mean nobody wins."
    )


def sheet_for(config: Config) -> dict:
    """The study sheet of a table's rules, written from its knobs."""
    sections = [
        (
            "Cards and players",
            "Two players and a full deck of 52 cards. The dealer deals seven cards to each "
            "player, one at a time, starting with the other player. The rest of the deck, "
            "face down, is the stockpile. The player who did not deal plays first.",
        ),
        (
            "Tricks",
            "A trick is two cards: a pair (two cards of one rank, such as two eights) or a "
            "run (two cards next to each other in one suit, such as the 6 and 7 of "
            "spades). Your third trick is three cards: three of a kind, or a run of three "
            "in one suit.",
        ),
        ("Aces", _aces_text(config)),
        ("Your turn", _turn_text(config)),
        ("Blocking", _block_text(config)),
        (
            "Blocked tricks",
            "The blocked player picks up every trick standing in front of them (blocking "
            "the second trick takes the first with it), puts them face down on their own "
            "blocked-trick pile, and draws two cards for each of them. Blocking the second "
            "trick also takes the blocked player's turn: drawing the four cards is their "
            "turn, and the blocker plays again.",
        ),
        ("Passing and swapping", _swap_text(config)),
        ("The stockpiles", _stock_text(config)),
        (
            "Winning",
            "Three tricks standing in front of you at once win the game at once: the "
            "third trick cannot be blocked.",
        ),
        ("The end and the count", _end_text(config)),
    ]
    return {
        "title": "3 Tricks",
        "sections": [{"heading": h, "text": t} for h, t in sections],
    }


# ---------------------------------------------------------------- highlights (pure)


def lay_partners(hand: Sequence[str], actions: Iterable[dict]) -> dict[str, list[str]]:
    """For each hand card that lays a trick now, the cards it can be laid with."""
    return _partners(hand, (a["cards"] for a in actions if a["type"] == "lay"))


def block_partners(hand: Sequence[str], actions: Iterable[dict]) -> dict[str, list[str]]:
    """For each hand card that takes part in a legal block now, its possible partners."""
    return _partners(hand, (a["cards"] for a in actions if a["type"] == "block"))


def _partners(hand: Sequence[str], groups: Iterable[Sequence[str]]) -> dict[str, list[str]]:
    order = {c: i for i, c in enumerate(hand)}
    out: dict[str, set[str]] = {}
    for group in groups:
        for card in group:
            out.setdefault(card, set()).update(c for c in group if c != card)
    return {c: sorted(out[c], key=order.__getitem__) for c in hand if c in out}


def swap_limit(actions: Iterable[dict]) -> int:
    """The most cards a swap may take now (0: no swap), read off the legal actions."""
    return max((len(a["cards"]) for a in actions if a["type"] == "swap"), default=0)


# ---------------------------------------------------------------- the kind


def _cards(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


class ThreeTricks(GameKind):
    key = "three_tricks"
    title = "3 Tricks"
    end_words = {
        three_tricks.OUTCOME_TRICKS: "three tricks stood in a row",
        three_tricks.OUTCOME_PASSED: "both players passed: the blocked tricks were counted",
        three_tricks.OUTCOME_STOPPED: "drawing stopped: the blocked tricks were counted",
    }
    min_seats = three_tricks.MIN_SEATS
    max_seats = three_tricks.MAX_SEATS
    # A seat's score is what the count counts: the tricks in its blocked-trick pile.
    score_label = "blocked tricks"
    per_seat_rules = False
    move_types = ("lay", "block", "pass", "swap")
    template = "play/games/three_tricks.html"
    presets = PRESETS
    preset_titles = PRESET_TITLES
    knob_titles = {
        "aces": "Aces",
        "block": "A block matches by",
        "rank_match": "Blocking by rank takes",
        "max_swap": "Swap at most",
        "stock_floor": "Drawing stops at",
        "count": "Winner at the count",  # (no comma: titles are listed with commas)
    }
    knob_words = {
        "aces": {"wild": "Wild", "low": "Low (A, 2, 3)", "high": "High (Q, K, A)"},
        "block": {"suit_or_rank": "Suit or rank", "suit": "Suit only", "rank": "Rank only"},
        "rank_match": {"pair": "A pair of the rank", "card": "Any card of the rank"},
        "count": {"most": "Most blocked tricks", "fewest": "Fewest blocked tricks"},
    }

    def knob_applies(self, knob, rules):
        # What a rank match takes means nothing where blocks match by suit only.
        return not (knob == "rank_match" and rules.get("block") == "suit")

    def knob_label(self, knob, value):
        if knob == "max_swap" and isinstance(value, int):
            return "No swapping (pass only)" if value == 0 else _cards(value)
        if knob == "stock_floor" and isinstance(value, int):
            return "The last card" if value == 0 else f"{_cards(value)} left"
        return super().knob_label(knob, value)

    # ---- rules
    def rules_from_dict(self, d: object) -> Config:
        return Config.from_dict(d if d else {})

    def sheet(self, rules: dict, *, mode: str = "barnga") -> dict:
        return sheet_for(self.rules_from_dict(rules))

    def summary(self, rules: dict) -> str:
        """ "Wild aces, block by suit or a pair, swap up to 3, drawing stops at 5, most blocked wins"."""
        c = self.rules_from_dict(rules)
        rank = "a pair" if c.rank_match == "pair" else "rank"
        block = {"suit_or_rank": f"suit or {rank}", "suit": "suit", "rank": rank}[c.block]
        swap = "no swapping" if c.max_swap == 0 else f"swap up to {c.max_swap}"
        aces = {"wild": "Wild aces", "low": "Aces low", "high": "Aces high"}[c.aces]
        return (
            f"{aces}, block by {block}, {swap}, drawing stops at {c.stock_floor}, "
            f"{c.count} blocked wins"
        )

    # ---- play
    def new_state(self, *, table_rules, seat_rules, mode, seed):
        return three_tricks.new_game(self.rules_from_dict(table_rules), seed=seed)

    def with_table_rules(self, state, rules):
        try:
            return replace(state, config=self.rules_from_dict(rules))
        except (ValueError, TypeError):
            return None

    def apply(self, state, action):
        return three_tricks.apply(state, action)

    def is_over(self, state) -> bool:
        return three_tricks.is_over(state)

    def end_reason(self, state) -> str:
        return state.outcome or ""

    def winners_before(self, ended_by, outcome):
        # Before the two-pass decision (docs/three_tricks.md) level piles after two
        # passes were a draw: both seats credited a game won.
        if ended_by == three_tricks.OUTCOME_PASSED and not outcome["winners"]:
            return [0, 1]
        return None

    def how_it_ended(self, ended_by, winners) -> str:
        # Two passes with level piles win nobody (docs/three_tricks.md): "no winner
        # (both players passed: the blocked tricks were counted)" would not say why.
        if ended_by == three_tricks.OUTCOME_PASSED and not winners:
            return "both players passed with the blocked piles level"
        return super().how_it_ended(ended_by, winners)

    def outcome(self, state) -> dict:
        """Winners (a draw when drawing stopped: both; level after two passes: nobody)
        and each seat's blocked-pile count.

        On a game cut short, the count so far: the seat it favours, nobody when level.
        """
        return self.replay_outcome(three_tricks.result(state))

    def replay_input(self, *, table_rules, seat_rules, mode, seed, actions):
        rules = self.rules_from_dict(table_rules).to_dict()
        return {"game": three_tricks.GAME, "rules": rules, "seed": seed, "actions": list(actions)}

    def replay_outcome(self, out: dict) -> dict:
        return {"winners": list(out["winners"]), "scores": list(out["blocked"])}

    def to_act(self, state) -> list[int]:
        return [state.to_act] if state.to_act is not None else []

    def bot_action(self, state, seat: int, rng: random.Random):
        if state.to_act != seat:
            return None
        return three_tricks.choose_from_view(three_tricks.view(state, seat), rng)

    def first_dealer(self, state) -> int:
        """The seed's cut chooses the first dealer."""
        return state.dealer

    def progress(self, state) -> int:
        return state.turns

    # ---- phone
    def clean_move(self, state, seat: int, kind: str, move: dict) -> dict:
        if kind == "pass":
            return {"type": "pass", "seat": seat}
        cards = clean_cards(move.get("cards"), most=three_tricks.HAND_SIZE)
        try:
            cards = [parse_card(c) for c in cards]
        except ValueError:
            raise MoveError("Choose cards from your hand.") from None
        return {"type": kind, "seat": seat, "cards": cards}

    def screen(self, state, seat: int, *, names: Sequence[str]) -> dict:
        v = three_tricks.view(state, seat)
        opp = 1 - seat
        actions = v["actions"]
        lays = lay_partners(v["hand"], actions)
        blocks = block_partners(v["hand"], actions)
        target = v["target"] if blocks else None
        mine = v["standing_tricks"][seat]
        theirs = v["standing_tricks"][opp]
        over = v["phase"] == three_tricks.PHASE_OVER
        last = v["last"]
        return {
            "phase": v["phase"],
            "over": over,
            "me": names[seat],
            "opponent": names[opp],
            "my_turn": v["to_act"] == seat,
            "to_act_name": names[v["to_act"]] if v["to_act"] is not None else None,
            "hand": [
                {"card": c, "lay_with": lays.get(c, []), "block_with": blocks.get(c, [])}
                for c in v["hand"]
            ],
            "opponent_cards": v["hand_counts"][opp],
            "my_tricks": mine,
            "their_tricks": [
                {"cards": t, "blockable": target is not None and i == len(theirs) - 1}
                for i, t in enumerate(theirs)
            ],
            "target": target,
            "my_blocked": v["blocked_counts"][seat],
            "their_blocked": v["blocked_counts"][opp],
            "stock": v["stock_count"],
            "secondary": v["secondary_count"],
            "trick_size": v["next_trick_size"],
            "can_lay": bool(lays),
            "facing": v["target"] is not None,
            # The other player's pass counts towards the two in a row that end the
            # game (a pass facing a fresh trick does not): this seat's pass ends it.
            "pass_ends": v["to_act"] == seat
            and not v["open"]
            and v["passes"] >= three_tricks.N_SEATS - 1,
            "can_act": bool(actions),
            "swap_max": swap_limit(actions),
            "last": None
            if last is None
            else {**last, "name": names[last["seat"]], "mine": last["seat"] == seat},
            # What the last move drew: one's own cards by name (a sighted player finds
            # them somewhere in a sorted hand), the other's as a count.
            "drew": None
            if v["drew"] is None
            else {
                **v["drew"],
                "mine": v["drew"]["seat"] == seat,
                "cards": three_tricks.sort_hand(v["drawn"], state.config),
            },
            "outcome": v["outcome"],
            "won": over and seat in (v["winners"] or []),
            "draw": over and len(v["winners"] or []) == 2,
            "winner_names": [names[s] for s in (v["winners"] or [])],
        }

    def spectator(self, state, *, names: Sequence[str]) -> dict:
        return {**three_tricks.spectator_view(state), "names": list(names)}


KIND = ThreeTricks()
