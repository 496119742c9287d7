// Keeps the phone's screen on while a match is being played (Screen Wake Lock API).
//
// A match page that is open and not finished carries a toggle marked data-wake-toggle. While it is
// on the page, the toggle is on (the choice is remembered on this phone) and the page is
// visible, the screen is held awake. The lock is let go when the match ends, when the toggle
// is switched off and when the page is left; the browser itself lets it go when the page is
// hidden, so it is taken again when the page comes back. A browser without the API (or not
// in a secure context) shows no toggle; a refusal is noted on <html data-wake-lock> and nothing
// else happens. A page without controls (the table screen) marks the match it shows with
// data-wake-hold instead: the screen is held awake while it is there, with no toggle.
(function () {
  "use strict";
  var KEY = "scorekeeper-wake";
  var root = document.documentElement;
  var lock = null;
  var asking = false;

  function supported() {
    return window.isSecureContext && "wakeLock" in navigator;
  }

  function wanted() {
    try {
      return window.localStorage.getItem(KEY) !== "off";
    } catch (error) {
      return true;
    }
  }

  function remember(on) {
    try {
      window.localStorage.setItem(KEY, on ? "on" : "off");
    } catch (error) {
      // Private browsing may refuse storage: the choice then lasts for this page only.
    }
  }

  function toggle() {
    return document.querySelector("[data-wake-toggle]");
  }

  function state(word) {
    root.dataset.wakeLock = word;
  }

  function release() {
    if (lock) {
      var held = lock;
      lock = null;
      held.release().catch(function () {});
    }
    state("released");
  }

  function acquire() {
    if (lock || asking) {
      return;
    }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      sentinel.addEventListener("release", function () {
        if (lock === sentinel) {
          lock = null;
          state("released");
        }
      });
      state("held");
      sync();  // the match may have ended, or the page been hidden, while asking
    }).catch(function () {
      asking = false;
      state("refused");
    });
  }

  // Match the lock and the toggle to the page as it is now.
  function sync() {
    var button = toggle();
    var on = wanted();
    var hold = document.querySelector("[data-wake-hold]");
    if (button) {
      button.hidden = false;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
    if ((hold || button && on) && document.visibilityState === "visible") {
      acquire();
    } else if (lock || root.dataset.wakeLock === "held") {
      release();
    }
  }

  if (!supported()) {
    return;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-wake-toggle]");
    if (button) {
      remember(button.getAttribute("aria-pressed") !== "true");
      sync();
    }
  });
  document.addEventListener("visibilitychange", sync);
  window.addEventListener("pagehide", release);
  window.addEventListener("pageshow", sync);
  htmx.onLoad(sync);  // the page, and every part htmx brings in
}());
