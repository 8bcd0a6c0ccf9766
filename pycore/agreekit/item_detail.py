"""One item of a report, shape by shape: what the page's item views draw.

A report carries per-item summaries (counts, F1, the within mean), not the
shapes themselves: a 7,500-box report would otherwise ship every box to the
page at once.  :class:`ItemDetails` keeps a report's rows and options, parses
them once on the first request, and answers for one item at a time with every
annotator's shapes (geometry in the input's own units, with the input line of
each), the one-to-one matches of every annotator pair on the item with their
similarity, and which shapes no other annotator matched.

The matching is the object engine's own (:func:`agreekit.objects.pair_matching`
over the item's objects, in the kind's canonical order), so the pairs are the
pairs the report scored.  Kinds: boxes, polygons, cuboids and segments (the
kinds of the object engine), traces (one trace's labels by step and annotator)
and spans (each annotator's spans and the five-way outcome of each pair).
"""
from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np

from .kinds import boxes as box_kind
from .kinds import cuboids as cuboid_kind
from .kinds import polygons as polygon_kind
from .kinds import segments as segment_kind
from .kinds import traces as trace_kind
from .kinds import span_input
from .measures.boundaries import block_matchings
from .measures.span_matching import OUTCOMES, Track, five_way
from .geometry import polygons as polygon_geometry
from .object_sets import ObjectSet, build_objects, canonical_order, label_rules
from .objects import item_label_equality, pair_matching
from .rows import InputError, read_table, to_int, to_text


class ObjectSetup(NamedTuple):
    """A report's objects, how they compare, and how each is described to the page."""

    objects: ObjectSet
    similarity: Callable       # (global indices) -> (k × k) similarity
    describe: Callable         # global index -> {geometry name: value}
    label_key: Callable        # label -> the key labels are compared by
    threshold: float
    mode: str


def _boxes(rows, threshold=0.5, match="optimal", distance="giou", **_):
    potato = match == "potato"
    records, _warnings = box_kind.parse_boxes(rows, keep_none_labels=potato)
    objects, array, _more = build_objects(records, order=None if potato else canonical_order)
    kind = box_kind.box_kind(array, distance, potato)
    describe = lambda k: dict(zip(("x", "y", "w", "h"), map(float, array[k])))  # noqa: E731
    return ObjectSetup(objects, kind.similarity, describe, label_rules(potato)[0], threshold, match)


def _polygons(rows, threshold=0.5, match="optimal", distance="giou", **_):
    records, parsed = polygon_kind.parse_polygons(rows)
    by_outline = None if match == "potato" else (
        lambda r: (tuple(parsed[r.geometry[0]].ravel()), "" if r.label is None else str(r.label)))
    objects, index, _warnings = build_objects(records, width=1, is_degenerate=lambda g: False, order=by_outline)
    ordered = [parsed[int(k)] for k in index[:, 0]]
    item_of = np.repeat(np.arange(len(objects.item_ids)), np.diff(objects.offsets))
    kind = polygon_kind.polygon_kind(polygon_geometry.pack(ordered), distance, item_of)
    describe = lambda k: {"points": [float(v) for v in ordered[k].ravel()]}  # noqa: E731
    return ObjectSetup(objects, kind.similarity, describe, str, threshold, match)


def yaw_of(quaternion):
    """The rotation about z (radians, in (−π, π]) of a unit quaternion ``(qx, qy, qz, qw)``."""
    qx, qy, qz, qw = quaternion
    return math.atan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))


def _cuboids(rows, threshold=0.25, match="optimal", **_):
    potato = match == "potato"
    records, _warnings = cuboid_kind.parse_cuboids(rows, keep_none_labels=potato)
    objects, array, _more = build_objects(records, width=10, is_degenerate=cuboid_kind._flat,
                                          order=None if potato else canonical_order)
    kind = cuboid_kind.cuboid_kind(array)

    def describe(k):
        values = [float(v) for v in array[k]]
        return {**dict(zip(("cx", "cy", "cz", "sx", "sy", "sz", "qx", "qy", "qz", "qw"), values)),
                "yaw": yaw_of(values[6:])}
    return ObjectSetup(objects, kind.similarity, describe, label_rules(potato)[0], threshold, match)


def _segments(rows, threshold=0.5, match="optimal", **_):
    return _segment_shapes(segment_kind.read_segments(rows), threshold, match)


