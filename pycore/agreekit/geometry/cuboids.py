"""Oriented 3D cuboids and their exact intersection over union.

A cuboid is a centre ``c``, full extents ``s`` along its own axes and a rotation.
The rotation is a unit quaternion in (x, y, z, w) order, or a yaw angle θ about the
world z axis, which is the quaternion (0, 0, sin θ/2, cos θ/2). Column k of the
rotation matrix is the world direction of the cuboid's local axis k (the convention
of Potato's ``spatial_utils``, ``docs/potato-differences.md`` §8).

Internally a set of n cuboids is an ``(n, 10)`` float array
``[cx, cy, cz, sx, sy, sz, qx, qy, qz, qw]`` with unit quaternions.

IoU₃D(A, B) = vol(A ∩ B) / (vol A + vol B − vol(A ∩ B)), and 0 when either volume
is 0. A ∩ B is a convex polyhedron whose boundary is (∂A ∩ B) ∪ (∂B ∩ A). Its
volume follows from the divergence theorem,

    vol(A ∩ B) = ⅓ Σ_faces (n_f · p_f) · area_f,

where each face of one cuboid is clipped by the other cuboid's six half-spaces
(Sutherland–Hodgman) and ``n_f · p_f`` is the signed distance of the face plane
from the origin (here the midpoint of the two centres, which keeps the terms small
for far-away scenes). A face shared by both cuboids (coplanar, same outward normal,
exactly or nearly) is counted once, in a form that stays accurate when the two
planes meet at a tiny angle (see ``_polyhedron_volume``). When both cuboids are
upright (local z exactly along world z, as for yaw-only input) the intersection is
a prism: the clipped footprint polygon's area times the overlap in z. The result is
exact up to floating point for any rotation: no axis-aligned approximation is made.
A bounding-sphere test and then a separating-axis test (15 axes) first send disjoint
and touching pairs to exactly 0.

References: Sutherland & Hodgman (1974), "Reentrant polygon clipping", CACM 17(1);
Gottschalk, Lin & Manocha (1996), "OBBTree", SIGGRAPH (separating axes for
oriented boxes); Potato 2.8 ``geometry.iou_cuboid_3d`` (``docs/potato-differences.md`` §8),
which computes the same quantity by vertex enumeration.
"""
from __future__ import annotations

import math

import numpy as np

from ..rows import InputError

# Relative tolerance for "two boxes only touch" (separating-axis test), scaled by the
# pair's largest half extent, so it is unit-free.
PLANE_TOL = 1e-10
# Faces of the two cuboids "coincide" when their outward normals agree to
# 1 − cos(angle) < PARALLEL_TOL (an angle below 1e-6 rad) and one face lies within
# COINCIDENT_TOL (relative to the largest extent) of the other's plane. The two are
# tied: a face of side L tilted by 1e-6 rad strays up to 2.9e-6 of the extent from the
# plane, so parallel planes that cross inside a face always count as coincident.
PARALLEL_TOL = 5e-13
COINCIDENT_TOL = 1e-5

# Pairs per vectorised batch of face clipping: bounds the temporary arrays to a few
# tens of MB. The cheap bounding-sphere rejection runs on blocks of MATRIX_PAIRS.
BATCH_PAIRS = 4096
MATRIX_PAIRS = 1 << 16

# Each of the six faces of a cuboid: (axis k, sign σ, the two other axes (i, j)).
# The quad's corners are σ·h_k·e_k + (±h_i·e_i ± h_j·e_j) in cyclic order.
_FACES = [(k, sign, (k + 1) % 3, (k + 2) % 3) for k in range(3) for sign in (1.0, -1.0)]
_QUAD = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])


def _face_templates():
    """(6, 4, 3) local corner signs of each face quad, (6, 3) local outward normals."""
    corners = np.zeros((6, 4, 3))
    normals = np.zeros((6, 3))
    for f, (k, sign, i, j) in enumerate(_FACES):
        corners[f, :, k] = sign
        corners[f, :, i] = _QUAD[:, 0]
        corners[f, :, j] = _QUAD[:, 1]
        normals[f, k] = sign
    return corners, normals


