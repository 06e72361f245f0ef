"""Scenario tests for games.all_fives from explicit decks: every rule and decision."""

import json
from dataclasses import replace

import pytest

from games import all_fives as af
from games.cards import full_deck
from games.errors import IllegalAction

SUIT = af.Sheet()  # ace high, highest wins, follow suit: the seed's sheet
FREE = af.Sheet(follow="any")


def stack(dealer, hands, turn_up, then=(), n=None):
    """A deck that deals ``hands`` (six each, per seat) and turns up ``turn_up``.

    ``then`` follows the turn-up (the cards a run of the cards deals); the rest
    of the deck comes after in the fixed order.
    """
    n = n or len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    deck = []
    for batch in range(2):
        for seat in order:
            deck += hands[seat][3 * batch : 3 * batch + 3]
    deck += [turn_up, *then]
    deck += [c for c in full_deck() if c not in deck]
    assert len(deck) == 52 and len(set(deck)) == 52
    return deck


def game(hands, turn_up, *, dealer=0, then=(), more=(), seats=None, table=SUIT, **knobs):
    n = len(hands)
    cfg = af.Config(table_rules=table, seat_rules=tuple(seats or (table,) * n), **knobs)
    return af.new_game(cfg, dealer=dealer, decks=[stack(dealer, hands, turn_up, then), *more])


def act(state, kind, seat=None, events=None, **extra):
    action = {"type": kind, "seat": state.to_act if seat is None else seat, **extra}
    state, evs = af.apply(state, action)
    if events is not None:
        events.extend(evs)
    return state


def play(state, *cards, events=None):
    for card in cards:
        state = act(state, "play", card=card, events=events)
    return state


def types(events):
    return [e["type"] for e in events]


# Two players, dealer 0, eldest 1, spades turned up. Seat 1 takes A+5 of trumps
# (9 points) and K+10 (13 points); seat 0 takes the hearts, which score nothing.
ELDEST = ["AS", "KS", "2H", "3H", "4H", "5H"]
DEALER = ["5S", "10S", "6H", "7H", "8H", "9H"]
HANDS = [DEALER, ELDEST]
WHOLE_HAND = ["AS", "5S", "KS", "10S", "2H", "6H", "7H", "3H", "8H", "4H", "9H", "5H"]


# ---------------------------------------------------------------- cut and deal


def test_cut_is_seeded_and_highest_card_deals():
    for seed in range(30):
        dealer, rounds = af.cut_for_deal(3, seed)
        assert (dealer, rounds) == af.cut_for_deal(3, seed)
        last = rounds[-1]
        best = max(af._CUT_ORDER[c[:-1]] for _, c in last)
        assert [s for s, c in last if af._CUT_ORDER[c[:-1]] == best] == [dealer]
        assert af.new_game(af.Config.uniform(SUIT, 3), seed=seed).dealer == dealer


def test_cut_ties_cut_again_between_the_tied_seats_only():
    seed = next(s for s in range(1000) if len(af.cut_for_deal(3, s)[1]) > 1)
    dealer, rounds = af.cut_for_deal(3, seed)
    first = rounds[0]
    best = max(af._CUT_ORDER[c[:-1]] for _, c in first)
    tied = [s for s, c in first if af._CUT_ORDER[c[:-1]] == best]
    assert len(tied) > 1
    assert [s for s, _ in rounds[1]] == tied
    assert dealer in tied


def test_deal_six_each_in_two_batches_of_three_from_dealers_left_then_turn_up():
    deck = [c for c in full_deck()]
    cfg = af.Config.uniform(SUIT, 3)
    state = af.new_game(cfg, dealer=1, decks=[deck])
    # Dealer 1: seat 2 (eldest), seat 0, seat 1 (dealer), three cards at a time, twice.
    assert state.hands[2] == tuple(deck[0:3] + deck[9:12])
    assert state.hands[0] == tuple(deck[3:6] + deck[12:15])
    assert state.hands[1] == tuple(deck[6:9] + deck[15:18])
    assert state.turn_up == deck[18]
    assert state.trump == deck[18][-1]
    assert state.stock == tuple(deck[19:])
    assert (state.phase, state.to_act, state.eldest) == ("beg", 2, 2)


