"""Distances between label sets and Krippendorff's α with any distance (sets of labels per judgement).

* Jaccard distance 1 − |A ∩ B| / |A ∪ B| (0 for two empty sets);
* MASI distance 1 − J·M (Passonneau 2006), J the Jaccard similarity and M the monotonicity
  weight: 1 when A = B, 2/3 when one contains the other, 1/3 when they overlap otherwise, 0 when
  they are disjoint.  NLTK's ``masi_distance`` rounds M to 0.67 and 0.33; these are the exact
  thirds of the paper.

α with a distance δ over the distinct values (here: distinct sets) is Krippendorff's general form
1 − (n − 1) Σ_ck o_ck δ_ck / Σ_ck n_c n_k δ_ck over a coincidence matrix o (Krippendorff 2011),
batched over leading axes of ``o``.

References
----------
R. Passonneau (2006), "Measuring agreement on set-valued items (MASI) for semantic and pragmatic
annotation", LREC 2006.  K. Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability".
"""
from __future__ import annotations

import numpy as np

SET_DISTANCES = ("masi", "jaccard")


def jaccard_distance(a, b):
    """1 − |a ∩ b| / |a ∪ b|.

    >>> jaccard_distance({"a", "b"}, {"a", "c"})
    0.6666666666666667
    """
    union = len(a | b)
    return 0.0 if union == 0 else 1.0 - len(a & b) / union


def masi_distance(a, b):
    """1 − J·M, Passonneau's (2006) MASI distance.

    Her examples: {a, b} against {a, b, c}: J = 2/3, M = 2/3, distance 5/9; {a, b, c} against
    {a, b, d}: J = 1/2, M = 1/3, MASI 1/6, distance 5/6.

    >>> round(masi_distance({"a", "b"}, {"a", "b", "c"}), 12)
    0.555555555556
    >>> round(1 - masi_distance({"a", "b", "c"}, {"a", "b", "d"}), 12)
    0.166666666667
    """
    common, union = len(a & b), len(a | b)
    if union == 0:
        return 0.0
    if a == b:
        monotonicity = 1.0
    elif common == min(len(a), len(b)):
        monotonicity = 2.0 / 3.0
    elif common > 0:
        monotonicity = 1.0 / 3.0
    else:
        monotonicity = 0.0
    return 1.0 - common / union * monotonicity


def distance_matrix(values, distance):
    """(C × C) distances between the distinct ``values`` (frozensets) by ``distance`` ("masi", "jaccard")."""
    function = {"masi": masi_distance, "jaccard": jaccard_distance}[distance]
    return np.array([[function(a, b) for b in values] for a in values], dtype=float).reshape(len(values),
                                                                                               len(values))


def alpha_from_distance(o, d):
    """α of coincidence matrices ``o`` (..., C, C) under distances ``d`` (C × C); NaN where D_e = 0."""
    o = np.asarray(o, dtype=float)
    marginals = o.sum(axis=-1)
    n = marginals.sum(axis=-1)
    observed = (o * d).sum(axis=(-2, -1))
    expected = np.einsum("...c,ck,...k->...", marginals, d, marginals)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 1.0 - (n - 1.0) * observed / expected
    return np.where(expected > 0, value, np.nan)
