"""Checking that polygons are simple (their ``points`` text is read by :mod:`agreekit.parse.points`).

A polygon is an ``(n, 2)`` array of vertices, either orientation, without a
closing repeat (a closing repeat and consecutive duplicate vertices are
collapsed: they describe the same polygon).  It must be simple: ≥ 3 distinct
vertices, finite, positive area, no two edges meeting except neighbours at
their shared vertex.  The area and intersection measures of simple polygons are
in :mod:`agreekit.geometry.polygons`; this module also holds the two vertex
primitives both use (:func:`cross`, :func:`signed_area`).
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..parse.points import points_text

__all__ = ["collapse_repeats", "cross", "signed_area", "validate_polygons", "validate_polygon"]

# Elements per numpy block of pair tests (edge pairs here, triangle pairs in
# polygons.py): keeps the temporaries near cache size (about half a megabyte
# each); larger blocks were no faster.
BLOCK_ELEMENTS = 1 << 16

# From this many points on, edge pairs are found through sorted bounding boxes
# instead of all n²/2 pairs (a polygon of 5,000 points has 12.5 M pairs).
_SORTED_CHECK_FROM = 64

# The largest coordinate magnitude: area centroids take moments of third degree, which stay within
# floating point (±1.8e308) up to here; beyond, products overflow to inf and NaN.
MAX_COORDINATE = 1e100



# --------------------------------------------------------------------------- vertex primitives

def collapse_repeats(points: np.ndarray) -> np.ndarray:
    """Drop consecutive duplicate vertices, including a closing repeat of the first.

    Parameters
    ----------
    points : ndarray, shape (n, 2)

    Returns
    -------
    ndarray, shape (m, 2)
        The same polygon with m ≤ n vertices (one vertex if all are equal).
    """
    nxt = np.concatenate([points[1:], points[:1]])
    keep = np.any(points != nxt, axis=1)
    if not keep.any():
        return points[:1]
    return points[keep]


def cross(ax, ay, bx, by):
    """The z component of the cross product of 2-D vectors (ax, ay) and (bx, by), elementwise.

    Parameters
    ----------
    ax, ay, bx, by : array_like
        Components; broadcast together.

    Returns
    -------
    ndarray
        ``ax·by − ay·bx``: positive when b turns counter-clockwise from a.
    """
    return ax * by - ay * bx


def signed_area(points: np.ndarray) -> np.ndarray:
    """Shoelace area of polygons, positive for counter-clockwise vertices.

    Parameters
    ----------
    points : ndarray, shape (..., n, 2)
        Vertices; repeated vertices add nothing.

    Returns
    -------
    ndarray, shape (...)
        ½ Σ_i cross(v_i − v_0, v_{i+1} − v_0), taken relative to the first
        vertex so that large coordinate offsets do not cancel.
    """
    p = points - points[..., :1, :]  # relative to a vertex: no cancellation of large offsets
    q = np.concatenate([p[..., 1:, :], p[..., :1, :]], axis=-2)
    return 0.5 * np.sum(cross(p[..., 0], p[..., 1], q[..., 0], q[..., 1]), axis=-1)


# --------------------------------------------------------------------------- simplicity

def _segments_touch(p, q, r, s):
    """Whether closed segments p→q and r→s share a point (element-wise, exact signs)."""
    d1 = cross(q[..., 0] - p[..., 0], q[..., 1] - p[..., 1], r[..., 0] - p[..., 0], r[..., 1] - p[..., 1])
    d2 = cross(q[..., 0] - p[..., 0], q[..., 1] - p[..., 1], s[..., 0] - p[..., 0], s[..., 1] - p[..., 1])
    d3 = cross(s[..., 0] - r[..., 0], s[..., 1] - r[..., 1], p[..., 0] - r[..., 0], p[..., 1] - r[..., 1])
    d4 = cross(s[..., 0] - r[..., 0], s[..., 1] - r[..., 1], q[..., 0] - r[..., 0], q[..., 1] - r[..., 1])
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
                                                  BLOCK_ELEMENTS, side="right")))
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
    folds = (cross(edge[..., 0], edge[..., 1], nxt[..., 0], nxt[..., 1]) == 0) & (np.sum(edge * nxt, axis=2) < 0)
    for k in np.nonzero(folds.any(axis=1))[0]:
        v = int(np.argmax(folds[k])) + 2
        faults[k] = f"the edges at point {v if v <= n else v - n} fold back onto each other"
    if n > _SORTED_CHECK_FROM:
        for k in range(g):
            faults[k] = faults[k] or _crossing_by_sorted_boxes(start[k], end[k])
        return faults
    n_far = n * (n - 3) // 2  # pairs of edges that are not neighbours
    step = max(1, BLOCK_ELEMENTS // max(n_far, 1))
    for lo in range(0, g, step):
        rows = slice(lo, lo + step)
        for ci, cj in _far_edge_pairs(n, BLOCK_ELEMENTS):
            hit = _segments_touch(start[rows, ci], end[rows, ci], start[rows, cj], end[rows, cj])
            for k in np.nonzero(hit.any(axis=1))[0]:
                if faults[lo + k] is None:
                    h = int(np.argmax(hit[k]))
                    faults[lo + k] = f"edge {ci[h] + 1} (from point {ci[h] + 1}) meets edge {cj[h] + 1}"
    return faults


def validate_polygons(polygons, lines=None, column="points", values=None) -> list:
    """Check that every polygon is simple, and return them with repeats collapsed.

    Consecutive repeated points (and a closing repeat of the first) are
    collapsed first (:func:`collapse_repeats`): same polygon.  The
    self-intersection tests run vectorized over polygons with equal point counts.

    Parameters
    ----------
    polygons : sequence of array_like, each shape (n, 2)
        Vertices, either orientation.
    lines : sequence of int, optional
        The input line of each polygon, for the error message.
    column : str
        The input column, for the error message.
    values : sequence, optional
        The input field of each polygon (its points text), for the error's
        ``value`` (shortened); without it, the polygon's first coordinates.

    Returns
    -------
    list of ndarray, each shape (m, 2)
        The polygons as float arrays.

    Raises
    ------
    InputError
        Rejecting the whole input, naming the line and value of the first bad
        polygon: not a list of pairs, non-finite coordinates or any beyond
        ``MAX_COORDINATE``, fewer than 3 distinct
        points, self-intersection (non-neighbouring edges that cross or touch,
        or neighbouring edges folding back onto each other), or zero area.
    """
    lines = [None] * len(polygons) if lines is None else list(lines)
    out, faults = [], []
    for points in polygons:
        try:
            arr = np.asarray(points, dtype=float)
        except (TypeError, ValueError, OverflowError):  # ragged, not numbers, or an int beyond float
            arr = np.zeros((0, 0))
        fault = None
        if arr.ndim != 2 or arr.shape[1] != 2:
            fault = "expected a list of (x, y) pairs"
        elif not np.all(np.isfinite(arr)):
            fault = "coordinates must be finite numbers (no NaN, no infinity, none beyond ±1.8·10³⁰⁸)"
        elif arr.size and np.abs(arr).max() > MAX_COORDINATE:
            fault = f"a coordinate is beyond ±{MAX_COORDINATE:g}; rescale the coordinates"
        else:
            arr = collapse_repeats(arr)
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
        flat = signed_area(group) == 0
        for k, fault, zero in zip(members, _simplicity_faults(group), flat):
            faults[k] = ("self-intersecting polygon: " + fault) if fault else ("polygon has zero area" if zero else None)
    for k, fault in enumerate(faults):
        if fault is not None:
            raise InputError(fault, line=lines[k], column=column,
                             value=points_text(polygons[k] if values is None else values[k]))
    return out


def validate_polygon(points, *, line=None, column="points") -> np.ndarray:
    """Check one polygon and return it with repeats collapsed.

    Parameters
    ----------
    points : array_like, shape (n, 2)
    line, column
        Where the polygon is, for the error message.

    Returns
    -------
    ndarray, shape (m, 2)

    Raises
    ------
    InputError
        As :func:`validate_polygons`.
    """
    return validate_polygons([points], [line], column)[0]
