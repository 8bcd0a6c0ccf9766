"""Polygons: rows in, the full object-agreement report out (the box report's shape).

Rows ``item, annotator, points, label``; ``points`` holds the vertices
(``x1 y1 x2 y2 …``, pairs separated by semicolons, or a JSON list: see
:func:`agreekit.geometry.polygon_checks.parse_points`). A row with item and annotator and empty
``points`` means the annotator saw the item and drew nothing; an annotator with no
row for an item never saw it. Every polygon must be simple (at least 3 points,
finite, not self-intersecting); otherwise the whole input is rejected with the line.

Matching, clusters, detection and classification α, σ with the exact between-item
baseline, KS, bootstrap intervals and breakdowns are those of the object engine
(:mod:`agreekit.objects`), with polygon IoU as the similarity and one of the
distances below, all computed exactly (:mod:`agreekit.geometry.polygons`, no rasterization):

* ``giou`` (default): (1 − GIoU) / 2, the enclosing shape being the convex hull
  of the union (Rezatofighi et al., CVPR 2019). Two identical non-convex outlines
  are at distance (1 − |P|/|hull P|) / 2, not 0.
* ``iou``: 1 − IoU.
* ``centroid``: min(1, ‖c_A − c_B‖ / √2) between area centroids, for normalized
  coordinates, as for boxes.
"""
from __future__ import annotations

import numpy as np

from .. import options as opts
from ..geometry import polygon_checks as checks
from ..arrays import name_list
from ..geometry import polygons as geo
from ..measures import bootstrap as boot
from ..measures.chance import SAMPLED_PAIRS
from ..object_sets import Annotation, build_objects
from ..objects import ObjectKind, object_kind_report, object_report
from ..registry import register
from ..rows import ANNOTATOR_SYNONYMS, InputError, is_blank, read_table, to_text

COLUMNS = ("item", "annotator", "points", "label")
SYNONYMS = {
    "item": ("image", "image_id", "img", "item_id", "file", "filename", "image_name"),
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("class", "category", "class_name", "category_name", "tag"),
    "points": ("polygon", "vertices", "coordinates", "segmentation"),
}
# An exact polygon GIoU costs far more than a box's (about 3 × 10⁵ pairs/s for
# quadrilaterals, 8 × 10⁴ for 20-gons, per CPU core): the exact baseline is kept
# up to the size of the engine's sample, so no report evaluates more pairs than that.
DEFAULT_PAIR_BUDGET = SAMPLED_PAIRS


def parse_polygons(rows, progress=None):
    """Read and check polygon rows.

    Returns ``(records, polygons)``: records ``(line, item, annotator, geometry,
    label)`` where ``geometry`` is ``[k]`` (the index of the row's polygon in
    ``polygons``) or None for "saw the item, drew nothing".  ``progress`` is
    passed to :func:`agreekit.rows.read_table`.
    """
    table = read_table(rows, COLUMNS, SYNONYMS, required=("item", "annotator", "points"), progress=progress)
    records, polygons, lines, texts = [], [], [], []
    for row in table:
        item = to_text(row, "item")
        annotator = to_text(row, "annotator")
        label = to_text(row, "label", required=False)
        value = row.values.get("points")
        if (isinstance(value, str) or value is None) and is_blank(value):
            if label:
                raise InputError("a label without a polygon: fill in the points, or leave the label empty "
                                 "to say the annotator drew nothing", line=row.line, column="label", value=label)
            records.append(Annotation(row.line, item, annotator, None, label))
            continue
        records.append(Annotation(row.line, item, annotator, [len(polygons)], label))
        polygons.append(checks.parse_points(value, line=row.line))
        lines.append(row.line)
        texts.append(value)
    return records, checks.validate_polygons(polygons, lines, values=texts)


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


@register("polygons", title="Polygons", summary="polygons: item, annotator, points (x1 y1 x2 y2 ...), label",
          options=(opts.THRESHOLD.but(label="Polygon IoU threshold for a match"), opts.DISTANCE, opts.MATCH,
                   opts.BOOTSTRAP, opts.SEED, opts.PAIR_BUDGET,
                   opts.SIGNIFICANCE_LEVEL),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_polygons", position=4)
def polygons(rows, *, threshold=0.5, distance="giou", match="optimal", bootstrap=boot.DEFAULT_RESAMPLES,
             seed=boot.DEFAULT_SEED, pair_budget=DEFAULT_PAIR_BUDGET, significance_level=0.05,
             progress=None):
    """Agreement report for polygons, with the same shape as :func:`agreekit.boxes`.

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text (header optional) or dicts with ``item, annotator, points,
        label``; ``points`` is ``x1 y1 x2 y2 …`` of a simple polygon.
    threshold : float
        Polygon IoU at or above which two polygons match.
    distance : {"giou", "iou", "centroid"}
        The distance of σ and KS (GIoU with the convex hull of the union).
    match : {"optimal", "potato"}
        Potato's assignment and first-fit clusters with ``potato``.
    bootstrap, seed, pair_budget, progress
        As for :func:`agreekit.boxes`.

    Returns
    -------
    Report
        The object report (:mod:`agreekit.objects`); every key in ``docs/report.md``.
    """
    records, parsed = parse_polygons(rows, progress)
    by_outline = (  # the tie-break order (none in potato mode) and the items' content: by outline, then label
        lambda r: (tuple(parsed[r.geometry[0]].ravel()), "" if r.label is None else str(r.label)))
    objects, index, warnings = build_objects(records, width=1, is_degenerate=lambda g: False,
                                             order=None if match == "potato" else by_outline, content=by_outline)
    ordered = [parsed[int(k)] for k in index[:, 0]]
    duplicates = _duplicates(objects, ordered)
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate identical polygon(s) from one annotator on one item "
                        f"(lines {name_list(duplicates)})")
    ps = geo.pack(ordered)
    item_of = np.repeat(np.arange(len(objects.item_ids)), np.diff(objects.offsets))
    data = object_report(objects, polygon_kind(ps, distance, item_of), threshold=threshold, match_mode=match,
                         bootstrap=bootstrap, seed=seed, pair_budget=pair_budget, progress=progress,
                         significance_level=significance_level,
                         potato_alpha=match == "potato")
    settings = {"threshold": threshold, "distance": distance, "match": match, "bootstrap": bootstrap,
                "seed": seed, "pair_budget": pair_budget, "significance_level": significance_level}
    return object_kind_report("polygons", "n_polygons", len(ordered), records, objects, data, warnings, settings)
