"""All Fives, the point-trick game of ../shared/seeds/001, as a pure state machine.

Models a whole game (hand after hand, to 61) at a table of 2 or 3: the digital
cut for the first dealer, six cards each in two batches of three, a turned-up
card for trump, eldest's stand or beg, the dealer's "take one" or running the
cards (reshuffling when the deck runs out), tricks, trump points scored at the
end of each hand, and the win at 61. Rules come from ../shared/RULES.md section 4;
the decisions it leaves open are in docs/all_fives.md.

Each seat carries its own rule sheet (``Config.seat_rules``) besides the table's
(``Config.table_rules``); a sheet is three knobs (``Sheet``): ``ace`` (high/low),
``wins`` (highest/lowest) and ``follow`` (suit / suit_or_trump / any). The trump
is never on a sheet: the turned-up card decides it.

- Barnga mode (default): a card must be legal under the acting seat's own sheet;
  one that breaks the table's sheet is a revoke the other seats may call after
  the trick and before the next lead. A called revoke costs the revoker 3 points
  and bars them from winning the game on that hand. Tricks are won by the
  table's sheet.
- Referee mode: the table's sheet decides legality; no revokes, no calls.

API (the same shape as ``games.five_tricks``, so the app can drive it generically):

    new_game(config, seed=..., dealer=None, decks=None) -> State
    state.to_act                      seat whose move is awaited, or None
    legal_actions(state, seat) -> [action, ...]
    apply(state, action) -> (state, events)      raises IllegalAction(reason)
    is_over(state), result(state) -> {"winners": [...], "scores": [...], ...}
    view(state, seat), spectator_view(state)
    choose_from_view(view, rng), play_game(config, seed)        seeded bots
    replay(config, actions, seed=..., dealer=..., decks=...), replay_record(doc)

Actions are JSON-able dicts with a ``type`` and the acting ``seat``: ``stand`` /
``beg`` (eldest), ``take_one`` / ``run`` (the dealer, after a beg), ``play`` (with
``card``) and ``call_revoke`` (with ``accused``). States are immutable.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from .cards import SUIT_NAME_SINGULAR, SUITS, full_deck, parse_card, shuffled
from .errors import IllegalAction, card_of, seat_of
from .jsontext import check_keys
from .records import RecordError, action_object, check_record_keys, replay_actions
from .tricks import (
    MODES,
    SeatSheets,
    TrickRules,
    check_order_knobs,
    legal_cards,
    rank_order,
    trick_winner,
)

__all__ = [
    "IllegalAction",
    "MODES",
    "RecordError",
    "Sheet",
    "Config",
    "Trick",
    "Call",
    "HandResult",
    "State",
    "cut_for_deal",
    "seeded_deck",
    "hand_points",
    "game_winners",
    "new_game",
    "legal_actions",
    "apply",
    "is_over",
    "result",
    "view",
    "spectator_view",
    "choose_from_view",
    "play_game",
    "replay",
    "replay_record",
]

GAME = "all_fives"
MIN_SEATS, MAX_SEATS = 2, 3
DECK_SIZE = 52
BATCH = 3  # cards per batch, in the deal and in each run of the cards
BATCHES = 2  # six cards each
TARGET = 61
REVOKE_PENALTY = 3
TAKE_ONE_POINTS = 1
# Trump cards a player's won tricks score at the end of a hand (RULES.md §4).
POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10, "5": 5}
FOLLOW_VALUES = ("suit", "suit_or_trump", "any")
SHEET_KNOBS = ("ace", "wins", "follow")
REVOKE_STYLES = ("lose", "bonus")
CONFIG_KEYS = ("rules", "seat_rules", "players", "mode", "target", "revoke_penalty", "revoke_style")
PHASE_BEG, PHASE_DEALER, PHASE_PLAY, PHASE_OVER = "beg", "dealer", "play", "over"
ACTION_TYPES = ("stand", "beg", "take_one", "run", "play", "call_revoke")
# Seeded decks come from a string seed per use, so one game seed gives every deck.
_SEED_TAG = "all_fives"
# Strength of a rank in the cut: ace high, suits never break a tie.
_CUT_ORDER = {
    r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
}


# ---------------------------------------------------------------- sheets and config


@dataclass(frozen=True)
class Sheet:
    """One player's (or the table's) rules of play. Immutable; bad knobs raise ValueError.

    ``follow``: "suit" (follow the led suit if you can), "suit_or_trump" (holding
    the led suit you may play it or a trump), "any" (no duty to follow).
    """

    ace: str = "high"
    wins: str = "highest"
    follow: str = "suit"

    def __post_init__(self) -> None:
        check_order_knobs(self.ace, self.wins)
        if self.follow not in FOLLOW_VALUES:
            raise ValueError(
                f"follow must be 'suit', 'suit_or_trump' or 'any', not {self.follow!r}."
            )

    def trick_rules(self, trump: str) -> TrickRules:
        """The trick-core sheet for this hand's trump."""
        return _trick_rules(self, trump)

    def to_dict(self) -> dict:
        return {"ace": self.ace, "wins": self.wins, "follow": self.follow}

    @classmethod
    def from_dict(cls, d: object) -> Sheet:
        """Build from a dict with exactly the keys ace, wins, follow (ValueError otherwise)."""
        if not isinstance(d, dict):
            raise ValueError(
                f"An All Fives sheet must be an object with the keys {', '.join(SHEET_KNOBS)}."
            )
        check_keys(d, SHEET_KNOBS, "sheet knob", required=True)
        return cls(ace=d["ace"], wins=d["wins"], follow=d["follow"])

    def diff(self, other: Sheet) -> list[str]:
        return [k for k in SHEET_KNOBS if getattr(self, k) != getattr(other, k)]


