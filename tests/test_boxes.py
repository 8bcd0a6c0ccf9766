"""Box report: Potato's reference cases, deliberate differences, properties, published figures."""
import itertools
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import agreekit
from agreekit import matching
from agreekit.geometry import boxes as geometry
from agreekit.rows import InputError
from agreekit.simulate import centred_corpus, to_csv
from reference_keys import SUMMARY_KEYS, dotted

REFERENCE = Path(__file__).resolve().parent / "fixtures" / "potato"
ROOT = Path(__file__).resolve().parents[1]


def _cases(name):
    path = REFERENCE / name
    if not path.exists():
        return []
    return json.loads(path.read_text())["cases"]


BOX_CASES = _cases("boxes.json")
needs_reference = pytest.mark.skipif(not BOX_CASES, reason="tests/fixtures/potato/boxes.json not present")

def run_case(case, match, fmt="dicts"):
    params = case["params"]
    rows = case["input"]["rows"]
    if fmt == "csv":
        rows = to_csv([{k: ("" if v is None else v) for k, v in r.items()} for r in rows])
    return agreekit.boxes(rows, threshold=params["threshold"], distance=params["distance"],
                          match=match, bootstrap=0).to_dict()


def assert_summary(case, report, keys=SUMMARY_KEYS):
    for ref_key, our_key in keys.items():
        expected = case["summary"][ref_key]
        got = dotted(report, our_key)
        if expected is None:
            assert got is None, (case["id"], ref_key, got)
        else:
            assert got is not None, (case["id"], ref_key)
            assert got == pytest.approx(expected, abs=1e-9, rel=1e-9), (case["id"], ref_key)


@needs_reference
@pytest.mark.parametrize("case", BOX_CASES, ids=[c["id"] for c in BOX_CASES])
def test_potato_mode_reproduces_reference(case):
    assert_summary(case, run_case(case, "potato"))


@needs_reference
@pytest.mark.parametrize("case", BOX_CASES, ids=[c["id"] for c in BOX_CASES])
def test_csv_text_gives_the_same_report_as_dicts(case):
    # Null labels become "" in CSV, which only potato mode tells apart from None.
    # Warnings cite lines, which count the header in text and not in a list of dicts.
    text, dicts = run_case(case, "optimal", "csv"), run_case(case, "optimal", "dicts")
    assert len(text.pop("warnings")) == len(dicts.pop("warnings"))
    assert text == dicts


def _potato_pairs(case):
    """(item, a, b) -> sorted matches from the reference's per-item records."""
    out = {}
    for item in case["per_item"]:
        for pair in item["pairs"]:
            out[(item["item"], pair["a"], pair["b"])] = sorted((m[0], m[1]) for m in pair["matches"])
    return out


@needs_reference
@pytest.mark.parametrize("case", BOX_CASES, ids=[c["id"] for c in BOX_CASES])
def test_optimal_mode_differs_only_where_matching_differs(case):
    optimal, potato = run_case(case, "optimal"), run_case(case, "potato")
    if optimal["n_matched_pairs"] == potato["n_matched_pairs"] and \
            optimal["mean_matched_iou"] == pytest.approx(potato["mean_matched_iou"], abs=1e-12):
        keys = {k: v for k, v in SUMMARY_KEYS.items() if not k.endswith("_alpha")}
        assert_summary(case, optimal, keys)
    else:
        # The deliberate difference: sub-threshold pairings never displace a valid match,
        # so the optimal mode finds strictly more matches.
        assert optimal["n_matched_pairs"] > potato["n_matched_pairs"]
        assert optimal["detection_f1"] > potato["detection_f1"]


@needs_reference
def test_subthreshold_assignment_case_gains_matches_in_optimal_mode():
    case = next(c for c in BOX_CASES if c["id"].startswith("box_21"))
    optimal = run_case(case, "optimal")
    assert case["summary"]["n_matched_pairs"] < optimal["n_matched_pairs"]
    # Every matched pair of the optimal mode clears the threshold.
    assert optimal["mean_matched_iou"] >= case["params"]["threshold"]


MATCH_CASES = [c for c in _cases("matching.json") if c["kind"] == "match_boxes"]


def _box_matching_inputs(case):
    inp = case["input"]
    return (np.array(inp["boxes_a"], float).reshape(-1, 4), np.array(inp["boxes_b"], float).reshape(-1, 4),
            inp["threshold"])