def test_two_players_leave_thirty_nine_cards_in_the_stock():
    state = game(HANDS, "2S")
    assert [len(h) for h in state.hands] == [6, 6]
    assert len(state.stock) == 39
    assert state.hands[1] == tuple(ELDEST) and state.hands[0] == tuple(DEALER)


def test_seeded_games_deal_from_the_seed():
    cfg = af.Config.uniform(SUIT, 2)
    a, b = af.new_game(cfg, seed=5), af.new_game(cfg, seed=5)
    assert a == b
    assert a.hands != af.new_game(cfg, seed=6).hands
    deck = af.seeded_deck(5, 0)
    assert a.turn_up == deck[12]


def test_new_game_needs_a_seed_or_an_explicit_dealer_and_deck():
    cfg = af.Config.uniform(SUIT, 2)
    with pytest.raises(ValueError):
        af.new_game(cfg)
    with pytest.raises(ValueError):
        af.new_game(cfg, dealer=0)
    with pytest.raises(ValueError, match="twice"):
        af.new_game(cfg, dealer=0, decks=[["AS"] * 52])
    with pytest.raises(ValueError, match="52"):
        af.new_game(cfg, dealer=0, decks=[full_deck()[:51]])
    with pytest.raises(ValueError, match="dealer"):
        af.new_game(cfg, dealer=2, decks=[full_deck()])


# ---------------------------------------------------------------- stand, beg, take one, run


def test_stand_starts_play_with_eldest_leading_and_the_turned_suit_trump():
    events = []
    state = act(game(HANDS, "2S"), "stand", events=events)
    assert types(events) == ["stood"]
    assert (state.phase, state.to_act, state.trump) == ("play", 1, "S")


def test_only_eldest_stands_or_begs():
    state = game(HANDS, "2S")
    with pytest.raises(IllegalAction, match="seat 1"):
        act(state, "stand", seat=0)
    with pytest.raises(IllegalAction, match="seat 1"):
        act(state, "beg", seat=0)


def test_take_one_gives_eldest_a_point_and_keeps_the_trump():
    state = act(game(HANDS, "2S"), "beg")
    assert (state.phase, state.to_act) == ("dealer", 0)
    with pytest.raises(IllegalAction, match="dealer"):
        act(state, "take_one", seat=1)
    events = []
    state = act(state, "take_one", events=events)
    assert events[0]["scorer"] == 1
    assert state.scores == (0, 1)
    assert (state.trump, state.phase, state.to_act) == ("S", "play", 1)


def test_begging_happens_at_most_once_per_hand():
    state = act(act(game(HANDS, "2S"), "beg"), "take_one")
    with pytest.raises(IllegalAction, match="right after the deal"):
        act(state, "beg", seat=1)
    with pytest.raises(IllegalAction):
        act(state, "run", seat=0)


def test_running_the_cards_deals_three_more_each_and_turns_up_a_new_trump():
    then = ["2D", "3D", "4D", "6D", "7D", "8D", "JH"]
    state = act(act(game(HANDS, "2S", then=then), "beg"), "run")
    assert state.hands[1] == tuple(ELDEST + ["2D", "3D", "4D"])
    assert state.hands[0] == tuple(DEALER + ["6D", "7D", "8D"])
    assert (state.turn_up, state.trump, state.set_aside) == ("JH", "H", ("2S",))
    assert (state.runs, state.phase, state.to_act) == (1, "play", 1)
    assert state.scores == (0, 0)


def test_running_repeats_while_the_turn_up_is_the_old_trump():
    then = ["2D", "3D", "4D", "6D", "7D", "8D", "3S"]  # spades again: run on
    then += ["2C", "3C", "4C", "6C", "7C", "8C", "JD"]
    events = []
    state = act(act(game(HANDS, "2S", then=then), "beg"), "run", events=events)
    assert types(events) == ["cards_run", "cards_run", "trump_changed"]
    assert [len(h) for h in state.hands] == [12, 12]
    assert (state.runs, state.trump, state.set_aside) == (2, "D", ("2S", "3S"))


def _filler(exclude, count):
    return [c for c in full_deck() if c[-1] != "S" and c not in exclude][:count]


