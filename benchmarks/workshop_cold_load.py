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

    ... benchmarks/workshop_cold_load.py --after-calculator [--baseline OTHER_DIST] [--runs 3]

3. (``--after-calculator``, issue 27) index.html, its first result and its service worker's cache,
   then workshop.html in the same browser: the workshop's time to the first cell's output, and the
   bytes the server sent (200s, file sizes in the dist) from the workshop's navigation until its
   offline copy is cached (the page asks for it once Python is ready, so it is fetched while the
   first cell runs), in all and of numpy and scipy files. With ``--baseline``, a second dist
   (another build) is measured the same way, run by run interleaved.
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


def after_calculator(playwright, dist):
    """(ms to the workshop's first cell output, {path: times the server sent it for the workshop})
    in a new browser that opened the calculator first."""
    served = []

    class Counting(build.SiteHandler):
        def send_response(self, code, message=None):
            served.append((unquote(urlsplit(self.path).path), code))
            super().send_response(code, message)

    server = build.make_server(dist, 0, handler_base=Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/"
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
    try:
        context = browser.new_context(service_workers="allow")
        calculator = context.new_page()
        calculator.goto(base_url)
        calculator.wait_for_selector('#results-boxes[data-state="done"]', state="attached", timeout=TIMEOUT_MS)
        calculator.evaluate("navigator.serviceWorker.ready.then(() => true)")
        calculator.wait_for_timeout(3000)  # the worker's precache and scipy.sparse's idle preload settle
        start = len(served)
        page = context.new_page()
        page.goto(base_url + "workshop.html")
        ms = workshop_first_output(page)
        page.evaluate("window.agreekitWorkshop.offline")
        sent = {}
        for path, code in served[start:]:
            if code == 200:
                sent[path] = sent.get(path, 0) + 1
    finally:
        browser.close()
        server.shutdown()
        server.server_close()
    return ms, sent


def megabytes(dist, sent, only=lambda name: True):
    return sum(times * (dist / path.lstrip("/")).stat().st_size for path, times in sent.items()
               if only(path.rsplit("/", 1)[-1]) and (dist / path.lstrip("/")).is_file()) / 1e6


def is_numpy_or_scipy(name):
    return name.startswith(("numpy-", "scipy-", "scipy_"))


def after_calculator_summary(label, dist, runs):
    times = [ms / 1000 for ms, _ in runs]
    print(f"  {label:<9} first output median {statistics.median(times):5.1f} s (runs: {', '.join(f'{t:.1f}' for t in times)})"
          f"   MB sent: {', '.join(f'{megabytes(dist, sent):.1f}' for _, sent in runs)}"
          f", of numpy and scipy: {', '.join(f'{megabytes(dist, sent, is_numpy_or_scipy):.1f}' for _, sent in runs)}")
    sent = runs[0][1]
    names = sorted(path for path in sent if is_numpy_or_scipy(path.rsplit("/", 1)[-1]))
    print(f"            numpy and scipy files sent (run 1): {', '.join(f'{p} ×{sent[p]}' for p in names) or 'none'}")


def main_after_calculator(args):
    dists = {"this": build.DIST, **({"baseline": Path(args.baseline)} if args.baseline else {})}
    results = {label: [] for label in dists}
    with sync_playwright() as playwright:
        for _ in range(args.runs):  # interleaved, so that a busy spell of the machine hits both
            for label, dist in dists.items():
                results[label].append(after_calculator(playwright, dist))
    print(f"The workshop after the calculator, {args.runs} new browser processes each, loopback:")
    for label, runs in results.items():
        after_calculator_summary(label, dists[label], runs)
    if args.baseline:
        median = lambda label, f: statistics.median(f(dists[label], r) for r in results[label])  # noqa: E731
        ratios = [median("this", f) / median("baseline", f) for f in (
            lambda dist, r: r[0], lambda dist, r: megabytes(dist, r[1]))]
        print("  this / baseline: time to the first output {:.2f}x, MB sent {:.2f}x".format(*ratios))


def summary(label, runs):
    times = [ms / 1000 for ms, _ in runs]
    megabytes = runs[0][1] / 1e6
    print(f"  {label:<34} median {statistics.median(times):6.1f} s   "
          f"(runs: {', '.join(f'{t:.1f}' for t in times)})   {megabytes:5.1f} MB requested")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--after-calculator", action="store_true", help="the workshop opened after the calculator")
    parser.add_argument("--baseline", help="with --after-calculator: another dist/ to measure alongside")
    args = parser.parse_args()
    if not (build.DIST / "workshop.html").exists():
        build.build()
    if args.after_calculator:
        return main_after_calculator(args)
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
