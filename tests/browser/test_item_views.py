"""Item views in real Chromium: every drawn shape is an input row, every match line a pair the report matched."""
from __future__ import annotations

import math
from collections import Counter

import pytest

import agreekit
from item_rows import HOSTILE, ROWS, big_item_rows, engine_matches, expected_geometry, read_rows, same_geometry

from conftest import ITEM_VIEW, close_view, compute_tab, paste, wait_ready, wait_result, wait_view

GEOMETRY = {"boxes": ("x", "y", "w", "h"), "polygons": ("points",), "cuboids": ("cx", "cy", "cz", "sx", "sy", "sz", "yaw"),
            "segments": ("start", "end")}


def compute(page, kind, rows):
    """Put ``rows`` in the kind's tab, compute, and return the CPython report of the same rows."""
    compute_tab(page, kind, rows)
    return agreekit.report(kind, rows).to_dict()


def shown(page, kind):
    """The open view's shapes (data attributes) and match lines."""
    view = ITEM_VIEW.format(kind=kind)
    shapes = page.eval_on_selector_all(f"{view} .shape", "els => els.map(e => ({...e.dataset, tag: e.tagName}))")
    lines = page.eval_on_selector_all(f"{view} line.match", "els => els.map(e => ({...e.dataset}))")
    return shapes, lines


def geometry_of(kind, data):
    if kind == "polygons":
        return {"points": [float(v) for v in data["points"].split()]}
    return {name: float(data[name]) for name in GEOMETRY[kind]}


def check_item(page, kind, rows, report, item, matches):
    fields = read_rows(rows)
    shapes, lines = shown(page, kind)
    drawn = {line: row for line, row in fields.items() if row["item"] == item}
    assert {int(s["line"]) for s in shapes} == set(drawn) and len(shapes) == len(drawn)
    assert Counter(s["annotator"] for s in shapes) == Counter(row["annotator"] for row in drawn.values())
    for shape in shapes:
        row = drawn[int(shape["line"])]
        assert shape["item"] == item and (shape["annotator"], shape["label"]) == (row["annotator"], row["label"])
        assert same_geometry(kind, geometry_of(kind, shape), expected_geometry(kind, row)), (shape, row)
    pairs = {(int(m["lineA"]), int(m["lineB"])): float(m["similarity"]) for m in lines}
    expected = {(a, b): s for a, b, s in matches.get(item, set())}
    assert pairs.keys() == expected.keys()
    assert all(math.isclose(pairs[k], expected[k], rel_tol=1e-12, abs_tol=1e-12) for k in pairs)
    return shapes, lines


@pytest.mark.parametrize("kind", ["boxes", "polygons", "cuboids", "segments"])
def test_first_and_worst_item_draw_the_input_and_the_reports_matches(warm_page, kind):
    rows = ROWS[kind]()
    page = warm_page
    report = compute(page, kind, rows)
    matches = engine_matches(kind, rows)
    order = [entry["item"] for entry in report["items"]]
    first = read_rows(rows)[2]["item"]  # the item of the first input row
    assert order[0] != first or len(order) > 1
    table = f'#results-{kind} [data-table="items"] tbody tr'
    for rank in sorted({0, order.index(first)}):
        page.locator(table).nth(rank).click()
        assert wait_view(page, kind, rank) == order[rank]
        check_item(page, kind, rows, report, order[rank], matches)
        close_view(page, kind)
    # the gallery: the report's disagreement order, each thumbnail opens its item
    page.wait_for_selector(f'#results-{kind} [data-gallery="items"][data-state="drawn"]')
    thumbs = page.eval_on_selector_all(f'#results-{kind} [data-gallery="items"] .thumb', "els => els.map(e => e.dataset.item)")
    assert thumbs == order[:12]
    page.locator(f'#results-{kind} [data-gallery="items"] .thumb').nth(len(thumbs) - 1).click()
    assert wait_view(page, kind, len(thumbs) - 1) == order[len(thumbs) - 1]
    check_item(page, kind, rows, report, order[len(thumbs) - 1], matches)
    # keyboard: arrows step through the report's order, Escape closes
    page.keyboard.press("ArrowLeft")
    assert wait_view(page, kind, len(thumbs) - 2) == order[len(thumbs) - 2]
    check_item(page, kind, rows, report, order[len(thumbs) - 2], matches)
    page.keyboard.press("ArrowRight")
    assert wait_view(page, kind, len(thumbs) - 1) == order[len(thumbs) - 1]
    close_view(page, kind)


