"""Web calculator speed: cold load to the first rendered box result, and browser vs CPython compute.

    python3 build.py test   # once, to create .venv and dist/
    PYTHONPATH=pycore .venv/bin/python benchmarks/web_cold_load.py [--runs 3]

1. Cold load: a new Chromium process per run (empty caches) opens a share link of the page's box
   example (50 images, 3 annotators, bootstrap 1000); the page loads Pyodide, numpy and scipy in
   its worker, installs agreekit, computes and renders. Times are page-clock marks from navigation
   start. Goal: first result <= 6 s.
2. Compute: the ~7,500-box crowd-shaped corpus (agreekit.simulate.crowd_corpus), the full box report
   with the exact baseline and 1000 resamples, timed inside the worker (report + JSON), against the
   same call in CPython (report + to_dict + JSON). Goal: browser <= 2.5x CPython.
The machine has 2 noisy cores: medians are quoted, and the ratio is what matters.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "pycore"))

import build  # noqa: E402
import agreekit  # noqa: E402
from agreekit.share import share_link  # noqa: E402
from agreekit.simulate import crowd_corpus, to_csv  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def mark(page, name):
    return page.evaluate(f"performance.getEntriesByName({json.dumps(name)})[0]?.startTime ?? null")


def cold_load(playwright, url):
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
    try:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector('#results-boxes[data-state="done"]', state="attached", timeout=180_000)
        timings = page.evaluate("window.agreekit.engine.timings")
        ready, result = mark(page, "agreekit:ready"), mark(page, "agreekit:result")
        compute = page.evaluate("performance.getEntriesByName('agreekit:result')[0].detail.ms")
        return {"ready_ms": ready, "result_ms": result, "compute_ms": compute, **{f"worker_{k}": v for k, v in timings.items()}}
    finally:
        browser.close()


def browser_compute(playwright, base_url, rows, runs):
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
    try:
        page = browser.new_page()
        page.goto(base_url)
        page.wait_for_selector('#status[data-state="ready"]', timeout=180_000)
        times = []
        for _ in range(runs):
            ms = page.evaluate("""rows => window.agreekit.engine.compute("boxes", rows, {}, null).then(r => r.ms)""", rows)
            times.append(ms / 1000)
        return times
    finally:
        browser.close()


def cpython_compute(rows, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        json.dumps(agreekit.report("boxes", rows).to_dict(), allow_nan=False)
        times.append(time.perf_counter() - start)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not (build.DIST / "index.html").exists():
        build.build()
    server = build.make_server(build.DIST, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/"
    example = (build.DIST / "examples" / "boxes.csv").read_text()
    crowd = to_csv(crowd_corpus())
    n_boxes = agreekit.report("boxes", crowd, bootstrap=0).to_dict()["n_boxes"]

    with sync_playwright() as playwright:
        loads = [cold_load(playwright, share_link("boxes", example, base_url=base_url)) for _ in range(args.runs)]
        browser_times = browser_compute(playwright, base_url, crowd, args.runs)
    cpython_times = cpython_compute(crowd, args.runs)
    server.shutdown()

    print(f"Cold load to first rendered box result (box example, {args.runs} cold browser processes):")
    for key in ["worker_pyodide", "worker_packages", "worker_import", "worker_ready",
                "ready_ms", "compute_ms", "result_ms"]:
        values = [run.get(key) for run in loads if run.get(key) is not None]
        if values:
            print(f"  {key:<18} median {statistics.median(values) / 1000:6.2f} s   "
                  f"(runs: {', '.join(f'{v / 1000:.2f}' for v in values)})")
    print("  (worker_* = when the worker started each stage, ms since the worker started; "
          "ready_ms/result_ms = page clock since navigation)")
    b, c = statistics.median(browser_times), statistics.median(cpython_times)
    print(f"Box report on the crowd corpus ({n_boxes} boxes, exact baseline, 1000 resamples):")
    print(f"  browser (Pyodide worker) median {b:6.2f} s   (runs: {', '.join(f'{t:.2f}' for t in browser_times)})")
    print(f"  CPython {sys.version.split()[0]}        median {c:6.2f} s   (runs: {', '.join(f'{t:.2f}' for t in cpython_times)})")
    print(f"  ratio browser / CPython: {b / c:.2f}x")


if __name__ == "__main__":
    main()
