// Offline after the first visit: registers the service worker (sw.js at the site root; see web/sw.js)
// and, when a new build has been installed beside the version this page runs, says "updated —
// reload" instead of mixing versions. Where service workers are unavailable (blocked, file://,
// an old browser) the page works online exactly as without one.
//
// The worker caches the calculator's files on install; the workshop page asks for its own list
// (cacheList("workshop")), and the calculator for Python's memory snapshot once it is used: on
// loopback at once, over a network from the second visit on (web/worker.mjs restores it on
// loopback and on return visits only; benchmarks/RESULTS.md, "The first visit over a network").

const root = new URL("../", import.meta.url);

/** Whether this page comes from this computer, where a download costs next to nothing. */
export const onLoopback = (url = location) => ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);

/** Register the worker once the page has shown its first result; show `notice` when a newer build waits to take over. */
export async function keepOffline(notice) {
  if (!("serviceWorker" in navigator)) return;
  await firstResult();
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.href });
  } catch {
    return;  // blocked by the browser or its policy: online only
  }
  // Only a page that runs an older version hears of a newer one (a first visit installs silently).
  const announce = (worker) => { if (navigator.serviceWorker.controller) showNotice(notice, worker); };
  if (registration.waiting) announce(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => { if (worker.state === "installed") announce(worker); });
  });
  if (navigator.serviceWorker.controller) registration.update().catch(() => {});  // offline: nothing to check
  if (onLoopback() || navigator.serviceWorker.controller) cacheList("snapshot").catch(() => {});  // offline: later
}

// The install copies some 30 MB into the cache: not while the first report computes and renders.
const FIRST_RESULT_WAIT_MS = 30_000;  // a first report that fails or takes long: register anyway

/** Resolves at the page's first "agreekit:result" mark (web/app.mjs), or after FIRST_RESULT_WAIT_MS. */
function firstResult() {
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName("agreekit:result").length) done();
    });
    const timer = setTimeout(() => done(), FIRST_RESULT_WAIT_MS);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe({ type: "mark", buffered: true });
  });
}

/**
 * Register the worker if need be, and have it cache its list `list` ("workshop", "snapshot"); resolves
 * with the number of files it fetched, rejects when there is no service worker or a download failed.
 */
export async function cacheList(list) {
  if (!("serviceWorker" in navigator)) throw new Error("no service worker here");
  await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.href });
  const registration = await navigator.serviceWorker.ready;
  const channel = new MessageChannel();
  const answer = new Promise((resolve, reject) => {
    channel.port1.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data.cached));
  });
  registration.active.postMessage({ cache: list }, [channel.port2]);
  return answer;
}

const TAKE_OVER_RETRY_MS = 1000;

function showNotice(notice, worker) {
  const reload = document.createElement("button");
  reload.type = "button";
  reload.textContent = "Reload";
  reload.addEventListener("click", () => {
    reload.disabled = true;
    // Asked again each second until the page changes hands: an activation asked for while the running
    // worker still handles one of this page's requests can be parked by Chromium until it is asked again
    // (w3c/ServiceWorker#1295: "Try Activate" waits for no pending events). In two full test runs the
    // page had not changed hands 30 s after one click.
    const retry = setInterval(() => (worker.state === "redundant" ? clearInterval(retry) : worker.postMessage("take-over")),
      TAKE_OVER_RETRY_MS);
    navigator.serviceWorker.addEventListener("controllerchange", () => { clearInterval(retry); location.reload(); },
      { once: true });
    worker.postMessage("take-over");
  });
  notice.replaceChildren("agreekit has been updated — reload to use the new version. ", reload);
  notice.hidden = false;
}
