"""Bootstrap over items, by reweighting per-item sums.

A resample draws n items with replacement; item i then appears c_i times,
with (c_1, …, c_n) ~ Multinomial(n, 1/n).  Every statistic in agreekit is a
ratio of sums over items (or over pairs of items), so a resample is the same
sums weighted by c instead of recomputed from scratch: matching is done once.

Intervals are 95% percentile intervals (Efron & Tibshirani 1993, §13.3) of
the resampled values, ignoring resamples where the statistic is undefined.
"""
from __future__ import annotations

import numpy as np

from ..results import CI_LEVEL

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 20260813
DEFAULT_LEVEL = CI_LEVEL


def resample_counts(n_items, n_resamples, seed=DEFAULT_SEED):
    """(n_resamples × n_items) counts: how often each item is drawn per resample."""
    if n_items == 0 or n_resamples <= 0:
        return np.zeros((max(n_resamples, 0), n_items))
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_items, np.full(n_items, 1.0 / n_items), size=n_resamples).astype(float)


def percentile_ci(values, level=DEFAULT_LEVEL):
    """``[low, high]`` percentile interval of the finite ``values``, or None.

    None when fewer than half the resamples give a defined value: an interval
    from a minority of resamples would describe a different population.
    """
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    if values.size == 0 or finite.size < max(2, values.size / 2):
        return None
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(finite, [tail, 100.0 - tail])
    return [float(low), float(high)]


def weighted_pair_sums(counts, pair_sums):
    """Σ_{i<j} c_i c_j S_ij for each resample (row of ``counts``).

    ``pair_sums`` is the symmetric (n × n) matrix of sums over pairs of
    objects on items i and j, with a zero diagonal.  Two copies of one drawn
    item are the same item, so their pairs never enter a between-item sum:
    only i ≠ j terms exist.
    """
    pair_sums = np.asarray(pair_sums, dtype=float)
    return 0.5 * ((counts @ pair_sums) * counts).sum(axis=1)
