"""Item views opened from the masks report (its item and pair rows, its figures) and from the spans
report's disagreements in context and per-pair rows, in real Chromium."""
from __future__ import annotations

import agreekit

from conftest import ITEM_VIEW, close_view, compute_tab, wait_view

PNG = b"\x89PNG\r\n\x1a\n"


PIXELS = "cs => cs.map(c => Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data))"


def mask_rows(dist_dir):
    return (dist_dir / "examples" / "masks.csv").read_text()


def test_mask_item_rows_open_views_of_the_cards_panels(warm_page, dist_dir):
    rows = mask_rows(dist_dir)
    report = agreekit.report("masks", rows).to_dict()
    order = [entry["item"] for entry in report["items"]]
    assert len(order) >= 3
    page = warm_page
    compute_tab(page, "masks", rows)
    page.wait_for_function("() => !document.querySelector('#results-masks .mask-item[data-state=\"drawing\"]')")
    view = ITEM_VIEW.format(kind="masks")
    table = '#results-masks [data-table="items"] tbody tr'
    first = rows.splitlines()[1].split(",")[0]  # the item of the first input row
    for rank in sorted({0, order.index(first), len(order) - 1}):
        page.locator(table).nth(rank).click()
        assert wait_view(page, "masks", rank) == order[rank]
        entry = report["items"][rank]
        canvases = page.locator(f"{view} .mask-view canvas")
        card = page.locator(f'#results-masks .mask-item[data-item="{rank}"] canvas')
        assert canvases.count() == card.count() == 2 + len(entry["annotators"])
        # small masks are not pooled: the view's pixels are the card's, panel for panel
        assert canvases.evaluate_all(PIXELS) == card.evaluate_all(PIXELS)
        names = page.eval_on_selector_all(f"{view} .mask-view-panel figcaption strong", "s => s.map(e => e.textContent)")
        assert names[2:] == entry["annotators"]
        assert page.get_attribute(f"{view} .mask-view", "data-item") == order[rank]
        # arrow keys: the next and previous item of the table's order
        step = 1 if rank < len(order) - 1 else -1
        page.keyboard.press("ArrowRight" if step == 1 else "ArrowLeft")
        assert wait_view(page, "masks", rank + step) == order[rank + step]
        assert page.locator(f"{view} .mask-view canvas").count() == 2 + len(report["items"][rank + step]["annotators"])
        close_view(page, "masks")
    # Enter on a focused row, and the card's own figure, open the view too
    page.locator(table).nth(1).focus()
    page.keyboard.press("Enter")
    assert wait_view(page, "masks", 1) == order[1]
    close_view(page, "masks")
    page.locator('#results-masks .mask-item[data-item="2"] button.mask-open').click()
    assert wait_view(page, "masks", 2) == order[2]


def test_mask_views_download_png_and_svg_with_id_settings_and_legend(warm_page, dist_dir):
    rows = mask_rows(dist_dir)
    report = agreekit.report("masks", rows).to_dict()
    page = warm_page
    compute_tab(page, "masks", rows)
    page.locator('#results-masks [data-table="items"] tbody tr').first.click()
    item = wait_view(page, "masks", 0)
    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download PNG").click()
    assert download.value.suggested_filename == f"agreekit-masks-item-{item}.png"
    assert open(download.value.path(), "rb").read(8) == PNG
    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download SVG").click()
    assert item in download.value.suggested_filename
    picture = open(download.value.path(), encoding="utf-8").read()
    assert f"Item {item}" in picture and "Settings:" in picture and "marked outside the consensus" in picture
    assert picture.count("<image") == 2 + len(report["items"][0]["annotators"])
    assert picture.count('href="data:image/png;base64,') == picture.count("<image")
    assert all(name in picture for name in report["items"][0]["annotators"])


def test_a_mask_pair_row_opens_the_pairs_items_with_the_others_faded(warm_page, dist_dir):
    rows = mask_rows(dist_dir)
    report = agreekit.report("masks", rows).to_dict()
    page = warm_page
    compute_tab(page, "masks", rows)
    pair = report["pairs"][-1]
    shared = [e["item"] for e in report["items"] if {pair["a"], pair["b"]} <= set(e["annotators"])]
    page.locator('#results-masks [data-table="pairs"] tbody tr').last.click()
    assert wait_view(page, "masks", 0) == shared[0]
    view = ITEM_VIEW.format(kind="masks")
    faded = page.eval_on_selector_all(f"{view} .mask-view-panel[data-annotator]",
                                      "fs => fs.map(f => [f.dataset.annotator, f.dataset.faded === 'yes'])")
    assert {a for a, out in faded if not out} == {pair["a"], pair["b"]}
    assert {a for a, out in faded if out} == {a for a, _ in faded} - {pair["a"], pair["b"]}
    position = page.inner_text(f"{view} .item-view-head")
    assert f"of {len(shared)} items shared by {pair['a']} and {pair['b']}" in position
    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download SVG").click()
    assert f"Only {pair['a']} and {pair['b']} at full strength" in open(download.value.path(), encoding="utf-8").read()


