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

from dataclasses import dataclass

import numpy as np

from .. import runtime
from ..arrays import safe_ratio


def table_cells(first, second, n_categories):
    """Cell index c·q + k of each item both rated (codes ≥ 0), −1 elsewhere."""
    first, second = np.asarray(first, dtype=np.intp), np.asarray(second, dtype=np.intp)
    return np.where((first >= 0) & (second >= 0), first * n_categories + second, -1)


DENSE_CELLS = 1 << 24  # items × keys up to which the sums are one product with an indicator matrix


def grouped_draw_sums(keys, n_keys, draws=None, items=None):
    """(R × n_keys): for each key, the sum of ``draws`` (R × n) over the entries with that key.

    ``keys`` holds a key in [0, n_keys) or −1 (the entry counts nowhere) per entry; entry e is
    item ``items[e]`` (default: entry e is item e).  Up to ``DENSE_CELLS`` items × keys the sums
    are ``draws`` times the (items × keys) count matrix, one product; beyond, the entries are
    sorted by key and each key's run summed, O(R · entries).  Without ``draws``, plain counts (R = 1).
    """
    keys = np.asarray(keys, dtype=np.intp)
    items = np.arange(len(keys)) if items is None else np.asarray(items, dtype=np.intp)
    kept = keys >= 0
    if draws is None:
        return np.bincount(keys[kept], minlength=n_keys).astype(float)[None, :]
    if draws.shape[1] * n_keys <= DENSE_CELLS:
        counts = np.zeros((draws.shape[1], n_keys))
        np.add.at(counts, (items[kept], keys[kept]), 1.0)
        return draws @ counts
    return sorted_sums(keys, n_keys, _by_item(draws), items).T


def _by_item(draws):
    """``draws`` (R × items) as (items × R), C-contiguous: an item's R values are gathered as one row."""
    return draws.T if draws.flags.f_contiguous else np.ascontiguousarray(draws.T)


def sorted_sums(keys, n_keys, by_item, items=None):
    """(n_keys × R): for each key, the sum of the rows of ``by_item`` (items × R) of the entries with that key.

    The entries are sorted by key and each key's run of rows summed: O(R · entries) additions, no
    product with an indicator matrix (which single-threaded wasm BLAS makes the slower way in the page).
    ``keys`` and ``items`` as in :func:`grouped_draw_sums`.
    """
    keys = np.asarray(keys, dtype=np.intp)
    items = np.arange(len(keys)) if items is None else np.asarray(items, dtype=np.intp)
    out = np.zeros((n_keys, by_item.shape[1]))
    kept = np.flatnonzero(keys >= 0)
    order = kept[np.argsort(keys[kept], kind="stable")]
    if len(order) == 0:
        return out
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    out[sorted_keys[starts]] = np.add.reduceat(by_item[items[order]], starts, axis=0)
    return out


def weighted_tables(cells, n_categories, draws=None):
    """(R × q × q) tables of one pair from its :func:`table_cells`, items weighted by ``draws`` rows."""
    sums = grouped_draw_sums(cells, n_categories * n_categories, draws)
    return sums.reshape(len(sums), n_categories, n_categories)


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


@dataclass(frozen=True)
class PairMargins:
    """What κ and π need of one pair's table under each row of the draws, without the q × q table.

    ``agree[w]`` is Σ_i c_i w(a_i, b_i) over the shared items for each weight matrix named ``w``;
    ``rows`` and ``cols`` the two raters' drawn category counts (R × q); ``n`` the drawn shared items.
    Memory is R × q, so a scale of many distinct values costs no R × q² tables.
    """

    n: np.ndarray
    agree: dict
    rows: np.ndarray
    cols: np.ndarray


def pair_margins(first, second, n_categories, weights, draws=None):
    """:class:`PairMargins` of two raters' codes (−1 = not rated) under ``weights`` (name → q × q)."""
    first, second = np.asarray(first, dtype=np.intp), np.asarray(second, dtype=np.intp)
    shared = np.flatnonzero((first >= 0) & (second >= 0))
    draws = np.ones((1, len(first))) if draws is None else draws
    a, b = first[shared], second[shared]
    per_item = np.zeros((len(first), 1 + len(weights)))  # shared indicator, then each weight's agreement
    per_item[shared, 0] = 1.0
    for column, w in enumerate(weights.values(), start=1):
        per_item[shared, column] = w[a, b]
    sums = draws @ per_item
    agree = {name: sums[:, column] for column, name in enumerate(weights, start=1)}
    rows = grouped_draw_sums(a, n_categories, draws, items=shared)
    cols = grouped_draw_sums(b, n_categories, draws, items=shared)
    return PairMargins(sums[:, 0], agree, rows, cols)


