"""The polygons kind's consensus: the medoid, the member with the highest mean IoU to the others.

Polygons have no coordinate-wise median (their vertices do not correspond), and
a union or intersection of the members is not what any annotator drew; the
medoid is one annotator's outline, the one the others overlap most (ties to the
heavier voter, then the smallest outline).  With weights, the mean IoU to the
others is weighted by theirs.
"""
from __future__ import annotations

import json

import numpy as np

from ...geometry.polygon_checks import validate_polygons
from ...geometry.polygons import iou_matrix, pack
from ...registry import ConsensusHook
from .compare import polygon_kind
from .rows import parse_polygons


def read(rows, threshold=0.5, **_):
    """The rows as records (a polygon's vertices, n × 2, or None) and the IoU threshold of a match."""
    records, polygons = parse_polygons(rows)
    return [r._replace(geometry=None if r.geometry is None else polygons[r.geometry[0]]) for r in records], \
        threshold, []


def similarity(polygons):
    """Exact IoU of every pair of polygons."""
    return iou_matrix(list(polygons)) if len(polygons) else np.zeros((0, 0))


def blocks(polygons):
    """The polygons as objects of the object engine (exact IoU, packed and computed as :func:`similarity`
    does), for items too large for the square."""
    return polygon_kind(pack(validate_polygons(list(polygons))), "iou", np.zeros(len(polygons), dtype=np.intp))


def key(polygon):
    return tuple(np.asarray(polygon, dtype=float).ravel().tolist())


def fuse(polygons, weights):
    """The medoid of the polygons (see the module docstring)."""
    if len(polygons) == 1:
        return polygons[0]
    weights = np.asarray(weights, dtype=float)
    overlap = similarity(polygons)
    np.fill_diagonal(overlap, 0.0)
    others = weights.sum() - weights
    mean_iou = np.where(others > 0, overlap @ weights / np.where(others > 0, others, 1.0), 0.0)
    best = max(range(len(polygons)), key=lambda k: (mean_iou[k], weights[k], tuple(-v for v in key(polygons[k]))))
    return polygons[best]


def to_row(item, annotator, polygon, label):
    """A polygon row (points as a JSON list of pairs), blank points for "drew nothing"."""
    if polygon is None:
        return {"item": item, "annotator": annotator, "points": "", "label": ""}
    return {"item": item, "annotator": annotator, "points": json.dumps(np.asarray(polygon, float).tolist()),
            "label": label}


CONSENSUS = ConsensusHook(read=read, similarity=similarity, fuse=fuse, key=key, to_row=to_row, blocks=blocks)
