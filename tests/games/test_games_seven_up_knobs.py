"""7Up7Down's knobs shared with Five Tricks: ``ace`` (high/low) and ``wins``
(highest/lowest), from explicit deals (docs/seven_up.md, "Knobs")."""

import random

import pytest

from games import seven_up as su
from games.errors import IllegalAction
from games.tricks import TrickRules, rank_order

# Deal 6 has one card each and deal 5 two. With 3 seats the default first dealer
# (seat 2) deals deal 6, and first_dealer=0 makes seat 2 deal deal 5: seat 0 bids
# first and leads.
TWO_CARDS = 5
ACE_LOW_VALUE = {"A": 1, "J": 11, "Q": 12, "K": 13}


def one_trick(config: su.Config, hands, trump_card, bids, plays) -> su.State:
    """A one-card deal (index 6) with explicit hands, bids in order and plays."""
    state = su.new_match(config, start_deal=6)
    state, _ = su.apply(state, {"type": "deal", "hands": hands, "trump_card": trump_card})
    for b in bids:
        state, _ = su.apply(state, {"type": "bid", "seat": state.to_act, "bid": b})
    for card in plays:
        state, _ = su.apply(state, {"type": "play", "seat": state.to_act, "card": card})
    return state


def winner_of(config: su.Config, hands, trump_card="2D") -> int:
    """Who takes the one trick, seat 0 leading."""
    state = one_trick(config, hands, trump_card, [0, 0, 0], [h[0] for h in hands])
    return state.history[-1].tricks[0].winner


def test_the_shared_knobs_default_to_the_classic_game_and_stay_out_of_its_rules():
    c = su.Config(3)
    assert (c.ace, c.wins) == ("high", "highest")
    assert c.rules == {"hook": True, "points_per_trick": 15, "zero_bid_points": 10}
    low = su.Config.from_rules(3, {"ace": "low", "wins": "lowest"})
    assert low.rules == {
        "hook": True,
        "points_per_trick": 15,
        "zero_bid_points": 10,
        "ace": "low",
        "wins": "lowest",
    }
    assert su.Config.from_dict(low.to_dict()) == low
    # A record may name the defaults explicitly.
    assert su.Config.from_rules(3, {"ace": "high", "wins": "highest"}) == c
    for bad in ({"ace": "middle"}, {"wins": "most"}, {"ace": None}):
        with pytest.raises(ValueError):
            su.Config.from_rules(3, bad)


def test_lowest_wins_the_lowest_card_of_the_led_suit_takes_the_trick():
    hands = [["9S"], ["3S"], ["KS"]]
    assert winner_of(su.Config(3), hands) == 2  # the king, classic
    assert winner_of(su.Config(3, wins="lowest"), hands) == 1  # the 3


def test_lowest_wins_among_trumps_too_and_a_trump_still_beats_the_led_suit():
    # Seat 0 leads a spade, seat 1 trumps with the queen, seat 2 with the 4.
    hands = [["2S"], ["QD"], ["4D"]]
    assert winner_of(su.Config(3), hands, trump_card="9D") == 1
    assert winner_of(su.Config(3, wins="lowest"), hands, trump_card="9D") == 2
    # Off-suit, no trump: the led card wins however low or high the others are.
    hands = [["8S"], ["2H"], ["AC"]]
    assert winner_of(su.Config(3, wins="lowest"), hands, trump_card="9D") == 0


def test_ace_low_ranks_the_ace_below_the_two():
    hands = [["AS"], ["2S"], ["KS"]]
    assert winner_of(su.Config(3), hands) == 0  # ace high: the ace
    assert winner_of(su.Config(3, ace="low"), hands) == 2  # ace low: the king
    assert winner_of(su.Config(3, ace="low", wins="lowest"), hands) == 0  # the ace is lowest
    assert winner_of(su.Config(3, ace="high", wins="lowest"), hands) == 1  # the 2


