"""The chance baseline of σ: distances between objects on *different* items.

σ = 1 − mean(within-item distance) / mean(between-item distance), with the KS
statistic of the two distance distributions beside it.

Within: the distance of every matched pair (computed by the object engine).
Between: every unordered pair of objects on different comparable items,
streamed in chunks of whole items (a crowded item's in chunks cut inside it,
:mod:`.crowded_items`) so memory stays bounded by ``_CHUNK_ELEMENTS``; above ``pair_budget`` pairs a seeded uniform sample of ``SAMPLED_PAIRS`` pairs
is used and its standard error reported.  The point estimate needs only
running sums.

KS is the textbook two-sample D = sup |F_within − F_between|, evaluated from
counts of between distances below and at each within value (:mod:`.ks_counts`),
so ties are exact and the between list is never sorted.  Before they are counted, within and
between distances are snapped to the dyadic grid 2⁻⁴⁰ ≈ 9.1e-13 (distances lie
in [0, 1]): values that agree to about 12 significant digits are one value for
KS, so D does not depend on the order of floating-point operations.

The bootstrap needs, per resample with item weights c, the between mean
Σ_{i<j} c_i c_j S_ij / Σ_{i<j} c_i c_j N_ij, S_ij and N_ij being the sum and the
number of between pairs of items i and j (:class:`BetweenTerms`).  Their memory
never grows with items²:

* up to ``DENSE_ITEMS`` items (4,000: 128 MB per matrix), S is a dense
  n × n matrix (the exact path) and N, whose resampled sums are integers,
  a closed form that gives the dense product's bits where they are exact
  (:func:`.bootstrap.exact_in_any_order`), else dense too;
* on the sampled path (more pairs than the budget), S and N keep only the item
  pairs of the sampled object pairs (sparse, at most ``SAMPLED_PAIRS`` entries):
  the same quadratic forms, exactly; dense up to ``DENSE_ITEMS`` items where
  cheaper (:func:`.bootstrap.dense_is_cheaper`: in Pyodide almost never);
* above, on the all-pairs path, N_ij = n_i n_j is exact in O(n), and S is an
  additive model n_i n_j (μ_i + μ_j − μ̄) built from the exact item totals
  (μ_i: item i's mean between distance) plus a Horvitz–Thompson estimate of
  the residual from a seeded Bernoulli sample of about ``ITEM_PAIR_SAMPLE``
  item pairs (about 40 bytes each while streaming, 12–16 bytes kept; all
  pairs, exactly, when there are no more; each pair's draw a hash of the seed
  and the two items' content ranks, so row order and names cannot change it).  The sample is split in two
  random halves; their disagreement gives the reported standard error of a
  resampled between mean.  At equal memory the model makes that error 3 to
  13 times smaller than sampling S alone (crowd-shaped corpora).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import runtime
from ..arrays import safe_ratio
from . import bootstrap as boot
from . import cross as cross_sums
from .crowded_items import one_item_between
from .ks_counts import HISTOGRAM_BINS, add_ks_counts, ks_table
from .ks_counts import ks_statistic, snap  # noqa: F401  (part of this module's interface)
from .run_sums import run_sums
from .sigma import sigma_reason, sigma_value  # noqa: F401  (part of this module's interface)

DEFAULT_PAIR_BUDGET = 50_000_000
SAMPLED_PAIRS = 2_000_000
DENSE_ITEMS = 4_000          # up to this many items S and N are dense: 128 MB per matrix at the limit
ITEM_PAIR_SAMPLE = 2_000_000  # above it, all pairs streamed: S's residual kept for about this many item pairs

_CHUNK_ELEMENTS = 1 << 21
_ITEM_PAIR_STREAM = 1        # in the item-pair hash's key: keeps its numbers apart from the resamples'


class BetweenTerms(NamedTuple):
    """The item-pair sums S and counts N of the between baseline, in the forms of :mod:`.bootstrap`."""

    sums: object         # DensePairs, SparsePairs or ModelledPairs
    counts: object       # DensePairs, SparsePairs, OuterPairs or GroupedOuterPairs
    description: str     # "exact", or how the resampled Σ c_i c_j S_ij is estimated

    @property
    def nbytes(self):
        return self.sums.nbytes + self.counts.nbytes


def between_baseline(objects, kind, within_sorted, pair_budget=DEFAULT_PAIR_BUDGET, seed=boot.DEFAULT_SEED,
                     progress=None, cross=False):
    """Mean distance over pairs of objects on different items, with KS counts.

    Parameters
    ----------
    objects : ObjectSet
        Objects contiguous by item (``offsets``).
    kind : ObjectKind
        ``paired_distance`` and ``distance_block`` by global object index.
    within_sorted : ndarray, shape (m,)
        The within distances, sorted.
    pair_budget : int
        Above this many between pairs, a seeded uniform sample of
        min(``SAMPLED_PAIRS``, ``pair_budget``) pairs is used.
    seed : int
        Seed of the pair sample and of the item-pair sample.
    progress : callable or None
        ``progress(done, total, stage)``.
    cross : bool
        Also the cross-annotator baseline (``objects.annotator_of`` and
        ``objects.annotators`` needed).

    Returns
    -------
    dict
        ``sum`` and ``n`` (of the between distances used), ``exact``, ``se``
        (standard error of the sampled mean; None when exact), ``total_pairs``,
        ``terms`` (:class:`BetweenTerms`, for the bootstrap), ``le``/``lt`` (for
        each sorted within value w_k, how many between distances are ≤ w_k and
        < w_k, after snapping), ``histogram`` (200 bins over [0, 1]); up to
        ``DENSE_ITEMS`` items also ``item_sums`` and ``item_counts``, the dense
        (n × n) S and N with zero diagonals.  The cross-annotator baseline (:mod:`.cross`), all None unless
        ``cross``: ``cross`` (:class:`~.cross.CrossBaseline`), ``le_cross``/``lt_cross`` (KS counts) and
        ``cross_terms`` (:class:`BetweenTerms`; None on the exact path above ``cross.DENSE_ITEMS`` items).
    """
    sizes = np.diff(objects.offsets).astype(float)
    total_pairs = (sizes.sum() ** 2 - (sizes ** 2).sum()) / 2.0
    table = ks_table(within_sorted)
    result = {"le": np.zeros(len(within_sorted)), "lt": np.zeros(len(within_sorted)),
              "histogram": np.zeros(HISTOGRAM_BINS), "total_pairs": int(total_pairs)}
    same = {"le": np.zeros(len(within_sorted)), "lt": np.zeros(len(within_sorted)),
            "histogram": np.zeros(HISTOGRAM_BINS)}
    exact = total_pairs <= pair_budget
    crossing = cross_sums.CrossSums(objects, exact and len(sizes) <= cross_sums.DENSE_ITEMS) if cross else None
    result.update(cross=None, cross_terms=None, le_cross=None, lt_cross=None)
    if total_pairs == 0:
        result.update(sum=0.0, n=0, exact=True, se=None, terms=_no_pairs(len(sizes)))
    elif exact:
        ranks = getattr(objects, "item_ranks", None)
        sums = _DenseSums(sizes) if len(sizes) <= DENSE_ITEMS else _SampledSums(sizes, seed, ranks)
        _between_exact(objects, kind, table, (result, same), (sums, crossing), progress)
        result.update(n=int(total_pairs), exact=True, se=None, terms=sums.terms(result["sum"], total_pairs))
    else:
        _between_sampled(objects, kind, table, (result, same), crossing, seed, progress,
                         min(SAMPLED_PAIRS, pair_budget))
        result["exact"] = False
    if crossing is not None:
        if exact:
            result["cross"] = cross_sums.exact_baseline(crossing, objects, result["sum"])
            result["cross_terms"] = _cross_terms(result["terms"], crossing, objects)
        result["le_cross"] = result["le"] - same["le"]
        result["lt_cross"] = result["lt"] - same["lt"]
    if isinstance(result["terms"].sums, boot.DensePairs):
        result["item_sums"] = result["terms"].sums.matrix
        result["item_counts"] = boot.outer_pair_matrix(sizes)
    return result


def resampled_between(terms, counts):
    """The between mean of each resample, and the error that estimating S adds to it.

    Parameters
    ----------
    terms : BetweenTerms
    counts : ndarray, shape (R, n_items)
        Item weights of R resamples.

    Returns
    -------
    means : ndarray, shape (R,)
        Σ_{i<j} c_i c_j S_ij / Σ_{i<j} c_i c_j N_ij (NaN where no pair).
    error : ndarray, shape (R,), or None
        None when S is exact.  Otherwise half the difference of the two
        half-samples' means times √(1 − rate): the two halves are disjoint
        Bernoulli(rate / 2) samples, so E[error²] is the variance of the mean
        from the whole sample, and its root mean square over resamples is the
        standard error of a resampled between mean caused by the estimation.
    """
    n = terms.counts.weighted(counts)
    if not isinstance(terms.sums, boot.ModelledPairs):
        return safe_ratio(terms.sums.weighted(counts), n), None
    first, second = terms.sums.estimates(counts)
    error = 0.5 * np.sqrt(1.0 - terms.sums.rate) * safe_ratio(first - second, n)
    return safe_ratio(0.5 * (first + second), n), error


def _cross_terms(terms, crossing, objects):
    """The :class:`BetweenTerms` of the cross pairs: pooled S minus the same-annotator sums, and their N."""
    if crossing.same_items is None or not isinstance(terms.sums, boot.DensePairs):
        return None
    same_sums = crossing.same_items + crossing.same_items.T
    return BetweenTerms(boot.DensePairs(terms.sums.matrix - same_sums), cross_sums.count_pairs(objects), "exact")


def _count_pairs(sizes):
    """N of the exact path as a form of :mod:`.bootstrap`: the O(n) :class:`~.bootstrap.OuterPairs` where its
    resampled values are exact integers, so bit-equal to the dense product's (the report's numbers do not
    depend on the form), else the dense matrix."""
    if boot.exact_in_any_order(sizes):
        return boot.OuterPairs(sizes)
    return boot.DensePairs(boot.outer_pair_matrix(sizes))


def _no_pairs(n_items):
    """:class:`BetweenTerms` of a baseline without pairs."""
    if n_items <= DENSE_ITEMS:
        return BetweenTerms(boot.DensePairs(np.zeros((n_items, n_items))),
                            boot.DensePairs(np.zeros((n_items, n_items))), "exact")
    empty = boot.SparsePairs.from_entries(np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0), n_items)
    return BetweenTerms(empty, empty, "exact")


# ----------------------------------------------------------------- all pairs, streamed

def _item_blocks(offsets):
    """Blocks [p, q) of whole items whose objects × the objects from p on fit a chunk (≥ 1 item each)."""
    n_objects, n_items = int(offsets[-1]), len(offsets) - 1
    p = 0
    while p < n_items:
        q = p + 1
        width = n_objects - offsets[p]
        while q < n_items and (offsets[q + 1] - offsets[p]) * width <= _CHUNK_ELEMENTS:
            q += 1
        yield p, q
        p = q


def _between_exact(objects, kind, table, results, accumulators, progress):
    """Every between pair, streamed: the total, the KS counts (all pairs and same-annotator pairs, into
    ``results``), the item-pair sums and the cross-annotator sums (into ``accumulators``).  Blocks come
    transposed (later objects × the block's, :func:`_transposed`): the cross sums add column runs as rows."""
    (result, same), (sums, crossing) = results, accumulators
    offsets = objects.offsets
    n_objects, n_items = int(offsets[-1]), len(offsets) - 1
    item_of = np.repeat(np.arange(n_items), np.diff(offsets))
    total = 0.0
    for p, q in _item_blocks(offsets):
        r0, r1 = offsets[p], offsets[q]
        if r0 == r1:  # items without objects, alone in a block when the next item is too large to join it
            continue
        if q - p == 1 and (r1 - r0) * (n_objects - r1) > 4 * _CHUNK_ELEMENTS:  # a crowded item (4+ chunks)
            total += one_item_between(objects, kind, table, results, accumulators, p)
            continue
        rows = np.arange(r0, r1)
        parts = []
        if q - p > 1:  # pairs inside the block: only with a later item
            inner_t = _transposed(kind, rows, rows)
            later_t = item_of[rows][:, None] > item_of[rows][None, :]
            parts.append((np.where(later_t, inner_t, 0.0), inner_t[later_t], p, q, rows, later_t))
        if r1 < n_objects:  # every column after the block is a later item
            columns = np.arange(r1, n_objects)
            outer_t = _transposed(kind, rows, columns)
            parts.append((outer_t, outer_t.ravel(), q, n_items, columns, None))
        for block_t, flat, c0, c1, cols, valid_t in parts:
            add_ks_counts(flat, table, result)
            if crossing is None:
                item_sums = _item_pair_sums(block_t, offsets, (p, q), (c0, c1))
            else:
                same_annotator, item_sums = crossing.add(block_t, rows, cols, valid_t)
                add_ks_counts(same_annotator, table, same)
            sums.add(*item_sums)
            total += float(item_sums[2].sum())
        if progress is not None:
            progress(int(r1), n_objects, "chance baseline")
    result["sum"] = total


def _transposed(kind, rows, cols):
    """``kind.distance_block(rows, cols).T``, C-contiguous: the kind's ``transposed_distance_block`` if it has one."""
    own = getattr(kind, "transposed_distance_block", None)
    return own(rows, cols) if own is not None else np.ascontiguousarray(kind.distance_block(rows, cols).T)


def _item_pair_sums(block_t, offsets, row_items, col_items):
    """``block_t`` (objects of items [c0, c1) × of items [p, q)) summed per item pair: the row items, the
    column items and their (rows × columns) sums, items without objects left out."""
    (p, q), (c0, c1) = row_items, col_items
    row_offsets, col_offsets = offsets[p:q + 1] - offsets[p], offsets[c0:c1 + 1] - offsets[c0]
    row_nonempty, col_nonempty = np.diff(row_offsets) > 0, np.diff(col_offsets) > 0
    reduced = run_sums(block_t, col_offsets[:-1][col_nonempty])
    reduced = np.add.reduceat(reduced, row_offsets[:-1][row_nonempty], axis=1)
    return np.arange(p, q)[row_nonempty], np.arange(c0, c1)[col_nonempty], reduced.T


class _DenseSums:
    """S as a dense (n × n) matrix: the exact path, up to ``DENSE_ITEMS`` items."""

    def __init__(self, sizes):
        self.sizes = sizes
        self.upper = np.zeros((len(sizes), len(sizes)))

    def add(self, rows, cols, block):
        self.upper[np.ix_(rows, cols)] += block

    def terms(self, total, total_pairs):
        return BetweenTerms(boot.DensePairs(self.upper + self.upper.T), _count_pairs(self.sizes), "exact")


_GOLDEN = 0x9E3779B97F4A7C15


def _mixed(z):
    """SplitMix64's finaliser (Steele, Lea & Flood 2014) of uint64 array ``z``, wrapping."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def pair_uniforms(seed, first, second):
    """A uniform in [0, 1) for each unordered pair (first[k], second[k]) of item ranks: a hash of seed and pair.

    The draw of a pair depends on nothing else (not on the order in which
    blocks of pairs are visited), so with ranks in content order the item-pair
    sample is the same for any row order and any names.
    """
    low = np.minimum(first, second).astype(np.uint64)
    high = np.maximum(first, second).astype(np.uint64)
    with np.errstate(over="ignore"):
        key = np.asarray([seed % 2 ** 64], dtype=np.uint64) * np.uint64(_GOLDEN) + np.uint64(_ITEM_PAIR_STREAM)
        key = _mixed(key)
        z = _mixed(_mixed(key ^ (low * np.uint64(_GOLDEN))) + high)
    return (z >> np.uint64(11)).astype(float) * 2.0 ** -53


class _SampledSums:
    """S above ``DENSE_ITEMS`` items: exact item totals and a seeded Bernoulli sample of item pairs.

    Each pair of items with objects is kept with probability
    min(1, ``ITEM_PAIR_SAMPLE`` / their number), and falls in the first half
    when its uniform draw (:func:`pair_uniforms` of the two items' content
    ranks) is below half that rate.
    """

    def __init__(self, sizes, seed, ranks=None):
        nonempty = int(np.count_nonzero(sizes))
        self.sizes = sizes
        self.n_pairs = nonempty * (nonempty - 1) // 2
        self.rate = min(1.0, ITEM_PAIR_SAMPLE / max(self.n_pairs, 1))
        self.seed = seed
        self.ranks = np.arange(len(sizes), dtype=np.intp) if ranks is None else np.asarray(ranks, dtype=np.intp)
        self.totals = np.zeros(len(sizes))
        self.kept = [(np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0), np.zeros(0, bool))]

    def add(self, rows, cols, block):
        self.totals[rows] += block.sum(axis=1)
        self.totals[cols] += block.sum(axis=0)
        draw = pair_uniforms(self.seed, self.ranks[rows][:, None], self.ranks[cols][None, :])
        r, c = np.nonzero((draw < self.rate) & (rows[:, None] < cols[None, :]))
        self.kept.append((rows[r], cols[c], block[r, c], draw[r, c] < self.rate / 2))

    def terms(self, total, total_pairs):
        first, second, values, in_first = (np.concatenate(part) for part in zip(*self.kept))
        n_items = len(self.sizes)
        counts = boot.OuterPairs(self.sizes)
        if self.rate >= 1.0:
            return BetweenTerms(boot.SparsePairs.from_entries(first, second, values, n_items), counts, "exact")
        model = additive_model(self.sizes, self.totals, total / total_pairs)
        residual = (values - model.entries(first, second)) * (2.0 / self.rate)
        halves = tuple(boot.SparsePairs.from_entries(first[h], second[h], residual[h], n_items)
                       for h in (in_first, ~in_first))
        description = (f"estimated: an additive model of the item-pair sums from the exact item totals, plus a "
                       f"seeded sample of {len(values):,} of {self.n_pairs:,} item pairs ({self.rate:.2%}) "
                       "for its residual")
        return BetweenTerms(boot.ModelledPairs(model, halves, self.rate), counts, description)


def additive_model(sizes, totals, overall):
    """The control variate of S: n_i n_j (μ_i + μ_j − μ̄).

    μ_i is item i's mean between distance (its exact total over its
    n_i (N − n_i) pairs; 0 for an item without objects), μ̄ the overall mean.
    """
    means = np.nan_to_num(safe_ratio(totals, sizes * (sizes.sum() - sizes)), nan=0.0)
    return boot.AdditivePairs(sizes, means, float(overall))


# ----------------------------------------------------------------- a sample of pairs

def _between_sampled(objects, kind, table, results, crossing, seed, progress, sample_size):
    """A seeded uniform sample of ``sample_size`` between pairs: mean, standard error, KS counts, S and N,
    and the same of its cross-annotator pairs."""
    result, same_counts = results
    offsets = objects.offsets
    n_objects, n_items = int(offsets[-1]), len(offsets) - 1
    dense = _sampled_terms_dense(n_items, sample_size)
    item_of = np.repeat(np.arange(n_items), np.diff(offsets))
    rng = np.random.default_rng(seed)
    # Draws are places in content order (objects.object_ranks), so no row order or name changes the sample.
    ranks = getattr(objects, "object_ranks", None)
    by_rank = np.arange(n_objects) if ranks is None else np.argsort(ranks)
    first, second = [], []
    wanted = max(int(sample_size), 2)
    while wanted > 0:
        i = by_rank[rng.integers(0, n_objects, size=2 * wanted)]
        j = by_rank[rng.integers(0, n_objects, size=2 * wanted)]
        ok = item_of[i] != item_of[j]
        i, j = i[ok][:wanted], j[ok][:wanted]
        first.append(i)
        second.append(j)
        wanted -= len(i)
    i, j = np.concatenate(first), np.concatenate(second)
    d = np.concatenate([kind.paired_distance(i[s:s + _CHUNK_ELEMENTS], j[s:s + _CHUNK_ELEMENTS])
                        for s in range(0, len(i), _CHUNK_ELEMENTS)])
    result["terms"] = _sampled_terms(item_of[i], item_of[j], d, n_items, dense)
    result["sum"] = float(d.sum())
    result["n"] = int(len(d))
    result["se"] = float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else None
    add_ks_counts(d, table, result)
    if crossing is not None:
        same = crossing.add_pairs(i, j, d)
        add_ks_counts(d[same], table, same_counts)
        result["cross"] = cross_sums.sampled_baseline(crossing, i, j, d)
        result["cross_terms"] = _sampled_terms(item_of[i][~same], item_of[j][~same], d[~same], n_items, dense)
    if progress is not None:
        progress(1, 1, "chance baseline (sampled)")


def _sampled_terms_dense(n_items, sample_size):
    """Whether a sample's S and N are dense: up to ``DENSE_ITEMS`` items where that is cheaper, else sparse."""
    return n_items <= DENSE_ITEMS and boot.dense_is_cheaper(n_items, max(int(sample_size), 2))


