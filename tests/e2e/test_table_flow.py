"""Four phones at one table play a whole game in Chromium.

One player reloads mid-game and carries on; a player whose own sheet differs
from the table's sees a dispute and ends it by changing their claim; the
drawing pad's strokes reach the other phones. Screenshots go to artifacts/.
"""

from __future__ import annotations

import pytest
from phones import join, table_version, version, wait_change, wait_version

from games.tricks import TrickRules
from tournament import services
from tournament.models import Dispute, Game, GameState, Gesture, Player, TrickRecord

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai", "Dev"]


def test_four_phones_play_a_game_with_a_reload_and_a_dispute(live_server_url, phone, artifacts):
    workshop = services.workshop_create(
        name="Browser table", table_count=1, seats_per_table=4, seed=3
    )
    pages = {}
    for name in NAMES:
        pages[name] = phone()
        join(pages[name], live_server_url, workshop.code, name)
    assert "Welcome, Ana" in pages["Ana"].inner_text("#screen")

    services.players_seat_home(workshop_id=workshop.pk)
    table = workshop.tables.get()
    # Dev learned another table's sheet: the opposite end of the order wins.
    home = TrickRules.from_dict(table.rules)
    other = TrickRules(
        ace=home.ace,
        wins="lowest" if home.wins == "highest" else "highest",
        trump=home.trump,
        trump_when=home.trump_when,
    )
    Player.objects.filter(name="Dev").update(rules=other.to_dict())
    services.workshop_start_study(workshop_id=workshop.pk)
    game = Game.objects.get(state=GameState.PLAYING)
    seat_names = [Player.objects.get(pk=pid).name for pid in game.players]

    # The study phase shows each player's own rules.
    for page in pages.values():
        # Table and workshop changes arrive as two pushes: wait for the study screen.
        page.wait_for_selector("#screen[data-phase=study] .hand .card", timeout=5000)
        assert "visible only while you study" in page.inner_text("#screen")
    # Only one's own hand is on one's screen.
    for name, page in pages.items():
        cards = set(page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
        seat = seat_names.index(name)
        from tournament import gamestate

        assert cards == set(gamestate.load_state(game).hands[seat])

    reloaded = False
    disputes_seen = 0
    shots = set()
    for _step in range(200):
        game.refresh_from_db()
        if game.state != GameState.PLAYING:
            break
        from tournament import gamestate

        state = gamestate.load_state(game)
        if state.phase == "play":
            name = seat_names[state.to_act]
            page = pages[name]
            page.wait_for_selector(".hand .card.legal", timeout=5000)
            if "table" not in shots and len(state.completed) == 1 and state.current:
                page.screenshot(path=str(artifacts / "table.png"), full_page=True)
                shots.add("table")
            before = version(page)
            page.locator(".hand .card.legal").first.click()
            wait_change(page, before)
            if not reloaded and len(state.completed) == 2:
                # A phone reloads mid-game and finds its seat as it was.
                pages["Bea"].reload()
                pages["Bea"].wait_for_selector("#screen .seats")
                reloaded = True
        elif state.phase == "claim" and not state.dispute:
            for seat, claim in enumerate(state.claims):
                if claim is None:
                    page = pages[seat_names[seat]]
                    # Decided on a screen as new as the state read (the table's version
                    # is read after it)...
                    wait_version(page, table_version(game))
                    page.wait_for_selector(".claim .primary, .claim .mine", timeout=5000)
                    button = page.locator(".claim .primary")
                    if button.count():
                        button.click()
                        # ...and the next only once this claim is on this screen (its
                        # mark goes then): awaiting any newer version, another player's
                        # claim came first, the next pass read this one as not made and
                        # tapped it again, and the answer took the button mid-click (CI).
                        page.wait_for_function(
                            "() => !document.querySelector('#screen .sending')", timeout=5000
                        )
                    break
        elif state.dispute:
            disputes_seen += 1
            dev = pages["Dev"]
            dev.wait_for_selector(".dispute-title", timeout=5000)
            assert dev.locator(".claim-badge").count() == 4  # everyone's claim is shown
            if "dispute" not in shots:
                dev.screenshot(path=str(artifacts / "dispute.png"), full_page=True)
                shots.add("dispute")
                # The drawing pad: Dev draws, Ana's pad shows it.
                dev.click(".pad-wrap summary")
                dev.locator("#pad").scroll_into_view_if_needed()
                box = dev.locator("#pad").bounding_box()
                dev.mouse.move(box["x"] + 20, box["y"] + 20)
                dev.mouse.down()
                dev.mouse.move(box["x"] + 120, box["y"] + 80, steps=8)
                dev.mouse.up()
                ana = pages["Ana"]
                ana.click(".pad-wrap summary")
                ana.wait_for_function(
                    """() => { const c = document.getElementById('pad');
                       const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                       for (let i = 3; i < d.length; i += 4) if (d[i]) return true; return false; }""",
                    timeout=5000,
                )
                # Stored before it was sent on (broadcast.gesture_on_commit): asked right
                # after the mouse was let go, a busy server had not stored it yet (CI).
                assert Gesture.objects.filter(kind="drawing", player__name="Dev").exists()
                dev.screenshot(path=str(artifacts / "drawing-pad.png"), full_page=True)
                dev.click(".pad-wrap summary")
            # Dev gives in: taps the card the others claimed.
            majority = next(c for s, c in enumerate(state.claims) if seat_names[s] != "Dev")
            before = version(dev)
            dev.locator(f'.trick button[data-winner="{game.players[majority]}"]').click()
            wait_change(dev, before)
    else:
        pytest.fail("the game did not finish")

    assert reloaded
    game.refresh_from_db()
    assert game.state == GameState.OVER
    records = TrickRecord.objects.filter(game=game)
    assert records.count() == 7  # 28 cards, 4 players: 7 tricks
    assert sum(game.tricks_won) == 7
    assert disputes_seen >= 1, "Dev's sheet never disagreed: pick another seed"
    resolved = Dispute.objects.filter(game=game)
    assert resolved.exists() and all(d.resolution == "unanimous" for d in resolved)
    # The phones show the result and a new game has been dealt.
    pages["Ana"].wait_for_selector(".last-game", timeout=5000)
    assert "Last game" in pages["Ana"].inner_text(".last-game")
    assert Game.objects.filter(state=GameState.PLAYING).count() == 1
