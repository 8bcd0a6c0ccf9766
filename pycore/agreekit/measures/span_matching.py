"""One-to-one matchings of two annotators' text spans, given as arrays.

Spans are half-open character offsets ``[start, end)`` with integer label ids
(:class:`Track`).  On two annotators' spans A and B this module gives (|A| × |B|)
relations — the characters shared (:func:`overlap`), the five-way kind
(:func:`pair_kinds`), partial agreement (:func:`partial_graph`, and Potato's
:func:`potato_agreement`) — and the one-to-one matchings built on them: maximum
(:func:`maximum_matching`), lexicographic five-way (:func:`five_way_matching`)
and Potato's first-fit in row order (:func:`first_fit`).  :class:`ItemLayout`
says where each annotator's spans sit in an item's track and cuts its annotator
pairs into :class:`PairBlock` s of at most ``CELL_BUDGET`` span × span cells.
The measures and their definitions are in :mod:`agreekit.measures.span_outcomes`.

References
----------
Crouse, D. F. (2016). On implementing 2D rectangular assignment algorithms.
IEEE Transactions on Aerospace and Electronic Systems 52(4), 1679–1696
(``scipy.optimize.linear_sum_assignment``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..arrays import safe_ratio
from ..runtime import linear_sum_assignment

OUTCOMES = ("exact", "label_only", "boundary_only", "both", "missed_a", "missed_b")
EXACT, LABEL_ONLY, BOUNDARY_ONLY, BOTH = range(4)  # indices into OUTCOMES of the matched kinds
NONE = -1  # kind of two spans that are never paired
# Lexicographic weights K³, K², K, 1 stay exact integers in float64 while
# min(|A|, |B|)·K³ < 2⁵³, i.e. K < 9,700; larger would not fit in memory anyway.
MAX_SPANS_PER_ANNOTATOR = 9000
# Span × span cells (and, divided by PAIR_CELLS, annotator pairs) compared at once.  An item's
# pairs are scored in blocks of this size, so memory stays bounded however many annotators read it;
# every pair is matched on its own, so the blocks change no number.
CELL_BUDGET = 1 << 21
PAIR_CELLS = 16


class TooManySpans(ValueError):
    """Two annotators with more spans on one item than the five-way weights order exactly."""


@dataclass(frozen=True)
class Track:
    """Spans as arrays (label ids index the corpus label list): one annotator's, or an item's."""

    start: np.ndarray
    end: np.ndarray
    label: np.ndarray

    @classmethod
    def of(cls, spans, label_ids):
        """The track of ``spans``, records with ``start``, ``end`` and ``label``; ``label_ids`` maps labels to ids."""
        return cls(np.array([s.start for s in spans], dtype=np.intp),
                   np.array([s.end for s in spans], dtype=np.intp),
                   np.array([label_ids[s.label] for s in spans], dtype=np.intp))

    def __len__(self):
        return len(self.start)

    def part(self, lo, hi):
        """Spans ``lo:hi`` as a track."""
        return Track(self.start[lo:hi], self.end[lo:hi], self.label[lo:hi])


class Matching(NamedTuple):
    """A one-to-one matching: span ``rows[k]`` of A with span ``cols[k]`` of B."""

    rows: np.ndarray
    cols: np.ndarray


class OutcomeMatching(NamedTuple):
    """A five-way matching: matched spans and the kind of each pair (EXACT … BOTH)."""

    rows: np.ndarray
    cols: np.ndarray
    outcome: np.ndarray


class FiveWay(NamedTuple):
    """The five-way comparison of two annotators: matches, their kinds, and the spans left over."""

    rows: np.ndarray
    cols: np.ndarray
    outcome: np.ndarray
    missed_a: np.ndarray
    missed_b: np.ndarray


# --------------------------------------------------------------------------- an item's annotator pairs

class PairBlock(NamedTuple):
    """Annotators ``lo..hi−1`` against every later annotator of an item: the spans compared and the pairs.

    ``rows`` are the spans of annotators lo..hi−1, ``cols`` those of the
    annotators after lo; relations are (rows × cols) matrices in local indices.
    """

    lo: int
    rows: slice
    cols: slice
    first: np.ndarray  # annotators of each pair
    second: np.ndarray
    row_owner: np.ndarray  # annotator of each row span and of each column span
    col_owner: np.ndarray
    pair_start: np.ndarray  # pair_start[i − lo]: index of the block's first pair (i, ·)

    def pair_of(self, rows, cols):
        """The block's pair of each edge between local row span ``rows[e]`` and local column span ``cols[e]``."""
        first, second = self.row_owner[rows], self.col_owner[cols]
        return self.pair_start[first - self.lo] + second - first - 1

    def local(self, span_slice, side):
        """A slice of the track in the local indices of ``side`` (``rows`` or ``cols``)."""
        return slice(span_slice.start - side.start, span_slice.stop - side.start)


