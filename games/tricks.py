"""The trick-taking core: one rule sheet's knobs, card order, legal plays, trick winner.

Five Tricks (Barnga) uses it with a different ``TrickRules`` per seat; later games
(7Up7Down, All Fives) reuse the same functions with one sheet for everybody.
A ``TrickRules`` is four knobs (see docs/rules.md):

- ``ace``: "high" or "low", where the ace sits in 2 < 3 < ... < K.
- ``wins``: "highest" or "lowest", which end of the order takes the trick
  (among trumps too).
- ``trump``: "S", "H", "D", "C" or None.
- ``trump_when``: "void" (trump only when out of the led suit) or "any"
  (holding the led suit you may play it or a trump).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import RANKS, SUIT_NAME_SINGULAR, SUITS
from .jsontext import check_keys

KNOBS = ("ace", "wins", "trump", "trump_when")
ACE_VALUES = ("high", "low")
WINS_VALUES = ("highest", "lowest")
TRUMP_VALUES = (*SUITS, None)
TRUMP_WHEN_VALUES = ("void", "any")
MODES = ("barnga", "referee")


def check_order_knobs(ace: object, wins: object) -> None:
    """Refuse an ``ace`` or ``wins`` knob no game knows (ValueError, a readable reason).

    Every trick-taking game's sheet has these two: they order the ranks alike.
    """
    if ace not in ACE_VALUES:
        raise ValueError(f"ace must be 'high' or 'low', not {ace!r}.")
    if wins not in WINS_VALUES:
        raise ValueError(f"wins must be 'highest' or 'lowest', not {wins!r}.")


def _order_table(ace: str, wins: str) -> dict[str, int]:
    # 2..10 keep their face value, J Q K follow; the ace is 1 or 14.
    # "lowest wins" flips the sign so that a bigger number is always better.
    base = {r: i for i, r in enumerate(RANKS[1:], start=2)}
    base["A"] = 14 if ace == "high" else 1
    sign = 1 if wins == "highest" else -1
    return {r: sign * v for r, v in base.items()}


_ORDER_TABLES = {(a, w): _order_table(a, w) for a in ACE_VALUES for w in WINS_VALUES}


@dataclass(frozen=True)
class TrickRules:
    """One rule sheet. Immutable and hashable; invalid knobs raise ValueError."""

    ace: str = "high"
    wins: str = "highest"
    trump: str | None = None
    trump_when: str = "void"

    def __post_init__(self) -> None:
        self.validate()
        # Without trumps "trump at any time" and "only when out of the led suit" play
        # alike (a player holding the led suit must play it): one sheet, not two.
        if self.trump is None and self.trump_when != "void":
            object.__setattr__(self, "trump_when", "void")
        # Cached rank -> strength table: the hot path looks ranks up here.
        object.__setattr__(self, "_order", _ORDER_TABLES[(self.ace, self.wins)])

    def validate(self) -> None:
        check_order_knobs(self.ace, self.wins)
        if self.trump not in TRUMP_VALUES:
            raise ValueError(
                f"trump must be one of 'S', 'H', 'D', 'C' or None (no trump), not {self.trump!r}."
            )
        if self.trump_when not in TRUMP_WHEN_VALUES:
            raise ValueError(f"trump_when must be 'void' or 'any', not {self.trump_when!r}.")

    def to_dict(self) -> dict:
        return {
            "ace": self.ace,
            "wins": self.wins,
            "trump": self.trump,
            "trump_when": self.trump_when,
        }

    @classmethod
    def from_dict(cls, d: object) -> TrickRules:
        """Build from a dict with exactly the four knobs.

        Accepts a lower-case trump letter and "null"/None for no trump; a missing or
        unknown key or a bad value raises ValueError with a readable message.
        """
        if not isinstance(d, dict):
            raise ValueError(f"A rule sheet must be an object with the keys {', '.join(KNOBS)}.")
        check_keys(d, KNOBS, "rule knob", required=True)
        trump = d["trump"]
        if isinstance(trump, str):
            trump = None if trump.strip().lower() == "null" else trump.strip().upper()
        return cls(ace=d["ace"], wins=d["wins"], trump=trump, trump_when=d["trump_when"])

    def diff(self, other: TrickRules) -> list[str]:
        """Names of the knobs whose values differ between the two sheets."""
        return [k for k in KNOBS if getattr(self, k) != getattr(other, k)]


def rank_order(card: str, rules: TrickRules) -> int:
    """Strength of ``card`` under ``rules``: a bigger number beats a smaller one."""
    return rules._order[card[:-1]]


def legal_cards(hand: Sequence[str], led_suit: str | None, rules: TrickRules) -> list[str]:
    """The cards of ``hand`` that ``rules`` allow, in hand order.

    ``led_suit`` None means the player leads: any card. Holding the led suit, a
    "void" sheet forces that suit; an "any" sheet allows that suit or a trump.
    Out of the led suit, any card.
    """
    if led_suit is None:
        return list(hand)
    follow = [c for c in hand if c[-1] == led_suit]
    if not follow:
        return list(hand)
    trump = rules.trump
    if rules.trump_when == "any" and trump is not None and trump != led_suit:
        return [c for c in hand if c[-1] == led_suit or c[-1] == trump]
    return follow


def is_legal(card: str, hand: Sequence[str], led_suit: str | None, rules: TrickRules) -> bool:
    """Whether ``rules`` allow playing ``card`` (which must be in ``hand``).

    Same answer as ``card in legal_cards(...)`` without building the list: this is
    on the hot path of every play.
    """
    if led_suit is None or card[-1] == led_suit:
        return True
    for held in hand:
        if held[-1] == led_suit:
            # Holding the led suit, only an "any" sheet's trump is allowed.
            return rules.trump_when == "any" and card[-1] == rules.trump
    return True


def why_illegal(
    card: str, hand: Sequence[str], led_suit: str | None, rules: TrickRules
) -> str | None:
    """None if ``card`` may be played from ``hand``, else the reason as a sentence."""
    if card not in hand:
        return f"You do not hold {card}."
    if card in legal_cards(hand, led_suit, rules):
        return None
    led = SUIT_NAME_SINGULAR[led_suit]
    if rules.trump_when == "any" and rules.trump is not None and rules.trump != led_suit:
        trump = SUIT_NAME_SINGULAR[rules.trump]
        return f"You hold a {led}, so you may only play a {led} or a {trump} (trump)."
    return f"You must follow suit: you hold a {led}, so you must play a {led}."


def trick_winner(cards_in_play_order: Sequence[tuple[int, str]], rules: TrickRules) -> int:
    """Seat that takes the trick under ``rules``; the first entry is the leader's.

    The best trump wins if any trump was played, otherwise the best card of the
    led suit. Cards of other suits never win.
    """
    if not cards_in_play_order:
        raise ValueError("A trick needs at least one card.")
    order = rules._order
    trump = rules.trump
    target = cards_in_play_order[0][1][-1]
    if trump is not None:
        for _, card in cards_in_play_order:
            if card[-1] == trump:
                target = trump
                break
    best_seat = -1
    best = None
    for seat, card in cards_in_play_order:
        if card[-1] == target:
            value = order[card[:-1]]
            if best is None or value > best:
                best, best_seat = value, seat
    return best_seat


class SeatSheets:
    """A Barnga table's sheets, for a frozen config dataclass with the fields
    ``table_rules`` (the table's sheet), ``seat_rules`` (each seat's own, seat order)
    and ``mode`` ("barnga" or "referee"). Five Tricks and All Fives share it.

    In Barnga mode a player plays by the sheet they learned; in referee mode the
    table's sheet decides every play (RULES.md section 2).
    """

    table_rules: Any
    seat_rules: tuple[Any, ...]
    mode: str

    def check_sheets(self, sheet: type, seats: range, needs: str) -> None:
        """Refuse (ValueError) a table's or a seat's sheet that is no ``sheet``, a number
        of seats not in ``seats`` and a mode no game has; a list of seats' sheets is
        kept as a tuple. ``needs`` opens the count's error ("All Fives needs 2 or 3 players").
        """
        name = sheet.__name__
        if not isinstance(self.table_rules, sheet):
            raise ValueError(f"table_rules must be a {name}.")
        if not isinstance(self.seat_rules, tuple):
            object.__setattr__(self, "seat_rules", tuple(self.seat_rules))
        if len(self.seat_rules) not in seats:
            raise ValueError(f"{needs}; seat_rules has {len(self.seat_rules)}.")
        if not all(isinstance(r, sheet) for r in self.seat_rules):
            raise ValueError(f"Every entry of seat_rules must be a {name}.")
        if self.mode not in MODES:
            raise ValueError(f"mode must be 'barnga' or 'referee', not {self.mode!r}.")

    @classmethod
    def uniform(cls, rules, n: int, mode: str = "barnga", **knobs):
        """Every seat plays by the table's sheet."""
        return cls(table_rules=rules, seat_rules=(rules,) * n, mode=mode, **knobs)

    @property
    def n_seats(self) -> int:
        return len(self.seat_rules)

    def rules_for(self, seat: int):
        """The sheet that decides legality for ``seat``'s plays in this mode."""
        return self.seat_rules[seat] if self.mode == "barnga" else self.table_rules
