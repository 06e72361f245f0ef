import pytest
from games_helpers import rules

from games import all_fives, five_tricks, seven_up, three_tricks
from games.errors import IllegalAction
from games.kinds.seven_up import SevenUpRules
from games.tricks import TrickRules, legal_cards, rank_order, trick_winner

# ---------------------------------------------------------------- TrickRules


def test_defaults_and_to_dict():
    r = TrickRules()
    assert r.to_dict() == {"ace": "high", "wins": "highest", "trump": None, "trump_when": "void"}


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"ace": "top"}, "ace"),
        ({"wins": "most"}, "wins"),
        ({"trump": "X"}, "trump"),
        ({"trump": "h"}, "trump"),  # the constructor wants the canonical letter
        ({"trump_when": "always"}, "trump_when"),
    ],
)
def test_bad_knob_values_raise(kwargs, word):
    with pytest.raises(ValueError, match=word):
        TrickRules(**kwargs)


def test_from_dict_accepts_lower_case_and_null():
    d = {"ace": "low", "wins": "lowest", "trump": "h", "trump_when": "any"}
    assert TrickRules.from_dict(d) == TrickRules("low", "lowest", "H", "any")
    for none in (None, "null", "NULL"):
        r = TrickRules.from_dict(
            {"ace": "high", "wins": "highest", "trump": none, "trump_when": "void"}
        )
        assert r.trump is None


@pytest.mark.parametrize(
    "d, message",
    [
        (
            {"ace": "high", "wins": "highest", "trump": None, "trump_when": "void", "x": 1},
            "Unknown",
        ),
        ({"ace": "high", "wins": "highest", "trump": None}, "Missing"),
        ({"ace": "high", "wins": "highest", "trump": "Z", "trump_when": "void"}, "trump"),
        ({"ace": 1, "wins": "highest", "trump": None, "trump_when": "void"}, "ace"),
        ({"ace": "high", "wins": "highest", "trump": 3, "trump_when": "void"}, "trump"),
        ("high", "object"),
        (None, "object"),
    ],
)
def test_from_dict_rejects(d, message):
    with pytest.raises(ValueError, match=message):
        TrickRules.from_dict(d)


def test_round_trip_and_diff():
    a = rules("high", "highest", "S", "void")
    b = rules("low", "highest", "S", "any")
    assert TrickRules.from_dict(a.to_dict()) == a
    assert a.diff(b) == ["ace", "trump_when"]
    assert a.diff(a) == []
    assert rules().diff(rules("low", "lowest", "C", "any")) == [
        "ace",
        "wins",
        "trump",
        "trump_when",
    ]


def test_without_trumps_the_when_knob_is_one_sheet():
    """A no-trump sheet with 'trump at any time' plays as the 'void' one: the same
    sheet (the panel's 'same rules', the report's count of sheets), not two."""
    anytime = TrickRules.from_dict(
        {"ace": "low", "wins": "highest", "trump": None, "trump_when": "any"}
    )
    assert anytime == rules("low", "highest", None, "void") and anytime.trump_when == "void"
    assert anytime.diff(rules("low", "highest", None, "void")) == []
    assert rules("high", "highest", "S", "any") != rules("high", "highest", "S", "void")


def test_rules_are_frozen_and_hashable():
    r = rules()
    with pytest.raises(AttributeError):
        r.ace = "low"
    assert len({rules(), rules(), rules(trump="S")}) == 2


# ---------------------------------------------------------------- rank order


def test_rank_order_ace_high_and_low():
    hi, lo = rules(ace="high"), rules(ace="low")
    five = ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]
    assert sorted(five, key=lambda c: rank_order(c, hi)) == [
        "2S",
        "3S",
        "4S",
        "5S",
        "6S",
        "7S",
        "AS",
    ]
    assert sorted(five, key=lambda c: rank_order(c, lo)) == five


def test_rank_order_lowest_wins_reverses():
    r = rules(ace="low", wins="lowest")
    assert rank_order("AS", r) > rank_order("2S", r) > rank_order("7S", r)
    r = rules(ace="high", wins="lowest")
    assert rank_order("2S", r) > rank_order("7S", r) > rank_order("AS", r)


def test_rank_order_full_deck():
    hi = rules(ace="high")
    order = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    assert sorted(reversed(order), key=lambda c: rank_order(c, hi)) == order
    lo = rules(ace="low")
    assert rank_order("AH", lo) < rank_order("2H", lo)
    assert rank_order("KH", lo) > rank_order("10H", lo)


# ---------------------------------------------------------------- legal cards

