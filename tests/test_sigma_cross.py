"""σ_cross (the cross-annotator baseline) and σ_B (Braylan, Alonso & Lease 2022) against brute force."""
import numpy as np
import pytest
from scipy import stats

import agreekit
from agreekit.geometry import boxes as box_geometry
from agreekit.kinds.boxes.compare import box_kind
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.measures import chance
from agreekit.simulate import centred_corpus


def random_rows(seed, n_items=7, annotators=("a", "b", "c", "d")):
    """Small noisy box corpora: each annotator draws 0–3 boxes near a few true ones per item."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_items):
        truth = rng.uniform(0, 1, size=(3, 2))
        for name in annotators:
            if rng.random() < 0.2:
                continue
            k = rng.integers(0, 4)
            if k == 0:
                rows.append({"item": f"i{i}", "annotator": name, "x": "", "y": "", "w": "", "h": "", "label": ""})
            for t in truth[:k]:
                x, y = t + rng.normal(0, 0.03, 2)
                rows.append({"item": f"i{i}", "annotator": name, "x": x, "y": y, "w": 0.2 + rng.uniform(0, .05),
                             "h": 0.15 + rng.uniform(0, .05), "label": "obj"})
    return rows


def brute_force(rows, distance):
    """Every between-item pair of boxes with its annotators, and the matched within distances."""
    objects, boxes, _ = box_objects(parse_boxes(rows)[0])
    item_of = np.repeat(np.arange(objects.n_items), np.diff(objects.offsets))
    d = box_geometry.distance_matrix(boxes, boxes, distance)
    i, j = np.nonzero(np.triu(item_of[:, None] != item_of[None, :], k=1))
    ann = objects.annotator_of
    return objects, d[i, j], ann[i], ann[j]


@pytest.mark.parametrize("distance", ["giou", "iou", "centroid"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cross_baseline_equals_brute_force(distance, seed):
    rows = random_rows(seed)
    report = agreekit.boxes(rows, distance=distance, bootstrap=0).to_dict()
    objects, d, a1, a2 = brute_force(rows, distance)
    cross = a1 != a2
    loc = report["localization"]
    assert loc["mean_between_cross"] == pytest.approx(d[cross].mean(), rel=1e-12)
    assert loc["n_between_cross"] == cross.sum()
    within = np.array(sorted(_within(rows, distance)))
    assert loc["ks_cross"]["value"] == pytest.approx(stats.ks_2samp(within, d[cross]).statistic, abs=1e-12)
    assert loc["sigma_cross"]["value"] == pytest.approx(1 - within.mean() / d[cross].mean(), abs=1e-12)
    names = objects.annotators
    for row in report["pairs"]:
        a, b = names.index(row["a"]), names.index(row["b"])
        mine = ((a1 == a) & (a2 == b)) | ((a1 == b) & (a2 == a))
        assert row["mean_between_cross"] == pytest.approx(d[mine].mean(), rel=1e-12)
    for row in report["annotators"]:
        a = names.index(row["annotator"])
        mine = cross & ((a1 == a) | (a2 == a))
        assert row["mean_between_cross"] == pytest.approx(d[mine].mean(), rel=1e-12)


def _within(rows, distance):
    """The matched pairs' distances, as the report computes them (its engine is tested elsewhere)."""
    from agreekit.objects import item_label_equality, item_similarities, matched_pairs, pair_matching
    objects, boxes, _ = box_objects(parse_boxes(rows)[0])
    kind = box_kind(boxes, distance)
    pairs = matched_pairs(pair_matching(objects, item_similarities(objects, kind), 0.5, "optimal",
                                        item_label_equality(objects, lambda label: "" if label is None else label)))
    return kind.paired_distance(pairs.a, pairs.b)


def test_per_pair_sums_add_up_to_the_pooled_cross_total():
    rows = random_rows(5, n_items=9)
    objects, boxes, _ = box_objects(parse_boxes(rows)[0])
    result = chance.between_baseline(objects, box_kind(boxes, "giou"), np.array([0.1, 0.3]), cross=True)
    cross = result["cross"]
    assert np.triu(cross.pair_sums, 1).sum() == pytest.approx(cross.total_sum, rel=1e-12)
    assert np.triu(cross.pair_counts, 1).sum() == cross.total_n
    assert cross.annotator_sums.sum() == pytest.approx(2 * cross.total_sum, rel=1e-12)
    assert cross.annotator_counts.sum() == 2 * cross.total_n


