"""Scenario tests for games.five_tricks from explicit deals."""

import copy
import json

import pytest
from games_helpers import HIGH, claim, config, play, rules, run_tricks, timeout, types

from games import five_tricks as ft
from games.errors import IllegalAction
from games.tricks import trick_winner

# ---------------------------------------------------------------- deal


@pytest.mark.parametrize(
    "n, sizes",
    [
        (2, [7, 7]),
        (3, [7, 7, 7]),
        (4, [7, 7, 7, 7]),
        (5, [6, 6, 6, 5, 5]),
        (6, [5, 5, 5, 5, 4, 4]),
        (7, [4, 4, 4, 4, 4, 4, 4]),
        (8, [4, 4, 4, 4, 3, 3, 3, 3]),
    ],
)
def test_deal_sizes(n, sizes):
    assert ft.deal_sizes(n) == sizes


@pytest.mark.parametrize("n", [0, 1, 9, "4", True])
def test_deal_sizes_rejects(n):
    with pytest.raises(ValueError):
        ft.deal_sizes(n)


@pytest.mark.parametrize("n", range(2, 9))
def test_deal_is_seeded_one_at_a_time(n):
    hands = ft.deal(n, 11)
    assert hands == ft.deal(n, 11)
    assert [len(h) for h in hands] == ft.deal_sizes(n)
    cards = [c for h in hands for c in h]
    assert len(cards) == len(set(cards))
    from games.cards import five_tricks_deck, shuffled

    deck = shuffled(five_tricks_deck(), 11)
    assert hands[0][:2] == (deck[0], deck[n])
    assert hands[1][0] == deck[1]


def test_different_seeds_deal_differently():
    assert ft.deal(4, 1) != ft.deal(4, 2)


# ---------------------------------------------------------------- new_game


def test_new_game_from_seed():
    state = ft.new_game(config(HIGH, 4), seed=3)
    assert state.hands == ft.deal(4, 3)
    assert state.phase == "play" and state.to_act == 0 and state.leader == 0
    assert state.tricks_won == (0, 0, 0, 0) and state.seq == 0
    assert state.claims == (None,) * 4 and not state.dispute


def test_new_game_accepts_lower_case_and_uneven_hands():
    state = ft.new_game(config(HIGH, 3), hands=[["as", " 2h"], ["3D"], []])
    assert state.hands == (("AS", "2H"), ("3D",), ())


@pytest.mark.parametrize(
    "hands, message",
    [
        ([["AS"], ["8S"], ["2S"]], "not in the Five Tricks deck"),
        ([["AS"], ["AS"], ["2S"]], "twice"),
        ([["AS"], ["2S"]], "3 seats but 2 hands"),
        ([["AS", "2S", "3S", "4S", "5S", "6S", "7S", "AH"], [], []], "at most 7"),
        ([["XX"], [], []], "not a card"),
        ([[], [], []], "No cards"),
        ("AS", "list"),
        ([["AS"], "2S", []], "list of cards"),
    ],
)
def test_new_game_validates_hands(hands, message):
    with pytest.raises(ValueError, match=message):
        ft.new_game(config(HIGH, 3), hands=hands)


def test_new_game_needs_exactly_one_of_seed_and_hands():
    with pytest.raises(ValueError):
        ft.new_game(config(HIGH, 3))
    with pytest.raises(ValueError):
        ft.new_game(config(HIGH, 3), seed=1, hands=[["AS"], [], []])


def test_seat_zero_without_cards_passes_the_lead():
    state = ft.new_game(config(HIGH, 3), hands=[[], [], ["AS"]])
    assert state.leader == 2 and state.to_act == 2


def test_config_validation():
    with pytest.raises(ValueError, match="seats"):
        ft.Config(table_rules=HIGH, seat_rules=(HIGH,))
    with pytest.raises(ValueError, match="seats"):
        ft.Config.uniform(HIGH, 9)
    with pytest.raises(ValueError, match="mode"):
        ft.Config.uniform(HIGH, 3, mode="judge")
    with pytest.raises(ValueError):
        ft.Config(table_rules=HIGH, seat_rules=(HIGH, "x"))
    with pytest.raises(ValueError):
        ft.Config(table_rules={"ace": "high"}, seat_rules=(HIGH, HIGH))
    c = ft.Config(table_rules=HIGH, seat_rules=[HIGH, HIGH])
    assert c.seat_rules == (HIGH, HIGH) and c.mode == "barnga" and c.n_seats == 2
    assert ft.Config.from_dict(json.loads(json.dumps(c.to_dict()))) == c


