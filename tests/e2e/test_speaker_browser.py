"""The phone's and the panel's announcements (live.js `speaker`): a line said is
emptied 20 s later, so a screen reader reading the page from the top later does not
hear old news as new; the panel's is emptied first, so the same words said twice
are heard twice. Run on a bare page with a fake clock: no socket, no server."""

from pathlib import Path

import pytest

LIVE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "live.js"

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.clock.install()
    page.set_content('<div id="said" aria-live="polite"></div><div id="log" role="log"></div>')
    page.add_script_tag(path=str(LIVE_JS))
    yield page
    context.close()


def said(page) -> str:
    return page.locator("#said").text_content()


def test_a_line_is_emptied_twenty_seconds_after_it_is_said(page):
    page.evaluate("window.s = Barnga.speaker(document.getElementById('said'))")
    page.evaluate("s.say('Your turn.')")
    assert said(page) == "Your turn."
    page.clock.run_for(19_000)
    assert said(page) == "Your turn."
    # A newer line starts its own 20 s: the first line's emptying does not cut it short.
    page.evaluate("s.say('Ben is playing.')")
    page.clock.run_for(2_000)
    assert said(page) == "Ben is playing."
    page.clock.run_for(18_100)
    assert said(page) == ""


def test_again_empties_first_so_the_same_words_are_heard_twice(page):
    page.evaluate(
        """() => {
             window.s = Barnga.speaker(document.getElementById('said'), { again: true });
             window.changes = [];
             new MutationObserver(() => changes.push(document.getElementById('said').textContent))
               .observe(document.getElementById('said'), { childList: true, characterData: true, subtree: true });
           }"""
    )
    page.evaluate("s.say('Dispute at table 1.')")
    page.clock.run_for(100)
    page.evaluate("s.say('Dispute at table 1.')")
    page.clock.run_for(100)
    assert said(page) == "Dispute at table 1."
    assert page.evaluate("changes") == [
        "Dispute at table 1.",
        "",
        "Dispute at table 1.",
    ]
    page.clock.run_for(20_000)
    assert said(page) == ""


def test_hush_empties_at_once_and_cancels_a_line_on_its_way(page):
    page.evaluate("window.s = Barnga.speaker(document.getElementById('said'), { again: true })")
    page.evaluate("s.say('Round 1 is over.')")
    page.evaluate("s.hush()")
    page.clock.run_for(1_000)
    assert said(page) == ""


def test_a_log_adds_each_line_after_the_last_and_each_leaves_on_its_own(page):
    """The phone's region: a line that comes while the last is being read is added
    after it (read next), not put in its place (cut off)."""
    page.evaluate("window.s = Barnga.speaker(document.getElementById('log'), { log: true })")
    lines = "() => Array.from(document.querySelectorAll('#log > p'), (p) => p.textContent)"
    page.evaluate("s.say('Trick 1 won by Ben.')")
    page.clock.run_for(1_500)
    page.evaluate("s.say('Ben leads.')")
    assert page.evaluate(lines) == ["Trick 1 won by Ben.", "Ben leads."]
    page.clock.run_for(18_600)
    assert page.evaluate(lines) == ["Ben leads."]
    page.clock.run_for(1_500)
    assert page.evaluate(lines) == []
    page.evaluate("s.say('Your turn.'); s.hush()")
    assert page.evaluate(lines) == []