def test_sampled_cross_baseline_is_its_sample_cross_pairs():
    rows = random_rows(3, n_items=9)
    exact = agreekit.boxes(rows, bootstrap=0).localization
    sampled = agreekit.boxes(rows, bootstrap=50, pair_budget=exact.n_between_possible - 1).localization
    assert not sampled.between_exact
    assert 0 < sampled.n_between_cross < sampled.n_between
    # a sample with replacement of as many pairs as there are: within 4 standard errors of the exact mean
    assert sampled.mean_between_cross == pytest.approx(exact.mean_between_cross, abs=4 * sampled.between_se)
    assert sampled.sigma_cross.ci is not None


@pytest.mark.parametrize("annotators, careful, fixed", [(("careful_a", "careful_b", "fixed"), 0.57, 0.0),
                                                        (("careful_a", "fixed"), None, 0.0)])
def test_a_fixed_box_is_no_better_than_chance_against_the_cross_baseline(annotators, careful, fixed):
    report = agreekit.boxes(centred_corpus(annotators=annotators), bootstrap=0).to_dict()
    for row in report["pairs"]:
        if "fixed" in (row["a"], row["b"]):
            assert abs(row["sigma"]["value"] - fixed) < 1e-12
        else:
            assert round(row["sigma"]["value"], 2) == careful
    fixed_row = next(r for r in report["annotators"] if r["annotator"] == "fixed")
    assert abs(fixed_row["sigma"]["value"]) < 1e-12


def test_the_pooled_headline_sigma_is_unchanged_and_below_the_cross_one_with_a_fixed_box():
    loc = agreekit.boxes(centred_corpus(annotators=("careful_a", "fixed")), bootstrap=0).localization
    assert loc.sigma.value == pytest.approx(-0.1996, abs=1e-4)   # the issue's −0.20
    assert abs(loc.sigma_cross.value) < 1e-12


def test_cross_interval_contains_the_value_and_is_reproducible():
    rows = random_rows(4, n_items=12)
    one = agreekit.boxes(rows, bootstrap=300).localization
    two = agreekit.boxes(rows, bootstrap=300).localization
    low, high = one.sigma_cross.ci
    assert low <= one.sigma_cross.value <= high
    assert one.sigma_cross.ci == two.sigma_cross.ci


# ----------------------------------------------------------------- σ_B

@pytest.mark.parametrize("distance", ["giou", "iou", "centroid"])
@pytest.mark.parametrize("level", [0.05, 0.2, 0.5])
@pytest.mark.parametrize("seed", [0, 1, 6])
def test_significance_share_equals_a_brute_force_quantile(distance, level, seed):
    rows = random_rows(seed)
    loc = agreekit.boxes(rows, distance=distance, significance_level=level, bootstrap=0).localization
    _, d, _, _ = brute_force(rows, distance)
    q = np.quantile(d, level, method="inverted_cdf")
    within = _within(rows, distance)
    assert loc.significance_share.value == pytest.approx(1 - np.mean(within >= q), abs=1e-12)
    assert loc.significance_level == level


def test_significance_share_is_one_for_identical_annotators_and_has_an_interval():
    rows = [dict(r, annotator=name) for r in centred_corpus(annotators=("careful_a",)) for name in "ab"]
    loc = agreekit.boxes(rows, bootstrap=200).localization
    assert loc.significance_share.value == 1.0
    assert loc.significance_share.ci == [1.0, 1.0]


def test_significance_level_is_checked():
    with pytest.raises(agreekit.InputError, match="significance_level"):
        agreekit.boxes(random_rows(0), significance_level=1.0)


@pytest.mark.parametrize("kind", ["boxes", "polygons", "cuboids"])
def test_every_object_kind_reports_both(kind):
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import report_doc
    loc = report_doc.example_reports()[kind]["localization"]
    for key in ("sigma_cross", "ks_cross", "significance_share"):
        assert loc[key]["value"] is not None, key
    assert loc["significance_level"] == 0.05
