"""The chance baseline of σ against a reference: an annotator's objects against the reference's on other items.

For annotator a with reference g, the cross baseline is the mean distance
over every pair (x, y) with x an object of a on item i and y an object of g on
item j ≠ i, both items scored for a (a has a row and g has a row).  An
annotator who draws the same box on every image is as far from the reference
on its own image as on any other: its σ against the reference is ≈ 0.  The
corpus baseline pools these pairs over annotators.

The item-pair sums S_ij and counts N_ij (x on item i, y on item j, pooled over
annotators) are kept dense up to ``DENSE_ITEMS`` items, for the bootstrap;
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


# Long: one streamed pass per reference over its annotators' objects, chunk by chunk.
def cross_baseline(objects, kind, comparisons):
    """The :class:`CrossBaseline` of ``comparisons`` (see the module docstring)."""
    n_items, n_names = objects.n_items, len(objects.annotators)
    scored = np.zeros((n_names, n_items), dtype=bool)
    scored[comparisons.annotator, comparisons.item] = True
    sums, counts = np.zeros(n_names), np.zeros(n_names)
    dense = n_items <= DENSE_ITEMS
    item_sums = np.zeros((n_items, n_items)) if dense else None
    item_counts = np.zeros((n_items, n_items)) if dense else None
    item_of = np.repeat(np.arange(n_items), np.diff(objects.offsets))
    for g in np.unique(comparisons.gold):
        select = comparisons.gold == g
        items = np.unique(comparisons.item[select])
        columns, starts, col_items, col_sizes = _gold_columns(objects, g, items)
        rows, owner = _rows(objects, comparisons, select)
        if not len(columns) or not len(rows):
            continue
        step = max(1, _CHUNK_ELEMENTS // len(columns))
        for s in range(0, len(rows), step):
            r, a = rows[s:s + step], owner[s:s + step]
            block = np.add.reduceat(kind.distance_block(r, columns), starts, axis=1)
            usable = scored[a][:, col_items] & (item_of[r][:, None] != col_items[None, :])
            values = np.where(usable, block, 0.0)
            n = usable * col_sizes[None, :]
            sums += np.bincount(a, weights=values.sum(axis=1), minlength=n_names)
            counts += np.bincount(a, weights=n.sum(axis=1), minlength=n_names)
            if dense:
                run = np.flatnonzero(np.diff(item_of[r], prepend=-1))
                row_items = item_of[r][run]
                item_sums[np.ix_(row_items, col_items)] += np.add.reduceat(values, run, axis=0)
                item_counts[np.ix_(row_items, col_items)] += np.add.reduceat(n, run, axis=0)
    return CrossBaseline(sums, counts, item_sums, item_counts)


def resampled_cross_mean(baseline, counts):
    """The pooled cross mean of each resample (rows of item ``counts``); None without dense sums."""
    if baseline is None or baseline.item_sums is None:
        return None
    s = ((counts @ baseline.item_sums) * counts).sum(axis=1)
    n = ((counts @ baseline.item_counts) * counts).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, s / np.where(n > 0, n, 1.0), np.nan)