def test_the_knobs_do_not_change_following_suit():
    config = su.Config(3, ace="low", wins="lowest", first_dealer=0)
    hands = [["5S", "6S"], ["AS", "2H"], ["KH", "3H"]]
    state = su.new_match(config, start_deal=TWO_CARDS)
    state, _ = su.apply(state, {"type": "deal", "hands": hands, "trump_card": "2D"})
    for b in (0, 0, 1):
        state, _ = su.apply(state, {"type": "bid", "seat": state.to_act, "bid": b})
    state, _ = su.apply(state, {"type": "play", "seat": 0, "card": "5S"})
    assert [a["card"] for a in su.legal_actions(state, 1)] == ["AS"]
    with pytest.raises(IllegalAction, match="spade"):
        su.apply(state, {"type": "play", "seat": 1, "card": "2H"})


def test_records_with_the_shared_knobs_replay():
    config = su.Config.from_rules(4, {"ace": "low", "wins": "lowest", "hook": False})
    state, log = su.play_match(config, seed=11)
    assert su.replay(config, log, seed=11) == state
    record = su.to_record(state)
    assert record["rules"]["ace"] == "low" and record["rules"]["wins"] == "lowest"
    out = su.replay_record(record)
    assert out["totals"] == state.totals
    # Every trick in the record is won by its lowest trump, else its lowest led card.
    for deal in out["deals"]:
        for trick in deal["tricks"]:
            cards = trick["cards"]
            trumps = [c for c in cards if c[-1] == deal["trump"]]
            pool = trumps or [c for c in cards if c[-1] == cards[0][-1]]
            best = min(pool, key=lambda c: ACE_LOW_VALUE.get(c[:-1]) or int(c[:-1]))
            seat = (trick["leader"] + cards.index(best)) % 4
            assert trick["winner"] == seat


def test_the_bot_values_cards_by_the_tables_order():
    hand = ["2H", "3H", "2S"]
    assert su.estimate_tricks(hand, "H", 4) < 1.5
    assert su.estimate_tricks(hand, "H", 4, wins="lowest") > 1.5
    assert su.estimate_tricks(["AS"], "H", 4) > su.estimate_tricks(["AS"], "H", 4, ace="low")
    # A bot under "lowest wins" plays its lowest trump to take a trick it bid.
    config = su.Config(3, wins="lowest", first_dealer=0)
    state = su.new_match(config, start_deal=TWO_CARDS)
    hands = [["2H", "KH"], ["5S", "6S"], ["7C", "8C"]]
    state, _ = su.apply(state, {"type": "deal", "hands": hands, "trump_card": "9H"})
    for b in (2, 0, 1):
        state, _ = su.apply(state, {"type": "bid", "seat": state.to_act, "bid": b})
    v = su.view(state, 0)
    assert v["rules"]["wins"] == "lowest" and v["legal"] == ["2H", "KH"]
    assert su.choose_from_view(v, _NoNoise()) == {"type": "play", "seat": 0, "card": "2H"}
    # Under the classic order the same bot leads its king instead.
    classic = su.new_match(su.Config(3, first_dealer=0), start_deal=TWO_CARDS)
    classic, _ = su.apply(classic, {"type": "deal", "hands": hands, "trump_card": "9H"})
    for b in (2, 0, 1):
        classic, _ = su.apply(classic, {"type": "bid", "seat": classic.to_act, "bid": b})
    assert su.choose_action(classic, 0, _NoNoise())["card"] == "KH"


class _NoNoise(random.Random):
    def random(self):  # never the noisy branch
        return 1.0


@pytest.mark.parametrize("ace, hearts", [("high", ["2H", "KH", "AH"]), ("low", ["AH", "2H", "KH"])])
def test_the_hand_runs_bottom_to_top_as_the_sheet_orders_a_suit(ace, hearts):
    """An ace-low table's sheet says the ace is the bottom card; the phone showed it last."""
    assert su.sort_hand(["KH", "AH", "2H", "5S"], ace) == ["5S", *hearts]
    order = TrickRules(ace=ace)
    hand = su.view(su.new_match(su.Config.from_rules(3, {"ace": ace}), seed=4), 0)["hand"]
    for a, b in zip(hand, hand[1:], strict=False):
        if a[-1] == b[-1]:
            assert rank_order(a, order) < rank_order(b, order)
