"""Time the segment report on 500 clips × 3 annotators × ~30 segments, 1000 resamples.

    PYTHONPATH=pycore python3 benchmarks/segments_bench.py [--clips 500] [--repeat 3]

Goal (issue 3): under 2 s in CPython, from CSV text to the finished report.
Prints the median of the repeats and the split between parsing, the shared
object engine (matching, clusters, α and its bootstrap) and the boundary sweep.
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from agreekit import segments
from agreekit.kinds.segments.compare import boundary_blocks
from agreekit.kinds.segments.rows import read_segments
from agreekit.measures.boundaries import boundary_counts, sweep_table
from agreekit.measures.bootstrap import resample_counts

LABELS = ("speech", "music", "noise", "laughter")


def synthetic_corpus(n_clips=500, n_annotators=3, n_events=30, seed=7):
    """CSV text: each annotator marks each true event (probability 0.9) with jittered
    boundaries (σ = 0.3 s), sometimes the wrong label, plus ~1 spurious event per clip."""
    rng = np.random.default_rng(seed)
    lines = ["item,annotator,start,end,label"]
    for clip in range(n_clips):
        gaps = rng.uniform(0.5, 4.0, n_events)
        lengths = rng.uniform(0.5, 6.0, n_events)
        starts = np.cumsum(gaps + np.concatenate([[0.0], lengths[:-1]]))
        labels = rng.integers(0, len(LABELS), n_events)
        for a in range(n_annotators):
            keep = rng.random(n_events) < 0.9
            s = starts + rng.normal(0, 0.3, n_events)
            e = starts + lengths + rng.normal(0, 0.3, n_events)
            flip = rng.random(n_events) < 0.1
            lab = np.where(flip, rng.integers(0, len(LABELS), n_events), labels)
            for k in np.nonzero(keep)[0]:
                lo, hi = sorted((s[k], e[k]))
                lines.append(f"clip{clip},ann{a},{lo:.3f},{hi:.3f},{LABELS[lab[k]]}")
            for _ in range(rng.poisson(1.0)):
                lo = rng.uniform(0, starts[-1])
                lines.append(f"clip{clip},ann{a},{lo:.3f},{lo + rng.uniform(0.3, 3):.3f},noise")
    return "\n".join(lines) + "\n"


def timed(function, *args, **kwargs):
    """(wall seconds, CPU seconds of this process, result).  On a shared noisy
    machine the CPU time is the steadier figure: it leaves out time spent
    waiting for a core."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = function(*args, **kwargs)
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bootstrap", type=int, default=1000)
    args = parser.parse_args()
    text = synthetic_corpus(args.clips)
    n_rows = text.count("\n") - 1
    totals, cpus, parse, sweep = [], [], [], []
    for _ in range(args.repeat):
        wall, cpu, report = timed(segments, text, bootstrap=args.bootstrap)
        totals.append(wall)
        cpus.append(cpu)
        _, cpu, corpus = timed(read_segments, text)
        parse.append(cpu)
        items = corpus.scored_items()
        weights = resample_counts(len(items), args.bootstrap)
        _, cpu, _ = timed(lambda: sweep_table(boundary_counts(boundary_blocks(corpus, items),
                                                                 report.settings.tolerances), weights))
        sweep.append(cpu)
    total, cpu, parse_s, sweep_s = (statistics.median(v) for v in (totals, cpus, parse, sweep))
    print(f"corpus: {args.clips} clips, {report.n_annotators} annotators, {n_rows} segments, "
          f"{args.bootstrap} resamples")
    print(f"segments report, CSV text in: median {total:.3f} s wall, {cpu:.3f} s CPU over {args.repeat} runs "
          f"(wall: {', '.join(f'{t:.3f}' for t in totals)}); goal < 2 s")
    print(f"  parsing and checking rows: {parse_s:.3f} s CPU")
    print(f"  boundary sweep ({len(report.settings.tolerances)} tolerances, with intervals): {sweep_s:.3f} s CPU")
    print(f"  matching, raw measures, clusters, α and bootstrap (the rest): {cpu - parse_s - sweep_s:.3f} s CPU")
    print(f"detection α {report.detection.alpha:.3f}, classification α {report.classification.alpha:.3f}, "
          f"detection F1 {report.detection_f1:.3f}, mean matched IoU {report.mean_matched_iou:.3f}")
    for row in report.boundary_sweep:
        print(f"  boundary F1 at ±{row['tolerance']:g} s: {row['f1']:.3f}")


if __name__ == "__main__":
    main()
