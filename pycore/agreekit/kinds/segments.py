"""Time segments: agreement between annotators' timed events on clips.

Input rows ``item, annotator, start, end, label`` in seconds.  A row with an
item and an annotator but no start, end or label means the annotator went
through the clip and marked nothing; an annotator with no row for a clip never
saw it.  ``end < start`` is an input error (Potato silently swaps the two);
zero-length segments (``start == end``) are allowed and kept.

Measures (definitions in ``docs/segments.md``):

* temporal IoU of two segments [s, e]: |overlap| / |union|;
* matching of two annotators' segments on a clip by temporal IoU at a
  threshold, in the same modes as boxes (:mod:`agreekit.matching`), and from
  it Potato's raw measures and detection / classification α over clusters;
* the boundary-tolerance sweep: for each tolerance τ, starts matched to starts
  and ends to ends one-to-one (maximum matching, |Δ| ≤ τ) and the boundary
  precision, recall and F1 (the onset/offset evaluation of sed_eval,
  Mesaros, Heittola & Virtanen 2016, "Metrics for polyphonic sound event
  detection", applied to pairs of annotators).

No σ: a segment from another clip is not a fair chance comparison when clips
differ in length, so the between-item baseline used for boxes does not exist
here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from ..measures.bootstrap import DEFAULT_LEVEL, DEFAULT_RESAMPLES, DEFAULT_SEED, percentile_ci, resample_counts
from .. import options as opts
from ..object_sets import ObjectSet
from ..objects import ObjectKind, object_report
from ..results import Report, estimate
from ..registry import register
from ..rows import ANNOTATOR_SYNONYMS, InputError, interval_is_blank, read_table, to_float, to_text

COLUMNS = ("item", "annotator", "start", "end", "label")
SYNONYMS = {
    "item": ("clip", "clip_id", "item_id", "file", "audio", "video", "recording", "episode", "trace"),
    "annotator": ANNOTATOR_SYNONYMS,
    "start": ("start_time", "onset", "begin", "from", "t_start", "start_s"),
    "end": ("end_time", "offset", "stop", "to", "t_end", "end_s"),
    "label": ("class", "category", "event", "event_label", "tag", "speaker", "phase"),
}
REQUIRED = ("item", "annotator", "start", "end")

DEFAULT_TOLERANCES = (0.1, 0.25, 0.5, 1.0, 2.0)
# Decimal times are not exact in binary: 2.1 − 2.0 is 0.10000000000000009.
# A slack of a nanosecond keeps "|Δ| ≤ 0.1 s" inclusive for such inputs while
# staying far below any time resolution annotators work at.
TOLERANCE_SLACK = 1e-9

IOU_RULES = ("default", "potato")


# --------------------------------------------------------------------------- input

@dataclass
class Track:
    """One annotator's segments on one clip, in row order."""

    start: np.ndarray
    end: np.ndarray
    labels: list
    lines: list

    def __len__(self):
        return len(self.labels)


@dataclass
class Corpus:
    """Checked segment input: ``items[item][annotator] -> Track``.

    Items keep the order of their first row, annotators within an item are
    sorted as strings (the pair and cluster order, as in Potato).
    ``warnings`` lists suspicious but valid input.
    """

    items: dict
    warnings: list

    @property
    def annotators(self):
        return sorted({a for tracks in self.items.values() for a in tracks})

    def scored_items(self):
        """Items with at least two annotators, the only ones that can be compared."""
        return [item for item, tracks in self.items.items() if len(tracks) >= 2]


def read_segments(source):
    """Parse and check segment rows into a :class:`Corpus`.

    Errors (the whole input is rejected) name the line and column: missing item
    or annotator, non-numeric or non-finite time, only one of start and end
    given, a label without a segment, ``end < start``.
    """
    rows = read_table(source, COLUMNS, SYNONYMS, required=REQUIRED)
    raw = {}  # item -> annotator -> list of (start, end, label, line) or []
    marked_nothing = {}  # (item, annotator) -> line of the first empty row
    for row in rows:
        item = _text(row, "item")
        annotator = _text(row, "annotator")
        label = _text(row, "label", required=False)
        tracks = raw.setdefault(item, {})
        segments = tracks.setdefault(annotator, [])
        if interval_is_blank(row, label, "segment"):
            marked_nothing.setdefault((item, annotator), row.line)
            continue
        start = _seconds(row, "start")
        end = _seconds(row, "end")
        if end < start:
            raise InputError(f"end {end:g} is before start {start:g}", line=row.line, column="end",
                             value=row.values.get("end"))
        segments.append((start, end, label, row.line))
    items, warnings = _build_tracks(raw)
    mixed = sorted(line for (item, annotator), line in marked_nothing.items() if raw[item][annotator])
    if mixed:
        warnings.append(f"{len(mixed)} empty row(s) for an annotator who also marked segments on that item, "
                        f"lines {_line_list(mixed)}: the empty row adds nothing and is ignored")
    return Corpus(items, warnings)