@lru_cache(maxsize=256)
def _trick_rules(sheet: Sheet, trump: str) -> TrickRules:
    # "suit_or_trump" is the trick core's trump_when="any"; "any" is handled by
    # _legal_cards itself, the core only needs the order and the trump then.
    when = "any" if sheet.follow == "suit_or_trump" else "void"
    return TrickRules(ace=sheet.ace, wins=sheet.wins, trump=trump, trump_when=when)


def _legal_cards(hand: Sequence[str], led: str | None, sheet: Sheet, trump: str) -> list[str]:
    if sheet.follow == "any":
        return list(hand)
    return legal_cards(hand, led, sheet.trick_rules(trump))


def _why_illegal(card: str, hand: Sequence[str], led: str | None, sheet: Sheet, trump: str) -> str:
    if card not in hand:
        return f"You do not hold {card}."
    led_name = SUIT_NAME_SINGULAR[led]
    if sheet.follow == "suit_or_trump" and trump != led:
        return (
            f"You hold a {led_name}, so you may only play a {led_name} "
            f"or a {SUIT_NAME_SINGULAR[trump]} (trump)."
        )
    return f"You must follow suit: you hold a {led_name}, so you must play a {led_name}."


def _int_knob(value: object, name: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}.")
    return value


@dataclass(frozen=True)
class Config(SeatSheets):
    """What a table plays by: its sheet, each seat's sheet, the mode and the game knobs.

    ``target``: points that win (61); ``revoke_penalty``: points a called revoke
    costs (3); ``revoke_style``: "lose" (the revoker loses them) or "bonus" (every
    other seat gains them, the seed's variant).
    """

    table_rules: Sheet = Sheet()
    seat_rules: tuple[Sheet, ...] = (Sheet(), Sheet())
    mode: str = "barnga"
    target: int = TARGET
    revoke_penalty: int = REVOKE_PENALTY
    revoke_style: str = "lose"

    def __post_init__(self) -> None:
        self.check_sheets(
            Sheet,
            range(MIN_SEATS, MAX_SEATS + 1),
            f"All Fives needs {MIN_SEATS} or {MAX_SEATS} players",
        )
        _int_knob(self.target, "target", 1, 1000)
        _int_knob(self.revoke_penalty, "revoke_penalty", 0, 100)
        if self.revoke_style not in REVOKE_STYLES:
            raise ValueError(f"revoke_style must be 'lose' or 'bonus', not {self.revoke_style!r}.")

    def to_dict(self) -> dict:
        return {
            "rules": self.table_rules.to_dict(),
            "seat_rules": [r.to_dict() for r in self.seat_rules],
            "mode": self.mode,
            "target": self.target,
            "revoke_penalty": self.revoke_penalty,
            "revoke_style": self.revoke_style,
        }

    @classmethod
    def from_dict(cls, d: object) -> Config:
        """From ``to_dict``'s shape; ``seat_rules`` may be replaced by ``players`` (all the table's)."""
        if not isinstance(d, dict):
            raise ValueError("An All Fives config must be an object.")
        unknown = sorted(str(k) for k in d if k not in CONFIG_KEYS)
        if unknown:
            raise ValueError(f"Unknown config key(s): {', '.join(unknown)}.")
        table = Sheet.from_dict(d["rules"]) if d.get("rules") is not None else Sheet()
        raw = d.get("seat_rules")
        if raw is None:
            if "players" not in d:
                raise ValueError("Give seat_rules (one sheet per seat) or players (2 or 3).")
            n = d["players"]
            if type(n) is not int or not MIN_SEATS <= n <= MAX_SEATS:
                raise ValueError(f"players must be 2 or 3, not {n!r}.")
            seats = (table,) * n
        else:
            if not isinstance(raw, list):
                raise ValueError("seat_rules must be a list of sheets, one per seat.")
            seats = tuple(Sheet.from_dict(r) for r in raw)
            if "players" in d and d["players"] != len(seats):
                raise ValueError(f"players is {d['players']!r} but seat_rules has {len(seats)}.")
        return cls(
            table_rules=table,
            seat_rules=seats,
            mode=d.get("mode", "barnga"),
            target=d.get("target", TARGET),
            revoke_penalty=d.get("revoke_penalty", REVOKE_PENALTY),
            revoke_style=d.get("revoke_style", "lose"),
        )


