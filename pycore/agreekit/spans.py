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

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from .alpha import alpha_from_coincidence, undefined_reason, unit_coincidences
from .bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, percentile_ci, resample_counts
from .report import Report, estimate
from .rows import InputError, is_blank, read_table, to_int, to_text

COLUMNS = ("item", "annotator", "start", "end", "label")
SYNONYMS = {
    "item": ("document", "doc", "doc_id", "document_id", "item_id", "text_id", "sentence_id"),
    "annotator": ("rater", "worker", "user", "coder", "annotator_id", "user_id"),
    "start": ("begin", "start_offset", "char_start", "start_char", "from"),
    "end": ("stop", "end_offset", "char_end", "end_char", "to"),
    "label": ("class", "category", "tag", "entity", "entity_type", "type"),
}
REQUIRED = ("item", "annotator", "start", "end")
LENGTH_COLUMNS = ("item", "length")
LENGTH_SYNONYMS = {"item": SYNONYMS["item"], "length": ("len", "n_chars", "chars", "text_length")}
TEXT_COLUMNS = ("text",)
TEXT_SYNONYMS = {"text": ("document_text", "content", "body", "sentence")}

MATCH_MODES = ("optimal", "potato")
OUTSIDE = "O"

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
        item = to_text(row, "item")
        annotator = to_text(row, "annotator")
        label = to_text(row, "label", required=False)
        spans = items.setdefault(item, {}).setdefault(annotator, [])
        start_blank = is_blank(row.values.get("start"))
        end_blank = is_blank(row.values.get("end"))
        if start_blank and end_blank:
            if label:
                raise InputError(f"label {label!r} given without a start and an end; a row with no "
                                 "span means the annotator marked nothing and must have no label",
                                 line=row.line, column="label", value=label)
            continue
        if start_blank or end_blank:
            given, missing = ("end", "start") if start_blank else ("start", "end")
            raise InputError(f"'{missing}' is empty but '{given}' is given; give both, or neither "
                             "for an annotator who marked nothing", line=row.line, column=missing, value="")
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
                      alternatives=[("item",) + TEXT_COLUMNS], required=("item",))
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
            value = row.values.get("text")
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

@dataclass
class Track:
    """One annotator's spans on one item as arrays (label ids index the corpus label list)."""

    start: np.ndarray
    end: np.ndarray
    label: np.ndarray

    @classmethod
    def of(cls, spans, label_ids):
        return cls(np.array([s[0] for s in spans], dtype=np.int64),
                   np.array([s[1] for s in spans], dtype=np.int64),
                   np.array([label_ids[s[2]] for s in spans], dtype=np.int64))

    def __len__(self):
        return len(self.start)


def overlap(a, b):
    """Characters shared by each span of ``a`` and each span of ``b`` (|a| × |b|)."""
    lo = np.maximum(a.start[:, None], b.start[None, :])
    hi = np.minimum(a.end[:, None], b.end[None, :])
    return np.maximum(hi - lo, 0)


def f1(tp, n_a, n_b):
    """F1 = 2TP/(|A| + |B|) (= 2PR/(P + R)); 1 when both marked nothing, 0 when TP = 0."""
    if n_a == 0 and n_b == 0:
        return 1.0
    return 2.0 * tp / (n_a + n_b)


def exact_matches(a, b):
    """A one-to-one matching of equal spans, as index arrays ``(rows, cols)``.

    Equality is an equivalence, so taking equal spans in order gives a maximum
    matching: identical spans are interchangeable.
    """
    waiting = defaultdict(list)
    for j, key in enumerate(zip(b.start.tolist(), b.end.tolist(), b.label.tolist())):
        waiting[key].append(j)
    rows, cols = [], []
    for i, key in enumerate(zip(a.start.tolist(), a.end.tolist(), a.label.tolist())):
        if waiting.get(key):
            rows.append(i)
            cols.append(waiting[key].pop(0))
    return np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64)


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


def maximum_matching(graph):
    """A maximum one-to-one matching in a boolean bipartite ``graph``: ``(rows, cols)``."""
    if graph.size == 0 or not graph.any():
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    rows, cols = linear_sum_assignment(graph, maximize=True)
    keep = graph[rows, cols]
    return rows[keep], cols[keep]


