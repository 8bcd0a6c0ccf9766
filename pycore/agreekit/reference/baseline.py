"""The chance baseline of σ against a reference: an annotator's objects against the reference's on other items.

For annotator a with reference g, the cross baseline is the mean distance
over every pair (x, y) with x an object of a on item i and y an object of g on
item j ≠ i, both items scored for a (a has a row and g has a row).  An
annotator who draws the same box on every image is as far from the reference
on its own image as on any other: its σ against the reference is ≈ 0.  The
corpus baseline pools these pairs over annotators.

The item-pair sums S_ij and counts N_ij (x on item i, y on item j, pooled over
annotators) are kept dense up to ``DENSE_ITEMS`` items, for the bootstrap, and
each annotator's over its own items (:class:`OwnPairs`) while they are small;
they are asymmetric (the annotator's item first) with a zero diagonal, so two
copies of one resampled item never form a pair.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..measures.chance import DENSE_ITEMS

_CHUNK_ELEMENTS = 1 << 21


@dataclass(frozen=True)
class CrossBaseline:
    """Cross sums and counts per annotator position, and (up to DENSE_ITEMS items) per item pair."""

    annotator_sums: np.ndarray
    annotator_counts: np.ndarray
    item_sums: object     # (n_items, n_items) or None
    item_counts: object
    own: dict = None      # annotator position -> OwnPairs, while small enough (MAX_OWN_ELEMENTS in all)


@dataclass(frozen=True)
class OwnPairs:
    """One annotator's cross sums and counts per pair of its own scored items (its σ interval)."""

    items: np.ndarray     # its scored items, sorted
    sums: np.ndarray      # (k, k): its objects on items[i] against the reference's on items[j]
    counts: np.ndarray


MAX_OWN_ELEMENTS = 1 << 22   # Σ over annotators of (its items)²: above it, no per-annotator σ interval


def _gold_columns(objects, g, items):
    """Objects of reference ``g`` on ``items`` (sorted), their item runs as (starts, items, sizes)."""
    parts = [objects.members[i][g] for i in items]
    sizes = np.array([len(p) for p in parts], dtype=np.intp)
    keep = sizes > 0
    columns = np.concatenate(parts).astype(np.intp) if parts else np.zeros(0, np.intp)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    return columns, starts[keep], np.asarray(items, dtype=np.intp)[keep], sizes[keep].astype(float)


def _rows(objects, comparisons, select):
    """Objects of the comparisons ``select`` (global order: item-major), with their comparison's annotator."""
    rows, owner = [], []
    for c in np.flatnonzero(select):
        drawn = objects.members[comparisons.item[c]][comparisons.annotator[c]]
        rows.append(drawn)
        owner.append(np.full(len(drawn), comparisons.annotator[c], dtype=np.intp))
    if not rows:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    rows, owner = np.concatenate(rows).astype(np.intp), np.concatenate(owner)
    order = np.argsort(rows, kind="stable")
    return rows[order], owner[order]


def _annotator_rows(objects, items, a):
    """Objects of annotator ``a`` on ``items`` (sorted; global order, so item-major)."""
    parts = [objects.members[i][a] for i in items]
    return np.concatenate(parts).astype(np.intp) if parts else np.zeros(0, np.intp)


class _Sums:
    """Running sums of the cross pairs: per annotator, and per item pair while dense."""

    def __init__(self, n_names, n_items):
        self.sums, self.counts = np.zeros(n_names), np.zeros(n_names)
        dense = n_items <= DENSE_ITEMS
        self.item_sums = np.zeros((n_items, n_items)) if dense else None
        self.item_counts = np.zeros((n_items, n_items)) if dense else None
        self.own = {}

    def add(self, a, row_items, col_items, values, n):
        """Values and counts (rows × column items) of annotator ``a``'s objects, rows on ``row_items``."""
        self.sums[a] += values.sum()
        self.counts[a] += n.sum()
        own = self.own.get(a)
        if own is not None:
            run = np.flatnonzero(np.diff(row_items, prepend=-1))
            where = np.ix_(np.searchsorted(own.items, row_items[run]), np.searchsorted(own.items, col_items))
            own.sums[where] += np.add.reduceat(values, run, axis=0)
            own.counts[where] += np.add.reduceat(n, run, axis=0)
        if self.item_sums is not None:
            run = np.flatnonzero(np.diff(row_items, prepend=-1))
            rows = row_items[run]
            self.item_sums[np.ix_(rows, col_items)] += np.add.reduceat(values, run, axis=0)
            self.item_counts[np.ix_(rows, col_items)] += np.add.reduceat(n, run, axis=0)


def cross_baseline(objects, kind, comparisons):
    """The :class:`CrossBaseline` of ``comparisons`` (see the module docstring).

    Annotator by annotator: its objects against its reference's objects on the items
    it is scored on, so the work follows each annotator's items, not all items.
    """
    item_of = np.repeat(np.arange(objects.n_items), np.diff(objects.offsets))
    out = _Sums(len(objects.annotators), objects.n_items)
    own_pairs = np.sum(np.bincount(comparisons.annotator).astype(float) ** 2) <= MAX_OWN_ELEMENTS
    order = np.lexsort((comparisons.item, comparisons.annotator))
    bounds = np.flatnonzero(np.diff(comparisons.annotator[order], prepend=-1))
    for start, stop in zip(bounds, [*bounds[1:], len(order)]):
        chosen = order[start:stop]
        a, g = int(comparisons.annotator[chosen[0]]), int(comparisons.gold[chosen[0]])
        items = np.sort(comparisons.item[chosen])
        if own_pairs:
            out.own[a] = OwnPairs(items, np.zeros((len(items), len(items))), np.zeros((len(items), len(items))))
        columns, starts, col_items, col_sizes = _gold_columns(objects, g, items)
        rows = _annotator_rows(objects, items, a)
        if not len(columns) or not len(rows):
            continue
        step = max(1, _CHUNK_ELEMENTS // len(columns))
        for s in range(0, len(rows), step):
            r = rows[s:s + step]
            block = np.add.reduceat(kind.distance_block(r, columns), starts, axis=1)
            other = item_of[r][:, None] != col_items[None, :]
            out.add(a, item_of[r], col_items, np.where(other, block, 0.0), other * col_sizes[None, :])
    return CrossBaseline(out.sums, out.counts, out.item_sums, out.item_counts, out.own if own_pairs else None)


def resampled_own_sigma(own, within_sum, within_n, counts):
    """One annotator's σ against the reference in each resample: ``within_sum``/``within_n`` per item of
    ``own.items``; the cross mean from its own item-pair sums (:class:`OwnPairs`)."""
    weights = counts[:, own.items]
    s = ((weights @ own.sums) * weights).sum(axis=1)
    n = ((weights @ own.counts) * weights).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        within = (weights @ within_sum) / (weights @ within_n)
        return 1.0 - within / np.where(n > 0, s / np.where(n > 0, n, 1.0), np.nan)


def resampled_cross_mean(baseline, counts):
    """The pooled cross mean of each resample (rows of item ``counts``); None without dense sums."""
    if baseline is None or baseline.item_sums is None:
        return None
    s = ((counts @ baseline.item_sums) * counts).sum(axis=1)
    n = ((counts @ baseline.item_counts) * counts).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, s / np.where(n > 0, n, 1.0), np.nan)
