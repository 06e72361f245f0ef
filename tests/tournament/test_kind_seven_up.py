"""7Up7Down in a workshop (issue 8): tables deal 7Up7Down matches, phones bid and
play through ``services.game_act``, each phone sees only its seat's view (the blind
deal included), bots play, a round's end counts a match with its points so far,
and the stored log replays to the live state."""

from __future__ import annotations

import html as html_lib
import random
import re

import pytest
from django.template.loader import render_to_string
from django.utils import timezone
from tournament_helpers import (
    assert_refused,
    fix_seed,
    fresh,
    game_at,
    tables_of,
    to_scored_round,
)

from games import kinds
from games import seven_up as su
from games.kinds.seven_up import KIND, PRESETS, SevenUpRules
from tournament import gamestate, selectors, services, timers
from tournament.errors import DuplicateAction, IllegalMove, InvalidInput, StaleAction
from tournament.models import Action, Game, GameState, Player
from tournament.sheet_assignment import MIN_NEIGHBOUR_DIFF, auto_assign
from tournament.templatetags.cards import card_face, card_name

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- helpers


def seven_up_workshop(*, players=4, seats=4, tables=1, preset="classic", seed=5, bots=False):
    w = services.workshop_create(
        name="Seven up",
        game="seven_up",
        table_count=tables,
        seats_per_table=seats,
        seed=seed,
        bots_enabled=bots,
    )
    if preset is not None:
        services.sheets_assign(
            workshop_id=w.pk, assignment={str(t.number): preset for t in tables_of(w)}
        )
    if bots:
        services.bots_fill(workshop_id=w.pk)
    else:
        for i in range(players):
            services.player_join(workshop_id=w.pk, name=f"P{i + 1}")
    return w


def to_study(w) -> Game:
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    return game_at(tables_of(w)[0])


def state_of(game):
    game.refresh_from_db()
    return gamestate.load_state(game)


def act(game, seat, move, **kw):
    return services.game_act(player_id=game.players[seat], move=move, **kw)


def move_of(action: dict) -> dict:
    """What a phone sends for an engine action: the same without the seat."""
    return {k: v for k, v in action.items() if k != "seat"}


def bot_move(game, rng) -> tuple[int, dict]:
    state = state_of(game)
    seat = state.to_act
    return seat, move_of(su.choose_action(state, seat, rng))


def play_until(game, done, rng=None, limit=400):
    """Phones make the bot's choice for whoever is to act until ``done(state)``."""
    rng = rng or random.Random(3)
    for _ in range(limit):
        state = state_of(game)
        if done(state):
            return state
        seat, move = bot_move(game, rng)
        act(game, seat, move)
    pytest.fail("the match did not get there")


def html_for(player_id: int) -> str:
    return render_to_string("play/_screen.html", selectors.player_screen(player_id))


def seat_html(game) -> list[str]:
    return [html_for(pid) for pid in game.players]


def split_sheet(html: str) -> tuple[str, str]:
    """The screen without its score sheet, and the score sheet. The sheet names the
    trump cards of finished deals, which may be in anybody's hand now."""
    at = html.index('<section class="su-sheet"')
    screen, sheet = html[:at], html[at:]
    # Nor the last deal's last trick (shown until this deal's first is taken): its
    # cards were played face up, and have been shuffled and dealt again since.
    cut = screen.find('<details class="last-trick previous-trick"')
    return (screen if cut < 0 else screen[:cut]), sheet


# ---------------------------------------------------------------- rules and presets


def test_the_kind_is_registered_with_its_seats_and_moves():
    kind = kinds.get("seven_up")
    assert kind is KIND
    assert (kind.title, kind.min_seats, kind.max_seats) == ("7Up7Down", 3, 7)
    assert kind.score_label == "points" and kind.per_seat_rules is False
    assert not kind.records_tricks
    assert set(kind.move_types) == {"bid", "play", "play_blind"}
    assert kind.default_rules() == {
        "hook": True,
        "points_per_trick": 15,
        "zero_bid_points": 10,
        "ace": "high",
        "wins": "highest",
    }


def test_rules_objects_are_frozen_hashable_and_compare_by_knobs():
    a = KIND.rules_from_dict({"hook": False, "points_per_trick": 20})
    b = KIND.rules_from_dict(a.to_dict())
    assert a == b and hash(a) == hash(b) and {a, b} == {a}
    assert a.diff(KIND.rules_from_dict({})) == ["hook", "points_per_trick"]
    with pytest.raises(AttributeError):
        a.hook = True  # type: ignore[misc]
    for bad in (
        {"hook": "yes"},
        {"points_per_trick": -1},
        {"points_per_trick": 1.5},
        {"zero_bid_points": True},
        {"ace": "middle"},
        {"wins": "most"},
        {"trump": "S"},
        ["hook"],
    ):
        with pytest.raises(ValueError):
            KIND.rules_from_dict(bad)


