// The facilitator's pages: keep server-rendered regions live over one websocket,
// count clocks down between pushes, and shape the set-up wizard.
// Controls are ordinary forms that htmx posts; the socket only ever replaces
// whole regions by id (with it live, a control's answer is only its message). A
// region the facilitator is editing (focus in a field, or a form changed but not
// sent), pressing (a pointer down in it) or sending a form from is left alone until
// they are done with it; a button or link with focus has it again after a swap.
(function () {
  "use strict";

  const { startClocks, liveSocket, scrollers } = window.Barnga;

  // ---- forms rendered by the socket have no CSRF input: add the page's token
  function csrf() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }
  function fixForms(root) {
    const token = csrf();
    root.querySelectorAll('form[method="post"]').forEach((form) => {
      let input = form.querySelector('input[name="csrfmiddlewaretoken"]');
      if (!input) {
        input = document.createElement("input");
        input.type = "hidden";
        input.name = "csrfmiddlewaretoken";
        form.prepend(input);
      }
      if (!input.value) input.value = token;
    });
  }

  // ---- a player's tools (rename, remove, PIN): drawn when their box opens
  // From the roster's one <template data-tools> (_roster.html), made this row's with
  // what its box carries (data-player, data-name, data-bot, data-short). 200 rows'
  // forms in the page froze the panel for 1 to 2.4 s at each push of the list
  // (Chromium's autofill lays the page out again for each form with a text field);
  // a copy of the forms in each row's own <template> was 292 kB of each push.
  // The name is user input: it goes in as text and attribute values, never as markup.
  function fillTools(box) {
    const who = box.dataset.player;
    if (!who || box.querySelector(":scope > form")) return;
    const region = box.closest("#fac-roster");
    const tpl = region && region.querySelector("template[data-tools]");
    if (!tpl) return;
    const tools = tpl.content.cloneNode(true);
    const name = box.dataset.name || "";
    const bot = box.hasAttribute("data-bot");
    if (bot) tools.querySelectorAll("[data-person]").forEach((el) => el.remove());
    tools.querySelectorAll("[data-person]").forEach((el) => el.removeAttribute("data-person"));
    tools.querySelectorAll("[id]").forEach((el) => { el.id += who; });
    tools.querySelectorAll("label[for]").forEach((el) => { el.htmlFor += who; });
    tools.querySelectorAll('input[name="player"]').forEach((el) => { el.defaultValue = who; });
    tools.querySelectorAll('input[name="name"]').forEach((el) => { el.defaultValue = name; });
    tools.querySelectorAll("bdi").forEach((el) => { el.textContent = name; });
    tools.querySelectorAll("form[data-confirm]").forEach((form) => {
      const { confirm, then, thenBot } = form.dataset;
      // (Split on the template's own words: a name holding "{name}" stays as typed.)
      const ask = confirm.split("{name}").join(name) + ((bot ? thenBot : then) || "") + (box.dataset.short || "");
      form.setAttribute("hx-confirm", ask);
      ["data-confirm", "data-then", "data-then-bot"].forEach((a) => form.removeAttribute(a));
    });
    box.append(tools);
    // A box in a region not yet put in is set up with that region (swapRegion).
    if (!box.isConnected) return;
    fixForms(box);
    if (window.htmx) window.htmx.process(box);
  }
  // Before the box opens (a click, or Enter or Space on its summary), so its first
  // control is there for the Tab that follows; and a box opened otherwise.
  document.addEventListener("click", (e) => {
    const summary = e.target.closest && e.target.closest("summary");
    if (summary && summary.parentElement.tagName === "DETAILS") fillTools(summary.parentElement);
  }, true);
  document.addEventListener("toggle", (e) => { if (e.target.open) fillTools(e.target); }, true);

  // ---- edits in progress
  // A player's table: chosen from a list, or typed as a number (past 12 tables).
  // (A list of selectors joined by ", ": swapRegion adds a [form=…] to each.)
  const PICKS = 'select, input[type="number"]';
  const dirty = new WeakSet();
  document.addEventListener("input", (e) => { if (e.target.form && !e.target.dataset.find) dirty.add(e.target.form); });
  document.addEventListener("change", (e) => { if (e.target.form) dirty.add(e.target.form); });
  // A press in progress: a region replaced between pointerdown and click would
  // take the button with it, and the click would be lost.
  let pressed = null;
  document.addEventListener("pointerdown", (e) => { pressed = e.target; }, true);
  function released() {
    setTimeout(() => { pressed = null; if (pending.size) flushPending(); }, 0);
  }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  // A double click is one press: the browser counts its clicks (detail), and the
  // second landed on what the socket had just drawn in the place of the first
  // (Resume, then Pause in its place: the round paused again) or sent the same
  // control again ("+1 minute" added two). As the phones drop a double tap's second.
  document.addEventListener("click", (e) => {
    if (e.detail > 1 && e.target.closest && e.target.closest('form button[type="submit"], form button:not([type])')) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);
  // A form whose request is on its way: its region stays until the answer (which
  // finds its message by the form's place in the page, and may refuse the edit).
  const inFlight = new Map(); // form → its requests on their way
  function busy(region) {
    if (pressed && region.contains(pressed)) return true;
    for (const form of inFlight.keys()) if (region.contains(form)) return true;
    const active = document.activeElement;
    // (A box that only changes what is shown, data-view, holds nothing back: the
    // monitor's "Show only tables in dispute" with focus would have frozen every card.)
    if (active && active !== document.body && region.contains(active) &&
        active.matches("input, select, textarea") && !active.matches("[data-view]")) return true;
    // A form typed in and then folded away (a rename box closed unsent) holds nothing
    // back: else the roster stopped showing joins until some control was pressed.
    // Nor does a form with an id (the seating, the movement plan): its choices go
    // over into the new region (carryEdits), or go with it once it is gone.
    const open = (el) => !el.closest("details:not([open])");
    for (const form of region.querySelectorAll("form")) {
      if (dirty.has(form) && !form.id && open(form)) return true;
    }
    return false;
  }
  // The unsent choices of a region's forms with an id, put into the same form of the
  // region replacing it (the seating selects, form="seat-form", and the movement
  // plan's): a new player's row comes in, and nothing chosen is lost. A form the new
  // region no longer has (the study started: no more seating) takes its edit with it.
  // Returns the ids of the forms carried over, still edits in progress.
  function carryEdits(current, next) {
    const carried = [];
    for (const form of document.forms) {
      if (!form.id || !dirty.has(form) || !current.contains(form)) continue;
      const twin = next.querySelector("#" + CSS.escape(form.id));
      if (!twin) continue;
      const mine = (el) => twin.contains(el) || el.getAttribute("form") === form.id;
      for (const el of form.elements) {
        if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") continue;
        const other = Array.from(next.querySelectorAll(`[name="${CSS.escape(el.name)}"]`)).find(mine);
        if (!other || other.tagName !== el.tagName) continue;
        if (el.type === "checkbox" || el.type === "radio") other.checked = el.checked;
        else if (Array.from(other.options || [{ value: el.value }]).some((o) => o.value === el.value)) {
          other.value = el.value;
        }
      }
      carried.push(form.id);
    }
    return carried;
  }

  const pending = new Map();
  // The newest connection word for each player (see presence, below).
  const dots = new Map();
  // A region inside another: the monitor's table cards (a move at one table sends its
  // card alone). One held back holds the older; a card held inside a monitor held back
  // is put into it, and a card held is dropped when a whole monitor comes.
  function nested(id, html, current) {
    for (const [other, held] of Array.from(pending)) {
      if (other === id) continue;
      const outer = document.getElementById(other);
      if (!outer) continue;
      if (current.contains(outer)) pending.delete(other);
      else if (outer.contains(current)) pending.set(other, putInto(held, id, html));
    }
  }
  function putInto(outerHtml, id, html) {
    const tpl = document.createElement("template");
    tpl.innerHTML = outerHtml.trim();
    const part = document.createElement("template");
    part.innerHTML = html.trim();
    const old = tpl.content.getElementById(id);
    const next = part.content.firstElementChild;
    if (old && next) old.replaceWith(next);
    return tpl.innerHTML;
  }
  function swapRegion(id, html, force) {
    const current = document.getElementById(id);
    if (!current) return;
    nested(id, html, current);
    if (!force && busy(current)) { pending.set(id, html); return; }
    pending.delete(id);
    const tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    let next = tpl.content.firstElementChild;
    if (!next) return;
    // Keep open <details> open (rename boxes, settings).
    current.querySelectorAll("details[open][id]").forEach((d) => {
      const again = next.querySelector("#" + CSS.escape(d.id));
      if (again) {
        again.open = true;
        fillTools(again); // before its edits are carried into it, and its focus found
      }
    });
    // A name filter keeps what was typed, and hides the new rows that do not match.
    const finding = Array.from(current.querySelectorAll("input[data-find]"), (i) => [i.id, i.value]);
    const focused = focusKey(current);
    const carried = carryEdits(current, next);
    // The control with focus stays the same element when the new region has its twin
    // (a keyboard user on "Table 2" in the monitor, redrawn every second or two):
    // a new element focused is a focus change, which a screen reader says again.
    const kept = graft(current, next, focused);
    if (kept) next = current;
    else current.replaceWith(next);
    for (const fid of carried) {
      const form = document.getElementById(fid);
      if (!form) continue;
      dirty.add(form);
      // What follows a choice (the movement plan's table sizes) follows it again.
      const pick = form.querySelector(PICKS) || document.querySelector(
        PICKS.split(", ").map((p) => `${p}[form="${CSS.escape(fid)}"]`).join(", "));
      if (pick) pick.dispatchEvent(new Event("change", { bubbles: true }));
    }
    for (const [fid, value] of finding) {
      const again = document.getElementById(fid);
      if (again && value) { again.value = value; find(again); }
    }
    fixForms(next);
    if (window.htmx) window.htmx.process(next);
    if (!kept) refocus(next, focused);
    if (id === "fac-roster") showDots();
    retitle(next);
    // A whole monitor, or a card that entered or left a dispute: shown or hidden at once.
    if (id === "fac-monitor" || id.startsWith("mt-card-")) onlyDisputes();
    if (id === "projector-live") fitNames();
  }
  // A region that names the page (the projector's heading, data-title) keeps the tab's
  // title in step, as a phone's screen does (table.js): drawn outside the live part, the
  // tab said "Join …" to the end of the debrief.
  function retitle(region) {
    const title = region.dataset.title;
    if (title && document.title !== title) document.title = title;
  }
  // The control with focus (a keyboard user's place) in a region about to be
  // replaced: by its id, else by its kind and words, nearest its old position.
  const FOCUSABLE = "a[href], button, summary, input, select, textarea, [tabindex]";
  function focusKey(region) {
    const active = document.activeElement;
    if (!active || active === document.body || !region.contains(active)) return null;
    const all = Array.from(region.querySelectorAll(FOCUSABLE));
    return { id: active.id, tag: active.tagName, text: active.textContent.trim(), index: all.indexOf(active) };
  }
  function twinOf(region, key) {
    let el = key.id ? region.querySelector("#" + CSS.escape(key.id)) : null;
    if (!el) {
      let best = Infinity;
      Array.from(region.querySelectorAll(FOCUSABLE)).forEach((x, i) => {
        if (x.tagName === key.tag && x.textContent.trim() === key.text && Math.abs(i - key.index) < best) {
          best = Math.abs(i - key.index);
          el = x;
        }
      });
    }
    return el;
  }
  // Gone from the region (the clock's buttons when the round ends): its heading, so
  // the place is the region's and not the top of the page; Tab goes on from there.
  function refocus(region, key) {
    if (!key) return;
    let el = twinOf(region, key);
    if (!el) {
      const label = region.getAttribute("aria-labelledby");
      el = (label && document.getElementById(label)) || region.querySelector("h2, h3");
      if (el && !el.matches(FOCUSABLE)) el.tabIndex = -1;
    }
    // In a list folded away since (a roster grown past its fold): opened, not lost.
    // (A closed box's own summary is in view: its box stays shut.)
    for (let d = el && el.parentElement; d; d = d.parentElement) {
      if (d.tagName === "DETAILS" && !d.open && el.parentElement !== d) d.open = true;
    }
    if (el) el.focus({ preventScroll: true });
  }
  // The new region put into the old one around the focused control: each element from
  // the region down to it stays (taking the new one's attributes), everything beside
  // them is the new region's. False (nothing changed) when the new region has no twin
  // of the control at the same depth.
  function graft(current, next, key) {
    const active = document.activeElement;
    if (!key || !active || !current.contains(active)) return false;
    const twin = twinOf(next, key);
    const path = (root, el) => {
      const out = [];
      for (let n = el; n !== root; n = n.parentElement) out.unshift(n);
      return out;
    };
    const olds = path(current, active);
    const news = twin ? path(next, twin) : [];
    if (!twin || olds.length !== news.length || olds.some((o, i) => o.tagName !== news[i].tagName)) {
      return false;
    }
    let old = current;
    let fresh = next;
    for (let i = 0; ; i++) {
      for (const { name } of Array.from(old.attributes)) {
        // (A heading given focus by refocus keeps the tabindex that lets it hold it.)
        if (!fresh.hasAttribute(name) && !(old === active && name === "tabindex")) old.removeAttribute(name);
      }
      for (const { name, value } of Array.from(fresh.attributes)) {
        if (old.getAttribute(name) !== value) old.setAttribute(name, value);
      }
      if (i === olds.length) {
        if (old.innerHTML !== fresh.innerHTML) old.replaceChildren(...fresh.childNodes);
        return true;
      }
      const keep = olds[i];
      const stand = news[i];
      const kids = Array.from(fresh.childNodes);
      const at = kids.indexOf(stand);
      for (const c of Array.from(old.childNodes)) if (c !== keep) c.remove();
      keep.before(...kids.slice(0, at));
      keep.after(...kids.slice(at + 1));
      old = keep;
      fresh = stand;
    }
  }
  // ---- name filters (facilitator/_find.html)
  // As the server compares names (tournament/names.py, movement.py): no case, no
  // accents, ß as ss, and the letters with a stroke as their letter.
  // STROKES is movement.py's _STROKES (tests/tournament/test_movement.py compares them).
  const STROKES = { "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t",
    "ı": "i", "ƀ": "b", "ƶ": "z", "ǥ": "g", "ɨ": "i", "ʉ": "u" };
  const plain = (s) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/ß/g, "ss").replace(/[łøđðħŧıƀƶǥɨʉ]/g, (c) => STROKES[c]);
  function find(input) {
    const query = plain(input.value.trim());
    const rows = document.querySelectorAll(`[data-find-row="${CSS.escape(input.dataset.find)}"]`);
    let shown = 0;
    rows.forEach((row) => {
      const hit = !query || plain(row.dataset.findText || "").includes(query);
      row.hidden = !hit;
      if (hit) shown += 1;
    });
    const fold = input.dataset.findOpen && document.getElementById(input.dataset.findOpen);
    if (fold && query) fold.open = true;
    const out = document.getElementById(input.getAttribute("aria-describedby"));
    // Written when it changes: it is a live region, read at each write.
    if (out) setText(out, query ? `${shown} of ${rows.length} shown` : "");
  }
  document.addEventListener("input", (e) => { if (e.target.matches("input[data-find]")) find(e.target); });
  function flushPending() {
    // (One put in may have dropped or changed another held: see nested.)
    for (const [id, html] of Array.from(pending)) if (pending.get(id) === html) swapRegion(id, html, false);
    onlyDisputes(); // (a card kept for the focus in it goes once focus has left it)
    startClocks();
    scrollers();
    sayChanges();
  }
  document.addEventListener("focusout", () => setTimeout(flushPending, 0));
  document.addEventListener("toggle", (e) => { if (!e.target.open) setTimeout(flushPending, 0); }, true);
  // A form sent is no longer an edit in progress; if it is refused, it is again (a
  // refused Apply keeps the tables chosen on screen, a refused rename its name).
  const sentDirty = new WeakSet();
  document.addEventListener("htmx:beforeRequest", (e) => {
    const form = e.detail.elt.closest ? e.detail.elt.closest("form") : null;
    if (!form) return;
    if (dirty.has(form)) sentDirty.add(form);
    else sentDirty.delete(form);
    dirty.delete(form);
    inFlight.set(form, (inFlight.get(form) || 0) + 1);
  });
  function landed(e) {
    const form = e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("form") : null;
    const n = form ? inFlight.get(form) : 0;
    if (!n) return;
    if (n > 1) inFlight.set(form, n - 1);
    else inFlight.delete(form);
    // No answer (the network failed, or the request was aborted or timed out): what
    // it carried is still to be sent.
    if (!(e.detail.xhr && e.detail.xhr.status) && sentDirty.has(form)) dirty.add(form);
    setTimeout(flushPending, 0);
  }
  // (htmx fires it for an error, an abort and a timeout too, before their own events.)
  document.addEventListener("htmx:afterRequest", landed);
  // With the socket live a control's answer is its message alone (X-Barnga-Live):
  // the socket brings the regions it changed. Without it, the whole panel.
  let synced = false;
  document.addEventListener("htmx:configRequest", (e) => {
    if (synced) e.detail.headers["X-Barnga-Live"] = "1";
  });
  // The answer to the last control stays until the workshop moves on without it,
  // and while it has focus (a PIN being read out): emptied, it was hidden, and focus
  // fell to the top of the page.
  let messageAt = 0;
  function ageMessage() {
    const message = document.getElementById("fac-message");
    if (!message || !messageAt || message.contains(document.activeElement)) return;
    if (Date.now() - messageAt > 8000) clearMessage(message);
  }
  function clearMessage(message) {
    message.textContent = "";
    messageAt = 0;
    messageStatus = "";
    // A refused field described by it: no longer "invalid" with no reason to read.
    document.querySelectorAll('[aria-describedby="fac-message"]').forEach((el) => {
      el.removeAttribute("aria-describedby");
      el.removeAttribute("aria-invalid");
    });
  }
  // The situation (the phase, the round paused, over or under way) an answer was given
  // in. Once the workshop has moved on from it by itself, the answer is no longer true
  // ("Round 1: one more minute, 2:14 left now." stayed at the top of the panel after
  // the round ran out, focus on it): it goes at once, or, while it has focus (a PIN
  // being read out), it stays, its box dashed and its words "Earlier: …", and goes as
  // any answer once focus leaves it. Marked quietly (no longer a live region): the
  // change itself is said (sayChanges).
  let messageStatus = "";
  function outdateMessage() {
    const message = document.getElementById("fac-message");
    if (!message || !messageStatus || situation().status === messageStatus) return;
    messageStatus = "";
    if (!message.textContent.trim()) return;
    if (!message.contains(document.activeElement)) { clearMessage(message); return; }
    message.classList.add("old");
    message.querySelectorAll("[role]").forEach((el) => el.removeAttribute("role"));
    const first = message.querySelector(".msg");
    if (first) first.prepend("Earlier: ");
  }
  // Focus goes to the answer (a screen reader reads it; Tab goes on to the controls
  // after it), or back to the same control when there is no answer (the panel,
  // replaced whole, took the button just pressed with it).
  let focusedId = null;
  document.addEventListener("htmx:beforeSwap", () => {
    const active = document.activeElement;
    focusedId = active && active.id ? active.id : null;
  });
  const answerOnly = (detail) => Boolean(detail.xhr && detail.xhr.getResponseHeader("HX-Retarget"));
  document.addEventListener("htmx:afterSwap", (e) => {
    messageAt = Date.now();
    fixForms(document);
    startClocks();
    scrollers();
    let refused = null;
    if (answerOnly(e.detail)) {
      // Done: the rename box or the tools it was sent from fold away, as the whole
      // panel's did. Refused: what was chosen in it stays an edit in progress.
      // (The event's own elt is what was swapped in; the request's is what sent it.)
      const sender = e.detail.requestConfig && e.detail.requestConfig.elt;
      const form = sender && sender.closest ? sender.closest("form") : null;
      if (form && e.detail.xhr.status < 300) {
        const box = form.closest("details[open]");
        if (box) box.open = false;
      } else if (form && sentDirty.has(form)) {
        dirty.add(form);
        // A refused name: its field, marked and described by the answer, has focus,
        // so it can be put right at once (the answer at the top of the page took the
        // keyboard out of a roster of 30).
        // (A form of one field only: the movement plan's refusal names its player
        // in the answer, and its first field is not the one refused.)
        const fields = form.querySelectorAll('input:not([type="hidden"]), select, textarea');
        refused = fields.length === 1 ? fields[0] : null;
        if (refused) {
          refused.setAttribute("aria-invalid", "true");
          refused.setAttribute("aria-describedby", "fac-message");
        }
      }
    } else {
      if (!e.detail.target || e.detail.target.id !== "panel") return;
      // The panel came back from a POST: it is current, nothing is being edited in it.
      pending.clear();
    }
    const message = document.getElementById("fac-message");
    // An answer alone says the situation its control left (the socket brings the
    // status after it); the whole panel came with its status.
    messageStatus = (message && message.dataset.say) || situation().status;
    const again = focusedId && document.getElementById(focusedId);
    if (refused && refused.isConnected) {
      refused.focus();
    } else if (message && message.textContent.trim()) {
      message.focus({ preventScroll: true });
      message.scrollIntoView({ block: "nearest" });
    } else if (again) {
      again.focus();
    }
  });

  // ---- what a screen reader hears of changes nobody asked for: the phase, a round
  // paused or over (the data-say of the panel's #fac-status or a table page's
  // #fac-table), each table where a dispute begins or ends (the panel's monitor, or
  // the table page's own table), and who joins (the panel's roster).
  // What follows the facilitator's own control is in its answer, so a phase or
  // clock change that arrives while a control is being sent is taken as known, not
  // said (no control opens a dispute: those are always said).
  // #fac-announce is a log (role="log"): a line that comes while the last is read is
  // read after it, not in its place, and none is lost to the next push.
  const announcer = window.Barnga.speaker(document.getElementById("fac-announce"));
  // The students in the roster (not bots: the facilitator's own control adds those),
  // by row: who joins is said, as a sighted facilitator sees the list grow.
  // Each row: the student's name (null for a bot) and when the seat last moved to a
  // new phone with its PIN ("" if never).
  // The projector's lobby lists the students' names (data-name, unique in a workshop),
  // the latest (selectors_facilitator.PROJECTOR_NAMES): one gone off it is no leave.
  function people() {
    const rows = Array.from(
      document.querySelectorAll("#fac-roster li.roster-row"),
      (li) => [li.id, li.querySelector(".dot.bot") ? null : { name: li.dataset.findText, moved: li.dataset.moved || "" }],
    );
    document.querySelectorAll(".proj-names li[data-name]").forEach((li) => {
      rows.push(["name:" + li.dataset.name, { name: li.dataset.name, moved: "" }]);
    });
    // The projector's seats back on a new phone (in any phase; in the lobby their name
    // is in the list too, a row of its own and no join).
    document.querySelectorAll(".proj-back li[data-seat]").forEach((li) => {
      rows.push(["seat:" + li.dataset.seat, { name: li.dataset.name, moved: li.dataset.moved }]);
    });
    // Removed students the facilitator let back in (a new PIN), not back yet: the
    // panel's rows (a bot's seat) and its "Left" list (a seat gone), the projector's list.
    document.querySelectorAll("#fac-roster [data-let-in], .proj-let-in li[data-seat]").forEach((el) => {
      const seat = el.dataset.seat || el.id.replace(/^(player|left)-/, "");
      rows.push(["let:" + seat, { name: el.dataset.name || el.dataset.findText, letIn: el.dataset.letIn }]);
    });
    return new Map(rows);
  }
  function situation() {
    const status = document.querySelector("#fac-status[data-say], #fac-table[data-say]");
    return {
      status: status ? status.dataset.say || "" : "",
      disputes: Array.from(
        document.querySelectorAll("#fac-monitor [data-dispute], #fac-table[data-dispute]"),
        (el) => el.dataset.table,
      ),
      people: people(),
      // "table:name" of each table waiting for a phone that is not connected.
      waiting: Array.from(
        document.querySelectorAll("#fac-monitor [data-waiting]"),
        (el) => el.dataset.table + ":" + el.dataset.waiting,
      ),
    };
  }
  // A table that waits for a phone not connected: said once, when it begins.
  function waitingText(entries) {
    if (!entries.length) return "";
    const tables = entries.map((e) => e.split(":")[0]);
    if (entries.length === 1) {
      const [table, ...name] = entries[0].split(":");
      return `Table ${table} waits for ${name.join(":")}, whose phone is not connected.`;
    }
    const which = tablesText(tables);
    return which[0].toUpperCase() + which.slice(1) + " wait for phones that are not connected.";
  }
  function listText(items) {
    if (items.length === 1) return items[0];
    return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
  }
  // Past five tables, how many: forty table numbers read out every few seconds (a
  // class of 200 disputes at most tables at once) took longer to say than the gap
  // before the next line, and the round's last minute waited behind them.
  const TABLES_NAMED = 5;
  function tablesText(numbers) {
    if (numbers.length > TABLES_NAMED) return numbers.length + " tables";
    return (numbers.length === 1 ? "table " : "tables ") + listText(numbers);
  }
  function joinedNames(before, now) {
    const names = [];
    // (A new row already moved is a student who left and came back with the PIN.)
    for (const [id, p] of now) if (p && !before.has(id) && !p.moved && !p.letIn) names.push(p.name);
    return names;
  }
  function joinedText(before, now) {
    const names = joinedNames(before, now);
    if (!names.length) return "";
    // (The projector lists only the latest names: its count is the list's data-joined.)
    const list = document.querySelector(".proj-names[data-joined]");
    const students = list ? Number(list.dataset.joined) : Array.from(now.values()).filter(Boolean).length;
    const who = names.length > 3 ? names.length + " players" : listText(names);
    // The count in all, when there are others: the class's first burst said "4 players
    // joined (4 players)." and its first student "Ana joined (1 player).".
    if (students <= names.length) return `${who} joined.`;
    return `${who} joined (${students} player${students === 1 ? "" : "s"}).`;
  }
  // The people whose `key` (a time) is new since `before`: "moved", a seat brought back
  // on another phone with its PIN (perhaps the PIN just read out); "letIn", a removed
  // student let back in (perhaps by another tab's or device's control).
  function changedNames(before, now, key) {
    const names = [];
    for (const [id, p] of now) {
      const was = before.get(id);
      if (p && p[key] && (!was || was[key] !== p[key])) names.push(p.name);
    }
    return names;
  }
  // Their names and what happened to them: `one` of one person, `many` of more.
  function changedText(before, now, key, one, many) {
    const names = changedNames(before, now, key);
    if (!names.length) return "";
    return `${listText(names)} ${names.length === 1 ? one : many}.`;
  }
  let known = situation();
  // A control on its way: every control is a form (see inFlight, above).
  const sending = () => inFlight.size > 0;
  // An answer alone says the status its control left (data-say): the socket brings
  // that region after it, and it is not said again when it comes.
  let expected = "";
  document.addEventListener("htmx:afterRequest", (e) => {
    const message = document.getElementById("fac-message");
    expected = (answerOnly(e.detail) && message && message.dataset.say) || "";
    known = { ...known, status: situation().status };
  });
  // Who this page's own "Let … back in" let back in ("let:" and the player's id): its
  // answer said so, with the new PIN, and focus took a screen reader to it; the log
  // saying "Ana was let back in." again once the roster came was the same news twice.
  // Set as the control is sent (the roster may come before its answer), dropped if
  // it is refused, and taken as told once the roster shows it (sayChanges). Another
  // tab's or device's is said.
  const ownLetIn = new Set();
  const letInRow = (form) => {
    const player = form && /\/do\/let-in\/$/.test(form.getAttribute("action") || "")
      ? form.querySelector('input[name="player"]') : null;
    return player ? "let:" + player.value : "";
  };
  document.addEventListener("htmx:beforeRequest", (e) => {
    const row = letInRow(e.detail.elt.closest ? e.detail.elt.closest("form") : null);
    if (row) ownLetIn.add(row);
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    const row = letInRow(e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("form") : null);
    if (row && !(e.detail.xhr && e.detail.xhr.status && e.detail.xhr.status < 300)) ownLetIn.delete(row);
  });
  // Joins and disputes come in bursts (30 phones in two seconds; a dozen bot tables'
  // disputes every second or two): said together once they settle, NEWS_MS after the
  // last change (NEWS_MAX_MS at most after the first), as what changed since they
  // were last said. A dispute begun and over in between is not said at all.
  const NEWS_MS = 2000;
  const NEWS_MAX_MS = 6000;
  let told = { disputes: known.disputes, people: known.people, waiting: known.waiting };
  let newsTimer = null;
  let newsSince = 0;
  function news() {
    const now = situation();
    const lines = [];
    const fresh = now.disputes.filter((n) => !told.disputes.includes(n));
    if (fresh.length) lines.push((fresh.length === 1 ? "Dispute at " : "Disputes at ") + tablesText(fresh) + ".");
    const over = told.disputes.filter((n) => !now.disputes.includes(n));
    if (over.length) lines.push((over.length === 1 ? "Dispute over at " : "Disputes over at ") + tablesText(over) + ".");
    const joined = joinedText(told.people, now.people);
    if (joined) lines.push(joined);
    const moved = changedText(told.people, now.people, "moved", "is back on a new phone", "are back on a new phone");
    if (moved) lines.push(moved);
    const letIn = changedText(told.people, now.people, "letIn", "was let back in", "were let back in");
    if (letIn) lines.push(letIn);
    const waits = waitingText(now.waiting.filter((w) => !told.waiting.includes(w)));
    if (waits) lines.push(waits);
    told = { disputes: now.disputes, people: now.people, waiting: now.waiting };
    newsTimer = null;
    newsSince = 0;
    announcer.say(lines.join(" "));
  }
  function sayChanges() {
    const now = situation();
    // This page's own let-in, now in the roster: taken as told.
    for (const row of ownLetIn) {
      if (!now.people.has(row)) continue;
      told = { ...told, people: new Map(told.people).set(row, now.people.get(row)) };
      ownLetIn.delete(row);
    }
    const changed = !sending() && now.status && now.status !== known.status;
    if (changed && now.status === expected) expected = "";
    else if (changed) announcer.say(now.status);
    // Disputes cut with their round: the round's end says it.
    if (changed) told = { ...told, disputes: told.disputes.filter((n) => now.disputes.includes(n)) };
    known = { status: sending() ? known.status : now.status, disputes: now.disputes, people: now.people, waiting: now.waiting };
    // (A wait over is not said: the table moves again. One over before it was said is
    // dropped, as a dispute over in between.)
    told = { ...told, waiting: told.waiting.filter((w) => now.waiting.includes(w)) };
    const pending = now.waiting.some((w) => !told.waiting.includes(w))
      || now.disputes.some((n) => !told.disputes.includes(n))
      || told.disputes.some((n) => !now.disputes.includes(n))
      || joinedNames(told.people, now.people).length > 0
      || changedNames(told.people, now.people, "moved").length > 0
      || changedNames(told.people, now.people, "letIn").length > 0;
    if (!pending) return;
    clearTimeout(newsTimer);
    if (!newsSince) newsSince = Date.now();
    newsTimer = setTimeout(news, Math.min(NEWS_MS, Math.max(0, newsSince + NEWS_MAX_MS - Date.now())));
  }
  window.Barnga.warnings(() => document, (text) => announcer.say(text));

  // ---- the monitor's "Show only tables in dispute" (_monitor.html, past
  // DISPUTES_ONLY_PAST tables): the server draws every card; here those not in dispute
  // are hidden while the box is checked, after each push as it is put in. Remembered
  // for this tab (sessionStorage), so a reload keeps it.
  const ONLY_KEY = "barnga:disputes-only:" + location.pathname;
  let onlyWanted = false;
  try { onlyWanted = sessionStorage.getItem(ONLY_KEY) === "1"; } catch (e) { /* none kept */ }
  function onlyDisputes() {
    const monitor = document.getElementById("fac-monitor");
    if (!monitor) return "";
    const box = document.getElementById("mt-disputes-only");
    const on = Boolean(box) && onlyWanted;
    if (box) {
      box.closest(".monitor-filter").hidden = false;
      if (box.checked !== on) box.checked = on;
    }
    const active = document.activeElement;
    // The card a link went to (the waiting line's "table 3", #mt-3): shown while the
    // address names it, and the count says so (checking the box again lets it go).
    const target = location.hash.startsWith("#mt-") ? document.getElementById(location.hash.slice(1)) : null;
    let hidden = 0;
    let kept = null;
    const cards = monitor.querySelectorAll("article[data-table]");
    cards.forEach((card) => {
      const calm = on && !card.hasAttribute("data-dispute");
      const linked = Boolean(target) && card.contains(target);
      // A card with focus in it stays until focus leaves (hidden, it would drop the
      // keyboard to the top of the page); then it goes (flushPending, on focusout).
      const hide = calm && !card.contains(active) && !linked;
      if (card.hidden !== hide) card.hidden = hide;
      if (hide) hidden += 1;
      else if (calm && linked) kept = card.dataset.table;
    });
    let words = "";
    if (on) {
      words = hidden === cards.length
        ? `No table is in dispute now: all ${hidden} hidden`
        : `${hidden} table${hidden === 1 ? "" : "s"} not in dispute hidden`;
      if (kept) words += `; table ${kept} shown, as you went to it`;
    }
    const count = document.getElementById("mt-hidden-count");
    if (count) setText(count, words);
    return words;
  }
  document.addEventListener("change", (e) => {
    if (e.target.id !== "mt-disputes-only") return;
    onlyWanted = e.target.checked;
    // (Storage refused, it holds for this page until it is reloaded.)
    try { sessionStorage.setItem(ONLY_KEY, onlyWanted ? "1" : "0"); } catch (err) { /* this page only */ }
    // A card kept for a link followed before goes with the box's new choice.
    if (location.hash.startsWith("#mt-")) history.replaceState(null, "", location.pathname + location.search);
    // The count describes the box, which is not read again as it changes: said here.
    announcer.say(onlyDisputes() || "Every table shown.");
  });
  // A link to a hidden card would find nothing to scroll to: the card is shown before
  // the link is followed (and stays while the address names it, above); the count
  // follows the address.
  document.addEventListener("click", (e) => {
    const link = e.target.closest && e.target.closest('a[href^="#mt-"]');
    const target = link && document.getElementById(link.getAttribute("href").slice(1));
    const card = target && target.closest("#fac-monitor article[hidden]");
    if (card) card.hidden = false;
  }, true);
  window.addEventListener("hashchange", () => onlyDisputes());
  onlyDisputes();

  // ---- the socket
  const live = document.getElementById("fac-live");
  const connection = document.getElementById("connection");

  const showConnection = window.Barnga.connectionLine(connection, "Live updates are back.");

  // A phone connected or went: its dot in the roster, set here (the server sends the
  // dot, not the whole roster again; the monitor's comes with its region). The newest
  // word for each player is kept, with when it was written (`at`): each roster row
  // says when its dot was read (data-seen), and a word older than the row changes
  // nothing. So a roster drawn before a word and put in after it (held while the
  // facilitator types in it, or a control's answer) gets the word again, and an older
  // word that comes late (from another web process) is not taken.
  function presence(msg) {
    const id = Number(msg.player);
    const at = Number(msg.at) || 0;
    const known = dots.get(id);
    if (known && known.at > at) return;
    dots.set(id, { connected: Boolean(msg.connected), at });
    showDots();
  }
  function showDots() {
    for (const [id, word] of dots) {
      const row = document.getElementById("player-" + id);
      const dot = row && row.querySelector(".who > .dot");
      if (!dot || dot.classList.contains("bot") || Number(row.dataset.seen || 0) >= word.at) continue;
      row.dataset.seen = String(word.at);
      dot.classList.toggle("on", word.connected);
      dot.classList.toggle("off", !word.connected);
      const said = row.querySelector(".who > .conn");
      if (said) said.textContent = word.connected ? "(connected)" : "(not connected)";
    }
  }
  document.addEventListener("htmx:afterSwap", showDots);

  if (live && live.dataset.ws) {
    const socket = liveSocket({
      path: live.dataset.ws,
      firstPath: live.dataset.have
        ? live.dataset.ws + "&have=" + encodeURIComponent(live.dataset.have)
        : null,
      reconnectingText: "Live updates lost — reconnecting…",
      onStatus: showConnection,
      onMessage(msg) {
        if (msg.t === "presence") return presence(msg);
        if (msg.t !== "regions") return;
        synced = true;
        ageMessage();
        for (const [id, html] of Object.entries(msg.regions)) swapRegion(id, html, false);
        startClocks();
        scrollers();
        sayChanges();
        outdateMessage();
        live.dataset.updated = String(Date.now());
        // Put in (or held for an edit): the server may send the next push.
        socket.send({ action: "ack" });
      },
      onClose(code) {
        synced = false;
        if (code !== 4403) return false;
        showConnection("This workshop is not yours, or you were logged out. Reload to log in.");
        return true;
      },
    });
  }
  // A page drawn with an answer (the workshop just set up: "ready: the join code is
  // …"): a status there at load is not read out, so it is given focus, as any answer.
  const drawnWith = document.getElementById("fac-message");
  if (drawnWith) {
    messageAt = Date.now();
    messageStatus = situation().status;
    if (drawnWith.textContent.trim() && document.activeElement === document.body) {
      drawnWith.focus({ preventScroll: true });
    }
  }
  startClocks();
  // A box that scrolls sideways is a keyboard stop only while it does not fit (live.js).
  scrollers();
  window.addEventListener("resize", scrollers);
  document.addEventListener("toggle", scrollers, true);

  // ---- the projector's lobby: as many of the latest names as fit the screen
  // The page cannot be scrolled in front of the room. The names are drawn large; if
  // they run below the screen's foot they are made `least` (barnga.css: the smallest
  // the back of the room reads), and if they still do, the earliest are hidden (no
  // longer drawn nor heard) one by one till the rest fit, "N earlier…" counting them
  // with those the server did not send (data-earlier); none fits, the list goes and
  // its heading's count stands alone. Run again on each push (the
  // list is new) and when the window changes size (made full-screen). The hidden
  // names keep their data-name: who joins is still said once (people, above).
  function fitNames() {
    const list = document.querySelector(".proj-names[data-earlier]");
    if (!list) return;
    const doc = document.documentElement;
    const over = () => doc.scrollHeight > doc.clientHeight
      || list.getBoundingClientRect().bottom > doc.clientHeight;
    const names = Array.from(list.querySelectorAll("li[data-name]"));
    const before = Number(list.dataset.earlier) || 0;
    let more = list.querySelector(".proj-earlier");
    const earlier = (count) => {
      if (!count) {
        if (more) more.remove();
        more = null;
        return;
      }
      if (!more) {
        more = document.createElement("li");
        more.className = "proj-earlier";
        list.prepend(more);
      }
      setText(more, `${count} earlier…`);
    };
    names.forEach((li) => { li.hidden = false; });
    list.hidden = false;
    list.classList.remove("least");
    earlier(before);
    if (!over()) return;
    list.classList.add("least");
    for (let gone = 0; gone < names.length && over(); gone += 1) {
      names[gone].hidden = true;
      earlier(before + gone + 1);
    }
    // Not one name fits (a small window: the join code fills it): "30 earlier…" alone,
    // earlier than nothing, read as a riddle. The list goes, and the count above it
    // ("30 joined") says it all.
    if (names.length && names.every((li) => li.hidden)) {
      earlier(0);
      list.hidden = true;
    }
  }
  fitNames();
  window.addEventListener("resize", fitNames);

  // ---- the movement plan: Apply takes the tables chosen on screen, saved or not, so
  // the line of table sizes follows the choices as they are made (an overfull table
  // shows before it is applied, not after).
  // (A big workshop's plan has a number to type for each player, not a list.)
  function movementSizes(e) {
    const form = e.target.closest && e.target.closest("#movement-form");
    if (!form || !e.target.matches(PICKS)) return;
    const counts = {};
    let changed = false;
    form.querySelectorAll(PICKS).forEach((s) => {
      const value = s.value.trim();
      counts[value] = (counts[value] || 0) + 1;
      if (s.tagName === "SELECT" ? !s.options[s.selectedIndex].defaultSelected : value !== s.defaultValue) {
        changed = true;
      }
    });
    const seats = Number(form.dataset.seats);
    const least = Number(form.dataset.least || 0);
    // Said: the tables this choice changed (the whole line was read at each change, a
    // sentence of 40 tables in a big class).
    const said = [];
    const tables = [];
    form.querySelectorAll("[data-size-table]").forEach((span) => {
      const n = counts[span.dataset.sizeTable] || 0;
      // Written only when it changes (a select's change comes as an input event too).
      const was = span.querySelector(".n").textContent;
      setText(span.querySelector(".n"), String(n));
      // Too many to seat, or a player left alone at a table too small to deal to.
      const words = n > seats ? " (more than " + seats + " seats)"
        : n > 0 && n < least ? " (too few to play: a game needs " + least + ")" : "";
      if (was !== String(n)) said.push(`table ${span.dataset.sizeTable} seats ${n}${words}`);
      tables.push({ number: span.dataset.sizeTable, n, words });
      span.classList.toggle("over", Boolean(words));
      let note = span.querySelector("strong");
      if (words && !note) {
        note = document.createElement("strong");
        span.appendChild(note);
      }
      if (words) setText(note, words);
      else if (note) note.remove();
    });
    form.querySelectorAll(".sizes-what").forEach((what) => setText(what, changed
      ? "With the changes shown (not saved yet; Apply takes them)"
      : "With the plan as saved"));
    const summary = form.querySelector("#movement-summary .sizes-odd");
    if (summary) oddSizes(summary, tables);
    if (said.length) announcer.say(said.join("; ").replace(/^t/, "T") + ".");
  }
  // What most tables will seat (a tie: the larger), among those with players that are
  // not flagged; null if none. The same as selectors_facilitator.usual_size, which
  // draws the summary first.
  function usualSize(tables) {
    const seen = {};
    let best = null;
    for (const t of tables) {
      if (!t.n || t.words) continue;
      seen[t.n] = (seen[t.n] || 0) + 1;
      if (best === null || seen[t.n] > seen[best] || (seen[t.n] === seen[best] && t.n > best)) best = t.n;
    }
    return best;
  }
  // The summary by the top Apply (_movement.html): only the tables that seat other than
  // most do, with the line's own words for them; redrawn only when it says otherwise.
  // The server's words for a table nobody will sit at (_movement.html).
  const EMPTY_TABLE = "nobody (empty)";
  function oddSizes(summary, tables) {
    const usual = usualSize(tables);
    const odd = tables.filter((t) => t.words || t.n !== usual);
    const others = tables.length - odd.length;
    const key = JSON.stringify([odd, usual, others]);
    if (summary.dataset.said === key) return;
    summary.dataset.said = key;
    const parts = [];
    if (!odd.length) parts.push(`, every table seats ${usual}.`);
    else {
      parts.push(": ");
      odd.forEach((t, i) => {
        const item = document.createElement("span");
        // A table the plan leaves empty: said in words, not "Table 7: 0".
        item.textContent = `Table ${t.number}: ${t.n ? t.n : EMPTY_TABLE}`;
        if (t.words) {
          const note = document.createElement("strong");
          note.textContent = t.words;
          item.appendChild(note);
        }
        parts.push(item);
        if (i < odd.length - 1 || others) parts.push(...separator());
      });
      if (others === 1) parts.push(`the other table seats ${usual}`);
      else if (others) parts.push(`the other ${others} tables seat ${usual}`);
      parts.push(".");
    }
    summary.replaceChildren(...parts);
  }
  // A dot for the eye, a pause for the ear ("middle dot" is not read out).
  function separator() {
    const dot = document.createElement("span");
    dot.setAttribute("aria-hidden", "true");
    dot.textContent = " · ";
    const pause = document.createElement("span");
    pause.className = "visually-hidden";
    pause.textContent = "; ";
    return [dot, pause];
  }
  function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
  document.addEventListener("change", movementSizes);
  document.addEventListener("input", movementSizes);

  // ---- the set-up wizard: only the tables asked for, knobs only for a custom sheet
  const setup = document.getElementById("setup-form");
  if (setup) {
    const count = setup.querySelector('[name="table_count"]');
    const perTable = document.getElementById("per-table");
    function shape() {
      const mode = setup.querySelector('[name="sheet_mode"]:checked');
      perTable.hidden = !mode || mode.value !== "choose";
      const game = setup.querySelector('[name="game"]:checked');
      perTable.querySelectorAll(".kind-sheets").forEach((s) => {
        s.hidden = Boolean(game) && s.dataset.game !== game.value;
      });
      const n = Number(count.value) || 0;
      perTable.querySelectorAll(".table-sheet").forEach((row) => {
        row.hidden = Number(row.dataset.table || row.dataset.kindTable) > n;
        const select = row.querySelector("select");
        const knobs = row.querySelector(".knobs");
        knobs.hidden = select.value !== "custom";
      });
    }
    setup.addEventListener("input", shape);
    setup.addEventListener("change", shape);
    shape();
    // A game played by fewer (or more) than the seats asked for: the seats move into
    // its range (3 Tricks is two players; the form's 5 was refused on every first try).
    const ranges = JSON.parse(setup.dataset.seatRanges || "{}");
    setup.addEventListener("change", (e) => {
      const range = e.target.name === "game" && ranges[e.target.value];
      const seats = setup.querySelector('[name="seats_per_table"]');
      if (!range || !seats) return;
      const asked = Number(seats.value);
      if (!(asked >= range[0] && asked <= range[1])) {
        seats.value = String(Math.min(Math.max(asked || range[0], range[0]), range[1]));
      }
    });
    // Create pressed twice (a double click, an impatient second press) made two
    // workshops: the form goes once. Back to this page from the next, it may go again.
    let sent = false;
    setup.addEventListener("submit", (e) => {
      if (sent) { e.preventDefault(); return; }
      sent = true;
      setup.querySelector('button[type="submit"]').setAttribute("aria-disabled", "true");
    });
    window.addEventListener("pageshow", (e) => {
      if (!e.persisted) return;
      sent = false;
      setup.querySelector('button[type="submit"]').removeAttribute("aria-disabled");
    });
  }
  // A form sent back with errors (set-up, sign-up): the keyboard and the screen reader
  // start at the summary (Tab goes on to the fields, each with its own error).
  const errors = document.getElementById("setup-errors") || document.getElementById("signup-errors");
  if (errors) errors.focus();
})();
