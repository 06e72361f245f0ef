"""Scenario tests for games.three_tricks: every rule, and every decision in docs/three_tricks.md."""

import json
from dataclasses import replace

import pytest

from games import three_tricks as tt
from games.cards import full_deck
from games.errors import IllegalAction

SEED = tt.Config()


def stack(hands, stock=(), dealer=1):
    """A deck dealing ``hands`` (seven each, one at a time, the non-dealer first), then ``stock``."""
    first = 1 - dealer
    deck = []
    for i in range(7):
        deck += [hands[first][i], hands[dealer][i]]
    deck += list(stock)
    deck += [c for c in full_deck() if c not in deck]
    assert len(set(deck)) == 52
    return deck


def start(hands, stock=(), *, dealer=1, reshuffles=None, **knobs):
    """Seat 0 plays first (seat 1 deals)."""
    return tt.new_game(
        tt.Config(**knobs), deck=stack(hands, stock, dealer), dealer=dealer, reshuffles=reshuffles
    )


def act(state, kind, cards=None, seat=None, events=None):
    action = {"type": kind, "seat": state.to_act if seat is None else seat}
    if cards is not None:
        action["cards"] = list(cards)
    state, evs = tt.apply(state, action)
    if events is not None:
        events.extend(evs)
    return state


# Seat 0 holds a run (6S 7S), a pair (9D 9S) and a wild ace; seat 1 can block in many ways.
P0 = ["6S", "7S", "9D", "9S", "AC", "3H", "KD"]
P1 = ["3S", "4S", "6H", "6D", "2C", "8H", "QC"]
STOCK = ["2D", "3D", "4D", "5D", "7D", "8D", "10D", "JD"]


# ---------------------------------------------------------------- deal


def test_deal_seven_each_one_at_a_time_non_dealer_first_rest_is_the_stockpile():
    deck = full_deck()
    state = tt.new_game(SEED, deck=deck, dealer=0)
    assert state.hands[1] == tuple(deck[0:14:2])
    assert state.hands[0] == tuple(deck[1:14:2])
    assert state.stock == tuple(deck[14:]) and len(state.stock) == 38
    assert state.secondary == ()
    assert (state.to_act, state.phase) == (1, "play")  # the non-dealer plays first


def test_seeded_games_pick_the_dealer_and_deal_from_the_seed():
    a, b = tt.new_game(SEED, seed=4), tt.new_game(SEED, seed=4)
    assert a == b
    dealers = {tt.new_game(SEED, seed=s).dealer for s in range(20)}
    assert dealers == {0, 1}
    state = tt.new_game(SEED, seed=4)
    assert state.to_act == 1 - state.dealer


def test_new_game_validates_its_inputs():
    with pytest.raises(ValueError, match="seed"):
        tt.new_game(SEED)
    with pytest.raises(ValueError, match="52"):
        tt.new_game(SEED, deck=full_deck()[:40])
    with pytest.raises(ValueError, match="twice"):
        tt.new_game(SEED, deck=["AS"] * 52)
    with pytest.raises(ValueError, match="dealer"):
        tt.new_game(SEED, seed=1, dealer=2)
    with pytest.raises(ValueError, match="max_swap"):
        tt.Config(max_swap=8)
    with pytest.raises(ValueError, match="aces"):
        tt.Config(aces="jokers")
    with pytest.raises(ValueError, match="Unknown"):
        tt.Config.from_dict({"wild": True})
    assert tt.Config.from_dict({"count": "fewest"}) == tt.Config(count="fewest")
    assert tt.Config.from_dict(tt.Config(aces="low").to_dict()) == tt.Config(aces="low")


# ---------------------------------------------------------------- what a trick is


