// The debrief report: the print button, and every <details> opened for printing
// (closed ones do not print) but the trick-by-trick clash list, which prints only
// if opened on screen first. A file, not inline script: the Content-Security-Policy
// allows scripts from our static files only (tournament/security.py).
(function () {
  "use strict";
  window.addEventListener("beforeprint", () => {
    document.querySelectorAll("details:not(.print-if-open)").forEach((d) => { d.open = true; });
  });
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-print]")) window.print();
  });
})();
