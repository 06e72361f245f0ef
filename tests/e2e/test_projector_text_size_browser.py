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
edge but a name cut with an ellipsis, its full name its title), and axe's contrast
passes.

The lobby's names at that size fill the screen sooner (twenty-five short ones ran
below its foot at 1280x720, ten of thirty characters were a page 1,183 px high): the
projector shows as many of the latest as fit, and "N earlier…" counts the rest
(facilitator.js, fitNames), at any count and any length of name, on the three usual
screens, after a push and when the window changes size.
"""

from __future__ import annotations

import re
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
# screen's foot: the page cannot be scrolled in front of the room. A box cut with an
# ellipsis whose title is its whole text (a long name) is cut on purpose, and says so.
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
    const marked = s.textOverflow === 'ellipsis' && e.title === e.textContent.trim();
    if (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1 && !marked) out.push(`${what} cut`);
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

    def check(self, page, label):
        found = page.evaluate(SMALL_TEXT, self.floor) + page.evaluate(CUT)
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
    seen.check(page, "joining")
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


ALL_SCREENS = [(1280, 720), (1366, 768), (1920, 1080)]
ALL_SCREEN_IDS = ["720p", "1366", "1080p"]
LONG = "Wolfeschlegelsteinhausenberger"  # thirty characters, the most a name may have
assert len(LONG) == 30
LOBBIES = {
    "one": ["Ana"],
    "ten of thirty characters": [f"{LONG[:27]} {i:02d}" for i in range(10)],
    "thirty": [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(30)],
    # The widest letters, thirty to a name.
    "sixty of thirty Ws and Ms": [f"{'WM' * 13}W {i:02d}" for i in range(60)],
    # The server sends the latest sixty of them, and counts the rest.
    "two hundred": [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(200)],
}

# The lobby's list as the room sees it and as a screen reader hears it: the names
# drawn (the latest, in order), "N earlier…" if drawn, the list's items in the
# accessibility tree, and each drawn name cut without an ellipsis or without its
# whole name as its title.
LOBBY = """() => {
  const list = document.querySelector('.proj-names');
  const drawn = [...list.querySelectorAll('li[data-name]')].filter((li) => li.getClientRects().length);
  const more = list.querySelector('.proj-earlier');
  return {
    shown: drawn.map((li) => li.textContent),
    earlier: more && more.getClientRects().length ? more.textContent : null,
    badly_cut: drawn.filter((li) => li.scrollWidth > li.clientWidth + 1
        && (getComputedStyle(li).textOverflow !== 'ellipsis' || li.title !== li.textContent))
      .map((li) => li.textContent),
    cut: drawn.filter((li) => li.scrollWidth > li.clientWidth + 1).length,
  };
}"""


def heard_items(page) -> list[str]:
    """The list's items as the accessibility tree has them (what a screen reader says):
    `- listitem: words`, or `- listitem "name"` where a title names it as its words do."""
    tree = page.locator(".proj-names").aria_snapshot()
    items = re.findall(r'^\s*- listitem(?: "(.*)"|: (.*))$', tree, re.M)
    assert len(items) == tree.count("listitem"), tree
    return [name or words for name, words in items]


def assert_lobby_fits(page, seen, label, names):
    """The lobby at `seen`'s screen: no word under the floor or past the screen, the
    latest names shown and "N earlier…" counting the rest, and only what is shown heard."""
    seen.check(page, label)
    lobby = page.evaluate(LOBBY)
    shown = lobby["shown"]
    assert shown, label
    assert shown == names[-len(shown) :], label
    rest = len(names) - len(shown)
    assert lobby["earlier"] == (f"{rest} earlier…" if rest else None), label
    assert lobby["badly_cut"] == [], label
    assert heard_items(page) == ([f"{rest} earlier…"] if rest else []) + shown, label
    return lobby


@pytest.mark.parametrize("screen", ALL_SCREENS, ids=ALL_SCREEN_IDS)
@pytest.mark.parametrize("lobby", list(LOBBIES))
def test_the_lobby_shows_the_latest_names_that_fit_the_screen(
    facilitator_page, django_user_model, artifacts, screen, lobby
):
    names = LOBBIES[lobby]
    width, height = screen
    seen = Findings(artifacts, screen, "lobby")
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=names, tables=2, seats=5, seed=3, facilitator=user)
    page = facilitator_page(
        user, f"/workshops/{w.pk}/projector/", viewport={"width": width, "height": height}
    )
    found = assert_lobby_fits(page, seen, lobby, names)
    if lobby.startswith(("ten", "sixty")):
        assert found["cut"] > 0  # thirty characters are cut short, with an ellipsis
    page.context.close()
    seen.assert_none()


def test_the_lobby_fits_again_after_a_push_and_when_the_window_changes_size(
    facilitator_page, django_user_model, artifacts
):
    """The list is new at each push, and a window made full-screen or smaller lays it out
    again: each time as many of the latest as fit, the rest counted."""
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(8)]
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=names, tables=2, seats=5, seed=3, facilitator=user)
    page = facilitator_page(
        user, f"/workshops/{w.pk}/projector/", viewport={"width": 1920, "height": 1080}
    )
    large, small = (Findings(artifacts, screen, "lobby-push") for screen in SCREENS[::-1])
    assert assert_lobby_fits(page, large, "eight", names)["earlier"] is None
    for i in range(8, 50):
        name = f"{LONG[:20]} {i:02d}"
        services.player_join(workshop_id=w.pk, name=name)
        names.append(name)
    page.wait_for_function(
        "() => document.querySelector('.proj-names')?.dataset.joined === '50'", timeout=WAIT
    )
    assert assert_lobby_fits(page, large, "fifty", names)["earlier"] is not None
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_function("() => innerWidth === 1280")
    smaller = assert_lobby_fits(page, small, "fifty, the window smaller", names)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.wait_for_function("() => innerWidth === 1920")
    larger = assert_lobby_fits(page, large, "fifty, the window larger again", names)
    assert len(larger["shown"]) > len(smaller["shown"])
    page.context.close()
    large.assert_none()
    small.assert_none()


def test_the_check_sees_small_and_cut_words_and_not_hidden_ones(browser):
    """The checks themselves: a 20 px line is found under 24 px, a word wider than its
    clipped box and a line wider than the screen are found; a word for a screen reader
    only, or hidden, is not, nor one cut with an ellipsis whose title is its whole."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.set_content(
        "<style>.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;"
        "clip:rect(0 0 0 0)}</style><body style='font-size:30px;margin:0'><main id='fac-live'>"
        "<p style='font-size:20px'>small</p><p>big <b style='font-size:12px'>tiny</b></p>"
        "<p class='visually-hidden' style='font-size:10px'>heard</p>"
        "<p style='font-size:10px;display:none'>gone</p>"
        "<p style='font-size:10px;visibility:hidden'>held</p>"
        "<p class='box' style='width:50px;overflow:hidden;white-space:nowrap'>Wolfeschlegel</p>"
        "<p title='Wolfeschlegel' style='width:50px;overflow:hidden;white-space:nowrap;"
        "text-overflow:ellipsis'>Wolfeschlegel</p>"
        "</main></body>"
    )
    assert page.evaluate(SMALL_TEXT, 24) == ['p. "small" 20px', 'b. "tiny" 12px']
    assert page.evaluate(CUT) == ['p.box "Wolfeschlegel" cut']
    page.evaluate("document.querySelector('.box').style.width = '1400px'")
    assert page.evaluate(CUT) == ["page 1400 wide on 1280", 'p.box "Wolfeschlegel" past the side']
    page.close()


