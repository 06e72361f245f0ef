"""All Fives in a workshop: the kind (games/kinds/all_fives.py) through the services.

A workshop with game="all_fives" deals a game at a 3-seat and a 2-seat table;
phones drive stand/beg/take one/run, plays and revoke calls through
services.game_act; the engine's refusals reach the player and store nothing; the
screen shows each seat only what its view holds; bots play by the clock; a round
end cuts a game and credits the leaders; the stored log replays to the live state.
"""

from __future__ import annotations

import csv
import io
import random
import re
import zipfile
from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.utils import timezone
from tournament_helpers import assert_refused, fresh, game_at, state_of, tables_of

from games import all_fives
from games.all_fives import Sheet
from games.cards import SUIT_NAMES
from games.kinds import KINDS, MoveError, get
from games.kinds.all_fives import PRESETS, sheet_text
from tournament import gamestate, selectors, services, timers
from tournament.errors import IllegalMove, InvalidInput, StaleAction
from tournament.models import Action, Game, GameState, Player, Table, Workshop
from tournament.sheet_assignment import MIN_NEIGHBOUR_DIFF, auto_assign
from tournament.templatetags.cards import card_name

KIND = get("all_fives")
SUIT_TABLE = "high_highest_suit"  # the seed's sheet
ANY_TABLE = "low_lowest_any"  # differs from it in all three knobs


# ------------------------------------------------------------------ pure: the kind


def test_the_kind_is_registered_with_its_shape():
    assert KINDS["all_fives"] is KIND
    assert (KIND.min_seats, KIND.max_seats) == (2, 3)
    assert KIND.score_label == "points" and KIND.per_seat_rules and not KIND.records_tricks
    assert set(KIND.move_types) == {"stand", "beg", "take_one", "run", "play", "call_revoke"}
    assert KIND.template == "play/games/all_fives.html"


def test_presets_are_the_twelve_sheets_each_titled():
    assert len(PRESETS) == len(set(PRESETS.values())) == 12
    assert set(KIND.preset_titles) == set(PRESETS)
    assert KIND.preset_titles[SUIT_TABLE] == "Ace high, highest wins, follow suit"
    assert KIND.summary(PRESETS[ANY_TABLE].to_dict()) == "Ace low, lowest wins, play any card"
    for sheet in PRESETS.values():
        assert KIND.rules_from_dict(sheet.to_dict()) == sheet
        assert hash(KIND.rules_from_dict(sheet.to_dict())) == hash(sheet)
    assert KIND.rules_from_dict({}) == Sheet()
    assert KIND.default_rules() == {"ace": "high", "wins": "highest", "follow": "suit"}
    assert PRESETS[SUIT_TABLE].diff(PRESETS[ANY_TABLE]) == ["ace", "wins", "follow"]
    with pytest.raises(ValueError):
        KIND.rules_from_dict({"ace": "high", "wins": "highest", "follow": "sometimes"})


@pytest.mark.parametrize("seed", [0, 1, 7, 42])
def test_auto_assign_gives_neighbours_two_different_knobs_for_1_to_20_tables(seed):
    for count in range(1, 21):
        names = auto_assign(count, KIND.presets, seed)
        assert len(names) == count
        sheets = [KIND.presets[n] for n in names]
        for a, b in zip(sheets, sheets[1:], strict=False):
            assert len(a.diff(b)) >= MIN_NEIGHBOUR_DIFF, (count, names)
        if count <= len(PRESETS):
            assert len(set(names)) == count  # every table a different sheet


def test_the_study_sheet_follows_the_knobs():
    def text(**knobs):
        sheet = sheet_text(Sheet(**knobs))
        assert sheet["title"] == "All Fives"
        return {s["heading"]: s["text"] for s in sheet["sections"]}

    seed = text()
    assert "ace is the highest card" in seed["Cards"]
    assert "must follow suit" in seed["Playing"]
    assert "the highest trump wins" in seed["Winning a trick"]
    assert "the ace is the best card" in seed["Winning a trick"]
    for words in ("ace 4", "king 3", "queen 2", "jack 1", "ten 10", "five 5"):
        assert words in seed["Scoring"]
    assert "61 points" in seed["End of the game"] and "tied" in seed["End of the game"]
    assert "3 points" in seed["Revokes"]
    for words in ("two batches of three", "turns up"):
        assert words in seed["Deal"]
    for words in ("stands", "begs", "give one point", "run the cards"):
        assert words in seed["Stand or beg"]
    low = text(ace="low", wins="lowest", follow="any")
    assert "ace is the lowest card" in low["Cards"]
    assert "the lowest trump wins" in low["Winning a trick"]
    assert "the ace is the best card" in low["Winning a trick"]
    assert "never have to follow" in low["Playing"]
    assert "either a card of that suit or a trump" in text(follow="suit_or_trump")["Playing"]
    assert "the king is the best" in text(ace="low")["Winning a trick"]
    assert (
        KIND.sheet(PRESETS[ANY_TABLE].to_dict())["sections"]
        == sheet_text(PRESETS[ANY_TABLE])["sections"]
    )


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["barnga", "referee"])
def test_the_study_sheet_says_whether_revokes_can_be_called(mode):
    """In referee mode the engine refuses a call ('there is no revoke to call'), yet the
    sheet told students that any opponent may call a revoke, and what it costs."""
    w = af_workshop(mode=mode)
    study(w)
    html = screen_html(w.players.order_by("pk").first().pk)
    referee = mode == "referee"
    assert ("Any opponent may call it" in html) is not referee
    assert ("nobody can revoke" in html) is referee
    assert ("whose revoke was called" in html) is not referee


def test_phone_moves_become_the_seats_own_engine_actions():
    state = KIND.new_state(
        table_rules=Sheet().to_dict(), seat_rules=[Sheet().to_dict()] * 3, mode="barnga", seed=3
    )
    assert KIND.phone_action(state, 1, {"type": "beg", "seat": 0}) == {"type": "beg", "seat": 1}
    assert KIND.phone_action(state, 2, {"type": "play", "card": " as "}) == {
        "type": "play",
        "seat": 2,
        "card": "AS",
    }
    assert KIND.phone_action(state, 0, {"type": "call_revoke", "accused": 2}) == {
        "type": "call_revoke",
        "seat": 0,
        "accused": 2,
    }
    for bad in (
        "stand",
        None,
        [],
        {},
        {"type": "bid"},
        {"type": "play"},
        {"type": "play", "card": 7},
        {"type": "play", "card": "TOOLONG"},
        {"type": "call_revoke"},
        {"type": "call_revoke", "accused": "1"},
        {"type": "call_revoke", "accused": True},
    ):
        with pytest.raises(MoveError):
            KIND.phone_action(state, 0, bad)


