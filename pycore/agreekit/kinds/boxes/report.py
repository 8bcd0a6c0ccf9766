"""Bounding boxes: rows (:mod:`.rows`) in, the full agreement report out.

See :mod:`agreekit.objects`
for the measures and ``docs/boxes.md`` for the deliberate differences from
Potato.
"""
from __future__ import annotations

from ... import options as opts
from ...measures import bootstrap as boot
from ...measures.chance import DEFAULT_PAIR_BUDGET
from ...object_sets import canonical_order, label_rules
from ...objects import object_kind_report, object_report
from ...reference.report import reference_part, reference_records
from ...registry import register
from .compare import box_kind
from .consensus import CONSENSUS
from .detail import DETAIL
from .rows import COLUMNS, CORNERS, SYNONYMS, box_objects, parse_boxes
from .text import boxes_text
from .shape import SHAPE
from .methods import METHODS


@register("boxes", title="Boxes", summary="bounding boxes: item, annotator, x, y, w, h, label",
          options=(opts.THRESHOLD, opts.DISTANCE, opts.MATCH, opts.BOOTSTRAP, opts.SEED, opts.PAIR_BUDGET,
                   opts.SIGNIFICANCE_LEVEL, *opts.REFERENCE_OPTIONS),
          columns=COLUMNS, alternatives=(CORNERS,), synonyms=SYNONYMS, count_key="n_boxes", position=1, text=boxes_text,
          item_detail=DETAIL, shape=SHAPE, consensus=CONSENSUS,
          methods=METHODS)
def boxes(rows, *, threshold=0.5, distance="giou", match="optimal", bootstrap=boot.DEFAULT_RESAMPLES,
          seed=boot.DEFAULT_SEED, pair_budget=DEFAULT_PAIR_BUDGET, significance_level=0.05,
          reference=None, reference_rows=None, low_overlap=opts.DEFAULT_LOW_OVERLAP, progress=None):
    """Agreement report for bounding boxes.

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text (header optional) or dicts with ``item, annotator, x, y,
        w, h, label`` (top-left corner, width, height) or ``x1, y1, x2, y2``.
    threshold : float
        IoU at or above which two boxes match.
    distance : {"giou", "iou", "centroid"}
        The distance of σ and KS.
    match : {"optimal", "potato"}
        ``potato`` reproduces Potato 2.8 (``docs/potato-differences.md``).
    bootstrap : int
        Resamples over items for the intervals (0 for none).
    seed : int
        Seed of the bootstrap and of a sampled baseline.
    pair_budget : int
        The largest number of between-item pairs computed exactly; above it a seeded sample.
    significance_level : float
        The level of σ_B (``localization.significance_share``): the share of matched pairs whose
        distance is below this quantile of the between-item distances.
    reference : str, optional
        An annotator of the rows (the expert) to score every other annotator against; it leaves
        the agreement measures (``docs/reference.md``).
    reference_rows : str or list of dict, optional
        Gold rows of the same columns to score every annotator against (instead of ``reference``).
    low_overlap : float
        With a reference: the similarity from which an unmatched pair is a low-overlap conflict.
    progress : callable, optional
        ``progress(done, total, stage)``, called during long work.

    Returns
    -------
    Report
        The object report (:mod:`agreekit.objects`); every key in ``docs/report.md``.
    """
    potato = match == "potato"
    records, warnings = parse_boxes(rows, keep_none_labels=potato, progress=progress)
    records, chosen = reference_records(records, reference=reference, reference_rows=reference_rows,
                                        parse=lambda gold: parse_boxes(gold, keep_none_labels=potato)[0],
                                        kind="boxes", rows=rows, options={"threshold": threshold})
    objects, box_array, more = box_objects(records, order=None if potato else canonical_order)
    warnings += more
    kind = box_kind(box_array, distance, potato)
    label_key, label_equal = label_rules(potato)
    data = object_report(objects, kind, threshold=threshold, match_mode=match, bootstrap=bootstrap, seed=seed,
                         pair_budget=pair_budget, progress=progress,
                         significance_level=significance_level, label_equal=label_equal,
                         label_key=label_key, potato_alpha=potato)
    settings = {"threshold": threshold, "distance": distance, "match": match, "bootstrap": bootstrap,
                "seed": seed, "pair_budget": pair_budget, "significance_level": significance_level}
    if chosen is not None:
        def build(both):
            both_objects, both_boxes, _ = box_objects(both, order=None if potato else canonical_order)
            return both_objects, box_kind(both_boxes, distance, potato)
        data["reference"], notes, more_settings = reference_part(
            chosen, build, threshold=threshold, low_overlap=low_overlap, mode=match, label_key=label_key,
            bootstrap=bootstrap, seed=seed)
        warnings += notes
        settings.update(more_settings)
    return object_kind_report("boxes", "n_boxes", int(len(box_array)), records, objects, data, warnings, settings)