@pytest.mark.parametrize(
    "cards, ok",
    [
        (["4C", "5C"], True),  # a run
        (["7H", "7S"], True),  # a pair
        (["QH", "KH"], True),
        (["4C", "6C"], False),  # not consecutive
        (["4C", "5D"], False),  # a run is one suit
        (["KH", "2H"], False),  # no wrapping round
        (["AC", "3H"], True),  # a wild ace goes with any card
        (["AC", "AH"], False),  # never aces alone
        (["4C", "4C"], False),
    ],
)
def test_two_card_tricks_with_wild_aces(cards, ok):
    assert tt.is_trick(cards, SEED) is ok


@pytest.mark.parametrize(
    "cards, ok",
    [
        (["4C", "5C", "6C"], True),
        (["7H", "7S", "7D"], True),
        (["4C", "5C", "7C"], False),
        (["4C", "4D", "5C"], False),
        (["AC", "5H", "7H"], True),  # the ace is the 6 of hearts
        (["AC", "5H", "8H"], False),
        (["AC", "AD", "9S"], True),  # two aces and a natural card
        (["AC", "AD", "AS"], False),
        (["QH", "KH", "AD"], True),  # the ace is the jack
        (["AS", "9C", "9D"], True),  # three nines
    ],
)
def test_three_card_tricks_with_wild_aces(cards, ok):
    assert tt.is_trick(cards, SEED) is ok


@pytest.mark.parametrize(
    "aces, cards, ok",
    [
        ("low", ["AH", "2H"], True),
        ("low", ["KH", "AH"], False),
        ("low", ["AH", "AS"], True),  # natural aces pair up
        ("low", ["AC", "3H"], False),
        ("high", ["KH", "AH"], True),
        ("high", ["AH", "2H"], False),
        ("high", ["QH", "KH", "AH"], True),
    ],
)
def test_natural_aces_variants(aces, cards, ok):
    assert tt.is_trick(cards, tt.Config(aces=aces)) is ok


def test_trick_problems_read_well():
    assert "on their own" in tt.trick_problem(["AC", "AH"], 2, SEED)
    assert "pair" in tt.trick_problem(["4C", "6D"], 2, SEED)
    assert "three of a kind" in tt.trick_problem(["4C", "6D", "9S"], 3, SEED)
    assert "needs 3 cards" in tt.trick_problem(["4C", "5C"], 3, SEED)


# ---------------------------------------------------------------- what a block must match


@pytest.mark.parametrize(
    "block, ok",
    [
        (["3S", "4S"], True),  # a run in spades
        (["9D", "9S"], True),  # a pair with a spade in it
        (["6H", "6D"], True),  # a pair of sixes
        (["7C", "7D"], True),  # a pair of sevens
        (["9D", "9H"], False),
        (["5H", "6H"], False),  # holds a six, but is no pair of sixes
        (["AS", "4H"], False),  # the ace of spades is no spade
        (["AH", "6C"], True),  # a wild pair of sixes
        (["AH", "2S"], True),  # the two of spades is a spade
    ],
)
def test_blocking_six_seven_of_spades_as_in_the_seed(block, ok):
    assert tt.matches(block, ["6S", "7S"], SEED) is ok


@pytest.mark.parametrize(
    "block, ok",
    [
        (["4H", "5H"], True),  # any trick with a heart
        (["3S", "3D"], True),  # a pair of threes
        (["AD", "3C"], True),  # a wild pair of threes
        (["AH", "7C"], False),  # the ace of hearts is no heart
        (["4C", "5C"], False),  # clubs: the ace of clubs in the trick has no suit
        (["AC", "2C"], False),
    ],
)
def test_blocking_a_trick_with_a_wild_ace_matches_only_its_other_card(block, ok):
    assert tt.matches(block, ["AC", "3H"], SEED) is ok


def test_rank_match_knob_card_lets_any_card_of_the_rank_match():
    assert tt.matches(["5H", "6H"], ["6S", "7S"], tt.Config(rank_match="card"))
    assert not tt.matches(["5H", "6H"], ["6S", "7S"], SEED)


