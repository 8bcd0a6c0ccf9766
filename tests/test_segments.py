"""Tests for agreekit.kinds.segments: parsing, temporal IoU, matching, raw measures, α and the boundary sweep."""
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.measures.alpha import krippendorff_alpha
from agreekit.measures.bootstrap import percentile_ci, resample_counts
from agreekit.matching import match
from agreekit.rows import InputError
from agreekit.geometry.intervals import temporal_iou
from agreekit.kinds.segments.compare import boundary_blocks
from agreekit.kinds.segments.report import segments
from agreekit.kinds.segments.rows import read_segments
from agreekit.measures import boundaries
from agreekit.measures.boundaries import TOLERANCE_SLACK, block_matchings, boundary_counts, boundary_matching_size

REFERENCE = Path(__file__).resolve().parent / "fixtures" / "potato"


def _csv(*lines):
    return "\n".join(["item,annotator,start,end,label", *lines])


# --------------------------------------------------------------------------- parsing

def test_end_before_start_is_an_error_naming_the_row():
    with pytest.raises(InputError) as error:
        read_segments(_csv("c1,a,0,2,x", "c1,b,3,2.5,x"))
    assert error.value.line == 3 and error.value.column == "end"
    assert "line 3" in str(error.value)


def test_zero_length_segment_is_kept_with_a_warning():
    corpus = read_segments(_csv("c1,a,1,1,x", "c1,b,1,1,x"))
    assert len(corpus.items["c1"]["a"]) == 1
    assert any("zero-length" in w and "lines 2, 3" in w for w in corpus.warnings)


@pytest.mark.parametrize("row, column", [
    ("c1,b,zero,2,x", "start"),
    ("c1,b,0,inf,x", "end"),
    ("c1,b,,2,x", "start"),
    ("c1,b,1,,x", "end"),
    (",b,1,2,x", "item"),
    ("c1,,1,2,x", "annotator"),
    ("c1,b,,,x", "label"),
])
def test_bad_rows_are_errors_naming_line_and_column(row, column):
    with pytest.raises(InputError) as error:
        read_segments(_csv("c1,a,0,2,x", row))
    assert error.value.line == 3 and error.value.column == column


def test_wrong_field_count_names_the_line():
    with pytest.raises(InputError) as error:
        read_segments(_csv("c1,a,0,2,x", "c1,b,0,2"))
    assert error.value.line == 3


def test_empty_row_means_saw_and_marked_nothing():
    corpus = read_segments(_csv("c1,a,0,2,x", "c1,b,,,"))
    assert list(corpus.items["c1"]) == ["a", "b"] and len(corpus.items["c1"]["b"]) == 0
    assert corpus.scored_items() == ["c1"]


def test_synonyms_and_dict_rows():
    text = "clip,rater,onset,offset,class\nc1,a,0,2,x\nc1,b,0,2,x\n"
    corpus = read_segments(text)
    rows = [{"item": "c1", "annotator": "a", "start": 0, "end": 2, "label": "x"},
            {"item": "c1", "annotator": "b", "start": None, "end": None, "label": None}]
    dict_corpus = read_segments(rows)
    assert corpus.items["c1"]["b"].start.tolist() == [0.0]
    assert len(dict_corpus.items["c1"]["b"]) == 0


# --------------------------------------------------------------------------- temporal IoU

def test_temporal_iou_example():
    assert temporal_iou([0], [4], [1], [5])[0, 0] == pytest.approx(0.6, abs=1e-15)


def test_temporal_iou_zero_length_rules():
    # a: the instant 1, the instant 1 again, [0, 3]; b: the instant 1, the instant 2, [0, 3]
    sa, ea = [1, 1, 0], [1, 1, 3]
    sb, eb = [1, 2, 0], [1, 2, 3]
    default = temporal_iou(sa, ea, sb, eb)
    potato = temporal_iou(sa, ea, sb, eb, rule="potato")
    assert default[0, 0] == 1.0  # identical instants agree (Potato 2.11)
    assert potato[0, 0] == 0.0   # Potato 2.8: zero length matches nothing
    assert default[0, 1] == 0.0 and default[0, 2] == 0.0 and default[2, 0] == 0.0
    assert default[2, 2] == potato[2, 2] == 1.0


@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(0, 20)), min_size=1, max_size=6),
       st.lists(st.tuples(st.floats(-50, 50), st.floats(0, 20)), min_size=1, max_size=6))
