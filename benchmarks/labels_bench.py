"""Time the labels report on 1,000 items × 5 annotators, every coefficient and 1000 resamples.

    PYTHONPATH=pycore python3 benchmarks/labels_bench.py [--items 1000] [--annotators 5] [--repeat 5]

Prints the median of the repeats, from CSV text to the finished report, per level, and the time
taken by reading the rows.  The baseline, run side by side: the ``krippendorff`` package's nominal α
on the same ratings matrix, recomputed on each of the same number of item resamples (α alone,
against the report's fifteen coefficients and their intervals); skipped when it is not installed.  Issue 23's goal: 10,000 items × 5 annotators, nominal, ≤ 1 s
(``--items 10000``).
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import agreekit
from agreekit.kinds.labels.rows import read_judgements
from agreekit.kinds.labels.scale import build_ratings

LABELS = ("1", "2", "3", "4", "5")


def synthetic_rows(n_items=1000, n_annotators=5, seed=7):
    """CSV text: each annotator rates each item (probability 0.9), the true rating ± 1 one time in four."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, len(LABELS), n_items)
    lines = ["item,annotator,label"]
    for i in range(n_items):
        for a in range(n_annotators):
            if rng.random() < 0.9:
                label = int(np.clip(truth[i] + (rng.integers(-1, 2) if rng.random() < 0.25 else 0), 0, 4))
                lines.append(f"item{i},ann{a},{LABELS[label]}")
    return "\n".join(lines) + "\n"


CLOCK = time.perf_counter  # --cpu: time.process_time, the process's CPU seconds (less moved by other jobs)


def median_seconds(function, repeat):
    times = []
    for _ in range(repeat):
        start = CLOCK()
        function()
        times.append(CLOCK() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--annotators", type=int, default=5)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--levels", default="nominal,ordinal,interval",
                        help="comma-separated levels to time (nominal first gives the ratio to the baseline)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the krippendorff package's run")
    parser.add_argument("--cpu", action="store_true", help="CPU seconds of this process instead of wall seconds")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.cpu else time.perf_counter
    text = synthetic_rows(args.items, args.annotators)
    reading = median_seconds(lambda: build_ratings(read_judgements(text).judgements, "interval"), args.repeat)
    print(f"{args.items} items × {args.annotators} annotators, {args.bootstrap} resamples, "
          f"median of {args.repeat} ({'CPU' if args.cpu else 'wall'} seconds):")
    print(f"  reading rows and building the ratings matrix: {reading:.3f} s")
    nominal = None
    for level in args.levels.split(","):
        seconds = median_seconds(lambda: agreekit.labels(text, level=level, bootstrap=args.bootstrap), args.repeat)
        print(f"  {level:<8} whole report: {seconds:.3f} s")
        if level == "nominal":
            nominal = seconds
    baseline = None if args.no_baseline else baseline_seconds(text, args.bootstrap, args.repeat)
    if baseline is not None and nominal is not None:
        print(f"  baseline: krippendorff.alpha on the data and {args.bootstrap} resamples: {baseline:.3f} s "
              f"(nominal report / baseline = {nominal / baseline:.2f})")


def baseline_seconds(text, bootstrap, repeat):
    """Median seconds of the ``krippendorff`` package's α on the data and ``bootstrap`` item resamples."""
    try:
        import krippendorff
    except ImportError:
        return None
    ratings = build_ratings(read_judgements(text).judgements, "nominal")
    data = np.where(ratings.codes >= 0, ratings.codes, np.nan).T  # annotators × items
    rng = np.random.default_rng(1)
    picks = rng.integers(0, data.shape[1], size=(bootstrap, data.shape[1]))

    def run():
        krippendorff.alpha(data, level_of_measurement="nominal")
        for pick in picks:
            krippendorff.alpha(data[:, pick], level_of_measurement="nominal")
    return median_seconds(run, repeat)


if __name__ == "__main__":
    main()
