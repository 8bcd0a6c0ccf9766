"""Box report speed on a crowd-shaped corpus (prints figures; not a test).

Corpus: 200 images, 196 annotators, 9 annotators per image, 3–6 objects per
image (≈ 7,300 boxes; ≈ 26.5 M between-item pairs).  Measures, median of
``--repeats`` runs each:

* the full report (exact baseline, 1000 bootstrap resamples);
* the chance baseline alone, as Mpairs/s;
* a naive baseline side by side: all between distances materialized in one
  matrix, KS by ``scipy.stats.ks_2samp`` (sorting everything);
* the cost of the cross-annotator baseline: the streamed baseline with and
  without it, and (``--against COMMIT``) the full report of that commit's
  code, exported with ``git archive`` and timed in a child process
  alternately with this code's, medians of the same run.

Usage: PYTHONPATH=pycore python benchmarks/boxes_bench.py [--repeats 3] [--against 793e2d0]
"""
import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy import stats

import agreekit
from agreekit.geometry import boxes as geometry
from agreekit.kinds.boxes.compare import box_kind
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.measures.chance import between_baseline
from agreekit.objects import item_label_equality, item_similarities, matched_pairs, pair_matching
from agreekit.simulate import crowd_corpus


def timed(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


CHILD = """
import sys, time
sys.path.insert(0, sys.argv[1])
import agreekit
from agreekit.simulate import crowd_corpus
rows = crowd_corpus(n_images=int(sys.argv[2]))
start = time.perf_counter()
agreekit.boxes(rows, bootstrap=1000)
print(time.perf_counter() - start)
"""


def child_report_time(pycore, images):
    """Seconds of one full report (1000 resamples) by the package under ``pycore``, in a fresh process."""
    out = subprocess.run([sys.executable, "-c", CHILD, str(pycore), str(images)], check=True,
                         capture_output=True, text=True)
    return float(out.stdout.split()[-1])


def compare_with_commit(commit, images, repeats):
    """Medians of the full report, this code and ``commit``'s, timed alternately in child processes."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(root), "archive", commit, "pycore"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        ours, theirs = [], []
        for _ in range(repeats):
            ours.append(child_report_time(root / "pycore", images))
            theirs.append(child_report_time(Path(tmp) / "pycore", images))
    now, before = statistics.median(ours), statistics.median(theirs)
    print(f"full report, 1000 resamples: this code median {now:.2f} s, {commit} median {before:.2f} s: "
          f"ratio {now / before:.2f} (goal ≤ 1.2)")


def naive_baseline(boxes, offsets, within):
    item_of = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    d = geometry.distance_matrix(boxes, boxes, "giou")
    upper = np.triu(item_of[:, None] != item_of[None, :], k=1)
    between = d[upper]
    return between.mean(), stats.ks_2samp(within, between).statistic


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--images", type=int, default=200)
    parser.add_argument("--against", help="a commit whose full report to time beside this code's")
    args = parser.parse_args()
    rows = crowd_corpus(n_images=args.images)
    report = agreekit.boxes(rows, bootstrap=0)
    loc = report.localization
    print(f"corpus: {report.n_items} images, {report.n_annotators} annotators, {report.n_boxes} boxes, "
          f"{loc.n_between:,} between-item pairs, {loc.n_within:,} within pairs")
    full, full_report = timed(lambda: agreekit.boxes(rows, bootstrap=1000), args.repeats)
    print(f"full report, exact baseline, 1000 resamples: median {full:.2f} s  (goal ≤ 3 s); "
          f"sigma {full_report.localization.sigma.value:.4f} CI {full_report.localization.sigma.ci}")
    objects, boxes, _ = box_objects(parse_boxes(rows)[0])
    kind = box_kind(boxes, "giou")
    same_labels = item_label_equality(objects, str)
    pairs = matched_pairs(pair_matching(objects, item_similarities(objects, kind), 0.5, "optimal", same_labels))
    within = np.sort(kind.paired_distance(pairs.a, pairs.b))
    base, result = timed(lambda: between_baseline(objects, kind, within), args.repeats)
    print(f"streamed exact baseline + KS counts: median {base:.2f} s = {result['n'] / base / 1e6:.1f} Mpairs/s")
    with_cross, _ = timed(lambda: between_baseline(objects, kind, within, cross=True), args.repeats)
    print(f"the same with the cross-annotator baseline: median {with_cross:.2f} s "
          f"(ratio {with_cross / base:.2f})")
    if args.against:
        compare_with_commit(args.against, args.images, args.repeats)
    naive, (naive_mean, naive_ks) = timed(lambda: naive_baseline(boxes, objects.offsets, within), args.repeats)
    print(f"naive full-matrix baseline + ks_2samp: median {naive:.2f} s = {result['n'] / naive / 1e6:.1f} Mpairs/s;"
          f" streamed/naive time ratio {base / naive:.2f}")
    assert abs(naive_mean - result["sum"] / result["n"]) < 1e-12
    assert abs(naive_ks - full_report.localization.ks.value) < 1e-12


if __name__ == "__main__":
    main()
