"""Text spans: exact and partial F1, character-level α and the five-way disagreement table.

Input rows ``item, annotator, start, end, label`` (half-open character offsets
``[start, end)``) and item lengths or texts, read and checked by
:mod:`agreekit.kinds.spans.rows`.  This module scores every item with two or
more annotators and assembles the report.  The measures — exact and partial
F1 and the five-way table (:mod:`agreekit.measures.span_outcomes`) and
character-level α (:mod:`agreekit.measures.span_characters`) — are defined
there and in ``docs/spans.md``; Potato's behaviour and the deliberate
differences from it are in ``docs/potato-differences.md``.

``match="potato"`` reproduces Potato 2.8: annotators who marked nothing are
dropped, exact F1 uses set semantics (duplicates collapse), partial matching is
first-fit in row order, character labels follow its BIO filling rule, and
items of length 0 are skipped.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ... import options as opts
from ...arrays import name_list
from ...measures.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, percentile_ci, resample_counts
from ...measures.span_characters import item_char_alpha
from ...measures.span_matching import EXACT, OUTCOMES, TooManySpans, Track
from ...measures.span_outcomes import (LabelTally, bootstrap_means, label_outcomes, mean_defined, outcome_row,
                                      pooled_label_f1, score_pairs)
from ...reference.report import reference_part, reference_records
from ...registry import register
from ...results import CI_LEVEL, Report, estimate
from ...rows import InputError
from .alpha_u import span_alpha_u
from .consensus import CONSENSUS
from .detail import DETAIL
from .examples import MAX_EXAMPLES, pair_examples
from .pairs import PairTable
from .reference import five_way, parse_reference, span_records, span_set, without
from .rows import COLUMNS, SYNONYMS, Item, build_items, content_order, read_lengths, read_spans
from .shape import SHAPE
from .text import REFERENCE_COLUMNS, format_spans
from .methods import METHODS

REMEDIES = {
    "exact": "agreement: nothing to fix",
    "label_only": "label definitions: both marked the same text but named it differently",
    "boundary_only": "boundary rules: same entity and label, different extent "
                     "(determiners, titles, punctuation, nesting)",
    "both": "boundary rules and label definitions: overlapping text, different extent and name",
    "missed": "what counts as an entity: one annotator marked text the other left unmarked",
}
PARTIAL_RULE = "same label, and equal or overlapping by at least half of either span"
OUTCOMES_NOTE = ("matched pairs count once, missed spans once per side: "
                 "2·(exact + label_only + boundary_only + both) + missed_a + missed_b = n_spans; "
                 "shares are shares of those spans. Per label, counts are spans.")
# Annotator pairs listed in disagreement.pairs.  Above it the report lists the pairs that share the
# most items and says so; every total, F1 and α still counts every pair (docs/spans.md).
MAX_PAIR_ROWS = 5000


# --------------------------------------------------------------------------- scoring the corpus

class ScoredItem(NamedTuple):
    """An item and the annotators a mode scores on it (in :class:`Item` order)."""

    item: Item
    annotators: list


def _gather(items, match):
    """The annotators each mode scores on each item, and the items it scores.

    Optimal: every annotator with a row, an empty one included; items with ≥ 2
    annotators.  Potato: annotators with ≥ 1 span, items with ≥ 2 such
    annotators and length > 0.  Returns ``([ScoredItem], [(item, annotator) dropped])``.
    """
    scored, dropped = [], []
    for item in items:
        annotators = item.annotators
        if match == "potato":
            dropped.extend((item.name, a) for a in annotators if not item.spans[a])
            annotators = [a for a in annotators if item.spans[a]]
            if item.length <= 0:
                continue
        if len(annotators) >= 2:
            scored.append(ScoredItem(item, annotators))
    return scored, dropped


def _mode_warnings(items, dropped, match):
    """What Potato mode leaves out, as Potato does."""
    warnings = []
    if dropped:
        warnings.append(f"potato mode: {len(dropped)} annotator(s) who read an item and marked nothing "
                        "are left out, as Potato does: "
                        + name_list([f"{annotator} on {item}" for item, annotator in dropped]))
    if match == "potato":
        empty = [item.name for item in items if item.length <= 0 and len(item.spans) >= 2]
        if empty:
            warnings.append(f"potato mode: {len(empty)} item(s) of length 0 are skipped, as Potato does: "
                            + name_list(empty))
    return warnings


@dataclass(frozen=True)
class _Corpus:
    """The corpus labels and annotators, both sorted, and their ids in the arrays."""

    labels: list
    label_ids: dict
    annotators: list
    annotator_ids: dict

    @classmethod
    def of(cls, items):
        labels = sorted({span.label for item in items for ss in item.spans.values() for span in ss})
        annotators = sorted({a for item in items for a in item.spans})
        return cls(labels, {label: k for k, label in enumerate(labels)},
                   annotators, {a: k for k, a in enumerate(annotators)})


class _ItemResult(NamedTuple):
    """One scored item: its report row, its three values and its five-way totals."""

    row: dict
    exact_f1: float
    partial_f1: float
    char_alpha: float  # NaN when undefined
    outcomes: np.ndarray  # (6,) summed over the item's pairs


def _score(scored_item, corpus, match, tally, table):
    """Score one item (:class:`_ItemResult`), adding its pairs to ``tally`` and ``table`` block by block."""
    item, annotators = scored_item
    by_annotator = [_in_order(item.spans[a], match) for a in annotators]
    all_spans = [span for spans in by_annotator for span in spans]
    offsets = np.cumsum([0] + [len(spans) for spans in by_annotator]).tolist()
    track = Track.of(all_spans, corpus.label_ids)
    ids = np.array([corpus.annotator_ids[a] for a in annotators], dtype=np.intp)
    outcomes, exact_f1, partial_f1, examples = np.zeros(len(OUTCOMES), dtype=np.intp), [], [], []
    try:
        for scores in score_pairs(track, offsets, match, len(corpus.labels)):
            outcomes += scores.counts.sum(axis=0)
            exact_f1.append(scores.exact_f1)
            partial_f1.append(scores.partial_f1)
            tally.add(track, scores)
            table.add(ids[scores.first], ids[scores.second], scores)
            examples += pair_examples(item, annotators, all_spans, offsets, scores, MAX_EXAMPLES - len(examples))
    except TooManySpans as error:
        raise InputError(str(error)) from None
    alpha = item_char_alpha(track, offsets, item.length, "potato" if match == "potato" else "optimal",
                            len(corpus.labels) + 1)
    exact, partial = float(np.mean(np.concatenate(exact_f1))), float(np.mean(np.concatenate(partial_f1)))
    return _ItemResult(_item_row(item, annotators, all_spans, outcomes, exact, partial, alpha, examples),
                       exact, partial, alpha.value, outcomes)


def _in_order(spans, match):
    """One annotator's spans in the order they are scored in.

    Optimal mode: by start, end and label, so that nothing in the report, not even which
    disagreements are shown as examples, depends on the order of the rows.  Potato mode keeps
    row order: its first-fit matching depends on it, as Potato's does.
    """
    return spans if match == "potato" else sorted(spans, key=lambda span: (span.start, span.end, span.label))


def _item_row(item, annotators, all_spans, outcomes, exact, partial, alpha, examples):
    """The report row of a scored item."""
    n_disagreements = int(outcomes.sum() - outcomes[EXACT])
    n_compared = 2 * int(outcomes[:4].sum()) + int(outcomes[4:].sum())
    disagreeing = n_compared - 2 * int(outcomes[EXACT])
    return {
        "item": item.name, "length": item.length, "scored": True,
        "annotators": annotators, "n_annotators": len(annotators), "n_spans": len(all_spans),
        "exact_f1": exact, "partial_f1": partial,
        "char_alpha": estimate(alpha.value, reason=alpha.reason, n=item.length),
        # Where nobody marked anything, nothing disagrees: the share is 0, not undefined.
        "disagreement_share": disagreeing / n_compared if n_compared else 0.0,
        "n_disagreements": n_disagreements,
        "n_unmatched": int(outcomes[4:].sum()),
        "outcomes": dict(zip(OUTCOMES, outcomes.tolist())),
        "examples": examples,
    }


def _item_rows(results, items, scored):
    """Scored items, most disagreement first, then the unscored ones with the reason."""
    rows = sorted((result.row for result in results),
                  key=lambda row: (-row["disagreement_share"], -row["n_disagreements"], row["item"]))
    scored_names = {scored_item.item.name for scored_item in scored}
    for item in items:
        if item.name not in scored_names:
            reason = ("a single annotator" if len(item.spans) < 2 else
                      "potato mode: fewer than two annotators with spans, or length 0")
            rows.append({"item": item.name, "length": item.length, "scored": False, "reason": reason,
                         "annotators": item.annotators, "n_annotators": len(item.spans),
                         "n_spans": sum(len(ss) for ss in item.spans.values())})
    return rows


class _Estimates(NamedTuple):
    """The three corpus estimates of the report."""

    exact_f1: dict
    partial_f1: dict
    char_alpha: dict


def _corpus_estimates(results, ranks, bootstrap, seed, progress, ids=None):
    """Exact F1, partial F1 and character-level α, with bootstrap intervals over items (drawn in order ``ranks``;
    ``ids`` the items' names)."""
    if progress is not None and bootstrap:
        progress(0, bootstrap, "bootstrap")
    counts = resample_counts(len(results), bootstrap, seed, ranks, ids) if len(results) >= 2 else np.zeros((0, 0))
    exact = _corpus_estimate([result.exact_f1 for result in results], counts, "exact F1")
    partial = _corpus_estimate([result.partial_f1 for result in results], counts, "partial F1")
    alpha = _corpus_estimate([result.char_alpha for result in results], counts, "character-level α")
    if alpha["value"] is None and results:
        alpha["reason"] = ("character-level α is undefined on every scored item: each has fewer "
                           "than two characters or a single label on every character")
    alpha["name"] = "character-level α"
    if progress is not None and bootstrap:
        progress(bootstrap, bootstrap, "bootstrap")
    return _Estimates(exact, partial, alpha)


def _corpus_estimate(values, counts, what):
    """The mean of the items' defined ``values`` as an estimate; ``counts`` = bootstrap draws."""
    value = mean_defined(values)
    n_defined = int(np.isfinite(np.asarray(values, dtype=float)).sum())
    ci = percentile_ci(bootstrap_means(values, counts)) if counts.size else None
    reason = None
    if not values:
        reason = "no item has two or more annotators"
    elif n_defined == 0:
        reason = f"{what} is undefined on every scored item"
    return estimate(value, ci=ci, reason=reason, n=n_defined)


def span_outcome_counts(counts):
    """The total five-way table counted in spans, as ``disagreement.labels`` counts them, so that its rows sum to it.

    ``counts`` in the order of ``OUTCOMES`` (matched kinds in pairs, missed in spans): a matched pair
    is two spans under its outcome; the missed of either side are one count, ``missed``.
    """
    counts = [int(c) for c in counts]
    spans = {name: 2 * c for name, c in zip(OUTCOMES[:4], counts[:4])}
    spans["missed"] = counts[4] + counts[5]
    return {**spans, "n_spans": sum(spans.values())}


def _disagreement(corpus, tally, table, total):
    """The five-way table in total, per annotator pair (as listed) and per label."""
    return {
        "total": outcome_row(total),
        "spans": span_outcome_counts(total),
        "pairs": table.rows(corpus.annotators),
        "pairs_shown": len(table.keys),
        "n_pairs_total": table.n_pairs_total,
        "labels": label_outcomes(corpus.labels, tally),
        "remedies": REMEDIES,
        "note": OUTCOMES_NOTE,
    }


def _label_scores(items, corpus, tally):
    """Per label: spans, annotators using it, and exact and partial F1 pooled over items and pairs."""
    n = len(corpus.labels)
    spans_per_label = np.zeros(n, dtype=np.intp)
    users = [set() for _ in range(n)]
    for item in items:
        for annotator, ss in item.spans.items():
            for label, count in Counter(span.label for span in ss).items():
                spans_per_label[corpus.label_ids[label]] += count
                users[corpus.label_ids[label]].add(annotator)
    exact, partial = pooled_label_f1(tally)
    return [{"label": label, "n_spans": int(spans_per_label[k]), "n_annotators": len(users[k]),
             "exact_f1": exact[k], "partial_f1": partial[k]} for k, label in enumerate(corpus.labels)]


# --------------------------------------------------------------------------- the report

@register("spans", title="Spans",
          summary="text spans: item, annotator, start, end, label (character offsets [start, end))",
          options=(opts.Option("lengths", "table", "Item lengths or texts",
                               "item,length or item,text rows (a file on the command line)"),
                   opts.MATCH.but(choices=(opts.Choice("optimal", "optimal (order-independent)"),
                                           opts.Choice("potato", "potato (reproduce Potato)"))),
                   opts.BOOTSTRAP, opts.SEED,
                   opts.THRESHOLD.but(label="Span IoU threshold (reference)",
                                      help="with a reference: character IoU at or above which a span matches a "
                                           "reference span"),
                   *opts.REFERENCE_OPTIONS),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_spans", position=2, text=format_spans,
          item_detail=DETAIL, shape=SHAPE, consensus=CONSENSUS,
          methods=METHODS, reference_columns=REFERENCE_COLUMNS)
def spans(rows, *, lengths=None, match="optimal", bootstrap=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
          threshold=0.5, reference=None, reference_rows=None, low_overlap=opts.DEFAULT_LOW_OVERLAP, progress=None):
    """Agreement report for text spans.

    Every item read by two or more annotators is scored: exact and partial F1
    and the five-way table of every annotator pair
    (:mod:`agreekit.measures.span_outcomes`), and character-level α
    (:mod:`agreekit.measures.span_characters`).  Corpus values are unweighted
    means over items, with percentile bootstrap intervals over items.

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text or rows with ``item, annotator, start, end, label``
        (half-open character offsets); see :func:`read_spans`.
    lengths : str, list of dict or dict, optional
        ``item, length`` or ``item, text`` rows (CSV text or dicts), or a dict
        item → length / text; see :func:`read_lengths`.  Without it an item's
        length is its largest span end.
    match : {"optimal", "potato"}
        ``"optimal"`` (order-independent maximum matchings) or ``"potato"``
        (reproduce Potato 2.8, ``docs/potato-differences.md``).
    bootstrap : int
        Resamples of items for the intervals (0 = no intervals).
    seed : int
        Seed of the resampling.
    threshold : float
        With a reference: the character IoU at or above which a span matches a reference span.
    reference, reference_rows, low_overlap
        Score every annotator against a reference (an annotator of the rows, who then leaves the
        agreement measures, or gold rows), as for :func:`agreekit.boxes`; spans add each
        annotator's five-way table against it (``docs/reference.md``).
    progress : callable, optional
        ``progress(done, total, stage)``, called as items are scored (stage
        ``"items"``) and around the bootstrap (stage ``"bootstrap"``).

    Returns
    -------
    Report
        ``exact_f1``, ``partial_f1``, ``char_alpha`` (estimates: value, 95%
        bootstrap ``ci``, ``ci_level``, ``reason``, ``n`` items with a defined
        value), ``unitizing_alpha`` (Krippendorff's α_U over characters,
        :mod:`agreekit.unitizing_report`; needs ``lengths``),
        ``disagreement`` (``total``, ``pairs``, ``pairs_shown``,
        ``n_pairs_total``, ``labels``, ``remedies``, ``note``), ``labels``, ``items`` (``char_alpha`` an
        estimate per item), ``warnings``, ``settings``, ``n_items``,
        ``n_items_scored``, ``n_annotators``, ``n_spans``.  Above
        ``MAX_PAIR_ROWS`` annotator pairs, ``disagreement.pairs`` lists those
        sharing the most items (``pairs_shown`` of ``n_pairs_total``), with a
        warning; every other number counts every pair.

    Raises
    ------
    agreekit.rows.InputError
        On input that cannot be read (the message names the line and column).

    References
    ----------
    Definitions and scenarios: ``docs/spans.md``; Potato 2.8's rules and the
    deliberate differences: ``docs/potato-differences.md``.
    """
    raw = read_spans(rows, progress)
    _, chosen = reference_records(span_records(raw), reference=reference, reference_rows=reference_rows,
                                  parse=parse_reference, kind="spans", rows=rows)
    if chosen is not None and chosen.source == "annotator":
        raw = without(raw, chosen.annotator)
    length_map, texts = (None, None) if lengths is None else read_lengths(lengths)
    items, warnings, length_source = build_items(raw, length_map, texts)
    scored, dropped = _gather(items, match)
    warnings.extend(_mode_warnings(items, dropped, match))
    corpus = _Corpus.of(items)
    tally, table = LabelTally.zeros(len(corpus.labels)), PairTable.of(scored, corpus, MAX_PAIR_ROWS)
    warnings.extend(table.warnings())
    results = []
    for done, scored_item in enumerate(scored, start=1):
        results.append(_score(scored_item, corpus, match, tally, table))
        if progress is not None:
            progress(done, len(scored), "items")
    item_rows = _item_rows(results, items, scored)
    estimates = _corpus_estimates(results, content_order(scored), bootstrap, seed, progress,
                                   [s.item.name for s in scored])
    data = {
        "settings": {"match": match, "bootstrap": bootstrap, "seed": seed, "lengths": length_source,
                     "partial_rule": PARTIAL_RULE, "ci_level": CI_LEVEL},
        "n_items": len(items),
        "n_items_scored": len(scored),
        "n_annotators": len(corpus.annotators),
        "n_spans": sum(len(ss) for item in items for ss in item.spans.values()),
        "exact_f1": estimates.exact_f1,
        "partial_f1": estimates.partial_f1,
        "char_alpha": estimates.char_alpha,
        "unitizing_alpha": span_alpha_u(items, length_source, bootstrap, seed, warnings),
        "disagreement": _disagreement(corpus, tally, table,
                                      sum((result.outcomes for result in results), np.zeros(len(OUTCOMES), dtype=np.intp))),
        "labels": _label_scores(items, corpus, tally),
        "items": item_rows,
        "warnings": warnings,
    }
    if chosen is not None:
        data["reference"], notes, more_settings = _reference_section(chosen, threshold, low_overlap, bootstrap, seed)
        warnings += notes
        data["settings"].update(more_settings, threshold=threshold)
    return Report("spans", data)


def _reference_section(chosen, threshold, low_overlap, bootstrap, seed):
    """The reference section of spans, with each annotator's five-way table against the reference."""
    section, notes, settings = reference_part(chosen, span_set, threshold=threshold, low_overlap=low_overlap,
                                              mode="optimal", label_key=str, bootstrap=bootstrap, seed=seed,
                                              localization=False)
    outcomes = five_way(chosen)
    section["total"].update(outcomes["total"])
    for row, more in zip(section["annotators"], outcomes["annotators"]):
        row.update(more)
    return section, notes, settings
