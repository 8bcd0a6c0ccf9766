"""Krippendorff's α over coincidence matrices.

Definitions follow Krippendorff (2011), "Computing Krippendorff's
Alpha-Reliability", and Content Analysis (2004, ch. 11):

* A unit with m_u ≥ 2 pairable values contributes to the coincidence matrix
  o_ck = Σ_u Σ_{i≠j} [v_ui = c][v_uj = k] / (m_u − 1).
  Units with one value are not pairable and contribute nothing.
* n_c = Σ_k o_ck, n = Σ_c n_c.
* α = 1 − D_o / D_e = 1 − (n − 1) · Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck.
* α is undefined (NaN) when D_e = 0: every pairable value is the same, or
  nothing is pairable.

Metrics δ²: nominal [c ≠ k]; interval (c − k)²; ratio ((c − k)/(c + k))²;
ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)², which depends on the marginals and
is therefore computed from the coincidence matrix itself.

Everything here is plain numpy over small matrices, batched over a leading
axis so that bootstrap resamples are one call.
"""
from __future__ import annotations

import numpy as np

METRICS = ("nominal", "ordinal", "interval", "ratio")


def value_counts(units, categories=None):
    """Count matrix (units × categories) from per-unit lists of values.

    ``units`` is a sequence of sequences of hashable values (missing values
    simply absent).  ``categories`` fixes the category order (needed for the
    ordinal, interval and ratio metrics); by default the sorted distinct values.
    Returns ``(counts, categories)``.
    """
    if categories is None:
        categories = sorted({v for unit in units for v in unit}, key=_sort_key)
    index = {c: i for i, c in enumerate(categories)}
    counts = np.zeros((len(units), len(categories)))
    for u, unit in enumerate(units):
        for value in unit:
            counts[u, index[value]] += 1
    return counts, list(categories)


def _sort_key(value):
    return (0, value, "") if isinstance(value, (int, float)) else (1, 0, str(value))


def unit_coincidences(counts):
    """Per-unit coincidence matrices, shape (units, C, C).

    ``counts`` is (units × C): how many values of each category a unit has.
    Units with fewer than two values give a zero matrix.
    """
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=1)
    scale = np.zeros_like(m)
    pairable = m >= 2
    scale[pairable] = 1.0 / (m[pairable] - 1.0)
    outer = counts[:, :, None] * counts[:, None, :]
    idx = np.arange(counts.shape[1])
    outer[:, idx, idx] -= counts
    return outer * scale[:, None, None]


def grouped_coincidences(counts, unit_item, n_items, n_categories):
    """Per item (or any group), the sum of its units' coincidence matrices (n_items × C × C).

    ``counts`` has one row of category counts per unit, ``unit_item`` its item
    (ascending).  One :func:`unit_coincidences` for the whole corpus, then each
    item's units summed as one slice: the sum, to the bit, of that item alone.
    """
    out = np.zeros((n_items, n_categories, n_categories))
    if not unit_item:
        return out
    units = unit_coincidences(np.array(counts, dtype=float).reshape(len(unit_item), n_categories))
    bounds = np.searchsorted(np.array(unit_item, dtype=np.intp), np.arange(n_items + 1, dtype=np.intp))
    for i in np.flatnonzero(np.diff(bounds)):
        out[i] = units[bounds[i]:bounds[i + 1]].sum(axis=0)
    return out


def coincidence(counts):
    """The coincidence matrix Σ_u o_u (C × C) of a count matrix."""
    return unit_coincidences(counts).sum(axis=0)


