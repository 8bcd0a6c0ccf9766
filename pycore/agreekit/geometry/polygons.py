"""Exact area, IoU and GIoU of simple polygons, convex or not, without rasterization.

Intersection area — origin-fan decomposition
    Put the origin ``O`` anywhere. A simple counter-clockwise polygon with vertices
    ``v_0 … v_{n-1}`` has, almost everywhere in the plane, the indicator

        1_P(x) = Σ_i s_i 1_{T_i}(x),     T_i = triangle(O, v_i, v_{i+1}),
        s_i = sign(cross(v_i, v_{i+1})),

    (the winding number of the boundary around ``x``). So for two polygons

        |P ∩ Q| = Σ_i Σ_j s_i t_j |T_i ∩ U_j|,

    a signed sum of intersections of triangles that share the apex ``O``. Each such
    intersection lies in the common angular wedge of the two triangles (a wedge of
    angle < π, or nothing) below the nearer of the two far edges; the two edges'
    lines cross at most once inside the wedge, so the area is one triangle at ``O``
    or two. The sum is a continuous function of the vertices, so shared and
    collinear edges (two annotators tracing the same outline) need no special case.
    Everything is evaluated for many polygon pairs at once in numpy. ``O`` is put at
    the centre of the pair's overlap box, which keeps the cancellation in the signed
    sum small.

IoU = |P ∩ Q| / (|P| + |Q| − |P ∩ Q|).

GIoU = IoU − (|C| − |P ∪ Q|) / |C| with ``C`` the convex hull of ``P ∪ Q``
    (Rezatofighi et al., "Generalized Intersection over Union", CVPR 2019, which
    takes the smallest enclosing convex object; for boxes they use the enclosing
    box). Potato's polygon GIoU uses the axis-aligned bounding box of the points
    instead (reference semantics §1); agreekit deliberately uses the convex hull.
    The GIoU distance is (1 − GIoU) / 2, in [0, 1]. A consequence of the convex
    enclosing shape: two identical non-convex outlines have GIoU = |P| / |hull(P)|
    < 1, so their GIoU distance is not 0 (it is 0 for convex polygons).

Polygons are given as ``(n, 2)`` arrays of vertices, either orientation, without a
closing repeat (a closing repeat and consecutive duplicate vertices are collapsed:
they describe the same polygon). They must be simple: ≥ 3 distinct vertices,
finite, positive area, no two edges meeting except neighbours at their shared vertex.
"""
from __future__ import annotations

import json
from typing import NamedTuple, Sequence

import numpy as np

from ..rows import InputError

__all__ = [
    "parse_points", "validate_polygon", "validate_polygons", "polygon_area", "convex_hull",
    "PolygonSet", "pack", "intersection_area", "polygon_iou", "polygon_giou",
    "pair_areas", "pair_iou", "pair_giou", "iou_matrix", "giou_matrix", "pairwise_iou",
]

# Triangle–triangle wedge tests per numpy block: keeps the (pairs, k, l) temporaries
# near cache size (about half a megabyte each); larger blocks were no faster.
_BLOCK_ELEMENTS = 1 << 16


# --------------------------------------------------------------------------- input

