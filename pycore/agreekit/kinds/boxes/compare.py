"""Boxes as objects of the object engine: IoU similarity, GIoU, IoU or centroid distance."""
from __future__ import annotations

from ...geometry import boxes as geometry
from ...objects import ObjectKind


def box_kind(boxes, distance):
    """The :class:`ObjectKind` of boxes (n × 4) with the chosen distance."""
    return ObjectKind(
        similarity=lambda idx: geometry.iou_matrix(boxes[idx], boxes[idx]),
        paired_distance=lambda ia, ib: geometry.paired_distance(boxes[ia], boxes[ib], distance),
        distance_block=lambda rows, cols: geometry.distance_matrix(boxes[rows], boxes[cols], distance),
    )
