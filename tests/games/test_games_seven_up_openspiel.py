"""Differential test: our 7Up7Down deals against OpenSpiel's independent ``oh_hell``.

OpenSpiel (a development dependency, ``open-spiel`` on PyPI) plays one Oh Hell
deal with the same bidding order, hook rule, follow-suit rule and trick rule. For
many random deals we drive both engines with the same cards and the same choices
and require, at every step, the same seat to act, the same legal bids, the same
legal cards, the same trick winners, and in the end the same tricks per seat and
the same made/missed bids. Scoring differs (oh_hell: 1 per trick + 10 for an
exact bid), so points are checked by our table-driven tests instead.

oh_hell's encoding (open_spiel/games/oh_hell/oh_hell.h):
- card = rank * 4 + suit, rank 0..12 for 2..A, suit 0..3 for C D S H;
- chance actions: number of tricks, then the dealer, then the cards one at a time
  (the i-th card goes to player i % n, whoever deals), then the trump card;
- bid b is action 52 + b; the dealer's left bids first and leads the first trick;
- returns = tricks won + 10 if the bid was exact (points_per_trick = 1, no penalty),
  so with at most 7 tricks: made = returns >= 10 and tricks = returns % 10.
"""

import random
from collections import Counter

import pyspiel
import pytest

from games import seven_up as su
from games.cards import full_deck
from games.errors import IllegalAction

SPIEL_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SPIEL_SUITS = ("C", "D", "S", "H")
N_CARDS = 52
N_DEALS = 1200

_GAMES = {n: pyspiel.load_game("oh_hell", {"players": n}) for n in range(3, 8)}


def to_spiel(card: str) -> int:
    return SPIEL_RANKS.index(card[:-1]) * 4 + SPIEL_SUITS.index(card[-1])