# ---------------------------------------------------------------- knobs in play


def _one_trick(table, hands, cards):
    state = ft.new_game(config(table, len(hands), mode="referee"), hands=hands)
    state = play(state, *cards)
    return state.completed[0]


@pytest.mark.parametrize(
    "ace, wins, winner",
    [("high", "highest", 0), ("low", "highest", 1), ("low", "lowest", 0), ("high", "lowest", 2)],
)
def test_scenario_ace_and_wins(ace, wins, winner):
    trick = _one_trick(rules(ace, wins), [["AH"], ["7H"], ["2H"]], ["AH", "7H", "2H"])
    assert trick.winner == winner and trick.resolution == "rules"


@pytest.mark.parametrize("trump, winner", [("S", 1), ("D", 2), ("C", 3), ("H", 0), (None, 0)])
def test_scenario_each_trump(trump, winner):
    trick = _one_trick(
        rules(trump=trump), [["2H"], ["3S"], ["4D"], ["5C"]], ["2H", "3S", "4D", "5C"]
    )
    assert trick.winner == winner


def test_scenario_void_forbids_trumping_while_holding_led_suit():
    state = ft.new_game(config(rules(trump="S"), 2), hands=[["2H"], ["3H", "AS"]])
    state = play(state, "2H")
    with pytest.raises(IllegalAction) as exc:
        play(state, "AS")
    assert exc.value.reason == "You must follow suit: you hold a heart, so you must play a heart."
    assert [a["card"] for a in ft.legal_actions(state, 1)] == ["3H"]


def test_scenario_any_allows_trumping_while_holding_led_suit():
    table = rules(trump="S", trump_when="any")
    state = ft.new_game(config(table, 2, mode="referee"), hands=[["2H"], ["3H", "AS", "4D"]])
    state = play(state, "2H")
    assert [a["card"] for a in ft.legal_actions(state, 1)] == ["3H", "AS"]
    with pytest.raises(IllegalAction) as exc:
        play(state, "4D")
    assert exc.value.reason == "You hold a heart, so you may only play a heart or a spade (trump)."
    state = play(state, "AS")
    assert state.completed[0].winner == 1


# ---------------------------------------------------------------- trick flow

FIVE_HANDS = [
    ["AH", "AD", "AC", "2S", "3S", "7D"],
    ["2H", "3H", "4H", "4S", "5H", "6H"],
    ["2D", "3D", "4D", "5S", "5D", "6D"],
    ["2C", "3C", "4C", "6S", "5C"],
    ["7H", "6C", "7C", "7S", "AS"],
]
FIVE_TRICKS = [
    ["AH", "2H", "2D", "2C", "7H"],  # seat 0 wins with the ace
    ["AD", "3H", "3D", "3C", "6C"],  # seat 0
    ["AC", "4H", "4D", "4C", "7C"],  # seat 0
    ["2S", "4S", "5S", "6S", "7S"],  # seat 4 (7S)
    ["AS", "3S", "5H", "5D", "5C"],  # seat 4 leads its last card and wins
    ["7D", "6H", "6D"],  # seat 4 is empty: seat 0 leads; short trick, seats 3 and 4 sit out
]


@pytest.mark.parametrize("mode", ["referee", "barnga"])
def test_five_players_short_last_trick_and_empty_winner(mode):
    state = ft.new_game(config(HIGH, 5, mode=mode), hands=FIVE_HANDS)
    assert [len(h) for h in state.hands] == ft.deal_sizes(5)
    state = run_tricks(state, FIVE_TRICKS)
    assert ft.is_over(state) and state.phase == "over" and state.to_act is None
    assert [t.leader for t in state.completed] == [0, 0, 0, 0, 4, 0]
    assert [t.winner for t in state.completed] == [0, 0, 0, 4, 4, 0]
    assert [len(t.cards) for t in state.completed] == [5, 5, 5, 5, 5, 3]
    assert [s for s, _ in state.completed[4].cards] == [4, 0, 1, 2, 3]
    assert [s for s, _ in state.completed[5].cards] == [0, 1, 2]
    assert ft.result(state) == {"tricks_won": [4, 0, 0, 0, 2], "winners": [0]}


