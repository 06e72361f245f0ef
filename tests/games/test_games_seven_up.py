"""7Up7Down scenario tests from explicit deals: one test (or table) per rule."""

import json
import pathlib
import random
import subprocess
import sys

import pytest
from games_helpers import SEVEN, SEVEN_PLAYS

from games import seven_up as su
from games.errors import IllegalAction

ROOT = pathlib.Path(__file__).resolve().parents[2]


def match(n=3, start_deal=0, **kw) -> su.State:
    return su.new_match(su.Config(n, **kw), start_deal=start_deal)


def deal(state, hands, trump_card, events=None):
    state, evs = su.apply(state, {"type": "deal", "hands": hands, "trump_card": trump_card})
    if events is not None:
        events.extend(evs)
    return state


def bid(state, *bids, events=None):
    for b in bids:
        state, evs = su.apply(state, {"type": "bid", "seat": state.to_act, "bid": b})
        if events is not None:
            events.extend(evs)
    return state


def play(state, *cards, events=None):
    for card in cards:
        if card == "blind":
            action = {"type": "play_blind", "seat": state.to_act}
        else:
            action = {"type": "play", "seat": state.to_act, "card": card}
        state, evs = su.apply(state, action)
        if events is not None:
            events.extend(evs)
    return state


def refused(state, action, *words):
    with pytest.raises(IllegalAction) as exc:
        su.apply(state, action)
    for word in words:
        assert word in exc.value.reason
    return exc.value.reason


# ---------------------------------------------------------------- config, deals, dealer


def test_config_defaults_and_knobs():
    c = su.Config(5)
    assert (c.hook, c.points_per_trick, c.zero_bid_points) == (True, 15, 10)
    assert c.first_dealer == 4  # the last seat deals first, so seat 0 bids and leads first
    assert c.rules == {"hook": True, "points_per_trick": 15, "zero_bid_points": 10}
    assert su.Config.from_dict(c.to_dict()) == c
    assert su.Config.from_rules(4, {"hook": False}).hook is False
    for bad in (
        {"n_seats": 2},
        {"n_seats": 8},
        {"n_seats": 4, "hook": "yes"},
        {"n_seats": 4, "points_per_trick": -1},
        {"n_seats": 4, "zero_bid_points": True},
        {"n_seats": 4, "first_dealer": 4},
    ):
        with pytest.raises(ValueError):
            su.Config(**bad)
    with pytest.raises(ValueError, match="Unknown rule"):
        su.Config.from_rules(4, {"hooks": True})


def test_fourteen_deals_of_seven_down_to_one_and_up_again():
    assert su.DEAL_SIZES == (7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7)
    assert su.BLIND_DEAL == 7 and su.DEAL_SIZES[su.BLIND_DEAL] == 1
    final, _ = su.play_match(su.Config(7), seed=5)
    assert [r.cards for r in final.history] == list(su.DEAL_SIZES)
    assert [len(r.tricks) for r in final.history] == list(su.DEAL_SIZES)


def test_dealer_rotates_clockwise_like_the_seed_sheet():
    # The seed's five-player sheet: Player 5 deals first, then Player 1, 2, ...
    final, _ = su.play_match(su.Config(5), seed=11)
    assert [r.dealer for r in final.history] == [4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2]
    final, _ = su.play_match(su.Config(3, first_dealer=0), seed=11)
    assert [r.dealer for r in final.history] == [d % 3 for d in range(14)]


def test_seeded_deals_are_deterministic_and_draw_trump_from_the_undealt_cards():
    for n in range(3, 8):
        for d in range(14):
            hands, trump = su.seeded_deal(n, d, (n - 1 + d) % n, seed="x")
            assert (hands, trump) == su.seeded_deal(n, d, (n - 1 + d) % n, seed="x")
            assert all(len(h) == su.DEAL_SIZES[d] for h in hands)
            cards = [c for h in hands for c in h]
            assert len(set(cards)) == len(cards) and trump not in cards
    assert su.seeded_deal(4, 0, 3, 1) != su.seeded_deal(4, 0, 3, 2)
    assert su.seeded_deal(4, 0, 3, 1) != su.seeded_deal(4, 1, 3, 1)


