// Scorekeeper's service worker. Static files come from the cache; each sheet this phone
// opened is kept in its last version and shown when the network is gone. It never sends
// anything itself: a form made offline waits on its page until the player sends it again.
const VERSION = {{ version | tojson }};
const STATIC = "static-" + VERSION;
const SHEETS = "sheets";
const PRECACHE = {{ assets | tojson }};
const STATIC_PATH = {{ static | tojson }};
const SHEET_PATH = new RegExp("^" + {{ sheets | tojson }} + "[A-Za-z0-9_-]+$");

// One file that fails to arrive does not keep the worker from installing: it is fetched
// and kept the first time a page asks for it (fromCache).
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC)
    .then((cache) => Promise.all(PRECACHE.map((path) => cache.add(path).catch(() => null))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys
      .filter((key) => key.startsWith("static-") && key !== STATIC)
      .map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  // Forms and every other change go straight to the network, once.
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PATH)) {
    event.respondWith(fromCache(request));
  } else if (request.mode === "navigate" && SHEET_PATH.test(url.pathname)) {
    event.respondWith(sheet(request, url.pathname));
  }
});

async function fromCache(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(STATIC)).put(request, response.clone());
  return response;
}

// The network first, so that a sheet is always the latest when it can be; its copy after.
// The copy keeps the time it was made; given instead of the network, it says so: its <html>
// carries data-saved-copy (that time, in ms), for app.js to tell the player.
async function sheet(request, path) {
  const cache = await caches.open(SHEETS);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(path, await stamped(response.clone()));
    return response;
  } catch (error) {
    const kept = await cache.match(path);
    if (kept) return marked(kept);
    throw error;
  }
}

async function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set("X-Saved-At", String(Date.now()));
  return new Response(await response.blob(), {
    status: response.status, statusText: response.statusText, headers});
}

async function marked(kept) {
  const saved = Number(kept.headers.get("X-Saved-At")) || 0;
  const text = (await kept.text()).replace(/<html\b/, `<html data-saved-copy="${saved}"`);
  return new Response(text, {
    status: kept.status, statusText: kept.statusText, headers: kept.headers});
}