def test_seats_that_sat_out_the_trick_claim_too_before_it_is_awarded():
    """RULES.md section 2: after the last card "every seated player claims a winner",
    not only those who played: seats 3 and 4 had no card for the short last trick."""
    state = run_tricks(ft.new_game(config(HIGH, 5), hands=FIVE_HANDS), FIVE_TRICKS[:5])
    state = play(state, *FIVE_TRICKS[5])
    assert state.phase == "claim" and [s for s, _ in state.current] == [0, 1, 2]
    for seat in (0, 1, 2):
        state = claim(state, seat, 0)
    assert state.phase == "claim" and len(state.completed) == 5
    assert [a["winner"] for a in ft.legal_actions(state, 4)] == [0, 1, 2]
    state = claim(state, 3, 0)
    state = claim(state, 4, 0)
    assert ft.is_over(state) and state.completed[5].resolution == "unanimous"
    assert state.completed[5].claims == (0, 0, 0, 0, 0)


SIX_TABLE = rules("low", "lowest", "D", "void")
SIX_HANDS = [
    ["AS", "AH", "AC", "7S", "7D"],
    ["2S", "2H", "2C", "7H", "3D"],
    ["3S", "3H", "3C", "7C", "5D"],
    ["4S", "4H", "4C", "2D", "6D"],
    ["5S", "5H", "5C", "4D"],
    ["6S", "6H", "6C", "AD"],
]
SIX_TRICKS = [
    ["AS", "2S", "3S", "4S", "5S", "6S"],  # ace low, lowest wins: AS
    ["AH", "2H", "3H", "4H", "5H", "6H"],
    ["AC", "2C", "3C", "4C", "5C", "6C"],
    ["7S", "7H", "7C", "2D", "4D", "AD"],  # trumps 2D 4D AD: AD is the best, seat 5
    ["7D", "3D", "5D", "6D"],  # seat 5 is empty: seat 0 leads; 3D is the lowest trump
]


def test_six_players_short_last_trick_trump_and_passing_lead():
    state = ft.new_game(config(SIX_TABLE, 6, mode="referee"), hands=SIX_HANDS)
    assert [len(h) for h in state.hands] == ft.deal_sizes(6)
    state = run_tricks(state, SIX_TRICKS)
    assert ft.is_over(state)
    assert [t.leader for t in state.completed] == [0, 0, 0, 0, 0]
    assert [t.winner for t in state.completed] == [0, 0, 0, 5, 1]
    assert [len(t.cards) for t in state.completed] == [6, 6, 6, 6, 4]
    assert ft.result(state) == {"tricks_won": [3, 1, 0, 0, 0, 1], "winners": [0]}


def test_winner_without_cards_passes_lead_clockwise_and_co_winners():
    state = ft.new_game(config(HIGH, 3, mode="referee"), hands=[["2H", "3H"], ["7H"], ["4H", "5H"]])
    events = []
    state = play(state, "2H", "7H", "4H", events=events)
    award = next(e for e in events if e["type"] == "trick_awarded")
    assert award["winner"] == 1 and award["next_leader"] == 2
    assert state.leader == 2 and state.to_act == 2
    state = play(state, "5H", "3H", events=events)
    assert [s for s, _ in state.completed[1].cards] == [2, 0]
    assert ft.is_over(state)
    assert ft.result(state) == {"tricks_won": [0, 1, 1], "winners": [1, 2]}
    over = events[-1]
    assert over == {"type": "game_over", "tricks_won": [0, 1, 1], "winners": [1, 2]}


def test_no_completed_trick_no_winners():
    state = ft.new_game(config(HIGH, 4), seed=1)
    assert ft.result(state) == {"tricks_won": [0, 0, 0, 0], "winners": []}
    state = play(state, state.hands[0][0])
    assert ft.result(state)["winners"] == []
    assert not ft.is_over(state)


def test_result_counts_an_unfinished_game():
    state = ft.new_game(config(HIGH, 5, mode="referee"), hands=FIVE_HANDS)
    state = run_tricks(state, FIVE_TRICKS[:4])
    state = play(state, "AS")
    assert ft.result(state) == {"tricks_won": [3, 0, 0, 0, 1], "winners": [0]}


# ---------------------------------------------------------------- Barnga mode


