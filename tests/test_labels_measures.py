"""The categorical-agreement measures against independent implementations, to 1e-12, on random
ratings with missing values: irrCAC (Gwet's AC1/AC2, Fleiss, Conger, Brennan–Prediger), scikit-learn
(Cohen's κ, weighted), NLTK (Scott's π, α with a set distance), statsmodels (Fleiss' κ), pingouin
(ICC and its F intervals) and krippendorff (α at four levels)."""
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreekit import runtime
from agreekit.measures import multirater as mr
from agreekit.measures.category_weights import agreement_weights
from agreekit.measures.icc import (f_interval_absolute, f_interval_consistency, icc_absolute, icc_consistency,
                                   mean_squares)
from agreekit.measures.pair_tables import scott_pi, table_cells, weighted_kappa, weighted_tables
from agreekit.measures.set_distance import alpha_from_distance, distance_matrix, masi_distance

TOL = 1e-12
CASES = settings(max_examples=20, deadline=None, derandomize=True, database=None)


@st.composite
def ratings(draw, missing=True, min_raters=2):
    """(items × raters) category codes 0..q−1, −1 = not rated; every item rated at least once."""
    n = draw(st.integers(3, 25))
    r = draw(st.integers(min_raters, 5))
    q = draw(st.integers(2, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    codes = rng.integers(0, q, size=(n, r))
    if missing:
        codes[rng.random((n, r)) < 0.25] = -1
        codes[codes.max(axis=1) < 0, 0] = 0
    codes[0, :] = np.arange(r) % q  # every category and more than one value appears
    codes[1, : min(r, q)] = np.arange(min(r, q))
    codes[2, 0], codes[2, 1] = q - 1, 0
    return codes, q


def counts_of(codes, q):
    return np.stack([(codes == k).sum(axis=1) for k in range(q)], axis=1)


def irr(codes, q, weights):
    pd = pytest.importorskip("pandas")
    raw = pytest.importorskip("irrCAC.raw")
    frame = pd.DataFrame(np.where(codes >= 0, codes + 1.0, np.nan))
    return raw.CAC(frame, weights=weights, categories=list(range(1, q + 1)), digits=20)


@CASES
@given(ratings(), st.sampled_from(["identity", "linear", "quadratic"]))
def test_gwet_fleiss_conger_and_brennan_prediger_are_irrcacs(data, weights):
    codes, q = data
    cac = irr(codes, q, weights)
    terms = mr.drawn_terms(mr.item_terms(counts_of(codes, q), agreement_weights(np.arange(1, q + 1), weights)))
    assert mr.gwet_ac(terms)[0] == pytest.approx(cac.gwet()["est"]["coefficient_value"], abs=TOL)
    assert mr.fleiss_kappa(terms)[0] == pytest.approx(cac.fleiss()["est"]["coefficient_value"], abs=TOL)
    assert mr.brennan_prediger(terms)[0] == pytest.approx(cac.bp()["est"]["coefficient_value"], abs=TOL)
    conger = mr.conger_kappa(terms, mr.rater_classifications(codes, q))[0]
    assert conger == pytest.approx(cac.conger()["est"]["coefficient_value"], abs=TOL)
    assert mr.percent_agreement(mr.drawn_terms(mr.item_terms(counts_of(codes, q))))[0] == \
        pytest.approx(irr(codes, q, "identity").gwet()["est"]["pa"], abs=TOL)


@CASES
@given(ratings(missing=False))
def test_fleiss_on_complete_items_is_statsmodels(data):
    from statsmodels.stats.inter_rater import fleiss_kappa
    codes, q = data
    counts = counts_of(codes, q)
    expected = fleiss_kappa(counts, method="fleiss")
    assert mr.fleiss_kappa(mr.drawn_terms(mr.item_terms(counts)))[0] == pytest.approx(expected, abs=TOL)


@CASES
@given(ratings(), st.integers(0, 2 ** 16))
def test_resampled_coefficients_equal_the_coefficients_of_the_resampled_items(data, seed):
    codes, q = data
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(len(codes), np.full(len(codes), 1 / len(codes)), size=3).astype(float)
    terms = mr.item_terms(counts_of(codes, q), agreement_weights(np.arange(q), "quadratic"))
    drawn = mr.drawn_terms(terms, draws)
    classified = mr.rater_classifications(codes, q, draws)
    batched = [mr.gwet_ac(drawn), mr.fleiss_kappa(drawn), mr.conger_kappa(drawn, classified)]
    for row, draw in enumerate(draws):
        again = np.repeat(codes, draw.astype(int), axis=0)
        t = mr.drawn_terms(mr.item_terms(counts_of(again, q), terms.weights))
        single = [mr.gwet_ac(t), mr.fleiss_kappa(t), mr.conger_kappa(t, mr.rater_classifications(again, q))]
        for b, s in zip(batched, single):
            np.testing.assert_allclose(b[row], s[0], atol=1e-12, equal_nan=True)


@CASES
@given(ratings(min_raters=2), st.sampled_from([None, "linear", "quadratic"]))
def test_weighted_kappa_is_sklearns(data, weights):
    from sklearn.metrics import cohen_kappa_score
    codes, q = data
    a, b = codes[:, 0], codes[:, 1]
    both = (a >= 0) & (b >= 0)
    table = weighted_tables(table_cells(a, b, q), q)[0]
    w = agreement_weights(np.arange(q), weights or "identity")
    expected = cohen_kappa_score(a[both], b[both], labels=list(range(q)), weights=weights)
    np.testing.assert_allclose(weighted_kappa(table, w), expected, atol=TOL, equal_nan=True)


@CASES
@given(ratings(missing=False))
def test_scott_pi_is_nltks_for_two_coders(data):
    from nltk.metrics.agreement import AnnotationTask
    codes, q = data
    task = AnnotationTask([(coder, str(i), int(codes[i, coder])) for i in range(len(codes)) for coder in (0, 1)])
    table = weighted_tables(table_cells(codes[:, 0], codes[:, 1], q), q)[0]
    assert scott_pi(table) == pytest.approx(task.pi(), abs=TOL)


@CASES
@given(st.integers(3, 30), st.integers(2, 6), st.integers(0, 2 ** 32 - 1))
def test_icc_and_its_f_intervals_are_pingouins(n, k, seed):
    pd = pytest.importorskip("pandas")
    pingouin = pytest.importorskip("pingouin")
    rng = np.random.default_rng(seed)
    y = rng.normal(size=(n, 1)) * 2 + rng.normal(size=(1, k)) + rng.normal(size=(n, k))
    frame = pd.DataFrame([(i, j, y[i, j]) for i in range(n) for j in range(k)], columns=["item", "rater", "y"])
    table = pingouin.intraclass_corr(frame, "item", "rater", "y").set_index("Type")
    ms = mean_squares(y)
    assert icc_absolute(ms)[0] == pytest.approx(table.loc["ICC(A,1)", "ICC"], abs=TOL)
    assert icc_consistency(ms)[0] == pytest.approx(table.loc["ICC(C,1)", "ICC"], abs=TOL)
    # pingouin rounds its intervals to two decimals
    assert f_interval_absolute(ms) == pytest.approx(list(table.loc["ICC(A,1)", "CI95"]), abs=0.005 + TOL)
    assert f_interval_consistency(ms) == pytest.approx(list(table.loc["ICC(C,1)", "CI95"]), abs=0.005 + TOL)


def test_icc_f_intervals_unrounded_against_the_formula_in_pingouins_source():
    """pingouin's own code path without its rounding: the F quantiles of McGraw & Wong (1996)."""
    from scipy.stats import f
    y = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], float)
    ms = mean_squares(y)
    # Shrout & Fleiss (1979), Table 2: ICC(2,1) = 0.29, ICC(3,1) = 0.71.
    assert round(float(icc_absolute(ms)[0]), 2) == 0.29 and round(float(icc_consistency(ms)[0]), 2) == 0.71
    f1 = ms.items[0] / ms.residual[0]
    low = (f1 / f.ppf(0.975, 5, 15) - 1) / (f1 / f.ppf(0.975, 5, 15) + 3)
    assert f_interval_consistency(ms)[0] == pytest.approx(low, abs=TOL)


