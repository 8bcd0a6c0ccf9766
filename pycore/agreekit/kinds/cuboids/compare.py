"""Cuboids as objects of the object engine: IoU₃D similarity, 1 − IoU₃D distance."""
from __future__ import annotations

import numpy as np

from ...geometry.cuboids import MATRIX_PAIRS, iou_matrix, paired_iou
from ...object_sets import build_objects, canonical_order
from ...objects import ObjectKind


def _flat(cuboid):
    return bool(np.any(np.asarray(cuboid)[3:6] <= 0))


FLAT_NOTE = ("cuboid(s) with a zero size (lines {lines}): they have no volume and IoU₃D 0 with every cuboid, "
             "so they match nothing above threshold 0")


def cuboid_objects(records, order=canonical_order):
    """:func:`agreekit.object_sets.build_objects` of cuboid records: ``(objects, cuboids (n × 10), warnings)``."""
    return build_objects(records, width=10, noun="cuboid(s)", plural="cuboids", is_degenerate=_flat,
                         degenerate_note=FLAT_NOTE, order=order)


def cuboid_kind(cuboids):
    """The :class:`ObjectKind` of cuboids (n × 10): IoU₃D similarity, 1 − IoU₃D distance."""

    def paired_distance(ia, ib):
        # In blocks: a sampled baseline asks for millions of pairs at once.
        out = np.empty(len(ia))
        for start in range(0, len(ia), MATRIX_PAIRS):
            stop = start + MATRIX_PAIRS
            out[start:stop] = 1.0 - paired_iou(cuboids[ia[start:stop]], cuboids[ib[start:stop]])
        return out

    return ObjectKind(
        similarity=lambda idx: iou_matrix(cuboids[idx], cuboids[idx]),
        paired_distance=paired_distance,
        distance_block=lambda rows, cols: 1.0 - iou_matrix(cuboids[rows], cuboids[cols]),
        similarity_block=lambda rows, cols: iou_matrix(cuboids[rows], cuboids[cols]),
    )