def potato_partial_matches(a, b):
    """Potato's first-fit: each span of A takes the first unmatched span of B that agrees.

    Agreement as in Potato: same label, overlap > 0, both spans of positive
    length, and overlap ≥ half of either.  Not a maximum matching: the order of
    the spans can change the result.
    """
    shared = overlap(a, b)
    len_a = (a.end - a.start)[:, None]
    len_b = (b.end - b.start)[None, :]
    agree = ((a.label[:, None] == b.label[None, :]) & (shared > 0) & (len_a > 0) & (len_b > 0)
             & ((2 * shared >= len_a) | (2 * shared >= len_b)))
    taken = np.zeros(len(b), dtype=bool)
    rows, cols = [], []
    for i in range(len(a)):
        free = np.flatnonzero(agree[i] & ~taken)
        if free.size:
            taken[free[0]] = True
            rows.append(i)
            cols.append(free[0])
    return np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64)


def five_way(a, b, shared=None):
    """The five-way comparison of two annotators' spans.

    Returns ``(rows, cols, outcome, missed_a, missed_b)``: matched span indices,
    the outcome code of each matched pair (EXACT, LABEL_ONLY, BOUNDARY_ONLY,
    BOTH), and the unmatched indices of each side.

    Spans are matched one-to-one preferring, in this order, exact match, same
    boundaries with a different label, same label with overlapping different
    boundaries, overlapping with both different: the matching maximizes the
    count of the first kind, then of the second, and so on (lexicographically).
    Exact matches are taken first (identical spans are interchangeable); the
    other three preferences are weights K², K, 1 with K larger than any count,
    in one ``linear_sum_assignment``.  Spans that share no character and do not
    have equal boundaries are never paired.
    """
    shared = overlap(a, b) if shared is None else shared
    er, ec = exact_matches(a, b)
    rest_a = np.setdiff1d(np.arange(len(a)), er)
    rest_b = np.setdiff1d(np.arange(len(b)), ec)
    rows, cols, outcome = [er], [ec], [np.full(len(er), EXACT)]
    if rest_a.size and rest_b.size:
        same_bounds = ((a.start[rest_a, None] == b.start[None, rest_b])
                       & (a.end[rest_a, None] == b.end[None, rest_b]))
        same_label = a.label[rest_a, None] == b.label[None, rest_b]
        touching = shared[np.ix_(rest_a, rest_b)] > 0
        k = float(min(rest_a.size, rest_b.size) + 1)
        weight = np.where(same_bounds, k * k, np.where(touching, np.where(same_label, k, 1.0), 0.0))
        if weight.any():
            r, c = linear_sum_assignment(weight, maximize=True)
            keep = weight[r, c] > 0
            r, c = r[keep], c[keep]
            kind = np.where(same_bounds[r, c], LABEL_ONLY, np.where(same_label[r, c], BOUNDARY_ONLY, BOTH))
            rows.append(rest_a[r])
            cols.append(rest_b[c])
            outcome.append(kind)
    rows, cols, outcome = np.concatenate(rows), np.concatenate(cols), np.concatenate(outcome)
    missed_a = np.setdiff1d(np.arange(len(a)), rows)
    missed_b = np.setdiff1d(np.arange(len(b)), cols)
    return rows, cols, outcome.astype(np.int64), missed_a, missed_b


# --------------------------------------------------------------------------- characters

def character_labels(track, length, rule="optimal"):
    """Each character's label id for one annotator (0 = ``O``; label ids are ≥ 1).

    ``optimal``: a character takes the label of the longest span covering it;
    among equally long spans the earlier row wins.  ``potato``: Potato's BIO
    fill — spans by decreasing length (stable), clipped to the text; a span
    whose first character is already tagged is skipped, otherwise it tags its
    still-untagged characters (so a shorter span can be partly cut off).
    """
    out = np.zeros(length, dtype=np.int64)
    lengths = (track.end - track.start).tolist()
    starts, ends, labels = track.start.tolist(), track.end.tolist(), track.label.tolist()
    if rule == "potato":
        for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
            s, e = max(starts[i], 0), min(ends[i], length)
            if e <= s or out[s] != 0:
                continue
            segment = out[s:e]
            segment[segment == 0] = labels[i] + 1
        return out
    # Write shortest first and, among equals, later rows first: what is written last wins.
    for i in sorted(range(len(lengths)), key=lambda i: (lengths[i], -i)):
        out[starts[i]:min(ends[i], length)] = labels[i] + 1
    return out


def character_coincidence(label_rows, n_categories):
    """Coincidence matrix of nominal values with characters as units.

    ``label_rows`` is (annotators × characters) of category ids.  Characters
    with the same count vector have the same coincidences, so they are grouped
    before :func:`agreekit.alpha.unit_coincidences` (texts have few distinct
    vectors: runs of ``O`` and of each span).
    """
    n_annotators, length = label_rows.shape
    codes = (np.arange(length)[None, :] * n_categories + label_rows).ravel()
    counts = np.bincount(codes, minlength=length * n_categories).reshape(length, n_categories)
    distinct, weight = np.unique(counts, axis=0, return_counts=True)
    return np.tensordot(weight.astype(float), unit_coincidences(distinct), axes=1)


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