def _text(row, column, required=True):
    """:func:`~agreekit.rows.to_text`, with a fast path for the common case of a non-blank string."""
    value = row.values.get(column)
    if type(value) is str and (value := value.strip()):
        return value
    return to_text(row, column, required)


def _seconds(row, column):
    """:func:`~agreekit.rows.to_float`, with a fast path for a string holding a finite number."""
    value = row.values.get(column)
    if type(value) is str:
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if math.isfinite(number):
            return number
    return to_float(row, column)  # converts other types, or raises the located error


def _build_tracks(raw):
    items = {}
    zero_length = []
    duplicates = []
    single = []
    for item, tracks in raw.items():
        built = {}
        for annotator in sorted(tracks):
            segments = tracks[annotator]
            start = np.array([s[0] for s in segments], dtype=float)
            end = np.array([s[1] for s in segments], dtype=float)
            labels = [s[2] for s in segments]
            lines = [s[3] for s in segments]
            zero_length.extend(line for s, e, line in zip(start, end, lines) if s == e)
            seen = {}
            for key, line in zip(zip(start.tolist(), end.tolist(), labels), lines):
                if key in seen:
                    duplicates.append((line, seen[key]))
                seen.setdefault(key, line)
            built[annotator] = Track(start, end, labels, lines)
        if len(built) < 2:
            single.append(item)
        items[item] = built
    warnings = []
    if zero_length:
        warnings.append(f"{len(zero_length)} zero-length segment(s) (start = end), lines "
                        f"{_line_list(zero_length)}: kept; by default two identical ones match, with match='potato' "
                        "(Potato 2.8) they match nothing")
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate segment(s) repeating an earlier one of the same "
                        f"annotator on the same item, lines {_line_list([d[0] for d in duplicates])}: kept")
    if single:
        warnings.append(f"{len(single)} item(s) with a single annotator are not scored: "
                        f"{_name_list(single)}")
    return items, warnings


def _line_list(lines, limit=10):
    shown = ", ".join(str(n) for n in lines[:limit])
    return shown + (f" and {len(lines) - limit} more" if len(lines) > limit else "")


def _name_list(names, limit=10):
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


# --------------------------------------------------------------------------- temporal IoU

def temporal_iou(start_a, end_a, start_b, end_b, rule="default"):
    """Temporal IoU of every segment of A with every segment of B, shape (|A|, |B|).

    IoU = I / (len_a + len_b − I) with I = max(0, min(e_a, e_b) − max(s_a, s_b)),
    the interval form of the Jaccard index.  Zero-length segments have no
    measure, so the ratio is 0/0 for two of them:

    * ``rule="default"`` (Potato 2.11): two identical zero-length segments have
      IoU 1 (the same instant marked twice), any other pair with a zero-length
      segment has I = 0 and IoU 0;
    * ``rule="potato"`` (Potato 2.8, ``geometry.temporal_iou``): IoU 0 whenever
      either segment has end ≤ start, even for two identical instants.
    """
    sa = np.asarray(start_a, dtype=float)[:, None]
    ea = np.asarray(end_a, dtype=float)[:, None]
    sb = np.asarray(start_b, dtype=float)[None, :]
    eb = np.asarray(end_b, dtype=float)[None, :]
    inter = np.maximum(0.0, np.minimum(ea, eb) - np.maximum(sa, sb))
    union = (ea - sa) + (eb - sb) - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0)
    if rule == "potato":
        return np.where((ea > sa) & (eb > sb), iou, 0.0)
    if rule == "default":
        # union = 0 only for two zero-length segments; identical ones agree fully.
        return np.where((union <= 0) & (sa == sb) & (ea == eb), 1.0, iou)
    raise ValueError(f"unknown IoU rule {rule!r}; expected one of {', '.join(IOU_RULES)}")


# --------------------------------------------------------------------------- boundary sweep

def within_tolerance(delta, tolerance):
    """|Δ| ≤ τ, inclusive, with :data:`TOLERANCE_SLACK` for decimal rounding."""
    return np.abs(delta) <= tolerance + TOLERANCE_SLACK


