"""The drawing pad's longest stroke: the pad keeps up to 2,000 points a stroke, as
the server does, and such a stroke reaches the table. Its points went at full
precision ("0.123456789…"), and from about 1,600 points the message passed the
socket's 64 kB limit: refused as too large, on nobody's pad but the drawer's."""

from __future__ import annotations

import time

import pytest
from phones import first_round, join

from tournament import services
from tournament.models import Gesture
from tournament.services.play import DRAWING_MAX_POINTS

pytestmark = [pytest.mark.browser]
WAIT = 8000

PAD_DRAWN = """() => { const c = document.getElementById("pad");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < d.length; i += 4) if (d[i]) return true; return false; }"""


def stored_stroke(name: str, timeout: float = 8.0) -> list:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        g = Gesture.objects.filter(kind="drawing", player__name=name).first()
        if g is not None:
            return g.payload["points"]
        time.sleep(0.1)
    raise AssertionError(f"no stroke of {name} was stored")


def two_at_a_round(live_server_url, phone, name: str):
    """Ana's and Bea's phones at a table of two, the first scored round dealt."""
    w = services.workshop_create(name=name, table_count=1, seats_per_table=2, seed=3)
    ana, bea = phone(), phone()
    join(ana, live_server_url, w.code, "Ana")
    join(bea, live_server_url, w.code, "Bea")
    first_round(w.pk)
    for page in (ana, bea):
        page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    return ana, bea


def two_at_home(live_server_url, phone, name: str):
    """The workshop, and Ana's and Bea's phones at a table of two in silent play."""
    w = services.workshop_create(name=name, table_count=1, seats_per_table=2, seed=3)
    ana, bea = phone(), phone()
    join(ana, live_server_url, w.code, "Ana")
    join(bea, live_server_url, w.code, "Bea")
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    for page in (ana, bea):
        page.wait_for_selector("#screen[data-phase=home] .hand .card", timeout=WAIT)
    return w, ana, bea


def test_the_longest_stroke_the_pad_keeps_reaches_the_table(live_server_url, phone):
    ana, bea = two_at_a_round(live_server_url, phone, "Long stroke")
    errors = []
    ana.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    ana.click(".pad-wrap summary")
    ana.locator("#pad").scroll_into_view_if_needed()
    box = ana.locator("#pad").bounding_box()
    ana.mouse.move(box["x"] + 3, box["y"] + 3)
    ana.mouse.down()
    # More moves than the pad keeps, each to a point between pixels. (One by one
    # through the mouse this took 40 s; the page's own pointermove events go to the
    # same handler, between a real press and a real release.)
    ana.evaluate(
        """([x0, y0, w, h]) => {
          const pad = document.getElementById("pad");
          for (let i = 0; i < 2100; i++) {
            const f = i / 2100;
            pad.dispatchEvent(new PointerEvent("pointermove", {
              bubbles: true, pointerId: 1, pointerType: "mouse",
              clientX: x0 + 3 + f * (w - 6.3), clientY: y0 + 3 + f * (h - 6.7) }));
          }
        }""",
        [box["x"], box["y"], box["width"], box["height"]],
    )
    ana.mouse.up()

    points = stored_stroke("Ana")
    assert len(points) == DRAWING_MAX_POINTS
    bea.click(".pad-wrap summary")
    bea.wait_for_function(PAD_DRAWN, timeout=WAIT)
    assert ana.locator(".error, [role=alert]:not(:empty)").count() == 0, ana.content()[:500]
    assert errors == []


PAD_BLANK = "() => !(" + PAD_DRAWN + ")()"


def draw_a_line(page) -> None:
    page.locator("#pad").scroll_into_view_if_needed()
    box = page.locator("#pad").bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    for i in range(1, 8):
        page.mouse.move(box["x"] + 10 + i * 12, box["y"] + 10 + i * 6)
    page.mouse.up()


def test_a_new_round_starts_with_a_clean_pad(live_server_url, phone):
    """A line drawn in silent play at home is gone from both phones' pads when the
    first scored round starts (they stay at their table: no reload, no new socket),
    and the pad then works as before."""
    w, ana, bea = two_at_home(live_server_url, phone, "Clean pad")
    for page in (ana, bea):
        page.click(".pad-wrap summary")
    draw_a_line(ana)
    bea.wait_for_function(PAD_DRAWN, timeout=WAIT)

    services.round_start(workshop_id=w.pk)
    for page in (ana, bea):
        page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
        page.wait_for_function(PAD_BLANK, timeout=WAIT)
    assert Gesture.objects.filter(kind="drawing").count() == 1  # kept for the record

    draw_a_line(bea)
    ana.wait_for_function(PAD_DRAWN, timeout=WAIT)
    assert Gesture.objects.filter(kind="drawing").count() == 2


