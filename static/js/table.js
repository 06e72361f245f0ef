// The player's live table: one websocket, server-rendered #screen regions,
// taps sent as small JSON actions carrying the version they were decided on.
// Nothing is queued while offline: a tap then only reconnects, and the server
// refuses an action decided on a view the table has moved past.
(function () {
  "use strict";
  const app = document.getElementById("app");
  if (!app) return;
  const me = Number(app.dataset.player);
  const connection = document.getElementById("connection");
  const toast = document.getElementById("toast");
  const talk = document.getElementById("talk");
  const pad = document.getElementById("pad");
  const announcer = window.Barnga.speaker(document.getElementById("announce"));
  let counter = 0;
  // A message's id: an action's (the server's answer and any refusal name it) or a
  // gesture's (only a refusal names it).
  const newId = () => `${me}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
  const { startClocks, liveSocket } = window.Barnga;

  function screen() { return document.getElementById("screen"); }
  function versions(el) {
    return { v: Number(el.dataset.version || 0), w: Number(el.dataset.wversion || 0) };
  }

  const showConnection = window.Barnga.connectionLine(connection, "Connected again.");
  // A refusal is said at the top (over the status bar, not the hand) for 4 s, or
  // until the table moves on or the student taps again: a new screen makes it
  // stale ("you may only play a spade" over a trick that is over), but it stays
  // 1.5 s at least, so that a move elsewhere does not take it before it is read.
  const TOAST_MS = 4000;
  const TOAST_MIN_MS = 1500;
  let toastTimer = null;
  let toastAt = 0;
  function showToast(text) {
    toast.textContent = text; toast.hidden = false;
    toastAt = Date.now();
    clearTimeout(toastTimer);
    toastTimer = setTimeout(hideToast, TOAST_MS);
  }
  function hideToast() { clearTimeout(toastTimer); toast.hidden = true; }
  function staleToast() {
    if (toast.hidden) return;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(hideToast, Math.max(0, toastAt + TOAST_MIN_MS - Date.now()));
  }

  // ---- what a screen reader hears: each screen's [data-announce] lines (whose turn,
  // the claim step, a dispute, silence, a phase's notice), read out when they are new.
  // The lines' countdowns are left out (they change every second), and so is what
  // the screen hides from a screen reader (an emoji read out as "shushing face").
  // A line marked data-announce="first" (who took the trick just played) is said before
  // the others (who leads the next one); one marked "earliest" before even those: how
  // the last game ended (7Up's last deal's last trick and score, Five Tricks' last
  // trick, who won it), drawn under the hand, came before the new deal, which heads
  // the screen.
  function announceLines(root) {
    const all = Array.from(root.querySelectorAll("[data-announce]"));
    const said = (at) => all.filter((el) => el.dataset.announce === at);
    const ordered = said("earliest").concat(said("first"))
      .concat(all.filter((el) => !["earliest", "first"].includes(el.dataset.announce)));
    return ordered.map((el) => {
      const copy = el.cloneNode(true);
      copy.querySelectorAll("[data-seconds], [aria-hidden=true]").forEach((c) => c.remove());
      // A heading or a paragraph inside a line ends as a sentence too: "Round over"
      // ran into "Go to table 2.", "The tournament is over" into "Thank you…".
      copy.querySelectorAll("h1, h2, h3, p").forEach((part) => {
        const text = part.textContent.trim();
        if (text) part.append(/[.!?:…]$/.test(text) ? " " : ". ");
      });
      const words = (node) => {
        const text = node.textContent.replace(/\s+/g, " ").trim();
        // Each line ends as a sentence: heard one after another, "Scored round, table
        // 1" ran into "Your choice: …".
        return !text || /[.!?:…]$/.test(text) ? text : text + ".";
      };
      const line = words(copy);
      // A part marked data-said-once (how a dispute ends) is left out of the line once
      // this page has said it: heard at each dispute, it made every one a line of 60
      // words, the claims last.
      const once = Array.from(copy.querySelectorAll("[data-said-once]"), (part) => {
        const text = part.textContent.replace(/\s+/g, " ").trim();
        part.remove();
        return text;
      }).join(" ");
      return { line, short: once ? words(copy) : line, once, board: !!el.closest(".board") };
    }).filter((x) => x.line);
  }
  // The first screen is read with the page (its parts said once too).
  const firstLines = announceLines(screen());
  const saidOnce = new Set(firstLines.map((x) => x.once).filter(Boolean));
  let lastLines = firstLines.map((x) => x.line);
  let lastGame = screen().dataset.game;
  function announce(root, also = []) {
    const items = announceLines(root);
    // A new game's own lines (on its board) are all new, even one worded as the last
    // game's was ("Hand 1, Cai deals, to 61. Trump: clubs." again at the next round:
    // its trump still had to be heard, and it was not). The lines around the board
    // (the phase, the silence, how the last game ended) are new only if they were
    // not on the last screen: the game's end and the next game's deal come as two
    // screens, and the second said all of the first again.
    const newGame = root.dataset.game !== lastGame;
    const fresh = also.concat(items
      .filter((x) => (newGame && x.board) || !lastLines.includes(x.line))
      .map((x) => {
        if (!x.once) return x.line;
        if (saidOnce.has(x.once)) return x.short;
        saidOnce.add(x.once);
        return x.line;
      }));
    lastLines = items.map((x) => x.line);
    lastGame = root.dataset.game;
    if (!fresh.length) return;
    announcer.say(fresh.join(" "));
  }

  // A claim's or a dispute's last 10 seconds are said, once (live.js warnings): a
  // blind student in a dispute hears nothing else of its clock.
  window.Barnga.warnings(screen, (text) => announcer.say(text));

  // The last move sent: the same one again within 600 ms is a second Enter, not a
  // second move, unless the first was refused (then trying again is the point) or
  // it is a new game's (3 Tricks: two passes end a game, and the second passer opens
  // the next: a Pass tapped at once was dropped without a sign).
  let lastAction = { key: "", at: 0, game: "" };
  // A move tapped while the round is paused: when one last asked for the screen.
  const PAUSED_AGAIN_MS = 2000;
  let pausedTapAt = -Infinity;
  // "I have read my rules" tapped (and sent): the sheet then goes at the student's
  // word; otherwise it went at their first move in a scored round.
  let rulesReadTapped = false;

  // Nothing is queued while offline (the socket closed): a tap then only says so and
  // reconnects. A move tapped while the socket opens waits for it.
  function send(msg, { move = false } = {}) {
    if (socket.send(msg)) return true;
    // A move tapped while the socket opens (the page just drawn, the phone woken):
    // it goes once the socket is open, marked as on its way meanwhile.
    if (move && socket.sendWhenOpen(msg)) return true;
    showConnection("Offline — reconnecting…");
    socket.connect();
    // Not sent: the same tap again, once connected, is a move, not a double tap.
    lastAction = { key: "", at: 0, game: "" };
    return false;
  }

  function handle(msg) {
    switch (msg.t) {
      case "view": return swap(msg);
      case "claimed": return markClaimed(msg);
      case "error":
        lastAction = { key: "", at: 0, game: "" };
        // The move on its way was refused if the refusal names it, or names nothing
        // (a message the server could not read may have been it); another message's
        // refusal (a gesture's "Slow down") leaves it marked.
        if (!msg.id || (pending && msg.id === pending.id)) sent();
        return showToast(msg.message);
      case "ack": return received(msg);
      case "gesture": return react(msg);
      case "stroke":
        if (msg.by !== me) { drawStroke(msg.points); padNews(msg, "drew"); }
        return;
      case "strokes":  // the pad as it is now (a new phase wipes it): nothing new on it
        clearPad(); (msg.strokes || []).forEach(drawStroke);
        if (!msg.strokes || !msg.strokes.length) padNewMark(false);
        return;
      case "clear": clearPad(); if (msg.by !== me) padNews(msg, "cleared"); return;
      case "pong": return;
    }
  }

  // What had the keyboard's focus, as a selector for the new screen: the same card,
  // seat, bid, move or gesture; a summary (the rules, the last trick, the PIN) or a
  // link by its class; the hand.
  const FOCUS_KEYS = ["card", "winner", "pick", "bid", "move", "gesture"];
  const canFocus = (el) => el.matches(
    "button:not(:disabled), a[href], summary, input:not(:disabled), select:not(:disabled), [tabindex]");
  function focusKey(el) {
    const k = FOCUS_KEYS.find((key) => el.dataset[key] !== undefined);
    if (k) return `[data-${k}="${CSS.escape(el.dataset[k])}"]`;
    const details = el.tagName === "SUMMARY" ? el.parentElement : null;
    if (details && details.classList.length) return `details.${CSS.escape(details.classList[0])} > summary`;
    if (el.tagName === "A" && el.classList.length) return `a.${CSS.escape(el.classList[0])}`;
    if (el.classList.contains("hand")) return ".hand[tabindex]";
    return null;
  }

  // The new screen is patched into the old one, not swapped for it: a part drawn the
  // same as before stays the very node it was (the rules being read, the PIN, a seat's
  // line, the cards already on the table, the hand's other cards), so a screen
  // reader's place in it and the keyboard's focus stay where they were. A child with
  // data-patch has its own children patched the same way (matched by its tag and
  // class, or by data-patch's value when it has one: a class that says whose turn it
  // is changes); any other changed child is replaced whole. #talk, which table.js
  // places in the screen, is left where it is.
  function patch(old, fresh) {
    for (const { name } of Array.from(old.attributes)) {
      if (!fresh.hasAttribute(name) && !(old === screen() && name === "tabindex")) old.removeAttribute(name);
    }
    for (const { name, value } of Array.from(fresh.attributes)) {
      if (old.getAttribute(name) !== value) old.setAttribute(name, value);
    }
    const olds = Array.from(old.children).filter((c) => c !== talk);
    const used = new Set();
    const claim = (test) => {
      const found = olds.find((o) => !used.has(o) && test(o));
      if (found) used.add(found);
      return found;
    };
    const final = Array.from(fresh.childNodes, (node) => {
      if (node.nodeType !== Node.ELEMENT_NODE) return node;
      const same = claim((o) => o.isEqualNode(node))
        // The dispute's slot holds #talk on the page and nothing as drawn: the same slot.
        || (node.hasAttribute("data-talk-slot") && claim((o) => o.hasAttribute("data-talk-slot")));
      if (same) return same;
      const key = node.getAttribute("data-patch");
      const like = key !== null && claim((o) => o.tagName === node.tagName
        && (key ? o.getAttribute("data-patch") === key : o.className === node.className));
      if (like) { patch(like, node); return like; }
      return node;
    });
    const keep = new Set(final);
    for (const node of Array.from(old.childNodes)) {
      if (node === talk || keep.has(node)) continue;
      // #talk in a dispute's slot that goes: kept aside (moved, not removed, so it keeps
      // focus and its open pad) until placeTalk puts it in its new place.
      if (node.contains && node.contains(talk)) moveTo(app, talk, null);
      node.remove();
    }
    let at = old.firstChild;
    for (const node of final) {
      if (at === talk) at = talk.nextSibling;
      if (node === at) { at = at.nextSibling; continue; }
      old.insertBefore(node, at);
    }
  }

  function swap(msg) {
    const current = screen();
    const have = versions(current);
    // Older than what is shown: a late message from before a resync.
    if (!msg.force && msg.v < have.v && msg.w <= have.w) return;
    if (msg.v > have.v) staleToast();
    const tpl = document.createElement("template");
    tpl.innerHTML = msg.html.trim();
    const next = tpl.content.firstElementChild;
    const active = document.activeElement;
    const hadFocus = Boolean(active && current.contains(active) && !talk.contains(active));
    const talkHadFocus = Boolean(active && talk.contains(active));
    const focusedKey = hadFocus && active !== current ? focusKey(active) : null;
    // Cards picked for a move (a swap, a trick to lay) stay picked across a new view
    // of the same game while they are still in the hand.
    const picked = selected(current);
    const sameGame = current.dataset.game && current.dataset.game === next.dataset.game;
    const was = {
      paused: current.dataset.paused,
      resumedSaid: current.dataset.resumedSaid,  // "The round continues." ("Play …" in study)
      phase: current.dataset.phase,
      lateRules: Boolean(current.querySelector(".late-rules")),
    };
    // The study sheet, the last trick, a hand's points: each stays as the student left
    // it (open, or closed), not as drawn. Matched by their class and place.
    const detailsKey = (d, i, all) => d.className + ":" + all.slice(0, i).filter((o) => o.className === d.className).length;
    const wasOpen = new Map();
    Array.from(current.querySelectorAll("details")).forEach((d, i, all) => wasOpen.set(detailsKey(d, i, all), d.open));
    Array.from(next.querySelectorAll("details")).forEach((d, i, all) => {
      const open = wasOpen.get(detailsKey(d, i, all));
      if (open !== undefined) d.open = open;
    });
    // ...but the rejoin PIN, left open, closes at a new phase or table: a phone that
    // slept through a move must not show it to its new neighbours.
    if (current.dataset.phase !== next.dataset.phase || current.dataset.table !== next.dataset.table) {
      const pin = next.querySelector("details.pin-show");
      if (pin) pin.open = false;
    }
    // "This phone already has a seat …, as Ana" answers the join just tried: at a new
    // phase, table or name it is past, and goes (it stayed on the page all workshop).
    const already = app.querySelector(".notice.already");
    if (already && ["phase", "table", "name"].some((k) => current.dataset[k] !== next.dataset[k])) {
      already.remove();
    }
    // Picked in the new screen before it is patched in: a card still picked is then
    // drawn as it is shown, and stays the same node.
    if (sameGame) {
      for (const card of picked) {
        const again = next.querySelector(`[data-pick="${CSS.escape(card)}"]`);
        if (again) again.setAttribute("aria-pressed", "true");
      }
      updatePicks(next);
    }
    patch(current, next);
    markPending();
    placeTalk(current);
    // Focus in a part that stayed (or in #talk, which moved) is where it was.
    const kept = document.activeElement && document.activeElement !== document.body
      && document.contains(document.activeElement);
    if (hadFocus && !kept) {
      // The same card, seat, summary and so on again; or, when it is gone (the card
      // was played, the bidding is over), the hand (7Up's blind deal: the foreheads,
      // with the unseen card's move); or the screen itself: never the top of the
      // page, a dozen Tabs away from the next move.
      // Only one that takes focus: the card just played may be back in the next
      // hand, drawn as a picture (not a button) while bids are made.
      focusInScreen(current, focusedKey);
    }
    talk.hidden = current.dataset.canGesture !== "1";
    // The gestures go with the round (between rounds, the debrief): a gesture in focus
    // as they went left focus on the page itself, the top of the page for a screen reader.
    if (talkHadFocus && talk.hidden) focusInScreen(current, null);
    // A pause is a line of its own; its end takes one away, which says nothing: the
    // player must hear that they may play again.
    // (Study and silent play keep their phase when ended while paused: not a resume.)
    const resumed = was.paused === "1" && current.dataset.paused !== "1"
      && was.phase === current.dataset.phase && !current.querySelector(".time-up");
    const also = resumed ? [was.resumedSaid] : [];
    // A latecomer's "I have read my rules" takes the sheet away, which says nothing;
    // so does their first move in a scored round, untapped (services.play folds it).
    // In silent play the screen's own line says so as the sheet goes (.rules-away).
    if (was.lateRules && !current.querySelector(".late-rules") && was.phase === current.dataset.phase
      && !current.querySelector(".rules-away")) {
      also.push(rulesReadTapped
        ? "Your rules are put away: you play from memory, as everyone does."
        : "Your rules are folded away: play on.");
    }
    announce(current, also);
    showTitle(current);
    startClocks();
  }

  // Focus put back in the new screen `root`: on the element `key` finds, or the hand,
  // or the screen itself.
  function focusInScreen(root, key) {
    let again = (key && [...root.querySelectorAll(key)].find(canFocus))
      || root.querySelector(".hand[tabindex], .su-foreheads[tabindex]");
    if (!again) {
      root.setAttribute("tabindex", "-1");
      again = root;
    }
    again.focus({ preventScroll: true });
  }

  // The tab's title leads with what the screen asks of the player ("Your turn · Barnga
  // · Ana"): heard first on switching back to the browser, seen in the tab list.
  // The page's own title ends with the player's name: a rename (the facilitator's) is
  // in the next screen's data-name, and the tab said the old name until a reload.
  const baseTitle = document.title;
  const firstName = screen().dataset.name;
  const titleHead = firstName && baseTitle.endsWith(firstName)
    ? baseTitle.slice(0, -firstName.length) : null;
  function pageTitle(root) {
    return titleHead !== null && root.dataset.name ? titleHead + root.dataset.name : baseTitle;
  }
  function showTitle(root) {
    document.title = root.dataset.title ? `${root.dataset.title} · ${pageTitle(root)}` : pageTitle(root);
  }

  // ---- where the gestures and the pad sit: in the screen's [data-talk-slot] when it
  // has one (a dispute: under the claim, above the hand), else at the screen's foot,
  // above the "Playing as … / Rejoin PIN" footer (after it, the palette was below a
  // small phone's fold in ordinary play), else after the screen, where the page puts
  // it. The section is moved, not rebuilt: the pad's drawing, the others' reactions,
  // an open pad and focus stay as they were. moveBefore keeps them all; where a
  // browser lacks it, a plain move loses focus, which is put back.
  function placeTalk(root) {
    const slot = root.querySelector("[data-talk-slot]");
    const foot = slot ? null : root.querySelector(":scope > footer.pin");
    const parent = slot || (foot ? root : app);
    const before = foot || null;
    if (talk.parentNode === parent && talk.nextElementSibling === before) return;
    moveTo(parent, talk, before);
  }
  function moveTo(parent, node, before) {
    if (parent.moveBefore && node.isConnected) { parent.moveBefore(node, before); return; }
    const focused = node.contains(document.activeElement) ? document.activeElement : null;
    parent.insertBefore(node, before);
    if (focused) focused.focus({ preventScroll: true });
  }

  // Another seat claimed the trick and nothing else changed: the server sends that
  // seat's mark instead of the screen. It applies only to the version it follows;
  // any other screen asks for the whole one.
  function markClaimed(msg) {
    const current = screen();
    if (versions(current).v >= msg.v) return; // a newer screen is shown already
    const seat = current.querySelectorAll(".seats > li.seat")[msg.seat];
    if (versions(current).v !== msg.from || !seat) {
      send({ action: "sync" });
      return;
    }
    // Every unclaimed seat's line has the mark's place from the claim step's start (a
    // mark that came in made the line wrap, and the cards to claim moved down); a seat
    // marked already (a changed claim) stays so. Neither: ask for the whole screen.
    const place = seat.querySelector(".unclaimed-mark");
    if (place) {
      place.className = "badge claimed-badge";
      place.removeAttribute("aria-hidden");
    } else if (!seat.querySelector(".claimed-badge")) {
      send({ action: "sync" });
      return;
    }
    current.dataset.version = String(msg.v);
    markPending();
  }

  // ---- picking cards for a move: [data-pick] toggles; a [data-action="act"] button
  // with data-with-picks sends the picked cards as the move's "cards".
  function selected(root) {
    return Array.from(root.querySelectorAll('[data-pick][aria-pressed="true"]'))
      .map((b) => b.dataset.pick);
  }
  function updatePicks(root) {
    const count = selected(root).length;
    for (const out of root.querySelectorAll("[data-picked-count]")) out.textContent = String(count);
    for (const b of root.querySelectorAll("[data-with-picks]")) {
      const min = Number(b.dataset.minPicks || 1);
      const max = Number(b.dataset.maxPicks || 99);
      b.disabled = count < min || count > max;
    }
  }

  // A tap on a move (or a 3 Tricks card) held by the pause: see the taps below.
  function heldByPause() {
    lastAction = { key: "", at: 0, game: "" };
    const now = Date.now();
    const again = now - pausedTapAt >= PAUSED_AGAIN_MS;
    const words = screen().dataset.pausedSaid;
    if (words) {
      if (again && !toast.hidden && toast.textContent === words) announcer.say(words);
      showToast(words);
    }
    if (again) {
      pausedTapAt = now;
      send({ action: "sync" });
    }
  }

  // ---- taps
  app.addEventListener("click", (e) => {
    // A double tap is one move, and picks a card once: the browser counts the taps
    // (detail), and the second was sent too (refused, with an error), landed on what
    // the new screen had put under the finger (All Fives' revoke calls), or unpicked
    // the card. Gestures may be tapped again and again.
    if (e.detail > 1 && e.target.closest("[data-pick],[data-action]")) return;
    const pick = e.target.closest("[data-pick]");
    if (pick && app.contains(pick)) {
      // Paused, a 3 Tricks card picks nothing (the moves it would make are held) and
      // says why, as a paused card of the other games does: it had said nothing.
      if ("paused" in pick.dataset) return heldByPause();
      if (pick.getAttribute("aria-disabled") === "true") return;
      pick.setAttribute("aria-pressed", pick.getAttribute("aria-pressed") === "true" ? "false" : "true");
      updatePicks(screen());
      // Said: the card's "pressed" tells one card, not how many are picked or which
      // move they now make (a live count in the screen would be swapped with it).
      const ready = Array.from(screen().querySelectorAll("[data-with-picks]"))
        .filter((b) => !b.disabled).map((b) => b.dataset.said);
      announcer.say(`${selected(screen()).length} picked.` + (ready.length ? ` Ready: ${ready.join(", ")}.` : ""));
      return;
    }
    const button = e.target.closest("[data-action],[data-gesture]");
    if (!button || !app.contains(button)) return;
    // A move the server drew as held by the pause (data-paused: a claim, a card, Stand,
    // a bid…) is not sent: the pause would refuse it, so the phone says the server's
    // own words (data-paused-said) at once, as the refusal's toast would have. Only
    // these: a card the rules forbid (aria-disabled, not paused) still goes, and its
    // refusal is what the debrief counts.
    // Tapped again while the words still show, they are said again too: an alert whose
    // text does not change may not be read again. And the screen is asked for: a phone
    // on a socket that died unseen may have missed the resume (the tap, sent, would
    // have found that out), and the sync's unanswered wait replaces such a socket.
    // At most once in PAUSED_AGAIN_MS, both: Enter held on a paused move repeats some
    // 30 times a second, and each sync is answered with the whole screen.
    if (button.dataset.action && "paused" in button.dataset) return heldByPause();
    if (button.dataset.action) {
      // A card, claim or move still on its way (marked, busy) was taken: tapped again
      // on a slow connection, it went again and came back refused ("You already claim").
      if (button.classList.contains("sending")) return;
      // The card already claimed, tapped again ("did it take?"): it is the claim.
      if (button.dataset.action === "claim" && button.getAttribute("aria-pressed") === "true") return;
      // Enter pressed twice on a card or a move (a keyboard's click has no tap count,
      // and focus comes back to the same card on the new screen): one move.
      const key = actionKey(button);
      const game = screen().dataset.game || "";
      if (key === lastAction.key && game === lastAction.game && Date.now() - lastAction.at < 600) return;
      lastAction = { key, at: Date.now(), game };
      hideToast();
    }
    const version = versions(screen()).v;
    const id = newId();
    // A move (a game's move, a card, a claim): sent, or queued for a socket opening,
    // and marked as on its way.
    let move = null;
    if (button.dataset.action === "act") {
      let chosen;
      try { chosen = JSON.parse(button.dataset.move); } catch (err) { return; }
      if ("withPicks" in button.dataset) chosen.cards = selected(screen());
      move = { action: "act", move: chosen, version, id };
    } else if (button.dataset.action === "play") {
      move = { action: "play", card: button.dataset.card, version, id };
    } else if (button.dataset.action === "claim") {
      move = { action: "claim", winner: Number(button.dataset.winner), version, id };
    }
    if (move) {
      if (send(move, { move: true })) sending(button, id);
    } else if (button.dataset.action === "rules-read") {
      if (send({ action: "rules_read", id })) rulesReadTapped = true;
    } else if (button.dataset.gesture) {
      if (button.dataset.gesture === "clear") clearPad();
      send({ action: "gesture", kind: button.dataset.gesture, id });
    }
  });

  // A card, a claim or a move on its way is marked (dimmed, and busy for a screen reader)
  // until the screen shows it: on a slow or dying connection the student sees that
  // the tap was taken, not a screen that seems to ignore it, and a second tap on it
  // sends nothing. The server's "received" comes before the screen that shows the
  // move, and another seat's screen can come before both: the move is remembered
  // here and marked again on each screen until one of the version it made arrives.
  let pending = null; // { key, id, upTo: the move's version once received, or null }
  const actionKey = (b) => [b.dataset.action, b.dataset.card, b.dataset.move, b.dataset.winner].join("|");
  function sending(button, id) {
    sent();  // a move tapped before: only the last goes (it was queued) or counts
    pending = { key: actionKey(button), id, upTo: null };
    markPending();
  }
  function markPending() {
    if (!pending) return;
    if (pending.upTo !== null && versions(screen()).v >= pending.upTo) { sent(); return; }
    for (const b of screen().querySelectorAll("[data-action]")) {
      if (actionKey(b) !== pending.key || b.classList.contains("sending")) continue;
      b.classList.add("sending");
      b.setAttribute("aria-busy", "true");
    }
  }
  // Received as version v: marked until a screen of v (or newer) is shown, for a few
  // seconds at most; refused, lost or received with no version: unmarked now. (The
  // answer to something else, "I have read my rules", leaves it.)
  function received(msg) {
    if (!pending || msg.id !== pending.id) return;
    if (!msg.v || versions(screen()).v >= msg.v) { sent(); return; }
    const was = pending;
    was.upTo = msg.v;
    setTimeout(() => { if (pending === was) sent(); }, 4000);
  }
  function sent() {
    pending = null;
    for (const b of app.querySelectorAll(".sending")) {
      b.classList.remove("sending");
      b.removeAttribute("aria-busy");
    }
  }

  const EMOJI = JSON.parse(app.dataset.emoji || "{}");
  function react(msg) {
    const button = talk.querySelector(`.palette [data-gesture="${CSS.escape(msg.kind)}"]`);
    // The player's own gesture, echoed back: seen under their name, heard as "You: Stop".
    return showReaction(msg.name, EMOJI[msg.kind] || msg.kind,
      button ? button.getAttribute("aria-label") : msg.kind, msg.by);
  }
  // The reactions are one row, the newest first, and a person's same gesture again
  // while its chip is shown keeps that chip longer and is not said again: in a
  // dispute the row sits above the palette and the pad, and a flurry of gestures
  // wrapped it, pushing both down under the fingers reaching for them (and back up
  // 4 s later), and a 👍 tapped twelve times was said twelve times.
  const reactionsShown = new Map(); // "by|label" → { item, timer }
  function showReaction(name, emoji, label, by) {
    const box = talk.querySelector(".reactions");
    const key = `${by}|${label}`;
    const forget = (entry) => () => {
      entry.item.remove();
      if (reactionsShown.get(key) === entry) reactionsShown.delete(key);
    };
    const shown = reactionsShown.get(key);
    if (shown && shown.item.isConnected) {
      clearTimeout(shown.timer);
      shown.timer = setTimeout(forget(shown), REACTION_MS);
      return shown.item;
    }
    const item = document.createElement("span");
    item.className = "reaction";
    // Seen: "✋ Ana"; heard (the log is a live region): "Ana: Stop", not "raised hand Ana".
    const mark = document.createElement("span");
    mark.setAttribute("aria-hidden", "true");
    // The name apart from the emoji (a right-to-left name keeps its own direction).
    const who = document.createElement("bdi");
    who.textContent = name;
    mark.append(`${emoji} `, who);
    const words = document.createElement("span");
    words.className = "visually-hidden";
    words.textContent = `${by === me ? "You" : name}: ${label}`;
    item.append(mark, words);
    box.prepend(item);
    const entry = { item, timer: null };
    entry.timer = setTimeout(forget(entry), REACTION_MS);
    reactionsShown.set(key, entry);
    return item;
  }

  // Another seat drew on the pad, or cleared it: said among the reactions (a stroke
  // arrives in silence otherwise, on a pad most phones keep closed), once per drawer
  // while the last one is shown; and a closed pad's switch says there is something
  // new on it until it is opened.
  const REACTION_MS = 4000;
  const padNoted = new Map();
  function padNews(msg, what) {
    const key = `${what}:${msg.by}`;
    const shown = padNoted.get(key);
    if (!shown || !shown.isConnected) {
      padNoted.set(key, what === "drew"
        ? showReaction(msg.name, "✏️", "drew on the pad", msg.by)
        : showReaction(msg.name, "🧽", "cleared the pad", msg.by));
    }
    const wrap = pad && pad.closest("details");
    if (wrap && !wrap.open && what === "drew") padNewMark(true);
  }
  function padNewMark(on) {
    const mark = pad && pad.closest("details").querySelector(".pad-new");
    if (mark) mark.hidden = !on;
  }

  // ---- the shared drawing pad (touch and mouse through pointer events)
  const ctx = pad ? pad.getContext("2d") : null;
  function clearPad() { if (ctx) ctx.clearRect(0, 0, pad.width, pad.height); }
  function drawStroke(points) {
    if (!ctx || !points || !points.length) return;
    ctx.lineWidth = 4; ctx.lineCap = "round"; ctx.strokeStyle = "#1b1b1f";
    ctx.beginPath();
    ctx.moveTo(points[0][0] * pad.width, points[0][1] * pad.height);
    for (const [x, y] of points.slice(1)) ctx.lineTo(x * pad.width, y * pad.height);
    if (points.length === 1) ctx.lineTo(points[0][0] * pad.width + 0.1, points[0][1] * pad.height);
    ctx.stroke();
  }
  if (pad) {
    // Opened under the claim or at the foot of the page, the pad is scrolled into view.
    const wrap = pad.closest("details");
    wrap.addEventListener("toggle", () => {
      if (!wrap.open) return;
      wrap.querySelector(".pad-new").hidden = true;
      pad.scrollIntoView({ block: "nearest" });
    });
    let stroke = null;
    // A point is kept to four decimals, as the server stores it: at full precision a
    // stroke of the 2,000 points both allow passed the socket's 64 kB message limit.
    const at = (v) => Math.round(Math.min(1, Math.max(0, v)) * 1e4) / 1e4;
    const point = (e) => {
      const r = pad.getBoundingClientRect();
      return [at((e.clientX - r.left) / r.width), at((e.clientY - r.top) / r.height)];
    };
    const end = () => {
      if (stroke) { drawStroke(stroke); send({ action: "gesture", kind: "drawing", points: stroke, id: newId() }); }
      stroke = null;
      penMark();
    };
    pad.style.touchAction = "none";
    pad.addEventListener("pointerdown", (e) => {
      end();  // a keyboard line still down goes first
      byKeys = false;
      stroke = [point(e)];
      pad.setPointerCapture(e.pointerId);
    });
    pad.addEventListener("pointermove", (e) => {
      if (!stroke || stroke.length >= 2000) return;
      stroke.push(point(e));
      drawStroke(stroke.slice(-2));
    });
    pad.addEventListener("pointerup", end);
    pad.addEventListener("pointercancel", end);

    // The keyboard's pen (the ring .pad-pen shows where it is): the arrow keys move it
    // a fortieth of the pad (with Shift a tenth), drawing while it is down; Space or
    // Enter puts it down and lifts it, and a lifted line goes to the table (at the
    // 2,000 points a line may have, it goes and the next begins). Leaving the pad
    // lifts the keyboard's pen too (not a finger's or a mouse's line).
    const penRing = wrap.querySelector(".pad-pen");
    let pen = [0.5, 0.5];
    let byKeys = false;
    function penMark() {
      penRing.style.left = `${Math.round(pen[0] * 1e4) / 100}%`;
      penRing.style.top = `${Math.round(pen[1] * 1e4) / 100}%`;
      penRing.classList.toggle("down", !!stroke);
    }
    penMark();
    const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    pad.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (MOVES[e.key]) {
        e.preventDefault();
        const step = e.shiftKey ? 0.1 : 0.025;
        const next = [at(pen[0] + MOVES[e.key][0] * step), at(pen[1] + MOVES[e.key][1] * step)];
        if (next[0] === pen[0] && next[1] === pen[1]) announcer.say("Edge of the pad.");
        if (stroke) {
          if (stroke.length >= 2000) { end(); stroke = [pen]; }
          stroke.push(next);
          drawStroke([pen, next]);
        }
        pen = next;
        penMark();
      } else if (e.key === " " || e.key === "Enter") {
        e.preventDefault();
        // Said too: the ring is for the eye.
        if (stroke) { end(); announcer.say("Pen lifted: the line is on your table's pads."); }
        else {
          byKeys = true; stroke = [pen]; drawStroke(stroke); penMark();
          announcer.say("Pen down: the arrow keys draw.");
        }
      }
    });
    pad.addEventListener("blur", () => { if (byKeys) end(); });
  }

  // The seat is no longer this phone's (moved with the PIN, or removed): nothing of
  // it stays on the screen, no hand and no PIN (the gestures and the pad at its foot
  // go with it), only what happened and a way on. Nor in the tab's title, `tab` (it
  // said "Your turn" still, heard first on switching back to the browser), nor in the
  // screen's attributes (its table and game).
  function retire(title, text, tab) {
    showConnection("", { quiet: true });
    const section = document.createElement("section");
    section.className = "notice";
    section.setAttribute("role", "alert");
    const heading = document.createElement("h1");
    heading.textContent = title;
    const line = document.createElement("p");
    line.textContent = text;
    const link = document.createElement("a");
    link.href = "/join";
    link.className = "button";
    link.textContent = "Go to the join page";
    section.append(heading, " ", line, link);
    const root = screen();
    root.replaceChildren(section);
    ["title", "table", "game", "canGesture"].forEach((key) => { delete root.dataset[key]; });
    document.title = `${tab} · ${pageTitle(root)}`;
    talk.hidden = true;
    announcer.hush();  // the alert is read; not what the last screen said
  }

  const socket = liveSocket({
    path: app.dataset.ws,
    // The first connection says which screen the page was drawn with: the server
    // sends it again only if it is no longer the current one.
    firstPath: app.dataset.have ? app.dataset.ws + "?have=" + encodeURIComponent(app.dataset.have) : null,
    onMessage: handle,
    onStatus: showConnection,
    // The socket died with a move sent and not answered: it may not have reached the
    // table. The new screen shows whether it did.
    onUnanswered() {
      lastAction = { key: "", at: 0, game: "" };
      sent();
      showToast("The connection dropped. If your move is not on the table, tap it again.");
    },
    onClose(code) {
      if (code === 4401) { location.href = "/join"; return true; }
      if (code === 4409) {
        retire("This seat was moved to another device.",
          "Your rejoin PIN moved it to another phone or browser: play there. This one is out of the game.",
          "Seat moved away");
        return true;
      }
      if (code === 4410) {
        retire("The facilitator removed you from this workshop.",
          // The way back (roster.player_let_back_in): it said "join again with the
          // workshop's code", which seats them anew, not in their seat.
          "If that was a mistake, ask the facilitator to let you back in: they will tell you "
            + "a new PIN. Then, on the join page, open “Moving to another phone?” and type "
            + "the workshop's code, your name and that PIN.",
          "Removed");
        return true;
      }
      return false;
    },
  });
  placeTalk(screen());
  updatePicks(screen());
  showTitle(screen());
  startClocks();
})();
