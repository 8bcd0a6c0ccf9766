"""The segments item view's boundary layer in real Chromium: every tick is an input row's start or
end, the lines at each tolerance of the slider are the report's boundary sweep matches, and a
3,000-segment clip opens and changes tolerance (its longest task is benchmarks/page_responsiveness.py's)."""
from __future__ import annotations

import math

import numpy as np

import agreekit
from agreekit.item_detail import ItemDetails
from item_rows import ROWS, engine_matches, read_rows

from conftest import ITEM_VIEW, paste, wait_ready, wait_result, wait_view
from test_item_views import check_item

SEGMENTS_VIEW = ITEM_VIEW.format(kind="segments")
SLIDER = f'{SEGMENTS_VIEW} .boundary-control input[type="range"]'


def compute(page, rows, tolerances=None):
    """Compute the segments report of ``rows`` on the page; the CPython report and details of the same."""
    wait_ready(page)
    page.wait_for_selector("#results-boxes[data-state='done']", state="attached")  # the first-open example
    paste(page, "segments", rows)
    options = {}
    if tolerances is not None:
        page.fill('form[data-kind="segments"] [name="tolerances"]', ", ".join(map(str, tolerances)))
        options["tolerances"] = tolerances
    page.click('form[data-kind="segments"] button[type="submit"]')
    wait_result(page, "segments")
    return agreekit.report("segments", rows, **options).to_dict(), ItemDetails("segments", rows, options)


def wait_quietly(page, selector, timeout=60_000):
    """Wait for ``selector`` by a plain querySelector every 100 ms: Playwright's own selector waits
    check visibility, which lays out the whole page each time (tens of ms with 15,000 elements,
    counted as the page's long tasks)."""
    page.wait_for_function("selector => document.querySelector(selector) !== null", arg=selector, polling=100, timeout=timeout)


def open_item(page, report, item):
    rank = [entry["item"] for entry in report["items"]].index(item)
    page.locator('#results-segments [data-table="items"] tbody tr').nth(rank).click()
    wait_quietly(page, f'{SEGMENTS_VIEW}[data-state="shown"][data-index="{rank}"]')
    assert page.get_attribute(SEGMENTS_VIEW, "data-item") == item
    return rank


def js_number(value):
    """A number as JavaScript's String() writes it (2.0 → "2")."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def wait_tolerance(page, tolerance):
    wait_quietly(page, f'{SEGMENTS_VIEW} .boundary-matches[data-state="drawn"][data-tolerance="{js_number(tolerance)}"]')


def drawn_matches(page):
    return page.eval_on_selector_all(f"{SEGMENTS_VIEW} line.boundary-match", "els => els.map(e => ({...e.dataset}))")


def check_tolerance(page, expected, index):
    """The slider shows tolerance ``index``; lines, windows and counts are the detail's at it."""
    boundaries = expected["boundaries"]
    tolerance = boundaries["tolerances"][index]
    wait_tolerance(page, tolerance)
    assert float(page.get_attribute(SLIDER, "data-tolerance")) == tolerance
    assert page.input_value(SLIDER) == str(index)
    assert f"±{tolerance:g} s" in page.inner_text(f"{SEGMENTS_VIEW} .boundary-tolerance-value")
    points = boundaries["points"]
    want = sorted((pair["a"], pair["b"], points[x]["kind"], points[x]["line"], points[y]["line"], points[x]["time"], points[y]["time"])
                  for pair in boundaries["pairs"] for x, y in zip(pair["by_tolerance"][index]["a"], pair["by_tolerance"][index]["b"]))
    got = sorted((m["a"], m["b"], m["kind"], int(m["lineA"]), int(m["lineB"]), float(m["timeA"]), float(m["timeB"]))
                 for m in drawn_matches(page))
    assert got == want
    assert all(float(m["tolerance"]) == tolerance for m in drawn_matches(page))
    counts = page.eval_on_selector_all(f"{SEGMENTS_VIEW} .boundary-count", "els => els.map(e => ({...e.dataset, text: e.textContent}))")
    assert [(c["a"], c["b"], int(c["matched"]), float(c["tolerance"])) for c in counts] == \
        [(p["a"], p["b"], p["by_tolerance"][index]["matched"], tolerance) for p in boundaries["pairs"]]
    assert all(f"{p['by_tolerance'][index]['matched']} matched" in c["text"] for c, p in zip(counts, boundaries["pairs"]))
    # the ±τ windows: each lane's band is 2τ wide in the picture's seconds-to-pixels scale
    ticks = page.eval_on_selector_all(f"{SEGMENTS_VIEW} line.boundary", "els => els.map(e => [Number(e.dataset.time), Number(e.getAttribute('x1'))])")
    (t0, x0), (t1, x1) = min(ticks), max(ticks)
    per_second = (x1 - x0) / (t1 - t0)
    bands = page.eval_on_selector_all(f"{SEGMENTS_VIEW} path.tolerance-window", "els => els.map(e => [Number(e.getAttribute('stroke-width')), Number(e.dataset.tolerance)])")
    assert len(bands) == len(expected["annotators"])
    for width, band_tolerance in bands:
        assert band_tolerance == tolerance
        assert math.isclose(width, 2 * tolerance * per_second, rel_tol=1e-3, abs_tol=2e-3)


