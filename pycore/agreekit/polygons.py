"""Polygons: rows in, the full object-agreement report out (the box report's shape).

Rows ``item, annotator, points, label``; ``points`` holds the vertices
(``x1 y1 x2 y2 …``, pairs separated by semicolons, or a JSON list: see
:func:`agreekit.polygon.parse_points`). A row with item and annotator and empty
``points`` means the annotator saw the item and drew nothing; an annotator with no
row for an item never saw it. Every polygon must be simple (at least 3 points,
finite, not self-intersecting); otherwise the whole input is rejected with the line.

Matching, clusters, detection and classification α, σ with the exact between-item
baseline, KS, bootstrap intervals and breakdowns are those of the object engine
(:mod:`agreekit.objects`), with polygon IoU as the similarity and one of the
distances below, all computed exactly (:mod:`agreekit.polygon`, no rasterization):

* ``giou`` (default): (1 − GIoU) / 2, the enclosing shape being the convex hull
  of the union (Rezatofighi et al., CVPR 2019). Two identical non-convex outlines
  are at distance (1 − |P|/|hull P|) / 2, not 0.
* ``iou``: 1 − IoU.
* ``centroid``: min(1, ‖c_A − c_B‖ / √2) between area centroids, for normalized
  coordinates, as for boxes.
"""
from __future__ import annotations

import numpy as np

from . import bootstrap as boot
from . import polygon as geo
from .boxes import DEFAULT_THRESHOLD, build_objects, check_options, object_kind_report
from .objects import SAMPLED_PAIRS, ObjectKind, object_report
from .rows import InputError, is_blank, read_table, to_text

COLUMNS = ("item", "annotator", "points", "label")
SYNONYMS = {
    "item": ("image", "image_id", "img", "item_id", "file", "filename", "image_name"),
    "annotator": ("rater", "worker", "user", "coder", "annotator_id", "worker_id", "user_id"),
    "label": ("class", "category", "class_name", "category_name", "tag"),
    "points": ("polygon", "vertices", "coordinates", "segmentation"),
}
DISTANCES = ("giou", "iou", "centroid")
# An exact polygon GIoU costs far more than a box's (about 3 × 10⁵ pairs/s for
# quadrilaterals, 8 × 10⁴ for 20-gons, per CPU core): the exact baseline is kept
# up to the size of the engine's sample, so no report evaluates more pairs than that.
DEFAULT_PAIR_BUDGET = SAMPLED_PAIRS


def parse_polygons(rows):
    """Read and check polygon rows.

    Returns ``(records, polygons)``: records ``(line, item, annotator, geometry,
    label)`` where ``geometry`` is ``[k]`` (the index of the row's polygon in
    ``polygons``) or None for "saw the item, drew nothing".
    """
    table = read_table(rows, COLUMNS, SYNONYMS, required=("item", "annotator", "points"))
    records, polygons, lines = [], [], []
    for row in table:
        item = to_text(row, "item")
        annotator = to_text(row, "annotator")
        label = to_text(row, "label", required=False)
        value = row.values.get("points")
        if (isinstance(value, str) or value is None) and is_blank(value):
            if label:
                raise InputError("a label without a polygon: fill in the points, or leave the label empty "
                                 "to say the annotator drew nothing", line=row.line, column="label", value=label)
            records.append((row.line, item, annotator, None, label))
            continue
        records.append((row.line, item, annotator, [len(polygons)], label))
        polygons.append(geo.parse_points(value, line=row.line))
        lines.append(row.line)
    return records, geo.validate_polygons(polygons, lines)


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

    def similarity(idx):
        i, j = np.meshgrid(idx, idx, indexing="ij")
        return geo.pair_iou(ps, i.ravel(), j.ravel()).reshape(len(idx), len(idx))

    def distance_block(rows, cols):
        keep = item_of[cols][None, :] > item_of[rows][:, None]
        r, c = np.nonzero(keep)
        out = np.zeros(keep.shape)
        out[r, c] = paired(rows[r], cols[c])
        return out

    return ObjectKind(similarity=similarity, paired_distance=paired, distance_block=distance_block)


def _duplicates(objects, polygons):
    """Lines of identical polygons (same points and label) from one annotator on one item."""
    lines = []
    for member in objects.members:
        for idx in member.values():
            seen = set()
            for k in idx:
                key = (polygons[k].tobytes(), objects.labels[k])
                if key in seen:
                    lines.append(int(objects.lines[k]))
                seen.add(key)
    return lines


def polygons(rows, *, threshold=DEFAULT_THRESHOLD, distance="giou", match="optimal",
             bootstrap=boot.DEFAULT_RESAMPLES, seed=boot.DEFAULT_SEED, pair_budget=DEFAULT_PAIR_BUDGET,
             progress=None):
    """Agreement report for polygons, with the same shape as :func:`agreekit.boxes`.

    ``rows``: CSV/TSV text (header optional) or a list of dicts with
    ``item, annotator, points, label``. ``threshold``: polygon IoU at or above
    which two polygons match. ``distance``: ``giou``, ``iou`` or ``centroid``,
    for σ and KS. ``match``: ``optimal`` or ``potato`` (Potato's assignment and
    first-fit clusters). ``bootstrap``, ``seed``, ``pair_budget``, ``progress``:
    as for boxes.
    """
    check_options(threshold, match, bootstrap)
    if distance not in DISTANCES:
        raise InputError(f"distance must be one of {', '.join(DISTANCES)}, got {distance!r}", column="distance")
    records, parsed = parse_polygons(rows)
    objects, index, warnings = build_objects(records, width=1, is_degenerate=lambda g: False)
    ordered = [parsed[int(k)] for k in index[:, 0]]
    duplicates = _duplicates(objects, ordered)
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate identical polygon(s) from one annotator on one item "
                        f"(lines {', '.join(map(str, duplicates[:10]))}{' …' if len(duplicates) > 10 else ''})")
    ps = geo.pack(ordered)
    item_of = np.repeat(np.arange(len(objects.item_ids)), np.diff(objects.offsets))
    data = object_report(objects, polygon_kind(ps, distance, item_of), threshold=float(threshold),
                         match_mode=match, bootstrap=int(bootstrap), seed=int(seed),
                         pair_budget=int(pair_budget), progress=progress, potato_alpha=match == "potato")
    settings = {"threshold": float(threshold), "distance": distance, "match": match,
                "bootstrap": int(bootstrap), "seed": int(seed), "pair_budget": int(pair_budget)}
    return object_kind_report("polygons", "n_polygons", len(ordered), records, objects, data, warnings, settings)