def test_barnga_own_sheet_decides_legality_and_table_flag_is_recorded():
    table = rules(trump="H", trump_when="void")
    own = rules(trump="H", trump_when="any")
    cfg = config(table, seats=[table, own, table])
    state = ft.new_game(cfg, hands=[["2S"], ["3S", "4H"], ["5S", "6H"]])
    events = []
    state = play(state, "2S", "4H", events=events)  # seat 1 trumps while holding a spade
    assert events[1] == {"type": "card_played", "seat": 1, "card": "4H", "legal_for_table": False}
    assert events[0]["legal_for_table"] is True
    with pytest.raises(IllegalAction, match="must follow suit"):
        play(state, "6H")  # seat 2's own (void) sheet forbids it
    state = play(state, "5S", events=events)
    assert events[-3]["legal_for_table"] is True
    assert state.phase == "claim" and state.to_act is None
    assert types(events[-2:]) == ["trick_complete", "claims_open"]


def test_referee_mode_table_sheet_decides_legality_and_winner():
    table = rules(trump="H", trump_when="void")
    own = rules(ace="low", trump="S", trump_when="any")
    cfg = config(table, seats=[own, own, own], mode="referee")
    state = ft.new_game(cfg, hands=[["2S"], ["3S", "4H"], ["AS", "6H"]])
    state = play(state, "2S")
    with pytest.raises(IllegalAction, match="must follow suit"):
        play(state, "4H")  # legal on seat 1's own sheet, not on the table's
    events = []
    state = play(state, "3S", "AS", events=events)
    assert types(events) == ["card_played", "card_played", "trick_complete", "trick_awarded"]
    trick = state.completed[0]
    assert trick.winner == 2 and trick.table_verdict == 2  # ace high at the table
    assert trick.verdicts == (1, 1, 1)  # ace low on every seat's own sheet
    assert trick.resolution == "rules" and trick.claims == ()
    with pytest.raises(IllegalAction):
        ft.apply(state, {"type": "claim", "seat": 0, "winner": 2})


def _claim_state():
    """Barnga table of 4 after one trick: seat sheets disagree about the winner."""
    table = rules("high", "highest", None)
    low = rules("low", "highest", None)
    cfg = config(table, seats=[table, low, table, low])
    state = ft.new_game(cfg, hands=[["AH", "2S"], ["7H", "3S"], ["2H", "4S"], ["3H", "5S"]])
    return play(state, "AH", "7H", "2H", "3H")


def test_claim_phase_verdicts_and_suggestions():
    state = _claim_state()
    assert state.phase == "claim"
    assert [ft.view(state, s)["suggested_claim"] for s in range(4)] == [0, 1, 0, 1]
    assert ft.legal_actions(state, 2) == [
        {"type": "claim", "seat": 2, "winner": w} for w in range(4)
    ]
    with pytest.raises(IllegalAction, match="waiting for its winner"):
        ft.apply(state, {"type": "play", "seat": 0, "card": "2S"})


def test_claims_unanimous():
    state = _claim_state()
    events = []
    for seat in range(4):
        state = claim(state, seat, 1, events)
    assert types(events) == ["claim_made"] * 4 + ["trick_awarded"]
    trick = state.completed[0]
    assert trick.winner == 1 and trick.resolution == "unanimous"
    assert trick.claims == (1, 1, 1, 1) and not trick.disputed
    assert trick.verdicts == (0, 1, 0, 1) and trick.table_verdict == 0
    assert state.phase == "play" and state.leader == 1 and state.to_act == 1
    assert state.claims == (None,) * 4 and not state.dispute


def test_dispute_opened_then_resolved_by_changed_claim():
    state = _claim_state()
    events = []
    for seat, winner in enumerate([0, 1, 0]):
        state = claim(state, seat, winner, events)
    assert not state.dispute
    assert ft.view(state, 1)["claims"] is None  # claims stay private before a dispute
    assert ft.view(state, 1)["claimed"] == [True, True, True, False]
    state = claim(state, 3, 1, events)
    assert state.dispute and state.phase == "claim"
    assert events[-1] == {"type": "dispute_opened", "claims": [0, 1, 0, 1]}
    assert ft.view(state, 2)["claims"] == [0, 1, 0, 1]
    state = claim(state, 1, 0, events)
    assert state.dispute  # still split: 0,0,0,1
    assert events[-1] == {"type": "claim_changed", "seat": 1, "winner": 0, "previous": 1}
    assert types(events).count("dispute_opened") == 1
    state = claim(state, 3, 0, events)
    assert events[-1]["type"] == "trick_awarded"
    assert events[-1]["resolution"] == "unanimous" and events[-1]["winner"] == 0
    assert state.completed[0].claims == (0, 0, 0, 0)
    # Agreed in the end, but argued first: a watcher is told so (tournament.selectors).
    assert state.completed[0].disputed
    assert not state.dispute and state.phase == "play"


