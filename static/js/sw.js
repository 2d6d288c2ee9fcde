/* scorekeeper's service worker (issue 11), served at /sw.js by web/offline.py, which puts
   self.SK_CONFIG before this text: {version, shell: versioned URLs, keep: path patterns, static}.
   - The app shell (CSS, JS, htmx, icon) is cached at install, per version; static files are
     answered from the cache first (their URLs carry a content hash, so they never go stale).
   - The pages of `keep` (home, a circle, an evening's slate) go to the network first and are
     kept for offline use; any other page (seats, the table: a private hand) is never kept.
     A page that shows a flashed message ("Hand recorded: ...", marked X-Flashed by the server)
     is never kept: the same page is fetched once more (the message was shown) and that is kept.
     A page whose link was replaced (410) is dropped from the kept pages.
   - The queue of hands lives in IndexedDB (queue.js), not in a cache: a new version of this
     worker deletes old shell caches only (once the kept pages name the new files), never the
     kept pages or the queue.
   - Background Sync ("sk-queue") sends the queue where the browser has it. */
/* global SK_CONFIG, SkQueue */
"use strict";

var CONFIG = self.SK_CONFIG;
var STATIC = "sk-static-" + CONFIG.version;
var PAGES = "sk-pages";
var KEEP = CONFIG.keep.map(function (p) { return new RegExp(p); });

CONFIG.shell.forEach(function (url) {
  if (url.indexOf("/js/queue.js") >= 0) importScripts(url);
});

/* A page fit to be shown offline later: a whole page of this origin, without a flashed message. */
function keepable(response) {
  return response.ok && !response.redirected && response.type === "basic" && !response.headers.get("X-Flashed");
}

function keepPath(path) {
  return fetch(path, { credentials: "same-origin" }).then(function (response) {
    if (keepable(response)) return caches.open(PAGES).then(function (cache) { return cache.put(path, response); });
    return null;
  });
}

/* The home page is the installed app's start_url (the manifest's "/"): kept at install, so a
   phone that only ever opened a circle's link still starts offline and finds its circles there. */
function keepHome() {
  return keepPath("/").catch(function () { /* kept at the next visit */ });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.addAll(CONFIG.shell); }).then(keepHome).then(function () {
    return self.skipWaiting();
  }));
});

/* A new version: the kept pages are fetched again (they name the new files); only then are
   the old files dropped. Offline, the old files stay for the old pages. */
function refreshKept() {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (r) {
        return fetch(r.url, { credentials: "same-origin" }).then(function (response) {
          if (keepable(response)) return cache.put(r, response);
          return response.headers.get("X-Flashed") ? null : cache.delete(r);
        });
      }));
    });
  });
}

function dropOldFiles() {
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("sk-static-") === 0 && n !== STATIC; })
      .map(function (n) { return caches.delete(n); }));
  });
}

self.addEventListener("activate", function (event) {
  event.waitUntil(refreshKept().then(dropOldFiles, function () { /* offline: keep them */ })
    .then(function () { return self.clients.claim(); }));
});

function kept(path) {
  return KEEP.some(function (re) { return re.test(path); });
}

function fromStatic(request) {
  return caches.match(request, { cacheName: STATIC }).then(function (hit) {
    if (hit) return hit;
    return caches.match(request).then(function (older) {
      if (older) return older;
      return fetch(request).then(function (response) {
        if (response.ok && new URL(request.url).searchParams.has("v")) {
          var copy = response.clone();
          caches.open(STATIC).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      });
    });
  });
}

function page(request, path) {
  return fetch(request).then(function (response) {
    if (keepable(response)) {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { cache.put(path, copy); });
    } else if (response.ok && response.headers.get("X-Flashed")) {
      keepPath(path).catch(function () { /* kept at the next visit */ });
    } else if (response.status === 410) { /* a link gone, an evening deleted as a test: its kept copy goes too */
      caches.open(PAGES).then(function (cache) { cache.delete(path); });
    }
    return response;
  }, function () {
    return caches.match(path, { cacheName: PAGES, ignoreVary: true, ignoreSearch: true }).then(function (hit) {
      return hit || Response.error();
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(CONFIG.static) === 0) {
    event.respondWith(fromStatic(request));
  } else if (request.mode === "navigate" && kept(url.pathname)) {
    event.respondWith(page(request, url.pathname));
  }
});

/* A page opened before this worker was in control asks to be kept. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "sk-keep" || typeof data.path !== "string" || !kept(data.path)) return;
  event.waitUntil(keepPath(data.path).catch(function () { /* offline: kept at the next visit */ }));
});

function tellPages(message) {
  return self.clients.matchAll({ type: "window" }).then(function (pages) {
    pages.forEach(function (p) { p.postMessage(message); });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag !== "sk-queue") return;
  event.waitUntil(SkQueue.sync(null).then(function (outcome) {
    return tellPages({ type: "sk-synced", outcome: outcome }).then(function () {
      if (outcome.offline || outcome.later) throw new Error("the queue waits: the browser tries again later");
    });
  }));
});
