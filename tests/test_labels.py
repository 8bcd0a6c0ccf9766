"""The labels kind end to end: published values, independent implementations at 1e-12 through the
report (krippendorff, scikit-learn, statsmodels, irrCAC, pingouin, NLTK), the two input layouts,
the errors, and invariance to row order."""
import random
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.errors import InputError
from same_report import assert_same

TOL = 1e-12
CASES = settings(max_examples=15, deadline=None, derandomize=True, database=None)

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": 4 coders × 12 units, "." missing.
CANONICAL = ["1 1 . 1", "2 2 3 2", "3 3 3 3", "3 3 3 3", "2 2 2 2", "1 2 3 4", "4 4 4 4", "1 1 2 1",
             "2 2 2 2", ". 5 5 5", ". . 1 1", ". 3 . ."]


def canonical_matrix(letters=False):
    def cell(v):
        return "" if v == "." else ("abcde"[int(v) - 1] if letters else v)
    header = "c1,c2,c3,c4\n" if letters else ""  # a first line of letters would be a header itself
    return header + "\n".join(",".join(cell(v) for v in row.split()) for row in CANONICAL) + "\n"


@pytest.mark.parametrize("level, letters, published", [("nominal", True, 0.743), ("ordinal", False, 0.815),
                                                       ("interval", False, 0.849), ("ratio", False, 0.797)])
def test_krippendorffs_published_values_from_a_reliability_matrix(level, letters, published):
    report = agreekit.labels(canonical_matrix(letters), level=level, bootstrap=0)
    assert report.input.layout == "matrix" and ("no header" in report.input.reading) != letters
    assert report.n_annotators == 4 and report.n_items_total == 12
    assert round(report.coefficients.alpha.value, 3) == published


def long_rows(codes, rename=str):
    return [{"item": f"i{i}", "annotator": f"r{g}", "label": rename(int(codes[i, g]))}
            for i in range(codes.shape[0]) for g in range(codes.shape[1]) if codes[i, g] >= 0]


@st.composite
def random_codes(draw, missing=True):
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    n, r, q = draw(st.integers(4, 30)), draw(st.integers(2, 5)), draw(st.integers(2, 5))
    codes = rng.integers(1, q + 1, size=(n, r))
    if missing:
        codes[rng.random((n, r)) < 0.2] = -1
        codes[(codes < 0).all(axis=1), 0] = 1
    codes[0] = np.arange(r) % q + 1
    codes[1, :2] = [1, q]
    return codes, q