def check_ticks(page, rows, expected, item):
    """Every tick is a start or an end of one of the item's rows (time to 1e-9), each drawn once."""
    fields = {line: r for line, r in read_rows(rows).items() if r["item"] == item}
    ticks = page.eval_on_selector_all(f"{SEGMENTS_VIEW} line.boundary", "els => els.map(e => ({...e.dataset}))")
    assert len(ticks) == 2 * len(fields) == len(expected["boundaries"]["points"])
    seen = set()
    for tick in ticks:
        row = fields[int(tick["line"])]
        assert tick["annotator"] == row["annotator"] and tick["kind"] in ("start", "end")
        assert abs(float(tick["time"]) - float(row[tick["kind"]])) <= 1e-9 * max(1.0, abs(float(row[tick["kind"]])))
        seen.add((int(tick["line"]), tick["kind"]))
    assert seen == {(line, kind) for line in fields for kind in ("start", "end")}


def test_the_slider_draws_the_sweeps_boundary_matches_at_each_tolerance(warm_page):
    rows = ROWS["segments"](per_item=6)
    tolerances = [0.05, 0.3, 0.8, 1.5]
    page = warm_page
    report, details = compute(page, rows, tolerances)
    item = report["items"][0]["item"]
    open_item(page, report, item)
    expected = details.detail(item)
    assert expected["boundaries"]["tolerances"] == report["settings"]["tolerances"] == tolerances
    check_item(page, "segments", rows, report, item, engine_matches("segments", rows))
    check_ticks(page, rows, expected, item)
    assert page.get_attribute(SLIDER, "max") == str(len(tolerances) - 1)
    assert page.locator(SEGMENTS_VIEW).get_by_label("Boundary tolerance").get_attribute("type") == "range"
    start = int(page.input_value(SLIDER))
    check_tolerance(page, expected, start)
    # titles come on first hover, from the element's own data, as text
    for selector in (f"{SEGMENTS_VIEW} line.boundary", f"{SEGMENTS_VIEW} line.boundary-match"):
        data = page.eval_on_selector(selector, "e => ({...e.dataset})")
        page.dispatch_event(f"{selector} >> nth=0", "pointerover")
        hover = page.eval_on_selector(selector, "e => e.querySelector('title').textContent")
        assert f"line {data.get('line', data.get('lineA'))}" in hover and data.get("annotator", data.get("a")) in hover
    for index in (0, len(tolerances) - 1, 1):  # page.fill on the range, as a drag ends
        page.fill(SLIDER, str(index))
        check_tolerance(page, expected, index)
    # the keyboard moves the slider, not the view to another item
    page.focus(SLIDER)
    page.keyboard.press("ArrowRight")
    check_tolerance(page, expected, 2)
    page.keyboard.press("Home")
    check_tolerance(page, expected, 0)
    assert page.get_attribute(SEGMENTS_VIEW, "data-item") == item
    # every pair's counts over the items add up to the report's sweep
    total = {t: 0 for t in tolerances}
    for entry in report["items"]:
        for pair in details.detail(entry["item"])["boundaries"]["pairs"]:
            for row in pair["by_tolerance"]:
                total[row["tolerance"]] += row["matched"]
    assert total == {row["tolerance"]: row["matched"] for row in report["boundary_sweep"]}
    # stepping to another item draws that item's boundaries, slider back at its start
    page.locator(f"{SEGMENTS_VIEW} button", has_text="Next").click()
    other = wait_view(page, "segments", 1)
    check_ticks(page, rows, details.detail(other), other)
    check_tolerance(page, details.detail(other), start)
    assert page.locator(SLIDER).count() == 1


def big_clip_rows(per_annotator=1000, annotators=3, seconds=7200.0, seed=9):
    """A two-hour clip: ``annotators`` jittered copies of the same ``per_annotator`` segments, and a small second clip."""
    rng = np.random.default_rng(seed)
    starts = np.sort(rng.uniform(0, seconds, per_annotator))
    lines = ["item,annotator,start,end,label"]
    for a in range(annotators):
        for s in starts:
            lo = float(s + rng.normal(0, 0.4))
            lines.append(f"clip,ann{a},{lo!r},{lo + float(rng.uniform(0.5, 4))!r},speech")
    lines += ["small,ann0,1,2,x", "small,ann1,1.2,2,x"]
    return "\n".join(lines) + "\n"


def test_a_3000_segment_clip_opens_and_changes_tolerance(open_page, site):
    rows = big_clip_rows()
    page = open_page(site.url)
    report, details = compute(page, rows)
    page.wait_for_selector('#results-segments [data-gallery="items"][data-state="drawn"]', timeout=120_000)
    open_item(page, report, "clip")
    assert page.locator(f"{SEGMENTS_VIEW} .shape").count() == 3000
    expected = details.detail("clip")
    check_ticks(page, rows, expected, "clip")
    tolerances = expected["boundaries"]["tolerances"]
    for index in (len(tolerances) - 1, 0, len(tolerances) - 1):  # a new layer, another, then a kept one
        # the input event a drag makes (page.fill's own checks lay out the whole page first)
        page.evaluate("([selector, value]) => { const slider = document.querySelector(selector); slider.value = value; "
                      "slider.dispatchEvent(new Event('input', {bubbles: true})); }", [SLIDER, str(index)])
        wait_tolerance(page, tolerances[index])
        check_tolerance(page, expected, index)
