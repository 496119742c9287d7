/* The live sheet's posts, kept while the server cannot be reached and sent again in order.
 *
 * - Every post of the live sheet (#live: a bid, a key of a keypad, a save, Undo) carries an
 *   Idempotency-Key, made when the tap is made and kept with it: the server stores the key
 *   with the change, so a post that arrives twice is stored once (scorekeeper/web/entry.py).
 * - A post that does not reach the server (no network, no answer in 15 s, a proxy's 502 to
 *   504), or that is made while the browser is offline or while earlier posts wait, is kept
 *   in IndexedDB, per match: its address, its form values (the CSRF token and the version
 *   among them), its headers, target and swap. The key tapped is marked pending, and a line
 *   says that it will be sent.
 * - The kept posts are sent again, oldest first, as soon as the server may answer: the
 *   browser is back online, the page comes back into view or gets the focus, a request (the
 *   poll of sheet.js) is answered, or the page is loaded again. Each answer is swapped where
 *   the tap's own would have gone. A post tapped on the same page as the one before it is
 *   sent for the version that one's answer shows: they were made one after the other.
 * - A tap whose answer says what comes next (a bid: who bids next; a Forty-Five trick or
 *   card: the next slot; a save: the next hand) cannot be followed by another made on the
 *   page as it is: that one would be sent with the state before the answer, and replace the
 *   first. While such a tap waits, the line names it and what waits ("Not sent yet: Bruno
 *   bids: 1. The next bid waits for the connection.") and the live sheet takes no other tap.
 * - A conflict (another phone saved first) or a refusal ends the match's queue: what it
 *   held is listed above the entry, to be entered again, until this phone's next save, the
 *   next hand or the end of the match. A conflict of this phone's own copy of the post just
 *   stored (Save tapped twice) is no conflict: the copy is dropped.
 */
