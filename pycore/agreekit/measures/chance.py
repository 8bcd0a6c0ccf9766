"""The chance baseline of σ: distances between objects on *different* items.

σ = 1 − mean(within-item distance) / mean(between-item distance), with the KS
statistic of the two distance distributions beside it.

Within: the distance of every matched pair (computed by the object engine).
Between: every unordered pair of objects on different comparable items,
streamed in chunks of whole items so memory stays bounded by ``_CHUNK_ELEMENTS``;
above ``pair_budget`` pairs a seeded uniform sample of pairs is used and its
standard error reported.  KS is the textbook two-sample
D = sup |F_within − F_between|, evaluated from counts of between distances
below and at each within value, so ties are exact and the between list is
never sorted.
"""
from __future__ import annotations

import numpy as np

from . import bootstrap as boot

DEFAULT_PAIR_BUDGET = 50_000_000
SAMPLED_PAIRS = 2_000_000



_CHUNK_ELEMENTS = 1 << 21



def between_baseline(objects, kind, within_sorted, pair_budget=DEFAULT_PAIR_BUDGET, seed=boot.DEFAULT_SEED,
                     progress=None):
    """Mean distance over pairs of objects on different items, with KS counts.

    Returns a dict with ``sum``, ``n``, ``exact``, ``se`` (sampled only),
    ``item_sums`` and ``item_counts`` (n_items × n_items, zero diagonal) and
    ``le``/``lt``: for each sorted within value w_k, how many between
    distances are ≤ w_k and < w_k.
    """
    offsets = objects.offsets
    sizes = np.diff(offsets).astype(float)
    n_items = len(sizes)
    total_pairs = (sizes.sum() ** 2 - (sizes ** 2).sum()) / 2.0
    result = {"item_sums": np.zeros((n_items, n_items)), "le": np.zeros(len(within_sorted)),
              "lt": np.zeros(len(within_sorted)), "histogram": np.zeros(_HISTOGRAM_BINS),
              "total_pairs": int(total_pairs)}
    if total_pairs == 0:
        result.update(sum=0.0, n=0, exact=True, se=None, item_counts=np.zeros((n_items, n_items)))
        return result
    if total_pairs <= pair_budget:
        _between_exact(objects, kind, within_sorted, result, progress)
        result["item_counts"] = np.outer(sizes, sizes) - np.diag(sizes ** 2)
        result["exact"] = True
        result["se"] = None
    else:
        _between_sampled(objects, kind, within_sorted, result, seed, progress, min(SAMPLED_PAIRS, pair_budget))
        result["exact"] = False
    return result



_CELLS = 1 << 18



_HISTOGRAM_BINS = 200



def _cell_table(within_sorted):
    """Search positions of the within values per cell of a uniform grid on [0, 1].

    A between distance in a cell holding no within value has the same
    ``searchsorted`` position as the cell's left edge, so only distances in
    the few cells that hold a within value need an exact search.  The grid
    is dyadic, so cell edges and ``floor(d · cells)`` are exact in floating point.
    """
    edges = np.arange(_CELLS + 1) / _CELLS
    position = np.searchsorted(within_sorted, edges, "left")
    return position[:-1], position[1:] > position[:-1]



def _accumulate(d, within_sorted, result):
    """Add the KS counts of between distances ``d`` (flat, all in [0, 1])."""
    if within_sorted.size == 0 or d.size == 0:
        return
    bins = len(within_sorted) + 1
    if "cells" not in result:
        result["cells"] = _cell_table(within_sorted)
    # A coarse histogram of every between distance, so the chart can draw the whole curve.
    cell = np.clip((d * _HISTOGRAM_BINS).astype(np.intp), 0, _HISTOGRAM_BINS - 1)
    result["histogram"] += np.bincount(cell, minlength=_HISTOGRAM_BINS)
    # Distances above the largest within value raise no count at any within value.
    above = d > within_sorted[-1]
    if above.any():
        d = d[~above]
    start, ambiguous = result["cells"]
    cell = (d * _CELLS).astype(np.int64)
    np.clip(cell, 0, _CELLS - 1, out=cell)
    left = start[cell]
    exact = np.flatnonzero(ambiguous[cell] | (d < 0) | (d > 1))
    right = left.copy()
    if exact.size:
        left[exact] = np.searchsorted(within_sorted, d[exact], "left")
        right[exact] = np.searchsorted(within_sorted, d[exact], "right")
    result["le"] += np.cumsum(np.bincount(left, minlength=bins))[:-1]
    result["lt"] += np.cumsum(np.bincount(right, minlength=bins))[:-1]



