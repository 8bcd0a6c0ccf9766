// Offline after the first visit: registers the service worker (sw.js at the site root; see web/sw.js)
// and, when a new build has been installed beside the version this page runs, says "updated —
// reload" instead of mixing versions. Where service workers are unavailable (blocked, file://,
// an old browser) the page works online exactly as without one.

const root = new URL("../", import.meta.url);

/** Register the worker; show `notice` when a newer build waits to take over. */
export async function keepOffline(notice) {
  if (!("serviceWorker" in navigator)) return;
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
}

function showNotice(notice, worker) {
  const reload = document.createElement("button");
  reload.type = "button";
  reload.textContent = "Reload";
  reload.addEventListener("click", () => {
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
    worker.postMessage("take-over");
  });
  notice.replaceChildren("agreekit has been updated — reload to use the new version. ", reload);
  notice.hidden = false;
}