def test_temporal_iou_matches_a_scalar_definition(a, b):
    sa = np.array([s for s, _ in a]); ea = sa + np.array([w for _, w in a])
    sb = np.array([s for s, _ in b]); eb = sb + np.array([w for _, w in b])
    matrix = temporal_iou(sa, ea, sb, eb)
    assert np.all((matrix >= 0) & (matrix <= 1))
    np.testing.assert_allclose(matrix, temporal_iou(sb, eb, sa, ea).T)
    for i, j in itertools.product(range(len(a)), range(len(b))):
        inter = max(0.0, min(ea[i], eb[j]) - max(sa[i], sb[j]))
        union = (ea[i] - sa[i]) + (eb[j] - sb[j]) - inter
        expected = inter / union if union > 0 else float(sa[i] == sb[j] and ea[i] == eb[j])
        assert matrix[i, j] == pytest.approx(expected, abs=1e-12)


# --------------------------------------------------------------------------- boundary matching

def _brute_force_matching(a, b, tolerance):
    """Largest one-to-one matching by trying every injection of a subset of a into b."""
    best = 0
    for size in range(min(len(a), len(b)), 0, -1):
        for chosen in itertools.combinations(range(len(a)), size):
            for image in itertools.permutations(range(len(b)), size):
                if all(abs(a[i] - b[j]) <= tolerance + TOLERANCE_SLACK for i, j in zip(chosen, image)):
                    return size
    return best


times = st.lists(st.sampled_from(np.round(np.arange(0, 6, 0.25), 2).tolist()) | st.floats(0, 6),
                 max_size=5)


@settings(max_examples=300, deadline=None)
@given(times, times, st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0, 2.0]))
def test_boundary_matching_is_maximum(a, b, tolerance):
    assert boundary_matching_size(a, b, tolerance) == _brute_force_matching(a, b, tolerance)


def test_boundary_tolerance_is_inclusive_for_decimal_times():
    assert boundary_matching_size([2.0], [2.1], 0.1) == 1
    assert boundary_matching_size([2.0], [2.1001], 0.1) == 0


segment_lists = st.lists(st.tuples(st.integers(0, 20), st.integers(0, 8)), max_size=4)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(segment_lists, min_size=1, max_size=3), min_size=1, max_size=4))
def test_batched_boundary_counts_equal_per_pair_matchings(corpus_spec):
    lines = []
    for i, annotators in enumerate(corpus_spec):
        for j, segs in enumerate(annotators):
            if not segs:
                lines.append(f"c{i},r{j},,,")
            for start, width in segs:
                lines.append(f"c{i},r{j},{start / 4},{(start + width) / 4},x")
    corpus = read_segments(_csv(*lines))
    items = corpus.scored_items()
    tolerances = (0.0, 0.25, 1.0)
    paired = boundary_blocks(corpus, items)
    counts = boundary_counts(paired.blocks, tolerances)
    k = 0
    for i, item in enumerate(items):
        names = list(corpus.items[item])
        for x, y in itertools.combinations(names, 2):
            a, b = corpus.items[item][x], corpus.items[item][y]
            assert counts.item_index[k] == i and paired.pairs[counts.pair_index[k]] == (x, y)
            assert counts.n_a[k] == 2 * len(a) and counts.n_b[k] == 2 * len(b)
            for t, tolerance in enumerate(tolerances):
                assert counts.matched_starts[t, k] == _brute_force_matching(a.start, b.start, tolerance)
                assert counts.matched_ends[t, k] == _brute_force_matching(a.end, b.end, tolerance)
            k += 1
    assert k == counts.item_index.size


edge_times = st.lists(st.sampled_from([0.0, 0.1, 0.2, 2.0, 2.1, 2.35, 1e9, 1e9 + 0.25, -3.0, 1e100])
                      | st.floats(-10, 10), max_size=12)


