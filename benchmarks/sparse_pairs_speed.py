"""The bootstrap's sparse item-pair form: scipy's CSR (``SparsePairs``) against the same sums in numpy (prints figures).

Why ``SparsePairs`` keeps scipy.sparse, imported on first use: the numpy form
tried for issue 15 (compressed rows in numpy arrays, then per block of stored
entries a gather of the resamples' counts, ``np.add.reduceat`` per row and the
row's own counts) gives the same values (8e-15 relative) but was 1.7–4.5×
slower to build and 11–13× slower per product (20,000 items, 2 M pairs, 209
resamples; two runs, 1 December 2026, load 5–9 on 2 cores).  The form is only built above the chance baseline's
``DENSE_ITEMS`` items, so the box example never imports scipy.sparse either way.

Each side is timed alternately, medians of ``--repeats``; the largest relative
difference of the two results is printed too.

Usage: python benchmarks/sparse_pairs_speed.py [--repeats 5] [--items 20000] [--pairs 2000000]
"""
import argparse
import statistics
import time

import numpy as np

from agreekit.measures import bootstrap as boot

ENTRIES = 1 << 16   # stored entries per step of the numpy product


def numpy_rows(first, second, values, n_items):
    """Compressed rows (indptr, columns, summed values) of the entries, repeats added, in numpy."""
    keys = np.asarray(first, dtype=np.int64) * n_items + np.asarray(second, dtype=np.int64)
    unique, where = np.unique(keys, return_inverse=True)
    summed = np.bincount(where.ravel(), values, len(unique))
    indptr = np.concatenate([[0], np.cumsum(np.bincount((unique // n_items).astype(np.intp), minlength=n_items))])
    return indptr.astype(np.intp), (unique % n_items).astype(np.intp), summed


def numpy_weighted(rows, counts):
    """Σ_i c_i Σ_{k in row i} x_k c_{column_k} per resample, 16 resamples and ``ENTRIES`` entries at a time."""
    indptr, columns, values = rows
    cuts = np.searchsorted(indptr, np.arange(0, len(values), ENTRIES), side="right") - 1
    bounds = np.unique(np.concatenate([cuts, [len(indptr) - 1]]))
    out = np.zeros(len(counts))
    for start in range(0, len(counts), 16):
        by_item = np.ascontiguousarray(counts[start:start + 16].T)
        for first, last in zip(bounds[:-1], bounds[1:]):
            begin, end = indptr[first], indptr[last]
            nonempty = np.flatnonzero(np.diff(indptr[first:last + 1])) + first
            inner = by_item[columns[begin:end]] * values[begin:end, None]
            per_row = np.add.reduceat(inner, indptr[nonempty] - begin, axis=0)
            out[start:start + 16] += (per_row * by_item[nonempty]).sum(axis=0)
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
        rows = numpy_rows(first, second, values, args.items)
        times["build numpy"].append(time.perf_counter() - start)
        start = time.perf_counter()
        pairs = boot.SparsePairs.from_entries(first, second, values, args.items)
        times["build scipy"].append(time.perf_counter() - start)
        start = time.perf_counter()
        ours = numpy_weighted(rows, counts)
        times["weighted numpy"].append(time.perf_counter() - start)
        start = time.perf_counter()
        theirs = pairs.weighted(counts)
        times["weighted scipy"].append(time.perf_counter() - start)
    print(f"{args.items:,} items, {pairs.matrix.nnz:,} stored pairs, {len(counts)} resamples in the chunk")
    for name, values_ in times.items():
        print(f"{name:>15}: median {statistics.median(values_):.3f} s of {args.repeats}")
    for step in ("build", "weighted"):
        ratio = statistics.median(times[f"{step} numpy"]) / statistics.median(times[f"{step} scipy"])
        print(f"{step}: numpy / scipy {ratio:.2f}×")
    print(f"largest relative difference {np.max(np.abs(ours - theirs) / np.abs(theirs)):.1e}")


if __name__ == "__main__":
    main()
