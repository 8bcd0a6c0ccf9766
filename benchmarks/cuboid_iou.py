"""Throughput of the exact 3D IoU (agreekit.cuboid): pairs per second.

Three workloads of random rotated cuboids: mostly overlapping pairs (every pair
goes through face clipping), a lidar-like between-item baseline (yaw-only
boxes scattered over 80 m, mostly disjoint, so the separating-axis test sends
most pairs to 0 cheaply), and single calls of ``iou3d`` on dicts. For scale, the
same overlapping pairs through scipy's HalfspaceIntersection + ConvexHull (one
linear program and one qhull call per pair). Medians of several runs; this
machine is noisy, so compare ratios. Last, the full ``agreekit.cuboids`` report
(exact between-item baseline, 1000 bootstrap resamples) on two synthetic corpora of
100 scenes × 3 annotators × 10 cars: upright (yaw only) and tilted (pitch and roll
jitter of 0.1 rad, so every overlapping pair takes the general polyhedron route), and
50 rooms scanned in one shared frame, where most between-item pairs overlap.

    PYTHONPATH=pycore python3 benchmarks/cuboid_iou.py
"""
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, HalfspaceIntersection
from scipy.spatial.transform import Rotation

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pycore"))
import agreekit  # noqa: E402
from agreekit.geometry.cuboids import iou3d, paired_iou, rotation_matrices  # noqa: E402


def overlapping_pairs(rng, n):
    a = np.concatenate([rng.normal(0, 1, (n, 3)), rng.uniform(0.5, 2, (n, 3)),
                        Rotation.random(n, random_state=rng).as_quat()], axis=1)
    b = np.concatenate([a[:, :3] + rng.normal(0, 0.4, (n, 3)), rng.uniform(0.5, 2, (n, 3)),
                        Rotation.random(n, random_state=rng).as_quat()], axis=1)
    return a, b


def lidar_pairs(rng, n):
    def boxes():
        yaw = rng.uniform(-np.pi, np.pi, n)
        return np.concatenate([rng.uniform(-40, 40, (n, 2)), rng.normal(0.9, 0.1, (n, 1)),
                               rng.normal([4.5, 1.9, 1.6], 0.2, (n, 3)),
                               np.zeros((n, 2)), np.sin(yaw / 2)[:, None], np.cos(yaw / 2)[:, None]], axis=1)
    return boxes(), boxes()


def hull_iou(a, b):
    hs = []
    for box in (a, b):
        rot = rotation_matrices(box[6:10])
        for k in range(3):
            for sign in (1.0, -1.0):
                n = sign * rot[:, k]
                hs.append(np.append(n, -(n @ box[:3] + box[3 + k] / 2)))
    hs = np.array(hs)
    norms = np.linalg.norm(hs[:, :3], axis=1)
    res = linprog([0, 0, 0, -1], A_ub=np.hstack([hs[:, :3], norms[:, None]]), b_ub=-hs[:, 3],
                  bounds=[(None, None)] * 3 + [(0, None)])
    if res.status != 0 or res.x[3] < 1e-9:
        return 0.0
    inter = ConvexHull(HalfspaceIntersection(hs, res.x[:3]).intersections).volume
    va, vb = np.prod(a[3:6]), np.prod(b[3:6])
    return inter / (va + vb - inter)


def corpus(rng, upright, n_items=100, n_annotators=3, n_objects=10):
    """Rows of scenes with cars scattered over 60 m × 60 m; each annotator finds each car
    with probability 0.9 and draws it with jitter."""
    rows = []
    for i in range(n_items):
        cars = [(rng.uniform(-30, 30, 3) * [1, 1, 0.05], rng.normal([4.5, 1.9, 1.6], 0.3), rng.uniform(-np.pi, np.pi))
                for _ in range(n_objects)]
        for a in range(n_annotators):
            for centre, size, yaw in cars:
                if rng.random() < 0.9:
                    tilt = (0.0, 0.0) if upright else rng.normal(0, 0.1, 2)
                    q = Rotation.from_euler("zyx", [yaw + rng.normal(0, 0.05), *tilt]).as_quat()
                    c, sz = centre + rng.normal(0, 0.2, 3), size * rng.uniform(0.95, 1.05, 3)
                    rows.append({"item": f"s{i}", "annotator": f"a{a}", "cx": c[0], "cy": c[1], "cz": c[2],
                                 "sx": sz[0], "sy": sz[1], "sz": sz[2], "qx": q[0], "qy": q[1], "qz": q[2],
                                 "qw": q[3], "label": "car"})
    return rows