def test_hostile_labels_and_names_are_text_and_views_download(warm_page):
    rows = ROWS["boxes"]()
    page = warm_page
    report = compute(page, "boxes", rows)
    item = next(e["item"] for e in report["items"]
                if any(r["label"] == HOSTILE and r["item"] == e["item"] for r in read_rows(rows).values()))
    rank = [e["item"] for e in report["items"]].index(item)
    page.locator('#results-boxes [data-table="items"] tbody tr').nth(rank).click()
    wait_view(page, "boxes", rank)
    view = ITEM_VIEW.format(kind="boxes")
    titles = page.eval_on_selector_all(f"{view} title", "els => els.map(e => e.textContent)")
    assert any(HOSTILE in t for t in titles)
    legend = page.eval_on_selector_all(f"{view} .legend text", "els => els.map(e => e.textContent)")
    assert "<b>cy</b>" in legend
    assert page.locator(f"{view} img, {view} b").count() == 0  # nothing was parsed as markup
    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download SVG").click()
    assert item in download.value.suggested_filename
    picture = open(download.value.path(), encoding="utf-8").read()
    assert f"Item {item}" in picture and "&lt;b&gt;cy&lt;/b&gt;" in picture and "≥ 0.5" in picture
    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download PNG").click()
    assert item in download.value.suggested_filename
    assert open(download.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"


def test_pair_rows_open_the_pairs_shared_items(warm_page):
    rows = ROWS["boxes"]()
    page = warm_page
    report = compute(page, "boxes", rows)
    pair = report["pairs"][0]
    shared = [e["item"] for e in report["items"] if {pair["a"], pair["b"]} <= set(e["objects_per_annotator"])]
    page.locator('#results-boxes [data-table="pairs"] tbody tr').first.click()
    assert wait_view(page, "boxes", 0) == shared[0]
    view = ITEM_VIEW.format(kind="boxes")
    shapes = page.eval_on_selector_all(f"{view} .shape",
                                       "els => els.map(e => [e.dataset.annotator, e.hasAttribute('opacity')])")
    assert {a for a, faded in shapes if not faded} == {pair["a"], pair["b"]} & {a for a, _ in shapes}
    assert {a for a, faded in shapes if faded} == {a for a, _ in shapes} - {pair["a"], pair["b"]}
    assert pair["a"] in page.inner_text(view) and pair["b"] in page.inner_text(view)


def test_a_view_of_500_boxes_draws_every_box(warm_page):
    """An item of 3 × 500 boxes: gallery and view drawn (the longest tasks meanwhile are
    benchmarks/page_responsiveness.py's)."""
    rows = big_item_rows(500)
    page = warm_page
    report = compute(page, "boxes", rows)
    page.wait_for_selector('#results-boxes [data-gallery="items"][data-state="drawn"]', timeout=120_000)
    rank = [e["item"] for e in report["items"]].index("big")
    page.locator('#results-boxes [data-table="items"] tbody tr').nth(rank).click()
    wait_view(page, "boxes", rank)
    assert page.locator(f"{ITEM_VIEW.format(kind='boxes')} .shape").count() == 1500
    matches = engine_matches("boxes", rows)
    check_item(page, "boxes", rows, report, "big", matches)


def test_trace_views_draw_every_label_and_the_disputed_steps(warm_page):
    from item_rows import traces_rows
    rows = traces_rows()
    page = warm_page
    report = compute(page, "traces", rows)
    order = [entry["trace"] for entry in report["traces"]]
    fields = read_rows(rows)
    page.wait_for_selector('#results-traces [data-gallery="items"][data-state="drawn"]')
    assert page.eval_on_selector_all('#results-traces [data-gallery="items"] .thumb', "els => els.map(e => e.dataset.item)") == order[:12]
    first = fields[2]["trace"]
    for rank in sorted({0, order.index(first)}):
        page.locator('#results-traces [data-table="traces"] tbody tr').nth(rank).click()
        assert wait_view(page, "traces", rank) == order[rank]
        cells = page.eval_on_selector_all(f"{ITEM_VIEW.format(kind='traces')} .shape", "els => els.map(e => ({...e.dataset}))")
        mine = {line: r for line, r in fields.items() if r["trace"] == order[rank]}
        assert sorted(int(c["line"]) for c in cells) == sorted(mine)
        for cell in cells:
            row = mine[int(cell["line"])]
            assert (cell["item"], cell["annotator"], cell["step"], cell["label"]) == (row["trace"], row["annotator"], row["step"], row["label"])
        by_step = {}
        for r in mine.values():
            by_step.setdefault(int(r["step"]), set()).add(r["label"])
        disputed = page.eval_on_selector_all(f"{ITEM_VIEW.format(kind='traces')} rect.disputed", "els => els.map(e => Number(e.dataset.step))")
        assert disputed == sorted(s for s, labels in by_step.items() if len(labels) > 1)
        assert len(disputed) == report["traces"][rank]["n_disputed_steps"]
        alphas = page.eval_on_selector_all(f"{ITEM_VIEW.format(kind='traces')} .step-alpha", "els => els.map(e => [Number(e.dataset.step), e.dataset.alpha])")
        by_position = {entry["step"]: entry["alpha"]["value"] for entry in report["steps"]}
        for step, value in alphas:
            assert (value == "null") if by_position[step] is None else math.isclose(float(value), by_position[step], rel_tol=1e-12)
        titles = page.eval_on_selector_all(f"{ITEM_VIEW.format(kind='traces')} title", "els => els.map(e => e.textContent)")
        assert any(HOSTILE in t for t in titles) == any(r["label"] == HOSTILE for r in mine.values())
        page.keyboard.press("ArrowRight" if rank == 0 else "ArrowLeft")
        assert wait_view(page, "traces", 1 if rank == 0 else rank - 1) == order[1 if rank == 0 else rank - 1]
        close_view(page, "traces")
    # a disputed unit's row opens its trace
    unit = report["units"][0]
    page.locator('#results-traces [data-table="units"] tbody tr').first.click()
    assert wait_view(page, "traces", order.index(unit["trace"])) == unit["trace"]


def test_span_views_draw_every_span_under_its_text_with_the_five_way_outcomes(warm_page):
    from agreekit.kinds.spans.detail import span_detail, spans_setup
    from item_rows import spans_rows
    rows, lengths = spans_rows()
    page = warm_page
    wait_ready(page)
    page.wait_for_selector("#results-boxes[data-state='done']", state="attached")
    paste(page, "spans", rows)
    paste(page, "spans", lengths, field="lengths")
    page.click('form[data-kind="spans"] button[type="submit"]')
    wait_result(page, "spans")
    report = agreekit.report("spans", rows, lengths=lengths).to_dict()
    setup = spans_setup(rows, lengths=lengths)
    order = [entry["item"] for entry in report["items"]]
    fields = read_rows(rows)
    page.wait_for_selector('#results-spans [data-gallery="items"][data-state="drawn"]')
    assert page.eval_on_selector_all('#results-spans [data-gallery="items"] .thumb', "els => els.map(e => e.dataset.item)") == order[:12]
    for rank in sorted({0, order.index(fields[2]["item"])}):
        page.locator('#results-spans [data-table="items"] tbody tr').nth(rank).click()
        assert wait_view(page, "spans", rank) == order[rank]
        shapes, lines = shown(page, "spans")
        mine = {line: r for line, r in fields.items() if r["item"] == order[rank]}
        assert sorted(int(s["line"]) for s in shapes) == sorted(mine)
        for shape in shapes:
            row = mine[int(shape["line"])]
            assert (shape["annotator"], shape["label"], shape["start"], shape["end"]) == \
                (row["annotator"], row["label"], row["start"], row["end"])
        expected = span_detail(setup, order[rank])
        line_of = [s["line"] for s in expected["shapes"]]
        assert sorted((int(m["lineA"]), int(m["lineB"]), m["outcome"]) for m in lines) == \
            sorted((line_of[m["a"]], line_of[m["b"]], m["outcome"]) for m in expected["matches"])
        counts = Counter(m["outcome"] for m in lines)
        for outcome in ("exact", "label_only", "boundary_only", "both"):
            assert counts.get(outcome, 0) == report["items"][rank]["outcomes"][outcome]
        text = page.eval_on_selector(f"{ITEM_VIEW.format(kind='spans')} .span-text", "e => e.textContent")
        assert text and text in read_rows(lengths)[[r["item"] for r in read_rows(lengths).values()].index(order[rank]) + 2]["text"]
        close_view(page, "spans")