def test_reclaiming_the_same_seat_is_refused():
    state = claim(_claim_state(), 0, 0)
    with pytest.raises(IllegalAction, match="already claim seat 0"):
        claim(state, 0, 0)


def test_timeout_majority():
    state = _claim_state()
    for seat, winner in enumerate([1, 1, 0, 1]):
        state = claim(state, seat, winner)
    events = []
    state = timeout(state, events)
    assert types(events) == ["claims_timed_out", "trick_awarded"]
    trick = state.completed[0]
    assert trick.winner == 1 and trick.resolution == "timeout" and trick.claims == (1, 1, 0, 1)
    assert trick.disputed


def test_timeout_with_partial_claims_counts_only_those():
    state = _claim_state()
    state = claim(state, 2, 3)
    state = timeout(state)
    assert state.completed[0].winner == 3
    assert state.completed[0].claims == (None, None, 3, None)
    assert not state.completed[0].disputed  # the claims timed out, not a dispute


def test_timeout_without_claims_uses_the_table_sheet():
    state = timeout(_claim_state())
    assert state.completed[0].winner == 0 == state.completed[0].table_verdict


def test_timeout_tie_goes_clockwise_from_the_trick_leader():
    # First trick is won by seat 2 (7H, ace low everywhere), so seat 2 leads the second.
    table = rules("low", "highest", None)
    cfg = config(table, 4)
    hands = [["AH", "2S"], ["2H", "3S"], ["7H", "4S"], ["3H", "5S"]]
    state = ft.new_game(cfg, hands=hands)
    state = play(state, "AH", "2H", "7H", "3H")
    state = timeout(state)
    assert state.completed[0].winner == 2 and state.leader == 2
    state = play(state, "4S", "5S", "2S", "3S")
    for seat, winner in enumerate([1, 3, 1, 3]):
        state = claim(state, seat, winner)
    assert state.dispute
    state = timeout(state)
    # Seats 1 and 3 tie 2-2; clockwise from leader 2 the order is 2, 3, 0, 1.
    assert state.completed[1].winner == 3
    assert ft.is_over(state)


def test_claim_must_name_a_seat_in_the_trick():
    table = HIGH
    state = ft.new_game(config(table, 3), hands=[["AH", "2H"], ["3H"], ["4H", "5H"]])
    state = timeout(play(state, "AH", "3H", "4H"))
    state = play(state, "2H", "5H")  # seat 1 is out of cards and sits out
    assert state.phase == "claim"
    with pytest.raises(IllegalAction, match="Seat 1 did not play in this trick"):
        claim(state, 0, 1)
    # A seat without cards still claims.
    state = claim(state, 1, 2)
    assert state.claims == (None, 2, None)


def test_resolve_unanimous():
    assert ft.resolve_unanimous([2, 2, 2]) == 2
    assert ft.resolve_unanimous([2, 2, None]) is None
    assert ft.resolve_unanimous([2, 1, 2]) is None
    assert ft.resolve_unanimous([]) is None


