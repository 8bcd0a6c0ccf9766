"""Bootstrap over items, by reweighting per-item sums.

A resample draws n items with replacement; item i then appears c_i times,
with (c_1, …, c_n) ~ Multinomial(n, 1/n).  Every statistic in agreekit is a
ratio of sums over items (or over pairs of items), so a resample is the same
sums weighted by c instead of recomputed from scratch: matching is done once.

Intervals are 95% percentile intervals (Efron & Tibshirani 1993, §13.3) of
the resampled values, ignoring resamples where the statistic is undefined.

Sums over pairs of items are quadratic forms Σ_{i<j} c_i c_j X_ij of a
symmetric item-pair matrix X with a zero diagonal.  X is held in one of five
forms, each with ``weighted(counts)`` (one value per resample) and ``nbytes``:
:class:`DensePairs` (the n × n matrix), :class:`SparsePairs` (its stored
entries only), :class:`OuterPairs` (X_ij = n_i n_j, O(n)),
:class:`GroupedOuterPairs` (the pairs of objects in different groups, O(n))
and :class:`ModelledPairs` (an O(n) additive model plus a sampled residual).
Counts are drawn in chunks of at most ``BOOTSTRAP_ELEMENTS`` resamples × items
(:func:`resample_count_chunks`), so the bootstrap's memory does not grow with
resamples × items either.

The seam for comparing two reports (:func:`drawing_counts`): within its block every draw of counts
comes from a *count source* given the items' ids, and every percentile interval keeps its draws
(:class:`agreekit.results.DrawnInterval`), so a report computed twice under one source can be
compared resample by resample without recomputing it per resample.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

from .. import runtime
from ..results import CI_LEVEL, DrawnInterval
from .run_sums import run_sums

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 20260813
DEFAULT_LEVEL = CI_LEVEL
BOOTSTRAP_ELEMENTS = 1 << 22  # resamples × items per chunk of counts: 32 MB of float64
PROGRESS_STEPS = 20           # at least this many chunks of resamples, so progress moves through them
_SPARSE_RESAMPLES = 64        # resamples per sparse product: 1.3-1.6× faster than 16 in CPython and Pyodide
_SOURCE = ContextVar("agreekit_count_source", default=None)


@contextmanager
def drawing_counts(source):
    """Within the block, counts come from ``source`` and intervals keep their draws.

    ``source.chunks(n_items, n_resamples, seed, max_elements, ranks, items)``
    yields the (resamples × items) counts in chunks, as :func:`resample_count_chunks`
    does; ``items`` are the items' ids in the caller's order (None when the
    caller has none).  Used by :mod:`agreekit.comparison` to resample two
    reports with the same counts for the items they share.
    """
    token = _SOURCE.set(source)
    try:
        yield source
    finally:
        _SOURCE.reset(token)


def resample_counts(n_items, n_resamples, seed=DEFAULT_SEED, ranks=None, items=None):
    """(n_resamples × n_items) counts: how often each item is drawn per resample.

    The draws go in the items' canonical order: ``ranks[i]`` is item i's
    position in it (:func:`agreekit.arrays.canonical_ranks` of content keys),
    so the same items in any order, under any names, get the same counts.
    Without ``ranks`` the draws follow the given order.  ``items``: the items'
    ids, for a count source (:func:`drawing_counts`).
    """
    if _SOURCE.get() is not None:
        chunks = list(resample_count_chunks(n_items, n_resamples, seed, ranks=ranks, items=items))
        return np.concatenate(chunks) if len(chunks) > 1 else chunks[0]
    return drawn_counts(n_items, n_resamples, seed, ranks)


def drawn_counts(n_items, n_resamples, seed=DEFAULT_SEED, ranks=None):
    """:func:`resample_counts` drawn here, whatever the count source."""
    if n_items == 0 or n_resamples <= 0:
        return np.zeros((max(n_resamples, 0), n_items))
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(n_items, np.full(n_items, 1.0 / n_items), size=n_resamples).astype(float)
    return _in_item_order(counts, ranks)


def _in_item_order(counts, ranks):
    """Counts drawn in canonical order (column k = rank k) as columns in item order."""
    if ranks is None:
        return counts
    ranks = np.asarray(ranks, dtype=np.intp)
    if ranks.shape != (counts.shape[1],):
        raise ValueError(f"ranks of {ranks.shape} for {counts.shape[1]} items")
    return np.ascontiguousarray(counts[:, ranks])


def resample_count_chunks(n_items, n_resamples, seed=DEFAULT_SEED, max_elements=None, ranks=None, items=None):
    """The rows of :func:`resample_counts`, in consecutive chunks of at most ``max_elements`` values.

    The generator draws one resample after the other, so the chunks joined are
    exactly ``resample_counts(n_items, n_resamples, seed, ranks)``.  A chunk holds at
    least one resample; ``max_elements`` defaults to ``BOOTSTRAP_ELEMENTS``.
    """
    max_elements = BOOTSTRAP_ELEMENTS if max_elements is None else max_elements
    source = _SOURCE.get()
    if source is not None:
        yield from source.chunks(n_items, n_resamples, seed, max_elements, ranks, items)
        return
    yield from drawn_count_chunks(n_items, n_resamples, seed, max_elements, ranks)


def drawn_count_chunks(n_items, n_resamples, seed, max_elements, ranks=None):
    """:func:`resample_count_chunks` drawn here, whatever the count source."""
    if n_items == 0 or n_resamples <= 0:
        yield drawn_counts(n_items, n_resamples, seed, ranks)
        return
    rng = np.random.default_rng(seed)
    step = max(1, max_elements // n_items)
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        counts = rng.multinomial(n_items, np.full(n_items, 1.0 / n_items), size=size).astype(float)
        yield _in_item_order(counts, ranks)


def progress_chunk_elements(n_items, n_resamples):
    """``max_elements`` of :func:`resample_count_chunks` giving at least ``PROGRESS_STEPS`` chunks.

    Within ``BOOTSTRAP_ELEMENTS``; the chunks joined are the same resamples
    whatever their size, so this changes when progress is reported, not the
    numbers.  1000 resamples go in chunks of 50.
    """
    per_chunk = max(1, -(-int(n_resamples) // PROGRESS_STEPS))
    return max(int(n_items), 1, min(BOOTSTRAP_ELEMENTS, per_chunk * int(n_items)))  # ≥ one resample


def fill_resample_counts(out, seed=DEFAULT_SEED, max_elements=None, items=None):
    """Write :func:`resample_counts` ``(len(out), out.shape[1], seed)`` into the float rows of ``out``.

    The same draws as :func:`resample_count_chunks`, cast straight into ``out`` chunk by chunk: no float copy
    of each chunk and no second array the size of the resamples (for a report that keeps all of them).
    ``items``: the items' ids, for a count source (:func:`drawing_counts`), whose chunks are copied in.
    """
    n_resamples, n_items = out.shape
    if n_items == 0 or n_resamples == 0:
        out[...] = 0.0
        return out
    if _SOURCE.get() is not None:  # a paired comparison's counts: drawn once for both groups, by item id
        row = 0
        for chunk in resample_count_chunks(n_items, n_resamples, seed, items=items):
            out[row:row + len(chunk)] = chunk
            row += len(chunk)
        return out
    max_elements = (BOOTSTRAP_ELEMENTS >> 3) if max_elements is None else max_elements  # a chunk fits the cache
    rng = np.random.default_rng(seed)
    shares = np.full(n_items, 1.0 / n_items)
    step = max(1, max_elements // n_items)
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        out[start:start + size] = rng.multinomial(n_items, shares, size=size)
    return out


def grouped_resample_counts(groups, n_groups, n_resamples, seed=DEFAULT_SEED, ranks=None, items=None):
    """(n_resamples × n_groups): :func:`resample_counts` ``(len(groups), n_resamples, seed, ranks)`` summed per group.

    ``groups[i]`` is item i's group in [0, n_groups).  When every statistic is a sum over items of
    terms that items of one group share, the groups' summed counts replace the items' counts, and
    the (resamples × items) array is never held: each chunk of counts is summed as it is drawn.
    The sums are of integers, so exact.  ``ranks``: the items' canonical order, as in
    :func:`resample_counts`; ``items``: the items' ids, for a count source (:func:`drawing_counts`).
    """
    groups = np.asarray(groups, dtype=np.intp)
    out = np.zeros((max(n_resamples, 0), n_groups))
    if len(groups) == 0 or n_resamples <= 0:
        return out
    if _SOURCE.get() is not None:  # its chunks come in item order
        chunks, drawn_groups = resample_count_chunks(len(groups), n_resamples, seed, ranks=ranks, items=items), groups
    else:  # the draws of fill_resample_counts, as integers: no float copy of each chunk
        rng, shares = np.random.default_rng(seed), np.full(len(groups), 1.0 / len(groups))
        step = max(1, (BOOTSTRAP_ELEMENTS >> 3) // len(groups))
        chunks = (rng.multinomial(len(groups), shares, size=min(step, n_resamples - start))
                  for start in range(0, n_resamples, step))
        drawn_groups = groups  # column k of a draw is item k, or the item of rank k
        if ranks is not None:
            drawn_groups = np.empty_like(groups)
            drawn_groups[np.asarray(ranks, dtype=np.intp)] = groups
    row = 0
    for chunk in chunks:
        for counts in chunk:  # one bincount per resample: the cheapest grouping in CPython and in Pyodide
            out[row] = np.bincount(drawn_groups, weights=counts, minlength=n_groups)
            row += 1
    return out


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
    if _SOURCE.get() is not None:  # a comparison reads the draws back (drawing_counts)
        return DrawnInterval([float(low), float(high)], values.copy())
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

def dense_is_cheaper(n_items, n_entries):
    """Whether :class:`DensePairs` (n² elements) costs a resample no more than :class:`SparsePairs` of
    ``n_entries`` stored entries, by :data:`agreekit.runtime.DENSE_ELEMENT_COST` (in Pyodide the dense
    product is about 190× slower, in CPython about 2.5× faster per element).  Both give the same sums,
    to rounding."""
    return n_items ** 2 * runtime.DENSE_ELEMENT_COST <= n_entries


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
    """X through its stored entries: each unordered item pair at most once (CSR), the rest 0.

    The chance baselines build it above their ``DENSE_ITEMS`` (4,000) items
    only, so scipy.sparse is imported here, not with the package: it costs
    seconds of the page's start-up in Pyodide (benchmarks/RESULTS.md).  Its
    compiled product is 11–13× faster than the same sums in numpy
    (``benchmarks/sparse_pairs_speed.py``).
    """

    matrix: object  # scipy.sparse.csr_matrix

    @classmethod
    def from_entries(cls, first, second, values, n_items):
        """Entries ``values[k]`` at item pairs (first[k], second[k]), first ≠ second; repeats add up."""
        from scipy import sparse
        return cls(sparse.csr_matrix((np.asarray(values, dtype=float), (first, second)), shape=(n_items, n_items)))

    def weighted(self, counts):
        # Σ_k c_{first_k} c_{second_k} x_k: each stored entry is one unordered pair.
        out = np.empty(len(counts))
        for start in range(0, len(counts), _SPARSE_RESAMPLES):
            columns = np.ascontiguousarray(counts[start:start + _SPARSE_RESAMPLES].T)
            out[start:start + _SPARSE_RESAMPLES] = ((self.matrix @ columns) * columns).sum(axis=0)
        return out

    @property
    def nbytes(self):
        return self.matrix.data.nbytes + self.matrix.indices.nbytes + self.matrix.indptr.nbytes


@dataclass(frozen=True)
class OuterPairs:
    """X_ij = n_i n_j (i ≠ j), never stored: Σ_{i<j} c_i c_j n_i n_j = ½[(c·n)² − Σ_i c_i² n_i²]."""

    sizes: np.ndarray

    def weighted(self, counts):
        return 0.5 * ((counts @ self.sizes) ** 2 - (counts ** 2) @ (self.sizes ** 2))

    @property
    def nbytes(self):
        return self.sizes.nbytes


def outer_pair_matrix(sizes):
    """:class:`OuterPairs`' X as a dense matrix: X_ij = n_i n_j (i ≠ j), a zero diagonal."""
    return np.outer(sizes, sizes) - np.diag(sizes ** 2)