def test_block_knob_suit_only_or_rank_only():
    suit_only, rank_only = tt.Config(block="suit"), tt.Config(block="rank")
    assert tt.matches(["3S", "4S"], ["6S", "7S"], suit_only)
    assert not tt.matches(["6H", "6D"], ["6S", "7S"], suit_only)
    assert tt.matches(["6H", "6D"], ["6S", "7S"], rank_only)
    assert not tt.matches(["3S", "4S"], ["6S", "7S"], rank_only)
    assert "pair of sixes or sevens" in tt.block_problem(["3S", "4S"], ["6S", "7S"], rank_only)


def test_a_block_must_itself_be_a_trick():
    assert "pair" in tt.block_problem(["3S", "5S"], ["6S", "7S"], SEED)


# ---------------------------------------------------------------- laying


def test_laying_a_trick_leaves_five_cards_and_ends_the_turn():
    events = []
    state = act(start([P0, P1]), "lay", ["6S", "7S"], events=events)
    assert events == [{"type": "laid", "seat": 0, "cards": ["6S", "7S"], "trick": 1}]
    assert len(state.hands[0]) == 5
    assert state.standing[0] == (("6S", "7S"),)
    assert (state.to_act, state.open) == (1, True)


def test_cards_laid_and_blocked_in_lower_case_are_accepted_and_written_in_upper_case():
    """RULES.md, card notation: accept lower case on input; always write upper case."""
    events = []
    state = act(start([P0, P1]), "lay", ["6s", "7s"], events=events)
    state = act(state, "block", ["3s", "4s"], events=events)
    assert events[0] == {"type": "laid", "seat": 0, "cards": ["6S", "7S"], "trick": 1}
    assert events[1]["cards"] == ["3S", "4S"]
    assert state.standing[1] == (("3S", "4S"),)


def test_facing_a_fresh_trick_you_may_block_pass_or_swap_but_not_lay_your_own():
    state = act(start([P0, P1]), "lay", ["6S", "7S"])
    with pytest.raises(IllegalAction, match="not lay a trick of your own"):
        act(state, "lay", ["6H", "6D"])
    kinds = {a["type"] for a in tt.legal_actions(state, 1)}
    assert kinds == {"block", "pass", "swap"}


def test_an_unblocked_first_trick_lets_you_lay_any_second_trick_then_the_third_is_three_cards():
    state = act(start([P0, P1]), "lay", ["6S", "7S"])
    state = act(state, "pass")
    state = act(state, "lay", ["9D", "9S"])  # need not match the first
    assert len(state.hands[0]) == 3 and len(state.standing[0]) == 2
    assert tt.next_trick_size(state, 0) == 3
    state = act(state, "pass")
    with pytest.raises(IllegalAction, match="needs 3 cards"):
        act(state, "lay", ["AC", "3H"])
    with pytest.raises(IllegalAction, match="three of a kind"):
        act(state, "lay", ["AC", "3H", "KD"])


def test_a_third_trick_wins_at_once():
    hand = ["6S", "7S", "9D", "9S", "AC", "3H", "4H"]
    state = act(start([hand, P1]), "lay", ["6S", "7S"])
    state = act(act(state, "pass"), "lay", ["9D", "9S"])
    events = []
    state = act(act(state, "pass"), "lay", ["AC", "3H", "4H"], events=events)
    assert tt.is_over(state)
    assert events[-1]["type"] == "game_over"
    assert tt.result(state) == {
        "winners": [0],
        "outcome": "three_tricks",
        "draw": False,
        "blocked": [0, 0],
        "standing": [3, 0],
        "turns": 5,
        "complete": True,
    }
    with pytest.raises(IllegalAction, match="over"):
        act(state, "pass", seat=1)
    assert tt.legal_actions(state, 1) == [] and state.to_act is None


def test_the_first_trick_cannot_be_three_cards():
    hand = ["6S", "7S", "8S", "9S", "AC", "3H", "4H"]
    with pytest.raises(IllegalAction, match="needs 2 cards"):
        act(start([hand, P1]), "lay", ["6S", "7S", "8S"])


