"""Measure the page on large box pastes (issue 10): time to first progress, long tasks, timer gaps.

    PYTHONPATH=pycore .venv/bin/python tests/browser/measure_big_paste.py [DIST ...]

Serves each dist/ directory given (default: dist/) on 127.0.0.1 and opens it in Debian's Chromium
(offline: other origins are refused). Run every directory in one process, so that "before" and
"after" see the same machine load. Two cases each:

* ``start``: the issue's 20 MB paste (385,605 boxes). Pasted as one input event, then, once the
  page has drawn it (Chromium lays out a textarea's whole text: minutes here, not the page's own
  work), Compute is clicked and the page watched for WINDOW_S seconds, then cancelled.
* ``full``: a 5 MB paste (96,390 boxes, bootstrap 0) watched from Compute until the report is shown:
  its report (13 MB of JSON, a between ECDF of 380,000 points) is delivered and drawn.

Figures: ``first_progress_s`` (click to the first progress text with counts) and its text,
``long_tasks_ms`` (main-thread tasks over 50 ms from PerformanceObserver "longtask", longest
first, as in tests/browser), ``longest_timer_gap_ms`` (between ticks of a 50 ms interval timer),
``stages`` seen, and for ``full`` the seconds from the click to the report.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]
from big_inputs import crowd_boxes_csv  # noqa: E402
from conftest import ARGS, CHROMIUM, Site, guard  # noqa: E402

WINDOW_S = 120
CASES = {"start": 8569, "full": 2142}  # images: 385,605 boxes (19.7 MB) and 96,390 boxes (4.9 MB)

WATCH = """() => {
    const w = window.__measure = {longTasks: [], gaps: [], progress: []};
    new PerformanceObserver(list => w.longTasks.push(...list.getEntries().map(
        e => ({start: e.startTime, duration: e.duration})))).observe({type: "longtask", buffered: false});
    let last = performance.now();
    setInterval(() => { const now = performance.now(); w.gaps.push([last, now - last]); last = now; }, 50);
    const text = document.querySelector("#progress-text");
    new MutationObserver(() => w.progress.push([performance.now(), text.textContent]))
        .observe(text, {childList: true, characterData: true, subtree: true});
}"""
FRAME = "() => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)))"


def measure(browser, url, rows, case):
    context = browser.new_context()
    foreign = guard(context, url.rstrip("/"))
    page = context.new_page()
    page.set_default_timeout(1_800_000)
    page.goto(url)
    page.wait_for_selector('#status[data-state="ready"]')
    page.click("#tab-boxes")
    page.eval_on_selector("#rows-boxes", """(area, text) => {
        area.value = text; area.dispatchEvent(new Event("input", {bubbles: true})); }""", rows)
    if case == "full":
        page.fill('form[data-kind="boxes"] [name="bootstrap"]', "0")
    page.evaluate(FRAME)  # the textarea is laid out
    page.wait_for_timeout(1000)  # and the debounced save has run
    page.evaluate(WATCH)
    clicked = page.evaluate("performance.now()")
    page.click('form[data-kind="boxes"] button[type="submit"]')
    if case == "full":
        page.wait_for_selector('#results-boxes[data-state="done"], #results-boxes[data-state="error"]', state="attached")
        page.wait_for_selector("#results-boxes .all-values", state="attached")
        page.wait_for_timeout(1000)  # the chart draws in an animation frame
    else:
        page.wait_for_timeout(WINDOW_S * 1000)
    end = page.evaluate("performance.now()")
    figures = summary(page.evaluate("window.__measure"), clicked, end)
    if case == "full":
        figures["state"] = page.get_attribute("#results-boxes", "data-state")
        figures["total_s"] = round((end - clicked) / 1000, 1)
    else:
        page.click("#cancel")
    context.close()
    assert not foreign, foreign
    return figures


def summary(m, clicked, end):
    progress = [(t, text) for t, text in m["progress"] if t >= clicked]
    counted = [(t, text) for t, text in progress if "/" in text]
    return {
        "first_progress_s": round((counted[0][0] - clicked) / 1000, 2) if counted else f"none in {round((end - clicked) / 1000)} s",
        "first_progress_text": counted[0][1] if counted else None,
        "long_tasks_ms": sorted((round(t["duration"]) for t in m["longTasks"] if t["start"] >= clicked), reverse=True)[:8],
        "longest_timer_gap_ms": round(max((gap for t, gap in m["gaps"] if t >= clicked), default=0)),
        "stages": list(dict.fromkeys(text.split("(")[1].split(")")[0] for _, text in progress if "(" in text)),
    }


def main(argv):
    dists = [Path(p) for p in argv] or [HERE.parents[1] / "dist"]
    inputs = {case: crowd_boxes_csv(images) for case, images in CASES.items()}
    for case, rows in inputs.items():
        print(f"{case}: {rows.count(chr(10)) - 1:,} boxes, {len(rows) / 1e6:.1f} MB", flush=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        for case, rows in inputs.items():
            for dist in dists:
                site = Site(dist)
                try:
                    print(case, dist, json.dumps(measure(browser, site.url, rows, case)), flush=True)
                finally:
                    site.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