@settings(max_examples=300, deadline=None)
@given(edge_times, edge_times, st.sampled_from([0.0, 0.1, 0.25, 2.0, 1e6]))
def test_sorted_search_finds_the_pairs_of_the_matrix_of_differences(a, b, tolerance):
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    delta = np.abs(np.subtract.outer(a, b)).reshape(a.size, b.size)
    rows, cols = np.nonzero(np.abs(delta) <= tolerance + TOLERANCE_SLACK)
    small = boundaries.SMALL_BLOCK
    try:
        for limit in (0, small):  # every block by sorted search, then the default split
            boundaries.SMALL_BLOCK = limit
            got_rows, got_cols, gaps = boundaries.tolerance_edges(a, b, tolerance)
            assert got_rows.tolist() == rows.tolist() and got_cols.tolist() == cols.tolist()
            assert gaps.tolist() == delta[rows, cols].tolist()
    finally:
        boundaries.SMALL_BLOCK = small


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(times, times), min_size=1, max_size=5), st.sampled_from([0.0, 0.25, 1.0]))
def test_each_blocks_matching_in_the_batch_is_its_matching_alone(blocks, tolerance):
    """The batched graph's matching restricted to a block is the block's own: the pairs a view draws."""
    together = block_matchings([a for a, _ in blocks], [b for _, b in blocks], (tolerance,))
    for k, (a, b) in enumerate(blocks):
        alone = block_matchings([a], [b], (tolerance,))
        got, expected = together.pairs(0, k), alone.pairs(0, 0)
        assert got[0].tolist() == expected[0].tolist() and got[1].tolist() == expected[1].tolist()
        assert len(got[0]) == boundary_matching_size(a, b, tolerance)
        assert all(abs(a[i] - b[j]) <= tolerance + TOLERANCE_SLACK for i, j in zip(*got))
        assert len(set(got[1].tolist())) == len(got[1])  # one-to-one


# --------------------------------------------------------------------------- reference cases (Potato 2.8)

def _load_reference(name):
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"reference fixtures not found at {path} (tests/fixtures/potato)")
    return json.loads(path.read_text(encoding="utf-8"))


def _segment_case_ids():
    path = REFERENCE / "segments.json"
    if not path.exists():
        return ["absent"]
    return [case["id"] for case in json.loads(path.read_text(encoding="utf-8"))["cases"]]


def _segment_case(case_id):
    cases = {case["id"]: case for case in _load_reference("segments.json")["cases"]}
    return cases[case_id]


def _case_csv(case):
    """The case's rows as CSV text, so that they go through the project's text parser."""
    lines = []
    for row in case["input"]["rows"]:
        fields = [row["item"], row["annotator"]] + ["" if row[k] is None else repr(row[k]) if
                                                    isinstance(row[k], float) else str(row[k])
                                                    for k in ("start", "end", "label")]
        lines.append(",".join(fields))
    return _csv(*lines)


SUMMARY_KEYS = ("mean_agreement", "mean_matched_iou", "detection_f1", "mean_object_count_diff",
                "n_items", "n_annotators")


@pytest.mark.parametrize("case_id", _segment_case_ids())
def test_potato_mode_reproduces_potato(case_id):
    case = _segment_case(case_id)
    report = segments(_case_csv(case), threshold=case["params"]["threshold"], match="potato", bootstrap=0)
    for key in SUMMARY_KEYS:
        assert report[key] == pytest.approx(case["summary"][key], abs=1e-9), key


def _iou(a, b):
    """Temporal IoU of two positive-length segments, written out for the tests."""
    inter = max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
    return inter / ((a[1] - a[0]) + (b[1] - b[0]) - inter)


# Deliberate differences in default mode, with the value each measure takes by design.
def _expected_zero_length():
    # c1: the identical instants 1–1 now match (IoU 1) beside the identical [2, 4]: 2 matches of 2 + 2.
    # c2: an instant against [0, 3] matches nothing.  Potato 2.8: c1 has 1 match, so F1 0.5 there.
    return {"detection_f1": (1.0 + 0.0) / 2, "mean_agreement": (2.0 / 2 + 0.0) / 2,
            "mean_matched_iou": 1.0, "mean_object_count_diff": 0.0}


def _expected_assignment_quirk():
    # c1: both pairings (a0, b0) and (a1, b1) clear 0.5, so the optimal matching keeps 2 pairs
    # where Potato's assignment over all pairs takes (a1, b0) and the sub-threshold (a0, b1).
    c1 = [_iou((8.4, 14.1), (7.7, 12.6)), _iou((8.2, 13.3), (9.7, 12.4))]
    c2 = [_iou((0, 4), (0.2, 4))]
    assert min(c1) >= 0.5 and _iou((8.4, 14.1), (9.7, 12.4)) < 0.5
    return {"detection_f1": 1.0, "mean_agreement": (sum(c1) / 2 + c2[0]) / 2,
            "mean_matched_iou": (sum(c1) + c2[0]) / 3, "mean_object_count_diff": 0.0}


