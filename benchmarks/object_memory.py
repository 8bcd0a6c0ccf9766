"""Peak memory and wall time of the object engine on crowded items (issue 27; prints figures, not a test).

Goal: memory grows with the annotations, not with their square:

* ``boxes-4k``: one image, 2 annotators × 4,000 boxes each (each annotator draws the same
  4,000 small objects with edge noise of 4% of their size, 5% missed, 5% spurious): < 500 MB;
* ``boxes-two-images``: two images of 2 annotators × 3,000 boxes: σ's baseline takes all
  36 M between pairs exactly (under the default pair budget), with 1000 resamples;
* ``segments-10k``: one clip, 2 annotators × 10,000 segments each (the same events with
  jittered boundaries, σ = 0.3 of a 1–3 s event): < 1 GB and ≤ 30 s;
* ``boxes-4k-potato``: ``boxes-4k`` in Potato's mode, which assigns over all pairs and so keeps
  each annotator pair's dense block (4,000 × 4,000, never the item's 8,000 × 8,000), and
  ``segments-10k-potato`` likewise (10,000 × 10,000: 800 MB of doubles);
* ``spans-1000``: :mod:`pair_memory`'s span case with 1,000 annotators, each marking 20
  entities on one document of 2,000 characters (α_U meets every unit with every other
  observer: 20 million rows): < 1 GB;
* ``boxes-200k`` is :mod:`memory`'s ``200k-boxes`` case (goal < 2 GB, < 60 s).

Each case runs in a fresh interpreter with one BLAS thread and a capped address space
(``--limit-gb``, 12 by default), which reports its peak resident set size (``ru_maxrss``,
which includes building the rows) and the report's wall time.  ``--compare REV`` also runs
the cases on the package as of git revision ``REV`` (``git archive``), side by side;
``--repeats N`` prints the medians of N runs.

    PYTHONPATH=pycore python3 benchmarks/object_memory.py [--compare REV] [--repeats 3] [--cases boxes-4k,...]
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

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CASES = ("boxes-4k", "boxes-4k-potato", "boxes-two-images", "segments-10k", "segments-10k-potato", "spans-1000")
LABELS = ("car", "person", "bike", "dog")


def crowded_boxes(n=4000, annotators=2, seed=5):
    """One item: ``annotators`` × ~``n`` boxes of the same objects (small, scattered on a 100 × 100 image)."""
    rng = np.random.default_rng(seed)
    size = rng.uniform(0.3, 2.0, size=(n, 2))
    corner = rng.uniform(0, 100, size=(n, 2))
    label = rng.integers(len(LABELS), size=n)
    rows = []
    for a in range(annotators):
        keep = rng.random(n) >= 0.05
        noisy = np.column_stack([corner, size]) + rng.normal(0, 0.04, size=(n, 4)) * np.tile(size, 2)
        spurious = int(round(0.05 * n))
        extra = np.column_stack([rng.uniform(0, 100, (spurious, 2)), rng.uniform(0.3, 2.0, (spurious, 2))])
        boxes = np.vstack([noisy[keep], extra])
        labels = np.concatenate([label[keep], rng.integers(len(LABELS), size=spurious)])
        for (x, y, w, h), lab in zip(boxes.tolist(), labels.tolist()):
            rows.append({"item": "img", "annotator": f"a{a}", "x": x, "y": y, "width": abs(w), "height": abs(h),
                         "label": LABELS[lab]})
    return rows


def crowded_segments(n=10000, annotators=2, seed=6):
    """One clip: ``annotators`` × ``n`` segments of the same events (1–3 s, gaps of 0.5–2 s)."""
    rng = np.random.default_rng(seed)
    length = rng.uniform(1.0, 3.0, n)
    start = np.cumsum(length + rng.uniform(0.5, 2.0, n)) - length
    label = rng.integers(len(LABELS), size=n)
    rows = []
    for a in range(annotators):
        s = start + rng.normal(0, 0.3, n) * length * 0.3
        e = np.maximum(s + 0.05, start + length + rng.normal(0, 0.3, n) * length * 0.3)
        for lo, hi, lab in zip(s.tolist(), e.tolist(), label.tolist()):
            rows.append({"item": "clip", "annotator": f"a{a}", "start": max(lo, 0.0), "end": hi,
                         "label": LABELS[lab]})
    return rows


def run_case(case):
    """Build the case's rows, run its report, print ``{"seconds": …}`` (the child side)."""
    import agreekit
    if case.startswith("boxes-4k"):
        rows, report, kwargs = crowded_boxes(), agreekit.boxes, {"match": "potato"} if "potato" in case else {}
    elif case == "boxes-two-images":
        rows = crowded_boxes(3000) + [{**row, "item": "img2"} for row in crowded_boxes(3000, seed=9)]
        report, kwargs = agreekit.boxes, {}
    elif case.startswith("segments-10k"):
        rows, report, kwargs = crowded_segments(), agreekit.segments, {"match": "potato"} if "potato" in case else {}
    else:
        import pair_memory
        pair_memory.SPAN_ANNOTATORS, pair_memory.SPAN_ENTITIES = 1000, 20
        rows, report, kwargs = pair_memory.span_rows(), agreekit.spans, {"lengths": {"doc": pair_memory.SPAN_LENGTH}}
    start = time.perf_counter()
    out = report(rows, **kwargs)
    seconds = time.perf_counter() - start
    summary = {"seconds": seconds}
    if case == "spans-1000":
        summary.update(exact_f1=out["exact_f1"]["value"], alpha_u=out["unitizing_alpha"]["value"])
    else:
        summary.update(n_matched=out["n_matched_pairs"], detection_alpha=out["detection"]["value"],
                       mean_matched_iou=out["mean_matched_iou"])
        if case == "boxes-two-images":
            summary.update(sigma=out["localization"]["sigma"]["value"],
                           sigma_cross=out["localization"]["sigma_cross"]["value"])
    print(json.dumps(summary))


