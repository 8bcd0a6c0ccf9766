"""The polygon report: the box report's engine with exact polygon IoU / GIoU."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import agreekit
from agreekit.rows import InputError
from agreekit.simulate import crowd_corpus

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = [("detection", "value"), ("classification", "value"), ("localization", "sigma", "value"),
           ("localization", "ks", "value"), ("localization", "mean_within"), ("localization", "mean_between"),
           ("mean_matched_iou",), ("detection_f1",), ("mean_agreement",), ("mean_object_count_diff",)]


def get(d, path):
    for key in path:
        d = d[key]
    return d


def as_polygon_rows(box_rows, transform=None):
    """Each box as a 4-point polygon (counter-clockwise from the top-left corner)."""
    out = []
    for row in box_rows:
        if row.get("x") in (None, ""):
            out.append({"item": row["item"], "annotator": row["annotator"], "points": "", "label": ""})
            continue
        x, y, w, h = (float(row[k]) for k in "xywh")
        pts = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        if transform is not None:
            pts = transform(pts)
        out.append({"item": row["item"], "annotator": row["annotator"],
                    "points": " ".join(f"{v:.17g}" for v in pts.ravel()), "label": row["label"]})
    return out


def small_crowd(seed=5):
    return crowd_corpus(n_images=25, n_annotators=8, per_image=4, objects=(1, 4), seed=seed)


@pytest.mark.parametrize("match", ["optimal", "potato"])
def test_rectangles_reproduce_the_box_report_with_iou_distance(match):
    boxes_rows = small_crowd()
    b = agreekit.boxes(boxes_rows, distance="iou", match=match, bootstrap=200).to_dict()
    p = agreekit.polygons(as_polygon_rows(boxes_rows), distance="iou", match=match, bootstrap=200).to_dict()
    assert p["kind"] == "polygons" and p["n_polygons"] == b["n_boxes"] > 50
    for path in SUMMARY:
        bv, pv = get(b, path), get(p, path)
        assert (bv is None and pv is None) or pv == pytest.approx(bv, abs=1e-9), path
    for key in ("detection", "classification"):
        assert np.allclose(b[key]["ci"], p[key]["ci"], atol=1e-9)
    assert np.allclose(b["localization"]["sigma"]["ci"], p["localization"]["sigma"]["ci"], atol=1e-9)
    assert [(e["a"], e["b"], e["n_matched"]) for e in b["pairs"]] == [(e["a"], e["b"], e["n_matched"]) for e in p["pairs"]]
    assert p["localization"]["between_exact"] and p["localization"]["n_between"] == b["localization"]["n_between"]
    assert b["localization"]["sigma"]["value"] is not None


def rotate(angle, shift=(3.0, -2.0), scale=1.7):
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return lambda pts: scale * pts @ rot.T + shift


@pytest.mark.parametrize("distance", ["giou", "iou"])
def test_rotation_and_scale_invariance(distance):
    """Convex-hull GIoU and IoU do not depend on the frame (box GIoU would)."""
    rows = small_crowd(9)
    base = agreekit.polygons(as_polygon_rows(rows), distance=distance, bootstrap=0).to_dict()
    moved = agreekit.polygons(as_polygon_rows(rows, rotate(0.7)), distance=distance, bootstrap=0).to_dict()
    for path in SUMMARY:
        assert get(moved, path) == pytest.approx(get(base, path), abs=1e-9), path


def test_giou_distance_uses_the_convex_hull():
    """Two rectangles crossing at right angles: the hull, not the enclosing box."""
    rows = [
        {"item": "a", "annotator": "p", "points": "0 1 3 1 3 2 0 2", "label": ""},
        {"item": "a", "annotator": "q", "points": "1 0 2 0 2 3 1 3", "label": ""},
        {"item": "b", "annotator": "p", "points": "0 0 1 0 1 1 0 1", "label": ""},
        {"item": "b", "annotator": "q", "points": "0 0 1 0 1 1 0 1", "label": ""},
    ]
    d = agreekit.polygons(rows, threshold=0.1, bootstrap=0).to_dict()
    # the cross: I = 1, U = 5, hull = 9 − 4 · ½ = 7; GIoU = 1/5 − 2/7
    giou = 1 / 5 - 2 / 7
    assert d["localization"]["n_within"] == 2
    assert d["localization"]["mean_within"] == pytest.approx(((1 - giou) / 2 + 0) / 2, abs=1e-12)


def test_identical_annotators_give_sigma_one_for_convex_polygons():
    rows = small_crowd(2)
    copies = []
    for r in as_polygon_rows(rows):
        copies += [r, {**r, "annotator": r["annotator"] + "_copy"}]
    d = agreekit.polygons(copies, bootstrap=0).to_dict()
    assert d["localization"]["sigma"]["value"] is not None
    # each original matches its copy exactly (other pairs may add non-zero distances)
    pairs = [e for e in d["pairs"] if e["b"] == e["a"] + "_copy"]
    assert pairs and all(e["sigma"]["value"] == pytest.approx(1.0, abs=1e-12) for e in pairs)


def test_saw_nothing_and_never_saw_stay_distinct():
    tri = "0 0 1 0 0 1"
    rows = [
        {"item": "a", "annotator": "p", "points": tri, "label": "x"},
        {"item": "a", "annotator": "q", "points": "", "label": ""},   # saw, drew nothing
        {"item": "b", "annotator": "p", "points": tri, "label": "x"},
        {"item": "b", "annotator": "q", "points": tri, "label": "x"},
        {"item": "c", "annotator": "p", "points": tri, "label": "x"},  # q never saw c
    ]
    d = agreekit.polygons(rows, bootstrap=0).to_dict()
    assert d["n_items"] == 2 and d["n_items_total"] == 3
    assert d["detection_f1"] == pytest.approx(0.5)  # item a: 0, item b: 1
    assert any("only one annotator" in w for w in d["warnings"])


def test_duplicates_are_warned_about():
    tri = "0 0 1 0 0 1"
    rows = [{"item": "a", "annotator": "p", "points": tri, "label": ""},
            {"item": "a", "annotator": "p", "points": tri, "label": ""},
            {"item": "a", "annotator": "q", "points": tri, "label": ""}]
    d = agreekit.polygons(rows, bootstrap=0).to_dict()
    assert any("duplicate identical polygon" in w and "lines 2" in w for w in d["warnings"])


@pytest.mark.parametrize("text, line, column, message", [
    ("item,annotator,points,label\na,p,0 0 1 0 0 1,\na,q,0 0 2 2 2 0 0 2,\n", 3, "points", "self-intersecting"),
    ("item,annotator,points,label\na,p,0 0 1 0 0 1,\na,q,0 0 1 x 0 1,\n", 3, "points", "not a number"),
    ("item,annotator,points,label\na,p,0 0 1 0,\na,q,0 0 1 0 0 1,\n", 2, "points", "at least 3"),
    ("item,annotator,points,label\na,p,,cat\na,q,0 0 1 0 0 1,\n", 2, "label", "without a polygon"),
    ("item,annotator,points,label\na,p,\"[[0,0],[1,0],[nan,1]]\",\n", 2, "points", "JSON"),
])
def test_bad_rows_name_line_and_column(text, line, column, message):
    with pytest.raises(InputError) as err:
        agreekit.polygons(text)
    assert err.value.line == line and err.value.column == column and message in str(err.value)


def test_sampled_baseline_agrees_with_exact():
    rows = as_polygon_rows(small_crowd(4))
    exact = agreekit.polygons(rows, bootstrap=0).to_dict()["localization"]
    sampled = agreekit.polygons(rows, bootstrap=0, pair_budget=1000).to_dict()["localization"]
    assert exact["between_exact"] and not sampled["between_exact"]
    assert abs(sampled["mean_between"] - exact["mean_between"]) < 5 * sampled["between_se"]


def test_cli_polygons(tmp_path):
    path = tmp_path / "polys.csv"
    rows = as_polygon_rows(small_crowd(3))
    path.write_text("item,annotator,points,label\n" + "".join(
        f"{r['item']},{r['annotator']},{r['points']},{r['label']}\n" for r in rows))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "pycore")}
    out = subprocess.run([sys.executable, "-m", "agreekit", "polygons", str(path), "--json", "--bootstrap", "50"],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["kind"] == "polygons"
    assert d["localization"]["sigma"]["value"] == pytest.approx(
        agreekit.polygons(rows, bootstrap=50).to_dict()["localization"]["sigma"]["value"], abs=1e-12)
    text = subprocess.run([sys.executable, "-m", "agreekit", "polygons", str(path), "--bootstrap", "0"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert text.returncode == 0 and text.stdout.startswith(f"agreekit polygons: {d['n_items']} comparable items")
    bad = tmp_path / "bad.csv"
    bad.write_text("item,annotator,points,label\na,p,0 0 2 2 2 0 0 2,\n")
    out = subprocess.run([sys.executable, "-m", "agreekit", "polygons", str(bad)],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 2 and "line 2" in out.stderr


def star_corpus(seed, n_items=12, annotators=("a", "b", "c")):
    """Non-convex star-shaped outlines per item; each annotator jitters the vertices."""
    rng = np.random.default_rng(seed)
    rows = []
    for item in range(n_items):
        n = int(rng.integers(5, 12))
        angles = np.sort(rng.uniform(0, 2 * np.pi, n))
        while np.max(np.diff(np.r_[angles, angles[0] + 2 * np.pi])) >= np.pi:  # keep the centre inside
            angles = np.sort(rng.uniform(0, 2 * np.pi, n))
        radii = rng.uniform(0.3, 1.0, n)
        centre = rng.uniform(-0.5, 0.5, 2)
        for who in annotators:
            r = radii * (1 + rng.normal(0, 0.03, n))
            pts = centre + np.c_[r * np.cos(angles), r * np.sin(angles)]
            rows.append({"item": f"i{item}", "annotator": who,
                         "points": json.dumps(pts.tolist()), "label": "star"})
    return rows


@pytest.mark.parametrize("distance", ["giou", "iou"])
def test_between_baseline_matches_shapely_brute_force(distance):
    shapely = pytest.importorskip("shapely", reason="shapely is the test-only reference")
    rows = star_corpus(1)
    d = agreekit.polygons(rows, distance=distance, bootstrap=0).to_dict()["localization"]
    shapes = [shapely.Polygon(json.loads(r["points"])) for r in rows]
    items = [r["item"] for r in rows]
    values, within = [], []
    for x in range(len(rows)):
        for y in range(x + 1, len(rows)):
            a, b = shapes[x], shapes[y]
            inter, union = a.intersection(b).area, a.union(b).area
            iou = inter / union
            hull = a.union(b).convex_hull.area
            value = (1 - (iou - (hull - union) / hull)) / 2 if distance == "giou" else 1 - iou
            (within if items[x] == items[y] else values).append(value)
    assert d["between_exact"] and d["n_between"] == len(values)
    assert d["mean_between"] == pytest.approx(np.mean(values), abs=1e-12)
    # every jittered outline matches its item's others, so within = all same-item pairs
    assert d["n_within"] == len(within) == 12 * 3
    assert d["mean_within"] == pytest.approx(np.mean(within), abs=1e-12)
    assert d["sigma"]["value"] == pytest.approx(1 - np.mean(within) / np.mean(values), abs=1e-12)


def test_the_pair_budget_counts_vertex_work():
    """Polygons of 320 vertices (10 × the 32 the budget is set for): a budget of 60 pairs computes at
    most 6 exactly, says so, and still reports the user's budget in the settings; small polygons
    keep the budget as given."""
    def ring(n, centre, radius):
        t = np.linspace(0, 2 * np.pi, n, endpoint=False)
        return " ".join(f"{v:.17g}" for v in np.c_[centre + radius * np.cos(t), centre + radius * np.sin(t)].ravel())
    rows = [{"item": f"i{k}", "annotator": a, "points": ring(320, 10 * k, 3 + (a == "B")), "label": "x"}
            for k in range(3) for a in "AB"]  # 6 polygons on 3 items: 12 between-item pairs
    report = agreekit.polygons(rows, bootstrap=0, pair_budget=60).to_dict()
    loc = report["localization"]
    assert report["settings"]["pair_budget"] == 60
    assert not loc["between_exact"] and loc["n_between"] == 6
    assert any("counts vertex work" in w and "at most 6 pairs" in w for w in report["warnings"])
    assert any("more than the budget 6:" in w for w in report["warnings"])
    small = agreekit.polygons(as_polygon_rows(small_crowd(4)), bootstrap=0,
                              pair_budget=10 ** 6).to_dict()
    assert small["localization"]["between_exact"]
    assert not any("vertex work" in w for w in small["warnings"])