def test_when_the_cards_run_out_the_deck_is_reshuffled_and_redealt_by_the_same_dealer():
    # Five runs (7 cards each) all turn up spades; the four cards left cannot make
    # another run, so the next deck is dealt afresh.
    spades = ["3S", "4S", "6S", "7S", "8S"]
    filler = _filler(ELDEST + DEALER, 30)
    then = []
    for i, spade in enumerate(spades):
        then += filler[6 * i : 6 * i + 6] + [spade]
    second_hands = [["2C", "3C", "4C", "5C", "6C", "7C"], ["2D", "3D", "4D", "5D", "6D", "7D"]]
    second = stack(0, second_hands, "QH")
    events = []
    state = game(HANDS, "2S", then=then, more=[second])
    state = act(act(state, "beg"), "run", events=events)
    assert types(events) == ["cards_run"] * 5 + ["redealt", "trump_changed"]
    assert state.dealer == 0
    assert state.hands == (tuple(second_hands[0]), tuple(second_hands[1]))
    assert (state.redeals, state.runs) == (1, 0)
    assert (state.trump, state.turn_up, state.set_aside) == ("H", "QH", ())
    assert len(state.stock) == 39
    assert state.decks_used == 2


def test_a_redeal_turning_up_the_old_trump_keeps_running_from_the_new_deck():
    spades = ["3S", "4S", "6S", "7S", "8S"]
    filler = _filler(ELDEST + DEALER, 30)
    then = []
    for i, spade in enumerate(spades):
        then += filler[6 * i : 6 * i + 6] + [spade]
    second_hands = [["2C", "3C", "4C", "5C", "6C", "7C"], ["2D", "3D", "4D", "5D", "6D", "7D"]]
    second = stack(0, second_hands, "KS", then=["8C", "9C", "10C", "8D", "9D", "10D", "QH"])
    state = game(HANDS, "2S", then=then, more=[second])
    state = act(act(state, "beg"), "run")
    assert (state.redeals, state.runs, state.trump) == (1, 1, "H")
    assert state.hands[1] == ("2D", "3D", "4D", "5D", "6D", "7D", "8C", "9C", "10C")
    assert state.set_aside == ("KS",)


def test_decks_beyond_the_explicit_ones_come_from_the_seed():
    cfg = af.Config.uniform(SUIT, 2)
    state = af.new_game(cfg, seed=9, dealer=0, decks=[stack(0, HANDS, "2S")])
    state = play(act(state, "stand"), *WHOLE_HAND)
    assert state.hand_no == 2
    deck = af.seeded_deck(9, 1)
    assert state.turn_up == deck[12]


# ---------------------------------------------------------------- play


def test_follow_suit_if_able_else_any_card():
    state = act(game(HANDS, "2S"), "stand")
    state = play(state, "2H")  # seat 1 leads a heart
    with pytest.raises(IllegalAction, match="must follow suit"):
        play(state, "5S")
    assert [a["card"] for a in af.legal_actions(state, 0)] == ["6H", "7H", "8H", "9H"]


def test_void_in_the_led_suit_any_card_may_be_played():
    hands = [["5S", "10S", "6D", "7D", "8D", "9D"], ELDEST]
    state = play(act(game(hands, "2S"), "stand"), "2H")
    assert {a["card"] for a in af.legal_actions(state, 0)} == set(hands[0])
    state = play(state, "6D")
    assert state.tricks[-1].winner == 1  # an off-suit card never wins


def test_highest_trump_wins_else_highest_of_the_led_suit_and_the_winner_leads():
    hands = [["5S", "10S", "6D", "7D", "8D", "9D"], ["AS", "KS", "2D", "3H", "4H", "5H"]]
    state = act(game(hands, "2S"), "stand")
    state = play(state, "2D", "9D")
    assert state.tricks[-1].winner == 0 and state.to_act == 0
    state = play(state, "6D")  # seat 1 holds no diamond now
    state = play(state, "3H")
    assert state.tricks[-1].winner == 0
    state = play(state, "7D", "KS")  # seat 1 trumps
    assert state.tricks[-1].winner == 1 and state.to_act == 1


