"""Five Tricks, the card game of Barnga, as a pure state machine.

Models one game (one hand) at one table: 28 cards (A, 2-7 of each suit) dealt
one at a time clockwise from seat 0 (the dealer's left), at most 7 each; tricks
led by seat 0 first and then by each trick's winner; a game ends when every hand
is empty. Each seat carries its own rule sheet (``Config.seat_rules``) besides the
table's (``Config.table_rules``):

- Barnga mode (default): a card must be legal under the acting seat's own sheet;
  whether it was legal under the table's sheet is recorded. After the last card of
  a trick every seat claims a winner; unanimity awards the trick, disagreement once
  everyone has claimed opens a dispute, and a ``timeout`` action (sent by the
  app's timer) awards it to the most-claimed seat.
- Referee mode: the table's sheet decides legality and the winner; no claims.

Rules come from ../shared/RULES.md sections 1 and 2; the decisions it leaves open
are in docs/rules.md. States are immutable; ``apply`` returns a new state plus the
events the action caused, or raises ``IllegalAction``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import (
    SUITS,
    five_tricks_deck,
    full_deck,
    is_five_tricks_card,
    parse_card,
    shuffled,
)
from .errors import IllegalAction, card_of, seat_of
from .tricks import (
    ACE_VALUES,
    MODES,
    WINS_VALUES,
    SeatSheets,
    TrickRules,
    is_legal,
    legal_cards,
    rank_order,
    trick_winner,
    why_illegal,
)

__all__ = [
    "IllegalAction",
    "MODES",
    "Config",
    "Trick",
    "State",
    "deal_sizes",
    "deal",
    "new_game",
    "legal_actions",
    "apply",
    "is_over",
    "result",
    "view",
    "spectator_view",
    "replay",
    "resolve_unanimous",
    "resolve_timeout",
]

GAME = "five_tricks"
DECK_SIZE = 28
MAX_HAND = 7
MIN_SEATS = 2
MAX_SEATS = 8
PHASE_PLAY, PHASE_CLAIM, PHASE_OVER = "play", "claim", "over"
RESOLUTIONS = ("rules", "unanimous", "timeout")

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


# ---------------------------------------------------------------- deal


def deal_sizes(n_players: int) -> list[int]:
    """Cards per seat, seat 0 first: all 28 cards, at most 7 each, dealt one at a time."""
    if (
        not isinstance(n_players, int)
        or isinstance(n_players, bool)
        or not MIN_SEATS <= n_players <= MAX_SEATS
    ):
        raise ValueError(
            f"Five Tricks needs {MIN_SEATS} to {MAX_SEATS} players, not {n_players!r}."
        )
    total = min(DECK_SIZE, MAX_HAND * n_players)
    base, extra = divmod(total, n_players)
    return [base + 1 if seat < extra else base for seat in range(n_players)]


def deal(n_players: int, seed: int | str) -> tuple[tuple[str, ...], ...]:
    """Shuffle the 28-card deck with ``seed`` and deal it one card at a time from seat 0."""
    total = sum(deal_sizes(n_players))
    deck = shuffled(five_tricks_deck(), seed)[:total]
    # Card i goes to seat i % n: dealing one at a time clockwise from the dealer's left.
    return tuple(tuple(deck[seat::n_players]) for seat in range(n_players))


# ---------------------------------------------------------------- config and state


@dataclass(frozen=True)
class Config(SeatSheets):
    """What a table plays by: the table's sheet, each seat's own sheet, and the mode."""

    table_rules: TrickRules
    seat_rules: tuple[TrickRules, ...]
    mode: str = "barnga"

    def __post_init__(self) -> None:
        self.check_sheets(
            TrickRules,
            range(MIN_SEATS, MAX_SEATS + 1),
            f"Five Tricks needs {MIN_SEATS} to {MAX_SEATS} seats",
        )

    def to_dict(self) -> dict:
        return {
            "table_rules": self.table_rules.to_dict(),
            "seat_rules": [r.to_dict() for r in self.seat_rules],
            "mode": self.mode,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Config:
        if not isinstance(d, dict) or not {"table_rules", "seat_rules"} <= set(d):
            raise ValueError("A config needs table_rules and seat_rules.")
        if not isinstance(d["seat_rules"], list):
            raise ValueError("seat_rules must be a list of rule sheets.")
        return cls(
            table_rules=TrickRules.from_dict(d["table_rules"]),
            seat_rules=tuple(TrickRules.from_dict(r) for r in d["seat_rules"]),
            mode=d.get("mode", "barnga"),
        )


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick and how it was decided."""

    leader: int
    cards: tuple[tuple[int, str], ...]
    winner: int
    verdicts: tuple[int, ...]  # winner under each seat's own sheet, seat order
    table_verdict: int  # winner under the table's sheet
    resolution: str  # "rules" | "unanimous" | "timeout"
    claims: tuple[int | None, ...]  # final claim of each seat; () in referee mode
    # Whether its claims differed once everyone had claimed (a dispute) before it was
    # awarded: a "unanimous" trick may have been argued first. Public at the table.
    disputed: bool = False