def indoor_corpus(rng, n_rooms=50, n_annotators=3, n_objects=15):
    """Rooms scanned in one shared frame (8 m × 8 m × 2.5 m): most between-item pairs overlap
    in space, the costly case for the exact baseline."""
    rows = []
    for i in range(n_rooms):
        objects = [(rng.uniform([-4, -4, 0], [4, 4, 2.5]), rng.uniform(0.4, 2.0, 3), rng.uniform(-np.pi, np.pi))
                   for _ in range(n_objects)]
        for a in range(n_annotators):
            for centre, size, yaw in objects:
                if rng.random() < 0.9:
                    q = Rotation.from_euler("zyx", [yaw + rng.normal(0, 0.05), *rng.normal(0, 0.05, 2)]).as_quat()
                    c = centre + rng.normal(0, 0.05, 3)
                    rows.append({"item": f"r{i}", "annotator": f"a{a}", "cx": c[0], "cy": c[1], "cz": c[2],
                                 "sx": size[0], "sy": size[1], "sz": size[2], "qx": q[0], "qy": q[1], "qz": q[2],
                                 "qw": q[3], "label": "object"})
    return rows


def rate(fn, n, repeats):
    """Pairs per second of CPU time (median of ``repeats``): less sensitive to other
    processes on this shared machine than wall time."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return n / statistics.median(times)


def main():
    rng = np.random.default_rng(0)
    n = 200_000
    a, b = overlapping_pairs(rng, n)
    overlap_share = float(np.mean(paired_iou(a, b) > 0))
    print(f"overlapping rotated pairs   {rate(lambda: paired_iou(a, b), n, 3):12,.0f} pairs/s"
          f"   ({overlap_share:.0%} overlap)")
    ya, yb = a.copy(), b.copy()
    for box in (ya, yb):
        yaw = rng.uniform(-np.pi, np.pi, n)
        box[:, 6:] = np.stack([np.zeros(n), np.zeros(n), np.sin(yaw / 2), np.cos(yaw / 2)], axis=1)
    yaw_share = float(np.mean(paired_iou(ya, yb) > 0))
    print(f"overlapping yaw-only pairs  {rate(lambda: paired_iou(ya, yb), n, 3):12,.0f} pairs/s"
          f"   ({yaw_share:.0%} overlap)")
    la, lb = lidar_pairs(rng, n)
    lidar_share = float(np.mean(paired_iou(la, lb) > 0))
    print(f"lidar-like between pairs    {rate(lambda: paired_iou(la, lb), n, 3):12,.0f} pairs/s"
          f"   ({lidar_share:.2%} overlap)")
    dicts = [({"center": x[:3].tolist(), "size": x[3:6].tolist(), "rotation": x[6:].tolist()},
              {"center": y[:3].tolist(), "size": y[3:6].tolist(), "rotation": y[6:].tolist()})
             for x, y in zip(a[:2000], b[:2000])]
    print(f"iou3d(dict, dict) calls     {rate(lambda: [iou3d(x, y) for x, y in dicts], 2000, 3):12,.0f} pairs/s")
    m = 500
    hull_rate = rate(lambda: [hull_iou(x, y) for x, y in zip(a[:m], b[:m])], m, 3)
    print(f"scipy half-space + hull     {hull_rate:12,.0f} pairs/s   (reference method, per pair)")
    check = np.array([hull_iou(x, y) for x, y in zip(a[:m], b[:m])])
    print(f"max |IoU - hull IoU| over {m} pairs: {np.max(np.abs(paired_iou(a[:m], b[:m]) - check)):.1e}")
    corpora = [("upright lidar", corpus(np.random.default_rng(1), True), 3),
               ("tilted lidar ", corpus(np.random.default_rng(1), False), 3),
               ("indoor rooms ", indoor_corpus(np.random.default_rng(2)), 1)]
    for name, rows, repeats in corpora:
        times = []
        for _ in range(repeats):
            start = time.process_time()
            report = agreekit.cuboids(rows)
            times.append(time.process_time() - start)
        loc = report.localization
        print(f"full report, {name} corpus: {len(rows)} cuboids, "
              f"{loc.n_between:,} between pairs (exact), 1000 resamples: {statistics.median(times):.2f} s CPU "
              f"(sigma {loc.sigma:.3f}, mean matched IoU {report.mean_matched_iou:.3f})")


if __name__ == "__main__":
    main()