DELIBERATE = {"seg_07_zero_length": _expected_zero_length, "seg_11_assignment_quirk": _expected_assignment_quirk}


@pytest.mark.parametrize("case_id", _segment_case_ids())
def test_default_mode_differs_from_potato_only_by_design(case_id):
    case = _segment_case(case_id)
    report = segments(_case_csv(case), threshold=case["params"]["threshold"], bootstrap=0)
    if case_id in DELIBERATE:
        expected = DELIBERATE[case_id]()
        for key, value in expected.items():
            assert report[key] == pytest.approx(value, abs=1e-12), key
        assert any(abs(report[key] - case["summary"][key]) > 1e-6 for key in expected)
    else:
        for key in SUMMARY_KEYS:
            assert report[key] == pytest.approx(case["summary"][key], abs=1e-9), key


def test_reversed_segment_is_rejected_where_potato_swaps():
    case = _segment_case("seg_01_identical")
    rows = [dict(row) for row in case["input"]["rows"]]
    rows[1]["start"], rows[1]["end"] = rows[1]["end"], rows[1]["start"]
    with pytest.raises(InputError) as error:
        segments(rows, bootstrap=0)
    assert error.value.line == 2 and error.value.column == "end"


def _matching_cases():
    path = REFERENCE / "matching.json"
    if not path.exists():
        return [None]
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return [case for case in cases if case["kind"] == "match_segments"]


def _matching_case_corpus(case):
    lines = []
    for annotator, key in (("a", "segments_a"), ("b", "segments_b")):
        segs = case["input"][key]
        if not segs:
            lines.append(f"c,{annotator},,,")
        lines.extend(f"c,{annotator},{s!r},{e!r},x" for s, e in segs)
    corpus = read_segments(_csv(*lines))
    return corpus.items["c"]["a"], corpus.items["c"]["b"]


def _best_matching(sim, threshold):
    """(most pairs, then largest total) over all one-to-one matchings of allowed pairs, by enumeration."""
    n, m = sim.shape
    best = (0, 0.0)
    for size in range(min(n, m), 0, -1):
        for rows in itertools.combinations(range(n), size):
            for cols in itertools.permutations(range(m), size):
                values = sim[list(rows), list(cols)]
                if np.all(values >= threshold):
                    best = max(best, (size, float(values.sum())))
        if best[0]:
            return best
    return best


@pytest.mark.parametrize("case", _matching_cases(), ids=lambda c: c["id"] if c else "absent")
def test_matching_cases(case):
    if case is None:
        _load_reference("matching.json")
    a, b = _matching_case_corpus(case)
    threshold = case["input"]["threshold"]
    sim = temporal_iou(a.start, a.end, b.start, b.end, rule="potato")
    if sim.size:
        np.testing.assert_allclose(sim, np.array(case["iou_matrix"]), rtol=0, atol=1e-12)
    rows, cols = match(sim, threshold, "potato")
    got = [[int(i), int(j), float(sim[i, j])] for i, j in zip(rows, cols)]
    expected = case["potato"]["matches"]
    assert [g[:2] for g in got] == [e[:2] for e in expected]
    np.testing.assert_allclose([g[2] for g in got], [e[2] for e in expected], atol=1e-12)
    # Default: the optimal matching over allowed pairs, with the 2.11 zero-length rule.
    sim = temporal_iou(a.start, a.end, b.start, b.end)
    rows, cols = match(sim, threshold, "optimal")
    size, total = _best_matching(sim, threshold)
    assert len(rows) == size and sim[rows, cols].sum() == pytest.approx(total, abs=1e-12)
    if case["differs_if_thresholded_before_assignment"]:
        assert len(rows) > len(expected)
    else:
        assert len(rows) >= len(expected)


# --------------------------------------------------------------------------- the report

def test_alpha_over_clusters_against_a_reliability_matrix():
    # c1: a marks two events, b the first only; c2: both mark one, b one more.
    report = segments(_csv("c1,a,0,2,speech", "c1,a,3,5,music", "c1,b,0,2.2,speech",
                           "c2,a,1,4,speech", "c2,b,1,4,music", "c2,b,6,7,noise"), bootstrap=0)
    # clusters: {a0, b0}, {a1}, {a0, b0}, {b1}; detection units present(1)/absent(0)
    detection = krippendorff_alpha([[1, 1, 1, 0], [1, 0, 1, 1]])
    classification = krippendorff_alpha([["speech", "speech"], ["speech", "music"]])
    assert report.detection.value == pytest.approx(detection, abs=1e-12)
    assert report.classification.value == pytest.approx(classification, abs=1e-12)
    assert report.detection.n == 4 and report.classification.n == 2


