"""Compare (1,000 paired resamples) against one report, side by side, on the ~7,500-box crowd corpus;
and the planner's time on a pilot.  Prints medians and the ratio; results in benchmarks/RESULTS.md.

    PYTHONPATH=pycore python benchmarks/compare_bench.py [repeats]
"""
from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import agreekit
from agreekit.simulate import crowd_corpus


def perturbed(rows, seed=1, scale=0.01):
    """A copy of ``rows`` with every box edge moved by Gaussian noise (a second round on the same items)."""
    rng = np.random.default_rng(seed)
    out = []
    for r in rows:
        if r.get("w") in (None, ""):
            out.append(dict(r))
            continue
        dx, dy, dw, dh = rng.normal(0, scale, 4)
        out.append({**r, "x": float(r["x"]) + dx, "y": float(r["y"]) + dy, "w": max(1e-3, float(r["w"]) + dw),
                    "h": max(1e-3, float(r["h"]) + dh)})
    return out


def timed(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main(repeats=3):
    rows = crowd_corpus()
    other = perturbed(rows)
    n_boxes = sum(1 for r in rows if r.get("w") not in (None, ""))
    report, report_b, compare = [], [], []
    for _ in range(repeats):  # interleaved, so load changes hit all alike
        report.append(timed(lambda: agreekit.boxes(rows, bootstrap=1000)))
        compare.append(timed(lambda: agreekit.compare("boxes", rows, other, bootstrap=1000)))
        report_b.append(timed(lambda: agreekit.boxes(other, bootstrap=1000)))
    r, b, c = statistics.median(report), statistics.median(report_b), statistics.median(compare)
    print(f"crowd corpus: {n_boxes:,} boxes; medians of {repeats}")
    print(f"one report A (1,000 resamples)    {r:7.2f} s")
    print(f"one report B (the perturbed copy) {b:7.2f} s")
    print(f"compare (1,000 paired resamples)  {c:7.2f} s   ratio {c / r:.2f}× report A, {c / (r + b):.2f}× A + B")
    pilot = agreekit.simulate.centred_corpus(60, seed=7, annotators=("careful_a", "careful_b"))
    plans = [timed(lambda: agreekit.plan("boxes", pilot, half_width=0.02)) for _ in range(repeats)]
    labels = open("web/examples/labels.csv").read()
    label_plans = [timed(lambda: agreekit.plan("labels", labels, half_width=0.05)) for _ in range(repeats)]
    print(f"plan boxes (60-image pilot)        {statistics.median(plans):7.2f} s")
    print(f"plan labels (web/examples)         {statistics.median(label_plans):7.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
