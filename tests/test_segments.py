"""Tests for agreekit.segments: parsing, temporal IoU, matching, raw measures, α and the boundary sweep."""
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreekit.rows import InputError
from agreekit.segments import (
    TOLERANCE_SLACK,
    boundary_counts,
    boundary_matching_size,
    read_segments,
    temporal_iou,
)

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"


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
    counts = boundary_counts(corpus, items, tolerances)
    k = 0
    for i, item in enumerate(items):
        names = list(corpus.items[item])
        for x, y in itertools.combinations(names, 2):
            a, b = corpus.items[item][x], corpus.items[item][y]
            assert counts.item_index[k] == i and counts.pairs[counts.pair_index[k]] == (x, y)
            assert counts.n_a[k] == 2 * len(a) and counts.n_b[k] == 2 * len(b)
            for t, tolerance in enumerate(tolerances):
                assert counts.matched_starts[t, k] == _brute_force_matching(a.start, b.start, tolerance)
                assert counts.matched_ends[t, k] == _brute_force_matching(a.end, b.end, tolerance)
            k += 1
    assert k == counts.item_index.size