PAIR_COLUMNS = 1 << 21  # items × columns of one indicator matrix in :func:`many_pair_margins`: 16 MB of float64


def many_pair_margins(codes, pairs, n_categories, weights, draws, max_cells=PAIR_COLUMNS):
    """:class:`PairMargins` of each rater pair, in turn, ``(a, b)`` of ``codes`` (items × raters, −1 = not rated).

    The same sums as :func:`pair_margins`.  In Pyodide (:data:`agreekit.runtime.SORTED_PAIR_TABLES`), a
    scale small enough for every draw's q × q table of a pair to fit ``max_cells`` takes them from those
    tables (:func:`sorted_sums` of the items' cells, then :func:`margins_of_tables`); otherwise as many
    pairs at once as fit ``max_cells``: each
    pair's indicator columns (shared, each weight's agreement, a's categories, b's categories) side
    by side in one (items × columns) matrix, so the draws are read once per batch, not four times
    per pair.  A pair whose columns alone exceed ``max_cells`` (a scale of many distinct values)
    falls back to :func:`pair_margins`.
    """
    codes = np.asarray(codes, dtype=np.intp)
    n_items, pairs = codes.shape[0], list(pairs)
    width = 1 + len(weights) + 2 * n_categories
    draws = np.ones((1, n_items)) if draws is None else draws
    if runtime.SORTED_PAIR_TABLES and n_categories * n_categories * len(draws) <= max_cells:
        by_item = _by_item(draws)  # once for every pair
        for a, b in pairs:
            cells = table_cells(codes[:, a], codes[:, b], n_categories)
            tables = sorted_sums(cells, n_categories * n_categories, by_item).T
            yield margins_of_tables(tables.reshape(len(draws), n_categories, n_categories), weights)
        return
    if max(n_items, len(draws)) * width > max_cells:
        yield from (pair_margins(codes[:, a], codes[:, b], n_categories, weights, draws) for a, b in pairs)
        return
    per_batch = max(1, max_cells // (max(n_items, len(draws)) * width))  # bounds the columns and the sums
    for start in range(0, len(pairs), per_batch):
        batch = pairs[start:start + per_batch]
        columns = np.zeros((n_items, len(batch) * width))
        for k, (a, b) in enumerate(batch):
            _pair_columns(columns[:, k * width:(k + 1) * width], codes[:, a], codes[:, b], n_categories, weights)
        sums = draws @ columns
        for k in range(len(batch)):
            block = sums[:, k * width:(k + 1) * width]
            categories = 1 + len(weights)
            agree = {name: block[:, column] for column, name in enumerate(weights, start=1)}
            yield PairMargins(block[:, 0], agree, block[:, categories:categories + n_categories],
                              block[:, categories + n_categories:])


def margins_of_tables(tables, weights):
    """:class:`PairMargins` of (R × q × q) tables under ``weights`` (name → q × q).

    >>> margins = margins_of_tables(np.array([[[3.0, 1.0], [1.0, 3.0]]]), {"identity": np.eye(2)})
    >>> margins.n.tolist(), margins.agree["identity"].tolist(), margins.rows.tolist()
    ([8.0], [6.0], [[4.0, 4.0]])
    """
    agree = {name: np.einsum("rck,ck->r", tables, w) for name, w in weights.items()}
    return PairMargins(tables.sum(axis=(1, 2)), agree, tables.sum(axis=2), tables.sum(axis=1))


def _pair_columns(columns, first, second, n_categories, weights):
    """Fill one pair's (items × width) indicator columns: shared, agreement per weight, a's and b's category."""
    shared = np.flatnonzero((first >= 0) & (second >= 0))
    a, b = first[shared], second[shared]
    columns[shared, 0] = 1.0
    for column, w in enumerate(weights.values(), start=1):
        columns[shared, column] = w[a, b]
    offset = 1 + len(weights)
    columns[shared, offset + a] = 1.0
    columns[shared, offset + n_categories + b] = 1.0


def kappa_from_margins(margins, name, weights):
    """Cohen's weighted κ (identity weights: Cohen's κ) of :class:`PairMargins`, one value per draw."""
    observed = safe_ratio(margins.agree[name], margins.n)
    expected = safe_ratio(np.einsum("rc,ck,rk->r", margins.rows, weights, margins.cols), margins.n ** 2)
    return safe_ratio(observed - expected, 1.0 - expected)


def scott_pi_from_margins(margins, name="identity"):
    """Scott's π of :class:`PairMargins` (``agree[name]`` the identity agreement), one value per draw."""
    observed = safe_ratio(margins.agree[name], margins.n)
    pooled = safe_ratio(margins.rows + margins.cols, 2.0 * margins.n[:, None])
    expected = (pooled ** 2).sum(axis=1)
    return safe_ratio(observed - expected, 1.0 - expected)
