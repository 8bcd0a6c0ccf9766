"""Time segments: agreement between annotators' timed events on clips.

Input rows ``item, annotator, start, end, label`` in seconds.  A row with an
item and an annotator but no start, end or label means the annotator went
through the clip and marked nothing; an annotator with no row for a clip never
saw it.  ``end < start`` is an input error (Potato silently swaps the two);
zero-length segments (``start == end``) are allowed and kept.

Measures (definitions in ``docs/segments.md``, differences from Potato in
``docs/potato-differences.md``):

* temporal IoU of two segments (:mod:`agreekit.geometry.intervals`);
* matching of two annotators' segments on a clip by temporal IoU at a
  threshold, in the same modes as boxes (:mod:`agreekit.matching`), and from
  it Potato's raw measures and detection / classification α over clusters
  (:mod:`agreekit.objects`);
* the boundary-tolerance sweep (:mod:`agreekit.measures.boundaries`): for each
  tolerance τ, starts matched to starts and ends to ends one-to-one and the
  boundary precision, recall and F1 (the onset/offset evaluation of sed_eval,
  applied to pairs of annotators).

* σ and KS against a within-clip chance baseline: the matched pairs' distances
  against those of the pairs matched after each clip's segments are placed at
  random inside the clip (:mod:`agreekit.kinds.segment_sigma`).  Not the
  between-item baseline of boxes: a segment from another clip is not a fair
  chance comparison when clips differ in length.

This module reads the rows, builds the objects and the blocks of the sweep,
and assembles the report.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import options as opts
from ..arrays import content_ranks, name_list
from ..geometry.intervals import temporal_iou
from ..measures.bootstrap import DEFAULT_LEVEL, DEFAULT_RESAMPLES, DEFAULT_SEED, resample_counts
from ..measures.boundaries import BoundaryBlock, boundary_counts, sweep_table
from ..object_sets import ObjectSet, object_ranks
from ..objects import ObjectKind, object_report
from ..registry import register
from ..results import Report
from ..rows import ANNOTATOR_SYNONYMS, InputError, interval_is_blank, read_table, shortened, to_float, to_text
from .durations import read_durations
from .segment_sigma import DEFAULT_PLACEMENTS, MAX_PLACEMENTS, report_localization
from .unitizing_report import segment_alpha_u

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
# The largest time magnitude. Beyond 1e300, lengths and unions overflow to inf (identical segments
# got IoU 0); α_U's sums of cubed lengths overflow from ~1e102. 1e100 seconds leaves both finite.
MAX_SECONDS = 1e100

# --------------------------------------------------------------------------- input

class Segment(NamedTuple):
    """One checked segment row."""

    start: float
    end: float
    label: str
    line: int


@dataclass(frozen=True)
class Track:
    """One annotator's segments on one clip, in row order."""

    start: np.ndarray
    end: np.ndarray
    labels: list
    lines: list

    def __len__(self):
        return len(self.labels)


@dataclass(frozen=True)
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


def read_segments(source, progress=None):
    """Parse and check segment rows.

    Parameters
    ----------
    source : str or list of dict
        CSV/TSV text (header optional) or dicts with ``item, annotator, start,
        end, label``.
    progress : callable, optional
        Passed to :func:`agreekit.rows.read_table`.

    Returns
    -------
    Corpus
        The tracks of every item and annotator, and warnings about suspicious
        but valid input (zero-length and duplicate segments, items with one
        annotator, empty rows of annotators who also marked segments).

    Raises
    ------
    InputError
        Naming the line and column: missing item or annotator, non-numeric or
        non-finite time or one beyond ``MAX_SECONDS``, only one of start and
        end given, a label without a segment, ``end < start``.
    """
    rows = read_table(source, COLUMNS, SYNONYMS, required=REQUIRED, progress=progress)
    raw = {}  # item -> annotator -> [Segment] ([] for "marked nothing")
    marked_nothing = {}  # (item, annotator) -> line of the first empty row
    for row in rows:
        item = _text(row, "item")
        annotator = _text(row, "annotator")
        label = _text(row, "label", required=False)
        marked = raw.setdefault(item, {}).setdefault(annotator, [])
        if interval_is_blank(row, label, "segment"):
            marked_nothing.setdefault((item, annotator), row.line)
            continue
        start = _seconds(row, "start")
        end = _seconds(row, "end")
        if end < start:
            raise InputError(f"end {end:g} is before start {start:g}", line=row.line, column="end",
                             value=row.values.get("end"))
        marked.append(Segment(start, end, label, row.line))
    items, warnings = _build_tracks(raw)
    mixed = sorted(line for (item, annotator), line in marked_nothing.items() if raw[item][annotator])
    if mixed:
        warnings.append(f"{len(mixed)} empty row(s) for an annotator who also marked segments on that item, "
                        f"lines {name_list(mixed)}: the empty row adds nothing and is ignored")
    return Corpus(items, warnings)