def _mean_defined(values):
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    return float(finite.mean()) if finite.size else float("nan")


def _bootstrap_means(values, counts):
    """Resampled unweighted means over items of per-item ``values`` (NaN = item skipped)."""
    values = np.asarray(values, dtype=float)
    defined = np.isfinite(values)
    weights = counts[:, defined]
    total = weights.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, weights @ values[defined] / np.where(total > 0, total, 1), np.nan)


def _context(text, start, end):
    """A plain-text snippet around ``[start, end)``: the text itself, never markup."""
    if text is None:
        return None
    lo = max(0, min(start, len(text)) - CONTEXT_CHARS)
    hi = min(len(text), end + CONTEXT_CHARS)
    snippet = text[lo:hi].replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return ("…" if lo > 0 else "") + snippet + ("…" if hi < len(text) else "")


def _span_dict(item, spans, index):
    start, end, label, line = spans[index]
    out = {"start": start, "end": end, "label": label, "line": line}
    if item.text is not None:
        out["text"] = item.text[start:end]
    return out


def spans(rows, *, lengths=None, match="optimal", bootstrap=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
          progress=None):
    """Agreement report for text spans.

    ``rows``: CSV/TSV text or a list of dicts with ``item, annotator, start,
    end, label`` (half-open character offsets).  ``lengths``: ``item, length``
    or ``item, text`` rows (CSV text or dicts), or a dict item → length / text.
    ``match``: ``"optimal"`` (default) or ``"potato"`` (reproduce Potato 2.8).
    ``bootstrap`` resamples of items (0 = no intervals) with ``seed``.
    ``progress(done, total, stage)`` is called as items are scored.

    Returns a :class:`~agreekit.report.Report` with ``exact_f1``,
    ``partial_f1``, ``char_alpha`` (each value, 95% bootstrap ci, reason),
    ``disagreement`` (``total``, ``pairs``, ``labels``, ``remedies``),
    ``labels``, ``items``, ``warnings``, ``settings``, ``n_items``,
    ``n_annotators``, ``n_spans``.
    """
    if match not in MATCH_MODES:
        raise InputError(f"match must be one of {', '.join(MATCH_MODES)}, got {match!r}",
                         column="match", value=match)
    bootstrap = int(bootstrap)
    if bootstrap < 0:
        raise InputError("bootstrap must be 0 or more resamples", column="bootstrap", value=bootstrap)
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

    # Per (annotator pair) accumulators, indexed [a, b] with a < b in sorted order.
    pair_outcomes = np.zeros((n_ann, n_ann, len(OUTCOMES)), dtype=np.int64)
    pair_f1_sums = np.zeros((n_ann, n_ann, 2))
    pair_items = np.zeros((n_ann, n_ann), dtype=np.int64)
    # Per label: five-way outcomes counted by span, label-only confusions, and F1 tallies.
    label_outcomes = np.zeros((n_labels, 5), dtype=np.int64)  # exact, label_only, boundary_only, both, missed
    confusion = np.zeros((n_labels, n_labels), dtype=np.int64)
    label_tp = np.zeros((n_labels, 2))  # exact, partial
    label_total = np.zeros((n_labels, 2))  # |A_L| + |B_L| for exact (set sizes in potato mode) and partial

    item_rows, exact_values, partial_values, alpha_values = [], [], [], []
    for done, (item, annotators) in enumerate(scored, start=1):
        tracks = [Track.of(item.spans[a], label_ids) for a in annotators]
        char_rule = "potato" if match == "potato" else "optimal"
        exact_scores, partial_scores = [], []
        item_outcomes = np.zeros(len(OUTCOMES), dtype=np.int64)
        examples = []
        for i in range(len(annotators)):
            for j in range(i + 1, len(annotators)):
                a, b = tracks[i], tracks[j]
                shared = overlap(a, b)
                rows_, cols, outcome, missed_a, missed_b = five_way(a, b, shared)
                if match == "potato":
                    set_a = set(zip(a.start.tolist(), a.end.tolist(), a.label.tolist()))
                    set_b = set(zip(b.start.tolist(), b.end.tolist(), b.label.tolist()))
                    common = set_a & set_b
                    exact_scores.append(_potato_f1(len(common), len(set_a), len(set_b)))
                    for key in common:
                        label_tp[key[2], 0] += 2
                    np.add.at(label_total[:, 0], np.array([k[2] for k in set_a] + [k[2] for k in set_b], dtype=np.int64), 1)
                    pr, pc = potato_partial_matches(a, b)
                    partial_scores.append(_potato_f1(len(pr), len(a), len(b)))
                else:
                    n_exact = int(np.count_nonzero(outcome == EXACT))
                    exact_scores.append(f1(n_exact, len(a), len(b)))
                    np.add.at(label_tp[:, 0], a.label[rows_[outcome == EXACT]], 2)
                    np.add.at(label_total[:, 0], np.concatenate([a.label, b.label]), 1)
                    pr, pc = maximum_matching(partial_graph(a, b, shared))
                    partial_scores.append(f1(len(pr), len(a), len(b)))
                np.add.at(label_tp[:, 1], a.label[pr], 2)
                np.add.at(label_total[:, 1], np.concatenate([a.label, b.label]), 1)

                counts = np.bincount(outcome, minlength=4)
                pair = np.concatenate([counts, [len(missed_a), len(missed_b)]])
                ia, ib = annotator_ids[annotators[i]], annotator_ids[annotators[j]]
                pair_outcomes[ia, ib] += pair
                pair_f1_sums[ia, ib] += (exact_scores[-1], partial_scores[-1])
                pair_items[ia, ib] += 1
                item_outcomes += pair
                la, lb = a.label[rows_], b.label[cols]
                np.add.at(label_outcomes, (la, outcome), 1)
                np.add.at(label_outcomes, (lb, outcome), 1)
                np.add.at(label_outcomes, (np.concatenate([a.label[missed_a], b.label[missed_b]]), 4), 1)
                mismatch = (outcome == LABEL_ONLY) | (outcome == BOTH)
                np.add.at(confusion, (la[mismatch], lb[mismatch]), 1)
                np.add.at(confusion, (lb[mismatch], la[mismatch]), 1)
                if len(examples) < MAX_EXAMPLES:
                    examples.extend(_examples(item, annotators[i], annotators[j], rows_, cols, outcome,
                                              missed_a, missed_b, MAX_EXAMPLES - len(examples)))

        exact_item = float(np.mean(exact_scores))
        partial_item = float(np.mean(partial_scores))
        alpha_item, alpha_reason = _item_alpha(tracks, item.length, char_rule, n_labels + 1)
        exact_values.append(exact_item)
        partial_values.append(partial_item)
        alpha_values.append(alpha_item)
        n_compared = 2 * int(item_outcomes[:4].sum()) + int(item_outcomes[4:].sum())
        disagreeing = n_compared - 2 * int(item_outcomes[EXACT])
        item_rows.append({
            "item": item.name, "length": item.length, "scored": True,
            "annotators": annotators, "n_annotators": len(annotators),
            "n_spans": sum(len(t) for t in tracks),
            "exact_f1": exact_item, "partial_f1": partial_item,
            "char_alpha": alpha_item, "char_alpha_reason": alpha_reason,
            "disagreement_share": disagreeing / n_compared if n_compared else 0.0,
            "outcomes": dict(zip(OUTCOMES, item_outcomes.tolist())),
            "examples": examples,
        })
        if progress is not None:
            progress(done, len(scored), "items")

    scored_names = {item.name for item, _ in scored}
    item_rows.sort(key=lambda r: (-r["disagreement_share"], -(sum(r["outcomes"].values())
                                                             - r["outcomes"]["exact"]), r["item"]))
    for item in items:
        if item.name not in scored_names:
            reason = ("a single annotator" if len(item.spans) < 2 else
                      "potato mode: fewer than two annotators with spans, or length 0")
            item_rows.append({"item": item.name, "length": item.length, "scored": False, "reason": reason,
                              "annotators": item.annotators, "n_annotators": len(item.spans),
                              "n_spans": sum(len(s) for s in item.spans.values())})

    counts = resample_counts(len(scored), bootstrap, seed) if len(scored) >= 2 else np.zeros((0, 0))
    if progress is not None and bootstrap:
        progress(0, bootstrap, "bootstrap")

    def corpus_estimate(values, what):
        value = _mean_defined(values)
        n_defined = int(np.isfinite(np.asarray(values, dtype=float)).sum())
        ci = percentile_ci(_bootstrap_means(values, counts)) if counts.size else None
        reason = None
        if not scored:
            reason = "no item has two or more annotators"
        elif n_defined == 0:
            reason = f"{what} is undefined on every scored item"
        return estimate(value, ci=ci, reason=reason, n_items=n_defined)

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
    total = _outcome_row(pair_outcomes.sum(axis=(0, 1)))

    label_rows = []
    five_by_label = []
    spans_per_label = np.zeros(n_labels, dtype=np.int64)
    annotators_per_label = [set() for _ in range(n_labels)]
    for item in items:
        for annotator, ss in item.spans.items():
            for s in ss:
                spans_per_label[label_ids[s[2]]] += 1
                annotators_per_label[label_ids[s[2]]].add(annotator)
    for k, label in enumerate(label_names):
        with np.errstate(invalid="ignore", divide="ignore"):
            exact_l, partial_l = label_tp[k] / label_total[k]
        label_rows.append({"label": label, "n_spans": int(spans_per_label[k]),
                           "n_annotators": len(annotators_per_label[k]),
                           "exact_f1": exact_l, "partial_f1": partial_l})
        n = int(label_outcomes[k].sum())
        names = ("exact", "label_only", "boundary_only", "both", "missed")
        entry = {"label": label, "n_spans": n}
        entry.update(dict(zip(names, label_outcomes[k].tolist())))
        entry["shares"] = {name: (c / n if n else None) for name, c in zip(names, label_outcomes[k].tolist())}
        entry["confused_with"] = {label_names[m]: int(c) for m, c in
                                  sorted(enumerate(confusion[k]), key=lambda mc: -mc[1]) if c}
        five_by_label.append(entry)

    n_spans = sum(len(ss) for item in items for ss in item.spans.values())
    data = {
        "settings": {"match": match, "bootstrap": bootstrap, "seed": seed, "lengths": length_source,
                     "partial_rule": "same label, and equal or overlapping by at least half of either span",
                     "ci_level": 0.95},
        "n_items": len(items),
        "n_items_scored": len(scored),
        "n_annotators": n_ann,
        "n_spans": n_spans,
        "exact_f1": exact_est,
        "partial_f1": partial_est,
        "char_alpha": alpha_est,
        "disagreement": {
            "total": total,
            "pairs": pairs,
            "labels": five_by_label,
            "remedies": REMEDIES,
            "note": "matched pairs count once, missed spans once per side: "
                    "2·(exact + label_only + boundary_only + both) + missed_a + missed_b = n_spans; "
                    "shares are shares of those spans. Per label, counts are spans.",
        },
        "labels": label_rows,
        "items": item_rows,
        "warnings": warnings,
    }
    return Report("spans", data)