@CASES
@given(random_codes(), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_alpha_is_krippendorffs_package_at_every_level(data, level):
    import krippendorff
    codes, _ = data
    report = agreekit.labels(long_rows(codes), level=level, bootstrap=0)
    expected = krippendorff.alpha(np.where(codes >= 0, codes, np.nan).T, level_of_measurement=level)
    assert report.coefficients.alpha.value == pytest.approx(expected, abs=TOL)


@CASES
@given(random_codes(), st.sampled_from(["ordinal", "interval"]))
def test_pairwise_kappas_are_sklearns(data, level):
    from sklearn.metrics import cohen_kappa_score
    codes, q = data
    report = agreekit.labels(long_rows(codes), level=level, bootstrap=0).to_dict()
    categories = sorted({int(v) for v in codes.ravel() if v >= 0})
    for pair in report["pairs"]:
        a, b = (int(pair[k][1:]) for k in ("a", "b"))
        both = (codes[:, a] >= 0) & (codes[:, b] >= 0)
        assert pair["n_items"] == both.sum()
        for key, weights in (("cohen_kappa", None), ("cohen_kappa_linear", "linear"),
                             ("cohen_kappa_quadratic", "quadratic")):
            if categories != list(range(categories[0], categories[-1] + 1)) and weights:
                continue  # sklearn weighs by category index, the report by value: equal only when evenly spaced
            expected = cohen_kappa_score(codes[both, a], codes[both, b], labels=categories, weights=weights)
            got = pair[key]["value"]
            assert (got is None and not np.isfinite(expected)) or got == pytest.approx(expected, abs=TOL)


@CASES
@given(random_codes())
def test_fleiss_is_statsmodels_on_the_complete_items_and_says_how_many_were_left_out(data):
    from statsmodels.stats.inter_rater import fleiss_kappa
    codes, q = data
    complete = (codes >= 0).all(axis=1)
    fleiss = agreekit.labels(long_rows(codes), bootstrap=0).coefficients.fleiss_kappa
    assert fleiss.n_items_left_out == int((~complete).sum())
    if complete.sum() == 0:
        assert fleiss.value is None and "no item" in fleiss.reason
        return
    table = np.stack([(codes[complete] == k).sum(axis=1) for k in range(1, q + 1)], axis=1)
    expected = fleiss_kappa(table, method="fleiss")
    assert (fleiss.value is None and not np.isfinite(expected)) or fleiss.value == pytest.approx(expected, abs=TOL)


@CASES
@given(random_codes(), st.sampled_from(["nominal", "ordinal"]))
def test_gwet_conger_and_brennan_prediger_are_irrcacs(data, level):
    pd = pytest.importorskip("pandas")
    raw = pytest.importorskip("irrCAC.raw")
    codes, q = data
    report = agreekit.labels(long_rows(codes), level=level, bootstrap=0).coefficients
    present = sorted({int(v) for v in codes.ravel() if v >= 0})
    frame = pd.DataFrame(np.where(codes >= 0, codes, np.nan).astype(float))
    cac = raw.CAC(frame, categories=present, digits=20)
    assert report.gwet_ac1.value == pytest.approx(cac.gwet()["est"]["coefficient_value"], abs=TOL)
    assert report.conger_kappa.value == pytest.approx(cac.conger()["est"]["coefficient_value"], abs=TOL)
    assert report.brennan_prediger.value == pytest.approx(cac.bp()["est"]["coefficient_value"], abs=TOL)
    if level == "ordinal":
        for weights in ("linear", "quadratic"):
            ac2 = raw.CAC(frame, weights=weights, categories=present, digits=20).gwet()["est"]["coefficient_value"]
            assert report[f"gwet_ac2_{weights}"].value == pytest.approx(ac2, abs=TOL)


@CASES
@given(st.integers(0, 2 ** 32 - 1))
def test_icc_is_pingouins_and_items_with_a_missing_rating_are_left_out(seed):
    pd = pytest.importorskip("pandas")
    pingouin = pytest.importorskip("pingouin")
    rng = np.random.default_rng(seed)
    y = np.round(rng.normal(size=(12, 1)) * 3 + rng.normal(size=(12, 3)), 2)
    rows = [{"item": f"i{i}", "annotator": f"r{j}", "value": float(y[i, j])} for i in range(12) for j in range(3)]
    rows.append({"item": "extra", "annotator": "r0", "value": 1.5})
    icc = agreekit.labels(rows, level="interval", bootstrap=0).coefficients
    frame = pd.DataFrame([(i, j, y[i, j]) for i in range(12) for j in range(3)], columns=["i", "r", "y"])
    table = pingouin.intraclass_corr(frame, "i", "r", "y").set_index("Type")
    assert icc.icc_2_1.value == pytest.approx(table.loc["ICC(A,1)", "ICC"], abs=TOL)
    assert icc.icc_3_1.value == pytest.approx(table.loc["ICC(C,1)", "ICC"], abs=TOL)
    assert icc.icc_2_1.f_ci == pytest.approx(list(table.loc["ICC(A,1)", "CI95"]), abs=0.005 + TOL)
    assert icc.icc_2_1.n_items_left_out == 1 and "not rated by all 3" in icc.icc_2_1.left_out


@CASES
@given(st.integers(0, 2 ** 32 - 1))
def test_set_level_alpha_is_nltks_with_masi_and_jaccard(seed):
    from nltk.metrics.agreement import AnnotationTask
    from agreekit.measures.set_distance import jaccard_distance, masi_distance
    rng = np.random.default_rng(seed)
    sets = {(i, c): frozenset(x for x in "abc" if rng.random() < 0.5) or frozenset("a")
            for i in range(10) for c in range(3)}
    rows = [{"item": f"i{i}", "annotator": f"c{c}", "label": x} for (i, c), s in sets.items() for x in sorted(s)]
    report = agreekit.labels(rows, level="set", bootstrap=0)
    data = [(c, str(i), s) for (i, c), s in sets.items()]
    for key, distance in (("alpha", masi_distance), ("alpha_jaccard", jaccard_distance)):
        expected = AnnotationTask(data, distance=distance).alpha()
        assert report.coefficients[key].value == pytest.approx(expected, abs=TOL)


def test_a_matrix_with_a_header_names_annotators_and_items_and_a_set_cell_splits():
    text = "unit,ann,bob,cy\nu1,x|y,x,\nu2,y,y,y\nu3,,,\n"
    report = agreekit.labels(text, level="set", bootstrap=0)
    assert report.input.layout == "matrix" and "named by column 'unit'" in report.input.reading
    assert [a["annotator"] for a in report.annotators] == ["ann", "bob", "cy"]
    assert report.categories == ["x", "y", "x|y"]
    assert any("without any rating" in w and "u3" in w for w in report.warnings)


@pytest.mark.parametrize("text, layout", [
    ("item,annotator,label\n1,a,x\n", "long"), ("coder1,coder2,coder3\n1,2,1\n2,2,\n", "matrix"),
    ("i1,a,x\ni1,b,y\n", "long"), ("1,2,1\n2,2,2\n", "matrix"), ("item,r1,r2\ni,1,2\n", "matrix"),
    ("doc,rater,rating\nd,a,3\n", "long"),
])
def test_the_layout_comes_from_the_first_lines_and_is_stated(text, layout):
    assert agreekit.labels(text, bootstrap=0).input.layout == layout


def test_ordinal_text_labels_need_an_order_and_the_error_lists_the_labels_found():
    rows = "item,annotator,label\n1,a,low\n1,b,high\n2,a,mid\n2,b,mid\n"
    with pytest.raises(InputError, match="the labels found: high, low, mid") as caught:
        agreekit.labels(rows, level="ordinal")
    assert caught.value.line == 2
    with pytest.raises(InputError, match=r"label\(s\) mid are not in the order"):
        agreekit.labels(rows, level="ordinal", order="low,high")
    report = agreekit.labels(rows, level="ordinal", order="low,mid,high", bootstrap=0)
    assert report.categories == ["low", "mid", "high"] and report.settings.order == ["low", "mid", "high"]


@pytest.mark.parametrize("text, level, line, column", [
    ("item,annotator,label\n1,a,x\n1,a,y\n", "nominal", 3, "label"),
    ("item,annotator,value\n1,a,3\n1,b,abc\n", "interval", 3, "label"),
    ("item,annotator,value\n1,a,3\n1,b,-2\n", "ratio", 3, "label"),
    ("item,annotator,label\n1,a,\n", "nominal", 2, "label"),
])
def test_bad_rows_are_input_errors_naming_the_line(text, level, line, column):
    with pytest.raises(InputError) as caught:
        agreekit.labels(text, level=level)
    assert caught.value.line == line and caught.value.column == column


def test_the_kappa_paradox_is_named_when_one_label_dominates():
    rows = [{"item": i, "annotator": a, "label": "no"} for i in range(40) for a in "ab"]
    rows[0]["label"] = rows[3]["label"] = "yes"  # two disagreements on "yes", no agreement on it
    report = agreekit.labels(rows, bootstrap=0)
    assert report.coefficients.percent_agreement.value == pytest.approx(38 / 40)
    assert "kappa paradox" in report.kappa_paradox and "'no'" in report.kappa_paradox
    balanced = [{"item": i, "annotator": a, "label": "yn"[i % 2]} for i in range(10) for a in "ab"]
    assert agreekit.labels(balanced, bootstrap=0).kappa_paradox is None


def test_the_report_does_not_depend_on_row_order():
    rng = np.random.default_rng(3)
    codes = rng.integers(1, 4, size=(15, 4))
    codes[rng.random(codes.shape) < 0.2] = -1
    rows = long_rows(codes)
    shuffled = rows[:]
    random.Random(1).shuffle(shuffled)
    first = agreekit.labels(rows, level="ordinal", bootstrap=50).to_dict()
    assert first == agreekit.labels(shuffled, level="ordinal", bootstrap=50).to_dict()
    assert first["coefficients"]["alpha"]["ci"] is not None


def test_the_coefficients_and_their_intervals_do_not_depend_on_names():
    """The resamples draw items in an order of their ratings, not of the items' or annotators' names
    (tests/test_invariance.py's rule); annotators renamed in reverse order."""
    rng = np.random.default_rng(5)
    codes = rng.integers(1, 4, size=(40, 3))
    codes[rng.random(codes.shape) < 0.2] = -1
    codes[(codes < 0).all(axis=1), 0] = 1
    rows = long_rows(codes)
    new_item = {f"i{i}": f"n{k:03d}" for i, k in enumerate(rng.permutation(len(codes)))}
    new_annotator = {f"r{g}": f"z{9 - g}" for g in range(codes.shape[1])}
    for level in ("nominal", "interval"):
        first = agreekit.labels(rows, level=level, bootstrap=50).to_dict()["coefficients"]
        assert first["alpha"]["ci"] is not None
        for renamed in ([{**row, "item": new_item[row["item"]]} for row in rows],
                        [{**row, "annotator": new_annotator[row["annotator"]]} for row in rows]):
            assert_same(first, agreekit.labels(renamed, level=level, bootstrap=50).to_dict()["coefficients"],
                        f"{level} coefficients")


def test_scott_pi_is_for_two_annotators_only_and_every_estimate_has_the_one_shape():
    codes = np.array([[1, 1, 2], [2, 2, 2], [1, 2, 1], [1, 1, 1]])
    report = agreekit.labels(long_rows(codes), bootstrap=20).to_dict()
    assert report["coefficients"]["scott_pi"]["value"] is None
    assert "two annotators" in report["coefficients"]["scott_pi"]["reason"]
    for value in report["coefficients"].values():
        assert {"value", "ci", "ci_level", "reason", "n"} <= set(value)
    two = agreekit.labels(long_rows(codes[:, :2]), bootstrap=0).to_dict()
    assert two["coefficients"]["scott_pi"]["value"] == two["pairs"][0]["scott_pi"]["value"]


def test_the_command_line_prints_the_coefficients_the_paradox_and_the_tables(tmp_path, capsys):
    from agreekit import cli
    rows = ["item,annotator,label"] + [f"{i},{a},no" for i in range(40) for a in "ab"]
    rows[1], rows[4] = "0,a,yes", "1,b,yes"
    path = tmp_path / "labels.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert cli.main(["labels", str(path), "--bootstrap", "50"]) == 0
    out = capsys.readouterr().out
    assert "Krippendorff's alpha" in out and "Gwet's AC1" in out and "kappa paradox" in out
    assert "Gwet's AC2" not in out  # not at the nominal level
    assert "annotator pairs:" in out and "most disputed items (2 in all):" in out
    assert cli.main(["labels", str(path), "--level", "interval"]) == 2
    assert "level interval needs a number" in capsys.readouterr().err


def test_many_distinct_values_need_no_table_per_pair_and_resample():
    """Ratings on a fine scale (1,500 distinct values): the pairs' κ come from margins, no confusion table
    is listed, and ordinal α past its resampling budget is exact without an interval, with a warning."""
    rng = np.random.default_rng(0)
    truth = rng.normal(size=500)
    rows = [{"item": i, "annotator": a, "value": round(float(truth[i] + rng.normal(0, 0.3)), 3)}
            for i in range(500) for a in "abc"]
    interval = agreekit.labels(rows, level="interval", bootstrap=30)
    assert len(interval.categories) > 1000
    assert interval.pairs[0]["confusion"] is None and interval.pairs[0]["cohen_kappa_quadratic"]["ci"] is not None
    assert interval.coefficients.icc_2_1.value > 0.8
    ordinal = agreekit.labels(rows, level="ordinal", bootstrap=30)
    assert ordinal.coefficients.alpha.value is not None and ordinal.coefficients.alpha.ci is None
    assert any("ordinal α has no interval" in w for w in ordinal.warnings)


def _same_estimate(estimate, values):
    """The report's ``estimate`` is ``values[0]`` with the percentile interval of ``values[1:]``, to 1e-12."""
    from agreekit.measures.bootstrap import percentile_ci
    estimate = SimpleNamespace(**estimate) if isinstance(estimate, dict) else estimate
    assert (estimate.value is None and not np.isfinite(values[0])) or \
        estimate.value == pytest.approx(values[0], abs=TOL)
    ci = percentile_ci(values[1:])
    assert (estimate.ci is None) == (ci is None)
    if ci is not None:
        assert estimate.ci == pytest.approx(ci, abs=TOL)


@CASES
@given(random_codes(), st.integers(0, 2 ** 16))
def test_the_coefficients_drawn_over_distinct_rows_are_those_of_the_items_own_draws(data, seed):
    """The report resamples the distinct rows of ratings (items with the same row counted together,
    ``kinds/labels/patterns.py``); α, AC1, Conger's κ, Fleiss' κ and every pair's κ and π under each
    resample equal those of the items' own resample counts (``resample_counts`` in the items' content order)."""
    from agreekit.kinds.labels.patterns import content_order, distinct_rows
    from agreekit.kinds.labels.rows import read_judgements
    from agreekit.kinds.labels.scale import build_ratings
    from agreekit.measures import multirater as mr
    from agreekit.measures.alpha_draws import alpha_under_draws
    from agreekit.measures.bootstrap import resample_counts
    from agreekit.measures.pair_tables import scott_pi, table_cells, weighted_kappa, weighted_tables
    codes, _ = data
    codes = np.vstack([codes, codes[::-1], codes[:3]])  # rows repeated: fewer distinct rows than items
    rows = long_rows(codes)
    report = agreekit.labels(rows, bootstrap=80, seed=seed)
    ratings = build_ratings(read_judgements(rows).judgements, "nominal")
    n, q = len(ratings.items), len(ratings.categories)
    draws = np.vstack([np.ones(n), resample_counts(n, 80, seed, ranks=content_order(*distinct_rows(ratings.codes)))])
    counts = np.stack([(ratings.codes == k).sum(axis=1) for k in range(q)], axis=1)
    coefficients = report.coefficients
    _same_estimate(coefficients.alpha, alpha_under_draws(counts, draws))
    terms = mr.drawn_terms(mr.item_terms(counts), draws)
    _same_estimate(coefficients.gwet_ac1, mr.gwet_ac(terms))
    _same_estimate(coefficients.conger_kappa, mr.conger_kappa(terms, mr.rater_classifications(ratings.codes, q, draws)))
    complete = (ratings.codes >= 0).all(axis=1)
    if complete.any():
        _same_estimate(coefficients.fleiss_kappa,
                       mr.fleiss_kappa(mr.drawn_terms(mr.item_terms(counts[complete]), draws[:, complete])))
    names = {name: g for g, name in enumerate(ratings.annotators)}
    for pair in report.pairs:
        a, b = names[pair["a"]], names[pair["b"]]
        tables = weighted_tables(table_cells(ratings.codes[:, a], ratings.codes[:, b], q), q, draws)
        assert pair["confusion"] == tables[0].astype(int).tolist()
        _same_estimate(pair["cohen_kappa"], weighted_kappa(tables))
        _same_estimate(pair["scott_pi"], scott_pi(tables))