def parse_points(text, *, line=None, column="points") -> np.ndarray:
    """Read a polygon's vertices from a ``points`` field.

    Accepted forms: ``"x1 y1 x2 y2 …"``; pairs separated by semicolons, with the two
    numbers of a pair separated by a space or a comma (``"x1,y1; x2,y2"``); a JSON
    list of pairs ``[[x1, y1], …]`` or a flat JSON list ``[x1, y1, x2, y2, …]`` (the
    COCO ``segmentation`` form). A sequence of pairs is accepted as is. Returns an
    ``(n, 2)`` float array; raises :class:`InputError` naming the line and column.
    """
    def fail(why):
        raise InputError(why, line=line, column=column, value=text)

    if isinstance(text, str):
        s = text.strip()
        if not s:
            fail("no points")
        if s.startswith("["):
            try:
                values = json.loads(s)
            except ValueError as exc:
                fail(f"not a valid JSON list ({exc.msg})")
        else:
            tokens = s.replace(";", " ").replace(",", " ").split()
            values = []
            for token in tokens:
                try:
                    values.append(float(token))
                except ValueError:
                    fail(f"{token!r} is not a number")
    else:
        values = text
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        fail("expected numbers or pairs of numbers")
    if arr.ndim == 1:
        if arr.size % 2:
            fail(f"odd count of coordinates ({arr.size}); expected x y pairs")
        arr = arr.reshape(-1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        fail("expected a list of (x, y) pairs")
    return arr


def _collapse_repeats(points: np.ndarray) -> np.ndarray:
    """Drop consecutive duplicate vertices, including a closing repeat of the first."""
    nxt = np.concatenate([points[1:], points[:1]])
    keep = np.any(points != nxt, axis=1)
    if not keep.any():
        return points[:1]
    return points[keep]


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _segments_touch(p, q, r, s):
    """Whether closed segments p→q and r→s share a point (element-wise, exact signs)."""
    d1 = _cross(q[..., 0] - p[..., 0], q[..., 1] - p[..., 1], r[..., 0] - p[..., 0], r[..., 1] - p[..., 1])
    d2 = _cross(q[..., 0] - p[..., 0], q[..., 1] - p[..., 1], s[..., 0] - p[..., 0], s[..., 1] - p[..., 1])
    d3 = _cross(s[..., 0] - r[..., 0], s[..., 1] - r[..., 1], p[..., 0] - r[..., 0], p[..., 1] - r[..., 1])
    d4 = _cross(s[..., 0] - r[..., 0], s[..., 1] - r[..., 1], q[..., 0] - r[..., 0], q[..., 1] - r[..., 1])
    proper = (np.sign(d1) * np.sign(d2) < 0) & (np.sign(d3) * np.sign(d4) < 0)

    def on_segment(a, b, c, d):  # c collinear with a→b (d == 0) and inside its box
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        return (d == 0) & np.all((c >= lo) & (c <= hi), axis=-1)

    return (proper | on_segment(p, q, r, d1) | on_segment(p, q, s, d2)
            | on_segment(r, s, p, d3) | on_segment(r, s, q, d4))


def _far_edge_pairs(n, budget):
    """Pairs (i < j) of edges of an n-gon that are not neighbours, in order, about
    ``budget`` at a time (never all n² at once: polygons may have thousands of points)."""
    first = 0
    while first < n:
        counts = n - np.arange(first, n) - 2
        counts[0] -= first == 0  # edge n-1 neighbours edge 0
        counts = np.maximum(counts, 0)
        last = first + max(1, int(np.searchsorted(np.cumsum(counts), budget, side="right")))
        i = np.repeat(np.arange(first, last), counts[:last - first])
        if len(i):
            offset = np.arange(len(i)) - np.repeat(np.cumsum(counts[:last - first]) - counts[:last - first],
                                                   counts[:last - first])
            yield i, i + 2 + offset
        first = last


# From this many points on, edge pairs are found through sorted bounding boxes
# instead of all n²/2 pairs (a polygon of 5,000 points has 12.5 M pairs).
_SORTED_CHECK_FROM = 64


def _crossing_by_sorted_boxes(start, end):
    """The first crossing or touching of two non-neighbouring edges of one polygon, or None.

    Edges sorted by their left end: only edges whose x-ranges overlap are paired
    (found by binary search), then only those whose y-ranges overlap are tested.
    """
    n = len(start)
    x0, x1 = np.minimum(start[:, 0], end[:, 0]), np.maximum(start[:, 0], end[:, 0])
    y0, y1 = np.minimum(start[:, 1], end[:, 1]), np.maximum(start[:, 1], end[:, 1])
    order = np.argsort(x0, kind="stable")
    reach = np.searchsorted(x0[order], x1[order], side="right")  # sorted positions a < b < reach[a]
    counts = np.maximum(reach - np.arange(n) - 1, 0)
    ends = np.cumsum(counts)
    best = None
    first = 0
    while first < n:
        last = first + max(1, int(np.searchsorted(ends[first:] - (ends[first] - counts[first]),
                                                  _BLOCK_ELEMENTS, side="right")))
        a = np.repeat(np.arange(first, last), counts[first:last])
        if len(a):
            b = a + 1 + np.arange(len(a)) - np.repeat(ends[first:last] - counts[first:last] - (ends[first] - counts[first]),
                                                      counts[first:last])
            i, j = np.minimum(order[a], order[b]), np.maximum(order[a], order[b])
            near = (j - i == 1) | ((i == 0) & (j == n - 1))
            keep = ~near & (np.maximum(y0[i], y0[j]) <= np.minimum(y1[i], y1[j]))
            i, j = i[keep], j[keep]
            hit = _segments_touch(start[i], end[i], start[j], end[j])
            if hit.any():
                k = np.lexsort((j[hit], i[hit]))[0]
                pair = (int(i[hit][k]), int(j[hit][k]))
                best = pair if best is None else min(best, pair)
        first = last
    if best is None:
        return None
    return f"edge {best[0] + 1} (from point {best[0] + 1}) meets edge {best[1] + 1}"


def _simplicity_faults(group: np.ndarray):
    """For polygons of equal vertex count, (g, n, 2): the first fault of each, or None.

    A fault is neighbouring edges folding back onto each other (collinear, opposite
    directions), or two non-neighbouring edges crossing or touching.
    """
    g, n = group.shape[:2]
    faults = [None] * g
    start, end = group, np.concatenate([group[:, 1:], group[:, :1]], axis=1)
    edge = end - start
    nxt = np.concatenate([edge[:, 1:], edge[:, :1]], axis=1)
    folds = (_cross(edge[..., 0], edge[..., 1], nxt[..., 0], nxt[..., 1]) == 0) & (np.sum(edge * nxt, axis=2) < 0)
    for k in np.nonzero(folds.any(axis=1))[0]:
        v = int(np.argmax(folds[k])) + 2
        faults[k] = f"the edges at point {v if v <= n else v - n} fold back onto each other"
    if n > _SORTED_CHECK_FROM:
        for k in range(g):
            faults[k] = faults[k] or _crossing_by_sorted_boxes(start[k], end[k])
        return faults
    n_far = n * (n - 3) // 2  # pairs of edges that are not neighbours
    step = max(1, _BLOCK_ELEMENTS // max(n_far, 1))
    for lo in range(0, g, step):
        rows = slice(lo, lo + step)
        for ci, cj in _far_edge_pairs(n, _BLOCK_ELEMENTS):
            hit = _segments_touch(start[rows, ci], end[rows, ci], start[rows, cj], end[rows, cj])
            for k in np.nonzero(hit.any(axis=1))[0]:
                if faults[lo + k] is None:
                    h = int(np.argmax(hit[k]))
                    faults[lo + k] = f"edge {ci[h] + 1} (from point {ci[h] + 1}) meets edge {cj[h] + 1}"
    return faults


def validate_polygons(polygons, lines=None, column="points") -> list:
    """Check that every polygon is simple; return them as ``(n, 2)`` float arrays.

    Rejects the whole input with :class:`InputError` naming the line of the first
    bad polygon: fewer than 3 distinct points, non-finite coordinates,
    self-intersection (non-neighbouring edges that cross or touch, or neighbouring
    edges folding back onto each other), or zero area. Consecutive repeated points
    (and a closing repeat of the first) are collapsed first: same polygon.
    Self-intersection tests run vectorized over polygons with equal point counts.
    """
    lines = [None] * len(polygons) if lines is None else list(lines)
    out, faults = [], []
    for points in polygons:
        arr = np.asarray(points, dtype=float)
        fault = None
        if arr.ndim != 2 or arr.shape[1] != 2:
            fault = "expected a list of (x, y) pairs"
        elif not np.all(np.isfinite(arr)):
            fault = "coordinates must be finite numbers (no NaN or infinity)"
        else:
            arr = _collapse_repeats(arr)
            if len(arr) < 3:  # also catches every point equal
                fault = f"a polygon needs at least 3 distinct points, got {len(arr)}"
        out.append(arr)
        faults.append(fault)
    by_count = {}
    for k, arr in enumerate(out):
        if faults[k] is None:
            by_count.setdefault(len(arr), []).append(k)
    for members in by_count.values():
        group = np.stack([out[k] for k in members])
        flat = _signed_area(group) == 0
        for k, fault, zero in zip(members, _simplicity_faults(group), flat):
            faults[k] = ("self-intersecting polygon: " + fault) if fault else ("polygon has zero area" if zero else None)
    for k, fault in enumerate(faults):
        if fault is not None:
            raise InputError(fault, line=lines[k], column=column)
    return out


def validate_polygon(points, *, line=None, column="points") -> np.ndarray:
    """Check one polygon (see :func:`validate_polygons`) and return it as an ``(n, 2)`` array."""
    return validate_polygons([points], [line], column)[0]


# --------------------------------------------------------------------------- single polygons

def _signed_area(points: np.ndarray) -> np.ndarray:
    """Shoelace area, positive for counter-clockwise; ``points`` is (..., n, 2)."""
    p = points - points[..., :1, :]  # relative to a vertex: no cancellation of large offsets
    q = np.concatenate([p[..., 1:, :], p[..., :1, :]], axis=-2)
    return 0.5 * np.sum(_cross(p[..., 0], p[..., 1], q[..., 0], q[..., 1]), axis=-1)


def polygon_area(points) -> float:
    """Area of a simple polygon (shoelace formula), independent of orientation."""
    return float(abs(_signed_area(np.asarray(points, dtype=float))))


def convex_hull(points) -> np.ndarray:
    """Counter-clockwise convex hull vertices (Andrew's monotone chain), no collinear points."""
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


def _pad(arrays, width):
    """Stack (n_k, 2) arrays into (N, width, 2), each padded by repeating its last row."""
    out = np.empty((len(arrays), max(width, 1), 2))
    for k, a in enumerate(arrays):
        out[k, :len(a)] = a
        out[k, len(a):] = a[-1]
    return out


def _support_tables(hulls: np.ndarray, counts: np.ndarray):
    """Each padded convex hull's edge normals in angular order, with the vertex that
    supports the directions just past each: (angles, unit normals, supports).

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
    return (np.take_along_axis(angles, order, axis=1),
            np.take_along_axis(normals, order[..., None], axis=1),
            np.take_along_axis(after, order[..., None], axis=1))


def pack(polygons: Sequence) -> PolygonSet:
    """Pack validated polygons (each an (n, 2) array) into a :class:`PolygonSet`."""
    polys = [_collapse_repeats(np.asarray(p, dtype=float)) for p in polygons]
    counts = np.array([len(p) for p in polys], dtype=np.int64)
    vertices = _pad(polys, int(counts.max(initial=0)))
    areas = _signed_area(vertices)  # padding repeats add nothing to the shoelace sum
    vertices[areas < 0] = vertices[areas < 0, ::-1]  # counter-clockwise; padding now leads
    hulls = [convex_hull(p) for p in polys]
    hull_counts = np.array([len(h) for h in hulls], dtype=np.int64)
    tables = _support_tables(_pad(hulls, int(hull_counts.max(initial=0))), hull_counts)
    return PolygonSet(vertices, counts, np.abs(areas), vertices.min(axis=1).reshape(-1, 2),
                      vertices.max(axis=1).reshape(-1, 2), *tables)


def _as_set(polygons) -> PolygonSet:
    if isinstance(polygons, PolygonSet):
        return polygons
    return pack(validate_polygons(polygons))


def _fan_overlap(A, B):
    """Σ_i Σ_j s_i t_j |T_i ∩ U_j| for each pair: A (m, k, 2), B (m, l, 2), origin at 0.

    Only triangle pairs whose wedges overlap are evaluated beyond the angle test
    that decides it (typically a small fraction of the k·l pairs). The sum is split
    over slices of A's triangles when k·l is large (polygons of thousands of
    points; callers then pass one pair at a time), so memory stays bounded. The
    slices depend on k and l only, so a pair's value does not depend on the other
    pairs of the call (within and between distances of equal shapes tie exactly).
    """
    m, k, l = A.shape[0], A.shape[1], B.shape[1]
    fans_a, fans_b = _fan_wedges(A), _fan_wedges(B)
    step = max(1, _BLOCK_ELEMENTS // max(l, 1))
    total = np.zeros(m)
    with np.errstate(divide="ignore", invalid="ignore"):
        for lo in range(0, k, step):
            total += _fan_overlap_unguarded([f[:, lo:lo + step] for f in fans_a], fans_b)
    return total


def _fan_wedges(V):
    """Fan triangles (0, v_i, v_{i+1}) of polygons V (m, k, 2): their doubled signed
    areas, and their wedges as angular intervals [start, start + width] with width
    in (0, π) (start is NaN for a degenerate triangle, so it overlaps nothing)."""
    nxt = np.concatenate([V[:, 1:], V[:, :1]], axis=1)
    x, y, nx, ny = V[..., 0], V[..., 1], nxt[..., 0], nxt[..., 1]
    doubled = _cross(x, y, nx, ny)
    width = np.arctan2(np.abs(doubled), x * nx + y * ny)
    angle = np.arctan2(y, x)
    start = np.where(doubled > 0, angle, np.concatenate([angle[:, 1:], angle[:, :1]], axis=1))
    start[doubled == 0] = np.nan
    return x, y, nx, ny, doubled, start, width


def _fan_overlap_unguarded(fans_a, fans_b):
    x1, y1, nx1, ny1, doubled1, start1, width1 = fans_a
    x2, y2, nx2, ny2, doubled2, start2, width2 = fans_b
    (m, k), l = x1.shape, x2.shape[1]
    # Wedge 2 starts at rel = start2 − start1 in (−2π, 2π) from wedge 1's start. Two
    # arcs shorter than π overlap (once) exactly when rel, taken modulo 2π into
    # (−width2, width1), exists: rel in (−width2, width1), or above 2π − width2, or
    # below width1 − 2π. Only overlapping pairs go on. Where a ray is nearly shared
    # the choices below change the area continuously: angle rounding is harmless.
    rel = start2[:, None, :] - start1[:, :, None]
    w1, w2 = width1[:, :, None], width2[:, None, :]
    live = ((rel < w1) & (rel > -w2)) | (rel > 2 * np.pi - w2) | (rel < w1 - 2 * np.pi)
    p, i, j = np.nonzero(live)
    if len(p) == 0:
        return np.zeros(m)
    rel = rel[p, i, j]
    f1, f2 = p * k + i, p * l + j  # flat indices into the (m, k) and (m, l) arrays
    w1, w2 = width1.ravel()[f1], width2.ravel()[f2]
    rel = np.where(rel >= w1, rel - 2 * np.pi, np.where(rel <= -w2, rel + 2 * np.pi, rel))
    c_in_1 = rel >= 0                 # wedge 2 starts inside wedge 1
    d_in_1 = rel + w2 <= w1           # wedge 2 ends inside wedge 1
    c1, c2 = doubled1.ravel()[f1], doubled2.ravel()[f2]
    s1s2 = np.sign(c1) * np.sign(c2)
    # Each triangle counter-clockwise: its wedge runs from ray a to ray b (c to d).
    ax, ay, bx, by = (v.ravel()[f1] for v in (x1, y1, nx1, ny1))
    cx, cy, dx, dy = (v.ravel()[f2] for v in (x2, y2, nx2, ny2))
    flip1, flip2 = c1 < 0, c2 < 0
    ax, bx = np.where(flip1, bx, ax), np.where(flip1, ax, bx)
    ay, by = np.where(flip1, by, ay), np.where(flip1, ay, by)
    cx, dx = np.where(flip2, dx, cx), np.where(flip2, cx, dx)
    cy, dy = np.where(flip2, dy, cy), np.where(flip2, cy, dy)
    c1, c2 = np.abs(c1), np.abs(c2)
    e1x, e1y, e2x, e2y = bx - ax, by - ay, dx - cx, dy - cy
    # Wedge rays u0 (start) and u1 (end).
    u0x, u0y = np.where(c_in_1, cx, ax), np.where(c_in_1, cy, ay)
    u1x, u1y = np.where(d_in_1, dx, bx), np.where(d_in_1, dy, by)
    # Distance along each ray to each triangle's far edge (as a multiple of the ray).
    t10 = c1 / _cross(u0x, u0y, e1x, e1y)
    t20 = c2 / _cross(u0x, u0y, e2x, e2y)
    t11 = c1 / _cross(u1x, u1y, e1x, e1y)
    t21 = c2 / _cross(u1x, u1y, e2x, e2y)
    near0, near1 = t10 <= t20, t11 <= t21
    r0, r1 = np.minimum(t10, t20), np.minimum(t11, t21)
    p0x, p0y, p1x, p1y = u0x * r0, u0y * r0, u1x * r1, u1y * r1
    area = _cross(p0x, p0y, p1x, p1y)
    # Where the nearer edge changes inside the wedge, split at the edges' crossing X.
    den = _cross(e1x, e1y, e2x, e2y)
    switch = (near0 != near1) & (den != 0)
    if switch.any():
        k = np.nonzero(switch)[0]
        f = _cross(cx[k] - ax[k], cy[k] - ay[k], e2x[k], e2y[k]) / den[k]
        xx, xy = ax[k] + f * e1x[k], ay[k] + f * e1y[k]
        area[k] = _cross(p0x[k], p0y[k], xx, xy) + _cross(xx, xy, p1x[k], p1y[k])
    # A sliver fan triangle (the origin on or next to an edge) can give 0/0 or a
    # far-off hit through rounding; its true overlap lies in [0, its own area].
    area = np.fmin(np.fmax(area, 0.0), np.minimum(c1, c2))
    return 0.5 * np.bincount(p, weights=s1s2 * area, minlength=m)


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
    return 0.5 * np.sum(_cross(seq[..., 0], seq[..., 1], nxt[..., 0], nxt[..., 1]), axis=1)


def _chunks(n_pairs, per_pair):
    step = max(1, _BLOCK_ELEMENTS // max(per_pair, 1))
    for start in range(0, n_pairs, step):
        yield slice(start, min(start + step, n_pairs))


def pair_areas(ps: PolygonSet, i, j, qs: PolygonSet | None = None):
    """Intersection and union areas of polygon pairs ``(ps[i[k]], qs[j[k]])``.

    ``qs`` defaults to ``ps``. Pairs whose bounding boxes do not overlap have
    intersection 0 without further work.
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
        inter[idx] = _fan_overlap(ps.vertices[i[idx]] - origin, qs.vertices[j[idx]] - origin)
    # Rounding can put a (near-)empty or (near-)full overlap a hair outside its range.
    inter = np.clip(inter, 0.0, np.minimum(ps.areas[i], qs.areas[j]))
    union = ps.areas[i] + qs.areas[j] - inter
    return inter, union


def pair_iou(ps: PolygonSet, i, j, qs: PolygonSet | None = None) -> np.ndarray:
    """IoU of polygon pairs ``(ps[i[k]], qs[j[k]])``."""
    inter, union = pair_areas(ps, i, j, qs)
    return inter / union


def pair_giou(ps: PolygonSet, i, j, qs: PolygonSet | None = None) -> np.ndarray:
    """GIoU of polygon pairs, with the convex hull of the union as enclosing shape."""
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
    """IoU between every polygon of ``polygons_a`` and every one of ``polygons_b``
    (default: ``polygons_a`` itself). Accepts sequences of (n, 2) arrays or
    :class:`PolygonSet`."""
    return _matrix(pair_iou, polygons_a, polygons_b)


def giou_matrix(polygons_a, polygons_b=None) -> np.ndarray:
    """GIoU between every polygon of ``polygons_a`` and every one of ``polygons_b``."""
    return _matrix(pair_giou, polygons_a, polygons_b)


def pairwise_iou(polygons, *, chunk_pairs: int = 1 << 18) -> np.ndarray:
    """Symmetric (N, N) IoU matrix of many polygons, computing each unordered pair once.

    Pairs are streamed ``chunk_pairs`` at a time (the index arrays of all N² pairs
    are never built); pairs with disjoint bounding boxes cost nothing.
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
    """Exact area of the intersection of two simple polygons ((n, 2) vertex arrays)."""
    ps = pack([validate_polygon(a), validate_polygon(b)])
    return float(pair_areas(ps, [0], [1])[0][0])


def polygon_iou(a, b) -> float:
    """Exact IoU of two simple polygons given as (n, 2) vertex arrays."""
    ps = pack([validate_polygon(a), validate_polygon(b)])
    return float(pair_iou(ps, [0], [1])[0])


def polygon_giou(a, b) -> float:
    """Exact GIoU of two simple polygons (convex hull of the union encloses them)."""
    ps = pack([validate_polygon(a), validate_polygon(b)])
    return float(pair_giou(ps, [0], [1])[0])
