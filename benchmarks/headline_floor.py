"""The headline job against its physical floor (prints figures; not a test).

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
annotators, 9 per image, 3–6 objects each: 7,303 boxes, 26.5 M between pairs).

Each round runs one child process per version (this checkout's ``pycore`` and,
with ``--against``, that commit's, exported with ``git archive``), the
versions taking turns, so load from other jobs falls on all alike.  A child
builds the corpus, runs (a) and (b) once untimed, then times (a), (b) and, once,
the report's steps one by one as ``benchmarks/box_report_stages.py`` calls
them.  Printed per version: medians over the rounds of (a) and (b) (wall clock
and process CPU time, which other jobs' load inflates less), the ratio (a)/(b),
the load average before and after, and the stage breakdown of (a).

BLAS runs on one thread (``OPENBLAS_NUM_THREADS=1``, ``OMP_NUM_THREADS=1``
unless set), as in the other benchmarks on this shared 2-core machine: the
floor is single-threaded numpy, and OpenBLAS's threads on the bootstrap's
small products oversubscribe the loaded cores (the bootstrap stage took
0.21 s wall instead of 0.02 s at load 4, and 1.99 s in one run).

Usage: python benchmarks/headline_floor.py [--repeats 5] [--against f7be6be] [--block 32768]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from git_export import export  # noqa: E402

RESAMPLES = 1000
SEED = 20260813
STAGES = ("rows", "matching", "raw + clusters", "baseline", "bootstrap", "breakdowns", "json")


class Floor:
    """(b): every between-item pair's GIoU distance, blockwise in preallocated buffers, summed."""

    def __init__(self, boxes, offsets, block):
        import numpy as np
        self.np = np
        x, y, w, h = np.asarray(boxes, dtype=float).T
        self.x, self.y, self.x2, self.y2 = x, y, x + w, y + h
        self.area = (self.x2 - x) * (self.y2 - y)
        self.offsets = np.asarray(offsets, dtype=np.intp)
        self.block = block
        self.work = np.empty((5, block))

    def pairs(self):
        sizes = self.np.diff(self.offsets).astype(float)
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
        # Written out, not agreekit.geometry.boxes' kernel: the floor is the least numpy must do, the same
        # for every version timed (the kernel is part of what is measured against it).
        np = self.np
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


def report_stages(agreekit, rows):
    """The report's steps one by one (``box_report_stages.STAGE_STEPS``, timed here in wall and CPU
    seconds), then its JSON: {stage: (wall, CPU)}."""
    from box_report_stages import STAGE_STEPS
    steps = {}
    exec(STAGE_STEPS, steps)  # the same steps box_report_stages.py times in both runtimes
    times = {}

    def timed(stage, function):
        start, cpu = time.perf_counter(), time.process_time()
        out = function()
        times[stage] = (time.perf_counter() - start, time.process_time() - cpu)
        return out
    steps["report_stages"](rows, timed, resamples=RESAMPLES, seed=SEED)
    report = agreekit.boxes(rows, bootstrap=RESAMPLES)
    timed("json", report.to_json)
    return times


def timed_run(function):
    wall, cpu = time.perf_counter(), time.process_time()
    out = function()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def child(pycore, block):
    """One round of one version: prints one JSON line of (a), (b) and the stages."""
    sys.path.insert(0, str(pycore))
    import agreekit
    from agreekit.kinds.boxes.rows import box_objects, parse_boxes
    from agreekit.object_sets import canonical_order
    from agreekit.simulate import crowd_corpus
    rows = crowd_corpus()
    objects, boxes, _ = box_objects(parse_boxes(rows)[0], order=canonical_order)
    floor = Floor(boxes, objects.offsets, block)

    def report():
        return agreekit.boxes(rows, bootstrap=RESAMPLES).to_json()
    report(), floor.run()   # warm-up
    a_wall, a_cpu, text = timed_run(report)
    b_wall, b_cpu, total = timed_run(floor.run)
    print(json.dumps({"report": [a_wall, a_cpu], "floor": [b_wall, b_cpu], "floor_sum": total,
                      "stages": report_stages(agreekit, rows), "json_chars": len(text),
                      "sigma": json.loads(text)["localization"]["sigma"]["value"],
                      "corpus": [len(rows), objects.n_items, len(objects.annotators), int(objects.offsets[-1]),
                                 floor.pairs()]}))


def run_child(pycore, block):
    env = {**os.environ, "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "1"),
           "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    out = subprocess.run([sys.executable, __file__, "--child", str(pycore), "--block", str(block)],
                         check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.splitlines()[-1])


def median_of(runs, key, k):
    return statistics.median(run[key][k] for run in runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--block", type=int, default=1 << 15, help="elements per block of the floor")
    parser.add_argument("--against", nargs="*", default=[], help="commits whose pycore runs too, side by side")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.block)
    with tempfile.TemporaryDirectory() as tmp:
        versions = {commit: export(commit, tmp) for commit in args.against}
        versions["this code"] = ROOT / "pycore"
        load_before = os.getloadavg()
        runs = {name: [] for name in versions}
        for _ in range(args.repeats):
            for name, pycore in versions.items():
                runs[name].append(run_child(pycore, args.block))
        load_after = os.getloadavg()
    first = runs["this code"][0]
    print("crowd_corpus(): {:,} rows, {} items, {} annotators, {:,} boxes, {:,} between-item pairs".format(
        *first["corpus"]))
    print(f"medians of {args.repeats} rounds, versions taking turns; load average (1 min) {load_before[0]:.2f} "
          f"before, {load_after[0]:.2f} after; floor block {args.block} elements; OPENBLAS_NUM_THREADS="
          f"{os.environ.get('OPENBLAS_NUM_THREADS', '1')}")
    names = list(versions)
    print(f"{'':>26}" + "".join(f"{name:>24}" for name in names))
    for label, key in (("(a) report + JSON", "report"), ("(b) bare GIoU floor", "floor")):
        for k, unit in ((0, "wall"), (1, "CPU")):
            print(f"{label + ' ' + unit:>26}" + "".join(f"{median_of(runs[n], key, k):22.3f} s" for n in names))
    for k, unit in ((0, "wall"), (1, "CPU")):
        ratios = [statistics.median(r["report"][k] / r["floor"][k] for r in runs[n]) for n in names]
        print(f"{'ratio (a)/(b) ' + unit:>26}" + "".join(f"{ratio:24.2f}" for ratio in ratios))
    print(f"{'σ':>26}" + "".join(f"{runs[n][0]['sigma']:24.15f}" for n in names))
    print("stages of (a), medians, seconds wall / CPU (CPU over the floor's CPU):")
    for stage in STAGES:
        cells = []
        for n in names:
            wall = statistics.median(r["stages"][stage][0] for r in runs[n])
            cpu = statistics.median(r["stages"][stage][1] for r in runs[n])
            cells.append(f"{wall:.3f} / {cpu:.3f} ({cpu / median_of(runs[n], 'floor', 1):.2f}×)")
        print(f"{stage:>26}" + "".join(f"{cell:>24}" for cell in cells))


if __name__ == "__main__":
    main()
