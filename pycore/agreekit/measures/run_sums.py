"""Sums over runs of consecutive rows, bit for bit as ``np.add.reduceat(a, starts, axis=0)``.

``reduceat`` pays a fixed cost per run and per column (≈ 20 ns in CPython, more
in Pyodide): for the streamed baseline's runs of 3–6 objects (one annotator on
one item) that cost is most of its time.  :func:`run_sums` adds the same
values in the same order with one numpy operation per position in a run,
for all runs of one length at once.

The order is numpy 2.0's: ``reduceat`` copies a run's first row, then adds the
pairwise sum of the rest (``pairwise_sum`` in
``numpy/_core/src/umath/loops_utils.h.src``): below 8 values in order, up to
128 in eight interleaved partial sums combined as ((0+1)+(2+3))+((4+5)+(6+7))
and the remainder added in order, above that the two halves (cut at a multiple
of 8) summed apart; Pyodide's numpy 2.0.2 sums in the same order (checked bit
for bit on random runs of 1 to 300 values).  ``tests/test_run_sums.py`` checks
it against ``reduceat`` on random data, each of the three orders.
"""
from __future__ import annotations

import numpy as np

_PARTIALS = 8        # numpy's unrolled partial sums
_PAIRWISE_BLOCK = 128  # above this many values numpy sums two halves apart


def run_sums(a, starts):
    """``np.add.reduceat(a, starts, axis=0)`` for strictly increasing ``starts`` (a run ends at the next start).

    Parameters
    ----------
    a : ndarray, shape (n, ...)
        float64.
    starts : ndarray of intp, shape (r,)
        First row of each run; ``starts[0]`` may exceed 0 (rows before it belong to no run).

    Returns
    -------
    ndarray, shape (r, ...)
        The sum of each run's rows, bit-equal to ``reduceat``.
    """
    starts = np.asarray(starts, dtype=np.intp)
    length = np.diff(np.append(starts, len(a)))
    out = np.empty((len(starts),) + a.shape[1:])
    for n in np.unique(length):
        which = np.flatnonzero(length == n)
        first = starts[which]
        out[which] = a[first] if n == 1 else a[first] + _pairwise(a, first + 1, int(n) - 1)
    return out


def _pairwise(a, first, n):
    """numpy's pairwise sum of the rows ``a[first + k]``, k < n (n ≥ 1), for every entry of ``first`` at once."""
    if n < _PARTIALS:
        total = a[first]
        for k in range(1, n):
            total += a[first + k]
        return total
    if n <= _PAIRWISE_BLOCK:
        partial = [a[first + j] for j in range(_PARTIALS)]
        unrolled = n - n % _PARTIALS
        for k in range(_PARTIALS, unrolled, _PARTIALS):
            for j in range(_PARTIALS):
                partial[j] += a[first + k + j]
        total = (partial[0] + partial[1]) + (partial[2] + partial[3])
        total += (partial[4] + partial[5]) + (partial[6] + partial[7])
        for k in range(unrolled, n):
            total += a[first + k]
        return total
    half = n // 2
    half -= half % _PARTIALS
    return _pairwise(a, first, half) + _pairwise(a, first + half, n - half)
