// Scorekeeper on a phone: the service worker; the offline banner, shown while the server
// cannot be reached (the browser is offline, a request got no answer or a proxy's 502 to
// 504) and gone with the first answer of any request; a form outside the live sheet, kept
// while offline with Send again once the server answers. The live sheet's own posts are
// kept and sent again by queue.js, which marks them pending.
// Every page works without this file (the screen is kept awake by wake.js).
(function () {
  "use strict";
  var script = document.currentScript;
  var banner = document.getElementById("offline");
  var UNREACHED = [502, 503, 504];  // a proxy's answer for a server it could not reach
  var PROBE_MS = 5000;
  var held = null;  // the form that could not be sent: {form, submitter, box}
  var offline = !navigator.onLine;
  var wentOffline = offline;

  // The site works without the worker; a registration that a dropped connection broke is
  // tried again a few times, so that a phone on a poor Wi-Fi still gets its offline copy.
  function register(tries) {
    navigator.serviceWorker.register(script.dataset.sw, {scope: script.dataset.scope})
      .catch(function () {
        if (tries > 1) setTimeout(function () { register(tries - 1); }, 3000);
      });
  }
  if ("serviceWorker" in navigator && script.dataset.sw) register(5);

  function showOffline(now) {
    var back = offline && !now;
    offline = now;
    if (now) wentOffline = true;
    if (banner) banner.hidden = !now;
    if (held) held.box.querySelector("button").hidden = now;
    // The server answers again after the page went offline (the browser may never have
    // said so: a Wi-Fi that stays up while the server is away), with nothing waiting to be
    // sent: show the sheet as it is now (what was being typed is kept, by sheet.js). What
    // queue.js kept is sent instead, and its answers bring the sheet.
    if (back && wentOffline && !held && !waiting() && document.getElementById("live")) {
      window.location.reload();
    }
  }

  // The live sheet's posts go through queue.js, which keeps what is not sent.
  function queued(form, submitter) {
    return "queue" in document.documentElement.dataset && !!form.closest("#live")
      && (form.matches("[hx-post]") || !!(submitter && submitter.matches("[hx-post]")));
  }

  function waiting() {
    var kept = document.documentElement.dataset.queue;
    return kept !== undefined && kept !== "0";
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
    showOffline(offline || !navigator.onLine);
  }

  // Offline, a form is not even tried: it stays on the page until it can be sent.
  document.addEventListener("submit", function (event) {
    if (navigator.onLine || queued(event.target, event.submitter)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    hold(event.target, event.submitter);
  }, true);

  // The network failed under a request the browser thought it could send.
  document.addEventListener("htmx:sendError", function (event) {
    showOffline(true);
    var trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (trigger && trigger.type === "submit" && !queued(trigger.target, trigger.submitter)) {
      hold(trigger.target, trigger.submitter);
    }
  });
  document.addEventListener("htmx:timeout", function () { showOffline(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (UNREACHED.indexOf(status) >= 0) showOffline(true);
    else if (status) answers();
  });

  // The server answers: the sheet it sends is the one as it is, no longer the saved copy.
  function answers() {
    if (copy) copy.hidden = true;
    showOffline(false);
  }

  // Does the server answer? Asked when the page comes back and, while it seems not to,
  // every few seconds on a page that asks nothing by itself (the live sheet polls).
  function probe() {
    if (!script.dataset.health || !navigator.onLine) return;
    fetch(script.dataset.health, {cache: "no-store"}).then(function (response) {
      if (response.ok) answers();
    }, function () { showOffline(true); });
  }

  function polled() {
    return !!document.querySelector("#live[data-since], #live[hx-trigger]");
  }

  // A sheet the service worker gave from its copy (the server did not answer) says when the
  // copy was made, in the phone's own time, and the hand it shows: later hands may be missing.
  // Gone with the server's first answer, which brings the sheet as it is.
  var copy = document.getElementById("saved-copy");
  var savedAt = Number(document.documentElement.dataset.savedCopy);
  if (copy && savedAt) {
    var hand = document.querySelector("#turn input[name=number]");
    var time = new Date(savedAt).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
    copy.textContent = (hand && copy.dataset.hand ? copy.dataset.hand.replace("{hand}", hand.value)
      : copy.dataset.words).replace("{time}", time);
    copy.hidden = false;
  }

  window.addEventListener("offline", function () { showOffline(true); });
  window.addEventListener("online", probe);
  window.addEventListener("focus", function () { if (offline) probe(); });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && offline) probe();
  });
  setInterval(function () {
    if (offline && !document.hidden && !polled()) probe();
  }, PROBE_MS);
  showOffline(offline);
})();