def _segment_shapes(corpus, threshold, match):
    objects, start, end = segment_kind.segment_objects(corpus, canonical=match != "potato")
    kind = segment_kind.segment_kind(start, end, "potato" if match == "potato" else "default")
    describe = lambda k: {"start": float(start[k]), "end": float(end[k])}  # noqa: E731
    return ObjectSetup(objects, kind.similarity, describe, str, threshold, match)


SETUPS = {"boxes": _boxes, "polygons": _polygons, "cuboids": _cuboids, "segments": _segments}


class SegmentSetup(NamedTuple):
    """A segments report's objects (as for the other engine kinds), its clips, and its sweep's tolerances."""

    shapes: ObjectSetup
    corpus: segment_kind.Corpus
    tolerances: list  # sorted, distinct, as the report's settings


def segments_setup(rows, threshold=0.5, match="optimal", tolerances=segment_kind.DEFAULT_TOLERANCES, **_):
    """:func:`_segments`, and the corpus and tolerances (as the report sorts them) of the boundary sweep."""
    corpus = segment_kind.read_segments(rows)
    return SegmentSetup(_segment_shapes(corpus, threshold, match), corpus, sorted({float(t) for t in tolerances}))


def boundary_detail(corpus, item, tolerances):
    """Every boundary of clip ``item`` and each annotator pair's boundary matches at each tolerance.

    The matches are those of the report's boundary sweep
    (:func:`agreekit.measures.boundaries.block_matchings` over the blocks of
    :func:`agreekit.kinds.segments.boundary_blocks`): starts matched one-to-one to
    starts within τ and ends to ends, by a maximum matching.  Memory grows with
    the boundaries and the pairs within the widest tolerance, never with all pairs.

    Returns
    -------
    dict
        ``{tolerances, points, pairs}``: ``points`` ``{annotator, time, kind, line}``
        by annotator (sorted), each annotator's starts in row order then its ends;
        ``pairs`` ``{a, b, n_a, n_b, by_tolerance}`` (``n_a``, ``n_b``: boundaries,
        two per segment), ``by_tolerance`` one ``{tolerance, matched, a, b}`` per
        tolerance with ``a[k]``, ``b[k]`` the positions in ``points`` of the k-th match.
    """
    tracks = corpus.items[item]
    first = {}  # annotator -> position of its first boundary in points
    points = []
    for name, track in tracks.items():
        first[name] = len(points)
        for kind, times in (("start", track.start), ("end", track.end)):
            points += [{"annotator": name, "time": float(t), "kind": kind, "line": line}
                       for t, line in zip(times.tolist(), track.lines)]
    paired = segment_kind.boundary_blocks(corpus, [item])
    starts = block_matchings([b.start_a for b in paired.blocks], [b.start_b for b in paired.blocks], tolerances)
    ends = block_matchings([b.end_a for b in paired.blocks], [b.end_b for b in paired.blocks], tolerances)
    pairs = []
    for k, (a, b) in enumerate(paired.pairs):
        n_a, n_b = len(tracks[a]), len(tracks[b])
        by_tolerance = []
        for t, tolerance in enumerate(tolerances):
            (start_a, start_b), (end_a, end_b) = starts.pairs(t, k), ends.pairs(t, k)
            side_a = np.concatenate([start_a, end_a + n_a]) + first[a]
            side_b = np.concatenate([start_b, end_b + n_b]) + first[b]
            by_tolerance.append({"tolerance": tolerance, "matched": int(side_a.size),
                                 "a": side_a.tolist(), "b": side_b.tolist()})
        pairs.append({"a": a, "b": b, "n_a": 2 * n_a, "n_b": 2 * n_b, "by_tolerance": by_tolerance})
    return {"tolerances": list(tolerances), "points": points, "pairs": pairs}


def segment_detail(setup, item):
    """:func:`item_detail` of a segments report, with the item's ``boundaries`` (:func:`boundary_detail`)."""
    detail = item_detail(setup.shapes, item)
    detail["boundaries"] = boundary_detail(setup.corpus, item, setup.tolerances)
    detail["settings"]["tolerances"] = list(setup.tolerances)
    return detail


class TraceSetup(NamedTuple):
    """A traces report's rows by trace, and the corpus's labels (for colours that hold across traces)."""

    by_trace: dict    # trace -> [{annotator, step, label, line}] in row order
    labels: list      # every label text, sorted
    compare: Callable  # label text -> the value labels are compared by
    level: str


