"""Spans against a reference: spans as objects of the reference engine, and the five-way outcomes.

Each span is an object ``(start, end)`` whose similarity to another is their
character IoU, |overlap| / |union| (:func:`agreekit.geometry.intervals.temporal_iou`
on half-open offsets); an annotator's spans are matched to the reference's at
``threshold`` (:mod:`agreekit.reference`).  No σ: a span of another document
is no chance baseline for a span of this one.  Beside the conflict types, each
annotator gets the five-way table against the reference
(:mod:`agreekit.measures.span_outcomes`, the reference as annotator a):
``missed_a`` are the reference's spans the annotator did not mark (missing),
``missed_b`` the annotator's spans the reference did not mark (extra).
"""
from __future__ import annotations

import numpy as np

from ...geometry.intervals import temporal_iou
from ...measures.span_matching import OUTCOMES, Track
from ...measures.span_outcomes import outcome_row, score_pairs
from ...object_sets import Annotation, build_objects
from ...objects import ObjectKind
from .rows import read_spans


def span_records(raw):
    """:class:`~agreekit.object_sets.Annotation` records of ``read_spans`` output (None: read, marked nothing)."""
    records = []
    for item, by_annotator in raw.items():
        for annotator, spans in by_annotator.items():
            if not spans:
                records.append(Annotation(0, item, annotator, None, ""))
            records += [Annotation(s.line, item, annotator, (s.start, s.end), s.label) for s in spans]
    return records


def parse_reference(rows):
    """Reference rows read as span records."""
    return span_records(read_spans(rows))


def without(raw, annotator):
    """``read_spans`` output without ``annotator`` (the reference leaves the agreement measures)."""
    out = {}
    for item, by_annotator in raw.items():
        kept = {a: spans for a, spans in by_annotator.items() if a != annotator}
        if kept:
            out[item] = kept
    return out


def span_set(records):
    """``(objects, ObjectKind)`` of span records: character IoU, no distance."""
    objects, array, _ = build_objects(records, width=2, noun="span(s)", plural="spans")
    start, end = array[:, 0], array[:, 1]
    kind = ObjectKind(similarity=lambda idx: temporal_iou(start[idx], end[idx], start[idx], end[idx]),
                      paired_distance=None, distance_block=None)
    return objects, kind


def _tracks(records):
    """``{(item, annotator): [spans sorted]}`` of the records (an empty list: read, marked nothing)."""
    out = {}
    for r in records:
        spans = out.setdefault((r.item, r.annotator), [])
        if r.geometry is not None:
            spans.append((int(r.geometry[0]), int(r.geometry[1]), r.label))
    return {k: sorted(v) for k, v in out.items()}


class _Span:
    __slots__ = ("start", "end", "label")

    def __init__(self, start, end, label):
        self.start, self.end, self.label = start, end, label


def five_way(chosen):
    """Each annotator's five-way table against its reference, and their total: ``{"total", "annotators"}``."""
    tracks = _tracks(chosen.raters + chosen.gold)
    labels = sorted({r.label for r in chosen.raters + chosen.gold if r.geometry is not None})
    label_ids = {label: k for k, label in enumerate(labels)}
    names = sorted(chosen.gold_of)
    position = {name: k for k, name in enumerate(names)}
    per = np.zeros((len(names), len(OUTCOMES)), dtype=np.intp)
    for (item, annotator), spans in tracks.items():
        reference = tracks.get((item, chosen.gold_of.get(annotator)))
        if annotator not in position or reference is None:
            continue
        track = Track.of([_Span(*s) for s in reference + spans], label_ids)
        for scores in score_pairs(track, [0, len(reference), len(reference) + len(spans)], "optimal",
                                  len(labels)):
            per[position[annotator]] += scores.counts.sum(axis=0)
    return {"total": {"outcomes": outcome_row(per.sum(axis=0))},
            "annotators": [{"outcomes": outcome_row(row)} for row in per]}