@dataclass(frozen=True, slots=True)
class State:
    """One game in progress. Never mutated: ``apply`` builds a new one.

    ``current`` holds the trick being played, and during the claim phase the
    finished trick awaiting its winner. ``claims`` has one entry per seat, all None
    outside the claim phase. ``dispute`` is true once every seat has claimed and
    the claims disagree, until the trick is awarded.
    """

    config: Config
    hands: tuple[tuple[str, ...], ...]
    leader: int
    current: tuple[tuple[int, str], ...]
    completed: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    phase: str
    claims: tuple[int | None, ...]
    dispute: bool
    seq: int

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    @property
    def to_act(self) -> int | None:
        """Seat whose turn it is to play; None outside the play phase."""
        if self.phase != PHASE_PLAY:
            return None
        if not self.current:
            return self.leader
        return _next_to_play(self.hands, self.current[-1][0], self.leader)


def _next_to_play(hands, last_seat: int, leader: int) -> int | None:
    # Play runs clockwise from the leader, so the seats after the last player and
    # before the leader are exactly those still to play; the ones among them with
    # no cards sat the trick out from its start. Reaching the leader ends the trick.
    n = len(hands)
    seat = (last_seat + 1) % n
    while seat != leader:
        if hands[seat]:
            return seat
        seat = (seat + 1) % n
    return None


def _next_holder(hands, start: int) -> int | None:
    """First seat clockwise from ``start`` (itself first) that still holds cards."""
    n = len(hands)
    for i in range(n):
        seat = (start + i) % n
        if hands[seat]:
            return seat
    return None


def new_game(
    config: Config,
    *,
    seed: int | str | None = None,
    hands: Sequence[Sequence[str]] | None = None,
) -> State:
    """Start a game from a seeded deal or from explicit hands (exactly one of the two).

    Explicit hands are checked: one per seat, at most 7 cards each, Five Tricks cards
    only, no card twice, at least one card in all. Seat 0 leads; if it holds no
    card, the next seat clockwise that does.
    """
    if (seed is None) == (hands is None):
        raise ValueError("new_game needs exactly one of seed= or hands=.")
    if not isinstance(config, Config):
        raise ValueError("config must be a Config.")
    n = config.n_seats
    if hands is None:
        dealt = deal(n, seed)
    else:
        dealt = _check_hands(hands, n)
    return State(
        config=config,
        hands=dealt,
        leader=_next_holder(dealt, 0),
        current=(),
        completed=(),
        tricks_won=(0,) * n,
        phase=PHASE_PLAY,
        claims=(None,) * n,
        dispute=False,
        seq=0,
    )


def _check_hands(hands, n: int) -> tuple[tuple[str, ...], ...]:
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ValueError("hands must be a list with one list of cards per seat.")
    if len(hands) != n:
        raise ValueError(f"There are {n} seats but {len(hands)} hands.")
    seen: set[str] = set()
    out = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, (str, bytes)) or not isinstance(hand, Sequence):
            raise ValueError(f"The hand of seat {seat} must be a list of cards.")
        if len(hand) > MAX_HAND:
            raise ValueError(f"Seat {seat} has {len(hand)} cards; at most {MAX_HAND} are dealt.")
        cards = []
        for text in hand:
            card = parse_card(text)
            if not is_five_tricks_card(card):
                raise ValueError(
                    f"{card} is not in the Five Tricks deck (only A and 2-7 of each suit are used)."
                )
            if card in seen:
                raise ValueError(f"{card} is dealt twice.")
            seen.add(card)
            cards.append(card)
        out.append(tuple(cards))
    if not seen:
        raise ValueError("No cards were dealt.")
    return tuple(out)


# ---------------------------------------------------------------- pure resolution rules


