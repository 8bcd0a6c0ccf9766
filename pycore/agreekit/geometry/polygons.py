"""Exact area, IoU and GIoU of simple polygons, convex or not, without rasterization.

|P ∩ Q| by the origin-fan decomposition (:mod:`agreekit.geometry.polygon_overlap`),
for many pairs at once on polygons packed into padded arrays (:func:`pack`).

IoU = |P ∩ Q| / (|P| + |Q| − |P ∩ Q|).

GIoU = IoU − (|C| − |P ∪ Q|) / |C| with ``C`` the convex hull of ``P ∪ Q``
    (Rezatofighi et al., "Generalized Intersection over Union", CVPR 2019, which
    takes the smallest enclosing convex object; for boxes they use the enclosing
    box). Potato's polygon GIoU uses the axis-aligned bounding box of the points
    instead (``docs/potato-differences.md``); agreekit deliberately uses the convex hull.
    The GIoU distance is (1 − GIoU) / 2, in [0, 1]. A consequence of the convex
    enclosing shape: two identical non-convex outlines have GIoU = |P| / |hull(P)|
    < 1, so their GIoU distance is not 0 (it is 0 for convex polygons).

Polygons are ``(n, 2)`` vertex arrays, simple, either orientation; reading and
checking them is :mod:`agreekit.geometry.polygon_checks`.

References
----------
Rezatofighi, H. et al. (2019). Generalized Intersection over Union: a metric and
a loss for bounding box regression. CVPR 2019, 658–666.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from .polygon_checks import BLOCK_ELEMENTS, collapse_repeats, cross, signed_area, validate_polygon, validate_polygons
from .polygon_overlap import fan_overlap

__all__ = [
    "polygon_area", "convex_hull", "PolygonSet", "PairAreas", "pack", "intersection_area", "polygon_iou",
    "polygon_giou", "pair_areas", "pair_iou", "pair_giou", "iou_matrix", "giou_matrix", "pairwise_iou",
]


# --------------------------------------------------------------------------- single polygons

def polygon_area(points) -> float:
    """Area of a simple polygon by the shoelace formula, whatever its orientation.

    Parameters
    ----------
    points : array_like, shape (n, 2)

    Returns
    -------
    float
        |½ Σ_i cross(v_i, v_{i+1})|.
    """
    return float(abs(signed_area(np.asarray(points, dtype=float))))


def convex_hull(points) -> np.ndarray:
    """Convex hull of a point set by Andrew's monotone chain.

    Parameters
    ----------
    points : array_like, shape (n, 2)

    Returns
    -------
    ndarray, shape (h, 2)
        Hull vertices counter-clockwise, without collinear points (the
        distinct points themselves when there are fewer than 3).

    References
    ----------
    Andrew, A. M. (1979). Another efficient algorithm for convex hulls in two
    dimensions. Information Processing Letters 9(5), 216–219.
    """
    pts = sorted(set(map(tuple, np.asarray(points, dtype=float).tolist())))
    if len(pts) < 3:
        return np.array(pts).reshape(-1, 2)

    def chain(seq):
        out = []
        for px, py in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (py - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (px - out[-2][0])) <= 0:
                out.pop()
            out.append((px, py))
        return out[:-1]

    return np.array(chain(pts) + chain(pts[::-1]))


# --------------------------------------------------------------------------- many polygons

class PolygonSet(NamedTuple):
    """Polygons packed into padded arrays for vectorized pair computations.

    ``vertices`` is (N, K, 2), counter-clockwise, each polygon padded to K with
    repeats of one vertex (a repeated vertex adds only zero-area fan triangles).
    ``hull_angles``, ``hull_normals``, ``hull_supports`` describe each convex hull
    by its edge normals in angular order and the vertex supporting the directions
    just past each (:func:`_support_tables`).
    """
    vertices: np.ndarray
    counts: np.ndarray
    areas: np.ndarray
    lower: np.ndarray  # (N, 2) bounding-box minimum
    upper: np.ndarray  # (N, 2) bounding-box maximum
    hull_angles: np.ndarray
    hull_normals: np.ndarray
    hull_supports: np.ndarray

    def __len__(self):
        return len(self.counts)


class _HullTables(NamedTuple):
    """Padded convex hulls' edge normals in angular order, and the vertices supporting them."""
    angles: np.ndarray    # (N, H) outward normal angles, sorted
    normals: np.ndarray   # (N, H, 2) unit outward normals
    supports: np.ndarray  # (N, H, 2) the vertex supporting the directions just past each normal