def delta(metric, categories=None, marginals=None):
    """δ² matrices for ``metric``; batched over a leading axis of ``marginals``.

    ``categories`` must be numbers for interval and ratio.  Ordinal needs the
    marginals n_c (shape (..., C)).
    """
    if metric == "nominal":
        size = len(categories) if categories is not None else np.shape(marginals)[-1]
        return 1.0 - np.eye(size)
    if metric in ("interval", "ratio"):
        values = np.asarray(categories, dtype=float)
        diff = values[:, None] - values[None, :]
        if metric == "interval":
            return diff ** 2
        total = values[:, None] + values[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(total == 0, 0.0, (diff / np.where(total == 0, 1, total)) ** 2)
        return out
    if metric == "ordinal":
        n = np.asarray(marginals, dtype=float)
        cum = np.cumsum(n, axis=-1)
        # Σ_{g=c..k} n_g for c ≤ k equals cum[k] − cum[c] + n_c.
        lo = np.minimum.outer(np.arange(n.shape[-1]), np.arange(n.shape[-1]))
        hi = np.maximum.outer(np.arange(n.shape[-1]), np.arange(n.shape[-1]))
        between = cum[..., hi] - cum[..., lo] + n[..., lo]
        return (between - (n[..., :, None] + n[..., None, :]) / 2.0) ** 2
    raise ValueError(f"unknown metric {metric!r}; expected one of {', '.join(METRICS)}")


def alpha_from_coincidence(o, metric="nominal", categories=None):
    """α from a coincidence matrix ``o`` (C × C), or a batch (..., C, C).

    Returns a float (or an array for a batch); NaN where D_e = 0.
    """
    o = np.asarray(o, dtype=float)
    marg = o.sum(axis=-1)
    n = marg.sum(axis=-1)
    if metric == "nominal":
        d = 1.0 - np.eye(o.shape[-1])
    else:
        d = delta(metric, categories=categories, marginals=marg)
    observed = (o * d).sum(axis=(-2, -1))
    expected = (marg[..., :, None] * marg[..., None, :] * d).sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 1.0 - (n - 1.0) * observed / expected
    value = np.where(expected > 0, value, np.nan)
    return float(value) if value.ndim == 0 else value


def undefined_reason(o):
    """Why α is undefined for coincidence matrix ``o``, or None if it is defined."""
    o = np.asarray(o, dtype=float)
    n = o.sum()
    if n == 0:
        return "no unit has two or more values, so nothing is pairable"
    if np.count_nonzero(o.sum(axis=1)) < 2:
        return "every pairable value is the same, so expected disagreement is 0"
    return None


def krippendorff_alpha(reliability_data, metric="nominal", categories=None):
    """Krippendorff's α of a reliability matrix.

    Convenience over :func:`value_counts` and :func:`alpha_from_coincidence`,
    in the shape of fast-krippendorff's ``alpha(reliability_data=...)``.

    Parameters
    ----------
    reliability_data : sequence of sequences, shape (coders, units)
        Each coder's value for each unit; ``None`` or NaN marks a missing value.
    metric : {"nominal", "ordinal", "interval", "ratio"}
        The difference function δ² (module docstring).
    categories : sequence, optional
        The ordered categories (ordinal data that are not numbers).

    Returns
    -------
    float
        α, or NaN when expected disagreement is 0 (see :func:`undefined_reason`).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. The
    published values below are that paper's 3-coder × 15-unit example
    (nominal 0.691, interval 0.811) and 4-coder × 12-unit example
    (ordinal 0.815, ratio 0.797, nominal on letters 0.743).

    Examples
    --------
    >>> nan = float("nan")
    >>> three = [[nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
    ...          [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
    ...          [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4]]
    >>> round(krippendorff_alpha(three, "nominal"), 6), round(krippendorff_alpha(three, "interval"), 6)
    (0.691358, 0.810845)
    >>> four = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> round(krippendorff_alpha(four, "ordinal"), 3), round(krippendorff_alpha(four, "ratio"), 3)
    (0.815, 0.797)
    >>> letters = [[None if v != v else "abcde"[int(v) - 1] for v in coder] for coder in four]
    >>> round(krippendorff_alpha(letters, "nominal"), 3)
    0.743
    """
    data = list(zip(*reliability_data))  # units × coders
    units = [[v for v in unit if not _missing(v)] for unit in data]
    counts, cats = value_counts(units, categories)
    numeric = cats if metric in ("interval", "ratio") else None
    return alpha_from_coincidence(coincidence(counts), metric, categories=numeric)


def _missing(value):
    return value is None or (isinstance(value, float) and np.isnan(value))