_FACE_CORNERS, _FACE_NORMALS = _face_templates()


# --------------------------------------------------------------------------- rotations

def yaw_quaternion(yaw):
    """Quaternion(s) (x, y, z, w) of a rotation by ``yaw`` radians about the z axis."""
    yaw = np.asarray(yaw, dtype=float)
    q = np.zeros(yaw.shape + (4,))
    q[..., 2] = np.sin(yaw / 2.0)
    q[..., 3] = np.cos(yaw / 2.0)
    return q


def rotation_matrices(quaternions):
    """(..., 3, 3) rotation matrices of unit quaternions (..., 4) in (x, y, z, w) order.

    Column k is the world direction of local axis k.
    """
    q = np.asarray(quaternions, dtype=float)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    r = np.empty(q.shape[:-1] + (3, 3))
    r[..., 0, 0] = 1 - 2 * (y * y + z * z)
    r[..., 0, 1] = 2 * (x * y - z * w)
    r[..., 0, 2] = 2 * (x * z + y * w)
    r[..., 1, 0] = 2 * (x * y + z * w)
    r[..., 1, 1] = 1 - 2 * (x * x + z * z)
    r[..., 1, 2] = 2 * (y * z - x * w)
    r[..., 2, 0] = 2 * (x * z - y * w)
    r[..., 2, 1] = 2 * (y * z + x * w)
    r[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return r


def cuboid_array(center, size, rotation=None, yaw=None):
    """One cuboid as the internal 10-vector, validated.

    ``rotation`` is a quaternion (x, y, z, w), normalized here; ``yaw`` (radians
    about z) may be given instead. Raises :class:`InputError` naming the field for
    a wrong length, a non-finite value, a negative size, a zero quaternion, or
    both/neither of ``rotation`` and ``yaw``. (Potato takes abs() of sizes and turns
    an invalid quaternion into the identity; agreekit rejects both.)
    """
    center = _vector(center, 3, "center")
    size = _vector(size, 3, "size")
    if np.any(size < 0):
        raise InputError("size must not be negative", column="size", value=size.tolist())
    if (rotation is None) == (yaw is None):
        raise InputError("give exactly one of rotation (quaternion x, y, z, w) and yaw", column="rotation")
    if yaw is not None:
        yaw = _vector(yaw, 1, "yaw")[0]
        q = yaw_quaternion(yaw)
    else:
        q = normalize_quaternion(_vector(rotation, 4, "rotation"))
    return np.concatenate([center, size, q])


def normalize_quaternion(q):
    """``q / |q|``; :class:`InputError` for a zero (or non-finite) quaternion."""
    q = np.asarray(q, dtype=float)
    scale = float(np.max(np.abs(q))) if q.size else 0.0
    # Divide by the largest component first: 1e200 squared overflows, and that is not "zero".
    norm = scale * float(np.sqrt(np.sum((q / scale) ** 2))) if scale and math.isfinite(scale) else scale
    if not math.isfinite(norm) or norm == 0.0:
        raise InputError("rotation quaternion must be finite and non-zero", column="rotation", value=q.tolist())
    return (q / scale) / (norm / scale)


def _vector(value, length, name):
    try:
        v = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be {length} number(s)", column=name, value=value) from None
    if v.shape != (length,):
        raise InputError(f"{name} must be {length} number(s)", column=name, value=value)
    if not np.all(np.isfinite(v)):
        raise InputError(f"{name} must be finite", column=name, value=v.tolist())
    return v


def _from_mapping(cuboid):
    if not hasattr(cuboid, "get"):
        raise InputError("a cuboid is a dict with center, size and rotation or yaw", value=cuboid)
    missing = [k for k in ("center", "size") if cuboid.get(k) is None]
    if missing:
        raise InputError(f"cuboid is missing {', '.join(missing)}", column=missing[0])
    return cuboid_array(cuboid["center"], cuboid["size"], cuboid.get("rotation"), cuboid.get("yaw"))


# --------------------------------------------------------------------------- IoU

def iou3d(a, b):
    """Exact IoU of two cuboids given as dicts.

    Each is ``{"center": [x, y, z], "size": [sx, sy, sz], "rotation": [qx, qy, qz, qw]}``
    or with ``"yaw"`` (radians about z) instead of ``"rotation"``.
    """
    pair = np.stack([_from_mapping(a), _from_mapping(b)])
    return float(paired_iou(pair[:1], pair[1:])[0])


def volumes(cuboids):
    """Volumes of an (n, 10) cuboid array."""
    c = np.asarray(cuboids, dtype=float).reshape(-1, 10)
    return np.prod(c[:, 3:6], axis=1)


def iou_matrix(a, b):
    """(n, m) matrix of IoU₃D between every cuboid of ``a`` (n, 10) and ``b`` (m, 10)."""
    a = np.asarray(a, dtype=float).reshape(-1, 10)
    b = np.asarray(b, dtype=float).reshape(-1, 10)
    out = np.zeros((len(a), len(b)))
    if len(b) == 0:
        return out
    # Blocks of whole rows, so the paired arrays stay near one batch in size.
    step = max(1, MATRIX_PAIRS // len(b))
    for start in range(0, len(a), step):
        rows = a[start:start + step]
        out[start:start + len(rows)] = paired_iou(np.repeat(rows, len(b), axis=0),
                                                  np.tile(b, (len(rows), 1))).reshape(len(rows), len(b))
    return out


def paired_iou(a, b):
    """IoU₃D of ``a[p]`` with ``b[p]`` for every row p of two (P, 10) arrays."""
    a = np.asarray(a, dtype=float).reshape(-1, 10)
    b = np.asarray(b, dtype=float).reshape(-1, 10)
    if a.shape != b.shape:
        raise ValueError(f"paired_iou needs arrays of equal length, got {len(a)} and {len(b)}")
    va, vb = volumes(a), volumes(b)
    inter = paired_intersection_volume(a, b)
    union = va + vb - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        iou = np.where((va > 0) & (vb > 0) & (union > 0), inter / union, 0.0)
    # Rounding can leave |IoU − 1| or IoU itself at ~1e-16 outside [0, 1].
    return np.clip(iou, 0.0, 1.0)


def paired_intersection_volume(a, b):
    """vol(a[p] ∩ b[p]) for every row p of two (P, 10) cuboid arrays."""
    a = np.asarray(a, dtype=float).reshape(-1, 10)
    b = np.asarray(b, dtype=float).reshape(-1, 10)
    out = np.zeros(len(a))
    ha, hb = a[:, 3:6] / 2.0, b[:, 3:6] / 2.0
    # Bounding spheres first: most pairs of a between-item baseline are far apart, and
    # this rejects them before any rotation is computed.
    gap = np.sqrt(((a[:, 0:3] - b[:, 0:3]) ** 2).sum(axis=1))
    near = np.flatnonzero((gap < np.sqrt((ha ** 2).sum(axis=1)) + np.sqrt((hb ** 2).sum(axis=1)))
                          & (ha.min(axis=1, initial=np.inf) > 0) & (hb.min(axis=1, initial=np.inf) > 0))
    for start in range(0, len(near), BATCH_PAIRS):
        batch = near[start:start + BATCH_PAIRS]
        out[batch] = _intersection_batch(a[batch], b[batch])
    return out


def _intersection_batch(a, b):
    """vol(a[p] ∩ b[p]) for pairs whose bounding spheres overlap and volumes are positive."""
    ha, hb = a[:, 3:6] / 2.0, b[:, 3:6] / 2.0
    ra, rb = rotation_matrices(a[:, 6:10]), rotation_matrices(b[:, 6:10])
    # Work relative to the midpoint of the centres: far-away scenes keep full precision.
    origin = (a[:, 0:3] + b[:, 0:3]) / 2.0
    ca, cb = a[:, 0:3] - origin, b[:, 0:3] - origin
    scale = np.maximum(ha.max(axis=1), hb.max(axis=1))
    tol = PLANE_TOL * scale

    live = _overlapping(ca, ha, ra, cb, hb, rb, tol)
    volume = np.zeros(len(a))
    if not live.any():
        return volume
    # Both boxes upright (local z along world z, as for yaw-only boxes): the intersection
    # is a prism, footprint polygon × height overlap. Tested exactly, so no tilt is ignored.
    upright = live & _upright(ra) & _upright(rb)
    general = live & ~upright
    if upright.any():
        volume[upright] = _prism_volume(*(x[upright] for x in (ca, ha, ra, cb, hb, rb)))
    if general.any():
        volume[general] = _polyhedron_volume(*(x[general] for x in (ca, ha, ra, cb, hb, rb)))
    return volume


def _upright(rot):
    return (rot[:, 2, 0] == 0) & (rot[:, 2, 1] == 0) & (rot[:, 0, 2] == 0) & (rot[:, 1, 2] == 0)


def _prism_volume(ca, ha, ra, cb, hb, rb):
    """vol(A ∩ B) of upright boxes: area of the clipped footprint × overlap in z."""
    flat = np.array([1.0, 1.0, 0.0])
    quad = (ca * flat)[:, None, :] + (_QUAD[None, :, 0, None] * (ha[:, 0, None] * ra[:, :, 0])[:, None, :]
                                      + _QUAD[None, :, 1, None] * (ha[:, 1, None] * ra[:, :, 1])[:, None, :])
    count = np.full(len(ca), 4)
    alive = np.arange(len(ca))
    for k in (0, 1):
        for sign in (1.0, -1.0):
            n = sign * rb[alive, :, k]
            offset = np.einsum("pi,pi->p", n, cb[alive] * flat) + hb[alive, k]
            quad, count = _clip(quad, count, n, offset, np.zeros(len(alive)))
            keep = count >= 3
            quad, count, alive = quad[keep], count[keep], alive[keep]
    area = np.zeros(len(ca))
    area[alive] = np.abs(_vector_area(quad, count)[:, 2])
    top = np.minimum(ca[:, 2] + ha[:, 2], cb[:, 2] + hb[:, 2])
    bottom = np.maximum(ca[:, 2] - ha[:, 2], cb[:, 2] - hb[:, 2])
    return area * np.maximum(top - bottom, 0.0)


def _polyhedron_volume(ca, ha, ra, cb, hb, rb):
    """vol(A ∩ B) by the divergence theorem over the clipped faces of both boxes.

    A face f of A and a face j of B that (nearly) coincide — same outward normal to
    within PARALLEL_TOL, A's face within COINCIDENT_TOL of j's plane — share one
    piece of ∂(A ∩ B), split between them along the line where the planes cross.
    Where the planes meet at a tiny angle that line is ill-conditioned, so the two
    parts are not computed separately. By the divergence theorem their contribution is
    d_A·|P_A| + d_B·|P_B| = d_A·|F| + (d_B − d_A)·|P_B|, where F = P_A ∪ P_B is A's
    face clipped by B's other planes (well-conditioned), and the ill-conditioned
    |P_B| is multiplied by d_B − d_A, which is as small as the planes are close.
    Exactly coincident faces are thereby counted once.
    """
    p = len(ca)

    # Faces of both boxes (P, 6, 4, 3), their outward normals (P, 6, 3) and plane offsets (P, 6).
    quads_a, normals_a, offsets_a = _faces(ca, ha, ra)
    quads_b, normals_b, offsets_b = _faces(cb, hb, rb)

    # coincident[p, f, j]: face f of A and face j of B as described above.
    parallel = np.einsum("pfi,pgi->pfg", normals_a, normals_b) > 1.0 - PARALLEL_TOL
    distance = np.einsum("pfci,pgi->pfcg", quads_a, normals_b) - offsets_b[:, None, None, :]
    near = np.abs(distance).max(axis=2) <= COINCIDENT_TOL * np.maximum(ha.max(axis=1), hb.max(axis=1))[:, None, None]
    coincident = parallel & near

    # Clip A's faces by B's planes (skipping a coincident plane) and B's faces by A's planes.
    polygons = np.concatenate([quads_a, quads_b], axis=1).reshape(p * 12, 4, 3)
    planes_n = np.concatenate([np.repeat(normals_b[:, None], 6, 1), np.repeat(normals_a[:, None], 6, 1)], 1)
    planes_d = np.concatenate([np.repeat(offsets_b[:, None], 6, 1), np.repeat(offsets_a[:, None], 6, 1)], 1)
    planes_n = planes_n.reshape(p * 12, 6, 3)
    planes_d = planes_d.reshape(p * 12, 6)
    levels = np.concatenate([np.where(coincident, np.inf, 0.0), np.zeros((p, 6, 6))], axis=1).reshape(p * 12, 6)
    count = np.full(p * 12, 4)
    alive = np.arange(p * 12)  # polygons still with ≥ 3 vertices; the rest have no area
    for g in range(6):
        polygons, count = _clip(polygons, count, planes_n[alive, g], planes_d[alive, g], levels[alive, g])
        keep = count >= 3
        polygons, count, alive = polygons[keep], count[keep], alive[keep]

    face_normals = np.concatenate([normals_a, normals_b], axis=1).reshape(p * 12, 3)
    # B's face j weighs d_B − d_A where it coincides with A's face f (at most one f).
    weight_b = offsets_b - np.einsum("pfj,pf->pj", coincident.astype(float), offsets_a)
    weights = np.concatenate([offsets_a, weight_b], axis=1).reshape(p * 12)
    area = np.zeros(p * 12)
    area[alive] = np.abs(np.einsum("mi,mi->m", _vector_area(polygons, count), face_normals[alive]))
    terms = (weights * area).reshape(p, 12)
    return np.maximum(terms.sum(axis=1) / 3.0, 0.0)


def _faces(center, half, rot):
    local = _FACE_CORNERS[None] * half[:, None, None, :]  # (P, 6, 4, 3)
    quads = np.einsum("pij,pfcj->pfci", rot, local) + center[:, None, None, :]
    normals = np.einsum("pij,fj->pfi", rot, _FACE_NORMALS)  # (P, 6, 3)
    # Plane n·x = n·c + h_k for the face along axis k.
    axis_half = half[:, [k for k, _, _, _ in _FACES]]
    offsets = np.einsum("pfi,pi->pf", normals, center) + axis_half
    return quads, normals, offsets


def _overlapping(ca, ha, ra, cb, hb, rb, tol):
    """Separating-axis test for oriented boxes; touching counts as separated.

    Candidate axes: the 3 + 3 face normals and the 9 edge cross products. Returns a
    boolean (P,) array, True where no axis separates the boxes by more than ``-tol``.
    """
    # Cross products of every edge direction of A (columns of ra) with every one of B.
    u, v = ra[:, :, :, None], rb[:, :, None, :]
    cross = np.stack([u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1],
                      u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2],
                      u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]], axis=1).reshape(len(ca), 3, 9)
    axes = np.concatenate([ra, rb, cross], axis=2)  # (P, 3, 15), columns are axes
    norms = np.sqrt((axes * axes).sum(axis=1))
    usable = norms > 1e-9  # a cross product of (near-)parallel edges adds nothing
    axes = axes / np.where(usable, norms, 1.0)[:, None, :]
    distance = np.abs(((cb - ca)[:, None, :] @ axes)[:, 0, :])
    reach_a = (ha[:, None, :] @ np.abs(ra.transpose(0, 2, 1) @ axes))[:, 0, :]
    reach_b = (hb[:, None, :] @ np.abs(rb.transpose(0, 2, 1) @ axes))[:, 0, :]
    separated = usable & (distance >= reach_a + reach_b - tol[:, None])
    return ~separated.any(axis=1)