def test_three_annotator_clusters_follow_the_sorted_founders():
    rows = _csv("c1,b,0,4,x", "c1,c,0.5,4,x", "c1,a,10,12,y", "c1,c,10,12.5,y",
                "c2,a,0,3,x", "c2,b,0,3,x", "c2,c,,,")
    report = segments(rows, bootstrap=0)
    # c1: clusters {b0, c0}, {a0, c1}: 3 annotators → absent for the third; c2: {a0, b0}.
    assert report.detection.value == pytest.approx(krippendorff_alpha([[0, 1, 1], [1, 0, 1], [1, 1, 0]]))


def test_no_sigma_in_potato_mode_and_the_reason_is_stated():
    rows = _csv("c1,a,0,2,x", "c1,b,0.2,2,x", "c2,a,0,5,x", "c2,b,0,5.5,x", "c2,a,6,9,x")
    report = segments(rows, bootstrap=0, match="potato").to_dict()
    for key in ("sigma", "ks"):
        assert report["localization"][key]["value"] is None
        assert "Potato has no σ" in report["localization"][key]["reason"]
    assert all("sigma" not in pair for pair in report["pairs"])
    assert segments(rows, bootstrap=0).localization.sigma.value is not None


def test_boundary_sweep_by_hand():
    # a [0, 2]; b [0.3, 2.05]: ends within 0.1 s, starts only within 0.5 s.
    report = segments(_csv("c1,a,0,2,x", "c1,b,0.3,2.05,x"), tolerances=(0.5, 0.1), bootstrap=0)
    sweep = {row["tolerance"]: row for row in report.boundary_sweep}
    assert list(sweep) == [0.1, 0.5]
    assert sweep[0.1]["matched"] == 1 and sweep[0.1]["f1"] == 0.5
    assert sweep[0.1]["start_f1"] == 0.0 and sweep[0.1]["end_f1"] == 1.0
    assert sweep[0.5]["precision"] == sweep[0.5]["recall"] == sweep[0.5]["f1"] == 1.0


def test_boundary_precision_and_recall_are_per_side_and_pooled():
    rows = _csv("c1,a,0,2,x", "c1,b,0,2,x", "c1,b,5,6,x", "c1,c,,,", "c2,a,1,2,x", "c2,b,9,10,x")
    report = segments(rows, tolerances=(0.1,), bootstrap=0)
    pooled = report.boundary_sweep[0]
    # boundaries (a, b) per item pair: c1 (a,b) 2 and 4, 2 matched; c1 (a,c) 2 and 0; c1 (b,c) 4 and 0;
    # c2 (a,b) 2 and 2, none within 0.1 s.
    assert (pooled["matched"], pooled["n_a"], pooled["n_b"]) == (2, 10, 6)
    assert pooled["precision"] == 2 / 10 and pooled["recall"] == 2 / 6 and pooled["f1"] == 4 / 16
    by_pair = {(p["a"], p["b"]): p["boundary_sweep"][0] for p in report.to_dict()["pairs"]}
    assert by_pair[("a", "b")]["precision"] == 2 / 4 and by_pair[("a", "b")]["recall"] == 2 / 6
    assert by_pair[("a", "c")]["recall"] is None and by_pair[("a", "c")]["f1"] == 0.0


