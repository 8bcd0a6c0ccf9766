"""Agreement weights between categories with scores: identity, linear and quadratic.

w_kl = 1 for equal categories, falling with their distance: the weights of Gwet's AC2,
weighted κ and the weighted Fleiss, Conger and Brennan–Prediger coefficients, as defined
in Gwet (2014, §3.5) and the irrCAC package: linear w_kl = 1 − |x_k − x_l| / (x_max − x_min),
quadratic w_kl = 1 − (x_k − x_l)² / (x_max − x_min)².  A weighted κ depends on the weights
only up to scale, so linear and quadratic κ equal Cohen's (1968) with |k − l| and (k − l)²
disagreement weights when the scores are evenly spaced.

References
----------
K. L. Gwet, *Handbook of Inter-Rater Reliability*, 4th ed., Advanced Analytics, 2014.

J. Cohen, "Weighted kappa", Psychological Bulletin 70(4): 213–220, 1968.
"""
from __future__ import annotations

import numpy as np

WEIGHTS = ("identity", "linear", "quadratic")


def agreement_weights(scores, kind="identity"):
    """The (q × q) agreement weights of categories with numeric ``scores``.

    Parameters
    ----------
    scores : array_like, shape (q,)
        Each category's value (ordinal labels: their rank).
    kind : {"identity", "linear", "quadratic"}

    Returns
    -------
    np.ndarray, shape (q, q)
        Symmetric, 1 on the diagonal; all ones when every score is the same.

    >>> agreement_weights([1, 2, 3], "linear").tolist()
    [[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]]
    >>> agreement_weights([1, 2, 3], "quadratic")[0].tolist()
    [1.0, 0.75, 0.0]
    """
    scores = np.asarray(scores, dtype=float)
    if kind == "identity":
        return np.eye(len(scores))
    if kind not in WEIGHTS:
        raise ValueError(f"unknown weights {kind!r}; expected one of {', '.join(WEIGHTS)}")
    span = float(scores.max() - scores.min()) if len(scores) else 0.0
    if span == 0.0:
        return np.ones((len(scores), len(scores)))
    distance = np.abs(scores[:, None] - scores[None, :]) / span
    return 1.0 - (distance if kind == "linear" else distance ** 2)
