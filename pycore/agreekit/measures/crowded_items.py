"""The between baseline's pairs of one crowded item with every later item, in bounded blocks.

:func:`agreekit.measures.chance.between_baseline` streams the between pairs in
blocks of whole items (one item's objects × every later object).  An item of
thousands of objects would make one such block hold millions of distances, so
its pairs go in blocks of about :data:`CHUNK_ELEMENTS` distances instead (rows
and columns cut anywhere, :class:`.cross.CrossSums` takes parts of runs): memory
no longer grows with the item × the corpus.  The item-pair sums are the same
sums, added in another order (equal to rounding).
"""
from __future__ import annotations

import numpy as np

from .ks_counts import add_ks_counts

CHUNK_ELEMENTS = 1 << 21   # distances per block (chance._CHUNK_ELEMENTS)


def one_item_between(objects, kind, table, results, accumulators, p):
    """The between pairs of item ``p`` with every later item, for ``chance._between_exact``.

    Blocks of about :data:`CHUNK_ELEMENTS` distances, into the same totals, KS counts and cross sums; the
    item-pair sums of ``p`` are added up over the blocks, then stored once.  Returns the item's
    share of the between total.
    """
    (result, same), (sums, crossing) = results, accumulators
    offsets = objects.offsets
    n_objects, n_items = int(offsets[-1]), len(offsets) - 1
    item_of = np.repeat(np.arange(n_items), np.diff(offsets))
    row_sums, total = np.zeros(n_items), 0.0
    row_step = max(1, int(np.sqrt(CHUNK_ELEMENTS)))
    for low in range(int(offsets[p]), int(offsets[p + 1]), row_step):
        rows = np.arange(low, min(low + row_step, int(offsets[p + 1])))
        col_step = max(1, CHUNK_ELEMENTS // len(rows))
        for left in range(int(offsets[p + 1]), n_objects, col_step):
            cols = np.arange(left, min(left + col_step, n_objects))
            block = kind.distance_block(rows, cols)
            cuts = np.concatenate([[0], np.flatnonzero(np.diff(item_of[cols])) + 1])
            row_sums[item_of[cols[cuts]]] += np.add.reduceat(block.sum(axis=0), cuts)
            total += float(block.sum())
            add_ks_counts(block.ravel(), table, result)
            if crossing is not None:
                add_ks_counts(crossing.add(np.ascontiguousarray(block.T), rows, cols)[0], table, same)
    later = np.arange(p + 1, n_items)
    later = later[np.diff(offsets)[p + 1:] > 0]
    sums.add(np.array([p]), later, row_sums[later][None, :])
    return total
