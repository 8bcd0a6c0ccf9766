"""Loading failures, cancel, responsiveness, storage, downloads, layout and keyboard use."""
from __future__ import annotations

import json
import random
import re
import string

import pytest

import build
from agreekit.simulate import crowd_corpus, to_csv

from conftest import LOAD_MS, Site, paste, wait_ready, wait_result


@pytest.fixture(scope="module")
def crowd_rows():
    """The ~7,500-box crowd-shaped corpus: several seconds of work in the browser."""
    return to_csv(crowd_corpus())


def start_compute(page, kind, rows, **fields):
    paste(page, kind, rows, **fields)
    page.click(f'form[data-kind="{kind}"] button[type="submit"]')


def test_wrong_wasm_mime_type_gives_clear_message(open_page, dist_dir):
    site = Site(dist_dir, mime_overrides={".wasm": "application/octet-stream"})
    try:
        page = open_page(site.url)
        page.wait_for_selector("#load-error", state="visible", timeout=LOAD_MS)
        message = page.inner_text("#load-error")
        assert "application/wasm" in message and "application/octet-stream" in message, message
        assert page.get_attribute("#status", "data-state") == "failed"
    finally:
        site.close()


class WasmTypeWrongOnGet(build.SiteHandler):
    """Answers HEAD with the right .wasm type but GET with a wrong one: loadPyodide then hangs."""

    def guess_type(self, path):
        if self.command == "GET" and str(path).removesuffix(".gz").endswith(".wasm"):  # the gzip copy too
            return "application/octet-stream"
        return super().guess_type(path)


def test_hanging_load_times_out_with_clear_message(open_page, dist_dir):
    site = Site(dist_dir, handler_base=WasmTypeWrongOnGet)
    try:
        page = open_page(site.url + "?loadTimeout=8000")
        page.wait_for_selector("#load-error", state="visible", timeout=LOAD_MS)
        message = page.inner_text("#load-error")
        assert "did not finish loading within 8 s" in message, message
        assert "application/wasm" in message
        assert page.locator("#load-error button", has_text="Retry").is_visible()
    finally:
        site.close()


def test_a_long_computation_shows_its_pairs_in_pages(open_page, site, crowd_rows):
    """The crowd corpus's report, its thousands of pairs paged (the page's longest task meanwhile
    is benchmarks/page_responsiveness.py's)."""
    page = open_page(site.url)
    wait_result(page, "boxes")  # the example on first open, computed once Python is ready
    paste(page, "boxes", crowd_rows)
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes")
    assert page.locator('#results-boxes [data-metric="localization.sigma.value"]').count() >= 1
    # a table of thousands of annotator pairs is shown in pages, keyed to the right report rows
    pairs = page.locator('[data-table="pairs"]')
    assert "Rows 1–50 of" in pairs.inner_text()
    pairs.get_by_role("button", name="Next 50").click()
    pairs.get_by_role("button", name="Next 50").click()
    assert "Rows 101–150 of" in pairs.inner_text()
    first = pairs.locator("tbody tr").first.locator("[data-metric]").first.get_attribute("data-metric")
    assert first.startswith("pairs.100."), first


def test_cancel_stops_and_restarts_python(open_page, site, crowd_rows, dist_dir):
    page = open_page(site.url)
    wait_result(page, "boxes")  # the example on first open, computed once Python is ready
    before = page.inner_html("#results-boxes")
    start_compute(page, "boxes", crowd_rows)
    page.wait_for_selector("#progress", state="visible")
    # progress(done, total, stage) from the core reaches the page while Python works
    page.wait_for_function("() => /\\d+ \\/ \\d+/.test(document.querySelector('#progress-text').textContent)")
    page.click("#cancel")
    wait_result(page, "boxes", state="cancelled")
    assert page.locator("#progress").is_hidden()
    # nothing of the cancelled run is shown: the example's report, under the banner that says it is stale
    assert page.eval_on_selector("#results-boxes", """e => { const copy = e.cloneNode(true);
        copy.querySelector(".stale-banner").remove(); return copy.innerHTML; }""") == before
    assert page.get_attribute("#results-boxes", "data-stale") == "true"
    requested = []
    page.on("request", lambda request: requested.append(request.url.rsplit("/", 1)[-1]))
    wait_ready(page)  # a fresh worker loads
    start_compute(page, "boxes", "item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,10,10,car\n"
                  "i2,a,5,5,4,4,car\ni2,b,5,5,4,5,car\n", bootstrap=20)
    wait_result(page, "boxes")
    # after its first result the fresh worker, too, installs scipy's second part ahead of a large report
    sparse = json.loads((dist_dir / "build-info.json").read_text())["scipy"]["sparse"].rsplit("/", 1)[-1]
    for _ in range(300):
        if sparse in requested:
            break
        page.wait_for_timeout(100)
    assert sparse in requested, requested


