"""σ, how much closer matched objects are than objects on different items.

σ = 1 − mean(within-item distance) / mean(between-item distance), not clamped (Potato 2.8's
definition, docs/potato-differences.md §5): 1 when matched objects coincide, 0 when they are no
closer than chance.  The between mean is :mod:`.chance`'s, which re-exports these two functions.
"""
from __future__ import annotations

import numpy as np


def sigma_value(mean_within, mean_between):
    """σ = 1 − mean_within / mean_between, NaN when either is undefined or the between mean is not positive."""
    if not np.isfinite(mean_within) or not np.isfinite(mean_between) or mean_between <= 0:
        return float("nan")
    return 1.0 - mean_within / mean_between


def sigma_reason(n_within, n_between, mean_between):
    """Why σ is undefined, or None."""
    if n_within == 0:
        return "no matched pairs: no within-item distances"
    if n_between == 0:
        return "fewer than two comparable items: no between-item pairs"
    if not mean_between > 0:
        return "every between-item distance is 0"
    return None
