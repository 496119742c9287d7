// Scorekeeper on a phone: the service worker, the offline banner, forms kept while offline,
// Every page works without this file (the screen is kept awake by wake.js).
(function () {
  "use strict";
  var script = document.currentScript;
  var banner = document.getElementById("offline");
  var held = null;  // the form that could not be sent: {form, submitter, box}
  var wentOffline = !navigator.onLine;

  if ("serviceWorker" in navigator && script.dataset.sw) {
    navigator.serviceWorker.register(script.dataset.sw, {scope: script.dataset.scope})
      .catch(function () { /* the site works without it */ });
  }

  function showOffline(offline) {
    if (offline) wentOffline = true;
    if (banner) banner.hidden = !offline;
    if (held) held.box.querySelector("button").hidden = offline;
  }

  // Keep the form as it is, every value in place, and offer to send it again.
  function hold(form, submitter) {
    if (held) held.box.remove();
    var box = document.getElementById("resend").content.firstElementChild.cloneNode(true);
    held = {form: form, submitter: submitter, box: box};
    form.after(box);
    box.querySelector("button").addEventListener("click", function () {
      var again = held;
      held = null;
      again.box.remove();
      // A click on the button that sent the form the first time sends its name and value.
      if (again.submitter && again.submitter.isConnected) again.submitter.click();
      else again.form.requestSubmit();
    }, {once: true});
    showOffline(!navigator.onLine);
  }

  // Offline, a form is not even tried: it stays on the page until it can be sent.
  document.addEventListener("submit", function (event) {
    if (navigator.onLine) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    hold(event.target, event.submitter);
  }, true);

  // The network failed under a request the browser thought it could send.
  document.addEventListener("htmx:sendError", function (event) {
    showOffline(true);
    var trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (trigger && trigger.type === "submit") hold(trigger.target, trigger.submitter);
  });

  window.addEventListener("offline", function () { showOffline(true); });
  window.addEventListener("online", function () {
    showOffline(false);
    // Back online with nothing waiting to be sent: show the sheet as it is now.
    if (!held && wentOffline && document.getElementById("live")) window.location.reload();
  });
  showOffline(!navigator.onLine);
})();