@dataclass(frozen=True)
class GroupedOuterPairs:
    """X_ij = n_i n_j − Σ_g n_ig n_jg (i ≠ j), never stored: pairs of objects on items i and j in different groups.

    n_ig is the number of objects of group g (an annotator) on item i, given by
    its nonzero entries sorted by group; n_i = Σ_g n_ig.  With m_g = Σ_i c_i n_ig,
    Σ_{i<j} c_i c_j X_ij = :class:`OuterPairs` − ½ [Σ_g m_g² − Σ_i c_i² Σ_g n_ig²], O(entries) per resample.
    """

    sizes: np.ndarray         # (n_items,) n_i
    entry_item: np.ndarray    # (e,) item of each nonzero n_ig, entries sorted by group
    entry_size: np.ndarray    # (e,) n_ig
    group_start: np.ndarray   # (groups,) first entry of each group

    def weighted(self, counts):
        # Entries × resamples, so that gathering items and summing groups work on whole rows.
        per_entry = np.ascontiguousarray(counts.T)[self.entry_item] * self.entry_size[:, None]
        per_group = run_sums(per_entry, self.group_start)
        item_squares = np.bincount(self.entry_item, self.entry_size ** 2, len(self.sizes))   # Σ_g n_ig²
        same = 0.5 * ((per_group ** 2).sum(axis=0) - (counts ** 2) @ item_squares)
        return OuterPairs(self.sizes).weighted(counts) - same

    @property
    def nbytes(self):
        return self.sizes.nbytes + self.entry_item.nbytes + self.entry_size.nbytes + self.group_start.nbytes


def exact_in_any_order(sizes):
    """Whether the count forms of ``sizes`` (n_i objects per item) are exact integers for resample counts.

    With integer weights c (Σ_i c_i = n items) every product and partial sum of
    Σ_{i<j} c_i c_j X_ij, for any 0 ≤ X_ij ≤ n_i n_j, is an integer at most
    (Σ_i c_i n_i)² ≤ (n · max n_i)²; below 2⁵³ float64 holds each exactly, so
    :class:`OuterPairs`, :class:`GroupedOuterPairs` and the dense product give
    the same bits.
    """
    return len(sizes) == 0 or (len(sizes) * float(np.max(sizes))) ** 2 < 2.0 ** 53


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