# ---------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick. ``verdicts``: the winner under each seat's own sheet;
    ``revokes``: the seats whose card broke the table's sheet (Barnga mode only)."""

    leader: int
    cards: tuple[tuple[int, str], ...]
    winner: int
    verdicts: tuple[int, ...]
    revokes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Call:
    """A revoke call on ``accused``'s card in trick number ``trick`` (0-based, this hand)."""

    trick: int
    caller: int
    accused: int
    upheld: bool


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one scored hand went; ``scores`` are the totals after it."""

    hand: int
    dealer: int
    trump: str
    begged: bool
    took_one: bool
    runs: int
    redeals: int
    tricks: tuple[Trick, ...]
    calls: tuple[Call, ...]
    points: tuple[int, ...]
    penalties: tuple[int, ...]  # net points each seat got from revoke calls this hand
    scores: tuple[int, ...]
    barred: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class State:
    """A game in progress. Never mutated: ``apply`` builds a new one.

    ``stock`` is what is left of the current deck, top first; ``set_aside`` the
    earlier turn-ups of this deal (face up). ``current_revokes`` are the seats
    whose card in the trick in progress broke the table's sheet (never shown to
    players). ``first_trump`` is the suit of the
    hand's first turn-up, the one a beg wants changed. ``scores`` are running
    totals (take-one points and revoke penalties count at once; trump points at
    the end of the hand). ``barred[s]``: a revoke by ``s`` was called this hand.
    """

    config: Config
    seed: int | str
    explicit_decks: tuple[tuple[str, ...], ...]
    decks_used: int
    cut: tuple[tuple[tuple[int, str], ...], ...]
    hand_no: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    turn_up: str
    set_aside: tuple[str, ...]
    first_trump: str
    trump: str
    begged: bool
    took_one: bool
    runs: int
    redeals: int
    phase: str
    leader: int
    current: tuple[tuple[int, str], ...]
    current_revokes: tuple[int, ...]
    tricks: tuple[Trick, ...]
    calls: tuple[Call, ...]
    penalties: tuple[int, ...]
    barred: tuple[bool, ...]
    scores: tuple[int, ...]
    history: tuple[HandResult, ...]
    winners: tuple[int, ...]
    seq: int

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % len(self.hands)

    @property
    def to_act(self) -> int | None:
        """The seat whose move is awaited; None once the game is over."""
        phase = self.phase
        if phase == PHASE_BEG:
            return self.eldest
        if phase == PHASE_DEALER:
            return self.dealer
        if phase == PHASE_PLAY:
            if not self.current:
                return self.leader
            return (self.current[-1][0] + 1) % len(self.hands)
        return None

    @property
    def calls_open(self) -> bool:
        """Whether a revoke in the last finished trick may be called now.

        From the end of a trick to the next lead. A hand's last trick needs no
        window: a player's last card can never be a revoke.
        """
        if self.config.mode != "barnga":
            return False
        return self.phase == PHASE_PLAY and not self.current and bool(self.tricks)


# ---------------------------------------------------------------- dealing


def seeded_deck(seed: int | str, index: int) -> list[str]:
    """Deck number ``index`` (0 for the first deal) of the game with ``seed``, top first."""
    return shuffled(full_deck(), f"{_SEED_TAG}:{seed}:deck:{index}")


def cut_for_deal(n: int, seed: int | str) -> tuple[int, tuple[tuple[tuple[int, str], ...], ...]]:
    """The digital cut: each seat draws a card from a seeded deck, the highest deals.

    Ace is high and suits do not count; tied seats draw again from the same deck.
    Returns the dealer and the rounds of draws as ((seat, card), ...).
    """
    deck = shuffled(full_deck(), f"{_SEED_TAG}:{seed}:cut")
    contenders = list(range(n))
    rounds = []
    pos = 0
    while len(contenders) > 1 and pos + len(contenders) <= len(deck):
        draws = tuple((seat, deck[pos + i]) for i, seat in enumerate(contenders))
        pos += len(contenders)
        rounds.append(draws)
        best = max(_CUT_ORDER[c[:-1]] for _, c in draws)
        contenders = [s for s, c in draws if _CUT_ORDER[c[:-1]] == best]
    # The deck cannot run out before a tie breaks with 2-3 seats; min() only guards it.
    return min(contenders), tuple(rounds)


def _check_deck(deck: object, where: str) -> tuple[str, ...]:
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise ValueError(f"{where} must be a list of the 52 cards, top first.")
    cards = tuple(parse_card(c) for c in deck)
    if len(cards) != DECK_SIZE or len(set(cards)) != DECK_SIZE:
        seen: set[str] = set()
        for c in cards:
            if c in seen:
                raise ValueError(f"{where}: {c} appears twice.")
            seen.add(c)
        raise ValueError(f"{where} has {len(cards)} cards; a deck is all 52, each once.")
    return cards


def _deal_order(dealer: int, n: int) -> list[int]:
    return [(dealer + 1 + i) % n for i in range(n)]


def _fresh_deal(deck: Sequence[str], dealer: int, n: int):
    """Six each in two batches of three from the dealer's left, then the turn-up."""
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(BATCHES):
        for seat in _deal_order(dealer, n):
            hands[seat].extend(deck[pos : pos + BATCH])
            pos += BATCH
    return tuple(map(tuple, hands)), deck[pos], tuple(deck[pos + 1 :])


def _next_deck(state_seed, explicit, used: int) -> tuple[str, ...]:
    if used < len(explicit):
        return explicit[used]
    return tuple(seeded_deck(state_seed, used))


def new_game(
    config: Config,
    *,
    seed: int | str | None = None,
    dealer: int | None = None,
    decks: Sequence[Sequence[str]] | None = None,
) -> State:
    """Start a game and deal its first hand.

    ``decks`` (optional) are explicit deck orders, top first, used in turn by every
    deal and redeal; decks beyond them come from ``seed``. ``dealer`` (optional)
    names the first dealer; otherwise the seeded cut decides. A game needs a seed
    or both an explicit dealer and at least one deck; the seed defaults to 0 then.
    """
    if not isinstance(config, Config):
        raise ValueError("config must be a Config.")
    n = config.n_seats
    explicit = tuple(_check_deck(d, f"decks[{i}]") for i, d in enumerate(decks or ()))
    if seed is None:
        if dealer is None or not explicit:
            raise ValueError("new_game needs seed=, or an explicit dealer= and decks=.")
        seed = 0
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError(f"seed must be a whole number or a string, not {seed!r}.")
    if dealer is None:
        dealer, cut = cut_for_deal(n, seed)
    else:
        if type(dealer) is not int or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}.")
        cut = ()
    return State(
        config=config,
        seed=seed,
        explicit_decks=explicit,
        decks_used=1,
        cut=cut,
        hand_no=1,
        scores=(0,) * n,
        history=(),
        winners=(),
        seq=0,
        **_new_hand(_next_deck(seed, explicit, 0), dealer, n),
    )