def reactions_heard(page) -> list[str]:
    """What the reactions' log has said to a screen reader ("Ana: drew on the pad")
    since watch_reactions, each reaction once (one leaves the screen after 4 s)."""
    return page.evaluate("() => window.__heard")


def reactions_seen(page) -> list[str]:
    """What each of those reactions showed ("✏️ Ana"), kept as it came: on a busy
    machine the chip could be gone by the time the test read it."""
    return page.evaluate("() => window.__seen")


def wait_heard(page, count: int) -> None:
    page.wait_for_function("n => window.__heard.length >= n", arg=count, timeout=WAIT)


def watch_reactions(page) -> None:
    page.evaluate(
        """() => { window.__heard = []; window.__seen = [];
          new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => {
            window.__heard.push(n.querySelector('.visually-hidden').textContent);
            window.__seen.push(n.querySelector('[aria-hidden=true]').textContent);
          }))).observe(document.querySelector('.reactions'), { childList: true }); }"""
    )


def test_a_drawing_or_a_clear_is_said_to_the_table(live_server_url, phone):
    """A stroke came in silence: on a phone whose pad was closed (as most are) nothing
    said that a tablemate had drawn. It is now a reaction ("✏️ Ana"; heard "Ana: drew
    on the pad"), once while shown however many strokes, and the closed pad's switch
    says "new drawing" until opened; a clear is a reaction too. The drawer's own
    phone says neither."""
    ana, bea = two_at_a_round(live_server_url, phone, "Pad news")
    assert bea.locator(".pad-wrap .pad-new").is_hidden()
    for page in (ana, bea):
        watch_reactions(page)

    ana.click(".pad-wrap summary")
    draw_a_line(ana)
    draw_a_line(ana)
    wait_heard(bea, 1)
    bea.wait_for_function(PAD_DRAWN, timeout=WAIT)  # drawn on the closed pad, as before
    assert stored_count("drawing", 2)
    assert reactions_heard(bea) == ["Ana: drew on the pad"]  # one for both strokes
    assert reactions_seen(bea) == ["✏️ Ana"]
    assert bea.locator(".pad-wrap .pad-new").is_visible()
    assert bea.locator(".pad-wrap summary").inner_text() == "✏️ Drawing pad · new drawing"
    bea.click(".pad-wrap summary")
    # Opened, the mark goes (the details' toggle event comes a moment after the click).
    bea.wait_for_selector(".pad-wrap .pad-new", state="hidden", timeout=WAIT)
    assert reactions_heard(ana) == []

    ana.click("#pad-clear")
    bea.wait_for_function(PAD_BLANK, timeout=WAIT)
    wait_heard(bea, 2)
    assert reactions_heard(bea) == ["Ana: drew on the pad", "Ana: cleared the pad"]
    assert reactions_heard(ana) == []
    # An open pad is not marked new: the drawing is in view.
    draw_a_line(ana)
    bea.wait_for_function(PAD_DRAWN, timeout=WAIT)
    assert bea.locator(".pad-wrap .pad-new").is_hidden()


