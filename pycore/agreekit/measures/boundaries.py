"""Boundary agreement within a tolerance: the onset/offset evaluation of sed_eval for two annotators.

For a tolerance τ, one annotator's segment starts are matched one-to-one to the
other's starts with |Δ| ≤ τ, ends to ends likewise, by a maximum bipartite
matching; the matched boundaries give a precision, recall and F1 per tolerance
(the "sweep").  The figures are pooled over blocks — one block per (item,
annotator pair) — by summing counts before dividing, as sed_eval pools files.

References
----------
Mesaros, A., Heittola, T. & Virtanen, T. (2016). Metrics for polyphonic sound
event detection. Applied Sciences 6(6), 162 (onset/offset-based evaluation;
reference code ``sed_eval``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..arrays import safe_ratio
from .bootstrap import DEFAULT_LEVEL, percentile_ci


# scipy.sparse is imported on first use, not with the package: it costs seconds of the page's
# start-up in Pyodide (benchmarks/RESULTS.md) and only segment reports need it.
def csr_matrix(*args, **kwargs):
    """``scipy.sparse.csr_matrix``, imported when first called."""
    from scipy.sparse import csr_matrix as csr
    return csr(*args, **kwargs)


def maximum_bipartite_matching(graph, perm_type="row"):
    """``scipy.sparse.csgraph.maximum_bipartite_matching``, imported when first called."""
    from scipy.sparse.csgraph import maximum_bipartite_matching as matching
    return matching(graph, perm_type=perm_type)


# Decimal times are not exact in binary: 2.1 − 2.0 is 0.10000000000000009.
# A slack of a nanosecond keeps "|Δ| ≤ 0.1 s" inclusive for such inputs while
# staying far below any time resolution annotators work at.
TOLERANCE_SLACK = 1e-9

# Blocks with at most this many boundary pairs take the matrix of differences (faster for the
# many small blocks of a corpus); larger ones a sorted search, whose memory grows with the pairs
# within the tolerance only (two 3,000-boundary tracks: 9 million differences, 72 MB, otherwise).
SMALL_BLOCK = 65536

NO_BOUNDARIES_REASON = "no boundaries to compare: no scored item has a segment"


def within_tolerance(delta, tolerance):
    """Whether time differences are within a tolerance, inclusively.

    Parameters
    ----------
    delta : array_like
        Time differences (signed or absolute).
    tolerance : float
        τ ≥ 0, in the unit of ``delta``.

    Returns
    -------
    ndarray of bool
        |Δ| ≤ τ + :data:`TOLERANCE_SLACK`, elementwise.
    """
    return np.abs(delta) <= tolerance + TOLERANCE_SLACK


def boundary_matching_size(times_a, times_b, tolerance):
    """Size of a maximum one-to-one matching of two lists of boundary times within a tolerance.

    The graph's edges are the pairs (a_i, b_j) with |a_i − b_j| ≤ τ
    (:func:`within_tolerance`); the size of its maximum matching (Hopcroft–Karp,
    scipy's ``maximum_bipartite_matching``) is the number of matched boundaries.
    The reference for one pair of lists; :func:`block_matching_sizes` batches it.

    Parameters
    ----------
    times_a, times_b : array_like, shape (m,) and (n,)
        Boundary times (starts, or ends) of the two annotators.
    tolerance : float
        τ ≥ 0.

    Returns
    -------
    int
        The number of matched pairs, ≤ min(m, n).

    References
    ----------
    Mesaros, Heittola & Virtanen (2016), onset/offset matching with a collar.
    """
    a = np.asarray(times_a, dtype=float)
    b = np.asarray(times_b, dtype=float)
    if a.size == 0 or b.size == 0:
        return 0
    rows, cols = np.nonzero(within_tolerance(a[:, None] - b[None, :], tolerance))
    graph = csr_matrix((np.ones(rows.size), (rows, cols)), shape=(a.size, b.size))
    return int(np.count_nonzero(maximum_bipartite_matching(graph, perm_type="column") >= 0))


def tolerance_edges(times_a, times_b, tolerance):
    """The pairs of boundaries within a tolerance, found without the m × n matrix of differences.

    Parameters
    ----------
    times_a, times_b : array_like, shape (m,) and (n,)
        Boundary times of the two sides, in any order.
    tolerance : float
        τ ≥ 0.

    Returns
    -------
    rows, cols : ndarray of intp
        The pairs (i, j) with |a_i − b_j| ≤ τ (:func:`within_tolerance`), sorted by
        i then j: the order ``np.nonzero`` gives over the full matrix, so that a
        graph built from them is the same graph.
    gaps : ndarray
        |a_i − b_j| of each pair.

    Both ways of finding them (the matrix of differences for small blocks, a sorted
    search with a wider window then the same test otherwise) give the same pairs.
    """
    a, b = np.asarray(times_a, dtype=float), np.asarray(times_b, dtype=float)
    if a.size == 0 or b.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp), np.zeros(0)
    if a.size * b.size <= SMALL_BLOCK:
        delta = np.abs(np.subtract.outer(a, b))
        rows, cols = np.nonzero(within_tolerance(delta, tolerance))
        return rows.astype(np.intp), cols.astype(np.intp), delta[rows, cols]
    order = np.argsort(b, kind="stable")
    sorted_b = b[order]
    # A window wider than any pair can be: |fl(a − b)| ≤ τ' implies |a − b| < 1.0001 τ', and
    # 4 spacings of a cover the rounding of the window's own ends. The exact test follows.
    reach = 2 * (tolerance + TOLERANCE_SLACK) + 4 * np.spacing(np.abs(a))
    lo = np.searchsorted(sorted_b, a - reach, side="left")
    n_candidates = np.searchsorted(sorted_b, a + reach, side="right") - lo
    rows = np.repeat(np.arange(a.size, dtype=np.intp), n_candidates)
    first = np.cumsum(n_candidates) - n_candidates  # each row's first candidate, in the flat list
    cols = order[np.arange(rows.size, dtype=np.intp) - np.repeat(first - lo, n_candidates)]
    gaps = np.abs(a[rows] - b[cols])
    keep = within_tolerance(gaps, tolerance)
    rows, cols, gaps = rows[keep], cols[keep], gaps[keep]
    by_row = np.lexsort((cols, rows))
    return rows[by_row], cols[by_row], gaps[by_row]


class BlockMatching(NamedTuple):
    """Maximum one-to-one matchings of independent blocks of boundary times, at each tolerance.

    ``partner[t, r]`` is the column matched to row r at ``tolerances[t]`` (−1: none);
    rows and columns number the blocks' boundaries one block after the other, block k's
    rows being ``row_offsets[k]:row_offsets[k + 1]`` and its columns likewise.
    """

    tolerances: np.ndarray
    partner: np.ndarray      # (t, total rows), intp
    row_offsets: np.ndarray  # (blocks + 1,)
    col_offsets: np.ndarray  # (blocks + 1,)

    def pairs(self, t, k):
        """(i, j) positions within block k's two arrays of the boundaries matched at ``tolerances[t]``."""
        lo, hi = self.row_offsets[k], self.row_offsets[k + 1]
        partner = self.partner[t, lo:hi]
        matched = np.nonzero(partner >= 0)[0]
        return matched, partner[matched] - self.col_offsets[k]

    def sizes(self):
        """The number of matched boundaries of each block at each tolerance, (t × blocks), float."""
        n_blocks = self.row_offsets.size - 1
        block_of_row = np.repeat(np.arange(n_blocks, dtype=np.intp), np.diff(self.row_offsets))
        return np.stack([np.bincount(block_of_row[row >= 0], minlength=n_blocks) for row in self.partner]
                        ).astype(float).reshape(self.tolerances.size, n_blocks)


def block_matchings(times_a, times_b, tolerances):
    """Maximum matchings of many independent blocks of boundary times, at each tolerance.

    All blocks at one tolerance form one block-diagonal bipartite graph, so
    scipy's matching (Hopcroft–Karp) runs once per tolerance instead of once
    per block: a maximum matching of a disjoint union is the union of maximum
    matchings of its parts, and each part's is found by augmenting paths that
    stay inside it.  Its sizes equal :func:`boundary_matching_size` block by block.

    Parameters
    ----------
    times_a, times_b : sequence of array_like
        One array of boundary times per block for each side; block k matches
        ``times_a[k]`` to ``times_b[k]``.
    tolerances : array_like, shape (t,)
        τ values, each ≥ 0.

    Returns
    -------
    BlockMatching
        The partner of every row boundary at every tolerance.
    """
    tolerances = np.asarray(tolerances, dtype=float)
    widest = tolerances.max()
    rows, cols, gaps = [], [], []  # edges within the widest tolerance, and their |Δ|
    row_offsets, col_offsets = [0], [0]
    for a, b in zip(times_a, times_b):
        r, c, gap = tolerance_edges(a, b, widest)
        rows.append(r + row_offsets[-1])
        cols.append(c + col_offsets[-1])
        gaps.append(gap)
        row_offsets.append(row_offsets[-1] + len(a))
        col_offsets.append(col_offsets[-1] + len(b))
    n_rows, n_cols = row_offsets[-1], col_offsets[-1]
    partner = np.full((tolerances.size, n_rows), -1, dtype=np.intp)
    if rows:
        rows, cols, gaps = np.concatenate(rows), np.concatenate(cols), np.concatenate(gaps)
    for t, tolerance in enumerate(tolerances):
        if not len(rows):
            break
        keep = within_tolerance(gaps, tolerance)
        graph = csr_matrix((np.ones(np.count_nonzero(keep)), (rows[keep], cols[keep])), shape=(n_rows, n_cols))
        partner[t] = maximum_bipartite_matching(graph, perm_type="column")
    return BlockMatching(tolerances, partner, np.array(row_offsets, dtype=np.intp),
                         np.array(col_offsets, dtype=np.intp))


def block_matching_sizes(times_a, times_b, tolerances):
    """Maximum matching sizes of many independent blocks of boundary times, at each tolerance.

    Parameters
    ----------
    times_a, times_b : sequence of array_like
        One array of boundary times per block for each side.
    tolerances : array_like, shape (t,)
        τ values, each ≥ 0.

    Returns
    -------
    ndarray, shape (t, len(times_a))
        The number of matched boundaries of each block at each tolerance (float):
        the sizes of :func:`block_matchings`.
    """
    return block_matchings(times_a, times_b, tolerances).sizes()


class BoundaryBlock(NamedTuple):
    """The segments two annotators marked on one item, as boundary times."""

    item: int              # the item's position (blocks of one item share it)
    pair: int              # the annotator pair's position
    start_a: np.ndarray
    end_a: np.ndarray
    start_b: np.ndarray
    end_b: np.ndarray


class BoundaryCounts(NamedTuple):
    """Matched boundary counts of every block, at every tolerance.

    ``matched_starts[t, k]`` and ``matched_ends[t, k]`` count the matched starts
    and ends of block k at ``tolerances[t]``; ``n_a[k]`` and ``n_b[k]`` count the
    boundaries (two per segment) of the block's two annotators.
    """

    tolerances: np.ndarray
    item_index: np.ndarray
    pair_index: np.ndarray
    n_a: np.ndarray
    n_b: np.ndarray
    matched_starts: np.ndarray
    matched_ends: np.ndarray

    @property
    def matched(self):
        """Matched boundaries, starts plus ends, (tolerances × blocks)."""
        return self.matched_starts + self.matched_ends


def boundary_counts(blocks, tolerances):
    """Matched start and end counts of every block, at every tolerance.

    Parameters
    ----------
    blocks : sequence of BoundaryBlock
        One block per (item, annotator pair).
    tolerances : array_like
        τ values, each ≥ 0; sorted ascending in the result.

    Returns
    -------
    BoundaryCounts
        Counts in the order of ``blocks``.

    References
    ----------
    Mesaros, Heittola & Virtanen (2016), onset/offset-based evaluation.
    """
    tolerances = np.sort(np.asarray(tolerances, dtype=float))
    return BoundaryCounts(
        tolerances=tolerances,
        item_index=np.array([block.item for block in blocks], dtype=int),
        pair_index=np.array([block.pair for block in blocks], dtype=int),
        n_a=np.array([2 * len(block.start_a) for block in blocks], dtype=float),
        n_b=np.array([2 * len(block.start_b) for block in blocks], dtype=float),
        matched_starts=block_matching_sizes([b.start_a for b in blocks], [b.start_b for b in blocks], tolerances),
        matched_ends=block_matching_sizes([b.end_a for b in blocks], [b.end_b for b in blocks], tolerances))


def boundary_scores(matched, n_a, n_b):
    """Boundary precision, recall and F1 of a pair of annotators from counts (arrays broadcast).

    Parameters
    ----------
    matched : array_like
        Matched boundaries.
    n_a, n_b : array_like
        Boundaries of annotator a and of annotator b.

    Returns
    -------
    precision, recall, f1 : ndarray
        precision = matched / n_a (a's boundaries that b also marked), recall =
        matched / n_b, F1 = 2·matched / (n_a + n_b), which is symmetric; NaN
        where the denominator is 0.

    References
    ----------
    Mesaros, Heittola & Virtanen (2016), section on onset/offset-based metrics.
    """
    matched, n_a, n_b = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (matched, n_a, n_b)))
    return safe_ratio(matched, n_a), safe_ratio(matched, n_b), safe_ratio(2 * matched, n_a + n_b)


