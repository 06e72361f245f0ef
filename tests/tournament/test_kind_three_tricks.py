"""3 Tricks in a workshop (issue 9): the kind (games/kinds/three_tricks.py), its
presets and study sheet, its phone screen, and whole games driven through the
tournament's services at tables of two."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from itertools import combinations

import pytest
from django.template.loader import render_to_string
from django.utils import timezone
from report_helpers import play_log
from tournament_helpers import (
    assert_refused,
    fix_seed,
    fresh,
    game_at,
    tables_of,
    to_scored_round,
)

from games import three_tricks
from games.kinds import KINDS, MoveError
from games.kinds.three_tricks import (
    KIND,
    PRESET_TITLES,
    PRESETS,
    block_partners,
    lay_partners,
    sheet_for,
    swap_limit,
)
from games.three_tricks import Config
from tournament import gamestate, integrity, selectors, services, timers
from tournament.errors import IllegalMove, InvalidInput, NotAllowed
from tournament.models import Action, Game, GameState, Phase, Player
from tournament.sheet_assignment import MIN_NEIGHBOUR_DIFF, auto_assign
from tournament.templatetags.cards import card_face, card_name

NAMES = ["Ana", "Bea", "Cai", "Dev"]


# ---------------------------------------------------------------- the kind, pure


def test_the_kind_is_registered_for_tables_of_two():
    assert KINDS["three_tricks"] is KIND
    assert (KIND.title, KIND.min_seats, KIND.max_seats) == ("3 Tricks", 2, 2)
    assert KIND.per_seat_rules is False and KIND.records_tricks is False
    assert set(KIND.move_types) == {"lay", "block", "pass", "swap"}
    assert KIND.template == "play/games/three_tricks.html"


def test_rules_are_the_engines_config_with_diff_and_hash():
    assert KIND.rules_from_dict({}) == Config()
    assert KIND.default_rules() == Config().to_dict()
    rules = KIND.rules_from_dict({"aces": "low", "count": "fewest"})
    assert rules.diff(Config()) == ["aces", "count"]
    assert hash(rules) == hash(KIND.rules_from_dict(rules.to_dict()))
    with pytest.raises(ValueError, match="Unknown rule knob"):
        KIND.rules_from_dict({"trump": "S"})
    with pytest.raises(ValueError, match="max_swap"):
        KIND.rules_from_dict({"max_swap": 9})


def test_presets_are_distinct_at_least_two_knobs_apart_and_titled():
    assert set(PRESET_TITLES) == set(PRESETS) and len(PRESETS) == 20
    assert all(t.strip() for t in PRESET_TITLES.values())
    assert len(set(PRESET_TITLES.values())) == len(PRESETS)
    assert PRESETS["seed"] == Config()  # the seed's own game is one of them
    for a, b in combinations(PRESETS, 2):
        assert len(PRESETS[a].diff(PRESETS[b])) >= MIN_NEIGHBOUR_DIFF, (a, b)
    # "block: suit" leaves rank_match nothing to decide: no two presets that play alike.
    assert not any(c.block == "suit" and c.rank_match == "card" for c in PRESETS.values())


@pytest.mark.parametrize("count", range(1, 21))
def test_auto_assign_deals_presets_to_any_number_of_tables(count):
    for seed in range(25):
        names = auto_assign(count, PRESETS, seed)
        assert len(names) == count == len(set(names))
        for a, b in zip(names, names[1:], strict=False):
            assert len(PRESETS[a].diff(PRESETS[b])) >= MIN_NEIGHBOUR_DIFF


def _sheet_text(rules: dict) -> str:
    sheet = KIND.sheet(rules)
    assert sheet["title"] == "3 Tricks"
    assert all(s["heading"].strip() and s["text"].strip() for s in sheet["sections"])
    return " ".join(s["text"] for s in sheet["sections"])


def test_the_study_sheet_follows_every_knob():
    seed = _sheet_text({})
    assert "Aces are wild" in seed and "aces alone" in seed
    assert "either hold a card of the same suit" in seed and "be a pair of the same rank" in seed
    assert "swap up to 3 cards: put them" in seed and "down to 5 cards" in seed
    assert "the most blocked tricks wins" in seed
    assert "Equal piles when drawing stops are a draw" in seed
    assert "Equal piles after both players passed mean nobody wins" in seed
    assert "pair" in seed and "run" in seed and "secondary stockpile" in seed

    assert "the lowest of each suit: ace-2 is a run" in _sheet_text({"aces": "low"})
    assert "the highest of each suit: king-ace is a run" in _sheet_text({"aces": "high"})
    suit = _sheet_text({"block": "suit"})
    assert "a matching rank is not enough" in suit and "pair of the same rank" not in suit
    rank = _sheet_text({"block": "rank", "rank_match": "card"})
    assert "hold a card of the same rank" in rank and "a matching suit is not enough" in rank
    no_swap = _sheet_text({"max_swap": 0})
    assert "Swapping cards is not allowed" in no_swap
    # Nowhere else on that sheet is a swap offered (the turn and the block said so).
    assert "block or pass." in no_swap and "block it or pass, but not lay" in no_swap
    assert "once you pass instead, it stands" in no_swap
    assert "or swap" not in no_swap and "swap." not in no_swap
    assert "swap one card: put it face down on the secondary stockpile, then draw one from" in (
        _sheet_text({"max_swap": 1})
    )
    assert "the stockpile is empty and there is no secondary" in _sheet_text({"stock_floor": 0})
    assert "down to 12 cards" in _sheet_text({"stock_floor": 12})
    assert "the fewest blocked tricks wins" in _sheet_text({"count": "fewest"})
    # Every preset's sheet is its own.
    texts = {name: _sheet_text(c.to_dict()) for name, c in PRESETS.items()}
    assert len(set(texts.values())) == len(PRESETS)
    assert sheet_for(Config()) == KIND.sheet({})


def test_the_facilitators_summary_names_every_knob():
    assert KIND.summary({}) == (
        "Wild aces, block by suit or a pair, swap up to 3, drawing stops at 5, most blocked wins"
    )
    assert KIND.summary({"aces": "high", "block": "rank", "rank_match": "card", "max_swap": 0,
                         "stock_floor": 12, "count": "fewest"}) == (
        "Aces high, block by rank, no swapping, drawing stops at 12, fewest blocked wins"
    )  # fmt: skip
    assert len({KIND.summary(c.to_dict()) for c in PRESETS.values()}) == len(PRESETS)


def test_highlights_come_from_the_legal_actions():
    hand = ["6S", "7S", "6H", "9D", "KC"]
    actions = [
        {"type": "lay", "seat": 0, "cards": ["6S", "7S"]},
        {"type": "lay", "seat": 0, "cards": ["6S", "6H"]},
        {"type": "block", "seat": 0, "cards": ["6H", "9D"]},
        {"type": "pass", "seat": 0},
        {"type": "swap", "seat": 0, "cards": ["KC"]},
        {"type": "swap", "seat": 0, "cards": ["KC", "9D"]},
    ]
    assert lay_partners(hand, actions) == {"6S": ["7S", "6H"], "7S": ["6S"], "6H": ["6S"]}
    assert block_partners(hand, actions) == {"6H": ["9D"], "9D": ["6H"]}
    assert swap_limit(actions) == 2
    assert swap_limit([{"type": "pass", "seat": 0}]) == 0
    assert lay_partners(hand, []) == {} == block_partners(hand, [])


def test_phone_moves_become_the_seats_own_actions():
    state = three_tricks.new_game(Config(), seed=1)
    assert KIND.phone_action(state, 1, {"type": "pass", "seat": 0}) == {"type": "pass", "seat": 1}
    assert KIND.phone_action(state, 0, {"type": "lay", "cards": [" 7h", "8H"]}) == {
        "type": "lay", "seat": 0, "cards": ["7H", "8H"]}  # fmt: skip
    assert KIND.phone_action(state, 0, {"type": "swap", "cards": ["10d"]})["cards"] == ["10D"]
    for bad in (
        "lay",
        None,
        {"type": "play", "card": "7H"},
        {"type": "lay"},
        {"type": "lay", "cards": "7H8H"},
        {"type": "lay", "cards": []},
        {"type": "block", "cards": ["ZZ", "7H"]},
        {"type": "swap", "cards": [7, 8]},
        {"type": "swap", "cards": ["7H"] * 8},
    ):
        with pytest.raises(MoveError):
            KIND.phone_action(state, 0, bad)


def _deck(top: list[str]) -> list[str]:
    rest = [c for c in three_tricks.full_deck() if c not in top]
    return top + rest


def _deal(seat0: list[str], seat1: list[str], stock_top: list[str] = ()) -> list[str]:
    """A deck (top first) dealing ``seat0``/``seat1`` to engine seats 0/1 with dealer 1."""
    return _deck([c for pair in zip(seat0, seat1, strict=True) for c in pair] + list(stock_top))


def test_outcome_finished_drawn_and_cut_short():
    s0 = ["6S", "7S", "2H", "4D", "9C", "JC", "KD"]
    s1 = ["6H", "6D", "3C", "5H", "8D", "10H", "QS"]
    state = three_tricks.new_game(Config(), deck=_deal(s0, s1), dealer=1)
    assert state.to_act == 0
    assert KIND.outcome(state) == {"winners": [], "scores": [0, 0]}  # level so far
    assert KIND.to_act(state) == [0]
    state, _ = KIND.apply(state, {"type": "lay", "seat": 0, "cards": ["6S", "7S"]})
    state, _ = KIND.apply(state, {"type": "block", "seat": 1, "cards": ["6H", "6D"]})
    # Cut now: seat 0 has one blocked trick and the count favours the most.
    assert not KIND.is_over(state)
    assert KIND.outcome(state) == {"winners": [0], "scores": [1, 0]}
    fewest = three_tricks.replay(
        Config(count="fewest"),
        [{"type": "lay", "seat": 0, "cards": ["6S", "7S"]},
         {"type": "block", "seat": 1, "cards": ["6H", "6D"]}],
        deck=_deal(s0, s1), dealer=1,
    )  # fmt: skip
    assert KIND.outcome(fewest)["winners"] == [1]
    # Two passes in a row with level piles: nobody wins (docs/three_tricks.md).
    level = three_tricks.new_game(Config(), deck=_deal(s0, s1), dealer=1)
    level, _ = KIND.apply(level, {"type": "pass", "seat": 0})
    level, _ = KIND.apply(level, {"type": "pass", "seat": 1})
    assert KIND.is_over(level) and KIND.to_act(level) == []
    assert KIND.outcome(level) == {"winners": [], "scores": [0, 0]}
    assert KIND.end_reason(level) == "both_passed"
    assert KIND.how_it_ended("both_passed", []) == (
        "both players passed with the blocked piles level"
    )
    # Before the decision both were credited: integrity and check_export accept that.
    assert KIND.winners_before("both_passed", KIND.outcome(level)) == [0, 1]
    # Drawing stops with level piles: a draw, both seats win.
    stopped = replace(three_tricks.new_game(Config(), deck=_deal(s0, s1), dealer=1),
                      stock=("2D", "3D", "4D", "5D", "7D"))  # fmt: skip
    stopped, _ = KIND.apply(stopped, {"type": "pass", "seat": 0})
    assert KIND.is_over(stopped) and KIND.end_reason(stopped) == "drawing_stopped"
    assert KIND.outcome(stopped) == {"winners": [0, 1], "scores": [0, 0]}
    assert KIND.winners_before("drawing_stopped", KIND.outcome(stopped)) is None
    assert KIND.how_it_ended("both_passed", [0]) == (
        "both players passed: the blocked tricks were counted"
    )


def render_game(state, seat: int) -> str:
    ctx = KIND.screen(state, seat, names=["Ana", "Bea"])
    return render_to_string(KIND.template, {"game": {"id": 1, "template": KIND.template, **ctx}})


def words(html: str) -> str:
    """The text of ``html`` with its whitespace collapsed (a name's <bdi> is inline:
    no space of its own)."""
    html = re.sub(r"</?bdi>", "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def seen(html: str) -> str:
    """The words on the screen: without what only a screen reader hears."""
    return words(re.sub(r'<span class="visually-hidden[^"]*">.*?</span>', "", html, flags=re.S))


def heard(html: str) -> str:
    """The words a screen reader hears: without what is only drawn (the card faces)."""
    html = re.sub(r'<span aria-hidden="true">.*?</span>', "", html, flags=re.S)
    # An element's edge is no space of its own (as in its textContent).
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def last_line(html: str) -> str:
    """The line that says what the last move was: said first when it changes."""
    found = re.search(r'<p class="tt-last hint[^"]*" data-announce="first">(.*?)</p>', html, re.S)
    assert found, html
    return found.group(1)


def test_the_screen_for_a_first_a_third_and_a_winning_trick():
    s0 = ["6S", "7S", "9H", "9D", "2C", "3C", "4C"]
    s1 = ["2S", "5H", "9S", "KD", "7D", "10H", "4S"]  # no pair, no run: no trick at all
    state = three_tricks.new_game(Config(max_swap=2), deck=_deal(s0, s1), dealer=1)
    ctx = KIND.screen(state, 0, names=["Ana", "Bea"])
    assert (ctx["me"], ctx["opponent"], ctx["my_turn"], ctx["trick_size"]) == (
        "Ana",
        "Bea",
        True,
        2,
    )
    assert ctx["can_lay"] and ctx["swap_max"] == 2 and ctx["target"] is None
    assert {h["card"] for h in ctx["hand"] if h["lay_with"]} == {
        "6S",
        "7S",
        "9H",
        "9D",
        "2C",
        "3C",
        "4C",
    }
    assert ctx["stock"] == 38 and ctx["secondary"] == 0 and ctx["opponent_cards"] == 7
    assert ctx["last"] is None and not ctx["over"]

    state, _ = KIND.apply(state, {"type": "lay", "seat": 0, "cards": ["6S", "7S"]})
    html = render_game(state, 1)
    text = words(html)
    assert (
        "Your turn. Ana has just laid a trick: nothing in your hand blocks it; pass or swap."
        in text
    )
    assert "Ana laid 6♠ 7♠" in seen(html)
    # Heard with the cards in words, and which pile decides when drawing stops.
    assert heard(last_line(html)) == "Ana laid 6 of spades and 7 of spades."
    assert "pass or swap. Stockpile: 38 cards." in heard(html)
    assert "tt-target" not in html and "tt-matches" not in html  # Bea holds no block
    assert 'data-move=\'{"type":"block"}\'' not in html
    assert 'data-move=\'{"type":"lay"}\'' not in html  # facing a fresh trick
    state, _ = KIND.apply(state, {"type": "pass", "seat": 1})
    text = words(render_game(state, 1))
    assert "Your turn" not in text and "Ana is playing." in text and "You passed." in text
    state, _ = KIND.apply(state, {"type": "lay", "seat": 0, "cards": ["9H", "9D"]})
    state, _ = KIND.apply(state, {"type": "pass", "seat": 1})
    ctx = KIND.screen(state, 0, names=["Ana", "Bea"])
    assert ctx["trick_size"] == 3 and ctx["my_tricks"] == [["6S", "7S"], ["9H", "9D"]]
    html = render_game(state, 0)
    assert "Your turn. Lay your third trick (three cards) to win, pass or swap." in words(html)
    assert 'data-min-picks="3" data-max-picks="3"' in html
    assert {h["card"] for h in ctx["hand"] if h["lay_with"]} == {"2C", "3C", "4C"}

    state, _ = KIND.apply(state, {"type": "lay", "seat": 0, "cards": ["2C", "3C", "4C"]})
    for seat, said in ((0, "Game over: you won!"), (1, "Game over: Ana won.")):
        html = render_game(state, seat)
        assert said + " Three tricks stood in a row." in words(html)
        assert 'data-action="act"' not in html


def test_the_screen_after_a_second_tricks_block_says_whose_turn_it_took():
    s0 = ["6S", "7S", "9H", "9D", "2C", "3C", "4C"]
    s1 = ["2D", "3D", "9S", "KC", "7C", "10S", "QC"]
    state = three_tricks.replay(
        Config(),
        [{"type": "lay", "seat": 0, "cards": ["6S", "7S"]}, {"type": "pass", "seat": 1},
         {"type": "lay", "seat": 0, "cards": ["9H", "9D"]},
         {"type": "block", "seat": 1, "cards": ["2D", "3D"]}],
        deck=_deal(s0, s1, ["AH", "8S", "JD", "5C"]), dealer=1,
    )  # fmt: skip
    bea = seen(render_game(state, 1))
    assert "Your turn." in bea
    assert (
        "You blocked 2 tricks with 2♦ 3♦ : drawing four cards took Ana's turn, so you play again."
        in bea
    )
    ana = seen(render_game(state, 0))
    assert "Bea is playing." in ana
    assert "Bea blocked 2 tricks with 2♦ 3♦ : drawing four cards took your turn." in ana
    # Heard with the cards in words and the blocked piles (the count decides the game).
    # Ana hears the four cards she drew back, which a sorted hand scatters (in its
    # order: wild aces last); Bea hears none of them (nor sees them).
    assert heard(last_line(render_game(state, 0))) == (
        "Bea blocked 2 tricks with 2 of diamonds and 3 of diamonds: drawing four cards took"
        " your turn. Blocked piles: yours 2, Bea's 0. You drew 8 of spades and jack of diamonds"
        " and 5 of clubs and ace of hearts."
    )
    assert "You drew 8♠ J♦ 5♣ A♥ ." in seen(render_game(state, 0))
    assert heard(last_line(render_game(state, 1))).endswith("Ana drew 4 cards.")
    for card in ("8♠", "A♥", "J♦", "5♣"):
        assert card not in seen(render_game(state, 1))
    # The line a screen reader says when it changes tells it too (it said only "Bea is
    # playing.", as before the block).
    whose = re.search(
        r'<p class="whose tt-whose" data-announce>(.*?)</p>', render_game(state, 0), re.S
    )
    assert words(whose.group(1)) == (
        "Bea blocked 2 of your tricks: drawing four cards took your turn. Bea is playing."
    )


def test_the_screen_after_a_swap_says_the_cards_drawn_to_the_swapper_only():
    s0 = ["2S", "5H", "9S", "KD", "7D", "10H", "4S"]
    s1 = ["6S", "7S", "9H", "9D", "2C", "3C", "4C"]
    state = three_tricks.new_game(Config(), deck=_deal(s0, s1, ["QH", "3S"]), dealer=1)
    state, _ = KIND.apply(state, {"type": "swap", "seat": 0, "cards": ["KD", "10H"]})
    ana = render_game(state, 0)
    assert heard(last_line(ana)) == "You swapped 2 cards. You drew 3 of spades and queen of hearts."
    assert "You swapped 2 cards. You drew 3♠ Q♥ ." in seen(ana)
    bea = render_game(state, 1)
    assert heard(last_line(bea)) == "Ana swapped 2 cards."
    assert "Q♥" not in seen(bea) and "queen of hearts" not in heard(bea)
    # Bea's move draws nothing: Ana's line is Bea's move alone.
    state, _ = KIND.apply(state, {"type": "lay", "seat": 1, "cards": ["6S", "7S"]})
    assert "drew" not in heard(last_line(render_game(state, 0)))


def test_the_screen_says_when_the_secondary_stockpile_became_the_stockpile():
    s0 = ["2S", "5H", "9S", "KD", "7D", "10H", "4S"]
    s1 = ["6S", "7S", "9H", "9D", "2C", "3C", "4C"]
    state = three_tricks.new_game(Config(stock_floor=0), deck=_deal(s0, s1), dealer=1)
    # The stockpile down to its last card, with cards on the secondary pile (a set-up,
    # not a reachable deal): the swap's second card comes from the shuffled secondary.
    state = replace(state, stock=("QH",), secondary=("JS", "JH", "8C"))
    state, _ = KIND.apply(state, {"type": "swap", "seat": 0, "cards": ["KD", "10H"]})
    for seat in (0, 1):
        line = heard(last_line(render_game(state, seat)))
        assert line.endswith("The secondary stockpile was shuffled to make a new stockpile.")
    assert KIND.screen(state, 0, names=["Ana", "Bea"])["stock"] == 4


def test_the_screen_with_no_trick_in_hand():
    s0 = ["2S", "5H", "9S", "KD", "7D", "10H", "4S"]
    s1 = ["6S", "7S", "9H", "9D", "2C", "3C", "4C"]
    state = three_tricks.new_game(Config(max_swap=0), deck=_deal(s0, s1), dealer=1)
    html = render_game(state, 0)
    assert "Your turn. No trick in your hand: pass." in words(html)
    assert (
        'data-move=\'{"type":"lay"}\'' not in html and 'data-move=\'{"type":"swap"}\'' not in html
    )
    assert 'data-move=\'{"type":"pass"}\'' in html


def test_the_screen_facing_a_trick_with_two_of_ones_own_standing():
    s0 = ["6S", "7S", "9H", "9D", "2C", "3C", "4C"]
    s1 = ["5D", "5C", "9S", "KD", "7D", "10H", "4S"]
    state = three_tricks.replay(
        Config(),
        [{"type": "lay", "seat": 0, "cards": ["6S", "7S"]}, {"type": "pass", "seat": 1},
         {"type": "lay", "seat": 0, "cards": ["9H", "9D"]}, {"type": "pass", "seat": 1},
         {"type": "swap", "seat": 0, "cards": ["4C"]},
         {"type": "lay", "seat": 1, "cards": ["5D", "5C"]}],
        deck=_deal(s0, s1), dealer=1,
    )  # fmt: skip
    html = render_game(state, 0)
    assert (
        "Your turn. Bea has just laid a trick: with two tricks standing you cannot block; "
        "pass or swap." in words(html)
    )
    # 2♣ 3♣ would match the clubs, but no block is legal: nothing lit, no block button.
    assert "tt-matches" not in html and "tt-target" not in html
    assert 'data-move=\'{"type":"block"}\'' not in html


def test_bots_play_a_seeded_game_to_its_end_by_the_kind_alone():
    state = KIND.new_state(table_rules={"max_swap": 2}, seat_rules=[{}, {}], mode="barnga", seed=9)
    rng = random.Random(3)
    for _ in range(3000):
        if KIND.is_over(state):
            break
        (seat,) = KIND.to_act(state)
        assert KIND.bot_action(state, 1 - seat, rng) is None
        state, _ = KIND.apply(state, KIND.bot_action(state, seat, rng))
    assert KIND.is_over(state)
    assert KIND.outcome(state)["winners"]
    assert KIND.progress(state) == state.turns > 0


# ---------------------------------------------------------------- in a workshop


def three_tricks_workshop(*, tables=2, players=4, sheets=None, **kw):
    w = services.workshop_create(
        name="3 Tricks", game="three_tricks", table_count=tables, seats_per_table=2, seed=7, **kw
    )
    for name in NAMES[:players]:
        services.player_join(workshop_id=w.pk, name=name)
    if sheets:
        services.sheets_assign(workshop_id=w.pk, assignment=sheets)
    return w


def find_lay_then_block(config: Config) -> tuple[int, dict, dict]:
    """A seed whose first player can lay a trick that the other can block."""
    for seed in range(2000):
        state = three_tricks.new_game(config, seed=seed)
        for lay in three_tricks.legal_actions(state, state.to_act):
            if lay["type"] != "lay":
                continue
            after, _ = three_tricks.apply(state, lay)
            blocks = [a for a in three_tricks.legal_actions(after, after.to_act)
                      if a["type"] == "block"]  # fmt: skip
            if blocks:
                return seed, lay, blocks[0]
    pytest.fail("no seed deals a trick and its block")


def screen_html(pid) -> str:
    ctx = selectors.player_screen(pid, timezone.now())
    return render_to_string("play/_screen.html", ctx)


def hand_buttons(html: str) -> dict[str, str]:
    """data-pick card → the whole <button …> tag."""
    return {
        m.group(1): m.group(0)
        for m in re.finditer(r'<button[^>]*data-pick="([^"]+)"[^>]*>', html, re.S)
    }


@pytest.mark.django_db
def test_a_workshop_of_three_tricks_refuses_tables_of_three():
    err = assert_refused(
        lambda: services.workshop_create(
            name="Too many", game="three_tricks", table_count=2, seats_per_table=3
        ),
        InvalidInput,
    )
    assert "3 Tricks is played by 2 players" in err.message
    w = three_tricks_workshop()
    assert w.game == "three_tricks" and w.seats_per_table == 2
    rules = [t.rules for t in tables_of(w)]
    assert rules[0] != rules[1]
    assert all(KIND.rules_from_dict(r).to_dict() == r for r in rules)
    assert all(t.preset in PRESETS for t in tables_of(w))


@pytest.mark.django_db
def test_study_deals_a_game_of_two_at_each_table_and_shows_the_sheet():
    w = three_tricks_workshop(sheets={"1": "suits", "2": "low-aces"})
    services.players_seat_home(workshop_id=w.pk)
    t1, t2 = tables_of(w)
    assert [p.name for p in Player.objects.filter(table=t1).order_by("seat")] == ["Ana", "Cai"]
    services.workshop_start_study(workshop_id=w.pk)
    for table in (t1, t2):
        game = game_at(table)
        assert game.kind == "three_tricks" and len(game.players) == 2
        assert game.table_rules == table.rules == game.seat_rules[0] == game.seat_rules[1]
        state = gamestate.load_state(game)
        assert [len(h) for h in state.hands] == [7, 7] and len(state.stock) == 38
    html = screen_html(Player.objects.get(name="Ana").pk)
    assert "Your rules: 3 Tricks" in html
    assert "a matching rank is not enough" in html  # table 1 blocks by suit only
    assert "swap up to 2 cards" in html
    html = screen_html(Player.objects.get(name="Bea").pk)
    assert "the lowest of each suit" in html


@pytest.mark.django_db
def test_moves_through_the_tournament_and_the_screens_that_show_them():
    w = three_tricks_workshop(sheets={"1": "seed", "2": "pairs"})
    rnd = to_scored_round(w)
    t1, _ = tables_of(w)
    seed, lay, block = find_lay_then_block(Config())
    game = fix_seed(game_at(t1), seed)
    state = gamestate.load_state(game)
    first = state.to_act
    layer, blocker = game.players[first], game.players[1 - first]

    # Out of turn: the engine's reason, nothing stored.
    err = assert_refused(
        lambda: services.game_act(player_id=blocker, move={"type": "pass"}), IllegalMove
    )
    assert "not your turn" in err.message
    # An illegal lay: two cards that are no trick, refused with the engine's reason.
    hand = state.hands[first]
    bad = next(list(p) for p in combinations(hand, 2) if not three_tricks.is_trick(p, state.config))
    err = assert_refused(
        lambda: services.game_act(player_id=layer, move={"type": "lay", "cards": bad}),
        IllegalMove,
    )
    assert err.message == three_tricks.trick_problem(bad, 2, state.config)
    err = assert_refused(
        lambda: services.game_act(player_id=layer, move={"type": "lay", "cards": ["2C", "2C"]}),
        IllegalMove,
    )
    # Malformed moves never reach the engine.
    for move in ({"type": "bid", "bid": 2}, {"type": "lay", "cards": "6S"}, ["pass"],
                 {"type": "swap", "cards": ["XX"]}):  # fmt: skip
        assert_refused(lambda m=move: services.game_act(player_id=layer, move=m), InvalidInput)
    # Five Tricks' own messages are not for this table.
    assert_refused(lambda: services.game_play(player_id=layer, card=hand[0]), InvalidInput)

    # The layer's screen: their hand as pickable cards, the trick-making ones highlighted.
    html = screen_html(layer)
    v = three_tricks.view(state, first)
    buttons = hand_buttons(html)
    assert set(buttons) == set(hand)
    assert {c for c, b in buttons.items() if "tt-fits" in b} == set(v["trick_cards"]) != set()
    assert all("makes a trick with" in buttons[c] for c in v["trick_cards"])
    assert 'data-move=\'{"type":"lay"}\'' in html and 'data-min-picks="2"' in html
    assert "Your turn." in html and '<p class="whose tt-whose" data-announce>' in html
    assert 'data-move=\'{"type":"swap"}\'' in html and 'data-max-picks="3"' in html
    other = screen_html(blocker)
    assert f"<bdi>{Player.objects.get(pk=layer).name}</bdi> is playing." in other
    waiting = hand_buttons(other)
    assert set(waiting) == set(state.hands[1 - first])
    assert all('aria-disabled="true"' in b and "tt-" not in b for b in waiting.values())
    assert 'data-action="act"' not in other  # no moves offered out of turn
    for seat, page in ((first, html), (1 - first, other)):
        for card in state.hands[1 - seat]:
            # A hand's face is marked up (rank, suit): its name in words is the check.
            assert card_face(card) not in page, f"seat {seat} sees the opponent's {card}"
            assert card_name(card) not in page, f"seat {seat} sees the opponent's {card}"

    # A legal lay through the service.
    result = services.game_act(player_id=layer, move={"type": "lay", "cards": lay["cards"]})
    assert result.seq == 1 and result.events[0]["type"] == "laid"
    state = gamestate.load_state(fresh(game))
    assert state.standing[first] == (tuple(lay["cards"]),) and state.to_act == 1 - first

    # The blocker sees the fresh trick with a block button and the matching cards lit.
    v = three_tricks.view(state, 1 - first)
    html = screen_html(blocker)
    buttons = hand_buttons(html)
    lit = {c for c, b in buttons.items() if "tt-matches" in b}
    assert lit == set(v["blockers"]) and set(block["cards"]) <= lit
    assert all("matches trick" in buttons[c] for c in lit)
    assert not any("matches trick" in b for c, b in buttons.items() if c not in lit)
    assert html.count('data-move=\'{"type":"block"}\'') == 1 and "tt-target" in html
    assert 'data-move=\'{"type":"lay"}\'' not in html  # facing a fresh trick: no lay
    for card in lay["cards"]:
        assert card_face(card) in html  # the laid trick is face up for both
    for card in state.hands[first]:
        assert card_face(card) not in html and card_name(card) not in html

    services.game_act(player_id=blocker, move={"type": "block", "cards": block["cards"]})
    state = gamestate.load_state(fresh(game))
    assert state.blocked[first] == (tuple(lay["cards"]),)
    assert len(state.hands[first]) == 7 and state.to_act == first
    html = screen_html(layer)
    assert "blocked a trick with" in html and "blocked pile: <strong>1</strong>" in html

    # The blocked player swaps instead of blocking back; the blocker then passes.
    swap = [state.hands[first][0]]
    services.game_act(player_id=layer, move={"type": "swap", "cards": swap})
    state = gamestate.load_state(fresh(game))
    assert len(state.secondary) == 1 and len(state.hands[first]) == 7
    assert "swapped 1 card." in screen_html(blocker)
    services.game_act(player_id=blocker, move={"type": "pass"})
    assert "passed." in screen_html(layer)

    game = fresh(game)
    assert game.seq == 4 == Action.objects.filter(game=game).count()
    assert [a.kind for a in game.actions.order_by("seq")] == ["lay", "block", "swap", "pass"]
    assert gamestate.replay_log(game) == gamestate.load_state(game)

    # The round ends mid-game: the count so far credits the layer (one blocked trick,
    # the most); the untouched table 2 is level and credits nobody.
    services.round_end_now(round_id=rnd.pk)
    game = fresh(game)
    assert game.state == GameState.CUT
    assert game.winners == [layer]
    assert game.scores == [1, 0] if first == 0 else game.scores == [0, 1]
    assert game.tricks_won == []
    g2 = Game.objects.get(table=tables_of(w)[1], round=rnd)
    assert g2.state == GameState.CUT and g2.winners == [] and g2.scores == [0, 0]
    assert fresh(w).phase == Phase.BETWEEN


@pytest.mark.django_db
def test_the_movement_after_a_round_at_tables_of_two():
    w = three_tricks_workshop(sheets={"1": "seed", "2": "pairs"})
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    seed, lay, block = find_lay_then_block(Config())
    game = fix_seed(game_at(t1), seed)
    first = gamestate.load_state(game).to_act
    winner, loser = game.players[first], game.players[1 - first]
    services.game_act(player_id=winner, move={"type": "lay", "cards": lay["cards"]})
    services.game_act(player_id=loser, move={"type": "block", "cards": block["cards"]})
    services.round_end_now(round_id=rnd.pk)
    rnd = fresh(rnd)
    won = {row["id"]: row["games_won"] for row in rnd.standings["players"]}
    assert won[winner] == 1 and sum(won.values()) == 1
    moves = {m["player"]: (m["from"], m["to"]) for m in rnd.movement_preview["moves"]}
    # Table 1's winner goes up; table 2's two (level: by name) send the second down.
    t2_players = sorted(Player.objects.filter(table=t2), key=lambda p: p.name.casefold())
    assert moves == {winner: (1, 2), t2_players[1].pk: (2, 1)}
    services.movement_apply(round_id=rnd.pk)
    r2 = services.round_start(workshop_id=w.pk)
    g1, g2 = game_at(t1), game_at(t2)
    assert g1.round_id == g2.round_id == r2.pk
    assert set(g1.players) == {loser, t2_players[1].pk}
    assert set(g2.players) == {winner, t2_players[0].pk}
    # One sheet per table: the newcomer plays by the table's rules like everyone.
    assert g2.seat_rules == [t2.rules, t2.rules] and g2.table_rules == t2.rules


@pytest.mark.django_db
def test_bots_play_games_forward_on_the_clock_and_the_log_replays():
    w = services.workshop_create(
        name="3 Tricks bots", game="three_tricks", table_count=2, seats_per_table=2,
        bots_enabled=True, seed=5, study_seconds=60,
    )  # fmt: skip
    services.sheets_assign(workshop_id=w.pk, assignment={"1": "pairs", "2": "wild-ranks-fewest"})
    services.player_join(workshop_id=w.pk, name="Ana")
    services.players_seat_home(workshop_id=w.pk)
    bots = services.bots_fill(workshop_id=w.pk)
    assert len(bots) == 3
    study = services.workshop_start_study(workshop_id=w.pk)
    ana = Player.objects.get(name="Ana")
    t_ana = ana.table
    bot_table = next(t for t in tables_of(w) if t.pk != t_ana.pk)
    # A human seat is never played by the clock.
    assert_refused(lambda: services.game_bot_act(player_id=ana.pk), NotAllowed)
    for _ in range(3000):
        if Game.objects.filter(table=bot_table, round=study, state=GameState.OVER).exists():
            break
        game = game_at(t_ana)
        state = gamestate.load_state(game)
        if state.to_act is not None and game.players[state.to_act] == ana.pk:
            # Ana answers by her own screen's legal moves (pass or the first lay).
            moves = three_tricks.view(state, state.to_act)["actions"]
            move = next((a for a in moves if a["type"] == "lay"), moves[0])
            services.game_act(player_id=ana.pk, move={k: v for k, v in move.items() if k != "seat"})
        timers.tick(now=timezone.now(), bot_delay=0)
    else:
        pytest.fail("the bots did not finish a game")
    finished = Game.objects.get(table=bot_table, round=study, state=GameState.OVER)
    state = gamestate.replay_log(finished)
    assert three_tricks.is_over(state)
    assert finished.winners == [finished.players[s] for s in three_tricks.result(state)["winners"]]
    assert finished.scores == three_tricks.result(state)["blocked"]
    bot_ids = {b.pk for b in bots}
    assert set(finished.actions.values_list("actor", flat=True)) <= bot_ids
    # A new game was dealt at once, and every stored game replays to its live state.
    assert game_at(bot_table) is not None and game_at(bot_table).number == 2
    for g in Game.objects.filter(table__workshop=w):
        assert gamestate.replay_log(g) == gamestate.load_state(g)
    assert Action.objects.filter(game__table=t_ana, actor=ana).exists()


@pytest.mark.django_db
def test_a_game_both_pass_at_once_has_no_winner_on_both_phones():
    """Both pass before any trick: the piles are level at 0-0, and two passes with level
    piles win nobody (docs/three_tricks.md; it was a draw, a game won for each, so two
    students who only tapped Pass were each credited a game per deal). The next game is
    dealt at once; the line left on the phones says no winner, and why."""
    w = three_tricks_workshop(tables=1, players=2)
    to_scored_round(w)
    (t1,) = tables_of(w)
    game = game_at(t1)
    first = gamestate.load_state(game).to_act
    services.game_act(player_id=game.players[first], move={"type": "pass"})
    services.game_act(player_id=game.players[1 - first], move={"type": "pass"})
    game.refresh_from_db()
    assert game.state == "over" and game.winners == [] and game.scores == [0, 0]
    assert game.ended_by == "both_passed"
    for pid in game.players:
        text = words(screen_html(pid))
        assert (
            "Last game (game 1) : no winner"
            " (both players passed with the blocked piles level)." in text
        ), text
        assert "a draw" not in text and "won by" not in text and "for each of you" not in text
        # Heard with the count.
        assert re.search(r"level\)\. Blocked tricks: \S+ 0, \S+ 0\.", text), text
    assert integrity.game_problems(game) == []
    # Stored before the decision (both credited): it stands, the standings were built on it.
    Game.objects.filter(pk=game.pk).update(winners=game.players)
    assert integrity.game_problems(fresh(game)) == []
    Game.objects.filter(pk=game.pk).update(winners=game.players[:1])
    (problem,) = integrity.game_problems(fresh(game))
    assert f"winners [{game.players[0]}] != replay []" in problem


def test_the_game_over_screen_says_no_winner_after_two_passes_at_level_piles():
    s0 = ["6S", "7S", "2H", "4D", "9C", "JC", "KD"]
    s1 = ["6H", "6D", "3C", "5H", "8D", "10H", "QS"]
    passed = three_tricks.new_game(Config(), deck=_deal(s0, s1), dealer=1)
    passed, _ = KIND.apply(passed, {"type": "pass", "seat": 0})
    passed, _ = KIND.apply(passed, {"type": "pass", "seat": 1})
    for seat in (0, 1):
        text = words(render_game(passed, seat))
        assert (
            "Game over: no winner. Both players passed with the blocked piles level:"
            " nobody wins." in text
        ), text
        assert " won." not in text and "a draw" not in text
    stopped = replace(three_tricks.new_game(Config(), deck=_deal(s0, s1), dealer=1),
                      stock=("2D", "3D", "4D", "5D", "7D"))  # fmt: skip
    stopped, _ = KIND.apply(stopped, {"type": "pass", "seat": 0})
    text = words(render_game(stopped, 1))
    assert "Game over: a draw. Drawing stopped: the blocked piles were counted." in text, text


def test_after_the_other_players_pass_the_screen_says_a_pass_now_ends_the_game():
    """A walk through a 3 Tricks workshop: Ana passed, Bea's phone said only "Lay a
    trick, pass or swap", and Bea's Pass ended the game at once, 38 cards still in the
    stockpile and nobody winning (two passes in a row end it: docs/three_tricks.md),
    with the rules put away. The turn line now says so, in place of the moves' list
    (the Pass button has no room for more words at 360 px, nor the smallest phone
    for a line more); not before
    the first pass, nor after a pass that let a fresh trick stand (it does not count)."""
    s0 = ["6S", "7S", "2H", "4D", "9C", "JC", "KD"]
    s1 = ["6H", "6D", "3C", "5H", "8D", "10H", "QS"]
    first = three_tricks.new_game(Config(), deck=_deal(s0, s1), dealer=1)
    ends = "A pass now ends the game."
    assert ends not in words(render_game(first, 0))
    passed, _ = KIND.apply(first, {"type": "pass", "seat": 0})
    html = render_game(passed, 1)
    # Seen in place of the moves' list (the buttons show them), which is still heard.
    assert f"Your turn. {ends}" in seen(html), seen(html)
    assert f"Your turn. {ends} Lay a trick, pass or swap." in words(html), words(html)
    # Ana's own screen while Bea decides says nothing of it.
    assert "game ends" not in words(render_game(passed, 0))
    # A pass that lets a fresh trick stand does not count towards the two.
    laid = three_tricks.new_game(Config(), deck=_deal(["6S", "6C", *s0[2:]], s1), dealer=1)
    laid, _ = KIND.apply(laid, {"type": "lay", "seat": 0, "cards": ["6S", "6C"]})
    laid, _ = KIND.apply(laid, {"type": "pass", "seat": 1})
    assert "game ends" not in words(render_game(laid, 0))


@pytest.mark.django_db
def test_players_who_pass_twice_at_every_deal_are_credited_no_game():
    """The walk-through: two students who tap Pass at every deal were each credited a
    game won per deal ("You won 6 games this round") and outranked a table that played."""
    w = three_tricks_workshop(tables=2, players=4)
    rnd = to_scored_round(w)
    t1, _ = tables_of(w)
    for _ in range(3):
        game = game_at(t1)
        first = gamestate.load_state(game).to_act
        services.game_act(player_id=game.players[first], move={"type": "pass"})
        services.game_act(player_id=game.players[1 - first], move={"type": "pass"})
        assert fresh(game).state == "over" and fresh(game).winners == []
    passers = list(game.players)
    assert game_at(t1).number == 4  # each two passes ended a game, and one more was dealt
    services.round_end_now(round_id=rnd.pk)
    rnd.refresh_from_db()
    rows = {r["id"]: r for r in rnd.standings["players"]}
    for pid in passers:
        # Four games played (three finished, the fourth cut by the round's end), none won.
        assert (rows[pid]["games_won"], rows[pid]["games_played"]) == (0, 4)
        text = words(screen_html(pid))
        assert "You won 0 games this round." in text, text
    assert Game.objects.filter(round=rnd, table=t1).exclude(winners=[]).count() == 0


@pytest.mark.django_db
def test_a_level_count_when_drawing_stops_is_a_draw_on_both_phones():
    """Drawing stops with the piles level (9-9): a draw, a game won for each (RULES §1's
    co-winners), said so on both phones with how it ended."""
    w = three_tricks_workshop(tables=1, players=2, sheets={"1": "seed"})
    to_scored_round(w)
    (t1,) = tables_of(w)
    game = fix_seed(game_at(t1), 703)
    end, log = three_tricks.play_game(PRESETS["seed"], 703)
    assert end.outcome == "drawing_stopped" and three_tricks.result(end)["draw"]
    play_log(game, log)
    game = fresh(game)
    assert game.state == "over" and game.winners == game.players and game.scores == [9, 9]
    for pid in game.players:
        text = words(screen_html(pid))
        assert (
            "Last game (game 1) : a draw — a game won for each of you"
            " (drawing stopped: the blocked tricks were counted)." in text
        ), text
        assert "won by" not in text
        assert re.search(r"counted\)\. Blocked tricks: \S+ 9, \S+ 9\.", text), text


@pytest.mark.django_db
def test_the_last_game_line_says_how_the_game_ended():
    """A game won by three tricks standing was said as 'won by Bea. Blocked tricks:
    you 0, Bea 0.', which sounds like a level count: the way it ended is stored with
    the game and said after its result."""
    w = three_tricks_workshop(tables=1, players=2)
    to_scored_round(w)
    (t1,) = tables_of(w)
    rng = random.Random(4)
    ended = {}
    for _ in range(3000):
        game = game_at(t1)
        state = gamestate.load_state(game)
        seat = state.to_act
        action = KIND.bot_action(state, seat, rng)
        move = {k: v for k, v in action.items() if k != "seat"}
        services.game_act(player_id=game.players[seat], move=move)
        game.refresh_from_db()
        if game.state == "over":
            ended.setdefault(game.ended_by, game)
            if "three_tricks" in ended:
                break
    game = ended["three_tricks"]
    (winner,) = game.winners
    loser = next(pid for pid in game.players if pid != winner)
    # The next game was dealt at once: the line is the phones' until it ends.
    assert game_at(t1).number == game.number + 1
    text = words(screen_html(loser))
    assert "won by" in text and "(three tricks stood in a row)." in text, text
    assert KIND.end_words[game.ended_by] == "three tricks stood in a row"
    assert set(ended) <= set(KIND.end_words)


def _title_claims(title: str) -> list[tuple[str, bool]]:
    """Each thing a preset's title says about its knobs, as (what, is it so?) per knob."""
    t = title.lower()
    return [(phrase, ok) for phrase, ok in [
        ("wild aces", "wild aces" in t),
        ("aces low", "aces low" in t),
        ("aces high", "aces high" in t),
        ("suit or rank", "suit or rank" in t),
        ("suit or a pair", "suit or a pair" in t),
        ("by suit", "by suit" in t),
        ("suit only", "suit only" in t),
        ("pair", "pair" in t),
        ("any card of the rank", "any card of the rank" in t),
        ("no suit", "no suit" in t or "a pair only" in t),
        ("fewest", "fewest" in t),
        ("last card", "last card" in t),
    ] if ok]  # fmt: skip


