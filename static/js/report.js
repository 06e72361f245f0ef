// The debrief report: the print button, the sideways-scrolling tables reachable by
// keyboard, and every <details> opened for printing
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
  // A table wider than the window scrolls sideways in its box: a keyboard must be
  // able to reach that box to scroll it, and a screen reader hears what it holds
  // (its table's caption). A box that fits is no extra stop on the way.
  // Named by the caption itself (aria-labelledby), as it is heard: its text would
  // name the box with the marks the caption hides ("up arrow moved up").
  function scrollers() {
    document.querySelectorAll(".scroll").forEach((box, i) => {
      const caption = box.querySelector("caption");
      if (box.scrollWidth > box.clientWidth + 1) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        if (caption) {
          if (!caption.id) caption.id = "scroll-caption-" + i;
          box.setAttribute("aria-labelledby", caption.id);
        }
      } else if (box.hasAttribute("tabindex")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-labelledby");
      }
    });
  }
  scrollers();
  window.addEventListener("resize", scrollers);
  // A table inside closed <details> (the trick-by-trick clash list): Chromium
  // measures it closed, a browser that lays out nothing there until it opens does not.
  document.addEventListener("toggle", scrollers, true);
})();
