"""The page's hardening (issue 10) in real Chromium: large pastes and masks, storage, errors, links.

Each test is the one that would have caught a finding of the issue: progress while the rows are
read (the page's longest task meanwhile is benchmarks/page_responsiveness.py's), mask figures drawn
in a worker under a stated size limit, STAPLE progress, the share-link cap, inputs too large for
localStorage, and errors that select the box they come from.
"""
from __future__ import annotations

import base64
import json
import re
import zlib

import numpy as np

import agreekit
from agreekit.share import MAX_DECODED_BYTES, share_link

from big_inputs import crowd_boxes_csv
from same_report import assert_same
from conftest import paste, rows_of, sent_options, wait_ready, wait_result, watch, watched

COUNTED = re.compile(r"\((?P<stage>[^)]*)\): (?P<done>\d+) / (?P<total>\d+)$")


def click_compute(page, kind):
    page.click(f'form[data-kind="{kind}"] button[type="submit"]')


def stages(progress):
    """[(stage, done, total)] of the progress texts that carry counts, in order."""
    found = [COUNTED.search(p["text"]) for p in progress]
    return [(m["stage"], int(m["done"]), int(m["total"])) for m in found if m]


# --------------------------------------------------------------------------- 1. a large paste

def test_large_paste_reports_reading_and_never_holds_up_the_page(open_page, site):
    """27,000 boxes (1.4 MB): progress from the first rows read; the report (thousands of pairs,
    a between ECDF of ~100,000 points) arrives in slices and is drawn."""
    rows = crowd_boxes_csv(600)
    n_lines = rows.count("\n")
    page = open_page(site.url)
    wait_ready(page)
    paste(page, "boxes", rows, bootstrap=50)
    held = page.locator("#held-boxes")  # over 1 MB: held by the page, not laid out in the box
    assert f"{len(rows) / 1e6:.1f} million characters, {n_lines:,} lines" in held.inner_text()
    assert page.locator("#rows-boxes").is_hidden() and rows_of(page, "boxes") == rows
    since = watch(page)
    click_compute(page, "boxes")
    wait_result(page, "boxes")
    page.wait_for_selector("#results-boxes .all-values")  # the last section
    page.wait_for_timeout(500)  # the chart draws in an animation frame
    _, progress = watched(page, since)
    seen = stages(progress)
    assert seen[0][0] == "reading rows", seen[:3]  # the first news is about reading, not after it
    assert ("reading rows", n_lines, n_lines) in seen
    texts = " ".join(p["text"] for p in progress)
    assert "(writing the report)" in texts and "(sending the report)" in texts  # no silent tail either
    assert page.locator("#results-boxes .chart-card canvas").count() >= 1
    # the report put together from the worker's slices is the CPython report, every value
    with page.expect_download() as info:
        page.get_by_role("button", name="Download report (JSON)").click()
    downloaded = json.loads(open(info.value.path(), encoding="utf-8").read())
    expected = agreekit.report("boxes", rows, **sent_options(page, "boxes")).to_dict()
    assert len(expected["pairs"]) > 2000 and len(expected["localization"]["between_ecdf"]["x"]) > 100_000
    assert_same(downloaded, expected)



PASTE = """(area, text) => { const data = new DataTransfer(); data.setData("text/plain", text);
    area.focus(); area.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true})); }"""