def test_presets_are_distinct_titled_and_keep_neighbours_two_knobs_apart():
    assert len(PRESETS) >= 8
    assert len(set(PRESETS.values())) == len(PRESETS)
    assert set(KIND.preset_titles) == set(PRESETS)
    assert len(set(KIND.preset_titles.values())) == len(PRESETS)
    assert KIND.preset_titles["classic"].startswith("Classic")
    knobs_used = {k for p in PRESETS.values() for k in p.diff(PRESETS["classic"])}
    assert knobs_used == set(SevenUpRules.knobs())  # every knob varies somewhere
    for seed in range(6):
        for count in range(1, 21):
            names = auto_assign(count, KIND.presets, seed)
            assert len(names) == count
            rules = [PRESETS[n] for n in names]
            for left, right in zip(rules, rules[1:], strict=False):
                assert len(left.diff(right)) >= MIN_NEIGHBOUR_DIFF
            if count <= len(PRESETS):
                assert len(set(rules)) == count


def test_the_study_sheet_is_written_from_the_knobs():
    classic = KIND.sheet(PRESETS["classic"].to_dict())
    assert classic["title"] == "7Up7Down"
    headings = [s["heading"] for s in classic["sections"]]
    assert headings == [
        "Cards",
        "Players and deals",
        "Trump",
        "Bidding",
        "Play",
        "Scoring",
        "The blind deal",
        "Winning",
    ]
    text = {s["heading"]: s["text"] for s in classic["sections"]}
    assert "may not make a bid" in text["Bidding"]
    assert "15 points for each trick bid" in text["Scoring"] and "45" in text["Scoring"]
    assert "a bid of 0: 10 points" in text["Scoring"]
    # The phone keeps the score and shows the others' blind cards: nothing to write or hold.
    assert "Your phone's score sheet keeps" in text["Scoring"] and "Write" not in text["Scoring"]
    assert "your phone shows everyone else's card" in text["The blind deal"]
    assert "Hold it" not in text["The blind deal"]
    assert "the ace is the top card" in text["Cards"]
    assert "highest trump takes the trick" in text["Play"]
    assert "7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7" in text["Players and deals"]

    other = KIND.sheet(
        {"hook": False, "points_per_trick": 5, "zero_bid_points": 0, "ace": "low", "wins": "lowest"}
    )
    text = {s["heading"]: s["text"] for s in other["sections"]}
    assert "may bid anything" in text["Bidding"] and "may not make" not in text["Bidding"]
    assert "5 points for each trick bid" in text["Scoring"] and "15" in text["Scoring"]
    assert "a bid of 0: 0 points" in text["Scoring"]
    assert "the ace is the bottom card" in text["Cards"]
    assert "lowest trump takes the trick" in text["Play"]
    assert "The ace is the best card" in text["Play"]
    ones = KIND.sheet({"points_per_trick": 1, "zero_bid_points": 1})
    scoring = next(s["text"] for s in ones["sections"] if s["heading"] == "Scoring")
    assert "1 point for each trick bid" in scoring and "a bid of 0: 1 point." in scoring
    assert "1 points" not in scoring


def test_a_custom_sheet_is_checked_and_stored_with_every_knob():
    w = seven_up_workshop(players=0, preset=None)
    services.sheets_assign(workshop_id=w.pk, assignment={"1": {"hook": False, "wins": "lowest"}})
    table = tables_of(w)[0]
    assert table.rules == {
        "hook": False,
        "points_per_trick": 15,
        "zero_bid_points": 10,
        "ace": "high",
        "wins": "lowest",
    }
    assert table.preset == "custom"
    err = assert_refused(
        lambda: services.sheets_assign(
            workshop_id=w.pk, assignment={"1": {"points_per_trick": -3}}
        ),
        InvalidInput,
    )
    assert "points_per_trick" in err.message


def test_seats_outside_three_to_seven_are_refused():
    for seats in (2, 8):
        with pytest.raises(InvalidInput, match="3 to 7"):
            services.workshop_create(
                name="x", game="seven_up", table_count=1, seats_per_table=seats
            )


# ---------------------------------------------------------------- a deal through game_act


