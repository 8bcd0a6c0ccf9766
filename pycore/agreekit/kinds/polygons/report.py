"""Polygons: rows in, the full object-agreement report out (the box report's shape).

Rows ``item, annotator, points, label``; ``points`` holds the vertices
(``x1 y1 x2 y2 …``, pairs separated by semicolons, or a JSON list: see
:func:`agreekit.parse.points.parse_points`). A row with item and annotator and empty
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

from ... import options as opts
from ...arrays import name_list
from ...geometry import polygons as geo
from ...measures import bootstrap as boot
from ...measures.chance import SAMPLED_PAIRS
from ...objects import object_kind_report, object_report
from ...reference.report import reference_part, reference_records
from ...registry import register
from .compare import polygon_kind, polygon_objects
from .consensus import CONSENSUS
from .detail import DETAIL
from .rows import COLUMNS, SYNONYMS, parse_polygons
from .text import polygons_text
from .shape import SHAPE
from .methods import METHODS

# An exact polygon GIoU costs far more than a box's (about 3 × 10⁵ pairs/s for
# quadrilaterals, 8 × 10⁴ for 20-gons, per CPU core): the exact baseline is kept
# up to the size of the engine's sample, so no report evaluates more pairs than that.
DEFAULT_PAIR_BUDGET = SAMPLED_PAIRS


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


def _gold_records(gold, offset, polygons):
    """Reference rows as records whose polygon indices continue after the rows' ``offset`` polygons
    (``polygons`` receives the reference's)."""
    records, parsed = parse_polygons(gold)
    polygons.extend(parsed)
    return [r if r.geometry is None else r._replace(geometry=[r.geometry[0] + offset]) for r in records]


def _polygon_set(records, parsed, distance, match):
    """``(objects, ObjectKind)`` of polygon records whose indices point into ``parsed``."""
    objects, index, _ = polygon_objects(records, parsed, match)
    item_of = np.repeat(np.arange(len(objects.item_ids)), np.diff(objects.offsets))
    return objects, polygon_kind(geo.pack([parsed[int(k)] for k in index[:, 0]]), distance, item_of)


@register("polygons", title="Polygons", summary="polygons: item, annotator, points (x1 y1 x2 y2 ...), label",
          options=(opts.THRESHOLD.but(label="Polygon IoU threshold for a match"), opts.DISTANCE, opts.MATCH,
                   opts.BOOTSTRAP, opts.SEED, opts.PAIR_BUDGET,
                   opts.SIGNIFICANCE_LEVEL, *opts.REFERENCE_OPTIONS),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_polygons", position=4, text=polygons_text,
          item_detail=DETAIL, shape=SHAPE, consensus=CONSENSUS,
          methods=METHODS)
def polygons(rows, *, threshold=0.5, distance="giou", match="optimal", bootstrap=boot.DEFAULT_RESAMPLES,
             seed=boot.DEFAULT_SEED, pair_budget=DEFAULT_PAIR_BUDGET, significance_level=0.05,
             reference=None, reference_rows=None, low_overlap=opts.DEFAULT_LOW_OVERLAP, progress=None):
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
    reference, reference_rows, low_overlap
        Score every annotator against a reference, as for :func:`agreekit.boxes` (``docs/reference.md``).

    Returns
    -------
    Report
        The object report (:mod:`agreekit.objects`); every key in ``docs/report.md``.
    """
    records, parsed = parse_polygons(rows, progress)
    gold_polygons = []
    records, chosen = reference_records(records, reference=reference, reference_rows=reference_rows,
                                        parse=lambda gold: _gold_records(gold, len(parsed), gold_polygons),
                                        kind="polygons", rows=rows, options={"threshold": threshold})
    objects, index, warnings = polygon_objects(records, parsed, match)
    ordered = [parsed[int(k)] for k in index[:, 0]]
    duplicates = _duplicates(objects, ordered)
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate identical polygon(s) from one annotator on one item "
                        f"(lines {name_list(duplicates)})")
    ps = geo.pack(ordered)
    budget = vertex_pair_budget(pair_budget, ps.counts)
    if budget < pair_budget:
        warnings.append(f"the polygons average {np.mean(ps.counts):,.0f} vertices: the pair budget counts vertex "
                        f"work ({VERTEX_REFERENCE} vertices a polygon), so the chance baseline takes at most {budget:,} pairs exactly")
    item_of = np.repeat(np.arange(len(objects.item_ids)), np.diff(objects.offsets))
    data = object_report(objects, polygon_kind(ps, distance, item_of), threshold=threshold, match_mode=match,
                         bootstrap=bootstrap, seed=seed, pair_budget=budget, progress=progress,
                         significance_level=significance_level,
                         potato_alpha=match == "potato")
    settings = {"threshold": threshold, "distance": distance, "match": match, "bootstrap": bootstrap,
                "seed": seed, "pair_budget": pair_budget, "significance_level": significance_level}
    if chosen is not None:
        data["reference"], notes, more_settings = reference_part(
            chosen, lambda both: _polygon_set(both, parsed + gold_polygons, distance, match), threshold=threshold,
            low_overlap=low_overlap, mode=match, label_key=str, bootstrap=bootstrap, seed=seed)
        warnings += notes
        settings.update(more_settings)
    return object_kind_report("polygons", "n_polygons", len(ordered), records, objects, data, warnings, settings,
                              pair_budget=budget)


VERTEX_REFERENCE = 32  # vertices a polygon that ``pair_budget`` pairs are meant for


def vertex_pair_budget(pair_budget, vertex_counts):
    """The pair budget in pairs of these polygons: ``pair_budget`` while they average at most
    ``VERTEX_REFERENCE`` vertices, fewer in proportion above, so that the budget bounds vertex work
    (a pair of large polygons costs time linear in their vertices, :mod:`agreekit.geometry.polygon_overlap`).

    >>> vertex_pair_budget(1_000_000, [4, 30]), vertex_pair_budget(1_000_000, [3200, 3200])
    (1000000, 10000)
    """
    mean = float(np.mean(vertex_counts)) if len(vertex_counts) else 0.0
    if mean <= VERTEX_REFERENCE:
        return pair_budget
    return max(1, int(pair_budget * VERTEX_REFERENCE / mean))
