// What the player's and the facilitator's pages share: local countdowns between
// pushes, and one websocket that comes back by itself (backoff, phones waking
// up, the network returning, a socket that silently died).
(function () {
  "use strict";
  let clockTimer = null;

  function tick() {
    document.querySelectorAll("[data-seconds]").forEach((el) => {
      if (el.dataset.running !== "1" || !el.dataset.end) return;
      const left = Math.max(0, Math.round((Number(el.dataset.end) - Date.now()) / 1000));
      const text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (el.textContent !== text) el.textContent = text;
    });
  }

  // The server's clock less this device's (ms), or null before any sample: NTP's
  // estimate from the pings that ask the server's time (liveSocket), each answer's
  // time taken as read halfway through its round trip. The sample with the shortest
  // round trip of the last few is kept: its error is at most half that trip, and a
  // trip held up (a busy server, a message queued behind a screen) says least. A
  // device's clock may be minutes wrong; only the difference is used.
  // The device's clock may also be set while the page runs (a phone's by the network,
  // a laptop's NTP step, a phone's that stood still in its sleep): the samples taken
  // before then measured a clock that is no longer there, and the fastest of them
  // stayed the best for up to eight pings, every countdown off by the step ("shows
  // 4:56; true left 356 s"; a review's test). The true offset lies within half a trip
  // of each sample's, so two samples whose spans (plus AGREE_MS, the rounding and the
  // drift between pings) do not meet say the clock was set between them: the older one
  // goes, and the newest is kept whatever its trip.
  // The trip is the longer of the two clocks' measures: the device's clock (Date) set
  // while the ping was out would lengthen it, shorten it, or make it less than nothing;
  // performance.now() is never set but may stand still while the device sleeps. Taken
  // the longer, a sample is never surer than it is.
  const SAMPLES = 8;
  const AGREE_MS = 50;
  let samples = [];
  let offset = null;
  function clockSample(sent, serverNow, received, monoTrip) {
    const trip = Math.max(received - sent, monoTrip);
    if (!(trip >= 0) || !Number.isFinite(serverNow)) return;
    const taken = { trip, offset: serverNow - (received - trip / 2) };
    const agree = (s) => Math.abs(s.offset - taken.offset) <= (s.trip + taken.trip) / 2 + AGREE_MS;
    samples = samples.filter(agree).concat([taken]).slice(-SAMPLES);
    const best = samples.reduce((a, b) => (b.trip < a.trip ? b : a));
    if (best.offset === offset) return;
    offset = best.offset;
    if (clockTimer !== null) startClocks();
  }

  // Calls onSet(step) when the device's clock (Date) moves by more than JUMP_MS against
  // performance.now(), which no one sets (step: how far, in ms; forward is more than
  // nothing): a clock set while the page runs is noticed within WATCH_MS, not at the
  // next ping (10 s), and the server asked the time at once. The other cause
  // (performance.now() stood still while the device slept, Date did not) costs one
  // ping whose answer agrees with the samples kept, and changes nothing; the socket
  // checks itself on a step forward, which may be that sleep (liveSocket).
  const JUMP_MS = 1000;
  const WATCH_MS = 500;
  function watchClock(onSet) {
    let skew = Date.now() - performance.now();
    setInterval(() => {
      const now = Date.now() - performance.now();
      if (Math.abs(now - skew) > JUMP_MS) onSet(now - skew);
      skew = now;
    }, WATCH_MS);
  }

  // Every [data-seconds] counts down to its end on this device's clock. With a
  // data-deadline (the server's, in ms since the epoch) and the offset measured, the
  // end is that deadline on this clock: a claim window then ends here when the server
  // closes it, not as late as the screen took to come (a phone at 800 ms still showed
  // "0:01" on a closed window, and a claim tapped then was refused). Such an end moved
  // by less than DRIFT_MS (a better sample) stays, so a clock drawn again is not set
  // back up.
  // Otherwise (no sample yet, a server that sends no deadline) it counts from the
  // seconds the server said when it was drawn: a clock just put in is set from them;
  // one already counting keeps its end (a push that left its region as it was must not
  // set it back to that region's older time). A clock drawn again (a new screen) keeps
  // the end it counted to when the new one's is within 2.5 s of it: the server says
  // whole seconds, and says them late by the network, so each new screen moved the end
  // and the clock went back up a second.
  // A clock is known by its warning's key (a claim's, a dispute's), else its class
  // (a paused round's is another), and its place among those alike.
  const DRIFT_MS = 100;
  let lastEnds = new Map();
  function startClocks() {
    const now = Date.now();
    const ends = new Map();
    const alike = {};
    document.querySelectorAll("[data-seconds]").forEach((el) => {
      const base = el.dataset.warnKey || el.className;
      alike[base] = (alike[base] || 0) + 1;
      const key = base + "#" + alike[base];
      const was = lastEnds.get(key);
      const deadline = Number(el.dataset.deadline);
      if (offset !== null && deadline > 0) {
        const fresh = Math.round(deadline - offset);
        el.dataset.end = String(was !== undefined && Math.abs(fresh - was) < DRIFT_MS ? was : fresh);
      } else if (!el.dataset.end) {
        const fresh = now + Number(el.dataset.seconds) * 1000;
        el.dataset.end = String(was !== undefined && Math.abs(fresh - was) < 2500 ? was : fresh);
      }
      ends.set(key, Number(el.dataset.end));
    });
    lastEnds = ends;
    clearInterval(clockTimer);
    tick();
    clockTimer = setInterval(tick, 250);
  }

  // options: path (firstPath: the first connection's, if it differs), onMessage(msg),
  // onStatus(text or ""), onClose(code) → true when the close is final (no
  // reconnect), onUnanswered() (a socket given up on with a move sent and not
  // answered), offlineText.
  const OFFLINE = "Offline — waiting for the network…";
  // Everything sent is answered (a move by its ack or its error, a sync by the screen,
  // a ping by a pong, a gesture by its echo), but an "ack" of a push. A socket that
  // leaves a message unanswered this long is taken for dead and replaced: a socket
  // that died without closing (a phone that slept, a network switched) is only
  // closed by the browser a minute after it is told to close, and until then what is
  // sent on it goes nowhere.
  // On a slow network (the socket's opening and answers measured), three round trips
  // if longer, up to 20 s: a socket slow but working was taken for dead, its move's
  // answer thrown away ("The connection dropped"), and replaced again at every ping.
  // These waits, and the silence's, are measured on performance.now(), not on the
  // device's clock: set forward a minute while the page ran, that clock made a working
  // socket a minute silent at the next check (replaced, "Reconnecting…", the screen sent
  // again); set back, it blinded the silence check and stretched a wait for an answer
  // by as long (tests/e2e/test_clock_socket_browser.py).
  const ANSWER_MS = 6000;
  const SILENT_MS = 25000;
  // A device that slept: Date ran on, performance.now() (and the timers) may have stood
  // still, so the silence check would not see the sleep, and a socket that died in it
  // would wait for the next check's ping and its answer's wait (up to 16 s). Date's
  // step forward (watchClock) is taken for a possible sleep: the socket is asked at
  // once and replaced if no answer comes within WAKE_MS (three round trips if longer).
  // The step may as well be the clock set: a working socket answers, and stays; but one
  // whose round trip has just grown past that (a network slow only since the trips
  // were measured) is replaced once ("Reconnecting…", the screen sent again, no move
  // lost: none is given up on here). That is the price of finding a dead socket within
  // 3 s of a wake; a longer wait would leave a woken phone on a dead socket as long.
  // Nor is the check skipped when a message came in shortly before the step ("a socket
  // that just delivered is alive"): performance.now() may have stood still through the
  // sleep, so a message that came just before it looks a moment old, and one comes
  // often (a ping's answer every 10 s, a push at each move); a phone woken on a dead
  // socket would wait for the next check's ping and its answer's wait, up to 16 s
  // (tests/e2e/test_clock_socket_browser.py: the clock-only case steps just after an
  // answer).
  const WAKE_MS = 3000;

  function liveSocket(options) {
    let ws = null;
    let backoff = 500;
    let reconnectTimer = null;
    let lastMessage = performance.now();
    // The first connection may say what the page was drawn with; a reconnection asks
    // for everything.
    let firstPath = options.firstPath || null;
    // A close the page called final (the seat gone elsewhere or removed): no socket
    // again, whatever wakes the page (a new one would only be refused).
    let finished = false;
    // When the oldest message still unanswered went out (0: none), and whether it or a
    // later one was a move (not a ping or a sync).
    let waitingSince = 0;
    let moveWaiting = false;
    let answerTimer = null;
    // A move tapped while the socket opens (the page just drawn, the phone woken, a
    // socket replaced): sent once it is open.
    let queued = null;
    // The slowest round trip seen lately (ms): a socket's opening, or an answer's wait;
    // a faster one brings it down a tenth at a time (a push that came in the middle of
    // a wait is no round trip).
    let roundTrip = 0;
    const seen = (ms) => { roundTrip = Math.max(ms, Math.round(roundTrip * 0.9)); };
    const answerMs = () => Math.max(ANSWER_MS, Math.min(3 * roundTrip, 20000));
    const wakeMs = () => Math.max(WAKE_MS, Math.min(3 * roundTrip, 20000));
    // When the ping that asks the server's time went, on both clocks (null: none out).
    // One at a time, so that its answer (the only pong with a time) is known; one
    // unanswered for 30 s (a ping refused as too many) is given up, counted on the clock
    // no one sets (a device's clock set forward gave it up at once, and the next answer
    // was taken for the later ping's). The first goes as a socket opens: the clocks
    // count to the server's deadlines from then on (clockSample). The device's clock
    // set asks again at once (watchClock), or as soon as the ask out is answered (it
    // went before, and its trip may be the step's length).
    let timeAsked = null;
    let askAgain = false;
    const asking = () => timeAsked !== null && performance.now() - timeAsked.mono <= 30000;
    function ping() {
      const ask = !asking();
      const at = { date: Date.now(), mono: performance.now() };
      if (send(ask ? { action: "ping", clock: 1 } : { action: "ping" }) && ask) timeAsked = at;
    }
    function askTime() {
      if (asking()) askAgain = true;
      else if (isOpen()) ping();
    }

    function connect() {
      clearTimeout(reconnectTimer);
      if (finished) return;
      if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
      const proto = location.protocol === "https:" ? "wss://" : "ws://";
      const sock = new WebSocket(proto + location.host + (firstPath || options.path));
      ws = sock;
      firstPath = null;
      timeAsked = null;  // a ping on an earlier socket is answered there, or never
      askAgain = false;  // the opening asks
      const opening = performance.now();
      sock.onopen = () => {
        seen(performance.now() - opening);
        backoff = 500;
        lastMessage = performance.now();
        options.onStatus("");
        if (queued) { const msg = queued; queued = null; send(msg); }
        ping();
      };
      sock.onmessage = (e) => {
        if (sock !== ws) return;  // a socket given up on: its late words are stale
        lastMessage = performance.now();
        if (waitingSince) seen(lastMessage - waitingSince);
        waitingSince = 0;
        moveWaiting = false;
        const msg = JSON.parse(e.data);
        if (msg.t === "pong" && msg.now !== undefined && timeAsked) {
          clockSample(timeAsked.date, msg.now, Date.now(), lastMessage - timeAsked.mono);
          timeAsked = null;
          if (askAgain) {
            askAgain = false;
            ping();
          }
        }
        options.onMessage(msg);
      };
      sock.onclose = (e) => {
        // A socket already replaced (dropped offline or silent, and the page opened
        // another meanwhile): its late close says nothing about the one in use.
        if (sock !== ws) return;
        // Closed before it opened (the move waiting for it did not go), or with a move
        // unanswered (it may not have gone: a server restarted).
        const lost = forget();
        if (options.onClose && options.onClose(e.code)) { finished = true; return; }
        if (lost && options.onUnanswered) options.onUnanswered();
        sayLost();
        reconnectTimer = setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, 8000);
      };
    }
    // A socket lost: "Reconnecting…", or, the network gone, still saying so.
    function sayLost() {
      options.onStatus(navigator.onLine === false ? OFFLINE : options.reconnectingText || "Reconnecting…");
    }
    function isOpen() { return ws && ws.readyState === WebSocket.OPEN; }
    function send(msg) {
      if (!isOpen()) return false;
      ws.send(JSON.stringify(msg));
      if (msg.action !== "ack") {
        if (!waitingSince) {
          waitingSince = performance.now();
          clearTimeout(answerTimer);
          answerTimer = setTimeout(unanswered, answerMs());
        }
        if (msg.action !== "ping" && msg.action !== "sync") moveWaiting = true;
      }
      return true;
    }
    // A move: sent now if the socket is open, else once it opens if it is opening
    // (the last such move only); false if neither.
    function sendWhenOpen(msg) {
      if (send(msg)) return true;
      if (finished || !ws || ws.readyState !== WebSocket.CONNECTING) return false;
      queued = msg;
      // A socket still opening when an answer would have come is given up on (the
      // move said not to have gone), as one that leaves a message unanswered.
      const opening = ws;
      setTimeout(() => { if (ws === opening && queued === msg) drop(); }, answerMs());
      return true;
    }
    function unanswered() {
      if (!waitingSince || !isOpen()) return;
      const left = waitingSince + answerMs() - performance.now();
      if (left > 0) { answerTimer = setTimeout(unanswered, left); return; }
      drop();
    }
    // What waited on a socket closed or given up on goes with it (and its wait is no
    // round trip): true if a move did, sent and unanswered or queued for its opening.
    function forget() {
      const lost = moveWaiting || queued !== null;
      clearTimeout(answerTimer);
      waitingSince = 0;
      moveWaiting = false;
      queued = null;
      timeAsked = null;
      askAgain = false;
      return lost;
    }
    // Give the socket up now and open another: its close is not waited for (the
    // browser may take a minute), and nothing more is sent on it.
    function drop() {
      const sock = ws;
      ws = null;
      if (sock) sock.close();
      const lost = forget();
      if (finished) return;
      sayLost();
      if (lost && options.onUnanswered) options.onUnanswered();
      connect();
    }
    function wake() {
      if (document.visibilityState !== "visible") return;
      if (isOpen()) send({ action: "sync" });
      else { backoff = 500; connect(); }
    }
    document.addEventListener("visibilitychange", wake);
    window.addEventListener("pageshow", wake);
    window.addEventListener("online", wake);
    // The browser knows the network is gone before the socket does: say so, and
    // drop the socket so that nothing is sent into the void.
    window.addEventListener("offline", () => {
      if (finished) return;
      options.onStatus(OFFLINE);
      if (ws) drop();
    });
    // A socket that silently died (no answer to pings) is replaced.
    setInterval(() => {
      if (!isOpen()) return;
      if (performance.now() - lastMessage > SILENT_MS) { drop(); return; }
      ping();
    }, 10000);
    // After a step forward of the device's clock (a sleep, maybe: WAKE_MS) the socket is
    // replaced if nothing comes in within wakeMs(): a ping goes now unless a message
    // already waits for its answer (the sync sent as the page is seen again, wake()).
    // Not while a move waits, one sent before the check or during it (a student tapping
    // as the phone wakes, its radio still slow): the server may take longer to answer
    // one, and a socket given up on with a move out throws its answer away and tells the
    // student it may be lost; the move's own wait (answerMs, from the oldest message
    // unanswered) ends a dead socket.
    function checkAwake() {
      if (!isOpen() || moveWaiting) return;
      const sock = ws;
      const asked = performance.now();
      if (!waitingSince) ping();
      setTimeout(() => { if (ws === sock && lastMessage < asked && !moveWaiting) drop(); }, wakeMs());
    }
    watchClock((step) => {
      // The time is asked again (askTime): once answered if an ask out went before the
      // step, else now; checkAwake's ping, when it goes, is that ask.
      const before = asking();
      if (step > 0) checkAwake();
      if (before || !asking()) askTime();
    });
    connect();
    return { send, sendWhenOpen, connect, isOpen };
  }

  // A live region (role="log") that says each line as its own paragraph, which leaves
  // SAID_MS later by itself: a line that comes while the last is still being read is
  // read after it, not in its place (bots and quick players move every second or
  // two); the same words said twice (a new dispute at the same table) are two lines;
  // and read from the top of the page later, an old line is not news long after it
  // happened ("Dispute at table 1" after it was settled). hush() empties it at once.
  const SAID_MS = 20000;
  function speaker(region) {
    function hush() {
      if (region) region.textContent = "";
    }
    function say(text) {
      if (!region || !text) return;
      const line = document.createElement("p");
      line.textContent = text;
      region.append(line);
      setTimeout(() => line.remove(), SAID_MS);
    }
    return { say, hush };
  }

  // A clock with data-warn says it once, data-warn-at seconds before its end (10
  // unless set): the clocks tick outside any live region, so nothing else says time
  // is short. Only a clock seen with more than that left is said (one shorter than
  // that would be said over its own lines); data-warn-key tells one clock's run from
  // the next (a new claim, a round's new deadline).
  function warnings(root, say) {
    let armed = "";
    let warned = "";
    setInterval(() => {
      const clock = root().querySelector("[data-warn][data-end][data-running='1']");
      if (!clock) return;
      const key = clock.dataset.warnKey;
      const at = Number(clock.dataset.warnAt || 10);
      const left = (Number(clock.dataset.end) - Date.now()) / 1000;
      if (left > at + 0.5) armed = key;
      else if (left > 0 && armed === key && warned !== key) {
        warned = key;
        say(clock.dataset.warn);
      }
    }, 500);
  }

  // The connection line (role="status"): written only when it changes (each retry
  // set the same words again, and a screen reader may read them each time), and
  // `back` said for a few seconds once connected again. `quiet`: emptied without it
  // (the page is done with the socket).
  function connectionLine(el, back) {
    let lost = false;
    let timer = null;
    function show(text, { quiet = false } = {}) {
      if (!el) return;
      clearTimeout(timer);
      if (!text && lost && !quiet) {
        text = back;
        timer = setTimeout(() => show("", { quiet: true }), 5000);
      }
      lost = Boolean(text) && text !== back;
      if (el.textContent !== (text || "")) el.textContent = text || "";
      el.hidden = !text;
    }
    return show;
  }

  // A table wider than the window scrolls sideways in its box (.scroll): a keyboard must
  // be able to reach that box to scroll it, and a screen reader hears what it holds
  // (its table's caption). A box that fits is no extra stop on the way (the server
  // draws the facilitator's boxes as stops, so they are reachable without script).
  // Named by the caption itself (aria-labelledby), as it is heard: its text would
  // name the box with the marks the caption hides ("up arrow moved up"). A box with
  // no caption (a report's chart on a phone) is named by its data-label.
  function scrollers() {
    document.querySelectorAll(".scroll").forEach((box, i) => {
      const caption = box.querySelector("caption");
      if (box.scrollWidth > box.clientWidth + 1) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        if (caption) {
          if (!caption.id) caption.id = "scroll-caption-" + i;
          box.setAttribute("aria-labelledby", caption.id);
        } else if (box.dataset.label) {
          box.setAttribute("aria-label", box.dataset.label);
        }
      } else if (box.hasAttribute("tabindex") && box !== document.activeElement) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-labelledby");
        box.removeAttribute("aria-label");
      }
    });
  }

  window.Barnga = { startClocks, liveSocket, speaker, warnings, connectionLine, scrollers };
})();