@pytest.mark.skipif(not MATCH_CASES, reason="tests/fixtures/potato/matching.json not present")
@pytest.mark.parametrize("case", MATCH_CASES, ids=[c["id"] for c in MATCH_CASES])
def test_matching_reference(case):
    a, b, threshold = _box_matching_inputs(case)
    sim = geometry.iou_matrix(a, b)
    if case.get("iou_matrix") is not None:
        assert sim == pytest.approx(np.array(case["iou_matrix"], float).reshape(sim.shape), abs=1e-12)
    rows, cols = matching.match(sim, threshold, "potato")
    expected = sorted((m[0], m[1]) for m in case["potato"]["matches"])
    if not case.get("tie_ambiguous"):
        assert sorted(zip(rows.tolist(), cols.tolist())) == expected
    o_rows, o_cols = matching.match(sim, threshold, "optimal")
    assert len(o_rows) >= len(expected)
    assert len(o_rows) == _max_matching_size(sim >= threshold)
    if case.get("differs_if_thresholded_before_assignment"):
        assert len(o_rows) > len(expected)


def _max_matching_size(allowed):
    n, m = allowed.shape
    best = 0
    for perm in itertools.permutations(range(m), min(n, m)) if n <= m else \
            itertools.permutations(range(n), min(n, m)):
        pairs = zip(range(n), perm) if n <= m else zip(perm, range(m))
        best = max(best, sum(bool(allowed[i, j]) for i, j in pairs))
    return best


@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 10_000), st.floats(0.05, 0.9))
@settings(max_examples=150, deadline=None)
def test_optimal_matching_is_maximum_then_heaviest(n, m, seed, threshold):
    rng = np.random.default_rng(seed)
    sim = rng.uniform(0, 1, (n, m)) * (rng.uniform(0, 1, (n, m)) < 0.7)
    rows, cols = matching.match(sim, threshold, "optimal")
    assert len(set(rows)) == len(rows) and len(set(cols)) == len(cols)
    assert np.all(np.diff(rows) > 0)  # ordered by row
    assert np.all(sim[rows, cols] >= threshold)
    # Brute force: the largest count, then the largest total among those.
    best = (0, 0.0)
    for k in range(min(n, m), 0, -1):
        for ri in itertools.combinations(range(n), k):
            for ci in itertools.permutations(range(m), k):
                vals = sim[list(ri), list(ci)]
                if np.all(vals >= threshold):
                    best = max(best, (k, float(vals.sum())))
        if best[0]:
            break
    assert len(rows) == best[0]
    assert float(sim[rows, cols].sum()) == pytest.approx(best[1], abs=1e-9)


# --- Krippendorff's α ---------------------------------------------------------------------