def resolve_unanimous(claims: Sequence[int | None]) -> int | None:
    """The claimed seat if every seat has claimed the same one, else None."""
    if not claims:
        return None
    first = claims[0]
    if first is None:
        return None
    for claim in claims:
        if claim != first:
            return None
    return first


def resolve_timeout(claims: Sequence[int | None], leader: int, n_seats: int, fallback: int) -> int:
    """Winner when the dispute time runs out.

    The most-claimed seat wins; a tie goes to the tied seat that comes first
    clockwise from the trick's leader (the leader itself first). Missing claims
    (None) do not count; with no claims at all ``fallback`` (the table sheet's
    winner) is returned.
    """
    counts: dict[int, int] = {}
    for claim in claims:
        if claim is not None:
            if not 0 <= claim < n_seats:
                raise ValueError(f"Claim for seat {claim} at a table of {n_seats}.")
            counts[claim] = counts.get(claim, 0) + 1
    if not counts:
        return fallback
    top = max(counts.values())
    clockwise = ((leader + i) % n_seats for i in range(n_seats))
    return next(seat for seat in clockwise if counts.get(seat) == top)


# ---------------------------------------------------------------- actions


def legal_actions(state: State, seat: int) -> list[dict]:
    """Every action ``seat`` may take now (the timer's ``timeout`` is not a seat action)."""
    n = state.n_seats
    if type(seat) is not int or not 0 <= seat < n:
        return []
    if state.phase == PHASE_PLAY:
        if state.to_act != seat:
            return []
        led = state.current[0][1][-1] if state.current else None
        cards = legal_cards(state.hands[seat], led, state.config.rules_for(seat))
        return [{"type": "play", "seat": seat, "card": c} for c in cards]
    if state.phase == PHASE_CLAIM:
        mine = state.claims[seat]
        return [
            {"type": "claim", "seat": seat, "winner": s}
            for s in sorted(s for s, _ in state.current)
            if s != mine
        ]
    return []


def apply(state: State, action: dict) -> tuple[State, list[dict]]:
    """Apply one action; return the new state and the events it caused.

    Raises IllegalAction (with a reason a player can read) and leaves ``state``
    untouched if the action is not allowed.
    """
    if not isinstance(action, dict):
        raise IllegalAction("An action must be an object with a type.")
    kind = action.get("type")
    if kind == "play":
        return _play(state, action)
    if kind == "claim":
        return _claim(state, action)
    if kind == "timeout":
        return _timeout(state)
    raise IllegalAction(f"Unknown action type {kind!r}: expected 'play', 'claim' or 'timeout'.")


def _play(state: State, action: dict) -> tuple[State, list[dict]]:
    if state.phase != PHASE_PLAY:
        if state.phase == PHASE_CLAIM:
            raise IllegalAction(
                "No card can be played now: the trick is waiting for its winner to be claimed."
            )
        raise IllegalAction("The game is over.")
    hands = state.hands
    n = len(hands)
    seat = seat_of(action.get("seat"), n)
    current = state.current
    leader = state.leader
    to_act = state.to_act
    if seat != to_act:
        raise IllegalAction(f"It is not your turn: seat {to_act} plays next.")
    card = card_of(action)
    hand = hands[seat]
    led = current[0][1][-1] if current else None
    config = state.config
    table = config.table_rules
    own = config.rules_for(seat)
    if card not in hand or not is_legal(card, hand, led, own):
        raise IllegalAction(why_illegal(card, hand, led, own))
    legal_for_table = own is table or is_legal(card, hand, led, table)

    i = hand.index(card)
    new_hands = hands[:seat] + (hand[:i] + hand[i + 1 :],) + hands[seat + 1 :]
    new_current = current + ((seat, card),)
    events = [
        {"type": "card_played", "seat": seat, "card": card, "legal_for_table": legal_for_table}
    ]
    seq = state.seq + 1

    phase = PHASE_PLAY
    if _next_to_play(new_hands, seat, leader) is None:
        events.append(
            {"type": "trick_complete", "leader": leader, "cards": [[s, c] for s, c in new_current]}
        )
        if config.mode == "referee":
            winner = trick_winner(new_current, table)
            return _award(state, new_hands, new_current, winner, "rules", (), seq, events)
        phase = PHASE_CLAIM
        events.append({"type": "claims_open", "seats": [s for s, _ in new_current]})
    new = State(
        config=config,
        hands=new_hands,
        leader=leader,
        current=new_current,
        completed=state.completed,
        tricks_won=state.tricks_won,
        phase=phase,
        claims=state.claims,  # all None during play
        dispute=False,
        seq=seq,
    )
    return new, events