def _new_hand(deck: Sequence[str], dealer: int, n: int) -> dict:
    """A fresh hand's fields: ``dealer`` deals ``deck``, its turn-up is trump, eldest
    stands or begs; no trick, call or penalty yet. The first hand and every next one."""
    hands, turn_up, stock = _fresh_deal(deck, dealer, n)
    return {
        "dealer": dealer,
        "hands": hands,
        "stock": stock,
        "turn_up": turn_up,
        "set_aside": (),
        "first_trump": turn_up[-1],
        "trump": turn_up[-1],
        "begged": False,
        "took_one": False,
        "runs": 0,
        "redeals": 0,
        "phase": PHASE_BEG,
        "leader": (dealer + 1) % n,
        "current": (),
        "current_revokes": (),
        "tricks": (),
        "calls": (),
        "penalties": (0,) * n,
        "barred": (False,) * n,
    }


# ---------------------------------------------------------------- pure scoring


def hand_points(tricks: Iterable[Trick], trump: str, n: int) -> list[int]:
    """Trump points in each seat's won tricks: A 4, K 3, Q 2, J 1, 10 10, 5 5."""
    points = [0] * n
    for trick in tricks:
        for _, card in trick.cards:
            if card[-1] == trump:
                points[trick.winner] += POINTS.get(card[:-1], 0)
    return points


def game_winners(scores: Sequence[int], barred: Sequence[bool], target: int) -> list[int]:
    """The game's winner after a hand, as a list of one seat, or [] to play on.

    Seats barred by a called revoke cannot win on this hand. Among the others
    that reached ``target``, the highest total wins; an exact tie there plays on.
    """
    eligible = [s for s, v in enumerate(scores) if v >= target and not barred[s]]
    if not eligible:
        return []
    top = max(scores[s] for s in eligible)
    best = [s for s in eligible if scores[s] == top]
    return best if len(best) == 1 else []


# ---------------------------------------------------------------- actions


def legal_actions(state: State, seat: int) -> list[dict]:
    """Every action ``seat`` may take now, in a fixed order."""
    n = state.n_seats
    if type(seat) is not int or not 0 <= seat < n:
        return []
    phase = state.phase
    to_act = state.to_act
    out: list[dict] = []
    if phase == PHASE_BEG and seat == to_act:
        out = [{"type": "stand", "seat": seat}, {"type": "beg", "seat": seat}]
    elif phase == PHASE_DEALER and seat == to_act:
        out = [{"type": "take_one", "seat": seat}, {"type": "run", "seat": seat}]
    elif phase == PHASE_PLAY and seat == to_act:
        led = state.current[0][1][-1] if state.current else None
        sheet = state.config.rules_for(seat)
        cards = _legal_cards(state.hands[seat], led, sheet, state.trump)
        out = [{"type": "play", "seat": seat, "card": c} for c in cards]
    if state.calls_open:
        called = {c.accused for c in state.calls if c.trick == len(state.tricks) - 1}
        out += [
            {"type": "call_revoke", "seat": seat, "accused": a}
            for a in range(n)
            if a != seat and a not in called
        ]
    return out


def apply(state: State, action: dict) -> tuple[State, list[dict]]:
    """Apply one action; return the new state and the events it caused.

    Raises IllegalAction (with a reason a player can read) and leaves ``state``
    untouched if the action is not allowed.
    """
    if not isinstance(action, dict):
        raise IllegalAction("An action must be an object with a type.")
    kind = action.get("type")
    if state.phase == PHASE_OVER:
        raise IllegalAction("The game is over.")
    if kind == "play":
        return _play(state, action)
    if kind in ("stand", "beg"):
        return _stand_or_beg(state, action, kind)
    if kind in ("take_one", "run"):
        return _dealer_choice(state, action, kind)
    if kind == "call_revoke":
        return _call(state, action)
    raise IllegalAction(f"Unknown action type {kind!r}: expected one of {', '.join(ACTION_TYPES)}.")


def _stand_or_beg(state: State, action: dict, kind: str) -> tuple[State, list[dict]]:
    seat = seat_of(action.get("seat"), state.n_seats)
    if state.phase != PHASE_BEG:
        raise IllegalAction("Standing or begging happens only right after the deal.")
    if seat != state.eldest:
        raise IllegalAction(f"Only seat {state.eldest}, on the dealer's left, stands or begs.")
    seq = state.seq + 1
    if kind == "stand":
        return replace(state, phase=PHASE_PLAY, leader=seat, seq=seq), [
            {"type": "stood", "seat": seat, "trump": state.trump}
        ]
    return replace(state, phase=PHASE_DEALER, begged=True, seq=seq), [
        {"type": "begged", "seat": seat}
    ]


