"""The headline job against its physical floor, in one process (prints figures; not a test).

Issue 27's goal "CPython, the headline job": the exact box report with 1000
resamples on a crowd-sized corpus must take at most 1.4× a *bare pass* that
computes only the GIoU distances of the same between-item pairs.

* **(a) the report**: ``agreekit.boxes(rows, bootstrap=1000)`` and its strict
  JSON (``Report.to_json()``, what the CLI's ``--json`` and the page's worker
  send), from the same list of row dicts each time.
* **(b) the floor**: for the same boxes (read once, untimed, as the report
  reads them), every pair of objects on different items: its GIoU distance
  (1 − GIoU)/2 computed with numpy, block by block (one item's objects × up
  to ``--block`` elements of the objects of later items), in place in
  preallocated float64 buffers (no Python loop per pair), each block summed
  so nothing is optimised away.  That is the least any exact baseline must do.

Corpus: ``agreekit.simulate.crowd_corpus()`` defaults (200 images, 196
annotators, 9 per image, 3–6 objects each).  (a) and (b) take turns,
``--repeats`` rounds after one untimed round of each, so load from other jobs
falls on both alike; printed: medians (wall clock and process CPU), the ratio
(a)/(b), the load average before and after, and the stage breakdown of (a)
(its steps called one by one as ``benchmarks/box_report_stages.py`` calls
them, medians of the same rounds).

BLAS runs on one thread (``OPENBLAS_NUM_THREADS=1``, ``OMP_NUM_THREADS=1``,
set before numpy loads unless already set), as in the other benchmarks on this
shared 2-core machine: the floor is single-threaded numpy, and OpenBLAS's
threads on the bootstrap's small products oversubscribe the loaded cores
(the bootstrap stage took 0.21 s instead of 0.02 s wall, 1.99 s under load 4).

Usage: python benchmarks/headline_floor.py [--repeats 5] [--block 32768] [--no-stages]
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore"))

import agreekit  # noqa: E402
from agreekit import breakdowns  # noqa: E402
from agreekit import objects as engine  # noqa: E402
from agreekit.kinds.boxes.compare import box_kind  # noqa: E402
from agreekit.kinds.boxes.rows import box_objects, parse_boxes  # noqa: E402
from agreekit.object_sets import canonical_order, label_rules  # noqa: E402
from agreekit.simulate import crowd_corpus  # noqa: E402

RESAMPLES = 1000
SEED = 20260813


def full_report(rows):
    """(a): the report and its JSON text, as the CLI and the page compute them."""
    return agreekit.boxes(rows, bootstrap=RESAMPLES).to_json()


class Floor:
    """(b): every between-item pair's GIoU distance, blockwise in preallocated buffers, summed."""

    def __init__(self, boxes, offsets, block):
        x, y, w, h = np.asarray(boxes, dtype=float).T
        self.x, self.y, self.x2, self.y2 = x, y, x + w, y + h
        self.area = (self.x2 - x) * (self.y2 - y)
        self.offsets = np.asarray(offsets, dtype=np.intp)
        self.block = block
        self.work = np.empty((5, block))

    def pairs(self):
        sizes = np.diff(self.offsets).astype(float)
        return int((sizes.sum() ** 2 - (sizes ** 2).sum()) / 2)

    def run(self):
        total, n = 0.0, len(self.x)
        for p in range(len(self.offsets) - 1):
            r0, r1 = self.offsets[p], self.offsets[p + 1]
            if r1 == r0 or r1 == n:
                continue
            width = max(1, self.block // (r1 - r0))
            rows = tuple(v[r0:r1, None] for v in (self.x, self.y, self.x2, self.y2, self.area))
            for c0 in range(r1, n, width):
                c1 = min(n, c0 + width)
                cols = tuple(v[c0:c1] for v in (self.x, self.y, self.x2, self.y2, self.area))
                total += self._block(rows, cols, (r1 - r0) * (c1 - c0))
        return total

    def _block(self, rows, cols, size):
        x, y, x2, y2, area_a = rows
        bx, by, bx2, by2, area_b = cols
        shape = (len(x), len(bx))
        edge, ow, oh, hull, hull_h = (buffer[:size].reshape(shape) for buffer in self.work)
        np.minimum(x2, bx2, out=ow)
        ow -= np.maximum(x, bx, out=edge)
        np.minimum(y2, by2, out=oh)
        oh -= np.maximum(y, by, out=edge)
        np.maximum(x2, bx2, out=hull)
        hull -= np.minimum(x, bx, out=edge)
        np.maximum(y2, by2, out=hull_h)
        hull_h -= np.minimum(y, by, out=edge)
        hull *= hull_h
        np.maximum(ow, 0.0, out=ow)
        np.maximum(oh, 0.0, out=oh)
        oh *= ow                                   # intersection I
        union = np.add(area_a, area_b, out=hull_h)
        union -= oh                                # union U
        oh /= union
        oh += np.divide(union, hull, out=hull)     # I/U + U/H
        oh *= -0.5
        oh += 1.0                                  # (1 − GIoU)/2 = 1 − (I/U + U/H)/2
        return float(oh.sum())


def report_stages(rows, times):
    """The report's steps one by one, timed into ``times`` (as ``benchmarks/box_report_stages.py``)."""
    def timed(stage, function):
        start = time.perf_counter()
        out = function()
        times.setdefault(stage, []).append(time.perf_counter() - start)
        return out
    label_key, label_equal = label_rules(False)
    objects, boxes, _ = timed("rows", lambda: box_objects(parse_boxes(rows)[0], order=canonical_order))
    kind = box_kind(boxes, "giou")

    def matching():
        sims = engine.item_similarities(objects, kind)
        same = engine.item_label_equality(objects, label_key)
        return sims, same, engine.pair_matching(objects, sims, 0.5, "optimal", same)
    sims, same, records = timed("matching", matching)

    def raw_and_clusters():
        raw = engine.raw_measures(objects, records, label_equal)
        groups = engine.item_clusters(objects, sims, 0.5, "optimal", same)
        return raw, engine.alpha_inputs(objects, groups, label_key)
    raw, alpha_in = timed("raw + clusters", raw_and_clusters)
    pairs = engine.matched_pairs(records)
    loc = timed("baseline", lambda: engine.localize(objects, kind, pairs, 50_000_000, SEED, None))
    cis = timed("bootstrap", lambda: engine.bootstrap_intervals(objects.n_items, loc, alpha_in, RESAMPLES, SEED))
    timed("breakdowns", lambda: (engine.localization_section(loc, cis, cis["baseline_interval_se"]),
                                 breakdowns.tables(objects, records, pairs, raw, loc, label_key)))
    report = agreekit.boxes(rows, bootstrap=RESAMPLES)
    timed("json", report.to_json)


def timed_run(function):
    wall, cpu = time.perf_counter(), time.process_time()
    out = function()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--block", type=int, default=1 << 15, help="elements per block of the floor")
    parser.add_argument("--no-stages", action="store_true")
    args = parser.parse_args()
    rows = crowd_corpus()
    objects, boxes, _ = box_objects(parse_boxes(rows)[0], order=canonical_order)
    floor = Floor(boxes, objects.offsets, args.block)
    load_before = os.getloadavg()
    full_report(rows), floor.run()   # warm-up
    report_times, floor_times, stages = [], [], {}
    for _ in range(args.repeats):
        report_times.append(timed_run(lambda: full_report(rows)))
        floor_times.append(timed_run(floor.run))
        if not args.no_stages:
            report_stages(rows, stages)
    load_after = os.getloadavg()
    report_wall = statistics.median(t[0] for t in report_times)
    report_cpu = statistics.median(t[1] for t in report_times)
    floor_wall = statistics.median(t[0] for t in floor_times)
    floor_cpu = statistics.median(t[1] for t in floor_times)
    print(f"crowd_corpus(): {len(rows):,} rows, {objects.n_items} items, {len(objects.annotators)} annotators, "
          f"{int(objects.offsets[-1]):,} boxes, {floor.pairs():,} between-item pairs")
    print(f"medians of {args.repeats}, taking turns; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after; floor block {args.block} elements; "
          f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")
    print(f"(a) report + JSON, {RESAMPLES} resamples: {report_wall:.3f} s wall, {report_cpu:.3f} s CPU")
    print(f"(b) bare GIoU floor:                  {floor_wall:.3f} s wall, {floor_cpu:.3f} s CPU "
          f"(sum {floor_times[-1][2]:.6f})")
    print(f"ratio (a)/(b): {report_wall / floor_wall:.2f} wall, {report_cpu / floor_cpu:.2f} CPU  (goal ≤ 1.4)")
    if stages:
        print("stages of (a), medians:")
        for stage, values in stages.items():
            median = statistics.median(values)
            print(f"  {stage:>15} {median:7.3f} s  {median / floor_wall:5.2f} × floor")


if __name__ == "__main__":
    main()
