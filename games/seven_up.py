"""7Up7Down, the bidding game of ../shared/RULES.md section 3, as a pure state machine.

Models one match at one table of 3 to 7 seats: 14 deals of 7, 6, 5, 4, 3, 2, 1,
1, 2, 3, 4, 5, 6, 7 cards from a 52-card deck (2 low ... ace high). The dealer
rotates clockwise (seat + 1) every deal. After the deal one card is drawn from the
undealt cards; its suit is trump for that deal. Bidding runs clockwise from the
dealer's left, dealer last; with the hook rule on, the dealer may not make the bids
add up to the number of cards each player holds. The dealer's left leads the first
trick; follow suit if able, else any card; the best trump wins, else the best card
of the led suit; the trick's winner leads the next. An exact bid of b > 0 scores
``points_per_trick`` x b, an exact zero ``zero_bid_points``, a miss 0. Two knobs
shared with Five Tricks change how tricks are won: ``ace`` ("high" or "low") and
``wins`` ("highest" or "lowest": the lowest trump, else the lowest card of the
led suit, takes the trick).

The 8th deal (index 7, the second one-card deal) is blind: each player sees every
card but their own and plays it unseen with ``{"type": "play_blind"}``.

Randomness comes only from a seed (every deal drawn from it) or from explicit
``deal`` actions. States are immutable; ``apply`` returns a new state plus the
events the action caused, or raises ``IllegalAction``. ``replay_record`` is the
``python -m games replay`` contract (docs/seven_up.md). Decisions the rules leave
open are in docs/seven_up.md.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import RANKS, SUITS, full_deck, parse_card, shuffled
from .errors import IllegalAction, ReplayError, card_of, seat_of
from .jsontext import check_keys
from .tricks import (
    ACE_VALUES,
    WINS_VALUES,
    TrickRules,
    check_order_knobs,
    legal_cards,
    rank_order,
    trick_winner,
    why_illegal,
)

__all__ = [
    "IllegalAction",
    "ReplayError",
    "Config",
    "Trick",
    "DealRecord",
    "State",
    "DEAL_SIZES",
    "last_deal_trick",
    "BLIND_DEAL",
    "deal_size",
    "seeded_deal",
    "check_deal",
    "deal_points",
    "new_match",
    "legal_bids",
    "forbidden_bid",
    "legal_actions",
    "apply",
    "is_over",
    "result",
    "view",
    "spectator_view",
    "sort_hand",
    "replay",
    "replay_record",
    "to_record",
    "estimate_tricks",
    "choose_from_view",
    "choose_action",
    "play_match",
]

GAME = "seven_up"
MIN_SEATS = 3
MAX_SEATS = 7
DEAL_SIZES = (7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7)
N_DEALS = len(DEAL_SIZES)
BLIND_DEAL = 7  # the second one-card deal, index 7 (the seed's "①")
PHASE_DEAL, PHASE_BID, PHASE_PLAY, PHASE_OVER = "deal", "bid", "play", "over"

RULE_KEYS = ("hook", "points_per_trick", "zero_bid_points", "ace", "wins")
DEFAULT_RULES = {
    "hook": True,
    "points_per_trick": 15,
    "zero_bid_points": 10,
    "ace": "high",
    "wins": "highest",
}
# The knobs shared with Five Tricks (games/tricks.py): where the ace ranks and which
# end of the order takes a trick. A config's ``rules`` names them only when they
# differ from the classic game, so records of classic matches keep their three keys.
SHARED_KEYS = ("ace", "wins")

# Follow suit else anything: one trick sheet per (ace, wins, trump suit).
_TRICK_RULES = {
    (a, w, s): TrickRules(ace=a, wins=w, trump=s)
    for a in ACE_VALUES
    for w in WINS_VALUES
    for s in SUITS
}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
# Suit by suit, bottom to top as the sheet orders a suit: an ace-low table's ace first.
_SORT_KEYS = {
    ace: {c: _SUIT_INDEX[c[-1]] * 100 + rank_order(c, TrickRules(ace=ace)) for c in full_deck()}
    for ace in ACE_VALUES
}


# ---------------------------------------------------------------- config


def _is_int(value: object) -> bool:
    return type(value) is int


@dataclass(frozen=True)
class Config:
    """What a table plays by: seats, the 7Up7Down knobs, and who deals first.

    ``first_dealer`` None means the last seat, so seat 0 (the first dealer's left)
    bids first and leads the first trick, as in the seed's score sheet.
    """

    n_seats: int
    hook: bool = True
    points_per_trick: int = 15
    zero_bid_points: int = 10
    first_dealer: int | None = None
    ace: str = "high"
    wins: str = "highest"

    def __post_init__(self) -> None:
        n = self.n_seats
        if not _is_int(n) or not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"7Up7Down needs {MIN_SEATS} to {MAX_SEATS} players, not {n!r}.")
        if type(self.hook) is not bool:
            raise ValueError(f"hook must be true or false, not {self.hook!r}.")
        for key in ("points_per_trick", "zero_bid_points"):
            value = getattr(self, key)
            if not _is_int(value) or value < 0:
                raise ValueError(f"{key} must be a whole number of points >= 0, not {value!r}.")
        check_order_knobs(self.ace, self.wins)
        if self.first_dealer is None:
            object.__setattr__(self, "first_dealer", n - 1)
        elif not _is_int(self.first_dealer) or not 0 <= self.first_dealer < n:
            raise ValueError(
                f"first_dealer must be a seat from 0 to {n - 1}, not {self.first_dealer!r}."
            )

    @property
    def rules(self) -> dict:
        """The knobs; ``ace`` and ``wins`` only where they differ from the default."""
        return {
            k: getattr(self, k)
            for k in RULE_KEYS
            if k not in SHARED_KEYS or getattr(self, k) != DEFAULT_RULES[k]
        }

    def trick_rules(self, trump: str) -> TrickRules:
        """How a trick is won this deal: this table's ace and wins, ``trump`` as trump."""
        return _TRICK_RULES[(self.ace, self.wins, trump)]

    def trick_winner(self, cards: Sequence[tuple[int, str]], trump: str) -> int:
        """The seat that takes ``cards`` ([(seat, card)] in play order, the first led)
        under this config with ``trump`` as trump. Only ``ace`` and ``wins`` (and the
        trump, which is the deal's) decide it: the hook and the points never do."""
        return trick_winner(cards, self.trick_rules(trump))

    def dealer_of(self, deal_no: int) -> int:
        """Who deals deal ``deal_no`` (0-based): one seat clockwise per deal."""
        return (self.first_dealer + deal_no) % self.n_seats

    def to_dict(self) -> dict:
        return {"n_seats": self.n_seats, **self.rules, "first_dealer": self.first_dealer}

    @classmethod
    def from_dict(cls, d: object) -> Config:
        if not isinstance(d, dict) or "n_seats" not in d:
            raise ValueError("A 7Up7Down config needs n_seats.")
        rules = {k: v for k, v in d.items() if k in RULE_KEYS}
        return cls.from_rules(d["n_seats"], rules, first_dealer=d.get("first_dealer"))

    @classmethod
    def from_rules(cls, n_seats: int, rules: object = None, *, first_dealer=None) -> Config:
        """Build from a ``rules`` object whose keys (all optional) are RULE_KEYS."""
        if rules is None:
            rules = {}
        if not isinstance(rules, dict):
            raise ValueError(
                f"rules must be an object with the optional keys {', '.join(RULE_KEYS)}."
            )
        check_keys(rules, RULE_KEYS, "rule")
        return cls(n_seats, **{**DEFAULT_RULES, **rules}, first_dealer=first_dealer)


# ---------------------------------------------------------------- deals and scoring


def deal_size(deal_no: int) -> int:
    """Cards each player gets in deal ``deal_no`` (0-based): 7, 6, ..., 1, 1, ..., 7."""
    return DEAL_SIZES[deal_no]


def seeded_deal(
    n_seats: int, deal_no: int, dealer: int, seed: int | str
) -> tuple[tuple[tuple[str, ...], ...], str]:
    """Hands and trump card of one deal, drawn from ``seed`` and the deal's number.

    Cards go one at a time clockwise from the dealer's left; the next card of the
    shuffled deck is the drawn trump card.
    """
    k = DEAL_SIZES[deal_no]
    deck = shuffled(full_deck(), f"{seed}/{deal_no}")
    hands: list[tuple[str, ...]] = [()] * n_seats
    for i in range(n_seats):
        seat = (dealer + 1 + i) % n_seats
        hands[seat] = tuple(deck[i : n_seats * k : n_seats])
    return tuple(hands), deck[n_seats * k]


def check_deal(
    hands: object, trump_card: object, n_seats: int, cards: int
) -> tuple[tuple[tuple[str, ...], ...], str]:
    """Canonical hands and trump card, or ValueError saying what is wrong.

    One hand per seat of exactly ``cards`` cards, real cards only, no card twice,
    and the trump card drawn from the cards nobody was dealt.
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ValueError("hands must be a list with one list of cards per seat.")
    if len(hands) != n_seats:
        raise ValueError(f"There are {n_seats} seats but {len(hands)} hands.")
    seen: set[str] = set()
    out = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, (str, bytes)) or not isinstance(hand, Sequence):
            raise ValueError(f"The hand of seat {seat} must be a list of cards.")
        if len(hand) != cards:
            raise ValueError(
                f"Seat {seat} has {len(hand)} cards; this deal gives {cards} to each player."
            )
        canon = []
        for text in hand:
            card = parse_card(text)
            if card in seen:
                raise ValueError(f"{card} is dealt twice.")
            seen.add(card)
            canon.append(card)
        out.append(tuple(canon))
    trump = parse_card(trump_card)
    if trump in seen:
        raise ValueError(
            f"The trump card {trump} is in a hand; it must be drawn from the undealt cards."
        )
    return tuple(out), trump


def deal_points(bid: int, won: int, config: Config) -> int:
    """Points for one seat in one deal: exact bid b > 0 scores b x per trick, exact 0 the zero bonus."""
    if bid != won:
        return 0
    return config.points_per_trick * bid if bid > 0 else config.zero_bid_points


# ---------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[tuple[int, str], ...]
    winner: int


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal: one row of the score sheet, plus its cards."""

    number: int
    dealer: int
    cards: int
    trump_card: str
    hands: tuple[tuple[str, ...], ...]  # as dealt
    bids: tuple[int, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]

    @property
    def trump(self) -> str:
        return self.trump_card[-1]

    @property
    def made(self) -> tuple[bool, ...]:
        return tuple(b == w for b, w in zip(self.bids, self.tricks_won, strict=True))


@dataclass(frozen=True, slots=True)
class State:
    """A match in progress. Never mutated: ``apply`` builds a new one.

    ``deal_no`` is the deal being played (or awaiting its cards in the ``deal``
    phase); ``N_DEALS`` once over. ``bids`` holds None for seats yet to bid.
    ``history`` holds the finished deals. ``seed`` None means deals come as actions.
    """

    config: Config
    seed: int | str | None
    deal_no: int
    phase: str
    dealer: int
    trump_card: str | None
    dealt: tuple[tuple[str, ...], ...]
    hands: tuple[tuple[str, ...], ...]
    bids: tuple[int | None, ...]
    leader: int
    current: tuple[tuple[int, str], ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    history: tuple[DealRecord, ...]
    seq: int

    @property
    def n_seats(self) -> int:
        return self.config.n_seats

    @property
    def cards(self) -> int:
        """Cards each player was dealt this deal (0 once the match is over)."""
        return DEAL_SIZES[self.deal_no] if self.deal_no < N_DEALS else 0

    @property
    def blind(self) -> bool:
        return self.deal_no == BLIND_DEAL and self.phase in (PHASE_BID, PHASE_PLAY)

    @property
    def trump(self) -> str | None:
        return self.trump_card[-1] if self.trump_card else None

    @property
    def to_act(self) -> int | None:
        """Seat whose turn it is to bid or play; None while awaiting a deal or when over."""
        n = self.config.n_seats
        if self.phase == PHASE_BID:
            return (self.dealer + 1 + sum(b is not None for b in self.bids)) % n
        if self.phase == PHASE_PLAY:
            return (self.current[-1][0] + 1) % n if self.current else self.leader
        return None

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.config.n_seats
        for record in self.history:
            for seat, p in enumerate(record.points):
                totals[seat] += p
        return totals


def _between_deals(config, seed, deal_no, history, seq) -> State:
    n = config.n_seats
    over = deal_no >= N_DEALS
    return State(
        config=config,
        seed=seed,
        deal_no=deal_no,
        phase=PHASE_OVER if over else PHASE_DEAL,
        dealer=config.dealer_of(deal_no),
        trump_card=None,
        dealt=((),) * n,
        hands=((),) * n,
        bids=(None,) * n,
        leader=(config.dealer_of(deal_no) + 1) % n,
        current=(),
        tricks=(),
        tricks_won=(0,) * n,
        history=history,
        seq=seq,
    )


def _start_deal(state: State, hands, trump_card: str) -> tuple[State, list[dict]]:
    n = state.config.n_seats
    new = State(
        config=state.config,
        seed=state.seed,
        deal_no=state.deal_no,
        phase=PHASE_BID,
        dealer=state.dealer,
        trump_card=trump_card,
        dealt=hands,
        hands=hands,
        bids=(None,) * n,
        leader=(state.dealer + 1) % n,
        current=(),
        tricks=(),
        tricks_won=(0,) * n,
        history=state.history,
        seq=state.seq,
    )
    event = {
        "type": "deal_started",
        "deal": state.deal_no,
        "dealer": state.dealer,
        "cards": new.cards,
        "blind": state.deal_no == BLIND_DEAL,
        "trump_card": trump_card,
        "trump": trump_card[-1],
    }
    return new, [event]


def _auto_deal(state: State) -> tuple[State, list[dict]]:
    """Deal from the seed if the match has one and awaits a deal."""
    if state.phase != PHASE_DEAL or state.seed is None:
        return state, []
    hands, trump = seeded_deal(state.n_seats, state.deal_no, state.dealer, state.seed)
    return _start_deal(state, hands, trump)


def new_match(config: Config, *, seed: int | str | None = None, start_deal: int = 0) -> State:
    """Start a match. With ``seed`` every deal is drawn from it; without, the match
    waits in the ``deal`` phase for a ``{"type": "deal", ...}`` action before each deal.

    ``start_deal`` (0-based) starts a shortened match at a later deal with no
    history; deals before it are simply not played.
    """
    if not isinstance(config, Config):
        raise ValueError("config must be a Config.")
    if not _is_int(start_deal) or not 0 <= start_deal < N_DEALS:
        raise ValueError(f"start_deal must be a deal from 0 to {N_DEALS - 1}, not {start_deal!r}.")
    if seed is not None and not isinstance(seed, (int, str)):
        raise ValueError("seed must be an integer or a string.")
    state = _between_deals(config, seed, start_deal, (), 0)
    return _auto_deal(state)[0]


# ---------------------------------------------------------------- bidding rules


def forbidden_bid(state: State) -> int | None:
    """The bid the hook rule forbids the dealer now, if it is the dealer's turn and one is."""
    if state.phase != PHASE_BID or not state.config.hook or state.to_act != state.dealer:
        return None
    bid = state.cards - sum(b for b in state.bids if b is not None)
    return bid if 0 <= bid <= state.cards else None


def legal_bids(state: State, seat: int) -> list[int]:
    """Bids ``seat`` may make now: 0 to the cards dealt, less the hook's forbidden bid."""
    if state.phase != PHASE_BID or state.to_act != seat:
        return []
    hooked = forbidden_bid(state)
    return [b for b in range(state.cards + 1) if b != hooked]


def legal_actions(state: State, seat: int) -> list[dict]:
    """Every action ``seat`` may take now (deals come from the seed or the app, not a seat)."""
    if not _is_int(seat) or state.to_act != seat:
        return []
    if state.phase == PHASE_BID:
        return [{"type": "bid", "seat": seat, "bid": b} for b in legal_bids(state, seat)]
    if state.blind:
        return [{"type": "play_blind", "seat": seat}]
    led = state.current[0][1][-1] if state.current else None
    cards = legal_cards(state.hands[seat], led, state.config.trick_rules(state.trump))
    return [{"type": "play", "seat": seat, "card": c} for c in cards]


# ---------------------------------------------------------------- actions


def apply(state: State, action: dict) -> tuple[State, list[dict]]:
    """Apply one action; return the new state and the events it caused.

    Actions: ``{"type": "deal", "hands": [...], "trump_card": "QH"}`` (optional
    ``"dealer"``, checked), ``{"type": "bid", "seat": s, "bid": b}``,
    ``{"type": "play", "seat": s, "card": "AS"}`` and, in the blind deal only,
    ``{"type": "play_blind", "seat": s}``. Raises IllegalAction with a reason a player
    can read and leaves ``state`` untouched if the action is not allowed.
    """
    if not isinstance(action, dict):
        raise IllegalAction("An action must be an object with a type.")
    kind = action.get("type")
    if kind == "deal":
        return _deal(state, action)
    if kind == "bid":
        return _bid(state, action)
    if kind in ("play", "play_blind"):
        return _play(state, action, kind == "play_blind")
    raise IllegalAction(
        f"Unknown action type {kind!r}: expected 'deal', 'bid', 'play' or 'play_blind'."
    )


def _not_now(state: State, doing: str) -> IllegalAction:
    if state.phase == PHASE_OVER:
        return IllegalAction("The match is over.")
    if state.phase == PHASE_DEAL:
        return IllegalAction(f"The cards have not been dealt yet, so nobody can {doing}.")
    if state.phase == PHASE_BID:
        return IllegalAction(f"Bidding is not over: seat {state.to_act} bids next.")
    return IllegalAction("Bidding is over: it is time to play.")


def _seat(state: State, action: dict) -> int:
    seat = seat_of(action.get("seat"), state.n_seats)
    if seat != state.to_act:
        verb = "bids" if state.phase == PHASE_BID else "plays"
        raise IllegalAction(f"It is not your turn: seat {state.to_act} {verb} next.")
    return seat


def _deal(state: State, action: dict) -> tuple[State, list[dict]]:
    if state.phase != PHASE_DEAL:
        if state.phase == PHASE_OVER:
            raise IllegalAction("The match is over.")
        raise IllegalAction("The cards of this deal are already dealt.")
    if state.seed is not None:
        raise IllegalAction("This match deals its cards from its seed.")
    if "dealer" in action and action["dealer"] != state.dealer:
        raise IllegalAction(
            f"Seat {state.dealer} deals deal {state.deal_no + 1}, not {action['dealer']!r}: "
            "the dealer moves one seat clockwise every deal."
        )
    try:
        hands, trump = check_deal(
            action.get("hands"), action.get("trump_card"), state.n_seats, state.cards
        )
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    new, events = _start_deal(state, hands, trump)
    return _bump(new), events


def _bump(state: State) -> State:
    return _replace(state, seq=state.seq + 1)


def _replace(state: State, **changes) -> State:
    return dataclasses.replace(state, **changes)


def _bid(state: State, action: dict) -> tuple[State, list[dict]]:
    if state.phase != PHASE_BID:
        raise _not_now(state, "bid")
    seat = _seat(state, action)
    bid = action.get("bid")
    cards = state.cards
    if not _is_int(bid) or not 0 <= bid <= cards:
        raise IllegalAction(f"A bid is a number of tricks from 0 to {cards}, not {bid!r}.")
    if bid == forbidden_bid(state):
        raise IllegalAction(
            f"As the dealer you may not bid {bid}: the bids would add up to {cards}, "
            f"the number of cards each player holds (hook rule)."
        )
    bids = state.bids[:seat] + (bid,) + state.bids[seat + 1 :]
    events = [{"type": "bid_made", "seat": seat, "bid": bid}]
    phase = PHASE_BID
    if seat == state.dealer:
        phase = PHASE_PLAY
        events.append({"type": "bidding_complete", "bids": list(bids), "leader": state.leader})
    return _replace(state, bids=bids, phase=phase, seq=state.seq + 1), events


def _play(state: State, action: dict, unseen: bool) -> tuple[State, list[dict]]:
    if state.phase != PHASE_PLAY:
        raise _not_now(state, "play")
    seat = _seat(state, action)
    hand = state.hands[seat]
    if state.deal_no == BLIND_DEAL:
        # Refusing a named card here, even the right one, keeps a guess from
        # telling a player anything about the card on their forehead.
        if not unseen:
            raise IllegalAction(
                "In the blind deal you cannot see your card: play it unseen (play_blind)."
            )
        card = hand[0]
    else:
        if unseen:
            raise IllegalAction("Only in the blind deal is a card played unseen.")
        card = card_of(action)
        led = state.current[0][1][-1] if state.current else None
        reason = why_illegal(card, hand, led, state.config.trick_rules(state.trump))
        if reason is not None:
            raise IllegalAction(reason)

    i = hand.index(card)
    hands = state.hands[:seat] + (hand[:i] + hand[i + 1 :],) + state.hands[seat + 1 :]
    current = state.current + ((seat, card),)
    events: list[dict] = [{"type": "card_played", "seat": seat, "card": card}]
    seq = state.seq + 1
    n = state.n_seats
    if len(current) < n:
        return _replace(state, hands=hands, current=current, seq=seq), events

    winner = state.config.trick_winner(current, state.trump)
    trick = Trick(state.leader, current, winner)
    tricks = state.tricks + (trick,)
    won = (
        state.tricks_won[:winner] + (state.tricks_won[winner] + 1,) + state.tricks_won[winner + 1 :]
    )
    events.append(
        {
            "type": "trick_complete",
            "trick": len(state.tricks),
            "leader": state.leader,
            "cards": [[s, c] for s, c in current],
            "winner": winner,
        }
    )
    if hands[0]:
        new = _replace(
            state, hands=hands, current=(), tricks=tricks, tricks_won=won, leader=winner, seq=seq
        )
        return new, events
    return _finish_deal(state, hands, tricks, won, seq, events)


def _finish_deal(state, hands, tricks, won, seq, events) -> tuple[State, list[dict]]:
    config = state.config
    bids = tuple(state.bids)
    points = tuple(deal_points(b, w, config) for b, w in zip(bids, won, strict=True))
    record = DealRecord(
        number=state.deal_no,
        dealer=state.dealer,
        cards=state.cards,
        trump_card=state.trump_card,
        hands=state.dealt,
        bids=bids,
        tricks=tricks,
        tricks_won=won,
        points=points,
    )
    history = state.history + (record,)
    new = _between_deals(config, state.seed, state.deal_no + 1, history, seq)
    events.append(
        {
            "type": "deal_scored",
            "deal": state.deal_no,
            "bids": list(bids),
            "tricks_won": list(won),
            "made": list(record.made),
            "points": list(points),
            "totals": new.totals,
        }
    )
    if new.phase == PHASE_OVER:
        events.append({"type": "match_over", **result(new)})
        return new, events
    new, more = _auto_deal(new)
    return new, events + more


# ---------------------------------------------------------------- outcome


def is_over(state: State) -> bool:
    return state.phase == PHASE_OVER


def result(state: State) -> dict:
    """Totals of the finished deals and the winners so far (most points; ties all win).

    Works on unfinished matches, which is how a tournament round counts a match in
    progress: a deal counts once it is scored; with no deal scored nobody has won.
    """
    totals = state.totals
    if not state.history:
        return {"totals": totals, "winners": [], "deals_scored": 0}
    top = max(totals)
    return {
        "totals": totals,
        "winners": [s for s, t in enumerate(totals) if t == top],
        "deals_scored": len(state.history),
    }


def replay(config: Config, actions: Iterable[dict], *, seed: int | str | None = None) -> State:
    """Rebuild a match from its seed (or its deal actions) and its action log."""
    state = new_match(config, seed=seed)
    for action in actions:
        state, _ = apply(state, action)
    return state


# ---------------------------------------------------------------- views


def sort_hand(hand: Iterable[str], ace: str = "high") -> list[str]:
    """Suit by suit (S H D C), bottom to top within a suit: 2 up to the ace, or (ace
    low) the ace up to the king, as the table's sheet lists them."""
    return sorted(hand, key=_SORT_KEYS[ace].__getitem__)


def _trick_dict(t: Trick) -> dict:
    return {"leader": t.leader, "cards": [[s, c] for s, c in t.cards], "winner": t.winner}


def _sheet(state: State) -> list[dict]:
    return [
        {
            "deal": r.number,
            "dealer": r.dealer,
            "cards": r.cards,
            "blind": r.number == BLIND_DEAL,
            "trump_card": r.trump_card,
            "bids": list(r.bids),
            "tricks_won": list(r.tricks_won),
            "made": list(r.made),
            "points": list(r.points),
        }
        for r in state.history
    ]


def _public(state: State) -> dict:
    phase = state.phase
    return {
        "game": GAME,
        "n_seats": state.n_seats,
        "rules": state.config.rules,
        "phase": phase,
        "deal": state.deal_no,
        "n_deals": N_DEALS,
        "cards": state.cards,
        "blind": state.blind,
        "dealer": state.dealer,
        "to_act": state.to_act,
        "leader": state.leader,
        "seq": state.seq,
        "trump_card": state.trump_card,
        "trump": state.trump,
        "hand_counts": list(map(len, state.hands)),
        "bids": list(state.bids),
        "forbidden_bid": forbidden_bid(state),
        "current": [[s, c] for s, c in state.current],
        "tricks": [_trick_dict(t) for t in state.tricks],
        "tricks_won": list(state.tricks_won),
        "sheet": _sheet(state),
        "totals": state.totals,
        "winners": result(state)["winners"] if phase == PHASE_OVER else None,
    }


def _previous_trick(state: State, seat: int) -> dict | None:
    """The last deal's last trick, as ``seat`` saw it, from the next deal's cards until
    its first trick is taken (None otherwise): that trick's last card scored the deal
    and dealt the next at once, so it was never on the table. ``deal`` is its deal's
    index, ``number`` its number in that deal.

    Its cards are the ones played face up, but for the blind deal's last card: its
    player never saw it (the trick, and the deal, ended as it was played), so to that
    seat it is None. The others saw it on its player's forehead."""
    if state.tricks or state.phase == PHASE_OVER:
        return None
    return last_deal_trick(state, seat)


def last_deal_trick(state: State, seat: int) -> dict | None:
    """The last finished deal's last trick as ``seat`` saw it (``_previous_trick``'s
    shape), whatever came after it: at the match's end, its last card."""
    if not state.history:
        return None
    record = state.history[-1]
    trick = record.tricks[-1]
    cards = [[s, c] for s, c in trick.cards]
    if record.number == BLIND_DEAL and cards[-1][0] == seat:
        cards[-1][1] = None
    return {
        "deal": record.number,
        "number": len(record.tricks),
        "leader": trick.leader,
        "cards": cards,
        "winner": trick.winner,
    }


def view(state: State, seat: int) -> dict:
    """What ``seat`` may see: its own hand (except in the blind deal), public facts only.

    In the blind deal ``hand`` is empty and ``hand_hidden`` true, ``visible_cards``
    holds every other seat's card (None for this seat) and, on its turn,
    ``can_play_blind`` is true. ``legal`` lists the cards it may play now and
    ``legal_bids`` the bids it may make now (empty when it is not its turn).
    ``previous_trick``: the last deal's last trick until this deal's first is taken.
    """
    n = state.n_seats
    if not _is_int(seat) or not 0 <= seat < n:
        raise ValueError(f"There is no seat {seat!r} at this table.")
    out = _public(state)
    my_turn = state.to_act == seat
    blind = state.blind
    out["seat"] = seat
    out["hand"] = [] if blind else sort_hand(state.hands[seat], state.config.ace)
    out["hand_hidden"] = blind
    out["visible_cards"] = (
        [None if s == seat else list(h) for s, h in enumerate(state.hands)] if blind else None
    )
    out["legal_bids"] = legal_bids(state, seat)
    out["legal"] = (
        [a["card"] for a in legal_actions(state, seat)]
        if my_turn and state.phase == PHASE_PLAY and not blind
        else []
    )
    out["can_play_blind"] = my_turn and blind and state.phase == PHASE_PLAY
    out["previous_trick"] = _previous_trick(state, seat)
    return out


def spectator_view(state: State) -> dict:
    """Everything on the table, for the facilitator: every hand, and each deal's cards.

    The seed is left out: it would tell the deals still to come.
    """
    out = _public(state)
    out["hands"] = [sort_hand(h) for h in state.hands]
    out["dealt"] = [sort_hand(h) for h in state.dealt]
    # Each past deal's hands on its own row of the score sheet: apart, under a label
    # of their own, every deal's ran on as one paragraph with no deal named.
    out["sheet"] = [
        {**row, "hands": [list(h) for h in r.hands]}
        for row, r in zip(out["sheet"], state.history, strict=True)
    ]
    return out


# ---------------------------------------------------------------- replay record


RECORD_KEYS = {"game", "rules", "seats", "deals"}
DEAL_KEYS = {"dealer", "hands", "trump_card", "bids", "plays"}


def _check_record(doc: dict) -> tuple[Config, list[dict]]:
    unknown = sorted(str(k) for k in set(doc) - RECORD_KEYS)
    if unknown:
        raise ReplayError(f"Unknown key(s) for seven_up: {', '.join(unknown)}.")
    for key in ("seats", "deals"):
        if key not in doc:
            raise ReplayError(f"Missing key {key!r}.")
    n = doc["seats"]
    if not _is_int(n) or not MIN_SEATS <= n <= MAX_SEATS:
        raise ReplayError(
            f"seats must be a number of players from {MIN_SEATS} to {MAX_SEATS}, not {n!r}."
        )
    deals = doc["deals"]
    if not isinstance(deals, list) or not all(isinstance(d, dict) for d in deals):
        raise ReplayError("deals must be a list of deal objects.")
    if len(deals) > N_DEALS:
        raise ReplayError(f"A match has {N_DEALS} deals; deals has {len(deals)}.")

    checked = []
    first_dealer = None
    for i, d in enumerate(deals):
        where = f"deals[{i}]"
        unknown = sorted(str(k) for k in set(d) - DEAL_KEYS)
        if unknown:
            raise ReplayError(f"{where}: unknown key(s) {', '.join(unknown)}.", deal=i)
        for key in ("dealer", "hands", "trump_card"):
            if key not in d:
                raise ReplayError(f"{where}: missing key {key!r}.", deal=i)
        dealer = d["dealer"]
        if not _is_int(dealer) or not 0 <= dealer < n:
            raise ReplayError(
                f"{where}.dealer must be a seat from 0 to {n - 1}, not {dealer!r}.", deal=i
            )
        if first_dealer is None:
            first_dealer = dealer
        elif dealer != (first_dealer + i) % n:
            raise ReplayError(
                f"{where}.dealer is seat {dealer}, but the dealer moves one seat clockwise "
                f"every deal: after seat {(first_dealer + i - 1) % n} comes seat "
                f"{(first_dealer + i) % n}.",
                deal=i,
            )
        try:
            hands, trump = check_deal(d["hands"], d["trump_card"], n, DEAL_SIZES[i])
        except ValueError as exc:
            raise ReplayError(f"{where}: {exc}", deal=i) from None
        bids = d.get("bids", [])
        if not isinstance(bids, list) or not all(_is_int(b) for b in bids):
            raise ReplayError(f"{where}.bids must be a list of whole numbers.", deal=i)
        plays = d.get("plays", [])
        if not isinstance(plays, list):
            raise ReplayError(f"{where}.plays must be a list of cards.", deal=i)
        cards = []
        for j, text in enumerate(plays):
            try:
                cards.append(parse_card(text))
            except ValueError as exc:
                raise ReplayError(f"{where}.plays[{j}]: {exc}", deal=i) from None
        checked.append(
            {"dealer": dealer, "hands": hands, "trump_card": trump, "bids": bids, "plays": cards}
        )
    try:
        config = Config.from_rules(n, doc.get("rules"), first_dealer=first_dealer)
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"rules: {exc}") from None
    return config, checked


def to_record(state: State) -> dict:
    """The replay input (docs/seven_up.md) for the match so far: finished deals, then
    the deal in progress with the bids and plays made. Plays are in the order played.
    """
    deals = []
    for r in state.history:
        deals.append(
            {
                "dealer": r.dealer,
                "hands": [list(h) for h in r.hands],
                "trump_card": r.trump_card,
                "bids": _bids_in_order(r.bids, r.dealer),
                "plays": [c for t in r.tricks for _, c in t.cards],
            }
        )
    if state.phase in (PHASE_BID, PHASE_PLAY):
        deals.append(
            {
                "dealer": state.dealer,
                "hands": [list(h) for h in state.dealt],
                "trump_card": state.trump_card,
                "bids": _bids_in_order(state.bids, state.dealer),
                "plays": [c for t in state.tricks for _, c in t.cards]
                + [c for _, c in state.current],
            }
        )
    return {"game": GAME, "rules": state.config.rules, "seats": state.n_seats, "deals": deals}


def _bids_in_order(bids, dealer: int) -> list[int]:
    n = len(bids)
    in_order = (bids[(dealer + 1 + i) % n] for i in range(n))
    return [b for b in in_order if b is not None]


def _deal_output(trump_card, bids, tricks, current, tricks_won, points) -> dict:
    out_tricks = [
        {"leader": t.leader, "cards": [c for _, c in t.cards], "winner": t.winner} for t in tricks
    ]
    if current:
        out_tricks.append(
            {"leader": current[0][0], "cards": [c for _, c in current], "winner": None}
        )
    return {
        "trump": trump_card[-1],
        "bids": list(bids),
        "tricks": out_tricks,
        "tricks_won": list(tricks_won),
        "points": list(points),
    }


def replay_record(doc: dict) -> dict:
    """The ``python -m games replay`` contract for ``"game": "seven_up"`` (docs/seven_up.md).

    Raises ReplayError whose payload is ``{"error", "deal", "phase", "at"}`` for an
    illegal bid or play, ``{"error"}`` (with ``deal`` where one is at fault) for
    malformed input.
    """
    if not isinstance(doc, dict):
        raise ReplayError("The input must be a JSON object.")
    config, deals = _check_record(doc)
    state = new_match(config)
    last = len(deals) - 1
    for i, d in enumerate(deals):
        deal_action = {"type": "deal", "dealer": d["dealer"], "hands": d["hands"]}
        deal_action["trump_card"] = d["trump_card"]
        try:
            state, _ = apply(state, deal_action)
        except IllegalAction as exc:  # _check_record has checked all of it already
            raise ReplayError(f"deals[{i}]: {exc.reason}", deal=i) from None
        for j, bid in enumerate(d["bids"]):
            seat = state.to_act
            try:
                state, _ = apply(state, {"type": "bid", "seat": seat, "bid": bid})
            except IllegalAction as exc:
                who = f"{bid} cannot be bid" if seat is None else f"seat {seat} cannot bid {bid}"
                raise ReplayError(
                    f"deals[{i}].bids[{j}]: {who}: {exc.reason}",
                    deal=i,
                    phase="bid",
                    at=j,
                ) from None
        for j, card in enumerate(d["plays"]):
            seat = state.to_act
            action = {"type": "play", "seat": seat, "card": card}
            # The record names the blind card; the engine takes it unseen.
            if state.phase == PHASE_PLAY and state.deal_no == BLIND_DEAL:
                action = {"type": "play_blind", "seat": seat}
            try:
                if len(state.history) > i:
                    raise IllegalAction(
                        f"The deal is over: all {config.n_seats * DEAL_SIZES[i]} cards were played."
                    )
                if action["type"] == "play_blind" and card not in state.hands[seat]:
                    raise IllegalAction(f"You do not hold {card}.")
                state, _ = apply(state, action)
            except IllegalAction as exc:
                who = (
                    f"{card} cannot be played"
                    if seat is None
                    else f"seat {seat} cannot play {card}"
                )
                raise ReplayError(
                    f"deals[{i}].plays[{j}]: {who}: {exc.reason}",
                    deal=i,
                    phase="play",
                    at=j,
                ) from None
        if i < last and len(state.history) <= i:
            raise ReplayError(
                f"deals[{i}] stops after {len(d['bids'])} of {config.n_seats} bids and "
                f"{len(d['plays'])} of {config.n_seats * DEAL_SIZES[i]} plays, but a later deal "
                "follows: only the last deal may stop early.",
                deal=i,
            )
    out = [
        _deal_output(r.trump_card, r.bids, r.tricks, (), r.tricks_won, r.points)
        for r in state.history
    ]
    if deals and len(state.history) < len(deals):
        out.append(
            _deal_output(
                state.trump_card,
                state.bids,
                state.tricks,
                state.current,
                state.tricks_won,
                [None] * config.n_seats,
            )
        )
    outcome = result(state)
    return {"deals": out, "totals": outcome["totals"], "winners": outcome["winners"]}


# ---------------------------------------------------------------- bot


# How often a bot plays a random legal card instead of its plan, so seeded bot
# matches wander off the single greedy line.
BOT_NOISE = 0.1


def _power_table(ace: str, wins: str) -> dict[str, int]:
    # A rank's place in the order that takes tricks: 2 for the weakest, 14 for the
    # best (the classic game's face values: 2 ... 10, J 11, Q 12, K 13, A 14).
    rules = TrickRules(ace=ace, wins=wins)
    ranked = sorted(RANKS, key=lambda r: rank_order(r + "S", rules))
    return {r: i + 2 for i, r in enumerate(ranked)}


_POWER = {(a, w): _power_table(a, w) for a in ACE_VALUES for w in WINS_VALUES}


def _power(card: str, ace: str = "high", wins: str = "highest") -> int:
    return _POWER[(ace, wins)][card[:-1]]


def _view_knobs(v: dict) -> tuple[str, str]:
    rules = v.get("rules") or {}
    return rules.get("ace", DEFAULT_RULES["ace"]), rules.get("wins", DEFAULT_RULES["wins"])


def _strength(card: str, trump: str, ace: str = "high", wins: str = "highest") -> tuple[int, int]:
    return (card[-1] == trump, _power(card, ace, wins))


def estimate_tricks(
    hand: Sequence[str], trump: str, n_seats: int, *, ace: str = "high", wins: str = "highest"
) -> float:
    """Expected tricks of ``hand``: strong trumps and off-suit top cards.

    A rough count: a trump is worth more the stronger it is, the best off-suit rank
    (the ace, in the classic game) most of a trick, the next one less, and every
    off-suit honour less at a fuller table. ``ace`` and ``wins`` say which ranks are
    strong, as on the table's sheet.
    """
    crowd = 3 / n_seats
    expected = 0.0
    for card in hand:
        value = _power(card, ace, wins)  # 2 (weakest) .. 14 (best)
        if card[-1] == trump:
            expected += 0.3 + 0.7 * (value - 2) / 12
        elif value == 14:
            expected += 0.85 * crowd
        elif value == 13:
            expected += 0.5 * crowd
        elif value == 12:
            expected += 0.2 * crowd
    return expected


def _blind_win_chance(v: dict) -> float:
    """Share of the cards this seat might hold that would win the one-card trick."""
    n, seat = v["n_seats"], v["seat"]
    seen = {c for s, h in enumerate(v["visible_cards"]) if s != seat for c in h}
    seen |= {c for _, c in v["current"]}
    seen.add(v["trump_card"])
    unknown = [c for c in full_deck() if c not in seen]
    rules = _TRICK_RULES[(*_view_knobs(v), v["trump"])]
    order = [(v["leader"] + i) % n for i in range(n)]
    others = {s: (v["visible_cards"][s] or [None])[0] for s in order if s != seat}
    for s, c in v["current"]:
        others[s] = c
    wins = 0
    for mine in unknown:
        cards = [(s, mine if s == seat else others[s]) for s in order]
        wins += trick_winner(cards, rules) == seat
    return wins / len(unknown) if unknown else 0.0


def _choose_bid(v: dict) -> int:
    legal = v["legal_bids"]
    if v["hand_hidden"]:
        want = 1 if _blind_win_chance(v) > 0.5 else 0
    else:
        ace, wins = _view_knobs(v)
        want = round(estimate_tricks(v["hand"], v["trump"], v["n_seats"], ace=ace, wins=wins))
    want = max(0, min(v["cards"], want))
    # The hook may forbid the wish: take the nearest legal bid, the lower on a tie.
    return min(legal, key=lambda b: (abs(b - want), b))


def _choose_card(v: dict, rng: random.Random) -> str:
    legal = v["legal"]
    if len(legal) == 1 or rng.random() < BOT_NOISE:
        return rng.choice(legal)
    seat, trump = v["seat"], v["trump"]
    ace, wins = _view_knobs(v)
    key = lambda c: _strength(c, trump, ace, wins)  # noqa: E731
    want_win = v["bids"][seat] > v["tricks_won"][seat]
    current = [(s, c) for s, c in v["current"]]
    if not current:
        return max(legal, key=key) if want_win else min(legal, key=key)
    rules = _TRICK_RULES[(ace, wins, trump)]
    winning = [c for c in legal if trick_winner(current + [(seat, c)], rules) == seat]
    losing = [c for c in legal if c not in winning]
    if want_win:
        return min(winning, key=key) if winning else min(legal, key=key)
    return max(losing, key=key) if losing else max(legal, key=key)


def choose_from_view(v: dict, rng: random.Random) -> dict | None:
    """The bot's action for the seat ``v`` was built for, or None if it has nothing to do.

    Bids the rounded trick estimate of its hand under the trump (in the blind deal,
    1 if most cards it might hold would win against the cards it sees); plays to
    reach its bid: cheapest winning card while short, else the highest losing card.
    """
    seat = v["seat"]
    if v["to_act"] != seat:
        return None
    if v["phase"] == PHASE_BID:
        return {"type": "bid", "seat": seat, "bid": _choose_bid(v)}
    if v["phase"] != PHASE_PLAY:
        return None
    if v["can_play_blind"]:
        return {"type": "play_blind", "seat": seat}
    return {"type": "play", "seat": seat, "card": _choose_card(v, rng)}


def choose_action(state: State, seat: int, rng: random.Random) -> dict | None:
    """Like ``choose_from_view``, from the view of ``seat`` only, so it cannot cheat."""
    return choose_from_view(view(state, seat), rng)


def play_match(config: Config, seed: int | str) -> tuple[State, list[dict]]:
    """A whole seeded match with bots in every seat; the final state and the action log.

    Deterministic: ``replay(config, log, seed=seed)`` rebuilds the same state.
    """
    rng = random.Random(f"bots/{seed}")
    state = new_match(config, seed=seed)
    log: list[dict] = []
    while state.phase != PHASE_OVER:
        action = choose_action(state, state.to_act, rng)
        state, _ = apply(state, action)
        log.append(action)
    return state, log
