"""The chance baseline of σ: KS on ties and near-ties, and the bounded forms of the bootstrap's baseline.

The bounded forms are tested against the exact dense path by lowering the
item threshold (``chance.DENSE_ITEMS``) and the item-pair sample
(``chance.ITEM_PAIR_SAMPLE``) on small corpora.
"""
import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

import agreekit
from agreekit.kinds.boxes.compare import box_kind
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.measures import bootstrap as boot
from agreekit.measures import chance
from agreekit.simulate import centred_corpus, crowd_corpus
from same_report import assert_same


# --- KS on a stub kind: objects with given pairwise distances -----------------------------------

def stub(item_sizes, distances):
    """Objects grouped by item (``item_sizes``) whose distances are the symmetric matrix ``distances``."""
    objects = SimpleNamespace(offsets=np.concatenate([[0], np.cumsum(item_sizes)]).astype(np.intp))
    kind = SimpleNamespace(distance_block=lambda rows, cols: distances[np.ix_(rows, cols)],
                           paired_distance=lambda a, b: distances[a, b])
    return objects, kind


def between_values(item_sizes, distances):
    item = np.repeat(np.arange(len(item_sizes)), item_sizes)
    return [distances[a, b] for a, b in itertools.combinations(range(len(item)), 2) if item[a] != item[b]]


def baseline_ks(item_sizes, distances, within, **options):
    objects, kind = stub(item_sizes, distances)
    within = np.sort(np.asarray(within, dtype=float))
    result = chance.between_baseline(objects, kind, within, **options)
    return chance.ks_statistic(within, result["le"], result["lt"], result["n"])


def saturated_distances(rng, n, share=0.4):
    """Symmetric distances in [0, 1] of which ``share`` are exactly 1.0 and ``share`` / 2 exactly 0.0."""
    values = rng.choice([0.0, 1.0, 0.5, 0.25], size=(n, n), p=[share / 2, share, 0.2, 0.8 - 1.5 * share])
    values = np.where(rng.random((n, n)) < 0.2, rng.random((n, n)), values)
    upper = np.triu(values, 1)
    return upper + upper.T


@pytest.mark.parametrize("seed", range(8))
def test_ks_equals_scipy_with_many_exact_zeros_and_ones(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, 5, size=12)
    distances = saturated_distances(rng, int(sizes.sum()))
    between = between_values(sizes, distances)
    within = rng.choice([0.0, 1.0, 0.5, 0.3], size=30, p=[0.3, 0.4, 0.2, 0.1])
    assert baseline_ks(sizes, distances, within) == pytest.approx(stats.ks_2samp(within, between).statistic,
                                                                  abs=1e-12)


@pytest.mark.parametrize("value", [0.0, 1.0])
def test_ks_is_zero_on_identical_distributions_of_one_value(value):
    sizes = [3, 2, 4, 1]
    distances = np.full((10, 10), value)
    between = between_values(sizes, distances)
    within = [value] * 7
    assert stats.ks_2samp(within, between).statistic == 0.0
    assert baseline_ks(sizes, distances, within) == 0.0


def test_ks_of_saturated_centroid_distances_on_pixel_boxes():
    """Pixel coordinates: every centroid distance, within and between, saturates at 1, so D = 0."""
    rows = [{"item": f"i{i}", "annotator": a, "x": 100.0 * i + (7.0 if a == "b" else 0.0), "y": 50.0,
             "w": 100.0, "h": 80.0, "label": "x"} for i in range(5) for a in "ab"]
    loc = agreekit.boxes(rows, distance="centroid", bootstrap=0).localization
    assert loc.mean_within == 1.0 and loc.mean_between == 1.0
    assert loc.ks.value == 0.0


def test_a_between_distance_of_one_is_searched_when_a_within_value_is_one():
    sizes = [1, 1, 1]
    distances = np.array([[0.0, 1.0, 0.2], [1.0, 0.0, 1.0], [0.2, 1.0, 0.0]])
    within = [1.0, 0.2, 1.0]
    expected = stats.ks_2samp(within, [1.0, 0.2, 1.0]).statistic
    assert baseline_ks(sizes, distances, within) == expected == 0.0


