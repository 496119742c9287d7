// The new-match form: an option shows only while it is in force, and Forty-Five's partners
// follow the names as they are typed.
//
// A block marked data-when="opt_x" data-when-value="v" shows only while the control named
// opt_x holds v ("True"/"False" for a checkbox). It stays in the form, hidden, so what is
// posted does not change; without JavaScript every block shows under its heading.
(function () {
  "use strict";

  function current(control) {
    if (control.type === "checkbox") {
      return control.checked ? "True" : "False";
    }
    return control.value;
  }

  function update() {
    var form = document.getElementById("new-match");
    if (!form) {
      return;
    }
    form.querySelectorAll("[data-when]").forEach(function (block) {
      var control = form.elements.namedItem(block.dataset.when);
      block.hidden = Boolean(control) && current(control) !== block.dataset.whenValue;
    });
    form.querySelectorAll("[data-seat-name]").forEach(function (span) {
      var input = form.elements.namedItem("players-" + span.dataset.seatName);
      if (input) {
        span.textContent = input.value.trim() || input.placeholder;
      }
    });
  }

  document.addEventListener("change", update);
  document.addEventListener("input", update);
  htmx.onLoad(update);  // the page, and the form again after a redraw
}());