def test_explicit_deals_are_checked():
    s = match()
    assert s.phase == "deal" and s.to_act is None and s.dealer == 2
    refused(s, {"type": "deal", "hands": SEVEN[:2], "trump_card": "AH"}, "3 seats but 2 hands")
    short = [SEVEN[0][:6], SEVEN[1], SEVEN[2]]
    refused(s, {"type": "deal", "hands": short, "trump_card": "AH"}, "Seat 0 has 6 cards", "7")
    twice = [SEVEN[0], SEVEN[1][:6] + ["AS"], SEVEN[2]]
    refused(s, {"type": "deal", "hands": twice, "trump_card": "AH"}, "AS is dealt twice")
    refused(s, {"type": "deal", "hands": SEVEN, "trump_card": "8C"}, "undealt")
    refused(s, {"type": "deal", "hands": SEVEN, "trump_card": "ZZ"}, "not a card")
    refused(s, {"type": "deal", "hands": SEVEN, "trump_card": "AH", "dealer": 0}, "clockwise")
    s = deal(s, [[c.lower() for c in h] for h in SEVEN], "ah")
    assert s.dealt == tuple(map(tuple, SEVEN)) and s.trump_card == "AH" and s.trump == "H"
    refused(s, {"type": "deal", "hands": SEVEN, "trump_card": "AH"}, "already dealt")
    seeded = su.new_match(su.Config(3), seed=1)
    assert seeded.phase == "bid"
    with pytest.raises(IllegalAction):
        su.apply(seeded, {"type": "deal", "hands": SEVEN, "trump_card": "AH"})


def test_new_match_refuses_bad_arguments():
    with pytest.raises(ValueError):
        su.new_match("config")
    with pytest.raises(ValueError):
        su.new_match(su.Config(3), start_deal=14)
    with pytest.raises(ValueError):
        su.new_match(su.Config(3), seed=1.5)


# ---------------------------------------------------------------- bidding


def test_bidding_runs_clockwise_from_the_dealers_left_dealer_last():
    diamonds = ["AD", "2D", "3D", "4D", "5D", "6D", "7D"]
    s = deal(match(4, first_dealer=1), [SEVEN[0], SEVEN[1], SEVEN[2], diamonds], "KH")
    order = []
    for b in (1, 2, 0, 0):
        order.append(s.to_act)
        s = bid(s, b)
    assert order == [2, 3, 0, 1]
    assert s.bids == (0, 0, 1, 2) and s.phase == "play" and s.to_act == 2


def test_out_of_turn_and_out_of_range_bids_are_refused():
    s = deal(match(), SEVEN, "AH")
    refused(s, {"type": "bid", "seat": 1, "bid": 1}, "not your turn", "seat 0 bids next")
    refused(s, {"type": "bid", "seat": 3, "bid": 1}, "no seat 3")
    for bad in (-1, 8, 1.0, True, "2", None):
        refused(s, {"type": "bid", "seat": 0, "bid": bad}, "from 0 to 7")
    refused(s, {"type": "play", "seat": 0, "card": "AS"}, "Bidding is not over")
    assert su.legal_bids(s, 0) == list(range(8)) and su.legal_bids(s, 1) == []


@pytest.mark.parametrize(
    "first, forbidden",
    [
        ((6, 1), 0),  # the seed's "at least one person will be wrong"
        ((0, 0), 7),
        ((3, 2), 2),
        ((5, 3), None),  # already over the cards: nothing to forbid
        ((7, 0), 0),
    ],
)
def test_hook_rule_forbids_the_dealer_the_bid_that_makes_the_total(first, forbidden):
    s = bid(deal(match(), SEVEN, "AH"), *first)
    assert s.to_act == s.dealer == 2
    assert su.forbidden_bid(s) == forbidden
    assert su.legal_bids(s, 2) == [b for b in range(8) if b != forbidden]
    assert su.view(s, 0)["forbidden_bid"] == forbidden  # public: anyone can add up
    if forbidden is not None:
        reason = refused(
            s, {"type": "bid", "seat": 2, "bid": forbidden}, "hook rule", "add up to 7"
        )
        assert f"may not bid {forbidden}" in reason
    # Before the dealer's turn nothing is forbidden.
    s0 = bid(deal(match(), SEVEN, "AH"), first[0])
    assert su.forbidden_bid(s0) is None and len(su.legal_bids(s0, 1)) == 8


