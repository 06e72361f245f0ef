"""A small phone held upright at a table of five (the default): on its turn the
student sees every seat, the cards on the table, whose turn it is and the whole
hand without scrolling, and taps a card (Five Tricks, in Chromium)."""

from __future__ import annotations

import pytest
from phones import join, version, wait_change

from games import five_tricks
from tournament import gamestate, services
from tournament.models import Game, GameState, Player

pytestmark = [pytest.mark.browser]
WAIT = 8000


def not_in_view(page, selector: str) -> list[str]:
    size = page.viewport_size
    assert page.evaluate("() => window.scrollY") == 0
    out = []
    for i, el in enumerate(page.locator(selector).all()):
        box = el.bounding_box()
        if box is None or not (
            0 <= box["y"]
            and box["y"] + box["height"] <= size["height"]
            and 0 <= box["x"]
            and box["x"] + box["width"] <= size["width"]
        ):
            out.append(f"{selector} #{i}: {box}")
    return out


# An iPhone SE's screen, and a common small Android one.
@pytest.mark.parametrize("size", [(375, 667), (360, 740)], ids=["375x667", "360x740"])
def test_a_small_phone_at_a_table_of_five_sees_its_whole_turn(live_server_url, browser, size):
    w = services.workshop_create(name="Upright", table_count=1, seats_per_table=5, seed=3)
    page = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=True, is_mobile=True
    ).new_page()
    join(page, live_server_url, w.code, "Ana")
    for name in ["Bartholomew", "Cai", "Dev", "Eve"]:
        services.player_join(code=w.code, name=name)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
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
