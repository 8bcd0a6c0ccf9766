"""Chance-corrected agreement of any number of raters with missing ratings: percent agreement,
Gwet's AC1/AC2, Fleiss' κ, Conger's κ and Brennan–Prediger, in Gwet's (2014) general form.

Every coefficient is (p_a − p_e) / (1 − p_e).  With r_ik raters putting item i in category k,
r_i = Σ_k r_ik, agreement weights w (:mod:`agreekit.measures.category_weights`) and
r*_ik = Σ_l w_kl r_il:

* p_a = mean over the items with r_i ≥ 2 of Σ_k r_ik (r*_ik − 1) / (r_i (r_i − 1)) (percent agreement
  with the identity weights);
* π_k = mean over the items with r_i ≥ 1 of r_ik / r_i;
* Gwet's AC1/AC2: p_e = T_w / (q (q − 1)) Σ_k π_k (1 − π_k), T_w = Σ_kl w_kl;
* Fleiss' κ: p_e = Σ_kl w_kl π_k π_l;
* Brennan–Prediger: p_e = T_w / q²;
* Conger's κ: with p_gk the share of rater g's items put in k, p̄_k = Σ_g p_gk / r and
  s²_kl = (Σ_g p_gk p_gl − r p̄_k p̄_l) / (r − 1), p_e = Σ_kl w_kl (p̄_k p̄_l − s²_kl / r).

These are the definitions of the irrCAC package (``gwet.ac1.raw``, ``fleiss.kappa.raw``,
``bp.coeff.raw``, ``conger.kappa.raw``).  Sums run over items weighted by ``draws`` (one row
per bootstrap resample: how often each item is drawn; ``ones`` for the data themselves): the
item terms (:func:`item_terms`) times the draws, once (:func:`drawn_terms`), give every
coefficient.  Undefined values (no pairable item, p_e = 1) are NaN.

References
----------
K. L. Gwet, *Handbook of Inter-Rater Reliability*, 4th ed., 2014 (ch. 2–4).

J. L. Fleiss (1971), Psychological Bulletin 76(5): 378–382.  A. J. Conger, "Integration and
generalization of kappas for multiple raters", Psychological Bulletin 88(2): 322–328, 1980.
R. L. Brennan & D. J. Prediger, "Coefficient kappa: some uses, misuses, and alternatives",
Educational and Psychological Measurement 41: 687–699, 1981.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..arrays import safe_ratio
from .pair_tables import grouped_draw_sums


@dataclass(frozen=True)
class ItemTerms:
    """The per-item terms of the coefficients under one weight matrix (n items, q categories)."""

    pairable: np.ndarray   # (n,) 1.0 where r_i ≥ 2
    rated: np.ndarray      # (n,) 1.0 where r_i ≥ 1
    agreement: np.ndarray  # (n,) Σ_k r_ik (r*_ik − 1) / (r_i (r_i − 1)), 0 where not pairable
    shares: np.ndarray     # (n, q) r_ik / r_i, 0 where not rated
    weights: np.ndarray    # (q, q)


def item_terms(counts, weights=None):
    """:class:`ItemTerms` of a (n × q) count matrix ``counts`` (r_ik) under agreement ``weights``.

    >>> terms = item_terms([[2, 0], [1, 1], [1, 0]])
    >>> terms.agreement.tolist(), terms.pairable.tolist()
    ([1.0, 0.0, 0.0], [1.0, 1.0, 0.0])
    """
    counts = np.asarray(counts, dtype=float).reshape(len(counts), -1)
    weights = np.eye(counts.shape[1]) if weights is None else np.asarray(weights, dtype=float)
    totals = counts.sum(axis=1)
    weighted = counts @ weights.T
    agreement = np.nan_to_num(safe_ratio((counts * (weighted - 1.0)).sum(axis=1), totals * (totals - 1.0)))
    shares = np.nan_to_num(safe_ratio(counts, totals[:, None]))
    return ItemTerms((totals >= 2).astype(float), (totals >= 1).astype(float), agreement, shares, weights)


@dataclass(frozen=True)
class DrawnTerms:
    """The item sums of :class:`ItemTerms` under each row of the draws (R resamples)."""

    pairable: np.ndarray   # (R,) Σ_i c_i [r_i ≥ 2]
    rated: np.ndarray      # (R,) Σ_i c_i [r_i ≥ 1]
    agreement: np.ndarray  # (R,)
    shares: np.ndarray     # (R, q)
    weights: np.ndarray    # (q, q)


def drawn_terms(terms, draws=None):
    """:class:`DrawnTerms`: one product of ``draws`` (R × n; default the data once) with the item terms."""
    draws = np.ones((1, len(terms.pairable))) if draws is None else draws
    sums = draws @ np.column_stack([terms.pairable, terms.rated, terms.agreement, terms.shares])
    return DrawnTerms(sums[:, 0], sums[:, 1], sums[:, 2], sums[:, 3:], terms.weights)


def percent_agreement(drawn):
    """p_a of :class:`DrawnTerms`, one value per draw.

    >>> percent_agreement(drawn_terms(item_terms([[2, 0], [1, 1], [1, 0]]))).tolist()
    [0.5]
    """
    return safe_ratio(drawn.agreement, drawn.pairable)


def category_shares(drawn):
    """π_k (R × q): the mean over rated items of each category's share of the item's ratings."""
    return safe_ratio(drawn.shares, drawn.rated[:, None])


def _corrected(observed, expected):
    return safe_ratio(observed - expected, 1.0 - expected)


def gwet_ac(drawn):
    """Gwet's AC1 (identity weights) or AC2 (others) of :class:`DrawnTerms`, one value per draw.

    Four items of three ratings: p_a = (1 + 1/3 + 1 + 1) / 4 = 5/6, π = (2/3, 1/3),
    p_e = 2 · (2/3)(1/3) = 4/9, AC1 = (5/6 − 4/9) / (5/9) = 0.7:

    >>> round(float(gwet_ac(drawn_terms(item_terms([[3, 0], [2, 1], [0, 3], [3, 0]])))[0]), 12)
    0.7
    """
    pi = category_shares(drawn)
    q = drawn.weights.shape[0]
    if q < 2:
        return np.full(len(pi), np.nan)
    expected = drawn.weights.sum() / (q * (q - 1)) * (pi * (1.0 - pi)).sum(axis=1)
    return _corrected(percent_agreement(drawn), expected)


def fleiss_kappa(drawn):
    """Fleiss' κ in Gwet's form (weighted, missing ratings allowed) of :class:`DrawnTerms`.

    On items that all have the same number of ratings, with identity weights, Fleiss (1971).
    """
    pi = category_shares(drawn)
    expected = np.einsum("rk,kl,rl->r", pi, drawn.weights, pi)
    return _corrected(percent_agreement(drawn), expected)


def brennan_prediger(drawn):
    """Brennan–Prediger's coefficient of :class:`DrawnTerms`: p_e = T_w / q²."""
    q = drawn.weights.shape[0]
    observed = percent_agreement(drawn)
    return _corrected(observed, np.full(observed.shape, drawn.weights.sum() / q ** 2))