def _clip(polygons, count, normal, offset, level):
    """Sutherland–Hodgman: keep the part of each convex polygon with n·x − d ≤ level.

    ``polygons`` (M, W, 3) holds ``count`` (M,) ≥ 1 valid vertices per row, in order.
    Returns the clipped polygons (possibly widened, updated in place) and their counts.
    Only polygons that the plane actually cuts are rebuilt; wholly inside ones pass
    unchanged and wholly outside ones become empty.
    """
    width = polygons.shape[1]
    valid = np.arange(width)[None, :] < count[:, None]
    s = np.einsum("mwi,mi->mw", polygons, normal) - offset[:, None]
    inside = s <= level[:, None]
    any_out = (valid & ~inside).any(axis=1)
    if not any_out.any():
        return polygons, count
    any_in = (valid & inside).any(axis=1)
    count = np.where(any_in, count, 0)
    cut = np.flatnonzero(any_out & any_in)
    if cut.size:
        pieces, cut_count = _cut(polygons[cut], count[cut], s[cut] - level[cut, None], inside[cut])
        if pieces.shape[1] > width:
            polygons = np.concatenate([polygons, np.zeros((len(polygons), pieces.shape[1] - width, 3))], axis=1)
        polygons[cut, :pieces.shape[1]] = pieces
        count[cut] = cut_count
    return polygons, count


