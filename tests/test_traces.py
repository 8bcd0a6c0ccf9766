"""Per-step agreement on agent traces (agreekit.kinds.traces)."""
import itertools
import math

import numpy as np
import pytest

from agreekit.measures import bootstrap as boot
from agreekit.rows import InputError
from agreekit.kinds.traces.report import traces

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", and the
# fast-krippendorff doctests (../shared/docs/anchors.md §7). None = missing.
THREE_CODERS = [
    [None, None, None, None, None, 3, 4, 1, 2, 1, 1, 3, 3, None, 3],
    [1, None, 2, 1, 3, 3, 4, 3, None, None, None, None, None, None, None],
    [None, None, 2, 1, 3, 4, 4, None, 2, 1, 1, 3, 3, None, 4],
]
FOUR_CODERS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def rows_from_matrix(matrix, steps_per_trace=4, label=str):
    """Coders × units matrix → trace rows; units are laid out as steps of consecutive traces."""
    rows = []
    for coder, values in enumerate(matrix):
        for unit, value in enumerate(values):
            if value is not None:
                rows.append({"trace": f"t{unit // steps_per_trace}", "step": unit % steps_per_trace + 1,
                             "annotator": f"coder{coder}", "label": label(value)})
    return rows


def random_rows(rng, n_traces=30, n_steps=6, n_annotators=4, n_labels=3, coverage=0.8, skew=None):
    """Random labels with agreement: each unit has a true label that annotators mostly copy."""
    rows = []
    for t in range(n_traces):
        for s in range(rng.integers(2, n_steps + 1)):
            truth = rng.integers(n_labels)
            for a in range(n_annotators):
                if rng.random() < coverage:
                    value = truth if rng.random() < 0.7 else rng.integers(n_labels)
                    rows.append({"trace": f"trace{t}", "step": s, "annotator": f"ann{a}", "label": f"L{value}"})
    return rows


def matrix_of(rows):
    """{(trace, step): {annotator: label}} from rows."""
    units = {}
    for r in rows:
        units.setdefault((r["trace"], r["step"]), {})[r["annotator"]] = r["label"]
    return units


def slow_alpha(units, metric="nominal"):
    """α straight from the pairable-value definition (Krippendorff 2011), no coincidence shortcuts."""
    values = [list(u.values()) for u in units.values() if len(u) >= 2]
    pooled = [v for vs in values for v in vs]
    n = len(pooled)
    cats = sorted(set(pooled))
    marg = {c: pooled.count(c) for c in cats}

    def d2(c, k):
        if metric == "nominal":
            return float(c != k)
        lo, hi = sorted((cats.index(c), cats.index(k)))
        return (sum(marg[cats[g]] for g in range(lo, hi + 1)) - (marg[c] + marg[k]) / 2) ** 2

    observed = sum(sum(d2(x, y) for i, x in enumerate(vs) for j, y in enumerate(vs) if i != j) / (len(vs) - 1)
                   for vs in values) / n
    expected = sum(d2(x, y) for i, x in enumerate(pooled) for j, y in enumerate(pooled) if i != j) / (n * (n - 1))
    return 1 - observed / expected


# ---------------------------------------------------------------- published values

def test_alpha_nominal_three_coders_published():
    report = traces(rows_from_matrix(THREE_CODERS), bootstrap=0)
    assert report.alpha.value == pytest.approx(0.691358, abs=5e-7)


def test_alpha_four_coders_nominal_and_ordinal_published():
    rows = rows_from_matrix(FOUR_CODERS)
    assert traces(rows, bootstrap=0).alpha.value == pytest.approx(0.743, abs=5e-4)
    assert traces(rows, level="ordinal", bootstrap=0).alpha.value == pytest.approx(0.815, abs=5e-4)
    # Text labels with an explicit order give the same ordinal α.
    names = {1: "awful", 2: "poor", 3: "fine", 4: "good", 5: "great"}
    named = rows_from_matrix(FOUR_CODERS, label=names.get)
    report = traces(named, level="ordinal", order=list(names.values()), bootstrap=0)
    assert report.alpha.value == pytest.approx(0.815, abs=5e-4)
    assert report.alpha.value == pytest.approx(traces(rows, level="ordinal", bootstrap=0).alpha.value, abs=1e-12)


# ---------------------------------------------------------------- independent references