def test_to_act_puts_the_awaited_seat_first_and_opens_calls_to_the_others():
    state = KIND.new_state(
        table_rules=Sheet().to_dict(), seat_rules=[Sheet().to_dict()] * 3, mode="barnga", seed=8
    )
    assert KIND.to_act(state) == [state.eldest] and KIND.progress(state) == 0
    state, _ = KIND.apply(state, {"type": "stand", "seat": state.eldest})
    for _ in range(3):
        seat = state.to_act
        assert KIND.to_act(state) == [seat]
        card = all_fives.legal_actions(state, seat)[0]["card"]
        state, _ = KIND.apply(state, {"type": "play", "seat": seat, "card": card})
    assert state.calls_open and KIND.progress(state) == 1
    order = KIND.to_act(state)
    assert order[0] == state.to_act and sorted(order) == [0, 1, 2]
    # An opponent's bot either calls a revoke or does nothing; it never plays out of turn.
    for seat in order[1:]:
        for i in range(20):
            action = KIND.bot_action(state, seat, random.Random(i))
            assert action is None or action["type"] == "call_revoke"
    spectator = KIND.spectator(state, names=["A", "B", "C"])
    assert spectator["names"] == ["A", "B", "C"] and len(spectator["hands"]) == 3


# ------------------------------------------------------------------ a workshop


def af_workshop(*, players=5, mode="barnga", sheets=None, **kw):
    """Two tables of All Fives (3 seats, then 2 for five players), in the lobby."""
    w = services.workshop_create(
        name="All Fives",
        game="all_fives",
        table_count=2,
        seats_per_table=3,
        seed=11,
        mode=mode,
        **kw,
    )
    if sheets:
        services.sheets_assign(workshop_id=w.pk, assignment=sheets)
    for i in range(players):
        services.player_join(workshop_id=w.pk, name=f"P{i + 1:02d}")
    return w


def study(w):
    services.players_seat_home(workshop_id=w.pk)
    return services.workshop_start_study(workshop_id=w.pk)


def act(game, seat, move, **kw):
    return services.game_act(player_id=game.players[seat], move=move, **kw)


def screen_html(pid) -> str:
    return render_to_string("play/_screen.html", selectors.player_screen(pid))


def find_seed(game, predicate, tries=2000) -> int:
    """A seed whose deal, for this game's stored sheets, satisfies `predicate(state)`."""
    for seed in range(tries):
        state = KIND.new_state(
            table_rules=game.table_rules, seat_rules=game.seat_rules, mode=game.mode, seed=seed
        )
        if predicate(state):
            return seed
    pytest.fail("no seed gives the deal this test needs")


def set_seed(game, seed) -> Game:
    assert game.seq == 0
    Game.objects.filter(pk=game.pk).update(seed=seed)
    gamestate.clear_cache()
    return fresh(game)


@pytest.mark.django_db
def test_a_workshop_of_all_fives_deals_at_a_3_and_a_2_seat_table():
    with pytest.raises(InvalidInput):
        services.workshop_create(name="x", game="all_fives", table_count=2, seats_per_table=4)
    w = af_workshop()
    t1, t2 = tables_of(w)
    assert {t.preset for t in (t1, t2)} <= set(PRESETS)
    assert len(PRESETS[t1.preset].diff(PRESETS[t2.preset])) >= 2
    study(w)
    for table, n in ((t1, 3), (t2, 2)):
        game = game_at(table)
        assert game is not None and game.kind == "all_fives" and len(game.players) == n
        state = state_of(game)
        assert isinstance(state, all_fives.State) and state.phase == "beg"
        assert all(len(h) == 6 for h in state.hands)
        # Each seat plays by its home table's sheet (here: this table's).
        assert game.seat_rules == [table.rules] * n


@pytest.mark.django_db
def test_stand_beg_take_one_and_run_through_the_service():
    w = af_workshop()
    t1, _ = tables_of(w)
    study(w)
    game = game_at(t1)
    state = state_of(game)
    eldest, dealer = state.eldest, state.dealer
    other = 3 - eldest - dealer

    # Only eldest may beg; the dealer may not answer before a beg.
    err = assert_refused(lambda: act(game, dealer, {"type": "beg"}), IllegalMove)
    assert "on the dealer's left" in err.message
    assert_refused(lambda: act(game, dealer, {"type": "take_one"}), IllegalMove)
    assert_refused(
        lambda: act(game, other, {"type": "play", "card": state.hands[other][0]}), IllegalMove
    )

    act(game, eldest, {"type": "beg"})
    assert state_of(game).phase == "dealer"
    assert_refused(lambda: act(game, eldest, {"type": "take_one"}), IllegalMove)
    act(game, dealer, {"type": "take_one"})
    state = state_of(game)
    assert state.phase == "play" and state.took_one and state.to_act == eldest
    assert state.scores[eldest] == 1 and sum(state.scores) == 1
    kinds_stored = list(
        Action.objects.filter(game=game).order_by("seq").values_list("kind", flat=True)
    )
    assert kinds_stored == ["beg", "take_one"]

    # The next hand: run the cards instead (a new trump, more cards each).
    game2 = game_at(tables_of(w)[1])
    s2 = state_of(game2)
    act(game2, s2.eldest, {"type": "beg"})
    act(game2, s2.dealer, {"type": "run"})
    after = state_of(game2)
    assert after.phase == "play" and after.trump != s2.first_trump
    assert len(after.hands[0]) == len(after.hands[1]) >= 6


@pytest.mark.django_db
def test_a_stand_is_said_to_the_table_until_the_first_card():
    """A walk through an All Fives workshop: the phones said "Cat is deciding: stand
    or beg.", then "Cat leads.": a stand went unsaid (a beg's answer is said: "… gave
    Cat one point; the trump stays"). Until the first card, every phone's turn line
    says to a screen reader that eldest stood and what is trumps (heard only: a line
    more put the hand below the smallest phone's fold); once it is played, no more."""
    w = af_workshop()
    t1, _ = tables_of(w)
    study(w)
    game = game_at(t1)
    state = state_of(game)
    eldest = state.eldest
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    trumps = SUIT_NAMES[state.trump]
    act(game, eldest, {"type": "stand"})
    for seat, pid in enumerate(game.players):
        text = _words(screen_html(pid))
        who = "You" if seat == eldest else names[game.players[eldest]]
        assert f"{who} stood: {trumps} are trumps." in text, (seat, text)
    state = state_of(game)
    act(game, state.to_act, {"type": "play", "card": state.hands[state.to_act][0]})
    for pid in game.players:
        assert "stood" not in _words(screen_html(pid))


