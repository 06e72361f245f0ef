"""A failing browser test's dump of the open pages (conftest.dump_pages) ends even
when a page is stuck in a script loop: that page is written "unreadable", the others
are dumped, and the next test gets a Chromium that works. Before, page.evaluate waited
for the stuck page with no time limit and the failing test never ended. Chromium."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import dump_pages

pytestmark = [pytest.mark.browser]
# A dump that hangs must fail the run, not stall it: pytest-timeout's signal would only
# interrupt the test, whose teardown then dumps the same stuck pages again, with no
# time limit left. Its thread ends the process (a worker that xdist reports as lost).
BOUNDED = pytest.mark.timeout(30, method="thread")
E2E = Path(__file__).resolve().parent
HEALTHY = '<div id="screen" data-version="7" data-phase="play">Healthy table 4</div>'
STUCK = '<div id="screen" data-version="9">Stuck table 2</div>'
# The loop starts after the call that sets it up has had its answer.
SPIN = "() => { setTimeout(() => { while (true) {} }, 0); }"


def healthy_page(browser):
    """A page in a context of its own, as a phone is."""
    page = browser.new_context().new_page()
    page.set_content(HEALTHY)
    return page


def stuck_page(browser):
    """A page in a context of its own, spinning."""
    page = browser.new_context().new_page()
    page.set_content(STUCK)
    page.evaluate(SPIN)
    return page


def open_pages(browser):
    """Two pages in contexts of their own, as two phones are: the second one spinning."""
    return healthy_page(browser), stuck_page(browser)


@BOUNDED
def test_a_page_in_a_script_loop_is_unreadable_and_the_others_are_dumped(browser, tmp_path):
    open_pages(browser)
    dump = tmp_path / "dump.txt"
    start = time.monotonic()
    stuck = dump_pages(browser, dump, page_seconds=2, total_seconds=10)
    assert time.monotonic() - start < 8
    assert stuck == 1
    pages = dump.read_text().split("--- context ")[1:]
    assert len(pages) == 2
    healthy, spinning = pages
    assert "['7', None, 'play', 'Healthy table 4']" in healthy
    assert "unreadable: no answer in 2.0 s" in spinning
    assert "Stuck table 2" not in spinning


@BOUNDED
def test_the_dump_as_a_whole_is_bounded(browser, tmp_path):
    # A healthy page, two stuck ones, then three healthy ones: what is left of the
    # dump's time after the first stuck page's 2 s goes to a page that never answers,
    # however little it is. (A healthy page given it, with three pages spinning on two
    # busy cores, was unread with 0.3 to 0.6 s left: 5 runs in 6 here.) The pages
    # after them are not asked, healthy as they are.
    healthy_page(browser)
    stuck_page(browser)
    stuck_page(browser)
    for _ in range(3):
        healthy_page(browser)
    dump = tmp_path / "dump.txt"
    start = time.monotonic()
    # Under 4 s (two pages' 2 s), so that the second stuck page has less than its 2 s,
    # and 1.9 s for reading the first page and the first stuck page's wait to end.
    assert dump_pages(browser, dump, page_seconds=2, total_seconds=3.9) == 5
    assert time.monotonic() - start < 8
    text = dump.read_text()
    # The first stuck page had its 2 s and the second what was left of the 3.9; the
    # healthy page before the time ran out was read, and the rest were not asked.
    assert text.count("Healthy table 4") == 1
    assert text.count("no answer in 2.0 s") == 1 and text.count("no answer in ") == 2
    assert text.count("not asked, the dump's 3.9 s were spent") == 3


INNER_CONFTEST = """
import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location("barnga_e2e_conftest", {conftest!r})
e2e = importlib.util.module_from_spec(spec)
spec.loader.exec_module(e2e)
e2e.ARTIFACTS = Path({artifacts!r})
_playwright_session = e2e._playwright_session
browser = e2e.browser
pytest_runtest_makereport = e2e.pytest_runtest_makereport
"""
INNER_TESTS = """
def test_fails_with_a_page_stuck(browser):
    healthy = browser.new_context().new_page()
    healthy.set_content({healthy!r})
    stuck = browser.new_context().new_page()
    stuck.set_content({stuck!r})
    stuck.evaluate({spin!r})
    assert False, "failed on purpose"


def test_after_it_the_browser_works(browser):
    page = browser.new_context().new_page()
    page.set_content("<p>Next test</p>")
    assert page.inner_text("p") == "Next test"
"""


@pytest.mark.timeout(120)
def test_a_failing_test_with_a_stuck_page_ends_and_the_next_one_has_a_browser(tmp_path):
    """The browser fixture's own path, in a pytest run of its own: the failing test's
    dump ends, and the test after it (same worker, same Playwright) works."""
    artifacts = tmp_path / "artifacts"
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(
        INNER_CONFTEST.format(conftest=str(E2E / "conftest.py"), artifacts=str(artifacts))
    )
    (tmp_path / "test_inner.py").write_text(
        textwrap.dedent(INNER_TESTS).format(healthy=HEALTHY, stuck=STUCK, spin=SPIN)
    )
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:django"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its Playwright driver and Chromium go with it below
    )
    try:
        out, _ = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        out, _ = run.communicate()
        pytest.fail(f"the run with a stuck page did not end in 60 s:\n{out[-3000:]}")
    assert "1 failed, 1 passed" in out, out[-3000:]
    text = (artifacts / "failed-test_fails_with_a_page_stuck.txt").read_text()
    assert "Healthy table 4" in text
    assert "unreadable: no answer in 3.0 s" in text


@BOUNDED
def test_a_page_without_a_screen_is_dumped_by_its_text_and_what_came_and_went(browser, tmp_path):
    """A panel test's failure dumped "None" (the panel has no #screen): the page's
    text and its spoken log are written; on a phone, the toast and the connection line,
    hidden or not, and the logs a test keeps in the page."""
    panel = browser.new_context().new_page()
    panel.set_content(
        "<main><h1>Round 1</h1><p>Disputes at 2 tables</p></main>"
        '<div id="fac-announce"><p>Dispute at table 1.</p><p>Dispute at table 2.</p></div>'
    )
    phone = browser.new_context().new_page()
    phone.set_content(
        HEALTHY + '<p id="toast" hidden>The connection dropped.</p><p id="connection"></p>'
    )
    phone.evaluate("() => { window.__toasts = ['The connection dropped.']; }")
    dump = tmp_path / "dump.txt"
    assert dump_pages(browser, dump, page_seconds=2, total_seconds=10) == 0
    first, second = dump.read_text().split("--- context ")[1:]
    assert "None\npage: 'Round 1\\n\\nDisputes at 2 tables" in first
    assert "said: ['Dispute at table 1.', 'Dispute at table 2.']" in first
    assert "['7', None, 'play', 'Healthy table 4']" in second
    assert "toast: '(hidden) The connection dropped.'" in second
    assert "connection: ''" in second
    assert "toasts: ['The connection dropped.']" in second
    panel.context.close()
    phone.context.close()