def test_boundary_f1_interval_equals_recomputation_on_resampled_items():
    rng = np.random.default_rng(3)
    lines = []
    for item in range(6):
        for annotator in "ab":
            for start in np.sort(rng.uniform(0, 20, rng.integers(0, 4))):
                lines.append(f"c{item},{annotator},{start:.2f},{start + rng.uniform(0.5, 3):.2f},x")
            lines.append(f"c{item},{annotator},,,")
    text = _csv(*lines)
    corpus = read_segments(text)
    items = corpus.scored_items()
    weights = resample_counts(len(items), 40, seed=11)
    counts = boundary_counts(boundary_blocks(corpus, items).blocks, (0.25,))
    direct = []
    for draw in weights:
        drawn = [f"{item}~{k}" for item, c in zip(items, draw) for k in range(int(c))]
        copy = _csv(*[line.replace(line.split(",")[0] + ",", f"{name},", 1)
                      for name in drawn for line in lines if line.split(",")[0] == name.split("~")[0]])
        row = segments(copy, tolerances=(0.25,), bootstrap=0).boundary_sweep[0]
        direct.append(row["f1"])
    reweighted = 2 * (weights @ np.bincount(counts.item_index, counts.matched[0], len(items))) / (
        weights @ np.bincount(counts.item_index, counts.n_a + counts.n_b, len(items)))
    np.testing.assert_allclose(reweighted, direct, atol=1e-12)
    report = segments(text, tolerances=(0.25,), bootstrap=40, seed=11)
    assert report.boundary_sweep[0]["f1_ci"] == percentile_ci(reweighted)


def test_report_is_invariant_to_row_order_and_names():
    rng = np.random.default_rng(5)
    lines = []
    for item in range(8):
        for annotator in ("ann1", "ann2", "ann3"):
            for start in rng.uniform(0, 30, rng.integers(1, 5)):
                lines.append(f"clip{item},{annotator},{start:.2f},{start + rng.uniform(0.2, 4):.2f},"
                             f"{rng.choice(['s', 'm'])}")
    shuffled = [lines[k] for k in rng.permutation(len(lines))]
    renamed = [line.replace("clip", "item-").replace("ann", "rater") for line in lines]
    reports = [segments(_csv(*variant), bootstrap=0).to_dict() for variant in (lines, shuffled, renamed)]
    for other in reports[1:]:
        for key in ("mean_matched_iou", "detection_f1", "mean_agreement", "mean_object_count_diff"):
            assert other[key] == pytest.approx(reports[0][key], abs=1e-12)
        assert [r["f1"] for r in other["boundary_sweep"]] == [r["f1"] for r in reports[0]["boundary_sweep"]]


def test_bootstrap_intervals_are_seeded_and_off_at_zero():
    rows = _csv(*[f"c{i},{a},{i + d},{i + 2 + d},{lab}" for i in range(10)
                  for a, d, lab in (("a", 0, "x"), ("b", 0.3 * (i % 3), "x" if i % 4 else "y"))],
                "c1,a,50,51,x", "c2,b,60,61,y")
    first, second = (segments(rows, bootstrap=200, seed=4).to_dict() for _ in range(2))
    assert first["detection"]["ci"] == second["detection"]["ci"] is not None
    low, high = first["classification"]["ci"]
    assert low <= high
    assert all(row["f1_ci"] is not None for row in first["boundary_sweep"])
    none = segments(rows, bootstrap=0).to_dict()
    assert none["detection"]["ci"] is None and none["boundary_sweep"][0]["f1_ci"] is None


@pytest.mark.parametrize("tolerances", [(-0.1,), ("soon",), (float("nan"),), ()])
def test_bad_tolerances_are_errors(tolerances):
    with pytest.raises(InputError):
        segments(_csv("c1,a,0,2,x", "c1,b,0,2,x"), tolerances=tolerances)


def test_report_is_json_and_registered():
    assert agreekit.KINDS["segments"].function is segments is agreekit.segments
    report = agreekit.report("segments", _csv("c1,a,0,2,x", "c1,b,0,2,x"), bootstrap=10)
    data = json.loads(report.to_json())
    for key in ("mean_matched_iou", "detection_f1", "mean_agreement", "mean_object_count_diff", "detection",
                "classification", "boundary_sweep", "pairs", "items", "warnings", "settings", "n_items",
                "n_annotators", "n_segments"):
        assert key in data, key
    assert set(data["detection"]) >= {"value", "ci", "ci_level", "reason", "n"}