CHILD = """
import resource, sys, json
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
sys.path[:0] = [{pycore!r}, {bench!r}]
import {module}
try:
    {module}.run_case({case!r})
except MemoryError:
    print(json.dumps({{"error": "MemoryError"}}))
print(json.dumps({{"max_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""


def measure(case, pycore, limit_gb, timeout, module="object_memory"):
    """Run ``case`` (``module.run_case``) in a fresh interpreter on the package in ``pycore``: peak RSS
    (MB), seconds, summary."""
    code = CHILD.format(limit=int(limit_gb * 2 ** 30), pycore=str(pycore), bench=str(ROOT / "benchmarks"),
                        case=case, module=module)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s", "wall_seconds": time.perf_counter() - start, "peak_mb": 0}
    wall = time.perf_counter() - start
    out = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            out.update(json.loads(line))
    if done.returncode and "error" not in out:
        out["error"] = f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"
    out["wall_seconds"] = wall
    out["peak_mb"] = out.pop("max_rss_kb", 0) / 1024
    return out


def main(argv=None, module="object_memory", cases=CASES, description=__doc__, limit_gb=12.0):
    """Parse the command line and print each case's figures (``module``'s cases, as its fresh children run them)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from pair_memory import _line, old_package
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--compare", metavar="REV", help="also run the package as of git revision REV")
    parser.add_argument("--only-before", action="store_true", help="with --compare: run only that revision")
    parser.add_argument("--cases", default=",".join(cases), help="comma-separated: " + ", ".join(cases))
    parser.add_argument("--limit-gb", type=float, default=limit_gb, help="address-space cap of each case")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before a case is stopped")
    parser.add_argument("--repeats", type=int, default=1, help="runs per case and package (medians printed)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        packages = [] if args.only_before and args.compare else [("after", ROOT / "pycore")]
        if args.compare:
            packages.insert(0, ("before", old_package(args.compare, folder)))
        for case in [c for c in args.cases.split(",") if c]:
            for label, pycore in packages:
                runs = [measure(case, pycore, args.limit_gb, args.timeout, module) for _ in range(args.repeats)]
                _line(label, case, median_run(runs))


def median_run(runs):
    """The last run's figures with the medians of its peak and times over ``runs``."""
    out = dict(runs[-1])
    for key in ("peak_mb", "wall_seconds", "seconds"):
        if all(key in run for run in runs):
            out[key] = statistics.median(run[key] for run in runs)
    return out


if __name__ == "__main__":
    main()