def test_passing_keeps_your_standing_tricks():
    state = act(start([P0, P1]), "lay", ["6S", "7S"])
    state = act(act(state, "pass"), "swap", ["KD"])
    state = act(state, "pass")
    assert state.standing[0] == (("6S", "7S"),)
    assert tt.next_trick_size(state, 0) == 2


def test_you_cannot_lay_cards_you_do_not_hold_or_act_out_of_turn():
    state = start([P0, P1])
    with pytest.raises(IllegalAction, match="do not hold"):
        act(state, "lay", ["3S", "4S"])
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, "pass", seat=1)
    with pytest.raises(IllegalAction, match="twice"):
        act(state, "lay", ["6S", "6S"])
    with pytest.raises(IllegalAction, match="Unknown action"):
        tt.apply(state, {"type": "draw", "seat": 0})
    with pytest.raises(IllegalAction, match="list"):
        tt.apply(state, {"type": "lay", "seat": 0, "cards": "6S 7S"})
    with pytest.raises(IllegalAction, match="no seat"):
        tt.apply(state, {"type": "pass", "seat": 2})


# ---------------------------------------------------------------- blocking


def test_blocking_a_first_trick_sends_it_to_the_blocked_pile_and_the_player_draws_two():
    events = []
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(state, "block", ["6H", "6D"], events=events)
    assert state.blocked[0] == (("6S", "7S"),)
    assert state.standing == ((), (("6H", "6D"),))
    assert state.hands[0] == ("9D", "9S", "AC", "3H", "KD", "2D", "3D")
    assert state.stock[0] == "4D"
    assert [e["type"] for e in events] == ["blocked", "drew"]
    assert events[1] == {"type": "drew", "seat": 0, "count": 2, "wanted": 2}
    assert (state.to_act, state.open) == (0, True)


def test_the_blockers_trick_counts_as_its_own_laid_trick_and_can_be_blocked_back():
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(state, "block", ["6H", "6D"])
    assert state.standing[1] == (("6H", "6D"),)
    assert tt.next_trick_size(state, 1) == 2
    state = act(state, "block", ["AC", "3H"])  # the three of hearts matches the six of hearts
    assert state.blocked[1] == (("6H", "6D"),)
    assert state.standing == ((("AC", "3H"),), ())
    assert len(state.hands[1]) == 7


def test_blocking_a_second_trick_sends_both_to_the_pile_and_the_player_draws_four():
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(act(state, "pass"), "lay", ["9D", "9S"])
    events = []
    state = act(state, "block", ["3S", "4S"], events=events)  # spades match 9S
    assert state.blocked[0] == (("6S", "7S"), ("9D", "9S"))
    assert len(state.hands[0]) == 7
    assert events[-1]["count"] == 4
    assert tt.result(state)["blocked"] == [2, 0]


def test_blocking_a_second_trick_ends_the_blocked_players_turn():
    """The seed: the blocked player draws four cards 'and this will end their turn of
    play'. It used to be their turn next, free to block the blocker's trick back."""
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(act(state, "pass"), "lay", ["9D", "9S"])
    state = act(state, "block", ["3S", "4S"])
    assert (state.to_act, state.open) == (1, False)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, "block", ["AC", "3H"], seat=0)
    state = act(state, "lay", ["6H", "6D"])  # the blocker's trick stood: this is its second
    assert state.standing[1] == (("3S", "4S"), ("6H", "6D")) and state.to_act == 0


def test_blocking_a_first_trick_leaves_the_blocked_player_their_turn():
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(state, "block", ["6H", "6D"])
    assert (state.to_act, state.open) == (0, True)


def test_a_non_matching_block_is_refused_with_the_rule():
    hand1 = ["3S", "4S", "6H", "6D", "2C", "3C", "QC"]
    state = act(start([P0, hand1]), "lay", ["6S", "7S"])
    with pytest.raises(IllegalAction, match="must contain a spade or be a pair of sixes or sevens"):
        act(state, "block", ["2C", "3C"])


