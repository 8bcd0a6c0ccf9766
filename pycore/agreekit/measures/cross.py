"""The cross-annotator chance baseline of σ: between-item pairs of objects drawn by *different* annotators.

The pooled baseline (:mod:`.chance`) averages every pair of objects on
different items, including pairs drawn by one annotator.  An annotator who
draws the same box on every image adds between-item pairs of distance 0 and so
lowers the baseline it is judged against.  The cross baseline leaves those
pairs out:

* ``σ_cross`` of the corpus: the mean over pairs (x, y) on different items
  with annotator(x) ≠ annotator(y);
* of an annotator pair {a, b}: a's objects on item i against b's on j ≠ i;
* of an annotator a: its objects against every other annotator's on other items.

Every between-item pair of objects belongs to exactly one annotator pair, so
the stream that computes the pooled total accumulates, per block, sums per
run of one annotator's objects on one item (objects are contiguous by item,
then by annotator), then per annotator pair.  The same-annotator pairs are
split off for the KS counts and for the item-pair sums of the interval (up
to ``DENSE_ITEMS`` items on the exact path; a sampled baseline's interval
uses its sampled cross pairs); the cross quantities are the pooled ones minus these.  Counts are
exact in closed form from the objects per (item, annotator).

Per-pair sums are n_annotators² numbers: above ``PAIR_ANNOTATORS`` annotators
only the per-annotator sums (2·n_annotators numbers) are kept.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import runtime
from . import bootstrap as boot
from .run_sums import run_sums

PAIR_ANNOTATORS = 1_000   # above it no per-pair sums: 1,000² numbers = 8 MB per matrix at the limit
DENSE_ITEMS = 2_000       # up to it the exact path keeps dense same-annotator item-pair sums for the interval
PAIR_INTERVAL_ANNOTATORS = 50   # up to it (and PAIR_INTERVAL_RUNS) the run-pair sums of per-pair σ intervals are kept
PAIR_INTERVAL_RUNS = 1_024       # runs (annotator × item): ≤ 523,776 run pairs, each resampled 1,000 times
GROUP_PAIRS = 1 << 20     # pairs of runs formed at once for the closed-form counts: about 40 MB of indices and products


class Runs(NamedTuple):
    """Maximal runs of one annotator's objects on one item, in object order."""

    start: np.ndarray      # (r + 1,) object offsets of the runs
    item: np.ndarray       # (r,)
    annotator: np.ndarray  # (r,)

    @property
    def size(self):
        return np.diff(self.start).astype(float)


def object_runs(offsets, annotator_of):
    """The :class:`Runs` of objects contiguous by item and, within an item, by annotator."""
    n_objects = int(offsets[-1])
    item_of = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    change = np.flatnonzero((np.diff(item_of) != 0) | (np.diff(annotator_of) != 0)) + 1
    start = np.concatenate([[0], change, [n_objects]]).astype(np.intp) if n_objects else np.zeros(1, np.intp)
    return Runs(start, item_of[start[:-1]], np.asarray(annotator_of)[start[:-1]])


