"""The tables a user reads side by side agree (issue 26): the spans five-way table's per-label and per-pair rows
sum to its totals, and an object item's unmatched count in its item view is the per-item table's."""
from __future__ import annotations

import numpy as np
import pytest

import agreekit
from agreekit.registry import KINDS
from item_rows import ROWS, spans_rows

THREE = """item,annotator,start,end,label
d1,zed,0,5,PER
d1,amy,0,5,PER
d1,bob,0,5,ORG
d1,amy,10,15,LOC
d1,zed,11,15,LOC
d1,bob,20,25,PER
d2,amy,0,3,PER
d2,bob,0,3,PER
d2,zed,5,8,ORG
"""
SPAN_OUTCOMES = ("exact", "label_only", "boundary_only", "both", "missed")


def test_three_annotators_five_way_table_in_spans_by_hand():
    """d1: amy–zed [0,5) PER exact, [10,15)/[11,15) LOC boundary only; amy–bob and bob–zed [0,5) PER/ORG
    label only; bob's [20,25) missed twice, amy's and zed's LOC missed by bob once each.  d2: amy–bob
    [0,3) exact, amy's and bob's [0,3) missed by zed, zed's [5,8) missed by both."""
    disagreement = agreekit.report("spans", THREE, bootstrap=0).to_dict()["disagreement"]
    assert disagreement["spans"] == {"exact": 4, "label_only": 4, "boundary_only": 2, "both": 0, "missed": 8,
                                     "n_spans": 18}
    by_pair = {(p["a"], p["b"]): (p["missed_a"], p["missed_b"]) for p in disagreement["pairs"]}
    # found by a only / by b only, from each pair's side: bob alone marked [20,25) against amy and against zed
    assert by_pair == {("amy", "bob"): (1, 1), ("amy", "zed"): (1, 1), ("bob", "zed"): (2, 2)}


def _sum_rows(rows, names):
    return {name: sum(row[name] for row in rows) for name in names}


@pytest.mark.parametrize("seed", [7, 8, 9])
@pytest.mark.parametrize("match", ["optimal", "potato"])
def test_per_label_and_per_pair_rows_sum_to_the_totals(seed, match):
    rows, lengths = spans_rows(seed=seed, n_items=5)
    disagreement = agreekit.report("spans", rows, lengths=lengths, match=match, bootstrap=0).to_dict()["disagreement"]
    total, spans = disagreement["total"], disagreement["spans"]
    assert len(disagreement["pairs"]) == disagreement["n_pairs_total"] == 3  # three annotators: every pair listed
    assert _sum_rows(disagreement["labels"], (*SPAN_OUTCOMES, "n_spans")) == spans
    assert _sum_rows(disagreement["pairs"], ("exact", "label_only", "boundary_only", "both", "missed_a", "missed_b",
                                             "n_spans")) == {k: v for k, v in total.items() if k != "shares"}
    assert spans == {"exact": 2 * total["exact"], "label_only": 2 * total["label_only"],
                     "boundary_only": 2 * total["boundary_only"], "both": 2 * total["both"],
                     "missed": total["missed_a"] + total["missed_b"], "n_spans": total["n_spans"]}
    assert spans["missed"] > 0 and spans["exact"] > 0  # the case has both, so the sums can fail


def test_span_item_view_missed_counts_are_the_item_tables():
    rows, lengths = spans_rows(seed=7, n_items=4)
    report = agreekit.report("spans", rows, lengths=lengths, bootstrap=0).to_dict()
    detail = KINDS["spans"].item_detail
    setup = detail.setup(rows, lengths=lengths)
    for entry in report["items"]:
        shown = detail.detail(setup, entry["item"])
        missed = entry["outcomes"]["missed_a"] + entry["outcomes"]["missed_b"]
        assert sum(shape["n_missed"] for shape in shown["shapes"]) == entry["n_unmatched"] == missed


@pytest.mark.parametrize("kind", ["boxes", "polygons", "cuboids", "segments"])
def test_object_item_view_unmatched_is_the_item_tables(kind):
    """The item view counts an object once per other annotator it has no partner in, as ``n_unmatched``."""
    rows = ROWS[kind]()
    report = agreekit.report(kind, rows, bootstrap=0).to_dict()
    detail = KINDS[kind].item_detail
    setup = detail.setup(rows)
    some = 0
    for entry in report["items"]:
        shown = detail.detail(setup, entry["item"])
        others = len(shown["annotators"]) - 1
        n_matched = np.array([shape["n_matched"] for shape in shown["shapes"]], dtype=np.intp)
        assert int((others - n_matched).sum()) == entry["n_unmatched"], entry["item"]
        some += entry["n_unmatched"]
    assert some > 0
