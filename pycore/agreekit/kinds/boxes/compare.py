"""Boxes as objects of the object engine: IoU similarity, GIoU, IoU or centroid distance."""
from __future__ import annotations

from ...geometry import boxes as geometry
from ...objects import ObjectKind


def box_kind(boxes, distance, potato=False):
    """The :class:`ObjectKind` of boxes (n × 4) with the chosen distance; ``potato``: IoU in Potato's arithmetic."""
    iou = geometry.potato_iou_matrix if potato else geometry.iou_matrix
    return ObjectKind(
        similarity=lambda idx: iou(boxes[idx], boxes[idx]),
        paired_distance=lambda ia, ib: geometry.paired_distance(boxes[ia], boxes[ib], distance),
        distance_block=lambda rows, cols: geometry.distance_matrix(boxes[rows], boxes[cols], distance),
        transposed_distance_block=lambda rows, cols: geometry.transposed_distance_matrix(boxes[rows], boxes[cols],
                                                                                      distance),
        similarity_block=lambda rows, cols: iou(boxes[rows], boxes[cols]),
        candidates=lambda rows, cols: _candidates(boxes[rows], boxes[cols], potato),
    )


def _candidates(a, b, potato):
    """The pairs of boxes a × b that may overlap, with their IoU (``ObjectKind.candidates``)."""
    r, c = geometry.overlapping_pairs(a, b)
    paired = geometry.paired_potato_iou if potato else geometry.paired_iou
    return r, c, paired(a[r], b[c])