def test_only_the_trick_laid_on_the_last_turn_can_be_blocked():
    state = act(start([P0, P1]), "lay", ["6S", "7S"])
    state = act(state, "swap", ["QC"])  # seat 1 lets it stand
    state = act(state, "pass")
    with pytest.raises(IllegalAction, match="no fresh trick"):
        act(state, "block", ["3S", "4S"])


def test_a_block_of_a_second_trick_must_match_the_second_trick_not_the_first():
    state = act(start([P0, P1]), "lay", ["6S", "7S"])
    state = act(state, "pass")  # seat 1 lets 6♠7♠ stand
    state = act(state, "lay", ["KD", "AC"])  # a wild pair of kings or a diamond run
    # 3♠4♠ matches the first trick (a spade) but not the second; 6♥6♦ has a diamond.
    blocks = [a["cards"] for a in tt.legal_actions(state, 1) if a["type"] == "block"]
    assert blocks == [["6H", "6D"]]
    with pytest.raises(IllegalAction, match="diamond or be a pair of kings"):
        act(state, "block", ["3S", "4S"])
    state = act(state, "block", ["6H", "6D"])
    assert state.blocked[0] == (("6S", "7S"), ("KD", "AC"))


def test_with_two_tricks_standing_you_cannot_block():
    hand1 = ["3S", "4S", "6H", "6D", "2C", "3C", "QS"]
    state = act(start([P0, hand1]), "swap", ["KD"])
    state = act(state, "lay", ["3S", "4S"])  # seat 1's first trick
    state = act(state, "pass")
    state = act(state, "lay", ["2C", "3C"])  # and second
    state = act(state, "pass")
    state = act(state, "swap", ["QS"])
    state = act(state, "lay", ["6S", "7S"])  # seat 0 lays; seat 1 would block with 6H 6D
    assert state.to_act == 1 and state.open
    assert not tt.can_block(state, 1)
    with pytest.raises(IllegalAction, match="three-card one"):
        act(state, "block", ["6H", "6D"])
    assert {a["type"] for a in tt.legal_actions(state, 1)} == {"pass", "swap"}


# ---------------------------------------------------------------- pass and swap


def test_swap_puts_cards_on_the_secondary_stockpile_and_draws_as_many():
    events = []
    state = act(start([P0, P1], STOCK), "swap", ["3H", "KD", "AC"], events=events)
    assert state.secondary == ("3H", "KD", "AC")
    assert state.hands[0] == ("6S", "7S", "9D", "9S", "2D", "3D", "4D")
    assert state.stock[0] == "5D"
    assert events == [
        {"type": "swapped", "seat": 0, "count": 3},
        {"type": "drew", "seat": 0, "count": 3, "wanted": 3},
    ]
    assert state.to_act == 1


def test_swap_limits():
    state = start([P0, P1])
    with pytest.raises(IllegalAction, match="at most 3"):
        act(state, "swap", ["3H", "KD", "AC", "9D"])
    with pytest.raises(IllegalAction, match="at least one"):
        act(state, "swap", [])
    with pytest.raises(IllegalAction, match="at most 1 card"):
        act(start([P0, P1], max_swap=1), "swap", ["3H", "KD"])
    assert {a["type"] for a in tt.legal_actions(start([P0, P1], max_swap=0), 0)} == {"lay", "pass"}


def test_swapping_or_passing_while_facing_a_trick_lets_it_stand():
    state = act(start([P0, P1]), "lay", ["6S", "7S"])
    state = act(state, "swap", ["QC"])
    assert state.standing[0] == (("6S", "7S"),) and not state.open


# ---------------------------------------------------------------- stockpiles and the end


def low_stock(state, stock, secondary=()):
    """The same game with the stockpiles cut down (scenario set-up, not a reachable deal)."""
    return replace(state, stock=tuple(stock), secondary=tuple(secondary))


