"""Polygons as objects of the object engine: exact IoU similarity, GIoU or centroid distance."""
from __future__ import annotations

import numpy as np

from ...geometry import polygons as geo
from ...geometry.boxes import overlapping_pairs
from ...object_sets import build_objects
from ...objects import ObjectKind


def _centroids(ps: geo.PolygonSet):
    """Area centroids (N, 2) of the packed polygons (shoelace moments, local origin)."""
    origin = ps.vertices[:, :1, :]
    p = ps.vertices - origin
    q = np.concatenate([p[:, 1:], p[:, :1]], axis=1)
    cross = p[..., 0] * q[..., 1] - p[..., 1] * q[..., 0]
    six_area = 3.0 * cross.sum(axis=1)
    c = np.stack([((p[..., 0] + q[..., 0]) * cross).sum(axis=1),
                  ((p[..., 1] + q[..., 1]) * cross).sum(axis=1)], axis=1) / six_area[:, None]
    return c + origin[:, 0, :]


def polygon_kind(ps: geo.PolygonSet, distance, item_of):
    """The :class:`~agreekit.objects.ObjectKind` of packed polygons.

    ``distance_block`` evaluates only pairs on different items, in item order (the
    only ones the baseline keeps); the rest of the block is 0.
    """
    if distance == "giou":
        def paired(ia, ib):
            return (1.0 - geo.pair_giou(ps, ia, ib)) / 2.0
    elif distance == "iou":
        def paired(ia, ib):
            return 1.0 - geo.pair_iou(ps, ia, ib)
    else:
        centres = _centroids(ps)

        def paired(ia, ib):
            gap = centres[ia] - centres[ib]
            return np.minimum(1.0, np.hypot(gap[:, 0], gap[:, 1]) / np.sqrt(2.0))

    def similarity_block(rows, cols):
        i, j = np.meshgrid(rows, cols, indexing="ij")
        return geo.pair_iou(ps, i.ravel(), j.ravel()).reshape(len(rows), len(cols))

    def distance_block(rows, cols):
        keep = item_of[cols][None, :] > item_of[rows][:, None]
        r, c = np.nonzero(keep)
        out = np.zeros(keep.shape)
        out[r, c] = paired(rows[r], cols[c])
        return out

    def candidates(rows, cols):
        """The pairs whose bounding boxes meet (a superset of those with IoU > 0), with their IoU."""
        r, c = overlapping_pairs(np.hstack([ps.lower[rows], ps.upper[rows] - ps.lower[rows]]),
                                 np.hstack([ps.lower[cols], ps.upper[cols] - ps.lower[cols]]))
        return r, c, geo.pair_iou(ps, rows[r], cols[c])

    return ObjectKind(similarity=lambda idx: similarity_block(idx, idx), paired_distance=paired,
                      distance_block=distance_block, similarity_block=similarity_block, candidates=candidates)


def polygon_objects(records, parsed, match):
    """:func:`agreekit.object_sets.build_objects` of polygon records: ``(objects, indices into parsed, warnings)``.

    Each annotator's polygons on an item are in the tie-break order (by outline, then label), or
    in row order with ``match="potato"``; the items' content (their bootstrap order) is by outline in both.
    """
    by_outline = lambda r: (tuple(parsed[r.geometry[0]].ravel()), "" if r.label is None else str(r.label))  # noqa: E731
    return build_objects(records, width=1, noun="polygon(s)", plural="polygons",
                         order=None if match == "potato" else by_outline, content=by_outline)
