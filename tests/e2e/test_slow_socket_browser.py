"""A phone whose socket is slow to open (a page just drawn on a slow network, a phone
woken): the screen drawn by the server can be tapped at once. A move tapped then said
"Offline — reconnecting…" and was lost (and "Connected again." followed, though
nothing had been lost); it is marked as on its way and goes once the socket opens.
Chromium, Five Tricks at a table of four with one phone; the socket's opening is
held back in the page (a helper's slow-network review found it at 300 ms and 1 s)."""

from __future__ import annotations

import pytest
from phones import one_phone_at_a_round, wait_version
from test_double_tap_browser import play_and_claim_until

from tournament.models import Action, Player, Table

pytestmark = [pytest.mark.browser]
WAIT = 8000

# window.WebSocket opens `ms` after the real one (what the server sends meanwhile
# waits too); what the page sends is kept in window.__sent, and each text the
# connection line shows in window.__lines.
LATE_OPEN = """(() => {
  const Real = window.WebSocket;
  window.__sent = []; window.__lines = [];
  class Late {
    constructor(url) {
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      this._open = false; this._early = [];
      const ws = this._ws = new Real(url);
      ws.onopen = (e) => setTimeout(() => {
        if (ws.readyState !== Real.OPEN) return;
        this._open = true;
        if (this.onopen) this.onopen(e);
        for (const m of this._early.splice(0)) if (this.onmessage) this.onmessage(m);
      }, %d);
      ws.onmessage = (e) => {
        if (this._open) { if (this.onmessage) this.onmessage(e); } else this._early.push(e);
      };
      ws.onclose = (e) => { this._open = false; if (this.onclose) this.onclose(e); };
    }
    get readyState() {
      return this._open ? 1 : this._ws.readyState === Real.OPEN ? 0 : this._ws.readyState;
    }
    send(data) {
      if (!this._open) throw new DOMException("still connecting", "InvalidStateError");
      window.__sent.push(JSON.parse(data));
      this._ws.send(data);
    }
    close() { this._ws.close(); }
  }
  Object.assign(Late, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Late;
  document.addEventListener("DOMContentLoaded", () => {
    const el = document.getElementById("connection");
    new MutationObserver(() => window.__lines.push(el.hidden ? "" : el.textContent))
      .observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
  });
})();"""


def test_a_move_tapped_while_the_socket_opens_goes_once_it_is_open(live_server_url, browser):
    page, w, _ = one_phone_at_a_round(
        browser, live_server_url, name="Late open", seats=4, size={"width": 390, "height": 844}
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    play_and_claim_until(w, ana, lambda state, seat: state.to_act == seat)
    wait_version(page, Table.objects.get(workshop=w).version)
    played = Action.objects.filter(actor_id=ana).count()

    page.add_init_script(script=LATE_OPEN % 2000)
    page.reload()  # drawn by the server, its socket opening for 2 s
    card = page.locator("#screen .hand .card.legal").first
    name = card.get_attribute("data-card")
    card.click()
    assert page.evaluate("() => window.__sent.length") == 0  # not open yet...
    page.wait_for_selector(f'#screen .hand .card.sending[data-card="{name}"]', timeout=WAIT)
    # ...and played once it is (the card leaves the hand for the table).
    page.wait_for_selector(
        f'#screen .hand .card[data-card="{name}"]', state="detached", timeout=WAIT
    )
    assert Action.objects.filter(actor_id=ana).count() == played + 1
    plays = [m for m in page.evaluate("() => window.__sent") if m.get("action") == "play"]
    assert [m["card"] for m in plays] == [name]
    assert page.locator("#toast").is_hidden(), page.locator("#toast").text_content()
    # Nothing was offline, and nothing came back.
    assert not any(page.evaluate("() => window.__lines")), page.evaluate("() => window.__lines")
    assert page.locator("#screen .sending").count() == 0
    page.context.close()
