"""Big box pastes: the page (Chromium, Pyodide in its worker) against the CLI on the same rows (issue 27).

Prints figures; not a test.  Cases (rows from ``tests/browser/big_inputs.crowd_boxes_csv``, 1000 resamples):

* ``12k/4k``: 12,000 boxes on 4,000 items (3 annotators, one box each);
* ``12k/1k``: 12,000 boxes on 1,000 items (4 annotators, three boxes each);
* ``100k``: 100,035 boxes on 2,223 items (9 annotators, five boxes each).

Every case is above the default pair budget, so the baseline is a seeded sample of 2 M object pairs
with a stated standard error.  For each build directory given (``--dist``, default ``dist/``) and each
``pycore`` (``--pycore``, default this checkout's; give main's export for a before/after run), in
turns so that a change of machine load hits both alike:

* ``cli``: ``python -m agreekit boxes FILE --bootstrap 1000 --json``, wall seconds of the process;
* ``page``: the rows pasted in the Boxes tab, Compute clicked, seconds until the report is shown,
  and the progress texts of the bootstrap stage seen (how many distinct ``done`` counts).

Medians over ``--repeats`` runs, and page / CLI per build.

Usage: PYTHONPATH=pycore python benchmarks/big_paste.py [--cases 12k/4k,12k/1k,100k] [--repeats 3]
       [--dist dist/ --dist /tmp/main/dist] [--pycore pycore --pycore /tmp/main/pycore]
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT)]
from big_inputs import crowd_boxes_csv  # noqa: E402

CASES = {"12k/4k": dict(n_images=4000, per_image=3, objects_per_image=1),
         "12k/1k": dict(n_images=1000, per_image=4, objects_per_image=3),
         "100k": dict(n_images=2223, per_image=9, objects_per_image=5)}
RESAMPLES = 1000
BOOTSTRAP_TEXT = re.compile(r"\(bootstrap\): (\d+) / (\d+)")
STAGE_TEXT = re.compile(r"^Computing \w+ \(|\)?(: \d+ / \d+|…)$")  # "Computing boxes (stage): 3 / 9" → "stage"

WATCH = """() => {
    const w = window.__bigPaste = {progress: []};
    const text = document.querySelector("#progress-text");
    new MutationObserver(() => w.progress.push([performance.now(), text.textContent]))
        .observe(text, {childList: true, characterData: true, subtree: true});
}"""


def cli_seconds(pycore, csv_path):
    """Wall seconds of the CLI's box report of ``csv_path`` with ``pycore`` on the path."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "agreekit", "boxes", str(csv_path), "--bootstrap", str(RESAMPLES),
                    "--json"], check=True, capture_output=True, env={"PYTHONPATH": str(pycore)})
    return time.perf_counter() - start


def page_run(browser, url, rows, limit_s):
    """Seconds from Compute to the shown report and the bootstrap progress counts seen; after
    ``limit_s`` seconds the run is given up and recorded as ``"> limit_s"``."""
    from conftest import guard
    from playwright.sync_api import TimeoutError as Timeout
    context = browser.new_context(service_workers="block")
    foreign = guard(context, url.rstrip("/"))
    page = context.new_page()
    page.set_default_timeout(1_800_000)
    page.goto(url)
    page.wait_for_selector('#status[data-state="ready"]')
    page.click("#tab-boxes")
    page.eval_on_selector("#rows-boxes", """(area, text) => {
        area.value = text; area.dispatchEvent(new Event("input", {bubbles: true})); }""", rows)
    page.fill('form[data-kind="boxes"] [name="bootstrap"]', str(RESAMPLES))
    page.wait_for_timeout(1000)  # the debounced save has run
    page.evaluate(WATCH)
    clicked = page.evaluate("performance.now()")
    start = time.perf_counter()
    page.click('form[data-kind="boxes"] button[type="submit"]')
    try:
        page.wait_for_selector('#results-boxes[data-state="done"], #results-boxes[data-state="error"]',
                               state="attached", timeout=limit_s * 1000)
    except Timeout:
        context.close()
        return {"seconds": float("inf"), "state": f"not done in {limit_s} s", "bootstrap_counts_seen": None}
    seconds = time.perf_counter() - start
    ended = page.evaluate("performance.now()")
    state = page.get_attribute("#results-boxes", "data-state")
    seen = page.evaluate("window.__bigPaste.progress")
    done = {m.group(1) for m in (BOOTSTRAP_TEXT.search(text) for _, text in seen) if m}
    context.close()
    assert not foreign, foreign
    return {"seconds": seconds, "state": state, "bootstrap_counts_seen": len(done), **stage_seconds(seen, clicked, ended)}