def stored_count(kind: str, n: int, timeout: float = 8.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if Gesture.objects.filter(kind=kind).count() >= n:
            return True
        time.sleep(0.1)
    return False


def test_a_new_round_wipes_the_closed_pads_new_drawing_mark(live_server_url, phone):
    """A new phase wipes the pad; its switch said "· new drawing" still, over a blank
    pad: for a screen reader the only hint of a drawing, and a false one."""
    w, ana, bea = two_at_home(live_server_url, phone, "Pad mark")
    ana.click(".pad-wrap summary")
    draw_a_line(ana)
    bea.wait_for_selector(".pad-wrap .pad-new", state="visible", timeout=WAIT)

    services.round_start(workshop_id=w.pk)
    bea.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    bea.wait_for_function(PAD_BLANK, timeout=WAIT)
    bea.wait_for_selector(".pad-wrap .pad-new", state="hidden", timeout=WAIT)
    assert bea.locator(".pad-wrap summary").inner_text() == "✏️ Drawing pad"


def test_a_players_own_gesture_is_heard_as_theirs(live_server_url, phone):
    """The phone calls its player "you" everywhere; their own gesture came back as
    "Ana: Stop", as if someone called Ana had made it."""
    ana, bea = two_at_a_round(live_server_url, phone, "Own gesture")
    for page in (ana, bea):
        watch_reactions(page)
    ana.get_by_role("button", name="Stop", exact=True).click()
    for page in (ana, bea):
        wait_heard(page, 1)
    assert reactions_heard(ana) == ["You: Stop"]
    assert reactions_heard(bea) == ["Ana: Stop"]
    # Seen, it is the player's name, as the others see it.
    assert reactions_seen(ana) == ["✋ Ana"]


PEN = (
    "() => { const r = document.querySelector('.pad-pen'); const s = getComputedStyle(r);"
    " return { shown: s.display !== 'none', down: r.classList.contains('down'),"
    " left: r.style.left, top: r.style.top }; }"
)


def test_a_keyboard_draws_on_the_pad(live_server_url, phone):
    """The pad took a finger or a mouse only: a student who uses a keyboard could make
    every gesture but draw nothing. Tabbed to, it shows a pen: the arrow keys move it
    (with Shift five times as far), Space puts it down and lifts it, and the lifted
    line reaches the table as a finger's does. Leaving the pad lifts a line still
    down, and sends it."""
    ana, bea = two_at_a_round(live_server_url, phone, "Keyboard pad")
    ana.click(".pad-wrap summary")
    assert ana.evaluate(PEN)["shown"] is False  # no pen until the keyboard reaches the pad
    ana.keyboard.press("Tab")
    assert ana.evaluate("() => document.activeElement.id") == "pad"
    assert ana.evaluate(PEN) == {"shown": True, "down": False, "left": "50%", "top": "50%"}

    said = "() => Array.from(document.querySelectorAll('#announce > p'), (p) => p.textContent)"
    ana.keyboard.press("Space")
    assert ana.evaluate(PEN)["down"] is True
    # Said as well, the ring being for the eye.
    assert ana.evaluate(said)[-1] == "Pen down: the arrow keys draw."
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "Shift+ArrowDown"):
        ana.keyboard.press(key)
    ana.keyboard.press("Space")
    assert ana.evaluate(said)[-1] == "Pen lifted: the line is on your table's pads."
    assert ana.evaluate(PEN) == {"shown": True, "down": False, "left": "55%", "top": "62.5%"}
    assert stored_stroke("Ana") == [
        [0.5, 0.5],
        [0.525, 0.5],
        [0.55, 0.5],
        [0.55, 0.525],
        [0.55, 0.625],
    ]
    bea.click(".pad-wrap summary")
    bea.wait_for_function(PAD_DRAWN, timeout=WAIT)
    assert ana.evaluate("() => document.activeElement.id") == "pad"  # still drawing from here

    # A line still down when the pad loses focus is sent, not dropped.
    ana.keyboard.press("Space")
    ana.keyboard.press("ArrowUp")
    ana.keyboard.press("Tab")
    assert stored_count("drawing", 2)
    last = Gesture.objects.filter(kind="drawing").order_by("-id").first()
    assert last.payload["points"] == [[0.55, 0.625], [0.55, 0.6]]
    assert ana.evaluate(PEN)["shown"] is False

    # A line as long as a line may be (2,000 points) goes, and the next begins where
    # it ended: the pen went on looking down, drawing nothing and sending nothing.
    ana.locator("#pad").focus()
    ana.keyboard.press("Space")
    ana.evaluate(
        """() => { const pad = document.getElementById("pad");
          for (let i = 0; i < 2000; i++) pad.dispatchEvent(new KeyboardEvent("keydown",
            { key: i % 2 ? "ArrowLeft" : "ArrowRight", bubbles: true })); }"""
    )
    ana.keyboard.press("Space")
    assert stored_count("drawing", 4)
    long, rest = Gesture.objects.filter(kind="drawing").order_by("id")[2:4]
    assert (len(long.payload["points"]), len(rest.payload["points"])) == (DRAWING_MAX_POINTS, 2)
    assert rest.payload["points"][0] == long.payload["points"][-1]

    # The pen at an edge says so: from 0.6 down, six tenths up reach the top; a
    # seventh goes nowhere.
    for _ in range(7):
        ana.keyboard.press("Shift+ArrowUp")
    assert ana.evaluate(PEN)["top"] == "0%"
    assert [line for line in ana.evaluate(said) if line.startswith("Edge")] == ["Edge of the pad."]
