// The tournament's screen pages through its list of who goes where when the list does not fit
// the window: as many lines as fit are shown, the next ones after a few seconds, round and
// round. The list may be swapped by htmx at any time: each turn reads it again.
(function () {
  "use strict";
  var SECONDS = 8;
  var page = 0;

  function turn(advance) {
    var list = document.querySelector("[data-rotate]");
    var label = document.querySelector("[data-rotate-page]");
    if (!list) { return; }
    var items = Array.prototype.slice.call(list.children);
    items.forEach(function (item) { item.hidden = false; });
    var room = window.innerHeight - list.getBoundingClientRect().top;
    var first = items[0];
    if (!first || list.scrollHeight <= room) {
      if (label) { label.textContent = ""; }
      page = 0;
      return;
    }
    var columns = Math.max(1, Math.round(list.clientWidth / first.getBoundingClientRect().width));
    var rows = Math.max(1, Math.floor(room / (first.getBoundingClientRect().height + 4)) - 1);
    var size = rows * columns;
    var pages = Math.ceil(items.length / size);
    page = advance ? (page + 1) % pages : Math.min(page, pages - 1);
    items.forEach(function (item, index) {
      item.hidden = Math.floor(index / size) !== page;
    });
    if (label) { label.textContent = (page + 1) + "/" + pages; }
  }

  document.addEventListener("DOMContentLoaded", function () { turn(false); });
  document.addEventListener("htmx:afterSettle", function () { turn(false); });
  window.addEventListener("resize", function () { turn(false); });
  window.setInterval(function () { turn(true); }, SECONDS * 1000);
}());
