"""Per annotator pair, the spans outcomes summed over the items both read (:class:`PairTable`).

Above ``max_rows`` pairs (the report's ``MAX_PAIR_ROWS``) only the pairs that share the most items are
listed; memory follows the pairs that occur, not the square of the annotators.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...measures.span_matching import OUTCOMES
from ...measures.span_outcomes import outcome_row

def pair_keys(first, second, n_annotators):
    """One int64 key per annotator pair (corpus ids, first < second); keys sort in pair order."""
    return first.astype(np.int64) * n_annotators + second


def items_per_pair(scored, corpus, merge_at=1 << 20):
    """Every annotator pair that reads an item together (sorted keys) and how many items it shares.

    Counted from the items' annotator lists before any scoring; the pairs of
    each item are merged into the running counts once they outnumber them, so
    memory follows the pairs that occur.
    """
    keys, counts, pending = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.intp), []
    n_pending = 0
    for scored_item in scored:
        ids = np.array([corpus.annotator_ids[a] for a in scored_item.annotators], dtype=np.intp)
        first, second = np.triu_indices(len(ids), 1)
        pending.append(pair_keys(ids[first], ids[second], len(corpus.annotators)))
        n_pending += len(first)
        if n_pending >= max(len(keys), merge_at):
            keys, counts = merge_counts(keys, counts, pending)
            pending, n_pending = [], 0
    return merge_counts(keys, counts, pending)


def merge_counts(keys, counts, pending):
    """``keys`` with their ``counts``, plus one for each key of each array in ``pending``."""
    if not pending:
        return keys, counts
    merged, inverse = np.unique(np.concatenate([keys, *pending]), return_inverse=True)
    weights = np.concatenate([counts, np.ones(sum(len(batch) for batch in pending), dtype=np.intp)])
    return merged, np.bincount(inverse.reshape(-1), weights=weights, minlength=len(merged)).astype(np.intp)


class PairTable(NamedTuple):
    """Per listed annotator pair (corpus ids a < b), sums over the items both read; :meth:`add` adds a block.

    The pairs listed are every pair that reads an item together, or, above
    ``max_rows`` of them, the ``max_rows`` that share the most
    items (ties in pair order).
    """

    keys: np.ndarray  # sorted :func:`pair_keys` of the listed pairs
    n_items: np.ndarray  # (listed,)
    outcomes: np.ndarray  # (listed × 6)
    f1_sums: np.ndarray  # (listed × 2): exact, partial
    n_annotators: int
    n_pairs_total: int  # pairs that read an item together

    @classmethod
    def of(cls, scored, corpus, max_rows):
        keys, n_items = items_per_pair(scored, corpus)
        if len(keys) > max_rows:
            listed = np.sort(np.lexsort((keys, -n_items))[:max_rows])
            keys, n_items, n_total = keys[listed], n_items[listed], len(keys)
        else:
            n_total = len(keys)
        return cls(keys, n_items, np.zeros((len(keys), len(OUTCOMES)), dtype=np.intp), np.zeros((len(keys), 2)),
                   len(corpus.annotators), n_total)

    def add(self, first, second, scores):
        """Add a block of one item's pairs (corpus ids ``first``, ``second``; :class:`PairScores`)."""
        keys = pair_keys(first, second, self.n_annotators)
        at = np.minimum(np.searchsorted(self.keys, keys), max(len(self.keys) - 1, 0))
        listed = self.keys[at] == keys if len(self.keys) else np.zeros(len(keys), dtype=bool)
        # Within one item each pair occurs once, so plain fancy-index += is exact.
        self.outcomes[at[listed]] += scores.counts[listed]
        self.f1_sums[at[listed]] += np.stack([scores.exact_f1[listed], scores.partial_f1[listed]], axis=1)

    def rows(self, annotators):
        """One row per listed pair, in pair order: mean F1 over the items both read and the outcomes."""
        rows = []
        for k, key in enumerate(self.keys.tolist()):
            ia, ib = divmod(key, self.n_annotators)
            rows.append({"a": annotators[ia], "b": annotators[ib], "n_items": int(self.n_items[k]),
                         "exact_f1": self.f1_sums[k, 0] / self.n_items[k],
                         "partial_f1": self.f1_sums[k, 1] / self.n_items[k],
                         **outcome_row(self.outcomes[k])})
        return rows

    def warnings(self):
        """Say so when the pairs listed are fewer than the pairs."""
        if self.n_pairs_total <= len(self.keys):
            return []
        return [f"{self.n_pairs_total} annotator pairs read an item together: disagreement.pairs lists the "
                f"{len(self.keys)} that share the most items (ties in annotator order); the totals, F1, α "
                "and the per-label and per-item tables count every pair"]
