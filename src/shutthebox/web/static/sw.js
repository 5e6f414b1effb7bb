// Offline: the page, its modules (every one, listed here: tests/js checks the list) and its words come
// from the network, and from the cache when offline. Of the API only the catalogs are kept (/api/i18n,
// /api/i18n/{lang}) and the solver's tables the page asked for (/api/tables), for the companion; games
// never are. The prebuilt tables (/static/tables) are kept at once, for practice and the companion.
const CACHE = "shutthebox-v10"; // a new name when the page's files change: the old cache goes
const PAGE = [
  "/",
  "/static/style.css",
  "/static/app.js",
  "/static/clock.js",
  "/static/companion.js",
  "/static/daily.js",
  "/static/demo.js",
  "/static/dice.js",
  "/static/dom.js",
  "/static/engine.js",
  "/static/fair-view.js",
  "/static/feel.js",
  "/static/focus.js",
  "/static/game-view.js",
  "/static/guest.js",
  "/static/hints.js",
  "/static/i18n.js",
  "/static/inplay.js",
  "/static/invite.js",
  "/static/language.js",
  "/static/narration.js",
  "/static/net.js",
  "/static/offline.js",
  "/static/play.js",
  "/static/practice.js",
  "/static/privacy.js",
  "/static/profile.js",
  "/static/reach.js",
  "/static/rematch.js",
  "/static/result.js",
  "/static/review.js",
  "/static/room-facts.js",
  "/static/room.js",
  "/static/routes.js",
  "/static/saved.js",
  "/static/scores.js",
  "/static/setup-fields.js",
  "/static/setup-model.js",
  "/static/setup.js",
  "/static/share.js",
  "/static/speech.js",
  "/static/standings.js",
  "/static/state.js",
  "/static/stats.js",
  "/static/store.js",
  "/static/timeline.js",
  "/static/train.js",
  "/static/types.js",
  "/static/verify.js",
  "/static/words.js",
  "/static/feel.css",
  "/static/alegreya-400.woff2",
  "/static/alegreya-700.woff2",
  "/static/icon.svg",
  "/static/icon-192.png",
  "/static/icon-512.png",
  "/static/icon-maskable-512.png",
  "/static/manifest.webmanifest",
  "/static/tables/classic-9-score.json",
  "/static/tables/classic-9-shut.json",
  "/static/tables/digits-9-score.json",
  "/static/tables/digits-9-shut.json",
  "/static/tables/elimination-9-score.json",
  "/static/tables/elimination-9-shut.json",
  "/static/tables/long-9-score.json",
  "/static/tables/long-9-shut.json",
  "/static/tables/pub-9-score.json",
  "/static/tables/pub-9-shut.json",
  "/static/tables/sailors-9-score.json",
  "/static/tables/sailors-9-shut.json",
  "/static/tables/two-dice-9-score.json",
  "/static/tables/two-dice-9-shut.json",
  "/static/tables/web-10-10-score.json",
  "/static/tables/web-10-10-shut.json",
  "/static/tables/web-10-score.json",
  "/static/tables/web-10-shut.json",
  "/static/tables/web-12-12-score.json",
  "/static/tables/web-12-12-shut.json",
  "/static/tables/web-12-score.json",
  "/static/tables/web-12-shut.json",
  "/static/tables/web-9-score.json",
  "/static/tables/web-9-shut.json",
  "/api/i18n",
];

// Every language's catalog too: the page's first load came before this worker, so the reader's
// catalog fetched then is not in the cache, and the first offline visit would read English.
async function keepPage() {
  const cache = await caches.open(CACHE);
  await cache.addAll(PAGE);
  const list = await cache.match("/api/i18n");
  const known = list ? (await list.json()).languages ?? [] : [];
  await cache.addAll(known.filter((language) => language.code !== "en").map((language) => `/api/i18n/${encodeURIComponent(language.code)}`)).catch(() => {});
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepPage().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

function isCatalog(url) {
  return url.pathname === "/api/i18n" || url.pathname.startsWith("/api/i18n/") || url.pathname === "/api/tables";
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
