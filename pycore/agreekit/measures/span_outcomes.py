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
from .span_matching import (BOTH, EXACT, LABEL_ONLY, OUTCOMES, Matching, f1, first_fit, five_way_matching,
                            maximum_matching, overlap, pair_kinds, partial_graph, potato_agreement)


class ItemScore(NamedTuple):
    """Every annotator pair of one item.

    Pairs are ``(i, j)``, i < j, indices into the item's annotators.  Span
    indices refer to the item's track.  ``counts`` is (pairs × 6) in
    the order of ``OUTCOMES``; ``rows, cols, outcome, pair`` list the five-way
    matches; ``partial_rows`` the A side of the partial matches; ``exact_tp``
    and ``exact_total`` the label ids that exact F1 counts (as TP, twice per
    match, and in |A| + |B|).
    """

    pairs: list
    exact_f1: np.ndarray
    partial_f1: np.ndarray
    counts: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    outcome: np.ndarray
    pair: np.ndarray
    partial_rows: np.ndarray
    exact_tp: np.ndarray
    exact_total: np.ndarray


class _Layout(NamedTuple):
    """Where each annotator's spans sit in an item's track, and the item's annotator pairs."""

    offsets: list
    sizes: np.ndarray  # spans per annotator
    owner: np.ndarray  # annotator of each span
    pairs: list  # (i, j), i < j
    pair_of: np.ndarray  # (m × m) index of pair (i, j) in ``pairs``, −1 elsewhere
    n_a: np.ndarray  # spans of the first annotator of each pair
    n_b: np.ndarray

    @classmethod
    def of(cls, offsets):
        m = len(offsets) - 1
        sizes = np.diff(offsets)
        pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
        pair_of = np.full((m, m), -1, dtype=np.intp)
        for p, (i, j) in enumerate(pairs):
            pair_of[i, j] = p
        n_a = sizes[[i for i, _ in pairs]] if pairs else np.zeros(0, dtype=np.intp)
        n_b = sizes[[j for _, j in pairs]] if pairs else np.zeros(0, dtype=np.intp)
        return cls(offsets, sizes, np.repeat(np.arange(m), sizes), pairs, pair_of, n_a, n_b)

    def block(self, k):
        """The slice of annotator k's spans."""
        return slice(self.offsets[k], self.offsets[k + 1])

    def pair_index(self, rows, cols):
        """The pair of each edge between span ``rows[e]`` and span ``cols[e]``."""
        return self.pair_of[self.owner[rows], self.owner[cols]]


def _match_pairs(edges, layout, solve):
    """One-to-one matchings of every annotator pair of an item, from one (spans × spans) edge matrix.

    A pair whose edges already form a matching (no span has two partners in
    the other annotator) takes all its edges: any optimal matching uses them
    all.  Only the other pairs call ``solve(block_a, block_b)``, which returns
    a block-local :class:`Matching`.  Returns a global :class:`Matching`.
    """
    owner, m = layout.owner, len(layout.offsets) - 1
    edges = edges & (owner[:, None] < owner[None, :])  # each pair once, A before B
    membership = (owner[:, None] == np.arange(m)[None, :]).astype(float)  # spans × annotators
    weights = edges.astype(float)
    crowded = np.zeros((m, m), dtype=bool)
    span, other = np.nonzero(weights @ membership > 1)  # a span of A with two partners in B
    crowded[owner[span], other] = True
    span, other = np.nonzero(weights.T @ membership > 1)  # a span of B with two partners in A
    crowded[other, owner[span]] = True
    if crowded.any():
        edges &= ~np.repeat(np.repeat(crowded, layout.sizes, axis=0), layout.sizes, axis=1)
    rows, cols = np.nonzero(edges)
    rows, cols = [rows], [cols]
    for i, j in zip(*np.nonzero(crowded)):
        block_a, block_b = layout.block(i), layout.block(j)
        found = solve(block_a, block_b)
        rows.append(found.rows + block_a.start)
        cols.append(found.cols + block_b.start)
    return Matching(np.concatenate(rows).astype(np.intp), np.concatenate(cols).astype(np.intp))


class _F1Scores(NamedTuple):
    """The F1 part of :class:`ItemScore`."""

    exact_f1: np.ndarray
    partial_f1: np.ndarray
    partial_rows: np.ndarray
    exact_tp: np.ndarray
    exact_total: np.ndarray


def _optimal_f1(track, shared, layout, exact_matches, exact_tp_per_pair):
    """Exact F1 from the five-way EXACT matches; partial F1 from maximum matchings."""
    graph = partial_graph(track, track, shared)
    partial = _match_pairs(graph, layout, lambda a, b: maximum_matching(graph[a, b]))
    partial_tp = np.bincount(layout.pair_index(partial.rows, partial.cols), minlength=len(layout.pairs))
    return _F1Scores(f1(exact_tp_per_pair, layout.n_a, layout.n_b), f1(partial_tp, layout.n_a, layout.n_b),
                     partial.rows, np.repeat(track.label[exact_matches], 2),
                     np.repeat(track.label, len(layout.offsets) - 2))