NAN = float("nan")
KRIPP_3x15 = [[NAN, NAN, NAN, NAN, NAN, 3, 4, 1, 2, 1, 1, 3, 3, NAN, 3],
              [1, NAN, 2, 1, 3, 3, 4, 3, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
              [NAN, NAN, 2, 1, 3, 4, 4, NAN, 2, 1, 1, 3, 3, NAN, 4]]
KRIPP_4x12 = [[1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
              [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
              [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
              [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN]]


def test_alpha_published_values():
    assert agreekit.krippendorff_alpha(KRIPP_3x15, "nominal") == pytest.approx(0.691358, abs=5e-7)
    assert agreekit.krippendorff_alpha(KRIPP_3x15, "interval") == pytest.approx(0.810845, abs=5e-7)
    assert agreekit.krippendorff_alpha(KRIPP_4x12, "ordinal") == pytest.approx(0.815, abs=5e-4)
    assert agreekit.krippendorff_alpha(KRIPP_4x12, "ratio") == pytest.approx(0.797, abs=5e-4)
    strings = [[None if v != v else "abcde"[int(v) - 1] for v in row] for row in KRIPP_4x12]
    assert agreekit.krippendorff_alpha(strings, "nominal") == pytest.approx(0.743, abs=5e-4)


def slow_nominal_alpha(units):
    """Textbook α by enumerating ordered pairs of values within units and across all values."""
    pairable = [u for u in units if len(u) >= 2]
    values = [v for u in pairable for v in u]
    n = len(values)
    if n == 0:
        return NAN
    d_o = sum(sum(1 for i, j in itertools.permutations(range(len(u)), 2) if u[i] != u[j]) / (len(u) - 1)
              for u in pairable) / n
    d_e = sum(1 for i, j in itertools.permutations(range(n), 2) if values[i] != values[j]) / (n * (n - 1))
    return NAN if d_e == 0 else 1 - d_o / d_e


@given(st.lists(st.lists(st.sampled_from("abc"), min_size=0, max_size=4), min_size=1, max_size=8))
@settings(max_examples=200, deadline=None)
def test_alpha_matches_slow_definition(units):
    from agreekit.measures.alpha import alpha_from_coincidence, coincidence, value_counts
    counts, _ = value_counts(units)
    fast = alpha_from_coincidence(coincidence(counts)) if counts.shape[1] else NAN
    slow = slow_nominal_alpha(units)
    if math.isnan(slow):
        assert math.isnan(fast)
    else:
        assert fast == pytest.approx(slow, abs=1e-12)


# --- σ, KS and the baseline against brute force -------------------------------------------

def random_rows(seed, n_items=8, annotators=("a", "b", "c"), max_boxes=3):
    """Items with up to ``max_boxes`` true objects; each annotator finds each with
    probability 0.8 and draws it with jitter, sometimes adds a stray box, and
    says "nothing here" when it drew nothing."""
    rng = random.Random(seed)
    rows = []
    for i in range(n_items):
        truth = [(rng.uniform(0, 0.6), rng.uniform(0, 0.6), rng.uniform(0.05, 0.4), rng.uniform(0.05, 0.4))
                 for _ in range(rng.randint(0, max_boxes))]
        for ann in annotators:
            drawn = [tuple(v + rng.gauss(0, 0.02) for v in box) for box in truth if rng.random() < 0.8]
            if rng.random() < 0.2:
                drawn.append((rng.uniform(0, 0.6), rng.uniform(0, 0.6), rng.uniform(0.05, 0.4),
                              rng.uniform(0.05, 0.4)))
            if not drawn:
                rows.append({"item": f"i{i}", "annotator": ann, "x": None, "y": None, "w": None, "h": None,
                             "label": None})
            for x, y, w, h in drawn:
                rows.append({"item": f"i{i}", "annotator": ann, "x": x, "y": y, "w": w, "h": h,
                             "label": rng.choice("pq")})
    return rows


def brute_force(rows, threshold=0.5, distance="giou"):
    """σ and KS straight from the definitions, with explicit lists."""
    items = {}
    for r in rows:
        box = None if r["x"] is None else [r["x"], r["y"], r["w"], r["h"]]
        items.setdefault(r["item"], {}).setdefault(r["annotator"], [])
        if box is not None:
            items[r["item"]][r["annotator"]].append(box)
    items = {k: v for k, v in items.items() if len(v) >= 2}
    within, pool = [], []
    for item, by in items.items():
        for a, b in itertools.combinations(sorted(by), 2):
            A, B = np.array(by[a]).reshape(-1, 4), np.array(by[b]).reshape(-1, 4)
            rows_, cols_ = matching.match(geometry.iou_matrix(A, B), threshold, "optimal")
            within += [float(geometry.paired_distance(A[i:i + 1], B[j:j + 1], distance)[0])
                       for i, j in zip(rows_, cols_)]
        pool += [(item, box) for boxes in by.values() for box in boxes]
    between = [float(geometry.paired_distance(np.array([p[1]]), np.array([q[1]]), distance)[0])
               for p, q in itertools.combinations(pool, 2) if p[0] != q[0]]
    return within, between


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("distance", ["giou", "iou", "centroid"])
def test_sigma_and_ks_match_brute_force(seed, distance):
    rows = random_rows(seed)
    within, between = brute_force(rows, distance=distance)
    report = agreekit.boxes(rows, distance=distance, bootstrap=0)
    loc = report.localization
    assert loc.n_within == len(within) and loc.n_between == len(between)
    assert loc.mean_between == pytest.approx(np.mean(between), rel=1e-12)
    assert loc.sigma.value == pytest.approx(1 - np.mean(within) / np.mean(between), rel=1e-12, abs=1e-12)
    assert loc.ks.value == pytest.approx(stats.ks_2samp(within, between).statistic, abs=1e-12)


def test_ks_counts_ties_correctly():
    # Identical boxes everywhere: every distance is 0 in both samples, so D = 0
    # (Potato's walk reports 1.0 here).
    rows = [{"item": f"i{i}", "annotator": a, "x": 0.1, "y": 0.1, "w": 0.5, "h": 0.5, "label": "x"}
            for i in range(4) for a in "ab"]
    report = agreekit.boxes(rows, bootstrap=0)
    assert report.localization.ks.value == 0.0
    assert report.localization.sigma.value is not None or report.localization.sigma.reason


def test_sampled_baseline_agrees_with_exact_within_its_standard_error():
    rows = centred_corpus(40, seed=3)
    exact = agreekit.boxes(rows, bootstrap=0).localization
    sampled = agreekit.boxes(rows, bootstrap=0, pair_budget=100).localization
    assert exact.between_exact and not sampled.between_exact
    assert sampled.n_between > 0 and sampled.between_se > 0
    assert abs(sampled.mean_between - exact.mean_between) < 4 * sampled.between_se
    report = agreekit.boxes(rows, bootstrap=0, pair_budget=100)
    assert any("sample" in w for w in report.warnings)


# --- bootstrap ------------------------------------------------------------------------------

def test_bootstrap_reweighting_equals_explicit_resample():
    """One resample's σ from weights equals σ over explicitly copied items,
    with pairs of two copies of one item kept out of the baseline."""
    from agreekit.measures import bootstrap as boot
    rows = random_rows(11, n_items=6)
    within_by_item, pool = {}, []
    for item in sorted({r["item"] for r in rows}):
        sub = [r for r in rows if r["item"] == item]
        w, _ = brute_force(sub + random_rows(99, n_items=0))  # within only
        within_by_item[item] = w
        pool += [(item, [r["x"], r["y"], r["w"], r["h"]]) for r in sub if r["x"] is not None]
    report = agreekit.boxes(rows, bootstrap=0)
    item_order = report.to_dict()["items"]
    ids = sorted(within_by_item)
    counts = boot.resample_counts(len(ids), 1, seed=5)[0]
    within = [d for item, c in zip(ids, counts) for _ in range(int(c)) for d in within_by_item[item]]
    copies = [(item, k, box) for item, c in zip(ids, counts) for k in range(int(c))
              for (it, box) in pool if it == item]
    between = [float(geometry.paired_distance(np.array([p[2]]), np.array([q[2]]))[0])
               for p, q in itertools.combinations(copies, 2) if p[0] != q[0]]
    expected = 1 - np.mean(within) / np.mean(between)
    # The same resample through the report's machinery.
    from agreekit.kinds.boxes.compare import box_kind
    from agreekit.kinds.boxes.rows import box_objects, parse_boxes
    from agreekit.measures.chance import between_baseline
    objects, boxes_, _ = box_objects(parse_boxes(rows)[0])
    order = [objects.item_ids.index(i) for i in ids]
    c = np.zeros((1, len(ids)))
    c[0, order] = counts
    kind = box_kind(boxes_, "giou")
    between_info = between_baseline(objects, kind, np.zeros(0))
    per_item_sum = np.array([sum(within_by_item[i]) for i in objects.item_ids])
    per_item_n = np.array([len(within_by_item[i]) for i in objects.item_ids], float)
    b_sum = boot.weighted_pair_sums(c, between_info["item_sums"])[0]
    b_n = boot.weighted_pair_sums(c, between_info["item_counts"])[0]
    got = 1 - (c[0] @ per_item_sum / (c[0] @ per_item_n)) / (b_sum / b_n)
    assert got == pytest.approx(expected, rel=1e-10)
    assert item_order  # the report lists items


def test_bootstrap_interval_brackets_sigma_and_is_reproducible():
    rows = centred_corpus(30, seed=4, annotators=("careful_a", "careful_b"))
    a = agreekit.boxes(rows, bootstrap=300, seed=1)
    b = agreekit.boxes(rows, bootstrap=300, seed=1)
    c = agreekit.boxes(rows, bootstrap=300, seed=2)
    low, high = a.localization.sigma.ci
    assert low < a.localization.sigma.value < high
    assert a.localization.sigma.ci == b.localization.sigma.ci
    assert a.localization.sigma.ci != c.localization.sigma.ci
    assert a.to_dict()["settings"]["bootstrap"] == 300


# --- properties -------------------------------------------------------------------------------

def _core(report):
    d = report.to_dict()
    return {k: d[k] for k in ("mean_agreement", "mean_matched_iou", "detection_f1", "mean_object_count_diff")} | {
        "sigma": d["localization"]["sigma"]["value"], "ks": d["localization"]["ks"]["value"],
        "det": d["detection"]["value"], "cls": d["classification"]["value"]}


@pytest.mark.parametrize("seed", range(4))
def test_invariant_to_renaming_and_reordering(seed):
    rows = random_rows(seed, n_items=7)
    base = _core(agreekit.boxes(rows, bootstrap=0))
    rng = random.Random(seed)
    shuffled = rows[:]
    rng.shuffle(shuffled)
    # Renaming that keeps the sorted order of annotators (Potato's clusters depend on it).
    renamed = [{**r, "item": "img-" + r["item"][::-1], "annotator": "z" + r["annotator"]} for r in shuffled]
    other = _core(agreekit.boxes(renamed, bootstrap=0))
    for key in base:
        assert other[key] == pytest.approx(base[key], abs=1e-12, nan_ok=True), key


@pytest.mark.parametrize("distance", ["giou", "iou"])
def test_invariant_to_scaling_coordinates(distance):
    rows = random_rows(3, n_items=6)
    scaled = [{**r, **({k: r[k] * 640 for k in "xywh"} if r["x"] is not None else {})} for r in rows]
    a = _core(agreekit.boxes(rows, distance=distance, bootstrap=0))
    b = _core(agreekit.boxes(scaled, distance=distance, bootstrap=0))
    for key in a:
        assert b[key] == pytest.approx(a[key], abs=1e-9, nan_ok=True), key


def test_identical_annotators_give_sigma_one():
    rows = [r for r in random_rows(5, annotators=("a",)) if r["x"] is not None]
    twin = [{**r, "annotator": "b"} for r in rows]
    report = agreekit.boxes(rows + twin, bootstrap=0)
    assert report.localization.sigma.value == pytest.approx(1.0, abs=1e-12)
    assert report.detection_f1 == 1.0


def test_negative_sigma_is_not_clamped():
    rows = centred_corpus(50, seed=7, annotators=("careful_a", "fixed"))
    assert agreekit.boxes(rows, bootstrap=0).localization.sigma.value < 0


# --- published figures -------------------------------------------------------------------

def test_ten_percent_shift_keeps_iou_near_068():
    iou = geometry.iou_matrix([[0, 0, 1, 1]], [[0.1, 0.1, 1, 1]])[0, 0]
    assert iou == pytest.approx(0.81 / 1.19, rel=1e-12)
    assert round(iou, 2) == 0.68


def test_centred_object_simulation():
    careful, fixed = [], []
    for seed in range(5):
        careful.append(agreekit.boxes(centred_corpus(50, seed, ("careful_a", "careful_b")), bootstrap=0))
        fixed.append(agreekit.boxes(centred_corpus(50, seed, ("careful_a", "fixed")), bootstrap=0))
    assert np.mean([r.mean_matched_iou for r in careful]) == pytest.approx(0.90, abs=0.02)
    assert 0.52 <= np.mean([r.localization.sigma.value for r in careful]) <= 0.61
    assert np.mean([r.mean_matched_iou for r in fixed]) == pytest.approx(0.83, abs=0.02)
    assert all(r.localization.sigma.value < 0 for r in fixed)


# --- input ------------------------------------------------------------------------------------

GOOD = "item,annotator,x,y,w,h,label\nimg1,ann1,0,0,10,10,cat\nimg1,ann2,1,1,10,10,cat\n"


@pytest.mark.parametrize("text, line, column", [
    ("item,annotator,x,y,w,h,label\nimg1,ann1,0,0,ten,10,cat\nimg1,ann2,1,1,10,10,cat\n", 2, "w"),
    ("item,annotator,x,y,w,h,label\nimg1,ann1,0,0,10,10,cat\nimg1,ann2,1,nan,10,10,cat\n", 3, "y"),
    ("item,annotator,x,y,w,h,label\nimg1,ann1,0,0,10,inf,cat\nimg1,ann2,1,1,10,10,cat\n", 2, "h"),
    ("item,annotator,x,y,w,h,label\n,ann1,0,0,10,10,cat\nimg1,ann2,1,1,10,10,cat\n", 2, "item"),
    ("item,annotator,x,y,w,h,label\nimg1,,0,0,10,10,cat\nimg1,ann2,1,1,10,10,cat\n", 2, "annotator"),
    ("item,annotator,x,y,w,h,label\nimg1,ann1,0,0,10,10,cat\nimg1,ann2,1,1,10,cat\n", 3, None),
    ("item,annotator,x,y,w,h,label\nimg1,ann1,0,0,,10,cat\nimg1,ann2,1,1,10,10,cat\n", 2, "w"),
])
def test_bad_input_names_line_and_column(text, line, column):
    with pytest.raises(InputError) as error:
        agreekit.boxes(text)
    assert error.value.line == line
    assert error.value.column == column
    assert f"line {line}" in str(error.value)


def test_formats_synonyms_corners_tsv_and_headerless_agree():
    base = _core(agreekit.boxes(GOOD, bootstrap=0))
    corners = "image,rater,x1,y1,x2,y2,class\nimg1,ann1,0,0,10,10,cat\nimg1,ann2,1,1,11,11,cat\n"
    tsv = GOOD.replace(",", "\t")
    headerless = GOOD.split("\n", 1)[1]
    for text in (corners, tsv, headerless):
        other = _core(agreekit.boxes(text, bootstrap=0))
        for key in base:
            assert other[key] == pytest.approx(base[key], nan_ok=True)


def test_saw_nothing_differs_from_never_saw():
    saw_nothing = GOOD + "img1,ann3,,,,,\n"
    report = agreekit.boxes(saw_nothing, bootstrap=0)
    assert report.n_annotators == 3
    assert report.detection_f1 == pytest.approx((1 + 0 + 0) / 3)
    never_saw = agreekit.boxes(GOOD, bootstrap=0)
    assert never_saw.detection_f1 == 1.0


def test_suspicious_input_is_kept_and_warned():
    text = ("item,annotator,x,y,w,h,label\nimg1,a,0,0,10,10,cat\nimg1,a,0,0,10,10,cat\nimg1,b,0,0,0,10,cat\n"
            "img2,a,0,0,5,5,cat\n")
    report = agreekit.boxes(text, bootstrap=0)
    warnings = " ".join(report.warnings)
    assert "zero or negative" in warnings and "line" in warnings
    assert "duplicate" in warnings
    assert "only one annotator" in warnings and "img2" in warnings
    assert report.n_boxes == 3


def test_report_is_strict_json_with_reasons_for_undefined():
    report = agreekit.boxes("item,annotator,x,y,w,h,label\nimg1,a,0,0,1,1,x\nimg1,b,0,0,1,1,x\n")
    text = report.to_json()
    data = json.loads(text)
    for key in ("kind", "settings", "n_items", "n_annotators", "n_boxes", "detection", "classification",
                "localization", "mean_matched_iou", "detection_f1", "mean_agreement", "mean_object_count_diff",
                "pairs", "annotators", "labels", "items", "warnings"):
        assert key in data
    assert data["localization"]["sigma"]["value"] is None
    assert "between" in data["localization"]["sigma"]["reason"]


# --- CLI --------------------------------------------------------------------------------------

def _cli(*args, stdin=None):
    env = {"PYTHONPATH": str(ROOT / "pycore")}
    return subprocess.run([sys.executable, "-m", "agreekit", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env=env)


def test_cli_json_equals_api():
    text = to_csv(centred_corpus(20, seed=2))
    result = _cli("boxes", "-", "--json", "--bootstrap", "50", stdin=text)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == agreekit.boxes(text, bootstrap=50).to_dict()


def test_cli_bad_input_exits_2_with_location():
    result = _cli("boxes", "-", stdin="item,annotator,x,y,w,h,label\nimg1,a,0,zero,1,1,x\n")
    assert result.returncode == 2
    assert "line 2" in result.stderr and "'y'" in result.stderr


def test_between_ecdf_covers_the_whole_curve_and_is_exact_at_within_values():
    rows = random_rows(2, n_items=8)
    within, between = brute_force(rows)
    curve = agreekit.boxes(rows, bootstrap=0).to_dict()["localization"]["between_ecdf"]
    x, y = np.array(curve["x"]), np.array(curve["y"])
    assert np.all(np.diff(x) >= 0) and np.all(np.diff(y) >= 0)
    assert x[-1] == 1.0 and y[-1] == 1.0
    between = np.array(between)
    for w in within:
        k = np.flatnonzero(x == w)
        assert k.size and y[k].max() == pytest.approx(np.mean(between <= w), abs=1e-12)
