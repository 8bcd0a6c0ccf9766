"""3D cuboids: rows in, the agreement report out.

Rows ``item, annotator, cx, cy, cz, sx, sy, sz, qx, qy, qz, qw, label`` (or
``yaw`` instead of the quaternion) are read by :mod:`.rows`.

The report is the box report (:mod:`agreekit.objects`: matching, detection and
classification α over clusters, σ with the exact between-item baseline, KS, raw
measures, bootstrap intervals, breakdowns) with exact IoU₃D
(:mod:`agreekit.cuboid`) as the similarity and 1 − IoU₃D as the distance. The
default match threshold is 0.25: a small shift costs more IoU in 3D (a 10% shift
along each axis leaves 0.57, against 0.68 in 2D). ``mean_agreement`` and
``mean_object_count_diff`` are Potato's two figures for 3D (``docs/potato-differences.md`` §7).

Deliberate differences from Potato (``docs/potato-differences.md`` §8): a negative size and
a zero quaternion are input errors naming the row, where Potato takes abs() of
the size and silently uses the identity rotation.
"""
from __future__ import annotations

from ... import options as opts
from ...measures import bootstrap as boot
from ...object_sets import canonical_order, label_rules
from ...objects import object_kind_report, object_report
from ...reference.report import reference_part, reference_records
from ...registry import register
from .compare import cuboid_kind, cuboid_objects
from .consensus import CONSENSUS
from .detail import DETAIL
from .rows import COLUMNS, SYNONYMS, YAW_COLUMNS, parse_cuboids
from .text import cuboids_text
from .shape import SHAPE
from .methods import METHODS

# Exact between-item baseline up to 10⁷ pairs (boxes: 5 × 10⁷). Scenes that share one
# frame (indoor scans) send most pairs through face clipping, ≈ 10⁵ pairs/s here;
# above the budget the engine's seeded sample of 2 × 10⁶ pairs has a standard error
# far below any reported digit.
DEFAULT_PAIR_BUDGET = 10_000_000


@register("cuboids", title="Cuboids",
          summary="3D cuboids: item, annotator, cx, cy, cz, sx, sy, sz, qx, qy, qz, qw (or yaw), label",
          options=(opts.THRESHOLD.but(label="IoU₃D threshold for a match"),
                   opts.DISTANCE.but(choices=(opts.Choice("iou", "IoU₃D: 1 − IoU₃D"),)),
                   opts.MATCH, opts.BOOTSTRAP, opts.SEED, opts.PAIR_BUDGET,
                   opts.SIGNIFICANCE_LEVEL, *opts.REFERENCE_OPTIONS),
          columns=COLUMNS, alternatives=(YAW_COLUMNS,), synonyms=SYNONYMS, count_key="n_cuboids", position=6, text=cuboids_text,
          item_detail=DETAIL, shape=SHAPE, consensus=CONSENSUS,
          methods=METHODS)
def cuboids(rows, *, threshold=0.25, distance="iou", match="optimal", bootstrap=boot.DEFAULT_RESAMPLES,
            seed=boot.DEFAULT_SEED, pair_budget=DEFAULT_PAIR_BUDGET, significance_level=0.05,
            reference=None, reference_rows=None, low_overlap=opts.DEFAULT_LOW_OVERLAP, progress=None):
    """Agreement report for oriented 3D cuboids, in the shape of :func:`agreekit.boxes`.

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text (header optional, canonical quaternion order) or dicts with
        ``item, annotator, cx, cy, cz, sx, sy, sz, qx, qy, qz, qw, label`` (or
        ``yaw`` instead of the quaternion).
    threshold : float
        IoU₃D at or above which two cuboids match.
    distance : {"iou"}
        1 − IoU₃D, the only distance for cuboids, for σ and KS.
    match : {"optimal", "potato"}
    bootstrap, seed, progress
        As for :func:`agreekit.boxes`.
    pair_budget : int
        The largest number of between-item pairs computed exactly; above it a
        seeded sample of 2 × 10⁶ pairs.
    reference, reference_rows, low_overlap
        Score every annotator against a reference, as for :func:`agreekit.boxes` (``docs/reference.md``).

    Returns
    -------
    Report
        The object report (:mod:`agreekit.objects`) plus ``mean_agreement`` and
        ``mean_object_count_diff``; every key in ``docs/report.md``.
    """
    potato = match == "potato"
    records, warnings = parse_cuboids(rows, keep_none_labels=potato, progress=progress)
    records, chosen = reference_records(records, reference=reference, reference_rows=reference_rows,
                                        parse=lambda gold: parse_cuboids(gold, keep_none_labels=potato)[0],
                                        kind="cuboids", rows=rows, options={"threshold": threshold})
    objects, array, more = cuboid_objects(records, order=None if potato else canonical_order)
    warnings += more
    label_key, label_equal = label_rules(potato)
    data = object_report(objects, cuboid_kind(array), threshold=threshold, match_mode=match, bootstrap=bootstrap,
                         seed=seed, pair_budget=pair_budget, progress=progress,
                         significance_level=significance_level, label_equal=label_equal,
                         label_key=label_key, potato_alpha=potato)
    settings = {"threshold": threshold, "distance": distance, "match": match, "bootstrap": bootstrap,
                "seed": seed, "pair_budget": pair_budget, "significance_level": significance_level}
    if chosen is not None:
        def build(both):
            both_objects, both_array, _ = cuboid_objects(both, order=None if potato else canonical_order)
            return both_objects, cuboid_kind(both_array)
        data["reference"], notes, more_settings = reference_part(
            chosen, build, threshold=threshold, low_overlap=low_overlap, mode=match, label_key=label_key,
            bootstrap=bootstrap, seed=seed)
        warnings += notes
        settings.update(more_settings)
    return object_kind_report("cuboids", "n_cuboids", int(len(array)), records, objects, data, warnings, settings)
