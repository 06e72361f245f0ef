"""A student seated at a table while a game is played there watches it until the next
deal (play/_screen.html's `watching`): a screen reader hears the game go on (who is to
play, a card laid, a trick taken) and, above all, that their own game has started;
and a move at the table leaves the rest of their screen as it was (the rules being
read, the focus, where they are on the page)."""

from __future__ import annotations

import random

import pytest
from axe_check import assert_accessible
from phones import dealt_table, heard, join, version, wait_change, wait_said, watch_heard

from tournament import gamestate, services
from tournament.models import Game, GameState, Player

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai"]
WAIT = 8000

# iOS Safari anchors no scrolling (overflow-anchor): a part above the reader's place
# that changes height moves what they read. Chromium is made to do the same, by a
# constructed style sheet: a <style> element added here is refused by the page's
# Content-Security-Policy, and Chromium went on anchoring: it scrolled the page 26 px
# down with the claim step's longer line and back up with the trick taken, so the test
# saw neither move, and its check of where the page was scrolled measured Chromium's
# anchoring instead. Returns the overflow-anchor the rules' summary has then.
MARK = """() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('* { overflow-anchor: none !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  for (const s of ['#screen section.watching', '#screen details.sheet > summary',
                   '#screen details.sheet p', '#screen .notice']) {
    document.querySelector(s).__kept = true;
  }
  return getComputedStyle(document.querySelector('#screen details.sheet > summary')).overflowAnchor;
}"""
KEPT = """() => ({
  watching: document.querySelector('#screen section.watching').__kept === true,
  summary: document.querySelector('#screen details.sheet > summary').__kept === true,
  rules: document.querySelector('#screen details.sheet p').__kept === true,
  notice: document.querySelector('#screen .notice').__kept === true,
  focus: document.activeElement.__kept === true && document.activeElement.tagName,
  scrolled: window.scrollY,
  at: Math.round(document.querySelector('#screen details.sheet > summary').getBoundingClientRect().top),
})"""


def one_move(game: Game) -> None:
    """The seat to act makes its bot's move through the services (a Five Tricks card or
    claim: every seat at a home table reads the same rules, so the claims agree)."""
    game.refresh_from_db()
    kind = gamestate.kind_of(game)
    state = gamestate.load_state(game)
    seat = kind.to_act(state)[0]
    action = kind.bot_action(state, seat, random.Random(seat))
    player = game.players[seat]
    if action["type"] == "play" and kind.key == "five_tricks":
        services.game_play(player_id=player, card=action["card"])
    elif action["type"] == "claim":
        services.game_claim(player_id=player, winner_player_id=game.players[action["winner"]])
    else:
        services.game_act(player_id=player, move={k: v for k, v in action.items() if k != "seat"})


def said_since(page, before: int) -> str:
    """What `page` said after its first `before` lines (watch_heard's)."""
    return " ".join(heard(page)[before:])


def name_at(game: Game, seat: int) -> str:
    return Player.objects.get(pk=game.players[seat]).name


def first_trick_heard(dev, game: Game) -> str:
    """Play `game` until its first trick is taken and wait until `dev`'s phone says
    who took it: that player's name."""
    since = len(heard(dev))
    while not gamestate.load_state(game).completed:
        one_move(game)
        game.refresh_from_db()
    winner = name_at(game, gamestate.load_state(game).completed[0].winner)
    wait_said(dev, since, f"Trick 1 taken by {winner}.", timeout=WAIT)
    return winner


def seated_during_a_game(live_server_url, phone, game: str = "five_tricks"):
    """Three phones at a four-seat table play the study phase's game; Dev's phone joins
    then, is seated there and watches. Returns Dev's page and the game."""
    workshop = services.workshop_create(
        name="Watch", game=game, table_count=1, seats_per_table=4, seed=5
    )
    _, game, _ = dealt_table(live_server_url, phone, workshop, NAMES)
    dev = phone()
    join(dev, live_server_url, workshop.code, "Dev")
    dev.wait_for_selector("#screen section.watching", timeout=WAIT)
    watch_heard(dev)
    assert Player.objects.get(name="Dev").table_id == game.table_id
    return dev, game


