"""A small phone held upright at a table of five (the default): on its turn the
student sees every seat, the cards on the table, whose turn it is and the whole
hand without scrolling, and taps a card (Five Tricks, in Chromium)."""

from __future__ import annotations

import pytest
from phones import not_in_view, one_phone_at_a_round, version, wait_change

from games import five_tricks
from tournament import gamestate, services
from tournament.models import Player

pytestmark = [pytest.mark.browser]
WAIT = 8000


# An iPhone SE's screen, and a common small Android one.
@pytest.mark.parametrize("size", [(375, 667), (360, 740)], ids=["375x667", "360x740"])
def test_a_small_phone_at_a_table_of_five_sees_its_whole_turn(live_server_url, browser, size):
    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        name="Upright",
        seats=5,
        size={"width": size[0], "height": size[1]},
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    # The others play (through the services) until it is Ana's turn.
    while game.players[(state := gamestate.load_state(game)).to_act] != ana:
        card = five_tricks.legal_actions(state, state.to_act)[0]["card"]
        services.game_play(player_id=game.players[state.to_act], card=card)
        game.refresh_from_db()
    page.wait_for_selector(".hand .card.legal", timeout=WAIT)
    assert page.locator(".seats .seat").count() == 5
    assert page.locator(".hand .card").count() >= 5
    missing = [
        m
        for p in (".seats .seat", ".trick .card", ".whose", ".hand .card")
        for m in not_in_view(page, p)
    ]
    assert missing == [], missing
    before = version(page)
    page.locator(".hand .card.legal").first.click()
    wait_change(page, before)
    page.context.close()