@pytest.mark.parametrize(
    "claims, leader, winner",
    [
        ([1, 1, 0, 1], 0, 1),
        ([1, 3, 1, 3], 2, 3),
        ([1, 3, 1, 3], 0, 1),
        ([0, 2, None, None], 1, 2),  # tie 0/2; from leader 1: 1, 2, ...
        ([0, 2, None, None], 3, 0),  # from leader 3: 3, 0, ...
        ([2, 2, 2, 2], 0, 2),
        ([None, None, None, None], 1, 3),  # nobody claimed: the fallback
        ([0, None, None, None], 1, 0),
    ],
)
def test_resolve_timeout(claims, leader, winner):
    assert ft.resolve_timeout(claims, leader, 4, 3) == winner


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "play", "seat": 1, "card": "2H"}, "not your turn: seat 0 plays next"),
        ({"type": "play", "seat": 0, "card": "7C"}, "You do not hold 7C"),
        ({"type": "play", "seat": 0, "card": "9Z"}, "not a card"),
        ({"type": "play", "seat": 7, "card": "AH"}, "no seat 7"),
        ({"type": "play", "seat": "0", "card": "AH"}, "no seat '0'"),
        ({"type": "play", "seat": True, "card": "AH"}, "no seat True"),
        ({"type": "play", "card": "AH"}, "no seat None"),
        ({"type": "claim", "seat": 0, "winner": 0}, "no finished trick"),
        ({"type": "timeout"}, "nothing to time out"),
        ({"type": "bid", "seat": 0}, "Unknown action type 'bid'"),
        ({}, "Unknown action type None"),
        ("play", "must be an object"),
    ],
)
def test_illegal_actions_have_readable_reasons(action, message):
    state = ft.new_game(config(HIGH, 3), hands=[["AH", "2S"], ["2H"], ["3H"]])
    with pytest.raises(IllegalAction) as exc:
        ft.apply(state, action)
    assert message in exc.value.reason
    assert str(exc.value) == exc.value.reason


def test_lower_case_card_in_action_is_accepted():
    state = ft.new_game(config(HIGH, 2), hands=[["AH"], ["2H"]])
    state, events = ft.apply(state, {"type": "play", "seat": 0, "card": "ah"})
    assert events[0]["card"] == "AH" and state.current == ((0, "AH"),)


def test_actions_after_game_over_are_refused():
    state = ft.new_game(config(HIGH, 2, mode="referee"), hands=[["AH"], ["2H"]])
    state = play(state, "AH", "2H")
    assert ft.is_over(state)
    for action in (
        {"type": "play", "seat": 0, "card": "AH"},
        {"type": "claim", "seat": 0, "winner": 0},
    ):
        with pytest.raises(IllegalAction, match="game is over"):
            ft.apply(state, action)
    assert ft.legal_actions(state, 0) == []


def test_claim_with_bad_winner_seat():
    state = _claim_state()
    with pytest.raises(IllegalAction, match="no winner seat 9"):
        claim(state, 0, 9)


def test_apply_never_mutates_the_state():
    state = _claim_state()
    before = copy.deepcopy(state)
    claim(state, 0, 1)
    timeout(state)
    with pytest.raises(IllegalAction):
        claim(state, 0, 9)
    assert state == before
    with pytest.raises(AttributeError):
        state.phase = "over"


def test_legal_actions_only_for_the_seat_to_act():
    state = ft.new_game(config(HIGH, 3), hands=[["AH", "2S"], ["2H", "3C"], ["3H"]])
    assert ft.legal_actions(state, 0) == [
        {"type": "play", "seat": 0, "card": "AH"},
        {"type": "play", "seat": 0, "card": "2S"},
    ]
    assert ft.legal_actions(state, 1) == []
    assert ft.legal_actions(state, 5) == []
    state = play(state, "AH")
    assert ft.legal_actions(state, 1) == [{"type": "play", "seat": 1, "card": "2H"}]


def test_seq_counts_applied_actions():
    state = _claim_state()
    assert state.seq == 4
    state = claim(state, 0, 0)
    assert state.seq == 5
    assert timeout(state).seq == 6


def test_replay_rebuilds_the_state():
    state = ft.new_game(config(HIGH, 5), hands=FIVE_HANDS)
    log = []
    for cards in FIVE_TRICKS:
        for card in cards:
            action = {"type": "play", "seat": state.to_act, "card": card}
            state, _ = ft.apply(state, action)
            log.append(action)
        for seat in range(5):
            action = {"type": "claim", "seat": seat, "winner": trick_winner(state.current, HIGH)}
            state, _ = ft.apply(state, action)
            log.append(action)
    assert ft.is_over(state)
    assert ft.replay(state.config, FIVE_HANDS, log) == state
    with pytest.raises(IllegalAction):
        ft.replay(state.config, FIVE_HANDS, log[1:])


# ---------------------------------------------------------------- views


