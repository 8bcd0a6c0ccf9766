"""The cuboids kind's consensus: centre and size by per-coordinate (weighted) median, rotation by the
weighted average quaternion of Markley et al. (J. Guidance, Control, and Dynamics 30(4), 2007).

The average rotation is the eigenvector of the largest eigenvalue of Σ wᵢ qᵢ qᵢᵀ,
which does not depend on the sign of any qᵢ (q and −q are one rotation) nor on
the members' order; it is given with qw ≥ 0.  Sizes are taken along each
cuboid's own axes, so the median assumes members whose axes agree (a cuboid
drawn with x and y swapped and turned 90° matches but is fused as drawn).
"""
from __future__ import annotations

import numpy as np

from ...geometry.cuboids import iou_matrix
from ...object_consensus import weighted_median
from ...registry import ConsensusHook
from .compare import cuboid_kind
from .rows import COLUMNS, parse_cuboids

GEOMETRY = COLUMNS[2:-1]   # cx … qw


def read(rows, threshold=0.25, **_):
    """The rows as records (a cuboid 10-vector or None) and the IoU₃D threshold of a match."""
    records, warnings = parse_cuboids(rows)
    return records, threshold, warnings


def similarity(cuboids):
    """IoU₃D of every pair of cuboids."""
    cuboids = np.asarray(cuboids, dtype=float).reshape(-1, 10)
    return iou_matrix(cuboids, cuboids)


def blocks(cuboids):
    """The cuboids as objects of the object engine (IoU₃D, as :func:`similarity`), for items too large
    for the square."""
    return cuboid_kind(np.asarray(cuboids, dtype=float).reshape(-1, 10))


def average_quaternion(quaternions, weights):
    """Markley's weighted average of unit quaternions (x, y, z, w), sign chosen so that w ≥ 0."""
    q = np.asarray(quaternions, dtype=float).reshape(-1, 4)
    moment = (q * np.asarray(weights, dtype=float)[:, None]).T @ q
    _, vectors = np.linalg.eigh(moment)
    mean = vectors[:, -1]
    return -mean if mean[3] < 0 or (mean[3] == 0 and mean[np.flatnonzero(mean)[0]] < 0) else mean


def fuse(cuboids, weights):
    """Median centre and size, average rotation; a member equal to that (up to q's sign) is returned as given."""
    cuboids = np.asarray(cuboids, dtype=float).reshape(-1, 10)
    fused = np.concatenate([weighted_median(cuboids[:, :6], weights), average_quaternion(cuboids[:, 6:], weights)])
    for member in cuboids:
        same_rotation = np.allclose(member[6:], fused[6:], rtol=0, atol=1e-12) or \
            np.allclose(member[6:], -fused[6:], rtol=0, atol=1e-12)
        if same_rotation and np.array_equal(member[:6], fused[:6]):
            return tuple(float(v) for v in member)
    return tuple(float(v) for v in fused)


def to_row(item, annotator, cuboid, label):
    """A cuboid row (centre, size, quaternion), blank geometry for "drew nothing"."""
    if cuboid is None:
        return {"item": item, "annotator": annotator, **dict.fromkeys(GEOMETRY, ""), "label": ""}
    return {"item": item, "annotator": annotator, **dict(zip(GEOMETRY, map(float, cuboid))), "label": label}


CONSENSUS = ConsensusHook(read=read, similarity=similarity, fuse=fuse, key=lambda c: tuple(map(float, c)),
                          to_row=to_row, blocks=blocks)