def _dealer_choice(state: State, action: dict, kind: str) -> tuple[State, list[dict]]:
    seat = seat_of(action.get("seat"), state.n_seats)
    if state.phase != PHASE_DEALER:
        raise IllegalAction("The dealer chooses only after the player on their left begs.")
    if seat != state.dealer:
        raise IllegalAction(f"Only the dealer (seat {state.dealer}) answers the beg.")
    seq = state.seq + 1
    eldest = state.eldest
    if kind == "take_one":
        scores = list(state.scores)
        scores[eldest] += TAKE_ONE_POINTS
        new = replace(
            state, phase=PHASE_PLAY, took_one=True, scores=tuple(scores), leader=eldest, seq=seq
        )
        return new, [
            {
                "type": "took_one",
                "seat": seat,
                "scorer": eldest,
                "points": TAKE_ONE_POINTS,
                "scores": scores,
            }
        ]
    return _run_cards(state, seq)


def _run_cards(state: State, seq: int) -> tuple[State, list[dict]]:
    """Run the cards until a turn-up of another suit than the first; redeal if the deck runs out."""
    n = state.n_seats
    dealer = state.dealer
    hands = [list(h) for h in state.hands]
    stock = state.stock
    turn_up = state.turn_up
    set_aside = list(state.set_aside)
    runs, redeals, decks_used = state.runs, state.redeals, state.decks_used
    old = state.first_trump
    events: list[dict] = []
    while True:
        if len(stock) >= BATCH * n + 1:
            set_aside.append(turn_up)
            for seat in _deal_order(dealer, n):
                hands[seat].extend(stock[:BATCH])
                stock = stock[BATCH:]
            turn_up, stock = stock[0], stock[1:]
            runs += 1
            events.append({"type": "cards_run", "turn_up": turn_up, "hand_size": len(hands[0])})
        else:
            # Not enough cards for another round: the whole deck is gathered,
            # reshuffled (the next deck) and dealt afresh by the same dealer.
            deck = _next_deck(state.seed, state.explicit_decks, decks_used)
            decks_used += 1
            fresh, turn_up, stock = _fresh_deal(deck, dealer, n)
            hands = [list(h) for h in fresh]
            set_aside = []
            runs = 0  # counts the runs of the deal in play: hands hold 6 + 3 * runs
            redeals += 1
            events.append({"type": "redealt", "turn_up": turn_up, "hand_size": len(hands[0])})
        if turn_up[-1] != old:
            break
    trump = turn_up[-1]
    events.append({"type": "trump_changed", "trump": trump, "turn_up": turn_up})
    new = replace(
        state,
        hands=tuple(map(tuple, hands)),
        stock=stock,
        turn_up=turn_up,
        set_aside=tuple(set_aside),
        trump=trump,
        runs=runs,
        redeals=redeals,
        decks_used=decks_used,
        phase=PHASE_PLAY,
        leader=state.eldest,
        seq=seq,
    )
    return new, events


def _play(state: State, action: dict) -> tuple[State, list[dict]]:
    n = state.n_seats
    seat = seat_of(action.get("seat"), n)
    if state.phase != PHASE_PLAY:
        raise IllegalAction("No card can be played until the trump is settled.")
    to_act = state.to_act
    if seat != to_act:
        raise IllegalAction(f"It is not your turn: seat {to_act} plays next.")
    card = card_of(action)
    hand = state.hands[seat]
    led = state.current[0][1][-1] if state.current else None
    config = state.config
    trump = state.trump
    own = config.rules_for(seat)
    if card not in hand or card not in _legal_cards(hand, led, own, trump):
        raise IllegalAction(_why_illegal(card, hand, led, own, trump))
    table = config.table_rules
    legal_for_table = own is table or card in _legal_cards(hand, led, table, trump)

    i = hand.index(card)
    hands = state.hands[:seat] + (hand[:i] + hand[i + 1 :],) + state.hands[seat + 1 :]
    current = state.current + ((seat, card),)
    revokes = state.current_revokes + (() if legal_for_table else (seat,))
    events: list[dict] = [
        {"type": "card_played", "seat": seat, "card": card, "legal_for_table": legal_for_table}
    ]
    seq = state.seq + 1
    if len(current) < n:
        return replace(
            state, hands=hands, current=current, current_revokes=revokes, seq=seq
        ), events

    # The trick is complete: the table's sheet names the winner.
    verdict_of = {}
    verdicts = []
    for sheet in config.seat_rules:
        if sheet not in verdict_of:
            verdict_of[sheet] = trick_winner(current, sheet.trick_rules(trump))
        verdicts.append(verdict_of[sheet])
    winner = trick_winner(current, table.trick_rules(trump))
    trick = Trick(state.leader, current, winner, tuple(verdicts), revokes)
    tricks = state.tricks + (trick,)
    last = not hands[0]
    events.append(
        {
            "type": "trick_won",
            "trick": len(state.tricks),
            "leader": state.leader,
            "cards": [[s, c] for s, c in current],
            "winner": winner,
            "verdicts": verdicts,
            "revokes": list(revokes),
        }
    )
    new = replace(
        state,
        hands=hands,
        current=(),
        current_revokes=(),
        tricks=tricks,
        leader=winner,
        seq=seq,
    )
    if not last:
        return new, events
    return _score_hand(new, events)


