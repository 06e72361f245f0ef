"""A new screen is patched into the old one (static/js/table.js patch): what is drawn
the same stays the same node, so a screen reader's place in the rules, the cards on
the table or the PIN, and the keyboard's focus, survive a tablemate's move."""

from __future__ import annotations

import pytest
from phones import dealt_table, play_until, version, wait_change

from tournament import services
from tournament.models import Round, RoundKind

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai"]
WAIT = 8000

MARK = """() => {
  document.querySelector('#screen details.sheet p').__kept = true;
  document.querySelector('#screen details.sheet > summary').__kept = true;
  document.querySelector('#screen footer.pin').__kept = true;
  const first = document.querySelector('#screen .trick .card');
  if (first) first.__kept = true;
}"""
KEPT = """() => ({
  rules: document.querySelector('#screen details.sheet p').__kept === true,
  summary: document.querySelector('#screen details.sheet > summary').__kept === true,
  pin: document.querySelector('#screen footer.pin').__kept === true,
  card: document.querySelector('#screen .trick .card').__kept === true,
  focus: document.activeElement.__kept === true && document.activeElement.tagName,
})"""


def test_a_tablemates_move_leaves_the_rules_the_pin_and_the_focus_in_place(live_server_url, phone):
    workshop = services.workshop_create(name="Patch", table_count=1, seats_per_table=3, seed=5)
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=study] details.sheet[open]", timeout=WAIT)
    # One card on the table, then a reader who is not to play next.
    play_until(game, lambda state: len(state.current) >= 1)
    reader = pages[seat_names[-1]]
    reader.wait_for_selector("#screen .trick .card", timeout=WAIT)
    reader.evaluate(MARK)
    reader.focus("#screen details.sheet > summary")
    before = version(reader)
    play_until(game, lambda state: len(state.current) >= 2)
    wait_change(reader, before)
    assert reader.locator("#screen .trick .card").count() == 2
    kept = reader.evaluate(KEPT)
    assert kept == {"rules": True, "summary": True, "pin": True, "card": True, "focus": "SUMMARY"}


def test_focus_left_on_the_screen_stays_there_through_the_next_screens(live_server_url, phone):
    workshop = services.workshop_create(name="Patch", table_count=1, seats_per_table=3, seed=5)
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    services.workshop_start_home(workshop_id=workshop.pk)
    rnd = services.round_start(workshop_id=workshop.pk)
    ana = pages["Ana"]
    ana.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    ana.focus("#screen .hand .card")
    services.round_end_now(round_id=rnd.pk)
    # The hand goes: focus goes to the screen, not to the top of the page...
    ana.wait_for_selector("#screen[data-phase=between]", timeout=WAIT)
    assert ana.evaluate("document.activeElement.id") == "screen"
    services.movement_apply(round_id=Round.objects.get(workshop=workshop, kind=RoundKind.SCORED).pk)
    ana.wait_for_selector("#screen .notice:has-text('You stay at table 1')", timeout=WAIT)
    # ...and stays there when the next screen comes.
    assert ana.evaluate("document.activeElement.id") == "screen"


def test_an_open_rejoin_pin_closes_at_a_new_phase_not_at_a_tablemates_move(live_server_url, phone):
    """A phone that slept with its PIN open woke at another table with the PIN still
    shown to its new neighbours."""
    workshop = services.workshop_create(name="Pin", table_count=1, seats_per_table=3, seed=5)
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    reader = pages[seat_names[-1]]
    reader.wait_for_selector("#screen[data-phase=study] .hand .card", timeout=WAIT)
    reader.click("details.pin-show summary")
    before = version(reader)
    play_until(game, lambda state: len(state.current) >= 1)
    wait_change(reader, before)
    assert reader.locator("details.pin-show[open]").count() == 1  # still as the student left it
    services.workshop_start_home(workshop_id=workshop.pk)
    reader.wait_for_selector("#screen[data-phase=home]", timeout=WAIT)
    assert reader.locator("details.pin-show").get_attribute("open") is None


OTHER_GAMES = """kind => {
  const marks = {
    status: '#screen .status h1', rules: '#screen details.sheet p', board: '#screen .board',
    hand: '#screen .hand .card', sheet: '#screen .su-sheet thead', theirs: '#screen .tt-theirs .tt-name',
  };
  const out = {};
  for (const [name, selector] of Object.entries(marks)) {
    const el = document.querySelector(selector);
    if (!el) continue;
    if (kind === 'mark') el.__kept = name; else out[name] = el.__kept === name;
  }
  return out;
}"""


@pytest.mark.parametrize("kind,seats", [("all_fives", 3), ("seven_up", 3), ("three_tricks", 2)])
def test_the_other_games_keep_what_a_tablemates_move_leaves_as_it_was(
    live_server_url, phone, kind, seats
):
    """All Fives', 7Up7Down's and 3 Tricks' boards were swapped whole at every move
    (20 times in 20 s of All Fives; 7Up's score sheet, a table a blind student walks
    cell by cell, 17 times in 30 s): a screen reader lost its place each time."""
    import random

    from games import kinds
    from tournament import gamestate

    workshop = services.workshop_create(
        name="Patch", game=kind, table_count=1, seats_per_table=seats, seed=5
    )
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES[:seats])
    game_kind = kinds.get(kind)
    rng = random.Random(3)

    def move():
        game.refresh_from_db()
        state = gamestate.load_state(game)
        seat = game_kind.to_act(state)[0]
        action = game_kind.bot_action(state, seat, rng)
        services.game_act(
            player_id=game.players[seat], move={k: v for k, v in action.items() if k != "seat"}
        )
        return seat

    # Into play with one card on the table (3 Tricks: any move): the reader has played
    # already, or (two seats) only watches the other's move.
    def ready(state):
        if kind == "three_tricks":
            return True
        return state.phase == "play" and len(state.current) == 1

    while not ready(gamestate.load_state(game)):
        move()
        game.refresh_from_db()
    state = gamestate.load_state(game)
    to_act = game_kind.to_act(state)[0]
    reader = pages[seat_names[(to_act + seats - 1) % seats]]
    reader.wait_for_selector(f"#screen[data-version='{game.table.version}']", timeout=WAIT)
    reader.evaluate(OTHER_GAMES, "mark")
    before = version(reader)
    move()
    wait_change(reader, before)
    kept = reader.evaluate(OTHER_GAMES, "check")
    expected = {"status": True, "rules": True, "board": True}
    if kind == "three_tricks":
        expected["theirs"] = True  # its class says whose turn it is, and changed
        expected["hand"] = False  # the reader's turn now: every card became pickable
    else:
        expected["hand"] = True
    if kind == "seven_up":
        expected["sheet"] = True
    assert kept == expected