class BoundarySweep(NamedTuple):
    """The boundary sweep: pooled rows, rows per annotator pair, F1 per item."""

    pooled: list      # one row per tolerance
    by_pair: list     # by_pair[p]: one row per tolerance for pair index p
    item_f1: np.ndarray  # (tolerances × items)


def sweep_table(counts, weights=None, level=DEFAULT_LEVEL):
    """The boundary sweep pooled over items and annotator pairs, per pair, and per item.

    Pooled figures sum matched and total boundaries over every block before
    dividing (micro-averaging, as sed_eval does over files).

    Parameters
    ----------
    counts : BoundaryCounts
        The counts of every block (:func:`boundary_counts`).
    weights : ndarray, shape (resamples, items), optional
        Bootstrap multiplicities of the items
        (:func:`~agreekit.measures.bootstrap.resample_counts`); each pooled F1
        then gets a percentile interval over items.
    level : float
        The interval's level.

    Returns
    -------
    BoundarySweep
        ``pooled`` rows ``{tolerance, precision, recall, f1, f1_ci, start_f1,
        end_f1, matched, n_a, n_b, reason}``, ``by_pair`` rows ``{tolerance,
        precision, recall, f1, matched, n_a, n_b}`` indexed by pair position, and
        the boundary F1 of each item.

    References
    ----------
    Mesaros, Heittola & Virtanen (2016), onset/offset-based evaluation.
    """
    n_items = int(counts.item_index.max()) + 1 if counts.item_index.size else 0
    n_pairs = int(counts.pair_index.max()) + 1 if counts.pair_index.size else 0

    def per_item(values):
        return np.stack([np.bincount(counts.item_index, weights=row, minlength=n_items) for row in
                         np.atleast_2d(values)])

    matched_items = per_item(counts.matched)            # tolerances × items
    total_items = per_item(counts.n_a + counts.n_b)[0]  # items
    n_a, n_b = counts.n_a.sum(), counts.n_b.sum()
    precision, recall, f1 = boundary_scores(counts.matched.sum(axis=1), n_a, n_b)
    _, _, start_f1 = boundary_scores(2 * counts.matched_starts.sum(axis=1), n_a, n_b)
    _, _, end_f1 = boundary_scores(2 * counts.matched_ends.sum(axis=1), n_a, n_b)
    pooled = []
    for t, tolerance in enumerate(counts.tolerances):
        ci = None
        if weights is not None and weights.shape[0] > 0:
            ci = percentile_ci(safe_ratio(2 * (weights @ matched_items[t]), weights @ total_items), level)
        pooled.append({"tolerance": float(tolerance), "precision": precision[t], "recall": recall[t],
                       "f1": f1[t], "f1_ci": ci, "start_f1": start_f1[t], "end_f1": end_f1[t],
                       "matched": int(counts.matched[t].sum()), "n_a": int(n_a), "n_b": int(n_b),
                       "reason": None if np.isfinite(f1[t]) else NO_BOUNDARIES_REASON})
    by_pair = [_pair_rows(counts, counts.pair_index == p) for p in range(n_pairs)]
    return BoundarySweep(pooled, by_pair, safe_ratio(2 * matched_items, total_items))


def _pair_rows(counts, block):
    """The sweep rows of the blocks selected by the mask ``block`` (one annotator pair)."""
    n_a, n_b = counts.n_a[block].sum(), counts.n_b[block].sum()
    matched = counts.matched[:, block].sum(axis=1)
    precision, recall, f1 = boundary_scores(matched, n_a, n_b)
    return [{"tolerance": float(tolerance), "precision": precision[t], "recall": recall[t], "f1": f1[t],
             "matched": int(matched[t]), "n_a": int(n_a), "n_b": int(n_b)}
            for t, tolerance in enumerate(counts.tolerances)]
