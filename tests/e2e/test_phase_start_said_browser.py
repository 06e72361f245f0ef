"""What a phone says as study and silent play start, in the games whose deal has a line
of its own (All Fives' "Hand 1, Bea deals, to 61. Trump: clubs.", 7Up7Down's deal): the
deal's line came between the phase's heading and what the phase changes for the
student ("Silent play at home tables, table 1. Hand 1, you deal, to 61. Trump: clubs.
Silence — gestures and drawings only. Your rules are put away: …"). The phase, the
silence and the rules taken away are said together first, then the game."""

from __future__ import annotations

import pytest
from phones import heard, join, wait_said, watch_heard

from tournament import services

pytestmark = [pytest.mark.browser]

WAIT = 8000
STUDY = "Study the rules, table 1. Your rules are below. You may talk; these games don't count."
HOME = (
    "Silent play at home tables, table 1. Silence — gestures and drawings only."
    " Your rules are put away: play from memory. These games still don't count."
)


def said_since(page, n: int, starts: str, deal: str) -> str:
    """What `page` said after its first `n` lines, once the phase's line (`starts`) and
    the deal's have come."""
    wait_said(page, n, starts.split(".")[0], timeout=WAIT)
    wait_said(page, n, deal, timeout=WAIT)
    return " ".join(heard(page)[n:])


@pytest.mark.parametrize(
    ("game", "deal"), [("all_fives", "Hand 1, "), ("seven_up", "Deal 1 of 14")]
)
def test_a_phase_is_said_with_what_it_changes_before_the_new_deal(
    live_server_url, phone, game, deal
):
    w = services.workshop_create(
        name="Phase start", game=game, table_count=1, seats_per_table=3, seed=5
    )
    page = phone()
    join(page, live_server_url, w.code, "Ana")
    watch_heard(page)
    for name in ("Bea", "Cai"):
        services.player_join(code=w.code, name=name)
    services.players_seat_home(workshop_id=w.pk)
    wait_said(page, 0, "you will play at table 1", timeout=WAIT)
    n = len(heard(page))
    services.workshop_start_study(workshop_id=w.pk)
    said = said_since(page, n, STUDY, deal)
    assert said.startswith(STUDY + " " + deal), said
    page.wait_for_selector("#screen[data-phase=study]", timeout=WAIT)
    n = len(heard(page))
    services.workshop_start_home(workshop_id=w.pk)
    said = said_since(page, n, HOME, deal)
    assert said.startswith(HOME + " " + deal), said
