// The service worker: the table screen and the static files stay on the
// phone so the page opens without a connection; hands entered offline wait in the page's
// outbox (static/js/offline.js), not here. Workbox 7.4.1, vendored in static/vendor/.
importScripts("{{ workbox_prefix }}workbox-sw.js");
workbox.setConfig({ modulePathPrefix: "{{ workbox_prefix }}", debug: false });

// The reload after the outbox's answer (static/js/offline.js marks it ?fresh): the table as
// the server has it now, however long it takes; this copy, perhaps from before the hands just
// answered, only when the network fails. Kept under the page's own address, so the next
// offline load has it.
var withoutFresh = {
  cacheKeyWillBeUsed: function (options) {
    var url = new URL(options.request.url);
    url.searchParams.delete("fresh");
    return url.href;
  },
};
workbox.routing.registerRoute(
  function (options) {
    return (
      options.request.mode === "navigate" &&
      options.url.origin === self.location.origin &&
      options.url.searchParams.has("fresh")
    );
  },
  new workbox.strategies.NetworkFirst({ cacheName: "clubsite-pages", plugins: [withoutFresh] })
);

// Pages: the network first (a table changes with every hand), the last copy when offline.
workbox.routing.registerRoute(
  function (options) {
    return options.request.mode === "navigate" && options.url.origin === self.location.origin;
  },
  new workbox.strategies.NetworkFirst({ cacheName: "clubsite-pages", networkTimeoutSeconds: 5 })
);

// Static files: served from the cache at once, refreshed behind.
workbox.routing.registerRoute(
  function (options) {
    return (
      options.url.origin === self.location.origin &&
      options.url.pathname.indexOf("{{ static_url }}") === 0
    );
  },
  new workbox.strategies.StaleWhileRevalidate({ cacheName: "clubsite-static" })
);

// The offline panel's figures (scoring/views/offline_values.py): a file per ruleset and
// language whose address changes with its content, so the copy kept is always right.
workbox.routing.registerRoute(
  function (options) {
    return (
      options.url.origin === self.location.origin &&
      options.url.pathname.indexOf("/offline-values/") !== -1
    );
  },
  new workbox.strategies.CacheFirst({ cacheName: "clubsite-figures" })
);

// Logging in or out forgets the pages kept for the last member (a phone may be shared).
self.addEventListener("fetch", function (event) {
  var url = new URL(event.request.url);
  if (event.request.mode === "navigate" && /^\/accounts\/log(in|out)\//.test(url.pathname)) {
    event.waitUntil(caches.delete("clubsite-pages"));
  }
});

self.addEventListener("install", function () {
  self.skipWaiting();
});
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});