def test_study_deals_a_match_by_the_tables_rules():
    w = seven_up_workshop(preset="upside-down")
    game = to_study(w)
    assert game.kind == "seven_up" and game.state == GameState.PLAYING
    assert game.table_rules == PRESETS["upside-down"].to_dict()
    state = state_of(game)
    assert state.config.rules == {**PRESETS["upside-down"].to_dict()}
    assert (state.phase, state.deal_no, state.cards) == ("bid", 0, 7)
    # Engine seat 0 sits at the dealer's left: the dealer is the last seat.
    assert state.dealer == 3 and state.to_act == 0
    assert game.players[-1] == game.dealer_id
    # The study sheet on the phone is this game's sheet.
    player = Player.objects.get(pk=game.players[0])
    html = html_for(player.pk)
    assert "Your rules: 7Up7Down" in html and "the ace is the bottom card" in html


def test_bids_and_plays_of_a_whole_deal_through_the_service():
    w = seven_up_workshop(preset="classic")
    game = fix_seed(to_study(w), 12)
    state = state_of(game)
    assert state.to_act == 0

    # A malformed move is refused as invalid input; nothing is stored.
    for bad in (
        {"type": "bid", "bid": "two"},
        {"type": "bid"},
        {"type": "shout"},
        ["bid", 1],
        {"type": "play", "card": 7},
    ):
        assert_refused(lambda bad=bad: act(game, 0, bad), InvalidInput, case=bad)
    # Out of turn: seat 1 may not bid before seat 0.
    err = assert_refused(lambda: act(game, 1, {"type": "bid", "bid": 1}), IllegalMove)
    assert "not your turn" in err.message
    # The phone is told who bids next by name, not by the engine's seat number.
    first = Player.objects.get(pk=game.players[0]).name
    assert f"not your turn: {first} bids next" in err.message and "seat" not in err.message
    # A bid above the cards dealt is refused by the engine.
    err = assert_refused(lambda: act(game, 0, {"type": "bid", "bid": 8}), IllegalMove)
    assert "0 to 7" in err.message

    for seat, b in ((0, 2), (1, 1), (2, 3)):
        result = act(game, seat, {"type": "bid", "bid": b})
        assert result.events[0] == {"type": "bid_made", "seat": seat, "bid": b}
    # The dealer may not bid 1: 2 + 1 + 3 + 1 = 7 cards (hook rule).
    assert state_of(game).to_act == 3
    err = assert_refused(lambda: act(game, 3, {"type": "bid", "bid": 1}), IllegalMove)
    assert "hook rule" in err.message and "may not bid 1" in err.message
    act(game, 3, {"type": "bid", "bid": 0})
    assert state_of(game).bids == (2, 1, 3, 0)
    assert list(Action.objects.filter(game=game).values_list("kind", flat=True)) == ["bid"] * 4

    # Play: a card not in hand and a card that does not follow suit are refused.
    state = state_of(game)
    assert state.phase == "play" and state.to_act == 0
    other_card = state.hands[1][0]
    err = assert_refused(lambda: act(game, 0, {"type": "play", "card": other_card}), IllegalMove)
    assert "do not hold" in err.message
    err = assert_refused(lambda: act(game, 0, {"type": "play_blind"}), IllegalMove)
    assert "blind" in err.message
    rng = random.Random(1)
    refused_off_suit = False
    while state_of(game).deal_no == 0:
        state = state_of(game)
        seat = state.to_act
        legal = [a["card"] for a in su.legal_actions(state, seat)]
        illegal = [c for c in state.hands[seat] if c not in legal]
        if illegal and not refused_off_suit:
            move = {"type": "play", "card": illegal[0].lower()}
            err = assert_refused(lambda s=seat, m=move: act(game, s, m), IllegalMove)
            assert "follow" in err.message or "must" in err.message
            refused_off_suit = True
        act(game, seat, {"type": "play", "card": rng.choice(legal)})
    assert refused_off_suit
    state = state_of(game)
    (record,) = state.history
    assert sum(record.tricks_won) == 7 and len(record.tricks) == 7
    assert list(record.points) == [
        (15 * b if b else 10) if b == w_ else 0
        for b, w_ in zip(record.bids, record.tricks_won, strict=True)
    ]
    assert (state.deal_no, state.phase, state.cards) == (1, "bid", 6)
    assert Action.objects.filter(game=game).count() == 4 + 28
    # Replaying the stored log equals the live state.
    assert gamestate.replay_log(fresh(game)) == state


