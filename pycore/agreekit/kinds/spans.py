"""Text spans: exact and partial F1, character-level α and the five-way disagreement table.

Input rows ``item, annotator, start, end, label``: half-open character offsets
``[start, end)``.  A row with an item and an annotator but no start, end or
label means the annotator read the item and marked nothing; an annotator with
no row for an item never read it.  Item lengths come separately (``lengths=``)
as ``item, length`` rows, ``item, text`` rows or a dict; without them an item's
length is its largest span end.

Measures (definitions and the scenario table in ``docs/spans.md``; Potato's
behaviour in ``reference-semantics.md`` §9):

* **exact F1** of two annotators on an item: a span of A and a span of B agree
  when start, end and label are equal; TP is the size of a one-to-one matching
  of equal spans, P = TP/|A|, R = TP/|B|, F1 = 2TP/(|A| + |B|); 1 when both
  marked nothing.
* **partial F1**: two spans agree when they have the same label and either are
  equal or overlap by at least half of either span; TP is a *maximum*
  one-to-one matching (``scipy.optimize.linear_sum_assignment``), so the order
  of spans in the input cannot change it.
* per item: the mean over annotator pairs; corpus: the unweighted mean over
  items, undefined items skipped (as Potato's ``_aggregate_span``).
* **character-level α**: each character takes its annotator's span label, or
  ``O``; where one annotator's spans overlap the longest covering span wins.
  Nominal Krippendorff's α with the characters of an item as units; corpus
  value = mean over items.  This is *not* Krippendorff's unitizing α_U.
* **the five-way disagreement table** of two annotators: their spans matched
  one-to-one preferring, in this order, exact match > same boundaries with a
  different label > same label with overlapping but different boundaries >
  overlapping with both different; spans left over are *missed*.  In the
  manner of nervaluate's SemEval-2013 scenarios (Segura-Bedmar et al. 2013),
  split so that each outcome points to one remedy.

``match="potato"`` reproduces Potato 2.8: annotators who marked nothing are
dropped, exact F1 uses set semantics (duplicates collapse), partial matching is
first-fit in row order, character labels follow its BIO filling rule, and
items of length 0 are skipped.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..measures.alpha import alpha_from_coincidence, undefined_reason, unit_coincidences
from ..measures.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, percentile_ci, resample_counts
from .. import options as opts
from ..registry import register
from ..results import CI_LEVEL, Report, estimate
from ..rows import ANNOTATOR_SYNONYMS, InputError, interval_is_blank, read_table, to_int, to_text

COLUMNS = ("item", "annotator", "start", "end", "label")
SYNONYMS = {
    "item": ("document", "doc", "doc_id", "document_id", "item_id", "text_id", "sentence_id"),
    "annotator": ANNOTATOR_SYNONYMS,
    "start": ("begin", "start_offset", "char_start", "start_char", "from"),
    "end": ("stop", "end_offset", "char_end", "end_char", "to"),
    "label": ("class", "category", "tag", "entity", "entity_type", "type"),
}
REQUIRED = ("item", "annotator", "start", "end")
LENGTH_COLUMNS = ("item", "length")
LENGTH_SYNONYMS = {"item": SYNONYMS["item"], "length": ("len", "n_chars", "chars", "text_length")}
TEXT_COLUMNS = ("text",)
TEXT_SYNONYMS = {"text": ("document_text", "content", "body", "sentence")}


OUTCOMES = ("exact", "label_only", "boundary_only", "both", "missed_a", "missed_b")
EXACT, LABEL_ONLY, BOUNDARY_ONLY, BOTH = range(4)
REMEDIES = {
    "exact": "agreement: nothing to fix",
    "label_only": "label definitions: both marked the same text but named it differently",
    "boundary_only": "boundary rules: same entity and label, different extent "
                     "(determiners, titles, punctuation, nesting)",
    "both": "boundary rules and label definitions: overlapping text, different extent and name",
    "missed": "what counts as an entity: one annotator marked text the other left unmarked",
}
MAX_EXAMPLES = 10  # disagreement examples kept per item: the report must stay small enough for a page
CONTEXT_CHARS = 30  # characters of text shown on each side of an example


# --------------------------------------------------------------------------- input

@dataclass
class Item:
    """One item: its length, its text (if given) and each annotator's spans in row order.

    ``spans[annotator]`` is a list of ``(start, end, label, line)``; an empty
    list means the annotator read the item and marked nothing.  Annotators are
    kept sorted as strings: that is the pair order.
    """

    name: str
    length: int
    text: str | None
    spans: dict

    @property
    def annotators(self):
        return list(self.spans)


def read_spans(source):
    """Parse and check span rows: ``{item: {annotator: [(start, end, label, line), ...]}}``.

    Items keep the order of their first row.  Errors (the whole input is
    rejected) name the line and column: missing item or annotator, a
    non-integer or negative offset, only one of start and end given, a label
    without a span, ``end < start``.
    """
    rows = read_table(source, COLUMNS, SYNONYMS, required=REQUIRED)
    items = {}
    for row in rows:
        values = row.values
        item = _text(row, values.get("item"), "item")
        annotator = _text(row, values.get("annotator"), "annotator")
        label = _text(row, values.get("label"), "label", required=False)
        by_annotator = items.get(item)
        if by_annotator is None:
            by_annotator = items[item] = {}
        spans = by_annotator.get(annotator)
        if spans is None:
            spans = by_annotator[annotator] = []
        start, end = _offset(row, values.get("start"), "start"), _offset(row, values.get("end"), "end")
        if start is not None and end is not None:
            if end < start:
                raise InputError(f"end {end} is before start {start}", line=row.line, column="end",
                                 value=values.get("end"))
            spans.append((start, end, label, row.line))
            continue
        if interval_is_blank(row, label, "span"):
            continue
        start = to_int(row, "start")
        end = to_int(row, "end")
        if start < 0:
            raise InputError(f"start {start} is negative; offsets count characters from 0",
                             line=row.line, column="start", value=row.values.get("start"))
        if end < start:
            raise InputError(f"end {end} is before start {start}", line=row.line, column="end",
                             value=row.values.get("end"))
        spans.append((start, end, label, row.line))
    return items


# Fast paths for the common, plainly valid values; anything else falls through
# to the shared converters, which give the located error.  Same results either way.

def _text(row, value, column, required=True):
    if type(value) is str:
        stripped = value.strip()
        if stripped:
            return stripped
    return to_text(row, column, required=required)


def _offset(row, value, column):
    """A non-negative whole-number offset, or None for anything that needs the full checks."""
    if type(value) is int and value >= 0:
        return value
    if type(value) is str and value.isascii() and value.isdigit():
        return int(value)
    return None


def read_lengths(source):
    """Item lengths: ``({item: length}, {item: text} or None)``.

    ``source`` is CSV/TSV text or a list of dicts with columns ``item, length``
    or ``item, text`` (then the length is the text's length in code points,
    Python's ``len``), or a dict mapping item to a length (int) or a text (str).
    A repeated item is an error, as is a negative or non-integer length.
    """
    if isinstance(source, dict):
        lengths, texts = {}, {}
        for position, (item, value) in enumerate(source.items(), start=1):
            if isinstance(value, str):
                texts[str(item)] = value
                lengths[str(item)] = len(value)
            elif isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 0:
                lengths[str(item)] = int(value)
            else:
                raise InputError(f"length of item {item!r} must be a non-negative integer or a text",
                                 line=position, column="length", value=value)
        return lengths, (texts or None)
    rows = read_table(source, LENGTH_COLUMNS, {**LENGTH_SYNONYMS, **TEXT_SYNONYMS},
                      alternatives=[("item",) + TEXT_COLUMNS], required=("item",), keep_space=("text",))
    has_text = any("text" in row.values for row in rows)
    has_length = any("length" in row.values for row in rows)
    if not (has_text or has_length):
        raise InputError("lengths need a 'length' or a 'text' column beside 'item'", line=rows[0].line)
    lengths, texts = {}, {}
    for row in rows:
        item = to_text(row, "item")
        if item in lengths:
            raise InputError(f"item {item!r} is given twice", line=row.line, column="item", value=item)
        if has_text:
            if "text" not in row.values:
                raise InputError("missing column 'text'", line=row.line, column="text")
            value = row.values["text"]
            text = "" if value is None else str(value)
            texts[item] = text
            lengths[item] = len(text)
        else:
            length = to_int(row, "length")
            if length < 0:
                raise InputError(f"length {length} is negative", line=row.line, column="length",
                                 value=row.values.get("length"))
            lengths[item] = length
    return lengths, (texts or None)


def build_items(raw, lengths=None, texts=None):
    """Attach lengths to parsed spans and collect warnings about suspicious input.

    Returns ``(items, warnings, length_source)`` with ``items`` a list of
    :class:`Item` in input order.
    """
    warnings = []
    fallback = []
    items = []
    for name, by_annotator in raw.items():
        spans = {a: by_annotator[a] for a in sorted(by_annotator)}
        largest_end = max((s[1] for ss in spans.values() for s in ss), default=0)
        if lengths is not None and name in lengths:
            length = lengths[name]
        else:
            length = largest_end
            if lengths is not None:
                fallback.append(name)
        items.append(Item(name, length, None if texts is None else texts.get(name), spans))
    if lengths is None:
        warnings.append("no lengths given: each item's length is taken as its largest span end, so "
                        "characters after the last span go uncounted in character-level α")
        source = "largest end"
    else:
        source = "texts" if texts else "lengths"
        if fallback:
            warnings.append(f"{len(fallback)} item(s) have no length and use their largest span end: "
                            + _name_list(fallback))
        unused = [item for item in lengths if item not in raw]
        if unused:
            warnings.append(f"{len(unused)} item(s) have a length but no rows (nobody read them) "
                            "and are not scored: " + _name_list(unused))
    warnings.extend(_input_warnings(items))
    return items, warnings, source


def _input_warnings(items):
    beyond, zero, duplicates, single = [], [], [], []
    for item in items:
        for annotator, spans in item.spans.items():
            seen = {}
            for start, end, label, line in spans:
                if end > item.length:
                    beyond.append(line)
                if start == end:
                    zero.append(line)
                key = (start, end, label)
                if key in seen:
                    duplicates.append((line, seen[key]))
                else:
                    seen[key] = line
        if len(item.spans) < 2:
            single.append(item.name)
    warnings = []
    if beyond:
        warnings.append(f"{len(beyond)} span(s) end beyond their item's length (clipped for "
                        "character-level α, kept as given for F1): lines " + _name_list(beyond))
    if zero:
        warnings.append(f"{len(zero)} zero-length span(s) (start = end): they mark no character, "
                        "lines " + _name_list(zero))
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate span(s) repeating an earlier one of the same "
                        "annotator on the same item: lines "
                        + _name_list([f"{line} (= {first})" for line, first in duplicates]))
    if single:
        warnings.append(f"{len(single)} item(s) with a single annotator are not scored: "
                        + _name_list(single))
    return warnings


def _name_list(names, limit=10):
    names = [str(n) for n in names]
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


# --------------------------------------------------------------------------- pairs of annotators

NONE = -1  # kind of two spans that are never paired
# Lexicographic weights K³, K², K, 1 stay exact integers in float64 while
# min(|A|, |B|)·K³ < 2⁵³, i.e. K < 9,700; larger would not fit in memory anyway.
MAX_SPANS_PER_ANNOTATOR = 9000


@dataclass
class Track:
    """Spans as arrays (label ids index the corpus label list): one annotator's, or an item's."""

    start: np.ndarray
    end: np.ndarray
    label: np.ndarray

    @classmethod
    def of(cls, spans, label_ids):
        return cls(np.array([s[0] for s in spans], dtype=np.intp),
                   np.array([s[1] for s in spans], dtype=np.intp),
                   np.array([label_ids[s[2]] for s in spans], dtype=np.intp))

    def __len__(self):
        return len(self.start)

    def part(self, lo, hi):
        return Track(self.start[lo:hi], self.end[lo:hi], self.label[lo:hi])


def overlap(a, b):
    """Characters shared by each span of ``a`` and each span of ``b`` (|a| × |b|)."""
    lo = np.maximum(a.start[:, None], b.start[None, :])
    hi = np.minimum(a.end[:, None], b.end[None, :])
    return np.maximum(hi - lo, 0)


def pair_kinds(a, b, shared=None):
    """The five-way kind of every pair of spans (|a| × |b|); ``shared`` = :func:`overlap` if known.

    EXACT: same start, end and label; LABEL_ONLY: same boundaries, other
    label; BOUNDARY_ONLY: same label, sharing ≥ 1 character, other boundaries;
    BOTH: sharing ≥ 1 character, other boundaries and label; NONE otherwise.
    """
    shared = overlap(a, b) if shared is None else shared
    same_bounds = (a.start[:, None] == b.start[None, :]) & (a.end[:, None] == b.end[None, :])
    other_label = (a.label[:, None] != b.label[None, :]).astype(np.int8)
    # same boundaries: EXACT (0) or LABEL_ONLY (1); else touching: BOUNDARY_ONLY (2) or BOTH (3)
    return np.where(same_bounds, other_label, np.where(shared > 0, BOUNDARY_ONLY + other_label, NONE))


def partial_graph(a, b, shared=None):
    """Which pairs of spans agree partially: same label, and equal or overlapping by ≥ half of either.

    ``2·overlap ≥ length`` is the integer form of overlap/length ≥ 0.5.  Equal
    spans always agree, zero-length ones included, so every exact match is a
    partial match.
    """
    shared = overlap(a, b) if shared is None else shared
    same_label = a.label[:, None] == b.label[None, :]
    half = (2 * shared >= (a.end - a.start)[:, None]) | (2 * shared >= (b.end - b.start)[None, :])
    equal = (a.start[:, None] == b.start[None, :]) & (a.end[:, None] == b.end[None, :])
    return same_label & ((shared > 0) & half | equal)


def f1(tp, n_a, n_b):
    """F1 = 2TP/(|A| + |B|) (= 2PR/(P + R)); 1 when both marked nothing, 0 when TP = 0.

    Works on numbers or on arrays of pairs.
    """
    tp, total = np.asarray(tp, dtype=float), np.asarray(n_a + n_b)
    return np.where(total == 0, 1.0, 2.0 * tp / np.where(total == 0, 1, total))


def maximum_matching(graph):
    """A maximum one-to-one matching in a boolean bipartite ``graph``: ``(rows, cols)``."""
    if graph.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    rows, cols = linear_sum_assignment(graph, maximize=True)
    keep = graph[rows, cols]
    return rows[keep], cols[keep]


def five_way_matching(kinds):
    """The five-way matching of two annotators from their :func:`pair_kinds` matrix.

    Spans are matched one-to-one preferring, in this order, EXACT,
    LABEL_ONLY, BOUNDARY_ONLY, BOTH: the matching maximizes the number of the
    first kind, then of the second, and so on (lexicographically).  That is a
    maximum-weight assignment with weights K³, K², K, 1 for K = min(|A|, |B|) + 1,
    larger than any count (``scipy.optimize.linear_sum_assignment``).  Pairs of
    kind NONE are never matched.  Returns ``(rows, cols, outcome)``.
    """
    if kinds.size == 0:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, empty
    k = float(min(kinds.shape) + 1)
    if k > MAX_SPANS_PER_ANNOTATOR:
        raise InputError(f"more than {MAX_SPANS_PER_ANNOTATOR} spans by each of two annotators on one item")
    weight = np.array([k ** 3, k ** 2, k, 1.0, 0.0])[kinds]  # NONE = −1 picks the trailing 0
    rows, cols = linear_sum_assignment(weight, maximize=True)
    keep = weight[rows, cols] > 0
    rows, cols = rows[keep], cols[keep]
    return rows, cols, kinds[rows, cols].astype(np.intp)


def five_way(a, b):
    """The five-way comparison of two annotators' spans ``a`` and ``b`` (:class:`Track`).

    Returns ``(rows, cols, outcome, missed_a, missed_b)``: matched span
    indices, the outcome of each matched pair, and the indices of spans left
    without a partner on each side (see :func:`five_way_matching`).
    """
    rows, cols, outcome = five_way_matching(pair_kinds(a, b))
    return rows, cols, outcome, np.setdiff1d(np.arange(len(a)), rows), np.setdiff1d(np.arange(len(b)), cols)


def potato_agreement(a, b, shared=None):
    """Potato's partial agreement of two spans: same label, overlap > 0, both of positive length,
    and overlap ≥ half of either (|a| × |b| booleans)."""
    shared = overlap(a, b) if shared is None else shared
    len_a = (a.end - a.start)[:, None]
    len_b = (b.end - b.start)[None, :]
    return ((a.label[:, None] == b.label[None, :]) & (shared > 0) & (len_a > 0) & (len_b > 0)
            & ((2 * shared >= len_a) | (2 * shared >= len_b)))


def first_fit(agree):
    """Potato's first-fit: each row, in order, takes the first column still free that it agrees with.

    Not a maximum matching: the order of the spans can change the result.
    Returns ``(rows, cols)``.
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
    return np.array(rows, dtype=np.intp), np.array(cols, dtype=np.intp)


def potato_partial_matches(a, b):
    """Potato's partial matching of two annotators' spans: :func:`first_fit` on :func:`potato_agreement`."""
    return first_fit(potato_agreement(a, b))


def _potato_f1(tp, n_a, n_b):
    """Potato's P, R, F1: P = TP/|A|, R = TP/|B| (0 for an empty side), F1 = 2PR/(P + R)."""
    if n_a == 0 and n_b == 0:
        return 1.0
    precision = tp / n_a if n_a else 0.0
    recall = tp / n_b if n_b else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


# --------------------------------------------------------------------------- characters

def character_labels(track, length, rule="optimal"):
    """Each character's label id for one annotator (0 = ``O``; label id k is written k + 1).

    ``optimal``: a character takes the label of the longest span covering it;
    among equally long spans the one that starts first, then the label first in
    sorted order, so the order of the rows cannot matter.  ``potato``: Potato's BIO
    fill — spans by decreasing length (stable), clipped to the text; a span
    whose first character is already tagged is skipped, otherwise it tags its
    still-untagged characters (so a shorter span can be partly cut off).
    """
    if rule != "potato":
        return item_character_labels(track, [0, len(track)], length)[0]
    out = np.zeros(length, dtype=np.intp)
    lengths = (track.end - track.start).tolist()
    starts, ends, labels = track.start.tolist(), track.end.tolist(), track.label.tolist()
    for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        s, e = max(starts[i], 0), min(ends[i], length)
        if e <= s or out[s] != 0:
            continue
        segment = out[s:e]
        segment[segment == 0] = labels[i] + 1
    return out


def character_coincidence(label_rows, n_categories):
    """Coincidence matrix of nominal values with characters as units.

    ``label_rows`` is (annotators × characters) of category ids.  Characters
    in a run where no annotator's label changes have the same values, so each
    run enters :func:`agreekit.alpha.unit_coincidences` once, weighted by its
    length (a text has a few runs per span, not one unit per character).
    """
    n_annotators, length = label_rows.shape
    changes = np.flatnonzero((label_rows[:, 1:] != label_rows[:, :-1]).any(axis=0)) + 1
    run_starts = np.concatenate([[0], changes])
    run_lengths = np.diff(np.concatenate([run_starts, [length]]))
    values = label_rows[:, run_starts]  # annotators × runs
    codes = (np.arange(len(run_starts))[None, :] * n_categories + values).ravel()
    counts = np.bincount(codes, minlength=len(run_starts) * n_categories).reshape(-1, n_categories)
    return np.tensordot(run_lengths.astype(float), unit_coincidences(counts), axes=1)


def item_character_labels(track, offsets, length, rule="optimal"):
    """(annotators × characters) label ids for an item; annotator k's spans at ``offsets[k]:offsets[k+1]``.

    The same rules as :func:`character_labels`, all annotators in one pass.
    """
    if rule == "potato":
        return np.stack([character_labels(track.part(offsets[k], offsets[k + 1]), length, rule)
                         for k in range(len(offsets) - 1)])
    out = np.zeros((len(offsets) - 1, length), dtype=np.intp)
    owner = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    # What is written last wins: write the shortest first, and among equals the later start
    # and the later label (label ids follow the sorted label names).
    order = np.lexsort((-track.label, -track.start, track.end - track.start))
    for k, s, e, label in zip(owner[order].tolist(), track.start[order].tolist(),
                              np.minimum(track.end[order], length).tolist(), (track.label[order] + 1).tolist()):
        out[k, s:e] = label
    return out


def _item_alpha(track, offsets, length, rule, n_categories):
    """Character-level α of one item and, when undefined, why."""
    if length < 2:
        return float("nan"), "fewer than two characters"
    labels = item_character_labels(track, offsets, length, rule)
    o = character_coincidence(labels, n_categories)
    value = alpha_from_coincidence(o)
    return value, (undefined_reason(o) if not np.isfinite(value) else None)


# --------------------------------------------------------------------------- corpus

def _gather(items, match):
    """The annotators each mode scores on each item, and the items it scores.

    Optimal: every annotator with a row, an empty one included; items with ≥ 2
    annotators.  Potato: annotators with ≥ 1 span, items with ≥ 2 such
    annotators and length > 0.  Returns ``([(item, annotators)], dropped)``.
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
            scored.append((item, annotators))
    return scored, dropped


@dataclass
class ItemScore:
    """Every annotator pair of one item.

    Pairs are ``(i, j)``, i < j, indices into the item's sorted annotators.
    Span indices refer to the item's :class:`Track` (annotator k's spans at
    ``offsets[k]:offsets[k+1]``).  ``counts`` is (pairs × 6) in the order of
    ``OUTCOMES``; ``rows, cols, outcome, pair`` list the five-way matches;
    ``partial_rows`` the A side of the partial matches; ``exact_tp`` and
    ``exact_total`` the label ids that exact F1 counts (as TP, twice per
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


def _match_pairs(edges, owner, sizes, offsets, solve):
    """One-to-one matchings of every annotator pair of an item, from one (spans × spans) edge matrix.

    A pair whose edges already form a matching (no span has two partners in
    the other annotator) takes all its edges: any optimal matching uses them
    all.  Only the other pairs call ``solve(lo_a, hi_a, lo_b, hi_b)``, which
    returns block-local ``(rows, cols)``.  Returns global ``(rows, cols)``.
    """
    m = len(offsets) - 1
    edges = edges & (owner[:, None] < owner[None, :])  # each pair once, A before B
    membership = (owner[:, None] == np.arange(m)[None, :]).astype(float)  # spans × annotators
    weights = edges.astype(float)
    crowded = np.zeros((m, m), dtype=bool)
    span, other = np.nonzero(weights @ membership > 1)  # a span of A with two partners in B
    crowded[owner[span], other] = True
    span, other = np.nonzero(weights.T @ membership > 1)  # a span of B with two partners in A
    crowded[other, owner[span]] = True
    if crowded.any():
        edges &= ~np.repeat(np.repeat(crowded, sizes, axis=0), sizes, axis=1)
    rows, cols = np.nonzero(edges)
    rows, cols = [rows], [cols]
    for i, j in zip(*np.nonzero(crowded)):
        r, c = solve(offsets[i], offsets[i + 1], offsets[j], offsets[j + 1])
        rows.append(r + offsets[i])
        cols.append(c + offsets[j])
    return np.concatenate(rows).astype(np.intp), np.concatenate(cols).astype(np.intp)


def score_item(track, offsets, match="optimal"):
    """Five-way table and exact / partial F1 of every annotator pair of one item (:class:`ItemScore`).

    The five-way kinds and the partial graph are computed once for all the
    item's spans; each pair is a block of them.
    """
    m = len(offsets) - 1
    owner = np.repeat(np.arange(m), np.diff(offsets))
    sizes = np.diff(offsets)
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    pair_of = np.full((m, m), -1, dtype=np.intp)
    for p, (i, j) in enumerate(pairs):
        pair_of[i, j] = p
    n_a = sizes[[i for i, _ in pairs]] if pairs else np.zeros(0, dtype=np.intp)
    n_b = sizes[[j for _, j in pairs]] if pairs else np.zeros(0, dtype=np.intp)

    shared = overlap(track, track)
    kinds = pair_kinds(track, track, shared)
    rows, cols = _match_pairs(kinds >= 0, owner, sizes, offsets,
                              lambda la, ha, lb, hb: five_way_matching(kinds[la:ha, lb:hb])[:2])
    order = np.lexsort((rows, pair_of[owner[rows], owner[cols]]))
    rows, cols = rows[order], cols[order]
    outcome = kinds[rows, cols].astype(np.intp)
    pair = pair_of[owner[rows], owner[cols]]
    matched = np.bincount(pair * 4 + outcome, minlength=4 * len(pairs)).reshape(len(pairs), 4)
    n_matched = matched.sum(axis=1)
    counts = np.concatenate([matched, (n_a - n_matched)[:, None], (n_b - n_matched)[:, None]], axis=1)

    if match == "potato":
        exact_f1, partial_f1, exact_tp, exact_total, partial_rows = [], [], [], [], []
        agree = potato_agreement(track, track, shared)
        keys = list(zip(track.start.tolist(), track.end.tolist(), track.label.tolist()))
        sets = [set(keys[offsets[k]:offsets[k + 1]]) for k in range(m)]
        for i, j in pairs:
            common = [key[2] for key in sets[i] & sets[j]]
            exact_f1.append(_potato_f1(len(common), len(sets[i]), len(sets[j])))
            exact_tp.extend(common * 2)
            exact_total.extend([k[2] for k in sets[i]] + [k[2] for k in sets[j]])
            r, _ = first_fit(agree[offsets[i]:offsets[i + 1], offsets[j]:offsets[j + 1]])
            partial_f1.append(_potato_f1(len(r), sizes[i], sizes[j]))
            partial_rows.append(r + offsets[i])
        exact_tp = np.array(exact_tp, dtype=np.intp)
        exact_total = np.array(exact_total, dtype=np.intp)
        partial_rows = np.concatenate(partial_rows) if partial_rows else np.zeros(0, dtype=np.intp)
        exact_f1, partial_f1 = np.array(exact_f1), np.array(partial_f1)
    else:
        graph = partial_graph(track, track, shared)
        partial_rows, partial_cols = _match_pairs(graph, owner, sizes, offsets,
                                                  lambda la, ha, lb, hb: maximum_matching(graph[la:ha, lb:hb]))
        partial_tp = np.bincount(pair_of[owner[partial_rows], owner[partial_cols]], minlength=len(pairs))
        exact_f1 = f1(matched[:, EXACT], n_a, n_b)
        partial_f1 = f1(partial_tp, n_a, n_b)
        exact_tp = np.repeat(track.label[rows[outcome == EXACT]], 2)
        exact_total = np.repeat(track.label, m - 1)
    return ItemScore(pairs, exact_f1, partial_f1, counts, rows, cols, outcome, pair,
                     partial_rows, exact_tp, exact_total)


def _mean_defined(values):
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    return float(finite.mean()) if finite.size else float("nan")


def _bootstrap_means(values, counts):
    """Resampled unweighted means over items of per-item ``values`` (NaN = item skipped)."""
    values = np.asarray(values, dtype=float)
    defined = np.isfinite(values)
    total = counts @ defined.astype(float)
    sums = counts @ np.where(defined, values, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, sums / np.where(total > 0, total, 1), np.nan)


def _concat(arrays):
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.intp)