def test_not_your_turn_and_unknown_cards_are_refused():
    state = act(game(HANDS, "2S"), "stand")
    with pytest.raises(IllegalAction, match="not your turn"):
        af.apply(state, {"type": "play", "seat": 0, "card": "5S"})
    with pytest.raises(IllegalAction, match="not a card"):
        af.apply(state, {"type": "play", "seat": 1, "card": "ZZ"})
    with pytest.raises(IllegalAction, match="do not hold"):
        af.apply(state, {"type": "play", "seat": 1, "card": "QD"})
    with pytest.raises(IllegalAction, match="trump is settled"):
        af.apply(game(HANDS, "2S"), {"type": "play", "seat": 1, "card": "AS"})
    with pytest.raises(IllegalAction, match="Unknown action"):
        af.apply(state, {"type": "shuffle"})
    with pytest.raises(IllegalAction):
        af.apply(state, "stand")
    with pytest.raises(IllegalAction, match="no seat"):
        af.apply(state, {"type": "play", "seat": 5, "card": "AS"})


def test_suit_or_trump_sheet_may_trump_while_holding_the_led_suit():
    sheet = af.Sheet(follow="suit_or_trump")
    state = play(act(game(HANDS, "2S", table=sheet), "stand"), "2H")
    assert [a["card"] for a in af.legal_actions(state, 0)] == DEALER
    hands = [["5S", "10S", "6H", "7H", "8H", "2D"], ELDEST]
    s2 = play(act(game(hands, "2S", table=sheet), "stand"), "2H")
    with pytest.raises(IllegalAction, match="heart or a spade"):
        play(s2, "2D")


@pytest.mark.parametrize(
    "sheet, winner",
    [
        (af.Sheet(), 0),  # 9H beats 2H
        (af.Sheet(wins="lowest"), 1),  # the lowest card of the led suit wins
    ],
)
def test_the_tables_card_order_decides_tricks(sheet, winner):
    state = play(act(game(HANDS, "2S", table=sheet), "stand"), "2H", "9H")
    assert state.tricks[-1].winner == winner


def test_ace_low_sheet_ranks_the_ace_below_the_two():
    hands = [["2S", "10S", "6H", "7H", "8H", "9H"], ELDEST]
    state = play(act(game(hands, "3S", table=af.Sheet(ace="low")), "stand"), "AS", "2S")
    assert state.tricks[-1].winner == 0


# ---------------------------------------------------------------- scoring


def test_trump_points_in_won_tricks():
    tricks = [
        af.Trick(0, ((0, "AS"), (1, "5S")), 0, (0, 0), ()),
        af.Trick(0, ((0, "KS"), (1, "QS")), 1, (1, 1), ()),
        af.Trick(1, ((1, "JS"), (0, "10S")), 0, (0, 0), ()),
        af.Trick(0, ((0, "AH"), (1, "5H")), 0, (0, 0), ()),  # not trump: nothing
        af.Trick(0, ((0, "9S"), (1, "2S")), 1, (1, 1), ()),  # trumps without points
    ]
    assert af.hand_points(tricks, "S", 2) == [4 + 5 + 1 + 10, 3 + 2]
    assert sum(af.POINTS.values()) == 25


def test_a_hand_is_scored_after_its_last_trick_and_the_next_dealer_deals():
    events = []
    state = act(game(HANDS, "2S"), "stand")
    state = play(state, *WHOLE_HAND, events=events)
    assert types(events)[-3:] == ["trick_won", "hand_scored", "hand_dealt"]
    assert events[-2]["points"] == [0, 22]
    assert state.scores == (0, 22)
    assert (state.hand_no, state.dealer, state.phase, state.to_act) == (2, 1, "beg", 0)
    assert state.history[0].points == (0, 22)
    assert state.tricks == () and state.calls == ()


def test_no_call_window_after_a_hands_last_trick():
    # Each player's last card is their only card, so it can never be a revoke:
    # the hand is scored at once and the next hand's calls start afresh.
    state = play(act(game(HANDS, "2S", seats=(SUIT, FREE)), "stand"), *WHOLE_HAND)
    assert state.hand_no == 2 and not state.calls_open
    with pytest.raises(IllegalAction, match="before the next lead"):
        act(state, "call_revoke", seat=1, accused=0)


def test_take_one_point_counts_in_the_score():
    state = act(act(game(HANDS, "2S", mode="referee"), "beg"), "take_one")
    state = play(state, *WHOLE_HAND)
    assert state.scores == (0, 23)
    assert state.history[0].took_one


