"""Every kind's example report: the page's worker (Pyodide in Chromium) against CPython (issue 27).

Prints figures; not a test.  Goal (issue 27): browser <= 1.5x CPython for every kind's example report.

The built page (``dist/``, rebuild after any change) is opened in Chromium with its service worker
blocked.  For each kind, in tab order: its tab is shown and its first example button clicked, so
the page computes the example with the rows and options it sends for it (the tab's option fields
and the example's option files, ``#results-<kind>[data-options]``); that run warms the worker up
(and scipy's second part is installed after the first answer, web/worker.mjs).  Then, in turns so
that a change of machine load hits both alike, ``--runs`` times each:

* ``browser``: ``window.agreekit.engine.compute(kind, rows, options)``, the worker's own clock of
  the call (``ms``: the report, its JSON parsed in the worker, its long lists sent, the methods
  paragraph), without the page's rendering;
* ``CPython``: the same rows and options through the same entry point, ``web/bridge.py``'s
  ``run_report`` (the report, its strict JSON, the methods paragraph), and ``json.loads`` of its
  answer as the worker parses it, in this process (one warm-up run first).

Medians per kind and their ratio; the load average before and after.

Usage: PYTHONPATH=pycore python benchmarks/web_kinds_speed.py [--runs 5] [--kinds boxes,labels]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT)]

EXAMPLE = """kind => {
    document.querySelector(`#tab-${kind}`).click();
    document.querySelector(`#panel-${kind} button[data-action="example"], ` +
                           `form[data-kind="${kind}"] button[data-action="example"]`).click();
}"""
TIMED = """([kind, rows, options]) => window.agreekit.engine.compute(kind, rows, options, null).then(r => r.ms)"""


def bridge_namespace():
    """web/bridge.py's globals, as the worker runs it (``run_report`` and the rest)."""
    namespace = {"__name__": "agreekit_bridge"}
    exec(compile((ROOT / "web" / "bridge.py").read_text(encoding="utf-8"), "bridge.py", "exec"), namespace)
    return namespace


def cpython_seconds(run_report, kind, rows, options_json):
    """Seconds of ``run_report`` and the parse of its answer; fails on an error answer."""
    start = time.perf_counter()
    answer = json.loads(run_report(kind, rows, options_json))
    seconds = time.perf_counter() - start
    assert answer["ok"], answer["error"]
    return seconds


def example_input(page, kind, timeout_ms):
    """Compute the kind's first example in the page; the rows and options it sent."""
    page.evaluate(EXAMPLE, kind)
    page.wait_for_function(f"""() => {{ const r = document.querySelector("#results-{kind}");
        return r && (r.dataset.state === "done" || r.dataset.state === "error") &&
               r.dataset.options !== undefined && window.agreekit.rows("{kind}").trim() !== ""; }}""",
                           timeout=timeout_ms)
    state = page.get_attribute(f"#results-{kind}", "data-state")
    assert state == "done", f"{kind}: the example ended {state!r}"
    rows = page.evaluate("kind => window.agreekit.rows(kind)", kind)
    options = json.loads(page.get_attribute(f"#results-{kind}", "data-options"))
    return rows, options


def load():
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--kinds", default="", help="comma-separated; default: every kind, in tab order")
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    parser.add_argument("--timeout-s", type=float, default=300)
    args = parser.parse_args()
    from conftest import ARGS, CHROMIUM, Site
    from playwright.sync_api import sync_playwright
    dist = Path(args.dist)
    kinds = [k["name"] for k in json.loads((dist / "kinds.json").read_text())["kinds"]]
    kinds = [k for k in kinds if k in set(args.kinds.split(","))] if args.kinds else kinds
    run_report = bridge_namespace()["run_report"]
    print(f"load before (1, 5, 15 min): {load()} on {os.cpu_count()} cores", flush=True)
    results = {}
    site = Site(dist)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_context(service_workers="block").new_page()
            page.set_default_timeout(args.timeout_s * 1000)
            page.goto(site.url)
            page.wait_for_selector('#status[data-state="ready"]')
            for kind in kinds:
                rows, options = example_input(page, kind, args.timeout_s * 1000)
                options_json = json.dumps(options)
                cpython_seconds(run_report, kind, rows, options_json)  # warm-up (imports, caches)
                web, cpy = [], []
                for _ in range(args.runs):
                    web.append(page.evaluate(TIMED, [kind, rows, options]) / 1000)
                    cpy.append(cpython_seconds(run_report, kind, rows, options_json))
                results[kind] = (web, cpy, rows.count("\n"))
                w, c = statistics.median(web), statistics.median(cpy)
                print(f"  {kind}: browser {w:.3f} s, CPython {c:.3f} s, ratio {w / c:.2f} "
                      f"(browser runs {', '.join(f'{x:.3f}' for x in web)}; "
                      f"CPython {', '.join(f'{x:.3f}' for x in cpy)}); load {load()}", flush=True)
        finally:
            browser.close()
            site.close()
    print(f"load after (1, 5, 15 min): {load()}")
    print(f"\n| kind | example lines | CPython, s | browser, s | browser / CPython |\n|---|---:|---:|---:|---:|")
    for kind, (web, cpy, lines) in results.items():
        w, c = statistics.median(web), statistics.median(cpy)
        print(f"| {kind} | {lines} | {c:.3f} | {w:.3f} | {w / c:.2f} |")


if __name__ == "__main__":
    main()