def traces_setup(rows, level="nominal", order=None, **_):
    """Checked trace rows (:func:`agreekit.kinds.traces.read_traces` raises on bad ones) by trace."""
    trace_kind.read_traces(rows, level=level, order=order)
    table = read_table(rows, trace_kind.COLUMNS, trace_kind.SYNONYMS, required=trace_kind.COLUMNS)
    by_trace = {}
    for row in table:
        by_trace.setdefault(to_text(row, "trace"), []).append(
            {"annotator": to_text(row, "annotator"), "step": to_int(row, "step"), "label": to_text(row, "label"),
             "line": row.line})
    numeric = level == "ordinal" and order is None
    labels = sorted({cell["label"] for cells in by_trace.values() for cell in cells})
    return TraceSetup(by_trace, labels, float if numeric else str, level)


def trace_detail(setup, item):
    """Trace ``item``: its labels by step and annotator, and the steps where labels differ."""
    if item not in setup.by_trace:
        raise InputError(f"no trace {item!r} in the report's input")
    cells = sorted(setup.by_trace[item], key=lambda c: (c["step"], c["annotator"]))
    by_step = {}
    for cell in cells:
        by_step.setdefault(cell["step"], set()).add(setup.compare(cell["label"]))
    counts = {}
    for cell in cells:
        counts[cell["step"]] = counts.get(cell["step"], 0) + 1
    return {"item": item, "annotators": sorted({c["annotator"] for c in cells}), "steps": sorted(by_step),
            "cells": cells, "labels": setup.labels,
            "disputed": [step for step, values in sorted(by_step.items()) if len(values) > 1 and counts[step] > 1],
            "settings": {"level": setup.level}}


def _one_item(objects, i):
    """Item ``i`` of ``objects`` as an :class:`ObjectSet` of one item (global object indices kept)."""
    return ObjectSet(item_ids=[objects.item_ids[i]], annotators=objects.annotators,
                     offsets=np.array(objects.offsets[i:i + 2], dtype=np.intp), annotator_of=objects.annotator_of,
                     labels=objects.labels, members=[objects.members[i]], lines=objects.lines)


def item_detail(setup, item):
    """Item ``item`` of an :class:`ObjectSetup` as a plain dict (see :class:`ItemDetails`)."""
    objects = setup.objects
    position = {name: i for i, name in enumerate(objects.item_ids)}
    if item not in position:
        raise InputError(f"no item {item!r} among the items the report compares")
    i = position[item]
    start, stop = int(objects.offsets[i]), int(objects.offsets[i + 1])
    indices = np.arange(start, stop, dtype=np.intp)
    one = _one_item(objects, i)
    sims = [setup.similarity(indices) if stop > start else np.zeros((0, 0))]
    same = item_label_equality(one, setup.label_key)
    records = pair_matching(one, sims, setup.threshold, setup.mode, same)
    local = lambda k: int(k) - start  # noqa: E731  (a shape's position in the item's list)
    matches = [{"a": local(p), "b": local(q), "similarity": float(s),
                "same_label": setup.label_key(objects.labels[p]) == setup.label_key(objects.labels[q])}
               for r in records for p, q, s in zip(r.matched_a, r.matched_b, r.similarity)]
    partners = np.zeros(stop - start, dtype=np.intp)
    for m in matches:
        partners[m["a"]] += 1
        partners[m["b"]] += 1
    shapes = [{"annotator": objects.annotators[int(objects.annotator_of[k])], "line": int(objects.lines[k]),
               "label": "" if objects.labels[k] is None else str(objects.labels[k]),
               "geometry": setup.describe(int(k)), "n_matched": int(partners[local(k)])} for k in indices]
    return {"item": item, "annotators": [objects.annotators[a] for a in sorted(objects.members[i])],
            "empty": [objects.annotators[a] for a, v in sorted(objects.members[i].items()) if len(v) == 0],
            "shapes": shapes, "matches": matches,
            "settings": {"threshold": setup.threshold, "match": setup.mode}}


