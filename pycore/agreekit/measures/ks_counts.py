"""KS counts of the between-item distances against the within distances, and their histogram.

For each sorted within distance w_k the baseline (:mod:`.chance`) needs how
many between distances are ≤ w_k and < w_k, so that the two-sample KS D is
exact with ties and the tens of millions of between distances are never kept
or sorted.  Distances are snapped to the dyadic grid 2⁻⁴⁰ ≈ 9.1e-13 first
(distances lie in [0, 1]): values that agree to about 12 significant digits
are one value for KS, so D does not depend on the order of floating-point
operations.  Beside the counts, a 200-bin histogram of every between distance
over [0, 1] lets the chart draw the whole between curve.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

HISTOGRAM_BINS = 200
_CELLS = 1 << 18
_GRID = 2.0 ** 40            # KS counts distances in units of 2⁻⁴⁰
_BAND = 1 << 15              # distances per band of the histogram: its work arrays stay in the CPU cache


class KsTable(NamedTuple):
    """The snapped within values and, per grid cell, their search position and whether one lies inside."""

    ticks: np.ndarray       # sorted within distances in units of 2⁻⁴⁰
    start: np.ndarray       # (cells + 1,) search position of each cell's left edge
    ambiguous: np.ndarray   # (cells + 1,) a within value lies in the cell


def snap(values):
    """Distances in units of the KS grid 2⁻⁴⁰, rounded to the nearest: exact integers in float64."""
    return np.rint(np.asarray(values, dtype=float) * _GRID)


def ks_table(within_sorted):
    """The :class:`KsTable` of the sorted within distances.

    A between distance in a cell holding no within value has the same
    ``searchsorted`` position as the cell's left edge, so only distances in
    the few cells that hold a within value need an exact search.  The cells
    are [k, k + 1) · 2⁻¹⁸ for k < 2¹⁸ and a last one holding exactly 1, so a
    distance of 1 is searched exactly when a within value is 1.  In units of
    the grid, edges and cell numbers are exact integers.
    """
    ticks = snap(within_sorted)
    edges = np.arange(_CELLS + 1) * (_GRID / _CELLS)
    position = np.append(np.searchsorted(ticks, edges, "left"), np.searchsorted(ticks, _GRID, "right"))
    return KsTable(ticks, position[:-1], position[1:] > position[:-1])


def add_ks_counts(d, table, result):
    """Add the KS counts (``result["le"]``, ``result["lt"]``) and the histogram (``result["histogram"]``)
    of between distances ``d`` (flat, in [0, 1]) against ``table``."""
    if table.ticks.size == 0 or d.size == 0:
        return
    # Distances above the largest within value raise no count at any within value.  Those a grid step
    # or more above it are dropped before snapping (most between distances, usually).
    histogram, near = _histogram_and_near(d, (table.ticks[-1] + 1.0) / _GRID)
    result["histogram"] += histogram
    ticks = snap(near)
    ticks = ticks[ticks <= table.ticks[-1]]
    cell = np.clip(ticks * (_CELLS / _GRID), 0, _CELLS).astype(np.intp)
    left = table.start[cell]
    exact = np.flatnonzero(table.ambiguous[cell] | (ticks < 0) | (ticks > _GRID))
    right = left.copy()
    if exact.size:
        left[exact] = np.searchsorted(table.ticks, ticks[exact], "left")
        right[exact] = np.searchsorted(table.ticks, ticks[exact], "right")
    bins = len(table.ticks) + 1
    result["le"] += np.cumsum(np.bincount(left, minlength=bins))[:-1]
    result["lt"] += np.cumsum(np.bincount(right, minlength=bins))[:-1]


def _histogram_and_near(d, limit):
    """The ``HISTOGRAM_BINS``-bin histogram of ``d`` over [0, 1] (cell ⌊200·d⌋, clipped to the ends) and
    the distances ≤ ``limit``, in bands of ``_BAND`` whose work arrays are reused."""
    histogram = np.zeros(HISTOGRAM_BINS, dtype=np.intp)
    scaled = np.empty(min(d.size, _BAND))
    cell = np.empty(len(scaled), dtype=np.intp)
    near = []
    for start in range(0, d.size, _BAND):
        part = d[start:start + _BAND]
        scaled_part, cell_part = scaled[:len(part)], cell[:len(part)]
        np.multiply(part, HISTOGRAM_BINS, out=scaled_part)
        np.copyto(cell_part, scaled_part, casting="unsafe")   # truncation, as astype
        np.clip(cell_part, 0, HISTOGRAM_BINS - 1, out=cell_part)
        histogram += np.bincount(cell_part, minlength=HISTOGRAM_BINS)
        near.append(part[part <= limit])
    return histogram, np.concatenate(near)


def ks_statistic(within_sorted, le, lt, n_between):
    """Textbook two-sample KS D from counts of between values ≤ and < each (snapped) within value."""
    n = len(within_sorted)
    if n == 0 or n_between == 0:
        return float("nan")
    w = snap(within_sorted)
    f_within_at = np.searchsorted(w, w, "right") / n
    f_within_before = np.searchsorted(w, w, "left") / n
    gap_at = np.abs(f_within_at - le / n_between)
    gap_before = np.abs(f_within_before - lt / n_between)
    return float(max(gap_at.max(), gap_before.max()))