def _call(state: State, action: dict) -> tuple[State, list[dict]]:
    n = state.n_seats
    caller = seat_of(action.get("seat"), n)
    accused = seat_of(action.get("accused"), n, "accused seat")
    if state.config.mode != "barnga":
        raise IllegalAction(
            "The rules are enforced at this table: a card that breaks them is refused, "
            "so there is no revoke to call."
        )
    if not state.calls_open:
        raise IllegalAction(
            "A revoke can be called only after a trick is turned over and before the next lead."
        )
    if accused == caller:
        raise IllegalAction("Only an opponent can call a revoke on you.")
    index = len(state.tricks) - 1
    if any(c.trick == index and c.accused == accused for c in state.calls):
        raise IllegalAction(f"Seat {accused}'s card in this trick has already been called.")
    trick = state.tricks[index]
    upheld = accused in trick.revokes
    config = state.config
    scores = list(state.scores)
    penalties = list(state.penalties)
    barred = list(state.barred)
    if upheld:
        p = config.revoke_penalty
        if config.revoke_style == "lose":
            scores[accused] -= p
            penalties[accused] -= p
        else:
            for s in range(n):
                if s != accused:
                    scores[s] += p
                    penalties[s] += p
        barred[accused] = True
    card = next(c for s, c in trick.cards if s == accused)
    new = replace(
        state,
        calls=state.calls + (Call(index, caller, accused, upheld),),
        scores=tuple(scores),
        penalties=tuple(penalties),
        barred=tuple(barred),
        seq=state.seq + 1,
    )
    return new, [
        {
            "type": "revoke_called",
            "seat": caller,
            "accused": accused,
            "trick": index,
            "card": card,
            "upheld": upheld,
            "scores": scores,
        }
    ]


def _score_hand(state: State, events: list[dict]) -> tuple[State, list[dict]]:
    """Count the trump points, record the hand, then end the game or deal the next hand."""
    n = state.n_seats
    config = state.config
    points = hand_points(state.tricks, state.trump, n)
    scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    record = HandResult(
        hand=state.hand_no,
        dealer=state.dealer,
        trump=state.trump,
        begged=state.begged,
        took_one=state.took_one,
        runs=state.runs,
        redeals=state.redeals,
        tricks=state.tricks,
        calls=state.calls,
        points=tuple(points),
        penalties=state.penalties,
        scores=scores,
        barred=state.barred,
    )
    history = state.history + (record,)
    winners = game_winners(scores, state.barred, config.target)
    events.append(
        {
            "type": "hand_scored",
            "hand": state.hand_no,
            "trump": state.trump,
            "points": points,
            "scores": list(scores),
            "barred": list(state.barred),
        }
    )
    if winners:
        over = replace(
            state, scores=scores, history=history, winners=tuple(winners), phase=PHASE_OVER
        )
        events.append({"type": "game_over", **result(over)})
        return over, events
    dealer = (state.dealer + 1) % n
    deck = _next_deck(state.seed, state.explicit_decks, state.decks_used)
    new = replace(
        state,
        decks_used=state.decks_used + 1,
        hand_no=state.hand_no + 1,
        scores=scores,
        history=history,
        **_new_hand(deck, dealer, n),
    )
    events.append(
        {"type": "hand_dealt", "hand": new.hand_no, "dealer": dealer, "turn_up": new.turn_up}
    )
    return new, events


# ---------------------------------------------------------------- outcome


def is_over(state: State) -> bool:
    return state.phase == PHASE_OVER


def result(state: State) -> dict:
    """Scores, hands played and the winners.

    A finished game has exactly one winner. On an unfinished game (a round that
    ends mid-game) ``winners`` are the seats with the highest score so far, none
    while every score is 0; a seat whose revoke was called in the hand being
    played cannot win on that hand, so the highest of the others win (none if
    every seat is barred).
    """
    scores = list(state.scores)
    if state.phase == PHASE_OVER:
        winners = list(state.winners)
    elif any(scores):
        eligible = [s for s in range(len(scores)) if not state.barred[s]]
        top = max((scores[s] for s in eligible), default=None)
        winners = [s for s in eligible if scores[s] == top]
    else:
        winners = []
    return {
        "winners": winners,
        "scores": scores,
        "hands_played": len(state.history),
        "complete": state.phase == PHASE_OVER,
    }


def replay(
    config: Config,
    actions: Iterable[dict],
    *,
    seed: int | str | None = None,
    dealer: int | None = None,
    decks: Sequence[Sequence[str]] | None = None,
) -> State:
    """Rebuild a game from its randomness and action log (raises IllegalAction on a bad entry)."""
    state = new_game(config, seed=seed, dealer=dealer, decks=decks)
    for action in actions:
        state, _ = apply(state, action)
    return state


# ---------------------------------------------------------------- views


_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def sort_hand(hand: Iterable[str], sheet: Sheet) -> list[str]:
    """Suit by suit (S H D C), weakest to strongest under ``sheet`` within a suit."""
    rules = sheet.trick_rules("S")
    return sorted(hand, key=lambda c: (_SUIT_INDEX[c[-1]], rank_order(c, rules)))


def _public_tricks(tricks: Iterable[Trick]) -> list[dict]:
    return [
        {"leader": t.leader, "cards": [[s, c] for s, c in t.cards], "winner": t.winner}
        for t in tricks
    ]


def _public_calls(calls: Iterable[Call]) -> list[dict]:
    return [
        {"trick": c.trick, "caller": c.caller, "accused": c.accused, "upheld": c.upheld}
        for c in calls
    ]


