"""Bootstrap over items, by reweighting per-item sums.

A resample draws n items with replacement; item i then appears c_i times,
with (c_1, …, c_n) ~ Multinomial(n, 1/n).  Every statistic in agreekit is a
ratio of sums over items (or over pairs of items), so a resample is the same
sums weighted by c instead of recomputed from scratch: matching is done once.

Intervals are 95% percentile intervals (Efron & Tibshirani 1993, §13.3) of
the resampled values, ignoring resamples where the statistic is undefined.

Sums over pairs of items are quadratic forms Σ_{i<j} c_i c_j X_ij of a
symmetric item-pair matrix X with a zero diagonal.  X is held in one of four
forms, each with ``weighted(counts)`` (one value per resample) and ``nbytes``:
:class:`DensePairs` (the n × n matrix), :class:`SparsePairs` (its stored
entries only), :class:`OuterPairs` (X_ij = n_i n_j, O(n)) and
:class:`ModelledPairs` (an O(n) additive model plus a sampled residual).
Counts are drawn in chunks of at most ``BOOTSTRAP_ELEMENTS`` resamples × items
(:func:`resample_count_chunks`), so the bootstrap's memory does not grow with
resamples × items either.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..results import CI_LEVEL

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 20260813
DEFAULT_LEVEL = CI_LEVEL
BOOTSTRAP_ELEMENTS = 1 << 22  # resamples × items per chunk of counts: 32 MB of float64
_SPARSE_RESAMPLES = 16        # resamples per sparse product: their rows of counts stay in cache
_SPARSE_ENTRIES = 1 << 16     # stored entries per step of a sparse product: with 16 resamples, 8 MB of products


def resample_counts(n_items, n_resamples, seed=DEFAULT_SEED):
    """(n_resamples × n_items) counts: how often each item is drawn per resample."""
    if n_items == 0 or n_resamples <= 0:
        return np.zeros((max(n_resamples, 0), n_items))
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_items, np.full(n_items, 1.0 / n_items), size=n_resamples).astype(float)


def resample_count_chunks(n_items, n_resamples, seed=DEFAULT_SEED, max_elements=None):
    """The rows of :func:`resample_counts`, in consecutive chunks of at most ``max_elements`` values.

    The generator draws one resample after the other, so the chunks joined are
    exactly ``resample_counts(n_items, n_resamples, seed)``.  A chunk holds at
    least one resample; ``max_elements`` defaults to ``BOOTSTRAP_ELEMENTS``.
    """
    max_elements = BOOTSTRAP_ELEMENTS if max_elements is None else max_elements
    if n_items == 0 or n_resamples <= 0:
        yield resample_counts(n_items, n_resamples, seed)
        return
    rng = np.random.default_rng(seed)
    step = max(1, max_elements // n_items)
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        yield rng.multinomial(n_items, np.full(n_items, 1.0 / n_items), size=size).astype(float)


def percentile_ci(values, level=DEFAULT_LEVEL):
    """``[low, high]`` percentile interval of the finite ``values``, or None.

    None when fewer than half the resamples give a defined value: an interval
    from a minority of resamples would describe a different population.
    """
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    if values.size == 0 or finite.size < max(2, values.size / 2):
        return None
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(finite, [tail, 100.0 - tail])
    return [float(low), float(high)]


def weighted_pair_sums(counts, pair_sums):
    """Σ_{i<j} c_i c_j S_ij for each resample (row of ``counts``).

    ``pair_sums`` is the symmetric (n × n) matrix of sums over pairs of
    objects on items i and j, with a zero diagonal.  Two copies of one drawn
    item are the same item, so their pairs never enter a between-item sum:
    only i ≠ j terms exist.
    """
    pair_sums = np.asarray(pair_sums, dtype=float)
    return 0.5 * ((counts @ pair_sums) * counts).sum(axis=1)


# ----------------------------------------------------------------- forms of an item-pair matrix

@dataclass(frozen=True)
class DensePairs:
    """X held whole: the symmetric (n × n) ``matrix`` with a zero diagonal."""

    matrix: np.ndarray

    def weighted(self, counts):
        return weighted_pair_sums(counts, self.matrix)

    @property
    def nbytes(self):
        return self.matrix.nbytes


@dataclass(frozen=True)
class SparsePairs:
    """X through its stored entries: each unordered item pair at most once, the rest 0.

    Compressed rows: the entries of row i are ``columns[indptr[i]:indptr[i + 1]]``
    (ascending) with ``values`` alike.  Offsets are 32-bit, as scipy's CSR
    keeps them, so 12 bytes per entry and 4 per item.
    """

    indptr: np.ndarray    # (n_items + 1,) int32
    columns: np.ndarray   # (nnz,) int32
    values: np.ndarray    # (nnz,) float

    @classmethod
    def from_entries(cls, first, second, values, n_items):
        """Entries ``values[k]`` at item pairs (first[k], second[k]), first ≠ second; repeats add up."""
        # int64 keys: n_items² overflows wasm32's intp above 46,340 items.
        keys = np.asarray(first, dtype=np.int64) * n_items + np.asarray(second, dtype=np.int64)
        unique, where = np.unique(keys, return_inverse=True)
        summed = np.bincount(where.ravel(), np.asarray(values, dtype=float), len(unique))
        rows = (unique // n_items).astype(np.intp)
        indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n_items))]).astype(np.int32)
        return cls(indptr, (unique % n_items).astype(np.int32), summed)

    @property
    def nnz(self):
        return len(self.values)

    def weighted(self, counts):
        # Σ_i c_i Σ_{k in row i} x_k c_{column_k}: each stored entry is one unordered pair.
        out = np.empty(len(counts))
        blocks = self._row_blocks()
        for start in range(0, len(counts), _SPARSE_RESAMPLES):
            by_item = np.ascontiguousarray(counts[start:start + _SPARSE_RESAMPLES].T)  # (n_items × resamples)
            out[start:start + _SPARSE_RESAMPLES] = sum(
                (self._block_form(by_item, first, last) for first, last in blocks), np.zeros(by_item.shape[1]))
        return out

    def _row_blocks(self):
        """Consecutive (first, last) row ranges of about ``_SPARSE_ENTRIES`` entries each (a longer row alone)."""
        cuts = np.searchsorted(self.indptr, np.arange(0, self.nnz, _SPARSE_ENTRIES), side="right") - 1
        bounds = np.unique(np.concatenate([cuts, [len(self.indptr) - 1]]))
        return list(zip(bounds[:-1].tolist(), bounds[1:].tolist()))

    def _block_form(self, by_item, first, last):
        """Σ over rows first..last − 1 of c_i Σ_k x_k c_{column_k}, one value per resample (column of ``by_item``)."""
        begin, end = int(self.indptr[first]), int(self.indptr[last])
        if begin == end:
            return 0.0
        lengths = np.diff(self.indptr[first:last + 1])
        rows = np.flatnonzero(lengths) + first
        inner = by_item[self.columns[begin:end]] * self.values[begin:end, None]
        per_row = np.add.reduceat(inner, self.indptr[rows] - begin, axis=0)
        return (per_row * by_item[rows]).sum(axis=0)

    @property
    def nbytes(self):
        return self.indptr.nbytes + self.columns.nbytes + self.values.nbytes


@dataclass(frozen=True)
class OuterPairs:
    """X_ij = n_i n_j (i ≠ j), never stored: Σ_{i<j} c_i c_j n_i n_j = ½[(c·n)² − Σ_i c_i² n_i²]."""

    sizes: np.ndarray

    def weighted(self, counts):
        return 0.5 * ((counts @ self.sizes) ** 2 - (counts ** 2) @ (self.sizes ** 2))

    @property
    def nbytes(self):
        return self.sizes.nbytes


@dataclass(frozen=True)
class AdditivePairs:
    """X_ij = n_i n_j (μ_i + μ_j − μ̄) (i ≠ j), never stored.

    Σ_{i<j} c_i c_j n_i n_j (μ_i + μ_j) = (Σ_i c_i n_i μ_i)(Σ_j c_j n_j) − Σ_i c_i² n_i² μ_i,
    so a resample costs O(n).
    """

    sizes: np.ndarray
    means: np.ndarray
    overall: float

    def entries(self, first, second):
        """X at the item pairs (first[k], second[k])."""
        return self.sizes[first] * self.sizes[second] * (self.means[first] + self.means[second] - self.overall)

    def weighted(self, counts):
        squares = counts ** 2
        cross = (counts @ (self.sizes * self.means)) * (counts @ self.sizes)
        own = squares @ (self.sizes ** 2 * self.means)
        return cross - own - self.overall * OuterPairs(self.sizes).weighted(counts)

    @property
    def nbytes(self):
        return self.sizes.nbytes + self.means.nbytes


@dataclass(frozen=True)
class ModelledPairs:
    """X = model + residual, the residual known on a seeded Bernoulli(``rate``) sample of item pairs.

    The sample is split at random into two halves, each a Bernoulli(rate / 2)
    sample whose entries are stored already scaled by 2 / rate, so each half
    gives a Horvitz–Thompson estimate of the residual's quadratic form
    (Horvitz & Thompson 1952) and their mean is the estimate of the whole
    sample.  The model is a control variate: only the residual is sampled.
    """

    model: AdditivePairs
    halves: tuple   # two SparsePairs
    rate: float

    def estimates(self, counts):
        """The two halves' estimates of Σ_{i<j} c_i c_j X_ij, one value per resample each."""
        base = self.model.weighted(counts)
        return base + self.halves[0].weighted(counts), base + self.halves[1].weighted(counts)

    def weighted(self, counts):
        first, second = self.estimates(counts)
        return 0.5 * (first + second)

    @property
    def nbytes(self):
        return self.model.nbytes + sum(half.nbytes for half in self.halves)
