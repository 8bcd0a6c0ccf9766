"""Time segment σ (the within-clip chance baseline) on 500 clips × 3 annotators × ~28 segments, 1000 resamples.

    PYTHONPATH=pycore python3 benchmarks/segment_sigma.py [--clips 500] [--repeat 3] [--placements K]

Goal (issue 11): segment σ under 3 s.  Prints medians over the repeats of the
σ part alone (durations, within matching, K placements matched again, the
interval over 1000 resamples of clips, the pair and annotator columns) and of
the whole segments report, with and without it (``match="potato"`` skips σ
but also changes the matching, so the report without σ is timed as the
difference).  The corpus is that of ``benchmarks/segments_bench.py``: each
annotator marks each of 30 true events with probability 0.9, boundaries
jittered by 0.3 s, plus about one spurious event per clip.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from agreekit import segments
from agreekit.kinds.segments.compare import segment_objects
from agreekit.kinds.segments.rows import read_segments
from agreekit.kinds.segments.sigma import DEFAULT_PLACEMENTS, segment_localization

sys.path.insert(0, str(Path(__file__).resolve().parent))
from segments_bench import synthetic_corpus, timed  # noqa: E402  (the same corpus as the segment report's benchmark)



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--placements", type=int, default=DEFAULT_PLACEMENTS)
    args = parser.parse_args()
    text = synthetic_corpus(args.clips)
    corpus = read_segments(text)
    objects, start, end = segment_objects(corpus)
    options = {"threshold": 0.5, "distance": "giou", "placements": args.placements, "bootstrap": args.bootstrap,
               "seed": 20260813}
    sigma_wall, sigma_cpu, report_wall, report_cpu = [], [], [], []
    for _ in range(args.repeat):
        wall, cpu, (section, *_) = timed(segment_localization, corpus, objects, start, end, None, options, [])
        sigma_wall.append(wall)
        sigma_cpu.append(cpu)
        wall, cpu, report = timed(segments, text, bootstrap=args.bootstrap, placements=args.placements)
        report_wall.append(wall)
        report_cpu.append(cpu)
    median = statistics.median
    print(f"corpus: {args.clips} clips, {report.n_annotators} annotators, {report.n_segments} segments "
          f"({report.n_segments / args.clips / report.n_annotators:.1f} per annotator and clip), "
          f"{args.bootstrap} resamples, placements {args.placements or 'automatic'}")
    print(f"segment σ alone:     median {median(sigma_wall):.2f} s wall, {median(sigma_cpu):.2f} s CPU "
          f"(goal < 3 s); σ = {section['sigma']['value']:.4f}, K = {section['chance_placements']}, "
          f"chance SE {section['chance_se']:.2g}, "
          f"{section['n_chance']:,} chance matches")
    print(f"whole report with σ: median {median(report_wall):.2f} s wall, {median(report_cpu):.2f} s CPU")


if __name__ == "__main__":
    main()
