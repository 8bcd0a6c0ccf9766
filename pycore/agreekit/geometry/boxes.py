"""Box geometry: IoU, GIoU and the three localization distances.

Boxes are arrays of shape (n, 4) holding ``x, y, w, h`` (top-left corner,
width, height) in any consistent unit.  Every area is computed from the
box's extents ``x2 = x + w`` as ``(x2 − x)·(y2 − y)``, the same expression
as an overlap, so that two identical boxes give IoU exactly 1 and distance
exactly 0 wherever they lie (with ``w`` taken as given, ``(x + w) − x``
differs from ``w`` far from the origin and an identical pair lost area).  A box with w ≤ 0 or h ≤ 0 is
degenerate: it has IoU 0 with everything and GIoU −1, as in Potato's
``geometry.iou_bbox`` and ``giou_bbox`` (``docs/potato-differences.md`` §1).

* IoU = |A ∩ B| / |A ∪ B|.
* GIoU = IoU − |C \\ (A ∪ B)| / |C|, C the smallest enclosing axis-aligned box
  (Rezatofighi et al., CVPR 2019).
* Distances, all in [0, 1]: ``giou`` = (1 − GIoU)/2; ``iou`` = 1 − IoU;
  ``centroid`` = min(1, ‖c_A − c_B‖ / √2), which assumes normalized
  coordinates (in pixels it saturates at 1, as Potato's does).
"""
from __future__ import annotations

import math

import numpy as np

from .. import runtime
from . import intervals

DISTANCES = ("giou", "iou", "centroid")


def _parts(boxes):
    """``(x, y, w, h)`` with ``w = (x + w) − x`` and ``h`` likewise: widths as overlaps compute them."""
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    x, y, w, h = boxes.T
    return x, y, (x + w) - x, (y + h) - y