def test_a_card_played_in_lower_case_is_accepted_and_written_in_upper_case():
    """RULES.md, card notation: accept lower case on input; always write upper case."""
    events = []
    state = play(act(game(HANDS, "2S"), "stand"), "as", "5s", "ks", "10s", events=events)
    assert [e["card"] for e in events if e["type"] == "card_played"] == ["AS", "5S", "KS", "10S"]
    assert [t.cards for t in state.tricks] == [((1, "AS"), (0, "5S")), ((1, "KS"), (0, "10S"))]


# ---------------------------------------------------------------- winning


def test_first_to_the_target_at_the_end_of_a_hand_wins():
    events = []
    state = play(act(game(HANDS, "2S", target=20), "stand"), *WHOLE_HAND, events=events)
    assert af.is_over(state)
    assert af.result(state) == {
        "winners": [1],
        "scores": [0, 22],
        "hands_played": 1,
        "complete": True,
    }
    assert events[-1]["type"] == "game_over"
    with pytest.raises(IllegalAction, match="over"):
        af.apply(state, {"type": "stand", "seat": 0})
    assert af.legal_actions(state, 0) == [] and state.to_act is None


@pytest.mark.parametrize("before, over", [(39, True), (38, False)])
def test_the_game_is_to_61_points_unless_a_table_sets_another_target(before, over):
    """RULES.md: first to 61 at the end of a hand. Seat 1 scores 22 in this hand, so
    from 39 it ends on 61 and wins; from 38 it ends on 60 and another hand is dealt."""
    assert af.Config().target == 61
    state = replace(act(game(HANDS, "2S"), "stand"), scores=(0, before))
    state = play(state, *WHOLE_HAND)
    assert state.scores == (0, before + 22)
    assert af.is_over(state) is over
    assert af.result(state)["complete"] is over
    assert state.hand_no == (1 if over else 2)


def test_the_target_is_only_checked_at_the_end_of_a_hand():
    state = act(act(game(HANDS, "2S", target=1), "beg"), "take_one")
    assert state.scores == (0, 1) and not af.is_over(state)


# Seat 1 takes A+J of trumps (5), seat 0 trumps a diamond with the 5 (5).
TIE_HANDS = [["JS", "5S", "8C", "9C", "10C", "QC"], ["AS", "2D", "3D", "4D", "6D", "7D"]]
TIE_PLAY = ["AS", "JS", "2D", "5S", "8C", "3D", "9C", "4D", "10C", "6D", "QC", "7D"]


def test_an_exact_tie_at_the_target_plays_another_hand():
    state = play(act(game(TIE_HANDS, "2S", target=5, mode="referee"), "stand"), *TIE_PLAY)
    assert state.scores == (5, 5)
    assert not af.is_over(state) and state.hand_no == 2


@pytest.mark.parametrize(
    "scores, barred, target, winners",
    [
        ([61, 40], [False, False], 61, [0]),
        ([60, 40], [False, False], 61, []),
        ([70, 65, 10], [False, False, False], 61, [0]),  # several reach it: the highest
        ([65, 65, 10], [False, False, False], 61, []),  # exact tie: another hand
        ([65, 66, 70], [False, False, False], 61, [2]),
        ([70, 62], [True, False], 61, [1]),  # the barred revoker cannot win
        ([70, 50], [True, False], 61, []),
        ([66, 66, 62], [False, True, False], 61, [0]),  # the barred tie does not count
    ],
)
def test_game_winners(scores, barred, target, winners):
    assert af.game_winners(scores, barred, target) == winners


# ---------------------------------------------------------------- revokes (Barnga mode)

# Seat 1's sheet has no duty to follow; the table's says follow suit.
REVOKE_HANDS = [["5S", "7H", "8H", "9H", "10H", "JH"], ["AS", "2H", "3H", "4H", "5H", "6H"]]


def revoke_game(**knobs):
    return act(game(REVOKE_HANDS, "2S", seats=(SUIT, FREE), **knobs), "stand")


def test_a_play_legal_on_the_own_sheet_but_not_the_tables_is_accepted_and_recorded():
    events = []
    state = play(revoke_game(), "2H", "7H", "8H", events=events)
    state = play(state, "AS", events=events)  # holds hearts, trumps: a revoke at this table
    assert events[-2]["legal_for_table"] is False
    assert state.tricks[-1].revokes == (1,)
    assert state.tricks[0].revokes == ()
    assert state.tricks[-1].winner == 1


