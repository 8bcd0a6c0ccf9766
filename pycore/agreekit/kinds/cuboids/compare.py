"""Cuboids as objects of the object engine: IoU₃D similarity, 1 − IoU₃D distance."""
from __future__ import annotations

import numpy as np

from ...geometry.boxes import overlapping_pairs
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

    def paired_similarity(ia, ib):
        # In blocks: a sampled baseline asks for millions of pairs at once.
        out = np.empty(len(ia))
        for start in range(0, len(ia), MATRIX_PAIRS):
            stop = start + MATRIX_PAIRS
            out[start:stop] = paired_iou(cuboids[ia[start:stop]], cuboids[ib[start:stop]])
        return out

    cubes = _enclosing_cubes(cuboids)

    def candidates(rows, cols):
        r, c = _meeting_cubes(cubes[rows], cubes[cols])
        return r, c, paired_similarity(rows[r], cols[c])

    return ObjectKind(
        similarity=lambda idx: iou_matrix(cuboids[idx], cuboids[idx]),
        paired_distance=lambda ia, ib: 1.0 - paired_similarity(ia, ib),
        distance_block=lambda rows, cols: 1.0 - iou_matrix(cuboids[rows], cuboids[cols]),
        similarity_block=lambda rows, cols: iou_matrix(cuboids[rows], cuboids[cols]),
        candidates=candidates,
    )


def _enclosing_cubes(cuboids):
    """Each cuboid's axis-aligned cube around its circumscribed sphere, (n × 6): lowest corner, side ×3."""
    cuboids = np.asarray(cuboids, dtype=float).reshape(-1, 10)
    radius = 0.5 * np.sqrt((cuboids[:, 3:6] ** 2).sum(axis=1))
    return np.column_stack([cuboids[:, :3] - radius[:, None], np.repeat(2.0 * radius[:, None], 3, axis=1)])


def _meeting_cubes(a, b):
    """``(r, c)``: the pairs of cubes a[r], b[c] that meet (with a slack for rounding): the only pairs of
    cuboids that can overlap."""
    r, c = overlapping_pairs(a[:, [0, 1, 3, 4]], b[:, [0, 1, 3, 4]])
    slack = 1e-9 * (1.0 + max(float(np.abs(a).max(initial=0.0)), float(np.abs(b).max(initial=0.0))))
    keep = (a[r, 2] <= b[c, 2] + b[c, 5] + slack) & (b[c, 2] <= a[r, 2] + a[r, 5] + slack)
    return r[keep], c[keep]