def test_near_ties_count_as_ties():
    """Values agreeing to 1e-15 give the KS of exact ties, whichever side carries the perturbation."""
    rng = np.random.default_rng(4)
    sizes = rng.integers(1, 5, size=10)
    grid = np.array([0.0, 1 / 7, 2 / 7, 3 / 7, 1.0])
    n = int(sizes.sum())
    upper = np.triu(grid[rng.integers(0, len(grid), size=(n, n))], 1)
    tied = upper + upper.T
    within = grid[rng.integers(0, len(grid), size=25)]
    exact = baseline_ks(sizes, tied, within)
    assert exact == pytest.approx(stats.ks_2samp(within, between_values(sizes, tied)).statistic, abs=1e-12)
    assert exact > 0
    nudge = np.triu(rng.choice([-1e-15, 1e-15], size=(n, n)), 1)
    nudged = np.clip(tied + nudge + nudge.T, 0.0, 1.0)
    assert not np.array_equal(nudged, tied)
    assert baseline_ks(sizes, nudged, within) == exact
    assert baseline_ks(sizes, tied, np.clip(within - 1e-15, 0.0, 1.0)) == exact
    assert baseline_ks(sizes, nudged, np.clip(within + 1e-15, 0.0, 1.0)) == exact
    # The sampled pairs go through the same counting.
    assert baseline_ks(sizes, nudged, within, pair_budget=50, seed=3) == baseline_ks(sizes, tied, within,
                                                                                    pair_budget=50, seed=3)


def test_snapping_keeps_distinct_values_apart():
    assert chance.snap([0.3, 0.3 + 1e-15])[0] == chance.snap([0.3, 0.3 + 1e-15])[1]
    assert chance.snap([0.3])[0] != chance.snap([0.3 + 1e-11])[0]
    assert np.array_equal(chance.snap([0.0, 1.0]), [0.0, 2.0 ** 40])


# --- the bounded forms against the exact dense path ---------------------------------------------

def localization(rows, bootstrap, monkeypatch=None, dense_items=None, item_pairs=None, **options):
    if monkeypatch is not None:
        monkeypatch.setattr(chance, "DENSE_ITEMS", dense_items)
        if item_pairs is not None:
            monkeypatch.setattr(chance, "ITEM_PAIR_SAMPLE", item_pairs)
    return agreekit.boxes(rows, bootstrap=bootstrap, **options)


def baseline_of(rows, **options):
    objects, geometry, _ = box_objects(parse_boxes(rows)[0])
    return objects, chance.between_baseline(objects, box_kind(geometry, "giou"), np.zeros(0), **options)


def test_item_pair_sample_keeps_the_point_estimate_and_its_interval_within_the_reported_error(monkeypatch):
    rows = crowd_corpus(n_images=60, per_image=3, objects=(1, 3), seed=5)
    exact = localization(rows, 400)
    bounded = localization(rows, 400, monkeypatch, dense_items=50, item_pairs=400)
    a, b = exact.localization, bounded.localization
    assert a.baseline_interval == "exact" and a.baseline_interval_se is None
    assert b.baseline_interval.startswith("estimated") and "of 1,770 item pairs" in b.baseline_interval
    assert b.baseline_interval_se > 0
    assert any("interval's chance baseline is estimated" in w for w in bounded.warnings)
    assert not any("interval's chance baseline" in w for w in exact.warnings)
    for key in ("mean_between", "mean_within", "n_between", "n_within"):
        assert getattr(b, key) == getattr(a, key)
    assert b.sigma.value == a.sigma.value and b.ks.value == a.ks.value
    # σ = 1 − w / b, so an error e in a between mean moves σ by about e · w / b².
    sigma_se = b.baseline_interval_se * a.mean_within / a.mean_between ** 2
    assert np.max(np.abs(np.subtract(b.sigma.ci, a.sigma.ci))) < 4 * sigma_se
    assert b.sigma.ci != a.sigma.ci


def test_the_reported_error_is_the_error_of_the_resampled_between_means(monkeypatch):
    rows = crowd_corpus(n_images=60, per_image=3, objects=(1, 3), seed=5)
    objects, dense = baseline_of(rows, pair_budget=10 ** 9)
    monkeypatch.setattr(chance, "DENSE_ITEMS", 50)
    monkeypatch.setattr(chance, "ITEM_PAIR_SAMPLE", 400)
    _, bounded = baseline_of(rows, pair_budget=10 ** 9)
    counts = boot.resample_counts(objects.n_items, 500, seed=9)
    truth, no_error = chance.resampled_between(dense["terms"], counts)
    estimate, error = chance.resampled_between(bounded["terms"], counts)
    assert no_error is None and "item_sums" in dense and "item_sums" not in bounded
    rms = np.sqrt(np.mean((estimate - truth) ** 2))
    se = np.sqrt(np.mean(error ** 2))
    assert 0 < rms < 3 * se
    # The control variate is what makes the error small: plain Horvitz–Thompson on the same pairs errs more.
    monkeypatch.setattr(chance, "additive_model", lambda sizes, totals, overall:
                        boot.AdditivePairs(sizes, np.zeros(len(sizes)), 0.0))
    _, plain = baseline_of(rows, pair_budget=10 ** 9)
    plain_estimate, plain_error = chance.resampled_between(plain["terms"], counts)
    assert np.sqrt(np.mean((plain_estimate - truth) ** 2)) > 4 * rms
    assert np.sqrt(np.mean(plain_error ** 2)) > 4 * se


