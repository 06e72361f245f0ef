"""3 Tricks, the two-player laying-and-blocking game of ../shared/seeds/004, as a pure state machine.

Models one game at a table of two: seven cards each, the rest a face-down
stockpile; on each turn a player lays their next trick, blocks the trick the
opponent has just laid, passes, or swaps up to three cards through the secondary
stockpile. Three tricks standing in a row win at once; otherwise the game ends
when drawing stops (or both players pass in a row), and the blocked-trick piles
are counted (level piles: a draw when drawing stopped, nobody's game after two
passes). Rules come from
shared/RULES.md section 5; every decision the seed leaves open is written in
docs/three_tricks.md (with a test each).

A trick is two cards: a pair (same rank) or a run (same suit, consecutive
ranks 2..K). A third trick is three cards: three of a kind or a run of three.
With wild aces (default) an ace stands for any card but never forms a trick
alone, and its own suit and rank count for nothing.

API (the same shape as ``games.five_tricks``, so the app can drive it generically):

    new_game(config, seed=..., dealer=None, deck=None, reshuffles=None) -> State
    state.to_act                      seat whose turn it is, or None when over
    legal_actions(state, seat) -> [action, ...]
    apply(state, action) -> (state, events)      raises IllegalAction(reason)
    is_over(state), result(state) -> {"winners": [...], "outcome": ..., ...}
    view(state, seat), spectator_view(state)
    choose_from_view(view, rng), play_game(config, seed)        seeded bots
    replay(config, actions, seed=..., ...), replay_record(doc)

Actions are JSON-able dicts: ``{"type": "lay", "seat": s, "cards": [...]}``,
``{"type": "block", "seat": s, "cards": [c1, c2]}``, ``{"type": "pass", "seat": s}``
and ``{"type": "swap", "seat": s, "cards": [...]}``. States are immutable.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from .cards import SUIT_NAME_SINGULAR, SUITS, full_deck, parse_card, shuffled
from .errors import IllegalAction
from .jsontext import check_keys
from .records import RecordError, action_object, check_record_keys, replay_actions

__all__ = [
    "IllegalAction",
    "RecordError",
    "Config",
    "State",
    "trick_problem",
    "is_trick",
    "block_problem",
    "matches",
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

GAME = "three_tricks"
N_SEATS = MIN_SEATS = MAX_SEATS = 2
DECK_SIZE = 52
HAND_SIZE = 7
TRICKS_TO_WIN = 3
ACES = ("wild", "low", "high")
BLOCKS = ("suit_or_rank", "suit", "rank")
RANK_MATCHES = ("pair", "card")
COUNTS = ("most", "fewest")
KNOBS = ("aces", "block", "rank_match", "max_swap", "stock_floor", "count")
PHASE_PLAY, PHASE_OVER = "play", "over"
OUTCOME_TRICKS, OUTCOME_STOPPED, OUTCOME_PASSED = "three_tricks", "drawing_stopped", "both_passed"
ACTION_TYPES = ("lay", "block", "pass", "swap")
_SEED_TAG = "three_tricks"
_VALUE = {
    r: v for v, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), 2)
}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_PLURAL = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
           "8": "eights", "9": "nines", "10": "tens", "J": "jacks", "Q": "queens", "K": "kings",
           "A": "aces"}  # fmt: skip


# ---------------------------------------------------------------- config


@dataclass(frozen=True)
class Config:
    """A table's rules: the seed's game by default; every knob is a per-table variant.

    - ``aces``: "wild" (the seed), or natural aces ranking "low" (A-2-3) or "high" (Q-K-A).
    - ``block``: what a block must match: "suit_or_rank" (the seed), "suit" or "rank".
    - ``rank_match``: how a block matches by rank: "pair" (the block is a pair of a
      rank in the trick, as the seed's examples) or "card" (any card of that rank).
    - ``max_swap``: at most this many cards swapped in a turn (3; 0 allows passing only).
    - ``stock_floor``: drawing stops when the stockpile is down to this many
      cards or fewer and there is no secondary stockpile (5).
    - ``count``: who wins the count when drawing stops: "most" blocked tricks
      (the seed) or "fewest".
    """

    aces: str = "wild"
    block: str = "suit_or_rank"
    rank_match: str = "pair"
    max_swap: int = 3
    stock_floor: int = 5
    count: str = "most"

    def __post_init__(self) -> None:
        for name, allowed in (
            ("aces", ACES),
            ("block", BLOCKS),
            ("rank_match", RANK_MATCHES),
            ("count", COUNTS),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(
                    f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}."
                )
        if type(self.max_swap) is not int or not 0 <= self.max_swap <= HAND_SIZE:
            raise ValueError(f"max_swap must be a whole number from 0 to 7, not {self.max_swap!r}.")
        # The stockpile starts with 38 cards; a floor that high would end the game at once.
        if type(self.stock_floor) is not int or not 0 <= self.stock_floor <= 30:
            raise ValueError(
                f"stock_floor must be a whole number from 0 to 30, not {self.stock_floor!r}."
            )

    @property
    def n_seats(self) -> int:
        return N_SEATS

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in KNOBS}

    @classmethod
    def from_dict(cls, d: object) -> Config:
        """Any subset of the knobs (the rest keep the seed's values); unknown keys are refused."""
        if not isinstance(d, dict):
            raise ValueError(f"3 Tricks rules must be an object with some of: {', '.join(KNOBS)}.")
        check_keys(d, KNOBS, "rule knob")
        return cls(**d)

    def diff(self, other: Config) -> list[str]:
        return [k for k in KNOBS if getattr(self, k) != getattr(other, k)]


# ---------------------------------------------------------------- tricks and blocks (pure)


def _is_wild(card: str, config: Config) -> bool:
    return config.aces == "wild" and card[:-1] == "A"


def _naturals(cards: Iterable[str], config: Config) -> list[str]:
    """The cards whose suit and rank count: all but wild aces."""
    return [c for c in cards if not _is_wild(c, config)]


def _value(card: str, config: Config) -> int:
    r = card[:-1]
    if r == "A":
        return 1 if config.aces == "low" else 14
    return _VALUE[r]


def _is_set(naturals: Sequence[str]) -> bool:
    return len({c[:-1] for c in naturals}) == 1


def _is_run(naturals: Sequence[str], size: int, config: Config) -> bool:
    """Same suit, distinct ranks, all within one window of ``size`` consecutive ranks.

    Wild aces fill the gaps (and the ends: 2..K always leaves room around a
    window). Natural aces take their value, so a run needs no gaps at all.
    """
    if len({c[-1] for c in naturals}) != 1:
        return False
    values = sorted(_value(c, config) for c in naturals)
    if len(set(values)) != len(values):
        return False
    return values[-1] - values[0] <= size - 1


def trick_problem(cards: Sequence[str], size: int, config: Config) -> str | None:
    """None if ``cards`` form a trick of ``size`` cards under ``config``, else why not."""
    if len(cards) != size:
        return f"This trick needs {size} cards, not {len(cards)}."
    if len(set(cards)) != len(cards):
        return "A trick cannot use the same card twice."
    naturals = _naturals(cards, config)
    if not naturals:
        return "Aces are wild but cannot make a trick on their own: play them with another card."
    if _is_set(naturals) or _is_run(naturals, size, config):
        return None
    if size == 2:
        return "A trick is a pair (two cards of the same rank) or a run (two cards in a row in one suit)."
    return "The last trick is three of a kind or a run of three in one suit."


def is_trick(cards: Sequence[str], config: Config) -> bool:
    """Whether ``cards`` (2 or 3) form a trick."""
    return trick_problem(cards, len(cards), config) is None


def _pair_rank(cards: Sequence[str], config: Config) -> str | None:
    """The rank this trick is a pair (or set) of, if it can be read as one."""
    naturals = _naturals(cards, config)
    return naturals[0][:-1] if naturals and _is_set(naturals) else None


def matches(block: Sequence[str], trick: Sequence[str], config: Config) -> bool:
    """Whether ``block`` (a valid two-card trick) blocks ``trick`` under ``config``."""
    return block_problem(block, trick, config) is None


def block_problem(block: Sequence[str], trick: Sequence[str], config: Config) -> str | None:
    """None if ``block`` blocks ``trick``, else why not.

    Only natural cards carry a suit or a rank: a wild ace in the laid trick adds
    neither, and one in the block matches only by making a pair with its partner.
    """
    problem = trick_problem(block, 2, config)
    if problem:
        return problem
    laid = _naturals(trick, config)
    suits = {c[-1] for c in laid}
    ranks = {c[:-1] for c in laid}
    mine = _naturals(block, config)
    by_suit = any(c[-1] in suits for c in mine)
    if config.rank_match == "pair":
        rank = _pair_rank(block, config)
        by_rank = rank is not None and rank in ranks
    else:
        by_rank = any(c[:-1] in ranks for c in mine)
    ok = {"suit_or_rank": by_suit or by_rank, "suit": by_suit, "rank": by_rank}[config.block]
    if ok:
        return None
    suit_words = " or ".join(SUIT_NAME_SINGULAR[s] for s in sorted(suits, key=_SUIT_INDEX.get))
    rank_words = " or ".join(_PLURAL[r] for r in sorted(ranks, key=lambda r: _VALUE.get(r, 1)))
    if config.rank_match == "pair":
        rank_text = f"be a pair of {rank_words}"
    else:
        rank_text = f"contain one of the {rank_words}"
    need = {
        "suit_or_rank": f"contain a {suit_words} or {rank_text}",
        "suit": f"contain a {suit_words}",
        "rank": rank_text,
    }[config.block]
    return f"That does not block it: a block here must {need}."


# ---------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class State:
    """A game in progress. Never mutated: ``apply`` builds a new one.

    ``standing[s]``: the tricks ``s`` has laid and nobody has blocked, oldest
    first. ``blocked[s]``: ``s``'s own tricks that were blocked (face down).
    ``open`` is true when the player to act faces the trick the opponent laid (or
    blocked with) on the turn just before, the only trick that can be blocked.
    ``stock`` and ``secondary`` are top first.
    """

    config: Config
    seed: int | str
    explicit_reshuffles: tuple[tuple[str, ...], ...]
    reshuffles: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    secondary: tuple[str, ...]
    standing: tuple[tuple[tuple[str, ...], ...], ...]
    blocked: tuple[tuple[tuple[str, ...], ...], ...]
    turn: int
    open: bool
    phase: str
    outcome: str | None
    winners: tuple[int, ...]
    turns: int
    passes: int  # passes in a row just before this state
    last: tuple  # (type, seat, public cards, count) of the last action, for views
    seq: int
    # Who drew in the last action, how many cards, and whether the secondary
    # stockpile became the stockpile meanwhile: (seat, count, reshuffled), or ().
    # The drawn cards are the last `count` of that seat's hand (drawing appends).
    drew: tuple = ()

    @property
    def n_seats(self) -> int:
        return N_SEATS

    @property
    def to_act(self) -> int | None:
        return self.turn if self.phase == PHASE_PLAY else None

    @property
    def drawing_stopped(self) -> bool:
        return len(self.stock) <= self.config.stock_floor and not self.secondary


def _check_cards(cards: object, where: str, size: int | None = None) -> tuple[str, ...]:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise ValueError(f"{where} must be a list of cards.")
    out = tuple(parse_card(c) for c in cards)
    seen: set[str] = set()
    for c in out:
        if c in seen:
            raise ValueError(f"{where}: {c} appears twice.")
        seen.add(c)
    if size is not None and len(out) != size:
        raise ValueError(f"{where} has {len(out)} cards; a deck is all {size}, each once.")
    return out


def seeded_deck(seed: int | str) -> list[str]:
    """The deck order, top first, of the game with ``seed``."""
    return shuffled(full_deck(), f"{_SEED_TAG}:{seed}:deck")


def deal(deck: Sequence[str], dealer: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Seven each, one at a time, the non-dealer first; the rest is the stockpile."""
    first = 1 - dealer
    hands: list[list[str]] = [[], []]
    for i in range(2 * HAND_SIZE):
        hands[(first + i) % 2].append(deck[i])
    return (tuple(hands[0]), tuple(hands[1])), tuple(deck[2 * HAND_SIZE :])


def new_game(
    config: Config,
    *,
    seed: int | str | None = None,
    dealer: int | None = None,
    deck: Sequence[str] | None = None,
    reshuffles: Sequence[Sequence[str]] | None = None,
) -> State:
    """Start a game: the first dealer, the deal, the stockpile.

    With ``seed`` alone everything is seeded. ``deck`` (all 52, top first),
    ``dealer`` and ``reshuffles`` (the orders, top first, the secondary stockpile
    takes each time it is shuffled into play) replace the seeded ones; the seed
    (0 if not given) still shuffles any secondary stockpile beyond ``reshuffles``.
    The non-dealer plays first.
    """
    if not isinstance(config, Config):
        raise ValueError("config must be a Config.")
    if seed is None:
        if deck is None:
            raise ValueError("new_game needs seed= or an explicit deck=.")
        seed = 0
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError(f"seed must be a whole number or a string, not {seed!r}.")
    if dealer is None:
        dealer = shuffled([0, 1], f"{_SEED_TAG}:{seed}:dealer")[0]
    elif type(dealer) is not int or dealer not in (0, 1):
        raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}.")
    order = seeded_deck(seed) if deck is None else _check_cards(deck, "deck", DECK_SIZE)
    explicit = tuple(_check_cards(r, f"reshuffles[{i}]") for i, r in enumerate(reshuffles or ()))
    hands, stock = deal(order, dealer)
    return State(
        config=config,
        seed=seed,
        explicit_reshuffles=explicit,
        reshuffles=0,
        dealer=dealer,
        hands=hands,
        stock=stock,
        secondary=(),
        standing=((), ()),
        blocked=((), ()),
        turn=1 - dealer,
        open=False,
        phase=PHASE_PLAY,
        outcome=None,
        winners=(),
        turns=0,
        passes=0,
        last=(),
        seq=0,
    )


# ---------------------------------------------------------------- actions


def _seat_of(value: object) -> int:
    if type(value) is not int or value not in (0, 1):
        raise IllegalAction(f"There is no seat {value!r} at this table (seats are 0 and 1).")
    return value


def next_trick_size(state: State, seat: int) -> int:
    """2 for a first or second trick, 3 for the third."""
    return 3 if len(state.standing[seat]) == TRICKS_TO_WIN - 1 else 2


def can_block(state: State, seat: int) -> bool:
    """Whether ``seat`` may block now: facing a fresh trick, with room for a two-card trick.

    A block stands as the blocker's next trick, so with two tricks standing (the
    next being the three-card one) a player cannot block.
    """
    return state.open and state.turn == seat and next_trick_size(state, seat) == 2


def legal_actions(state: State, seat: int) -> list[dict]:
    """Every action ``seat`` may take now, cards in hand order."""
    if state.phase != PHASE_PLAY or seat != state.turn:
        return []
    config = state.config
    hand = state.hands[seat]
    out: list[dict] = []
    if state.open:
        if can_block(state, seat):
            target = state.standing[1 - seat][-1]
            out += [
                {"type": "block", "seat": seat, "cards": list(pair)}
                for pair in combinations(hand, 2)
                if block_problem(pair, target, config) is None
            ]
    else:
        size = next_trick_size(state, seat)
        out += [
            {"type": "lay", "seat": seat, "cards": list(cards)}
            for cards in combinations(hand, size)
            if trick_problem(cards, size, config) is None
        ]
    out.append({"type": "pass", "seat": seat})
    for k in range(1, min(config.max_swap, len(hand)) + 1):
        out += [{"type": "swap", "seat": seat, "cards": list(c)} for c in combinations(hand, k)]
    return out


def _cards_of(action: dict, hand: tuple[str, ...]) -> tuple[str, ...]:
    raw = action.get("cards")
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise IllegalAction('Say which cards: a list such as ["4C", "5C"].')
    try:
        cards = tuple(parse_card(c) for c in raw)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    if len(set(cards)) != len(cards):
        raise IllegalAction("The same card is listed twice.")
    for c in cards:
        if c not in hand:
            raise IllegalAction(f"You do not hold {c}.")
    return cards


def _without(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def apply(state: State, action: dict) -> tuple[State, list[dict]]:
    """Apply one action; return the new state and the events it caused.

    Raises IllegalAction (with a reason a player can read) and leaves ``state``
    untouched if the action is not allowed.
    """
    if not isinstance(action, dict):
        raise IllegalAction("An action must be an object with a type.")
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise IllegalAction(
            f"Unknown action type {kind!r}: expected one of {', '.join(ACTION_TYPES)}."
        )
    if state.phase == PHASE_OVER:
        raise IllegalAction("The game is over.")
    seat = _seat_of(action.get("seat"))
    if seat != state.turn:
        raise IllegalAction(f"It is not your turn: seat {state.turn} plays now.")
    if kind == "lay":
        return _lay(state, seat, action)
    if kind == "block":
        return _block(state, seat, action)
    if kind == "pass":
        # A pass facing a fresh trick lets it stand (the table changes): it does not
        # count towards the two passes in a row that end the game.
        passes = 0 if state.open else state.passes + 1
        new = _end_turn(state, seat, ("pass", seat, (), 0), passes=passes)
        return _finish(new, [{"type": "passed", "seat": seat}])
    return _swap(state, seat, action)


def _end_turn(state: State, seat: int, last: tuple, **changes) -> State:
    changes.setdefault("open", False)
    changes.setdefault("passes", 0)
    changes.setdefault("drew", ())
    return replace(
        state, turn=1 - seat, turns=state.turns + 1, last=last, seq=state.seq + 1, **changes
    )


def _lay(state: State, seat: int, action: dict) -> tuple[State, list[dict]]:
    if state.open:
        raise IllegalAction(
            "Your opponent has just laid a trick: you may block it, pass or swap, "
            "but not lay a trick of your own this turn."
        )
    hand = state.hands[seat]
    cards = _cards_of(action, hand)
    size = next_trick_size(state, seat)
    problem = trick_problem(cards, size, state.config)
    if problem:
        raise IllegalAction(problem)
    hands = _set(state.hands, seat, _without(hand, cards))
    standing = _set(state.standing, seat, state.standing[seat] + (cards,))
    number = len(standing[seat])
    events = [{"type": "laid", "seat": seat, "cards": list(cards), "trick": number}]
    if number == TRICKS_TO_WIN:
        won = replace(
            state,
            hands=hands,
            standing=standing,
            phase=PHASE_OVER,
            outcome=OUTCOME_TRICKS,
            winners=(seat,),
            open=False,
            turns=state.turns + 1,
            last=("lay", seat, cards, 0),
            seq=state.seq + 1,
            drew=(),
        )
        events.append({"type": "game_over", **result(won)})
        return won, events
    new = _end_turn(state, seat, ("lay", seat, cards, 0), hands=hands, standing=standing, open=True)
    return new, events


def _block(state: State, seat: int, action: dict) -> tuple[State, list[dict]]:
    if not state.open:
        raise IllegalAction(
            "There is no fresh trick to block: only a trick laid on the last turn can be."
        )
    if not can_block(state, seat):
        raise IllegalAction(
            "With two tricks down your next trick is the three-card one, so you cannot block now."
        )
    hand = state.hands[seat]
    cards = _cards_of(action, hand)
    opponent = 1 - seat
    target = state.standing[opponent][-1]
    problem = block_problem(cards, target, state.config)
    if problem:
        raise IllegalAction(problem)
    # The opponent picks up every trick standing in front of them (the second
    # trick's block takes the first with it), piles them face down, and draws back.
    removed = state.standing[opponent]
    blocked = _set(state.blocked, opponent, state.blocked[opponent] + removed)
    standing = _set(state.standing, opponent, ())
    standing = _set(standing, seat, standing[seat] + (cards,))
    hands = _set(state.hands, seat, _without(hand, cards))
    drawn = replace(state, hands=hands, standing=standing, blocked=blocked)
    events: list[dict] = [
        {
            "type": "blocked",
            "seat": seat,
            "cards": list(cards),
            "blocked_seat": opponent,
            "tricks": [list(t) for t in removed],
        }
    ]
    drawn = _draw(drawn, opponent, 2 * len(removed), events)
    new = _end_turn(drawn, seat, ("block", seat, cards, len(removed)), open=True, drew=drawn.drew)
    if len(removed) == 2:
        # The seed: after a second trick's block the blocked player draws four cards
        # "and this will end their turn of play". The blocker plays again; their
        # trick stands (it can no longer be blocked).
        new = replace(new, turn=seat, open=False, turns=new.turns + 1)
    return _finish(new, events)


def _swap(state: State, seat: int, action: dict) -> tuple[State, list[dict]]:
    limit = state.config.max_swap
    hand = state.hands[seat]
    cards = _cards_of(action, hand)
    if not cards:
        raise IllegalAction("Choose at least one card to swap, or pass.")
    if len(cards) > limit:
        raise IllegalAction(f"You may swap at most {limit} card{'s' if limit != 1 else ''}.")
    # The swapped cards go face down on the secondary stockpile first; then the
    # player draws as many from the stockpile.
    swapped = replace(
        state,
        hands=_set(state.hands, seat, _without(hand, cards)),
        secondary=state.secondary + cards,
    )
    events: list[dict] = [{"type": "swapped", "seat": seat, "count": len(cards)}]
    swapped = _draw(swapped, seat, len(cards), events)
    new = _end_turn(swapped, seat, ("swap", seat, (), len(cards)), drew=swapped.drew)
    return _finish(new, events)


def _draw(state: State, seat: int, count: int, events: list[dict]) -> State:
    """Draw ``count`` cards one by one for ``seat``, until drawing stops.

    As soon as the stockpile is empty the secondary stockpile is shuffled and
    becomes the stockpile. Drawing stops for good when the stockpile is down to
    ``stock_floor`` cards or fewer and there is no secondary stockpile.
    """
    hand = list(state.hands[seat])
    stock, secondary, reshuffles = state.stock, state.secondary, state.reshuffles
    floor = state.config.stock_floor
    drew = 0
    for _ in range(count):
        if len(stock) <= floor and not secondary:
            break
        hand.append(stock[0])
        stock = stock[1:]
        drew += 1
        if not stock and secondary:
            stock = _reshuffled(state, secondary, reshuffles)
            secondary = ()
            reshuffles += 1
            events.append({"type": "stock_reshuffled", "cards": len(stock)})
    events.append({"type": "drew", "seat": seat, "count": drew, "wanted": count})
    return replace(
        state,
        hands=_set(state.hands, seat, tuple(hand)),
        stock=stock,
        secondary=secondary,
        reshuffles=reshuffles,
        drew=(seat, drew, reshuffles > state.reshuffles),
    )


def _reshuffled(state: State, secondary: tuple[str, ...], index: int) -> tuple[str, ...]:
    if index < len(state.explicit_reshuffles):
        order = state.explicit_reshuffles[index]
        if sorted(order) != sorted(secondary):
            raise IllegalAction(
                f"reshuffles[{index}] must order exactly the {len(secondary)} cards of the "
                "secondary stockpile."
            )
        return order
    return tuple(shuffled(secondary, f"{_SEED_TAG}:{state.seed}:reshuffle:{index}"))


def _finish(state: State, events: list[dict]) -> tuple[State, list[dict]]:
    """End the game by the count if drawing has stopped or both players just passed.

    Two passes in a row (one by each player, neither facing a fresh trick) leave the
    table exactly as it was two turns before; nothing forces a move, so the game
    would not end. A pass facing a fresh trick is not counted: it lets the trick
    stand, so the table is not as it was (and the passer may have had no other
    move, with two tricks standing and no swap allowed).
    """
    if state.drawing_stopped:
        outcome = OUTCOME_STOPPED
        events.append({"type": "drawing_stopped", "stock": len(state.stock)})
    elif state.passes >= N_SEATS:
        outcome = OUTCOME_PASSED
        events.append({"type": "both_passed"})
    else:
        return state, events
    winners, level = _count(state)
    if level and outcome == OUTCOME_PASSED:
        # Level piles after two passes win nobody (docs/three_tricks.md): otherwise two
        # players who just pass at every deal were each credited a game won per deal.
        winners = []
    over = replace(state, phase=PHASE_OVER, outcome=outcome, winners=tuple(winners), open=False)
    events.append({"type": "game_over", **result(over)})
    return over, events


def _count(state: State) -> tuple[list[int], bool]:
    """The count's winners and whether it is a draw: blocked-pile tricks, most (or fewest) win."""
    a, b = (len(p) for p in state.blocked)
    if a == b:
        return [0, 1], True
    better = (a > b) if state.config.count == "most" else (a < b)
    return ([0] if better else [1]), False


def _set(t: tuple, i: int, value) -> tuple:
    return t[:i] + (value,) + t[i + 1 :]


# ---------------------------------------------------------------- outcome


def is_over(state: State) -> bool:
    return state.phase == PHASE_OVER


def result(state: State) -> dict:
    """The winners and how the game was decided.

    ``outcome``: "three_tricks" (a third trick laid), "drawing_stopped" or
    "both_passed" (decided by the count), or None while the game goes on. When
    drawing stops with equal piles the game is a draw: both seats are listed as
    winners and ``draw`` is true. Two passes with equal piles win nobody:
    ``winners`` is [] and ``draw`` false. On an unfinished game (a round that
    ends mid-game) ``winners`` is the count so far, [] when level.
    """
    blocked = [len(p) for p in state.blocked]
    if state.phase == PHASE_OVER:
        winners = list(state.winners)
        draw = state.outcome != OUTCOME_TRICKS and len(winners) == 2
    else:
        counted, level = _count(state)
        winners = [] if level else counted
        draw = False
    return {
        "winners": winners,
        "outcome": state.outcome,
        "draw": draw,
        "blocked": blocked,
        "standing": [len(s) for s in state.standing],
        "turns": state.turns,
        "complete": state.phase == PHASE_OVER,
    }


def replay(
    config: Config,
    actions: Iterable[dict],
    *,
    seed: int | str | None = None,
    dealer: int | None = None,
    deck: Sequence[str] | None = None,
    reshuffles: Sequence[Sequence[str]] | None = None,
) -> State:
    """Rebuild a game from its randomness and action log (raises IllegalAction on a bad entry)."""
    state = new_game(config, seed=seed, dealer=dealer, deck=deck, reshuffles=reshuffles)
    for action in actions:
        state, _ = apply(state, action)
    return state


# ---------------------------------------------------------------- views


def sort_hand(hand: Iterable[str], config: Config) -> list[str]:
    """Suit by suit (S H D C), low to high; wild aces last."""

    def key(c: str):
        if _is_wild(c, config):
            return (1, 0, _SUIT_INDEX[c[-1]])
        return (0, _SUIT_INDEX[c[-1]], _value(c, config))

    return sorted(hand, key=key)


def _last_public(last: tuple) -> dict | None:
    if not last:
        return None
    kind, seat, cards, count = last
    out: dict = {"type": kind, "seat": seat}
    if kind in ("lay", "block"):
        out["cards"] = list(cards)
    if kind == "block":
        out["tricks_blocked"] = count
    if kind == "swap":
        out["count"] = count
    return out


def _drew_public(state: State) -> dict | None:
    """Who drew in the last action and how many: counts only (the cards are theirs)."""
    if not state.drew:
        return None
    seat, count, reshuffled = state.drew
    return {"seat": seat, "count": count, "reshuffled": reshuffled}


def view(state: State, seat: int) -> dict:
    """What ``seat`` sees: its own hand and what lies face up.

    The opponent's hand, the stockpiles and the blocked piles appear as counts
    only. ``target`` is the trick this seat may block now (None otherwise);
    ``blockers`` / ``trick_cards`` are the hand's cards that take part in some
    legal block / lay now, for highlighting. The table's rule knobs are not in
    the view: at a Barnga table the rules are what players find out.
    """
    if type(seat) is not int or seat not in (0, 1):
        raise ValueError(f"There is no seat {seat!r} at this table.")
    actions = legal_actions(state, seat)
    blocks = [a for a in actions if a["type"] == "block"]
    lays = [a for a in actions if a["type"] == "lay"]
    return {
        "game": GAME,
        "seat": seat,
        "n_seats": N_SEATS,
        "phase": state.phase,
        "to_act": state.to_act,
        "dealer": state.dealer,
        "hand": sort_hand(state.hands[seat], state.config),
        "hand_counts": [len(h) for h in state.hands],
        "standing_tricks": [[list(t) for t in s] for s in state.standing],
        "blocked_counts": [len(p) for p in state.blocked],
        "stock_count": len(state.stock),
        "secondary_count": len(state.secondary),
        "reshuffles": state.reshuffles,
        "open": state.open,
        "passes": state.passes,  # passes in a row, public: two end the game
        "target": list(state.standing[1 - seat][-1]) if state.open and state.turn == seat else None,
        "next_trick_size": next_trick_size(state, seat),
        "blockers": sorted({c for a in blocks for c in a["cards"]}, key=state.hands[seat].index),
        "trick_cards": sorted({c for a in lays for c in a["cards"]}, key=state.hands[seat].index),
        "last": _last_public(state.last),
        "drew": _drew_public(state),
        # The cards this seat drew in the last action (a swap, or drawing back after a
        # block), in the order drawn; empty when another seat drew or nobody did.
        "drawn": list(state.hands[seat][-state.drew[1] :])
        if state.drew and state.drew[0] == seat and state.drew[1]
        else [],
        "turns": state.turns,
        "actions": actions,
        "winners": list(state.winners) if state.phase == PHASE_OVER else None,
        "outcome": state.outcome,
    }


def spectator_view(state: State) -> dict:
    """Everything for the facilitator but the stockpiles' order: hands, piles, rules."""
    return {
        "game": GAME,
        "n_seats": N_SEATS,
        "config": state.config.to_dict(),
        "phase": state.phase,
        "to_act": state.to_act,
        "dealer": state.dealer,
        "hands": [sort_hand(h, state.config) for h in state.hands],
        "standing_tricks": [[list(t) for t in s] for s in state.standing],
        "blocked_tricks": [[list(t) for t in p] for p in state.blocked],
        "stock_count": len(state.stock),
        "secondary_count": len(state.secondary),
        "reshuffles": state.reshuffles,
        "open": state.open,
        "last": _last_public(state.last),
        "drew": _drew_public(state),
        **result(state),
    }


# ---------------------------------------------------------------- bots


def choose_from_view(v: dict, rng: random.Random) -> dict | None:
    """A seeded bot's action from the view only, or None if it is not its turn.

    It lays a winning third trick at once, blocks most of the time, lays a trick
    when it can, and otherwise swaps (cards outside any trick first) or passes.
    """
    actions = v["actions"]
    if not actions:
        return None
    lays = [a for a in actions if a["type"] == "lay"]
    blocks = [a for a in actions if a["type"] == "block"]
    swaps = [a for a in actions if a["type"] == "swap"]
    if lays and len(lays[0]["cards"]) == 3:
        return rng.choice(lays)
    if blocks and rng.random() < 0.8:
        return rng.choice(blocks)
    if lays and rng.random() < 0.9:
        return rng.choice(lays)
    if swaps and rng.random() < 0.95:
        keep = set(v["trick_cards"]) | set(v["blockers"])
        idle = [a for a in swaps if not keep & set(a["cards"])]
        return rng.choice(idle or swaps)
    return next(a for a in actions if a["type"] == "pass")


def play_game(
    config: Config, seed: int | str, *, max_turns: int = 5000
) -> tuple[State, list[dict]]:
    """A whole game with bots in both seats; the final state and the action log.

    Deterministic for a config and seed. Raises RuntimeError if it runs past
    ``max_turns`` (the seed's game can go on while both players only pass).
    """
    rng = random.Random(f"{_SEED_TAG}-bots:{seed}")
    state = new_game(config, seed=seed)
    log: list[dict] = []
    while state.phase != PHASE_OVER:
        if len(log) >= max_turns:
            raise RuntimeError(f"3 Tricks bot game {seed!r} did not end in {max_turns} turns.")
        action = choose_from_view(view(state, state.turn), rng)
        state, _ = apply(state, action)
        log.append(action)
    return state, log


# ---------------------------------------------------------------- replay records


RECORD_KEYS = {"game", "rules", "seed", "dealer", "deck", "reshuffles", "actions"}


def _record_action(raw: object, state: State, at: int) -> dict:
    """A record entry as an action: "pass", or an object (its seat defaults to the seat to act)."""
    if isinstance(raw, str) and raw.strip().lower() == "pass":
        return {"type": "pass", "seat": state.to_act}
    if isinstance(raw, dict):
        return action_object(raw, state.to_act, at, ACTION_TYPES)
    raise RecordError(f'actions[{at}] must be "pass" or an action object.', at)


def replay_record(doc: dict) -> dict:
    """Replay a ``{"game": "three_tricks", ...}`` record (docs/three_tricks.md) to its outcome.

    Raises RecordError: malformed input, or an illegal action (``at`` set).
    """
    check_record_keys(doc, RECORD_KEYS, GAME)
    try:
        config = Config.from_dict(doc.get("rules") or {})
    except (ValueError, TypeError) as exc:
        raise RecordError(f"rules: {exc}") from None
    reshuffles = doc.get("reshuffles")
    if reshuffles is not None and not isinstance(reshuffles, list):
        raise RecordError("reshuffles must be a list of card orders.")
    try:
        state = new_game(
            config,
            seed=doc.get("seed"),
            dealer=doc.get("dealer"),
            deck=doc.get("deck"),
            reshuffles=reshuffles,
        )
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    state = replay_actions(
        state, doc["actions"], apply=apply, is_over=is_over, record_action=_record_action
    )
    return {
        "game": GAME,
        "dealer": state.dealer,
        "standing_tricks": [[list(t) for t in s] for s in state.standing],
        "blocked_tricks": [[list(t) for t in p] for p in state.blocked],
        **result(state),
    }