def test_hook_rule_off():
    s = bid(deal(match(hook=False), SEVEN, "AH"), 6, 1)
    assert su.forbidden_bid(s) is None and su.legal_bids(s, 2) == list(range(8))
    s = bid(s, 0)
    assert s.phase == "play" and sum(s.bids) == 7


# ---------------------------------------------------------------- play


def test_dealers_left_leads_follow_suit_and_trump_from_the_drawn_card():
    events = []
    s = bid(deal(match(), SEVEN, "AH"), 6, 1, 1)
    assert s.to_act == 0 and s.leader == 0
    s = play(s, "AS")
    refused(s, {"type": "play", "seat": 1, "card": "2H"}, "must follow suit", "spade")
    refused(s, {"type": "play", "seat": 1, "card": "AH"}, "do not hold AH")
    refused(s, {"type": "play", "seat": 2, "card": "2C"}, "not your turn")
    refused(s, {"type": "play_blind", "seat": 1}, "Only in the blind deal")
    s = play(s, "2S", "2C", events=events)  # seat 2 is void in spades: any card
    assert events[-1] == {
        "type": "trick_complete",
        "trick": 0,
        "leader": 0,
        "cards": [[0, "AS"], [1, "2S"], [2, "2C"]],
        "winner": 0,
    }
    s = play(s, *SEVEN_PLAYS[3:18])
    # Last trick: seat 1 is out of spades and trumps with the 2 of hearts over the 8S.
    assert su.legal_actions(s, 1) == []
    s = play(s, "8S")
    assert [a["card"] for a in su.legal_actions(s, 1)] == ["2H"]
    s = play(s, "2H", "8C", events=events)
    record = s.history[0]
    assert [t.winner for t in record.tricks] == [0] * 6 + [1]
    assert record.tricks_won == (6, 1, 0) and record.trump == "H"


def test_a_card_played_in_lower_case_is_accepted_and_written_in_upper_case():
    """RULES.md, card notation: accept lower case on input; always write upper case."""
    events = []
    s = bid(deal(match(), SEVEN, "AH"), 6, 1, 1)
    s = play(
        s,
        "as",
        "2s",
        "2c",
        "ks",
        "3s",
        "3c",
        "qs",
        "4s",
        "4c",
        "js",
        "5s",
        "5c",
        "10s",
        events=events,
    )
    played = [e["card"] for e in events if e["type"] == "card_played"]
    assert played == SEVEN_PLAYS[:13]
    assert events[0] == {"type": "card_played", "seat": 0, "card": "AS"}
    assert s.current == ((0, "10S"),)


def test_the_trick_winner_leads_the_next_trick_and_trump_beats_the_led_ace():
    # 3 seats, deal 5 (2 cards each), dealer 0 at deal 5 when first_dealer is 1.
    s = match(first_dealer=1, start_deal=5)
    assert s.dealer == 0 and s.cards == 2
    s = deal(s, [["AD", "2S"], ["KD", "3S"], ["2C", "4S"]], "9C")
    s = bid(s, 0, 0, 0)  # seats 1, 2, then the dealer 0
    assert s.to_act == 1
    s = play(s, "KD", "2C")  # seat 2 is void in diamonds and trumps
    s = play(s, "AD")
    assert s.tricks[0].winner == 2 and s.to_act == 2 and s.leader == 2
    s = play(s, "4S", "2S", "3S")
    assert s.history[0].tricks_won == (0, 0, 2)


# ---------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    "bid_, won, ppt, zero, points",
    [
        (0, 0, 15, 10, 10),
        (1, 1, 15, 10, 15),
        (3, 3, 15, 10, 45),
        (7, 7, 15, 10, 105),
        (0, 1, 15, 10, 0),
        (2, 1, 15, 10, 0),
        (2, 3, 15, 10, 0),
        (2, 2, 10, 5, 20),
        (0, 0, 10, 5, 5),
        (0, 0, 15, 0, 0),
        (4, 4, 0, 10, 0),
    ],
)
def test_points_for_one_seat_in_one_deal(bid_, won, ppt, zero, points):
    config = su.Config(3, points_per_trick=ppt, zero_bid_points=zero)
    assert su.deal_points(bid_, won, config) == points