def test_an_empty_stockpile_is_replaced_at_once_by_the_shuffled_secondary():
    state = start([P0, P1], STOCK, reshuffles=[["QS", "JS", "10S", "KD", "3H", "2S", "8S", "5S"]])
    state = low_stock(state, ["2D"], ["QS", "JS", "10S", "2S", "8S", "5S"])
    events = []
    state = act(state, "swap", ["KD", "3H"], events=events)
    # One card from the stockpile; it is then empty, so the secondary pile (now
    # with the two swapped cards) is shuffled into a new stockpile and drawing goes on.
    assert state.hands[0][-2:] == ("2D", "QS")
    assert state.stock == ("JS", "10S", "KD", "3H", "2S", "8S", "5S")
    assert state.secondary == () and state.reshuffles == 1
    assert [e["type"] for e in events] == ["swapped", "stock_reshuffled", "drew"]
    assert not tt.is_over(state)


def test_seeded_reshuffle_when_no_explicit_order_is_left():
    state = low_stock(start([P0, P1]), ["2D"], ["QS", "JS", "10S", "2S", "8S", "5S"])
    state = act(state, "swap", ["KD"])
    assert sorted(state.stock) == sorted(["QS", "JS", "10S", "2S", "8S", "5S", "KD"])
    again = act(
        low_stock(start([P0, P1]), ["2D"], ["QS", "JS", "10S", "2S", "8S", "5S"]), "swap", ["KD"]
    )
    assert again.stock == state.stock


def test_a_wrong_explicit_reshuffle_is_refused():
    state = low_stock(start([P0, P1], reshuffles=[["QS"]]), ["2D"], ["QS", "JS"])
    with pytest.raises(IllegalAction, match="reshuffles"):
        act(state, "swap", ["KD"])


def test_drawing_stops_at_five_cards_with_no_secondary_and_the_game_ends_by_the_count():
    state = act(start([P0, P1]), "lay", ["6S", "7S"])
    state = low_stock(state, ["2D", "3D", "4D", "5D", "7D", "8D"])
    events = []
    state = act(state, "block", ["6H", "6D"], events=events)
    # Seat 0 wanted two cards but the stockpile went down to five after one.
    assert len(state.hands[0]) == 6
    assert len(state.stock) == 5
    assert [e["type"] for e in events] == ["blocked", "drew", "drawing_stopped", "game_over"]
    assert events[1] == {"type": "drew", "seat": 0, "count": 1, "wanted": 2}
    assert tt.result(state)["outcome"] == "drawing_stopped"
    assert tt.result(state)["winners"] == [0]  # the seed: most blocked tricks wins
    assert tt.result(state)["standing"] == [0, 1]  # standing tricks are not counted


def test_with_a_secondary_stockpile_drawing_goes_on_below_five():
    state = low_stock(start([P0, P1]), ["2D", "3D", "4D"], ["QS"])
    state = act(state, "swap", ["KD"])
    assert state.stock == ("3D", "4D") and state.secondary == ("QS", "KD")
    assert not tt.is_over(state)


def test_count_knob_fewest_blocked_tricks_wins():
    state = act(start([P0, P1], count="fewest"), "lay", ["6S", "7S"])
    state = low_stock(state, ["2D", "3D", "4D", "5D", "7D", "8D"])
    state = act(state, "block", ["6H", "6D"])
    assert tt.result(state)["winners"] == [1]


def test_level_piles_when_drawing_stops_are_a_draw():
    # Five cards left and no secondary stockpile: the first move ends the game, 0-0.
    state = act(low_stock(start([P0, P1]), ["2D", "3D", "4D", "5D", "7D"]), "pass")
    assert tt.is_over(state)
    out = tt.result(state)
    assert out["outcome"] == "drawing_stopped" and out["blocked"] == [0, 0]
    assert out["winners"] == [0, 1] and out["draw"] is True
    assert state.winners == (0, 1)