@CASES
@given(st.integers(2, 12), st.integers(2, 4), st.integers(0, 2 ** 32 - 1), st.sampled_from(["masi", "jaccard"]))
def test_set_alpha_is_nltks_alpha_with_the_same_distance(n, coders, seed, distance):
    from nltk.metrics.agreement import AnnotationTask
    rng = np.random.default_rng(seed)
    labels = "abcd"
    sets = [[frozenset(c for c in labels if rng.random() < 0.4) or frozenset("a") for _ in range(coders)]
            for _ in range(n)]
    values = sorted({s for item in sets for s in item}, key=sorted)
    if len(values) < 2:
        return
    index = {v: i for i, v in enumerate(values)}
    d = distance_matrix(values, distance)
    counts = np.zeros((n, len(values)))
    for i, item in enumerate(sets):
        for s in item:
            counts[i, index[s]] += 1
    from agreekit.measures.alpha import coincidence
    task = AnnotationTask([(c, str(i), sets[i][c]) for i in range(n) for c in range(coders)],
                          distance=lambda a, b: d[index[a], index[b]])
    assert alpha_from_distance(coincidence(counts), d) == pytest.approx(task.alpha(), abs=1e-12)


def test_masi_distance_is_nltks_where_the_monotonicity_weight_is_0_or_1():
    from nltk.metrics.distance import masi_distance as nltk_masi
    for a, b in [({"a"}, {"a"}), ({"a", "b"}, {"c"}), ({"a", "b"}, {"a", "b"})]:
        assert masi_distance(set(a), set(b)) == pytest.approx(nltk_masi(set(a), set(b)), abs=TOL)
    # and differs from it by NLTK's rounding of 2/3 to 0.67 elsewhere (Passonneau 2006 has 2/3)
    assert masi_distance({"a"}, {"a", "b"}) == pytest.approx(1 - 1 / 2 * 2 / 3, abs=TOL)