def test_all_item_pairs_kept_is_exact(monkeypatch):
    rows = crowd_corpus(n_images=30, per_image=2, objects=(1, 2), seed=6)
    exact = localization(rows, 300).localization
    sparse = localization(rows, 300, monkeypatch, dense_items=10, item_pairs=10 ** 6).localization
    assert sparse.baseline_interval == "exact" and sparse.baseline_interval_se is None
    assert sparse.sigma.ci == pytest.approx(exact.sigma.ci, rel=1e-12, abs=1e-12)


def test_sampled_object_pairs_above_the_item_threshold_are_exact_and_sparse(monkeypatch):
    rows = centred_corpus(40, seed=3)
    dense = localization(rows, 300, pair_budget=100).localization
    sparse = localization(rows, 300, monkeypatch, dense_items=10, pair_budget=100).localization
    assert not sparse.between_exact and sparse.baseline_interval == "exact"
    assert sparse.mean_between == dense.mean_between and sparse.ks.value == dense.ks.value
    assert sparse.sigma.ci == pytest.approx(dense.sigma.ci, rel=1e-12, abs=1e-12)
    objects, result = baseline_of(rows, pair_budget=100)
    assert isinstance(result["terms"].sums, boot.SparsePairs)
    assert result["terms"].sums.matrix.nnz <= 100


@pytest.mark.parametrize("n_images", [60, 240])
def test_bounded_terms_do_not_grow_with_items_squared(monkeypatch, n_images):
    sample = 300
    monkeypatch.setattr(chance, "DENSE_ITEMS", 20)
    monkeypatch.setattr(chance, "ITEM_PAIR_SAMPLE", sample)
    rows = crowd_corpus(n_images=n_images, per_image=2, objects=(1, 2), seed=8)
    objects, exact_path = baseline_of(rows, pair_budget=10 ** 9)
    _, sampled_path = baseline_of(rows, pair_budget=sample)
    n = objects.n_items
    terms = exact_path["terms"]
    kept = sum(half.matrix.nnz for half in terms.sums.halves)
    assert 0.5 * sample < kept < 1.5 * sample
    # Per item: sizes and means of the model, sizes of the counts, two index pointers; per kept pair ≤ 16 bytes.
    assert terms.nbytes <= 40 * (n + 1) + 16 * kept
    assert sampled_path["terms"].nbytes <= 2 * (8 * (n + 1) + 16 * sample)
    assert "item_sums" not in exact_path and "item_sums" not in sampled_path
    assert terms.nbytes < 8 * n * n / 4


def test_resample_chunks_are_the_resamples():
    whole = boot.resample_counts(37, 101, seed=3)
    chunks = list(boot.resample_count_chunks(37, 101, seed=3, max_elements=37 * 10))
    assert [len(c) for c in chunks] == [10] * 10 + [1]
    assert np.array_equal(np.concatenate(chunks), whole)
    assert np.array_equal(np.concatenate(list(boot.resample_count_chunks(37, 101, seed=3))), whole)


def test_the_forms_agree_with_the_dense_quadratic_form():
    rng = np.random.default_rng(2)
    n = 9
    sizes = rng.integers(0, 4, n).astype(float)
    upper = np.triu(rng.random((n, n)), 1)
    counts = boot.resample_counts(n, 6, seed=1)
    first, second = np.nonzero(upper)
    dense = boot.DensePairs(upper + upper.T).weighted(counts)
    assert boot.SparsePairs.from_entries(first, second, upper[first, second], n).weighted(counts) == \
        pytest.approx(dense, rel=1e-12)
    outer = np.outer(sizes, sizes) - np.diag(sizes ** 2)
    assert boot.OuterPairs(sizes).weighted(counts) == pytest.approx(boot.weighted_pair_sums(counts, outer), rel=1e-12)
    model = boot.AdditivePairs(sizes, rng.random(n), 0.3)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    full = np.where(i != j, model.entries(i, j), 0.0)
    assert model.weighted(counts) == pytest.approx(boot.weighted_pair_sums(counts, full), rel=1e-12)


