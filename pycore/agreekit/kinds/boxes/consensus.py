"""The boxes kind's consensus: boxes fused by the per-coordinate (weighted) median of their corners.

The median of each corner coordinate (x1, y1, x2, y2) over a cluster's boxes is
robust to one annotator's outlying edge, which a mean is not; it is the fusion
of crowd boxes in e.g. Papadopoulos et al. (ICCV 2017) and CVAT's consensus merge.
"""
from __future__ import annotations

import numpy as np

from ...geometry.boxes import iou_matrix
from ...object_consensus import weighted_median
from ...registry import ConsensusHook
from .compare import box_kind
from .rows import parse_boxes


def read(rows, threshold=0.5, **_):
    """The rows as records (box ``[x, y, w, h]`` or None) and the IoU threshold of a match."""
    records, warnings = parse_boxes(rows)
    return records, threshold, warnings


def similarity(boxes):
    """IoU of every pair of boxes (x, y, w, h)."""
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    return iou_matrix(boxes, boxes)


def blocks(boxes):
    """The boxes as objects of the object engine (IoU, as :func:`similarity`), for items too large for the square."""
    return box_kind(np.asarray(boxes, dtype=float).reshape(-1, 4), "iou")


def fuse(boxes, weights):
    """The box whose corners are the weighted medians of the boxes' corners.

    When a member has exactly those corners it is returned as given (x + w − x
    need not give back w in floating point), so identical boxes fuse to themselves.
    """
    corners = [(x, y, x + w, y + h) for x, y, w, h in ((float(v) for v in b) for b in boxes)]
    fused = tuple(weighted_median(corners, weights))
    for k, c in enumerate(corners):
        if c == fused:
            return tuple(float(v) for v in boxes[k])
    x1, y1, x2, y2 = fused
    return (x1, y1, x2 - x1, y2 - y1)


def to_row(item, annotator, box, label):
    """A box row (x, y, w, h), blank geometry for "drew nothing"."""
    if box is None:
        return {"item": item, "annotator": annotator, "x": "", "y": "", "w": "", "h": "", "label": ""}
    x, y, w, h = (float(v) for v in box)
    return {"item": item, "annotator": annotator, "x": x, "y": y, "w": w, "h": h, "label": label}


CONSENSUS = ConsensusHook(read=read, similarity=similarity, fuse=fuse, key=lambda box: tuple(map(float, box)),
                          to_row=to_row, blocks=blocks)