def test_a_large_paste_is_held_and_its_errors_quote_the_line(open_page, site):
    """A real paste of 1.2 MB is taken before the browser inserts it; an error then quotes its line."""
    rows = crowd_boxes_csv(520)
    bad = rows.count("\n") - 2  # a line near the end
    lines = rows.split("\n")
    lines[bad - 1] = lines[bad - 1].replace(",", ",x", 3)
    rows = "\n".join(lines)
    page = open_page(site.url)
    wait_ready(page)
    page.fill("#rows-boxes", "")  # the first-open example out of the way, as a user would clear it
    page.eval_on_selector("#rows-boxes", PASTE, rows)
    held = page.locator("#held-boxes")
    held.wait_for()
    assert page.input_value("#rows-boxes") == "" and rows_of(page, "boxes") == rows
    assert held.locator("pre").inner_text() == "\n".join(lines[:3])
    click_compute(page, "boxes")
    wait_result(page, "boxes", state="error")
    error = page.locator("#error-boxes")
    assert error.inner_text().startswith(f"Line {bad}, column")
    assert error.locator("pre").inner_text() == lines[bad - 1]  # no box to select the line in: quoted
    held.get_by_role("button", name="Clear the input").click()
    assert held.is_hidden() and page.locator("#rows-boxes").is_visible() and rows_of(page, "boxes") == ""
    assert page.evaluate("document.activeElement.id") == "rows-boxes"
    page.eval_on_selector("#rows-boxes", PASTE, "item,annotator\n")  # a small paste is the browser's own
    assert held.is_hidden()


# --------------------------------------------------------------------------- 2. masks: STAPLE progress

def test_masks_report_progress_per_item(open_page, site, dist_dir):
    """The issue's link (max_iter at its cap, tol 0) on 180 items: the bar moves, item by item."""
    header, *lines = (dist_dir / "examples" / "masks.csv").read_text().splitlines()
    rows = header + "\n" + "".join(f"copy{k}_{line}\n" for k in range(60) for line in lines)
    page = open_page(site.url)
    wait_ready(page)
    # Rows in before the tab is first shown: its first-open example then never starts, and no
    # example run's STAPLE news can mix with this run's.
    paste(page, "masks", rows, show=False)
    page.click("#tab-masks")
    for name, value in {"max_iter": 10000, "tol": 0}.items():
        page.fill(f'form[data-kind="masks"] [name="{name}"]', str(value))
    since = watch(page)
    click_compute(page, "masks")
    wait_result(page, "masks")
    _, progress = watched(page, since)
    staple = [(done, total) for stage, done, total in stages(progress) if stage == "STAPLE"]
    n_items = agreekit.masks(rows, max_iter=10000, tol=0).to_dict()["n_items"]
    assert n_items == 180
    assert len({done for done, _ in staple if done < n_items}) >= 2, staple  # it moved before the end
    assert all(total == n_items for _, total in staple) and staple[-1] == (n_items, n_items), staple
    bar = [(p["value"], p["max"]) for p in progress if COUNTED.search(p["text"]) and "(STAPLE)" in p["text"]]
    values = [value for value, _ in bar]
    assert values == sorted(values) and values[0] < values[-1] == n_items and bar[-1][1] == n_items


RERUN = """([kind, first, second]) => {
    const area = document.querySelector(`form[data-kind="${kind}"] [name="rows"]`);
    area.value = first; window.agreekit.compute(kind);
    area.value = second; window.agreekit.compute(kind);
}"""


def test_a_superseded_run_shows_no_progress(open_page, site, dist_dir):
    """Compute, then compute other rows at once: the first run still runs in the worker, but the
    bar tells only of the run whose report the tab will show."""
    header, *lines = (dist_dir / "examples" / "masks.csv").read_text().splitlines()
    many = header + "\n" + "".join(f"copy{k}_{line}\n" for k in range(60) for line in lines)
    few = header + "\n" + "\n".join(lines) + "\n"
    n_many, n_few = (agreekit.masks(rows).to_dict()["n_items"] for rows in (many, few))
    assert n_many > n_few
    page = open_page(site.url)
    wait_ready(page)
    paste(page, "masks", few, show=False)  # the tab's first-open example never starts
    page.click("#tab-masks")
    since = watch(page)
    page.evaluate(RERUN, ["masks", many, few])
    wait_result(page, "masks")
    page.wait_for_timeout(300)  # a late word from the first run would arrive by now
    totals = {total for stage, _, total in stages(watched(page, since)[1]) if stage == "STAPLE"}
    assert totals == {n_few}, totals
    assert page.locator("#progress").get_attribute("data-state") == "off"


# --------------------------------------------------------------------------- 1. masks drawn in a worker

