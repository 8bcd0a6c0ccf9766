"""The items grouped by their ratings: every drawn coefficient is computed over distinct rows of codes.

Every coefficient of the labels report is a function of sums over items of terms that depend on the
item's row of codes only (which annotator gave which category), weighted by how often each item is
drawn.  Items with the same row therefore count together: their draws are summed per row
(:func:`~agreekit.measures.bootstrap.grouped_resample_counts`), and every product with the draws is
(resamples × rows) instead of (resamples × items).  10,000 items of 5 annotators on a 5-point scale
have under a thousand distinct rows; in the page's runtime, whose BLAS is single-threaded and slow,
that is most of the report's time (``benchmarks/RESULTS.md``, "labels in the page's runtime").
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...measures import bootstrap as boot


@dataclass(frozen=True)
class DrawnRows:
    """The distinct rows of a ratings matrix and how often each is drawn.

    ``draws[0]`` is how many items have each row (the data); ``draws[1:]`` the bootstrap resamples'
    counts of items summed per row.  All are whole numbers held as floats.
    """

    codes: np.ndarray    # (rows, annotators) intp, −1 = not rated
    counts: np.ndarray   # (rows, categories) how many annotators put the row in each category
    draws: np.ndarray    # (R + 1, rows)

    def items(self, rows=None):
        """How many items have the rows ``rows`` (a mask or indices; default all)."""
        return int(round(self.draws[0].sum() if rows is None else self.draws[0, rows].sum()))


def distinct_rows(codes):
    """``(rows, row_of_item)``: the distinct rows of ``codes`` (items × annotators) in sorted order, and
    each item's row; sorted, so the grouping depends on the ratings only, not on the items' order."""
    codes = np.asarray(codes, dtype=np.intp)
    if len(codes) == 0:
        return codes.reshape(0, codes.shape[1] if codes.ndim == 2 else 0), np.zeros(0, dtype=np.intp)
    rows, inverse = np.unique(codes, axis=0, return_inverse=True)
    return rows.astype(np.intp, copy=False), np.asarray(inverse, dtype=np.intp).reshape(-1)


def drawn_rows(ratings, bootstrap, seed):
    """:class:`DrawnRows` of ``ratings``: row 0 the data, then ``bootstrap`` resamples of the items
    (none with fewer than two items), the same draws as :func:`~agreekit.measures.bootstrap.resample_counts`
    of the items in their :func:`content_order`."""
    rows, row_of_item = distinct_rows(ratings.codes)
    q, n_items = len(ratings.categories), len(ratings.codes)
    counts = np.stack([(rows == k).sum(axis=1) for k in range(q)], axis=1).reshape(len(rows), q)
    resamples = bootstrap if bootstrap > 0 and n_items >= 2 else 0
    draws = np.empty((resamples + 1, len(rows)))
    draws[0] = np.bincount(row_of_item, minlength=len(rows))
    draws[1:] = boot.grouped_resample_counts(row_of_item, len(rows), resamples, seed,
                                             ranks=content_order(rows, row_of_item), items=ratings.items)
    return DrawnRows(rows, counts, draws)


def content_order(rows, row_of_item):
    """Each item's position in the order the resamples draw them (np.intp): by its ratings, not its name.

    An annotator is known by its column's category counts, not its name; a row is ordered by its
    sorted (category, annotator's counts) cells, then by the row itself (which only orders rows that
    differ by a swap of annotators with equal counts); items of one row by their position in
    ``ratings.items``, which changes no row's summed draws.  So renaming items or annotators and
    reordering the input leave the intervals as they were.
    """
    n_items = len(row_of_item)
    if n_items == 0:
        return np.zeros(0, dtype=np.intp)
    items_per_row = np.bincount(row_of_item, minlength=len(rows))
    q = max(int(rows.max()) + 1, 1)  # at least one column, even were no cell rated
    column_counts = np.stack([items_per_row @ (rows == k) for k in range(q)], axis=1)  # annotators × categories
    _, annotator_kind = np.unique(column_counts, axis=0, return_inverse=True)
    kinds = np.asarray(annotator_kind, dtype=np.intp).reshape(-1)
    cells = np.sort(np.where(rows >= 0, rows * (int(kinds.max()) + 1) + kinds[None, :], -1), axis=1)
    by_row = np.lexsort(np.concatenate([cells, rows], axis=1)[:, ::-1].T)  # first cell first
    row_rank = np.empty(len(rows), dtype=np.intp)
    row_rank[by_row] = np.arange(len(rows), dtype=np.intp)
    order = np.lexsort((np.arange(n_items), row_rank[row_of_item]))
    ranks = np.empty(n_items, dtype=np.intp)
    ranks[order] = np.arange(n_items, dtype=np.intp)
    return ranks
