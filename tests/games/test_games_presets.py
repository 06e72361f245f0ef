"""The twenty seed sheets as presets, knob by knob as read from shared/seeds."""

import itertools

import pytest

from games.presets import PRESET_TITLES, PRESETS, get_preset, preset_names
from games.tricks import TrickRules, legal_cards, trick_winner

# (slug, ace, wins, trump, trump_when) as read from each seed sheet.
EXPECTED = [
    # ../shared/seeds/000, tournament guide: table number from the heart on the footer line.
    ("guide-1", "high", "highest", "S", "void"),  # footer "ace♥…": ace highest, spades
    ("guide-2", "low", "lowest", "H", "void"),
    ("guide-3", "high", "highest", "D", "void"),
    ("guide-4", "low", "lowest", "C", "void"),
    ("guide-5", "high", "highest", "H", "void"),
    ("guide-6", "low", "lowest", "S", "void"),
    ("guide-7", "high", "highest", "C", "void"),
    ("guide-8", "low", "lowest", "D", "void"),
    ("guide-9", "high", "highest", "H", "any"),  # "the club you played" means the heart
    ("guide-10", "low", "lowest", "C", "any"),
    # ../shared/seeds/002, appendix 2, in document order: "strongest" wins; "weakest ace" = ace low.
    ("appendix-1", "low", "highest", "S", "void"),
    ("appendix-2", "low", "highest", None, "void"),
    ("appendix-3", "high", "highest", "S", "void"),
    ("appendix-4", "high", "highest", "S", "any"),
    ("appendix-5", "low", "highest", "S", "any"),
    ("appendix-6", "low", "highest", "D", "any"),
    ("appendix-7", "high", "highest", "D", "any"),
    ("appendix-8", "high", "highest", "D", "void"),
    ("appendix-9", "low", "highest", None, "void"),
    ("appendix-10", "low", "highest", "D", "void"),
]


def test_preset_names_are_stable():
    assert preset_names() == [row[0] for row in EXPECTED]
    assert len(PRESETS) == 20


@pytest.mark.parametrize("slug, ace, wins, trump, trump_when", EXPECTED)
def test_preset_knobs_match_the_seed_sheet(slug, ace, wins, trump, trump_when):
    assert PRESETS[slug] == TrickRules(ace=ace, wins=wins, trump=trump, trump_when=trump_when)
    assert get_preset(slug) is PRESETS[slug]


def test_titles():
    assert set(PRESET_TITLES) == set(PRESETS)
    assert PRESET_TITLES["guide-3"] == "Sheet 3 (Tournament guide)"
    assert PRESET_TITLES["appendix-4"] == "Sheet 4 (Appendix 2)"


def test_unknown_preset():
    with pytest.raises(ValueError, match="Unknown preset"):
        get_preset("guide-11")


def test_identical_presets_are_only_the_known_ones():
    same = [(a, b) for a, b in itertools.combinations(PRESETS, 2) if PRESETS[a] == PRESETS[b]]
    # Within a document only appendix 2 repeats a sheet; across the two documents
    # three guide sheets reappear in the appendix.
    assert same == [
        ("guide-1", "appendix-3"),
        ("guide-3", "appendix-8"),
        ("appendix-2", "appendix-9"),
    ]
    guide = [PRESETS[f"guide-{n}"] for n in range(1, 11)]
    assert len(set(guide)) == 10


# Scenario tricks (4 seats) and the winner each preset gives, worked out by hand.
TRICKS = {
    "A": [(0, "3H"), (1, "AH"), (2, "7H"), (3, "2S")],  # hearts led, a spade thrown
    "B": [(0, "4C"), (1, "2D"), (2, "6C"), (3, "AC")],  # clubs led, a diamond thrown
    "C": [(0, "5S"), (1, "3H"), (2, "7S"), (3, "4H")],  # spades led, two hearts thrown
}
WINNERS = {  # preset: (A, B, C)
    "guide-1": (3, 3, 2),
    "guide-2": (1, 3, 1),
    "guide-3": (1, 1, 2),
    "guide-4": (1, 3, 0),
    "guide-5": (1, 3, 3),
    "guide-6": (3, 3, 0),
    "guide-7": (1, 3, 2),
    "guide-8": (1, 1, 0),
    "guide-9": (1, 3, 3),
    "guide-10": (1, 3, 0),
    "appendix-1": (3, 2, 2),
    "appendix-2": (2, 2, 2),
    "appendix-3": (3, 3, 2),
    "appendix-4": (3, 3, 2),
    "appendix-5": (3, 2, 2),
    "appendix-6": (2, 1, 2),
    "appendix-7": (1, 1, 2),
    "appendix-8": (1, 1, 2),
    "appendix-9": (2, 2, 2),
    "appendix-10": (2, 1, 2),
}


@pytest.mark.parametrize("slug", list(WINNERS))
def test_scenario_tricks_per_preset(slug):
    got = tuple(trick_winner(TRICKS[k], PRESETS[slug]) for k in "ABC")
    assert got == WINNERS[slug]


@pytest.mark.parametrize("slug", list(PRESETS))
def test_every_preset_disagrees_with_another_on_a_scenario_trick(slug):
    mine = WINNERS[slug]
    assert any(
        mine[i] != theirs[i] for other, theirs in WINNERS.items() if other != slug for i in range(3)
    )


def test_trump_when_separates_the_otherwise_equal_sheets():
    # guide-5 and guide-9 differ only in trump_when: holding a spade, may one trump a spade lead?
    hand = ["2S", "3H"]
    assert legal_cards(hand, "S", PRESETS["guide-5"]) == ["2S"]
    assert legal_cards(hand, "S", PRESETS["guide-9"]) == ["2S", "3H"]
    assert PRESETS["guide-5"].diff(PRESETS["guide-9"]) == ["trump_when"]