def _potato_f1(tp, n_a, n_b):
    """Potato's F1 = 2PR/(P + R) with P = TP/|A|, R = TP/|B|; an empty side has P or R = 0, not undefined."""
    if n_a == 0 and n_b == 0:
        return 1.0
    precision = tp / n_a if n_a else 0.0
    recall = tp / n_b if n_b else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _potato_f1s(track, shared, layout):
    """Potato's: exact F1 on sets of (start, end, label), partial F1 by first-fit in row order."""
    exact_f1, partial_f1, exact_tp, exact_total, partial_rows = [], [], [], [], []
    agree = potato_agreement(track, track, shared)
    keys = list(zip(track.start.tolist(), track.end.tolist(), track.label.tolist()))
    sets = [set(keys[layout.block(k)]) for k in range(len(layout.offsets) - 1)]
    for i, j in layout.pairs:
        common = [label for _, _, label in sets[i] & sets[j]]
        exact_f1.append(_potato_f1(len(common), len(sets[i]), len(sets[j])))
        exact_tp.extend(common * 2)
        exact_total.extend([label for _, _, label in sets[i]] + [label for _, _, label in sets[j]])
        rows = first_fit(agree[layout.block(i), layout.block(j)]).rows
        partial_f1.append(_potato_f1(len(rows), layout.sizes[i], layout.sizes[j]))
        partial_rows.append(rows + layout.offsets[i])
    return _F1Scores(np.array(exact_f1), np.array(partial_f1),
                     np.concatenate(partial_rows) if partial_rows else np.zeros(0, dtype=np.intp),
                     np.array(exact_tp, dtype=np.intp), np.array(exact_total, dtype=np.intp))


def score_item(track, offsets, match="optimal"):
    """Five-way table and exact / partial F1 of every annotator pair of one item.

    The five-way kinds and the partial graph are computed once for all the
    item's spans; each pair is a block of them.

    Parameters
    ----------
    track : Track
        The item's spans, annotator k's at ``offsets[k]:offsets[k+1]``.
    offsets : list of int
        Length m + 1 for m annotators, starting at 0.
    match : {"optimal", "potato"}
        Maximum matchings, or Potato 2.8's set and first-fit rules for F1.
        The five-way table is the same in both.

    Returns
    -------
    ItemScore

    Raises
    ------
    ~agreekit.measures.span_matching.TooManySpans
        See :func:`~agreekit.measures.span_matching.five_way_matching`.

    References
    ----------
    Definitions: this module and ``docs/spans.md``; the ``potato`` rules:
    ``docs/potato-differences.md``.
    """
    layout = _Layout.of(offsets)
    shared = overlap(track, track)
    kinds = pair_kinds(track, track, shared)
    matches = _match_pairs(kinds >= 0, layout, lambda a, b: five_way_matching(kinds[a, b]))
    order = np.lexsort((matches.rows, layout.pair_index(matches.rows, matches.cols)))
    rows, cols = matches.rows[order], matches.cols[order]
    outcome = kinds[rows, cols].astype(np.intp)
    pair = layout.pair_index(rows, cols)
    n_pairs = len(layout.pairs)
    matched = np.bincount(pair * 4 + outcome, minlength=4 * n_pairs).reshape(n_pairs, 4)
    n_matched = matched.sum(axis=1)
    counts = np.concatenate([matched, (layout.n_a - n_matched)[:, None], (layout.n_b - n_matched)[:, None]],
                            axis=1)
    if match == "potato":
        scores = _potato_f1s(track, shared, layout)
    else:
        scores = _optimal_f1(track, shared, layout, rows[outcome == EXACT], matched[:, EXACT])
    return ItemScore(layout.pairs, scores.exact_f1, scores.partial_f1, counts, rows, cols, outcome, pair,
                     scores.partial_rows, scores.exact_tp, scores.exact_total)


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


def label_outcomes(label_names, label_a, label_b, kind, compared):
    """The five-way table per label, counted in spans, with label confusions.

    A matched pair adds its outcome to the label of each of its two spans; a
    span compared but left unmatched is missed.

    Parameters
    ----------
    label_names : list of str
    label_a, label_b, kind : np.ndarray
        Label ids of the two spans and the outcome of every matched pair.
    compared : np.ndarray
        The label id of every span once per annotator it was compared with.

    Returns
    -------
    list of dict
        Per label: ``label, n_spans``, the counts and ``shares`` of
        exact, label_only, boundary_only, both, missed, and ``confused_with``
        (the other label of label_only and both pairs, most frequent first).
    """
    n = len(label_names)
    table = np.zeros((n, 5), dtype=np.intp)
    np.add.at(table, (label_a, kind), 1)
    np.add.at(table, (label_b, kind), 1)
    table[:, 4] = np.bincount(compared, minlength=n) - table[:, :4].sum(axis=1)
    mismatch = (kind == LABEL_ONLY) | (kind == BOTH)
    confusion = np.zeros((n, n), dtype=np.intp)
    np.add.at(confusion, (label_a[mismatch], label_b[mismatch]), 1)
    np.add.at(confusion, (label_b[mismatch], label_a[mismatch]), 1)
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


def pooled_label_f1(n_labels, exact_tp, exact_total, partial_tp, compared):
    """Exact and partial F1 per label, pooled over items and pairs: 2·TP_L / Σ(|A_L| + |B_L|).

    Parameters
    ----------
    n_labels : int
    exact_tp, partial_tp : np.ndarray
        The label id of each matched span (twice per match).
    exact_total, compared : np.ndarray
        The label id of each span once per pair it was compared in.

    Returns
    -------
    LabelF1
    """
    exact = safe_ratio(np.bincount(exact_tp, minlength=n_labels), np.bincount(exact_total, minlength=n_labels))
    partial = safe_ratio(np.bincount(partial_tp, minlength=n_labels), np.bincount(compared, minlength=n_labels))
    return LabelF1(exact, partial)


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