def test_the_engine_refuses_plays_illegal_under_the_acting_seats_sheet():
    state = play(revoke_game(), "2H")
    with pytest.raises(IllegalAction, match="must follow suit"):
        play(state, "5S")  # seat 0's own sheet says follow suit


def test_an_upheld_call_costs_the_revoker_three_points_and_bars_them():
    events = []
    state = play(revoke_game(), "2H", "7H", "8H", "AS")
    assert state.calls_open and state.to_act == 1
    state = act(state, "call_revoke", seat=0, accused=1, events=events)
    assert events == [
        {
            "type": "revoke_called",
            "seat": 0,
            "accused": 1,
            "trick": 1,
            "card": "AS",
            "upheld": True,
            "scores": [0, -3],
        }
    ]
    assert state.scores == (0, -3) and state.barred == (False, True)


def test_a_seat_barred_by_a_called_revoke_cannot_win_a_game_stopped_on_that_hand():
    """RULES §4: the revoker 'cannot win the game on that hand'; a round ending the game
    then credited the barred seat with the win for leading on points."""
    begged = act(act(game(REVOKE_HANDS, "2S", seats=(SUIT, FREE), revoke_penalty=0), "beg"),
                 "take_one")  # fmt: skip
    state = play(begged, "2H", "7H", "8H", "AS")
    state = act(state, "call_revoke", seat=0, accused=1)
    assert state.scores == (0, 1) and state.barred == (False, True)
    assert af.result(state)["winners"] == [0]
    # Every seat barred: nobody wins.
    assert af.result(replace(state, barred=(True, True)))["winners"] == []


def test_bonus_style_gives_the_other_players_the_points_instead():
    state = play(revoke_game(revoke_style="bonus"), "2H", "7H", "8H", "AS")
    state = act(state, "call_revoke", seat=0, accused=1)
    assert state.scores == (3, 0) and state.barred == (False, True)


def test_a_false_call_costs_nothing_but_is_public():
    state = play(revoke_game(), "2H", "7H")
    state = act(state, "call_revoke", seat=1, accused=0)
    assert state.scores == (0, 0) and state.barred == (False, False)
    assert af.view(state, 1)["calls"] == [{"trick": 0, "caller": 1, "accused": 0, "upheld": False}]


def test_calls_only_between_the_trick_and_the_next_lead():
    state = revoke_game()
    with pytest.raises(IllegalAction, match="before the next lead"):
        act(state, "call_revoke", seat=0, accused=1)  # no trick yet
    state = play(state, "2H", "7H", "8H", "AS")
    state = play(state, "3H")  # seat 1 leads the next trick: the window has closed
    with pytest.raises(IllegalAction, match="before the next lead"):
        act(state, "call_revoke", seat=0, accused=1)
    assert not any(a["type"] == "call_revoke" for a in af.legal_actions(state, 0))


def test_one_call_per_card_no_self_calls():
    state = play(revoke_game(), "2H", "7H", "8H", "AS")
    with pytest.raises(IllegalAction, match="opponent"):
        act(state, "call_revoke", seat=1, accused=1)
    state = act(state, "call_revoke", seat=0, accused=1)
    with pytest.raises(IllegalAction, match="already been called"):
        act(state, "call_revoke", seat=0, accused=1)
    assert [a for a in af.legal_actions(state, 0) if a["type"] == "call_revoke"] == []


def test_barred_revoker_reaching_the_target_does_not_win_that_hand():
    # Seat 1 revokes and is caught, yet ends the hand with 4 + 3 + 10 - 3 = 14 points.
    hands = [["5S", "10S", "7H", "8H", "9H", "JD"], ["AS", "KS", "2H", "3H", "4H", "5H"]]
    state = act(game(hands, "2S", seats=(SUIT, FREE), target=10), "stand")
    state = play(state, "2H", "7H", "8H", "AS")  # seat 1 trumps while holding hearts
    state = act(state, "call_revoke", seat=0, accused=1)
    state = play(state, "KS", "10S", "3H", "9H", "JD", "4H", "5S", "5H")
    assert state.history[0].points == (5, 17)
    assert state.scores == (5, 14)
    assert state.history[0].barred == (False, True)
    assert not af.is_over(state) and state.hand_no == 2
    assert state.barred == (False, False)  # the bar lasts one hand


