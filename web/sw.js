// The service worker: the whole site cached under its build hash and served cache-first, so the page
// works offline after one visit (Pyodide, packages, the agreekit wheel, the examples).
//
// build.py writes dist/sw.js (at the site root, so its scope is the whole site) from this file,
// filling BUILD: {version: content hash of dist/, files: every file of the site, relative to the
// root}. A new build therefore changes this script's bytes: the browser installs the new worker
// beside the running one, which keeps serving the open page its own version. The new one waits
// until the page asks it to take over (its "updated — reload" button) or every tab has closed; on
// activation it drops every older cache. One version per page, never a mix.

const BUILD = { version: "dev", files: [] };  // agreekit:build (replaced by build.py)
const PREFIX = "agreekit-";
const CACHE = PREFIX + BUILD.version;

self.addEventListener("install", (event) => {
  // All or nothing (addAll): a failed download leaves no half-filled version behind. "no-cache"
  // revalidates each file with the server (a 304 reuses the HTTP cache's copy the page just loaded).
  const requests = BUILD.files.map((path) => new Request(new URL(path, self.registration.scope), { cache: "no-cache" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)))));
});

self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting();  // the page reloads on controllerchange
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const ours = request.url.startsWith(self.registration.scope);
  if (ours && (request.method === "GET" || request.method === "HEAD")) event.respondWith(fromCache(request));
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  // Cached responses keep their headers, so the worker's HEAD check of pyodide.asm.wasm reads the
  // type the server sent. A navigation's query (?loadTimeout=…) and fragment (share links) do not
  // change the page.
  const hit = await cache.match(request, { ignoreMethod: true, ignoreSearch: request.mode === "navigate" });
  if (!hit) return fetch(request);  // not part of this build: the network, as without a worker
  if (request.method === "HEAD") return new Response(null, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
  return hit;
}