HAND = ["2H", "3S", "4D", "7H"]


def test_leader_may_play_anything():
    for r in (rules(), rules(trump="S", trump_when="any")):
        assert legal_cards(HAND, None, r) == HAND


def test_void_holding_led_suit_must_follow():
    assert legal_cards(HAND, "H", rules(trump="S", trump_when="void")) == ["2H", "7H"]


def test_any_holding_led_suit_may_follow_or_trump():
    assert legal_cards(HAND, "H", rules(trump="S", trump_when="any")) == ["2H", "3S", "7H"]


def test_any_without_trump_or_when_trump_led_is_follow_suit():
    assert legal_cards(HAND, "H", rules(trump=None, trump_when="any")) == ["2H", "7H"]
    assert legal_cards(HAND, "S", rules(trump="S", trump_when="any")) == ["3S"]


def test_out_of_led_suit_any_card():
    for r in (rules(trump="S"), rules(trump="S", trump_when="any"), rules()):
        assert legal_cards(HAND, "C", r) == HAND


def test_legal_cards_returns_a_new_list():
    out = legal_cards(HAND, None, rules())
    out.append("XX")
    assert HAND == ["2H", "3S", "4D", "7H"]


# ---------------------------------------------------------------- trick winner

ACES = [(0, "AH"), (1, "7H"), (2, "2H")]


@pytest.mark.parametrize(
    "ace, wins, winner",
    [("high", "highest", 0), ("low", "highest", 1), ("low", "lowest", 0), ("high", "lowest", 2)],
)
def test_ace_and_wins_knobs(ace, wins, winner):
    assert trick_winner(ACES, rules(ace=ace, wins=wins)) == winner


MIXED = [(0, "2H"), (1, "3S"), (2, "4D"), (3, "5C")]


@pytest.mark.parametrize("trump, winner", [("S", 1), ("D", 2), ("C", 3), ("H", 0), (None, 0)])
def test_each_trump_suit(trump, winner):
    assert trick_winner(MIXED, rules(trump=trump)) == winner


def test_off_suit_never_wins_without_trump():
    assert trick_winner([(2, "2H"), (0, "AS"), (1, "7S")], rules()) == 2


def test_best_trump_follows_ace_and_wins():
    cards = [(0, "7H"), (1, "AS"), (2, "3S"), (3, "6S")]
    assert trick_winner(cards, rules("high", "highest", "S")) == 1
    assert trick_winner(cards, rules("low", "highest", "S")) == 3
    assert trick_winner(cards, rules("low", "lowest", "S")) == 1
    assert trick_winner(cards, rules("high", "lowest", "S")) == 2


def test_trump_beats_better_led_card_and_trump_when_is_irrelevant_to_winner():
    cards = [(3, "AH"), (0, "2C")]
    assert trick_winner(cards, rules(trump="C", trump_when="void")) == 0
    assert trick_winner(cards, rules(trump="C", trump_when="any")) == 0


def test_empty_trick_raises():
    with pytest.raises(ValueError):
        trick_winner([], rules())


@pytest.mark.parametrize(
    "build",
    [
        lambda **knobs: TrickRules(**knobs),
        lambda **knobs: all_fives.Sheet(**knobs),
        lambda **knobs: seven_up.Config(3, **knobs),
        lambda **knobs: SevenUpRules(**knobs),
    ],
    ids=["five_tricks", "all_fives", "seven_up", "seven_up_kind"],
)
def test_every_game_refuses_a_bad_ace_or_wins_in_the_same_words(build):
    # The two knobs mean the same in every trick-taking game, and say so alike.
    with pytest.raises(ValueError) as info:
        build(ace="up")
    assert str(info.value) == "ace must be 'high' or 'low', not 'up'."
    with pytest.raises(ValueError) as info:
        build(wins="most")
    assert str(info.value) == "wins must be 'highest' or 'lowest', not 'most'."
    made = build(ace="low", wins="lowest")
    assert (made.ace, made.wins) == ("low", "lowest")


def _five_tricks_claim_state():
    config = five_tricks.Config.uniform(TrickRules(), 3)
    state = five_tricks.new_game(config, hands=[["2H"], ["3H"], ["4H"]])
    for seat, card in enumerate(["2H", "3H", "4H"]):
        state, _ = five_tricks.apply(state, {"type": "play", "seat": seat, "card": card})
    return state


