// The debrief report: the print button, and every <details> opened for printing
// (closed ones do not print). A file, not inline script: the Content-Security-Policy
// allows scripts from our static files only (tournament/security.py).
(function () {
  "use strict";
  window.addEventListener("beforeprint", () => {
    document.querySelectorAll("details").forEach((d) => { d.open = true; });
  });
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-print]")) window.print();
  });
})();
