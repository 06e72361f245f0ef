"""What the browser tests of the countdowns do with a page's clocks: set the device's
clock off (from the start, or while the page runs), slow its socket, and wait until a
countdown counts to the server's deadline. The phone's tests
(test_clock_deadline_browser) and the facilitator's pages' (test_clock_facilitator_browser)
share them."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

WAIT = 8000
# How far a clock's end may be from the server's deadline: the pings' round trips on
# this machine are a few ms, and a delay the same both ways measures true.
WITHIN_MS = 300

# The device's clock `SHIFT` ms off (every `Date`, and `Date.now()`); the true time
# stays readable as window.__trueNow() (what the server's clock says: same machine).
SHIFTED = """(() => {
  const SHIFT = %d;
  const Real = Date;
  const trueNow = Real.now.bind(Real);
  class Shifted extends Real {
    constructor(...args) { if (args.length) super(...args); else super(trueNow() + SHIFT); }
    static now() { return trueNow() + SHIFT; }
  }
  window.Date = Shifted;
  window.__trueNow = trueNow;
})();"""

# The device's clock, movable while the page runs: `window.__shift` ms are added to
# every `Date` (0 at first), as a phone's clock set by the network or a laptop's NTP
# step moves it; and the socket's messages each way `window.__lag` ms late (0 at
# first). The true time stays readable as window.__trueNow(); the pings that ask the
# time are counted in window.__asks, their answers (as the page gets them) in
# window.__answers. A step made by set_clock is kept in window.__step: whether the
# first time-ask sent after it went before a timer of the page's own (PROMPT_MS) fired,
# and how far the watched clock counted from its deadline after each answer since.
MOVABLE = """(() => {
  const Real = Date;
  const trueNow = Real.now.bind(Real);
  window.__shift = 0;
  class Shifted extends Real {
    constructor(...args) { if (args.length) super(...args); else super(trueNow() + window.__shift); }
    static now() { return trueNow() + window.__shift; }
  }
  window.Date = Shifted;
  window.__trueNow = trueNow;
  window.__lag = 0;
  window.__asks = window.__answers = 0;
  const RealSocket = window.WebSocket;
  window.WebSocket = class extends RealSocket {
    set onmessage(handler) {
      super.onmessage = (e) => setTimeout(() => {
        const answer = JSON.parse(e.data).now !== undefined;
        if (answer) window.__answers++;
        handler(e);
        const step = window.__step;
        if (answer && step) step.offs.push([window.__answers, step.off()]);
      }, window.__lag);
    }
    send(data) {
      if (JSON.parse(data).clock === 1) {
        window.__asks++;
        const step = window.__step;
        if (step && step.asked === undefined) step.asked = [step.late, window.__answers + 1];
      }
      if (!window.__lag) return super.send(data);
      setTimeout(() => { if (this.readyState === RealSocket.OPEN) super.send(data); }, window.__lag);
    }
  };
})();"""

# How far (ms) a clock's end, on the true clock, is from `deadline`.
OFF_BY = """([sel, shift, deadline]) => {
  const el = document.querySelector(sel);
  return el && el.dataset.end ? Number(el.dataset.end) - shift - deadline : null;
}"""
CLOSE = """([sel, shift, deadline, within]) => {
  const el = document.querySelector(sel);
  return el && el.dataset.end && Math.abs(Number(el.dataset.end) - shift - deadline) < within;
}"""


# A step of the device's clock (MOVABLE) is to be noticed within live.js's WATCH_MS
# (500 ms) and the time asked at once; a timer of PROMPT_MS set with the step, on the
# page's own timers, is a bound that a busy machine delays as much as the page's. The
# pings go every 10 s: one that merely came next is later than that 9 times in 10.
PROMPT_MS = 1500
STEP = """([shift, sel, deadline, prompt]) => {
  const step = { offs: [], late: false };
  step.off = () => {
    const el = document.querySelector(sel);
    return el && el.dataset.end ? Number(el.dataset.end) - shift - deadline : null;
  };
  window.__step = step;
  window.__shift = shift;
  setTimeout(() => { step.late = true; }, prompt);
}"""


def set_clock(page, shift: int, sel: str, deadline: int, prompt: int = PROMPT_MS) -> None:
    """The device's clock (MOVABLE) set to `shift` ms off, from now on watched: which
    time-ask came first after it, and how far the clock at `sel` counts from `deadline`
    after each answer."""
    page.evaluate(STEP, [shift, sel, deadline, prompt])


def taken_at_once(page) -> None:
    """The page asked the time again before set_clock's timer fired (not at a later
    ping), and the clock counted to the deadline once that ask was answered (waited for
    up to WAIT: the page's answers come when the machine lets them)."""
    page.wait_for_function(
        "() => { const s = window.__step; return s.asked &&"
        " s.offs.some(([n]) => n >= s.asked[1]); }",
        timeout=WAIT,
    )
    step = page.evaluate("() => ({ asked: window.__step.asked, offs: window.__step.offs })")
    late, answer = step["asked"]
    assert not late, f"the time was asked again only after {PROMPT_MS} ms: {step}"
    off = next(off for n, off in step["offs"] if n == answer)
    assert off is not None and abs(off) < WITHIN_MS, f"off by {off} ms once answered: {step}"


def ms(moment) -> int:
    return round(moment.timestamp() * 1000)


def ends_near(page, sel: str, shift: int, deadline: int, timeout=WAIT) -> None:
    """Until the clock at `sel` counts to within WITHIN_MS of `deadline` (once the
    offset is measured), else a failure saying how far off it counts."""
    try:
        page.wait_for_function(CLOSE, arg=[sel, shift, deadline, WITHIN_MS], timeout=timeout)
    except PlaywrightTimeout:
        off = page.evaluate(OFF_BY, [sel, shift, deadline])
        pytest.fail(f"{sel} ends {off} ms from the server's deadline")
