"""Exact intersection area of pairs of simple polygons, without rasterization.

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

:func:`fan_overlap` evaluates the sum; :mod:`agreekit.geometry.polygons` packs
the polygons, chooses the origin and derives IoU and GIoU.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .polygon_checks import BLOCK_ELEMENTS, cross

__all__ = ["fan_overlap"]

# Above this many triangle pairs (k·l) per polygon pair, overlapping wedges are found by sorting
# rather than by testing every pair. It depends on k and l only, as the slices do, so a pair's value
# never depends on the other pairs of a call.
SORTED_ABOVE = 1 << 14


class _Fans(NamedTuple):
    """Fan triangles (0, v_i, v_{i+1}) of polygons, (m, k) arrays: the two rays, the
    doubled signed area, and the wedge as the angular interval [start, start + width]."""
    x: np.ndarray
    y: np.ndarray
    nx: np.ndarray
    ny: np.ndarray
    doubled: np.ndarray
    start: np.ndarray   # NaN for a degenerate triangle, so it overlaps nothing
    width: np.ndarray   # in (0, π)

    def columns(self, lo, hi):
        """The triangles lo:hi of every polygon."""
        return _Fans(*(field[:, lo:hi] for field in self))

    def row(self, p):
        """The triangles of polygon p alone, as a (1, k) set."""
        return _Fans(*(field[p:p + 1] for field in self))


class _Triangles(NamedTuple):
    """Gathered fan triangles made counter-clockwise: the wedge runs from ray a to ray b."""
    ax: np.ndarray
    ay: np.ndarray
    bx: np.ndarray
    by: np.ndarray
    doubled: np.ndarray  # |doubled signed area|
    sign: np.ndarray     # the sign of the signed area: the triangle's weight in the fan sum


def fan_overlap(A, B):
    """Intersection areas of polygon pairs by the origin-fan decomposition, origin at 0.

    Only triangle pairs whose wedges overlap are evaluated beyond the angle test
    that decides it (typically a small fraction of the k·l pairs). The sum is split
    over slices of A's triangles when k·l is large (polygons of thousands of
    points; callers then pass one pair at a time), so memory stays bounded. The
    slices depend on k and l only, so a pair's value does not depend on the other
    pairs of the call (within and between distances of equal shapes tie exactly).

    Parameters
    ----------
    A, B : ndarray, shape (m, k, 2) and (m, l, 2)
        Pair p is the polygons ``A[p]`` and ``B[p]``: simple, counter-clockwise,
        padded with repeated vertices, relative to an origin near their overlap.

    Returns
    -------
    ndarray, shape (m,)
        Σ_i Σ_j s_i t_j |T_i ∩ U_j| per pair, before the clip to
        [0, min(|A[p]|, |B[p]|)] that the caller applies.
    """
    m, k, l = A.shape[0], A.shape[1], B.shape[1]
    fans_a, fans_b = _fan_wedges(A), _fan_wedges(B)
    total = np.zeros(m)
    with np.errstate(divide="ignore", invalid="ignore"):
        if k * l > SORTED_ABOVE:
            # Large polygons: the overlapping wedges found by sorting, O((k + l) log(k + l)) per pair
            # plus their number, instead of testing all k·l wedge pairs.
            for p in range(m):
                total[p] = _fan_overlap_sorted(fans_a.row(p), fans_b.row(p))
            return total
        step = max(1, BLOCK_ELEMENTS // max(l, 1))
        for lo in range(0, k, step):
            total += _fan_overlap_unguarded(fans_a.columns(lo, lo + step), fans_b)
    return total


def _fan_overlap_sorted(fans_a, fans_b):
    """:func:`fan_overlap` of one polygon pair ((1, k) and (1, l) fans), the overlapping wedges found by sorting.

    Wedge j of B overlaps wedge i of A when, for one shift n ∈ {−1, 0, 1}, the
    relative start rel = start_j + 2πn − start_i lies in (−width_j, width_i) (one
    shift at most: both widths are below π). Either B's shifted start falls in
    [start_i, start_i + width_i) (rel ≥ 0) or A's start falls strictly inside B's
    shifted wedge (rel < 0); each is a range of a sorted array.
    """
    a = np.nonzero(~np.isnan(fans_a.start[0]))[0]
    b = np.nonzero(~np.isnan(fans_b.start[0]))[0]
    if len(a) == 0 or len(b) == 0:
        return 0.0
    start_a, width_a = fans_a.start[0, a], fans_a.width[0, a]
    shifted = np.concatenate([fans_b.start[0, b] + shift for shift in (-2 * np.pi, 0.0, 2 * np.pi)])
    owner_b, width_b = np.tile(b, 3), np.tile(fans_b.width[0, b], 3)
    by_b = np.argsort(shifted, kind="stable")
    by_a = np.argsort(start_a, kind="stable")
    # rel ≥ 0: B's shifted starts in [start_i, start_i + width_i), for each i of A.
    first = np.searchsorted(shifted[by_b], start_a, "left")
    i1, k1 = _ranges(first, np.searchsorted(shifted[by_b], start_a + width_a, "left"))
    # rel < 0: A's starts in (shifted_j, shifted_j + width_j), for each shifted j of B.
    first = np.searchsorted(start_a[by_a], shifted, "right")
    j2, k2 = _ranges(first, np.searchsorted(start_a[by_a], shifted + width_b, "left"))
    i = np.concatenate([a[i1], a[by_a[k2]]])
    j = np.concatenate([owner_b[by_b[k1]], owner_b[j2]])
    rel = np.concatenate([shifted[by_b[k1]] - start_a[i1], shifted[j2] - start_a[by_a[k2]]])
    total = 0.0
    for lo in range(0, len(i), BLOCK_ELEMENTS):
        part = slice(lo, lo + BLOCK_ELEMENTS)
        t1, t2 = _counter_clockwise(fans_a, i[part]), _counter_clockwise(fans_b, j[part])
        w1, w2 = fans_a.width[0, i[part]], fans_b.width[0, j[part]]
        area = _doubled_wedge_overlap(t1, t2, c_in_1=rel[part] >= 0, d_in_1=rel[part] + w2 <= w1)
        total += 0.5 * float(np.sum(t1.sign * t2.sign * area))
    return total


def _ranges(first, stop):
    """``(owner, index)`` of every index in the ranges first[o]:stop[o], owner o, in order."""
    lengths = np.maximum(stop - first, 0)
    owner = np.repeat(np.arange(len(first), dtype=np.intp), lengths)
    starts = np.cumsum(lengths) - lengths
    index = np.arange(int(lengths.sum()), dtype=np.intp) - np.repeat(starts - first, lengths)
    return owner, index


def _fan_wedges(V) -> _Fans:
    """The fan triangles (0, v_i, v_{i+1}) of polygons V (m, k, 2)."""
    nxt = np.concatenate([V[:, 1:], V[:, :1]], axis=1)
    x, y, nx, ny = V[..., 0], V[..., 1], nxt[..., 0], nxt[..., 1]
    doubled = cross(x, y, nx, ny)
    width = np.arctan2(np.abs(doubled), x * nx + y * ny)
    angle = np.arctan2(y, x)
    start = np.where(doubled > 0, angle, np.concatenate([angle[:, 1:], angle[:, :1]], axis=1))
    start[doubled == 0] = np.nan
    return _Fans(x, y, nx, ny, doubled, start, width)


def _fan_overlap_unguarded(fans_a, fans_b):
    """:func:`fan_overlap` of one slice of A's triangles (floating-point warnings not silenced)."""
    (m, k), l = fans_a.x.shape, fans_b.x.shape[1]
    # Wedge 2 starts at rel = start2 − start1 in (−2π, 2π) from wedge 1's start. Two
    # arcs shorter than π overlap (once) exactly when rel, taken modulo 2π into
    # (−width2, width1), exists: rel in (−width2, width1), or above 2π − width2, or
    # below width1 − 2π. Only overlapping pairs go on. Where a ray is nearly shared
    # the choices below change the area continuously: angle rounding is harmless.
    rel = fans_b.start[:, None, :] - fans_a.start[:, :, None]
    w1, w2 = fans_a.width[:, :, None], fans_b.width[:, None, :]
    live = ((rel < w1) & (rel > -w2)) | (rel > 2 * np.pi - w2) | (rel < w1 - 2 * np.pi)
    p, i, j = np.nonzero(live)
    if len(p) == 0:
        return np.zeros(m)
    rel = rel[p, i, j]
    f1, f2 = p * k + i, p * l + j  # flat indices into the (m, k) and (m, l) arrays
    w1, w2 = fans_a.width.ravel()[f1], fans_b.width.ravel()[f2]
    rel = np.where(rel >= w1, rel - 2 * np.pi, np.where(rel <= -w2, rel + 2 * np.pi, rel))
    t1, t2 = _counter_clockwise(fans_a, f1), _counter_clockwise(fans_b, f2)
    area = _doubled_wedge_overlap(t1, t2, c_in_1=rel >= 0, d_in_1=rel + w2 <= w1)
    return 0.5 * np.bincount(p, weights=t1.sign * t2.sign * area, minlength=m)