def test_a_stale_version_and_a_repeated_action_id_are_refused():
    w = seven_up_workshop()
    game = to_study(w)
    table = tables_of(w)[0]
    act(game, 0, {"type": "bid", "bid": 1}, client_action_id="a1", expected_version=table.version)
    # A view the table has moved past, and the same tap arriving twice.
    assert_refused(
        lambda: act(game, 1, {"type": "bid", "bid": 1}, expected_version=table.version),
        StaleAction,
    )
    assert_refused(
        lambda: act(game, 0, {"type": "bid", "bid": 1}, client_action_id="a1"), DuplicateAction
    )
    act(game, 1, {"type": "bid", "bid": 1}, client_action_id="a1")  # another player's id
    assert state_of(game).bids[:2] == (1, 1)


# ---------------------------------------------------------------- screens


def test_bid_buttons_only_for_the_seat_to_bid_and_no_other_hand_shown():
    w = seven_up_workshop(preset="classic")
    game = fix_seed(to_study(w), 4)
    state = state_of(game)
    pages = seat_html(game)
    for seat, html in enumerate(pages):
        assert 'class="board su"' in html
        assert '<span aria-hidden="true">1/14</span>' in html and "7 cards each" in html
        assert '<span class="visually-hidden">1 of 14</span>' in html  # not "1 fourteenth"
        assert "Trump card: " + card_name(state.trump_card) in html
        buttons = html.count('class="su-bid-button"')
        assert buttons == (8 if seat == 0 else 0), seat
        assert ("Your turn to bid" in html) == (seat == 0)
        for card in state.hands[seat]:
            assert f'data-card="{card}"' in html
        for other, hand in enumerate(state.hands):
            if other == seat:
                continue
            for card in hand:
                assert f'data-card="{card}"' not in html
                assert card_name(card) not in html and card_face(card) not in html, (seat, card)
    # The score sheet: a proper table with one row per deal.
    html = pages[0]
    assert html.count('<th scope="colgroup" colspan="4"') == 4
    assert html.count("<tr class=") == 14
    # Its caption is read out: words, not "check mark" and "ballot x".
    caption = re.search(r"<caption[^>]*>(.*?)</caption>", html, re.S).group(1)
    assert "made or missed" in caption and "✓" not in caption and "✗" not in caption

    # The dealer sees the hook's bid marked not allowed (tapped, the server refuses it
    # with the rule in full); the others are told about it.
    for seat, b in ((0, 3), (1, 2), (2, 1)):
        act(game, seat, {"type": "bid", "bid": b})
    pages = seat_html(game)
    dealer = pages[3]
    assert dealer.count('class="su-bid-button"') == 7
    assert 'su-hooked" aria-disabled="true" data-action="act"' in dealer
    assert "not allowed: hook" in dealer and 'su-hooked" disabled' not in dealer
    assert '"bid": 0}' in html_lib.unescape(dealer)
    for seat in range(3):
        assert "su-bid-button" not in pages[seat]
        assert "may not bid 1 (hook)" in pages[seat]
    # Everyone's bids so far are shown to everyone.
    for html in pages:
        for b in (3, 2, 1):
            assert f'<strong class="su-bid">{b}</strong>' in html


def test_the_bids_line_says_none_yet_and_then_their_sum_as_a_sum():
    """A walk through a 7Up workshop: before anyone bid, every phone showed "Bids so
    far: 0, for 7 tricks." (read as a bid of 0 made), and later "Bids so far: 6"
    for three bids of 3, 2 and 1 (read as one bid of 6). The line says no bid yet,
    then the bids' sum in words."""
    w = seven_up_workshop(preset="classic")
    game = fix_seed(to_study(w), 4)

    def hint(html):
        line = re.search(r'<p class="hint su-bid-total">(.*?)</p>', html, re.S).group(1)
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line)).strip()

    for html in seat_html(game):
        assert hint(html) == "No bids yet: 7 tricks to bid for.", hint(html)
    act(game, 0, {"type": "bid", "bid": 3})
    assert hint(seat_html(game)[1]) == "Bid so far: 3 in all, for 7 tricks."
    for seat, b in ((1, 2), (2, 1)):
        act(game, seat, {"type": "bid", "bid": b})
    pages = seat_html(game)
    assert hint(pages[0]).startswith("Bid so far: 6 in all, for 7 tricks."), hint(pages[0])
    assert hint(pages[3]) == "Bid so far: 6 in all, for 7 tricks."


