"""A hand of seven on the smallest phones, upright (320x568, 360x640) and sideways
(568x320, 640x360), in every game: one row, each card a finger's target (44x44 px),
its face whole ("10♥" too), and (3 Tricks) the moves under it on the screen. Seven cards of
44 px took two rows at 320 and 568 px, the second row and 3 Tricks' moves below the
screen's edge, and "10" ran past a 44 px card (in Chromium)."""

from __future__ import annotations

import pytest
from phones import (
    LONG,
    OTHER_GAMES,
    OTHERS,
    assert_in_view,
    first_moves,
    not_in_view,
    one_phone_at_a_round,
    other_game_at_a_round,
    play_until,
)

from tournament import gamestate, services
from tournament.models import Player
from tournament.templatetags.cards import card_index, card_name

pytestmark = [pytest.mark.browser]
WAIT = 8000
SIZES = [(320, 568), (360, 640), (568, 320), (640, 360)]

# Each card of the hand, its first made a ten of hearts in place (a deal need not
# hold one): its box, and whether its face fits inside its frame.
HAND = """(ten) => {
  const cards = [...document.querySelectorAll('#screen .hand .card')];
  cards[0].innerHTML = ten;
  return cards.map((c) => { const r = c.getBoundingClientRect();
    return {top: Math.round(r.top), width: r.width, height: r.height,
            fits: c.scrollWidth <= c.clientWidth, face: c.innerText.replace(/\\s/g, '')}; });
}"""


def assert_hand_fits(page, label):
    cards = page.evaluate(HAND, str(card_index("10H")))
    assert len(cards) >= 6, (label, cards)
    assert len({c["top"] for c in cards}) == 1, (label, cards)  # one row
    # Each a finger's target (WCAG 2.5.5): they were 40 px wide where seven shared
    # 302 px (320 upright) and 39 px in a small phone's right column (568 sideways).
    assert all(c["width"] >= 44 and c["height"] >= 44 for c in cards), (label, cards)
    assert all(c["fits"] for c in cards), (label, cards)
    assert cards[0]["face"] == "10♥", (label, cards)
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), label


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_five_tricks_hand_of_seven_is_one_row(live_server_url, browser, size):
    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        name="Seven cards",
        seats=4,
        size={"width": size[0], "height": size[1]},
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    play_until(game, lambda state: game.players[state.to_act] == ana)
    page.wait_for_selector(".hand .card.legal", timeout=WAIT)
    assert page.locator(".hand .card").count() == 7
    assert_hand_fits(page, size)
    assert not_in_view(page, ".hand .card") == []
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game", list(OTHER_GAMES))
def test_the_other_games_hand_is_one_row(live_server_url, browser, game, size):
    pages, w = other_game_at_a_round(
        browser, live_server_url, game, {"width": size[0], "height": size[1]}, f"Hand {game}"
    )
    for step, on_turn in first_moves(pages, w, 2):
        for page in on_turn:
            assert_hand_fits(page, (game, size, step))
            if game == "three_tricks":
                # Lay, Swap and Pass under the hand (they were under its second row).
                assert not_in_view(page, ".tt-moves button") == [], (size, step)
    for page in pages:
        page.context.close()


# What a seat acts on, besides the hand: each game's moves, 3 Tricks' hint (the
# picked count and what the colours mean).
MOVES = [
    ".su-bids button",
    ".af-choice button",
    ".af-revoke button",
    ".tt-moves button",
    ".tt-hand > .hint",
]


SMALLEST = [(320, 568), (568, 320)]


@pytest.mark.parametrize("size", SMALLEST, ids=["320x568", "568x320"])
@pytest.mark.parametrize("game", list(OTHER_GAMES))
def test_the_smallest_phone_has_the_table_the_moves_and_the_hand_in_view(
    live_server_url, browser, game, size
):
    """At 320x568, through the first moves: with the hand one row, 7Up's hand (below
    its bids by 26-55 px), All Fives' hand (10-45 px) and 3 Tricks' hint under its
    moves (1-55 px) were still below the screen's edge; at 568x320 All Fives' hand
    (8-26 px) and 7Up's last seat (8 px)."""
    pages, w = other_game_at_a_round(
        browser, live_server_url, game, {"width": size[0], "height": size[1]}, f"Smallest {game}"
    )
    parts = OTHER_GAMES[game][1] + MOVES
    for step, on_turn in first_moves(pages, w, OTHER_GAMES[game][2]):
        for page in on_turn:
            present = [p for p in parts if page.locator(p).count()]
            assert {".whose", ".hand .card"} <= set(present), (step, present)
            assert_in_view(page, present, (game, step))
    for page in pages:
        page.context.close()


