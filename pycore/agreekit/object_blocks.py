"""Large items of the object engine: similarity by blocks, matches from the pairs that reach the threshold.

An item of at most :data:`~agreekit.object_sets.DENSE_ITEM_OBJECTS` objects gets
its square similarity matrix, all annotators together, and the engine slices it
(the fast path of ordinary items).  A larger item (thousands of boxes or
segments on one image or clip) never does: each annotator pair's block is
computed when it is matched, and a block of more than :data:`DENSE_PAIRS` pairs
is not kept either: it is computed :data:`CHUNK_PAIRS` pairs at a time and
only the pairs at or above the threshold (the only ones ``optimal`` may match)
are kept and matched (:func:`agreekit.matching.match_allowed`).  Peak memory
then grows with the objects and the pairs that reach the threshold, not with
their square.  Potato's mode assigns over all pairs, so it keeps the dense
block of each annotator pair (n_a × n_b, never the item's n × n; above
:data:`DENSE_PAIRS` one such array, the cost computed in place).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import object_sets
from .matching import block_clusters, match, match_allowed
from .runtime import linear_sum_assignment

DENSE_PAIRS = 1 << 22   # an annotator pair's block of at most this many pairs (32 MB of doubles) is dense
CHUNK_PAIRS = 1 << 20   # pairs per chunk when a larger block is scanned for the pairs that reach the threshold


@dataclass(frozen=True)
class LargeItem:
    """An item too large for its square similarity: its objects compared block by block (local indices)."""

    start: int
    block: Callable   # (rows, cols) global indices -> similarity block
    candidates: Callable = None   # (rows, cols) global -> (r, c, s): the pairs that may reach similarity > 0

    def similarity(self, rows, cols):
        """Similarity of objects ``rows`` × ``cols`` (local indices): (len(rows) × len(cols))."""
        return self.block(np.asarray(rows, dtype=np.intp) + self.start, np.asarray(cols, dtype=np.intp) + self.start)

    def dense(self, rows, cols):
        """:meth:`similarity`, filled :data:`CHUNK_PAIRS` pairs at a time (so the kind's temporaries stay small)."""
        out = np.empty((len(rows), len(cols)))
        step = max(1, CHUNK_PAIRS // max(1, len(cols)))
        for low in range(0, len(rows), step):
            out[low:low + step] = self.similarity(rows[low:low + step], cols)
        return out

    def allowed_pairs(self, rows, cols, threshold):
        """``(r, c, s)``: the pairs ``rows[r]`` × ``cols[c]`` with similarity s ≥ ``threshold``, by row:
        from the kind's candidates (pairs that may overlap) when it has them and the threshold is
        positive, else from the whole block in chunks."""
        if self.candidates is not None and threshold > 0:
            r, c, s = self.candidates(np.asarray(rows, dtype=np.intp) + self.start,
                                      np.asarray(cols, dtype=np.intp) + self.start)
            keep = s >= threshold
            return r[keep].astype(np.intp), c[keep].astype(np.intp), s[keep]
        step = max(1, CHUNK_PAIRS // max(1, len(cols)))
        found_r, found_c, found_s = [], [], []
        for low in range(0, len(rows), step):
            sim = self.similarity(rows[low:low + step], cols)
            r, c = np.nonzero(sim >= threshold)
            found_r.append(r + low)
            found_c.append(c)
            found_s.append(sim[r, c])
        if not found_r:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp), np.zeros(0)
        return (np.concatenate(found_r).astype(np.intp), np.concatenate(found_c).astype(np.intp),
                np.concatenate(found_s))

    def reached(self, founders, objects, threshold):
        """For each of ``objects`` in turn, the positions of the ``founders`` it reaches (similarity ≥
        ``threshold``), ascending: from the allowed pairs when the kind has candidates, else from a bool
        founders × objects block computed in chunks (similarity in founder × object order, as
        :func:`agreekit.matching.clusters` takes it)."""
        if self.candidates is not None and threshold > 0:
            f, o, _ = self.allowed_pairs(founders, objects, threshold)
            order = np.lexsort((f, o))
            bounds = np.searchsorted(o[order], np.arange(len(objects) + 1))
            for k in range(len(objects)):
                yield f[order[bounds[k]:bounds[k + 1]]]
            return
        block = np.zeros((len(founders), len(objects)), dtype=bool)
        step = max(1, CHUNK_PAIRS // max(1, len(objects)))
        for low in range(0, len(founders), step):
            block[low:low + step] = self.similarity(founders[low:low + step], objects) >= threshold
        for k in range(len(objects)):
            yield np.flatnonzero(block[:, k])


def block_matches(item, labels, rows, cols, threshold, mode):
    """The one-to-one matches of objects ``rows`` × ``cols`` (local indices) of a :class:`LargeItem`:
    ``(r, c, similarity)``, positions into ``rows`` and ``cols``, ordered by row.

    ``labels``: the item's :class:`~agreekit.object_sets.ItemLabels` (None: no label tie-break).  The dense block
    and :func:`agreekit.matching.match` up to :data:`DENSE_PAIRS` pairs, at threshold 0 and in
    Potato's mode, else the allowed pairs and :func:`agreekit.matching.match_allowed`.
    """
    rows, cols = np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)
    if mode == "potato" and len(rows) * len(cols) > DENSE_PAIRS:
        return _potato_matches(item, rows, cols, threshold)
    if mode == "potato" or threshold <= 0 or len(rows) * len(cols) <= DENSE_PAIRS:  # at 0 every pair is allowed
        sim = item.dense(rows, cols)
        r, c = match(sim, threshold, mode, None if mode == "potato" or labels is None else labels.block(rows, cols))
        return r, c, sim[r, c]
    r, c, s = item.allowed_pairs(rows, cols, threshold)
    keep = match_allowed(r, c, s, (len(rows), len(cols)), None if labels is None else labels.pairs(rows[r], cols[c]))
    return r[keep], c[keep], s[keep]


def _potato_matches(item, rows, cols, threshold):
    """:func:`agreekit.matching.match` in Potato's mode on a large block, in one n_a × n_b array, not
    three: the cost 1 − s is computed in place of the similarity, and the similarity of the assigned
    pairs again afterwards (the same arithmetic, so the same bits)."""
    if item.candidates is not None:  # every other pair has similarity 0, so cost 1
        cost = np.ones((len(rows), len(cols)))
        r, c, s = item.candidates(rows + item.start, cols + item.start)
        cost[r, c] = 1.0 - s
    else:
        cost = item.dense(rows, cols)
        np.subtract(1.0, cost, out=cost)
    r, c = linear_sum_assignment(cost)
    del cost
    step = max(1, int(np.sqrt(CHUNK_PAIRS)))
    sim = np.concatenate([np.diagonal(item.similarity(rows[r[k:k + step]], cols[c[k:k + step]]))
                          for k in range(0, len(r), step)]) if len(r) else np.zeros(0)
    keep = sim >= threshold
    return r[keep], c[keep], sim[keep]


def large_item_clusters(item, labels, members, threshold, mode):
    """:func:`agreekit.matching.clusters` of a :class:`LargeItem` (``members``: local indices per annotator)."""
    def match_block(objects, founders):
        r, c, _ = block_matches(item, labels, objects, founders, threshold, mode)
        return r, c

    return block_clusters(members, match_block, lambda f, o: item.reached(f, o, threshold), mode)


def pair_matcher(n, square, object_kind, codes, threshold):
    """``matches(rows, cols) -> (r, c, similarity)``: the ``optimal`` matches of objects ``rows`` ×
    ``cols`` (positions among ``n`` objects), positions into ``rows`` and ``cols``, ordered by row.

    ``square()`` gives the n × n similarity; it is computed once and sliced when there are at
    most :data:`~agreekit.object_sets.DENSE_ITEM_OBJECTS` objects or ``object_kind`` is None.  Otherwise
    ``object_kind()`` (an :class:`~agreekit.objects.ObjectKind` by position, with ``block`` and
    ``candidates``) gives each block when it is matched (:func:`block_matches`), so memory grows
    with the pairs that may overlap, not with n².  ``codes``: label codes (the tie-break), or None.
    """
    if object_kind is None or n <= object_sets.DENSE_ITEM_OBJECTS:
        sim = np.asarray(square(), dtype=float)
        same = None if codes is None else codes[:, None] == codes[None, :]

        def matches(rows, cols):
            block = (rows[:, None], cols[None, :])
            r, c = match(sim[block], threshold, "optimal", None if same is None else same[block])
            return r, c, sim[rows[r], cols[c]]
        return matches
    objects, labels = object_kind(), None if codes is None else object_sets.ItemLabels(codes)
    item = LargeItem(0, objects.block, objects.candidates)
    return lambda rows, cols: block_matches(item, labels, rows, cols, threshold, "optimal")
