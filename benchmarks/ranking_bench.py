"""Does the gold-free annotator ranking follow true quality, and how long does it take? (issue 24)

Simulated annotators of known quality (:func:`agreekit.simulate.ranking_corpus`):
edge noise, missed objects, spurious boxes, spammers, fixed boxes, annotators who
see only some images.  Each annotator's true quality is its recall against the
true boxes (IoU ≥ 0.5, one-to-one) on the images it saw — the quantity the
project validates against on its held-out crowd corpus — and its F1 likewise.

For each simulation and each ranking (plain leave-one-out, ``rounds=0``; one and
two reliability-weighted rounds) it prints Spearman's ρ between the annotators'
gold-free ``reliability`` (recall against the others' consensus) and their true
recall, and between their F1 against the consensus and their true F1, each with
a 95 % percentile bootstrap interval over annotators (2,000 resamples).  Then the
time of the consensus with leave-one-out for every annotator on the crowd-like
corpus (~200 annotators, 200 images, ~7,600 boxes), beside the agreement report
(``agreekit.boxes``, 1000 resamples) on the same rows, medians of ``--repeat``.
Baseline for validity: the agreement report's per-annotator column (mean pairwise detection F1).

    PYTHONPATH=pycore python3 benchmarks/ranking_bench.py [--repeat 3] [--seeds 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pycore"))

import agreekit  # noqa: E402
from agreekit.simulate import crowd_annotators, ranking_corpus, true_quality  # noqa: E402

# name: (annotators, images, annotators per image, true boxes per image, annotator mix)
SIMULATIONS = {
    "clean, all see all (25 annotators, 60 images)": (25, 60, 99, (3, 6), {"spammers": 0.0, "fixed": 0.0}),
    "clean, 9 of 30 per image (200 images)": (30, 200, 9, (3, 6), {"spammers": 0.0, "fixed": 0.0}),
    "crowd-like (200 annotators, 9 per image, 5% spammers, 3% fixed)": (200, 200, 9, (4, 7), {}),
    "crowd-like, noisier (edge noise to 25%, misses to 70%)": (200, 200, 9, (4, 7), {"noise": 0.25, "miss": 0.7}),
}
CROWD = "crowd-like (200 annotators, 9 per image, 5% spammers, 3% fixed)"


def spearman_interval(score, truth, resamples=2000, seed=0):
    """ρ and its 95 % percentile bootstrap interval over annotators (NaN pairs dropped)."""
    score, truth = np.asarray(score, float), np.asarray(truth, float)
    keep = np.isfinite(score) & np.isfinite(truth)
    score, truth = score[keep], truth[keep]
    rho = spearmanr(score, truth).statistic
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(resamples):
        pick = rng.integers(0, len(score), len(score))
        if np.ptp(score[pick]) > 0 and np.ptp(truth[pick]) > 0:
            draws.append(spearmanr(score[pick], truth[pick]).statistic)
    low, high = np.percentile(draws, [2.5, 97.5])
    return rho, low, high


def corpus(name, seed):
    n, images, per_image, objects, mix = SIMULATIONS[name]
    return ranking_corpus(crowd_annotators(n, seed, **mix), images, per_image, objects, seed=seed)


def validity(name, seeds):
    print(f"\n{name}")
    for seed in range(1, seeds + 1):
        sim = corpus(name, seed)
        truth = true_quality(sim)
        n_boxes = sum(1 for r in sim.rows if r["x"] != "")
        for rounds in (0, 1, 2):
            scores = agreekit.annotator_ranking("boxes", sim.rows, rounds=rounds).scores
            recall = spearman_interval([s.reliability for s in scores], [truth[s.annotator].recall for s in scores])
            f1 = spearman_interval([s.f1 for s in scores], [truth[s.annotator].f1 for s in scores])
            print(f"  seed {seed} ({n_boxes:,} boxes) rounds {rounds}: reliability vs true recall "
                  f"ρ = {recall[0]:.3f} [{recall[1]:.3f}, {recall[2]:.3f}];  F1 vs true F1 "
                  f"ρ = {f1[0]:.3f} [{f1[1]:.3f}, {f1[2]:.3f}]")
        # Baseline: the agreement report's per-annotator column, mean pairwise detection F1 with the others.
        table = agreekit.boxes(sim.rows, bootstrap=0).annotators
        column = [row["detection_f1"] for row in table]
        recall = spearman_interval(column, [truth[row["annotator"]].recall for row in table])
        f1 = spearman_interval(column, [truth[row["annotator"]].f1 for row in table])
        print(f"  seed {seed} baseline, the report's per-annotator detection F1: vs true recall "
              f"ρ = {recall[0]:.3f} [{recall[1]:.3f}, {recall[2]:.3f}];  vs true F1 "
              f"ρ = {f1[0]:.3f} [{f1[1]:.3f}, {f1[2]:.3f}]")


def median_time(function, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def speed(repeat):
    sim = corpus(CROWD, 1)
    rows = sim.rows
    n_boxes = sum(1 for r in rows if r["x"] != "")
    print(f"\nspeed on {CROWD}: {n_boxes:,} boxes, {len({r['annotator'] for r in rows})} annotators, "
          f"medians of {repeat}")
    report = median_time(lambda: agreekit.boxes(rows), repeat)
    fused = median_time(lambda: agreekit.consensus("boxes", rows), repeat)
    plain = median_time(lambda: agreekit.annotator_ranking("boxes", rows, rounds=0), repeat)
    weighted = median_time(lambda: agreekit.annotator_ranking("boxes", rows, rounds=1), repeat)
    print(f"  agreement report (baseline, 1000 resamples)   {report:6.2f} s")
    print(f"  consensus (all annotators)                    {fused:6.2f} s  ({fused / report:.2f}× the report)")
    print(f"  leave-one-out for every annotator, rounds 0   {plain:6.2f} s  ({plain / report:.2f}×)")
    print(f"  leave-one-out for every annotator, rounds 1   {weighted:6.2f} s  ({weighted / report:.2f}×)  "
          f"[the default; goal ≤ 5 s]")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timing runs (median)")
    parser.add_argument("--seeds", type=int, default=2, help="simulations of each kind")
    parser.add_argument("--part", choices=("all", "validity", "speed"), default="all")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    if args.part in ("all", "validity"):
        for name in SIMULATIONS:
            validity(name, args.seeds)
    if args.part in ("all", "speed"):
        speed(args.repeat)
    print(f"\nload average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
