"""COCO RLE (pycocotools as reference), mask IoU on runs, STAPLE (SimpleITK as reference), mask report."""
import json

import numpy as np
import pytest

import agreekit
from agreekit.geometry import rle
from agreekit.parse import rle as rle_text
from agreekit.measures import staple as staple_mod
from agreekit.rows import InputError

coco = pytest.importorskip("pycocotools.mask", reason="pycocotools is the test-only reference for COCO RLE")


def random_masks(seed, count, max_side=40):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        h, w = (int(v) for v in rng.integers(1, max_side, 2))
        kind = rng.integers(0, 4)
        if kind == 0:
            yield rng.random((h, w)) < rng.random()
        elif kind == 1:  # blobs: long runs, large run lengths and differences of both signs
            m = np.zeros((h, w), bool)
            for _ in range(int(rng.integers(0, 4))):
                y, x = rng.integers(0, h), rng.integers(0, w)
                m[y:y + int(rng.integers(1, h + 1)), x:x + int(rng.integers(1, w + 1))] = True
            yield m
        elif kind == 2:
            yield np.zeros((h, w), bool)
        else:
            yield np.ones((h, w), bool)


def coco_rle(mask):
    return coco.encode(np.asfortranarray(mask.astype(np.uint8)))


# --------------------------------------------------------------------------- RLE

def test_rle_matches_pycocotools():
    for mask in random_masks(0, 400):
        ref = coco_rle(mask)
        runs = rle.encode(mask)
        assert rle_text.rle_to_string(runs) == ref["counts"].decode()
        assert np.array_equal(rle_text.rle_from_string(ref["counts"].decode()), runs)
        # compressed strings may start with "[" or be all digits: parse_rle must still read them
        assert np.array_equal(rle_text.parse_rle(ref["counts"].decode(), *mask.shape), runs)
        assert np.array_equal(rle.decode(runs, *mask.shape), mask)
        assert np.array_equal(coco.decode(ref).astype(bool), rle.decode(runs, *mask.shape))
        assert runs.sum() == mask.size and runs[0] == np.sum(np.cumprod(~mask.ravel(order="F")))


def test_compressed_string_that_looks_like_json():
    mask = np.zeros((20, 20), bool)
    mask[3:, 2:] = True  # first run: 2 columns + 3 pixels = 43 background pixels
    text = coco_rle(mask)["counts"].decode()
    assert text.startswith("[")  # 43 = 0b1_01011: low group 11 with the continuation bit, chr(48 + 43)
    assert np.array_equal(rle_text.parse_rle(text, 20, 20), rle.encode(mask))


def test_large_runs_compressed():
    """Runs in the hundreds of thousands need several 5-bit groups and negative differences."""
    mask = np.zeros((1024, 1024), bool)
    mask[100:900, 3:1000] = True
    mask[:, 1010:] = True
    mask[0, 0] = True  # first pixel foreground: the runs start with a 0 background run
    ref = coco_rle(mask)
    runs = rle_text.parse_rle(ref["counts"].decode(), 1024, 1024)
    assert runs[0] == 0
    assert np.array_equal(runs, rle.encode(mask))
    assert rle_text.rle_to_string(runs) == ref["counts"].decode()


@pytest.mark.parametrize("form", ["json", "spaces", "commas", "list", "compressed", "dict"])
def test_parse_forms(form):
    mask = np.zeros((5, 4), bool)
    mask[1:3, 1:3] = True
    runs = rle.encode(mask).tolist()
    value = {"json": json.dumps(runs), "spaces": " ".join(map(str, runs)), "commas": ",".join(map(str, runs)),
             "list": runs, "compressed": coco_rle(mask)["counts"].decode(),
             "dict": {"size": [5, 4], "counts": coco_rle(mask)["counts"].decode()}}[form]
    assert np.array_equal(rle_text.parse_rle(value, 5, 4), runs)


def test_single_integer_is_the_empty_mask_only_when_it_fills_the_image():
    assert rle_text.parse_rle("20", 5, 4).tolist() == [20]
    assert rle_text.parse_rle("", 5, 4).tolist() == [20]
    # otherwise a bare token is the compressed form: "44" decodes to runs 4, 4
    assert rle_text.parse_rle("44", 2, 4).tolist() == [4, 4]


