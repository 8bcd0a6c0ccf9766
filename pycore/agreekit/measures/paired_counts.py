"""Bootstrap counts for two data sets A and B that share items: the paired bootstrap.

A comparison of one coefficient between A and B resamples their items *jointly*: in
resample r, an item that both annotated counts c_ir times in A and in B, so the
difference B − A is free of the between-item variation the two share (the paired
bootstrap; Efron & Tibshirani 1993, §8.3 and §16.4).  Items are matched by their id.

The source draws A's counts exactly as A's own report does (:func:`bootstrap.drawn_count_chunks`:
same seed, same content order), so A's intervals in a comparison are its report's.
B's shared items take A's counts; B's other items, and every item of B when A and B share
none, get a multinomial of their own (items drawn with replacement among B's unshared items,
from an independent stream), so their totals stay B's own item counts on average.  With
partial sharing the shared items' total in B varies from resample to resample, as it does in A.

A report may draw counts more than once (one draw per group of coefficients); the k-th draw of
B is paired with the k-th draw of A, since the same kind draws in the same order.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import bootstrap as boot

B_STREAM = 1  # B's unshared items draw from np.random.default_rng((seed, B_STREAM)), never A's stream


@dataclass(frozen=True)
class Draw:
    """One call for counts: its items, as the report gave them."""

    n_items: int
    n_resamples: int
    seed: int
    ranks: object   # content ranks, or None
    items: object   # ids, or None


@dataclass(frozen=True)
class Pairing:
    """How one of B's draws was paired with A's: items of each (``n_a`` −1: not paired with A's), and how
    many they share."""

    n_a: int
    n_b: int
    n_shared: int


class PairedCounts:
    """The count source of a comparison (:func:`agreekit.measures.bootstrap.drawing_counts`).

    Compute A's report under it, call :meth:`start_b`, then compute B's report under it.
    ``pairings`` then says, per draw of B, how many of its items were paired.  ``paired=False``
    resamples B independently of A even where they share items (the unpaired bootstrap).
    """

    def __init__(self, paired=True):
        self.paired = paired
        self.side = "a"
        self.draws_a = []
        self.pairings = []

    def start_b(self):
        self.side = "b"

    def chunks(self, n_items, n_resamples, seed, max_elements, ranks, items):
        if self.side == "a":
            self.draws_a.append(Draw(n_items, n_resamples, seed, ranks, items))
            yield from boot.drawn_count_chunks(n_items, n_resamples, seed, max_elements, ranks)
            return
        k = len(self.pairings)
        a = self.draws_a[k] if k < len(self.draws_a) and self.paired else None
        yield from self._b_chunks(a, Draw(n_items, n_resamples, seed, ranks, items), max_elements)

    def _b_chunks(self, a, b, max_elements):
        shared_a, shared_b, alone = _split(a, b)
        self.pairings.append(Pairing(a.n_items if a else -1, b.n_items, len(shared_b)))
        if b.n_items == 0 or b.n_resamples <= 0:
            yield np.zeros((max(b.n_resamples, 0), b.n_items))
            return
        alone_ranks = None if b.ranks is None else _local_ranks(np.asarray(b.ranks)[alone])
        rng = np.random.default_rng((b.seed, B_STREAM))
        if len(shared_b):
            a_chunks = boot.drawn_count_chunks(a.n_items, b.n_resamples, a.seed, max_elements, a.ranks)
        else:
            step = max(1, max_elements // b.n_items)
            a_chunks = (None for _ in range(0, b.n_resamples, step))
        done = 0
        for a_counts in a_chunks:
            size = len(a_counts) if a_counts is not None else min(step, b.n_resamples - done)
            done += size
            counts = np.zeros((size, b.n_items))
            if a_counts is not None:
                counts[:, shared_b] = a_counts[:, shared_a]
            if len(alone):
                drawn = rng.multinomial(len(alone), np.full(len(alone), 1.0 / len(alone)), size=size)
                counts[:, alone] = boot._in_item_order(drawn.astype(float), alone_ranks)
            yield counts


def _split(a, b):
    """Positions in A and in B of the shared items (aligned), and B's positions of its unshared items."""
    if a is None or a.items is None or b.items is None or a.n_resamples != b.n_resamples or a.seed != b.seed:
        return np.zeros(0, np.intp), np.zeros(0, np.intp), np.arange(b.n_items, dtype=np.intp)
    where_a = {item: k for k, item in enumerate(a.items)}
    pairs = [(where_a[item], k) for k, item in enumerate(b.items) if item in where_a]
    shared_a = np.array([p[0] for p in pairs], dtype=np.intp)
    shared_b = np.array([p[1] for p in pairs], dtype=np.intp)
    alone = np.setdiff1d(np.arange(b.n_items, dtype=np.intp), shared_b)
    return shared_a, shared_b, alone


def _local_ranks(ranks):
    """Ranks 0 … k−1 in the order of ``ranks`` (a subset's own content order)."""
    out = np.empty(len(ranks), dtype=np.intp)
    out[np.argsort(ranks, kind="stable")] = np.arange(len(ranks), dtype=np.intp)
    return out
