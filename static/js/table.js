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
  let ws = null;
  let backoff = 500;
  let reconnectTimer = null;
  let lastPong = Date.now();
  let counter = 0;

  function screen() { return document.getElementById("screen"); }
  function versions(el) {
    return { v: Number(el.dataset.version || 0), w: Number(el.dataset.wversion || 0) };
  }

  function showConnection(text) {
    if (!text) { connection.hidden = true; connection.textContent = ""; return; }
    connection.hidden = false; connection.textContent = text;
  }
  let toastTimer = null;
  function showToast(text) {
    toast.textContent = text; toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 4000);
  }

  function connect() {
    clearTimeout(reconnectTimer);
    if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(proto + location.host + app.dataset.ws);
    ws.onopen = () => { backoff = 500; lastPong = Date.now(); showConnection(""); };
    ws.onmessage = (e) => handle(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (e.code === 4401) { location.href = "/join"; return; }
      if (e.code === 4409) { showConnection("This seat was moved to another device."); return; }
      if (e.code === 4410) { showConnection("The facilitator removed you from this workshop."); return; }
      showConnection("Reconnecting…");
      reconnectTimer = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 8000);
    };
  }

  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      showConnection("Offline — reconnecting…");
      connect();
      return false;
    }
    ws.send(JSON.stringify(msg));
    return true;
  }

  function handle(msg) {
    lastPong = Date.now();
    switch (msg.t) {
      case "view": return swap(msg);
      case "error": return showToast(msg.message);
      case "gesture": return react(msg);
      case "stroke": if (msg.by !== me) drawStroke(msg.points); return;
      case "strokes": clearPad(); (msg.strokes || []).forEach(drawStroke); return;
      case "clear": return clearPad();
      case "pong": return;
    }
  }

  function swap(msg) {
    const current = screen();
    const have = versions(current);
    // Older than what is shown: a late message from before a resync.
    if (!msg.force && msg.v < have.v && msg.w <= have.w) return;
    const tpl = document.createElement("template");
    tpl.innerHTML = msg.html.trim();
    const next = tpl.content.firstElementChild;
    const focusedKey = document.activeElement && document.activeElement.dataset
      ? (document.activeElement.dataset.card || document.activeElement.dataset.winner) : null;
    current.replaceWith(next);
    if (focusedKey) {
      const again = next.querySelector(`[data-card="${focusedKey}"],[data-winner="${focusedKey}"]`);
      if (again) again.focus();
    }
    talk.hidden = next.dataset.canGesture !== "1";
    startClocks();
  }

  // ---- clocks: every [data-seconds] counts down locally between pushes
  let clockTimer = null;
  function startClocks() {
    const now = Date.now();
    document.querySelectorAll("[data-seconds]").forEach((el) => {
      el.dataset.end = String(now + Number(el.dataset.seconds) * 1000);
    });
    clearInterval(clockTimer);
    tick();
    clockTimer = setInterval(tick, 250);
  }
  function tick() {
    document.querySelectorAll("[data-seconds]").forEach((el) => {
      if (el.dataset.running !== "1") return;
      const left = Math.max(0, Math.round((Number(el.dataset.end) - Date.now()) / 1000));
      const text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (el.textContent !== text) el.textContent = text;
    });
  }

  // ---- taps
  app.addEventListener("click", (e) => {
    const button = e.target.closest("[data-action],[data-gesture]");
    if (!button || !app.contains(button)) return;
    const version = versions(screen()).v;
    const id = `${me}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
    if (button.dataset.action === "play") {
      send({ action: "play", card: button.dataset.card, version, id });
    } else if (button.dataset.action === "claim") {
      send({ action: "claim", winner: Number(button.dataset.winner), version, id });
    } else if (button.dataset.gesture) {
      if (button.dataset.gesture === "clear") clearPad();
      send({ action: "gesture", kind: button.dataset.gesture });
    }
  });

  const EMOJI = JSON.parse(app.dataset.emoji || "{}");
  function react(msg) {
    const box = talk.querySelector(".reactions");
    const item = document.createElement("span");
    item.className = "reaction";
    item.textContent = `${EMOJI[msg.kind] || msg.kind} ${msg.name}`;
    box.appendChild(item);
    setTimeout(() => item.remove(), 4000);
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
    let stroke = null;
    const point = (e) => {
      const r = pad.getBoundingClientRect();
      return [Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)),
              Math.min(1, Math.max(0, (e.clientY - r.top) / r.height))];
    };
    pad.style.touchAction = "none";
    pad.addEventListener("pointerdown", (e) => { stroke = [point(e)]; pad.setPointerCapture(e.pointerId); });
    pad.addEventListener("pointermove", (e) => {
      if (!stroke || stroke.length >= 2000) return;
      stroke.push(point(e));
      drawStroke(stroke.slice(-2));
    });
    const end = () => {
      if (stroke) { drawStroke(stroke); send({ action: "gesture", kind: "drawing", points: stroke }); }
      stroke = null;
    };
    pad.addEventListener("pointerup", end);
    pad.addEventListener("pointercancel", end);
  }

  // ---- phones kill sockets in the background: recover when the page is seen again
  function wake() {
    if (document.visibilityState !== "visible") return;
    if (ws && ws.readyState === WebSocket.OPEN) send({ action: "sync" });
    else { backoff = 500; connect(); }
  }
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("pageshow", wake);
  window.addEventListener("online", wake);
  // The browser knows the network is gone before the socket does: say so, and
  // drop the socket so that nothing is sent into the void.
  window.addEventListener("offline", () => {
    showConnection("Offline — waiting for the network…");
    if (ws) ws.close();
  });
  // A socket that silently died (no answer to pings) is replaced.
  setInterval(() => {
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - lastPong > 25000) { ws.close(); return; }
    send({ action: "ping" });
  }, 10000);

  startClocks();
  connect();
})();
