"""Two raters' contingency tables: weighted κ (Cohen 1968) and Scott's π (1955).

A table ``T[..., c, k]`` counts the items rater a put in c and rater b in k, over the items both
rated; everything is batched over leading axes (bootstrap resamples).  Undefined values are NaN.

* weighted κ = (p_o − p_e) / (1 − p_e), p_o = Σ w_ck T_ck / n, p_e = Σ w_ck a_c b_k / n², a and b
  the row and column sums; identity weights give Cohen's (1960) κ;
* Scott's π = (p_o − p_e) / (1 − p_e), p_e = Σ_c ((a_c + b_c) / 2n)²: chance from the two raters'
  pooled label shares.

References
----------
J. Cohen (1968), "Weighted kappa", Psychological Bulletin 70(4): 213–220.
W. A. Scott (1955), "Reliability of content analysis: the case of nominal scale coding",
Public Opinion Quarterly 19(3): 321–325.
"""
from __future__ import annotations

import numpy as np

from ..arrays import safe_ratio


def table_cells(first, second, n_categories):
    """Cell index c·q + k of each item both rated (codes ≥ 0), −1 elsewhere."""
    first, second = np.asarray(first, dtype=np.intp), np.asarray(second, dtype=np.intp)
    return np.where((first >= 0) & (second >= 0), first * n_categories + second, -1)


def weighted_tables(cells, n_categories, draws=None):
    """(R × q × q) tables of one pair from its :func:`table_cells`, items weighted by ``draws`` rows."""
    cells = np.asarray(cells, dtype=np.intp)
    shared = np.flatnonzero(cells >= 0)
    size = n_categories * n_categories
    if draws is None:
        return np.bincount(cells[shared], minlength=size).astype(float).reshape(1, n_categories, n_categories)
    onehot = np.zeros((len(shared), size))
    onehot[np.arange(len(shared)), cells[shared]] = 1.0
    return (draws[:, shared] @ onehot).reshape(len(draws), n_categories, n_categories)


def weighted_kappa(table, weights=None):
    """Cohen's weighted κ of ``table`` (..., q, q) with agreement ``weights`` (identity: Cohen's κ).

    >>> float(weighted_kappa(np.array([[3, 1], [1, 3]])))
    0.5
    """
    table = np.asarray(table, dtype=float)
    weights = np.eye(table.shape[-1]) if weights is None else np.asarray(weights, dtype=float)
    n = table.sum(axis=(-2, -1))
    observed = safe_ratio((table * weights).sum(axis=(-2, -1)), n)
    rows, cols = table.sum(axis=-1), table.sum(axis=-2)
    expected = safe_ratio(np.einsum("...c,ck,...k->...", rows, weights, cols), n ** 2)
    return safe_ratio(observed - expected, 1.0 - expected)


def scott_pi(table):
    """Scott's π of ``table`` (..., q, q).

    >>> round(float(scott_pi(np.array([[3, 1], [1, 3]]))), 6)
    0.5
    """
    table = np.asarray(table, dtype=float)
    n = table.sum(axis=(-2, -1))
    observed = safe_ratio(np.trace(table, axis1=-2, axis2=-1), n)
    pooled = safe_ratio(table.sum(axis=-1) + table.sum(axis=-2), 2.0 * n[..., None])
    expected = (pooled ** 2).sum(axis=-1)
    return safe_ratio(observed - expected, 1.0 - expected)


def table_agreement(table):
    """p_o of ``table`` (..., q, q): the share of shared items given the same category."""
    table = np.asarray(table, dtype=float)
    return safe_ratio(np.trace(table, axis1=-2, axis2=-1), table.sum(axis=(-2, -1)))