@pytest.mark.django_db
def test_plays_legal_accepted_illegal_and_out_of_turn_refused_malformed_invalid():
    w = af_workshop(sheets={1: SUIT_TABLE, 2: ANY_TABLE})
    t1, _ = tables_of(w)
    study(w)
    game = game_at(t1)

    def can_revoke_next(state):
        # Eldest leads a card; the next seat holds that suit and another one.
        leader = state.eldest
        nxt = (leader + 1) % 3
        suits = {c[-1] for c in state.hands[nxt]}
        return any(c[-1] in suits and len(suits) > 1 for c in state.hands[leader])

    game = set_seed(game, find_seed(game, can_revoke_next))
    state = state_of(game)
    leader, nxt = state.eldest, (state.eldest + 1) % 3
    act(game, leader, {"type": "stand"})
    suits = {c[-1] for c in state.hands[nxt]}
    lead = next(c for c in state.hands[leader] if c[-1] in suits)
    result = act(game, leader, {"type": "play", "card": lead}, client_action_id="lead-1")
    assert result.seq == 2 and fresh(game).seq == 2
    wrong = next(c for c in state.hands[nxt] if c[-1] != lead[-1])

    err = assert_refused(lambda: act(game, nxt, {"type": "play", "card": wrong}), IllegalMove)
    assert "follow suit" in err.message
    err = assert_refused(
        lambda: act(game, (nxt + 1) % 3, {"type": "play", "card": state.hands[(nxt + 1) % 3][0]}),
        IllegalMove,
    )
    assert "not your turn" in err.message
    err = assert_refused(lambda: act(game, nxt, {"type": "play", "card": lead}), IllegalMove)
    assert "do not hold" in err.message
    for bad in (
        "AS",
        {"type": "nope"},
        {"type": "play", "card": 3},
        {"type": "call_revoke", "accused": "x"},
    ):
        assert_refused(lambda bad=bad: act(game, nxt, bad), InvalidInput, case=bad)
    # A stale version is refused too (the phone resyncs).
    assert_refused(
        lambda: act(game, nxt, {"type": "play", "card": lead}, expected_version=0), StaleAction
    )

    right = next(c for c in state.hands[nxt] if c[-1] == lead[-1])
    act(game, nxt, {"type": "play", "card": right})
    assert state_of(game).current == ((leader, lead), (nxt, right))
    assert gamestate.replay_log(fresh(game)) == state_of(game)


@pytest.mark.django_db
def test_the_screen_shows_beg_buttons_to_the_right_seat_and_no_other_hand():
    w = af_workshop()
    t1, _ = tables_of(w)
    study(w)
    game = game_at(t1)
    state = state_of(game)
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    stand = """data-move='{"type":"stand"}'"""
    beg = """data-move='{"type":"beg"}'"""
    take = """data-move='{"type":"take_one"}'"""
    run = """data-move='{"type":"run"}'"""

    def check_private(html, seat, st):
        for s in range(3):
            for c in st.hands[s]:
                mine = s == seat
                assert (f'data-card="{c}"' in html) == mine, (seat, s, c)
                assert (card_name(c) in html) == mine, (seat, s, c)

    for seat, pid in enumerate(game.players):
        html = screen_html(pid)
        assert 'class="board af"' in html and "/ 61" in html
        assert card_name(state.turn_up) in html  # the turned-up card, for everyone
        assert (stand in html, beg in html) == (seat == state.eldest,) * 2, seat
        assert take not in html and run not in html
        check_private(html, seat, state)
        assert '<p class="whose" data-announce>' in html  # read out by table.js
        # The whose-turn line names eldest.
        if seat != state.eldest:
            assert f"<bdi>{names[game.players[state.eldest]]}</bdi> is deciding" in html

    act(game, state.eldest, {"type": "beg"})
    for seat, pid in enumerate(game.players):
        html = screen_html(pid)
        assert (take in html, run in html) == (seat == state.dealer,) * 2, seat
        assert stand not in html and beg not in html
        if seat == state.dealer:
            assert "Give one point (take one)" in html and "Run the cards" in html
    act(game, state.dealer, {"type": "take_one"})
    state = state_of(game)
    for seat, pid in enumerate(game.players):
        html = screen_html(pid)
        check_private(html, seat, state)
        playable = html.count(", playable")
        assert playable == (len(state.hands[seat]) if seat == state.to_act else 0)
        assert "<strong>1</strong> / 61" in html  # eldest's point, on every screen
        assert "one point" in html


def revoke_setup(mode):
    """Table 1 follows suit; one of its players learned table 2's "any card" sheet.

    Returns the game (seeded so that eldest leads a suit the revoker holds, with
    another suit, and the revoker plays next) and the revoker's seat.
    """
    w = af_workshop(mode=mode, sheets={1: SUIT_TABLE, 2: ANY_TABLE})
    t1, t2 = tables_of(w)
    services.players_seat_home(workshop_id=w.pk)
    revoker = Player.objects.filter(table=t1).order_by("seat").first()
    Player.objects.filter(pk=revoker.pk).update(rules=fresh(t2).rules)
    services.workshop_start_study(workshop_id=w.pk)
    game = game_at(t1)
    assert game.table_rules == PRESETS[SUIT_TABLE].to_dict()
    r_seat = game.players.index(revoker.pk)
    assert game.seat_rules[r_seat]["follow"] == "any"

    return set_seed(game, find_seed(game, lambda state: revoke_possible(state, r_seat))), r_seat


def revoke_possible(state, r_seat) -> bool:
    """A deal where the revoker plays right after eldest, holds two suits or more, and
    eldest holds one of them to lead."""
    if state.eldest == r_seat or (state.eldest + 1) % 3 != r_seat:
        return False
    suits = {c[-1] for c in state.hands[r_seat]}
    return len(suits) > 1 and any(c[-1] in suits for c in state.hands[state.eldest])


def revoke_cards(state, r_seat) -> tuple[str, str]:
    """(eldest's lead in a suit the revoker holds, the revoker's off-suit card)."""
    suits = {c[-1] for c in state.hands[r_seat]}
    lead = next(c for c in state.hands[state.eldest] if c[-1] in suits)
    return lead, next(c for c in state.hands[r_seat] if c[-1] != lead[-1])


def lead_for_revoke(game, r_seat):
    """Eldest stands and leads; returns (lead, the revoker's off-suit card)."""
    state = state_of(game)
    lead, off = revoke_cards(state, r_seat)
    act(game, state.eldest, {"type": "stand"})
    act(game, state.eldest, {"type": "play", "card": lead})
    return lead, off


def play_revoke_trick(game, r_seat):
    """Eldest stands and leads a suit the revoker holds, the revoker plays off suit
    (legal on their sheet, a revoke at this table), the third seat its first legal
    card: the trick is taken and the calls on it are open. Returns (eldest, the
    revoker's off-suit card)."""
    leader, last = state_of(game).eldest, (r_seat + 1) % 3
    _, off = lead_for_revoke(game, r_seat)
    act(game, r_seat, {"type": "play", "card": off})
    third = all_fives.legal_actions(state_of(game), last)[0]["card"]
    act(game, last, {"type": "play", "card": third})
    return leader, off


@pytest.mark.django_db
def test_a_barnga_revoke_is_called_through_the_service_and_costs_points():
    game, r_seat = revoke_setup("barnga")
    leader, _ = play_revoke_trick(game, r_seat)
    state = state_of(game)
    assert len(state.tricks) == 1 and state.calls_open and state.tricks[0].revokes == (r_seat,)

    # While the call is open, the opponents see a button to call it; the revoker does not.
    call_button = f""""type":"call_revoke","accused":{r_seat}}}'"""
    for seat, pid in enumerate(game.players):
        assert (call_button in screen_html(pid)) == (seat != r_seat), seat
    # The revoker cannot call on themselves.
    assert_refused(
        lambda: act(game, r_seat, {"type": "call_revoke", "accused": r_seat}), IllegalMove
    )

    caller = leader
    before = state.scores[r_seat]
    act(game, caller, {"type": "call_revoke", "accused": r_seat})
    state = state_of(game)
    assert state.scores[r_seat] == before - all_fives.REVOKE_PENALTY
    assert state.barred[r_seat] and state.calls[-1].upheld
    html = screen_html(game.players[caller])
    assert f"<strong>{before - all_fives.REVOKE_PENALTY}</strong> / 61" in html
    assert "upheld" in html and "revoke called" in html
    # A second call on the same card is refused; the call buttons for it are gone.
    other = 3 - r_seat - caller
    assert_refused(
        lambda: act(game, other, {"type": "call_revoke", "accused": r_seat}), IllegalMove
    )
    assert call_button not in screen_html(game.players[other])
    # Once the next card is led, calls are closed.
    act(
        game,
        state.to_act,
        {"type": "play", "card": all_fives.legal_actions(state, state.to_act)[0]["card"]},
    )
    assert_refused(
        lambda: act(game, other, {"type": "call_revoke", "accused": caller}), IllegalMove
    )
    assert gamestate.replay_log(fresh(game)) == state_of(game)


