"""Speed of the whole box report, this code beside earlier commits, in one run (prints figures; not a test).

Corpus: ``agreekit.simulate.crowd_corpus()`` with its defaults (200 images,
196 annotators, 9 per image, 3–6 objects each: ≈ 7,300 boxes, ≈ 26.5 M
between-item pairs); the report is ``agreekit.boxes(rows, bootstrap=1000)``
(exact baseline, with the cross-annotator baselines and σ_B where the code has
them).

Each version (this worktree's ``pycore`` and each ``--against`` commit,
exported with ``git archive``) runs in its own child process, one report to
warm up and one timed; the versions take turns, ``--repeats`` rounds, so load
from other jobs falls on all of them alike.  Printed: the median seconds of
each version (wall clock, and CPU time of the process, which load from
other jobs inflates less), this code's time over its time, and the median seconds of each stage,
read from the report's ``progress`` calls (a stage ends at its last call):

* ``rows``: reading and checking the rows;
* ``matching``: grouping objects, similarities, one matching per annotator pair;
* ``baseline``: raw measures, clusters, within distances, and the streamed
  between-item baseline with its KS counts (and the cross sums);
* ``rest``: the bootstrap, the breakdowns and the report itself.

Then, in this process, the cost that the cross-annotator sums still add to
this code's streamed baseline: ``between_baseline`` with and without them,
alternately, medians.

The defaults compare with 793e2d0 (the last commit before the cross baselines
and σ_B, issue 11: goal ≤ 1.2×) and d0aed2b (the report before this speed
work, issue 15: goal ≤ 0.9 s for this code).

Usage: python benchmarks/box_report_speed.py [--repeats 5] [--against 793e2d0 d0aed2b]
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from git_export import export  # noqa: E402

STAGES = (("rows", "reading rows"), ("matching", "matching"), ("baseline", "chance baseline"),
          ("rest", None))

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import agreekit
from agreekit.simulate import crowd_corpus
rows = crowd_corpus()
agreekit.boxes(rows, bootstrap=1000)
last = {}
def progress(done, total, stage):
    last[stage] = time.perf_counter() - start
start, cpu = time.perf_counter(), time.process_time()
report = agreekit.boxes(rows, bootstrap=1000, progress=progress)
last["end"], last["cpu"] = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"times": last, "sigma": report.localization.sigma.value}))
"""


def child_run(pycore):
    """One timed report by the package under ``pycore``: total and the time of the last call per stage."""
    out = subprocess.run([sys.executable, "-c", CHILD, str(pycore)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def stage_times(marks):
    """Seconds per stage of :data:`STAGES` from the last ``progress`` time of each (None if never called)."""
    out, previous = {}, 0.0
    for name, stage in STAGES:
        end = marks["end"] if stage is None else marks.get(stage)
        out[name] = None if end is None else end - previous
        previous = previous if end is None else end
    return out


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def cross_cost(repeats):
    """Median seconds of this code's streamed baseline with and without the cross-annotator sums."""
    sys.path.insert(0, str(ROOT / "pycore"))
    import numpy as np
    from agreekit.kinds.boxes.compare import box_kind
    from agreekit.kinds.boxes.rows import box_objects, parse_boxes
    from agreekit.measures.chance import between_baseline
    from agreekit.object_sets import canonical_order
    from agreekit.objects import item_label_equality, item_similarities, matched_pairs, pair_matching
    from agreekit.simulate import crowd_corpus
    objects, boxes, _ = box_objects(parse_boxes(crowd_corpus())[0], order=canonical_order)
    kind = box_kind(boxes, "giou")
    sims, labels = item_similarities(objects, kind), item_label_equality(objects, str)
    pairs = matched_pairs(pair_matching(objects, sims, 0.5, "optimal", labels))
    within = np.sort(kind.paired_distance(pairs.a, pairs.b))
    times = {True: [], False: []}
    for _ in range(repeats):
        for cross in (False, True):
            start = time.perf_counter()
            between_baseline(objects, kind, within, cross=cross)
            times[cross].append(time.perf_counter() - start)
    return statistics.median(times[False]), statistics.median(times[True])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--against", nargs="*", default=["793e2d0", "d0aed2b"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        versions = {"this code": ROOT / "pycore", **{c: export(c, tmp) for c in args.against}}
        runs = {name: [] for name in versions}
        for _ in range(args.repeats):
            for name, pycore in versions.items():
                runs[name].append(child_run(pycore))
    print(f"box report, crowd_corpus() defaults, 1000 resamples; medians of {args.repeats} runs, same run")
    ours = statistics.median(r["times"]["end"] for r in runs["this code"])
    ours_cpu = statistics.median(r["times"]["cpu"] for r in runs["this code"])
    header = "".join(f"{name:>10}" for name, _ in STAGES)
    print(f"{'version':>10} {'total':>8} {'this/it':>7} {'CPU':>8} {'this/it':>7} {header}   σ")
    for name, results in runs.items():
        total = statistics.median(r["times"]["end"] for r in results)
        cpu = statistics.median(r["times"]["cpu"] for r in results)
        stages = [stage_times(r["times"]) for r in results]
        cells = "".join(f"{median_or_none([s[stage] for s in stages]) or float('nan'):10.3f}"
                        for stage, _ in STAGES)
        print(f"{name:>10} {total:8.3f} {ours / total:7.2f} {cpu:8.3f} {ours_cpu / cpu:7.2f} {cells}   "
              f"{results[0]['sigma']!r}")
    print("this/it = this code / that version; issue 11: this code / 793e2d0 ≤ 1.2; issue 15: this code ≤ 0.9 s")
    without, with_cross = cross_cost(args.repeats)
    print(f"this code's streamed baseline: {without:.3f} s without the cross sums, {with_cross:.3f} s with them "
          f"({with_cross / without:.2f}×)")


if __name__ == "__main__":
    main()
