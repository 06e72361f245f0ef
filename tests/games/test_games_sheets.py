"""Generated rule sheets say what the knobs say."""

import pytest

from games import five_tricks
from games.cards import SUIT_NAME_SINGULAR, SUIT_NAMES
from games.presets import PRESETS
from games.sheets import sheet_plain, sheet_text
from games.tricks import TrickRules, rank_order

HEADINGS = [
    "Cards",
    "Players",
    "Deal",
    "Start",
    "Following suit",
    "Winning a trick",
    "Trumps",
    "Next trick",
    "End of the game",
]


def _section(sheet, heading):
    return next(s["text"] for s in sheet["sections"] if s["heading"] == heading)


@pytest.mark.parametrize("slug", list(PRESETS))
def test_sheet_matches_the_preset_knobs(slug):
    rules = PRESETS[slug]
    sheet = sheet_text(rules)
    assert sheet["title"] == "Five Tricks"
    assert [s["heading"] for s in sheet["sections"]] == HEADINGS
    plain = sheet_plain(rules)
    lower = plain.lower()

    if rules.ace == "high":
        assert "the ace is the highest card" in lower and "2, 3, 4, 5, 6, 7, ace" in lower
    else:
        assert "the ace is the lowest card" in lower and "ace, 2, 3, 4, 5, 6, 7" in lower

    word = rules.wins
    other = "lowest" if word == "highest" else "highest"
    win = _section(sheet, "Winning a trick")
    assert f"the {word} card of the suit that was led wins" in win.lower()
    assert other not in win

    best = {("high", "highest"): "ace", ("low", "lowest"): "ace", ("low", "highest"): "7"}
    assert f"the {best[(rules.ace, rules.wins)]} is the best card" in win

    trumps = _section(sheet, "Trumps")
    follow = _section(sheet, "Following suit")
    if rules.trump is None:
        assert trumps == "There are no trumps in this game."
        assert "trump" not in follow
        for name in SUIT_NAMES.values():
            assert name not in lower
    else:
        name, one = SUIT_NAMES[rules.trump], SUIT_NAME_SINGULAR[rules.trump]
        assert trumps.startswith(f"{name.capitalize()} are trumps.")
        assert f"the {word} {one} wins" in trumps
        for s, other_name in SUIT_NAME_SINGULAR.items():
            if s != rules.trump:
                assert other_name not in lower  # e.g. guide-9 never says "club"
        if rules.trump_when == "any":
            assert "even if you could follow suit" in trumps
            assert f"either a card of that suit or a {one}" in follow
        else:
            # Trumps led: a player holding one must follow with it (void), so the
            # sheet only restricts trumping when another suit is led.
            assert f"When another suit is led, you may play a {one} only if" in trumps
            assert "only when you hold no card of the suit that was led" not in trumps
            assert "you must play one" in follow


def test_the_sheet_says_how_many_play_and_when_the_game_ends_as_the_app_deals():
    """'Usually 3 to 6 players' beside tables of 2 to 8; 'when all cards have been played'
    while two or three players leave cards undealt."""
    sheet = sheet_text(PRESETS["guide-1"])
    assert _section(sheet, "Players") == "2 to 8 players; 3 to 6 play best."
    assert "every player has played all their cards" in _section(sheet, "End of the game")


def test_guide_9_says_heart_not_club():
    text = sheet_plain(PRESETS["guide-9"])
    assert "club" not in text.lower() and "Hearts are trumps." in text


def test_ace_high_lowest_wins_names_the_2_best():
    win = _section(sheet_text(TrickRules(ace="high", wins="lowest")), "Winning a trick")
    assert "the 2 is the best card and the ace the worst" in win


def test_plain_text_contains_every_section():
    sheet = sheet_text(PRESETS["appendix-4"])
    plain = sheet_plain(PRESETS["appendix-4"])
    assert plain.startswith("Five Tricks\n")
    for section in sheet["sections"]:
        assert f"{section['heading']}: {section['text']}" in plain


def test_sheet_depends_only_on_knobs():
    assert sheet_text(PRESETS["appendix-2"]) == sheet_text(PRESETS["appendix-9"])
    assert sheet_text(PRESETS["guide-5"]) != sheet_text(PRESETS["guide-9"])


@pytest.mark.parametrize("slug", list(PRESETS))
def test_next_trick_section_says_who_leads_when_the_winner_has_no_cards_as_the_engine_does(slug):
    """RULES.md §1: 'if the winner has no cards left, the next seat clockwise that still
    holds cards leads'. The sheet says it, and the engine does it, for every preset."""
    rules = PRESETS[slug]
    assert _section(sheet_text(rules), "Next trick") == (
        "The winner of a trick leads the next one. If the winner has no cards left, the next "
        "player clockwise who still has cards leads."
    )
    # Seat 1 takes the first trick with its only card (the sheet's best heart but the
    # 4, which seat 2 plays) and is left with nothing: seat 2, next clockwise with
    # cards, leads, not seat 0.
    hearts = sorted(["AH", "2H", "3H", "5H", "6H", "7H"], key=lambda c: rank_order(c, rules))
    worst, best = hearts[0], hearts[-1]
    hands = [[worst, "2C" if rules.trump != "C" else "2D"], [best], ["4H", "4C"]]
    state = five_tricks.new_game(five_tricks.Config.uniform(rules, 3, mode="referee"), hands=hands)
    for card in (worst, best, "4H"):
        state, _ = five_tricks.apply(state, {"type": "play", "seat": state.to_act, "card": card})
    assert state.completed[-1].winner == 1
    assert state.hands[1] == ()
    assert (state.leader, state.to_act) == (2, 2)