# A dispute's cases: the phone's size, the table's seats, whose claim differs (Ana's,
# so her phone also offers her sheet's answer, "✓ <name> won", or the first seat's)
# and the others' names (long ones cut short).
DISPUTES = [
    ((320, 568), 4, "first", OTHERS),
    ((320, 568), 4, "Ana", LONG),
    ((320, 568), 5, "first", OTHERS),
    ((320, 568), 5, "Ana", OTHERS),
    ((320, 568), 5, "Ana", LONG),
    ((568, 320), 4, "first", OTHERS),
    ((568, 320), 5, "first", OTHERS),
]

# What a student acts on in a dispute (the cards to claim, the gestures, the pad's
# switch, "✓ <name> won"): each box, its smallest text, and whether a card's face
# fits its frame, the first card to claim made a ten of hearts in place.
ACTED_ON = """(ten) => {
  const cards = [...document.querySelectorAll('#screen .trick .card')];
  cards[0].querySelector('.face').textContent = ten;
  const els = [...cards, ...document.querySelectorAll('.palette button, .pad-wrap summary, .claim .primary')];
  return els.map((el) => { const r = el.getBoundingClientRect();
    const sizes = [el, ...el.querySelectorAll('*')].filter((e) => e.getClientRects().length && e.textContent.trim())
      .map((e) => parseFloat(getComputedStyle(e).fontSize));
    return {what: el.className || el.tagName, width: r.width, height: r.height, text: Math.min(...sizes),
            fits: el.scrollWidth <= el.clientWidth}; });
}"""


def assert_no_one_elses_hand(page, game, me):
    """Ana's phone holds her own hand's cards, none of another seat's (by code or name)."""
    state = gamestate.load_state(game)
    mine = state.hands[game.players.index(me)]
    shown = page.locator(".hand .card").evaluate_all("els => els.map((e) => e.dataset.card)")
    assert sorted(shown) == sorted(mine)
    html = page.content()
    for seat, hand in enumerate(state.hands):
        if game.players[seat] != me:
            for card in hand:
                assert f'data-card="{card}"' not in html and card_name(card) not in html, card


@pytest.mark.parametrize(
    ("size", "seats", "dissent", "others"), DISPUTES,
    ids=[f"{w}x{h}-{n}-{d}{'-long' if o is LONG else ''}" for (w, h), n, d, o in DISPUTES],
)  # fmt: skip
def test_the_smallest_phone_in_a_dispute_has_every_gesture_in_view(
    live_server_url, browser, size, seats, dissent, others
):
    """At 320x568 at a table of four, a dispute's second row of gestures was 10 px
    and the drawing pad's switch 54 px below the screen's edge; at 568x320 the pad's
    switch 33 px, and at a table of five the fifth card to claim 9 px. At 320x568 at a
    table of five the fifth card to claim took a second row: the gestures' second row
    was 18 px and the pad's switch 62 px below the edge (and more when the phone
    offers "✓ <name> won", two lines for a long name at a table of four)."""
    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        name="Smallest dispute",
        seats=seats,
        size={"width": size[0], "height": size[1]},
        others=others,
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    play_until(game, lambda state: state.phase != "play")
    page.wait_for_selector(".claim .primary", timeout=WAIT)
    assert_in_view(page, [".seats .seat", ".trick .card", ".claim .primary"], "claim")
    winner = int(page.locator(".claim .primary").get_attribute("data-winner"))
    other = next(p for p in game.players if p != winner)
    dissenter = ana if dissent == "Ana" else game.players[0]
    for player in game.players:
        services.game_claim(
            player_id=player, winner_player_id=other if player == dissenter else winner
        )
    page.wait_for_selector(".dispute-title", timeout=WAIT)
    assert page.locator(".claim .primary").count() == (dissenter == ana)
    parts = [".seats .seat", ".trick .card", ".dispute-title", ".reactions", ".palette button"]
    assert_in_view(page, [*parts, ".pad-wrap summary", ".claim .primary"], "dispute")
    assert_no_one_elses_hand(page, game, ana)
    # Each a finger's target (44x44 px at least), its text 12 px or more, a card's
    # face whole.
    acted = page.evaluate(ACTED_ON, "10♥")
    assert len(acted) >= seats + 11, acted
    assert all(a["height"] >= 44 and a["width"] >= 44 for a in acted), acted
    assert all(a["text"] >= 12 for a in acted), acted
    assert all(a["fits"] for a in acted if "card" in a["what"]), acted
    page.context.close()
