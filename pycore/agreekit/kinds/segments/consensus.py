"""The segments kind's consensus: a cluster's segments fused by their (weighted) mean start and end."""
from __future__ import annotations

import numpy as np

from ...geometry.intervals import temporal_iou
from ...object_consensus import weighted_mean
from ...object_sets import Annotation
from ...registry import ConsensusHook
from .compare import segment_kind
from .rows import read_segments


def read(rows, threshold=0.5, **_):
    """The rows as records (``(start, end)`` or None) and the temporal-IoU threshold of a match."""
    corpus = read_segments(rows)
    records = []
    for item, tracks in corpus.items.items():
        for annotator, track in tracks.items():
            records += [Annotation(line, item, annotator, (float(s), float(e)), label)
                        for s, e, label, line in zip(track.start, track.end, track.labels, track.lines)]
            if not len(track):
                records.append(Annotation(0, item, annotator, None, ""))
    return records, threshold, list(corpus.warnings)


def similarity(segments):
    """Temporal IoU of every pair of segments."""
    s = np.asarray(segments, dtype=float).reshape(-1, 2)
    return temporal_iou(s[:, 0], s[:, 1], s[:, 0], s[:, 1])


def blocks(segments):
    """The segments as objects of the object engine (temporal IoU, as :func:`similarity`), for items too
    large for the square."""
    s = np.asarray(segments, dtype=float).reshape(-1, 2)
    return segment_kind(s[:, 0].copy(), s[:, 1].copy(), "default")


def fuse(segments, weights):
    """The mean start and mean end (weighted); a member equal to them is returned as given."""
    return weighted_mean(segments, weights)


def to_row(item, annotator, segment, label):
    """A segment row in seconds, blank times for "marked nothing"."""
    if segment is None:
        return {"item": item, "annotator": annotator, "start": "", "end": "", "label": ""}
    return {"item": item, "annotator": annotator, "start": float(segment[0]), "end": float(segment[1]),
            "label": label}


CONSENSUS = ConsensusHook(read=read, similarity=similarity, fuse=fuse, key=lambda s: tuple(map(float, s)),
                          to_row=to_row, blocks=blocks)
