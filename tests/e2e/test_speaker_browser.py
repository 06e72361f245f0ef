"""The phone's and the panel's announcements (live.js `speaker`, a role="log"): each
line after the last, each gone 20 s after it was said, the same words twice heard
twice. Run on a bare page with a fake clock: no socket, no server."""

from pathlib import Path

import pytest

LIVE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "live.js"

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.clock.install()
    page.set_content('<div id="log" role="log"></div>')
    page.add_script_tag(path=str(LIVE_JS))
    yield page
    context.close()


LINES = "() => Array.from(document.querySelectorAll('#log > p'), (p) => p.textContent)"


def test_a_log_adds_each_line_after_the_last_and_each_leaves_on_its_own(page):
    """A line that comes while the last is being read is added after it (read next),
    not put in its place (cut off); each is gone 20 s after it was said, so a screen
    reader reading the page from the top later does not hear old news as new."""
    page.evaluate("window.s = Barnga.speaker(document.getElementById('log'))")
    page.evaluate("s.say('Trick 1 won by Ben.')")
    page.clock.run_for(1_500)
    page.evaluate("s.say('Ben leads.')")
    assert page.evaluate(LINES) == ["Trick 1 won by Ben.", "Ben leads."]
    page.clock.run_for(18_600)
    assert page.evaluate(LINES) == ["Ben leads."]
    page.clock.run_for(1_500)
    assert page.evaluate(LINES) == []


def test_the_same_words_said_twice_are_heard_twice(page):
    """A new dispute at the same table: the same words again are a line of their own."""
    page.evaluate("window.s = Barnga.speaker(document.getElementById('log'))")
    page.evaluate("s.say('Dispute at table 1.')")
    page.clock.run_for(100)
    page.evaluate("s.say('Dispute at table 1.')")
    assert page.evaluate(LINES) == ["Dispute at table 1.", "Dispute at table 1."]
    page.clock.run_for(20_000)
    assert page.evaluate(LINES) == []


def test_hush_empties_at_once(page):
    page.evaluate("window.s = Barnga.speaker(document.getElementById('log'))")
    page.evaluate("s.say('Round 1 is over.'); s.say('Your turn.'); s.hush()")
    assert page.evaluate(LINES) == []
    page.clock.run_for(21_000)  # the lines' own leaving finds them gone
    assert page.evaluate(LINES) == []