def test_a_watching_student_hears_the_game_and_that_their_own_has_started(live_server_url, phone):
    """Nothing of the watched game was said: the section had no line for the log, and
    the student's own deal came in as "Ana leads.", as if they had been playing."""
    dev, game = seated_during_a_game(live_server_url, phone)

    # A card laid: who laid it and who plays next.
    since = len(heard(dev))
    before = version(dev)
    laid_by = name_at(game, gamestate.load_state(game).to_act)
    one_move(game)
    wait_change(dev, before)
    game.refresh_from_db()
    to_play = name_at(game, gamestate.load_state(game).to_act)
    said = said_since(dev, since)
    assert f"Game {game.number}: {to_play} to play. On the table: " in said, said
    assert f"by {laid_by}." in said, said

    # The trick played and claimed: who took it.
    winner = first_trick_heard(dev, game)
    # Seen where the cards were.
    assert dev.locator("#screen .mini-trick").inner_text() == f"Trick 1 taken by {winner}."
    assert_accessible(dev, "phone, watching a game")

    # The game over: Dev is dealt in, and hears first, once, who won the game watched
    # (its players' phones said "Last game: won by Bea"; Dev heard only "Game 1 is
    # over") and that their own game has started, after who took its last trick.
    number = game.number
    since = len(heard(dev))
    while Game.objects.filter(pk=game.pk, state=GameState.PLAYING).exists():
        one_move(game)
    dev.wait_for_selector("#screen .hand .card", timeout=WAIT)
    game.refresh_from_db()
    winners = [Player.objects.get(pk=pid).name for pid in game.winners]
    assert 0 < len(winners) < len(game.players)  # five tricks among three: no draw
    won_by = " and ".join([", ".join(winners[:-1]), winners[-1]] if len(winners) > 1 else winners)
    line = f"Game {number} is over: won by {won_by}. Your game starts: you play in game "
    wait_said(dev, since, line, timeout=WAIT)
    last = heard(dev)[-1]
    assert last.startswith("Trick 7 of game ") and f". {line}" in last, last
    dev.wait_for_timeout(500)  # a later screen says nothing of it again
    assert said_since(dev, since).count(f"Game {number} is over") == 1


SHOWN = """s => { const c = document.querySelector(s).cloneNode(true);
  c.querySelectorAll('.visually-hidden').forEach((h) => h.remove());
  return c.textContent.replace(/\\s+/g, ' ').trim(); }"""
BOX = "() => document.querySelector('#screen section.watching').getBoundingClientRect().height"


def test_a_watching_student_sees_each_7up_bid_and_hears_it_once(live_server_url, phone):
    """A student watching 7Up7Down heard "Ana to bid", "Bea to bid", and never a bid,
    though every seat's phone shows each as it is made. The box shows every seat's bid
    all deal at one height; each bid is said once, short, before who bids next."""
    dev, game = seated_during_a_game(live_server_url, phone, game="seven_up")
    names = [name_at(game, s) for s in range(len(game.players))]
    assert dev.evaluate(SHOWN, "#screen .watching-bids") == "Bids: " + " · ".join(
        f"{n} –" for n in names
    )
    height = dev.evaluate(BOX)
    since = len(heard(dev))
    lines = []
    for _ in range(len(names)):  # the first deal's bids, the dealer's last
        seat = gamestate.load_state(game).to_act
        bid_at = len(heard(dev))
        one_move(game)
        game.refresh_from_db()
        state = gamestate.load_state(game)
        line = f"{names[seat]} bid {state.bids[seat]}."
        next_up = f"Game {game.number}: {names[state.to_act]} to " + (
            "bid." if state.phase == "bid" else "play."
        )
        wait_said(dev, bid_at, f"{line} {next_up}", timeout=WAIT)
        lines.append(line)
        assert dev.evaluate(BOX) == height
    shown = dev.evaluate(SHOWN, "#screen .watching-bids")
    assert shown == "Bids: " + " · ".join(
        f"{n} {b}" for n, b in zip(names, state.bids, strict=True)
    ), shown
    assert_accessible(dev, "phone, watching 7Up's bids")
    # The first card down: the box as tall, no bid said again.
    before = version(dev)
    one_move(game)
    wait_change(dev, before)
    dev.wait_for_timeout(500)
    said = said_since(dev, since)
    assert [said.count(line) for line in lines] == [1] * len(lines), said
    assert dev.evaluate(BOX) == height


def test_a_watched_game_the_rounds_end_cuts_is_said_before_time_is_up(live_server_url, phone):
    """The round's end cut the watched game and took its section away unsaid: only
    "Time is up" was heard. The game's end is said first, once, then the round's."""
    from tournament.models import Round

    dev, game = seated_during_a_game(live_server_url, phone)
    winner = first_trick_heard(dev, game)
    since = len(heard(dev))
    services.round_end_now(round_id=Round.objects.get(pk=game.round_id).pk)
    dev.wait_for_selector("#screen .time-up", timeout=WAIT)
    dev.wait_for_timeout(500)  # a second screen (the table's, the workshop's) says nothing new
    said = said_since(dev, since)
    line = f"Game {game.number} is over, cut short: won by {winner}."
    assert said.count(line) == 1 and said.index(line) < said.index("Time is up"), said


