"""Every word on the projector is read from the back of the classroom: at least 1.875 %
of the screen's width, 24 px at 1280x720 and 36 px at 1920x1080, in every state of a
workshop, and no grey word under WCAG AA's contrast against its background.

Why that floor: a classroom's projected image is about 2 m wide and its back row about
8 m from it. At 1280 px across 2 m a pixel is 1.6 mm; a 24 px font's capitals are
about 17 px, 27 mm high, which subtend about 11 minutes of arc at 8 m: twice the
5 minutes of the smallest line a 20/20 eye reads on a chart, the least that is read
without squinting (slides' usual "nothing under 24 pt" says the same). A 1080p
projector throws the same image with 1.5 times the pixels, so the floor is a share of
the width, not a number of pixels: 36 px there. Earlier the game's name was 28 px, the
join hint 20-25 px and, once tables stood under the clock, the join label, address and
hint 20 px, the forty tables' chips 18 px.

The states: joining (a lobby of sixty names on the wall, and a conference's two
hundred), the study, silent play at home tables, a scored round, paused, the round
over, after "Apply movement", and the debrief (the tournament over). At two tables
(the tables' largest chips), twelve (`many`) and forty (`crowd`). In each: no word under the floor, nothing
wider than the screen (no sideways scroll, no word cut at the screen's or its box's
edge; the lobby's names are not yet held to either), and axe's contrast passes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from axe_check import assert_accessible

from tournament import services
from tournament.models import Round

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from tournament_helpers import make_workshop  # noqa: E402

pytestmark = [pytest.mark.browser]
WAIT = 8000
SHARE = 1.875  # % of the screen's width: 24 px at 1280, 36 px at 1920
SCREENS = [(1280, 720), (1920, 1080)]
SCREEN_IDS = ["720p", "1080p"]
FIRST = ["Alexandra", "Bartholomew", "Chen", "Dmitri", "Esperanza", "Fatima", "Guillermo",
         "Hiroshi", "Ingrid", "Jean-Baptiste", "Kwame", "Leilani", "Mohammed", "Nguyen",
         "Olga", "Priyanka", "Quentin", "Rosalind", "Sven", "Tatiana"]  # fmt: skip

# Each element of the page with words of its own (a text node, not only its
# children's) drawn under `floor` px: not display: none, not visibility: hidden, and
# not clipped to a pixel for a screen reader only (.visually-hidden), not wholly off
# the screen to its left or above it (the skip link, till a key focuses it). As
# test_phone_text_size_browser's SMALL_TEXT, over the whole page.
SMALL_TEXT = """(floor) => {
  const clipped = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const r = a.getBoundingClientRect(), s = getComputedStyle(a);
      if (r.width <= 1 && r.height <= 1 && s.overflow === 'hidden') return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter((e) => [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .filter((e) => { const r = e.getBoundingClientRect(); return r.right > 0 && r.bottom > 0; })
    .filter((e) => !['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(e.tagName))
    .filter((e) => parseFloat(getComputedStyle(e).fontSize) < floor - 0.01 && !clipped(e))
    .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent.trim().slice(0, 40)}" ${getComputedStyle(e).fontSize}`);
}"""

# What is wider than the screen, or runs past its own box (a word cut), or below the
# screen's foot: the page cannot be scrolled in front of the room.
CUT = """() => {
  const doc = document.documentElement, out = [];
  if (doc.scrollWidth > doc.clientWidth) out.push(`page ${doc.scrollWidth} wide on ${doc.clientWidth}`);
  if (doc.scrollHeight > innerHeight) out.push(`page ${doc.scrollHeight} high on ${innerHeight}`);
  for (const e of document.querySelectorAll('#fac-live *')) {
    if (!e.getClientRects().length || e.closest('.visually-hidden')) continue;
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    const what = `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent.trim().slice(0, 30)}"`;
    if (r.right > doc.clientWidth + 0.5 || r.left < -0.5) out.push(`${what} past the side`);
    if (r.bottom > innerHeight + 0.5) out.push(`${what} below the foot`);
    if (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1) out.push(`${what} cut`);
  }
  return out;
}"""


class Findings:
    """What each state drew under the floor or past the screen, all of it kept: the
    test fails once at its end, listing every state's (screenshots go to artifacts/)."""

    def __init__(self, artifacts, screen, tag):
        self.found: dict[str, list[str]] = {}
        self.artifacts = artifacts
        self.screen = screen
        self.tag = tag
        self.floor = screen[0] * SHARE / 100

    def check(self, page, label, fit=True, names=True):
        small = page.evaluate(SMALL_TEXT, self.floor)
        if not names:
            small = [s for s in small if not s.startswith(("li. ", "li.proj-earlier "))]
        found = small + (page.evaluate(CUT) if fit else [])
        if found:
            self.found[label] = sorted(set(found))
        shot = f"projector-text-{self.screen[0]}x{self.screen[1]}-{self.tag}-{label}.png"
        page.screenshot(path=str(self.artifacts / shot.replace(" ", "-")))
        assert_accessible(page, f"projector {self.tag}, {label}")

    def assert_none(self):
        assert self.found == {}, "\n".join(f"{k}: {v}" for k, v in self.found.items())


def wait_phase(page, text):
    page.wait_for_function(
        "t => document.querySelector('.proj-phase')?.textContent.trim() === t",
        arg=text,
        timeout=WAIT,
    )


@pytest.mark.parametrize("screen", SCREENS, ids=SCREEN_IDS)
@pytest.mark.parametrize(("tables", "players"), [(2, 10), (12, 60), (40, 200)])
def test_every_word_on_the_projector_reads_from_the_back_of_the_room(
    facilitator_page, django_user_model, artifacts, screen, tables, players
):
    width, height = screen
    seen = Findings(artifacts, screen, f"{tables}-tables")
    user = django_user_model.objects.create_user("fac", password="unused-here")
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(players)]
    w = make_workshop(names=names, tables=tables, seats=5, seed=3, facilitator=user)
    page = facilitator_page(
        user, f"/workshops/{w.pk}/projector/", viewport={"width": width, "height": height}
    )
    # Not yet the lobby's names: at --least twenty-five or more run below the screen's
    # foot (even ten at 1280x720, by a few pixels); the list must show fewer, the
    # latest, as it does past sixty, before they can be that size. The rest of the
    # lobby's words are checked, and axe's contrast.
    seen.check(page, "joining", fit=False, names=False)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    wait_phase(page, "Study the rules")
    seen.check(page, "study")
    services.workshop_start_home(workshop_id=w.pk)
    wait_phase(page, "Silent play at home tables")
    seen.check(page, "silent play")
    rnd = services.round_start(workshop_id=w.pk)
    wait_phase(page, "Scored round · Round 1")
    seen.check(page, "scored round")
    services.round_pause(round_id=rnd.pk)
    page.wait_for_selector(".proj-paused", timeout=WAIT)
    seen.check(page, "paused")
    services.round_end_now(round_id=Round.objects.get(pk=rnd.pk).pk)
    wait_phase(page, "Round 1 is over")
    seen.check(page, "between rounds")
    services.movement_apply(round_id=rnd.pk)
    page.wait_for_selector(".proj-moved", timeout=WAIT)
    seen.check(page, "moved")
    services.workshop_set_joining(workshop_id=w.pk, locked=True)
    page.wait_for_selector(".proj-locked", timeout=WAIT)
    seen.check(page, "joining locked")
    services.workshop_start_debrief(workshop_id=w.pk)
    wait_phase(page, "The tournament is over")
    seen.check(page, "debrief")
    page.context.close()
    seen.assert_none()


def test_the_check_sees_small_and_cut_words_and_not_hidden_ones(browser):
    """The checks themselves: a 20 px line is found under 24 px, a word wider than its
    clipped box and a line wider than the screen are found; a word for a screen reader
    only, or hidden, is not."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.set_content(
        "<style>.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;"
        "clip:rect(0 0 0 0)}</style><body style='font-size:30px;margin:0'><main id='fac-live'>"
        "<p style='font-size:20px'>small</p><p>big <b style='font-size:12px'>tiny</b></p>"
        "<p class='visually-hidden' style='font-size:10px'>heard</p>"
        "<p style='font-size:10px;display:none'>gone</p>"
        "<p style='font-size:10px;visibility:hidden'>held</p>"
        "<p class='box' style='width:50px;overflow:hidden;white-space:nowrap'>Wolfeschlegel</p>"
        "</main></body>"
    )
    assert page.evaluate(SMALL_TEXT, 24) == ['p. "small" 20px', 'b. "tiny" 12px']
    assert page.evaluate(CUT) == ['p.box "Wolfeschlegel" cut']
    page.evaluate("document.querySelector('.box').style.width = '1400px'")
    assert page.evaluate(CUT) == ["page 1400 wide on 1280", 'p.box "Wolfeschlegel" past the side']
    page.close()