(function () {
  "use strict";

  var KEY = "Idempotency-Key";
  var TIMEOUT_MS = 15000;
  var UNREACHED = [0, 502, 503, 504];  // no answer, or a proxy's: the server is not there
  var root = document.getElementById("live");
  if (!root || !root.dataset.match || typeof htmx === "undefined") { return; }

  var match = root.dataset.match;
  var store = null;
  var queue = [];      // this match's kept posts, oldest first
  var unsent = null;   // what a conflict or a refusal left: {conflict, labels}
  var sending = null;  // the kept post on its way
  var stored = null;   // what the last kept post sent, once stored (see same())
  var made = new WeakMap();  // a request's config -> the post it is, until it is answered
  try { store = idbKeyval.createStore("scorekeeper", "replay"); } catch (e) { store = null; }

  function live() { return document.getElementById("live"); }

  function read(name) {
    if (!store) { return Promise.resolve(undefined); }
    return idbKeyval.get(name + ":" + match, store).catch(function () { return undefined; });
  }

  function write(name, value) {
    if (!store) { return Promise.resolve(); }
    var key = name + ":" + match;
    return (value ? idbKeyval.set(key, value, store) : idbKeyval.del(key, store))
      .catch(function () { /* kept for this page only */ });
  }

  function save() {
    document.documentElement.dataset.queue = String(queue.length);
    return Promise.all([write("queue", queue.length ? queue : null), write("unsent", unsent)]);
  }

  /* A version 4 UUID; crypto.randomUUID needs HTTPS, which a phone on the Wi-Fi may lack. */
  function newKey() {
    var bytes = crypto.getRandomValues(new Uint8Array(16)), hex = "";
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    bytes.forEach(function (b) { hex += (b + 256).toString(16).slice(1); });
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20),
      hex.slice(20)].join("-");
  }

  /* A selector that finds ``el`` again in the page an answer brings: its id, else its path
     from the nearest element with one; a named control by its name and value. */
  function selector(el) {
    var path = [];
    while (el && !el.id && el.parentElement) {
      var place = Array.prototype.indexOf.call(el.parentElement.children, el) + 1;
      path.unshift(el.tagName.toLowerCase() + ":nth-child(" + place + ")");
      el = el.parentElement;
    }
    if (el && el.id) { path.unshift("#" + CSS.escape(el.id)); }
    return path.join(" > ");
  }

  function markOf(el) {
    var scope = el.parentElement && el.parentElement.closest("[id]");
    if (!el.name || !scope) { return selector(el); }
    return "#" + CSS.escape(scope.id) + " " + el.tagName.toLowerCase() + "[name=\""
      + CSS.escape(el.name) + "\"][value=\"" + CSS.escape(el.value) + "\"]";
  }

  /* The control the tap was on: the key pressed, the radio chosen, else the element. */
  function tapped(config) {
    var event = config.triggeringEvent;
    var el = event && (event.submitter || event.target);
    el = el instanceof Element ? el.closest("button, input, select, textarea") || el : null;
    return el && (config.elt.contains(el) || el.form) ? el : config.elt;
  }

  function words(el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }

  /* What the tap's group is called: its fieldset's legend ("Anna (bid 2)"), else the label
     of the group around it ("Anna bids:", "Hand 3 of 18"). */
  function groupOf(el) {
    var set = el.closest("fieldset"), legend = set && set.querySelector("legend");
    if (legend) {
      var copy = legend.cloneNode(true);
      Array.prototype.forEach.call(copy.querySelectorAll(".preview"), function (p) { p.remove(); });
      return words(copy);
    }
    var group = el.closest("[aria-labelledby]");
    return group ? words(document.getElementById(group.getAttribute("aria-labelledby"))) : "";
  }

  function joined(group, value) {
    if (!group) { return value; }
    return group + (/:$/.test(group) ? " " : ": ") + value;
  }

  function nameOf(el) {
    return el.getAttribute("aria-label") || words(el.labels && el.labels[0]) || words(el)
      || el.value || "";
  }

  /* The tap in words, as the page says it: "Anna bids: 2", "Other (0 to 36): 12", "Trick 2:
     Bruno" (a key whose group names the step it fills, data-step-of). */
  function describe(el) {
    var steps = el.closest("[data-step-of]");
    var step = steps && document.getElementById(steps.getAttribute("data-step-of"));
    if (step && step.dataset.step) { return joined(step.dataset.step, nameOf(el)); }
    if (el.name && /^(radio|checkbox|submit)$/.test(el.type)) {
      return joined(groupOf(el), nameOf(el));
    }
    var typed = el.form ? Array.prototype.filter.call(el.form.elements, function (field) {
      return /^(text|number|search)$/.test(field.type) && field.value;
    }).map(function (field) {
      return joined(words(field.labels && field.labels[0]), field.value);
    }) : [];
    return typed.length ? typed.join(", ") : nameOf(el);
  }

  function versionOf(values) {
    var found = values.filter(function (pair) { return pair[0] === "version"; })[0];
    return found ? found[1] : null;
  }

  function setVersion(post, version) {
    post.values.forEach(function (pair) { if (pair[0] === "version") { pair[1] = version; } });
  }

  /* The newest version the page shows: a bid's answer brings forms of the new version
     without the sheet around them. */
  function pageVersion() {
    var best = Number((live() || {}).dataset.version) || 0;
    Array.prototype.forEach.call(document.querySelectorAll("#live input[name=version]"),
      function (field) { best = Math.max(best, Number(field.value) || 0); });
    return String(best);
  }

  function attribute(el, name) {
    var holder = el.closest("[" + name + "]");
    return holder ? holder.getAttribute(name) : null;
  }

  /* What waits for the tap's answer, in words, when the next step is known from it only: a
     bid, a Forty-Five trick or card (data-waits), a save. */
  function waitsOf(el, values) {
    var holder = el.closest("[data-waits]"), template = document.getElementById("pending-template");
    if (holder) { return holder.getAttribute("data-waits"); }
    var save = (el.name === "action" && el.value === "save") || values.some(function (pair) {
      return pair[0] === "action" && pair[1] === "save";
    });
    var note = template && template.content.firstElementChild;
    return save && note ? note.getAttribute("data-next-hand") : null;
  }

  function post(config) {
    var el = tapped(config), values = [], headers = {}, label = describe(el);
    config.formData.forEach(function (value, name) {
      if (typeof value === "string") { values.push([name, value]); }
    });
    Object.keys(config.headers).forEach(function (name) {
      headers[name] = String(config.headers[name]);
    });
    var waits = waitsOf(el, values), heading = document.getElementById("entry-title");
    if (waits && !el.closest("[data-waits]") && heading) {
      label = words(heading);  // a save: the hand saved, "Hand 2 of 18"
    }
    return {
      key: headers[KEY], path: config.path, values: values, headers: headers,
      target: selector(config.target), swap: attribute(config.elt, "hx-swap"),
      select: attribute(config.elt, "hx-select"), made: versionOf(values),
      mark: markOf(el), label: label, field: el.name ? groupOf(el) + "|" + el.name : null,
      waits: waits
    };
  }

  /* What to enter again, in words, the latest of each control only. */
  function labels(posts) {
    var seen = {}, out = [];
    posts.slice().reverse().forEach(function (p) {
      if (p.field && seen[p.field]) { return; }
      if (p.field) { seen[p.field] = true; }
      out.unshift(p.label);
    });
    return out;
  }

  function fromTemplate(id) {
    var template = document.getElementById(id);
    return template ? template.content.firstElementChild.cloneNode(true) : null;
  }

  /* Each kept tap marked on the entry, and one line saying they will be sent. */
  function showPending() {
    Array.prototype.forEach.call(document.querySelectorAll("#live .pending"), function (el) {
      el.classList.remove("pending");
    });
    var note = document.getElementById("pending-note"), turn = document.getElementById("turn");
    if (!queue.length || !turn) {
      if (note) { note.remove(); }
      return;
    }
    var last = null, shown = queue.filter(function (p) { return !p.early; });
    if (!shown.length) {
      if (note) { note.remove(); }
      return;
    }
    shown.forEach(function (p) {
      var el = null;
      try { el = document.querySelector(p.mark); } catch (e) { el = null; }
      if (el) {
        last = el.closest("label") || el;
        last.classList.add("pending");
      }
    });
    note = note || fromTemplate("pending-template");
    if (!note) { return; }
    note.textContent = noteWords(note);
    var after = last && (last.closest(".keypad, [role=group]") || last);
    if (after) { after.after(note); } else { turn.prepend(note); }
  }

  /* The kept tap the next step waits for, if any. */
  function waiting() {
    return queue.filter(function (p) { return p.waits; })[0] || null;
  }

  /* The line under the kept taps: what the next step waits for, else that they will go. */
  function noteWords(note) {
    var first = waiting(), template = document.getElementById("pending-template");
    var words = template ? template.content.firstElementChild.textContent : note.textContent;
    if (!first) { return words; }
    return note.getAttribute("data-waiting").replace("{tap}", first.label) + " " + first.waits;
  }

  function handShown() {
    var field = document.querySelector("#turn input[name=number]");
    return field ? field.value : null;
  }

  /* What a conflict or a refusal left, listed above the entry, while the page still asks for
     the hand it was left in: the next hand, a finished match or one that cannot be entered
     here leaves it behind. */
  function showUnsent(scroll) {
    var box = document.getElementById("unsent"), turn = document.getElementById("turn");
    if (box) { box.remove(); }
    if (unsent && live()) {
      var hand = handShown();
      if (!("hand" in unsent)) { unsent.hand = hand; }  // kept before hands were noted
      if (hand === null || hand !== unsent.hand) {
        unsent = null;
        save();
      }
    }
    if (!unsent || !turn) { return; }
    box = fromTemplate("unsent-template");
    if (!box) { return; }
    box.querySelector(unsent.conflict ? "[data-refused]" : "[data-conflict]").remove();
    var list = box.querySelector("ul");
    unsent.labels.forEach(function (text) {
      var item = document.createElement("li");
      item.textContent = text;
      list.appendChild(item);
    });
    var notice = document.getElementById("notice");
    if (notice && notice.parentElement === turn) { notice.after(box); } else { turn.prepend(box); }
    if (scroll) { box.scrollIntoView({ block: "nearest" }); }
  }

  /* A post as the server reads it, its key, token and version aside: two taps of one Save. */
  function same(p) {
    return p.path + "\n" + p.values.filter(function (pair) {
      return pair[0] !== "version" && pair[0] !== "csrf_token";
    }).map(function (pair) { return pair[0] + "=" + pair[1]; }).join("&");
  }

  function keep(p) {
    /* A tap is this phone's next action: the notice of the last one is no longer true. */
    var notice = document.getElementById("notice");
    if (notice) { notice.remove(); }
    queue.push(p);
    save();
    showPending();
    send();
  }

  /* The oldest kept post, sent again as it was; the next ones follow its answer. */
  function send() {
    loaded.then(function () {
      if (sending || !queue.length || !navigator.onLine || !live()) { return; }
      var p = queue[0], values = new FormData(), blind = true;
      p.values.forEach(function (pair) { values.append(pair[0], pair[1]); });
      try { blind = !document.querySelector(p.target); } catch (e) { blind = true; }
      sending = { post: p, status: 0, blind: blind };
      try {
        htmx.ajax("POST", p.path, {
          target: blind ? "body" : p.target, swap: blind ? "none" : p.swap || undefined,
          select: p.select || undefined, values: values, headers: p.headers
        }).then(answered, answered);
      } catch (e) {
        sending = null;
      }
    });
  }

  function answered() {
    var done = sending, p = done.post, status = done.status;
    sending = null;
    if (UNREACHED.indexOf(status) >= 0) {  // still out of reach: kept for later, and shown
      queue.forEach(function (kept) { delete kept.early; });
      save();
      showPending();
      return;
    }
    if (status === 409 && stored === same(p)) {
      // This phone's own copy of the post just stored (Save tapped twice): the version moved
      // under it because the first one landed. Nothing of another phone's: dropped.
      queue.shift();
    } else if (status < 400) {
      stored = same(p);
      queue.shift();
      if (queue.length && queue[0].made === p.made && !done.replayed) {
        setVersion(queue[0], pageVersion());
      }
    } else {
      unsent = { conflict: status === 409, labels: labels(queue), hand: handShown() };
      stored = null;
      queue = [];
    }
    save().then(function () {
      if (done.blind) { window.location.reload(); return; }
      showPending();
      showUnsent(true);
      send();
    });
  }

  function ours(detail) {
    var config = detail.requestConfig || detail;
    return sending && config && config.headers && config.headers[KEY] === sending.post.key;
  }

  var loaded = Promise.all([read("queue"), read("unsent")]).then(function (found) {
    (found[0] || []).forEach(function (kept) { delete kept.early; });
    queue = (found[0] || []).concat(queue);
    // A draft put back as the page loaded, behind a kept tap that waits: it was made on the
    // page before that tap's answer, and is not sent.
    var waits = false;
    queue = queue.filter(function (p) {
      var stale = waits && p.early;
      waits = waits || !!p.waits;
      return !stale;
    });
    unsent = found[1] || unsent;
  });
  document.documentElement.dataset.queue = "";
  loaded.then(function () {
    save();
    showPending();
    showUnsent();
    send();
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var config = event.detail, here = live();
    if (config.verb !== "post") { return; }
    if (ours(config)) {
      config.timeout = TIMEOUT_MS;
      return;
    }
    if (!here || !here.contains(config.elt)) { return; }
    if (waiting()) {
      // The page is still the one before the kept tap's answer: a tap on it would be sent
      // with that state and replace the kept one. Not taken; the line says what waits.
      event.preventDefault();
      showPending();
      var note = document.getElementById("pending-note");
      if (note) { note.scrollIntoView({ block: "nearest" }); }
      return;
    }
    config.headers[KEY] = newKey();
    config.timeout = config.timeout || TIMEOUT_MS;
    var p = post(config), loading = document.documentElement.dataset.queue === "";
    if (!navigator.onLine || queue.length || sending || loading) {
      // Made while the kept posts are read (a draft put back as the page loads): it waits
      // for them, unseen unless it cannot be sent either.
      p.early = loading && navigator.onLine && !queue.length && !sending;
      event.preventDefault();
      keep(p);
    } else {
      made.set(config, p);
    }
  });

  /* A kept post's answer, swapped over the whole sheet when it is the whole sheet (a stale
     tap's conflict), whatever part it was for. */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail, here = live();
    if (ours(detail) && here && detail.target !== here
        && /^\s*<div id="live"/.test(detail.serverResponse || "")) {
      detail.target = here;
      detail.swapOverride = "outerHTML";
      detail.selectOverride = "#live";
    }
  });

  function lost(event) {
    var config = event.detail.requestConfig, p = config && made.get(config);
    if (p) {
      made.delete(config);
      keep(p);
    }
  }

  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail, status = detail.xhr ? detail.xhr.status : 0;
    if (ours(detail)) {
      sending.status = status;
      sending.replayed = detail.xhr.getResponseHeader("Idempotent-Replayed") === "true";
      return;
    }
    var config = detail.requestConfig;
    if (!status) { return; }  // htmx:sendError or htmx:timeout follows
    if (UNREACHED.indexOf(status) >= 0) { return lost(event); }
    if (config) { made.delete(config); }
    // This phone's save reached the server: what was left to enter again is behind it (its
    // answer is the whole sheet, or the turn that follows the save).
    if (unsent && config && config.verb === "post" && status < 400 && detail.target
        && (detail.target.id === "live" || detail.target.id === "turn")) {
      unsent = null;
      save();
      showUnsent();
    }
    send();  // the server answers: what is kept goes now
  });

  window.addEventListener("online", send);
  window.addEventListener("focus", send);
  window.addEventListener("pageshow", send);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { send(); }
  });
  htmx.onLoad(function () {
    showPending();
    showUnsent();
  });
}());