# --- which baselines need scipy.sparse, known before the report's work (the page installs it on demand) ----

def builds_sparse(terms):
    """Whether a :class:`~agreekit.measures.chance.BetweenTerms` holds a scipy.sparse matrix anywhere."""
    if terms is None:
        return False
    forms = [terms.sums, terms.counts] + list(getattr(terms.sums, "halves", ()))
    return any(isinstance(form, boot.SparsePairs) for form in forms)


@pytest.mark.parametrize("dense_items, pair_budget, element_cost, n_images", [
    (4000, 10 ** 9, 0.4, 40),    # exact and dense
    (10, 10 ** 9, 0.4, 40),      # exact, above the item threshold: the item-pair sample
    (4000, 100, 0.4, 40),        # a sample of 100 pairs on 40 items: sparse is cheaper
    (4000, 1000, 0.4, 40),       # a sample of 1,000 pairs: dense is cheaper, its cross-annotator part too
    (4000, 1000, 14.0, 40),      # the same in Pyodide's costs: sparse
    (4000, 641, 0.4, 40),        # just dense (40² · 0.4 ≤ 641); the cross-annotator part, 4 pairs fewer, follows it
    (10, 100, 0.4, 40),          # a sample above the item threshold
    (10, 100, 0.4, 1),           # one item: no pairs, dense
    (0, 100, 0.4, 1),            # one item above the threshold: no pairs, sparse
])
def test_needs_sparse_says_what_the_baseline_builds(monkeypatch, dense_items, pair_budget, element_cost, n_images):
    monkeypatch.setattr(chance, "DENSE_ITEMS", dense_items)
    monkeypatch.setattr(chance.runtime, "DENSE_ELEMENT_COST", element_cost)
    rows = crowd_corpus(n_images=n_images, per_image=3, objects=(1, 3), seed=4)
    objects, geometry, _ = box_objects(parse_boxes(rows)[0])
    result = chance.between_baseline(objects, box_kind(geometry, "giou"), np.zeros(0), pair_budget=pair_budget,
                                     cross=True)
    built = builds_sparse(result["terms"]) or builds_sparse(result["cross_terms"])
    assert chance.needs_sparse(np.diff(objects.offsets), pair_budget) == built


@pytest.mark.parametrize("pair_budget, needs", [(1000, True), (10 ** 9, False)])
def test_a_report_asks_for_scipy_sparse_before_matching(monkeypatch, pair_budget, needs):
    monkeypatch.setitem(__import__("sys").modules, "scipy.sparse", None)  # as in the page before it is installed
    monkeypatch.setattr(chance.runtime, "DENSE_ELEMENT_COST", 14.0)  # Pyodide's costs: a sample's terms are sparse
    rows = crowd_corpus(n_images=40, per_image=3, objects=(1, 3), seed=4)
    stages = []
    report = lambda: agreekit.boxes(rows, bootstrap=50, pair_budget=pair_budget,  # noqa: E731
                                    progress=lambda done, total, stage="": stages.append(stage))
    if not needs:
        assert report().localization.sigma.ci is not None
        return
    with pytest.raises(ModuleNotFoundError) as raised:
        report()
    assert raised.value.name == "scipy.sparse"
    assert not any(stage.startswith(("matching", "chance", "bootstrap")) for stage in stages), stages


def test_an_item_without_objects_alone_in_a_block(monkeypatch):
    """An item without objects before an item too large to join its block makes a block of no objects: it
    adds nothing (it raised IndexError in the cross sums).  Tiny chunks force that layout on a small crowd;
    the report equals the one streamed in the default chunks."""
    blank = [{"item": "img0000a", "annotator": f"w{k:03d}", "x": "", "y": "", "w": "", "h": "", "label": ""}
             for k in range(3)]
    rows = blank + crowd_corpus(n_images=12, n_annotators=20, per_image=5, seed=4)
    expected = agreekit.boxes(rows, bootstrap=20).to_dict()
    monkeypatch.setattr(chance, "_CHUNK_ELEMENTS", 64)
    assert_same(expected, agreekit.boxes(rows, bootstrap=20).to_dict())
