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


def category_counts(codes, n_categories):
    """(rows × categories) how many annotators put each row of ``codes`` (−1 = not rated) in each category."""
    return np.stack([(codes == k).sum(axis=1) for k in range(n_categories)], axis=1).reshape(len(codes), n_categories)


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
    n_items = len(ratings.codes)
    counts = category_counts(rows, len(ratings.categories))
    resamples = bootstrap if bootstrap > 0 and n_items >= 2 else 0
    draws = np.empty((resamples + 1, len(rows)))
    draws[0] = np.bincount(row_of_item, minlength=len(rows))
    draws[1:] = boot.grouped_resample_counts(row_of_item, len(rows), resamples, seed,
                                             ranks=content_order(rows, row_of_item), items=ratings.items)
    return DrawnRows(rows, counts, draws)


def content_order(rows, row_of_item):
    """Each item's position in the order the resamples draw them (np.intp): by its ratings, not its name.

    An annotator is known by its :func:`annotator_classes`, not its name; a row is ordered by its
    sorted (category, annotator's class) cells, then by the row itself (which only orders rows that
    differ by a swap of annotators the classes cannot tell apart); items of one row by their position
    in ``ratings.items``, which changes no row's summed draws.  So renaming items or annotators and
    reordering the input leave the intervals as they were.
    """
    n_items = len(row_of_item)
    if n_items == 0:
        return np.zeros(0, dtype=np.intp)
    items_per_row = np.bincount(row_of_item, minlength=len(rows))
    cells = _row_cells(rows, annotator_classes(rows, items_per_row))
    by_row = np.lexsort(np.concatenate([cells, rows], axis=1)[:, ::-1].T)  # first cell first
    row_rank = np.empty(len(rows), dtype=np.intp)
    row_rank[by_row] = np.arange(len(rows), dtype=np.intp)
    order = np.lexsort((np.arange(n_items), row_rank[row_of_item]))
    ranks = np.empty(n_items, dtype=np.intp)
    ranks[order] = np.arange(n_items, dtype=np.intp)
    return ranks


def annotator_classes(rows, items_per_row):
    """Each annotator's class (np.intp, numbered in an order of content): annotators who cannot be told
    apart by their ratings without their names share one.

    First by the column's category counts; then refined until no class splits (colour refinement,
    as in the Weisfeiler–Leman test): an annotator's next class is its class with the multiset of
    (class of the row's sorted cells, its category there, items with that row) over the rows it
    rated.  Two annotators of one class at the end are alike in every way this can see; swapping
    them is then almost always a symmetry of the data, which leaves the draws as they were.

    >>> rows = np.array([[0, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 0], [0, 1, 1]])
    >>> annotator_classes(rows, np.array([2, 3, 4, 2, 1])).tolist()  # the first two: equal counts, unlike roles
    [0, 1, 2]
    """
    q = max(int(rows.max()) + 1, 1) if rows.size else 1  # at least one column, even were no cell rated
    column_counts = np.stack([items_per_row @ (rows == k) for k in range(q)], axis=1)  # annotators × categories
    classes = _numbered(list(map(tuple, column_counts.tolist())))
    rated_row, rated_by = np.nonzero(rows >= 0)
    by_annotator = np.argsort(rated_by, kind="stable")
    rated_row, rated_by = rated_row[by_annotator], rated_by[by_annotator]
    bounds = np.searchsorted(rated_by, np.arange(rows.shape[1] + 1))
    while True:
        _, row_class = np.unique(_row_cells(rows, classes), axis=0, return_inverse=True)
        row_class = np.asarray(row_class, dtype=np.intp).reshape(-1)
        seen = np.stack([row_class[rated_row], rows[rated_row, rated_by], items_per_row[rated_row]], axis=1)
        seen = seen[np.lexsort((*seen.T[::-1], rated_by))]  # by annotator, then by content
        seen = np.ascontiguousarray(seen, dtype=np.int64)  # the same bytes on 32-bit wasm
        refined = _numbered([(int(classes[a]), seen[bounds[a]:bounds[a + 1]].tobytes()) for a in range(rows.shape[1])])
        if refined.max(initial=-1) == classes.max(initial=-1):
            return classes
        classes = refined


def _numbered(keys):
    """Each key's rank among the distinct keys, sorted (np.intp)."""
    index = {key: number for number, key in enumerate(sorted(set(keys)))}
    return np.array([index[key] for key in keys], dtype=np.intp)


def _row_cells(rows, classes):
    """Each row's (category, annotator's class) cells as one sorted code per cell, −1 where not rated."""
    if rows.shape[1] == 0:
        return rows
    codes = np.where(rows >= 0, rows * (int(classes.max()) + 1) + classes[None, :], -1)
    return np.sort(codes, axis=1)