def _counter_clockwise(fans, flat) -> _Triangles:
    """The fan triangles at flat indices ``flat``, each with its rays ordered counter-clockwise."""
    ax, ay, bx, by = (v.ravel()[flat] for v in (fans.x, fans.y, fans.nx, fans.ny))
    doubled = fans.doubled.ravel()[flat]
    flip = doubled < 0
    return _Triangles(ax=np.where(flip, bx, ax), ay=np.where(flip, by, ay), bx=np.where(flip, ax, bx),
                      by=np.where(flip, ay, by), doubled=np.abs(doubled), sign=np.sign(doubled))


def _doubled_wedge_overlap(t1, t2, c_in_1, d_in_1):
    """Twice the area of T1 ∩ T2 for counter-clockwise fan triangles whose wedges overlap.

    ``c_in_1`` and ``d_in_1``: whether wedge 2's start ray (``t2.a``) and its end
    ray (``t2.b``) lie inside wedge 1; the common wedge runs from ray u0 to ray u1.
    """
    e1x, e1y, e2x, e2y = t1.bx - t1.ax, t1.by - t1.ay, t2.bx - t2.ax, t2.by - t2.ay
    u0x, u0y = np.where(c_in_1, t2.ax, t1.ax), np.where(c_in_1, t2.ay, t1.ay)
    u1x, u1y = np.where(d_in_1, t2.bx, t1.bx), np.where(d_in_1, t2.by, t1.by)
    # Distance along each ray to each triangle's far edge (as a multiple of the ray).
    t10 = t1.doubled / cross(u0x, u0y, e1x, e1y)
    t20 = t2.doubled / cross(u0x, u0y, e2x, e2y)
    t11 = t1.doubled / cross(u1x, u1y, e1x, e1y)
    t21 = t2.doubled / cross(u1x, u1y, e2x, e2y)
    near0, near1 = t10 <= t20, t11 <= t21
    r0, r1 = np.minimum(t10, t20), np.minimum(t11, t21)
    p0x, p0y, p1x, p1y = u0x * r0, u0y * r0, u1x * r1, u1y * r1
    area = cross(p0x, p0y, p1x, p1y)
    # Where the nearer edge changes inside the wedge, split at the edges' crossing X.
    den = cross(e1x, e1y, e2x, e2y)
    switch = (near0 != near1) & (den != 0)
    if switch.any():
        s = np.nonzero(switch)[0]
        f = cross(t2.ax[s] - t1.ax[s], t2.ay[s] - t1.ay[s], e2x[s], e2y[s]) / den[s]
        xx, xy = t1.ax[s] + f * e1x[s], t1.ay[s] + f * e1y[s]
        area[s] = cross(p0x[s], p0y[s], xx, xy) + cross(xx, xy, p1x[s], p1y[s])
    # A sliver fan triangle (the origin on or next to an edge) can give 0/0 or a
    # far-off hit through rounding; its true overlap lies in [0, its own area].
    return np.fmin(np.fmax(area, 0.0), np.minimum(t1.doubled, t2.doubled))