def test_level_piles_after_two_passes_win_nobody():
    """Two players who only pass would otherwise each be credited a game won per deal."""
    events = []
    state = act(act(start([P0, P1]), "pass"), "pass", events=events)
    assert tt.is_over(state)
    out = tt.result(state)
    assert out["outcome"] == "both_passed" and out["blocked"] == [0, 0]
    assert out["winners"] == [] and out["draw"] is False and out["complete"] is True
    assert state.winners == () and tt.view(state, 0)["winners"] == []
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == []


def test_level_piles_after_two_passes_with_blocked_tricks_win_nobody():
    # A block, blocked back: one trick in each pile, then both pass. 1-1 is nobody's game.
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(state, "block", ["6H", "6D"])
    state = act(state, "block", ["2D", "3D"])  # seat 0 drew 2D 3D: diamonds block 6D
    state = act(state, "pass")  # seat 1, facing the fresh block: not counted
    state = act(state, "pass")
    state = act(state, "pass")
    out = tt.result(state)
    assert out["outcome"] == "both_passed" and out["blocked"] == [1, 1]
    assert out["winners"] == [] and out["draw"] is False


def test_unequal_piles_after_two_passes_are_decided_by_the_count():
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(state, "block", ["6H", "6D"])
    state = act(state, "pass")  # facing the fresh block: lets it stand, not counted
    state = act(state, "pass")
    state = act(state, "pass")
    out = tt.result(state)
    assert out["outcome"] == "both_passed" and out["blocked"] == [1, 0]
    assert out["winners"] == [0] and out["draw"] is False
    fewest = act(start([P0, P1], STOCK, count="fewest"), "lay", ["6S", "7S"])
    fewest = act(act(act(act(fewest, "block", ["6H", "6D"]), "pass"), "pass"), "pass")
    assert tt.result(fewest)["outcome"] == "both_passed" and tt.result(fewest)["winners"] == [1]


def test_two_passes_in_a_row_end_the_game_but_a_pass_then_a_move_does_not():
    state = act(start([P0, P1]), "pass")
    state = act(state, "swap", ["QC"])
    state = act(state, "pass")
    assert not tt.is_over(state) and state.passes == 1
    state = act(state, "pass")
    assert tt.is_over(state) and state.outcome == "both_passed"


def test_a_pass_facing_a_fresh_trick_does_not_count_towards_two_passes():
    """With two tricks standing, facing a fresh trick, a player may only pass or swap; the
    opponent's pass then ended the game as a draw while the third trick was in hand."""
    hand1 = ["2C", "3C", "8H", "8C", "JS", "QS", "KS"]
    state = act(start([P0, hand1], STOCK), "pass")
    state = act(state, "lay", ["2C", "3C"])
    state = act(state, "pass")  # seat 0 faces it: lets it stand
    state = act(state, "lay", ["8H", "8C"])
    state = act(state, "pass")
    state = act(state, "pass")  # seat 1, nothing facing it
    state = act(state, "lay", ["6S", "7S"])
    assert tt.legal_actions(state, 1) and not tt.can_block(state, 1)
    state = act(state, "pass")  # facing the fresh trick: not counted
    state = act(state, "pass")
    assert not tt.is_over(state) and state.passes == 1
    state = act(state, "lay", ["JS", "QS", "KS"])
    assert tt.is_over(state) and state.outcome == "three_tricks" and state.winners == (1,)


def test_result_of_an_unfinished_game_is_the_count_so_far():
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    assert tt.result(state)["winners"] == [] and tt.result(state)["complete"] is False
    state = act(state, "block", ["6H", "6D"])
    assert tt.result(state)["winners"] == [0]


# ---------------------------------------------------------------- views


def test_view_hides_the_opponents_hand_the_stockpiles_and_the_blocked_piles():
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(act(state, "block", ["6H", "6D"]), "swap", ["KD"])
    for seat in (0, 1):
        v = tt.view(state, seat)
        text = json.dumps(v)
        hidden = list(state.hands[1 - seat]) + list(state.stock) + list(state.secondary)
        hidden += [c for t in state.blocked[0] for c in t]
        for card in hidden:
            assert f'"{card}"' not in text, card
        assert v["blocked_counts"] == [1, 0]
        assert v["secondary_count"] == 1
        assert "config" not in v and "aces" not in text


