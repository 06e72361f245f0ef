"""A double click on a panel control acts once. The socket redraws the clock's
buttons between a double click's two clicks: Resume's place is Pause's a moment
later, so the second click paused the round just resumed (and Pause then Resume
undid a pause), and "+1 minute" added two minutes. The browser counts a double
click's clicks (`detail`); the second is dropped, as the phones drop a double tap's
(static/js/facilitator.js). A separate click after it counts. Chromium, 1366x768."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tournament.models import RoundState

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from tournament_helpers import fresh, make_workshop, to_scored_round  # noqa: E402

pytestmark = [pytest.mark.browser]
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
WAIT = 8000


def posts(page) -> list[str]:
    """The controls the page sends from now on, by name (`…/do/<name>/`)."""
    sent: list[str] = []
    page.on(
        "request",
        lambda r: (
            sent.append(r.url.rstrip("/").rsplit("/", 1)[-1])
            if r.method == "POST" and "/do/" in r.url
            else None
        ),
    )
    return sent


def centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def under(page, x: float, y: float) -> str:
    """The id of the button at (x, y)."""
    return page.evaluate(
        "([x, y]) => { const b = document.elementFromPoint(x, y)?.closest('button');"
        " return b ? b.id : ''; }",
        [x, y],
    )


def second_click(page, x: float, y: float) -> None:
    """A double click's second click at (x, y): the browser counts it the second
    (its `detail` is 2), as it does a click soon after the last at the same place."""
    page.mouse.move(x, y)
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)


def said(page, text: str) -> None:
    page.wait_for_function(
        "t => (document.getElementById('fac-message')?.textContent || '').includes(t)",
        arg=text,
        timeout=WAIT,
    )


def test_a_double_click_on_resume_pause_or_extend_acts_once(facilitator_page, django_user_model):
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(players=8, tables=2, seats=4, seed=5, facilitator=user)
    rnd = to_scored_round(w)
    page = facilitator_page(user, f"/workshops/{w.pk}/", **LAPTOP)
    sent = posts(page)

    # Paused once: the answer's box now stands above the status, as it will after.
    page.click("#do-pause")
    said(page, "is paused")
    page.wait_for_selector("#do-resume", timeout=WAIT)
    assert fresh(rnd).state == RoundState.PAUSED

    # A double click on Resume: the first click resumes; the socket puts Pause where
    # Resume was; the second click of the double click lands on it.
    x, y = centre(page, "#do-resume")
    page.mouse.click(x, y)
    said(page, "continues")
    page.wait_for_selector("#do-pause", timeout=WAIT)
    assert under(page, x, y) == "do-pause"  # what the second click lands on
    second_click(page, x, y)
    page.wait_for_timeout(1000)  # time for a request, were one sent
    assert sent == ["pause", "resume"], sent
    assert fresh(rnd).state == RoundState.RUNNING
    assert "continues" in page.inner_text("#fac-message")

    # A double click on Pause likewise pauses and stays paused.
    page.mouse.click(x, y)
    said(page, "is paused")
    page.wait_for_selector("#do-resume", timeout=WAIT)
    assert under(page, x, y) == "do-resume"
    second_click(page, x, y)
    page.wait_for_timeout(1000)
    assert sent == ["pause", "resume", "pause"], sent
    assert fresh(rnd).state == RoundState.PAUSED

    # "+1 minute" double clicked adds one minute, not two.
    left = fresh(rnd).remaining_seconds
    x, y = centre(page, "#do-extend")
    page.mouse.click(x, y)
    said(page, "one more minute")
    second_click(page, x, y)
    page.wait_for_timeout(1000)
    assert sent.count("extend") == 1, sent
    assert fresh(rnd).remaining_seconds == pytest.approx(left + 60, abs=1)

    # A click of its own, after the double click, counts.
    page.click("#do-resume")
    said(page, "continues")
    assert fresh(rnd).state == RoundState.RUNNING

    # The keyboard's presses are never dropped (a key's click counts no clicks): Enter
    # on "+1 minute", twice, adds two minutes. (The answer takes the focus: back to
    # the button for the second.)
    deadline = fresh(rnd).deadline
    before = sent.count("extend")
    for n in (1, 2):
        page.focus("#do-extend")
        page.keyboard.press("Enter")
        for _ in range(80):
            if sent.count("extend") == before + n:
                break
            page.wait_for_timeout(100)
    assert sent.count("extend") == before + 2, sent
    for _ in range(80):  # both answered
        added = (fresh(rnd).deadline - deadline).total_seconds()
        if added >= 119:
            break
        page.wait_for_timeout(100)
    assert added == pytest.approx(120, abs=1)
    page.context.close()
