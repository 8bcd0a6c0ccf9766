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
    return outcome["result"]


def detail(bridge, kind, item):
    outcome = json.loads(bridge.run_item_detail(kind, item))
    assert outcome["ok"], outcome
    return outcome["result"]


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


# --------------------------------------------------------------------------- segment boundaries

def _largest_matching(a, b, tolerance):
    """Size of a largest one-to-one matching of times ``a`` to ``b`` within ``tolerance``, by trying them all."""
    def best(i, free):
        if i == len(a):
            return 0
        skip = best(i + 1, free)
        taken = [1 + best(i + 1, free - {j}) for j in free if abs(a[i] - b[j]) <= tolerance + 1e-9]
        return max([skip, *taken])
    return best(0, frozenset(range(len(b))))


def check_boundaries(shown, fields, item):
    """The item's boundaries are its rows' starts and ends; each pair's matches a largest one-to-one matching."""
    points = shown["boundaries"]["points"]
    mine = {line: r for line, r in fields.items() if r["item"] == item and r["start"] != ""}
    assert Counter(p["line"] for p in points) == Counter({line: 2 for line in mine})
    for p in points:
        row = mine[p["line"]]
        assert (p["annotator"], p["time"]) == (row["annotator"], float(row[p["kind"]]))
    counted = {}
    for pair in shown["boundaries"]["pairs"]:
        assert pair["a"] < pair["b"]
        times = {(name, kind): [float(r[kind]) for r in mine.values() if r["annotator"] == name]
                 for name in (pair["a"], pair["b"]) for kind in ("start", "end")}
        assert (pair["n_a"], pair["n_b"]) == (2 * len(times[pair["a"], "start"]), 2 * len(times[pair["b"], "start"]))
        assert [row["tolerance"] for row in pair["by_tolerance"]] == shown["boundaries"]["tolerances"]
        for row in pair["by_tolerance"]:
            tolerance = row["tolerance"]
            assert row["matched"] == len(row["a"]) == len(row["b"])
            assert len(set(row["a"])) == len(row["a"]) and len(set(row["b"])) == len(row["b"])  # one-to-one
            for x, y in zip(row["a"], row["b"]):
                p, q = points[x], points[y]
                assert (p["annotator"], q["annotator"]) == (pair["a"], pair["b"]) and p["kind"] == q["kind"]
                assert abs(p["time"] - q["time"]) <= tolerance + 1e-9
            for kind in ("start", "end"):
                size = _largest_matching(times[pair["a"], kind], times[pair["b"], kind], tolerance)
                assert sum(points[x]["kind"] == kind for x in row["a"]) == size
            counted[pair["a"], pair["b"], tolerance] = row["matched"]
    return counted


@pytest.mark.parametrize("options", [{}, {"tolerances": [1.5, 0.05, 0.3, 0.3]}, {"match": "potato"}],
                         ids=["default", "tolerances", "potato"])
def test_segment_boundaries_are_the_inputs_and_add_up_to_the_sweep(bridge, options):
    rows = ROWS["segments"](per_item=6)
    report = compute(bridge, "segments", rows, options)
    fields = read_rows(rows)
    tolerances = report["settings"]["tolerances"]
    by_pair, pooled = Counter(), Counter()
    for entry in report["items"]:
        shown = detail(bridge, "segments", entry["item"])
        assert shown["boundaries"]["tolerances"] == tolerances == shown["settings"]["tolerances"]
        for (a, b, tolerance), matched in check_boundaries(shown, fields, entry["item"]).items():
            by_pair[a, b, tolerance] += matched
            pooled[tolerance] += matched
        matched_f1 = {row["tolerance"]: row["f1"] for row in entry["boundary_f1"]}
        for t in tolerances:  # the item's boundary F1: 2·matched / all boundaries of its pairs
            pairs = shown["boundaries"]["pairs"]
            matched = sum(row["matched"] for p in pairs for row in p["by_tolerance"] if row["tolerance"] == t)
            total = sum(p["n_a"] + p["n_b"] for p in pairs)
            assert matched_f1[t] == pytest.approx(2 * matched / total, rel=1e-12)
    assert sum(pooled.values()) > 0
    for row in report["boundary_sweep"]:
        assert pooled[row["tolerance"]] == row["matched"]
    for pair in report["pairs"]:
        for row in pair["boundary_sweep"]:
            assert by_pair[pair["a"], pair["b"], row["tolerance"]] == row["matched"]


def test_segment_boundary_matches_are_the_pairs_the_sweep_counted(bridge):
    """The detail's matches are the corpus-wide batched matching's, block by block (not only as many)."""
    from agreekit.kinds.segments.compare import boundary_blocks
    from agreekit.kinds.segments.rows import read_segments
    from agreekit.measures.boundaries import block_matchings
    rows = ROWS["segments"](per_item=6)
    report = compute(bridge, "segments", rows)
    tolerances = report["settings"]["tolerances"]
    corpus = read_segments(rows)
    items = corpus.scored_items()
    paired = boundary_blocks(corpus, items)
    sides = {kind: block_matchings([getattr(b, f"{kind}_a") for b in paired.blocks],
                                   [getattr(b, f"{kind}_b") for b in paired.blocks], tolerances)
             for kind in ("start", "end")}
    for k, block in enumerate(paired.blocks):
        a, b = paired.pairs[block.pair]
        item = items[block.item]
        shown = detail(bridge, "segments", item)
        points = shown["boundaries"]["points"]
        pair = next(p for p in shown["boundaries"]["pairs"] if (p["a"], p["b"]) == (a, b))
        for t, row in enumerate(pair["by_tolerance"]):
            drawn = {(points[x]["kind"], points[x]["line"], points[y]["line"]) for x, y in zip(row["a"], row["b"])}
            expected = set()
            for kind, matching in sides.items():
                i, j = matching.pairs(t, k)
                expected |= {(kind, corpus.items[item][a].lines[p], corpus.items[item][b].lines[q]) for p, q in zip(i, j)}
            assert drawn == expected


def test_segment_boundaries_where_nearest_first_would_miss_one(bridge):
    # Starts 1.0, 1.8 against 1.7, 2.6: pairing the closest (1.8–1.7) first leaves 1.0 alone at 0.8 s.
    rows = "item,annotator,start,end,label\nc,a,1.0,5,x\nc,a,1.8,6,x\nc,b,1.7,5,x\nc,b,2.6,6,x\n"
    report = compute(bridge, "segments", rows, {"tolerances": [0.1, 0.8]})
    shown = detail(bridge, "segments", "c")
    (pair,) = shown["boundaries"]["pairs"]
    assert [row["matched"] for row in pair["by_tolerance"]] == [3, 4] == [r["matched"] for r in report["boundary_sweep"]]
    points = shown["boundaries"]["points"]
    wide = pair["by_tolerance"][1]
    starts = sorted((points[x]["time"], points[y]["time"]) for x, y in zip(wide["a"], wide["b"]) if points[x]["kind"] == "start")
    assert starts == [(1.0, 1.7), (1.8, 2.6)]
    check_boundaries(shown, read_rows(rows), "c")