def _text(row, column, required=True):
    """:func:`~agreekit.rows.to_text`, with a fast path for the common case of a non-blank string."""
    value = row.values.get(column)
    if type(value) is str and (value := value.strip()):
        return value
    return to_text(row, column, required)


def _seconds(row, column):
    """:func:`~agreekit.rows.to_float` within ±``MAX_SECONDS``, with a fast path for a string holding one."""
    value = row.values.get(column)
    if type(value) is str:
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if abs(number) <= MAX_SECONDS:  # False for NaN
            return number
    number = to_float(row, column)  # converts other types, or raises the located error
    if abs(number) > MAX_SECONDS:
        raise InputError(f"'{column}' is beyond ±{MAX_SECONDS:g} seconds; rescale the times", line=row.line,
                         column=column, value=shortened(value))
    return number


def _build_tracks(raw):
    """``{item: {annotator: Track}}`` (annotators sorted) from parsed rows, and the warnings about them."""
    items = {}
    zero_length, duplicates, single = [], [], []
    for item, tracks in raw.items():
        built = {}
        for annotator in sorted(tracks):
            segments = tracks[annotator]
            track = Track(start=np.array([s.start for s in segments], dtype=float),
                          end=np.array([s.end for s in segments], dtype=float),
                          labels=[s.label for s in segments], lines=[s.line for s in segments])
            zero_length.extend(line for s, e, line in zip(track.start, track.end, track.lines) if s == e)
            seen = set()
            for key, line in zip(zip(track.start.tolist(), track.end.tolist(), track.labels), track.lines):
                if key in seen:
                    duplicates.append(line)
                seen.add(key)
            built[annotator] = track
        if len(built) < 2:
            single.append(item)
        items[item] = built
    warnings = []
    if zero_length:
        warnings.append(f"{len(zero_length)} zero-length segment(s) (start = end), lines "
                        f"{name_list(zero_length)}: kept; by default two identical ones match, with match='potato' "
                        "(Potato 2.8) they match nothing above threshold 0")
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate segment(s) repeating an earlier one of the same "
                        f"annotator on the same item, lines {name_list(duplicates)}: kept")
    if single:
        warnings.append(f"{len(single)} item(s) with a single annotator are not scored: "
                        f"{name_list([repr(item) for item in single])}")
    return items, warnings


# --------------------------------------------------------------------------- objects and blocks

class SegmentObjects(NamedTuple):
    """The scored segments as objects, with their start and end times by global object index."""

    objects: ObjectSet
    start: np.ndarray
    end: np.ndarray


