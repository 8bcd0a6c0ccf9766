"""Agreement of text spans per item: exact and partial F1 and the five-way outcome table.

Spans are half-open character offsets ``[start, end)`` with integer label ids
(:class:`~agreekit.measures.span_matching.Track`); an item's annotators are
consecutive blocks of one track, annotator k's spans at ``offsets[k]:offsets[k+1]``.
For two annotators A and B with |A| and |B| spans on one item:

* **exact F1**: a span of A and a span of B agree when start, end and label are
  equal; TP is the size of a one-to-one matching of agreeing spans (a
  duplicate needs its own partner), F1 = 2TP/(|A| + |B|) (= 2PR/(P + R) with
  P = TP/|A|, R = TP/|B|); 1 when both marked nothing, 0 when TP = 0.
* **partial F1**: two spans agree when they have the same label and either
  have equal start and end, or share at least one character (overlap > 0)
  with 2·overlap ≥ the length of either span (overlap ≥ half of either,
  inclusive).  TP is a *maximum* one-to-one matching of agreeing spans
  (``scipy.optimize.linear_sum_assignment``), so the order of the spans cannot
  change it; every exact match is a partial match.
* **the five-way table**: the two annotators' spans are matched one-to-one
  preferring, lexicographically, the earlier kinds of

  ==============  =====================================================
  exact           same start, end and label
  label_only      same start and end, different label
  boundary_only   same label, sharing ≥ 1 character, other boundaries
  both            sharing ≥ 1 character, other boundaries and label
  missed_a, _b    left without a partner (marked only by A / only by B)
  ==============  =====================================================

  so 2·(exact + label_only + boundary_only + both) + missed_a + missed_b
  = |A| + |B|.  The scenarios are those of nervaluate after SemEval-2013
  Task 9, split so that each outcome points to one remedy.
* an item's pairs are scored block by block (:func:`score_pairs`), so memory
  is bounded however many annotators read it; blocks change no number.
* per item, each F1 is the mean over the item's annotator pairs; over a corpus,
  the unweighted mean over items, undefined items skipped (as Potato's
  ``_aggregate_span``), and bootstrapped by reweighting items.

``match="potato"`` reproduces Potato 2.8: exact F1 on *sets* of spans (a
duplicate collapses), partial agreement only between spans of positive length
(so two equal zero-length spans are not a partial match), and first-fit
partial matching in row order (``docs/potato-differences.md``).  The
five-way table is the same in both modes.  Character-level α is in
:mod:`agreekit.measures.span_characters`.

References
----------
Segura-Bedmar, I., Martínez, P. & Herrero-Zazo, M. (2013). SemEval-2013 Task 9:
Extraction of drug-drug interactions from biomedical texts (DDIExtraction 2013).
Proc. 7th International Workshop on Semantic Evaluation (SemEval 2013), 341–350.
nervaluate, https://github.com/MantisAI/nervaluate (the evaluation scenarios).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..arrays import safe_ratio
from .span_matching import (BOTH, EXACT, LABEL_ONLY, OUTCOMES, ItemLayout, Matching, f1, first_fit,
                            five_way_matching, maximum_matching, overlap, pair_kinds, partial_graph,
                            potato_agreement)


class PairScores(NamedTuple):
    """A block of an item's annotator pairs ``(first[p], second[p])``, first < second, in pair order.

    Annotators are indices into the item's annotators, spans indices into its
    track.  ``counts`` is (pairs × 6) in the order of ``OUTCOMES``;
    ``rows, cols, outcome, pair`` list the five-way matches (``pair`` indexes
    this block's pairs).  Per label id: ``exact_tp`` the spans exact F1 counts
    as matched (two per match), ``exact_total`` those in its |A| + |B|,
    ``partial_tp`` those partial F1 counts as matched, ``compared`` every span
    once per pair of the block it is in.
    """

    first: np.ndarray
    second: np.ndarray
    exact_f1: np.ndarray
    partial_f1: np.ndarray
    counts: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    outcome: np.ndarray
    pair: np.ndarray
    exact_tp: np.ndarray
    exact_total: np.ndarray
    partial_tp: np.ndarray
    compared: np.ndarray

    @property
    def pairs(self):
        """The pairs as ``(first, second)`` tuples."""
        return list(zip(self.first.tolist(), self.second.tolist()))


def _twice(span, partner_owner):
    """Where ``span[e]`` has the same partner annotator as ``span[e − 1]``: a span with two partners.

    Edges must come sorted by span, then by partner (so by partner annotator).
    """
    return (span[1:] == span[:-1]) & (partner_owner[1:] == partner_owner[:-1])


def _match_pairs(edges, block, spans_of, solve):
    """One-to-one matchings of every annotator pair of a block, from its (rows × cols) edge matrix.

    A pair whose edges already form a matching (no span has two partners in
    the other annotator) takes all its edges: any optimal matching uses them
    all.  Only the other, crowded, pairs call ``solve(local_a, local_b)``,
    which returns a :class:`Matching` local to the two annotators' slices
    (``spans_of(k)`` is annotator k's).  Returns a :class:`Matching` in the
    block's local indices.
    """
    rows, cols = np.nonzero(edges)  # sorted by row, then column
    cols_t, rows_t = np.nonzero(edges.T)  # sorted by column, then row
    twice, twice_t = _twice(rows, block.col_owner[cols]), _twice(cols_t, block.row_owner[rows_t])
    crowded = np.zeros(len(block.first), dtype=bool)
    crowded[block.pair_of(rows[1:][twice], cols[1:][twice])] = True
    crowded[block.pair_of(rows_t[1:][twice_t], cols_t[1:][twice_t])] = True
    free = ~crowded[block.pair_of(rows, cols)]
    found_rows, found_cols = [rows[free]], [cols[free]]
    for p in np.flatnonzero(crowded).tolist():
        local_a = block.local(spans_of(block.first[p]), block.rows)
        local_b = block.local(spans_of(block.second[p]), block.cols)
        found = solve(local_a, local_b)
        found_rows.append(found.rows + local_a.start)
        found_cols.append(found.cols + local_b.start)
    return Matching(np.concatenate(found_rows).astype(np.intp), np.concatenate(found_cols).astype(np.intp))


class _F1Scores(NamedTuple):
    """The F1 part of :class:`PairScores`."""

    exact_f1: np.ndarray
    partial_f1: np.ndarray
    exact_tp: np.ndarray
    exact_total: np.ndarray
    partial_tp: np.ndarray


def _optimal_f1(a, b, shared, later, block, layout, exact_tp, exact_rows, compared):
    """Exact F1 from the five-way EXACT matches, partial F1 from maximum matchings.

    ``exact_tp``: EXACT matches per pair; ``exact_rows``: their block-local A spans.
    """
    graph = partial_graph(a, b, shared) & later
    partial = _match_pairs(graph, block, layout.spans, lambda x, y: maximum_matching(graph[x, y]))
    n_pairs, n_labels = len(block.first), len(compared)
    partial_tp = np.bincount(block.pair_of(partial.rows, partial.cols), minlength=n_pairs)
    n_a, n_b = np.diff(layout.offsets)[block.first], np.diff(layout.offsets)[block.second]
    # Every span is in |A| + |B| once per pair it is in: exact F1's total is ``compared``.
    return _F1Scores(f1(exact_tp, n_a, n_b), f1(partial_tp, n_a, n_b),
                     2 * np.bincount(a.label[exact_rows], minlength=n_labels), compared,
                     2 * np.bincount(a.label[partial.rows], minlength=n_labels))


def _potato_f1(tp, n_a, n_b):
    """Potato's F1 = 2PR/(P + R) with P = TP/|A|, R = TP/|B|; an empty side has P or R = 0, not undefined."""
    if n_a == 0 and n_b == 0:
        return 1.0
    precision = tp / n_a if n_a else 0.0
    recall = tp / n_b if n_b else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _potato_f1s(track, a, b, shared, block, layout, n_labels):
    """Potato's: exact F1 on sets of (start, end, label), partial F1 by first-fit in row order."""
    exact_f1, partial_f1, exact_tp, exact_total, partial_tp = [], [], [], [], []
    agree = potato_agreement(a, b, shared)
    keys = list(zip(track.start.tolist(), track.end.tolist(), track.label.tolist()))
    sets = {k: set(keys[layout.spans(k)]) for k in range(block.lo, len(layout.offsets) - 1)}
    sizes = np.diff(layout.offsets).tolist()
    for i, j in zip(block.first.tolist(), block.second.tolist()):
        common = [label for _, _, label in sets[i] & sets[j]]
        exact_f1.append(_potato_f1(len(common), len(sets[i]), len(sets[j])))
        exact_tp.extend(common * 2)
        exact_total.extend([label for _, _, label in sets[i]] + [label for _, _, label in sets[j]])
        local_a, local_b = block.local(layout.spans(i), block.rows), block.local(layout.spans(j), block.cols)
        rows = first_fit(agree[local_a, local_b]).rows
        partial_f1.append(_potato_f1(len(rows), sizes[i], sizes[j]))
        partial_tp.extend(a.label[rows + local_a.start].tolist() * 2)
    return _F1Scores(np.array(exact_f1), np.array(partial_f1), *(
        np.bincount(np.array(labels, dtype=np.intp), minlength=n_labels)
        for labels in (exact_tp, exact_total, partial_tp)))


def _score_block(track, layout, block, match, n_labels):
    """Five-way table and exact / partial F1 of the pairs of one block (:class:`PairScores`)."""
    a = track.part(block.rows.start, block.rows.stop)
    b = track.part(block.cols.start, block.cols.stop)
    later = block.row_owner[:, None] < block.col_owner[None, :]  # each pair once, A before B
    shared = overlap(a, b)
    kinds = pair_kinds(a, b, shared)
    rows, cols = _match_pairs((kinds >= 0) & later, block, layout.spans, lambda x, y: five_way_matching(kinds[x, y]))
    pair = block.pair_of(rows, cols)
    outcome = kinds[rows, cols].astype(np.intp)
    n_pairs = len(block.first)
    matched = np.bincount(pair * 4 + outcome, minlength=4 * n_pairs).reshape(n_pairs, 4)
    n_matched = matched.sum(axis=1)
    sizes = np.diff(layout.offsets)
    counts = np.concatenate([matched, (sizes[block.first] - n_matched)[:, None],
                             (sizes[block.second] - n_matched)[:, None]], axis=1)
    compared = np.bincount(track.label, weights=layout.times_compared(block), minlength=n_labels).astype(np.intp)
    if match == "potato":
        scores = _potato_f1s(track, a, b, shared, block, layout, n_labels)
    else:
        scores = _optimal_f1(a, b, shared, later, block, layout, matched[:, EXACT], rows[outcome == EXACT],
                             compared)
    return PairScores(block.first, block.second, scores.exact_f1, scores.partial_f1, counts,
                      rows + block.rows.start, cols + block.cols.start, outcome, pair,
                      scores.exact_tp, scores.exact_total, scores.partial_tp, compared)


def score_pairs(track, offsets, match="optimal", n_labels=None):
    """Five-way table and exact / partial F1 of every annotator pair of one item, block by block.

    The pairs are taken in pair order, in blocks whose span × span relations
    fit ``CELL_BUDGET`` cells, so memory is bounded by the budget and by the
    spans, not by the square of the annotators.  Each pair is matched on its
    own: the blocks change no number.

    Parameters
    ----------
    track : Track
        The item's spans, annotator k's at ``offsets[k]:offsets[k+1]``.
    offsets : list of int
        Length m + 1 for m annotators, starting at 0.
    match : {"optimal", "potato"}
        Maximum matchings, or Potato 2.8's set and first-fit rules for F1.
        The five-way table is the same in both.
    n_labels : int, optional
        Length of the per-label counts (default: the largest label id + 1).

    Yields
    ------
    PairScores
        One per block, in pair order.

    Raises
    ------
    ~agreekit.measures.span_matching.TooManySpans
        See :func:`~agreekit.measures.span_matching.five_way_matching`.

    References
    ----------
    Definitions: this module and ``docs/spans.md``; the ``potato`` rules:
    ``docs/potato-differences.md``.
    """
    layout = ItemLayout.of(offsets)
    for block in layout.blocks():
        yield _score_block(track, layout, block, match, _n_labels(track, n_labels))


def _n_labels(track, n_labels):
    """``n_labels``, or by default the largest label id of ``track`` + 1."""
    if n_labels is not None:
        return n_labels
    return int(track.label.max()) + 1 if len(track) else 0


def score_item(track, offsets, match="optimal", n_labels=None):
    """Every annotator pair of one item as one :class:`PairScores`: :func:`score_pairs`, concatenated.

    For small items and tests; the report folds the blocks one by one.
    Parameters as :func:`score_pairs`.

    Returns
    -------
    PairScores
    """
    blocks = list(score_pairs(track, offsets, match, n_labels))
    if not blocks:  # fewer than two annotators
        empty, counts = np.zeros(0, dtype=np.intp), np.zeros(_n_labels(track, n_labels), dtype=np.intp)
        return PairScores(empty, empty, np.zeros(0), np.zeros(0), np.zeros((0, len(OUTCOMES)), dtype=np.intp),
                          empty, empty, empty, empty, counts, counts, counts, counts)
    pair_offsets = np.cumsum([0] + [len(block.first) for block in blocks[:-1]])
    joined = {field: np.concatenate([getattr(block, field) for block in blocks])
              for field in ("first", "second", "exact_f1", "partial_f1", "counts", "rows", "cols", "outcome")}
    summed = {field: sum(getattr(block, field) for block in blocks)
              for field in ("exact_tp", "exact_total", "partial_tp", "compared")}
    return PairScores(**joined, pair=np.concatenate([block.pair + offset for block, offset
                                                     in zip(blocks, pair_offsets)]), **summed)


# --------------------------------------------------------------------------- tables and corpus means

def _shares(counts, total):
    """Each count's share of ``total``; None when there is nothing to share."""
    return [c / total if total else None for c in counts]


def outcome_row(counts):
    """The six outcome counts of the five-way table with their shares of the spans compared.

    Parameters
    ----------
    counts : sequence of int
        Counts in the order of ``OUTCOMES``.

    Returns
    -------
    dict
        ``{outcome: count, "n_spans": n, "shares": {outcome: share}}`` with
        n = 2·(matched counts) + missed counts; a matched pair's share counts
        its two spans; shares are None when n = 0.
    """
    counts = [int(c) for c in counts]
    spans = [2 * c for c in counts[:4]] + counts[4:]
    n = sum(spans)
    return {**dict(zip(OUTCOMES, counts)), "n_spans": n, "shares": dict(zip(OUTCOMES, _shares(spans, n)))}


class LabelTally(NamedTuple):
    """Per-label counts summed over every pair of every item; :meth:`add` adds a block in place.

    ``matched`` (labels × 4): spans of each label in matched pairs of each
    kind (a pair adds to the labels of both its spans); ``confusion``
    (labels × labels): label_only and both pairs, counted both ways;
    ``compared``, ``exact_tp``, ``exact_total``, ``partial_tp``: the sums of
    the :class:`PairScores` fields of those names.
    """

    matched: np.ndarray
    confusion: np.ndarray
    compared: np.ndarray
    exact_tp: np.ndarray
    exact_total: np.ndarray
    partial_tp: np.ndarray

    @classmethod
    def zeros(cls, n_labels):
        """An empty tally of ``n_labels`` labels."""
        return cls(np.zeros((n_labels, 4), dtype=np.intp), np.zeros((n_labels, n_labels), dtype=np.intp),
                   *(np.zeros(n_labels, dtype=np.intp) for _ in range(4)))

    def add(self, track, scores):
        """Add one block of pairs, ``scores`` (:class:`PairScores`) on the item's ``track``."""
        label_a, label_b = track.label[scores.rows], track.label[scores.cols]
        np.add.at(self.matched, (label_a, scores.outcome), 1)
        np.add.at(self.matched, (label_b, scores.outcome), 1)
        mismatch = (scores.outcome == LABEL_ONLY) | (scores.outcome == BOTH)
        np.add.at(self.confusion, (label_a[mismatch], label_b[mismatch]), 1)
        np.add.at(self.confusion, (label_b[mismatch], label_a[mismatch]), 1)
        for name in ("compared", "exact_tp", "exact_total", "partial_tp"):
            getattr(self, name)[:] += getattr(scores, name)


def label_outcomes(label_names, tally):
    """The five-way table per label, counted in spans, with label confusions.

    A matched pair adds its outcome to the label of each of its two spans; a
    span compared but left unmatched is missed.

    Parameters
    ----------
    label_names : list of str
    tally : LabelTally

    Returns
    -------
    list of dict
        Per label: ``label, n_spans``, the counts and ``shares`` of
        exact, label_only, boundary_only, both, missed, and ``confused_with``
        (the other label of label_only and both pairs, most frequent first).
    """
    table = np.concatenate([tally.matched, (tally.compared - tally.matched.sum(axis=1))[:, None]], axis=1)
    confusion = tally.confusion
    names = ("exact", "label_only", "boundary_only", "both", "missed")
    rows = []
    for k, label in enumerate(label_names):
        counts = table[k].tolist()
        total = int(table[k].sum())
        rows.append({"label": label, "n_spans": total, **dict(zip(names, counts)),
                     "shares": dict(zip(names, _shares(counts, total))),
                     "confused_with": {label_names[m]: int(confusion[k, m])
                                       for m in np.argsort(-confusion[k], kind="stable") if confusion[k, m]}})
    return rows


class LabelF1(NamedTuple):
    """Exact and partial F1 per label id (NaN for a label never compared)."""

    exact: np.ndarray
    partial: np.ndarray


def pooled_label_f1(tally):
    """Exact and partial F1 per label, pooled over items and pairs: 2·TP_L / Σ(|A_L| + |B_L|).

    Parameters
    ----------
    tally : LabelTally

    Returns
    -------
    LabelF1
    """
    return LabelF1(safe_ratio(tally.exact_tp, tally.exact_total), safe_ratio(tally.partial_tp, tally.compared))


def mean_defined(values):
    """The unweighted mean of the finite ``values`` (undefined items skipped), NaN if none.

    Parameters
    ----------
    values : sequence of float

    Returns
    -------
    float
    """
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    return float(finite.mean()) if finite.size else float("nan")


def bootstrap_means(values, counts):
    """Resampled :func:`mean_defined` of per-item ``values`` (NaN = item skipped).

    Parameters
    ----------
    values : sequence of float
        One value per item.
    counts : np.ndarray
        (resamples × items) draw counts from
        :func:`agreekit.measures.bootstrap.resample_counts`.

    Returns
    -------
    np.ndarray
        One mean per resample, NaN where the resample has no defined item.
    """
    values = np.asarray(values, dtype=float)
    defined = np.isfinite(values)
    return safe_ratio(counts @ np.where(defined, values, 0.0), counts @ defined.astype(float))
