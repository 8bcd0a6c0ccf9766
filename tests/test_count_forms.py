"""The closed forms of the between counts N (bootstrap.OuterPairs, GroupedOuterPairs) give the dense product's bits."""
import json

import numpy as np
import pytest

import agreekit
from agreekit import runtime
from agreekit.measures import bootstrap as boot
from agreekit.measures import cross
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.object_sets import canonical_order
from agreekit.simulate import crowd_corpus


def _bits(a):
    return np.ascontiguousarray(a).view(np.int64)


def _objects(seed):
    rows = crowd_corpus(n_images=int(12 + seed), n_annotators=int(6 + seed), per_image=4, seed=seed)
    return box_objects(parse_boxes(rows)[0], order=canonical_order)[0]


@pytest.mark.parametrize("seed", range(6))
def test_count_forms_equal_the_dense_products_bit_for_bit(seed):
    objects = _objects(seed)
    sizes = np.diff(objects.offsets).astype(float)
    counts = boot.resample_counts(len(sizes), 300, seed)
    assert boot.exact_in_any_order(sizes)
    dense = boot.outer_pair_matrix(sizes)
    assert np.array_equal(_bits(boot.OuterPairs(sizes).weighted(counts)),
                          _bits(boot.DensePairs(dense).weighted(counts)))
    runs = cross.object_runs(objects.offsets, objects.annotator_of)
    order = np.argsort(runs.annotator, kind="stable")
    start = np.flatnonzero(np.diff(runs.annotator[order], prepend=-1)).astype(np.intp)
    grouped = boot.GroupedOuterPairs(sizes, runs.item[order], runs.size[order], start)
    cross_dense = boot.DensePairs(dense - cross.same_item_pair_counts(objects))
    assert np.array_equal(_bits(grouped.weighted(counts)), _bits(cross_dense.weighted(counts)))


def test_exact_in_any_order_has_a_limit():
    assert boot.exact_in_any_order(np.zeros(0))
    assert boot.exact_in_any_order(np.full(4000, 20_000.0))
    assert not boot.exact_in_any_order(np.full(4000, 30_000.0))   # (4000 · 30,000)² > 2⁵³


def test_report_with_grouped_cross_counts_is_the_same(monkeypatch):
    """The form Pyodide uses for the cross counts, forced on in CPython: the same report, as JSON text."""
    rows = crowd_corpus(n_images=20, n_annotators=12, per_image=5)
    before = json.dumps(agreekit.boxes(rows, bootstrap=200).to_dict(), allow_nan=False)
    monkeypatch.setattr(runtime, "GROUPED_CROSS_COUNTS", True)
    used = []
    weighted = boot.GroupedOuterPairs.weighted
    monkeypatch.setattr(boot.GroupedOuterPairs, "weighted", lambda self, c: used.append(1) or weighted(self, c))
    after = json.dumps(agreekit.boxes(rows, bootstrap=200).to_dict(), allow_nan=False)
    assert used and after == before
