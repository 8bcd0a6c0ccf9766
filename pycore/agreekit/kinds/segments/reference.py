"""Segments against a reference: segments as objects of the reference engine (:mod:`agreekit.reference`).

Similarity is temporal IoU, as in the agreement report, in its zero-length
rule.  No σ against the reference: a segment of another clip is not a fair
chance comparison when clips differ in length (the reason the agreement
report's σ uses within-clip placements instead).
"""
from __future__ import annotations

from ...geometry.intervals import temporal_iou
from ...object_sets import Annotation, build_objects
from ...objects import ObjectKind
from .rows import Corpus, read_segments


def segment_records(corpus):
    """:class:`~agreekit.object_sets.Annotation` records of a corpus (None: saw the clip, marked nothing)."""
    records = []
    for item, tracks in corpus.items.items():
        for annotator, track in tracks.items():
            if not len(track):
                records.append(Annotation(0, item, annotator, None, ""))
            records += [Annotation(line, item, annotator, (float(s), float(e)), label)
                        for s, e, label, line in zip(track.start.tolist(), track.end.tolist(), track.labels,
                                                     track.lines)]
    return records


def parse_reference(rows):
    """Reference rows read as segment records."""
    return segment_records(read_segments(rows))


def without(corpus, annotator):
    """The corpus without ``annotator`` (the reference leaves the agreement measures)."""
    items = {}
    for item, tracks in corpus.items.items():
        kept = {a: track for a, track in tracks.items() if a != annotator}
        if kept:
            items[item] = kept
    return Corpus(items, corpus.warnings)


def segment_set(records, rule, canonical):
    """``(objects, ObjectKind)`` of segment records: temporal IoU in ``rule``, no distance."""
    objects, array, _ = build_objects(records, width=2, noun="segment(s)", plural="segments",
                                      order=None if not canonical else (lambda r: (*r.geometry, str(r.label))))
    start, end = array[:, 0], array[:, 1]
    kind = ObjectKind(similarity=lambda idx: temporal_iou(start[idx], end[idx], start[idx], end[idx], rule),
                      paired_distance=None, distance_block=None)
    return objects, kind
