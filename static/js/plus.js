// The "+" key beside a card keypad's field: types "+" at the end of the field and leaves the
// cursor there, so a sum such as 10+15 needs no symbol keyboard. Without JavaScript the key
// stays hidden and "+" is typed as usual.
(function () {
  "use strict";

  // The field keeps the focus: leaving it would send it and redraw it under the key.
  document.addEventListener("mousedown", function (event) {
    if (event.target.closest && event.target.closest("[data-plus]")) {
      event.preventDefault();
    }
  });
  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("[data-plus]");
    if (!key) {
      return;
    }
    var field = document.getElementById(key.dataset.plus);
    if (!field) {
      return;
    }
    var text = field.value.replace(/\s+$/, "");
    if (/[0-9]$/.test(text)) {
      field.value = text + "+";
    }
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  });
  // Each page, and each part htmx brings in, shows its keys.
  htmx.onLoad(function (content) {
    content.querySelectorAll("[data-plus]").forEach(function (key) { key.hidden = false; });
  });
}());