def test_playing_marks_legal_cards_only_for_the_seat_to_play():
    w = seven_up_workshop(preset="classic")
    game = fix_seed(to_study(w), 4)
    state = play_until(game, lambda s: s.phase == "play" and len(s.current) == 1)
    pages = seat_html(game)
    seat = state.to_act
    legal = {a["card"] for a in su.legal_actions(state, seat)}
    html = pages[seat]
    moves = html_lib.unescape(html)
    for card in state.hands[seat]:
        assert (f'{{"type": "play", "card": "{card}"}}' in moves) == (card in legal)
    led_seat, led_card = state.current[0]
    for s, page in enumerate(pages):
        # The phone's own card is "you" (heard as "played by you"), the others' named.
        by = "you" if s == led_seat else Player.objects.get(pk=game.players[led_seat]).name
        assert f'{card_name(led_card)} played by {by}">' in page
        you = '<span class="by"><bdi>you</bdi></span>'
        assert you in page if s == led_seat else you not in page
        assert ("Your turn to play" in page) == (s == seat)
        if s != seat:
            assert 'data-action="act"' not in page


def test_the_blind_deal_shows_everyone_elses_card_but_never_ones_own():
    w = seven_up_workshop(preset="classic", players=3, seats=3)
    game = fix_seed(to_study(w), 21)
    state = play_until(game, lambda s: s.deal_no == su.BLIND_DEAL)
    assert state.blind and state.phase == "bid"
    pages = seat_html(game)
    trumps_so_far = {r.trump_card for r in state.history}
    for seat, page in enumerate(pages):
        assert "previous-trick" in page  # the last deal's trick: split_sheet leaves it out
        html, sheet = split_sheet(page)
        own = state.hands[seat][0]
        assert "your card (unseen)" in html and "blind deal" in html
        assert card_name(own) not in html and card_face(own) not in html
        assert f'data-card="{own}"' not in page
        assert card_name(own) not in sheet or own in trumps_so_far
        for other in range(3):
            if other != seat:
                assert card_name(state.hands[other][0]) in html
        # Heard once while the bids are made, never the seat's own: the others' cards.
        names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
        # A list as a sentence says it: "Bea holds the 4 of clubs and Cy holds …".
        heard = " and ".join(
            f"{names[game.players[o]]} holds the {card_name(state.hands[o][0])}"
            for o in range(3)
            if o != seat
        )
        said = _said(r'<p class="visually-hidden" data-announce>(?=On the others)', page)
        assert said == f"On the others' foreheads: {heard}.", said
    # Bids as usual, then each plays the unseen card with one button.
    for _ in range(3):
        seat = state_of(game).to_act
        assert "su-bid-button" in html_for(game.players[seat])
        act(game, seat, {"type": "bid", "bid": su.legal_bids(state_of(game), seat)[0]})
    state = state_of(game)
    seat = state.to_act
    html = html_for(game.players[seat])
    assert "Play my unseen card" in html
    # The leader cannot choose a card: not "Lead any card."
    assert "Lead any card" not in html and "your card is the one you cannot see" in html
    assert all(
        "Play my unseen card" not in html_for(game.players[s]) for s in range(3) if s != seat
    )
    err = assert_refused(
        lambda: act(game, seat, {"type": "play", "card": state.hands[seat][0]}), IllegalMove
    )
    assert "unseen" in err.message
    own = state.hands[seat][0]
    act(game, seat, {"type": "play_blind"})
    # Once played the card is on the table for everyone, its owner included, and the
    # owner's forehead says so: not "your card (unseen)" beside it on the table.
    html = html_for(game.players[seat])
    assert f"{card_name(own)} played by you" in html
    assert "your card (unseen)" not in html and "Your card (unseen)" not in html
    assert 'aria-label="You have played">–</span>' in html and "you (played)" in html
    # Still unseen by those who have not played theirs.
    assert all("your card (unseen)" in html_for(game.players[s]) for s in range(3) if s != seat)
    name = Player.objects.get(pk=game.players[seat]).name
    assert all(
        f"{card_name(own)} played by {name}" in html_for(pid)
        for pid in game.players
        if pid != game.players[seat]
    )
    for _ in range(2):
        act(game, state_of(game).to_act, {"type": "play_blind"})
    state = state_of(game)
    assert state.deal_no == su.BLIND_DEAL + 1 and len(state.history) == su.BLIND_DEAL + 1
    assert gamestate.replay_log(fresh(game)) == state
    html = html_for(game.players[0])
    # The blind deal's row is "1 b" to the eye, "1, blind deal" to a screen reader.
    assert (
        '<abbr title="blind deal" aria-hidden="true">b</abbr>'
        '<span class="visually-hidden">, blind deal</span>'
    ) in html
    # Each player's four columns are a column group under their name (scope=colgroup
    # needs one), and the abbreviated headers are heard in words.
    assert html.count('<colgroup span="4"></colgroup>') == len(game.players)
    assert html.index('<colgroup span="2"></colgroup>') < html.index('<colgroup span="4">')
    assert html.count('scope="colgroup" colspan="4"') == len(game.players)
    for words in ("tricks taken", "made or missed", "points"):
        assert html.count(f'<span class="visually-hidden">{words}</span></th>') == len(game.players)
    said = (
        '<span class="visually-hidden">made</span>',
        '<span class="visually-hidden">missed</span>',
    )
    assert html.count(said[0]) + html.count(said[1]) == 3 * 8  # ✓ and ✗ in words


