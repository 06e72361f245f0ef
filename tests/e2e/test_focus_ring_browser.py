"""The focus ring is seen wherever the keyboard goes: each stop Tab reaches on a
phone in play, the join form, the facilitator's panel in a round, a table's page and
the report has an outline of at least 2 px whose colour stands out 3:1 from the
background it is drawn on (WCAG's non-text contrast). The outline is drawn outside
the control (offset 2 px), so that background is the nearest ancestor's that is not
transparent. Chromium's own ring ("auto", two-toned) passes as it is.
"""

from __future__ import annotations

import pytest
from phones import first_round, join, play_until

from tournament import services
from tournament.models import Game, GameState, Round, RoundKind

pytestmark = [pytest.mark.browser]
WAIT = 8000

# The focused element's outline and the colour behind it, and their contrast ratio.
RING = """() => {
  const rgba = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const el = document.activeElement;
  // The ancestors' backgrounds down to the first opaque one, blended (3 Tricks' trick
  // boxes are a translucent white over the green).
  const layers = [];
  for (let e = el.parentElement; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    const a = c.length === 3 ? 1 : c[3];
    if (a > 0) layers.push([c[0], c[1], c[2], a]);
    if (a === 1) break;
  }
  let behind = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) {
    behind = [r * a + behind[0] * (1 - a), g * a + behind[1] * (1 - a), b * a + behind[2] * (1 - a)];
  }
  const cs = getComputedStyle(el);
  const ring = rgba(cs.outlineColor);
  const [hi, lo] = [lum(ring), lum(behind)].sort((a, b) => b - a);
  return {
    what: el.tagName + (el.id ? '#' + el.id : '') + (el.closest('.trick') ? '[on the table]' : '')
      + ' ' + (el.textContent || el.value || '').trim().slice(0, 30),
    style: cs.outlineStyle, width: parseFloat(cs.outlineWidth),
    ratio: Math.round((hi + 0.05) / (lo + 0.05) * 100) / 100,
  };
}"""


def faint_rings(page, stops: int = 60) -> tuple[list[str], list[str]]:
    """Tabs through the page from its top (at most `stops` times): the stops it met,
    and each whose ring is missing, thin or faint."""
    page.evaluate(
        "() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }"
    )
    seen, faint = [], []
    for _ in range(stops):
        page.keyboard.press("Tab")
        ring = page.evaluate(RING)
        if ring["what"].startswith("BODY") or ring["what"] in seen[:1]:
            break  # back at the top
        seen.append(ring["what"])
        if ring["style"] == "auto":
            continue
        if ring["style"] == "none" or ring["width"] < 2 or ring["ratio"] < 3:
            faint.append(str(ring))
    return seen, faint


def test_every_tab_stop_shows_a_ring_that_stands_out(
    live_server_url, browser, phone, facilitator_page, django_user_model
):
    url = live_server_url
    user = django_user_model.objects.create_user("fac", password="x")
    w = services.workshop_create(
        name="Rings", facilitator=user, table_count=1, seats_per_table=4, seed=3
    )
    guest = browser.new_context().new_page()
    guest.goto(f"{url}/j/{w.code}")
    stops, faint = faint_rings(guest)
    assert len(stops) >= 3 and not faint, (stops, faint)

    ana = phone()
    join(ana, url, w.code, "Ana")
    for other in ["Bea", "Cai", "Dev"]:
        services.player_join(code=w.code, name=other)
    first_round(w.pk)
    ana.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    # The phone's bar is dark: the ring on its buttons is measured against it.
    stops, faint = faint_rings(ana)
    assert len(stops) >= 5 and not faint, (stops, faint)
    # At the claim step the cards played are buttons on the green table.
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    play_until(game, lambda state: state.phase == "claim")
    ana.wait_for_selector("#screen .trick button.card", timeout=WAIT)
    stops, faint = faint_rings(ana)
    assert [w for w in stops if "[on the table]" in w] and not faint, (stops, faint)
    # A claimed card with focus keeps its amber ring around the white one.
    ana.locator("#screen .trick button.card").first.click()
    ana.wait_for_selector("#screen .trick button.card.claimed-by-me", timeout=WAIT)
    ana.keyboard.press("Tab")
    ana.keyboard.press("Shift+Tab")
    look = ana.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.classList.contains('claimed-by-me'), s.outlineColor, s.boxShadow]; }"
    )
    assert look[0] and look[1] == "rgb(255, 255, 255)" and "rgb(255, 176, 0)" in look[2], look

    for path, least in [
        (f"/workshops/{w.pk}/", 5),
        (f"/workshops/{w.pk}/tables/1/", 5),
        (f"/workshops/{w.pk}/projector/", 1),  # its skip link, on its dark page
    ]:
        page = facilitator_page(user, path, viewport={"width": 1280, "height": 900})
        stops, faint = faint_rings(page)
        assert len(stops) >= least and not faint, (path, stops, faint)

    services.round_end_now(round_id=Round.objects.get(workshop=w, kind=RoundKind.SCORED).pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    page = facilitator_page(
        user, f"/workshops/{w.pk}/report/", viewport={"width": 1280, "height": 900}
    )
    stops, faint = faint_rings(page)
    assert len(stops) >= 5 and not faint, ("report", stops, faint)