def from_spiel(action: int) -> str:
    return SPIEL_RANKS[action // 4] + SPIEL_SUITS[action % 4]


def test_card_encoding_matches_oh_hells_own_card_strings():
    # ActionToString during the deal shows oh_hell's own name: suit letter then rank ("ST").
    state = _GAMES[3].new_initial_state()
    state.apply_action(1)
    state.apply_action(0)
    for card in full_deck():
        shown = state.action_to_string(state.current_player(), to_spiel(card))
        assert shown == card[-1] + card[:-1].replace("10", "T")
        assert from_spiel(to_spiel(card)) == card


def _start(rng: random.Random, n: int, deal_no: int, dealer: int):
    """The same random deal in both engines; ours positioned at deal ``deal_no``."""
    k = su.DEAL_SIZES[deal_no]
    deck = full_deck()
    rng.shuffle(deck)
    hands = [deck[s * k : (s + 1) * k] for s in range(n)]
    trump_card = deck[n * k]

    spiel = _GAMES[n].new_initial_state()
    spiel.apply_action(k)
    spiel.apply_action(dealer)
    for i in range(k):
        for seat in range(n):
            spiel.apply_action(to_spiel(hands[seat][i]))
    spiel.apply_action(to_spiel(trump_card))
    assert not spiel.is_chance_node()

    config = su.Config(n, first_dealer=(dealer - deal_no) % n)
    ours = su.new_match(config, start_deal=deal_no)
    ours, _ = su.apply(ours, {"type": "deal", "hands": hands, "trump_card": trump_card})
    assert ours.dealer == dealer
    return spiel, ours


def _our_legal_cards(state: su.State, seat: int) -> set[str]:
    actions = su.legal_actions(state, seat)
    if state.blind:
        # The blind card is played unseen; the card it stands for is the only one held.
        assert actions == [{"type": "play_blind", "seat": seat}]
        return set(state.hands[seat])
    return {a["card"] for a in actions}


def _play_action(state: su.State, seat: int, card: str) -> dict:
    if state.blind:
        return {"type": "play_blind", "seat": seat}
    return {"type": "play", "seat": seat, "card": card}


def _choose_bid(rng: random.Random, legal: list[int], state: su.State) -> int:
    # Mostly small bids, so the dealer's total often sits on the hook.
    if rng.random() < 0.5:
        return min(legal, key=lambda b: (abs(b - rng.randint(0, 2)), b))
    return rng.choice(legal)


def run_one_deal(rng: random.Random, n: int, deal_no: int, dealer: int, stats: Counter) -> None:
    spiel, ours = _start(rng, n, deal_no, dealer)
    k = ours.cards

    # Bidding: same seat, same legal bids, every other bid refused by us.
    while ours.phase == "bid":
        seat = ours.to_act
        assert spiel.current_player() == seat
        spiel_legal = sorted(a - N_CARDS for a in spiel.legal_actions())
        ours_legal = su.legal_bids(ours, seat)
        assert ours_legal == spiel_legal, (n, k, dealer, ours.bids, ours_legal, spiel_legal)
        for b in set(range(-1, k + 2)) - set(ours_legal):
            with pytest.raises(IllegalAction):
                su.apply(ours, {"type": "bid", "seat": seat, "bid": b})
        if len(ours_legal) == k:
            stats["hooked"] += 1
        b = _choose_bid(rng, ours_legal, ours)
        ours, _ = su.apply(ours, {"type": "bid", "seat": seat, "bid": b})
        spiel.apply_action(N_CARDS + b)
    bids = ours.bids

    # Play: same seat, same legal cards, same trick winners.
    while not spiel.is_terminal():
        seat = ours.to_act
        assert spiel.current_player() == seat
        spiel_legal = {from_spiel(a) for a in spiel.legal_actions()}
        ours_legal = _our_legal_cards(ours, seat)
        assert ours_legal == spiel_legal, (ours.hands[seat], ours.current, ours_legal, spiel_legal)
        if not ours.blind:
            for card in set(ours.hands[seat]) - ours_legal:
                stats["refused_plays"] += 1
                with pytest.raises(IllegalAction):
                    su.apply(ours, {"type": "play", "seat": seat, "card": card})
        card = rng.choice(sorted(ours_legal))
        tricks_before = len(ours.tricks)
        ours, _ = su.apply(ours, _play_action(ours, seat, card))
        spiel.apply_action(to_spiel(card))
        if ours.phase == "play" and len(ours.tricks) > tricks_before:
            # The trick's winner leads the next one in both engines.
            assert spiel.current_player() == ours.tricks[-1].winner == ours.leader
            stats["tricks"] += 1
    assert ours.phase != "play" and len(ours.history) == 1
    record = ours.history[0]

    returns = [round(r) for r in spiel.returns()]
    spiel_tricks = [r % 10 for r in returns]
    spiel_made = [r >= 10 for r in returns]
    assert list(record.tricks_won) == spiel_tricks
    assert list(record.made) == spiel_made
    assert record.bids == bids
    trump = record.trump
    stats["trumped"] += sum(
        t.cards[0][1][-1] != trump and _has_trump(t, trump) for t in record.tricks
    )
    stats["made"] += sum(record.made)
    stats["missed"] += n - sum(record.made)


def _has_trump(trick, trump):
    return any(c[-1] == trump for _, c in trick.cards)


def test_oh_hell_agrees_on_bids_cards_tricks_and_made_bids():
    rng = random.Random(20240607)
    stats: Counter = Counter()
    for i in range(N_DEALS):
        n = 3 + i % 5
        deal_no = rng.randrange(su.N_DEALS)
        dealer = rng.randrange(n)
        stats[("seats", n)] += 1
        stats[("cards", su.DEAL_SIZES[deal_no])] += 1
        stats["blind"] += deal_no == su.BLIND_DEAL
        run_one_deal(rng, n, deal_no, dealer, stats)
    stats["deals"] = N_DEALS
    # The deals covered what matters: every table size and deal size, the hook
    # biting, tricks taken by a trump on another suit's lead, made and missed bids.
    assert all(stats[("seats", n)] > 100 for n in range(3, 8))
    assert all(stats[("cards", k)] > 50 for k in range(1, 8))
    assert stats["blind"] > 30
    assert stats["hooked"] > 300
    assert stats["trumped"] > 300
    assert stats["made"] > 1000 and stats["missed"] > 1000
    assert stats["refused_plays"] > 1000