def test_referee_mode_refuses_table_illegal_plays_and_calls():
    state = act(game(REVOKE_HANDS, "2S", seats=(SUIT, FREE), mode="referee"), "stand")
    state = play(state, "2H", "7H", "8H")
    with pytest.raises(IllegalAction, match="must follow suit"):
        play(state, "AS")
    state = play(state, "3H")
    with pytest.raises(IllegalAction, match="no revoke to call"):
        act(state, "call_revoke", seat=1, accused=0)


def test_the_tables_sheet_decides_the_trick_even_when_no_seat_plays_by_it():
    """Barnga mode: tricks are won by the table's sheet (docs/all_fives.md), not by any
    seat's. Here both seats learned "highest wins" and the table says "lowest wins":
    both verdicts give the trick to 9H, the table gives it to 2H and seat 1 leads next."""
    low = af.Sheet(wins="lowest")
    state = act(game(HANDS, "2S", table=low, seats=(SUIT, SUIT)), "stand")
    state = play(state, "2H", "9H")
    assert state.tricks[0].verdicts == (0, 0)
    assert state.tricks[0].winner == 1
    assert state.to_act == 1


def test_verdicts_record_each_seats_own_winner():
    low = af.Sheet(wins="lowest")
    state = act(game(HANDS, "2S", seats=(SUIT, low)), "stand")
    state = play(state, "2H", "9H")
    assert state.tricks[0].winner == 0
    assert state.tricks[0].verdicts == (0, 1)


# ---------------------------------------------------------------- views


def test_view_shows_own_hand_and_public_facts_only():
    state = play(revoke_game(), "2H", "7H", "8H", "AS")
    v = af.view(state, 0)
    text = json.dumps(v)
    for card in state.hands[1] + state.stock:
        assert f'"{card}"' not in text
    for secret in ("legal_for_table", "revokes", "verdicts", "follow", "seat_rules"):
        assert secret not in text
    assert v["hand"] == sorted(state.hands[0], key=v["hand"].index)
    assert v["hand_counts"] == [4, 4]
    assert v["stock_count"] == 39
    assert v["actions"] == af.legal_actions(state, 0)
    assert v["calls_open"] is True
    assert v["points_taken"] == [0, 4]
    assert v["trump"] == "S" and v["turn_up"] == "2S"


def test_view_legal_lists_playable_cards_on_the_seats_turn_only():
    state = play(act(game(HANDS, "2S"), "stand"), "2H")
    assert af.view(state, 0)["legal"] == ["6H", "7H", "8H", "9H"]
    assert af.view(state, 1)["legal"] == []
    with pytest.raises(ValueError):
        af.view(state, 2)


def test_spectator_view_shows_hands_sheets_and_uncalled_revokes_but_not_the_stock():
    state = play(revoke_game(), "2H", "7H", "8H", "AS")
    sv = af.spectator_view(state)
    assert sv["hands"][1] == ["3H", "4H", "5H", "6H"]
    assert sv["tricks"][1]["revokes"] == [1]
    assert sv["config"]["seat_rules"][1]["follow"] == "any"
    text = json.dumps(sv)
    for card in state.stock:
        assert f'"{card}"' not in text


# ---------------------------------------------------------------- config


def test_sheet_and_config_validation():
    with pytest.raises(ValueError, match="follow"):
        af.Sheet(follow="sometimes")
    with pytest.raises(ValueError, match="2 or 3"):
        af.Config.uniform(SUIT, 4)
    with pytest.raises(ValueError, match="target"):
        af.Config(target=0)
    with pytest.raises(ValueError, match="revoke_style"):
        af.Config(revoke_style="double")
    with pytest.raises(ValueError, match="Missing"):
        af.Sheet.from_dict({"ace": "high"})
    with pytest.raises(ValueError, match="Unknown"):
        af.Sheet.from_dict({"ace": "high", "wins": "highest", "follow": "suit", "trump": "S"})
    cfg = af.Config(seat_rules=(SUIT, FREE, SUIT), revoke_style="bonus", target=31)
    assert af.Config.from_dict(cfg.to_dict()) == cfg
    assert af.Config.from_dict({"players": 3}) == af.Config.uniform(SUIT, 3)
    with pytest.raises(ValueError, match="players"):
        af.Config.from_dict({})
    assert SUIT.diff(FREE) == ["follow"]
