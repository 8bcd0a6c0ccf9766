"""κ coefficients for nominal labels: Cohen's (two annotators) and Fleiss' (m per unit), and the
per-unit percent agreement Fleiss' κ is built from.

Everything is batched over leading axes, so bootstrap resamples (reweighted
tables and sums) are one call; an undefined value is NaN, never 0 or 1.

References
----------
J. Cohen, "A coefficient of agreement for nominal scales", Educational and
Psychological Measurement 20(1): 37–46, 1960.

J. L. Fleiss, "Measuring nominal scale agreement among many raters",
Psychological Bulletin 76(5): 378–382, 1971.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..arrays import safe_ratio

__all__ = ["CohenKappa", "unit_agreement", "cohen_kappa", "kappa_reason", "fleiss_kappa"]


class CohenKappa(NamedTuple):
    """Cohen's κ and the observed agreement p_o it corrects for chance."""

    kappa: np.ndarray     # NaN where there are no shared units or p_e = 1
    observed: np.ndarray  # p_o, NaN where there are no shared units


def unit_agreement(counts) -> np.ndarray:
    """Per-unit percent agreement: the share of agreeing ordered label pairs within each unit.

    P_u = Σ_c n_uc (n_uc − 1) / (m_u (m_u − 1)), with n_uc the number of labels
    of category c on unit u and m_u = Σ_c n_uc: Fleiss' (1971) P_i.

    Parameters
    ----------
    counts : array_like, shape (..., units, categories)

    Returns
    -------
    np.ndarray, shape (..., units)
        P_u in [0, 1]; NaN for units with fewer than 2 labels.

    References
    ----------
    Fleiss (1971): P_i, with his n raters per subject as m_u here.

    >>> unit_agreement([[2, 1], [2, 0], [1, 0]]).round(4).tolist()
    [0.3333, 1.0, nan]
    """
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=-1)
    return safe_ratio((counts * (counts - 1)).sum(axis=-1), m * (m - 1))


def cohen_kappa(table) -> CohenKappa:
    """Cohen's κ of a contingency table of two annotators' labels on the units both labelled.

    κ = (p_o − p_e) / (1 − p_e), with n = Σ table, p_o = Σ_c table_cc / n the
    observed agreement and p_e = Σ_c (row_c / n)(column_c / n) the agreement
    expected from each annotator's own marginals (Cohen 1960).

    Parameters
    ----------
    table : array_like, shape (..., C, C)
        ``table[c, k]``: units annotator a labelled c and annotator b labelled k.

    Returns
    -------
    CohenKappa
        ``kappa`` and ``observed`` (p_o), each of shape (...).

    References
    ----------
    Cohen (1960).

    >>> cohen_kappa([[3, 1], [1, 3]])
    CohenKappa(kappa=array(0.5), observed=array(0.75))
    """
    table = np.asarray(table, dtype=float)
    n = table.sum(axis=(-2, -1))
    observed = safe_ratio(np.trace(table, axis1=-2, axis2=-1), n)
    expected = safe_ratio((table.sum(axis=-1) * table.sum(axis=-2)).sum(axis=-1), n ** 2)
    return CohenKappa(safe_ratio(observed - expected, 1.0 - expected), observed)


def kappa_reason(table):
    """Why Cohen's κ of the (C, C) ``table`` is undefined, or None when it is defined.

    >>> kappa_reason([[3, 0], [0, 0]])
    'both annotators gave one and the same label on every shared unit: expected agreement is 1'
    >>> kappa_reason([[3, 1], [1, 3]]) is None
    True
    """
    table = np.asarray(table, dtype=float)
    n = table.sum()
    if n == 0:
        return "the two annotators share no labelled unit"
    if np.count_nonzero(table.sum(axis=1)) == 1 and np.count_nonzero(table.sum(axis=0)) == 1 \
            and np.argmax(table.sum(axis=1)) == np.argmax(table.sum(axis=0)):
        return "both annotators gave one and the same label on every shared unit: expected agreement is 1"
    return None


def fleiss_kappa(agree_sum, n_units, category_totals, m) -> np.ndarray:
    """Fleiss' κ of N units with the same number m ≥ 2 of labels each, from its sums.

    κ = (P̄ − P̄_e) / (1 − P̄_e), with P̄ = Σ_u P_u / N the mean of
    :func:`unit_agreement`, and P̄_e = Σ_c p_c², p_c = Σ_u n_uc / (N m) the share
    of all labels in category c (Fleiss 1971).

    Parameters
    ----------
    agree_sum : array_like, shape (...)
        Σ_u P_u.
    n_units : array_like, shape (...)
        N.
    category_totals : array_like, shape (..., C)
        Σ_u n_uc.
    m : float
        Labels per unit.

    Returns
    -------
    np.ndarray, shape (...)
        NaN where there are no units or P̄_e = 1 (every label in one category).

    References
    ----------
    Fleiss (1971).

    Two units of two labels: both "x", and one "x", one "y". P̄ = (1 + 0) / 2,
    p = (3/4, 1/4), P̄_e = 10/16, κ = (1/2 − 5/8) / (3/8) = −1/3:

    >>> float(fleiss_kappa(1.0, 2, [3, 1], 2))
    -0.3333333333333333
    """
    agree_sum = np.asarray(agree_sum, dtype=float)
    n_units = np.asarray(n_units, dtype=float)
    category_totals = np.asarray(category_totals, dtype=float)
    mean_agreement = safe_ratio(agree_sum, n_units)
    share = safe_ratio(category_totals, (n_units * m)[..., None])
    expected = (share ** 2).sum(axis=-1)
    return safe_ratio(mean_agreement - expected, 1.0 - expected)