def test_the_seeds_example_rows_under_the_rule_text():
    # ../shared/seeds/003 example, first two rows, four players. The seed writes 0 for
    # Player 4's exact zero in row 1; RULES.md ("exact bid of 0 scores 10") wins.
    c = su.Config(4)
    row1 = [(1, 0), (2, 2), (3, 3), (0, 0)]
    row2 = [(3, 3), (0, 1), (0, 0), (1, 1)]
    assert [su.deal_points(b, w, c) for b, w in row1] == [0, 30, 45, 10]
    assert [su.deal_points(b, w, c) for b, w in row2] == [45, 0, 10, 15]


def test_a_scored_deal_exact_missed_and_zero_bids():
    events = []
    s = bid(deal(match(), SEVEN, "AH"), 6, 0, 0, events=events)
    s = play(s, *SEVEN_PLAYS, events=events)
    record = s.history[0]
    assert record.bids == (6, 0, 0) and record.tricks_won == (6, 1, 0)
    assert record.made == (True, False, True)
    assert record.points == (90, 0, 10)
    scored = [e for e in events if e["type"] == "deal_scored"][0]
    assert scored == {
        "type": "deal_scored",
        "deal": 0,
        "bids": [6, 0, 0],
        "tricks_won": [6, 1, 0],
        "made": [True, False, True],
        "points": [90, 0, 10],
        "totals": [90, 0, 10],
    }
    # The next deal waits for its cards, one seat further round.
    assert s.phase == "deal" and s.deal_no == 1 and s.dealer == 0 and s.cards == 6
    assert su.result(s) == {"totals": [90, 0, 10], "winners": [0], "deals_scored": 1}


def test_knobs_change_the_points():
    s = match(points_per_trick=10, zero_bid_points=3)
    s = play(bid(deal(s, SEVEN, "AH"), 6, 0, 0), *SEVEN_PLAYS)
    assert s.history[0].points == (60, 0, 3)


# ---------------------------------------------------------------- result


def _one_card_deal(state, hands, trump_card, bids, plays):
    return play(bid(deal(state, hands, trump_card), *bids), *plays)


def test_co_winners_and_an_unfinished_match_counts_its_points_so_far():
    s = match(start_deal=5, first_dealer=0)  # deal 5: two cards each, dealer 2
    assert su.result(s) == {"totals": [0, 0, 0], "winners": [], "deals_scored": 0}
    # Deal 5 has 2 cards: seats 0 and 1 each make one trick, seat 2 none.
    s = deal(s, [["AS", "2D"], ["3S", "AD"], ["4C", "5C"]], "2H")
    s = bid(s, 1, 1)
    assert su.result(s)["winners"] == []  # bids alone score nothing
    s = play(bid(s, 1), "AS", "3S", "4C", "2D", "AD", "5C")
    assert s.history[0].points == (15, 15, 0)
    assert su.result(s) == {"totals": [15, 15, 0], "winners": [0, 1], "deals_scored": 1}
    # Deal 6, one card, dealer 0; a deal in progress does not count.
    s = deal(s, [["KS"], ["2S"], ["3S"]], "4H")
    s = bid(s, 0, 0)
    assert su.result(s)["totals"] == [15, 15, 0]
    s = play(bid(s, 0), "2S", "3S", "KS")
    assert s.history[1].points == (0, 10, 10)
    assert su.result(s)["winners"] == [1]
    assert not su.is_over(s)


def test_a_missed_zero_scores_nothing_and_all_zero_totals_tie():
    s = match(start_deal=6)  # one card, dealer 2
    s = _one_card_deal(s, [["AS"], ["2S"], ["3S"]], "4H", [0, 0, 0], ["AS", "2S", "3S"])
    assert s.history[0].points == (0, 10, 10)
    s = match(start_deal=6)
    s = _one_card_deal(s, [["AS"], ["2S"], ["3S"]], "4H", [0, 1, 1], ["AS", "2S", "3S"])
    assert s.history[0].points == (0, 0, 0)
    assert su.result(s)["winners"] == [0, 1, 2]


