"""What the reliability column costs a ``reference="consensus"`` report (prints figures; not a test).

Corpus: :func:`agreekit.simulate.crowd_corpus` (200 images, 196 annotators, 9
per image, 3–6 objects each: ≈ 7,300 boxes).  Side by side, alternately, medians
of ``--repeats`` runs of ``agreekit.boxes(rows, reference="consensus")`` (1000
resamples) as it is (with the ``reliability`` column, :func:`agreekit.annotator_ranking`)
and with the ranking replaced by an empty one (the baseline: the report before the column).

Usage: PYTHONPATH=pycore python benchmarks/reliability_column.py [--repeats 3] [--images 200]
"""
import argparse
import statistics
import time

import agreekit
import agreekit.reference.report as reference_report
from agreekit.annotator_ranking import Ranking
from agreekit.simulate import crowd_corpus


def seconds(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--images", type=int, default=200)
    args = parser.parse_args()
    rows = crowd_corpus(n_images=args.images)
    ranking = reference_report.annotator_ranking
    run = lambda: agreekit.boxes(rows, reference="consensus", bootstrap=1000, seed=1)  # noqa: E731
    times = {"without the column (baseline)": [], "with the reliability column": []}
    for _ in range(args.repeats):
        reference_report.annotator_ranking = lambda *a, **k: Ranking((), 0, ())
        times["without the column (baseline)"].append(seconds(run))
        reference_report.annotator_ranking = ranking
        times["with the reliability column"].append(seconds(run))
    base = statistics.median(times["without the column (baseline)"])
    print(f"{len(rows)} rows, {args.images} images, medians of {args.repeats}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:35s} {median:7.2f} s  {median / base:5.2f}×")


if __name__ == "__main__":
    main()