def runs_of(mask):
    """COCO runs (column-major, background first) of a (height, width) boolean mask."""
    flat = mask.T.ravel().astype(np.int8)
    change = np.flatnonzero(np.diff(flat)) + 1
    bounds = np.concatenate([[0], change, [flat.size]])
    runs = np.diff(bounds).tolist()
    return runs if flat[0] == 0 else [0] + runs


def square_runs(size, x0, y0, side):
    """Runs of a side × side square at column x0, row y0 of a size × size mask, without the pixels."""
    first = x0 * size + y0
    runs = [first] + [side, size - side] * (side - 1) + [side]
    return runs + [size * size - first - (side - 1) * size - side]


def ellipse(height, width, cy, cx, ry, rx):
    y, x = np.ogrid[:height, :width]
    return ((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2 <= 1


def mask_rows():
    """An item pooled 3 × 3 (900 × 500), a 12,000² item (drawn) and a 30,000² item (over the limit)."""
    text = "item,annotator,width,height,rle,label\n"
    shapes = [(250, 450, 180, 300), (260, 440, 170, 320), (240, 470, 200, 280)]
    for a, shape in enumerate(shapes):
        mask = ellipse(500, 900, *shape) | ellipse(500, 900, 80, 100 + 40 * a, 30, 50)
        text += f"pooled,a{a},900,500,{' '.join(map(str, runs_of(mask)))},x\n"
    for name, size in (("large", 12000), ("huge", 30000)):
        for a, (dx, side) in enumerate([(0, size // 2), (size // 50, size // 2), (size // 20, size // 2 - size // 25)]):
            runs = square_runs(size, size // 4 + dx, size // 4, side)
            text += f"{name},a{a},{size},{size},{' '.join(map(str, runs))},x\n"
    return text


def decode(runs, width, height):
    flat = np.repeat(np.arange(len(runs)) % 2 == 1, runs)
    return flat.reshape(width, height).T


def pooled_classes(item, runs, step):
    """Per block of step × step pixels the highest class (agree 1, missed 2, extra 3) against the consensus."""
    width, height = item["width"], item["height"]
    consensus = decode(item["consensus_rle"], width, height)
    if runs is None:
        classes = np.where(consensus, 1, 0)
    else:
        mask = decode(runs, width, height)
        classes = np.select([mask & consensus, ~mask & consensus, mask & ~consensus], [1, 2, 3], 0)
    ch, cw = -(-height // step), -(-width // step)
    padded = np.zeros((ch * step, cw * step), dtype=int)
    padded[:height, :width] = classes
    return padded.reshape(ch, step, cw, step).max(axis=(1, 3))


MASK_COLOURS = {(255, 255, 255): 0, (110, 116, 128): 1, (0, 114, 178): 2, (230, 159, 0): 3}


def test_masks_are_drawn_off_the_page_thread_under_a_stated_limit(open_page, site):
    rows = mask_rows()
    report = agreekit.masks(rows).to_dict()
    order = [item["item"] for item in report["items"]]
    page = open_page(site.url)
    wait_ready(page)
    paste(page, "masks", rows)
    click_compute(page, "masks")
    wait_result(page, "masks")
    page.wait_for_function("() => !document.querySelector('#results-masks .mask-item[data-state=\"drawing\"]')")

    def item_box(name):
        return page.locator(f'#results-masks .mask-item[data-item="{order.index(name)}"]')

    huge = item_box("huge")
    assert huge.get_attribute("data-state") == "too-large" and huge.locator("canvas").count() == 0
    assert "Not drawn: 900,000,000 pixels is over the 200,000,000-pixel limit for figures" in huge.inner_text()
    assert "Masks over 200,000,000 pixels are not drawn." in page.inner_text("#results-masks .mask-card")
    large = item_box("large")
    assert large.get_attribute("data-state") == "drawn"
    sizes = large.locator("canvas").evaluate_all("cs => cs.map(c => [c.width, c.height, c.dataset.pooled])")
    assert sizes == [[353, 353, "34"]] * 5  # 12000 px in blocks of 34: at most 360 canvas pixels
    # the pooled drawing is the block maximum of the per-pixel classes, pixel for pixel
    item = report["items"][order.index("pooled")]
    drawn = item_box("pooled").locator("canvas").evaluate_all(
        "cs => cs.map(c => ({w: c.width, h: c.height, step: c.dataset.pooled, "
        "data: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data)}))")
    expected = [pooled_classes(item, runs, 3) for runs in [None, item["majority_rle"], *item["annotator_rle"]]]
    assert len(drawn) == len(expected) == 5
    for picture, classes in zip(drawn, expected):
        assert (picture["w"], picture["h"], picture["step"]) == (300, 167, "3")
        rgba = np.array(picture["data"]).reshape(167, 300, 4)
        shown = np.vectorize(lambda r, g, b: MASK_COLOURS[(r, g, b)])(rgba[..., 0], rgba[..., 1], rgba[..., 2])
        assert np.array_equal(shown, classes)
    assert "px outside" in item_box("pooled").inner_text()  # the counts came back from the worker


# --------------------------------------------------------------------------- 3. the share-link cap

def deflated_link(url, document: bytes):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = compressor.compress(document) + compressor.flush()
    return url + "#v1/boxes/" + base64.urlsafe_b64encode(payload).decode().rstrip("=")


def test_share_links_are_capped_at_what_a_link_carries(open_page, site):
    page = open_page(site.url)
    assert page.evaluate("import('./web/share.mjs').then(m => m.MAX_DECODED_BYTES)") == MAX_DECODED_BYTES
    wrapper = len(b'{"rows":"","options":{}}')
    over = b'{"rows":"' + b"a" * (MAX_DECODED_BYTES - wrapper + 1) + b'","options":{}}'
    page = open_page(deflated_link(site.url, over))
    page.wait_for_selector("#error-boxes:not([hidden])")
    assert ("Share link: the share link's data is too large (over 8 MiB once decompressed; "
            "a link carries about 2 MB).") in page.inner_text("#error-boxes")
    assert page.input_value("#rows-boxes") == ""
    # and the page writes no link it would refuse: a compressible 9.6 MB input is sent as a file
    # (in a tab not shown: Chromium would take a minute here to lay out a textarea of 9.6 MB)
    paste(page, "segments", "item,annotator,start,end,label\n" + "i,a,0,1,speech\n" * 600_000, show=False)
    page.eval_on_selector('form[data-kind="segments"] button[data-action="share"]', "button => button.click()")
    share = page.locator('form[data-kind="segments"] .share[data-state]')
    share.wait_for(state="attached")
    assert share.get_attribute("data-state") == "too-long"
    assert "This input is too large for a share link (over 8 MiB once decompressed" in share.text_content()
    assert share.locator("button").text_content() == "Download input"


def test_a_share_link_opened_in_the_page_replaces_its_answer_at_once(open_page, site, dist_dir):
    """A link followed in an open page (a hash change): the tab it names stops showing the earlier
    report before the link is decoded; a link whose options the page cannot use ends in an error."""
    page = open_page(site.url)
    wait_result(page, "boxes")  # the first-open example
    rows = (dist_dir / "examples" / "boxes-fixed.csv").read_text()
    link = share_link("boxes", rows, base_url=site.url, bootstrap=50, seed=3)
    state_on_change = """link => new Promise((resolve) => {
        addEventListener("hashchange", () => resolve(document.querySelector("#results-boxes").dataset.state), {once: true});
        location.href = link;
    })"""
    assert page.evaluate(state_on_change, link) == "loading"  # the page's own listener ran first
    wait_result(page, "boxes")
    assert page.input_value("#rows-boxes") == rows
    document = json.dumps({"rows": rows, "options": {"colour": "red"}}).encode()
    assert page.evaluate(state_on_change, deflated_link(site.url, document)) == "loading"
    wait_result(page, "boxes", state="error")
    assert "The share link carries options this page cannot use: colour." in page.inner_text("#error-boxes")
    assert "cannot use: colour" in page.inner_text("#results-boxes")
    summary = page.inner_text("#summary-boxes")  # above the form: the rows are not "above" it
    assert "cannot use: colour. Nothing was computed. (also shown under the rows)" in summary, summary


# --------------------------------------------------------------------------- 4. inputs too large to keep

def storage_note(page, kind):
    """The tab's storage notice, or None when hidden (read without showing the tab)."""
    return page.eval_on_selector(f"#storage-{kind}", "note => note.hidden ? null : note.textContent")


def settle(page):
    page.wait_for_timeout(600)  # the save is debounced


def test_an_input_too_large_to_keep_leaves_nothing_stale_and_says_so(open_page, site, tmp_path):
    """Inputs go into tabs not shown (a textarea of megabytes takes Chromium a minute to lay out here)."""
    page = open_page(site.url)
    small = "item,annotator,start,end,label\nclip1,a,0,1.5,speech\n"
    paste(page, "segments", small, show=False)
    settle(page)
    page.reload()
    assert page.input_value("#rows-segments") == small and storage_note(page, "segments") is None
    large = small + "clip2,b,0,1.5,speech\n" * 300_000  # 6.3 million characters: over any quota
    paste(page, "segments", large, show=False)
    settle(page)
    assert storage_note(page, "segments") == ("This input is too large to keep in the browser; "
                                             "it will not be restored after a reload.")
    page.reload()
    assert rows_of(page, "segments") == ""  # not the older, small input
    page.click("#tab-segments")
    note = page.locator("#storage-segments")
    assert re.fullmatch(r"The last input in this tab \(6,300,\d{3} characters\) was too large to keep in the browser "
                        r"and was not restored\.", note.inner_text())
    page.locator("#panel-segments .paste").screenshot(path=str(tmp_path / "storage-note.png"))
    # within the limit but over the quota the tabs share: the save fails and says so just the same
    third = "item,annotator,x,y,w,h,label\n" + "i,a,0,0,1,1,car\n" * 185_000  # 2.96 million characters each
    paste(page, "boxes", third, show=False)
    settle(page)
    assert storage_note(page, "boxes") is None
    paste(page, "polygons", third, show=False)
    settle(page)
    assert "too large to keep" in storage_note(page, "polygons")
    page.reload()
    assert rows_of(page, "boxes") == third and rows_of(page, "polygons") == ""
    assert "was too large to keep" in storage_note(page, "polygons")
    # a small input again is kept, and the notice goes
    paste(page, "polygons", "item,annotator,points\n", show=False)
    settle(page)
    assert storage_note(page, "polygons") is None
    page.reload()
    assert page.input_value("#rows-polygons") == "item,annotator,points\n"


# --------------------------------------------------------------------------- 5. errors name their box

def selected_text(page):
    return page.evaluate("""() => { const el = document.activeElement;
        return [el.name, el.value.slice(el.selectionStart, el.selectionEnd)]; }""")


def test_errors_select_the_box_they_come_from(open_page, site):
    page = open_page(site.url)
    wait_ready(page)
    rows = "item,annotator,start,end,label\nd1,a,0,3,PER\nd1,b,0,3,PER\n"
    lengths = "item,length\nd1,12\nd1,13\n"
    paste(page, "spans", rows)
    paste(page, "spans", lengths, field="lengths")
    click_compute(page, "spans")
    wait_result(page, "spans", state="error")
    error = page.locator("#error-spans")
    assert error.get_attribute("data-field") == "lengths"
    assert error.inner_text().startswith('Item lengths or texts, line 3, column "item": item \'d1\' is given twice')
    error.get_by_role("button", name="Go to line 3 of “Item lengths or texts”").click()
    assert selected_text(page) == ["lengths", "d1,13"]
    # an error in the rows still points at the rows
    paste(page, "spans", rows.replace("d1,b,0,3", "d1,b,zero,3"))
    paste(page, "spans", "item,length\nd1,12\n", field="lengths")
    click_compute(page, "spans")
    wait_result(page, "spans", state="error")
    assert error.get_attribute("data-field") == "rows" and error.inner_text().startswith("Line 3")
    error.get_by_role("button", name="Go to line 3").click()
    assert selected_text(page) == ["rows", "d1,b,zero,3,PER"]
