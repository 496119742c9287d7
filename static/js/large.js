// Large type without a reload: the switch htmx brings back says the phone's choice
// (templates/_type_switch.html), and the page's <html> follows it.
(function () {
  "use strict";
  htmx.onLoad(function () {
    const form = document.getElementById("type-switch");
    if (form) {
      document.documentElement.classList.toggle("large", form.dataset.large === "on");
    }
  });
})();
