"""The focus ring is seen wherever the keyboard goes: each stop Tab reaches on a
phone in play, the join form, the facilitator's panel in a round, a table's page and
the report has an outline of at least 2 px whose colour stands out 3:1 from the
background it is drawn on (WCAG's non-text contrast). The outline is drawn outside
the control (offset 2 px), so that background is the nearest ancestor's that is not
transparent. Chromium's own ring ("auto", two-toned) passes as it is.
"""

from __future__ import annotations

import pytest
from phones import first_round, join

from tournament import services
from tournament.models import Round, RoundKind

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
  let behind = [255, 255, 255];
  for (let e = el.parentElement; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || c[3] > 0) { behind = c; break; }
  }
  const cs = getComputedStyle(el);
  const ring = rgba(cs.outlineColor);
  const [hi, lo] = [lum(ring), lum(behind)].sort((a, b) => b - a);
  return {
    what: el.tagName + (el.id ? '#' + el.id : '') + ' ' + (el.textContent || el.value || '').trim().slice(0, 30),
    style: cs.outlineStyle, width: parseFloat(cs.outlineWidth),
    ratio: Math.round((hi + 0.05) / (lo + 0.05) * 100) / 100,
  };
}"""


def faint_rings(page, stops: int = 60) -> tuple[int, list[str]]:
    """Tabs through the page from its top (at most `stops` times): how many stops it
    met, and each whose ring is missing, thin or faint."""
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
    return len(seen), faint


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
    assert stops >= 3 and not faint, (stops, faint)

    ana = phone()
    join(ana, url, w.code, "Ana")
    for other in ["Bea", "Cai", "Dev"]:
        services.player_join(code=w.code, name=other)
    first_round(w.pk)
    ana.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    # The phone's bar is dark: the ring on its buttons is measured against it.
    stops, faint = faint_rings(ana)
    assert stops >= 5 and not faint, (stops, faint)

    for path, least in [
        (f"/workshops/{w.pk}/", 5),
        (f"/workshops/{w.pk}/tables/1/", 5),
        (f"/workshops/{w.pk}/projector/", 1),  # its skip link, on its dark page
    ]:
        page = facilitator_page(user, path, viewport={"width": 1280, "height": 900})
        stops, faint = faint_rings(page)
        assert stops >= least and not faint, (path, stops, faint)

    services.round_end_now(round_id=Round.objects.get(workshop=w, kind=RoundKind.SCORED).pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    page = facilitator_page(
        user, f"/workshops/{w.pk}/report/", viewport={"width": 1280, "height": 900}
    )
    stops, faint = faint_rings(page)
    assert stops >= 5 and not faint, ("report", stops, faint)
