{% autoescape off %}/* troefclub's service worker (issue 18), rendered by scoring.views.offline.service_worker.
 *
 * - Precaches the files of the table page and the director's score sheet (Workbox,
 *   static/vendor/workbox, loaded from our own static files: no CDN).
 * - Serves the table pages (/t/<token>/) and the score sheets network first: the page as
 *   the server has it now when the network answers within 4 s, else the copy kept from
 *   the last visit (with the rounds stored since, put in by static/js/table_queue.js).
 * - Sends the queued rounds of the phones and the score sheets when the connection is back
 *   (Background Sync; each round carries its endpoint, static/js/table_queue.js).
 * - Names every cache after the release; a new release replaces this worker at once
 *   (skipWaiting, clients.claim) and deletes the old release's caches: no stale page.
 */
"use strict";

var RELEASE = {{ release_json }};
var MODULES = {{ modules_json }};
var PRECACHE = {{ precache_json }};
var PAGES = "troefclub-pages-" + RELEASE;

importScripts({{ workbox_sw_json }}, {{ idb_json }}, {{ queue_json }});

workbox.setConfig({
  debug: false,
  modulePathCb: function (name) {
    return MODULES[name];
  },
});
// Loaded now: a service worker may only import scripts while it starts.
var core = workbox.core;
var routing = workbox.routing;
var strategies = workbox.strategies;
var precaching = workbox.precaching;

core.setCacheNameDetails({ prefix: "troefclub", suffix: RELEASE, precache: "precache", runtime: "runtime" });
core.skipWaiting();
core.clientsClaim();
precaching.precacheAndRoute(PRECACHE);

// The table's phone page and the director's score sheet: a navigation, not an htmx poll.
var PAGE_PATHS = [/^\/t\/[^/]+\/$/, /^\/c\/[^/]+\/game\/\d+\/sheet\/$/];

function isPage(url) {
  return PAGE_PATHS.some(function (path) {
    return path.test(url.pathname);
  });
}

routing.registerRoute(
  function (options) {
    return options.request.mode === "navigate" && isPage(options.url);
  },
  new strategies.NetworkFirst({
    cacheName: PAGES,
    networkTimeoutSeconds: 4,
    // The pages vary on the session cookie, which a service worker never sees.
    matchOptions: { ignoreVary: true },
    plugins: [
      {
        // Only a page as it should be: never a 404 of a revoked link, an error or a login.
        cacheWillUpdate: function (options) {
          var response = options.response;
          return response && response.status === 200 && !response.redirected ? response : null;
        },
      },
    ],
  }),
  "GET"
);

self.addEventListener("activate", function (event) {
  // Every cache of another release goes (Workbox's own cleanup only knows its format).
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names
          .filter(function (name) {
            return name.indexOf("troefclub-") === 0 && name.slice(-RELEASE.length - 1) !== "-" + RELEASE;
          })
          .map(function (name) {
            return caches.delete(name);
          })
      );
    })
  );
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "release" && event.ports[0]) {
    event.ports[0].postMessage(RELEASE);
  } else if (data.type === "keep-page" && typeof data.url === "string") {
    // The page the phone opened before this worker controlled it: keep a copy now.
    var url = new URL(data.url, self.location.origin);
    if (url.origin === self.location.origin && isPage(url)) {
      event.waitUntil(
        caches.open(PAGES).then(function (cache) {
          return cache.match(url.href, { ignoreVary: true }).then(function (kept) {
            if (kept) {
              return undefined;
            }
            return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
              return response.status === 200 && !response.redirected ? cache.put(url.href, response) : undefined;
            });
          });
        })
      );
    }
  }
});

// Background Sync: the browser wakes this worker once the connection is back, even with
// the table page closed; the rounds go in order, each once (their keys). A page open in
// sight sends its own queue (and shows each answer): it is left to that page.
self.addEventListener("sync", function (event) {
  if (event.tag === "table-queue") {
    event.waitUntil(
      self.clients
        .matchAll({ type: "window" })
        .then(function (clients) {
          var shown = clients
            .filter(function (client) {
              return client.visibilityState === "visible";
            })
            .map(function (client) {
              return new URL(client.url).pathname;
            });
          return TableQueue.flushAll(RELEASE, shown);
        })
        .then(function () {
        return self.clients.matchAll({ type: "window" }).then(function (clients) {
          clients.forEach(function (client) {
            client.postMessage({ type: "queue-sent" });
          });
        });
      })
    );
  }
});
{% endautoescape %}