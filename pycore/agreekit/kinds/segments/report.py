"""Time segments: agreement between annotators' timed events on clips.

Input rows ``item, annotator, start, end, label`` in seconds (:mod:`.rows`).

Measures (definitions in ``docs/segments.md``, differences from Potato in
``docs/potato-differences.md``):

* temporal IoU of two segments (:mod:`agreekit.geometry.intervals`);
* matching of two annotators' segments on a clip by temporal IoU at a
  threshold, in the same modes as boxes (:mod:`agreekit.matching`), and from
  it Potato's raw measures and detection / classification α over clusters
  (:mod:`agreekit.objects`);
* the boundary-tolerance sweep (:mod:`agreekit.measures.boundaries`): for each
  tolerance τ, starts matched to starts and ends to ends one-to-one and the
  boundary precision, recall and F1 (the onset/offset evaluation of sed_eval,
  applied to pairs of annotators).

* σ and KS against a within-clip chance baseline: the matched pairs' distances
  against those of the pairs matched after each clip's segments are placed at
  random inside the clip (:mod:`.sigma`).  Not the
  between-item baseline of boxes: a segment from another clip is not a fair
  chance comparison when clips differ in length.

This module assembles the report; :mod:`.rows` reads the rows and
:mod:`.compare` builds the objects and the blocks of the sweep.
"""
from __future__ import annotations

import numpy as np

from ... import options as opts
from ...measures.bootstrap import DEFAULT_LEVEL, DEFAULT_RESAMPLES, DEFAULT_SEED, resample_counts
from ...measures.boundaries import boundary_counts, sweep_table
from ...objects import object_report
from ...reference.report import reference_part, reference_records
from ...registry import register
from ...results import Report
from .alpha_u import segment_alpha_u
from .compare import DEFAULT_TOLERANCES, SegmentObjects, boundary_blocks, segment_kind, segment_objects
from .consensus import CONSENSUS
from .detail import DETAIL
from .durations import read_durations
from .reference import parse_reference, segment_records, segment_set, without
from .rows import COLUMNS, SYNONYMS, read_segments
from .sigma import DEFAULT_PLACEMENTS, MAX_PLACEMENTS, report_localization
from .text import format_segments
from .shape import SHAPE
from .methods import METHODS

@register("segments", title="Segments", summary="time segments: item, annotator, start, end, label (seconds)",
          options=(opts.THRESHOLD.but(label="Temporal IoU threshold for a match"), opts.MATCH,
                   opts.Option("tolerances", "floats", "Boundary tolerances (seconds)",
                               "the boundary sweep's tolerances, comma-separated", minimum=0.0, maximum=1e6),
                   opts.Option("durations", "table", "Clip durations",
                               "item,duration rows in seconds (a file on the command line); without them a "
                               "clip ends at its last segment end"),
                   opts.DISTANCE.but(choices=opts.DISTANCE.choices[:2]),
                   opts.Option("placements", "int", "Chance placements (σ)",
                               "K, seeded random placements of each clip's segments for σ's within-clip chance "
                               "baseline; empty: until the chance mean's standard error is at most 0.0025",
                               minimum=1, maximum=MAX_PLACEMENTS),
                   opts.BOOTSTRAP, opts.SEED, *opts.REFERENCE_OPTIONS),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_segments", position=3, text=format_segments,
          item_detail=DETAIL, shape=SHAPE, consensus=CONSENSUS,
          methods=METHODS)