def square_runs(size, x0, y0, side):
    """Runs of a side × side square at column x0, row y0 of a size × size mask."""
    first = x0 * size + y0
    runs = [first] + [side, size - side] * (side - 1) + [side]
    return runs + [size * size - first - (side - 1) * size - side]


def test_a_large_mask_view_is_drawn_pooled(warm_page):
    """A 12,000² mask's view: pooled canvases (its longest task is benchmarks/page_responsiveness.py's)."""
    size = 12000
    rows = "item,annotator,width,height,rle,label\n"
    for a, (dx, side) in enumerate([(0, size // 2), (size // 50, size // 2), (size // 20, size // 2 - size // 25)]):
        rows += f"large,a{a},{size},{size},{' '.join(map(str, square_runs(size, size // 4 + dx, size // 4, side)))},x\n"
    page = warm_page
    compute_tab(page, "masks", rows)
    page.wait_for_function("() => !document.querySelector('#results-masks .mask-item[data-state=\"drawing\"]')")
    page.locator('#results-masks [data-table="items"] tbody tr').first.click()
    assert wait_view(page, "masks", 0) == "large"
    sizes = page.locator(f"{ITEM_VIEW.format(kind='masks')} .mask-view canvas").evaluate_all(
        "cs => cs.map(c => [c.width, c.height, c.dataset.pooled])")
    assert sizes == [[706, 706, "17"]] * 5  # 12000 px in blocks of 17: at most 720 canvas pixels
    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download PNG").click()
    assert open(download.value.path(), "rb").read(8) == PNG


def spans_report(page):
    from item_rows import spans_rows
    rows, lengths = spans_rows()
    compute_tab(page, "spans", rows, lengths=lengths)
    return agreekit.report("spans", rows, lengths=lengths).to_dict()


def test_span_disagreement_and_pair_rows_open_their_items(warm_page):
    page = warm_page
    report = spans_report(page)
    order = [entry["item"] for entry in report["items"]]
    view = ITEM_VIEW.format(kind="spans")
    # disagreements in context: row k is the k-th example, item by item in the report's order
    examples = [entry["item"] for entry in report["items"] for _ in entry.get("examples", [])]
    rows = page.locator('#results-spans [data-table="items.examples"] tbody tr')
    assert rows.count() == len(examples) > 1
    for k in sorted({0, len(examples) - 1, examples.index(examples[-1])}):
        assert rows.nth(k).get_attribute("tabindex") == "0"
        assert rows.nth(k).locator("td").first.inner_text() == examples[k]
        rows.nth(k).click()
        assert wait_view(page, "spans", order.index(examples[k])) == examples[k]
        close_view(page, "spans")
    rows.nth(len(examples) - 1).focus()
    page.keyboard.press("Enter")
    assert wait_view(page, "spans", order.index(examples[-1])) == examples[-1]
    page.keyboard.press("ArrowLeft")  # the report's item order
    index = order.index(examples[-1]) - 1
    assert wait_view(page, "spans", index) == order[index]
    close_view(page, "spans")
    # a pair row: the items both annotators were compared on, with the focus on the two
    pairs = report["disagreement"]["pairs"]
    pair_rows = page.locator('#results-spans [data-table="disagreement.pairs"] tbody tr')
    assert pair_rows.count() == len(pairs)
    for k in sorted({0, len(pairs) - 1}):
        pair = pairs[k]
        shared = [e["item"] for e in report["items"] if {pair["a"], pair["b"]} <= set(e["annotators"])]
        assert pair_rows.nth(k).get_attribute("tabindex") == "0"
        pair_rows.nth(k).click()
        assert wait_view(page, "spans", 0) == shared[0]
        head = page.inner_text(f"{view} .item-view-head")
        assert f"1 of {len(shared)} items shared by {pair['a']} and {pair['b']}" in head
        faded = page.eval_on_selector_all(f"{view} .shape", "els => els.map(e => [e.dataset.annotator, e.hasAttribute('opacity')])")
        assert {a for a, out in faded if not out} <= {pair["a"], pair["b"]}
        page.keyboard.press("ArrowRight")
        assert wait_view(page, "spans", 1) == shared[1]
        close_view(page, "spans")


def test_span_views_opened_from_the_tables_draw_their_spans(warm_page):
    """Each view opened from a table shows its item's spans (the longest task meanwhile is
    benchmarks/page_responsiveness.py's)."""
    page = warm_page
    report = spans_report(page)
    view = ITEM_VIEW.format(kind="spans")
    for table in ("items.examples", "disagreement.pairs"):
        page.locator(f'#results-spans [data-table="{table}"] tbody tr').first.click()
        page.wait_for_selector(f'{view}[data-state="shown"]')
        item = page.get_attribute(view, "data-item")
        expected = next(e for e in report["items"] if e["item"] == item)
        drawn = page.eval_on_selector_all(f"{view} .shape", "els => els.map(e => e.dataset.annotator)")
        assert drawn and set(drawn) <= set(expected["annotators"]), (item, drawn)
        close_view(page, "spans")