def boundary_matching_size(times_a, times_b, tolerance):
    """Size of a maximum one-to-one matching of ``times_a`` to ``times_b`` with |Δ| ≤ τ.

    Bipartite maximum matching (Hopcroft–Karp, scipy's
    ``maximum_bipartite_matching``) on the graph whose edges are the pairs
    within tolerance.  The reference implementation for one pair of lists;
    :func:`boundary_sweep` batches the same computation over a corpus.
    """
    a = np.asarray(times_a, dtype=float)
    b = np.asarray(times_b, dtype=float)
    if a.size == 0 or b.size == 0:
        return 0
    rows, cols = np.nonzero(within_tolerance(a[:, None] - b[None, :], tolerance))
    graph = csr_matrix((np.ones(rows.size), (rows, cols)), shape=(a.size, b.size))
    return int(np.count_nonzero(maximum_bipartite_matching(graph, perm_type="column") >= 0))


@dataclass
class BoundaryCounts:
    """Matched boundary counts of every (item, annotator pair) block.

    ``matched[t, k]`` is the number of matched boundaries (starts plus ends) at
    tolerance ``tolerances[t]`` in block k; ``n_a[k]``, ``n_b[k]`` count the
    boundaries (2 per segment) of the block's two annotators;
    ``matched_starts`` / ``matched_ends`` split ``matched``.
    """

    tolerances: np.ndarray
    item_index: np.ndarray
    pairs: list
    pair_index: np.ndarray
    n_a: np.ndarray
    n_b: np.ndarray
    matched_starts: np.ndarray
    matched_ends: np.ndarray

    @property
    def matched(self):
        return self.matched_starts + self.matched_ends


def boundary_counts(corpus, items, tolerances):
    """Matched start and end counts for every scored (item, annotator pair).

    All blocks at one tolerance form one block-diagonal bipartite graph, so
    scipy's matching runs once per tolerance and kind (start or end) instead of
    once per pair: a maximum matching of a disjoint union is the union of
    maximum matchings of its parts.
    """
    tolerances = np.sort(np.asarray(tolerances, dtype=float))
    widest = tolerances[-1]
    pair_ids = {}
    item_index, pair_index, n_a, n_b = [], [], [], []
    edges = {"start": ([], [], []), "end": ([], [], [])}  # rows, cols, |Δ|
    row_offset = col_offset = 0
    block_of_row = []
    for i, item in enumerate(items):
        tracks = corpus.items[item]
        names = list(tracks)
        for x in range(len(names)):
            for y in range(x + 1, len(names)):
                a, b = tracks[names[x]], tracks[names[y]]
                k = len(item_index)
                item_index.append(i)
                pair_index.append(pair_ids.setdefault((names[x], names[y]), len(pair_ids)))
                n_a.append(2 * len(a))
                n_b.append(2 * len(b))
                if len(a) and len(b):
                    for kind in ("start", "end"):
                        delta = np.abs(np.subtract.outer(getattr(a, kind), getattr(b, kind)))
                        r, c = np.nonzero(within_tolerance(delta, widest))
                        rows, cols, gaps = edges[kind]
                        rows.append(r + row_offset)
                        cols.append(c + col_offset)
                        gaps.append(delta[r, c])
                block_of_row.append(np.full(len(a), k))
                row_offset += len(a)
                col_offset += len(b)
    n_blocks = len(item_index)
    block_of_row = np.concatenate(block_of_row) if block_of_row else np.zeros(0, dtype=int)
    matched = {}
    for kind, (rows, cols, gaps) in edges.items():
        counts = np.zeros((tolerances.size, n_blocks))
        if rows:
            rows, cols, gaps = np.concatenate(rows), np.concatenate(cols), np.concatenate(gaps)
            for t, tolerance in enumerate(tolerances):
                keep = within_tolerance(gaps, tolerance)
                graph = csr_matrix((np.ones(np.count_nonzero(keep)), (rows[keep], cols[keep])),
                                   shape=(row_offset, col_offset))
                partner = maximum_bipartite_matching(graph, perm_type="column")
                counts[t] = np.bincount(block_of_row[partner >= 0], minlength=n_blocks)
        matched[kind] = counts
    pairs = sorted(pair_ids, key=pair_ids.get)
    return BoundaryCounts(tolerances, np.array(item_index, dtype=int), pairs,
                          np.array(pair_index, dtype=int), np.array(n_a, dtype=float),
                          np.array(n_b, dtype=float), matched["start"], matched["end"])