def _public_history(history: Iterable[HandResult]) -> list[dict]:
    # Numbers only: the cards of earlier hands come from other decks and may sit
    # in someone's hand now, so a view never repeats them. Who took the last trick
    # (its card scored the hand at once, so no screen of that hand showed it) is
    # no card.
    return [
        {
            "hand": h.hand,
            "dealer": h.dealer,
            "trump": h.trump,
            "begged": h.begged,
            "took_one": h.took_one,
            "runs": h.runs,
            "redeals": h.redeals,
            "calls": _public_calls(h.calls),
            "points": list(h.points),
            "penalties": list(h.penalties),
            "scores": list(h.scores),
            "barred": list(h.barred),
            "tricks_played": len(h.tricks),
            "last_winner": h.tricks[-1].winner if h.tricks else None,
        }
        for h in history
    ]


def view(state: State, seat: int) -> dict:
    """What ``seat`` may see: its own hand and the table's public facts.

    Other hands appear as counts; the stock as a count. No sheet, no verdict and
    no uncalled revoke is shown: whether a card broke the table's rules is known
    only once someone calls it. ``actions`` are exactly ``legal_actions``; ``legal``
    the cards among them.
    """
    n = state.n_seats
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"There is no seat {seat!r} at this table.")
    config = state.config
    actions = legal_actions(state, seat)
    return {
        "game": GAME,
        "seat": seat,
        "n_seats": n,
        "mode": config.mode,
        "target": config.target,
        # What an upheld call costs, as every study sheet says: the revoker loses
        # them ("lose") or every other seat gains them ("bonus").
        "revoke_penalty": config.revoke_penalty,
        "revoke_style": config.revoke_style,
        "phase": state.phase,
        "to_act": state.to_act,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "eldest": state.eldest,
        "trump": state.trump,
        "turn_up": state.turn_up,
        "set_aside": list(state.set_aside),
        "begged": state.begged,
        "took_one": state.took_one,
        "runs": state.runs,
        "redeals": state.redeals,
        "stock_count": len(state.stock),
        "hand": sort_hand(state.hands[seat], config.seat_rules[seat]),
        "hand_counts": [len(h) for h in state.hands],
        "leader": state.leader,
        "current": [[s, c] for s, c in state.current],
        "tricks": _public_tricks(state.tricks),
        "points_taken": hand_points(state.tricks, state.trump, n),
        "calls": _public_calls(state.calls),
        "calls_open": state.calls_open,
        "barred": list(state.barred),
        "scores": list(state.scores),
        "history": _public_history(state.history),
        "actions": actions,
        "legal": [a["card"] for a in actions if a["type"] == "play"],
        "winners": list(state.winners) if state.phase == PHASE_OVER else None,
    }


def spectator_view(state: State) -> dict:
    """Everything for the facilitator: hands, sheets, verdicts, revokes called or not.

    The order of the undealt stock stays hidden even here (its count is shown).
    """
    config = state.config
    return {
        "game": GAME,
        "n_seats": state.n_seats,
        "mode": config.mode,
        "config": config.to_dict(),
        "phase": state.phase,
        "to_act": state.to_act,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "cut": [[[s, c] for s, c in r] for r in state.cut],
        "trump": state.trump,
        "turn_up": state.turn_up,
        "set_aside": list(state.set_aside),
        "stock_count": len(state.stock),
        "hands": [sort_hand(h, config.table_rules) for h in state.hands],
        "leader": state.leader,
        "current": [[s, c] for s, c in state.current],
        "current_revokes": list(state.current_revokes),
        "tricks": [
            {
                "leader": t.leader,
                "cards": [[s, c] for s, c in t.cards],
                "winner": t.winner,
                "verdicts": list(t.verdicts),
                "revokes": list(t.revokes),
            }
            for t in state.tricks
        ],
        "calls": _public_calls(state.calls),
        "barred": list(state.barred),
        "history": _public_history(state.history),
        **result(state),
    }


# ---------------------------------------------------------------- bots


# Chance that a bot calls a revoke on an opponent whose card its own sheet forbids
# if they held the led suit.
CALL_SUSPECT = 0.5


def _suspect(card: str, led: str, trump: str, sheet: Sheet) -> bool:
    """Whether ``card`` played to a trick led in ``led`` would break ``sheet`` had its
    player held the led suit (which nobody else can see)."""
    if sheet.follow == "any" or card[-1] == led:
        return False
    return not (sheet.follow == "suit_or_trump" and card[-1] == trump)


def choose_from_view(v: dict, rng: random.Random, sheet: Sheet | None = None) -> dict | None:
    """A seeded bot's action for the seat ``v`` was built for, or None (nothing to do).

    It begs with fewer than two trumps, runs the cards half the time, plays a
    random card its own sheet allows, and calls a revoke now and then on an
    opponent whose card its own ``sheet`` (following suit if not given) forbids to
    a player holding the led suit: a bot whose sheet lets anyone play any card
    calls nobody. Once one of its own revokes has been called it learns, as
    players do, and follows suit whenever it can. It reads only the view and its
    own sheet, so it cannot cheat.
    """
    actions = v["actions"]
    if not actions:
        return None
    seat = v["seat"]
    own = sheet or Sheet()
    calls = [a for a in actions if a["type"] == "call_revoke"]
    if calls and v["tricks"]:
        last = v["tricks"][-1]
        led = last["cards"][0][1][-1]
        suspects = {s for s, c in last["cards"] if s != seat and _suspect(c, led, v["trump"], own)}
        for a in calls:
            if a["accused"] in suspects and rng.random() < CALL_SUSPECT:
                return a
    mine = [a for a in actions if a["type"] != "call_revoke"]
    if not mine:
        return None
    kind = mine[0]["type"]
    if kind == "stand":
        trumps = sum(1 for c in v["hand"] if c[-1] == v["trump"])
        return mine[1] if trumps < 2 and rng.random() < 0.8 else mine[0]
    if kind == "take_one":
        return mine[rng.randrange(2)]
    if kind == "play" and v["current"] and _was_caught(v):
        led = v["current"][0][1][-1]
        following = [a for a in mine if a["card"][-1] == led]
        if following:
            return rng.choice(following)
    return rng.choice(mine)


