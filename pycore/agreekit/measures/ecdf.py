"""The ECDFs the σ chart draws: the within distances and the between distances, compactly."""
from __future__ import annotations

import numpy as np


def ecdf_summary(values, points=200):
    """A compact ECDF of sorted ``values``: at most ``points`` quantile steps."""
    values = np.sort(np.asarray(values, dtype=float))
    if values.size == 0:
        return {"x": [], "y": []}
    k = np.unique(np.linspace(0, values.size - 1, min(points, values.size)).round().astype(int))
    return {"x": values[k].tolist(), "y": ((k + 1) / values.size).tolist()}


def between_ecdf(within_sorted, le, n_between, histogram):
    """The between ECDF for the chart: exact at every within value (where KS is
    read) and at the edges of a 200-bin histogram over [0, 1] (the rest of the curve;
    at an edge e the value is the share of distances below e, and 1 at e = 1)."""
    if n_between == 0:
        return {"x": [], "y": []}
    x_within = np.unique(within_sorted)
    last = np.searchsorted(within_sorted, x_within, "right") - 1
    y_within = le[last] / n_between if len(x_within) else np.zeros(0)
    edges = np.arange(1, len(histogram) + 1) / len(histogram)
    y_edges = np.cumsum(histogram) / n_between
    x = np.concatenate([x_within, edges])
    y = np.concatenate([y_within, y_edges])
    order = np.lexsort((y, x))
    return {"x": x[order].tolist(), "y": y[order].tolist()}