@pytest.mark.parametrize("seed", range(4))
def test_alpha_matches_the_slow_definition(seed):
    rows = random_rows(np.random.default_rng(seed), n_labels=4)
    units = matrix_of(rows)
    assert traces(rows, bootstrap=0).alpha.value == pytest.approx(slow_alpha(units), abs=1e-12)
    numeric = [{**r, "label": int(r["label"][1:])} for r in rows]
    assert traces(numeric, level="ordinal", bootstrap=0).alpha.value == pytest.approx(
        slow_alpha(matrix_of(numeric), "ordinal"), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_cohen_kappa_matches_statsmodels(seed):
    statsmodels_ir = pytest.importorskip("statsmodels.stats.inter_rater")
    rows = random_rows(np.random.default_rng(10 + seed), coverage=0.7)
    report = traces(rows, bootstrap=0)
    units = matrix_of(rows)
    labels = sorted({r["label"] for r in rows})
    values = []
    for pair in report.cohen_kappa.pairs:
        table = np.zeros((len(labels), len(labels)))
        for unit in units.values():
            if pair["a"] in unit and pair["b"] in unit:
                table[labels.index(unit[pair["a"]]), labels.index(unit[pair["b"]])] += 1
        expected = statsmodels_ir.cohens_kappa(table).kappa
        assert pair["kappa"]["value"] == pytest.approx(expected, abs=1e-12)
        assert pair["n_units"] == table.sum()
        values.append(expected)
    assert len(values) == 6
    assert report.cohen_kappa.mean.value == pytest.approx(np.mean(values), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_fleiss_kappa_matches_statsmodels(seed):
    statsmodels_ir = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(20 + seed)
    rows = []
    for unit in range(40):
        truth = rng.integers(3)
        # Three of five annotators on every unit: Fleiss' κ needs only the count to be equal.
        for a in rng.choice(5, 3, replace=False):
            value = truth if rng.random() < 0.6 else rng.integers(3)
            rows.append({"trace": f"t{unit // 5}", "step": unit % 5, "annotator": f"a{a}", "label": f"c{value}"})
    report = traces(rows, bootstrap=0)
    table = np.zeros((40, 3))
    for r in rows:
        table[int(r["trace"][1:]) * 5 + r["step"], int(r["label"][1:])] += 1
    assert report.fleiss_kappa.value == pytest.approx(statsmodels_ir.fleiss_kappa(table, method="fleiss"), abs=1e-12)
    assert report.fleiss_kappa.annotators_per_unit == 3


def test_fleiss_kappa_is_null_with_a_reason_when_unit_sizes_differ():
    report = traces(rows_from_matrix(THREE_CODERS), bootstrap=0)
    assert report.fleiss_kappa.value is None
    assert "different numbers of annotators" in report.fleiss_kappa.reason


def test_percent_agreement_by_hand():
    rows = [
        # unit 1: a, a, b -> agreeing ordered pairs 2 of 6
        {"trace": "x", "step": 1, "annotator": "p", "label": "a"},
        {"trace": "x", "step": 1, "annotator": "q", "label": "a"},
        {"trace": "x", "step": 1, "annotator": "r", "label": "b"},
        # unit 2: all agree
        {"trace": "x", "step": 2, "annotator": "p", "label": "b"},
        {"trace": "x", "step": 2, "annotator": "q", "label": "b"},
        # unit 3: one label, not comparable
        {"trace": "y", "step": 1, "annotator": "p", "label": "a"},
    ]
    report = traces(rows, bootstrap=0)
    assert report.percent_agreement.value == pytest.approx((2 / 6 + 1) / 2, abs=1e-15)
    assert report.percent_agreement.n == 2
    assert report.units[0]["step"] == 1 and report.units[0]["percent_agreement"] == pytest.approx(1 / 3)
    assert report.n_disputed_units == 1
    assert any("single label" in w for w in report.warnings)


# ---------------------------------------------------------------- breakdowns

def test_per_step_and_per_trace_values_equal_the_report_on_that_subset():
    rows = random_rows(np.random.default_rng(3))
    report = traces(rows, bootstrap=0)
    for step in report.steps:
        subset = [r for r in rows if r["step"] == step["step"]]
        sub = traces(subset, bootstrap=0)
        assert step["alpha"]["value"] == pytest.approx(sub.alpha.value, abs=1e-12)
        assert step["percent_agreement"] == pytest.approx(sub.percent_agreement.value, abs=1e-12)
        assert step["n_units"] == sub.n_units
    assert [s["step"] for s in report.steps] == sorted({r["step"] for r in rows})
    for trace in report.traces:
        sub = traces([r for r in rows if r["trace"] == trace["trace"]], bootstrap=0)
        value = trace["alpha"]["value"]
        assert (value is None and sub.alpha.value is None) or value == pytest.approx(sub.alpha.value, abs=1e-12)
        assert trace["percent_agreement"] == pytest.approx(sub.percent_agreement.value, abs=1e-12)
    shown = [t["percent_agreement"] for t in report.traces]
    assert shown == sorted(shown)  # most disagreement first


def test_invariant_to_renaming_and_reordering():
    rng = np.random.default_rng(4)
    rows = random_rows(rng)
    report = traces(rows, bootstrap=0).to_dict()
    renamed = [{**r, "annotator": "z" + r["annotator"][::-1], "trace": r["trace"].upper()} for r in rows]
    shuffled = [renamed[i] for i in rng.permutation(len(renamed))]
    other = traces(shuffled, bootstrap=0).to_dict()
    for key in ("alpha", "percent_agreement", "fleiss_kappa"):
        assert other[key]["value"] == pytest.approx(report[key]["value"], abs=1e-12)
    assert other["cohen_kappa"]["mean"]["value"] == pytest.approx(report["cohen_kappa"]["mean"]["value"], abs=1e-12)


def test_perfect_agreement_and_undefined_alpha():
    same = [{"trace": f"t{t}", "step": s, "annotator": a, "label": ["ok", "bad"][(t + s) % 2]}
            for t in range(3) for s in range(3) for a in ("u", "v")]
    report = traces(same, bootstrap=0)
    assert report.alpha.value == 1.0 and report.percent_agreement.value == 1.0
    assert report.cohen_kappa.mean.value == 1.0 and report.fleiss_kappa.value == 1.0
    constant = [{**r, "label": "ok"} for r in same]
    report = traces(constant, bootstrap=0)
    assert report.alpha.value is None and "expected disagreement is 0" in report.alpha.reason
    kappa = report.cohen_kappa.pairs[0]["kappa"]
    assert kappa["value"] is None and "expected agreement is 1" in kappa["reason"]
    assert report.percent_agreement.value == 1.0


# ---------------------------------------------------------------- bootstrap over traces

def test_bootstrap_reweighting_equals_recomputing_on_resampled_traces():
    rows = random_rows(np.random.default_rng(5), n_traces=12)
    n_resamples, seed = 40, 99
    report = traces(rows, bootstrap=n_resamples, seed=seed)
    names = list(dict.fromkeys(r["trace"] for r in rows))
    draws = boot.resample_counts(len(names), n_resamples, seed)
    alphas, percents = [], []
    for draw in draws:
        # Each copy of a drawn trace is a separate trace of the resampled corpus.
        resampled = [{**r, "trace": f"{r['trace']}#{copy}"} for t, name in enumerate(names)
                     for copy in range(int(draw[t])) for r in rows if r["trace"] == name]
        sub = traces(resampled, bootstrap=0)
        alphas.append(np.nan if sub.alpha.value is None else sub.alpha.value)
        percents.append(sub.percent_agreement.value)
    assert report.alpha.ci == pytest.approx(boot.percentile_ci(alphas), abs=1e-12)
    assert report.percent_agreement.ci == pytest.approx(boot.percentile_ci(percents), abs=1e-12)
    assert report.alpha.ci[0] <= report.alpha.value <= report.alpha.ci[1]
    assert report.cohen_kappa.mean.ci[0] <= report.cohen_kappa.mean.value <= report.cohen_kappa.mean.ci[1]


def test_no_bootstrap_gives_no_intervals():
    report = traces(random_rows(np.random.default_rng(6)), bootstrap=0)
    assert report.alpha.ci is None and report.percent_agreement.ci is None


# ---------------------------------------------------------------- input errors

@pytest.mark.parametrize("text, line, column", [
    ("trace,step,annotator,label\nt,1,a,x\nt,1,a,y\n", 3, "annotator"),      # labelled twice
    ("trace,step,annotator,label\nt,1.5,a,x\n", 2, "step"),                   # not a whole number
    ("trace,step,annotator,label\nt,1,a,x\nt,2,,x\n", 3, "annotator"),        # missing annotator
    ("trace,step,annotator,label\nt,1,a,\n", 2, "label"),                     # missing label
])
def test_bad_rows_name_line_and_column(text, line, column):
    with pytest.raises(InputError) as error:
        traces(text, bootstrap=0)
    assert error.value.line == line and error.value.column == column


def test_ordinal_labels_must_be_numbers_or_ordered():
    text = "trace\tstep\tannotator\tlabel\nt\t1\ta\tgood\nt\t1\tb\tbad\n"
    with pytest.raises(InputError) as error:
        traces(text, level="ordinal", bootstrap=0)
    assert error.value.line == 2 and error.value.column == "label"
    with pytest.raises(InputError) as error:
        traces(text, level="ordinal", order=["bad", "ok"], bootstrap=0)
    assert error.value.line == 2
    report = traces(text, level="ordinal", order="bad, ok, good", bootstrap=0)
    assert report.categories == ["bad", "ok", "good"]


def test_synonym_headers_and_csv_text():
    text = "episode,turn,rater,score\ne1,1,r1,1\ne1,1,r2,1\ne1,2,r1,0\ne1,2,r2,1\n"
    report = traces(text, bootstrap=0)
    assert report.n_units == 2 and report.n_annotators == 2
    assert report.percent_agreement.value == pytest.approx(0.5)
    assert math.isclose(report.cohen_kappa.pairs[0]["percent_agreement"], 0.5)
    assert report.to_json()  # strict JSON
    assert list(itertools.chain(*[u["labels"].values() for u in report.units])) == ["0", "1"]


def test_cli_json_equals_api_and_bad_input_exits_2(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    rows = random_rows(np.random.default_rng(7), n_traces=8)
    path = tmp_path / "traces.csv"
    path.write_text("trace,step,annotator,label\n" + "".join(
        f"{r['trace']},{r['step']},{r['annotator']},{r['label']}\n" for r in rows))
    env = {"PYTHONPATH": str(root / "pycore"), "PATH": ""}
    out = subprocess.run([sys.executable, "-m", "agreekit", "traces", str(path), "--json", "--bootstrap", "50",
                          "--level", "nominal"], capture_output=True, text=True, env=env, cwd=root)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == traces(path.read_text(), bootstrap=50).to_dict()
    readable = subprocess.run([sys.executable, "-m", "agreekit", "traces", str(path), "--bootstrap", "0"],
                              capture_output=True, text=True, env=env, cwd=root)
    assert readable.returncode == 0 and "Krippendorff alpha" in readable.stdout
    bad = tmp_path / "bad.csv"
    bad.write_text("trace,step,annotator,label\nt,1,a,x\nt,one,b,x\n")
    out = subprocess.run([sys.executable, "-m", "agreekit", "traces", str(bad)], capture_output=True, text=True,
                         env=env, cwd=root)
    assert out.returncode == 2 and "line 3" in out.stderr and "step" in out.stderr


def test_kappa_uses_every_trace_and_every_pair():
    # Potato keeps only the last trace's label per step and the first two sorted annotators
    # (docs/potato-differences.md). Here the last trace agrees perfectly and the earlier ones
    # do not, and a third annotator disagrees: every pair and every trace must count.
    rows = []
    for t, (p, q) in enumerate([("ok", "bad"), ("bad", "ok"), ("ok", "ok")]):
        for step, (x, y) in enumerate([(p, q), (q, p), ("ok", "bad") if t < 2 else ("bad", "bad")]):
            rows += [{"trace": f"t{t}", "step": step, "annotator": "a", "label": x},
                     {"trace": f"t{t}", "step": step, "annotator": "b", "label": y},
                     {"trace": f"t{t}", "step": step, "annotator": "c", "label": "ok"}]
    report = traces(rows, bootstrap=0)
    assert [(p["a"], p["b"]) for p in report.cohen_kappa.pairs] == [("a", "b"), ("a", "c"), ("b", "c")]
    ab = report.cohen_kappa.pairs[0]
    assert ab["n_units"] == 9 and ab["kappa"]["value"] < 0  # a and b disagree on 6 of 9 units
    assert report.alpha.value is not None  # Potato's α is always undefined
    for step in report.steps:
        assert step["n_units"] == 3


def test_page_entry_point_with_progress_and_option_checks():
    import agreekit

    stages = []
    report = agreekit.report("traces", random_rows(np.random.default_rng(8)), bootstrap=10,
                             progress=lambda done, total, stage: stages.append((done, total, stage)))
    assert report.kind == "traces" and stages and stages[0][0] == 0
    with pytest.raises(InputError) as error:
        traces(random_rows(np.random.default_rng(8)), bootstrap=-1)
    assert error.value.column == "bootstrap"
    with pytest.raises(InputError) as error:
        traces(random_rows(np.random.default_rng(8)), level="interval")
    assert error.value.column == "level"


def test_kappa_docstring_examples():
    """The hand-checked values in agreekit.measures.kappa's docstrings."""
    import doctest

    from agreekit.measures import kappa

    result = doctest.testmod(kappa)
    assert result.attempted >= 5 and result.failed == 0
