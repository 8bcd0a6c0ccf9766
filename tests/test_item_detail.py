"""Item details (web/bridge.py run_item_detail): the shapes are the input rows, the matches the report's."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import agreekit
from item_rows import ROWS, engine_matches, expected_geometry, read_rows, same_geometry
from web_modules import load_web_module

ROOT = Path(__file__).resolve().parents[1]
CASES = [("boxes", {}), ("boxes", {"corners": True}), ("polygons", {}), ("cuboids", {}), ("segments", {})]
IDS = ["boxes", "boxes-corners", "polygons", "cuboids", "segments"]


@pytest.fixture(scope="module")
def bridge():
    return load_web_module("bridge.py", "agreekit_bridge_detail")


def compute(bridge, kind, rows, options=None):
    outcome = json.loads(bridge.run_report(kind, rows, json.dumps(options or {})))
    assert outcome["ok"], outcome
    return outcome["report"]


def detail(bridge, kind, item):
    outcome = json.loads(bridge.run_item_detail(kind, item))
    assert outcome["ok"], outcome
    return outcome["detail"]


def make_rows(kind, extra):
    return ROWS[kind](**extra)


@pytest.mark.parametrize("kind,extra", CASES, ids=IDS)
def test_shapes_are_the_input_rows(bridge, kind, extra):
    rows = make_rows(kind, extra)
    report = compute(bridge, kind, rows)
    fields = read_rows(rows)
    for entry in report["items"]:
        shown = detail(bridge, kind, entry["item"])
        assert shown["item"] == entry["item"]
        drawn = [r for r in fields.values() if r["item"] == entry["item"]]
        assert len(shown["shapes"]) == len(drawn)
        assert Counter(s["annotator"] for s in shown["shapes"]) == Counter(r["annotator"] for r in drawn)
        assert {s["line"] for s in shown["shapes"]} == {line for line, r in fields.items() if r["item"] == entry["item"]}
        for shape in shown["shapes"]:
            row = fields[shape["line"]]
            assert (shape["annotator"], shape["label"]) == (row["annotator"], row["label"])
            assert same_geometry(kind, shape["geometry"], expected_geometry(kind, row)), (shape, row)
        per_annotator = Counter(s["annotator"] for s in shown["shapes"])
        assert {a: per_annotator.get(a, 0) for a in entry["objects_per_annotator"]} == entry["objects_per_annotator"]


@pytest.mark.parametrize("kind,extra", CASES, ids=IDS)
def test_matches_are_the_reports_matched_pairs(bridge, kind, extra):
    rows = make_rows(kind, extra)
    report = compute(bridge, kind, rows)
    expected = engine_matches(kind, rows)
    total = 0
    for entry in report["items"]:
        shown = detail(bridge, kind, entry["item"])
        lines = [s["line"] for s in shown["shapes"]]
        pairs = {(lines[m["a"]], lines[m["b"]], m["similarity"]) for m in shown["matches"]}
        assert pairs == expected.get(entry["item"], set())
        total += len(pairs)
        # The report's own count: every shape of a pair of annotators that is not in one of its matches.
        counts = [len([s for s in shown["shapes"] if s["annotator"] == a]) for a in shown["annotators"]]
        pooled = sum(counts[x] + counts[y] for x in range(len(counts)) for y in range(x + 1, len(counts)))
        assert pooled - 2 * len(pairs) == entry["n_unmatched"]
        for m in shown["matches"]:
            a, b = shown["shapes"][m["a"]], shown["shapes"][m["b"]]
            assert a["annotator"] < b["annotator"]
            assert m["similarity"] >= report["settings"]["threshold"]
            assert m["same_label"] == (a["label"] == b["label"])
        for k, shape in enumerate(shown["shapes"]):
            assert shape["n_matched"] == sum(k in (m["a"], m["b"]) for m in shown["matches"])
    assert total == report["n_matched_pairs"] > 0


def described(shown):
    """An item's shapes and matches without line numbers or list positions (what row order may not change)."""
    key = lambda s: (s["annotator"], s["label"], json.dumps(s["geometry"], sort_keys=True))  # noqa: E731
    shapes = sorted((key(s), s["n_matched"]) for s in shown["shapes"])
    matches = sorted((key(shown["shapes"][m["a"]]), key(shown["shapes"][m["b"]]), m["similarity"])
                     for m in shown["matches"])
    return shapes, matches


