"""Intraclass correlations of n items × k raters (every rater rates every item), two-way models.

From the two-way ANOVA mean squares MS_R (items, n − 1 df), MS_C (raters, k − 1 df) and
MS_E (residual, (n − 1)(k − 1) df):

* ICC(2,1) = (MS_R − MS_E) / (MS_R + (k − 1) MS_E + k (MS_C − MS_E) / n): absolute agreement of
  single ratings, raters random (Shrout & Fleiss 1979; McGraw & Wong 1996 ICC(A,1));
* ICC(3,1) = (MS_R − MS_E) / (MS_R + (k − 1) MS_E): consistency of single ratings, raters
  fixed (McGraw & Wong's ICC(C,1)).

Their F-based intervals are McGraw & Wong's (1996, Table 7), as in pingouin, with the F quantiles of
:mod:`.f_quantile` (the page has no scipy.stats).  The sums are over
items weighted by ``draws`` rows (bootstrap resamples), so a resample is one matrix product.

References
----------
P. E. Shrout & J. L. Fleiss (1979), "Intraclass correlations: uses in assessing rater
reliability", Psychological Bulletin 86(2): 420–428.
K. O. McGraw & S. P. Wong (1996), "Forming inferences about some intraclass correlation
coefficients", Psychological Methods 1(1): 30–46.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..arrays import safe_ratio
from .f_quantile import f_quantile


@dataclass(frozen=True)
class MeanSquares:
    """Two-way ANOVA mean squares of items × raters, batched over resamples (R,)."""

    items: np.ndarray      # MS_R
    raters: np.ndarray     # MS_C
    residual: np.ndarray   # MS_E
    n: np.ndarray          # items (drawn)
    k: int                 # raters


def mean_squares(ratings, draws=None):
    """:class:`MeanSquares` of the complete (n × k) ``ratings``, items weighted by ``draws`` (R × n)."""
    y = np.asarray(ratings, dtype=float)
    n, k = y.shape
    draws = np.ones((1, n)) if draws is None else np.asarray(draws, dtype=float)
    y = y - y.mean()  # centred: the sums of squares below lose fewer digits
    row_means = y.mean(axis=1)
    terms = np.column_stack([np.ones(n), row_means, row_means ** 2, y, (y ** 2).sum(axis=1)])
    sums = draws @ terms
    drawn, row_sum, row_squares = sums[:, 0], sums[:, 1], sums[:, 2]
    columns, squares = sums[:, 3:3 + k], sums[:, 3 + k]
    grand = safe_ratio(row_sum, drawn)
    total = squares - k * drawn * grand ** 2
    between_items = k * (row_squares - drawn * grand ** 2)
    between_raters = (safe_ratio(columns ** 2, drawn[:, None])).sum(axis=1) - k * drawn * grand ** 2
    residual = total - between_items - between_raters
    return MeanSquares(safe_ratio(between_items, drawn - 1.0), between_raters / max(k - 1, 1),
                       safe_ratio(residual, (drawn - 1.0) * (k - 1)), drawn, k)


def icc_absolute(ms):
    """ICC(2,1) (absolute agreement, single rater) of :class:`MeanSquares`."""
    return safe_ratio(ms.items - ms.residual,
                      ms.items + (ms.k - 1) * ms.residual + safe_ratio(ms.k * (ms.raters - ms.residual), ms.n))


def icc_consistency(ms):
    """ICC(3,1) (consistency, single rater) of :class:`MeanSquares`."""
    return safe_ratio(ms.items - ms.residual, ms.items + (ms.k - 1) * ms.residual)


def f_interval_absolute(ms, level=0.95):
    """McGraw & Wong's F-based ``[low, high]`` of ICC(2,1) for the data (a single-row ``ms``), or None."""
    n, k = float(ms.n[0]), ms.k
    msr, msc, mse = float(ms.items[0]), float(ms.raters[0]), float(ms.residual[0])
    icc = float(icc_absolute(ms)[0])
    if not np.isfinite(icc) or mse <= 0 or n < 2 or k < 2:
        return None
    tail = 1.0 - (1.0 - level) / 2.0
    fc = msc / mse
    vn = (k - 1) * (n - 1) * (k * icc * fc + n * (1 + (k - 1) * icc) - k * icc) ** 2
    vd = (n - 1) * k ** 2 * icc ** 2 * fc ** 2 + (n * (1 + (k - 1) * icc) - k * icc) ** 2
    v = vn / vd
    upper_f, lower_f = f_quantile(tail, n - 1, v), f_quantile(tail, v, n - 1)
    low = n * (msr - upper_f * mse) / (upper_f * (k * msc + (k * n - k - n) * mse) + n * msr)
    high = n * (lower_f * msr - mse) / (k * msc + (k * n - k - n) * mse + n * lower_f * msr)
    return _finite_pair(low, high)


def f_interval_consistency(ms, level=0.95):
    """McGraw & Wong's F-based ``[low, high]`` of ICC(3,1) for the data (a single-row ``ms``), or None."""
    n, k = float(ms.n[0]), ms.k
    msr, mse = float(ms.items[0]), float(ms.residual[0])
    if mse <= 0 or n < 2 or k < 2:
        return None
    tail = 1.0 - (1.0 - level) / 2.0
    ratio = msr / mse
    df_items, df_error = n - 1, (n - 1) * (k - 1)
    low_f = ratio / f_quantile(tail, df_items, df_error)
    high_f = ratio * f_quantile(tail, df_error, df_items)
    return _finite_pair((low_f - 1) / (low_f + k - 1), (high_f - 1) / (high_f + k - 1))


def _finite_pair(low, high):
    low, high = float(low), float(high)
    return [low, high] if np.isfinite(low) and np.isfinite(high) else None
