"""The bootstrap's sparse item-pair form in numpy (``SparsePairs``) against scipy's CSR product (prints figures).

The form is used above ``DENSE_ITEMS`` items (sampled object pairs, a sampled
baseline's cross terms, the halves of a modelled baseline).  Here: n items,
``SAMPLED_PAIRS``-sized sets of random pairs, and the resample counts of one
chunk (``BOOTSTRAP_ELEMENTS`` values), as the bootstrap passes them.  Each side
is timed alternately, medians of ``--repeats``; the largest relative difference
of the two results is printed too.

Usage: python benchmarks/sparse_pairs_speed.py [--repeats 5] [--items 20000] [--pairs 2000000]
"""
import argparse
import statistics
import time

import numpy as np
from scipy import sparse

from agreekit.measures import bootstrap as boot


def scipy_weighted(matrix, counts):
    """The scipy form this replaced: CSR products 16 resamples at a time."""
    out = np.empty(len(counts))
    for start in range(0, len(counts), 16):
        columns = np.ascontiguousarray(counts[start:start + 16].T)
        out[start:start + 16] = ((matrix @ columns) * columns).sum(axis=0)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--pairs", type=int, default=2_000_000)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    first = rng.integers(0, args.items - 1, args.pairs)
    second = first + rng.integers(1, args.items - first)
    values = rng.random(args.pairs)
    counts = next(boot.resample_count_chunks(args.items, 1000))
    times = {"build numpy": [], "build scipy": [], "weighted numpy": [], "weighted scipy": []}
    for _ in range(args.repeats):
        start = time.perf_counter()
        pairs = boot.SparsePairs.from_entries(first, second, values, args.items)
        times["build numpy"].append(time.perf_counter() - start)
        start = time.perf_counter()
        matrix = sparse.csr_matrix((values, (first, second)), shape=(args.items, args.items))
        times["build scipy"].append(time.perf_counter() - start)
        start = time.perf_counter()
        ours = pairs.weighted(counts)
        times["weighted numpy"].append(time.perf_counter() - start)
        start = time.perf_counter()
        theirs = scipy_weighted(matrix, counts)
        times["weighted scipy"].append(time.perf_counter() - start)
    print(f"{args.items:,} items, {pairs.nnz:,} stored pairs, {len(counts)} resamples in the chunk")
    for name, values_ in times.items():
        print(f"{name:>15}: median {statistics.median(values_):.3f} s of {args.repeats}")
    for step in ("build", "weighted"):
        ratio = statistics.median(times[f"{step} numpy"]) / statistics.median(times[f"{step} scipy"])
        print(f"{step}: numpy / scipy {ratio:.2f}×")
    print(f"largest relative difference {np.max(np.abs(ours - theirs) / np.abs(theirs)):.1e}")


if __name__ == "__main__":
    main()
