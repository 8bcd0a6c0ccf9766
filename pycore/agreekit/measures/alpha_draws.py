"""Krippendorff's α of one data set under many item weightings (the data, then bootstrap resamples).

α = 1 − (N − 1) Σ_u Σ_ck o_uck δ_ck / Σ_ck n_c n_k δ_ck (Krippendorff 2011; :mod:`agreekit.measures.alpha`).
A unit's coincidences o_u = (x_u x_uᵀ − diag x_u) / (m_u − 1) for its value counts x_u, so when δ does
not depend on the data (nominal, interval, ratio, any fixed distance; δ_cc = 0) its observed
disagreement is the scalar x_uᵀ δ x_u / (m_u − 1): a resample costs O(units + C²) after one pass.
The ordinal δ depends on the marginals, so its resampled coincidence matrices are summed whole
(up to ``ORDINAL_CELLS``; beyond, the value without resamples).
"""
from __future__ import annotations

import numpy as np

from ..arrays import safe_ratio
from .alpha import alpha_from_coincidence, delta, unit_coincidences

ORDINAL_CELLS = 1 << 24  # units × C² (and resamples × C²) up to which ordinal resamples are summed whole


def alpha_under_draws(counts, draws, metric="nominal", scores=None, distance=None):
    """α for each row of ``draws`` (R × units): how often each unit counts.

    Parameters
    ----------
    counts : array_like, shape (units, C)
        How many values of each category each unit has.
    draws : np.ndarray, shape (R, units)
    metric : {"nominal", "ordinal", "interval", "ratio"}
        Ignored when ``distance`` is given.
    scores : array_like, shape (C,), optional
        The categories' numbers (interval and ratio).
    distance : np.ndarray, shape (C, C), optional
        δ itself (zero diagonal), e.g. between label sets.

    Returns
    -------
    np.ndarray, shape (R,)
        NaN where the expected disagreement is 0.
    """
    counts = np.asarray(counts, dtype=float)
    pairable = counts.sum(axis=1) >= 2
    counts, draws = counts[pairable], np.asarray(draws, dtype=float)[:, pairable]
    if metric == "ordinal" and distance is None:
        return _ordinal(counts, draws)
    if distance is None:
        distance = delta(metric, categories=scores if metric in ("interval", "ratio") else None,
                         marginals=np.zeros(counts.shape[1]))
    within = np.einsum("uc,ck,uk->u", counts, distance, counts) / np.maximum(counts.sum(axis=1) - 1.0, 1.0)
    marginals = draws @ counts
    total = marginals.sum(axis=1)
    expected = np.einsum("rc,ck,rk->r", marginals, distance, marginals)
    value = 1.0 - (total - 1.0) * safe_ratio(draws @ within, expected)
    return np.where(expected > 0, value, np.nan)


def _ordinal(counts, draws):
    """Ordinal α under each draw; above ``ORDINAL_CELLS`` only under the first (the others NaN).

    The whole-data coincidence matrix is Xᵀ diag(1 / (m_u − 1)) X − diag(Σ_u x_u / (m_u − 1)),
    one product without the units × C² array.
    """
    units, size = counts.shape
    out = np.full(len(draws), np.nan)
    if max(units, len(draws)) * size * size <= ORDINAL_CELLS:
        flat = unit_coincidences(counts).reshape(units, size * size)
        out[:] = alpha_from_coincidence((draws @ flat).reshape(len(draws), size, size), "ordinal")
        return out
    scaled = counts * (draws[0] / np.maximum(counts.sum(axis=1) - 1.0, 1.0))[:, None]
    out[0] = alpha_from_coincidence(scaled.T @ counts - np.diag(scaled.sum(axis=0)), "ordinal")
    return out
