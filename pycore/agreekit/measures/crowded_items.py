"""The between baseline's pairs of one crowded item with every later item, in blocks of whole runs.

:func:`agreekit.measures.chance.between_baseline` streams the between pairs in
blocks of whole items (one item's objects × every later object).  An item of
thousands of objects would make one such block hold millions of distances, so
its pairs go in blocks of whole (item, annotator) runs instead, the unit
:class:`.cross.CrossSums` adds, about :data:`CHUNK_ELEMENTS` each: memory grows
with the largest run × a chunk, not with the item × the corpus.  The item-pair
sums are the same sums, added in another order (equal to rounding).
"""
from __future__ import annotations

import numpy as np

from .cross import object_runs
from .ks_counts import add_ks_counts

CHUNK_ELEMENTS = 1 << 21   # distances per block (chance._CHUNK_ELEMENTS)


def one_item_between(objects, kind, table, results, accumulators, p):
    """The between pairs of item ``p`` with every later item, for ``chance._between_exact``.

    Blocks of whole (item, annotator) runs (what :class:`.cross.CrossSums` takes), about
    :data:`CHUNK_ELEMENTS` distances each, into the same totals, KS counts and cross sums; the
    item-pair sums of ``p`` are added up over the blocks, then stored once.  Returns the item's
    share of the between total.
    """
    (result, same), (sums, crossing) = results, accumulators
    offsets = objects.offsets
    n_objects, n_items = int(offsets[-1]), len(offsets) - 1
    item_of = np.repeat(np.arange(n_items), np.diff(offsets))
    annotator_of = getattr(objects, "annotator_of", None)  # without it (no cross sums), runs are whole items
    runs = offsets if annotator_of is None else object_runs(offsets, annotator_of).start
    row_sums, total = np.zeros(n_items), 0.0
    for rows in _run_ranges(runs, offsets[p], offsets[p + 1], int(np.sqrt(CHUNK_ELEMENTS))):
        for cols in _run_ranges(runs, offsets[p + 1], n_objects, CHUNK_ELEMENTS // len(rows)):
            block = kind.distance_block(rows, cols)
            cuts = np.concatenate([[0], np.flatnonzero(np.diff(item_of[cols])) + 1])
            row_sums[item_of[cols[cuts]]] += np.add.reduceat(block.sum(axis=0), cuts)
            total += float(block.sum())
            add_ks_counts(block.ravel(), table, result)
            if crossing is not None:
                add_ks_counts(crossing.add(block, rows, cols), table, same)
    later = np.arange(p + 1, n_items)
    later = later[np.diff(offsets)[p + 1:] > 0]
    sums.add(np.array([p]), later, row_sums[later][None, :])
    return total


def _run_ranges(starts, low, high, size):
    """Object ranges (index arrays) of consecutive whole runs in [low, high), about ``size`` objects each
    (at least one run); ``low`` and ``high`` are run starts."""
    bounds = starts[(starts >= low) & (starts <= high)]
    k = 0
    while k < len(bounds) - 1:
        stop = max(k + 1, int(np.searchsorted(bounds, bounds[k] + size, side="right")) - 1)
        yield np.arange(bounds[k], bounds[stop])
        k = stop