def test_a_whole_match_ends_after_fourteen_deals():
    events = []
    s = su.new_match(su.Config(4), seed=9)
    rng = random.Random(0)
    while not su.is_over(s):
        s, evs = su.apply(s, rng.choice(su.legal_actions(s, s.to_act)))
        events.extend(evs)
    assert len(s.history) == 14 and s.phase == "over" and s.to_act is None
    assert events[-1]["type"] == "match_over"
    assert events[-1]["totals"] == su.result(s)["totals"]
    assert sum(e["type"] == "deal_started" for e in events) == 13  # the first came with new_match
    refused(s, {"type": "bid", "seat": 0, "bid": 0}, "match is over")
    refused(s, {"type": "deal", "hands": [], "trump_card": "AS"}, "match is over")
    assert su.view(s, 0)["winners"] == su.result(s)["winners"]


# ---------------------------------------------------------------- the blind deal


def blind_state(n=4):
    """Deal 7, the blind deal: one card each, dealer 2 for first_dealer 3."""
    s = su.new_match(su.Config(n), start_deal=su.BLIND_DEAL)
    hands = [["QS"], ["5H"], ["KD"], ["9C"]][:n]
    return deal(s, hands, "3D"), hands


def test_blind_deal_views_show_every_card_but_ones_own():
    s, hands = blind_state()
    assert s.blind and s.dealer == 2 and s.to_act == 3
    for seat in range(4):
        v = su.view(s, seat)
        assert v["hand"] == [] and v["hand_hidden"] is True and v["blind"] is True
        assert v["hand_counts"] == [1, 1, 1, 1]
        assert v["visible_cards"] == [None if o == seat else hands[o] for o in range(4)]
        text = json.dumps(v)
        assert f'"{hands[seat][0]}"' not in text
        for other in range(4):
            if other != seat:
                assert f'"{hands[other][0]}"' in text
    # Outside the blind deal nobody sees another seat's cards.
    normal = deal(match(), SEVEN, "AH")
    v = su.view(normal, 1)
    assert v["hand_hidden"] is False and v["visible_cards"] is None
    assert v["hand"] == ["2S", "3S", "4S", "5S", "6S", "7S", "2H"]


def test_blind_deal_bidding_and_playing_the_unseen_card():
    s, hands = blind_state()
    s = bid(s, 0, 1, 0)
    assert su.forbidden_bid(s) == 0 and su.legal_bids(s, 2) == [1]  # the hook still applies
    s = bid(s, 1)
    seat = s.to_act
    assert su.legal_actions(s, seat) == [{"type": "play_blind", "seat": seat}]
    v = su.view(s, seat)
    assert v["can_play_blind"] is True and v["legal"] == []
    # A named card is refused the same way whether it is right or wrong, so a
    # guess tells the player nothing.
    right = refused(s, {"type": "play", "seat": seat, "card": hands[seat][0]})
    wrong = refused(s, {"type": "play", "seat": seat, "card": "AS"})
    assert right == wrong and "play_blind" in right
    events = []
    s = play(s, "blind", events=events)
    assert events == [{"type": "card_played", "seat": seat, "card": hands[seat][0]}]
    assert su.view(s, seat)["current"] == [[seat, hands[seat][0]]]  # on the table now
    assert su.view(s, 0)["can_play_blind"] is True
    s = play(s, "blind", "blind", "blind")
    record = s.history[0]
    # Seat 3 led the 9C; seat 2's KD is the only trump (diamonds from the 3D).
    assert record.tricks[0].leader == 3 and record.tricks[0].winner == 2
    assert record.bids == (1, 0, 1, 0) and record.points == (0, 10, 15, 10)
    assert s.deal_no == 8 and not s.blind


def test_bot_bids_in_the_blind_deal_from_the_cards_it_sees():
    s, _ = blind_state()
    # Seat 3 sees QS, 5H and the only trump KD: its own card almost never wins.
    assert su.choose_action(s, 3, random.Random(0)) == {"type": "bid", "seat": 3, "bid": 0}
    s = su.new_match(su.Config(3), start_deal=su.BLIND_DEAL)
    s = deal(s, [["2S"], ["3H"], ["4C"]], "AD")  # dealer 0, seat 1 bids first and leads
    # Seat 1 sees the 2S and 4C and no trump: most cards it might lead would win.
    assert su.choose_action(s, 1, random.Random(0)) == {"type": "bid", "seat": 1, "bid": 1}


# ---------------------------------------------------------------- views, events, bots


