/* The live sheet on a phone that may edit it.
 *
 * - After a save (or a refusal) the entry for the next hand comes to the top of the view,
 *   and a refusal's message takes the focus, so it is seen and read out. The notice of a
 *   save stays until the next tap.
 * - What was typed or tapped in the hand being entered is kept in sessionStorage, per
 *   match and hand: a refresh (another phone saved), a language switch or a visit to the
 *   Share page puts it back where the hand is still the same one.
 * - Every few seconds the phone asks whether another phone changed the sheet, or the table
 *   started a newer match than the one the page names (data-newer), a 204 while nothing
 *   did, and shows the new sheet (with the newer match's link) when one did. Every answer
 *   to this phone's own change says the match's new version (X-Match-Version), also when
 *   only a part of the page is swapped (a bid; a save, which redraws the turn and the rows
 *   it changed): the page knows it, and its own change is never taken for another phone's.
 * - What a change did is said once in the page's live region (#announce): every answer to a
 *   change, and every poll that brings another phone's, ends with it, swapped out of band;
 *   the same words again (a version that changed no hand: an abandon, a reopen) are not said
 *   again. A page this phone's own change led to carries them in data-announce: said once the
 *   page is read.
 */
(function () {
  "use strict";

  var POLL_MS = 4000;
  var restoring = false;
  var SKIP = { csrf_token: 1, version: 1, number: 1, tap: 1, action: 1, mode: 1, seat: 1 };

  function live() { return document.getElementById("live"); }

  function handNumber(root) {
    var field = root.querySelector("#turn input[name=number]");
    return field ? field.value : null;
  }

  function key(root) {
    var number = handNumber(root);
    return number === null ? null : "draft:" + root.dataset.match + ":" + number;
  }

  function fields(root) {
    return Array.prototype.filter.call(
      root.querySelectorAll("#turn input[name], #turn select[name]"),
      function (field) { return !SKIP[field.name] && field.type !== "submit"; });
  }

  function save(root) {
    var k = key(root);
    if (!k) { return; }
    var draft = {};
    fields(root).forEach(function (field) {
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked) { draft[field.name + "=" + field.value] = true; }
      } else if (field.value) {
        draft[field.name] = field.value;
      }
    });
    try { sessionStorage.setItem(k, JSON.stringify(draft)); } catch (e) { /* private mode */ }
  }

  /* Put back what this phone had entered in this hand, where the page shows nothing. */
  function restore(root) {
    var k = key(root), draft = null;
    if (!k) { return; }
    try { draft = JSON.parse(sessionStorage.getItem(k) || "null"); } catch (e) { draft = null; }
    if (!draft) { return; }
    var touched = [];
    fields(root).forEach(function (field) {
      if (field.type === "radio" || field.type === "checkbox") {
        if (!draft[field.name + "=" + field.value] || field.checked) { return; }
        var group = root.querySelectorAll("#turn input[name='" + field.name + "']");
        var taken = Array.prototype.some.call(group, function (f) { return f.checked && f.value; });
        if (!taken) { field.checked = true; touched.push(field); }
      } else if (draft[field.name] && !field.value) {
        field.value = draft[field.name];
        touched.push(field);
      }
    });
    refresh(touched);
  }

  /* Let the server redraw what was put back: one change per form that redraws itself,
     else one per field that redraws itself (a card keypad). */
  function refresh(touched) {
    restoring = true;
    try { redraw(touched); } finally { restoring = false; }
  }

  function redraw(touched) {
    var forms = [];
    touched.forEach(function (field) {
      var form = field.form;
      if (forms.indexOf(form) >= 0) { return; }
      var whole = form && (form.matches("[hx-trigger~=change]") ? field
        : form.querySelector("input[hx-trigger~=change][type=radio], fieldset[hx-trigger~=change] input, select[hx-trigger~=change]"));
      if (whole) {
        forms.push(form);
        whole.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
    touched.forEach(function (field) {
      if (forms.indexOf(field.form) < 0 && field.matches("[hx-trigger~=change]")) {
        field.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }

  /* Drop the drafts of hands already behind this match. */
  function prune(root) {
    var number = Number(handNumber(root) || 0), prefix = "draft:" + root.dataset.match + ":";
    try {
      for (var i = sessionStorage.length - 1; i >= 0; i--) {
        var k = sessionStorage.key(i);
        if (k && k.indexOf(prefix) === 0 && Number(k.slice(prefix.length)) < number) {
          sessionStorage.removeItem(k);
        }
      }
    } catch (e) { /* private mode */ }
  }

  /* The next entry at the top of the view, or the refusal in view and focused. */
  function place(root) {
    var error = root.querySelector("#entry-error");
    if (error) {
      error.scrollIntoView({ block: "center" });
      error.focus({ preventScroll: true });
      return;
    }
    var turn = root.querySelector("#turn[data-jump]"), notice = root.querySelector("#notice");
    if (turn) {
      turn.scrollIntoView({ block: "start" });
      if (notice) {
        notice.setAttribute("tabindex", "-1");
        notice.focus({ preventScroll: true });
      }
    }
  }

  /* A notice is said once: a reload of the address that carried it must not say it again
     (a save or another phone's change, ?saved= and ?step=; a phone that joined its table,
     ?joined=; a phone now keeping a tournament table's sheet, ?kept=), on any page. */
  var ONCE = ["saved", "step", "joined", "kept"];

  function forget() {
    var url = new URL(window.location.href);
    var said = ONCE.filter(function (name) { return url.searchParams.has(name); });
    if (said.length) {
      said.forEach(function (name) { url.searchParams.delete(name); });
      history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    }
  }

  /* A notice drawn above the view (the phone was scrolled down) comes into it. */
  function reveal(root) {
    var notice = root.querySelector("#notice");
    if (notice && notice.getBoundingClientRect().top < 0) {
      notice.scrollIntoView({ block: "nearest" });
    }
  }

  /* One keypad open at a time (without JavaScript every keypad stays open): a tap on another
     player's line, or the focus coming into it, opens that one and folds the others of its
     form. A folded line is all its name's button (app.css), so the tap never lands in the
     text field and brings up no system keyboard; the field, once open, is one tap away. The
     line stays under the finger, unless its keys would open below the view: then they come
     up into it, never under the totals strip. A keypad's Next key opens the next line still
     blank (after the last, the first), or, none left, folds its own and brings Save. */
  function unfold(event) {
    var target = event.target.closest ? event.target : document.body;
    var fold = target.closest(".fold");
    if (fold && event.type === "click" && target.closest("[data-next]")) {
      return onward(fold);
    }
    /* htmx gives the focus back to the control that had it (a "never opened" box) in the
       form it brings: that is no move to its line, which would close the one it opened. */
    if (!fold || fold.classList.contains("open")
        || event.type === "focusin" && fold.closest(".htmx-added")) { return; }
    var top = fold.getBoundingClientRect().top;
    open(fold);
    window.scrollBy(0, fold.getBoundingClientRect().top - top);
    intoView(fold);
  }

  function open(fold) {
    var form = fold.form || fold.closest("form") || document;
    Array.prototype.forEach.call(form.querySelectorAll(".fold.open"),
      function (other) { other.classList.remove("open"); });
    fold.classList.add("open");
    mark(form);
  }

  function intoView(fold) {
    var box = fold.getBoundingClientRect(), strip = document.querySelector(".strip");
    var below = box.bottom - window.innerHeight;
    var room = box.top - (strip ? strip.getBoundingClientRect().bottom : 0);
    if (below > 0) { window.scrollBy(0, Math.min(below, room)); }
  }

  function onward(fold) {
    var form = fold.closest("form");
    var folds = Array.prototype.slice.call(form.querySelectorAll(".fold"));
    var at = folds.indexOf(fold);
    var blank = folds.slice(at + 1).concat(folds.slice(0, at)).filter(function (other) {
      var field = other.querySelector("input[type=text]");
      return field && !field.value.trim();
    })[0];
    if (blank) {
      open(blank);
      blank.scrollIntoView({ block: "nearest" });
      intoView(blank);
      blank.querySelector(".hand-name").focus({ preventScroll: true });
      return;
    }
    fold.classList.remove("open");
    mark(form);
    var save = form.querySelector("button[value=save]");
    if (save) {
      save.focus({ preventScroll: true });
      save.scrollIntoView({ block: "nearest" });
    }
  }

  /* Each line's name says whether its keys are open; the Next keys, which need this script,
     show. */
  function mark(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".fold .hand-name"), function (name) {
      name.setAttribute("aria-expanded", String(name.closest(".fold").classList.contains("open")));
    });
    Array.prototype.forEach.call(root.querySelectorAll("[data-next]"),
      function (key) { key.hidden = false; });
  }

  function arrived(elt) {
    mark(elt);
    var root = live();
    if (!root) { return; }
    if (elt === document.body || elt === root || elt.id === "turn") {
      prune(root);
      restore(root);
      place(root);
      reveal(root);
      forget();
    }
    save(root);
  }

  function poll() {
    var root = live();
    if (!root || !root.dataset.since || document.hidden
        || document.querySelector(".htmx-request")) { return; }
    var url = root.dataset.since + "?since=" + root.dataset.version
      + (root.dataset.newer ? "&newer=" + encodeURIComponent(root.dataset.newer) : "");
    /* A poll that fails (the server is away) is told by app.js: nothing to do here. */
    htmx.ajax("GET", url, { target: "#live", swap: "outerHTML" }).catch(function () {});
  }

  /* Said after the page is read: a live region speaks of what changes in it, not of what it
     held when the page came. */
  function announceLoaded() {
    var region = document.getElementById("announce");
    if (!region || !region.dataset.announce) { return; }
    var words = region.dataset.announce;
    delete region.dataset.announce;
    setTimeout(function () { region.textContent = words; }, 500);
  }

  document.addEventListener("DOMContentLoaded", function () {
    announceLoaded();
    forget();
    if (typeof htmx === "undefined") { return; }
    document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
      var target = event.detail.target;
      if (target.id === "announce"
          && target.textContent === event.detail.fragment.textContent) {
        event.detail.shouldSwap = false;
      }
    });
    htmx.onLoad(arrived);
    document.addEventListener("click", unfold);
    document.addEventListener("focusin", unfold);
    document.addEventListener("input", function () { if (live()) { save(live()); } });
    document.addEventListener("change", function () { if (live()) { save(live()); } });
    /* A poll answered after this phone's own save shows nothing new: keep the page. One
       answered while this phone's own tap is on its way may already hold that tap's change:
       the next poll, asked with the version the tap's answer brings, tells. */
    document.body.addEventListener("htmx:beforeSwap", function (event) {
      var root = live(), text = event.detail.serverResponse || "";
      var found = /data-version="(\d+)"/.exec(text);
      var newer = /data-newer="([^"]+)"/.exec(text);
      /* the table started a match the page does not name yet */
      var moved = root && newer && newer[1] !== root.dataset.newer;
      if (root && found && event.detail.requestConfig
          && /[?&]since=/.test(event.detail.requestConfig.path)
          && ((Number(found[1]) <= Number(root.dataset.version) && !moved)
              || root.querySelector(".htmx-request"))) {
        event.detail.shouldSwap = false;
      }
    });
    /* The version this phone's own change made, whatever part of the page its answer drew. */
    document.body.addEventListener("htmx:afterRequest", function (event) {
      var root = live(), xhr = event.detail.xhr;
      var version = Number(xhr && xhr.getResponseHeader("X-Match-Version"));
      if (root && version > Number(root.dataset.version)) {
        root.dataset.version = String(version);
      }
    });
    /* The notice of a save stays until the next action: the next tap takes it away (a poll,
       this phone's or a follower's, is no action). */
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      var notice = document.getElementById("notice"), elt = event.detail.elt;
      if (notice && !restoring && elt !== document.body && elt !== live()
          && !notice.contains(elt)) {
        /* A bid keeps the notice in its place, spent, while the bids go on (app.css): the
           bid keys below it stay under the finger. */
        if (elt.closest("#bid-form")) {
          notice.classList.add("spent");
          notice.inert = true;
        } else {
          notice.remove();
        }
      }
    });
    setInterval(poll, POLL_MS);
  });
}());
