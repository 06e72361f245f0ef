import pytest

from games.cards import (
    RANKS,
    SUITS,
    five_tricks_deck,
    full_deck,
    parse_card,
    rank,
    shuffled,
    suit,
)


def test_ranks_and_suits():
    assert RANKS == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    assert SUITS == ("S", "H", "D", "C")


@pytest.mark.parametrize(
    "text, card",
    [("AS", "AS"), ("as", "AS"), (" 7h ", "7H"), ("10d", "10D"), ("qC", "QC"), ("\t10S\n", "10S")],
)
def test_parse_card_canonicalises(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text", ["", "A", "1S", "11H", "AX", "10", "ZZ", "A S", "AS7", None, 7, ["AS"]]
)
def test_parse_card_rejects_with_readable_message(text):
    with pytest.raises(ValueError) as exc:
        parse_card(text)
    assert "card" in str(exc.value)


def test_rank_and_suit():
    assert rank("10D") == "10" and suit("10D") == "D"
    assert rank("AS") == "A" and suit("AS") == "S"


def test_five_tricks_deck_is_28_fixed_cards():
    deck = five_tricks_deck()
    assert len(deck) == len(set(deck)) == 28
    assert deck[:7] == ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]
    assert {rank(c) for c in deck} == {"A", "2", "3", "4", "5", "6", "7"}
    assert deck == five_tricks_deck()


def test_full_deck_is_52_cards():
    deck = full_deck()
    assert len(set(deck)) == 52
    assert set(five_tricks_deck()) < set(deck)
    assert all(parse_card(c) == c for c in deck)


def test_shuffled_is_seeded_and_pure():
    deck = five_tricks_deck()
    a = shuffled(deck, 42)
    assert a == shuffled(deck, 42)
    assert a != shuffled(deck, 43)
    assert sorted(a) == sorted(deck)
    assert deck == five_tricks_deck()  # input untouched
    assert shuffled(deck, "table-3") == shuffled(deck, "table-3")