class ItemDetails:
    """The shapes and matches of one report's items, computed on demand.

    Parameters
    ----------
    kind : str
        A kind of :data:`SETUPS`.
    rows : str or list of dict
        The report's rows, as given to the kind's report function.
    options : dict
        The report's options (those that change matching are used: threshold,
        match, distance; segments also ``tolerances``, the boundary sweep's).

    ``detail(item)`` returns ``{item, annotators, empty, shapes, matches,
    settings}``: ``shapes`` in the engine's object order, each ``{annotator,
    line, label, geometry, n_matched}`` (``geometry``: boxes ``x y w h`` in
    top-left form, polygons ``points`` as a flat ``x1 y1 x2 y2 …`` list,
    cuboids ``cx cy cz sx sy sz qx qy qz qw yaw``, segments ``start end``);
    ``matches`` ``{a, b, similarity, same_label}`` with ``a``, ``b`` positions
    in ``shapes``; ``empty`` the annotators who saw the item and drew nothing.
    Segments add ``boundaries`` (:func:`boundary_detail`: every start and end, and
    each pair's boundary matches at each of the sweep's tolerances) and
    ``settings.tolerances``.
    For traces, ``detail(trace)`` is ``{item, annotators, steps, cells, labels,
    disputed, settings}``: ``cells`` ``{annotator, step, label, line}`` (the label
    as given), ``labels`` every label of the corpus sorted, ``disputed`` the steps
    where two annotators' labels differ (as the level compares them).  For spans
    (:func:`span_detail`): ``{item, annotators, length, text, shapes, matches,
    settings}``, shapes with ``geometry`` ``{start, end}`` (character offsets,
    end exclusive) and ``n_missed``, matches ``{a, b, outcome}``.
    """

    def __init__(self, kind, rows, options):
        if kind not in KINDS:
            raise InputError(f"no item view for {kind}: item views exist for {', '.join(KINDS)}")
        self.kind, self.rows, self.options = kind, rows, dict(options)
        self._setup = None

    def detail(self, item):
        setup, detail = _OTHER_KINDS.get(self.kind) or _EXTENDED.get(self.kind, (SETUPS.get(self.kind), item_detail))
        if self._setup is None:
            self._setup = setup(self.rows, **self.options)
        return {"kind": self.kind, **detail(self._setup, item)}


class SpanSetup(NamedTuple):
    """A spans report's items by name and its matching mode."""

    items: dict   # name -> agreekit.kinds.span_input.Item
    match: str


def spans_setup(rows, lengths=None, match="optimal", **_):
    """The report's items (texts and lengths too) from its rows and ``lengths`` option."""
    raw = span_input.read_spans(rows)
    length_map, texts = (None, None) if lengths is None else span_input.read_lengths(lengths)
    items, _warnings, _source = span_input.build_items(raw, length_map, texts)
    return SpanSetup({item.name: item for item in items}, match)


def span_detail(setup, name):
    """Item ``name``'s spans by annotator, and the five-way outcome of every annotator pair.

    Spans are in the order they are scored in (by start, end, label; row order with
    ``match="potato"``); ``matches`` are the matched pairs of the five-way table
    (:func:`agreekit.measures.span_matching.five_way`) with their outcome, ``missed`` per
    span the number of pairs in which it has no partner.
    """
    if name not in setup.items:
        raise InputError(f"no item {name!r} in the report's input")
    item = setup.items[name]
    annotators = item.annotators
    ordered = [item.spans[a] if setup.match == "potato" else sorted(item.spans[a], key=lambda p: (p.start, p.end, p.label))
               for a in annotators]
    label_ids = {label: k for k, label in enumerate(sorted({p.label for spans in ordered for p in spans}))}
    offsets = np.cumsum([0] + [len(spans) for spans in ordered]).tolist()
    shapes = [{"annotator": a, "line": p.line, "label": p.label, "geometry": {"start": p.start, "end": p.end}}
              for a, spans in zip(annotators, ordered) for p in spans]
    missed = [0] * len(shapes)
    matches = []
    for x in range(len(annotators)):
        for y in range(x + 1, len(annotators)):
            pair = five_way(Track.of(ordered[x], label_ids), Track.of(ordered[y], label_ids))
            matches += [{"a": offsets[x] + int(r), "b": offsets[y] + int(c), "outcome": OUTCOMES[int(o)]}
                        for r, c, o in zip(pair.rows, pair.cols, pair.outcome)]
            for k in pair.missed_a:
                missed[offsets[x] + int(k)] += 1
            for k in pair.missed_b:
                missed[offsets[y] + int(k)] += 1
    for shape, n in zip(shapes, missed):
        shape["n_missed"] = n
    return {"item": name, "annotators": annotators, "length": item.length, "text": item.text, "shapes": shapes,
            "matches": matches, "settings": {"match": setup.match}}


# Kinds of the object engine whose detail adds to item_detail's: segments, the boundaries of the sweep.
_EXTENDED = {"segments": (segments_setup, segment_detail)}
# Kinds outside the object engine: how their rows are read, and how one item is described.
_OTHER_KINDS = {"traces": (traces_setup, trace_detail), "spans": (spans_setup, span_detail)}
KINDS = (*SETUPS, *_OTHER_KINDS)
