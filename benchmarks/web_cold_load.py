"""Web calculator speed: first rendered box result cold, warm and offline; browser vs CPython compute.

    python3 build.py        # dist/ is what is served: rebuild after any change
    PYTHONPATH=pycore .venv/bin/python benchmarks/web_cold_load.py [--runs 3]

Each run starts a new Chromium process with a new profile and its own server on a free port (so
the service worker and caches of one run never reach the next), and opens the page with no
fragment: what a new visitor sees, the Boxes tab computing its example (50 images, 3 annotators,
1000 resamples) as soon as Python is ready (web/first_open.mjs). In order:

1. cold, identity: the server never sends the precompressed copies (``SiteHandler.precompressed = False``);
2. cold: the server sends ``<file>.gz`` to the browser, which accepts gzip (``build.py serve`` as shipped);
   then, in the same profile, once the service worker is active (it cached the build):
3. warm revisit: reload; HTTP cache and the service worker's cache are full;
4. offline revisit: the server stopped and the context offline, reload.
The service worker is allowed in all four (Playwright's ``service_workers="allow"``), as for a user;
it registers once Python is ready and fills its cache while the example computes.

Times are page-clock marks from navigation start to the first rendered box result
(``agreekit:result``), with the stages the worker reports (``window.agreekit.engine.timings``: when
each stage started, worker clock) and the page's ``agreekit:computed`` mark (report received,
rendering starts). Goals (issue 15): cold <= 3.5 s, warm <= 2.5 s, quiet machine.

5. Compute: the ~7,500-box crowd-shaped corpus (agreekit.simulate.crowd_corpus), the full box report
   with the exact baseline and 1000 resamples, timed inside the worker (report + JSON), against the
   same call in CPython (report + to_dict + JSON). Goal: browser <= 1.5x CPython.
The machine has 2 noisy cores: the load is printed, medians are quoted, and ratios matter most.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "pycore"))

import build  # noqa: E402
import agreekit  # noqa: E402
from agreekit.simulate import crowd_corpus, to_csv  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 240_000
SCENARIOS = ("cold, identity", "cold", "warm revisit", "offline revisit")


class Stages(NamedTuple):
    """One page load, in seconds. ``worker_start`` is page clock; the others are stage lengths."""
    worker_start: float   # navigation start -> worker started (page, modules, worker script)
    check: float          # the HEAD check of pyodide.asm.wasm
    pyodide: float        # loadPyodide: Pyodide ready
    packages: float       # numpy, scipy, openblas and the agreekit wheel loaded (one loadPackage)
    imports: float        # bridge.py and the imports: page says Ready
    compute: float        # the example's report in the worker (as the worker times it)
    render: float         # report received -> rendered (agreekit:computed -> agreekit:result)
    ready: float          # page clock: Ready
    result: float         # page clock: first rendered box result
    kb_sent: float        # kB of response bodies the server sent from the start to the first result (the
                          # service worker fills its cache meanwhile: the calculator's list, and the snapshot on loopback)


STAGE_LABELS = {"worker_start": "page + worker script (page clock)", "check": "wasm MIME check",
                "pyodide": "Pyodide ready (loadPyodide)", "packages": "packages (numpy, scipy, wheel)",
                "imports": "imports (numpy, scipy, agreekit)", "compute": "compute (example, 1000 resamples)",
                "render": "render", "ready": "= Ready, page clock", "result": "= first result, page clock",
                "kb_sent": "kB sent by the server by then"}


class CountingHandler(build.SiteHandler):
    """The site's handler, adding up the bytes of every response body it sends (``sent`` per server)."""
    sent = None  # a one-element list, set per server

    def copyfile(self, source, outputfile):
        start = source.tell()
        try:
            super().copyfile(source, outputfile)
        except (BrokenPipeError, ConnectionResetError):
            pass  # a run closed its browser while the service worker was still filling its cache
        self.sent[0] += source.tell() - start