# ---------------------------------------------------------------- bots, rounds, replay


def test_a_table_of_bots_plays_a_seeded_match_to_the_end():
    w = seven_up_workshop(bots=True, seats=5, preset="no-hook-ace-low")
    game = fix_seed(to_study(w), 33)
    assert Player.objects.filter(pk__in=game.players, is_bot=True).count() == 5
    # The timer loop makes the bots act, one action per game per tick.
    for _ in range(6):
        timers.tick(now=timezone.now(), bot_delay=0)
    assert fresh(game).seq == 6
    for _ in range(2000):
        if fresh(game).state != GameState.PLAYING:
            break
        seat = kinds.get("seven_up").to_act(state_of(game))[0]
        assert services.game_bot_act(player_id=game.players[seat]) is not None
    game.refresh_from_db()
    assert game.state == GameState.OVER
    final = gamestate.replay_log(game)
    assert su.is_over(final) and len(final.history) == 14
    assert final.config.ace == "low" and final.config.hook is False
    assert game.scores == final.totals
    top = max(final.totals)
    assert game.winners == [game.players[s] for s, t in enumerate(final.totals) if t == top]
    # A finished match deals the next one at once.
    assert game_at(tables_of(w)[0]).number == game.number + 1


def test_the_end_of_a_round_cuts_the_match_and_credits_the_points_leaders():
    w = seven_up_workshop(players=8, tables=2, preset=None, seed=9)
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    g1, g2 = game_at(t1), game_at(t2)
    assert g1.kind == g2.kind == "seven_up"
    assert g1.table_rules != g2.table_rules  # the tables play different variants
    # Table 1 finishes two deals and starts a third; table 2 only bids.
    state = play_until(g1, lambda s: s.deal_no == 2 and s.phase == "play")
    act(g2, 0, {"type": "bid", "bid": 0})
    services.round_end_now(round_id=rnd.pk)
    g1.refresh_from_db()
    g2.refresh_from_db()
    assert g1.state == g2.state == GameState.CUT
    assert g1.scores == state.totals  # the deal in progress counts nothing
    top = max(state.totals)
    leaders = [g1.players[s] for s, t in enumerate(state.totals) if t == top]
    assert sorted(g1.winners) == sorted(leaders)
    assert g2.winners == [] and g2.scores == [0, 0, 0, 0]  # no deal scored: no winner
    rows = {r["id"]: r for r in fresh(rnd).standings["players"]}
    for pid in g1.players:
        assert rows[pid]["games_won"] == (1 if pid in leaders else 0)
        assert rows[pid]["games_played"] == 1
    assert all(rows[pid]["games_won"] == 0 for pid in g2.players)
    # The cut game's log still replays to the state it was cut at.
    gamestate.clear_cache()
    assert gamestate.replay_log(g1) == state


def test_replaying_the_stored_log_equals_the_live_state_after_many_moves():
    w = seven_up_workshop(preset="lowest-wins", players=5, seats=5)
    game = to_study(w)
    live = play_until(game, lambda s: s.deal_no == 3 and len(s.current) == 2, rng=random.Random(8))
    gamestate.clear_cache()
    assert gamestate.replay_log(fresh(game)) == live
    assert gamestate.load_state(fresh(game)) == live
    assert KIND.progress(live) == 7 + 6 + 5