class CrossSums:
    """Accumulates, over between-item blocks, the sums the cross baseline needs.

    Parameters
    ----------
    objects : ObjectSet
    dense_items : bool
        Also keep the (n_items × n_items) same-annotator item-pair sums, for the interval.
    """

    def __init__(self, objects, dense_items):
        self.runs = object_runs(objects.offsets, objects.annotator_of)
        self.annotator_of = np.asarray(objects.annotator_of)
        self.n_annotators = len(objects.annotators)
        self.n_items = objects.n_items
        a = self.n_annotators
        self.pairs = np.zeros((a, a)) if a <= PAIR_ANNOTATORS else None
        self.by_annotator = np.zeros(a)       # Σ over its between pairs with anyone (both sides)
        self.same = np.zeros(a)               # Σ over its between pairs with itself (once)
        self.same_items = np.zeros((self.n_items, self.n_items)) if dense_items else None
        self.run_pairs = [] if dense_items and a <= min(PAIR_ANNOTATORS, PAIR_INTERVAL_ANNOTATORS) \
            and len(self.runs.item) <= PAIR_INTERVAL_RUNS else None   # (first run, second run, sum) per block

    def add(self, block_t, rows, cols, valid_t=None):
        """Add a block of distances of objects ``rows`` × ``cols`` (contiguous ranges: whole runs, or parts
        of runs at their ends), given transposed: ``block_t`` is (len(cols) × len(rows)), C-contiguous, and
        entries outside ``valid_t`` (its shape) are 0.  Returns its same-annotator between distances (flat,
        in no set order) and ``(row items, column items, sums)``: the block summed per pair of items (items
        without objects left out; the same sums as ``chance``'s per-item reduction, added in another order)."""
        starts = self.runs.start
        (r0, r1), row_start = _runs_in(starts, rows)
        (c0, c1), col_start = _runs_in(starts, cols)
        # Σ over column runs, then over row runs, as np.add.reduceat along axis 1 then 0 of the block, bit for
        # bit.  The column runs are summed as row runs of the transposed block: reduceat's cost per run and row
        # is most of its time for runs this short (benchmarks/RESULTS.md, "The box report stage by stage").
        by_column_run = run_sums(block_t, col_start[:-1])
        per_run = run_sums(np.ascontiguousarray(by_column_run.T), row_start[:-1])
        ann_r, ann_c = self.runs.annotator[r0:r1], self.runs.annotator[c0:c1]
        a = self.n_annotators
        self.by_annotator += np.bincount(ann_r, per_run.sum(axis=1), a) + np.bincount(ann_c, per_run.sum(axis=0), a)
        same_runs = ann_r[:, None] == ann_c[None, :]
        sr, sc = np.nonzero(same_runs)
        self.same += np.bincount(ann_r[sr], per_run[sr, sc], a)
        if self.pairs is not None:
            codes = ann_r[:, None] * a + ann_c[None, :]
            self.pairs += np.bincount(codes.ravel(), per_run.ravel(), a * a).reshape(a, a)
        if self.run_pairs is not None:   # pairs of runs by different annotators on different items
            dr, dc = np.nonzero(~same_runs & (self.runs.item[r0:r1][:, None] != self.runs.item[c0:c1][None, :]))
            self.run_pairs.append((r0 + dr, c0 + dc, per_run[dr, dc]))
        if self.same_items is not None:
            np.add.at(self.same_items, (self.runs.item[r0:r1][sr], self.runs.item[c0:c1][sc]), per_run[sr, sc])
        if valid_t is not None:  # one value per pair of runs: runs lie within items
            keep = valid_t[col_start[sc], row_start[sr]]
            sr, sc = sr[keep], sc[keep]
        same = block_t.ravel()[_sub_block_indices(col_start, row_start, sc, sr, block_t.shape[1])]
        return same, _item_sums(per_run, self.runs.item[r0:r1], self.runs.item[c0:c1])

    def add_pairs(self, first, second, d):
        """Add sampled between pairs (first[k], second[k]) at distances ``d``; returns the same-annotator mask."""
        a = self.n_annotators
        ann_1, ann_2 = self.annotator_of[first], self.annotator_of[second]
        same = ann_1 == ann_2
        self.by_annotator += np.bincount(ann_1, d, a) + np.bincount(ann_2, d, a)
        self.same += np.bincount(ann_1[same], d[same], a)
        if self.pairs is not None:
            self.pairs += np.bincount(ann_1 * a + ann_2, d, a * a).reshape(a, a)
        return same


def run_pair_sums(sums):
    """``(first, second, total)``: Σ of the distances over each unordered pair of runs (first < second) by
    different annotators on different items, from a fully streamed :class:`CrossSums`; None when not kept."""
    if sums.run_pairs is None:
        return None
    if not sums.run_pairs:
        return np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0)
    r, c, values = (np.concatenate(part) for part in zip(*sums.run_pairs))
    lo, hi = np.minimum(r, c).astype(np.intp), np.maximum(r, c).astype(np.intp)
    n_runs = len(sums.runs.item)
    codes, inverse = np.unique(lo * n_runs + hi, return_inverse=True)
    total = np.bincount(inverse.ravel(), values, len(codes))
    return codes // n_runs, codes % n_runs, total


def _item_sums(per_run, row_items, col_items):
    """``(row items, column items, sums)``: ``per_run`` (row runs × column runs) summed over the runs of each item."""
    row_cut = np.flatnonzero(np.diff(row_items, prepend=-1))
    col_cut = np.flatnonzero(np.diff(col_items, prepend=-1))
    sums = np.add.reduceat(np.add.reduceat(per_run, col_cut, axis=1), row_cut, axis=0)
    return row_items[row_cut], col_items[col_cut], sums


