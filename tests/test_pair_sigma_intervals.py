"""The pair table's σ intervals: each resample's σ of each annotator pair recomputed from scratch, and
their invariance to row order and renaming."""
import numpy as np
import pytest

import agreekit
from agreekit.breakdowns import pair_codes, pair_sigma_terms
from agreekit.kinds.boxes.compare import box_kind
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.measures import bootstrap as boot
from agreekit.measures import cross
from agreekit.measures.pair_sigma import resampled_pair_sigma
from agreekit.object_sets import canonical_order
from agreekit.objects import item_label_equality, item_similarities, localize, matched_pairs, pair_matching
from agreekit.simulate import crowd_corpus

RESAMPLES, SEED = 60, 11


def _corpus():
    return crowd_corpus(n_images=9, n_annotators=6, per_image=4, seed=5)


def _engine(rows):
    objects, boxes, _ = box_objects(parse_boxes(rows)[0], order=canonical_order)
    kind = box_kind(boxes, "giou")
    records = pair_matching(objects, item_similarities(objects, kind), 0.5, "optimal",
                            item_label_equality(objects, str))
    pairs = matched_pairs(records)
    loc = localize(objects, kind, pairs, 10 ** 9, SEED, None)
    return objects, kind, records, pairs, loc


def _brute_force_sigma(objects, kind, records, pairs, counts):
    """(resamples × table pairs) σ from every object pair's distance, summed pair by pair."""
    n = objects.n_items
    item_of = np.repeat(np.arange(n), np.diff(objects.offsets))
    ann = np.asarray(objects.annotator_of)
    everything = np.arange(len(item_of))
    distance = kind.distance_block(everything, everything)
    within = kind.paired_distance(pairs.a, pairs.b)
    match_a = np.array([records[r].a for r in pairs.record])
    match_b = np.array([records[r].b for r in pairs.record])
    codes, _ = pair_codes(objects, records)
    out = np.full((len(counts), len(codes)), np.nan)
    for p, code in enumerate(codes):
        a, b = divmod(int(code), len(objects.annotators))
        mine = (match_a == a) & (match_b == b)
        xs, ys = np.flatnonzero(ann == a), np.flatnonzero(ann == b)
        other = item_of[xs][:, None] != item_of[ys][None, :]
        for k, c in enumerate(counts):
            weights = c[pairs.item[mine]]
            mean_within = (weights * within[mine]).sum() / weights.sum() if weights.sum() else np.nan
            w = c[item_of[xs]][:, None] * c[item_of[ys]][None, :] * other
            base = (w * distance[np.ix_(xs, ys)]).sum() / w.sum() if w.sum() else np.nan
            out[k, p] = 1.0 - mean_within / base if base > 0 else np.nan
    return out


def test_each_resampled_pair_sigma_equals_its_brute_force_recomputation():
    objects, kind, records, pairs, loc = _engine(_corpus())
    terms, reason = pair_sigma_terms(objects, records, pairs, loc, RESAMPLES)
    assert reason == "fewer than half the resamples give a defined σ" and len(terms.pair_a) >= 10
    counts = boot.resample_counts(objects.n_items, RESAMPLES, SEED, ranks=objects.item_ranks)
    fast = resampled_pair_sigma(terms, counts)
    slow = _brute_force_sigma(objects, kind, records, pairs, counts)
    assert np.array_equal(np.isnan(fast), np.isnan(slow))
    assert np.isfinite(slow).sum() > RESAMPLES * 5
    np.testing.assert_allclose(fast[np.isfinite(fast)], slow[np.isfinite(slow)], rtol=0, atol=1e-12)
    # every item drawn once: the point estimate of the table
    ones = resampled_pair_sigma(terms, np.ones((1, objects.n_items)))[0]
    report = agreekit.boxes(_corpus(), bootstrap=RESAMPLES, seed=SEED)
    values = [row["sigma"]["value"] for row in report["pairs"]]
    np.testing.assert_allclose(ones, np.array(values, dtype=float), rtol=0, atol=1e-12)


def test_the_report_intervals_are_the_percentiles_of_the_brute_force_resamples():
    rows = _corpus()
    objects, kind, records, pairs, _ = _engine(rows)
    counts = boot.resample_counts(objects.n_items, RESAMPLES, SEED, ranks=objects.item_ranks)
    slow = _brute_force_sigma(objects, kind, records, pairs, counts)
    report = agreekit.boxes(rows, bootstrap=RESAMPLES, seed=SEED)
    assert len(report["pairs"]) == slow.shape[1]
    for p, row in enumerate(report["pairs"]):
        expected = boot.percentile_ci(slow[:, p])
        if expected is None:
            assert row["sigma"]["ci"] is None and row["sigma"]["ci_reason"]
        else:
            np.testing.assert_allclose(row["sigma"]["ci"], expected, rtol=0, atol=1e-12)
            assert row["sigma"]["ci_reason"] is None


def _by_names(report, back=lambda name: name):
    return {frozenset((back(row["a"]), back(row["b"]))): (row["sigma"]["value"], row["sigma"]["ci"])
            for row in report["pairs"]}


@pytest.mark.parametrize("seed", [1, 2])
def test_pair_intervals_do_not_depend_on_row_order_or_names(seed):
    rows = _corpus()
    rng = np.random.default_rng(seed)
    items = sorted({r["item"] for r in rows})
    annotators = sorted({r["annotator"] for r in rows})
    new_item = dict(zip(items, [f"x{k}" for k in rng.permutation(len(items))]))
    new_annotator = dict(zip(annotators, [f"rater{k}" for k in rng.permutation(len(annotators))]))
    back = {v: k for k, v in new_annotator.items()}
    renamed = [{**r, "item": new_item[r["item"]], "annotator": new_annotator[r["annotator"]]}
               for r in (rows[k] for k in rng.permutation(len(rows)))]
    before = _by_names(agreekit.boxes(rows, bootstrap=RESAMPLES, seed=SEED))
    after = _by_names(agreekit.boxes(renamed, bootstrap=RESAMPLES, seed=SEED), back.get)
    assert before.keys() == after.keys()
    assert any(ci is not None for _, ci in before.values())
    for key, (value, ci) in before.items():
        assert after[key][0] == pytest.approx(value, abs=1e-12)
        assert (ci is None and after[key][1] is None) or np.allclose(after[key][1], ci, rtol=0, atol=1e-12)


def test_above_the_annotator_limit_the_interval_is_null_with_a_reason(monkeypatch):
    monkeypatch.setattr(cross, "PAIR_INTERVAL_ANNOTATORS", 3)
    report = agreekit.boxes(_corpus(), bootstrap=RESAMPLES, seed=SEED)
    for row in report["pairs"]:
        assert row["sigma"]["ci"] is None
        assert "above 3 annotators" in row["sigma"]["ci_reason"]


def test_without_bootstrap_the_reason_says_so():
    report = agreekit.boxes(_corpus(), bootstrap=0)
    assert all(row["sigma"]["ci"] is None and row["sigma"]["ci_reason"] == "no bootstrap"
               for row in report["pairs"])
