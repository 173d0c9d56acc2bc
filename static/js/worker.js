/* The service worker: the app's own files under /static/ whose names carry a hash of their content (so a kept copy
   never goes stale) are kept on the phone and answered from there, so a page on a poor hall Wi-Fi costs its HTML alone. Everything else (a
   game's live pages, its actions, its poll) always goes to the network and is never kept: a phone must show the
   game as it stands, or say that it could not. */
"use strict";
var KEPT = "republic-static-v1";
var HASHED = /^\/static\/.+\.[0-9a-f]{12}\.[a-z0-9]+$/;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== KEPT; }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !HASHED.test(url.pathname)) return;
  event.respondWith(
    caches.open(KEPT).then(function (cache) {
      return cache.match(request).then(function (kept) {
        return kept || fetch(request).then(function (answer) {
          if (answer.ok) cache.put(request, answer.clone());
          return answer;
        });
      });
    })
  );
});