def segment_objects(corpus, canonical=True):
    """The scored items of ``corpus`` as objects for :func:`~agreekit.objects.object_report`.

    Parameters
    ----------
    corpus : Corpus
        Checked input (:func:`read_segments`).
    canonical : bool
        Order each annotator's segments by start, end, then label: the
        tie-break of matching among equally good matchings (as for boxes), so
        that the order of the rows cannot change a report.  False keeps row
        order, as Potato mode must.

    Returns
    -------
    SegmentObjects
        The :class:`~agreekit.objects.ObjectSet` of the items with two or more
        annotators, contiguous by item, and the segments' start and end times.
    """
    annotators = corpus.annotators
    position = {a: k for k, a in enumerate(annotators)}
    item_ids, members, offsets = [], [], [0]
    starts, ends, labels, owner, lines = [], [], [], [], []
    count = 0
    for item in corpus.scored_items():
        member = {}
        for annotator, track in corpus.items[item].items():
            order = _canonical_order(track) if canonical else list(range(len(track)))
            starts.append(track.start[order])
            ends.append(track.end[order])
            labels.extend(track.labels[k] for k in order)
            lines.extend(track.lines[k] for k in order)
            owner.extend([position[annotator]] * len(track))
            member[position[annotator]] = np.arange(count, count + len(track))
            count += len(track)
        item_ids.append(item)
        members.append(member)
        offsets.append(count)
    start = np.concatenate(starts) if starts else np.zeros(0)
    end = np.concatenate(ends) if ends else np.zeros(0)
    keys = list(zip(start.tolist(), end.tolist(), ["" if label is None else str(label) for label in labels]))
    item_ranks = content_ranks([[[keys[k] for k in m] for m in member.values()] for member in members], item_ids)
    objects = ObjectSet(item_ids=item_ids, annotators=annotators, offsets=np.array(offsets),
                        annotator_of=np.array(owner, dtype=int), labels=labels, members=members,
                        lines=np.array(lines, dtype=int), item_ranks=item_ranks,
                        object_ranks=object_ranks(item_ranks, members, annotators, keys))
    return SegmentObjects(objects, start, end)


def _canonical_order(track):
    """Positions of a track's segments sorted by start, end, then label."""
    keys = list(zip(track.start.tolist(), track.end.tolist(), track.labels))
    return sorted(range(len(keys)), key=keys.__getitem__)


def segment_kind(start, end, rule):
    """How segments compare: temporal IoU as the similarity, and no distance (no σ).

    Parameters
    ----------
    start, end : ndarray, shape (n,)
        Times of the segments, by global object index.
    rule : {"default", "potato"}
        The zero-length rule of :func:`~agreekit.geometry.intervals.temporal_iou`.

    Returns
    -------
    ObjectKind
    """
    return ObjectKind(similarity=lambda idx: temporal_iou(start[idx], end[idx], start[idx], end[idx], rule),
                      paired_distance=None, distance_block=None)


class PairBlocks(NamedTuple):
    """The boundary blocks of a corpus and the annotator pairs their ``pair`` positions name."""

    blocks: list   # BoundaryBlock per (item, annotator pair): items in order, pairs in sorted order
    pairs: list    # pairs[p] = (a, b), annotator names with a < b


def boundary_blocks(corpus, items):
    """One :class:`~agreekit.measures.boundaries.BoundaryBlock` per (item, annotator pair).

    Parameters
    ----------
    corpus : Corpus
        Checked input.
    items : sequence
        The items to take, in order (block ``item`` is the position here).

    Returns
    -------
    PairBlocks
        Blocks in item order, then annotator pair order; pairs numbered in
        order of first appearance.
    """
    pair_position = {}
    blocks = []
    for i, item in enumerate(items):
        tracks = corpus.items[item]
        names = list(tracks)
        for x in range(len(names)):
            for y in range(x + 1, len(names)):
                a, b = tracks[names[x]], tracks[names[y]]
                pair = pair_position.setdefault((names[x], names[y]), len(pair_position))
                blocks.append(BoundaryBlock(item=i, pair=pair, start_a=a.start, end_a=a.end,
                                            start_b=b.start, end_b=b.end))
    return PairBlocks(blocks, sorted(pair_position, key=pair_position.get))


# --------------------------------------------------------------------------- report