def test_a_watcher_dealt_in_hears_the_watched_games_last_trick_first(live_server_url, phone):
    """The watched game's last claim ended it and dealt the watcher in at once: they
    heard each trick taken but the last, then "Game 1 is over: won by Cai", while its
    players heard "Trick 7 of game 1 won by Cai" first. The watcher, who saw its cards
    laid face up, hears it too, once, before how the game ended, in the players' words
    for those at the table (nobody is "you": the watcher played no card of it)."""
    dev, game = seated_during_a_game(live_server_url, phone)
    since = len(heard(dev))
    while Game.objects.filter(pk=game.pk, state=GameState.PLAYING).exists():
        one_move(game)
    dev.wait_for_selector("#screen .hand .card", timeout=WAIT)
    dev.wait_for_timeout(500)  # a later screen says none of it again
    game.refresh_from_db()
    final = gamestate.load_state(game)
    taken = final.completed[-1]
    said = said_since(dev, since)
    trick = (
        f"Trick {len(final.completed)} of game {game.number} won by {name_at(game, taken.winner)}"
    )
    assert said.count(trick) == 1, said
    assert said.index(trick) < said.index(f"Game {game.number} is over"), said
    # Seen too, with its cards, as its players see it.
    shown = dev.locator("#screen .previous-trick li").all_inner_texts()
    assert len(shown) == len(taken.cards) and not any(s.startswith("You") for s in shown), shown


def test_a_watched_dispute_and_its_end_are_each_said_once(live_server_url, phone):
    """Of a dispute at the watched table a screen reader heard nothing: the claim
    step's line, then who took the trick. That the claims differ is said once (a claim
    changed meanwhile says nothing new), then who took it and how, once."""
    dev, game = seated_during_a_game(live_server_url, phone)
    while gamestate.load_state(game).phase != "claim":
        one_move(game)
        game.refresh_from_db()
    state = gamestate.load_state(game)
    a, b = state.current[0][0], state.current[1][0]
    since = len(heard(dev))

    def claim(seat: int, winner: int) -> None:
        services.game_claim(player_id=game.players[seat], winner_player_id=game.players[winner])

    claim(0, a)
    claim(1, b)
    claim(2, a)
    game.refresh_from_db()
    assert gamestate.load_state(game).dispute
    differ = f"Game {game.number}: claims differ — the players show who won."
    wait_said(dev, since, differ, timeout=WAIT)
    before = version(dev)
    claim(0, b)  # 0 gives in to 1, 2 still says a: split still, the line as it was
    wait_change(dev, before)
    game.refresh_from_db()
    assert gamestate.load_state(game).dispute
    claim(2, b)
    taken = f"Trick 1 taken by {name_at(game, b)} (claims differed, then agreed)."
    wait_said(dev, since, taken, timeout=WAIT)
    dev.wait_for_timeout(500)  # a later screen says nothing of it again
    said = said_since(dev, since)
    assert said.count(differ) == 1 and said.count(taken) == 1, said
    assert said.index(differ) < said.index(taken), said
    assert " says " not in said and "Claims:" not in said, said


def test_a_move_at_the_table_leaves_a_watching_students_screen_in_place(live_server_url, phone):
    """The watched game's section was drawn anew at every move, and its middle grew
    with the first card: the rules read below it moved down the screen (iOS Safari,
    which keeps no scroll anchor) and a screen reader's place in it was lost."""
    dev, game = seated_during_a_game(live_server_url, phone)
    # Reading the rules, scrolled down to them, the focus on their summary.
    dev.wait_for_selector("#screen details.sheet[open]", timeout=WAIT)
    assert dev.evaluate(MARK) == "none"
    dev.focus("#screen details.sheet > summary")
    dev.evaluate("() => window.scrollTo(0, 200)")
    kept = {
        "watching": True,
        "summary": True,
        "rules": True,
        "notice": True,
        "focus": "SUMMARY",
        "scrolled": 200,
        "at": dev.evaluate(KEPT)["at"],
    }
    before = version(dev)
    one_move(game)
    wait_change(dev, before)
    assert dev.evaluate(KEPT) == kept
    # The card already down stays the node it was as the next is laid.
    dev.evaluate("() => { document.querySelector('#screen .mini-card').__kept = true; }")
    before = version(dev)
    one_move(game)
    wait_change(dev, before)
    assert dev.locator("#screen .mini-card").count() == 2
    assert dev.evaluate("() => document.querySelector('#screen .mini-card').__kept === true")
    assert dev.evaluate(KEPT) == kept
    # The last card laid: the players say who won the trick, a line longer than whose
    # turn it was (two lines on a phone, and the rules moved down a line, then back up
    # as the trick was taken).
    one_move(game)
    dev.wait_for_selector(
        "#screen .watching-whose:has-text('the players say who won the trick')", timeout=WAIT
    )
    assert dev.evaluate(KEPT) == kept
    # The trick taken: the middle empty again, with who took it, at the same height.
    while not gamestate.load_state(game).completed:
        one_move(game)
        game.refresh_from_db()
    dev.wait_for_selector("#screen .mini-trick:has-text('Trick 1 taken by')", timeout=WAIT)
    assert dev.evaluate(KEPT) == kept