def _potato_f1(tp, n_a, n_b):
    """Potato's P, R, F1: P = TP/|A|, R = TP/|B| (0 for an empty side), F1 = 2PR/(P + R)."""
    if n_a == 0 and n_b == 0:
        return 1.0
    precision = tp / n_a if n_a else 0.0
    recall = tp / n_b if n_b else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _item_alpha(tracks, length, rule, n_categories):
    if length < 2:
        return float("nan"), "fewer than two characters"
    labels = np.stack([character_labels(t, length, rule) for t in tracks])
    o = character_coincidence(labels, n_categories)
    value = alpha_from_coincidence(o)
    return value, (undefined_reason(o) if not np.isfinite(value) else None)


def _outcome_row(counts):
    """Counts of the six outcomes with their shares of the spans compared."""
    counts = [int(c) for c in counts]
    n = 2 * sum(counts[:4]) + sum(counts[4:])
    row = dict(zip(OUTCOMES, counts))
    row["n_spans"] = n
    row["shares"] = {name: ((2 * c if k < 4 else c) / n if n else None)
                     for k, (name, c) in enumerate(zip(OUTCOMES, counts))}
    return row


def _examples(item, name_a, name_b, rows, cols, outcome, missed_a, missed_b, limit):
    """Up to ``limit`` disagreements of one pair on one item, with plain-text context when texts are known."""
    spans_a, spans_b = item.spans[name_a], item.spans[name_b]
    out = []
    for r, c, kind in zip(rows.tolist(), cols.tolist(), outcome.tolist()):
        if kind == EXACT:
            continue
        sa, sb = _span_dict(item, spans_a, r), _span_dict(item, spans_b, c)
        out.append({"a": name_a, "b": name_b, "outcome": OUTCOMES[kind], "span_a": sa, "span_b": sb,
                    "context": _context(item.text, min(sa["start"], sb["start"]), max(sa["end"], sb["end"]))})
    for side, missed, spans_ in (("missed_a", missed_a, spans_a), ("missed_b", missed_b, spans_b)):
        for k in missed.tolist():
            span = _span_dict(item, spans_, k)
            out.append({"a": name_a, "b": name_b, "outcome": side,
                        "span_a": span if side == "missed_a" else None,
                        "span_b": span if side == "missed_b" else None,
                        "context": _context(item.text, span["start"], span["end"])})
    return out[:limit]
