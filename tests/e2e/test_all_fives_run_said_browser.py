"""What a screen reader hears as the dealer runs the cards after a beg: the new trump
and the turn-ups set aside, not the hand again. Every phone said "Hand 1, Cai deals,
to 61. Trump: diamonds." a second time (its trump had changed, so the line was new),
a repeat of what nobody needed again, with what changed at its end."""

from __future__ import annotations

import pytest
from phones import dealt_table, heard, table_version, wait_version, watch_heard

from games.cards import SUIT_NAMES
from tournament import gamestate, services
from tournament.templatetags.cards import card_name

pytestmark = [pytest.mark.browser]


def test_running_the_cards_says_the_new_trump_not_the_hand_again(live_server_url, phone):
    w = services.workshop_create(
        name="All Fives run said", game="all_fives", table_count=1, seats_per_table=3, seed=5
    )
    pages, game, names = dealt_table(live_server_url, phone, w, ["Ana", "Bea", "Cai"])
    state = gamestate.load_state(game)
    target = table_version(game) + 1
    services.game_act(player_id=game.players[state.eldest], move={"type": "beg"})
    for page in pages.values():
        wait_version(page, target, timeout=8000)
        watch_heard(page)
    target = table_version(game) + 1
    pages[names[state.dealer]].get_by_role("button", name="Run the cards", exact=True).click()
    for page in pages.values():
        wait_version(page, target)
    game.refresh_from_db()
    run = gamestate.load_state(game)
    assert run.trump != state.trump and (run.runs or run.redeals)
    # The game's seed is drawn at the deal: now and then the pack runs out and every
    # hand is dealt again (the turn-ups set aside then are the new deal's, if any).
    line = "The pack ran out: all dealt again. " if run.redeals else ""
    if run.set_aside:
        line += f"Cards run: set aside {', '.join(card_name(c) for c in run.set_aside)}. "
    line += f"Trump is now {SUIT_NAMES[run.trump]}."
    for name, page in pages.items():
        page.wait_for_function("() => window.__heard.length > 0")
        page.wait_for_timeout(300)  # nothing of it said again
        said = " ".join(heard(page))
        assert said.count(line) == 1, (name, said)
        assert "Hand 1" not in said, (name, said)
        # Then who leads (the turn's line).
        leads = "Your turn." if name == names[run.eldest] else f"{names[run.eldest]} leads."
        assert said.index(line) < said.index(leads), (name, said)