def _between_exact(objects, kind, within_sorted, result, progress):
    offsets = objects.offsets
    n_objects = int(offsets[-1])
    n_items = len(offsets) - 1
    item_of = np.repeat(np.arange(n_items), np.diff(offsets))
    sums = result["item_sums"]
    total = 0.0
    p = 0
    while p < n_items:
        # A block of whole items [p, q) whose rows × remaining columns fit a chunk.
        q = p + 1
        width = n_objects - offsets[p]
        while q < n_items and (offsets[q + 1] - offsets[p]) * width <= _CHUNK_ELEMENTS:
            q += 1
        r0, r1 = offsets[p], offsets[q]
        rows = np.arange(r0, r1)
        parts = []
        if q - p > 1:  # pairs inside the block: only with a later item
            inner = kind.distance_block(rows, rows)
            later = item_of[rows][None, :] > item_of[rows][:, None]
            parts.append((np.where(later, inner, 0.0), inner[later], p, q))
        if r1 < n_objects:  # every column after the block is a later item
            outer = kind.distance_block(rows, np.arange(r1, n_objects))
            parts.append((outer, outer.ravel(), q, n_items))
        for block, flat, c0, c1 in parts:
            cols_offsets = offsets[c0:c1 + 1] - offsets[c0]
            col_nonempty = np.diff(cols_offsets) > 0
            row_offsets = offsets[p:q + 1] - r0
            row_nonempty = np.diff(row_offsets) > 0
            reduced = np.add.reduceat(block, cols_offsets[:-1][col_nonempty], axis=1)
            reduced = np.add.reduceat(reduced, row_offsets[:-1][row_nonempty], axis=0)
            sums[np.ix_(np.arange(p, q)[row_nonempty],
                        np.arange(c0, c1)[col_nonempty])] += reduced
            total += float(flat.sum())
            _accumulate(flat, within_sorted, result)
        if progress is not None:
            progress(int(r1), n_objects, "chance baseline")
        p = q
    result["item_sums"] = sums + sums.T
    sizes = np.diff(offsets).astype(float)
    result["sum"] = total
    result["n"] = int((sizes.sum() ** 2 - (sizes ** 2).sum()) / 2.0)



def _between_sampled(objects, kind, within_sorted, result, seed, progress, sample_size):
    offsets = objects.offsets
    n_objects = int(offsets[-1])
    n_items = len(offsets) - 1
    item_of = np.repeat(np.arange(n_items), np.diff(offsets))
    rng = np.random.default_rng(seed)
    first, second = [], []
    wanted = max(int(sample_size), 2)
    while wanted > 0:
        i = rng.integers(0, n_objects, size=2 * wanted)
        j = rng.integers(0, n_objects, size=2 * wanted)
        ok = item_of[i] != item_of[j]
        i, j = i[ok][:wanted], j[ok][:wanted]
        first.append(i)
        second.append(j)
        wanted -= len(i)
    i, j = np.concatenate(first), np.concatenate(second)
    d = np.concatenate([kind.paired_distance(i[s:s + _CHUNK_ELEMENTS], j[s:s + _CHUNK_ELEMENTS])
                        for s in range(0, len(i), _CHUNK_ELEMENTS)])
    sums = np.zeros((n_items, n_items))
    counts = np.zeros((n_items, n_items))
    np.add.at(sums, (item_of[i], item_of[j]), d)
    np.add.at(counts, (item_of[i], item_of[j]), 1.0)
    result["item_sums"] = sums + sums.T
    result["item_counts"] = counts + counts.T
    result["sum"] = float(d.sum())
    result["n"] = int(len(d))
    result["se"] = float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else None
    _accumulate(d, within_sorted, result)
    if progress is not None:
        progress(1, 1, "chance baseline (sampled)")



def ks_statistic(within_sorted, le, lt, n_between):
    """Textbook two-sample KS D from counts of between values ≤ and < each within value."""
    n = len(within_sorted)
    if n == 0 or n_between == 0:
        return float("nan")
    w = np.asarray(within_sorted)
    f_within_at = np.searchsorted(w, w, "right") / n
    f_within_before = np.searchsorted(w, w, "left") / n
    gap_at = np.abs(f_within_at - le / n_between)
    gap_before = np.abs(f_within_before - lt / n_between)
    return float(max(gap_at.max(), gap_before.max()))



def sigma_value(mean_within, mean_between):
    if not np.isfinite(mean_within) or not np.isfinite(mean_between) or mean_between <= 0:
        return float("nan")
    return 1.0 - mean_within / mean_between



def sigma_reason(n_within, n_between, mean_between):
    if n_within == 0:
        return "no matched pairs: no within-item distances"
    if n_between == 0:
        return "fewer than two comparable items: no between-item pairs"
    if not mean_between > 0:
        return "every between-item distance is 0"
    return None



def ecdf_summary(values, points=200):
    """A compact ECDF of sorted ``values``: at most ``points`` quantile steps."""
    values = np.sort(np.asarray(values, dtype=float))
    if values.size == 0:
        return {"x": [], "y": []}
    k = np.unique(np.linspace(0, values.size - 1, min(points, values.size)).round().astype(int))
    return {"x": values[k].tolist(), "y": ((k + 1) / values.size).tolist()}



def between_ecdf(within_sorted, le, n_between, histogram):
    """The between ECDF for the chart: exact at every within value (where KS is
    read) and at the edges of a 200-bin histogram over [0, 1] (the rest of the curve;
    at an edge e the value is the share of distances below e, and 1 at e = 1)."""
    if n_between == 0:
        return {"x": [], "y": []}
    x_within = np.unique(within_sorted)
    last = np.searchsorted(within_sorted, x_within, "right") - 1
    y_within = le[last] / n_between if len(x_within) else np.zeros(0)
    edges = np.arange(1, len(histogram) + 1) / len(histogram)
    y_edges = np.cumsum(histogram) / n_between
    x = np.concatenate([x_within, edges])
    y = np.concatenate([y_within, y_edges])
    order = np.lexsort((y, x))
    return {"x": x[order].tolist(), "y": y[order].tolist()}
