"""What the service worker caches, and when (web/sw.js, buildtools/precache.py, issue 27).

The calculator's list is checked against the requests Chromium makes for the calculator's first
result; the workshop's files are cached once the workshop has been opened, and it then runs
offline; the memory snapshot is not fetched on a first visit over a network, but restored and
cached from the second visit on (on loopback at once). Functional, not timed: timings are
benchmarks/web_first_visit.py's.
"""
from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from conftest import ARGS, CHROMIUM, LOAD_MS, Site, wait_result

NETWORK_HOST = "agreekit.test"  # mapped to 127.0.0.1: a page the browser does not see on loopback
WORKSHOP_LOAD_MS = 300_000
CELL_MS = 180_000


def sw_lists(dist_dir):
    line = next(line for line in (dist_dir / "sw.js").read_text().splitlines() if line.startswith("const BUILD = "))
    return json.loads(line.removeprefix("const BUILD = ").split(";  // agreekit:build")[0])


def as_paths(names):
    """Site-relative names ("./" the root) as URL paths."""
    return {"/" + name.removeprefix("./") for name in names}


def cached_paths(page):
    """The paths in the build's cache (one cache: the page's version)."""
    return set(page.evaluate("""async () => {
        const names = await caches.keys();
        if (names.length !== 1) throw new Error(`caches: ${names}`);
        const keys = await (await caches.open(names[0])).keys();
        return keys.map((request) => new URL(request.url).pathname);
    }"""))


def worker_snapshot(page):
    return page.evaluate("window.agreekit.engine.timings.snapshot")


def wait_cached(page, path):
    """Poll the caches for ``path`` (the page asks the service worker for it in the background)."""
    for _ in range(LOAD_MS // 250):
        if page.evaluate("path => caches.match(path).then(Boolean)", path):
            return
        page.wait_for_timeout(250)
    pytest.fail(f"{path} never reached the cache")


def own_requests(context, origin):
    """The paths of every request the page and its workers make (service worker's own fetches aside)."""
    requested = []
    context.on("request", lambda request: requested.append(urlsplit(request.url).path)
               if request.url.startswith(origin) else requested.append(request.url))
    return requested


@pytest.fixture
def own_site(dist_dir):
    server = Site(dist_dir)
    yield server
    if not getattr(server, "closed", False):
        server.close()


@pytest.fixture
def network_browser(browser_type, own_site):
    """Chromium that reaches own_site as http://agreekit.test:PORT, treated as a secure context."""
    origin = f"http://{NETWORK_HOST}:{own_site.server.server_address[1]}"
    browser = browser_type.launch(executable_path=CHROMIUM, headless=True, args=ARGS + [
        f"--host-resolver-rules=MAP {NETWORK_HOST} 127.0.0.1", f"--unsafely-treat-insecure-origin-as-secure={origin}"])
    browser.origin = origin
    yield browser
    browser.close()


def test_a_first_visit_over_a_network_caches_what_the_calculator_requests_and_no_snapshot(
        network_browser, own_site, dist_dir):
    lists = sw_lists(dist_dir)
    snapshot = "/" + lists["snapshot"][0]
    context = network_browser.new_context(service_workers="allow")
    requested = own_requests(context, network_browser.origin)
    page = context.new_page()
    page.goto(network_browser.origin + "/")
    wait_result(page, "boxes")
    assert page.evaluate("crossOriginIsolated") is True
    assert worker_snapshot(page) == "not on a first visit over a network"
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # installed: its list is cached

    # Every file the calculator asked for is in its list (sw.js registers the worker: not a file to cache);
    # nothing in two forms, no snapshot, nothing of the workshop's.
    asked = set(requested) - {"/sw.js"}
    assert {"/pyodide/pyodide.asm.wasm", "/" + json.loads((dist_dir / "build-info.json").read_text())["numpy"]} <= asked
    assert asked <= as_paths(lists["calculator"]), sorted(asked - as_paths(lists["calculator"]))
    assert snapshot not in asked and not [path for path in asked if path.endswith(".gz")]
    assert len([path for path in asked if "/numpy-" in path]) == 1
    assert cached_paths(page) == as_paths(lists["calculator"])
    assert page.evaluate("caches.match(location.origin + '/workshop.html').then(Boolean)") is False

    page.reload()  # the second visit: the rest from the cache, the snapshot from the network, then cached
    wait_result(page, "boxes")
    assert worker_snapshot(page) == "restored"
    wait_cached(page, snapshot)

    own_site.close()
    own_site.closed = True
    context.set_offline(True)
    page.reload()
    wait_result(page, "boxes")
    assert worker_snapshot(page) == "restored"
    context.close()


def test_on_loopback_the_snapshot_is_restored_at_once_and_cached(browser, own_site, dist_dir):
    lists = sw_lists(dist_dir)
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(own_site.url)
    wait_result(page, "boxes")
    assert worker_snapshot(page) == "restored"
    wait_cached(page, "/" + lists["snapshot"][0])
    assert cached_paths(page) == as_paths(lists["calculator"] + lists["snapshot"])
    context.close()


def test_the_workshop_is_cached_when_first_opened_and_then_runs_offline(browser, own_site, dist_dir):
    lists = sw_lists(dist_dir)
    context = browser.new_context(service_workers="allow", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(own_site.url + "workshop.html")
    page.wait_for_selector('#ws-status[data-state="ready"]', timeout=WORKSHOP_LOAD_MS)
    page.wait_for_function("window.agreekitWorkshop.offline !== undefined", timeout=LOAD_MS)
    page.evaluate("window.agreekitWorkshop.offline")
    assert as_paths(lists["workshop"] + lists["calculator"]) <= cached_paths(page)
    assert not [path for path in cached_paths(page) if path.endswith(".map")]

    own_site.close()
    own_site.closed = True
    context.set_offline(True)
    page.reload()
    page.wait_for_selector('#ws-status[data-state="ready"]', timeout=WORKSHOP_LOAD_MS)
    page.wait_for_selector('body[data-cells="mounted"]', timeout=LOAD_MS)
    box = page.locator('.cell[data-cell="raw-iou-run"]')
    box.locator(".py-editor-run-button").click()
    page.wait_for_function("Number(document.querySelector(`.cell[data-cell='raw-iou-run']`).dataset.runs || 0) > 0",
                           timeout=CELL_MS)
    assert box.get_attribute("data-state") == "done", box.locator(".py-editor-output").inner_text()
    assert page.locator("#figure-raw-iou-run img").count() == 1
    context.close()