def boundary_scores(matched, n_a, n_b):
    """Boundary precision, recall and F1 from pooled counts (arrays broadcast).

    For a pair (a, b): precision = matched / boundaries of a (a's boundaries
    that b also marked), recall = matched / boundaries of b, and
    F1 = 2·matched / (boundaries of a + boundaries of b), which is symmetric.
    NaN where a denominator is 0.
    """
    matched, n_a, n_b = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (matched, n_a, n_b)))
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(n_a > 0, matched / np.where(n_a > 0, n_a, 1), np.nan)
        recall = np.where(n_b > 0, matched / np.where(n_b > 0, n_b, 1), np.nan)
        total = n_a + n_b
        f1 = np.where(total > 0, 2 * matched / np.where(total > 0, total, 1), np.nan)
    return precision, recall, f1


NO_BOUNDARIES_REASON = "no boundaries to compare: no scored item has a segment"


def sweep_table(counts, weights=None, level=DEFAULT_LEVEL):
    """The boundary sweep, pooled over items and annotator pairs, and per pair.

    Pooled figures sum matched and total boundaries over every (item, pair)
    block before dividing (micro-averaging, as sed_eval does over files).
    ``weights`` (resamples × items, from :func:`~agreekit.bootstrap.resample_counts`)
    gives each pooled F1 a percentile interval over items.
    Returns ``(pooled, per_pair, per_item)``: a list of rows, ``{(a, b): rows}``
    and the boundary F1 of each item (tolerances × items).
    """
    n_items = int(counts.item_index.max()) + 1 if counts.item_index.size else 0

    def per_item(values):
        return np.stack([np.bincount(counts.item_index, weights=row, minlength=n_items) for row in
                         np.atleast_2d(values)])

    matched_items = per_item(counts.matched)            # tolerances × items
    total_items = per_item(counts.n_a + counts.n_b)[0]  # items
    pooled = []
    precision, recall, f1 = boundary_scores(counts.matched.sum(axis=1), counts.n_a.sum(), counts.n_b.sum())
    _, _, start_f1 = boundary_scores(2 * counts.matched_starts.sum(axis=1), counts.n_a.sum(), counts.n_b.sum())
    _, _, end_f1 = boundary_scores(2 * counts.matched_ends.sum(axis=1), counts.n_a.sum(), counts.n_b.sum())
    for t, tolerance in enumerate(counts.tolerances):
        ci = None
        if weights is not None and weights.shape[0] > 0:
            with np.errstate(divide="ignore", invalid="ignore"):
                resampled = 2 * (weights @ matched_items[t]) / (weights @ total_items)
            ci = percentile_ci(resampled, level)
        pooled.append({"tolerance": float(tolerance), "precision": precision[t], "recall": recall[t],
                       "f1": f1[t], "f1_ci": ci, "start_f1": start_f1[t], "end_f1": end_f1[t],
                       "matched": int(counts.matched[t].sum()), "n_a": int(counts.n_a.sum()),
                       "n_b": int(counts.n_b.sum()),
                       "reason": None if np.isfinite(f1[t]) else NO_BOUNDARIES_REASON})
    per_pair = {}
    for p, pair in enumerate(counts.pairs):
        block = counts.pair_index == p
        n_a, n_b = counts.n_a[block].sum(), counts.n_b[block].sum()
        matched = counts.matched[:, block].sum(axis=1)
        precision, recall, f1 = boundary_scores(matched, n_a, n_b)
        per_pair[pair] = [{"tolerance": float(tolerance), "precision": precision[t], "recall": recall[t],
                           "f1": f1[t], "matched": int(matched[t]), "n_a": int(n_a), "n_b": int(n_b)}
                          for t, tolerance in enumerate(counts.tolerances)]
    with np.errstate(divide="ignore", invalid="ignore"):
        per_item_f1 = np.where(total_items > 0, 2 * matched_items / np.where(total_items > 0, total_items, 1),
                               np.nan)
    return pooled, per_pair, per_item_f1


# --------------------------------------------------------------------------- report

NO_SIGMA_REASON = ("σ is not computed for time segments: its chance baseline compares annotations of "
                   "different items, and a segment from a different clip is not a fair chance comparison "
                   "when clips differ in length")


