"""agreekit.compare: paired bootstrap of the difference B − A between two rounds or groups.

Oracles: a brute-force paired bootstrap of a direct Fleiss' κ formula (same item counts, items
drawn in name order as the labels report draws them); simulated rounds with a known true Δσ
(σ of two 1,500-image corpora per round) for coverage; compare(A, A) exactly 0.  pairedCAC's
published comparison data could not be sourced exactly, so it is not used.
"""
from __future__ import annotations

import functools
import json
import random

import numpy as np
import pytest

import agreekit
from agreekit.cli import main
from agreekit.kinds.labels.patterns import content_order, distinct_rows
from agreekit.kinds.labels.rows import read_judgements
from agreekit.kinds.labels.scale import build_ratings
from agreekit.measures.bootstrap import drawn_counts, percentile_ci
from compare_sim import images, labels_rows, round_rows

SIGMA = "localization.sigma"


def _fleiss(ratings):
    """Fleiss' κ (1971) of an items × categories count matrix, every item with the same raters."""
    n = ratings.sum(axis=1)[0]
    p_j = ratings.sum(axis=0) / ratings.sum()
    p_i = (np.sum(ratings ** 2, axis=1) - n) / (n * (n - 1))
    p_e = np.sum(p_j ** 2)
    return (p_i.mean() - p_e) / (1 - p_e)


def _counts(rows, items, categories):
    table = np.zeros((len(items), len(categories)))
    for r in rows:
        table[items.index(r["item"]), categories.index(r["label"])] += 1
    return table


def test_fleiss_difference_matches_brute_force_paired_bootstrap():
    a = labels_rows(60, seed=1, accuracy=0.6)
    b = labels_rows(60, seed=2, accuracy=0.8)
    c = agreekit.compare("labels", a, b, bootstrap=400, seed=5)
    cats = ["a", "b", "c"]
    ratings = build_ratings(read_judgements(a).judgements, "nominal", None)
    items = list(ratings.items)  # draws go in the order the ratings set (patterns.content_order), as in the report
    ta, tb = _counts(a, items, cats), _counts(b, items, cats)
    draws = drawn_counts(len(items), 400, 5, ranks=content_order(*distinct_rows(ratings.codes)))
    deltas = []
    for w in draws:
        pick = np.repeat(np.arange(len(items)), w.astype(int))
        deltas.append(_fleiss(tb[pick]) - _fleiss(ta[pick]))
    d = c.coefficient("coefficients.fleiss_kappa")
    assert d.delta == pytest.approx(_fleiss(tb) - _fleiss(ta), abs=1e-12)
    assert d.ci == pytest.approx(tuple(percentile_ci(np.array(deltas))), abs=1e-12)
    assert d.resampling == "paired" and c.resampling.method == "paired"


@pytest.mark.parametrize("kind", ["boxes", "labels"])
def test_compare_with_itself_is_exactly_zero(kind):
    rows = round_rows(*images(30, 1), 0.05, seed=2) if kind == "boxes" else labels_rows(40, seed=3)
    c = agreekit.compare(kind, rows, rows, bootstrap=200)
    defined = [d for d in c.coefficients if d.ci is not None]
    assert defined
    for d in defined:
        assert d.delta == 0.0 and d.ci == (0.0, 0.0) and d.p_value == 1.0
    assert "did not change" in c.summary


def test_paired_interval_is_narrower_than_unpaired():
    """On the same images the two rounds share each image's difficulty: pairing cancels it in Δ."""
    ratios = []
    for sim in range(4):
        truth, difficulty = images(60, 4 + 10 * sim)
        a, b = round_rows(truth, difficulty, 0.06, seed=5 + sim), round_rows(truth, difficulty, 0.03, seed=6 + sim)
        paired = agreekit.compare("boxes", a, b, bootstrap=500).coefficient(SIGMA)
        unpaired = agreekit.compare("boxes", a, b, bootstrap=500, paired=False).coefficient(SIGMA)
        assert paired.delta == unpaired.delta > 0
        assert paired.resampling == "paired" and unpaired.resampling == "independent"
        ratios.append((paired.ci[1] - paired.ci[0]) / (unpaired.ci[1] - unpaired.ci[0]))
    assert max(ratios) < 1.0 and sum(ratios) / len(ratios) < 0.95


@functools.cache
def _true_sigma(noise, n_images=1500):
    """σ of the population: the mean over two corpora of ``n_images`` (at 1,500 each is off by ~0.005)."""
    values = []
    for seed in (99, 199):
        truth, difficulty = images(n_images, seed)
        values.append(agreekit.boxes(round_rows(truth, difficulty, noise, seed=seed - 1), bootstrap=0)
                      .localization.sigma.value)
    return float(np.mean(values))