@register("segments", title="Segments", summary="time segments: item, annotator, start, end, label (seconds)",
          options=(opts.THRESHOLD.but(label="Temporal IoU threshold for a match"), opts.MATCH,
                   opts.Option("tolerances", "floats", "Boundary tolerances (seconds)",
                               "the boundary sweep's tolerances, comma-separated", minimum=0.0, maximum=1e6),
                   opts.Option("durations", "table", "Clip durations",
                               "item,duration rows in seconds (a file on the command line); without them a "
                               "clip ends at its last segment end"),
                   opts.DISTANCE.but(choices=opts.DISTANCE.choices[:2]),
                   opts.Option("placements", "int", "Chance placements (σ)",
                               "K, seeded random placements of each clip's segments for σ's within-clip chance "
                               "baseline; empty: until the chance mean's standard error is at most 0.0025",
                               minimum=1, maximum=MAX_PLACEMENTS),
                   opts.BOOTSTRAP, opts.SEED),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_segments", position=3)
def segments(rows, *, threshold=0.5, match="optimal", tolerances=DEFAULT_TOLERANCES, durations=None,
             distance="giou", placements=DEFAULT_PLACEMENTS, bootstrap=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
             progress=None):
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
    durations : str, list of dict or dict, optional
        ``item, duration`` rows in seconds, or a dict item → seconds
        (:func:`agreekit.kinds.durations.read_durations`), for α_U and σ's
        chance placements.
    distance : {"giou", "iou"}
        The distance of σ and KS: (1 − GIoU)/2 or 1 − tIoU.
    placements : int or None
        K, the seeded random placements of σ's within-clip chance baseline;
        None: 20 at a time until the chance mean's standard error is at most
        0.0025 (at most 1,000; :func:`agreekit.measures.segment_chance.chance_matches`).
    bootstrap, seed, progress
        As for :func:`agreekit.boxes`; ``seed`` also seeds the placements.

    Returns
    -------
    Report
        The object report with σ and KS against the within-clip chance
        baseline (:mod:`agreekit.kinds.segment_sigma`; undefined, with the
        reason, in potato mode), plus ``boundary_sweep`` and
        ``unitizing_alpha`` (α_U over seconds,
        :mod:`agreekit.kinds.unitizing_report`); every key in ``docs/report.md``.

    References
    ----------
    Mesaros, A., Heittola, T. & Virtanen, T. (2016). Metrics for polyphonic
    sound event detection. Applied Sciences 6(6), 162.  Differences from
    Potato: ``docs/potato-differences.md``.
    """
    tolerances = np.array(sorted(set(tolerances)))
    rule = "potato" if match == "potato" else "default"
    corpus = read_segments(rows, progress)
    clip_durations = None if durations is None else read_durations(durations, SYNONYMS["item"])
    objects, start, end = segment_objects(corpus, canonical=match != "potato")
    data = object_report(objects, segment_kind(start, end, rule), threshold=threshold, match_mode=match,
                         bootstrap=bootstrap, seed=seed, pair_budget=0, progress=progress, localization=False,
                         potato_alpha=match == "potato")
    n_items = len(objects.item_ids)
    weights = resample_counts(n_items, bootstrap, seed, objects.item_ranks) if n_items >= 2 else None
    if progress is not None:
        progress(0, 1, "boundary sweep")
    paired = boundary_blocks(corpus, objects.item_ids)
    sweep = sweep_table(boundary_counts(paired.blocks, tolerances), weights)
    by_pair = dict(zip(paired.pairs, sweep.by_pair))
    for entry in data["pairs"]:
        entry["boundary_sweep"] = by_pair.get((entry["a"], entry["b"]), [])
    item_position = {item: i for i, item in enumerate(objects.item_ids)}
    for entry in data["items"]:
        column = sweep.item_f1[:, item_position[entry["item"]]]
        entry["boundary_f1"] = [{"tolerance": float(t), "f1": f} for t, f in zip(tolerances, column)]
    warnings = list(corpus.warnings)
    if n_items == 0:
        warnings.append("no item has two or more annotators: there is nothing to compare")
    settings = {"threshold": threshold, "match": match, "tolerances": tolerances.tolist(), "iou_rule": rule,
                "distance": distance, "placements": placements, "bootstrap": bootstrap, "seed": seed,
                "ci_level": DEFAULT_LEVEL}
    localization = report_localization(corpus, SegmentObjects(objects, start, end), clip_durations, settings,
                                       data, warnings, progress)
    return Report("segments", {
        "settings": settings,
        "n_items": n_items,
        "n_items_total": len(corpus.items),
        "n_annotators": len(corpus.annotators),
        "n_segments": int(sum(len(t) for tracks in corpus.items.values() for t in tracks.values())),
        **data,
        "localization": localization,
        "boundary_sweep": sweep.pooled,
        "unitizing_alpha": segment_alpha_u(corpus, clip_durations, bootstrap, seed, warnings),
        "warnings": warnings,
    })