@pytest.mark.parametrize("screen", SCREENS, ids=SCREEN_IDS)
def test_the_skip_link_once_focused_reads_as_every_other_word(
    facilitator_page, django_user_model, screen
):
    """The skip link is off the screen till a key focuses it (SMALL_TEXT passes over it
    there): then it is drawn on the wall, and was 18 px, the page's base size, under
    the floor every other word keeps."""
    width, height = screen
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=["Ana"], tables=2, seats=5, seed=3, facilitator=user)
    page = facilitator_page(
        user, f"/workshops/{w.pk}/projector/", viewport={"width": width, "height": height}
    )
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    assert skip.evaluate("e => e === document.activeElement")
    box = skip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
    floor = width * SHARE / 100
    size = float(skip.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= floor - 0.01, f"{size} px under {floor}"
    assert page.evaluate(SMALL_TEXT, floor) == []
    assert_accessible(page, "projector, the skip link focused")
    page.context.close()


def test_a_window_too_small_for_one_name_shows_the_count_alone(
    facilitator_page, django_user_model, artifacts
):
    """A small window (640x360: the join code fills it): every name was hidden and the
    list said "30 earlier…", earlier than nothing. The list goes; its heading's count
    ("30 joined") stands alone, and the names come back when the window grows."""
    names = [f"{FIRST[i % 20]} {i // 20 + 1}" for i in range(30)]
    user = django_user_model.objects.create_user("fac", password="unused-here")
    w = make_workshop(names=names, tables=2, seats=5, seed=3, facilitator=user)
    page = facilitator_page(
        user, f"/workshops/{w.pk}/projector/", viewport={"width": 640, "height": 360}
    )
    # (The page is drawn from its socket's first push, fitNames run on it.)
    lobby = page.evaluate(LOBBY)
    assert (lobby["shown"], lobby["earlier"]) == ([], None)
    assert page.evaluate("() => document.querySelector('.proj-names').hidden")
    assert page.locator(".proj-earlier").count() == 0
    assert page.locator("h2.proj-names-h").inner_text().strip() == "30 joined"
    assert "listitem" not in page.locator("#projector-live").aria_snapshot()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_function("() => innerWidth === 1280")
    assert_lobby_fits(page, Findings(artifacts, SCREENS[0], "lobby-small"), "grown", names)
    page.context.close()