def rater_classifications(codes, n_categories, draws=None):
    """(R × raters × q): how many (drawn) items each rater put in each category.

    ``codes`` is (n × raters), a category index or −1 for not rated.
    """
    codes = np.asarray(codes, dtype=np.intp)
    item, rater = np.nonzero(codes >= 0)
    keys = rater * n_categories + codes[item, rater]
    if draws is None:
        draws = np.ones((1, len(codes)))
    sums = grouped_draw_sums(keys, codes.shape[1] * n_categories, draws, items=item)
    return sums.reshape(len(sums), codes.shape[1], n_categories)


def conger_kappa(drawn, classifications):
    """Conger's κ of :class:`DrawnTerms` and :func:`rater_classifications` made with the same draws.

    Every rater counts in p_e (r of them); a rater with no drawn item makes it NaN.
    """
    raters = classifications.shape[1]
    totals = classifications.sum(axis=2, keepdims=True)
    p = safe_ratio(classifications, totals)                       # (R, r, q)
    mean = p.mean(axis=1)                                         # (R, q)
    outer = mean[:, :, None] * mean[:, None, :]
    spread = (np.einsum("rgk,rgl->rkl", p, p) - raters * outer) / max(raters - 1, 1)
    expected = (drawn.weights * (outer - spread / raters)).sum(axis=(1, 2))
    if raters < 2:
        return np.full(len(expected), np.nan)
    return _corrected(percent_agreement(drawn), expected)