@pytest.mark.parametrize("name", sorted(PRESET_TITLES))
def test_every_preset_title_says_only_what_its_knobs_are(name):
    """The facilitator picks a table's variant by its title; the summary beside it is
    generated, the title written by hand, so each phrase of the title is checked
    against the knobs (the seed's "block by suit or rank" was a pair, not a rank)."""
    c, title = PRESETS[name], PRESET_TITLES[name]
    true_of = {
        "wild aces": c.aces == "wild",
        "aces low": c.aces == "low",
        "aces high": c.aces == "high",
        "suit or rank": c.block == "suit_or_rank" and c.rank_match == "card",
        "suit or a pair": c.block == "suit_or_rank" and c.rank_match == "pair",
        "by suit": c.block in ("suit", "suit_or_rank"),
        "suit only": c.block == "suit",
        "pair": c.rank_match == "pair" and c.block != "suit",
        "any card of the rank": c.rank_match == "card" and c.block != "suit",
        "no suit": c.block == "rank",
        "fewest": c.count == "fewest",
        "last card": c.stock_floor == 0,
    }
    wrong = [phrase for phrase, _ in _title_claims(title) if not true_of[phrase]]
    assert not wrong, f"{name}: {title!r} says {wrong} of {c}"
    for number in re.findall(r"swap (?:up to )?(\d)", title):
        assert int(number) == c.max_swap, title
    for number in re.findall(r"stops at (\d+)", title):
        assert int(number) == c.stock_floor, title