def test_a_finished_trick_is_a_line_the_phone_announces_with_its_number():
    """The phone's screen reader says each [data-announce] line when it is new
    (static/js/table.js): the last trick's line names its number, so a second trick
    taken by the same player is new too."""
    w = seven_up_workshop(preset="classic")
    game = fix_seed(to_study(w), 12)
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    for n in (1, 2):
        state = play_until(game, lambda s, n=n: len(s.tricks) == n and not s.current)
        winner = game.players[state.tricks[-1].winner]
        for pid in game.players:
            taker = "you" if pid == winner else f"<bdi>{names[winner]}</bdi>"
            line = f'<summary data-announce="first">Trick {n} taken by {taker}'
            html = html_for(pid)
            assert (
                line
                + '<span class="visually-hidden">.</span><span class="visually-hidden"> Played: '
                in html
            )
            # With the trick's cards: the last one played is heard nowhere else.
            played = _said(
                r"<summary data-announce=\"first\">", html.replace("</summary>", "</p>", 1)
            )
            for s, c in state.tricks[-1].cards:
                who = "you" if game.players[s] == pid else names[game.players[s]]
                assert f"{card_name(c)} by {who}" in played, played


def _said(pattern: str, html: str) -> str:
    """The text of the first element ``pattern`` opens, as a screen reader hears it."""
    found = re.search(pattern + r"(.*?)</p>", html, re.S)
    assert found, html
    text = re.sub(r'<span aria-hidden="true">.*?</span>', "", found.group(1), flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text)).strip())


def test_bids_the_new_deals_trump_and_the_last_deals_score_are_heard():
    """A blind student heard "Dee is bidding." and "Bot A leads." and no bid, not even
    their own; a new deal came with no trump, and a finished deal with no score. The
    lines a phone says when they change now carry them."""
    w = seven_up_workshop(preset="classic")
    game = fix_seed(to_study(w), 12)
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    seat_name = [names[pid] for pid in game.players]
    whose = r'<p class="whose" data-announce>'

    # Bidding: the bid just made, on its own line (the seat's own as "You"), then the
    # total so far; not the list of bids again at each bid.
    state = play_until(game, lambda s: s.phase == "bid" and s.bids.count(None) == 2)
    bid = [(s, b) for s, b in enumerate(state.bids) if b is not None]
    (s0, b0), (s1, b1) = bid
    latest = (state.dealer + 2) % len(game.players)
    for seat, pid in enumerate(game.players):
        html = html_for(pid)
        said = _said(whose, html)
        tricks = f"{state.cards} trick{'s' if state.cards != 1 else ''}"
        assert said.endswith(f". {b0 + b1} bid for {tricks}."), said
        assert "Bids:" not in said, said
        who = "You" if seat == latest else seat_name[latest]
        line = _said(r'<p class="visually-hidden su-latest-bid" data-announce="first">', html)
        assert line == f"{who} bid {state.bids[latest]}.", line

    # The deal's first lead: the dealer's bid, just made, then the others', once (the
    # dealer's again in the list was heard twice in one line), and the total.
    state = play_until(game, lambda s: s.phase == "play" and not s.current and not s.tricks)
    html = html_for(game.players[0])
    said = _said(whose, html)
    words = ", ".join(
        f"{'you' if s == 0 else seat_name[s]} {b}"
        for s, b in enumerate(state.bids)
        if s != state.dealer
    )
    tricks = f"{state.cards} trick{'s' if state.cards != 1 else ''}"
    assert f"Other bids: {words}; {sum(state.bids)} bid for {tricks}." in said, said
    dealer = "You" if state.dealer == 0 else seat_name[state.dealer]
    line = _said(r'<p class="visually-hidden su-latest-bid" data-announce="first">', html)
    assert line == f"{dealer} bid {state.bids[state.dealer]}.", line

    # The next deal: the last deal's score first, then the deal and its trump.
    state = play_until(game, lambda s: len(s.history) == 1 and s.phase == "bid")
    done = state.history[0]
    html = html_for(game.players[0])
    scored = _said(r'<p class="visually-hidden" data-announce="first">Deal 1 scored: ', html)
    for s in range(len(game.players)):
        who = "you" if s == 0 else seat_name[s]
        made = "made it" if done.bids[s] == done.tricks_won[s] else "missed"
        points = done.points[s]
        assert (
            f"{who} bid {done.bids[s]}, took {done.tricks_won[s]}, {made}: "
            f"{points} point{'' if points == 1 else 's'}"
        ) in scored, scored
    deal = _said(r'<p class="su-deal" data-announce="first">', html)
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[state.trump_card[-1]]
    # Its parts are heard as a list ("·" may be read out as "dot").
    assert deal.startswith("Deal 2 of 14, ") and " cards each. " in deal, deal
    assert "·" not in deal and f"Trump: {suit}" in deal, deal
    assert html.index("Deal 1 scored") < html.index('<p class="su-deal"')


