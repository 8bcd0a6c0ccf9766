"""The spans kind's consensus: spans matched at character IoU ≥ 0.5, fused by their mean boundaries.

Spans have no threshold option (their report scores exact and partial matches);
the consensus pairs two spans when their character overlap is at least half
their union, and rounds the (weighted) mean start and end to whole characters
(halves up).
"""
from __future__ import annotations

import math

import numpy as np

from ...geometry.intervals import overlapping_pairs, paired_temporal_iou, temporal_iou
from ...object_consensus import weighted_mean
from ...object_sets import Annotation
from ...objects import ObjectKind
from ...registry import ConsensusHook
from .rows import read_spans

THRESHOLD = 0.5


def read(rows, **_):
    """The rows as records (``(start, end)`` or None) and the character-IoU threshold of a match."""
    records = []
    for item, by_annotator in read_spans(rows).items():
        for annotator, spans in by_annotator.items():
            records += [Annotation(s.line, item, annotator, (s.start, s.end), s.label) for s in spans]
            if not spans:
                records.append(Annotation(0, item, annotator, None, ""))
    return records, THRESHOLD, []


def similarity(spans):
    """Character IoU of every pair of spans."""
    s = np.asarray(spans, dtype=float).reshape(-1, 2)
    return temporal_iou(s[:, 0], s[:, 1], s[:, 0], s[:, 1])


def blocks(spans):
    """The spans as objects of the object engine (character IoU, as :func:`similarity`; candidates: the
    spans that meet), for a document too crowded for the square."""
    s = np.asarray(spans, dtype=float).reshape(-1, 2)
    start, end = s[:, 0].copy(), s[:, 1].copy()

    def candidates(rows, cols):
        r, c = overlapping_pairs(start[rows], end[rows], start[cols], end[cols])
        return r, c, paired_temporal_iou(start[rows[r]], end[rows[r]], start[cols[c]], end[cols[c]])

    return ObjectKind(similarity=None, paired_distance=None, distance_block=None, candidates=candidates,
                      similarity_block=lambda rows, cols: temporal_iou(start[rows], end[rows], start[cols], end[cols]))


def fuse(spans, weights):
    """The mean start and end (weighted), rounded to whole characters, halves up."""
    start, end = weighted_mean(spans, weights)
    return (int(math.floor(start + 0.5)), int(math.floor(end + 0.5)))


def to_row(item, annotator, span, label):
    """A span row (character offsets), blank offsets for "marked nothing"."""
    if span is None:
        return {"item": item, "annotator": annotator, "start": "", "end": "", "label": ""}
    return {"item": item, "annotator": annotator, "start": int(span[0]), "end": int(span[1]), "label": label}


CONSENSUS = ConsensusHook(read=read, similarity=similarity, fuse=fuse, key=lambda s: tuple(map(int, s)),
                          to_row=to_row, options=(), blocks=blocks)