@pytest.mark.parametrize("value, message", [
    ("[3, 4]", "add up to 7"),
    ("3 -1 18", "negative"),
    ("[1.5, 18.5]", "whole numbers"),
    ("ab~", "outside COCO's RLE alphabet"),
    ("0 0 x", "cannot read"),
])
def test_parse_errors_name_the_line(value, message):
    with pytest.raises(InputError) as err:
        rle_text.parse_rle(value, 5, 4, line=9)
    assert message in str(err.value) and err.value.line == 9 and err.value.column == "rle"


def test_mask_iou_and_union_on_runs():
    masks = [m for m in random_masks(3, 300, max_side=25)]
    rng = np.random.default_rng(4)
    for a in masks:
        b = rng.random(a.shape) < rng.random()
        ra, rb = rle.encode(a), rle.encode(b)
        union = (a | b).sum()
        expected = (a & b).sum() / union if union else float("nan")
        got = rle.mask_iou(ra, rb)
        assert (np.isnan(got) and np.isnan(expected)) or got == pytest.approx(expected, abs=1e-15)
        if union:
            ref = coco.iou([coco_rle(a)], [coco_rle(b)], [0])[0, 0]
            assert got == pytest.approx(ref, abs=1e-12)
        assert np.array_equal(rle.union_runs([ra, rb], a.size), rle.encode(a | b))


def test_rle_docstring_examples():
    import doctest

    results = [doctest.testmod(module) for module in (rle, rle_text)]
    assert sum(r.attempted for r in results) >= 10 and sum(r.failed for r in results) == 0


# --------------------------------------------------------------------------- STAPLE

def pixel_staple(d, iterations, start):
    """Slow textbook STAPLE over pixels (no pattern compression), fixed prior, same start."""
    d = d.reshape(len(d), -1).astype(float)
    prior = np.clip(d.mean(), 1e-10, 1 - 1e-10)
    p = np.full(len(d), 0.9999)
    q = np.full(len(d), 0.9999)
    if start == "votes":
        w = d.mean(axis=0)
        p = (d * w).sum(axis=1) / w.sum()
        q = ((1 - d) * (1 - w)).sum(axis=1) / (1 - w).sum()
    for _ in range(iterations):
        f = prior * np.prod(np.where(d == 1, p[:, None], 1 - p[:, None]), axis=0)
        g = (1 - prior) * np.prod(np.where(d == 0, q[:, None], 1 - q[:, None]), axis=0)
        w = f / (f + g)
        p = np.clip((d * w).sum(axis=1) / w.sum(), 1e-10, 1 - 1e-10)
        q = np.clip(((1 - d) * (1 - w)).sum(axis=1) / (1 - w).sum(), 1e-10, 1 - 1e-10)
    return w, p, q