def _overlap(a, b):
    """Signed overlaps and areas for broadcastable box parts a, b."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ow = np.minimum(ax + aw, bx + bw) - np.maximum(ax, bx)
    oh = np.minimum(ay + ah, by + bh) - np.maximum(ay, by)
    inter = np.maximum(ow, 0.0) * np.maximum(oh, 0.0)
    union = aw * ah + bw * bh - inter
    valid = (aw > 0) & (ah > 0) & (bw > 0) & (bh > 0) & (union > 0)
    return ow, oh, inter, union, valid


def _iou(a, b):
    _, _, inter, union, valid = _overlap(a, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(valid, inter / np.where(valid, union, 1.0), 0.0)


def _giou(a, b):
    ow, oh, inter, union, valid = _overlap(a, b)
    # Enclosing box side = wa + wb − signed overlap (= max(x2) − min(x1)).
    hull = (a[2] + b[2] - ow) * (a[3] + b[3] - oh)
    with np.errstate(divide="ignore", invalid="ignore"):
        safe_u = np.where(valid, union, 1.0)
        safe_h = np.where(valid & (hull > 0), hull, 1.0)
        value = inter / safe_u - np.where(hull > 0, (hull - union) / safe_h, 0.0)
    return np.where(valid, value, -1.0)


def _centroid(a, b):
    dx = (a[0] + a[2] / 2.0) - (b[0] + b[2] / 2.0)
    dy = (a[1] + a[3] / 2.0) - (b[1] + b[3] / 2.0)
    return np.minimum(1.0, np.sqrt(dx * dx + dy * dy) / np.sqrt(2.0))


def iou_matrix(a, b):
    """IoU of every box in ``a`` (n × 4) with every box in ``b`` (m × 4): (n × m)."""
    pa, pb = _parts(a), _parts(b)
    return _iou([p[:, None] for p in pa], [p[None, :] for p in pb])


def paired_iou(a, b):
    """IoU of box ``a[k]`` with box ``b[k]`` for each k: the arithmetic of :func:`iou_matrix`, bit for bit."""
    return _iou(_parts(a), _parts(b))


def overlapping_pairs(a, b):
    """``(r, c)``: every pair of boxes ``a[r]``, ``b[c]`` that may overlap (closed, with a slack of
    1e-9 of the coordinates' scale for rounding), by r then c: a superset of the pairs with IoU > 0."""
    a = np.asarray(a, dtype=float).reshape(-1, 4)
    b = np.asarray(b, dtype=float).reshape(-1, 4)
    slack = 1e-9 * (1.0 + max(float(np.abs(a).max(initial=0.0)), float(np.abs(b).max(initial=0.0))))
    r, c = intervals.overlapping_pairs(a[:, 0] - slack, a[:, 0] + a[:, 2] + slack, b[:, 0], b[:, 0] + b[:, 2])
    keep = (a[r, 1] - slack <= b[c, 1] + b[c, 3]) & (b[c, 1] <= a[r, 1] + a[r, 3] + slack)
    return r[keep], c[keep]


def potato_iou_matrix(a, b):
    """IoU of every box in ``a`` with every box in ``b`` in Potato 2.8's float arithmetic: (n × m).

    Potato's ``geometry.iou_bbox`` takes the widths and heights as given (not
    as ``(x + w) − x``) and evaluates, in this order, ix = max(0, min(ax + aw,
    bx + bw) − max(ax, bx)), iy likewise, I = ix·iy, U = (aw·ah + bw·bh) − I,
    IoU = I / U (0 for a box with w ≤ 0 or h ≤ 0, or U ≤ 0).  Each step is one
    IEEE double operation, so the same expression in the same order gives
    Potato's bits: a pair at IoU exactly 1/2 on paper that Potato computes as
    0.4999… is decided as Potato decides it (``docs/potato-differences.md`` §1).
    Potato mode only; :func:`iou_matrix` is the default.
    """
    a = np.asarray(a, dtype=float).reshape(-1, 4)
    b = np.asarray(b, dtype=float).reshape(-1, 4)
    return _potato_iou([column[:, None] for column in a.T], [column[None, :] for column in b.T])


def paired_potato_iou(a, b):
    """:func:`potato_iou_matrix` of box ``a[k]`` with box ``b[k]`` for each k, bit for bit."""
    return _potato_iou(np.asarray(a, dtype=float).reshape(-1, 4).T, np.asarray(b, dtype=float).reshape(-1, 4).T)


def _potato_iou(a, b):
    """Potato 2.8's IoU of broadcastable box columns ``(x, y, w, h)`` (:func:`potato_iou_matrix`)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ix = np.maximum(0.0, np.minimum(ax + aw, bx + bw) - np.maximum(ax, bx))
    iy = np.maximum(0.0, np.minimum(ay + ah, by + bh) - np.maximum(ay, by))
    inter = ix * iy
    union = (aw * ah + bw * bh) - inter
    valid = (aw > 0) & (ah > 0) & (bw > 0) & (bh > 0) & (union > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(valid, inter / np.where(valid, union, 1.0), 0.0)


def giou_matrix(a, b):
    """GIoU of every box in ``a`` with every box in ``b``: (n × m)."""
    pa, pb = _parts(a), _parts(b)
    return _giou([p[:, None] for p in pa], [p[None, :] for p in pb])


def distance_matrix(a, b, distance="giou"):
    """Distance of every box in ``a`` with every box in ``b``: (n × m)."""
    pa, pb = _parts(a), _parts(b)
    if distance == "giou":
        return _giou_distance_matrix(pa, pb)
    return _DIST[distance]([p[:, None] for p in pa], [p[None, :] for p in pb])


def transposed_distance_matrix(a, b, distance="giou"):
    """``distance_matrix(a, b, distance).T``, C-contiguous (m × n), bit for bit.

    Every distance here is symmetric bit for bit (min, max, sums, products and
    squares give the same double whichever box comes first), so this is
    ``distance_matrix(b, a)``: no copy.  With :data:`agreekit.runtime.REORDER_COLUMNS`
    (Pyodide) the reordered columns pay off along long rows, so there the block
    is computed as given and copied transposed, as the caller did before.
    """
    if runtime.REORDER_COLUMNS:
        return np.ascontiguousarray(distance_matrix(a, b, distance).T)
    return distance_matrix(b, a, distance)


def _giou_distance(a, b):
    """(1 − GIoU)/2 of broadcastable box parts, in few passes (the baseline's hot loop).

    With I, U, H the intersection, union and enclosing areas,
    (1 − GIoU)/2 = (1 − I/U + (H − U)/H)/2 = 1 − (I/U + U/H)/2.
    Within and between distances both use this one formula, so that equal
    geometry gives bit-equal distances (KS depends on exact ties).
    """
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ax2, ay2, bx2, by2 = ax + aw, ay + ah, bx + bw, by + bh
    left, top = np.maximum(ax, bx), np.maximum(ay, by)
    ow = np.minimum(ax2, bx2)
    ow -= left
    oh = np.minimum(ay2, by2)
    oh -= top
    # Enclosing sides as max(x2) − min(x1), as defined: identical boxes then give H = I exactly.
    hull = np.maximum(ax2, bx2)
    hull -= np.minimum(ax, bx)
    hull_h = np.maximum(ay2, by2)
    hull_h -= np.minimum(ay, by)
    hull *= hull_h
    del left, top, hull_h
    np.maximum(ow, 0.0, out=ow)
    np.maximum(oh, 0.0, out=oh)
    inter = ow
    inter *= oh
    union = np.subtract(aw * ah + bw * bh, inter)
    valid = bool(((aw > 0) & (ah > 0)).all() and ((bw > 0) & (bh > 0)).all())
    with np.errstate(divide="ignore", invalid="ignore"):
        inter /= union
        hull = np.divide(union, hull, out=hull)
        inter += hull
    inter *= -0.5
    inter += 1.0
    if not valid:
        ok = (aw > 0) & (ah > 0) & (bw > 0) & (bh > 0)
        inter = np.where(ok & (union > 0), inter, 1.0)
    return inter


_BAND_ELEMENTS = 1 << 14   # pairs per band of rows: its work arrays stay in the CPU cache
_REORDERED_BAND_ELEMENTS = 1 << 16   # fewer, larger bands amortize Pyodide's cost per numpy call


def _column_order(x, y):
    """An order of boxes in which the comparisons of one box with all of them rarely change direction.

    The boxes are cut into ≈ √m groups by ``x`` and ordered by ``y`` inside each
    group: along a row of the block, ``x`` comparisons then flip within one
    group only and ``y`` comparisons about once per group.
    """
    n = len(x)
    groups = max(1, math.isqrt(n))
    group = np.empty(n, dtype=np.intp)
    group[np.argsort(x, kind="stable")] = np.arange(n, dtype=np.intp) * groups // max(n, 1)
    return np.lexsort((y, group)).astype(np.intp)


def _giou_distance_matrix(a, b, reorder=None):
    """(1 − GIoU)/2 of box parts ``a`` (n boxes) × ``b`` (m boxes): (n × m), the baseline's hot loop.

    The operations of :func:`_giou_distance` in the same order, so every value
    is bit-equal to it; computed band of rows by band of rows in five work
    arrays reused from band to band (small enough to stay in cache in the
    given order), then written into the result.
    With ``reorder`` (default :data:`agreekit.runtime.REORDER_COLUMNS`: in Pyodide) the columns are computed in
    :func:`_column_order` and each row is scattered back to the given order:
    the same operations on the same pairs, so the same values.
    Degenerate boxes (w ≤ 0 or h ≤ 0, rare) take :func:`_giou_distance` whole.
    """
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    if not (((aw > 0) & (ah > 0)).all() and ((bw > 0) & (bh > 0)).all()):
        return _giou_distance([p[:, None] for p in a], [p[None, :] for p in b])
    order = _column_order(bx, by) if (runtime.REORDER_COLUMNS if reorder is None else reorder) else None
    if order is not None:
        bx, by, bw, bh = (p[order] for p in b)
    rows = (ax, ay, ax + aw, ay + ah, aw * ah)
    columns = (bx, by, bx + bw, by + bh, bw * bh)
    out = np.empty((len(ax), len(bx)))
    step = max(1, (_BAND_ELEMENTS if order is None else _REORDERED_BAND_ELEMENTS) // max(len(bx), 1))
    work = np.empty((5, min(step, len(ax)), len(bx)))
    with np.errstate(divide="ignore", invalid="ignore"):
        for start in range(0, len(ax), step):
            band = slice(start, start + step)
            n_band = len(out[band])
            distance = out[band] if order is None else work[4, :n_band]
            _giou_band([p[band, None] for p in rows], columns, work[:4, :n_band], distance)
            if order is not None:
                for row, values in zip(out[band], distance):
                    row[order] = values
    return out


def _giou_band(rows, columns, work, inter):
    """One band of :func:`_giou_distance_matrix`, written into ``inter`` (band × m)."""
    x, y, x2, y2, area_a = rows
    bx, by, bx2, by2, area_b = columns
    edge, ow, hull, hull_h = work
    np.minimum(x2, bx2, out=ow)
    ow -= np.maximum(x, bx, out=edge)
    np.minimum(y2, by2, out=inter)            # the signed overlap height, for now
    inter -= np.maximum(y, by, out=edge)
    np.maximum(x2, bx2, out=hull)
    hull -= np.minimum(x, bx, out=edge)
    np.maximum(y2, by2, out=hull_h)
    hull_h -= np.minimum(y, by, out=edge)
    hull *= hull_h
    np.maximum(ow, 0.0, out=ow)
    np.maximum(inter, 0.0, out=inter)
    inter *= ow
    union = np.add(area_a, area_b, out=hull_h)
    union -= inter
    inter /= union
    inter += np.divide(union, hull, out=hull)
    inter *= -0.5
    inter += 1.0


def paired_distance(a, b, distance="giou"):
    """Distance between ``a[k]`` and ``b[k]`` for each k: (n,)."""
    return _DIST[distance](_parts(a), _parts(b))


_DIST = {
    "giou": _giou_distance,
    "iou": lambda a, b: 1.0 - _iou(a, b),
    "centroid": _centroid,
}