PREVIOUS_TRICK = re.compile(
    r'<details class="last-trick previous-trick">\s*<summary data-announce="earliest">(.*?)</summary>'
    r"\s*<ul>(.*?)</ul>",
    re.S,
)


def _previous_trick(html: str) -> tuple[str, list[tuple[str, str]]] | None:
    """The previous-trick section's line as heard, and its list's (who, card label)."""
    found = PREVIOUS_TRICK.search(html)
    if found is None:
        return None
    line = html_lib.unescape(re.sub(r"<[^>]+>", "", found.group(1)))
    cards = re.findall(r'<li>(.*?): <span[^>]*aria-label="([^"]+)"', found.group(2))
    return line, [(re.sub(r"<[^>]+>", "", who), label) for who, label in cards]


def test_a_deals_last_trick_is_shown_and_said_until_the_next_deals_first_is_taken():
    """A deal's last card scores it and deals the next at once: the next deal's screen
    had no last trick, so who took that trick, and its cards, were never shown nor said
    to its players ("Deal 1 scored: …" only). The next deal's screen shows it, in the
    trick line's words with the deal's number, said before the deal's score (the
    browser test hears it), until its first trick is taken. The blind deal's is shown as each seat saw it: the card
    played last, which ended the deal, was never seen by its player."""
    w = seven_up_workshop(preset="classic", players=3, seats=3)
    game = fix_seed(to_study(w), 12)
    late = services.player_join(workshop_id=w.pk, name="Late")
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    state = play_until(game, lambda s: s.deal_no == 1)
    assert state.phase == "bid" and not state.tricks
    last = state.history[0].tricks[-1]
    for seat, pid in enumerate(game.players):

        def who(s, seat=seat):
            return "you" if s == seat else names[game.players[s]]

        html = html_for(pid)
        played = ", ".join(f"{card_name(c)} by {who(s)}" for s, c in last.cards)
        assert _previous_trick(html) == (
            f"Trick 7 of deal 1 taken by {who(last.winner)}. Played: {played}.",
            [("You" if s == seat else names[game.players[s]], card_name(c)) for s, c in last.cards],
        ), html
        # Where a trick is shown, under the hand (said first: data-announce="earliest",
        # before the deal's score, which heads the screen).
        assert html.index('<section class="hand"') < html.index("previous-trick")
        assert html.index("previous-trick") < html.index('<section class="su-sheet"')
    # Not to a student who did not play the deal: seated there, they watch it.
    late.refresh_from_db()
    assert late.table_id == game.table_id and late.pk not in game.players
    assert _previous_trick(html_for(late.pk)) is None

    # Shown while the new deal's first trick is played, gone once it is taken.
    state = play_until(game, lambda s: len(s.current) == 2)
    assert _previous_trick(html_for(game.players[0])) is not None
    state = play_until(game, lambda s: len(s.tricks) == 1)
    html = html_for(game.players[0])
    assert _previous_trick(html) is None and "Trick 1 taken by" in html

    # The blind deal: each seat sees the cards it saw face up.
    state = play_until(game, lambda s: s.deal_no == su.BLIND_DEAL + 1)
    (trick,) = state.history[su.BLIND_DEAL].tricks
    last_seat = trick.cards[-1][0]
    for seat, pid in enumerate(game.players):
        line, cards = _previous_trick(html_for(pid))
        assert line.startswith(f"Trick 1 of deal {su.BLIND_DEAL + 1} taken by "), line
        for s, c in trick.cards:
            who = "You" if s == seat else names[game.players[s]]
            if s == seat == last_seat:
                # Played unseen, and the trick ended with it: never on its table.
                assert (who, "your card, unseen") in cards
                assert card_name(c) not in line and "an unseen card by you" in line
            else:
                assert (who, card_name(c)) in cards


def test_a_match_won_by_several_names_them_as_a_sentence_does():
    """Points level at the top: the phone read "Match over: Ana, Bea, Cy won.", a list
    with no "and", where every other list of names on the phone has one."""
    from django.template import engines

    screen = engines["jinja2"].get_template("play/games/seven_up.html")

    def over(*winners) -> str:
        html = screen.render({"game": {"over": True, "winners": list(winners)}})
        return re.search(r"<strong>Match over: (.*?)\.</strong>", html).group(1)

    assert over("Ana", "Bea", "Cy") == "<bdi>Ana</bdi>, <bdi>Bea</bdi> and <bdi>Cy</bdi> won"
    assert over("Ana", "Bea") == "<bdi>Ana</bdi> and <bdi>Bea</bdi> won"
    assert over("Ana") == "<bdi>Ana</bdi> won"
    assert over() == "no winner"