def _claim(state: State, action: dict) -> tuple[State, list[dict]]:
    if state.phase != PHASE_CLAIM:
        if state.phase == PHASE_PLAY:
            raise IllegalAction("There is no finished trick to claim yet.")
        raise IllegalAction("The game is over.")
    n = state.n_seats
    seat = seat_of(action.get("seat"), n)
    winner = seat_of(action.get("winner"), n, "winner seat")
    for played, _ in state.current:
        if played == winner:
            break
    else:
        raise IllegalAction(f"Seat {winner} did not play in this trick, so it cannot win it.")
    previous = state.claims[seat]
    if previous == winner:
        raise IllegalAction(f"You already claim seat {winner}.")
    claims = state.claims[:seat] + (winner,) + state.claims[seat + 1 :]
    seq = state.seq + 1
    if previous is None:
        events = [{"type": "claim_made", "seat": seat, "winner": winner}]
    else:
        events = [{"type": "claim_changed", "seat": seat, "winner": winner, "previous": previous}]

    agreed = resolve_unanimous(claims)
    if agreed is not None:
        return _award(state, state.hands, state.current, agreed, "unanimous", claims, seq, events)
    dispute = state.dispute
    if not dispute and None not in claims:
        dispute = True
        events.append({"type": "dispute_opened", "claims": list(claims)})
    new = State(
        config=state.config,
        hands=state.hands,
        leader=state.leader,
        current=state.current,
        completed=state.completed,
        tricks_won=state.tricks_won,
        phase=PHASE_CLAIM,
        claims=claims,
        dispute=dispute,
        seq=seq,
    )
    return new, events


def _timeout(state: State) -> tuple[State, list[dict]]:
    if state.phase != PHASE_CLAIM:
        raise IllegalAction("No trick is waiting for a decision, so there is nothing to time out.")
    fallback = trick_winner(state.current, state.config.table_rules)
    winner = resolve_timeout(state.claims, state.leader, state.n_seats, fallback)
    events = [{"type": "claims_timed_out", "claims": list(state.claims)}]
    return _award(
        state, state.hands, state.current, winner, "timeout", state.claims, state.seq + 1, events
    )


def _award(
    state, hands, cards, winner, resolution, claims, seq, events
) -> tuple[State, list[dict]]:
    config = state.config
    verdict_cache: dict[TrickRules, int] = {}
    verdicts = []
    for rules in config.seat_rules:
        v = verdict_cache.get(rules)
        if v is None:
            v = verdict_cache[rules] = trick_winner(cards, rules)
        verdicts.append(v)
    table_verdict = verdict_cache.get(config.table_rules)
    if table_verdict is None:
        table_verdict = trick_winner(cards, config.table_rules)
    trick = Trick(
        state.leader,
        cards,
        winner,
        tuple(verdicts),
        table_verdict,
        resolution,
        tuple(claims),
        state.dispute,
    )
    tricks_won = (
        state.tricks_won[:winner] + (state.tricks_won[winner] + 1,) + state.tricks_won[winner + 1 :]
    )
    completed = state.completed + (trick,)
    next_leader = _next_holder(hands, winner)
    events.append(
        {
            "type": "trick_awarded",
            "trick": len(state.completed),
            "winner": winner,
            "resolution": resolution,
            "verdicts": list(verdicts),
            "table_verdict": table_verdict,
            "claims": list(claims),
            "next_leader": next_leader,
        }
    )
    over = next_leader is None
    new = State(
        config=config,
        hands=hands,
        leader=winner if over else next_leader,
        current=(),
        completed=completed,
        tricks_won=tricks_won,
        phase=PHASE_OVER if over else PHASE_PLAY,
        claims=(None,) * len(hands),
        dispute=False,
        seq=seq,
    )
    if over:
        events.append({"type": "game_over", **result(new)})
    return new, events


# ---------------------------------------------------------------- outcome


def is_over(state: State) -> bool:
    return state.phase == PHASE_OVER


def result(state: State) -> dict:
    """Tricks per seat and the winners so far: most tricks, ties all win, no trick no winner.

    Works on unfinished games: a round that ends mid-game counts the tricks so far.
    """
    won = list(state.tricks_won)
    if not state.completed:
        return {"tricks_won": won, "winners": []}
    top = max(won)
    return {"tricks_won": won, "winners": [s for s, t in enumerate(won) if t == top]}


