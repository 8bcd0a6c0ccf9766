"""Cuboid report (agreekit.kinds.cuboids): the box engine over exact IoU₃D."""
import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from scipy.spatial.transform import Rotation

import agreekit
from agreekit import matching
from agreekit.geometry.cuboids import iou3d
from agreekit.rows import InputError
from reference_keys import SUMMARY_KEYS, dotted

REFERENCE = Path(__file__).resolve().parent / "fixtures" / "potato"
ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("cx", "cy", "cz", "sx", "sy", "sz", "qx", "qy", "qz", "qw")


def random_rows(seed, n_items=6, annotators=("a", "b", "c"), tilt=True):
    """Scenes with a few true cuboids; each annotator finds each with probability 0.8,
    with jitter in position, size and rotation, sometimes adds a stray one, and says
    "nothing here" when it drew nothing."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_items):
        truth = [(rng.uniform(-4, 4, 3), rng.uniform(0.8, 3, 3), Rotation.random(random_state=rng))
                 for _ in range(rng.integers(0, 4))]
        for ann in annotators:
            drawn = []
            for centre, size, rot in truth:
                if rng.random() < 0.8:
                    wobble = Rotation.from_rotvec(rng.normal(0, 0.05 if tilt else 0, 3) * [1, 1, 1 if tilt else 0])
                    drawn.append((centre + rng.normal(0, 0.15, 3), size * rng.uniform(0.9, 1.1, 3), wobble * rot))
            if rng.random() < 0.2:
                drawn.append((rng.uniform(-4, 4, 3), rng.uniform(0.8, 3, 3), Rotation.random(random_state=rng)))
            if not drawn:
                rows.append({"item": f"s{i}", "annotator": ann, **{f: None for f in FIELDS}, "label": None})
            for centre, size, rot in drawn:
                rows.append({"item": f"s{i}", "annotator": ann, **dict(zip(FIELDS, map(float, [*centre, *size, *rot.as_quat()]))),
                             "label": str(rng.choice(["car", "van"]))})
    return rows


def as_dict(row):
    return {"center": [row["cx"], row["cy"], row["cz"]], "size": [row["sx"], row["sy"], row["sz"]],
            "rotation": [row["qx"], row["qy"], row["qz"], row["qw"]]}


def brute_force(rows, threshold=0.25):
    """Within and between distances straight from the definitions, one iou3d call per pair."""
    items = {}
    for r in rows:
        by = items.setdefault(r["item"], {}).setdefault(r["annotator"], [])
        if r["cx"] is not None:
            by.append(as_dict(r))
    items = {k: v for k, v in items.items() if len(v) >= 2}
    within, pool = [], []
    for item, by in items.items():
        for a, b in itertools.combinations(sorted(by), 2):
            sim = np.array([[iou3d(p, q) for q in by[b]] for p in by[a]]).reshape(len(by[a]), len(by[b]))
            rows_, cols_ = matching.match(sim, threshold, "optimal")
            within += [1 - sim[i, j] for i, j in zip(rows_, cols_)]
        pool += [(item, c) for cs in by.values() for c in cs]
    between = [1 - iou3d(p[1], q[1]) for p, q in itertools.combinations(pool, 2) if p[0] != q[0]]
    return within, between


@pytest.mark.parametrize("seed", range(4))
def test_sigma_and_ks_match_brute_force(seed):
    rows = random_rows(seed)
    within, between = brute_force(rows)
    loc = agreekit.cuboids(rows, bootstrap=0).localization
    assert loc.n_within == len(within) and loc.n_between == len(between)
    assert loc.mean_within == pytest.approx(np.mean(within), rel=1e-12)
    assert loc.mean_between == pytest.approx(np.mean(between), rel=1e-12)
    assert loc.sigma.value == pytest.approx(1 - np.mean(within) / np.mean(between), abs=1e-12)
    assert loc.ks.value == pytest.approx(stats.ks_2samp(within, between).statistic, abs=1e-12)


def test_same_report_shape_as_boxes():
    cuboid_report = agreekit.cuboids(random_rows(1), bootstrap=0).to_dict()
    box_rows = [{"item": "i", "annotator": a, "x": 0, "y": 0, "w": 1, "h": 1, "label": "x"} for a in "ab"]
    box_report = agreekit.boxes(box_rows, bootstrap=0).to_dict()
    assert set(box_report) - {"n_boxes"} <= set(cuboid_report)
    assert "n_cuboids" in cuboid_report
    for key in ("localization", "detection", "classification"):
        assert set(box_report[key]) <= set(cuboid_report[key])
    for key in ("pairs", "annotators", "labels", "items"):
        assert set(box_report[key][0]) <= set(cuboid_report[key][0])
    assert cuboid_report["kind"] == "cuboids" and cuboid_report["settings"]["threshold"] == 0.25


def test_identical_annotators():
    rows = [r for r in random_rows(2, annotators=("a",)) if r["cx"] is not None]
    twice = rows + [{**r, "annotator": "b"} for r in rows]
    report = agreekit.cuboids(twice, bootstrap=0)
    assert report.localization.sigma.value == pytest.approx(1.0, abs=1e-12)
    assert report.mean_agreement == pytest.approx(1.0, abs=1e-12)
    assert report.mean_matched_iou == pytest.approx(1.0, abs=1e-12)
    assert report.mean_object_count_diff == 0.0 and report.detection_f1 == 1.0


def test_default_threshold_is_a_quarter():
    # Unit cubes shifted by 0.5 along x: IoU = 0.5 / 1.5 = 1/3, a match at 0.25 only.
    rows = []
    for i in range(3):
        for ann, dx in (("a", 0.0), ("b", 0.5)):
            rows.append({"item": f"s{i}", "annotator": ann, "cx": 10 * i + dx, "cy": 0, "cz": 0, "sx": 1, "sy": 1,
                         "sz": 1, "yaw": 0.0, "label": "box"})
    assert agreekit.cuboids(rows, bootstrap=0).mean_matched_iou == pytest.approx(1 / 3, abs=1e-12)
    strict = agreekit.cuboids(rows, threshold=0.5, bootstrap=0)
    assert strict.n_matched_pairs == 0 and strict.mean_agreement == 0.0


def test_mean_agreement_and_count_difference_by_hand():
    base = {"cy": 0, "cz": 0, "sx": 1, "sy": 1, "sz": 1, "yaw": 0.0}
    rows = [
        {"item": "s", "annotator": "a", "cx": 0.0, **base, "label": "car"},
        {"item": "s", "annotator": "a", "cx": 5.0, **base, "label": "car"},
        {"item": "s", "annotator": "b", "cx": 0.5, **base, "label": "van"},  # IoU 1/3, label differs
        {"item": "t", "annotator": "a", "cx": 0.0, **base, "label": "car"},
        {"item": "t", "annotator": "b", **{k: None for k in ("cx", "cy", "cz", "sx", "sy", "sz", "yaw")},
         "label": None},  # saw t, drew nothing
    ]
    report = agreekit.cuboids(rows, bootstrap=0)
    # s: (1/3 · ½) / (2 + 1 − 1); t: one side empty → 0.
    assert report.mean_agreement == pytest.approx(((1 / 6) / 2 + 0.0) / 2, abs=1e-12)
    assert report.mean_object_count_diff == pytest.approx((1 + 1) / 2)
    never_saw = agreekit.cuboids(rows[:4], bootstrap=0)
    assert never_saw.n_items == 1  # t has a single annotator and is left out


def test_yaw_and_quaternion_forms_csv_and_dicts_agree():
    rng = np.random.default_rng(3)
    yaw_rows = []
    for r in random_rows(3):
        geometry = {k: v for k, v in r.items() if k not in ("qx", "qy", "qz", "qw")}
        yaw_rows.append({**geometry, "yaw": None if r["cx"] is None else float(rng.uniform(-math.pi, math.pi))})
    quat_rows = [{k: v for k, v in r.items() if k != "yaw"} | (
        {"qx": 0.0, "qy": 0.0, "qz": math.sin(r["yaw"] / 2), "qw": math.cos(r["yaw"] / 2)} if r["yaw"] is not None
        else {"qx": None, "qy": None, "qz": None, "qw": None}) for r in yaw_rows]
    by_yaw = agreekit.cuboids(yaw_rows, bootstrap=50).to_dict()
    by_quaternion = agreekit.cuboids(quat_rows, bootstrap=50).to_dict()
    assert by_yaw["localization"]["sigma"]["value"] == pytest.approx(by_quaternion["localization"]["sigma"]["value"], abs=1e-12)
    assert by_yaw["mean_agreement"] == pytest.approx(by_quaternion["mean_agreement"], abs=1e-12)
    header = ["item", "annotator", *FIELDS, "label"]
    text = "\n".join([",".join(header)] + [",".join("" if r[k] is None else repr(r[k]) if isinstance(r[k], float)
                                                     else str(r[k]) for k in header) for r in quat_rows])
    with_header = agreekit.cuboids(text, bootstrap=50).to_dict()
    headerless = agreekit.cuboids(text.split("\n", 1)[1], bootstrap=50).to_dict()
    for other in (with_header, headerless):
        assert other["localization"]["sigma"]["value"] == by_quaternion["localization"]["sigma"]["value"]
        assert other["detection"] == by_quaternion["detection"] and other["items"] == by_quaternion["items"]


def test_invariant_to_a_rigid_motion_of_every_scene():
    rows = random_rows(4)
    motion, offset = Rotation.from_euler("xyz", [0.3, -0.2, 1.1]), np.array([100.0, -50.0, 3.0])
    moved = []
    for r in rows:
        if r["cx"] is None:
            moved.append(r)
            continue
        centre = motion.apply([r["cx"], r["cy"], r["cz"]]) + offset
        q = (motion * Rotation.from_quat([r["qx"], r["qy"], r["qz"], r["qw"]])).as_quat()
        moved.append({**r, **dict(zip(FIELDS, [*centre, r["sx"], r["sy"], r["sz"], *q]))})
    a, b = agreekit.cuboids(rows, bootstrap=0), agreekit.cuboids(moved, bootstrap=0)
    assert b.localization.sigma.value == pytest.approx(a.localization.sigma.value, abs=1e-9)
    assert b.localization.ks.value == pytest.approx(a.localization.ks.value, abs=1e-9)
    assert b.detection.value == pytest.approx(a.detection.value, abs=1e-12)


def test_bootstrap_interval_brackets_sigma():
    report = agreekit.cuboids(random_rows(5, n_items=10), bootstrap=300)
    low, high = report.localization.sigma.ci
    assert low <= report.localization.sigma.value <= high


HEADER = "item,annotator,cx,cy,cz,sx,sy,sz,qx,qy,qz,qw,label\n"


@pytest.mark.parametrize("body, line, column", [
    ("s,a,0,0,0,1,1,1,0,0,0,0,car\n", 2, "qx"),             # zero quaternion
    ("s,a,0,0,0,1,-1,1,0,0,0,1,car\n", 2, "sy"),            # negative size
    ("s,a,0,0,0,1,1,1,0,0,0,1,car\ns,b,0,nan,0,1,1,1,0,0,0,1,car\n", 3, "cy"),  # not finite
    ("s,a,0,0,0,1,1,1,0,0,0,1,car\ns,b,0,0,0,1,1,1,0,0,,1,car\n", 3, "qz"),    # partial quaternion
    ("s,a,0,0,,1,1,1,0,0,0,1,car\n", 2, "cz"),              # partial geometry
    ("s,a,,,,,,,,,,,car\n", 2, "label"),                    # label without a cuboid
    ("s,,0,0,0,1,1,1,0,0,0,1,car\n", 2, "annotator"),       # missing annotator
])
def test_bad_rows_name_line_and_column(body, line, column):
    with pytest.raises(InputError) as error:
        agreekit.cuboids(HEADER + body, bootstrap=0)
    assert (error.value.line, error.value.column) == (line, column)


def test_both_rotations_or_none_are_errors():
    text = "item,annotator,cx,cy,cz,sx,sy,sz,qx,qy,qz,qw,yaw,label\ns,a,0,0,0,1,1,1,0,0,0,1,0.3,car\n"
    with pytest.raises(InputError) as error:
        agreekit.cuboids(text, bootstrap=0)
    assert (error.value.line, error.value.column) == (2, "yaw")
    with pytest.raises(InputError) as error:
        agreekit.cuboids("item,annotator,cx,cy,cz,sx,sy,sz,label\ns,a,0,0,0,1,1,1,car\n", bootstrap=0)
    assert error.value.line == 1
    with pytest.raises(InputError):
        agreekit.cuboids(random_rows(0), distance="giou")


def test_zero_size_is_kept_and_warned():
    rows = [{"item": "s", "annotator": a, "cx": 0, "cy": 0, "cz": 0, "sx": 1, "sy": 1, "sz": sz, "yaw": 0,
             "label": "x"} for a, sz in (("a", 1), ("b", 0))]
    report = agreekit.cuboids(rows, bootstrap=0)
    assert report.n_cuboids == 2 and report.n_matched_pairs == 0
    assert any("zero size" in w for w in report.warnings)


def test_cli_json_equals_api(tmp_path):
    rows = random_rows(6)
    header = ["item", "annotator", *FIELDS, "label"]
    path = tmp_path / "cuboids.csv"
    path.write_text("\n".join([",".join(header)] + [",".join("" if r[k] is None else str(r[k]) for k in header)
                                                    for r in rows]))
    env_path = str(ROOT / "pycore")
    out = subprocess.run([sys.executable, "-m", "agreekit", "cuboids", str(path), "--json", "--bootstrap", "20"],
                         capture_output=True, text=True, env={"PYTHONPATH": env_path, "PATH": ""}, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == agreekit.cuboids(path.read_text(), bootstrap=20).to_dict()
    readable = subprocess.run([sys.executable, "-m", "agreekit", "cuboids", str(path), "--bootstrap", "0"],
                              capture_output=True, text=True, env={"PYTHONPATH": env_path, "PATH": ""}, cwd=ROOT)
    assert readable.returncode == 0 and readable.stdout.startswith("agreekit cuboids:")
    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + "s,a,0,0,0,1,1,1,0,0,0,0,car\n")
    out = subprocess.run([sys.executable, "-m", "agreekit", "cuboids", str(bad)], capture_output=True, text=True,
                         env={"PYTHONPATH": env_path, "PATH": ""}, cwd=ROOT)
    assert out.returncode == 2 and "line 2" in out.stderr


# ---------------------------------------------------------------- Potato's 3D corpora

def _corpus_cases():
    path = REFERENCE / "cuboid_corpus.json"
    return json.loads(path.read_text())["cases"] if path.exists() else None


def _flat_row(row):
    """A reference row in our column layout (nested center/size/rotation are spread out)."""
    out = {k: v for k, v in row.items() if k not in ("center", "size", "rotation")}
    for key, names in (("center", FIELDS[0:3]), ("size", FIELDS[3:6]), ("rotation", FIELDS[6:10])):
        if key in row:
            values = row[key] if row[key] is not None else [None] * len(names)
            out.update(zip(names, values))
    return out


def test_reference_cuboid_corpora():
    cases = _corpus_cases()
    if cases is None:
        pytest.skip("cuboid_corpus.json is kept back from the Potato fixtures")
    for case in cases:
        params = case.get("params", {})
        rows = [_flat_row(r) for r in case["input"]["rows"]]
        report = agreekit.cuboids(rows, threshold=params.get("threshold", 0.25), match="potato", bootstrap=0).to_dict()
        compared = 0
        for ref_key, our_key in SUMMARY_KEYS.items():
            if ref_key not in case.get("summary", {}):
                continue
            expected, got = case["summary"][ref_key], dotted(report, our_key)
            if expected is None:
                assert got is None, (case["id"], ref_key)
            else:
                assert got == pytest.approx(expected, abs=1e-9, rel=1e-9), (case["id"], ref_key)
            compared += 1
        assert compared, f"{case['id']}: no summary value to compare"


def _core(report):
    d = report.to_dict()
    return (d["localization"]["sigma"]["value"], d["localization"]["ks"]["value"], d["localization"]["mean_between"],
            d["detection"]["value"], d["classification"]["value"], d["mean_agreement"], d["mean_object_count_diff"])


def test_invariant_to_renaming_reordering_and_scaling():
    rows = random_rows(7)
    base = _core(agreekit.cuboids(rows, bootstrap=0))
    renamed = [{**r, "item": "scene-" + r["item"][::-1], "annotator": r["annotator"].upper()} for r in rows]
    order = np.random.default_rng(0).permutation(len(renamed))
    shuffled = agreekit.cuboids([renamed[i] for i in order], bootstrap=0)
    assert _core(shuffled) == pytest.approx(base, abs=1e-12)
    scaled = [{**r, **{k: (None if r[k] is None else 37.5 * r[k]) for k in FIELDS[:6]}} for r in rows]
    assert _core(agreekit.cuboids(scaled, bootstrap=0)) == pytest.approx(base, abs=1e-9)


def test_potato_mode_keeps_potato_matching():
    # Unit cubes on a line; a shift s along x gives IoU (1 − s)/(1 + s). IoU a0–b0 = 0.9,
    # a0–b1 = a1–b0 = 0.3, a1–b1 = 0. Potato assigns on 1 − IoU over all pairs (total 0.9
    # beats 0.6), then drops the sub-threshold a1–b1: one match. The default rule finds two.
    def shift(iou):
        return (1 - iou) / (1 + iou)

    def cube(annotator, x):
        return {"item": "s", "annotator": annotator, "cx": x, "cy": 0, "cz": 0, "sx": 1, "sy": 1, "sz": 1,
                "yaw": 0.0, "label": "c"}

    e = shift(0.9)
    rows = [cube("a", 0.0), cube("a", e - shift(0.3)), cube("b", e), cube("b", shift(0.3))]
    rows += [{**r, "item": "t"} for r in rows]  # a second scene so that σ has a baseline
    optimal = agreekit.cuboids(rows, bootstrap=0)
    potato = agreekit.cuboids(rows, match="potato", bootstrap=0)
    assert optimal.n_matched_pairs == 4 and optimal.mean_matched_iou == pytest.approx(0.3, abs=1e-12)
    assert potato.n_matched_pairs == 2 and potato.mean_matched_iou == pytest.approx(0.9, abs=1e-12)


def test_kind_distances_in_blocks_equal_the_direct_computation():
    from agreekit.geometry.cuboids import MATRIX_PAIRS, iou_matrix, paired_iou
    from agreekit.kinds.cuboids.compare import cuboid_kind

    rng = np.random.default_rng(9)
    n = 60
    cuboids = np.concatenate([rng.uniform(-3, 3, (n, 3)), rng.uniform(0.5, 2, (n, 3)),
                              Rotation.random(n, random_state=rng).as_quat()], axis=1)
    kind = cuboid_kind(cuboids)
    ia, ib = rng.integers(0, n, MATRIX_PAIRS + 1234), rng.integers(0, n, MATRIX_PAIRS + 1234)
    assert np.array_equal(kind.paired_distance(ia, ib), 1.0 - paired_iou(cuboids[ia], cuboids[ib]))
    block = kind.distance_block(np.arange(10), np.arange(10, n))
    assert np.allclose(block, 1.0 - iou_matrix(cuboids[:10], cuboids[10:]), atol=0)
    assert np.allclose(kind.similarity(np.arange(5)), iou_matrix(cuboids[:5], cuboids[:5]), atol=0)
