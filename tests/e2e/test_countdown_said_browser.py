"""A claim's and a dispute's last 10 seconds are said once (static/js/table.js): the
clock ticks outside any live region, and a blind student in a dispute heard nothing
of the time running out."""

from __future__ import annotations

import pytest
from phones import dealt_table, heard, play_until, wait_said, watch_heard

from tournament import services

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai"]
WAIT = 10_000
# 15 s: a clock is only warned about when it was seen with more than 10 s left.
SECONDS = 15


def test_the_last_ten_seconds_of_a_claim_and_of_a_dispute_are_said_once(live_server_url, phone):
    workshop = services.workshop_create(
        name="Countdown", table_count=1, seats_per_table=3, seed=5, dispute_seconds=SECONDS
    )
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    ana = pages["Ana"]
    ana.wait_for_selector("#screen[data-phase=study] .hand .card", timeout=WAIT)
    watch_heard(ana)
    play_until(game, lambda state: state.phase == "claim")
    claim = "10 seconds left to claim."
    wait_said(ana, 0, claim, timeout=WAIT)

    # Two claims against one: a dispute, with a fresh time limit.
    since = len(heard(ana))
    claims = (game.players[0], game.players[1], game.players[1])
    for pid, winner in zip(game.players, claims, strict=True):
        services.game_claim(player_id=pid, winner_player_id=winner)
    ana.wait_for_selector(".dispute-title", timeout=WAIT)
    dispute = "10 seconds left: then the most-claimed card wins."
    wait_said(ana, since, dispute, timeout=WAIT)
    # A new screen meanwhile (a claim changed) does not say it again.
    ana.wait_for_timeout(1500)
    said = heard(ana)
    assert said.count(claim) == 1 and said.count(dispute) == 1, said
    assert said.index(claim) < said.index(dispute)