def needs_sparse(sizes, pair_budget=DEFAULT_PAIR_BUDGET):
    """Whether :func:`between_baseline` of items with ``sizes`` objects builds scipy.sparse matrices.

    Known from the sizes alone, so that a report can import scipy.sparse before its first step: the
    page installs it on demand and runs again a call that needed it (web/worker.mjs).
    """
    sizes = np.asarray(sizes, dtype=float)
    sampled = (sizes.sum() ** 2 - (sizes ** 2).sum()) / 2.0 > pair_budget
    if len(sizes) > DENSE_ITEMS or not sampled:  # above DENSE_ITEMS every path is sparse; below, only a sample's
        return len(sizes) > DENSE_ITEMS
    return not _sampled_terms_dense(len(sizes), min(SAMPLED_PAIRS, pair_budget))


def _sampled_terms(item_a, item_b, d, n_items, dense):
    """S and N of sampled pairs on items (item_a[k], item_b[k]), the same quadratic forms either way: dense
    (``dense``, :func:`_sampled_terms_dense`), else sparse (≤ one entry per sampled pair)."""
    if dense:
        sums = np.zeros((n_items, n_items))
        counts = np.zeros((n_items, n_items))
        np.add.at(sums, (item_a, item_b), d)
        np.add.at(counts, (item_a, item_b), 1.0)
        return BetweenTerms(boot.DensePairs(sums + sums.T), boot.DensePairs(counts + counts.T), "exact")
    low, high = np.minimum(item_a, item_b), np.maximum(item_a, item_b)
    return BetweenTerms(boot.SparsePairs.from_entries(low, high, d, n_items),
                        boot.SparsePairs.from_entries(low, high, np.ones(len(d)), n_items), "exact")
