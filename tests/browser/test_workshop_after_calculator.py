"""The workshop opened after the calculator fetches no numpy or scipy file in a second form (issue 27).

Both pages load numpy (with bytecode) and scipy's parts by the URLs of build-info.json
(buildtools/workshop.py): one browser context, the calculator first, then the workshop; every
request of the workshop page and its workers is recorded. Functional, not timed: the bytes and
times are benchmarks/workshop_cold_load.py's.
"""
from __future__ import annotations

import json
from urllib.parse import urlsplit

from conftest import guard, wait_result

WORKSHOP_LOAD_MS = 300_000
CELL_MS = 180_000
FIRST_CELL = "raw-iou-run"


def test_the_workshop_after_the_calculator_loads_its_numpy_and_scipy_by_the_same_urls(browser, site, dist_dir):
    info = json.loads((dist_dir / "build-info.json").read_text())
    context = browser.new_context(service_workers="allow", viewport={"width": 1100, "height": 900})
    foreign = guard(context, site.url.rstrip("/"))
    calculator = context.new_page()
    calculator.goto(site.url)
    wait_result(calculator, "boxes")
    calculator.evaluate("navigator.serviceWorker.ready.then(() => true)")

    requested = []
    context.on("request", lambda request: requested.append(urlsplit(request.url).path))
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
    workshop.evaluate("window.agreekitWorkshop.offline")  # the workshop's offline copy, fetched too
    context.close()
    assert foreign == []

    numpy_or_scipy = {path for path in requested if path.rsplit("/", 1)[-1].startswith(("numpy-", "scipy-", "scipy_"))}
    calculators = {"/" + path for path in (info["numpy"], *info["scipy"].values())}
    assert calculators <= numpy_or_scipy  # the calculator's own files, by the same URLs
    assert numpy_or_scipy == calculators | {"/" + info["scipy_rest"]}, sorted(numpy_or_scipy - calculators)
    assert not [path for path in requested if path.startswith("/pyodide/") and path.endswith(".whl")
                and path.rsplit("/", 1)[-1].startswith(("numpy-", "scipy-"))]
    assert any(path.endswith(".whl") and "/matplotlib-" in path for path in requested)  # by name, from the lock
