"""The bootstrap reports its progress through the resamples, and the form of a sampled baseline's
item-pair terms (dense or sparse, chosen per runtime by cost) does not change the report (issue 27)."""
from __future__ import annotations

import numpy as np
import pytest

import agreekit
from agreekit import runtime
from agreekit.kinds.boxes.compare import box_kind
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.measures import bootstrap as boot
from agreekit.measures import chance
from agreekit.simulate import crowd_corpus


def test_progress_moves_through_the_resamples():
    rows = crowd_corpus(n_images=30, per_image=3, objects=(1, 3), seed=4)
    seen = []
    report = agreekit.boxes(rows, bootstrap=200, progress=lambda done, total, stage: seen.append((stage, done, total)))
    counts = [(done, total) for stage, done, total in seen if stage == "bootstrap"]
    assert counts[0] == (0, 200) and counts[-1] == (200, 200)
    done = [d for d, _ in counts]
    assert done == sorted(done) and len(set(done)) >= boot.PROGRESS_STEPS
    assert all(total == 200 for _, total in counts)
    # Reporting progress changes when the chunks end, not the numbers.
    assert report.to_dict() == agreekit.boxes(rows, bootstrap=200).to_dict()


@pytest.mark.parametrize("n_items, n_resamples", [(7, 1000), (5000, 1000), (3, 5), (1 << 23, 40)])
def test_progress_chunks_are_the_same_resamples(n_items, n_resamples):
    elements = boot.progress_chunk_elements(n_items, n_resamples)
    assert n_items <= elements <= max(n_items, boot.BOOTSTRAP_ELEMENTS)
    sizes = [min(elements // n_items, n_resamples - start)
             for start in range(0, n_resamples, elements // n_items)]
    assert len(sizes) >= min(n_resamples, boot.PROGRESS_STEPS)
    if n_items < 10_000:
        chunks = list(boot.resample_count_chunks(n_items, n_resamples, seed=8, max_elements=elements))
        assert [len(c) for c in chunks] == sizes
        assert np.array_equal(np.concatenate(chunks), boot.resample_counts(n_items, n_resamples, seed=8))


def sampled_report(rows, monkeypatch, cost):
    monkeypatch.setattr(runtime, "DENSE_ELEMENT_COST", cost)
    return agreekit.boxes(rows, bootstrap=300, pair_budget=2_000).localization


def test_sampled_terms_take_the_cheaper_form_and_give_the_same_report(monkeypatch):
    rows = crowd_corpus(n_images=40, per_image=3, objects=(1, 3), seed=2)
    objects, geometry, _ = box_objects(parse_boxes(rows)[0])
    kind = box_kind(geometry, "giou")
    forms = {}
    for cost in (0.0, 1e9):
        monkeypatch.setattr(runtime, "DENSE_ELEMENT_COST", cost)
        result = chance.between_baseline(objects, kind, np.zeros(0), pair_budget=2_000)
        assert not result["exact"]
        forms[cost] = type(result["terms"].sums)
    assert forms == {0.0: boot.DensePairs, 1e9: boot.SparsePairs}
    dense, sparse = sampled_report(rows, monkeypatch, 0.0), sampled_report(rows, monkeypatch, 1e9)
    assert dense.mean_between == sparse.mean_between and dense.between_se == sparse.between_se
    for name in ("sigma", "sigma_cross"):
        a, b = getattr(dense, name).ci, getattr(sparse, name).ci
        assert a is not None and a == pytest.approx(b, rel=1e-12, abs=1e-12)