def replay(config: Config, hands: Sequence[Sequence[str]], actions: Iterable[dict]) -> State:
    """Rebuild a game from its deal and action log (raises IllegalAction on a bad entry)."""
    state = new_game(config, hands=hands)
    for action in actions:
        state, _ = apply(state, action)
    return state


# ---------------------------------------------------------------- views


# Sort keys per (ace, wins) for every card: views sort hands on every call.
_SORT_KEYS = {
    (a, w): {
        c: _SUIT_INDEX[c[-1]] * 100 + rank_order(c, TrickRules(ace=a, wins=w)) for c in full_deck()
    }
    for a in ACE_VALUES
    for w in WINS_VALUES
}


def sort_hand(hand: Iterable[str], rules: TrickRules) -> list[str]:
    """Suit by suit (S H D C), weakest to strongest under ``rules`` within a suit."""
    return sorted(hand, key=_SORT_KEYS[(rules.ace, rules.wins)].__getitem__)


def view(state: State, seat: int) -> dict:
    """What ``seat`` may see: own hand and sheet-derived hints, public table facts only.

    Other seats' hands appear as counts; no seat's sheet, no verdicts, and other
    seats' claims only once a dispute makes them public. ``legal`` lists the cards
    this seat may play now (empty unless it is its turn); ``suggested_claim`` is the
    winner under its own sheet while the trick awaits claims.
    """
    n = len(state.hands)
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"There is no seat {seat!r} at this table.")
    config = state.config
    own = config.seat_rules[seat]
    phase = state.phase
    current = state.current
    to_act = state.to_act
    hand = state.hands[seat]
    if to_act == seat:
        led = current[0][1][-1] if current else None
        # The cards ``apply`` will accept: the own sheet in Barnga mode; in referee
        # mode the table's, which the referee enforces openly anyway.
        legal = sort_hand(legal_cards(hand, led, config.rules_for(seat)), own)
    else:
        legal = []
    in_claim = phase == PHASE_CLAIM
    claims = state.claims
    return {
        "game": GAME,
        "seat": seat,
        "n_seats": n,
        "mode": config.mode,
        "phase": phase,
        "to_act": to_act,
        "leader": state.leader,
        "seq": state.seq,
        "hand": sort_hand(hand, own),
        "legal": legal,
        "hand_counts": list(map(len, state.hands)),
        "current": list(map(list, current)),
        "tricks": [
            {
                "leader": t.leader,
                "cards": list(map(list, t.cards)),
                "winner": t.winner,
                "resolution": t.resolution,
                # Its claims differed first: every seat saw them then (a dispute).
                "disputed": t.disputed,
                # Its final claims, public at the table only after a dispute (each
                # change shown to all): how many claimed the winner when time ran out.
                "claims": list(t.claims) if t.disputed else None,
            }
            for t in state.completed
        ],
        "tricks_won": list(state.tricks_won),
        "suggested_claim": trick_winner(current, own) if in_claim else None,
        "my_claim": claims[seat],
        "claimed": [c is not None for c in claims],
        "dispute": state.dispute,
        "claims": list(claims) if state.dispute else None,
        "winners": result(state)["winners"] if phase == PHASE_OVER else None,
    }


def spectator_view(state: State) -> dict:
    """Everything, for the facilitator: all hands, all sheets, verdicts and claims."""
    config = state.config
    in_claim = state.phase == PHASE_CLAIM
    return {
        "game": GAME,
        "n_seats": state.n_seats,
        "mode": config.mode,
        "phase": state.phase,
        "to_act": state.to_act,
        "leader": state.leader,
        "seq": state.seq,
        "table_rules": config.table_rules.to_dict(),
        "seat_rules": [r.to_dict() for r in config.seat_rules],
        "hands": [sort_hand(h, config.table_rules) for h in state.hands],
        "current": [[s, c] for s, c in state.current],
        "current_verdicts": [trick_winner(state.current, r) for r in config.seat_rules]
        if in_claim
        else None,
        "current_table_verdict": trick_winner(state.current, config.table_rules)
        if in_claim
        else None,
        "tricks": [
            {
                "leader": t.leader,
                "cards": [[s, c] for s, c in t.cards],
                "winner": t.winner,
                "verdicts": list(t.verdicts),
                "table_verdict": t.table_verdict,
                "resolution": t.resolution,
                "claims": list(t.claims),
            }
            for t in state.completed
        ],
        "claims": list(state.claims),
        "dispute": state.dispute,
        **result(state),
    }