def _was_caught(v: dict) -> bool:
    """Whether a revoke call against this seat has ever been upheld (public knowledge)."""
    seat = v["seat"]
    calls = list(v["calls"])
    for h in v["history"]:
        calls += h["calls"]
    return any(c["accused"] == seat and c["upheld"] for c in calls)


def play_game(
    config: Config, seed: int | str, *, max_actions: int = 20000
) -> tuple[State, list[dict]]:
    """A whole game with bots in every seat; the final state and the action log.

    Deterministic for a config and seed. Whenever revoke calls are open, every
    seat gets one chance to call (in seat order) before the awaited seat moves.
    """
    rng = random.Random(f"{_SEED_TAG}-bots:{seed}")
    state = new_game(config, seed=seed)
    log: list[dict] = []
    n = config.n_seats
    while state.phase != PHASE_OVER:
        if len(log) > max_actions:
            raise RuntimeError(f"All Fives bot game {seed!r} did not end in {max_actions} actions.")
        if state.calls_open:
            window = (state.hand_no, len(state.tricks))
            for seat in range(n):
                action = choose_from_view(view(state, seat), rng, config.seat_rules[seat])
                if action is not None and action["type"] == "call_revoke":
                    state, _ = apply(state, action)
                    log.append(action)
                if (state.hand_no, len(state.tricks)) != window:
                    break
        action = choose_from_view(view(state, state.to_act), rng, config.seat_rules[state.to_act])
        while action is not None and action["type"] == "call_revoke":
            # The awaited seat suspects again: its move comes after the calls.
            state, _ = apply(state, action)
            log.append(action)
            action = choose_from_view(
                view(state, state.to_act), rng, config.seat_rules[state.to_act]
            )
        state, _ = apply(state, action)
        log.append(action)
    return state, log


# ---------------------------------------------------------------- replay records


RECORD_KEYS = {"game", "seed", "dealer", "decks", "actions", *CONFIG_KEYS}
_WORD_ACTIONS = {"stand", "beg", "take_one", "run"}


def _record_action(raw: object, state: State, at: int) -> dict:
    """A record entry as an action: a card, an action word, or an action object.

    Entries without a seat are made by the seat to act.
    """
    if isinstance(raw, str):
        word = raw.strip().lower()
        if word in _WORD_ACTIONS:
            return {"type": word, "seat": state.to_act}
        try:
            return {"type": "play", "seat": state.to_act, "card": parse_card(raw)}
        except ValueError:
            raise RecordError(
                f"actions[{at}]: {raw!r} is neither a card nor one of "
                f"{', '.join(sorted(_WORD_ACTIONS))}.",
                at,
            ) from None
    if isinstance(raw, dict):
        return action_object(raw, state.to_act, at, ACTION_TYPES)
    raise RecordError(f"actions[{at}] must be a card, an action word or an action object.", at)


def replay_record(doc: dict) -> dict:
    """Replay a ``{"game": "all_fives", ...}`` record (docs/all_fives.md) to its outcome.

    Raises RecordError: malformed input, or an illegal action (``at`` set).
    """
    check_record_keys(doc, RECORD_KEYS, GAME)
    try:
        config = Config.from_dict({k: doc[k] for k in CONFIG_KEYS if k in doc})
    except (ValueError, TypeError) as exc:
        raise RecordError(str(exc)) from None
    decks = doc.get("decks")
    if decks is not None and not isinstance(decks, list):
        raise RecordError("decks must be a list of deck orders (52 cards each, top first).")
    seed = doc.get("seed")
    try:
        state = new_game(config, seed=seed, dealer=doc.get("dealer"), decks=decks)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    state = replay_actions(
        state, doc["actions"], apply=apply, is_over=is_over, record_action=_record_action
    )
    hands = [_hand_record(h) for h in state.history]
    if state.phase != PHASE_OVER:
        hands.append(_hand_record(state))
    return {
        "game": GAME,
        "hands": hands,
        **result(state),
    }


def _hand_record(h: HandResult | State) -> dict:
    """A scored hand, or (``h`` a State) the hand in progress: no points yet."""
    scored = isinstance(h, HandResult)
    return {
        "hand": h.hand if scored else h.hand_no,
        "dealer": h.dealer,
        "trump": h.trump,
        "begged": h.begged,
        "took_one": h.took_one,
        "runs": h.runs,
        "redeals": h.redeals,
        "tricks": [
            {"leader": t.leader, "cards": [c for _, c in t.cards], "winner": t.winner}
            for t in h.tricks
        ],
        "calls": _public_calls(h.calls),
        "points": list(h.points) if scored else None,
        "penalties": list(h.penalties),
        "barred": list(h.barred),
        "scores": list(h.scores),
        "complete": scored,
    }