def test_view_shows_own_hand_counts_and_legal_on_turn():
    own = rules(ace="low")
    cfg = config(HIGH, seats=[own, HIGH, HIGH])
    state = ft.new_game(cfg, hands=[["7S", "AS", "2H"], ["3H", "4S"], ["5H"]])
    v = ft.view(state, 0)
    assert v["hand"] == ["AS", "7S", "2H"]  # spades first; ace low on seat 0's sheet
    assert v["legal"] == ["AS", "7S", "2H"]
    assert v["hand_counts"] == [3, 2, 1]
    assert v["to_act"] == 0 and v["phase"] == "play" and v["seat"] == 0
    assert ft.view(state, 1)["legal"] == []
    assert ft.view(state, 1)["hand"] == ["4S", "3H"]
    state = play(state, "2H")
    v1 = ft.view(state, 1)
    assert v1["legal"] == ["3H"] and v1["current"] == [[0, "2H"]]
    assert v1["suggested_claim"] is None and v1["my_claim"] is None
    json.dumps(v1)


def test_view_hides_other_hands_sheets_verdicts_and_private_claims():
    state = _claim_state()
    state = claim(state, 0, 0)
    for seat in range(4):
        v = ft.view(state, seat)
        text = json.dumps(v)
        for other in range(4):
            if other != seat:
                for card in state.hands[other]:
                    assert f'"{card}"' not in text
        for word in ("rules", "verdict", "ace", "wins", "trump", "highest", "lowest"):
            assert word not in text
        assert v["claims"] is None
        assert v["my_claim"] == (0 if seat == 0 else None)
    state = timeout(state)
    v = ft.view(state, 1)
    assert v["tricks"] == [
        {
            "leader": 0,
            "cards": [[0, "AH"], [1, "7H"], [2, "2H"], [3, "3H"]],
            "winner": 0,
            "resolution": "timeout",
            "disputed": False,  # timed out before every claim was in
            "claims": None,  # never shown to the table: stays private
        }
    ]
    assert "verdict" not in json.dumps(v) and 'claims": [' not in json.dumps(v)


def test_view_keeps_a_disputed_tricks_final_claims_the_table_saw():
    """A dispute shows every claim to the table: once time runs out each seat may
    still say how many claimed the winner (its phone read only "not agreed")."""
    state = _claim_state()
    for seat, winner in enumerate([0, 1, 0, 0]):
        state = claim(state, seat, winner)
    assert state.dispute
    state = timeout(state)
    for seat in range(4):
        (trick,) = ft.view(state, seat)["tricks"]
        assert (trick["winner"], trick["disputed"], trick["claims"]) == (0, True, [0, 1, 0, 0])


def test_view_rejects_bad_seat():
    state = _claim_state()
    with pytest.raises(ValueError):
        ft.view(state, 4)


def test_view_in_referee_mode_lists_the_cards_the_table_accepts():
    table = rules(trump="H", trump_when="void")
    own = rules(trump="H", trump_when="any")
    state = ft.new_game(
        config(table, seats=[own, own], mode="referee"), hands=[["2S"], ["3S", "4H"]]
    )
    state = play(state, "2S")
    assert ft.view(state, 1)["legal"] == ["3S"]


def test_view_after_game_over_has_winners():
    state = ft.new_game(config(HIGH, 2, mode="referee"), hands=[["AH"], ["2H"]])
    state = play(state, "AH", "2H")
    v = ft.view(state, 1)
    assert v["phase"] == "over" and v["winners"] == [0] and v["to_act"] is None


def test_spectator_view_has_everything():
    state = _claim_state()
    state = claim(state, 1, 1)
    sv = ft.spectator_view(state)
    assert sv["hands"] == [["2S"], ["3S"], ["4S"], ["5S"]]
    assert sv["seat_rules"][1] == rules("low", "highest", None).to_dict()
    assert sv["table_rules"] == HIGH.to_dict()
    assert sv["claims"] == [None, 1, None, None]
    assert sv["current_verdicts"] == [0, 1, 0, 1] and sv["current_table_verdict"] == 0
    state = timeout(state)
    sv = ft.spectator_view(state)
    assert sv["tricks"][0]["verdicts"] == [0, 1, 0, 1]
    assert sv["tricks"][0]["claims"] == [None, 1, None, None]
    assert sv["tricks_won"] == [0, 1, 0, 0] and sv["winners"] == [1]
    json.dumps(sv)


def test_resolve_timeout_rejects_claims_outside_the_table():
    with pytest.raises(ValueError):
        ft.resolve_timeout([0, 5], 0, 4, 0)