def _pad(arrays, width):
    """Stack (n_k, 2) arrays into (N, width, 2), each padded by repeating its last row."""
    out = np.empty((len(arrays), max(width, 1), 2))
    for k, a in enumerate(arrays):
        out[k, :len(a)] = a
        out[k, len(a):] = a[-1]
    return out


def _support_tables(hulls: np.ndarray, counts: np.ndarray) -> _HullTables:
    """Each padded convex hull's edge normals in angular order, with the vertex that
    supports the directions just past each.

    Padding edges have zero length; they take the angle and normal of the last edge
    before them, whose supporting vertex they share, so they change nothing.
    """
    n, width = hulls.shape[:2]
    after = np.concatenate([hulls[:, 1:], hulls[:, :1]], axis=1)
    d = after - hulls
    pos = np.arange(width)[None, :]
    last = (counts - 2)[:, None]
    src = np.where((pos > last) & (pos < width - 1), last, pos)
    d = np.take_along_axis(d, src[..., None], axis=1)
    angles = np.arctan2(-d[..., 0], d[..., 1])  # outward normal (dy, -dx) of a CCW edge
    normals = np.stack([d[..., 1], -d[..., 0]], axis=-1) / np.hypot(d[..., 0], d[..., 1])[..., None]
    order = np.argsort(angles, axis=1, kind="stable")
    return _HullTables(angles=np.take_along_axis(angles, order, axis=1),
                       normals=np.take_along_axis(normals, order[..., None], axis=1),
                       supports=np.take_along_axis(after, order[..., None], axis=1))


def pack(polygons: Sequence) -> PolygonSet:
    """Pack validated polygons into padded arrays for the pair functions.

    Parameters
    ----------
    polygons : sequence of ndarray, each shape (n, 2)
        Simple polygons (:func:`~agreekit.geometry.polygon_checks.validate_polygons`).

    Returns
    -------
    PolygonSet
        Counter-clockwise vertices, areas, bounding boxes and hull tables.
    """
    polys = [collapse_repeats(np.asarray(p, dtype=float)) for p in polygons]
    counts = np.array([len(p) for p in polys], dtype=np.int64)
    vertices = _pad(polys, int(counts.max(initial=0)))
    areas = signed_area(vertices)  # padding repeats add nothing to the shoelace sum
    vertices[areas < 0] = vertices[areas < 0, ::-1]  # counter-clockwise; padding now leads
    hulls = [convex_hull(p) for p in polys]
    hull_counts = np.array([len(h) for h in hulls], dtype=np.int64)
    hull = _support_tables(_pad(hulls, int(hull_counts.max(initial=0))), hull_counts)
    return PolygonSet(vertices, counts, np.abs(areas), vertices.min(axis=1).reshape(-1, 2),
                      vertices.max(axis=1).reshape(-1, 2), hull.angles, hull.normals, hull.supports)


def _as_set(polygons) -> PolygonSet:
    if isinstance(polygons, PolygonSet):
        return polygons
    return pack(validate_polygons(polygons))


# --------------------------------------------------------------------------- pairs and matrices

def _hull_union_area(ps, i, qs, j):
    """Area of the convex hull of ``ps[i[k]] ∪ qs[j[k]]`` for each pair k.

    The hull's support function is the larger of the two hulls' support functions.
    Between consecutive edge normals of either hull (merged in angular order) each
    hull has one supporting vertex, and which of the two supports further changes at
    most once; so the hull boundary is the sequence of winners at the start and the
    end of every such interval, and its area is the shoelace sum over that sequence
    (repeated points add nothing). No loops over vertices; no sorting of points.
    """
    ang = np.concatenate([ps.hull_angles[i], qs.hull_angles[j]], axis=1)
    width_a = ps.hull_angles.shape[1]
    width_b = qs.hull_angles.shape[1]
    order = np.argsort(ang, axis=1, kind="stable")
    from_a = order < width_a
    ia = (np.cumsum(from_a, axis=1) - 1) % width_a
    ib = (np.cumsum(~from_a, axis=1) - 1) % width_b
    normals = np.concatenate([ps.hull_normals[i], qs.hull_normals[j]], axis=1)
    normals = np.take_along_axis(normals, order[..., None], axis=1)
    origin = ps.hull_supports[i, :1, :]  # local origin: no large offsets in the cross products
    a = np.take_along_axis(ps.hull_supports[i] - origin, ia[..., None], axis=1)
    b = np.take_along_axis(qs.hull_supports[j] - origin, ib[..., None], axis=1)
    gap = a - b
    a_leads_start = np.sum(gap * normals, axis=-1) >= 0
    a_leads_end = np.sum(gap * np.roll(normals, -1, axis=1), axis=-1) >= 0
    start = np.where(a_leads_start[..., None], a, b)
    end = np.where(a_leads_end[..., None], a, b)
    seq = np.stack([start, end], axis=2).reshape(len(ang), -1, 2)
    nxt = np.roll(seq, -1, axis=1)
    return 0.5 * np.sum(cross(seq[..., 0], seq[..., 1], nxt[..., 0], nxt[..., 1]), axis=1)