def stage_seconds(seen, clicked, ended):
    """From the progress texts seen ([page time, text]) between Compute (``clicked``) and the shown
    report (``ended``): seconds to the first text of installing scipy.sparse, that install's seconds
    (to the next text), how many times the matching stage started (twice when the report ran again
    after the install), and each stage's seconds from its first text to the next stage's."""
    texts = [text for _, text in seen]
    install = next((k for k, text in enumerate(texts) if "scipy.sparse" in text), None)
    starts = sum(1 for k, text in enumerate(texts) if "matching" in text
                 and (k == 0 or "matching" not in texts[k - 1]))
    first = {}  # each stage's first text: its seconds run to the next stage's first text
    for at, text in seen:
        first.setdefault(STAGE_TEXT.sub("", text), at)
    order = sorted(first, key=first.get)
    stages = {name: round(((first[after] if after else ended) - first[name]) / 1000, 2)
              for name, after in zip(order, order[1:] + [None])}
    stages = {"(to the first progress text)": round((seen[0][0] - clicked) / 1000, 2), **stages} if seen else stages
    if install is None:
        return {"sparse_install_s": None, "matching_runs": starts, "stages": stages}
    end = next((at for at, text in seen[install:] if "scipy.sparse" not in text), seen[-1][0])
    return {"before_install_s": round((seen[install][0] - clicked) / 1000, 2),
            "sparse_install_s": round((end - seen[install][0]) / 1000, 2), "matching_runs": starts, "stages": stages}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dist", action="append", default=None)
    parser.add_argument("--pycore", action="append", default=None)
    parser.add_argument("--skip-page", default="", help="comma-separated 'case@dist' runs to skip")
    parser.add_argument("--page-limit", type=float, default=600, help="seconds before a page run is given up")
    args = parser.parse_args()
    dists = args.dist or [str(ROOT / "dist")]
    pycores = args.pycore or [str(ROOT / "pycore")]
    skip = set(filter(None, args.skip_page.split(",")))
    from playwright.sync_api import sync_playwright
    from conftest import ARGS, CHROMIUM, Site
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        for case in args.cases.split(","):
            rows = crowd_boxes_csv(**CASES[case])
            csv_path = Path(tmp) / "rows.csv"
            csv_path.write_text(rows, encoding="utf-8")
            print(f"{case}: {rows.count(chr(10)) - 1:,} boxes", flush=True)
            cli = {core: [] for core in pycores}
            page = {dist: [] for dist in dists}
            for _ in range(args.repeats):
                for core in pycores:
                    cli[core].append(cli_seconds(core, csv_path))
                    print(f"  cli {core}: {cli[core][-1]:.1f} s", flush=True)
                for dist in dists:
                    if f"{case}@{dist}" in skip or (page[dist] and page[dist][-1]["seconds"] > 100):
                        continue  # one run of a case that takes minutes is enough
                    site = Site(Path(dist))
                    try:
                        page[dist].append(page_run(browser, site.url, rows, args.page_limit))
                    finally:
                        site.close()
                    print(f"  page {dist}: {json.dumps(page[dist][-1])}", flush=True)
            for core, dist in zip(pycores, dists):
                c = statistics.median(cli[core])
                runs = page[dist]
                if runs:
                    s = statistics.median(r["seconds"] for r in runs)
                    print(f"{case} {dist}: CLI median {c:.1f} s ({len(cli[core])} runs), page median {s:.1f} s "
                          f"({len(runs)} runs), page / CLI {s / c:.2f}, bootstrap counts seen "
                          f"{[r['bootstrap_counts_seen'] for r in runs]}", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
