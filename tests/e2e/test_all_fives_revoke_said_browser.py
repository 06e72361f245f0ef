"""What each seat's screen reader hears as a revoke call is upheld: the call, the
verdict and what it costs, once. The line said "upheld, Bea loses points": how many
was heard nowhere (the score beside the name changed unsaid), though a called revoke
costs 3 (RULES.md, All Fives: "the revoker loses 3 points"); nor that Bea "cannot
win the game on that hand" (only a "revoke called" badge showed it)."""

from __future__ import annotations

import random

import pytest
from phones import heard, join, table_version, wait_version, watch_heard

from games import all_fives as af
from games import kinds
from tournament import gamestate, services
from tournament.models import Game, GameState, Player, Table

pytestmark = [pytest.mark.browser]


def test_an_upheld_call_and_what_it_costs_are_said_once_to_every_seat(live_server_url, phone):
    w = services.workshop_create(
        name="All Fives revoke said", game="all_fives", table_count=1, seats_per_table=3, seed=5
    )
    pages = {}
    for name in ("Ana", "Bea", "Cai"):
        pages[name] = phone()
        join(pages[name], live_server_url, w.code, name)
    # The table follows suit, and Bea learned to play any card: her card off the led
    # suit while she holds it is a revoke the others may call.
    rules = kinds.get("all_fives").default_rules()
    Table.objects.filter(workshop=w).update(rules={**rules, "follow": "suit"})
    services.players_seat_home(workshop_id=w.pk)
    Player.objects.filter(workshop=w, name="Bea").update(rules={**rules, "follow": "any"})
    services.workshop_start_study(workshop_id=w.pk)
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    names = [Player.objects.get(pk=pid).name for pid in game.players]
    bea = names.index("Bea")
    assert game.table_rules["follow"] == "suit" and game.seat_rules[bea]["follow"] == "any"
    rng = random.Random(3)
    # Each seat's own moves (never a call), until a trick Bea revoked in is over.
    while True:
        game.refresh_from_db()
        state = gamestate.load_state(game)
        if state.calls_open and bea in state.tricks[-1].revokes:
            break
        actions = [a for a in af.view(state, state.to_act)["actions"] if a["type"] != "call_revoke"]
        move = {k: v for k, v in rng.choice(actions).items() if k != "seat"}
        services.game_act(player_id=game.players[state.to_act], move=move)
    trick = len(state.tricks)
    for page in pages.values():
        wait_version(page, table_version(game), timeout=8000)
        watch_heard(page)
    caller = names[(bea + 1) % 3]
    target = table_version(game) + 1
    pages[caller].get_by_role("button", name="Call revoke on Bea's card in the last trick").click()
    for name, page in pages.items():
        wait_version(page, target)
        page.wait_for_function("() => window.__heard.some((l) => l.includes('a revoke on'))")
        page.wait_for_timeout(300)  # nothing of it said again
        who = "You" if name == caller else caller
        if name == "Bea":
            line = f"{who} called a revoke on you (trick {trick}): upheld, you lose 3 points and cannot win on this hand."
        else:
            line = f"{who} called a revoke on Bea (trick {trick}): upheld, Bea loses 3 points and cannot win on this hand."
        said = " ".join(heard(page))
        assert said.count(line) == 1 and said.count("a revoke on") == 1, (name, said)
        assert said.count("cannot win") == 1, (name, said)
    game.refresh_from_db()
    assert gamestate.load_state(game).scores[bea] == state.scores[bea] - af.REVOKE_PENALTY