def test_view_names_the_trick_to_block_and_the_cards_that_can_block_it():
    state = act(start([P0, P1]), "lay", ["6S", "7S"])
    v = tt.view(state, 1)
    assert v["target"] == ["6S", "7S"]
    assert set(v["blockers"]) == {"3S", "4S", "6H", "6D"}
    assert v["actions"] == tt.legal_actions(state, 1)
    assert tt.view(state, 0)["target"] is None
    assert tt.view(state, 0)["last"] == {"type": "lay", "seat": 0, "cards": ["6S", "7S"]}
    assert tt.view(start([P0, P1]), 0)["trick_cards"] == ["6S", "7S", "9D", "9S", "AC", "3H", "KD"]


def test_view_names_the_cards_a_seat_just_drew_to_that_seat_only():
    # A swap: the swapper's view names the cards drawn; the other's has the count.
    state = act(start([P0, P1], STOCK), "swap", ["3H", "KD"])
    assert tt.view(state, 0)["drawn"] == ["2D", "3D"]
    assert tt.view(state, 0)["drew"] == {"seat": 0, "count": 2, "reshuffled": False}
    assert tt.view(state, 1)["drawn"] == []
    assert tt.view(state, 1)["drew"] == {"seat": 0, "count": 2, "reshuffled": False}
    # Blocked: the blocked seat draws two back, and only it sees which.
    state = act(act(start([P0, P1], STOCK), "lay", ["6S", "7S"]), "block", ["6H", "6D"])
    assert tt.view(state, 0)["drawn"] == ["2D", "3D"]
    assert tt.view(state, 1)["drawn"] == []
    assert tt.spectator_view(state)["drew"] == {"seat": 0, "count": 2, "reshuffled": False}
    # The next move that draws nothing clears it.
    state = act(state, "pass")
    assert tt.view(state, 0)["drawn"] == [] and tt.view(state, 0)["drew"] is None
    assert tt.view(act(start([P0, P1], STOCK), "lay", ["6S", "7S"]), 0)["drew"] is None


def test_view_says_when_the_secondary_stockpile_became_the_stockpile():
    state = start([P0, P1], STOCK, reshuffles=[["QS", "JS", "10S", "KD", "3H", "2S", "8S", "5S"]])
    state = low_stock(state, ["2D"], ["QS", "JS", "10S", "2S", "8S", "5S"])
    state = act(state, "swap", ["KD", "3H"])
    assert tt.view(state, 0)["drew"] == {"seat": 0, "count": 2, "reshuffled": True}
    assert tt.view(state, 0)["drawn"] == ["2D", "QS"]
    assert tt.view(state, 1)["drew"]["reshuffled"] is True


def test_a_second_tricks_block_keeps_what_the_blocked_seat_drew_for_the_blockers_next_turn():
    state = act(start([P0, P1], STOCK), "lay", ["6S", "7S"])
    state = act(act(state, "pass"), "lay", ["9D", "9S"])
    state = act(state, "block", ["3S", "4S"])
    assert state.to_act == 1  # the blocker plays again
    assert tt.view(state, 0)["drawn"] == ["2D", "3D", "4D", "5D"]
    assert tt.view(state, 1)["drew"]["count"] == 4


def test_spectator_view_shows_hands_and_piles_but_not_the_stock_order():
    state = act(act(start([P0, P1], STOCK), "lay", ["6S", "7S"]), "block", ["6H", "6D"])
    sv = tt.spectator_view(state)
    assert sv["blocked_tricks"] == [[["6S", "7S"]], []]
    assert sv["blocked"] == [1, 0] and sv["standing_tricks"] == [[], [["6H", "6D"]]]
    assert sorted(sv["hands"][1]) == sorted(["3S", "4S", "2C", "8H", "QC"])
    text = json.dumps(sv)
    for card in state.stock:
        assert f'"{card}"' not in text
