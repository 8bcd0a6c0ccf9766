"""Tests for agreekit.kinds.spans: parsing, F1, character-level α, the five-way table, Potato mode."""
import csv
import io
import itertools
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.measures.alpha import krippendorff_alpha
from agreekit.rows import InputError
from agreekit.kinds.spans.rows import Span
from agreekit.measures.span_characters import character_labels
from agreekit.measures.span_matching import (
    OUTCOMES,
    Track,
    five_way,
    maximum_matching,
    partial_graph,
    potato_partial_matches,
)
from agreekit.measures.span_outcomes import bootstrap_means, score_item

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = Path(__file__).resolve().parent / "fixtures" / "potato"
DOCS = ROOT / "docs" / "spans.md"
HEADER = "item,annotator,start,end,label"


def _csv(*lines):
    return "\n".join([HEADER, *lines])


def _to_csv(records, columns):
    """Fixture rows (dicts, None = empty) as CSV text, so they go through the project's parser."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        writer.writerow(["" if record.get(c) is None else record[c] for c in columns])
    return out.getvalue()


def _report(rows, **kw):
    kw.setdefault("bootstrap", 0)
    return agreekit.spans(rows, **kw).to_dict()


# --------------------------------------------------------------------------- reference cases

def _span_cases():
    path = REFERENCE / "spans.json"
    if not path.exists():
        return []
    return json.loads(path.read_text())["cases"]


CASES = _span_cases()
needs_reference = pytest.mark.skipif(not CASES, reason=f"reference fixtures absent: {REFERENCE / 'spans.json'}")


def _run_case(case, match):
    rows = _to_csv(case["input"]["rows"], ["item", "annotator", "start", "end", "label"])
    lengths = _to_csv([{"item": k, "length": v} for k, v in case["input"]["item_lengths"].items()],
                      ["item", "length"])
    return _report(rows, lengths=lengths, match=match)


def _close(got, expected, tol=1e-9):
    if expected is None:
        return got is None
    return got is not None and abs(got - expected) <= tol


def _case_features(case):
    """Which deliberate differences a reference case can exercise, read from its input alone."""
    rows = case["input"]["rows"]
    lengths = case["input"]["item_lengths"]
    spans = [r for r in rows if r["start"] is not None]
    keys = [(r["item"], r["annotator"], r["start"], r["end"], r["label"]) for r in spans]
    by_owner = {}
    for r in spans:
        by_owner.setdefault((r["item"], r["annotator"]), []).append(r)

    def shared(x, y):
        return min(x["end"], y["end"]) - max(x["start"], y["start"])

    def potato_agree(x, y):  # Potato's partial rule (docs/potato-differences.md)
        ov = shared(x, y)
        lx, ly = x["end"] - x["start"], y["end"] - y["start"]
        return x["label"] == y["label"] and ov > 0 and lx > 0 and ly > 0 and (2 * ov >= lx or 2 * ov >= ly)

    competing = False  # a span agreeing with two spans of one other annotator: first-fit may fall short
    for (item, owner), own in by_owner.items():
        for (other_item, other), theirs in by_owner.items():
            if other_item == item and other != owner:
                competing |= any(sum(potato_agree(x, y) for y in theirs) > 1 for x in own)
    return {
        "empty_annotator": any(r["start"] is None for r in rows),
        "duplicates": len(keys) != len(set(keys)),
        "zero_length_span": any(r["start"] == r["end"] for r in spans),
        "zero_length_item": any(lengths.get(r["item"], 1) == 0 for r in rows),
        "fractional_offset": any(float(r[k]) != int(r[k]) for r in spans for k in ("start", "end")),
        "competing_partial": competing,
        "own_overlap": any(shared(x, y) > 0 for own in by_owner.values()
                           for x, y in itertools.combinations(own, 2)),
    }


@needs_reference
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_potato_mode_reproduces_potato(case):
    if _case_features(case)["fractional_offset"]:
        # Deliberate difference: Potato truncates fractional offsets with int(); here they are an error.
        with pytest.raises(InputError) as error:
            _run_case(case, "potato")
        assert error.value.line is not None and error.value.column in ("start", "end")
        return
    report = _run_case(case, "potato")
    summary = case["summary"]
    assert _close(report["exact_f1"]["value"], summary["span_f1_exact"])
    assert _close(report["partial_f1"]["value"], summary["span_f1_partial"])
    assert _close(report["char_alpha"]["value"], summary["krippendorff_alpha_u"])
    assert report["n_items_scored"] == summary["n_items"]
    assert report["n_annotators"] == summary["n_annotators"]


@needs_reference
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_default_mode_against_potato(case):
    """Each measure equals Potato's unless a deliberate difference applies to the case; where one
    applies and its direction is known, the direction is asserted (the named cases below pin values)."""
    features = _case_features(case)
    if features["fractional_offset"]:
        pytest.skip("fractional offsets are an input error (asserted in the potato-mode test)")
    report = _run_case(case, "optimal")
    summary = case["summary"]
    same_items = not (features["empty_annotator"] or features["zero_length_item"])
    if same_items and not features["duplicates"]:
        assert _close(report["exact_f1"]["value"], summary["span_f1_exact"])
    if same_items and not (features["zero_length_span"] or features["competing_partial"]):
        assert _close(report["partial_f1"]["value"], summary["span_f1_partial"])
    elif same_items and summary["span_f1_partial"] is not None:
        # maximum matching finds at least as many partial matches as first-fit, and equal
        # zero-length spans only add matches
        assert report["partial_f1"]["value"] >= summary["span_f1_partial"] - 1e-12
    if not (features["empty_annotator"] or features["own_overlap"]):
        assert _close(report["char_alpha"]["value"], summary["krippendorff_alpha_u"])


def _case(case_id):
    for case in CASES:
        if case["id"] == case_id:
            return case
    pytest.skip(f"reference case {case_id} absent")


@needs_reference
def test_difference_empty_annotators_count():
    # t1: a [0,10), b [0,9), c nothing; t2: a [3,9), b nothing; t3: a = c.
    case = _case("span_07_annotator_marked_nothing")
    potato, ours = _run_case(case, "potato"), _run_case(case, "optimal")
    # Pairs per item: t1 (a,b)=(exact 0, partial 1), (a,c)=(0,0), (b,c)=(0,0); t2 (a,b)=(0,0); t3 (1,1).
    assert ours["exact_f1"]["value"] == pytest.approx((0 + 0 + 1) / 3)
    assert ours["partial_f1"]["value"] == pytest.approx((1 / 3 + 0 + 1) / 3)
    assert ours["n_items_scored"] == 3 and potato["n_items_scored"] == 2
    assert ours["partial_f1"]["value"] < potato["partial_f1"]["value"]
    assert ours["char_alpha"]["value"] < potato["char_alpha"]["value"]
    assert any("marked nothing" in w for w in potato["warnings"])


@needs_reference
def test_difference_duplicates_need_their_own_partner():
    case = _case("span_09_duplicate_spans")
    potato, ours = _run_case(case, "potato"), _run_case(case, "optimal")
    # t1: a marks [0,10) twice, b once → TP 1, F1 = 2/(2+1); t2 identical.
    assert ours["exact_f1"]["value"] == pytest.approx((2 / 3 + 1) / 2)
    assert potato["exact_f1"]["value"] == 1.0  # set semantics: the duplicate collapses
    assert ours["partial_f1"]["value"] == pytest.approx(potato["partial_f1"]["value"])
    assert any("duplicate" in w for w in ours["warnings"])


@needs_reference
def test_difference_equal_zero_length_spans_agree_partially():
    case = _case("span_11_zero_length_span")
    potato, ours = _run_case(case, "potato"), _run_case(case, "optimal")
    assert ours["partial_f1"]["value"] == 1.0
    assert potato["partial_f1"]["value"] < potato["exact_f1"]["value"]  # Potato: partial below exact
    assert ours["exact_f1"]["value"] == potato["exact_f1"]["value"] == 1.0
    assert any("zero-length" in w for w in ours["warnings"])


@needs_reference
def test_difference_zero_length_item_is_scored_for_f1():
    case = _case("span_13_zero_length_item")
    potato, ours = _run_case(case, "potato"), _run_case(case, "optimal")
    # z (length 0): identical spans → exact 1; t1: [0,3) vs [1,3) → exact 0.
    assert ours["exact_f1"]["value"] == pytest.approx(0.5)
    assert potato["exact_f1"]["value"] == 0.0
    assert ours["char_alpha"]["value"] == pytest.approx(potato["char_alpha"]["value"])
    z = next(r for r in ours["items"] if r["item"] == "z")
    assert z["char_alpha"]["value"] is None and z["char_alpha"]["reason"] == "fewer than two characters"
    assert any("beyond" in w for w in ours["warnings"])


# --------------------------------------------------------------------------- scenario table (docs)

SPAN_RE = re.compile(r"\[(\d+),(\d+)\)\s+([^\s;`]+)")


def _parse_spans(cell):
    cell = cell.strip().strip("`")
    if cell == "nothing":
        return []
    return [(int(s), int(e), label) for s, e, label in SPAN_RE.findall(cell)]


def _parse_outcomes(cell):
    counts = dict.fromkeys(OUTCOMES, 0)
    if cell.strip() != "—":
        for part in cell.split(","):
            name, _, times = part.strip().partition(" ×")
            counts[name] += int(times or 1)
    return counts


def _parse_number(cell):
    cell = cell.strip()
    return None if cell == "—" else float(Fraction(cell))


def _scenarios():
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("<!-- scenarios:start -->")[1].split("<!-- scenarios:end -->")[0]
    lines = [ln for ln in block.strip().splitlines() if ln.startswith("|")][2:]
    out = []
    for line in lines:
        cells = [c.strip() for c in line.strip("|").split("|")]
        number, a, b, outcome, exact, partial, p_exact, p_partial, _note = cells
        out.append(dict(id=number, a=_parse_spans(a), b=_parse_spans(b), outcomes=_parse_outcomes(outcome),
                        exact=_parse_number(exact), partial=_parse_number(partial),
                        potato_exact=_parse_number(p_exact), potato_partial=_parse_number(p_partial)))
    return out


SCENARIOS = _scenarios()


def _scenario_rows(scenario):
    rows = []
    for annotator, spans in (("a", scenario["a"]), ("b", scenario["b"])):
        if not spans:
            rows.append({"item": "t", "annotator": annotator, "start": None, "end": None, "label": None})
        rows.extend({"item": "t", "annotator": annotator, "start": s, "end": e, "label": label}
                    for s, e, label in spans)
    return rows


def test_scenario_table_is_long_enough():
    assert len(SCENARIOS) >= 15


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_scenario(scenario):
    rows = _scenario_rows(scenario)
    ours = _report(rows, lengths={"t": 50})
    total = ours["disagreement"]["total"]
    assert {k: total[k] for k in OUTCOMES} == scenario["outcomes"]
    assert ours["exact_f1"]["value"] == pytest.approx(scenario["exact"])
    assert ours["partial_f1"]["value"] == pytest.approx(scenario["partial"])
    potato = _report(rows, lengths={"t": 50}, match="potato")
    for key, expected in (("exact_f1", scenario["potato_exact"]), ("partial_f1", scenario["potato_partial"])):
        if expected is None:
            assert potato[key]["value"] is None and potato[key]["reason"]
        else:
            assert potato[key]["value"] == pytest.approx(expected)


def test_swapping_annotators_swaps_missed_sides():
    scenario = next(s for s in SCENARIOS if s["id"] == "17")
    swapped = dict(scenario, a=scenario["b"], b=scenario["a"])
    total = _report(_scenario_rows(swapped), lengths={"t": 50})["disagreement"]["total"]
    assert total["missed_a"] == scenario["outcomes"]["missed_b"]
    assert total["missed_b"] == scenario["outcomes"]["missed_a"]


# --------------------------------------------------------------------------- properties on random inputs

def _track(spans):
    labels = {"X": 0, "Y": 1, "Z": 2}
    return Track.of([Span(s, e, lab, 0) for s, e, lab in spans], labels)


span_st = st.tuples(st.integers(0, 12), st.integers(0, 6), st.sampled_from("XYZ")).map(
    lambda t: (t[0], t[0] + t[1], t[2]))
small_lists = st.lists(span_st, max_size=5)


def _outcome_of(sa, sb):
    """The five-way outcome of one pair of spans, straight from the definitions (None = never paired)."""
    same_bounds = sa[:2] == sb[:2]
    touching = min(sa[1], sb[1]) - max(sa[0], sb[0]) > 0
    if same_bounds:
        return 0 if sa[2] == sb[2] else 1
    if touching:
        return 2 if sa[2] == sb[2] else 3
    return None


def _brute_force_best(a, b, score):
    """The best ``score`` over every one-to-one matching of compatible pairs (tiny inputs only)."""
    best = None
    for k in range(min(len(a), len(b)) + 1):
        for rows in itertools.combinations(range(len(a)), k):
            for cols in itertools.permutations(range(len(b)), k):
                value = score(list(zip(rows, cols)))
                if value is not None and (best is None or value > best):
                    best = value
    return best


@settings(max_examples=150, deadline=None)
@given(small_lists, small_lists)
def test_five_way_is_the_lexicographically_best_matching(a, b):
    ta, tb = _track(a), _track(b)
    rows, cols, outcome, missed_a, missed_b = five_way(ta, tb)
    # counts add up: every span is matched once or missed once
    assert 2 * len(outcome) + len(missed_a) + len(missed_b) == len(a) + len(b)
    assert sorted(rows.tolist() + missed_a.tolist()) == list(range(len(a)))
    assert sorted(cols.tolist() + missed_b.tolist()) == list(range(len(b)))
    for r, c, o in zip(rows.tolist(), cols.tolist(), outcome.tolist()):
        assert _outcome_of(a[r], b[c]) == o

    def score(pairs):
        kinds = [_outcome_of(a[r], b[c]) for r, c in pairs]
        if None in kinds:
            return None
        return tuple(kinds.count(k) for k in range(4))

    if len(a) <= 4 and len(b) <= 4:
        got = tuple(np.count_nonzero(outcome == k) for k in range(4))
        assert got == _brute_force_best(a, b, score)


def _partial_agree(sa, sb):
    ov = max(0, min(sa[1], sb[1]) - max(sa[0], sb[0]))
    if sa[2] != sb[2]:
        return False
    return sa[:2] == sb[:2] or (ov > 0 and (ov >= (sa[1] - sa[0]) / 2 or ov >= (sb[1] - sb[0]) / 2))


@settings(max_examples=150, deadline=None)
@given(small_lists, small_lists)
def test_partial_matching_is_maximum_and_order_free(a, b):
    ta, tb = _track(a), _track(b)
    rows, cols = maximum_matching(partial_graph(ta, tb))
    assert all(_partial_agree(a[r], b[c]) for r, c in zip(rows.tolist(), cols.tolist()))
    assert len(set(rows.tolist())) == len(rows) and len(set(cols.tolist())) == len(cols)
    if len(a) <= 4 and len(b) <= 4:
        best = _brute_force_best(a, b, lambda pairs: len(pairs) if all(_partial_agree(a[r], b[c])
                                                                        for r, c in pairs) else None)
        assert len(rows) == best
    # Potato's first-fit never beats the maximum, and reversing the input never changes ours.
    pr, _ = potato_partial_matches(ta, tb)
    assert len(pr) <= len(rows)
    rr, _ = maximum_matching(partial_graph(_track(a[::-1]), _track(b[::-1])))
    assert len(rr) == len(rows)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(span_st, max_size=6), min_size=2, max_size=5))
def test_item_scoring_equals_pair_by_pair_matching(annotators):
    """score_item takes shortcuts for pairs whose edges already form a matching; the result must not change."""
    spans = [s for ss in annotators for s in ss]
    offsets = np.cumsum([0] + [len(ss) for ss in annotators]).tolist()
    score = score_item(_track(spans), offsets)
    for p, (i, j) in enumerate(score.pairs):
        a, b = _track(annotators[i]), _track(annotators[j])
        _, _, outcome, missed_a, missed_b = five_way(a, b)
        expected = np.bincount(outcome, minlength=4).tolist() + [len(missed_a), len(missed_b)]
        assert score.counts[p].tolist() == expected
        partial_tp = len(maximum_matching(partial_graph(a, b))[0])
        total = len(a) + len(b)
        assert score.partial_f1[p] == pytest.approx(1.0 if total == 0 else 2 * partial_tp / total)
        assert score.exact_f1[p] == pytest.approx(1.0 if total == 0 else 2 * expected[0] / total)
        in_pair = score.pair == p
        assert np.all((score.rows[in_pair] >= offsets[i]) & (score.rows[in_pair] < offsets[i + 1]))
        assert np.all((score.cols[in_pair] >= offsets[j]) & (score.cols[in_pair] < offsets[j + 1]))


corpus_st = st.lists(
    st.tuples(st.sampled_from(["d1", "d2", "d3"]), st.sampled_from(["a", "b", "c"]),
              st.one_of(st.none(), span_st)),
    min_size=1, max_size=25)


def _corpus_rows(records):
    rows = []
    for item, annotator, span in records:
        if span is None:
            rows.append({"item": item, "annotator": annotator, "start": "", "end": "", "label": ""})
        else:
            rows.append({"item": item, "annotator": annotator, "start": span[0], "end": span[1],
                         "label": span[2]})
    return rows


@settings(max_examples=100, deadline=None)
@given(corpus_st)
def test_five_way_counts_add_up_on_random_corpora(records):
    report = _report(_corpus_rows(records), lengths={"d1": 20, "d2": 20, "d3": 20})
    dis = report["disagreement"]
    expected_spans = 0
    for pair in dis["pairs"]:
        matched = sum(pair[k] for k in ("exact", "label_only", "boundary_only", "both"))
        assert pair["n_spans"] == 2 * matched + pair["missed_a"] + pair["missed_b"]
        if pair["n_spans"]:
            assert sum(pair["shares"].values()) == pytest.approx(1.0)
        expected_spans += pair["n_spans"]
    total = dis["total"]
    assert total["n_spans"] == expected_spans
    for key in OUTCOMES:
        assert total[key] == sum(p[key] for p in dis["pairs"])
    # Per label, counted in spans, the rows add up to the same span comparisons.
    assert sum(row["n_spans"] for row in dis["labels"]) == total["n_spans"]
    for row in dis["labels"]:
        assert row["n_spans"] == sum(row[k] for k in ("exact", "label_only", "boundary_only", "both", "missed"))
    # Independently: span comparisons = Σ over items and pairs of |A| + |B|.
    by_item = {}
    for item, annotator, span in records:
        by_item.setdefault(item, {}).setdefault(annotator, 0)
        by_item[item][annotator] += span is not None
    direct = sum(counts[x] + counts[y] for counts in by_item.values()
                 for x, y in itertools.combinations(sorted(counts), 2))
    assert total["n_spans"] == direct
    # Every exact match is a partial match.
    for row in report["items"]:
        if row["scored"]:
            assert row["partial_f1"] >= row["exact_f1"] - 1e-12


def _slow_char_labels(spans, length):
    """Per character, the label of the longest covering span (earliest start, then first label
    among equals), else O."""
    out = []
    for pos in range(length):
        covering = [(-(e - s), s, lab) for s, e, lab in spans if s <= pos < e]
        out.append(min(covering)[2] if covering else "O")
    return out


@settings(max_examples=100, deadline=None)
@given(st.lists(small_lists, min_size=2, max_size=4), st.integers(1, 20))
def test_character_alpha_against_a_slow_reference(annotators, length):
    rows = []
    for k, spans in enumerate(annotators):
        name = f"r{k}"
        if not spans:
            rows.append({"item": "t", "annotator": name, "start": None, "end": None, "label": None})
        rows.extend({"item": "t", "annotator": name, "start": s, "end": e, "label": lab} for s, e, lab in spans)
    report = _report(rows, lengths={"t": length})
    data = [_slow_char_labels(spans, length) for spans in annotators]
    expected = krippendorff_alpha(data, "nominal") if length >= 2 else float("nan")
    got = report["char_alpha"]["value"]
    if np.isfinite(expected):
        assert got == pytest.approx(expected, abs=1e-12)
    else:
        assert got is None and report["char_alpha"]["reason"]


def test_character_labels_longest_span_wins_and_differs_from_potato():
    # [0,10) X and [5,15) Y are equally long: the earlier start wins the overlap, Y keeps 10..14.
    track = _track([(0, 10, "X"), (5, 15, "Y")])
    ours = character_labels(track, 20)
    potato = character_labels(track, 20, rule="potato")
    assert ours.tolist() == [1] * 10 + [2] * 5 + [0] * 5
    # Potato skips Y whole: its first character is already tagged.
    assert potato.tolist() == [1] * 10 + [0] * 10
    # A longer later span wins over a shorter earlier one, and row order never matters.
    assert character_labels(_track([(2, 4, "Y"), (0, 10, "X")]), 10).tolist() == [1] * 10
    assert character_labels(_track([(5, 15, "Y"), (0, 10, "X")]), 20).tolist() == ours.tolist()
    assert character_labels(_track([(0, 5, "Y"), (0, 5, "X")]), 5).tolist() == [1] * 5


@settings(max_examples=80, deadline=None)
@given(corpus_st, st.randoms(use_true_random=False))
def test_row_order_and_annotator_names_do_not_matter(records, random):
    rows = _corpus_rows(records)
    shuffled = rows[:]
    random.shuffle(shuffled)
    rename = {"a": "zed", "b": "alf", "c": "mid"}
    renamed = [dict(r, annotator=rename[r["annotator"]]) for r in shuffled]
    lengths = {"d1": 20, "d2": 20, "d3": 20}
    base = _report(rows, lengths=lengths)
    for other in (_report(shuffled, lengths=lengths), _report(renamed, lengths=lengths)):
        for key in ("exact_f1", "partial_f1", "char_alpha"):
            assert other[key]["value"] == pytest.approx(base[key]["value"], nan_ok=True)
        a, b = base["disagreement"]["total"], other["disagreement"]["total"]
        assert [a[k] for k in OUTCOMES[:4]] == [b[k] for k in OUTCOMES[:4]]
        assert a["missed_a"] + a["missed_b"] == b["missed_a"] + b["missed_b"]


def test_character_label_difference_changes_alpha():
    rows = _csv("t,a,0,10,X", "t,a,5,15,Y", "t,b,0,10,X", "t,b,10,15,Y")
    ours = _report(rows, lengths={"t": 20})
    potato = _report(rows, lengths={"t": 20}, match="potato")
    assert ours["char_alpha"]["value"] == pytest.approx(1.0)  # both annotators: X×10, Y×5, O×5
    assert potato["char_alpha"]["value"] < 1.0


def test_bootstrap_means_reweight_items():
    values = np.array([0.2, np.nan, 0.8, 0.5])
    counts = np.array([[2, 1, 0, 1], [0, 4, 0, 0], [1, 1, 1, 1]], dtype=float)
    got = bootstrap_means(values, counts)
    assert got[0] == pytest.approx((0.2 * 2 + 0.5) / 3)
    assert np.isnan(got[1])  # only the undefined item was drawn
    assert got[2] == pytest.approx((0.2 + 0.8 + 0.5) / 3)


def test_bootstrap_interval_is_seeded_and_brackets_the_values():
    rows = _csv(*[f"d{k},a,0,{5 + k % 3},X" for k in range(12)], *[f"d{k},b,0,5,X" for k in range(12)])
    one = _report(rows, bootstrap=300, seed=7)
    two = _report(rows, bootstrap=300, seed=7)
    three = _report(rows, bootstrap=300, seed=8)
    low, high = one["exact_f1"]["ci"]
    assert one["exact_f1"]["ci"] == two["exact_f1"]["ci"]
    assert 0.0 <= low <= one["exact_f1"]["value"] <= high <= 1.0 and low < high
    assert three["exact_f1"]["ci"] != one["exact_f1"]["ci"] or three["partial_f1"]["ci"] != one["partial_f1"]["ci"]
    assert _report(rows, bootstrap=0)["exact_f1"]["ci"] is None


# --------------------------------------------------------------------------- input, warnings, output

@pytest.mark.parametrize("lines, line, column", [
    (["t,a,5,3,X"], 2, "end"),
    (["t,a,0,3,X", "t,b,-1,3,X"], 3, "start"),
    (["t,a,0,3,X", "t,b,0,2.5,X"], 3, "end"),
    (["t,a,0,3,X", "t,b,0,,X"], 3, "end"),
    (["t,a,0,3,X", "t,b,,,X"], 3, "label"),
    (["t,a,0,3,X", "t,,0,3,X"], 3, "annotator"),
    (["t,a,0,3,X", ",b,0,3,X"], 3, "item"),
    (["t,a,0,3,X", "t,b,zero,3,X"], 3, "start"),
    (["t,a,0,3,X", "t,b,0,3"], 3, None),
])
def test_bad_rows_name_the_line(lines, line, column):
    with pytest.raises(InputError) as error:
        agreekit.spans(_csv(*lines), bootstrap=0)
    assert error.value.line == line and error.value.column == column
    assert f"line {line}" in str(error.value)


@pytest.mark.parametrize("lengths, line, column", [
    ("item,length\nt,10\nt,12", 3, "item"),
    ("item,length\nt,-1", 2, "length"),
    ("item,length\nt,1.5", 2, "length"),
    ("item,length\nt,ten", 2, "length"),
    ([{"item": "t", "text": "abc"}, {"item": "u"}], 2, "text"),
    ({"t": -3}, 1, "length"),
    ({"t": 2.5}, 1, "length"),
])
def test_bad_lengths_name_the_line(lengths, line, column):
    with pytest.raises(InputError) as error:
        agreekit.spans(_csv("t,a,0,3,X", "t,b,0,3,X"), lengths=lengths, bootstrap=0)
    assert error.value.line == line and error.value.column == column


def test_bad_match_mode_is_rejected():
    with pytest.raises(InputError):
        agreekit.spans(_csv("t,a,0,3,X", "t,b,0,3,X"), match="greedy")


def test_lengths_in_every_form_agree():
    rows = _csv("t,a,0,3,X", "t,b,1,3,X", "u,a,0,2,Y", "u,b,,,")
    forms = [
        "item,length\nt,10\nu,6",
        "item\tlength\nt\t10\nu\t6",
        [{"item": "t", "length": 10}, {"item": "u", "length": 6}],
        {"t": 10, "u": 6},
        {"t": "abcdefghij", "u": "😀bcdef"},  # one code point per emoji
        'item,text\nt,"abc, efghi"\nu,"😀bcdef"',
    ]
    values = [_report(rows, lengths=f)["char_alpha"]["value"] for f in forms]
    assert all(v == pytest.approx(values[0]) for v in values)
    assert _report(rows, lengths=forms[0])["settings"]["lengths"] == "lengths"
    assert _report(rows, lengths=forms[-1])["settings"]["lengths"] == "texts"


def test_without_lengths_the_largest_end_is_used_with_a_warning():
    rows = _csv("t,a,0,3,X", "t,b,1,5,X")
    report = _report(rows)
    assert report["items"][0]["length"] == 5
    assert any("no lengths given" in w for w in report["warnings"])
    assert report["settings"]["lengths"] == "largest end"
    with_lengths = _report(rows, lengths={"t": 5})
    assert not any("no lengths given" in w for w in with_lengths["warnings"])
    assert with_lengths["char_alpha"]["value"] == pytest.approx(report["char_alpha"]["value"])


def test_warnings_for_suspicious_input():
    rows = _csv("t,a,0,30,X", "t,b,0,3,X", "t,b,0,3,X", "u,a,0,2,X", "v,a,4,4,X", "v,b,4,4,X")
    warnings = " | ".join(_report(rows, lengths={"t": 10, "u": 5, "v": 5, "w": 5})["warnings"])
    assert "beyond" in warnings and "lines 2" in warnings
    assert "duplicate" in warnings and "4 (= 3)" in warnings
    assert "single annotator" in warnings and "u" in warnings
    assert "zero-length" in warnings
    assert "no rows" in warnings and "w" in warnings


def test_two_empty_annotators_agree_and_alpha_says_why_it_is_undefined():
    report = _report(_csv("t,a,,,", "t,b,,,"), lengths={"t": 10})
    assert report["exact_f1"]["value"] == 1.0 and report["partial_f1"]["value"] == 1.0
    assert report["char_alpha"]["value"] is None
    assert "same" in report["items"][0]["char_alpha"]["reason"]
    assert report["char_alpha"]["reason"]
    assert report["n_spans"] == 0


def test_no_comparable_item_gives_reasons_not_numbers():
    report = _report(_csv("t,a,0,3,X", "u,b,0,3,X"))
    for key in ("exact_f1", "partial_f1", "char_alpha"):
        assert report[key]["value"] is None and report[key]["reason"]
    assert all(not row["scored"] for row in report["items"])


def test_items_sorted_by_disagreement_with_context_as_plain_text():
    text_t = "Dr. <b>Smith</b> met Jones in Paris."
    text_u = "Nothing & nobody."
    rows = _csv("t,a,4,16,PER", "t,b,7,12,PER", "t,a,29,34,LOC", "t,b,29,34,ORG",
                "u,a,0,7,X", "u,b,0,7,X")
    report = _report(rows, lengths={"t": text_t, "u": text_u})
    items = report["items"]
    assert [r["item"] for r in items] == ["t", "u"]
    assert items[0]["disagreement_share"] == 1.0 and items[1]["disagreement_share"] == 0.0
    examples = items[0]["examples"]
    assert {e["outcome"] for e in examples} == {"boundary_only", "label_only"}
    boundary = next(e for e in examples if e["outcome"] == "boundary_only")
    assert boundary["span_a"]["text"] == "<b>Smith</b>" and boundary["span_b"]["text"] == "Smith"
    assert "<b>Smith</b>" in boundary["context"]  # raw text, not escaped or marked up
    assert boundary["span_a"]["line"] == 2


def test_per_label_table_counts_confusions():
    rows = _csv("t,a,0,5,PER", "t,b,0,5,ORG", "t,a,10,15,LOC", "t,b,10,14,LOC")
    labels = {row["label"]: row for row in _report(rows)["disagreement"]["labels"]}
    assert labels["PER"]["label_only"] == 1 and labels["PER"]["confused_with"] == {"ORG": 1}
    assert labels["ORG"]["confused_with"] == {"PER": 1}
    assert labels["LOC"]["boundary_only"] == 2 and labels["LOC"]["n_spans"] == 2
    per_label_f1 = {row["label"]: row for row in _report(rows)["labels"]}
    assert per_label_f1["LOC"]["exact_f1"] == 0.0 and per_label_f1["LOC"]["partial_f1"] == 1.0
    assert per_label_f1["PER"]["partial_f1"] == 0.0


def test_pairs_and_counts():
    rows = _csv("t,a,0,5,X", "t,b,0,5,X", "t,c,0,4,X", "u,a,1,3,X", "u,c,,,")
    report = _report(rows)
    pairs = {(p["a"], p["b"]): p for p in report["disagreement"]["pairs"]}
    assert set(pairs) == {("a", "b"), ("a", "c"), ("b", "c")}
    assert pairs[("a", "b")]["exact"] == 1 and pairs[("a", "b")]["n_items"] == 1
    assert pairs[("a", "c")]["n_items"] == 2 and pairs[("a", "c")]["missed_a"] == 1
    assert pairs[("a", "c")]["exact_f1"] == pytest.approx((0 + 0) / 2)
    assert pairs[("a", "c")]["partial_f1"] == pytest.approx((1 + 0) / 2)
    assert report["n_items"] == 2 and report["n_annotators"] == 3 and report["n_spans"] == 4


def test_progress_is_reported():
    calls = []
    rows = _csv(*[f"d{k},a,0,5,X" for k in range(4)], *[f"d{k},b,0,5,X" for k in range(4)])
    agreekit.spans(rows, bootstrap=50, progress=lambda done, total, stage: calls.append((done, total, stage)))
    assert [c for c in calls if c[2] == "items"] == [(k, 4, "items") for k in range(1, 5)]
    assert calls[-1] == (50, 50, "bootstrap")


def test_report_is_strict_json_and_registered():
    report = agreekit.spans(_csv("t,a,0,3,X", "t,b,,,"), bootstrap=20)
    json.loads(report.to_json())
    assert report.exact_f1.value == 0.0
    assert agreekit.KINDS["spans"].function is agreekit.spans
    assert agreekit.report("spans", _csv("t,a,0,3,X", "t,b,0,3,X"), bootstrap=0).exact_f1.value == 1.0


def test_command_line(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text(_csv("t,a,0,3,X", "t,b,0,3,X", "u,a,0,3,X", "u,b,0,2,X"))
    lengths = tmp_path / "lengths.csv"
    lengths.write_text("item,text\nt,hello world\nu,good morning\n")
    env = {"PYTHONPATH": str(ROOT / "pycore")}
    done = subprocess.run([sys.executable, "-m", "agreekit", "spans", str(rows), "--lengths", str(lengths),
                           "--bootstrap", "20", "--json"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["settings"]["lengths"] == "texts" and data["exact_f1"]["value"] == 0.5
    bad = tmp_path / "bad.csv"
    bad.write_text(_csv("t,a,0,3,X", "t,b,4,2,X"))
    done = subprocess.run([sys.executable, "-m", "agreekit", "spans", str(bad)], capture_output=True,
                          text=True, env=env)
    assert done.returncode == 2 and "line 3" in done.stderr


def test_text_field_keeps_its_white_space():
    # Offsets count from the text's first character, so surrounding spaces must survive the CSV reader.
    texts = 'item\ttext\nd1\t  Ada Lovelace  \n'
    rows = "item,annotator,start,end,label\nd1,a,2,5,PER\nd1,b,2,5,PER\n"
    report = agreekit.spans(rows, lengths=texts, bootstrap=0)
    assert report.exact_f1.value == 1.0
    quoted = 'item,text\nd1,"  Ada Lovelace  "\n'
    assert agreekit.spans(rows, lengths=quoted, bootstrap=0).to_dict()["char_alpha"] == \
        report.to_dict()["char_alpha"]
    from agreekit.kinds.spans.rows import read_lengths
    assert read_lengths(texts)[0]["d1"] == 16