class ItemLayout(NamedTuple):
    """Where each annotator's spans sit in an item's track, and where each annotator's pairs start."""

    offsets: np.ndarray  # (m + 1,) annotator k's spans at offsets[k]:offsets[k+1]
    owner: np.ndarray  # annotator of each span
    pair_start: np.ndarray  # (m + 1,) pairs (i, ·) are pair_start[i]:pair_start[i+1], in pair order

    @classmethod
    def of(cls, offsets):
        """The layout of an item whose annotator k has spans ``offsets[k]:offsets[k+1]``."""
        offsets = np.asarray(offsets, dtype=np.intp)
        m = len(offsets) - 1
        later = m - 1 - np.arange(m, dtype=np.intp)  # pairs (i, j) with j > i
        # int64: m(m − 1)/2 outgrows a 32-bit intp (Pyodide) before memory does.
        return cls(offsets, np.repeat(np.arange(m, dtype=np.intp), np.diff(offsets)),
                   np.concatenate([[0], np.cumsum(later, dtype=np.int64)]))

    def spans(self, k):
        """The slice of annotator k's spans."""
        return slice(int(self.offsets[k]), int(self.offsets[k + 1]))

    def blocks(self):
        """Blocks of first annotators whose (rows × cols) cells fit ``CELL_BUDGET`` (at least one annotator)."""
        m, n_spans = len(self.offsets) - 1, int(self.offsets[-1])
        lo = 0
        while lo < m - 1:
            n_cols = n_spans - int(self.offsets[lo + 1])
            hi_cells = np.searchsorted(self.offsets, self.offsets[lo] + CELL_BUDGET // max(n_cols, 1), "right") - 1
            hi_pairs = np.searchsorted(self.pair_start, self.pair_start[lo] + CELL_BUDGET // PAIR_CELLS, "right") - 1
            hi = min(max(int(min(hi_cells, hi_pairs)), lo + 1), m - 1)
            yield self._block(lo, hi)
            lo = hi

    def _block(self, lo, hi):
        m = len(self.offsets) - 1
        # A block's pair count fits intp (it is bounded by the budget); np.repeat wants intp counts.
        first = np.repeat(np.arange(lo, hi, dtype=np.intp), np.diff(self.pair_start[lo:hi + 1]).astype(np.intp))
        pair_start = (self.pair_start[lo:hi] - self.pair_start[lo]).astype(np.intp)
        second = first + 1 + np.arange(len(first), dtype=np.intp) - pair_start[first - lo]
        rows = slice(int(self.offsets[lo]), int(self.offsets[hi]))
        cols = slice(int(self.offsets[lo + 1]), int(self.offsets[m]))
        return PairBlock(lo, rows, cols, first, second, self.owner[rows], self.owner[cols], pair_start)

    def times_compared(self, block):
        """Per span, the pairs of ``block`` it is in (as A in (i, ·) for i in the block, as B otherwise)."""
        k = np.arange(len(self.offsets) - 1, dtype=np.intp)
        hi = block.lo + len(block.pair_start)
        as_first = np.where((k >= block.lo) & (k < hi), len(k) - 1 - k, 0)
        as_second = np.clip(np.minimum(k, hi) - block.lo, 0, None)
        return (as_first + as_second)[self.owner]


# --------------------------------------------------------------------------- two sets of spans

def overlap(a, b):
    """Characters shared by each span of ``a`` and each span of ``b``.

    Parameters
    ----------
    a, b : Track

    Returns
    -------
    np.ndarray
        (|a| × |b|) integers, ``max(min(end) − max(start), 0)``.
    """
    lo = np.maximum(a.start[:, None], b.start[None, :])
    hi = np.minimum(a.end[:, None], b.end[None, :])
    return np.maximum(hi - lo, 0)


def pair_kinds(a, b, shared=None):
    """The five-way kind of every pair of spans.

    Parameters
    ----------
    a, b : Track
    shared : np.ndarray, optional
        :func:`overlap` of ``a`` and ``b``, if already known.

    Returns
    -------
    np.ndarray
        (|a| × |b|): EXACT (same start, end, label), LABEL_ONLY (same start
        and end), BOUNDARY_ONLY (same label, sharing ≥ 1 character), BOTH
        (sharing ≥ 1 character), NONE otherwise.

    References
    ----------
    Segura-Bedmar, Martínez & Herrero-Zazo (2013), SemEval-2013 Task 9, and
    nervaluate's scenarios, split so that each kind points to one remedy.
    """
    shared = overlap(a, b) if shared is None else shared
    same_bounds = (a.start[:, None] == b.start[None, :]) & (a.end[:, None] == b.end[None, :])
    other_label = (a.label[:, None] != b.label[None, :]).astype(np.int8)
    # same boundaries: EXACT (0) or LABEL_ONLY (1); else touching: BOUNDARY_ONLY (2) or BOTH (3)
    return np.where(same_bounds, other_label, np.where(shared > 0, BOUNDARY_ONLY + other_label, NONE))


def partial_graph(a, b, shared=None):
    """Which pairs of spans agree partially.

    Same label, and equal start and end, or overlap > 0 with 2·overlap ≥ the
    length of either span (the integer form of overlap/length ≥ 0.5).  Equal
    spans always agree, zero-length ones included, so every exact match is a
    partial match.

    Parameters
    ----------
    a, b : Track
    shared : np.ndarray, optional
        :func:`overlap` of ``a`` and ``b``, if already known.

    Returns
    -------
    np.ndarray
        (|a| × |b|) booleans.
    """
    shared = overlap(a, b) if shared is None else shared
    same_label = a.label[:, None] == b.label[None, :]
    half = (2 * shared >= (a.end - a.start)[:, None]) | (2 * shared >= (b.end - b.start)[None, :])
    equal = (a.start[:, None] == b.start[None, :]) & (a.end[:, None] == b.end[None, :])
    return same_label & ((shared > 0) & half | equal)


def f1(tp, n_a, n_b):
    """F1 = 2TP/(|A| + |B|) (= 2PR/(P + R)); 1 when both marked nothing, 0 when TP = 0.

    Parameters
    ----------
    tp, n_a, n_b : int or np.ndarray
        Matched pairs and the two annotators' numbers of spans, per pair.

    Returns
    -------
    np.ndarray
        F1 per pair (a 0-d array for numbers).
    """
    tp, total = np.asarray(tp, dtype=float), np.asarray(n_a + n_b)
    return np.where(total == 0, 1.0, safe_ratio(2.0 * tp, total))


def maximum_matching(graph):
    """A maximum one-to-one matching in a boolean bipartite graph.

    Parameters
    ----------
    graph : np.ndarray
        (|A| × |B|) booleans, True where two spans may be matched.

    Returns
    -------
    Matching
    """
    if graph.size == 0:
        return Matching(np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp))
    rows, cols = linear_sum_assignment(graph, maximize=True)
    keep = graph[rows, cols]
    return Matching(rows[keep], cols[keep])


def five_way_matching(kinds):
    """The five-way matching of two annotators from their :func:`pair_kinds` matrix.

    Spans are matched one-to-one maximizing the number of EXACT pairs, then of
    LABEL_ONLY, BOUNDARY_ONLY and BOTH pairs (lexicographically): a
    maximum-weight assignment with weights K³, K², K, 1 for K = min(|A|, |B|) + 1,
    larger than any count.  Pairs of kind NONE are never matched.

    Parameters
    ----------
    kinds : np.ndarray
        (|A| × |B|) kinds from :func:`pair_kinds`.

    Returns
    -------
    OutcomeMatching

    Raises
    ------
    TooManySpans
        When min(|A|, |B|) ≥ ``MAX_SPANS_PER_ANNOTATOR``.

    References
    ----------
    Crouse, D. F. (2016). On implementing 2D rectangular assignment
    algorithms. IEEE Trans. Aerospace and Electronic Systems 52(4), 1679–1696
    (``scipy.optimize.linear_sum_assignment``).
    """
    if kinds.size == 0:
        empty = np.zeros(0, dtype=np.intp)
        return OutcomeMatching(empty, empty, empty)
    k = float(min(kinds.shape) + 1)
    if k > MAX_SPANS_PER_ANNOTATOR:
        raise TooManySpans(f"more than {MAX_SPANS_PER_ANNOTATOR} spans by each of two annotators on one item")
    weight = np.array([k ** 3, k ** 2, k, 1.0, 0.0])[kinds]  # NONE = −1 picks the trailing 0
    rows, cols = linear_sum_assignment(weight, maximize=True)
    keep = weight[rows, cols] > 0
    rows, cols = rows[keep], cols[keep]
    return OutcomeMatching(rows, cols, kinds[rows, cols].astype(np.intp))


def five_way(a, b):
    """The five-way comparison of two annotators' spans (see :func:`five_way_matching`).

    Parameters
    ----------
    a, b : Track

    Returns
    -------
    FiveWay
        Matched span indices, the outcome of each matched pair, and the
        indices of the spans of ``a`` and of ``b`` left without a partner.
    """
    rows, cols, outcome = five_way_matching(pair_kinds(a, b))
    return FiveWay(rows, cols, outcome, np.setdiff1d(np.arange(len(a)), rows),
                   np.setdiff1d(np.arange(len(b)), cols))


def potato_agreement(a, b, shared=None):
    """Potato's partial agreement of two spans.

    Same label, overlap > 0, both spans of positive length, and
    2·overlap ≥ the length of either.  Parameters and result as :func:`partial_graph`.

    References
    ----------
    Potato 2.8's span agreement; ``docs/potato-differences.md``.
    """
    shared = overlap(a, b) if shared is None else shared
    len_a = (a.end - a.start)[:, None]
    len_b = (b.end - b.start)[None, :]
    return ((a.label[:, None] == b.label[None, :]) & (shared > 0) & (len_a > 0) & (len_b > 0)
            & ((2 * shared >= len_a) | (2 * shared >= len_b)))


def first_fit(agree):
    """Potato's first-fit matching: each row, in order, takes the first free column it agrees with.

    Not a maximum matching: the order of the spans can change the result.

    Parameters
    ----------
    agree : np.ndarray
        (|A| × |B|) booleans.

    Returns
    -------
    Matching

    References
    ----------
    Potato 2.8's span agreement; ``docs/potato-differences.md``.
    """
    taken = set()
    rows, cols = [], []
    for i, row in enumerate(agree.tolist()):
        for j, ok in enumerate(row):
            if ok and j not in taken:
                taken.add(j)
                rows.append(i)
                cols.append(j)
                break
    return Matching(np.array(rows, dtype=np.intp), np.array(cols, dtype=np.intp))


def potato_partial_matches(a, b):
    """Potato's partial matching of two annotators' spans: :func:`first_fit` on :func:`potato_agreement`.

    Parameters
    ----------
    a, b : Track

    Returns
    -------
    Matching

    References
    ----------
    Potato 2.8's span agreement; ``docs/potato-differences.md``.
    """
    return first_fit(potato_agreement(a, b))