WATCHING_CALL = re.compile(r'<span class="muted watching-call" data-announce>(.*?)</span>', re.S)


def watched(game) -> str:
    """The watching section a student seated at `game`'s table during it sees (seat
    0's screen, its game swapped for the one watched)."""
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    ctx = selectors.player_screen(game.players[0])
    watching = selectors.watching(fresh(game), state_of(game), names)
    ctx.update(game=None, waiting_for_next_game=True, watching=watching)
    html = render_to_string("play/_screen.html", ctx)
    return re.search(r'<section class="watching".*?</section>', html, re.S).group(0)


@pytest.mark.django_db
def test_a_revoke_call_and_its_verdict_reach_a_student_watching_the_game():
    """A student watching the game saw the trick taken, then the next lead: a revoke
    called in between, which cost a player points, was never shown nor said. It is,
    in one line in the players' own words, the latest call on the trick (each said
    once, as its own line: the trick's line stays as it was); gone with the next lead."""
    game, r_seat = revoke_setup("barnga")
    leader, _ = play_revoke_trick(game, r_seat)
    names = [fresh(Player.objects.get(pk=pid)).name for pid in game.players]
    before = watched(game)
    assert WATCHING_CALL.search(before) is None
    taken = re.search(r'<span class="muted" data-announce="first">.*?</span>', before).group(0)
    assert "Trick 1 taken by" in taken

    caller, other = leader, 3 - r_seat - leader
    act(game, caller, {"type": "call_revoke", "accused": r_seat})
    section = watched(game)
    bdi = {n: f"<bdi>{n}</bdi>" for n in names}
    assert WATCHING_CALL.findall(section) == [
        f"{bdi[names[caller]]} called a revoke on {bdi[names[r_seat]]} (trick 1): "
        f"upheld, {bdi[names[r_seat]]} loses 3 points and cannot win on this hand."
    ], section
    assert taken in section  # unchanged, so not said again

    act(game, other, {"type": "call_revoke", "accused": caller})  # the leader's card was legal
    assert WATCHING_CALL.findall(watched(game)) == [
        f"{bdi[names[other]]} called a revoke on {bdi[names[caller]]} (trick 1): not a revoke."
    ]
    state = state_of(game)
    act(
        game,
        state.to_act,
        {"type": "play", "card": all_fives.legal_actions(state, state.to_act)[0]["card"]},
    )
    assert WATCHING_CALL.search(watched(game)) is None


@pytest.mark.django_db
def test_revoke_calls_made_on_one_screen_are_each_taken_until_the_next_lead():
    """Every seat may call at once while the calls are open, as every seat claims in
    Five Tricks: a call decided on the screen before another seat's call was refused
    as stale ("The table has moved on"), though the calls were still open (seen on a
    phone with a 1 s delay). A call changes nothing another seat's call or the next
    lead depends on; the lead closes the calls and makes a call decided before it stale,
    said as too late (it was said as any stale move: "The table has moved on")."""
    game, r_seat = revoke_setup("barnga")
    leader, _ = play_revoke_trick(game, r_seat)
    assert state_of(game).calls_open
    seen = Table.objects.get(pk=game.table_id).version  # the screen every seat decides on
    caller, other = leader, 3 - r_seat - leader
    # The table moves on for other things than a lead (here a name put right): a call
    # decided before is stale, but not too late (the calls are open, and it may be
    # made again); it was told "the next card was led" (found by a review).
    services.player_rename(
        workshop_id=Table.objects.get(pk=game.table_id).workshop_id,
        player_id=game.players[other],
        name="Renamed",
    )
    moved = assert_refused(
        lambda: act(
            game, caller, {"type": "call_revoke", "accused": r_seat}, expected_version=seen
        ),
        StaleAction,
    )
    assert str(moved) == "The table has moved on since you acted; here is the current state."
    seen = Table.objects.get(pk=game.table_id).version
    act(game, caller, {"type": "call_revoke", "accused": r_seat}, expected_version=seen)
    act(game, other, {"type": "call_revoke", "accused": caller}, expected_version=seen)
    state = state_of(game)
    assert [(c.caller, c.accused) for c in state.calls] == [(caller, r_seat), (other, caller)]
    card = all_fives.legal_actions(state, state.to_act)[0]["card"]
    act(game, state.to_act, {"type": "play", "card": card}, expected_version=seen)
    late = assert_refused(
        lambda: act(game, r_seat, {"type": "call_revoke", "accused": other}, expected_version=seen),
        StaleAction,
    )
    # Said as too late for a call, not as the general "The table has moved on".
    assert str(late).startswith("Too late to call that revoke: the next card was led"), late
    assert gamestate.replay_log(fresh(game)) == state_of(game)


def _revoke_trick(state, r_seat):
    """Eldest stands and leads a suit the revoker holds, the revoker plays off suit,
    the third seat its first legal card (play_revoke_trick's moves, on the engine)."""
    lead, off = revoke_cards(state, r_seat)
    state, _ = KIND.apply(state, {"type": "stand", "seat": state.eldest})
    for seat, card in ((state.eldest, lead), (r_seat, off)):
        state, _ = KIND.apply(state, {"type": "play", "seat": seat, "card": card})
    third = state.to_act
    card = all_fives.legal_actions(state, third)[0]["card"]
    state, _ = KIND.apply(state, {"type": "play", "seat": third, "card": card})
    return state


def _bot_choice(seed, state, seat):
    """What game_bot_act's seeded bot at `seat` does in `state`."""
    return KIND.bot_action(state, seat, random.Random(f"{seed}:{state.seq}:{seat}"))