@pytest.mark.parametrize("kind,extra", CASES, ids=IDS)
def test_invariant_to_row_order(bridge, kind, extra):
    rows = make_rows(kind, extra)
    header, *body = rows.splitlines(keepends=True)
    random.Random(7).shuffle(body)
    report = compute(bridge, kind, rows)
    before = {e["item"]: described(detail(bridge, kind, e["item"])) for e in report["items"]}
    compute(bridge, kind, header + "".join(body))
    after = {item: described(detail(bridge, kind, item)) for item in before}
    assert after == before


def test_detail_follows_the_last_report_and_its_options(bridge):
    rows = ROWS["boxes"]()
    compute(bridge, "boxes", rows, {"threshold": 0.99})
    item = compute(bridge, "boxes", rows, {"threshold": 0.1})["items"][0]["item"]
    assert detail(bridge, "boxes", item)["settings"]["threshold"] == 0.1
    strict = compute(bridge, "boxes", rows, {"threshold": 0.99})
    assert detail(bridge, "boxes", item)["settings"]["threshold"] == 0.99
    assert sum(len(detail(bridge, "boxes", e["item"])["matches"]) for e in strict["items"]) == strict["n_matched_pairs"]


def test_errors_are_data(bridge):
    compute(bridge, "boxes", ROWS["boxes"]())
    missing = json.loads(bridge.run_item_detail("boxes", "no such item"))
    assert missing["ok"] is False and missing["error"]["type"] == "input" and "no such item" in missing["error"]["message"]
    other = json.loads(bridge.run_item_detail("masks", "x"))
    assert other["ok"] is False and other["error"]["type"] == "input"
    assert np.isfinite(detail(bridge, "boxes", "img0")["shapes"][0]["geometry"]["x"])


def test_a_failed_report_keeps_the_last_good_one(bridge):
    rows = ROWS["segments"]()
    compute(bridge, "segments", rows)
    bad = json.loads(bridge.run_report("segments", "item,annotator,start,end,label\nx,a,1,zz,b\n", "{}"))
    assert bad["ok"] is False
    assert detail(bridge, "segments", "img0")["item"] == "img0"
    assert agreekit.KINDS["segments"]  # the registry still holds the kind the detail came from


def test_trace_cells_are_the_input_rows(bridge):
    from item_rows import traces_rows
    rows = traces_rows()
    report = compute(bridge, "traces", rows)
    fields = read_rows(rows)
    for entry in report["traces"]:
        shown = detail(bridge, "traces", entry["trace"])
        mine = {line: r for line, r in fields.items() if r["trace"] == entry["trace"]}
        assert {c["line"] for c in shown["cells"]} == set(mine) and len(shown["cells"]) == len(mine)
        for cell in shown["cells"]:
            row = mine[cell["line"]]
            assert (cell["annotator"], str(cell["step"]), cell["label"]) == (row["annotator"], row["step"], row["label"])
        by_step = {}
        for r in mine.values():
            by_step.setdefault(int(r["step"]), []).append(r["label"])
        assert shown["disputed"] == sorted(s for s, labels in by_step.items() if len(set(labels)) > 1)
        assert len(shown["disputed"]) == entry["n_disputed_steps"]


def test_span_details_are_the_input_rows_and_the_reports_outcomes(bridge):
    from item_rows import spans_rows
    rows, lengths = spans_rows()
    report = compute(bridge, "spans", rows, {"lengths": lengths})
    fields = read_rows(rows)
    texts = {r["item"]: r["text"] for r in read_rows(lengths).values()}
    scored = [e for e in report["items"] if e.get("scored")]
    assert scored
    for entry in scored:
        shown = detail(bridge, "spans", entry["item"])
        mine = {line: r for line, r in fields.items() if r["item"] == entry["item"]}
        assert sorted(s["line"] for s in shown["shapes"]) == sorted(mine)
        for shape in shown["shapes"]:
            row = mine[shape["line"]]
            assert (shape["annotator"], shape["label"]) == (row["annotator"], row["label"])
            assert shape["geometry"] == {"start": int(row["start"]), "end": int(row["end"])}
        assert shown["text"] == texts[entry["item"]]
        counts = Counter(m["outcome"] for m in shown["matches"])
        counts["missed_a"] = counts["missed_b"] = 0
        pooled = sum(s["n_missed"] for s in shown["shapes"])
        expected = entry["outcomes"]
        assert {k: counts.get(k, 0) for k in ("exact", "label_only", "boundary_only", "both")} == \
            {k: expected[k] for k in ("exact", "label_only", "boundary_only", "both")}
        assert pooled == expected["missed_a"] + expected["missed_b"]
