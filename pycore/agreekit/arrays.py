"""Small helpers every floor uses: division that is undefined where the denominator is not
positive, and the "first ten of them" lists that warnings name."""
from __future__ import annotations

import numpy as np

LISTED = 10  # how many offending items, lines or names a warning lists


def safe_ratio(numerator, denominator):
    """``numerator / denominator`` elementwise, NaN where ``denominator`` ≤ 0 (no warnings raised).

    >>> safe_ratio(np.array([1.0, 1.0]), np.array([4.0, 0.0])).tolist()
    [0.25, nan]
    """
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    positive = denominator > 0
    return np.where(positive, numerator / np.where(positive, denominator, 1.0), np.nan)


def name_list(names, limit=LISTED):
    """The first ``limit`` names, comma-separated, and how many more there are.

    >>> name_list(range(12), limit=3)
    '0, 1, 2 and 9 more'
    """
    names = [str(name) for name in names]
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")