@pytest.mark.parametrize(
    "engine, state, action, message",
    [
        (
            five_tricks,
            lambda: five_tricks.new_game(
                five_tricks.Config.uniform(TrickRules(), 3), hands=[["2H"], ["3H"], ["4H"]]
            ),
            {"type": "play", "seat": 3, "card": "2H"},
            "There is no seat 3 at this table (seats are 0 to 2).",
        ),
        (
            five_tricks,
            _five_tricks_claim_state,
            {"type": "claim", "seat": 0, "winner": "1"},
            "There is no winner seat '1' at this table (seats are 0 to 2).",
        ),
        (
            all_fives,
            lambda: all_fives.new_game(all_fives.Config.uniform(all_fives.Sheet(), 2), seed=1),
            {"type": "stand", "seat": None},
            "There is no seat None at this table (seats are 0 to 1).",
        ),
        (
            all_fives,
            lambda: all_fives.new_game(all_fives.Config.uniform(all_fives.Sheet(), 3), seed=1),
            {"type": "call_revoke", "seat": 0, "accused": 3},
            "There is no accused seat 3 at this table (seats are 0 to 2).",
        ),
        (
            seven_up,
            lambda: seven_up.new_match(seven_up.Config(4), seed=1),
            {"type": "bid", "seat": True, "bid": 0},
            "There is no seat True at this table (seats are 0 to 3).",
        ),
    ],
)
def test_every_engine_refuses_a_seat_not_at_the_table_in_the_same_words(
    engine, state, action, message
):
    with pytest.raises(IllegalAction) as info:
        engine.apply(state(), action)
    assert info.value.reason == message


@pytest.mark.parametrize(
    "engine, sheet, few, count_error",
    [
        (five_tricks, TrickRules(), 1, "Five Tricks needs 2 to 8 seats; seat_rules has 1."),
        (all_fives, all_fives.Sheet(), 4, "All Fives needs 2 or 3 players; seat_rules has 4."),
    ],
    ids=["five_tricks", "all_fives"],
)
def test_a_barnga_config_checks_its_sheets_and_mode(engine, sheet, few, count_error):
    kind = type(sheet).__name__
    made = engine.Config(table_rules=sheet, seat_rules=[sheet, sheet], mode="referee")
    assert made.seat_rules == (sheet, sheet) and made.mode == "referee"
    cases = [
        ({"table_rules": "high", "seat_rules": (sheet, sheet)}, f"table_rules must be a {kind}."),
        ({"table_rules": sheet, "seat_rules": (sheet,) * few}, count_error),
        (
            {"table_rules": sheet, "seat_rules": (sheet, "low")},
            f"Every entry of seat_rules must be a {kind}.",
        ),
        (
            {"table_rules": sheet, "seat_rules": (sheet, sheet), "mode": "judge"},
            "mode must be 'barnga' or 'referee', not 'judge'.",
        ),
    ]
    for fields, message in cases:
        with pytest.raises(ValueError) as info:
            engine.Config(**fields)
        assert str(info.value) == message


@pytest.mark.parametrize(
    "parse, knobs, message",
    [
        (
            TrickRules.from_dict,
            {"ace": "high", "wins": "highest", "trump": None, "trump_when": "void", "joker": 1},
            "Unknown rule knob(s): joker (known: ace, wins, trump, trump_when).",
        ),
        (TrickRules.from_dict, {"ace": "high"}, "Missing rule knob(s): wins, trump, trump_when."),
        (
            all_fives.Sheet.from_dict,
            {"ace": "high", "wins": "highest", "follow": "suit", "trump": "S", 7: 1},
            "Unknown sheet knob(s): 7, trump (known: ace, wins, follow).",
        ),
        (all_fives.Sheet.from_dict, {"wins": "highest"}, "Missing sheet knob(s): ace, follow."),
        (
            lambda knobs: seven_up.Config.from_rules(3, knobs),
            {"hooks": True, "bonus": 1},
            "Unknown rule(s): bonus, hooks "
            "(known: hook, points_per_trick, zero_bid_points, ace, wins).",
        ),
        (
            SevenUpRules.from_dict,
            {"hooks": True},
            "Unknown rule knob(s): hooks "
            "(known: hook, points_per_trick, zero_bid_points, ace, wins).",
        ),
        (
            three_tricks.Config.from_dict,
            {"jokers": 2},
            "Unknown rule knob(s): jokers "
            "(known: aces, block, rank_match, max_swap, stock_floor, count).",
        ),
    ],
)
def test_a_rules_object_with_an_unknown_or_missing_knob_is_refused_by_name(parse, knobs, message):
    with pytest.raises(ValueError) as info:
        parse(knobs)
    assert str(info.value) == message