class Site:
    """dist/ served on a free port in a thread; ``precompressed`` as the handler's switch."""

    def __init__(self, precompressed=True):
        handler = type("Handler", (CountingHandler,), {"precompressed": precompressed, "sent": [0]})
        self.sent = handler.sent
        self.server = build.make_server(build.DIST, 0, handler_base=handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.closed = False

    def close(self):
        if not self.closed:
            self.server.shutdown()
            self.server.server_close()
            self.closed = True


def first_result(page, site, load):
    """Run ``load()`` (a goto or reload), wait for the rendered box example; its Stages."""
    site.sent[0] = 0
    load()
    page.wait_for_selector('#results-boxes[data-state="done"]', state="attached", timeout=TIMEOUT_MS)
    marks = page.evaluate("""() => {
        const at = (name) => performance.getEntriesByName(name).find((m) => m.detail?.kind === "boxes");
        const ready = performance.getEntriesByName("agreekit:ready")[0];
        return {timings: window.agreekit.engine.timings, ready: ready.startTime,
                computed: at("agreekit:computed").startTime, result: at("agreekit:result").startTime,
                compute: at("agreekit:result").detail.ms};
    }""")
    t = marks["timings"]
    return Stages(worker_start=(marks["ready"] - t["ready"]) / 1000, check=(t["pyodide"] - t["check"]) / 1000,
                  pyodide=(t["packages"] - t["pyodide"]) / 1000, packages=(t["import"] - t["packages"]) / 1000,
                  imports=(t["ready"] - t["import"]) / 1000, compute=marks["compute"] / 1000,
                  render=(marks["result"] - marks["computed"]) / 1000, ready=marks["ready"] / 1000,
                  result=marks["result"] / 1000, kb_sent=site.sent[0] / 1000)


def new_page(playwright):
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
    return browser, browser.new_context(service_workers="allow").new_page()


def cold_identity(playwright):
    site = Site(precompressed=False)
    browser, page = new_page(playwright)
    try:
        return first_result(page, site, lambda: page.goto(site.url))
    finally:
        browser.close()
        site.close()


def cold_warm_offline(playwright):
    """(cold, warm revisit, offline revisit) Stages in one profile."""
    site = Site(precompressed=True)
    browser, page = new_page(playwright)
    try:
        cold = first_result(page, site, lambda: page.goto(site.url))
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # installed: the build is cached
        warm = first_result(page, site, page.reload)
        site.close()  # nothing answers any more
        page.context.set_offline(True)
        offline = first_result(page, site, page.reload)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        return cold, warm, offline
    finally:
        browser.close()
        site.close()


def browser_compute(playwright, rows, runs):
    """Worker-timed box report on ``rows`` (seconds, ``runs`` times), service worker blocked."""
    site = Site()
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
    try:
        page = browser.new_context(service_workers="block").new_page()
        page.goto(site.url)
        page.wait_for_selector('#results-boxes[data-state="done"]', state="attached", timeout=TIMEOUT_MS)
        return [page.evaluate("""rows => window.agreekit.engine.compute("boxes", rows, {}, null).then(r => r.ms)""",
                              rows) / 1000 for _ in range(runs)]
    finally:
        browser.close()
        site.close()


def cpython_compute(rows, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        json.dumps(agreekit.report("boxes", rows).to_dict(), allow_nan=False)
        times.append(time.perf_counter() - start)
    return times


def runs_text(values):
    return ", ".join(f"{v:.2f}" for v in values)


def print_table(loads):
    """Medians per stage (rows) and scenario (columns), then each scenario's first results."""
    print(f"{'median, s':<38}" + "".join(f"{name:>17}" for name in SCENARIOS))
    for field in Stages._fields:
        cells = [statistics.median(getattr(run, field) for run in loads[name]) for name in SCENARIOS]
        digits = 0 if field == "kb_sent" else 2
        print(f"{STAGE_LABELS[field]:<38}" + "".join(f"{cell:>17.{digits}f}" for cell in cells))
    for name in SCENARIOS:
        print(f"  first result, {name:<16} runs: {runs_text(run.result for run in loads[name])}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not (build.DIST / "index.html").exists():
        build.build()
    crowd = to_csv(crowd_corpus())
    n_boxes = agreekit.report("boxes", crowd, bootstrap=0).to_dict()["n_boxes"]
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"(1, 5, 15 min) on {os.cpu_count()} cores", flush=True)

    loads = {name: [] for name in SCENARIOS}
    with sync_playwright() as playwright:
        for run in range(args.runs):
            loads["cold, identity"].append(cold_identity(playwright))
            for name, stages in zip(SCENARIOS[1:], cold_warm_offline(playwright)):
                loads[name].append(stages)
            print(f"run {run + 1}: " + ", ".join(f"{name} {loads[name][-1].result:.2f} s" for name in SCENARIOS),
                  flush=True)
        browser_times = browser_compute(playwright, crowd, args.runs)
    cpython_times = cpython_compute(crowd, args.runs)
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")

    print(f"\nFirst rendered box result, page opened with no fragment (medians of {args.runs}; "
          "stage lengths, worker clock, unless marked page clock):")
    print_table(loads)
    b, c = statistics.median(browser_times), statistics.median(cpython_times)
    print(f"\nBox report on the crowd corpus ({n_boxes} boxes, exact baseline, 1000 resamples):")
    print(f"  browser (Pyodide worker) median {b:6.2f} s   (runs: {runs_text(browser_times)})")
    print(f"  CPython {sys.version.split()[0]:<16} median {c:6.2f} s   (runs: {runs_text(cpython_times)})")
    print(f"  ratio browser / CPython: {b / c:.2f}x")


if __name__ == "__main__":
    main()
