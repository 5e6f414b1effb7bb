// Offline: the page, its modules and its words come from the network, and from the cache when
// offline. Of the API only the catalogs are kept (/api/i18n, /api/i18n/{lang}); games never are.
const CACHE = "shutthebox-v6";
const PAGE = [
  "/",
  "/static/style.css",
  "/static/app.js",
  "/static/i18n.js",
  "/static/net.js",
  "/static/dom.js",
  "/static/words.js",
  "/static/verify.js",
  "/static/feel.js",
  "/static/feel.css",
  "/static/share.js",
  "/static/stats.js",
  "/static/daily.js",
  "/static/train.js",
  "/static/icon.svg",
  "/static/icon-192.png",
  "/static/icon-512.png",
  "/static/icon-maskable-512.png",
  "/static/manifest.webmanifest",
  "/api/i18n",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PAGE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

function isCatalog(url) {
  return url.pathname === "/api/i18n" || url.pathname.startsWith("/api/i18n/");
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/api/") && !isCatalog(url)) return;
  // Network first so a new version is seen at once; the cache answers when offline.
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((hit) => hit || (isCatalog(url) ? Response.error() : caches.match("/")))),
  );
});