def _runs_in(starts, objects):
    """``((r0, r1), offsets)``: the runs r0 … r1 − 1 that the contiguous ``objects`` meet, and where each
    begins and ends inside them (the first and last clipped to the range): (r1 − r0 + 1,) offsets."""
    r0 = int(np.searchsorted(starts, objects[0], side="right")) - 1
    r1 = int(np.searchsorted(starts, objects[-1], side="right"))
    return (r0, r1), np.clip(starts[r0:r1 + 1], objects[0], objects[-1] + 1) - objects[0]


def _sub_block_indices(row_start, col_start, run_rows, run_cols, width):
    """Flat indices, in a C-ordered block ``width`` wide, of the sub-blocks of the row runs ``run_rows[k]``
    × the column runs ``run_cols[k]`` (runs by their ``row_start``/``col_start`` offsets in the block)."""
    top, left = row_start[run_rows], col_start[run_cols]
    height, breadth = row_start[run_rows + 1] - top, col_start[run_cols + 1] - left
    size = height * breadth
    sub = np.repeat(np.arange(len(size), dtype=np.intp), size)
    position = np.arange(int(size.sum()), dtype=np.intp) - np.repeat(np.cumsum(size) - size, size)
    return (top[sub] + position // breadth[sub]) * width + left[sub] + position % breadth[sub]


class CrossBaseline(NamedTuple):
    """Sums and counts of the cross baseline: the corpus, per annotator, per annotator pair."""

    total_sum: float
    total_n: float
    annotator_sums: np.ndarray     # (A,)
    annotator_counts: np.ndarray   # (A,)
    pair_sums: object              # (A × A) symmetric, zero diagonal; None above PAIR_ANNOTATORS
    pair_counts: object
    run_pairs: object = None       # :func:`run_pair_sums` on the exact path, for per-pair σ intervals


def exact_counts(objects):
    """Counts of cross pairs in closed form: (total, per annotator (A,), per pair (A × A) or None).

    With n_ia objects of annotator a on item i, t_a = Σ_i n_ia, n_i = Σ_a n_ia
    and N = Σ_i n_i: the pair {a, b} has t_a t_b − Σ_i n_ia n_ib pairs, a has
    t_a (N − t_a) − Σ_i n_ia (n_i − n_ia), and the corpus N²/2 − Σ_i n_i²/2
    minus the same-annotator Σ_a (t_a² − Σ_i n_ia²)/2.
    """
    runs = object_runs(objects.offsets, objects.annotator_of)   # one run per nonzero n_ia
    a = len(objects.annotators)
    size = runs.size
    t = np.bincount(runs.annotator, size, a)
    n_item = np.bincount(runs.item, size, objects.n_items)
    square_a = np.bincount(runs.annotator, size ** 2, a)
    same = (t ** 2 - square_a) / 2.0
    total = (n_item.sum() ** 2 - (n_item ** 2).sum()) / 2.0 - same.sum()
    shared = np.bincount(runs.annotator, size * n_item[runs.item], a) - square_a   # Σ_i n_ia (n_i − n_ia)
    per_annotator = t * (t.sum() - t) - shared
    per_pair = None
    if a <= PAIR_ANNOTATORS:
        # Runs are ordered by item: Σ_i n_ia n_ib over the pairs of runs on one item.
        per_pair = np.outer(t, t) - products_within_groups(runs.item, runs.annotator, size, a)
        np.fill_diagonal(per_pair, 0.0)
    return float(total), per_annotator, per_pair


def same_item_pair_counts(objects):
    """Σ_a n_ia n_ja per item pair (dense, zero diagonal): the same-annotator pairs of items i and j."""
    runs = object_runs(objects.offsets, objects.annotator_of)
    by_annotator = np.argsort(runs.annotator, kind="stable")
    out = products_within_groups(runs.annotator[by_annotator], runs.item[by_annotator],
                                 runs.size[by_annotator], objects.n_items)
    np.fill_diagonal(out, 0.0)
    return out


def count_pairs(objects):
    """N of the cross pairs per item pair, n_i n_j − Σ_a n_ia n_ja (i ≠ j), as a form of :mod:`.bootstrap`:
    :class:`~.bootstrap.GroupedOuterPairs` where :data:`agreekit.runtime.GROUPED_CROSS_COUNTS` chooses it
    (Pyodide) and its integers are exact (the same bits as the dense product), else the dense matrix."""
    sizes = np.diff(objects.offsets).astype(float)
    if not (runtime.GROUPED_CROSS_COUNTS and boot.exact_in_any_order(sizes)):
        return boot.DensePairs(boot.outer_pair_matrix(sizes) - same_item_pair_counts(objects))
    runs = object_runs(objects.offsets, objects.annotator_of)   # one run per nonzero n_ia
    by_annotator = np.argsort(runs.annotator, kind="stable")
    group_start = np.flatnonzero(np.diff(runs.annotator[by_annotator], prepend=-1)).astype(np.intp)
    return boot.GroupedOuterPairs(sizes, runs.item[by_annotator], runs.size[by_annotator], group_start)


def products_within_groups(group, key, weight, n_keys):
    """The (n_keys × n_keys) Σ_g w_r w_s over ordered pairs of entries r, s of one group g, at (key_r, key_s).

    Entries are sorted by ``group``.  The pairs are formed a few groups at a
    time, about ``GROUP_PAIRS`` at once; no key repeats within a group, so a
    longer group alone has at most n_keys² pairs (one output's worth).
    """
    out = np.zeros(n_keys * n_keys)
    starts = np.flatnonzero(np.concatenate([[True], group[1:] != group[:-1]])) if len(group) else np.zeros(0, np.intp)
    sizes = np.diff(np.concatenate([starts, [len(group)]])).astype(np.intp)
    pair_ends = np.cumsum(sizes * sizes)
    first = 0
    while first < len(starts):
        last = max(first + 1, int(np.searchsorted(pair_ends, pair_ends[first] - sizes[first] ** 2 + GROUP_PAIRS,
                                                  side="right")))
        r, s = _pairs_within(starts[first:last], sizes[first:last])
        out += np.bincount(key[r] * n_keys + key[s], weight[r] * weight[s], n_keys * n_keys)
        first = last
    return out.reshape(n_keys, n_keys)


def _pairs_within(starts, sizes):
    """Entry indices (r, s) of every ordered pair within each group (its first entry ``starts[g]``, ``sizes[g]`` long)."""
    squares = sizes * sizes
    group = np.repeat(np.arange(len(sizes), dtype=np.intp), squares)
    position = np.arange(int(squares.sum()), dtype=np.intp) - np.repeat(np.cumsum(squares) - squares, squares)
    return starts[group] + position // sizes[group], starts[group] + position % sizes[group]


def exact_baseline(sums, objects, pooled_sum):
    """The :class:`CrossBaseline` of a fully streamed :class:`CrossSums`."""
    total, per_annotator, per_pair = exact_counts(objects)
    pair_sums = None
    if sums.pairs is not None:
        pair_sums = sums.pairs + sums.pairs.T
        np.fill_diagonal(pair_sums, 0.0)
    return CrossBaseline(pooled_sum - float(sums.same.sum()), total, sums.by_annotator - 2.0 * sums.same,
                         per_annotator, pair_sums, per_pair, run_pair_sums(sums))


def sampled_baseline(sums, first, second, d):
    """The :class:`CrossBaseline` of sampled pairs: sums and counts over the sampled cross pairs."""
    a = sums.n_annotators
    ann_1, ann_2 = sums.annotator_of[first], sums.annotator_of[second]
    cross = ann_1 != ann_2
    per_annotator = (np.bincount(ann_1[cross], minlength=a) + np.bincount(ann_2[cross], minlength=a)).astype(float)
    pair_sums = pair_counts = None
    if sums.pairs is not None:
        pair_sums = sums.pairs + sums.pairs.T
        np.fill_diagonal(pair_sums, 0.0)
        pair_counts = np.bincount(ann_1[cross] * a + ann_2[cross], minlength=a * a).reshape(a, a).astype(float)
        pair_counts = pair_counts + pair_counts.T
    return CrossBaseline(float(d[cross].sum()), float(cross.sum()), sums.by_annotator - 2.0 * sums.same,
                         per_annotator, pair_sums, pair_counts)
