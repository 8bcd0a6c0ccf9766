"""Per-pair tables have a budget; every headline number stays exact (issue 10).

Spans and traces list at most ``MAX_PAIR_ROWS`` annotator pairs, those sharing
the most items (units), and say so in a warning and in ``pairs_shown`` /
``n_pairs_total``.  The pairs are scored in blocks (``CELL_BUDGET``,
``PAIRS_PER_BLOCK``) whose size changes no number.  A subprocess under an
address-space limit checks that memory follows the pairs that occur, not
n_annotators² dense arrays and a row per pair.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agreekit.kinds.spans import report as span_kind
from agreekit.kinds.traces import report as trace_kind
from agreekit.measures import kappa, span_matching
from agreekit.measures.span_matching import Track
from agreekit.measures.span_outcomes import score_item
from agreekit.kinds.spans.rows import Span

ROOT = Path(__file__).resolve().parents[1]


def span_rows(seed=3, n_items=5, n_annotators=12):
    """Annotators reading overlapping subsets of items, marking jittered entities and stray spans."""
    rng = np.random.default_rng(seed)
    rows = []
    for item in range(n_items):
        readers = [a for a in range(n_annotators) if rng.random() < 0.7]
        entities = [(int(s), int(s) + int(rng.integers(2, 8))) for s in rng.choice(90, 4, replace=False)]
        for a in readers:
            marked = False
            for start, end in entities:
                if rng.random() < 0.2:
                    continue
                shift = int(rng.integers(-1, 2)) if rng.random() < 0.4 else 0
                rows.append({"item": f"i{item}", "annotator": f"a{a:02d}", "start": max(0, start + shift),
                             "end": end + shift + 1, "label": "XY"[int(rng.random() < 0.2)]})
                marked = True
            if not marked:
                rows.append({"item": f"i{item}", "annotator": f"a{a:02d}", "start": "", "end": "", "label": ""})
    return rows


def trace_rows(seed=4, n_traces=6, n_steps=5, n_annotators=14):
    rng = np.random.default_rng(seed)
    return [{"trace": f"t{t}", "step": s, "annotator": f"a{a:02d}", "label": "xyz"[int(rng.integers(3))]}
            for t in range(n_traces) for s in range(n_steps) for a in range(n_annotators) if rng.random() < 0.6]


def without(report, section, keys):
    """The report as a dict, with ``keys`` of ``section`` left out."""
    data = json.loads(report.to_json())
    for key in keys:
        del data[section][key]
    return data


def most_shared(rows, count_key, limit):
    """The ``limit`` rows sharing the most items (units), ties in pair order, back in pair order."""
    order = sorted(range(len(rows)), key=lambda k: -rows[k][count_key])[:limit]
    return [rows[k] for k in sorted(order)]


# --------------------------------------------------------------------------- spans

@pytest.mark.parametrize("match", ["optimal", "potato"])
def test_spans_above_the_budget_list_the_pairs_sharing_most_items(monkeypatch, match):
    rows = span_rows()
    full = span_kind.spans(rows, match=match, bootstrap=50)
    n_pairs = full["disagreement"]["n_pairs_total"]
    assert full["disagreement"]["pairs_shown"] == n_pairs == len(full["disagreement"]["pairs"]) > 20
    assert not any("annotator pairs read an item together" in w for w in full["warnings"])
    monkeypatch.setattr(span_kind, "MAX_PAIR_ROWS", 20)
    cut = span_kind.spans(rows, match=match, bootstrap=50)
    dis = cut["disagreement"]
    assert dis["pairs_shown"] == len(dis["pairs"]) == 20 and dis["n_pairs_total"] == n_pairs
    assert json.loads(json.dumps(dis["pairs"])) == most_shared(json.loads(json.dumps(full["disagreement"]["pairs"])),
                                                               "n_items", 20)
    assert any(f"{n_pairs} annotator pairs read an item together" in w and "lists the 20" in w
               for w in cut["warnings"])
    # Everything else, headline numbers and intervals included, is the unbounded report's.
    keys = ("pairs", "pairs_shown")
    expected = without(full, "disagreement", keys)
    got = without(cut, "disagreement", keys)
    got["warnings"] = [w for w in got["warnings"] if "annotator pairs read an item together" not in w]
    assert got == expected


@pytest.mark.parametrize("match", ["optimal", "potato"])
def test_span_blocks_change_no_number(monkeypatch, match):
    rows = span_rows(seed=5, n_items=3, n_annotators=9)
    expected = span_kind.spans(rows, match=match, bootstrap=20).to_json()
    monkeypatch.setattr(span_matching, "CELL_BUDGET", 24)  # a block or more per first annotator
    assert span_kind.spans(rows, match=match, bootstrap=20).to_json() == expected


def test_item_scores_do_not_depend_on_the_blocks(monkeypatch):
    rng = np.random.default_rng(8)
    annotators = [[(int(s), int(s) + int(rng.integers(0, 5)), "XY"[int(rng.integers(2))])
                   for s in rng.integers(0, 30, int(rng.integers(0, 6)))] for _ in range(7)]
    spans = [Span(s, e, label, 0) for ss in annotators for s, e, label in ss]
    offsets = np.cumsum([0] + [len(ss) for ss in annotators]).tolist()
    track = Track.of(spans, {"X": 0, "Y": 1})
    whole = score_item(track, offsets, n_labels=2)
    monkeypatch.setattr(span_matching, "CELL_BUDGET", 10)
    blocked = score_item(track, offsets, n_labels=2)
    assert blocked.pairs == whole.pairs == [(i, j) for i in range(7) for j in range(i + 1, 7)]
    for field in ("exact_f1", "partial_f1", "counts", "exact_tp", "exact_total", "partial_tp", "compared"):
        assert np.array_equal(getattr(blocked, field), getattr(whole, field)), field
    matches = {(int(p), int(r), int(c), int(o)) for p, r, c, o in zip(whole.pair, whole.rows, whole.cols,
                                                                     whole.outcome)}
    assert {(int(p), int(r), int(c), int(o)) for p, r, c, o in zip(blocked.pair, blocked.rows, blocked.cols,
                                                                  blocked.outcome)} == matches


def test_span_blocks_stay_within_the_budget():
    layout = span_matching.ItemLayout.of(np.arange(0, 10_001, 5))  # 2,000 annotators × 5 spans
    blocks = list(layout.blocks())
    assert sum(len(block.first) for block in blocks) == 2000 * 1999 // 2
    for block in blocks:
        cells = (block.rows.stop - block.rows.start) * (block.cols.stop - block.cols.start)
        assert cells <= span_matching.CELL_BUDGET
        assert len(block.first) <= span_matching.CELL_BUDGET // span_matching.PAIR_CELLS


# --------------------------------------------------------------------------- traces

def test_traces_above_the_budget_list_the_pairs_sharing_most_units(monkeypatch):
    rows = trace_rows()
    full = trace_kind.traces(rows, bootstrap=200)
    n_pairs = full["cohen_kappa"]["n_pairs_total"]
    assert full["cohen_kappa"]["pairs_shown"] == n_pairs == len(full["cohen_kappa"]["pairs"]) == 91
    monkeypatch.setattr(trace_kind, "MAX_PAIR_ROWS", 25)
    cut = trace_kind.traces(rows, bootstrap=200)
    cohen = cut["cohen_kappa"]
    assert cohen["pairs_shown"] == len(cohen["pairs"]) == 25 and cohen["n_pairs_total"] == n_pairs
    assert json.loads(json.dumps(cohen["pairs"])) == most_shared(json.loads(json.dumps(full["cohen_kappa"]["pairs"])),
                                                                 "n_units", 25)
    assert any(f"{n_pairs} annotator pairs share a labelled unit" in w for w in cut["warnings"])
    mean = json.loads(cut.to_json())["cohen_kappa"]["mean"]
    assert mean == json.loads(full.to_json())["cohen_kappa"]["mean"] and mean["ci"] is not None
    expected = without(full, "cohen_kappa", ("pairs", "pairs_shown"))
    got = without(cut, "cohen_kappa", ("pairs", "pairs_shown"))
    got["warnings"] = [w for w in got["warnings"] if "annotator pairs share a labelled unit" not in w]
    assert got == expected


def test_kappa_blocks_change_no_number(monkeypatch):
    """Smaller blocks, and bootstrap steps of one pair, give the same report to the last bit."""
    rows = trace_rows(seed=6, n_annotators=11)
    expected = trace_kind.traces(rows, bootstrap=300).to_json()
    monkeypatch.setattr(kappa, "PAIRS_PER_BLOCK", 3)
    monkeypatch.setattr(kappa, "CELL_BUDGET", 50)
    assert trace_kind.traces(rows, bootstrap=300).to_json() == expected


def reference_resampled_mean(values, unit_trace, n_traces, n_cat, resamples):
    """Mean κ per resample computed pair by pair, as one (resamples × pairs) array (the unblocked way)."""
    per_pair, totals = [], []
    for a in range(values.shape[1]):
        for b in range(a + 1, values.shape[1]):
            shared = (values[:, a] >= 0) & (values[:, b] >= 0)
            if shared.any():
                tables = np.zeros((n_traces, n_cat, n_cat))
                np.add.at(tables, (unit_trace[shared], values[shared, a], values[shared, b]), 1.0)
                reweighted = (resamples @ tables.reshape(n_traces, -1)).reshape(-1, n_cat, n_cat)
                per_pair.append(kappa.cohen_kappa(reweighted).kappa)
                totals.append(tables.sum(axis=0))
    defined = np.isfinite(kappa.cohen_kappa(np.array(totals)).kappa)
    resampled = np.stack(per_pair, axis=1)[:, defined]
    finite = np.isfinite(resampled)
    return np.where(finite, resampled, 0.0).sum(axis=1) / finite.sum(axis=1)


@pytest.mark.parametrize("pairs_per_block, cell_budget", [(kappa.PAIRS_PER_BLOCK, kappa.CELL_BUDGET), (7, 40)])
def test_resampled_mean_kappa_is_the_unblocked_one_to_the_bit(monkeypatch, pairs_per_block, cell_budget):
    monkeypatch.setattr(kappa, "PAIRS_PER_BLOCK", pairs_per_block)
    monkeypatch.setattr(kappa, "CELL_BUDGET", cell_budget)
    rng = np.random.default_rng(2)
    values = np.where(rng.random((40, 30)) < 0.7, rng.integers(0, 3, (40, 30)), -1)
    unit_trace = np.repeat(np.arange(8), 5)
    resamples = np.random.default_rng(3).multinomial(8, np.full(8, 1 / 8), size=200).astype(float)
    got = kappa.pair_kappas(values, unit_trace, 8, 3, resamples)
    assert np.array_equal(got.resampled_mean, reference_resampled_mean(values, unit_trace, 8, 3, resamples))


def test_kappa_blocks_stay_within_the_budget(monkeypatch):
    monkeypatch.setattr(kappa, "PAIRS_PER_BLOCK", 40)
    rng = np.random.default_rng(1)
    values = np.where(rng.random((30, 25)) < 0.5, rng.integers(0, 3, (30, 25)), -1)
    values[:, 7] = -1  # an annotator with no label shares nothing
    unit_trace = np.repeat(np.arange(6), 5)
    blocks = list(kappa.pair_blocks(values, unit_trace, 6, 3))
    pairs = [(a, b) for block in blocks for a, b in zip(block.a.tolist(), block.b.tolist())]
    shared = (values[:, :, None] >= 0) & (values[:, None, :] >= 0)
    assert pairs == [(a, b) for a in range(25) for b in range(a + 1, 25) if shared[:, a, b].any()]
    ranges = list(kappa.LabelList.of(values, unit_trace, 6, 3).blocks())
    assert [lo for lo, _ in ranges] == [0] + [hi for _, hi in ranges[:-1]] and ranges[-1][1] == 24
    for lo, hi in ranges:
        assert hi - lo == 1 or sum(24 - a for a in range(lo, hi)) <= 40


# --------------------------------------------------------------------------- memory follows the data

CASE = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
import numpy as np
import agreekit
rng = np.random.default_rng(0)
{body}
print(json.dumps(out))
"""
SPANS_2000 = """
rows = [{"item": "doc", "annotator": f"a{k:04d}", "start": int(s), "end": int(s) + 5, "label": "X"}
        for k, s in enumerate(rng.integers(0, 20, 2000))]
report = agreekit.spans(rows, lengths={"doc": 40})
out = [report["disagreement"]["pairs_shown"], report["disagreement"]["n_pairs_total"]]
"""
TRACES_2000 = """
rows = [{"trace": f"t{t}", "step": s, "annotator": f"a{k:04d}", "label": "xy"[rng.integers(2)]}
        for k in range(2000) for t in range(2) for s in range(2)]
report = agreekit.traces(rows, bootstrap=0)
out = [report["cohen_kappa"]["pairs_shown"], report["cohen_kappa"]["n_pairs_total"]]
"""


@pytest.mark.parametrize("body, n_pairs", [(SPANS_2000, 1999000), (TRACES_2000, 1999000)], ids=["spans", "traces"])
def test_many_annotators_fit_in_a_small_address_space(body, n_pairs):
    """2,000 span annotators on one item (2 million pairs), 2,000 trace annotators, in 1.5 GB.

    Dense per-pair arrays and a report row per pair needed 2.5 GB and more.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT / "pycore"), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", CASE.format(limit=3 << 29, body=body)], capture_output=True,
                          text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == [span_kind.MAX_PAIR_ROWS, n_pairs]