def test_views_hide_other_hands_and_show_public_facts():
    s = bid(deal(match(), SEVEN, "AH"), 6)
    v = su.view(s, 0)
    text = json.dumps(v)
    for card in SEVEN[1] + SEVEN[2]:
        assert f'"{card}"' not in text
    assert v["bids"] == [6, None, None] and v["trump_card"] == "AH" and v["trump"] == "H"
    assert v["to_act"] == 1 and v["legal_bids"] == [] and v["legal"] == []
    assert su.view(s, 1)["legal_bids"] == list(range(8))
    with pytest.raises(ValueError):
        su.view(s, 3)
    sv = su.spectator_view(s)
    assert sv["hands"] == [su.sort_hand(h) for h in SEVEN]
    assert sv["hands"][0] == ["8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    assert "seed" not in sv and "seed" not in v


def test_deal_events_never_carry_hands():
    events = []
    deal(match(), SEVEN, "AH", events=events)
    assert events == [
        {
            "type": "deal_started",
            "deal": 0,
            "dealer": 2,
            "cards": 7,
            "blind": False,
            "trump_card": "AH",
            "trump": "H",
        }
    ]


def test_sheet_rows_like_the_seeds_score_sheet():
    s = play(bid(deal(match(), SEVEN, "AH"), 6, 0, 0), *SEVEN_PLAYS)
    assert su.view(s, 2)["sheet"] == [
        {
            "deal": 0,
            "dealer": 2,
            "cards": 7,
            "blind": False,
            "trump_card": "AH",
            "bids": [6, 0, 0],
            "tricks_won": [6, 1, 0],
            "made": [True, False, True],
            "points": [90, 0, 10],
        }
    ]


def test_bot_bids_from_its_hand_and_trump():
    assert su.estimate_tricks(["AH", "KH", "QH"], "H", 4) > 2
    assert su.estimate_tricks(["2S", "3D", "4C"], "H", 4) == 0
    assert su.estimate_tricks(["AS"], "H", 3) > su.estimate_tricks(["AS"], "H", 7)
    s = deal(match(), SEVEN, "AH")
    # Seat 0: AS, KS, QS off trump (0.85 + 0.5 + 0.2 at three seats) -> 2.
    assert su.choose_action(s, 0, random.Random(0)) == {"type": "bid", "seat": 0, "bid": 2}
    assert su.choose_action(s, 1, random.Random(0)) is None  # not its turn
    s = bid(s, 2)
    assert su.choose_action(s, 1, random.Random(0))["bid"] == 0  # only the 2 of trumps
    s = bid(s, 0)
    assert su.choose_action(s, 2, random.Random(0))["bid"] == 0  # 2 + 0 + 0 is no hook
    s = bid(deal(match(), SEVEN, "AH"), 6, 1)
    # Seat 2 wants 0, the hook forbids it (6 + 1 + 0 = 7): the nearest legal bid.
    assert su.choose_action(s, 2, random.Random(0))["bid"] == 1


def test_seeded_bot_match_is_deterministic_and_replays():
    config = su.Config(5)
    a, log_a = su.play_match(config, seed=2024)
    b, log_b = su.play_match(config, seed=2024)
    assert a == b and log_a == log_b
    assert su.is_over(a) and len(a.history) == 14
    assert su.replay(config, log_a, seed=2024) == a
    assert su.play_match(config, seed=2025)[1] != log_a
    # Bots do better than no-one ever making a bid.
    assert sum(sum(r.made) for r in a.history) > 0


def test_to_record_replays_to_the_same_deals():
    config = su.Config(4)
    final, _ = su.play_match(config, seed=3)
    out = su.replay_record(su.to_record(final))
    assert out["totals"] == su.result(final)["totals"]
    assert out["winners"] == su.result(final)["winners"]
    for row, record in zip(out["deals"], final.history, strict=True):
        assert row["bids"] == list(record.bids)
        assert row["points"] == list(record.points)
        assert [t["winner"] for t in row["tricks"]] == [t.winner for t in record.tricks]


def test_seven_up_works_with_django_unimportable():
    code = """
import sys
sys.modules["django"] = None
from games import seven_up as su
from games.replay import replay_document
state, log = su.play_match(su.Config(3), 1)
assert su.is_over(state)
print(replay_document(su.to_record(state))["totals"])
"""
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("[")