def segment_objects(corpus):
    """The scored items of ``corpus`` as an :class:`~agreekit.objects.ObjectSet`, with start and end arrays."""
    annotators = corpus.annotators
    position = {a: k for k, a in enumerate(annotators)}
    item_ids, members, offsets = [], [], [0]
    starts, ends, labels, owner, lines = [], [], [], [], []
    count = 0
    for item in corpus.scored_items():
        member = {}
        for annotator, track in corpus.items[item].items():
            starts.append(track.start)
            ends.append(track.end)
            labels.extend(track.labels)
            lines.extend(track.lines)
            owner.extend([position[annotator]] * len(track))
            member[position[annotator]] = np.arange(count, count + len(track))
            count += len(track)
        item_ids.append(item)
        members.append(member)
        offsets.append(count)
    objects = ObjectSet(item_ids=item_ids, annotators=annotators, offsets=np.array(offsets),
                        annotator_of=np.array(owner, dtype=int), labels=labels, members=members,
                        lines=np.array(lines, dtype=int))
    start = np.concatenate(starts) if starts else np.zeros(0)
    end = np.concatenate(ends) if ends else np.zeros(0)
    return objects, start, end


def segment_kind(start, end, rule):
    """The :class:`~agreekit.objects.ObjectKind` of segments: temporal IoU, and no distance (no σ)."""
    return ObjectKind(similarity=lambda idx: temporal_iou(start[idx], end[idx], start[idx], end[idx], rule),
                      paired_distance=None, distance_block=None)


@register("segments", title="Segments", summary="time segments: item, annotator, start, end, label (seconds)",
          options=(opts.THRESHOLD.but(label="Temporal IoU threshold for a match"), opts.MATCH,
                   opts.Option("tolerances", "floats", "Boundary tolerances (seconds)",
                               "the boundary sweep's tolerances, comma-separated", minimum=0.0, maximum=1e6),
                   opts.BOOTSTRAP, opts.SEED),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_segments", position=3)
def segments(rows, *, threshold=0.5, match="optimal", tolerances=DEFAULT_TOLERANCES,
             bootstrap=DEFAULT_RESAMPLES, seed=DEFAULT_SEED, progress=None):
    """Agreement report for time segments.

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text (header optional) or dicts with ``item, annotator, start,
        end, label`` in seconds.
    threshold : float
        Temporal IoU at or above which two segments match.
    match : {"optimal", "potato"}
        ``potato`` reproduces Potato 2.8: its matching, first-fit clusters and
        zero-length rule.
    tolerances : sequence of float
        Seconds, for the boundary sweep.
    bootstrap, seed, progress
        As for :func:`agreekit.boxes`.

    Returns
    -------
    Report
        The object report without σ (``localization.sigma`` is undefined with
        its reason), plus ``boundary_sweep``; every key in ``docs/report.md``.
    """
    tolerances = np.array(sorted(set(tolerances)))
    potato = match == "potato"
    corpus = read_segments(rows)
    objects, start, end = segment_objects(corpus)
    data = object_report(objects, segment_kind(start, end, "potato" if potato else "default"),
                         threshold=threshold, match_mode=match, bootstrap=bootstrap, seed=seed, pair_budget=0, progress=progress, localization=False,
                         potato_alpha=potato)
    n_items = len(objects.item_ids)
    weights = resample_counts(n_items, bootstrap, seed) if n_items >= 2 else None
    if progress is not None:
        progress(0, 1, "boundary sweep")
    counts = boundary_counts(corpus, objects.item_ids, tolerances)
    sweep, sweep_by_pair, item_f1 = sweep_table(counts, weights)
    warnings = list(corpus.warnings)
    if n_items == 0:
        warnings.append("no item has two or more annotators: there is nothing to compare")

    for entry in data["pairs"]:
        entry["boundary_sweep"] = sweep_by_pair.get((entry["a"], entry["b"]), [])
    item_position = {item: i for i, item in enumerate(objects.item_ids)}
    for entry in data["items"]:
        column = item_f1[:, item_position[entry["item"]]]
        entry["boundary_f1"] = [{"tolerance": float(t), "f1": f} for t, f in zip(tolerances, column)]
    settings = {"threshold": threshold, "match": match, "tolerances": tolerances.tolist(),
                "iou_rule": "potato" if potato else "default", "bootstrap": bootstrap, "seed": seed,
                "ci_level": DEFAULT_LEVEL}
    return Report("segments", {
        "settings": settings,
        "n_items": n_items,
        "n_items_total": len(corpus.items),
        "n_annotators": len(corpus.annotators),
        "n_segments": int(sum(len(t) for tracks in corpus.items.values() for t in tracks.values())),
        **data,
        "localization": {"sigma": estimate(None, reason=NO_SIGMA_REASON),
                         "ks": estimate(None, reason=NO_SIGMA_REASON)},
        "boundary_sweep": sweep,
        "warnings": warnings,
    })
