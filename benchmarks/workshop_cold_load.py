"""Workshop page speed: cold load of workshop.html to the first cell's output, beside the calculator's cold load.

    python3 build.py                  # once, to build dist/
    PYTHONPATH=pycore .venv/bin/python benchmarks/workshop_cold_load.py [--runs 3]

Each run is a new Chromium process (empty caches) on build.py's server (COOP/COEP on):
1. workshop.html: PyScript starts the shared Pyodide, installs numpy, scipy, matplotlib and the agreekit
   wheel, runs the setup cell (imports agreekit, matplotlib); the first lesson cell is clicked as soon as
   the page says Python is ready; timed to that cell's end (its numbers and its figure shown).
2. index.html: a share link of the box example, timed to the rendered result (as web_cold_load.py).
Times are page-clock ms since navigation. The bytes are those of every file the page and its workers
requested (sizes in dist/, uncompressed: build.py serve sends them as they are).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "pycore"))

import build  # noqa: E402
from agreekit.share import share_link  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 600_000
FIRST_CELL = "raw-iou-run"


def cold(playwright, url, until):
    """(ms since navigation when ``until(page)`` returned, bytes of every file requested) in a new browser."""
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
    try:
        context = browser.new_context()
        paths = set()

        def record(route):  # also sees the workers' requests
            paths.add(unquote(urlsplit(route.request.url).path))
            route.continue_()

        context.route("**/*", record)
        page = context.new_page()
        page.goto(url)
        ms = until(page)
        size = sum((build.DIST / path.lstrip("/")).stat().st_size for path in paths
                   if (build.DIST / path.lstrip("/")).is_file())
        return ms, size
    finally:
        browser.close()


def workshop_first_output(page):
    page.wait_for_selector('#ws-status[data-state="ready"]', timeout=TIMEOUT_MS)
    page.wait_for_selector('body[data-cells="mounted"]', timeout=TIMEOUT_MS)
    page.locator(f'.cell[data-cell="{FIRST_CELL}"] .py-editor-run-button').click()
    page.wait_for_selector(f'.cell[data-cell="{FIRST_CELL}"][data-state="done"] .figure img', timeout=TIMEOUT_MS)
    return page.evaluate("performance.now()")


def calculator_first_result(page):
    page.wait_for_selector('#results-boxes[data-state="done"]', state="attached", timeout=TIMEOUT_MS)
    return page.evaluate("performance.getEntriesByName('agreekit:result')[0]?.startTime ?? performance.now()")


def summary(label, runs):
    times = [ms / 1000 for ms, _ in runs]
    megabytes = runs[0][1] / 1e6
    print(f"  {label:<34} median {statistics.median(times):6.1f} s   "
          f"(runs: {', '.join(f'{t:.1f}' for t in times)})   {megabytes:5.1f} MB requested")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not (build.DIST / "workshop.html").exists():
        build.build()
    server = build.make_server(build.DIST, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/"
    example = (build.DIST / "examples" / "boxes.csv").read_text()
    with sync_playwright() as playwright:
        workshop, calculator = [], []
        for _ in range(args.runs):  # interleaved, so that a busy spell of the machine hits both
            workshop.append(cold(playwright, base_url + "workshop.html", workshop_first_output))
            calculator.append(cold(playwright, share_link("boxes", example, base_url=base_url),
                                   calculator_first_result))
    server.shutdown()
    print(f"Cold load, {args.runs} new browser processes each, loopback, page clock since navigation:")
    summary("workshop.html → first cell's output", workshop)
    summary("index.html → first box result", calculator)


if __name__ == "__main__":
    main()