def _cut(polygons, count, s, inside):
    """The Sutherland–Hodgman step for polygons that a plane cuts.

    ``s`` are the vertices' signed distances beyond the clipping level (inside: s ≤ 0).
    """
    m, width, _ = polygons.shape
    rows = np.arange(m)
    last = count - 1
    valid = np.arange(width)[None, :] < count[:, None]
    # Vertex i's successor: i + 1, and the first vertex after the last valid one.
    v_next = np.empty_like(polygons)
    v_next[:, :-1] = polygons[:, 1:]
    v_next[rows, last] = polygons[:, 0]
    s_next = np.empty_like(s)
    s_next[:, :-1] = s[:, 1:]
    s_next[rows, last] = s[:, 0]
    inside_next = np.empty_like(inside)
    inside_next[:, :-1] = inside[:, 1:]
    inside_next[rows, last] = inside[:, 0]
    keep = valid & inside
    crossing = valid & (inside != inside_next)

    # Vertex i emits itself if inside, then the crossing point if its edge crosses;
    # positions in the output follow from a running count of emitted points.
    emitted = keep.astype(np.intp) + crossing
    end = np.cumsum(emitted, axis=1)
    new_count = end[:, -1]
    out = np.zeros((m, max(int(new_count.max(initial=0)), 1), 3))
    r, i = np.nonzero(keep)
    out[r, end[r, i] - emitted[r, i]] = polygons[r, i]
    r, i = np.nonzero(crossing)
    a, b = s[r, i], s_next[r, i]
    # The crossing is at the clipping level itself, so the piece kept here and the piece
    # the other cuboid's face keeps meet without gap or overlap.
    t = np.clip(a / (a - b), 0.0, 1.0)
    out[r, end[r, i] - 1] = polygons[r, i] + t[:, None] * (v_next[r, i] - polygons[r, i])
    return out, new_count


def _vector_area(polygons, count):
    """Σ ½ vᵢ × vᵢ₊₁ over each polygon's valid vertices (its vector area), (M, 3)."""
    width = polygons.shape[1]
    index = np.arange(width)[None, :]
    valid = index < count[:, None]
    nxt = np.where(index + 1 < count[:, None], index + 1, 0)
    # Relative to the first vertex: the cross products stay small for small polygons.
    rel = polygons - polygons[:, :1, :]
    rel_next = np.take_along_axis(rel, nxt[:, :, None], axis=1)
    cross = np.cross(rel, rel_next) * valid[:, :, None]
    return 0.5 * cross.sum(axis=1)
