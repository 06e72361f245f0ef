// The debrief report: the print button, the sideways-scrolling tables reachable by
// keyboard, and every <details> opened for printing
// (closed ones do not print) but the long lists folded for their length
// (.print-if-open: every clash, every dispute past twenty, the per-player rows past
// sixty players), which print only if opened on screen first. A file, not inline script: the Content-Security-Policy
// allows scripts from our static files only (tournament/security.py).
(function () {
  "use strict";
  window.addEventListener("beforeprint", () => {
    document.querySelectorAll("details:not(.print-if-open)").forEach((d) => { d.open = true; });
  });
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-print]")) window.print();
  });
  // Sideways-scrolling tables: a stop for the keyboard only when they do not fit (live.js).
  const { scrollers } = window.Barnga;
  scrollers();
  window.addEventListener("resize", scrollers);
  // A table inside closed <details> (the trick-by-trick clash list): Chromium
  // measures it closed, a browser that lays out nothing there until it opens does not.
  document.addEventListener("toggle", scrollers, true);
})();