def _open_call(wanted):
    """revoke_setup's game, reseeded so that the revoker's trick leaves a revoke call
    open, a seat other than the revoker leads next, and `wanted(seed, state, r_seat)`
    holds for the state then (the engine's). The trick is played through the services;
    returns (game, state, the revoker's seat)."""
    game, r_seat = revoke_setup("barnga")

    def deal(seed):
        return KIND.new_state(
            table_rules=game.table_rules, seat_rules=game.seat_rules, mode=game.mode, seed=seed
        )

    def fits(seed):
        state = deal(seed)
        if not revoke_possible(state, r_seat):
            return False
        state = _revoke_trick(state, r_seat)
        return state.calls_open and state.to_act != r_seat and wanted(seed, state, r_seat)

    seed = next((s for s in range(3000) if fits(s)), None)
    assert seed is not None, "no deal gives this test its trick"
    Game.objects.filter(pk=game.pk).update(seed=seed)
    gamestate.clear_cache()
    game = fresh(game)
    _, off = lead_for_revoke(game, r_seat)
    act(game, r_seat, {"type": "play", "card": off})
    third = state_of(game).to_act
    act(
        game,
        third,
        {"type": "play", "card": all_fives.legal_actions(state_of(game), third)[0]["card"]},
    )
    state = state_of(game)
    assert state == _revoke_trick(deal(seed), r_seat)  # the same moves, on the engine
    assert state.calls_open and state.tricks[0].revokes == (r_seat,)
    return game, state, r_seat


def after_call_delay():
    """A moment when the bots' wait for people to call a revoke is over."""
    return timezone.now() + timedelta(seconds=timers.BOT_CALL_DELAY_SECONDS + 0.5)


@pytest.mark.django_db
def test_bots_leave_people_time_to_call_a_revoke_before_the_next_lead():
    """A re-check measured the calls open 0.3-2.7 s at a table with bots: the bot to
    lead led on the next tick, and a person (a screen reader's user above all) had no
    time to call. With a person at the table the bots wait BARNGA_BOT_CALL_DELAY."""
    game, state, r_seat = _open_call(lambda seed, state, r_seat: True)
    leader = state.to_act
    Player.objects.filter(pk=game.players[leader]).update(is_bot=True)
    last = Action.objects.filter(game=game).order_by("-seq").first().created_at
    wait = timedelta(seconds=timers.BOT_CALL_DELAY_SECONDS)
    assert timers.tick(now=last + wait - timedelta(seconds=0.5), bot_delay=0).bot_actions == 0
    assert state_of(game) == state and state.calls_open
    assert timers.tick(now=last + wait + timedelta(seconds=0.1), bot_delay=0).bot_actions == 1
    # A table of bots only waits for nobody (the seeded game above plays on each tick).
    Player.objects.filter(pk__in=game.players).update(is_bot=True)
    state = bots_until(game, lambda state: state.calls_open and state.current == ())
    assert timers.tick(now=timezone.now(), bot_delay=0).bot_actions == 1


@pytest.mark.django_db
def test_a_bot_calls_a_revoke_before_the_bot_whose_lead_would_close_the_call():
    def caller_calls(seed, state, r_seat):  # the bot not next to lead would call
        caller = 3 - r_seat - state.to_act
        call = {"type": "call_revoke", "seat": caller, "accused": r_seat}
        return _bot_choice(seed, state, caller) == call

    game, state, r_seat = _open_call(caller_calls)
    leader = state.to_act
    caller = 3 - r_seat - leader
    # The two who kept the table's sheet are bots now; the revoker is a person.
    Player.objects.filter(pk__in=[game.players[leader], game.players[caller]]).update(is_bot=True)

    # The revoker, a person, may call too: the bots give the table time first.
    assert timers.tick(now=timezone.now(), bot_delay=0).bot_actions == 0
    report = timers.tick(now=after_call_delay(), bot_delay=0)

    assert report.bot_actions == 1
    last = Action.objects.filter(game=game).order_by("-seq").first()
    # Asked first, the other bot called. (Before, the timer asked only the leader's
    # bot, which calls or leads: the other bot never had its chance at the card.)
    assert (last.kind, last.actor_id) == ("call_revoke", game.players[caller])
    state = state_of(game)
    assert state.calls[-1].upheld and state.barred[r_seat]
    # Next tick the leader's bot leads; the calls close.
    timers.tick(now=after_call_delay(), bot_delay=0)
    last = Action.objects.filter(game=game).order_by("-seq").first()
    assert (last.kind, last.actor_id) == ("play", game.players[leader])
    assert not state_of(game).calls_open


@pytest.mark.django_db
def test_the_clock_does_not_lock_the_table_for_bots_with_nothing_to_do(monkeypatch):
    """While a call is open the awaited seat is a person's; the other two seats are bots
    that would not call. Each tick used to ask both bots under the table's lock, and
    each passed again (their choice is seeded by the game and its seq)."""

    def both_pass(seed, state, r_seat):
        caller = 3 - r_seat - state.to_act
        return _bot_choice(seed, state, caller) is None and _bot_choice(seed, state, r_seat) is None

    game, state, r_seat = _open_call(both_pass)
    leader = state.to_act
    bots = [game.players[s] for s in range(3) if s != leader]
    Player.objects.filter(pk__in=bots).update(is_bot=True)
    asked = []
    real = services.game_bot_act

    def spy(*, player_id, **kwargs):
        asked.append(player_id)
        return real(player_id=player_id, **kwargs)

    monkeypatch.setattr(services, "game_bot_act", spy)
    for _ in range(3):
        assert timers.tick(now=timezone.now(), bot_delay=0).bot_actions == 0
    assert asked == []
    assert state_of(game) == state
    # The person's seat turns bot: the clock asks it, and it acts (leads, or calls the
    # revoke first if its own sheet forbids the card).
    expected = _bot_choice(game.seed, state, leader)["type"]
    Player.objects.filter(pk=game.players[leader]).update(is_bot=True)
    assert timers.tick(now=timezone.now(), bot_delay=0).bot_actions == 1
    assert asked == [game.players[leader]]
    last = Action.objects.filter(game=game).order_by("-seq").first()
    assert (last.kind, last.actor_id) == (expected, game.players[leader])


@pytest.mark.django_db
def test_bots_play_a_seeded_game_to_the_end_by_the_clock():
    w = services.workshop_create(
        name="Bots",
        game="all_fives",
        table_count=1,
        seats_per_table=3,
        seed=4,
        bots_enabled=True,
        study_seconds=3600,
    )
    bots = services.bots_fill(workshop_id=w.pk)
    assert len(bots) == 3
    services.workshop_start_study(workshop_id=w.pk)
    (table,) = tables_of(w)
    game = set_seed(game_at(table), 12345)
    summary_seen = False
    for _ in range(3000):
        if fresh(game).state != GameState.PLAYING:
            break
        if not summary_seen:
            state = state_of(game)
            if state.history and not state.tricks:
                # A new hand: every phone shows what the last one scored.
                h = state.history[-1]
                for seat, pid in enumerate(game.players):
                    html = screen_html(pid)
                    assert f"Hand {h.hand} (" in html
                    assert f"<td>{h.points[seat]}</td>" in html
                    assert f"<td>{h.scores[seat]}</td></tr>" in html
                    assert f"<strong>{state.scores[seat]}</strong> / 61" in html
                summary_seen = True
        report = timers.tick(now=timezone.now(), bot_delay=0)
        assert report.bot_actions == 1
    assert summary_seen
    game = fresh(game)
    assert game.state == GameState.OVER
    replayed = gamestate.replay_log(game)
    assert all_fives.is_over(replayed)
    result = all_fives.result(replayed)
    assert max(result["scores"]) >= 61 and len(result["winners"]) == 1
    assert game.scores == result["scores"]
    assert game.winners == [game.players[result["winners"][0]]]
    assert replayed.seq == game.seq == Action.objects.filter(game=game).count()
    kinds_done = set(Action.objects.filter(game=game).values_list("kind", flat=True))
    assert {"play", "stand"} <= kinds_done
    # The round goes on: the next game was dealt.
    nxt = game_at(table)
    assert nxt is not None and nxt.number == 2 and nxt.kind == "all_fives"