def test_cli(tmp_path):
    path = tmp_path / "segments.csv"
    path.write_text(_csv("c1,a,0,2,x", "c1,b,0.05,2,x", "c2,a,1,3,y", "c2,b,1,3.4,y"))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "pycore")}
    done = subprocess.run([sys.executable, "-m", "agreekit", "segments", str(path), "--tolerances", "0.1,0.5",
                           "--json", "--bootstrap", "0"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    sweep = json.loads(done.stdout)["boundary_sweep"]
    assert [row["tolerance"] for row in sweep] == [0.1, 0.5] and [row["f1"] for row in sweep] == [0.75, 1.0]
    done = subprocess.run([sys.executable, "-m", "agreekit", "segments", str(path), "--tolerances", "0.1,0.5"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0 and "±0.1 s" in done.stdout and "sigma (within clip)" in done.stdout
    path.write_text(_csv("c1,a,0,2,x", "c1,b,3,1,x"))
    done = subprocess.run([sys.executable, "-m", "agreekit", "segments", str(path)], capture_output=True,
                          text=True, env=env)
    assert done.returncode == 2 and "line 3" in done.stderr


def test_items_carry_their_boundary_f1():
    rows = _csv("c1,a,0,2,x", "c1,b,0,2,x", "c2,a,0,2,x", "c2,b,0.3,2,x", "c3,a,1,2,x", "c3,b,,,")
    items = {entry["item"]: entry for entry in segments(rows, tolerances=(0.1, 0.5), bootstrap=0).to_dict()["items"]}
    assert [row["f1"] for row in items["c1"]["boundary_f1"]] == [1.0, 1.0]
    assert [row["f1"] for row in items["c2"]["boundary_f1"]] == [0.5, 1.0]
    assert [row["f1"] for row in items["c3"]["boundary_f1"]] == [0.0, 0.0]


def test_clusters_optimal_versus_potato_first_fit():
    # c1: b's first segment [0, 6] passes the threshold against a's [0, 10] (IoU 0.6) and takes the
    # cluster under Potato's first-fit; the optimal assignment gives it to the identical [0, 10].
    rows = _csv("c1,a,0,10,x", "c1,b,0,6,y", "c1,b,0,10,x", "c2,a,0,2,x", "c2,b,0,2,y",
                "c3,a,5,7,y", "c3,b,5,7,y")
    optimal = segments(rows, bootstrap=0)
    potato = segments(rows, match="potato", bootstrap=0)
    assert optimal.classification.value == pytest.approx(
        krippendorff_alpha([["x", "x", "y"], ["x", "y", "y"]]), abs=1e-12)
    assert potato.classification.value == pytest.approx(
        krippendorff_alpha([["x", "x", "y"], ["y", "y", "y"]]), abs=1e-12)
    # The pair matching (a0 with the identical b1) is the same in both modes.
    assert optimal.mean_agreement == potato.mean_agreement


def test_label_column_may_be_left_out():
    report = segments("item,annotator,start,end\nc1,a,0,2\nc1,b,0,2\nc2,a,1,3\nc2,b,1,3.5\n", bootstrap=0)
    data = report.to_dict()
    assert data["detection_f1"] == 1.0
    assert [entry["label"] for entry in data["labels"]] == [""]
    assert data["classification"]["value"] is None and data["classification"]["reason"]


def test_nothing_to_compare_is_undefined_with_reasons():
    data = segments(_csv("c1,a,0,1,x", "c2,a,,,", "c2,b,,,"), bootstrap=0).to_dict()
    assert data["detection_f1"] == 1.0  # c2: both marked nothing
    assert data["mean_matched_iou"] is None and data["detection"]["value"] is None
    assert data["detection"]["reason"]
    assert all(row["f1"] is None and row["reason"] for row in data["boundary_sweep"])
    alone = segments(_csv("c1,a,0,1,x"), bootstrap=0).to_dict()
    assert alone["n_items"] == 0 and any("nothing to compare" in w for w in alone["warnings"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from("ab"), st.integers(0, 40), st.integers(0, 12)),
                min_size=1, max_size=14))
def test_sweep_properties(spec):
    lines = [f"c{i},{a},{s / 4},{(s + w) / 4},x" for i, a, s, w in spec]
    lines += [f"c{i},{a},,," for i in range(3) for a in "ab"]
    swapped = [line.replace(",a,", ",tmp,").replace(",b,", ",a,").replace(",tmp,", ",b,") for line in lines]
    tolerances = (0.0, 0.25, 0.5, 1.0, 2.0)
    one, two = (segments(_csv(*variant), tolerances=tolerances, bootstrap=0).to_dict()["boundary_sweep"]
                for variant in (lines, swapped))
    f1 = [row["f1"] for row in one]
    if f1[0] is not None:
        assert all(x <= y for x, y in zip(f1, f1[1:]))  # a wider tolerance never matches fewer
    for row, mirror in zip(one, two):
        assert (row["precision"], row["recall"], row["f1"]) == (mirror["recall"], mirror["precision"], mirror["f1"])
