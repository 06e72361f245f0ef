"""The facilitator's clocks count to the server's deadline as the phones' do (live.js,
shared): the projector's, which the room watches, on a laptop whose clock is set a
minute forward or back while the page runs (an NTP step, a laptop woken); and the
panel's through a pause and a resume on a laptop whose clock is 3 minutes fast: the
paused clock stands still at the seconds the server kept, the resumed one counts to
the new deadline. The phone's page and the panel's first case are in
test_clock_deadline_browser. Chromium, Five Tricks, one table of four."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from clocks import MOVABLE, SHIFTED, WAIT, ends_near, ms, set_clock, taken_at_once
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tournament.models import RoundState
from tournament.templatetags.facilitator import clock

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from tournament_helpers import make_workshop, to_scored_round  # noqa: E402

pytestmark = [pytest.mark.browser]
LAPTOP = {"width": 1280, "height": 800}

# What the clock at `sel` shows (m:ss) and the whole seconds truly left to `deadline`
# on the true clock, read together.
SHOWN = """([sel, deadline]) => {
  const el = document.querySelector(sel);
  return [el.textContent.trim(), Math.max(0, Math.round((deadline - window.__trueNow()) / 1000))];
}"""
# Whether the clock at `sel` reads the seconds truly left to `deadline` (a tick may fall
# between the two reads).
TRUE_LEFT = """([sel, deadline]) => {
  const text = document.querySelector(sel).textContent.trim();
  const [m, s] = text.split(":").map(Number);
  const left = Math.max(0, Math.round((deadline - window.__trueNow()) / 1000));
  return Math.abs(m * 60 + s - left) <= 1;
}"""


def shows_true_left(page, sel: str, deadline: int) -> None:
    """Until the clock reads the seconds truly left, at its next tick (every 250 ms, later
    on a busy machine), else a failure saying what it read."""
    try:
        page.wait_for_function(TRUE_LEFT, arg=[sel, deadline], timeout=WAIT)
    except PlaywrightTimeout:
        shown, left = page.evaluate(SHOWN, [sel, deadline])
        pytest.fail(f"{sel} reads {shown}, {left} s truly left")


def a_round_and_its_facilitator(django_user_model):
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=4, tables=1, seats=4, seed=3, facilitator=user)
    return user, w, to_scored_round(w)


@pytest.mark.parametrize("jump", [60_000, -60_000])
def test_the_projectors_clock_follows_the_laptops_clock_when_it_is_set(
    facilitator_page, django_user_model, jump
):
    """The laptop's clock set a minute forward (or back) while the projector shows the
    round: its clock counts to the server's deadline again within a few seconds, and
    again once the clock is set back; the room reads the true time left. (Before the
    page watched its clock, the projector was a minute off for up to eight pings.)"""
    user, w, rnd = a_round_and_its_facilitator(django_user_model)
    page = facilitator_page(user, f"/workshops/{w.pk}/projector/", viewport=LAPTOP)
    page.add_init_script(script=MOVABLE)
    page.reload()
    page.wait_for_selector("#fac-live[data-updated]", timeout=WAIT)
    deadline = ms(rnd.deadline)
    ends_near(page, ".proj-clock", 0, deadline)  # the first sample, fast
    page.evaluate("() => { window.__lag = 100; }")  # later ones 200 ms round trip

    set_clock(page, jump, ".proj-clock", deadline)
    taken_at_once(page)
    shows_true_left(page, ".proj-clock", deadline)  # at a tick on the clock as set

    set_clock(page, 0, ".proj-clock", deadline)
    taken_at_once(page)
    shows_true_left(page, ".proj-clock", deadline)
    page.context.close()


def test_the_panels_clock_stands_still_paused_and_counts_to_the_new_deadline_resumed(
    facilitator_page, django_user_model
):
    """The facilitator pauses the round and resumes it two seconds later, on a laptop
    whose clock is 3 minutes fast: paused, the clock shows the seconds the server kept
    and does not move; resumed, it counts to the new deadline (two seconds after the
    old one), not to the old one nor from the laptop's own time."""
    user, w, rnd = a_round_and_its_facilitator(django_user_model)
    shift = 3 * 60_000
    page = facilitator_page(user, f"/workshops/{w.pk}/", viewport=LAPTOP)
    page.add_init_script(script=SHIFTED % shift)
    page.reload()
    page.wait_for_selector("#fac-live[data-updated]", timeout=WAIT)
    timer = "#fac-status .timer"
    ends_near(page, timer, shift, ms(rnd.deadline))

    page.click("#do-pause")
    page.wait_for_selector(f"{timer}.paused", timeout=WAIT)
    rnd.refresh_from_db()
    assert rnd.state == RoundState.PAUSED
    kept = clock(rnd.remaining_seconds)
    assert page.get_attribute(timer, "data-running") == "0"
    assert page.inner_text(timer).strip() == kept
    page.wait_for_timeout(2000)  # two seconds and more: a running clock would move
    assert page.inner_text(timer).strip() == kept

    page.click("#do-resume")
    page.wait_for_selector(f"{timer}[data-running='1']:not(.paused)", timeout=WAIT)
    rnd.refresh_from_db()
    assert rnd.state == RoundState.RUNNING
    deadline = ms(rnd.deadline)
    ends_near(page, timer, shift, deadline)
    shows_true_left(page, timer, deadline)
    page.context.close()
