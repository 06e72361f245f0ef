"""A paused round on the phone: the clock says Paused and no card looks playable
(the hand had stayed highlighted under 'Your turn', and a tap answered with a
toast), nor is said to be ("Your turn. Lead any card." over cards named "…,
playable"); the turn waits for the round. Chromium."""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import one_phone_at_a_round, play_until, version, wait_change

from tournament import services
from tournament.models import Player

pytestmark = [pytest.mark.browser]


def test_a_paused_round_shows_no_playable_card(live_server_url, browser):
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Paused", seats=4, size={"width": 390, "height": 844}
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    play_until(game, lambda s: game.players[s.to_act] == ana)
    page.wait_for_selector(".hand .card.legal", timeout=8000)
    card = page.locator(".hand .card.legal").first.get_attribute("data-card")
    legal = page.locator(f'.hand .card[data-card="{card}"]')
    assert legal.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    assert legal.get_attribute("aria-label").endswith(", playable")
    assert page.locator(".whose").inner_text().startswith("Your turn.")
    before = version(page)
    services.round_pause(round_id=game.round_id)
    wait_change(page, before)
    page.wait_for_selector("#screen[data-paused='1']")
    assert page.locator(".status .timer").inner_text().strip() == "Paused"
    # Not playable: a dashed frame on grey, the face unfaded (readable at arm's length),
    # and not said to be (a tap is refused while paused); the turn waits for the round.
    assert legal.evaluate("e => getComputedStyle(e).borderTopStyle") == "dashed"
    assert legal.evaluate("e => getComputedStyle(e).opacity") == "1"
    assert legal.evaluate("e => getComputedStyle(e).boxShadow") == "none"
    assert page.locator(".hand .card.legal").count() == 0
    assert page.locator(".hand .card:not([aria-disabled='true'])").count() == 0
    assert "playable" not in legal.get_attribute("aria-label")
    assert page.locator(".whose").inner_text().startswith("Your turn when the round continues.")
    assert "Lead any card" not in page.locator(".whose").inner_text()
    assert_accessible(page, "phone, round paused")
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('paused the round')"
    )
    # The pause's end takes its line away, which says nothing by itself: the phone says
    # the round goes on.
    before = version(page)
    services.round_resume(round_id=game.round_id)
    wait_change(page, before)
    page.wait_for_selector("#screen:not([data-paused])")
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('The round continues.')",
        timeout=8000,
    )
    # Playable again, and said to be, without a reload: the same card node.
    assert legal.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    assert legal.get_attribute("aria-label").endswith(", playable")
    assert legal.get_attribute("aria-disabled") is None
    assert page.locator(".whose").inner_text().startswith("Your turn.")
    page.context.close()


def test_a_paused_study_resumes_as_play_not_as_a_round(live_server_url, browser):
    """Study is not a round to a student: its pause's end was said "The round
    continues." (table.js's own words); the phone now says what the screen drew
    (data-resumed-said), "Play continues.", and the round's words nowhere."""
    from phones import join, touch_phone

    w = services.workshop_create(name="Paused study", table_count=1, seats_per_table=3, seed=3)
    page = touch_phone(browser, {"width": 390, "height": 844})
    join(page, live_server_url, w.code, "Ana")
    for other in ("Ben", "Cleo"):
        services.player_join(code=w.code, name=other)
    services.players_seat_home(workshop_id=w.pk)
    rnd = services.workshop_start_study(workshop_id=w.pk)
    page.wait_for_selector("#screen[data-phase=study] .hand .card", timeout=8000)
    said = "() => document.getElementById('announce').textContent"
    before = version(page)
    services.round_pause(round_id=rnd.pk)
    wait_change(page, before)
    page.wait_for_function(f"() => ({said})().includes('paused play')", timeout=8000)
    before = version(page)
    services.round_resume(round_id=rnd.pk)
    wait_change(page, before)
    page.wait_for_selector("#screen:not([data-paused])")
    page.wait_for_function(f"() => ({said})().includes('Play continues.')", timeout=8000)
    assert "round" not in page.evaluate(said), page.evaluate(said)
    page.context.close()