def segments(rows, *, threshold=0.5, match="optimal", tolerances=DEFAULT_TOLERANCES, durations=None,
             distance="giou", placements=DEFAULT_PLACEMENTS, bootstrap=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
             reference=None, reference_rows=None, low_overlap=opts.DEFAULT_LOW_OVERLAP, progress=None):
    """Agreement report for time segments.

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text (header optional) or dicts with ``item, annotator, start,
        end, label`` in seconds.
    threshold : float
        Temporal IoU at or above which two segments match.
    match : {"optimal", "potato"}
        ``potato`` reproduces Potato 2.8: its matching, first-fit clusters and
        zero-length rule.
    tolerances : sequence of float
        Seconds, for the boundary sweep.
    durations : str, list of dict or dict, optional
        ``item, duration`` rows in seconds, or a dict item → seconds
        (:func:`agreekit.kinds.segments.durations.read_durations`), for α_U and σ's
        chance placements.
    distance : {"giou", "iou"}
        The distance of σ and KS: (1 − GIoU)/2 or 1 − tIoU.
    placements : int or None
        K, the seeded random placements of σ's within-clip chance baseline;
        None: 20 at a time until the chance mean's standard error is at most
        0.0025 (at most 1,000; :func:`agreekit.measures.segment_chance.chance_matches`).
    bootstrap, seed, progress
        As for :func:`agreekit.boxes`; ``seed`` also seeds the placements.
    reference, reference_rows, low_overlap
        Score every annotator against a reference, as for :func:`agreekit.boxes`, by temporal IoU;
        no σ against the reference (``docs/reference.md``).

    Returns
    -------
    Report
        The object report with σ and KS against the within-clip chance
        baseline (:mod:`agreekit.kinds.segments.sigma`; undefined, with the
        reason, in potato mode), plus ``boundary_sweep`` and
        ``unitizing_alpha`` (α_U over seconds,
        :mod:`agreekit.unitizing_report`); every key in ``docs/report.md``.

    References
    ----------
    Mesaros, A., Heittola, T. & Virtanen, T. (2016). Metrics for polyphonic
    sound event detection. Applied Sciences 6(6), 162.  Differences from
    Potato: ``docs/potato-differences.md``.
    """
    tolerances = np.array(sorted(set(tolerances)))
    rule = "potato" if match == "potato" else "default"
    corpus = read_segments(rows, progress)
    _, chosen = reference_records(segment_records(corpus), reference=reference, reference_rows=reference_rows,
                                  parse=parse_reference, kind="segments", rows=rows,
                                  options={"threshold": threshold})
    if chosen is not None and chosen.source == "annotator":
        corpus = without(corpus, chosen.annotator)
    clip_durations = None if durations is None else read_durations(durations, SYNONYMS["item"])
    objects, start, end = segment_objects(corpus, canonical=match != "potato")
    data = object_report(objects, segment_kind(start, end, rule), threshold=threshold, match_mode=match,
                         bootstrap=bootstrap, seed=seed, pair_budget=0, progress=progress, localization=False,
                         potato_alpha=match == "potato")
    n_items = len(objects.item_ids)
    weights = resample_counts(n_items, bootstrap, seed, objects.item_ranks, objects.item_ids) if n_items >= 2 else None
    if progress is not None:
        progress(0, 1, "boundary sweep")
    paired = boundary_blocks(corpus, objects.item_ids)
    sweep = sweep_table(boundary_counts(paired.blocks, tolerances), weights)
    by_pair = dict(zip(paired.pairs, sweep.by_pair))
    for entry in data["pairs"]:
        entry["boundary_sweep"] = by_pair.get((entry["a"], entry["b"]), [])
    item_position = {item: i for i, item in enumerate(objects.item_ids)}
    for entry in data["items"]:
        column = sweep.item_f1[:, item_position[entry["item"]]]
        entry["boundary_f1"] = [{"tolerance": float(t), "f1": f} for t, f in zip(tolerances, column)]
    warnings = list(corpus.warnings)
    if n_items == 0:
        warnings.append("no item has two or more annotators: there is nothing to compare")
    settings = {"threshold": threshold, "match": match, "tolerances": tolerances.tolist(), "iou_rule": rule,
                "distance": distance, "placements": placements, "bootstrap": bootstrap, "seed": seed,
                "ci_level": DEFAULT_LEVEL}
    if chosen is not None:
        data["reference"], notes, more_settings = reference_part(
            chosen, lambda both: segment_set(both, rule, match != "potato"), threshold=threshold,
            low_overlap=low_overlap, mode=match, label_key=str, bootstrap=bootstrap, seed=seed, localization=False)
        warnings += notes
        settings.update(more_settings)
    localization = report_localization(corpus, SegmentObjects(objects, start, end), clip_durations, settings,
                                       data, warnings, progress)
    return Report("segments", {
        "settings": settings,
        "n_items": n_items,
        "n_items_total": len(corpus.items),
        "n_annotators": len(corpus.annotators),
        "n_segments": int(sum(len(t) for tracks in corpus.items.values() for t in tracks.values())),
        **data,
        "localization": localization,
        "boundary_sweep": sweep.pooled,
        "unitizing_alpha": segment_alpha_u(corpus, clip_durations, bootstrap, seed, warnings),
        "warnings": warnings,
    })