def two_bots_dealt() -> Game:
    """A table of two bots in study, its game dealt from a known seed."""
    w = services.workshop_create(
        name="Bots",
        game="all_fives",
        table_count=1,
        seats_per_table=2,
        seed=4,
        bots_enabled=True,
    )
    services.bots_fill(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    return set_seed(game_at(tables_of(w)[0]), 99)


def bots_until(game, done, limit=200):
    """The bots at ``game``'s table play (the awaited seat first) until ``done(state)``."""
    rng = random.Random(5)
    for _ in range(limit):
        state = state_of(game)
        if done(state):
            return state
        services.game_bot_act(player_id=game.players[KIND.to_act(state)[0]], rng=rng)
    pytest.fail("the bots did not get there")


@pytest.mark.django_db
def test_bots_act_through_game_bot_act_deterministically():
    game = two_bots_dealt()
    rng = random.Random(5)
    for _ in range(40):
        state = state_of(game)
        seat = KIND.to_act(state)[0]
        assert services.game_bot_act(player_id=game.players[seat], rng=rng) is not None
    state = state_of(game)
    assert fresh(game).seq == 40 and state.seq == 40
    assert gamestate.replay_log(fresh(game)) == state


@pytest.mark.django_db
def test_a_round_end_cuts_the_game_and_credits_the_leader_by_points():
    w = af_workshop()
    t1, t2 = tables_of(w)
    rnd = study(w)
    game = game_at(t1)
    state = state_of(game)
    act(game, state.eldest, {"type": "beg"})
    act(game, state.dealer, {"type": "take_one"})
    act(
        game,
        state.eldest,
        {"type": "play", "card": all_fives.legal_actions(state_of(game), state.eldest)[0]["card"]},
    )
    untouched = game_at(t2)
    services.round_end_now(round_id=rnd.pk)
    game, untouched = fresh(game), fresh(untouched)
    assert game.state == GameState.CUT
    scores = [0, 0, 0]
    scores[state.eldest] = 1
    assert game.scores == scores
    assert game.winners == [game.players[state.eldest]]
    # Nobody scored at the other table: a cut game with no points has no winner.
    assert untouched.state == GameState.CUT and untouched.winners == []
    assert untouched.scores == [0, 0]
    standings = {r["id"]: r["games_won"] for r in fresh(rnd).standings["players"]}
    assert standings[game.players[state.eldest]] == 1
    assert sum(standings.values()) == 1
    assert gamestate.replay_log(game) == gamestate.load_state(game)


@pytest.mark.django_db
def test_referee_mode_refuses_what_the_table_forbids_and_has_no_calls():
    game, r_seat = revoke_setup("referee")
    lead, off = lead_for_revoke(game, r_seat)
    # The revoker's own sheet allows it, but the referee enforces the table's sheet.
    err = assert_refused(lambda: act(game, r_seat, {"type": "play", "card": off}), IllegalMove)
    assert "follow suit" in err.message
    follow = next(c for c in state_of(game).hands[r_seat] if c[-1] == lead[-1])
    act(game, r_seat, {"type": "play", "card": follow})
    state = state_of(game)
    act(
        game,
        state.to_act,
        {"type": "play", "card": all_fives.legal_actions(state, state.to_act)[0]["card"]},
    )
    state = state_of(game)
    assert len(state.tricks) == 1 and not state.calls_open
    for pid in game.players:
        assert "call_revoke" not in screen_html(pid)
    assert_refused(lambda: act(game, 0, {"type": "call_revoke", "accused": 1}), IllegalMove)


@pytest.mark.django_db
def test_a_finished_trick_is_a_line_the_phone_announces():
    """The phone's screen reader says each [data-announce] line when it is new
    (static/js/table.js): a won trick is one, with its number, until the next lead."""
    game = two_bots_dealt()
    state = bots_until(game, lambda state: len(state.tricks) == 1 and not state.current)
    assert len(state.tricks) == 1 and not state.current
    winner = state.tricks[0].winner
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    loser = game.players[1 - winner]
    line = f'<p class="hint af-won" data-announce="first">Trick 1 won by <bdi>{names[game.players[winner]]}</bdi>.'
    assert line in screen_html(loser)
    assert '<p class="hint af-won" data-announce="first">Trick 1 won by you.' in screen_html(
        game.players[winner]
    )
    # Said with the trick's cards in words (the calls are made on them, and they go at
    # the next lead): said before the lead, with "you" for the phone's own card.
    said = re.search(r'<p class="hint af-won".*?</p>', screen_html(loser), re.S).group(0)
    cards = {seat: card for seat, card in state.tricks[0].cards}
    assert (
        f"Played: {card_name(cards[1 - winner])} by <bdi>you</bdi>, " in said
        or f", {card_name(cards[1 - winner])} by <bdi>you</bdi>." in said
    ), said
    # The calls open with it (until the next lead): the offer is said after the cards,
    # a line of its own (a call that ends it leaves the trick's line as it was).
    assert state.calls_open and "You may call a revoke until the next lead." not in said
    offer = '<p class="visually-hidden af-offer" data-announce="first">You may call a revoke until the next lead.</p>'
    assert screen_html(loser).index(offer) > screen_html(loser).index(said)
    # The trick's cards stay in view: each phone calls its own card "you".
    for pid, other in ((loser, game.players[winner]), (game.players[winner], loser)):
        html = screen_html(pid)
        assert (
            html.count('played by you">') == 1 and '<span class="by"><bdi>you</bdi></span>' in html
        )
        assert html.count(f'played by {names[other]}">') == 1
        assert f"played by {names[pid]}" not in html
    assert 'aria-label="Last trick, won by you"' in screen_html(game.players[winner])
    assert f'aria-label="Last trick, won by {names[game.players[winner]]}"' in screen_html(loser)


def _words(html: str) -> str:
    import re

    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def _check_you(state, names: list[str], seen: set) -> None:
    """Every seat's rendered screen of `state` calls its own player "you"."""
    for seat, me in enumerate(names):
        ctx = KIND.screen(state, seat, names=names)
        game = {"id": 1, "template": KIND.template, **ctx}
        raw = render_to_string(KIND.template, {"game": game})
        html = _words(raw)
        # Each call (and its verdict) is a line the screen reader says when it is new.
        assert raw.count("<li data-announce>") == len(ctx["calls"])
        # The trump is said once, by name ("diamond suit diamonds" before).
        symbol = f'<span aria-hidden="true">{ctx["trump_symbol"]}</span> {ctx["trump_name"]}'
        assert symbol in raw, raw
        if state.dealer == seat:
            assert "you deal" in html and f"{me} deals" not in html
            seen.add("deal")
        if state.took_one and state.phase != all_fives.PHASE_OVER:
            if seat == state.dealer:
                assert "You gave" in html, html
            elif seat == state.eldest:
                assert "gave you one point" in html, html
            seen.add("took one")
        for c in ctx["calls"]:
            if c["caller_is_me"]:
                assert "You called a revoke on" in html and f"{me} called" not in html
                seen.add("call")
            if c["accused_is_me"]:
                assert "a revoke on you" in html
        if state.phase in (all_fives.PHASE_BEG, all_fives.PHASE_DEALER):
            # The seat that settles the trump (stand or beg; take one or run) was told
            # to wait for it to be settled, under its own Stand and Beg.
            if seat == state.to_act:
                assert "Waiting for the trump" not in html, html
                assert "Cards are played once the trump is settled." in html, html
                seen.add("settling")
            else:
                assert "Waiting for the trump to be settled." in html, html
        if state.phase == all_fives.PHASE_OVER:
            assert "Waiting for the trump" not in html, html
            if seat in state.winners:
                assert "you won" in html, html
                seen.add("won")
            assert f"{me} won" not in html and f"{me} and" not in html


def test_the_phone_calls_its_own_player_you_and_a_finished_game_waits_for_nothing():
    """All Fives named the phone's own player where the other games say "you" (the
    dealer's "Ana deals", "Cai gave Ana one point", "Ana called a revoke", the
    winner's "Game over: Bea won."), and the game over still said "Waiting for the
    trump to be settled.", as did the screen of the seat whose choice settles it. A
    revoke call was never said to a screen reader. Every state of seeded bot games, at
    every seat."""
    seen: set = set()
    for seed in range(6):
        n = 2 + seed % 2
        names = ["Ana", "Bea", "Cai"][:n]
        sheets = [PRESETS[SUIT_TABLE], PRESETS[ANY_TABLE], PRESETS[SUIT_TABLE]][:n]
        config = KIND.config(
            table_rules=PRESETS[SUIT_TABLE].to_dict(),
            seat_rules=[sheet.to_dict() for sheet in sheets],
            mode="barnga",
        )
        rng = random.Random(seed)
        state = all_fives.new_game(config, seed=seed)

        def bot(state, seat, rng=rng, sheets=sheets):
            return all_fives.choose_from_view(all_fives.view(state, seat), rng, sheets[seat])

        while state.phase != all_fives.PHASE_OVER:
            _check_you(state, names, seen)
            for caller in range(n):  # each seat may call a revoke while calls are open
                call = bot(state, caller) if state.calls_open else None
                if call is not None and call["type"] == "call_revoke":
                    state, _ = all_fives.apply(state, call)
                    _check_you(state, names, seen)
            action = bot(state, state.to_act)
            while action is not None and action["type"] == "call_revoke":
                state, _ = all_fives.apply(state, action)
                action = bot(state, state.to_act)
            state, _ = all_fives.apply(state, action)
        _check_you(state, names, seen)
    assert seen == {"deal", "took one", "call", "won", "settling"}, seen


@pytest.mark.django_db
def test_a_new_hands_trump_and_the_last_hands_points_are_heard():
    """At a hand's end a blind student heard only "Bot A is deciding: stand or beg.":
    not the hand's points, nor the new trump. The lines a phone says when they change
    now carry them, the points first."""
    game = two_bots_dealt()
    state = bots_until(game, lambda state: bool(state.history))
    assert len(state.history) == 1
    done = state.history[0]
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    html = screen_html(game.players[0])
    # Who took the hand's last trick first: its card scored the hand at once.
    found = re.search(
        r'<p class="visually-hidden" data-announce="first">'
        r"Trick (\d+) won by (.*?)\. (Hand 1 scored: .*?)</p>",
        html,
    )
    assert found, html
    last = done.tricks[-1].winner
    taker = "you" if last == 0 else names[game.players[last]]
    assert int(found.group(1)) == len(done.tricks), found.group(0)
    assert re.sub(r"</?bdi>", "", found.group(2)) == taker, found.group(0)
    scored = re.sub(r"</?bdi>", "", found.group(3))
    for s, pid in enumerate(game.players):
        who = "you" if s == 0 else names[pid]
        assert f"{who} {done.points[s]}" in scored and f"total {done.scores[s]}" in scored, scored
    hand = re.search(r'<p class="af-hand-no" data-announce="first">(.*?)</p>', html, re.S).group(1)
    assert "Hand 2" in hand and f"Trump: {SUIT_NAMES[state.trump]}." in hand, hand
    # Heard as a list: its "·" are drawn only (some screen readers say "dot").
    heard = re.sub(r'<span aria-hidden="true">.*?</span>', "", hand, flags=re.S)
    heard = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", heard)).strip()
    trump = SUIT_NAMES[state.trump]
    assert re.fullmatch(rf"Hand 2, (you deal|.+ deals), to \d+\. Trump: {trump}\.", heard), heard
    assert html.index("Hand 1 scored") < html.index('<p class="af-hand-no"')


@pytest.mark.django_db
def test_the_facilitator_sees_the_awaited_seat_to_act_not_every_seat_that_may_call():
    """While a revoke may be called, every seat can act (a call), but the game waits
    for one: the table's page said "to act" on every seat, the monitor named them all."""
    from tournament import selectors_facilitator as fsel

    game = two_bots_dealt()
    state = bots_until(game, lambda state: len(state.tricks) == 1 and not state.current)
    assert state.calls_open and len(KIND.to_act(state)) == 2
    workshop = game.table.workshop
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    awaited = names[game.players[state.to_act]]
    detail = fsel.table_detail(workshop, game.table.number)
    assert [s["name"] for s in detail["game"]["seats"] if s["turn"]] == [awaited]
    (glance,) = [t["game"] for t in fsel.monitor(workshop) if t.get("game")]
    assert glance["to_act"] == awaited


# ------------------------------------------------------------------ the exports


def csv_rows(fac, w, kind) -> list[dict]:
    r = fac.get(f"/workshops/{w.pk}/report/{kind}.csv")
    assert r.status_code == 200
    return list(csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"))))


@pytest.mark.django_db
def test_revokes_csv_lists_a_called_revoke_offered_served_and_zipped(fac, owner):
    """The report counted revokes and calls; no table held them. revokes.csv has the
    revoke and the call on it, is offered in Barnga mode, and is in the ZIP."""
    game, r_seat = revoke_setup("barnga")
    w = Workshop.objects.get(pk=game.table.workshop_id)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    Player.objects.filter(pk=game.players[r_seat]).update(name="=1+1")
    leader, off = play_revoke_trick(game, r_seat)
    act(game, leader, {"type": "call_revoke", "accused": r_seat})
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert f"/workshops/{w.pk}/report/revokes.csv" in html
    rows = csv_rows(fac, w, "revokes")
    seqs = {a.payload.get("type"): a.seq for a in Action.objects.filter(game=game).order_by("seq")}
    played = Action.objects.get(game=game, payload__card=off)
    common = {"round": str(game.round.number), "table": "1", "game_id": str(game.pk),
              "game_number": str(game.number), "hand": "1", "trick_index": "0"}  # fmt: skip
    assert [{k: row[k] for k in common} for row in rows] == [common, common]
    revoke, call = rows
    assert {k: revoke[k] for k in ("seq", "kind", "player", "seat", "card", "called")} == {
        "seq": str(played.seq), "kind": "revoke", "player": "'=1+1", "seat": str(r_seat),
        "card": off, "called": "true"}  # fmt: skip
    assert revoke["called_on_seat"] == revoke["upheld"] == ""
    # The study round seats everyone at home: nobody is a newcomer.
    assert revoke["newcomer"] == call["newcomer"] == "false"
    assert {k: call[k] for k in ("seq", "kind", "player_id", "seat", "card", "called_on_seat",
                                 "called_on_player", "upheld", "called")} == {
        "seq": str(seqs["call_revoke"]), "kind": "call", "player_id": str(game.players[leader]),
        "seat": str(leader), "card": off, "called_on_seat": str(r_seat),
        "called_on_player": "'=1+1", "upheld": "true", "called": ""}  # fmt: skip
    z = zipfile.ZipFile(io.BytesIO(fac.get(f"/workshops/{w.pk}/report.zip").content))
    name = next(n for n in z.namelist() if n.endswith("-revokes.csv"))
    assert z.read(name) == fac.get(f"/workshops/{w.pk}/report/revokes.csv").content


@pytest.mark.django_db
def test_a_referee_workshop_serves_revokes_csv_empty_and_does_not_offer_it(fac, owner):
    game, r_seat = revoke_setup("referee")
    w = Workshop.objects.get(pk=game.table.workshop_id)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    lead, off = lead_for_revoke(game, r_seat)
    with pytest.raises(IllegalMove):
        act(game, r_seat, {"type": "play", "card": off})
    html = fac.get(f"/workshops/{w.pk}/report/").content.decode()
    assert "report/games.csv" in html and "report/revokes.csv" not in html
    r = fac.get(f"/workshops/{w.pk}/report/revokes.csv")
    assert r.status_code == 200
    assert r.content.decode("utf-8-sig").splitlines()[0].startswith("round,round_label,table,")
    assert csv_rows(fac, w, "revokes") == []


def test_progress_counts_a_finished_games_last_hand_once():
    """A game over keeps its last hand's tricks in the state and in its history: the
    facilitator's progress (and a gesture's trick number after the end) counted them
    twice (found beside revokes.csv: 99 where the game had 93)."""
    state = KIND.new_state(
        table_rules=Sheet().to_dict(), seat_rules=[Sheet().to_dict()] * 3, mode="barnga", seed=8
    )
    for _ in range(2000):
        if all_fives.is_over(state):
            break
        seat = KIND.to_act(state)[0]
        action = next(a for a in all_fives.legal_actions(state, seat) if a["type"] != "call_revoke")
        state, _ = KIND.apply(state, action)
    assert all_fives.is_over(state) and state.tricks, "the game did not end"
    assert KIND.progress(state) == sum(len(h.tricks) for h in state.history)


@pytest.mark.parametrize(
    ("accused", "points", "bonus", "bars", "said"),
    [
        ("Bea", 3, False, False, "Bea loses 3 points"),
        ("you", 3, False, False, "you lose 3 points"),
        ("Bea", 1, False, False, "Bea loses 1 point"),
        ("Bea", 3, True, False, "3 points to each player but Bea"),
        ("you", 0, False, False, "no points lost"),
        ("Bea", 3, False, True, "Bea loses 3 points and cannot win on this hand"),
        ("you", 3, False, True, "you lose 3 points and cannot win on this hand"),
        ("Bea", 3, True, True, "3 points to each player but Bea; Bea cannot win on this hand"),
        ("you", 0, False, True, "no points lost; you cannot win on this hand"),
    ],
)
def test_what_an_upheld_call_costs_is_said_as_the_game_counts_it(
    accused, points, bonus, bars, said
):
    """The verdict said "Bea loses points": how many, and who gains them where the
    others do (revoke_style "bonus"), in the words after "upheld, "; and, where the
    call bars them, that they cannot win on this hand (shown only as a badge)."""
    from django.template import engines

    macro = engines["jinja2"].env.get_template("play/_said.html").module.revoke_cost
    assert str(macro(accused, points, bonus, bars)) == said


def test_only_the_first_upheld_call_on_a_seat_in_a_hand_says_it_bars_them():
    """A second upheld call on the same seat bars nothing new (RULES.md: the revoker
    "cannot win the game on that hand", once barred all hand); a call not upheld bars
    nobody; an upheld one on another seat bars that seat."""
    from games.kinds.all_fives import bars_anew

    calls = [
        {"accused": 1, "upheld": True},
        {"accused": 2, "upheld": False},
        {"accused": 1, "upheld": True},
        {"accused": 2, "upheld": True},
    ]
    assert [bars_anew(calls, i) for i in range(4)] == [True, False, False, True]


def _heard(line: str) -> str:
    """A line's text as a screen reader hears it (drawn-only parts left out)."""
    line = re.sub(r'<span aria-hidden="true">.*?</span>', "", line, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line)).strip()


@pytest.mark.django_db
@pytest.mark.parametrize("redealt", [False, True])
def test_running_the_cards_is_said_as_what_changed_not_the_hand_again(redealt):
    """After a run the hand's line, its trump new, was said whole again ("Hand 1, Bea
    deals, to 61. Trump: hearts."). The hand's line is said at the hand's start only;
    a run says what changed: the turn-ups set aside and the new trump, and a pack
    that ran out, that every hand was dealt again (then nothing may be set aside)."""
    w = af_workshop(players=2)
    study(w)
    game = game_at(tables_of(w)[0])

    def run(state):
        state, _ = KIND.apply(state, {"type": "beg", "seat": state.eldest})
        state, _ = KIND.apply(state, {"type": "run", "seat": state.dealer})
        return state

    def wanted(state):
        if state.phase != "beg":
            return False
        after = run(state)
        return bool(after.redeals) == redealt and (not redealt or not after.set_aside)

    game = set_seed(game, find_seed(game, wanted, tries=20000))
    state = state_of(game)
    act(game, state.eldest, {"type": "beg"})
    act(game, state.dealer, {"type": "run"})
    after = state_of(game)
    html = screen_html(game.players[0])
    said = [_heard(x) for x in re.findall(r'<p [^>]*data-announce="first">(.*?)</p>', html, re.S)]
    assert not any(x.startswith("Hand 1") for x in said), said
    trump = f"Trump is now {SUIT_NAMES[after.trump]}."
    if redealt:
        assert f"The pack ran out: all dealt again. {trump}" in said, said
    else:
        aside = ", ".join(card_name(c) for c in after.set_aside)
        assert f"Cards run: set aside {aside}. {trump}" in said, said
    # The next hand's line is said again.
    rng = random.Random(5)
    while not (state := state_of(game)).history:
        seat = KIND.to_act(state)[0]
        action = KIND.bot_action(state, seat, rng)
        act(game, seat, {k: v for k, v in action.items() if k != "seat"})
    html = screen_html(game.players[0])
    said = [_heard(x) for x in re.findall(r'<p [^>]*data-announce="first">(.*?)</p>', html, re.S)]
    assert any(x.startswith("Hand 2, ") for x in said), said