def _simulated_counts(rng, n_items, raters=3, q=3, accuracy=0.7, prevalence=(0.5, 0.3, 0.2)):
    """Raters who copy an item's true category with probability ``accuracy``, else draw by prevalence."""
    truth = rng.choice(q, size=n_items, p=prevalence)
    guess = rng.choice(q, size=(n_items, raters), p=prevalence)
    codes = np.where(rng.random((n_items, raters)) < accuracy, truth[:, None], guess)
    return np.stack([(codes == k).sum(axis=1) for k in range(q)], axis=1), codes


def test_bootstrap_intervals_cover_the_population_value_of_simulated_raters():
    """400 simulations of 150 items: the 95 % percentile intervals of α and AC1 cover the value of a
    200,000-item sample of the same raters in at least 93 % of them (issue 23)."""
    from agreekit.measures.alpha_draws import alpha_under_draws
    from agreekit.measures.bootstrap import percentile_ci, resample_counts
    rng = np.random.default_rng(2026)
    big, _ = _simulated_counts(rng, 200_000)
    truth_alpha = alpha_under_draws(big, np.ones((1, len(big))))[0]
    truth_ac1 = mr.gwet_ac(mr.drawn_terms(mr.item_terms(big)))[0]
    covered = np.zeros(2)
    for simulation in range(400):
        counts, _ = _simulated_counts(rng, 150)
        draws = resample_counts(150, 400, seed=simulation)
        intervals = [percentile_ci(alpha_under_draws(counts, draws)),
                     percentile_ci(mr.gwet_ac(mr.drawn_terms(mr.item_terms(counts), draws)))]
        covered += [low <= truth <= high for (low, high), truth in zip(intervals, (truth_alpha, truth_ac1))]
    assert np.all(covered / 400 >= 0.93), covered / 400
    assert np.all(covered / 400 < 0.995), covered / 400  # intervals that cover always would be too wide


