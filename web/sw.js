// The service worker: the build's files cached under its build hash and served cache-first, so the
// calculator works offline after one visit, and the workshop after it has been opened once online.
//
// build.py writes dist/sw.js (at the site root, so its scope is the whole site) from this file,
// filling BUILD: {version: content hash of dist/, and three lists of files relative to the root
// (buildtools/precache.py): calculator (cached on install), workshop (cached when the workshop page
// asks, web/offline.mjs cacheList), snapshot (Python's memory snapshot, asked for once it pays)}.
// A new build therefore changes this script's bytes: the browser installs the new worker beside
// the running one, which keeps serving the open page its own version. The new one waits until the
// page asks it to take over (its "updated — reload" button) or every tab has closed; on activation
// it drops every older cache. One version per page, never a mix.

const BUILD = { version: "dev", calculator: [], workshop: [], snapshot: [] };  // agreekit:build (replaced by build.py)
const PREFIX = "agreekit-";
const CACHE = PREFIX + BUILD.version;

self.addEventListener("install", (event) => {
  // All or nothing (addAll): a failed download leaves no half-filled version behind. "no-cache"
  // revalidates each file with the server (a 304 reuses the HTTP cache's copy the page just loaded).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requestsOf(BUILD.calculator))));
});

const requestsOf = (paths) => paths.map((path) => new Request(new URL(path, self.registration.scope), { cache: "no-cache" }));

/** Add the files of BUILD[list] this version's cache lacks (all or nothing, as on install). */
async function cacheList(list) {
  if (!Object.hasOwn(BUILD, list) || list === "version") throw new Error(`no list ${list}`);
  const cache = await caches.open(CACHE);
  const missing = [];
  for (const path of BUILD[list]) {
    if (!(await cache.match(new URL(path, self.registration.scope)))) missing.push(path);
  }
  await cache.addAll(requestsOf(missing));
  return missing.length;
}

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)))));
});

self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting();  // the page reloads on controllerchange
  // {cache: list} with a MessagePort: that list cached; the port hears {cached: n fetched} or {error}.
  if (event.data?.cache) {
    const port = event.ports[0];
    event.waitUntil(cacheList(event.data.cache).then(
      (fetched) => port?.postMessage({ cached: fetched }),
      (error) => port?.postMessage({ error: String(error?.message ?? error) })));
  }
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const ours = request.url.startsWith(self.registration.scope);
  if (ours && (request.method === "GET" || request.method === "HEAD")) event.respondWith(fromCache(event));
});

async function fromCache(event) {
  const { request } = event;
  const cache = await caches.open(CACHE);
  // Cached responses keep their headers, so the worker's HEAD check of pyodide.asm.wasm reads the
  // type the server sent. A navigation's query (?loadTimeout=…) and fragment (share links) do not
  // change the page.
  const hit = await cache.match(request, { ignoreMethod: true, ignoreSearch: request.mode === "navigate" });
  if (!hit) return fromNetwork(event, cache);  // not cached (yet): the network, as without a worker
  if (request.method === "HEAD") return new Response(null, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
  return hit;
}

// Files of the lists whose names fix their content: the content-addressed wheels, the lock's package
// files. One a page fetches is kept as it passes, so that caching its list later (cacheList) does not
// fetch it again: the browser's HTTP cache may hold no copy of a large one (the workshop's scipy part
// and matplotlib, 17 MB sent twice: benchmarks/RESULTS.md, "The workshop after the calculator"). Any
// other file waits for its list, which caches a version's files together.
const FIXED_CONTENT = /^(wheels\/.+|pyodide\/[^/]+\.(whl|zip))$/;
const LISTED = new Set([...BUILD.calculator, ...BUILD.workshop]);

async function fromNetwork(event, cache) {
  const response = await fetch(event.request);
  const path = event.request.url.slice(self.registration.scope.length);
  if (event.request.method === "GET" && response.status === 200 && FIXED_CONTENT.test(path) && LISTED.has(path)) {
    event.waitUntil(cache.put(event.request, response.clone()).catch(() => {}));  // a full disk: fetched again later
  }
  return response;
}
