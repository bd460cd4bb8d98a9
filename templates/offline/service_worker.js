{% autoescape off %}// The scorer page offline (scorekeeper.web.offline). The plays themselves wait in the page's
// own storage (static/js/offline.js); this keeps the scorer pages and their scripts and styles,
// so a reload without a network shows the page the scorer last had, with its waiting plays.
// - A scorer page: the network first, always; the kept copy only when the network fails. Each
//   answer the network gives is kept (the last few games'); a page the scorer may no longer
//   see (403, 404) is forgotten. Signing in or out forgets them all.
// - A static file: the network first too (the browser's own cache serves a hashed one at once);
//   a kept copy only when the network fails. Kept only those a scorer page asks for.
// - Everything else (the API, the streams of events, every POST, other pages) is never touched.
// Caches are named after the deploy's static files: a new deploy's worker empties the old ones.
"use strict";

const VERSION = {{ version }};
const SCORER = new RegExp({{ scorer }});
const STATIC = {{ static }};
const FORGET_ON = {{ forget_on }};
const COPY_HEADER = {{ copy_header }};
const PAGES = "scorer-pages-" + VERSION;
const FILES = "scorer-files-" + VERSION;
const KEPT_PAGES = 10;

self.addEventListener("install", function () {
  self.skipWaiting();
});

// An earlier deploy's caches (the worker it replaced may still write one as it finishes).
async function forgetEarlier() {
  const names = await caches.keys();
  await Promise.all(names.filter(function (name) {
    return name.startsWith("scorer-") && name !== PAGES && name !== FILES;
  }).map(function (name) { return caches.delete(name); }));
}

self.addEventListener("activate", function (event) {
  event.waitUntil(forgetEarlier().then(function () { return self.clients.claim(); }));
});

function pageKey(url) {
  const u = new URL(url);
  return u.origin + u.pathname;
}

function keepable(response) {
  return response.status === 200 && response.type === "basic" && !response.redirected &&
    (response.headers.get("Content-Type") || "").startsWith("text/html") &&
    SCORER.test(new URL(response.url).pathname);
}

async function keepPage(key, response) {
  const cache = await caches.open(PAGES);
  await cache.delete(key); // put again last: the oldest kept is the first let go
  await cache.put(key, response);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - KEPT_PAGES)).map(function (k) {
    return cache.delete(k);
  }));
}

async function page(event) {
  const key = pageKey(event.request.url);
  let response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    const kept = await caches.match(key, { cacheName: PAGES, ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
  if (keepable(response)) {
    event.waitUntil(keepPage(key, response.clone()));
  } else if (response.status === 403 || response.status === 404) {
    event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.delete(key); }));
  }
  return response;
}

async function file(event) {
  const request = event.request;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = await caches.match(request, { cacheName: FILES, ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
  if (response.status === 200) {
    const copy = response.clone();
    // A file kept already is kept as it is now (in development, names carry no hash).
    event.waitUntil(caches.open(FILES).then(async function (cache) {
      if (await cache.match(request, { ignoreVary: true })) await cache.put(request, copy);
    }));
  }
  return response;
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && FORGET_ON.indexOf(url.pathname) >= 0) {
    // Signing in or out: no page kept for one person is shown to the next.
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && SCORER.test(url.pathname)) event.respondWith(page(event));
  else if (url.pathname.startsWith(STATIC)) event.respondWith(file(event));
});

// A scorer page asks to be kept with its files: the first time (the page was loaded before
// this worker controlled it), and after a deploy emptied the caches. It is told when done.
async function keep(pageUrl, files) {
  await forgetEarlier();
  const here = self.location.origin;
  const fileCache = await caches.open(FILES);
  await Promise.all(files.map(async function (url) {
    const u = new URL(url, here);
    if (u.origin !== here || !u.pathname.startsWith(STATIC)) return;
    if (await fileCache.match(u.href, { ignoreVary: true })) return;
    try {
      const response = await fetch(u.href, { credentials: "same-origin" });
      if (response.status === 200) await fileCache.put(u.href, response);
    } catch (error) { /* offline: asked again at the page's next load */ }
  }));
  const u = new URL(pageUrl, here);
  if (u.origin !== here || !SCORER.test(u.pathname)) return false;
  const key = pageKey(u.href);
  if (await caches.match(key, { cacheName: PAGES })) return true;
  try {
    const headers = {};
    headers[COPY_HEADER] = "offline";
    const response = await fetch(key, { credentials: "same-origin", cache: "no-store", headers: headers });
    if (!keepable(response)) return false;
    await keepPage(key, response);
    return true;
  } catch (error) {
    return false;
  }
}

self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (!data.keep || typeof data.keep.page !== "string" || !Array.isArray(data.keep.files)) return;
  event.waitUntil(keep(data.keep.page, data.keep.files).then(function (kept) {
    if (event.source) event.source.postMessage({ kept: kept });
  }));
});
{% endautoescape %}