def noisy_raters(seed, n_raters, shape=(30, 40)):
    rng = np.random.default_rng(seed)
    truth = np.zeros(shape, bool)
    y, x = rng.integers(0, shape[0] // 2), rng.integers(0, shape[1] // 2)
    truth[y:y + shape[0] // 2, x:x + shape[1] // 2] = True
    out = []
    for _ in range(n_raters):
        p, q = rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.0)
        out.append(np.where(truth, rng.random(shape) < p, rng.random(shape) > q))
    return np.array(out)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("start", ["votes", "rates"])
def test_pattern_em_equals_pixel_em(seed, start):
    masks = noisy_raters(seed, 2 + seed)
    result = staple_mod.staple(masks, max_iter=25, tol=0, start=start)
    w, p, q = pixel_staple(masks, 25, start)
    assert result.iterations == 25 and not result.converged
    np.testing.assert_allclose(result.sensitivity, p, atol=1e-12)
    np.testing.assert_allclose(result.specificity, q, atol=1e-12)
    np.testing.assert_allclose(result.probability.ravel(), w, atol=1e-10)


def forty_by_forty(seed):
    """The issue's test image: a 20 × 20 square traced exactly by two careful annotators;
    each of three noisy ones marks a random half of the square plus a random 35% of the image."""
    rng = np.random.default_rng(seed)
    truth = np.zeros((40, 40), bool)
    truth[10:30, 10:30] = True
    masks = [truth, truth]
    for _ in range(3):
        masks.append((truth & (rng.random(truth.shape) < 0.5)) | (rng.random(truth.shape) < 0.35))
    return truth, np.array(masks)


def dice(a, b):
    return 2 * np.sum(a & b) / (a.sum() + b.sum())


def test_staple_recovers_the_square_where_majority_vote_does_not():
    staple_dice, vote_dice = [], []
    for seed in range(20):
        truth, masks = forty_by_forty(seed)
        result = staple_mod.staple(masks)
        assert result.converged
        staple_dice.append(dice(result.consensus, truth))
        vote_dice.append(dice(result.majority, truth))
        np.testing.assert_allclose(result.sensitivity[:2], 1, atol=1e-9)
        np.testing.assert_allclose(result.specificity[:2], 1, atol=1e-9)
        assert np.all(result.dice[:2] == 1.0)
    assert np.all(np.array(staple_dice) == 1.0)
    # The construction gives about 0.92 for the 3-of-5 vote (not the 0.846 quoted elsewhere):
    # inside, 1 − 0.325³ of the square; outside, 0.35³ of the background.
    expected = 2 * 400 * (1 - 0.325 ** 3) / (400 * (1 - 0.325 ** 3) + 1200 * 0.35 ** 3 + 400)
    assert np.mean(vote_dice) == pytest.approx(expected, abs=0.01)
    assert max(vote_dice) < 0.97


def test_staple_against_simpleitk():
    sitk = pytest.importorskip("SimpleITK", reason="SimpleITK's STAPLEImageFilter is the test-only reference")
    for seed in range(8):
        masks = noisy_raters(100 + seed, 2 + seed % 5)
        flt = sitk.STAPLEImageFilter()
        flt.SetForegroundValue(1.0)
        flt.SetMaximumIterations(100000)
        probability = sitk.GetArrayFromImage(flt.Execute([sitk.GetImageFromArray(m.astype(np.uint8)) for m in masks]))
        result = staple_mod.staple(masks)
        np.testing.assert_allclose(result.sensitivity, flt.GetSensitivity(), atol=1e-3)
        np.testing.assert_allclose(result.specificity, flt.GetSpecificity(), atol=1e-3)
        np.testing.assert_allclose(result.probability, probability, atol=1e-3)


@pytest.mark.parametrize("n_raters", [9, 21, 64])
def test_many_annotators_take_the_other_pattern_routes(n_raters):
    masks = noisy_raters(n_raters, n_raters, shape=(12, 10))
    result = staple_mod.staple(masks, max_iter=10, tol=0)
    w, p, q = pixel_staple(masks, 10, "votes")
    np.testing.assert_allclose(result.sensitivity, p, atol=1e-10)
    np.testing.assert_allclose(result.probability.ravel(), w, atol=1e-10)
    assert np.array_equal(result.majority, masks.sum(axis=0) * 2 > n_raters)


def test_start_matters_only_with_two_annotators():
    for seed in range(6):
        masks = noisy_raters(200 + seed, 2 + seed)
        votes, rates = staple_mod.staple(masks, start="votes"), staple_mod.staple(masks, start="rates")
        gap = np.max(np.abs(votes.sensitivity - rates.sensitivity))
        if len(masks) >= 3:
            assert gap < 1e-6
        else:
            assert gap > 1e-4  # not identifiable: the limit depends on where EM starts


def test_staple_on_runs_equals_staple_on_pixels():
    masks = noisy_raters(7, 5, shape=(64, 48))
    runs = [rle.encode(m) for m in masks]
    result, consensus_runs, majority_runs, pair_iou = staple_mod.staple_runs(runs, masks[0].size)
    ref = staple_mod.staple(masks)
    np.testing.assert_allclose(result.sensitivity, ref.sensitivity, atol=1e-12)
    np.testing.assert_allclose(result.dice, ref.dice, atol=1e-12)
    assert np.array_equal(rle.decode(consensus_runs, 64, 48), ref.consensus)
    assert np.array_equal(rle.decode(majority_runs, 64, 48), ref.majority)
    for a in range(5):
        for b in range(5):
            assert pair_iou[a, b] == pytest.approx(rle.mask_iou(runs[a], runs[b]), abs=1e-15)


def test_staple_docstring_examples():
    import doctest

    result = doctest.testmod(staple_mod)
    assert result.attempted >= 1 and result.failed == 0


def test_staple_edge_cases():
    empty = np.zeros((3, 8, 8), bool)
    for start in staple_mod.STARTS:
        result = staple_mod.staple(empty, start=start)
        assert not result.consensus.any()
        assert np.all(np.isnan(result.sensitivity))  # no foreground: undefined, not 0 or 1
        assert np.all(result.dice == 1.0)  # both empty
    assert not staple_mod.staple(empty, start="potato").converged  # Potato's early stop on ΣW < ε
    with pytest.raises(InputError):
        staple_mod.staple(empty[:1])
    same = np.zeros((4, 6, 6), bool)
    same[:, 2:4, 1:5] = True
    result = staple_mod.staple(same)
    assert np.array_equal(result.consensus, same[0]) and np.all(result.dice == 1.0)


# --------------------------------------------------------------------------- report

def mask_rows(masks_by_item, compressed=False, label="cell"):
    rows = ["item,annotator,width,height,rle,label"]
    for item, masks in masks_by_item.items():
        for k, m in enumerate(masks):
            runs = rle_text.rle_to_string(rle.encode(m)) if compressed else " ".join(map(str, rle.encode(m)))
            rows.append(f"{item},r{k},{m.shape[1]},{m.shape[0]},{runs},{label}")
    return "\n".join(rows)


def test_report_matches_direct_staple():
    data = {f"img{s}": forty_by_forty(s)[1] for s in range(3)}
    report = agreekit.masks(mask_rows(data, compressed=True))
    d = report.to_dict()
    json.dumps(d, allow_nan=False)
    assert d["kind"] == "masks" and d["n_items"] == 3 and d["n_annotators"] == 5 and d["n_masks"] == 15
    for entry in d["items"]:
        masks = data[entry["item"]]
        ref = staple_mod.staple(masks)
        np.testing.assert_allclose(entry["sensitivity"], ref.sensitivity, atol=1e-12)
        np.testing.assert_allclose(entry["dice"], ref.dice, atol=1e-12)
        assert np.array_equal(rle.decode(entry["consensus_rle"], 40, 40), ref.consensus)
        for k, runs in enumerate(entry["annotator_rle"]):  # what the page draws
            assert np.array_equal(rle.decode(runs, 40, 40), masks[int(entry["annotators"][k][1:])])
        assert entry["consensus_area"] == ref.consensus.sum()
    careful = d["annotators"][0]
    assert careful["annotator"] == "r0" and careful["sensitivity"]["value"] == pytest.approx(1.0)
    noisy = d["annotators"][4]
    sens = np.mean([staple_mod.staple(m).sensitivity[4] for m in data.values()])
    assert noisy["sensitivity"]["value"] == pytest.approx(sens, abs=1e-12)
    ious = [rle.mask_iou(rle.encode(m[0]), rle.encode(m[4])) for m in data.values()]
    pair = next(p for p in d["pairs"] if (p["a"], p["b"]) == ("r0", "r4"))
    assert pair["mean_iou"]["value"] == pytest.approx(np.mean(ious), abs=1e-12)


def test_report_unions_several_masks_and_filters_labels():
    a = np.zeros((6, 6), bool)
    a[:3, :3] = True
    b = np.zeros((6, 6), bool)
    b[3:, 3:] = True
    rows = [
        {"item": "x", "annotator": "p", "width": 6, "height": 6, "rle": rle.encode(a).tolist(), "label": "cat"},
        {"item": "x", "annotator": "p", "width": 6, "height": 6, "rle": rle.encode(b).tolist(), "label": "dog"},
        {"item": "x", "annotator": "q", "width": 6, "height": 6, "rle": rle.encode(a | b).tolist(), "label": "cat"},
        {"item": "x", "annotator": "s", "width": 6, "height": 6, "rle": "", "label": ""},  # saw, marked nothing
        {"item": "y", "annotator": "p", "width": 6, "height": 6, "rle": rle.encode(a).tolist(), "label": "cat"},
    ]
    d = agreekit.masks(rows).to_dict()
    assert d["n_items"] == 1 and any("only one annotator" in w for w in d["warnings"])
    pair = {(p["a"], p["b"]): p["mean_iou"]["value"] for p in d["pairs"]}
    assert pair[("p", "q")] == 1.0 and pair[("p", "s")] == 0.0
    d = agreekit.masks(rows, label="cat").to_dict()
    pair = {(p["a"], p["b"]): p["mean_iou"]["value"] for p in d["pairs"]}
    assert pair[("p", "q")] == pytest.approx(0.5)


@pytest.mark.parametrize("bad, column, message", [
    ({"width": 0}, "width", "positive"),
    ({"height": "x"}, "height", "not a number"),
    ({"rle": "[5, 5]"}, "rle", "add up to 10"),
    ({"width": 5, "rle": "25"}, "width", "is 6 × 6"),
])
def test_report_errors_name_the_row(bad, column, message):
    rows = [{"item": "x", "annotator": a, "width": 6, "height": 6, "rle": "36", "label": ""} for a in "pqr"]
    rows[2] = {**rows[2], **bad}
    with pytest.raises(InputError) as err:
        agreekit.masks(rows)
    assert err.value.line == 3 and err.value.column == column and message in str(err.value)


def test_report_with_no_foreground_says_why():
    rows = [{"item": "x", "annotator": a, "width": 4, "height": 4, "rle": "", "label": ""} for a in "pq"]
    d = agreekit.masks(rows).to_dict()
    assert d["annotators"][0]["sensitivity"]["value"] is None
    assert "no item defines" in d["annotators"][0]["sensitivity"]["reason"]
    assert d["annotators"][0]["specificity"]["value"] == pytest.approx(1.0)
    assert any("empty consensus" in w for w in d["warnings"])


def test_cli_masks(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    data = {f"img{s}": forty_by_forty(s)[1] for s in range(2)}
    path = tmp_path / "masks.csv"
    path.write_text(mask_rows(data, compressed=False) + "\n")
    env = {**os.environ, "PYTHONPATH": str(root / "pycore")}
    out = subprocess.run([sys.executable, "-m", "agreekit", "masks", str(path), "--json"],
                         capture_output=True, text=True, env=env, cwd=root)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["kind"] == "masks" and d["n_items"] == 2
    assert d["annotators"][0]["dice"]["value"] == pytest.approx(1.0)
    text = subprocess.run([sys.executable, "-m", "agreekit", "masks", str(path)],
                          capture_output=True, text=True, env=env, cwd=root)
    assert text.returncode == 0 and "mean pairwise mask IoU" in text.stdout
    r0 = next(line for line in text.stdout.splitlines() if line.startswith("r0 "))
    assert r0.split()[1:4] == ["1.0000", "1.0000", "1.0000"]  # sensitivity, specificity, Dice vs STAPLE
    bad = tmp_path / "bad.csv"
    bad.write_text("item,annotator,width,height,rle,label\na,p,4,4,3 3,\n")
    out = subprocess.run([sys.executable, "-m", "agreekit", "masks", str(bad)],
                         capture_output=True, text=True, env=env, cwd=root)
    assert out.returncode == 2 and "line 2" in out.stderr and "add up to 6" in out.stderr


def potato_staple_by_pixels(d):
    """Potato 2.8's STAPLE (docs/potato-differences.md) transcribed pixel by pixel (no vote patterns)."""
    eps = 1e-10
    d = d.reshape(len(d), -1).astype(float)
    prior = np.clip(d.mean(), eps, 1 - eps)
    p = np.full(len(d), 0.9999)
    q = np.full(len(d), 0.9999)
    w_prev = np.full(d.shape[1], prior)
    for iteration in range(1, 51):
        log_f = np.log(prior + eps) + (d * np.log(p + eps)[:, None] + (1 - d) * np.log(1 - p + eps)[:, None]).sum(0)
        log_g = np.log(1 - prior + eps) + ((1 - d) * np.log(q + eps)[:, None] + d * np.log(1 - q + eps)[:, None]).sum(0)
        top = np.maximum(log_f, log_g)
        w = np.exp(log_f - top) / (np.exp(log_f - top) + np.exp(log_g - top) + eps)
        if w.sum() < eps or (1 - w).sum() < eps:
            return w, p, q, iteration, False
        p = np.clip((w * d).sum(1) / w.sum(), eps, 1 - eps)
        q = np.clip(((1 - w) * (1 - d)).sum(1) / (1 - w).sum(), eps, 1 - eps)
        if np.abs(w - w_prev).mean() < 1e-7:
            return w, p, q, iteration, True
        w_prev = w
    return w, p, q, 50, False


@pytest.mark.parametrize("seed", range(5))
def test_potato_variant(seed):
    masks = noisy_raters(300 + seed, 2 + seed)
    result = staple_mod.staple(masks, start="potato")
    w, p, q, iterations, converged = potato_staple_by_pixels(masks)
    assert result.iterations == iterations and result.converged == converged
    np.testing.assert_allclose(result.sensitivity, p, atol=1e-12)
    np.testing.assert_allclose(result.specificity, q, atol=1e-12)
    np.testing.assert_allclose(result.probability.ravel(), w, atol=1e-12)
    if len(masks) >= 3 and converged:
        np.testing.assert_allclose(result.sensitivity, staple_mod.staple(masks).sensitivity, atol=1e-5)
