// Counts a tournament round's clock down between polls (docs/operating.md, "The round's clock").
//
// The server writes each clock line (data-clock) with the seconds left as it reckoned them
// (data-left), the "last deal" warning in seconds (data-warning) and each phase's words
// (data-said-on with {m} for the minutes, data-said-last, data-said-up). A line is counted from
// the moment this page first sees it, so the phone's own clock setting does not matter; a line
// the page swaps in with a fresh figure is counted from that figure.
(function () {
  "use strict";
  var seen = new WeakMap();

  function show(line) {
    if (!seen.has(line)) {
      seen.set(line, Date.now() + Number(line.dataset.left) * 1000);
    }
    var left = Math.max(0, Math.ceil((seen.get(line) - Date.now()) / 1000));
    var phase = left <= 0 ? "up" : left <= Number(line.dataset.warning) ? "last" : "on";
    var said = phase === "on" ? line.dataset.saidOn.replace("{m}", String(Math.ceil(left / 60)))
      : phase === "last" ? line.dataset.saidLast : line.dataset.saidUp;
    if (line.textContent !== said) {
      line.textContent = said;
      line.className = "clock clock-" + phase;
    }
  }

  function tick() {
    document.querySelectorAll("[data-clock]").forEach(show);
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  window.setInterval(tick, 1000);
})();
