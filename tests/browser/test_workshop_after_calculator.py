"""The workshop opened after the calculator fetches no numpy or scipy file in a second form (issue 27).

Both pages load numpy (with bytecode) and scipy's parts by the URLs of build-info.json
(buildtools/workshop.py): one browser context, the calculator first, then the workshop; every
request of the workshop page and its workers is recorded, and every file the server sends. No
file is sent twice: the service worker keeps a wheel it passed on (web/sw.js fromNetwork), so
caching the workshop's list does not fetch it again. Functional, not timed: the bytes and times are
benchmarks/workshop_cold_load.py's.
"""
from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from conftest import Site, build, guard, wait_result

WORKSHOP_LOAD_MS = 300_000
CELL_MS = 180_000
FIRST_CELL = "raw-iou-run"


@pytest.fixture
def counting_site(dist_dir):
    """A server of dist/ that records (path, status) of every response it sends."""
    sent = []

    class Counting(build.SiteHandler):
        def send_response(self, code, message=None):
            sent.append((urlsplit(self.path).path, code))
            super().send_response(code, message)

    server = Site(dist_dir, handler_base=Counting)
    server.sent = sent
    yield server
    server.close()


def wait_cached(page, path, timeout_ms=120_000):
    for _ in range(timeout_ms // 250):
        if page.evaluate("path => caches.match(path).then(Boolean)", path):
            return
        page.wait_for_timeout(250)
    pytest.fail(f"{path} never reached the cache")


def test_the_workshop_after_the_calculator_loads_its_numpy_and_scipy_by_the_same_urls(browser, counting_site, dist_dir):
    site = counting_site
    info = json.loads((dist_dir / "build-info.json").read_text())
    context = browser.new_context(service_workers="allow", viewport={"width": 1100, "height": 900})
    foreign = guard(context, site.url.rstrip("/"))
    calculator = context.new_page()
    calculator.goto(site.url)
    wait_result(calculator, "boxes")
    calculator.click("#tab-segments")  # a report that installs scipy's sparse part: the calculator is done with it
    wait_result(calculator, "segments")
    calculator.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_cached(calculator, "/" + info["snapshot"]["path"])  # the worker's last download on loopback

    requested = []
    context.on("request", lambda request: requested.append(urlsplit(request.url).path))
    sent_before = len(site.sent)
    workshop = context.new_page()
    workshop.goto(site.url + "workshop.html")
    workshop.wait_for_selector('#ws-status[data-state="ready"]', timeout=WORKSHOP_LOAD_MS)
    workshop.wait_for_selector('body[data-cells="mounted"]', timeout=WORKSHOP_LOAD_MS)
    box = workshop.locator(f'.cell[data-cell="{FIRST_CELL}"]')
    box.locator(".py-editor-run-button").click()
    workshop.wait_for_function(f"Number(document.querySelector(`.cell[data-cell='{FIRST_CELL}']`).dataset.runs || 0) > 0",
                               timeout=CELL_MS)
    assert box.get_attribute("data-state") == "done", box.locator(".py-editor-output").inner_text()
    assert "sigma" in box.locator(".py-editor-output").inner_text()
    # all of scipy is there, its rest too (a third part, buildtools/scipy_split.py)
    exercise = workshop.locator('.cell[data-cell="raw-iou-exercise"]')
    workshop.evaluate("""document.querySelector("script[data-cell='raw-iou-exercise']").code =
        'import scipy.stats, scipy.special\\nprint("cdf", scipy.stats.norm.cdf(0.0), scipy.special.erf(0.0))'""")
    exercise.locator(".py-editor-run-button").click()
    workshop.wait_for_function("Number(document.querySelector(`.cell[data-cell='raw-iou-exercise']`).dataset.runs || 0) > 0",
                               timeout=CELL_MS)
    assert "cdf 0.5 0.0" in exercise.locator(".py-editor-output").inner_text()
    workshop.evaluate("window.agreekitWorkshop.offline")  # the workshop's offline copy, fetched too
    context.close()
    assert foreign == []
    sent = [path for path, code in site.sent[sent_before:] if code == 200]
    assert "/" + info["scipy_rest"] in sent
    # Each wheel and lock package file sent once at most. (Others may be sent again when the offline
    # copy revalidates them: the guard's routing turns the HTTP cache off, so no 304 here.)
    packages = [path for path in sent if path.startswith("/wheels/") or path.endswith((".whl", ".zip"))]
    assert sorted(path for path in set(packages) if packages.count(path) > 1) == []
    again = set(sent) & {"/" + path for path in (info["numpy"], *info["scipy"].values(), info["wheel"])}
    assert again == set(), sorted(again)  # the calculator's files come from its cache

    numpy_or_scipy = {path for path in requested if path.rsplit("/", 1)[-1].startswith(("numpy-", "scipy-", "scipy_"))}
    calculators = {"/" + path for path in (info["numpy"], *info["scipy"].values())}
    assert calculators <= numpy_or_scipy  # the calculator's own files, by the same URLs
    assert numpy_or_scipy == calculators | {"/" + info["scipy_rest"]}, sorted(numpy_or_scipy - calculators)
    assert not [path for path in requested if path.startswith("/pyodide/") and path.endswith(".whl")
                and path.rsplit("/", 1)[-1].startswith(("numpy-", "scipy-"))]
    assert any(path.endswith(".whl") and "/matplotlib-" in path for path in requested)  # by name, from the lock