def test_last_input_per_tab_survives_reload(open_page, site):
    page = open_page(site.url)
    page.click("#tab-segments")
    rows = "item,annotator,start,end,label\nclip1,a,0,1.5,speech\n"
    page.fill("#rows-segments", rows)
    page.fill('form[data-kind="segments"] [name="tolerances"]', "0.2, 3")
    page.wait_for_timeout(600)  # the save is debounced
    page.reload()
    assert page.get_attribute("#tab-segments", "aria-selected") == "true"
    assert page.input_value("#rows-segments") == rows
    assert page.input_value('form[data-kind="segments"] [name="tolerances"]') == "0.2, 3"


def test_csv_download_escapes_formulas(warm_page):
    page = warm_page
    rows = ("item,annotator,x,y,w,h,label\n"
            'i1,a,0,0,10,10,"=HYPERLINK(""http://x"")"\ni1,b,1,1,10,10,"=HYPERLINK(""http://x"")"\n'
            "i2,a,5,5,4,4,@cmd\ni2,b,5,5,4,5,@cmd\ni3,a,0,0,3,3,-2+3\ni3,b,0,0,3,3,-2+3\n")
    wait_ready(page)
    start_compute(page, "boxes", rows, bootstrap=20)
    wait_result(page, "boxes")
    card = page.locator('[data-table="labels"]')
    with page.expect_download() as info:
        card.get_by_role("button", name="Download CSV").click()
    text = open(info.value.path(), encoding="utf-8").read()
    lines = text.splitlines()
    cells = [line.split(",")[0] for line in lines[1:]]
    assert sorted(cells) == sorted(["\"'=HYPERLINK(\"\"http://x\"\")\"", "'@cmd", "'-2+3"]), lines
    # numbers computed by agreekit stay numbers (a negative sigma must not be escaped)
    helpers = page.evaluate("""() => import("./web/download.mjs").then(m =>
        [m.csvCell(-0.25), m.csvCell("-0.25"), m.csvCell("+x"), m.csvCell("a,b"), m.csvCell(null)])""")
    assert helpers == ["-0.25", "'-0.25", "'+x", '"a,b"', ""]


def test_too_long_share_link_warns_and_offers_download(warm_page):
    page = warm_page
    rng = random.Random(1)
    noise = "".join(rng.choice(string.ascii_letters) for _ in range(20000))  # does not compress
    page.fill("#rows-boxes", "item,annotator,x,y,w,h,label\n" + noise)
    page.click('form[data-kind="boxes"] button[data-action="share"]')
    page.wait_for_selector('form[data-kind="boxes"] .share[data-state]')
    share = page.locator('form[data-kind="boxes"] .share')
    assert share.get_attribute("data-state") == "long"
    assert "characters long" in share.inner_text()
    with page.expect_download() as info:
        share.get_by_role("button", name="Download input").click()
    assert noise in open(info.value.path(), encoding="utf-8").read()


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_layout_fits_and_keyboard_reaches_controls(open_page, site, width, height):
    page = open_page(site.url, viewport={"width": width, "height": height})
    wait_ready(page)
    page.click('form[data-kind="boxes"] button[data-example="boxes"]')
    wait_result(page, "boxes")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"page scrolls sideways by {overflow}px at {width}px"
    box = page.locator('form[data-kind="boxes"] button[type="submit"]').bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    # tabs by arrow keys, then Tab reaches the paste area and Compute of the chosen panel
    page.focus("#tab-boxes")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-spans"
    assert page.locator("#panel-spans").is_visible() and page.locator("#panel-boxes").is_hidden()
    reached = set()
    for _ in range(30):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id || document.activeElement.textContent.trim()"))
    assert "rows-spans" in reached and "Compute" in reached, reached


def test_site_works_from_a_sub_path(open_page, dist_dir, tmp_path):
    """dist/ uses relative URLs only, so it can live anywhere on a static host."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "agreekit").symlink_to(dist_dir, target_is_directory=True)
    site = Site(tmp_path)
    try:
        page = open_page(site.url + "tools/agreekit/")
        wait_ready(page)
        page.click("#tab-segments")
        page.click('button[data-example="segments"]')
        wait_result(page, "segments")
        assert page.locator('#results-segments [data-metric="mean_matched_iou"]').count() >= 1
    finally:
        site.close()