@CASES
@given(ratings(), st.integers(0, 2 ** 16))
def test_kappa_and_pi_from_margins_equal_those_of_the_drawn_tables(data, seed):
    from agreekit.measures.pair_tables import kappa_from_margins, pair_margins, scott_pi_from_margins
    codes, q = data
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(len(codes), np.full(len(codes), 1 / len(codes)), size=4).astype(float)
    weights = {"identity": np.eye(q), "quadratic": agreement_weights(np.arange(q), "quadratic")}
    margins = pair_margins(codes[:, 0], codes[:, 1], q, weights, draws)
    tables = weighted_tables(table_cells(codes[:, 0], codes[:, 1], q), q, draws)
    for name, w in weights.items():
        np.testing.assert_allclose(kappa_from_margins(margins, name, w), weighted_kappa(tables, w), atol=TOL)
    np.testing.assert_allclose(scott_pi_from_margins(margins), scott_pi(tables), atol=TOL)


@CASES
@given(ratings(), st.integers(0, 2 ** 16), st.sampled_from([1, 40, 1 << 21]))
def test_many_pair_margins_are_each_pairs_margins_in_any_batch_size(data, seed, max_cells):
    from agreekit.measures.pair_tables import many_pair_margins, pair_margins
    codes, q = data
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(len(codes), np.full(len(codes), 1 / len(codes)), size=3).astype(float)
    weights = {"identity": np.eye(q), "linear": agreement_weights(np.arange(q), "linear")}
    pairs = [(a, b) for a in range(codes.shape[1]) for b in range(a + 1, codes.shape[1])]
    for sorted_tables in (False, True):  # CPython's BLAS product, Pyodide's sorted sums of each pair's tables
        with mock.patch.object(runtime, "SORTED_PAIR_TABLES", sorted_tables):
            batched = list(many_pair_margins(codes, pairs, q, weights, draws, max_cells=max_cells))
        assert len(batched) == len(pairs)
        for (a, b), got in zip(pairs, batched):
            want = pair_margins(codes[:, a], codes[:, b], q, weights, draws)
            for name in ("n", "rows", "cols"):
                np.testing.assert_allclose(getattr(got, name), getattr(want, name), atol=TOL)
            for name in weights:
                np.testing.assert_allclose(got.agree[name], want.agree[name], atol=TOL)


@pytest.mark.parametrize("n_items, n_resamples, max_elements", [(7, 5, 3), (7, 5, 1000), (1, 2, None), (0, 3, None)])
def test_filled_resample_counts_are_the_resample_counts(n_items, n_resamples, max_elements):
    from agreekit.measures.bootstrap import fill_resample_counts, resample_counts
    out = np.full((n_resamples, n_items), -1.0)
    fill_resample_counts(out, 11, max_elements=max_elements)
    np.testing.assert_array_equal(out, resample_counts(n_items, n_resamples, 11))


@pytest.mark.parametrize("n_items, n_resamples, n_groups", [(7, 5, 3), (300, 40, 1), (1, 2, 1), (0, 3, 0), (9, 0, 4)])
@pytest.mark.parametrize("ranked", [False, True])
def test_grouped_resample_counts_are_the_resample_counts_summed_per_group(n_items, n_resamples, n_groups, ranked):
    """Exact: the same draws, each group's items' counts added (here and from a comparison's count source),
    the items drawn in the given order or in that of ``ranks``."""
    from agreekit.measures.bootstrap import drawing_counts, grouped_resample_counts, resample_counts
    from agreekit.measures.paired_counts import PairedCounts
    groups = np.random.default_rng(n_items).integers(0, max(n_groups, 1), n_items)
    items = [f"i{k}" for k in range(n_items)]
    ranks = np.random.default_rng(n_items + 1).permutation(n_items).astype(np.intp) if ranked else None
    want = np.zeros((n_resamples, n_groups))
    for source in (None, PairedCounts()):
        if source is None:
            counts = resample_counts(n_items, n_resamples, 5, ranks=ranks)
            got = grouped_resample_counts(groups, n_groups, n_resamples, 5, ranks=ranks, items=items)
        else:
            with drawing_counts(source):
                counts = resample_counts(n_items, n_resamples, 5, ranks=ranks, items=items)
            with drawing_counts(PairedCounts()):
                got = grouped_resample_counts(groups, n_groups, n_resamples, 5, ranks=ranks, items=items)
        for g in range(n_groups):
            want[:, g] = counts[:, groups == g].sum(axis=1)
        np.testing.assert_array_equal(got, want)