def _coverage(n_sims, noise_b, bootstrap, paired=True, truth_images=1500):
    true_delta = _true_sigma(noise_b, truth_images) - _true_sigma(0.06, truth_images) if noise_b != 0.06 else 0.0
    hits = 0
    for sim in range(n_sims):
        truth, difficulty = images(100, 1000 + sim)
        a = round_rows(truth, difficulty, 0.06, seed=2000 + sim)
        b = round_rows(truth, difficulty, noise_b, seed=3000 + sim)
        low, high = agreekit.compare("boxes", a, b, bootstrap=bootstrap, seed=sim, paired=paired).coefficient(SIGMA).ci
        hits += low <= true_delta <= high
    return hits / n_sims


def test_paired_interval_covers_true_difference_fast():
    assert _coverage(12, 0.03, 200, truth_images=500) >= 0.75


def test_no_change_interval_covers_zero_fast():
    assert _coverage(12, 0.06, 200) >= 0.75


@pytest.mark.slow
def test_paired_interval_covers_true_difference():
    assert _coverage(400, 0.03, 1000) >= 0.93


@pytest.mark.slow
def test_no_change_interval_covers_zero_at_nominal_rate():
    assert 0.92 <= _coverage(400, 0.06, 1000) <= 0.98


def _renamed(rows, items, people, order_seed):
    out = [{**r, "item": items[r["item"]], "annotator": people[r["annotator"]]} for r in rows]
    random.Random(order_seed).shuffle(out)
    return out


@pytest.mark.parametrize("kind", ["boxes", "labels"])
def test_invariant_to_row_order_and_renaming(kind):
    if kind == "boxes":
        truth, difficulty = images(30, 7)
        a, b = round_rows(truth, difficulty, 0.06, seed=8), round_rows(truth, difficulty, 0.03, seed=9)
    else:
        a, b = labels_rows(40, seed=8, accuracy=0.6), labels_rows(40, seed=9, accuracy=0.8)
    ids = sorted({r["item"] for r in a})
    items = {i: f"z{(k * 7919) % 1000:04d}" for k, i in enumerate(ids)}
    if kind == "labels":  # the labels report draws its items in name order (its own intervals change too)
        items = {i: i for i in ids}
    people = {p: f"person {p[::-1]}" for p in {r["annotator"] for r in a}}
    first = agreekit.compare(kind, a, b, bootstrap=200)
    second = agreekit.compare(kind, _renamed(a, items, people, 1), _renamed(b, items, people, 2), bootstrap=200)
    assert [d.name for d in first.coefficients] == [d.name for d in second.coefficients]
    for x, y in zip(first.coefficients, second.coefficients):  # equal up to the order of float sums
        assert (x.delta is None) == (y.delta is None) and (x.p_value is None) == (y.p_value is None)
        assert x.delta is None or x.delta == pytest.approx(y.delta, rel=1e-9, abs=1e-12)
        assert x.p_value is None or x.p_value == pytest.approx(y.p_value, rel=1e-9, abs=1e-12)
        assert (x.ci is None) == (y.ci is None) and (x.ci is None or x.ci == pytest.approx(y.ci, rel=1e-9, abs=1e-12))


def test_partly_shared_and_disjoint_items():
    a = labels_rows(40, seed=1)
    b = labels_rows(40, seed=2)
    part = [{**r, "item": r["item"] + "x"} if int(r["item"][1:]) >= 20 else r for r in b]
    assert agreekit.compare("labels", a, part, bootstrap=100).resampling.method == "partly paired"
    apart = [{**r, "item": r["item"] + "x"} for r in b]
    c = agreekit.compare("labels", a, apart, bootstrap=100)
    assert c.resampling.method == "independent" and c.resampling.n_shared == 0
    assert any("share no item" in w for w in c.warnings)


def test_per_annotator_and_items_changed():
    a, b = labels_rows(40, seed=1, accuracy=0.5), labels_rows(40, seed=2, accuracy=0.9)
    c = agreekit.compare("labels", a, b, bootstrap=200)
    names = {row.key["annotator"] for row in c.annotators}
    assert names == {"r1", "r2", "r3"}
    kappa = next(d for d in c.annotators[0].differences if d.name == "cohen_kappa")
    assert kappa.ci is not None and kappa.resampling == "paired"
    assert c.items_changed and abs(c.items_changed[0].delta) >= abs(c.items_changed[-1].delta)
    assert all(change.delta != 0 for change in c.items_changed)
    assert agreekit.compare("labels", a, a, bootstrap=0).items_changed == ()  # nothing changed, nothing listed