@register("spans", title="Spans",
          summary="text spans: item, annotator, start, end, label (character offsets [start, end))",
          options=(opts.Option("lengths", "table", "Item lengths or texts",
                               "item,length or item,text rows (a file on the command line)"),
                   opts.MATCH.but(choices=(opts.Choice("optimal", "optimal (order-independent)"),
                                           opts.Choice("potato", "potato (reproduce Potato)"))),
                   opts.BOOTSTRAP, opts.SEED),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_spans", position=2)
def spans(rows, *, lengths=None, match="optimal", bootstrap=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
          progress=None):
    """Agreement report for text spans.

    ``rows``: CSV/TSV text or a list of dicts with ``item, annotator, start,
    end, label`` (half-open character offsets).  ``lengths``: ``item, length``
    or ``item, text`` rows (CSV text or dicts), or a dict item → length / text.
    ``match``: ``"optimal"`` (default) or ``"potato"`` (reproduce Potato 2.8).
    ``bootstrap`` resamples of items (0 = no intervals) with ``seed``.
    ``progress(done, total, stage)`` is called as items are scored
    (stage ``"items"``) and around the bootstrap (stage ``"bootstrap"``).

    Returns a :class:`~agreekit.report.Report` with ``exact_f1``,
    ``partial_f1``, ``char_alpha`` (each value, 95% bootstrap ci, reason),
    ``disagreement`` (``total``, ``pairs``, ``labels``, ``remedies``),
    ``labels``, ``items``, ``warnings``, ``settings``, ``n_items``,
    ``n_items_scored``, ``n_annotators``, ``n_spans``.
    """
    raw = read_spans(rows)
    length_map, texts = (None, None) if lengths is None else read_lengths(lengths)
    items, warnings, length_source = build_items(raw, length_map, texts)
    scored, dropped = _gather(items, match)
    if dropped:
        warnings.append(f"potato mode: {len(dropped)} annotator(s) who read an item and marked nothing "
                        "are left out, as Potato does: "
                        + _name_list([f"{a} on {i}" for i, a in dropped]))
    if match == "potato":
        empty = [item.name for item in items if item.length <= 0 and len(item.spans) >= 2]
        if empty:
            warnings.append(f"potato mode: {len(empty)} item(s) of length 0 are skipped, as Potato does: "
                            + _name_list(empty))

    label_names = sorted({s[2] for item in items for ss in item.spans.values() for s in ss})
    label_ids = {label: k for k, label in enumerate(label_names)}
    n_labels = len(label_names)
    all_annotators = sorted({a for item in items for a in item.spans})
    annotator_ids = {a: k for k, a in enumerate(all_annotators)}
    n_ann = len(all_annotators)
    char_rule = "potato" if match == "potato" else "optimal"

    pair_outcomes = np.zeros((n_ann, n_ann, len(OUTCOMES)), dtype=np.intp)  # [a, b] with a < b
    pair_f1_sums = np.zeros((n_ann, n_ann, 2))
    pair_items = np.zeros((n_ann, n_ann), dtype=np.intp)
    # Label ids, gathered over every pair of every item and counted once at the end.
    matched_a, matched_b, matched_kind, compared = [], [], [], []
    exact_tp, exact_total, partial_tp = [], [], []

    item_rows, exact_values, partial_values, alpha_values = [], [], [], []
    for done, (item, annotators) in enumerate(scored, start=1):
        all_spans = [s for a in annotators for s in item.spans[a]]
        offsets = np.cumsum([0] + [len(item.spans[a]) for a in annotators]).tolist()
        track = Track.of(all_spans, label_ids)
        score = score_item(track, offsets, match)
        ids = np.array([annotator_ids[a] for a in annotators])
        first, second = ids[[i for i, _ in score.pairs]], ids[[j for _, j in score.pairs]]
        # Within one item each (first, second) pair occurs once, so plain fancy-index += is exact.
        pair_outcomes[first, second] += score.counts
        pair_f1_sums[first, second] += np.stack([score.exact_f1, score.partial_f1], axis=1)
        pair_items[first, second] += 1
        matched_a.append(track.label[score.rows])
        matched_b.append(track.label[score.cols])
        matched_kind.append(score.outcome)
        exact_tp.append(score.exact_tp)
        exact_total.append(score.exact_total)
        partial_tp.append(np.repeat(track.label[score.partial_rows], 2))
        # Each span is compared with every other annotator of the item: m − 1 times.
        compared.append(np.repeat(track.label, len(annotators) - 1))
        item_outcomes = score.counts.sum(axis=0)
        n_disagreements = int(item_outcomes.sum() - item_outcomes[EXACT])
        examples = _examples(item, annotators, all_spans, offsets, score) if n_disagreements else []

        exact_item = float(np.mean(score.exact_f1))
        partial_item = float(np.mean(score.partial_f1))
        alpha_item, alpha_reason = _item_alpha(track, offsets, item.length, char_rule, n_labels + 1)
        exact_values.append(exact_item)
        partial_values.append(partial_item)
        alpha_values.append(alpha_item)
        n_compared = 2 * int(item_outcomes[:4].sum()) + int(item_outcomes[4:].sum())
        disagreeing = n_compared - 2 * int(item_outcomes[EXACT])
        item_rows.append({
            "item": item.name, "length": item.length, "scored": True,
            "annotators": annotators, "n_annotators": len(annotators), "n_spans": len(all_spans),
            "exact_f1": exact_item, "partial_f1": partial_item,
            "char_alpha": estimate(alpha_item, reason=alpha_reason, n=item.length),
            "disagreement_share": disagreeing / n_compared if n_compared else 0.0,
            "n_disagreements": n_disagreements,
            "outcomes": dict(zip(OUTCOMES, item_outcomes.tolist())),
            "examples": examples,
        })
        if progress is not None:
            progress(done, len(scored), "items")

    item_rows.sort(key=lambda r: (-r["disagreement_share"], -r["n_disagreements"], r["item"]))
    scored_names = {item.name for item, _ in scored}
    for item in items:
        if item.name not in scored_names:
            reason = ("a single annotator" if len(item.spans) < 2 else
                      "potato mode: fewer than two annotators with spans, or length 0")
            item_rows.append({"item": item.name, "length": item.length, "scored": False, "reason": reason,
                              "annotators": item.annotators, "n_annotators": len(item.spans),
                              "n_spans": sum(len(s) for s in item.spans.values())})

    if progress is not None and bootstrap:
        progress(0, bootstrap, "bootstrap")
    counts = resample_counts(len(scored), bootstrap, seed) if len(scored) >= 2 else np.zeros((0, 0))

    def corpus_estimate(values, what):
        value = _mean_defined(values)
        n_defined = int(np.isfinite(np.asarray(values, dtype=float)).sum())
        ci = percentile_ci(_bootstrap_means(values, counts)) if counts.size else None
        reason = None
        if not scored:
            reason = "no item has two or more annotators"
        elif n_defined == 0:
            reason = f"{what} is undefined on every scored item"
        return estimate(value, ci=ci, reason=reason, n=n_defined)

    exact_est = corpus_estimate(exact_values, "exact F1")
    partial_est = corpus_estimate(partial_values, "partial F1")
    alpha_est = corpus_estimate(alpha_values, "character-level α")
    if alpha_est["value"] is None and scored:
        alpha_est["reason"] = ("character-level α is undefined on every scored item: each has fewer "
                               "than two characters or a single label on every character")
    alpha_est["name"] = "character-level α"
    if progress is not None and bootstrap:
        progress(bootstrap, bootstrap, "bootstrap")

    pairs = []
    for ia in range(n_ann):
        for ib in range(ia + 1, n_ann):
            if pair_items[ia, ib] == 0:
                continue
            row = {"a": all_annotators[ia], "b": all_annotators[ib], "n_items": int(pair_items[ia, ib]),
                   "exact_f1": pair_f1_sums[ia, ib, 0] / pair_items[ia, ib],
                   "partial_f1": pair_f1_sums[ia, ib, 1] / pair_items[ia, ib]}
            row.update(_outcome_row(pair_outcomes[ia, ib]))
            pairs.append(row)

    data = {
        "settings": {"match": match, "bootstrap": bootstrap, "seed": seed, "lengths": length_source,
                     "partial_rule": "same label, and equal or overlapping by at least half of either span",
                     "ci_level": CI_LEVEL},
        "n_items": len(items),
        "n_items_scored": len(scored),
        "n_annotators": n_ann,
        "n_spans": sum(len(ss) for item in items for ss in item.spans.values()),
        "exact_f1": exact_est,
        "partial_f1": partial_est,
        "char_alpha": alpha_est,
        "disagreement": {
            "total": _outcome_row(pair_outcomes.sum(axis=(0, 1))),
            "pairs": pairs,
            "labels": _label_outcomes(label_names, _concat(matched_a), _concat(matched_b),
                                      _concat(matched_kind), _concat(compared)),
            "remedies": REMEDIES,
            "note": "matched pairs count once, missed spans once per side: "
                    "2·(exact + label_only + boundary_only + both) + missed_a + missed_b = n_spans; "
                    "shares are shares of those spans. Per label, counts are spans.",
        },
        "labels": _label_scores(items, label_names, label_ids, _concat(exact_tp), _concat(exact_total),
                                _concat(partial_tp), _concat(compared)),
        "items": item_rows,
        "warnings": warnings,
    }
    return Report("spans", data)


def _outcome_row(counts):
    """Counts of the six outcomes with their shares of the spans compared."""
    counts = [int(c) for c in counts]
    n = 2 * sum(counts[:4]) + sum(counts[4:])
    row = dict(zip(OUTCOMES, counts))
    row["n_spans"] = n
    row["shares"] = {name: ((2 * c if k < 4 else c) / n if n else None)
                     for k, (name, c) in enumerate(zip(OUTCOMES, counts))}
    return row


def _label_outcomes(label_names, label_a, label_b, kind, compared):
    """The five-way table per label, counted in spans, with label confusions.

    A matched pair adds its outcome to the label of each of its two spans; a
    span compared but left unmatched is missed.  ``compared`` lists the label
    of every span once per annotator it was compared with.
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
        total = int(table[k].sum())
        entry = {"label": label, "n_spans": total}
        entry.update(dict(zip(names, table[k].tolist())))
        entry["shares"] = {name: (c / total if total else None) for name, c in zip(names, table[k].tolist())}
        entry["confused_with"] = {label_names[m]: int(confusion[k, m])
                                  for m in np.argsort(-confusion[k], kind="stable") if confusion[k, m]}
        rows.append(entry)
    return rows


def _label_scores(items, label_names, label_ids, exact_tp, exact_total, partial_tp, compared):
    """Per label: spans, annotators using it, and exact and partial F1 pooled over items and pairs.

    Pooled F1 of label L = 2·TP_L / Σ(|A_L| + |B_L|) over every compared pair.
    """
    n = len(label_names)
    spans_per_label = np.zeros(n, dtype=np.intp)
    users = [set() for _ in range(n)]
    for item in items:
        for annotator, ss in item.spans.items():
            used = Counter(s[2] for s in ss)
            for label, count in used.items():
                spans_per_label[label_ids[label]] += count
                users[label_ids[label]].add(annotator)
    with np.errstate(invalid="ignore", divide="ignore"):
        exact = np.bincount(exact_tp, minlength=n) / np.bincount(exact_total, minlength=n)
        partial = np.bincount(partial_tp, minlength=n) / np.bincount(compared, minlength=n)
    return [{"label": label, "n_spans": int(spans_per_label[k]), "n_annotators": len(users[k]),
             "exact_f1": exact[k], "partial_f1": partial[k]} for k, label in enumerate(label_names)]


def _context(text, start, end):
    """A plain-text snippet around ``[start, end)``: the text itself, never markup."""
    if text is None:
        return None
    lo = max(0, min(start, len(text)) - CONTEXT_CHARS)
    hi = min(len(text), end + CONTEXT_CHARS)
    snippet = text[lo:hi].replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return ("…" if lo > 0 else "") + snippet + ("…" if hi < len(text) else "")


def _span_dict(item, span):
    start, end, label, line = span
    out = {"start": start, "end": end, "label": label, "line": line}
    if item.text is not None:
        out["text"] = item.text[start:end]
    return out


def _examples(item, annotators, all_spans, offsets, score, limit=MAX_EXAMPLES):
    """The item's first ``limit`` disagreements, pair by pair, with plain-text context when texts are known.

    Per pair: matched pairs that are not exact, then spans marked only by A,
    then spans marked only by B.
    """
    m = len(annotators)
    owner = np.repeat(np.arange(m), np.diff(offsets))
    pair_of = np.full((m, m), -1, dtype=np.intp)
    for p, (i, j) in enumerate(score.pairs):
        pair_of[i, j] = p
    # Candidates as (pair, outcome code, span, partner); per pair, codes sort matched < missed_a < missed_b.
    inexact = score.outcome != EXACT
    matched_with = np.zeros((len(owner), m), dtype=bool)
    matched_with[score.rows, owner[score.cols]] = True
    matched_with[score.cols, owner[score.rows]] = True
    lonely, other = np.nonzero(~matched_with & (owner[:, None] != np.arange(m)[None, :]))
    pair = np.concatenate([score.pair[inexact],
                           pair_of[np.minimum(owner[lonely], other), np.maximum(owner[lonely], other)]])
    code = np.concatenate([score.outcome[inexact],
                           np.where(owner[lonely] < other, OUTCOMES.index("missed_a"), OUTCOMES.index("missed_b"))])
    span = np.concatenate([score.rows[inexact], lonely])
    partner = np.concatenate([score.cols[inexact], np.full(len(lonely), -1)])
    order = np.lexsort((span, code >= 4, pair))[:limit]
    out = []
    for p, kind, r, c in zip(pair[order].tolist(), code[order].tolist(), span[order].tolist(),
                             partner[order].tolist()):
        i, j = score.pairs[p]
        if c >= 0:
            sa, sb = _span_dict(item, all_spans[r]), _span_dict(item, all_spans[c])
            lo, hi = min(sa["start"], sb["start"]), max(sa["end"], sb["end"])
        else:
            lone = _span_dict(item, all_spans[r])
            sa, sb = (lone, None) if OUTCOMES[kind] == "missed_a" else (None, lone)
            lo, hi = lone["start"], lone["end"]
        out.append({"a": annotators[i], "b": annotators[j], "outcome": OUTCOMES[kind],
                    "span_a": sa, "span_b": sb, "context": _context(item.text, lo, hi)})
    return out