def _chunks(n_pairs, per_pair):
    step = max(1, BLOCK_ELEMENTS // max(per_pair, 1))
    for start in range(0, n_pairs, step):
        yield slice(start, min(start + step, n_pairs))


class PairAreas(NamedTuple):
    """Intersection and union areas of polygon pairs."""
    intersection: np.ndarray
    union: np.ndarray


def pair_areas(ps: PolygonSet, i, j, qs: PolygonSet | None = None) -> PairAreas:
    """Exact intersection and union areas of polygon pairs (origin-fan decomposition).

    Pairs whose bounding boxes do not overlap have intersection 0 without further work.

    Parameters
    ----------
    ps, qs : PolygonSet
        Packed polygons (:func:`pack`); ``qs`` defaults to ``ps``.
    i, j : array_like of int, shape (m,)
        Pair k is ``(ps[i[k]], qs[j[k]])``.

    Returns
    -------
    PairAreas
        ``intersection`` and ``union``, shape (m,) each.
    """
    qs = ps if qs is None else qs
    i = np.asarray(i, dtype=np.int64).ravel()
    j = np.asarray(j, dtype=np.int64).ravel()
    inter = np.zeros(len(i))
    lo = np.maximum(ps.lower[i], qs.lower[j])
    hi = np.minimum(ps.upper[i], qs.upper[j])
    overlap = np.nonzero(np.all(lo < hi, axis=1))[0]
    k_width, l_width = ps.vertices.shape[1], qs.vertices.shape[1]
    for chunk in _chunks(len(overlap), k_width * l_width):
        idx = overlap[chunk]
        origin = (0.5 * (lo[idx] + hi[idx]))[:, None, :]
        inter[idx] = fan_overlap(ps.vertices[i[idx]] - origin, qs.vertices[j[idx]] - origin)
    # Rounding can put a (near-)empty or (near-)full overlap a hair outside its range.
    inter = np.clip(inter, 0.0, np.minimum(ps.areas[i], qs.areas[j]))
    union = ps.areas[i] + qs.areas[j] - inter
    return PairAreas(inter, union)


def pair_iou(ps: PolygonSet, i, j, qs: PolygonSet | None = None) -> np.ndarray:
    """IoU |P ∩ Q| / |P ∪ Q| of polygon pairs.

    Parameters
    ----------
    ps, qs : PolygonSet
        Packed polygons (:func:`pack`); ``qs`` defaults to ``ps``.
    i, j : array_like of int, shape (m,)
        Pair k is ``(ps[i[k]], qs[j[k]])``.

    Returns
    -------
    ndarray, shape (m,)
    """
    inter, union = pair_areas(ps, i, j, qs)
    return inter / union


def pair_giou(ps: PolygonSet, i, j, qs: PolygonSet | None = None) -> np.ndarray:
    """GIoU of polygon pairs, IoU − (|C| − |P ∪ Q|) / |C| with C the convex hull of P ∪ Q.

    Parameters and shapes as :func:`pair_iou`; the values lie in (−1, 1], below 1
    for identical non-convex polygons.

    References
    ----------
    Rezatofighi et al. (2019), with the convex hull as the enclosing shape.
    """
    qs = ps if qs is None else qs
    i = np.asarray(i, dtype=np.int64).ravel()
    j = np.asarray(j, dtype=np.int64).ravel()
    inter, union = pair_areas(ps, i, j, qs)
    hull = np.empty(len(i))
    for chunk in _chunks(len(i), ps.hull_angles.shape[1] + qs.hull_angles.shape[1]):
        hull[chunk] = _hull_union_area(ps, i[chunk], qs, j[chunk])
    hull = np.maximum(hull, union)  # the hull contains the union; guard rounding
    return inter / union - (hull - union) / hull


def _matrix(fn, polygons_a, polygons_b):
    ps = _as_set(polygons_a)
    qs = ps if polygons_b is None else _as_set(polygons_b)
    i, j = np.indices((len(ps), len(qs))).reshape(2, -1)
    return fn(ps, i, j, qs).reshape(len(ps), len(qs))


def iou_matrix(polygons_a, polygons_b=None) -> np.ndarray:
    """IoU of every polygon of ``polygons_a`` with every one of ``polygons_b``.

    Parameters
    ----------
    polygons_a, polygons_b : sequence of array_like (n, 2), or PolygonSet
        Polygons (validated here unless packed); ``polygons_b`` defaults to ``polygons_a``.

    Returns
    -------
    ndarray, shape (len(polygons_a), len(polygons_b))
    """
    return _matrix(pair_iou, polygons_a, polygons_b)


def giou_matrix(polygons_a, polygons_b=None) -> np.ndarray:
    """GIoU of every polygon of ``polygons_a`` with every one of ``polygons_b``.

    Parameters
    ----------
    polygons_a, polygons_b : sequence of array_like (n, 2), or PolygonSet
        As for :func:`iou_matrix`.

    Returns
    -------
    ndarray, shape (len(polygons_a), len(polygons_b))
    """
    return _matrix(pair_giou, polygons_a, polygons_b)


def pairwise_iou(polygons, *, chunk_pairs: int = 1 << 18) -> np.ndarray:
    """Symmetric IoU matrix of many polygons, computing each unordered pair once.

    Pairs are streamed ``chunk_pairs`` at a time (the index arrays of all N² pairs
    are never built); pairs with disjoint bounding boxes cost nothing.

    Parameters
    ----------
    polygons : sequence of array_like (n, 2), or PolygonSet
    chunk_pairs : int
        Pairs per batch.

    Returns
    -------
    ndarray, shape (N, N)
        1 on the diagonal.
    """
    ps = _as_set(polygons)
    n = len(ps)
    out = np.eye(n)
    rows = np.arange(n)
    start = 0
    while start < n - 1:
        # whole rows i (pairs (i, j > i)) until the chunk is full
        sizes = n - 1 - rows[start:n - 1]
        stop = start + max(1, int(np.searchsorted(np.cumsum(sizes), chunk_pairs, side="right")))
        i = np.repeat(rows[start:stop], n - 1 - rows[start:stop])
        j = np.concatenate([np.arange(r + 1, n) for r in range(start, stop)])
        values = pair_iou(ps, i, j)
        out[i, j] = values
        out[j, i] = values
        start = stop
    return out


def intersection_area(a, b) -> float:
    """Exact area of the intersection of two simple polygons.

    Parameters
    ----------
    a, b : array_like, shape (n, 2) and (m, 2)
        Simple polygons, validated here.

    Returns
    -------
    float
    """
    ps = pack([validate_polygon(a), validate_polygon(b)])
    return float(pair_areas(ps, [0], [1]).intersection[0])


def polygon_iou(a, b) -> float:
    """Exact IoU of two simple polygons.

    Parameters
    ----------
    a, b : array_like, shape (n, 2) and (m, 2)
        Simple polygons, validated here.

    Returns
    -------
    float
    """
    ps = pack([validate_polygon(a), validate_polygon(b)])
    return float(pair_iou(ps, [0], [1])[0])


def polygon_giou(a, b) -> float:
    """Exact GIoU of two simple polygons, the convex hull of their union enclosing them.

    Parameters
    ----------
    a, b : array_like, shape (n, 2) and (m, 2)
        Simple polygons, validated here.

    Returns
    -------
    float

    References
    ----------
    Rezatofighi et al. (2019), with the convex hull as the enclosing shape.
    """
    ps = pack([validate_polygon(a), validate_polygon(b)])
    return float(pair_giou(ps, [0], [1])[0])