def test_items_changed_are_ranked_on_one_measure():
    """Boxes: an item without matches in A has no mean distance there; all items are ranked on detection F1."""
    rows_a = ["image_id,annotator,x,y,w,h,label"]
    rows_b = list(rows_a)
    for i in range(6):
        far = 200 if i < 2 else i  # items 0 and 1: the boxes of A do not overlap; the others' distances change in B
        rows_a += [f"im{i},p,10,10,40,30,car", f"im{i},q,{10 + far},10,40,30,car"]
        rows_b += [f"im{i},p,10,10,40,30,car", f"im{i},q,{12 + i},10,40,30,car"]
    c = agreekit.compare("boxes", "\n".join(rows_a) + "\n", "\n".join(rows_b) + "\n", bootstrap=0)
    assert {change.measure for change in c.items_changed} == {"detection_f1"}
    assert [change.item for change in c.items_changed] == ["im0", "im1"]  # F1 0 → 1; the others stay matched


def test_group_by_splits_one_file_like_two():
    a, b = labels_rows(30, seed=1, annotators=("e1", "e2")), labels_rows(30, seed=2, annotators=("c1", "c2"))
    header = "item,annotator,label,group\n"
    text = header + "".join(f"{r['item']},{r['annotator']},{r['label']},{g}\n" for g, rows in
                            (("experts", a), ("crowd", b)) for r in rows)
    rows_a, rows_b, names = agreekit.split_groups(text, "group", ["experts", "crowd"])
    assert names == ("experts", "crowd")
    split = agreekit.compare("labels", rows_a, rows_b, bootstrap=100)
    direct = agreekit.compare("labels", a, b, bootstrap=100)
    assert [(d.delta, d.ci) for d in split.coefficients] == [(d.delta, d.ci) for d in direct.coefficients]
    with pytest.raises(agreekit.InputError, match="group"):
        agreekit.split_groups(text, "nope")


def test_json_is_strict_and_cli_prints_it(tmp_path, capsys):
    a, b = labels_rows(30, seed=1), labels_rows(30, seed=2)
    c = agreekit.compare("labels", a, b, bootstrap=100)
    text = c.to_json()
    assert "NaN" not in text and json.loads(text)["coefficients"][0]["name"] == "coefficients.alpha"
    for name, rows in (("a.csv", a), ("b.csv", b)):
        (tmp_path / name).write_text("item,annotator,label\n" + "".join(
            f"{r['item']},{r['annotator']},{r['label']}\n" for r in rows))
    assert main(["compare", "labels", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--bootstrap", "100",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["coefficients"][0]["delta"] == pytest.approx(c.coefficients[0].delta)
    assert main(["compare", "labels", str(tmp_path / "a.csv"), "--bootstrap", "100"]) == 2
    assert "two files" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["spans", "segments", "polygons", "masks", "cuboids", "traces"])
def test_every_kind_compares_its_example_with_itself(kind):
    from pathlib import Path
    examples = Path(__file__).parents[1] / "web" / "examples"
    rows = (examples / f"{kind}.csv").read_text()
    options = {"lengths": (examples / "spans-lengths.csv").read_text()} if kind == "spans" else {}
    c = agreekit.compare(kind, rows, rows, bootstrap=50, **options)
    assert c.coefficients and all(d.delta in (0.0, None) for d in c.coefficients)
    assert all(d.ci == (0.0, 0.0) for d in c.coefficients if d.ci is not None)
    assert c.resampling.method == ("none" if kind == "masks" else "paired")


def test_cli_names_the_file_an_error_is_in(tmp_path, capsys):
    (tmp_path / "a.csv").write_text("item,annotator,label\nu1,a,x\nu1,b,y\n")
    (tmp_path / "b.csv").write_text("item,annotator,label\nu1,a,x\n,b,y\n")
    assert main(["compare", "labels", str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"agreekit: {tmp_path / 'b.csv'}, line 3, column 'item'") and "\n" not in err


def test_boxes_per_label_rows():
    truth, difficulty = images(20, 3)
    a, b = round_rows(truth, difficulty, 0.06, seed=4), round_rows(truth, difficulty, 0.03, seed=5)
    c = agreekit.compare("boxes", a, b, bootstrap=50)
    assert [row.key for row in c.labels] == [{"label": "object"}]
    sigma = next(d for d in c.labels[0].differences if d.name == "sigma")
    assert sigma.delta == pytest.approx(c.coefficient(SIGMA).delta)
