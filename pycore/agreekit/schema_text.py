"""Meanings of the report keys (docs/report.md is generated from these and the example reports).

``DESCRIPTIONS`` maps every key path of every kind's report (:func:`agreekit.schema.key_paths`)
to one line; a path shared by several kinds has one meaning, true for each of them. In the
object kinds (boxes, polygons, cuboids, segments) "similarity" is the match similarity: IoU
(boxes, polygons), IoU₃D (cuboids) or temporal IoU (segments); "distance" is the distance of
``settings.distance``. No entry may contain a pipe character: each becomes a table cell.
"""
from .kinds.labels.descriptions import DESCRIPTIONS as LABEL_DESCRIPTIONS
from .schema_text_spans import SPAN_DESCRIPTIONS

ESTIMATE = (
    "An *estimate* is one coefficient in one shape, `{value, ci, ci_level, reason, n}`. `value` is a float, "
    "or null when the coefficient is undefined. `ci` is `[low, high]`, a percentile bootstrap interval "
    "(Efron & Tibshirani 1993) from resampling items (traces: whole traces), or null: no bootstrap asked for "
    "(`settings.bootstrap` 0), fewer than two items to resample, fewer than half of the resamples giving a "
    "defined value, `value` null, or a coefficient reported without one (KS, most breakdown rows, every masks "
    "estimate: masks have no bootstrap). "
    "`ci_level` is the interval's level (0.95), null exactly when `ci` is. `reason` says in words why `value` "
    "is null, and is null when it is not. `n` counts what the value is computed over (matched pairs, "
    "clusters, items, units, …); the tables below name it for each key. Any further field of an estimate is "
    "listed under its key (e.g. `alpha.level`)."
)

DESCRIPTIONS = {
    # ------------------------------------------------------------------ shared by several kinds
    "kind": "The kind of annotation: `boxes`, `spans`, `segments`, `polygons`, `masks`, `cuboids`, `traces` or `labels`.",
    "settings": "The options the report was computed with, defaults filled in.",
    "settings.threshold": "Similarity at or above which two objects of two annotators can match: IoU (boxes, "
                          "polygons), IoU₃D (cuboids) or temporal IoU (segments).",
    "settings.distance": "Distance of σ and KS, in [0, 1]: `giou` = (1 − GIoU)/2, `iou` = 1 − IoU (cuboids: "
                         "IoU₃D, the only one; segments: temporal, of the two), `centroid` = min(1, centre "
                         "distance / √2).",
    "settings.match": "How two annotators' annotations are paired: `optimal` (maximum matching, independent of "
                      "row order) or `potato` (reproduces Potato 2.8's matching and rules).",
    "settings.bootstrap": "Bootstrap resamples for the intervals, resampling items (traces: whole traces); "
                          "0 = no intervals.",
    "settings.seed": "Seed of the bootstrap (and of a sampled chance baseline in boxes, polygons and cuboids, "
                     "and of the chance placements of segments).",
    "settings.pair_budget": "Largest number of between-item pairs the chance baseline computes exactly; above "
                            "it, a seeded sample of at most 2,000,000 pairs.",
    "settings.significance_level": "Level of σ_B (`localization.significance_share`): the quantile of the "
                                   "between-item distances a within distance must fall below (default 0.05).",
    "settings.ci_level": "Level of every interval in the report (0.95).",
    "n_items": "Compared items, those with at least two annotators; spans instead counts every item with a "
               "row (compared: `n_items_scored`).",
    "n_items_total": "Items with at least one row, compared or not.",
    "n_annotators": "Distinct annotators in the input.",
    "warnings": "Notes, in words, on suspicious but accepted input and on what was left out.",
    "pairs": "One row per annotator pair that shares a compared item.",
    "pairs[].a": "The pair's first annotator (names sorted: `a` before `b`).",
    "pairs[].b": "The pair's second annotator.",
    "annotators": "One row per annotator (traces: the annotator names, sorted).",
    "annotators[].annotator": "Annotator name.",
    "annotators[].n_items": "Compared items the annotator has a row for (a 'nothing marked' row counts).",
    "labels": "One row per label, sorted (spans: every label in the input; objects: labels of the objects on "
              "compared items, a missing label being '').",
    "labels[].label": "The label.",
    "items": "One row per item, most disagreement first (objects: lowest `detection_f1`, then largest "
             "`mean_within`; spans: largest `disagreement_share`, items not scored last; masks: lowest mean "
             "`dice`; labels: lowest `percent_agreement`, the 20 most disputed items only). Objects and masks list "
             "compared items only.",
    "items[].item": "Item name.",
    "items[].n_annotators": "Annotators with a row for the item, an empty one included (spans in potato mode: "
                            "on a scored item, only those with a span).",
    "items[].annotators": "The item's annotators, sorted (spans: those compared on it; masks: the order of the "
                          "per-annotator lists `sensitivity`, `specificity`, `dice`, `majority_dice`, "
                          "`annotator_rle`).",
    # ------------------------------------------------------------------ α_U: spans and segments
    "unitizing_alpha": "Krippendorff's unitizing α_U = 1 − Σ D_o / Σ D_e over the labels (Krippendorff 2004): "
                       "how far annotators agree on where units lie on the continuum and what they are, "
                       "chance-corrected; the items laid end to end (gaps end at item boundaries, each item "
                       "with its own annotators); interval: bootstrap over items; n: items with two or more "
                       "annotators and a positive length. Spans: null without item lengths. Not character-level α.",
    "unitizing_alpha.name": "Display name, `α_U`.",
    "unitizing_alpha.continuum": "What the continuum is made of: `characters` (spans: positions of size 1, "
                                 "Krippendorff's discrete formulas) or `seconds` (segments: a continuous "
                                 "continuum, so the value does not depend on the unit of time).",
    "unitizing_alpha.length": "Length of the continuum: the items' lengths summed (characters or seconds); null "
                              "when α_U is not computed.",
    "unitizing_alpha.n_units": "Units compared: spans or segments clipped to their item, of positive length, an "
                               "annotator's overlapping units of one label merged.",
    "unitizing_alpha.observed_disagreement": "Σ D_o over the labels (each D_o as in `per_label`); null when α_U "
                                             "is not computed.",
    "unitizing_alpha.expected_disagreement": "Σ D_e over the labels; null when α_U is not computed.",
    "unitizing_alpha.per_label": "One estimate per label, sorted: α_c = 1 − D_o / D_e of that label, with its "
                                 "interval, `label`, `n` (items, as above), `n_units` (its units), "
                                 "`observed_disagreement` (D_o) and `expected_disagreement` (D_e); value null when "
                                 "D_e is 0.",
    "unitizing_alpha.assumption": "Segments: how the clips' ends were found when durations are missing (each "
                                  "such clip ends at its last segment end over all annotators); null when every "
                                  "clip has a duration.",
    # ------------------------------------------------ the object engine: boxes, polygons, cuboids, segments
    "n_boxes": "Boxes drawn on the compared items ('drew nothing' rows not counted).",
    "n_polygons": "Polygons drawn on the compared items ('drew nothing' rows not counted).",
    "n_cuboids": "Cuboids drawn on the compared items ('drew nothing' rows not counted).",
    "localization": "How close matched objects are, against chance: σ, KS and their ingredients. Boxes, "
                    "polygons, cuboids: against objects of other items; segments: against the same clip's "
                    "segments placed at random (potato mode: σ and KS only, both null).",
    "localization.sigma": "σ = 1 − `mean_within` / the chance mean (`mean_between`; segments: `mean_chance`): 1 "
                          "when matched objects coincide, 0 when they are no closer than chance; n: matched pairs. "
                          "Undefined (null) with no matched pair, no chance pair (fewer than two compared items; "
                          "segments: no match in any placement) or a chance mean of 0; segments in potato mode "
                          "(Potato has no segment σ), with n null.",
    "localization.ks": "Two-sample Kolmogorov–Smirnov D, the largest gap between the ECDFs of the within and "
                       "the chance distances (between-item; segments: of the placements), in [0, 1]; n: matched "
                       "pairs; no interval. Undefined (null) when σ is.",
    "localization.mean_chance": "Segments: the within-clip chance baseline, the mean distance of the pairs "
                                "matched after every clip's segments are placed at random inside the clip (each "
                                "keeps its length, its start uniform), pooled over `chance_placements` seeded "
                                "placements; null when none matched.",
    "localization.n_chance": "Segments: pairs matched in the chance placements, all placements together.",
    "localization.chance_placements": "Segments: K, the random placements of the chance baseline "
                                      "(`settings.placements`, or by default 20 at a time until `chance_se` is at "
                                      "most 0.0025, at most 1,000).",
    "localization.chance_se": "Segments: standard error of `mean_chance` over the placements (each placement an "
                              "independent replicate; ratio estimator); null with fewer than two placements.",
    "localization.assumption": "Segments: how the clips' ends were found when durations are missing (each such "
                               "clip ends at its last segment end over all annotators); null when every clip has "
                               "a duration.",
    "localization.chance_ecdf": "Segments: ECDF of the chance distances for the chart, at most 200 points.",
    "localization.chance_ecdf.x": "Chance distances at up to 200 evenly spaced ranks, ascending.",
    "localization.chance_ecdf.y": "The ECDF at each `x`: (rank + 1) / `n_chance`.",
    "localization.sigma_cross": "σ against the cross-annotator baseline: 1 − `mean_within` / "
                                "`mean_between_cross`; n: matched pairs. Unlike the pooled σ, an annotator "
                                "consistent with itself (the same box on every image) does not lower its own "
                                "baseline. Undefined (null) as for σ; no interval above 2,000 items (a warning).",
    "localization.ks_cross": "KS D of the within distances against the cross-annotator between distances; n: "
                             "matched pairs; no interval. Undefined (null) when `sigma_cross` is.",
    "localization.significance_share": "σ_B of Braylan, Alonso & Lease (2022): the share of matched pairs whose "
                                       "distance is below the `significance_level` quantile (inverse ECDF) of the "
                                       "pooled between distances, i.e. 1 − mean(d_within ≥ q); exact (no quantile "
                                       "is estimated: F_between is read at each within distance). Its interval "
                                       "resamples items with the quantile held fixed; n: matched pairs.",
    "localization.significance_level": "The level of `significance_share` (`settings.significance_level`).",
    "localization.mean_within": "Mean distance over the matched pairs; null when there are none.",
    "localization.mean_between": "Chance baseline: mean distance over unordered pairs of objects on different "
                                 "compared items, matched or not (a seeded sample when `between_exact` is "
                                 "false); null when there are no such pairs.",
    "localization.mean_between_cross": "Cross-annotator baseline: mean distance over unordered pairs of objects "
                                       "drawn by different annotators on different compared items (of the "
                                       "sample when `between_exact` is false); null when there are none.",
    "localization.n_within": "Matched pairs whose distances make up `mean_within`.",
    "localization.n_between": "Between-item pairs in `mean_between`: all of them, or the sample's size.",
    "localization.n_between_cross": "Between-item pairs by different annotators in `mean_between_cross`.",
    "localization.n_between_possible": "All unordered pairs of objects on different compared items.",
    "localization.between_exact": "True when `mean_between` is over every between-item pair, false when over a "
                                  "seeded sample (more pairs than `settings.pair_budget`).",
    "localization.between_se": "Standard error of `mean_between` when it is a sample; null when exact.",
    "localization.baseline_interval": "How the σ interval's between-item term was computed: \"exact\", or a sentence "
                                      "naming the estimate (sampled item pairs) and its size.",
    "localization.baseline_interval_se": "Standard error of a resampled between mean caused by that estimate "
                                         "(split-half); null when exact.",
    "localization.within_ecdf": "ECDF of the within distances for the chart, at most 200 points.",
    "localization.within_ecdf.x": "Within distances at up to 200 evenly spaced ranks, ascending.",
    "localization.within_ecdf.y": "The ECDF at each `x`: (rank + 1) / `n_within`.",
    "localization.between_ecdf": "ECDF of the between distances for the chart: exact at every within distance, "
                                 "elsewhere at the edges of 200 equal bins of [0, 1].",
    "localization.between_ecdf.x": "The distinct within distances and the bin edges 0.005, 0.01, …, 1, "
                                   "ascending.",
    "localization.between_ecdf.y": "Share of between distances at or below each `x` (at a bin edge: below it; "
                                   "1 at 1).",
    "detection": "Detection α: nominal Krippendorff's α of present/absent, each annotator of the item in each "
                 "cluster of matched objects (one who drew nothing is absent); n: clusters. Undefined (null) "
                 "when nothing is pairable or all values are equal (potato: also with under 2 clusters or annotators).",
    "classification": "Classification α: nominal Krippendorff's α of the labels in clusters found by two or "
                      "more annotators; n: those clusters. Undefined (null) when there are none or all their "
                      "labels are equal (potato: also with under 2 such clusters or annotators).",
    "mean_matched_iou": "Mean similarity (IoU; IoU₃D for cuboids, temporal IoU for segments) over all matched "
                        "pairs; null when nothing matched.",
    "detection_f1": "Mean over (item, annotator pair) of 2 × matches / (objects of a + objects of b); 1 for a "
                    "pair who both drew nothing.",
    "mean_agreement": "Potato's agreement, averaged over (item, annotator pair): the summed similarity of the "
                      "matches (halved where labels differ) / (matches + unmatched objects); 1 when both drew "
                      "nothing, 0 when one did.",
    "mean_object_count_diff": "Mean over (item, annotator pair) of the absolute difference of the two "
                              "annotators' object counts.",
    "n_item_pairs": "Comparisons: (item, annotator pair) for every pair of annotators on every compared item.",
    "n_matched_pairs": "Matched pairs of objects (boxes, polygons, cuboids or segments), over all comparisons.",
    "pairs[].n_item_pairs": "Compared items both annotators have a row for.",
    "pairs[].n_matched": "Objects of `a` matched to objects of `b` over those items.",
    "pairs[].detection_f1": "`detection_f1` over the pair's items.",
    "pairs[].mean_agreement": "`mean_agreement` over the pair's items.",
    "pairs[].mean_matched_iou": "Mean similarity of the pair's matched objects; null when none matched.",
    "pairs[].mean_within": "Mean distance of the pair's matched objects; null when none matched.",
    "pairs[].sigma": "σ of the pair: 1 − its `mean_within` / its own baseline (`mean_between_cross`; segments: "
                     "`mean_chance`); n: its matched pairs; no interval. Undefined (null) with no matched pair or "
                     "no baseline.",
    "pairs[].mean_chance": "Segments: the pair's chance baseline, the mean distance of the pairs of these two "
                           "annotators' segments matched in the chance placements.",
    "annotators[].mean_chance": "Segments: the annotator's chance baseline, the mean distance of the chance "
                                "placements' matched pairs with one of its segments.",
    "pairs[].mean_between_cross": "The pair's chance baseline: mean distance of `a`'s objects on one item to "
                                  "`b`'s on another (above 1,000 annotators: the corpus "
                                  "`localization.mean_between_cross`, with a warning).",
    "annotators[].n_objects": "Objects the annotator drew on compared items.",
    "annotators[].n_item_pairs": "Comparisons (item, annotator pair) the annotator takes part in.",
    "annotators[].n_matched": "Matched pairs with one of the annotator's objects.",
    "annotators[].detection_f1": "`detection_f1` over the annotator's comparisons.",
    "annotators[].mean_agreement": "`mean_agreement` over the annotator's comparisons.",
    "annotators[].mean_matched_iou": "Mean similarity of the annotator's matched pairs; null when none.",
    "annotators[].mean_within": "Mean distance of the annotator's matched pairs; null when none.",
    "annotators[].sigma": "σ of the annotator: 1 − the `mean_within` of its matched pairs / its baseline "
                          "(`mean_between_cross`; segments: `mean_chance`); n: those pairs; no interval. Undefined "
                          "(null) as for `pairs[].sigma`.",
    "annotators[].mean_between_cross": "The annotator's chance baseline: mean distance of its objects to every "
                                       "other annotator's objects on other items.",
    "labels[].n_objects": "Objects with this label.",
    "labels[].n_matched": "Matched pairs in which either object has this label.",
    "labels[].n_label_mismatch": "Of those, the pairs whose other object has a different label.",
    "labels[].mean_matched_iou": "Mean similarity of those matched pairs; null when none.",
    "labels[].mean_within": "Mean distance of those matched pairs; null when none.",
    "labels[].sigma": "σ of the label: 1 − the `mean_within` of those pairs / the corpus "
                      "`localization.mean_between`; n: those pairs; no interval. Undefined (null) as for "
                      "`pairs[].sigma`.",
    "items[].objects_per_annotator": "Objects each annotator drew on the item, by annotator name.",
    "items[].objects_per_annotator{name}": "Objects that annotator drew on the item (0: saw it, drew nothing).",
    "items[].n_unmatched": "Objects left unmatched, summed over the item's annotator pairs (an object counts "
                           "once for each pair it is unmatched in).",
    "items[].detection_f1": "Mean detection F1 over the item's annotator pairs.",
    "items[].mean_within": "Mean distance of the item's matched pairs; null when none.",
    **SPAN_DESCRIPTIONS,
    **LABEL_DESCRIPTIONS,
    # ------------------------------------------------------------------ segments
    "settings.tolerances": "Tolerances of the boundary sweep, seconds, ascending.",
    "settings.placements": "K of segment σ's chance baseline as asked for; null: automatic (see "
                           "`localization.chance_placements`).",
    "settings.iou_rule": "Temporal IoU of zero-length segments: `default` (two identical instants: 1) or "
                         "`potato` (always 0, as Potato 2.8).",
    "n_segments": "Segments in the input, all items ('marked nothing' rows not counted).",
    "pairs[].boundary_sweep": "The pair's boundary sweep over the items they share, one row per tolerance.",
    "pairs[].boundary_sweep[].tolerance": "Tolerance τ, seconds.",
    "pairs[].boundary_sweep[].precision": "`matched` / `n_a`; null when `a` has no boundary.",
    "pairs[].boundary_sweep[].recall": "`matched` / `n_b`; null when `b` has no boundary.",
    "pairs[].boundary_sweep[].f1": "2 × `matched` / (`n_a` + `n_b`); null when neither has a boundary.",
    "pairs[].boundary_sweep[].matched": "Boundaries matched one-to-one within τ (starts to starts, ends to ends, "
                                        "a maximum matching per item).",
    "pairs[].boundary_sweep[].n_a": "Boundaries of `a` (2 per segment).",
    "pairs[].boundary_sweep[].n_b": "Boundaries of `b` (2 per segment).",
    "items[].boundary_f1": "The item's boundary F1 per tolerance, pooled over its annotator pairs.",
    "items[].boundary_f1[].tolerance": "Tolerance τ, seconds.",
    "items[].boundary_f1[].f1": "2 × matched boundaries / all boundaries, over the item's pairs; null when it "
                                "has no segment.",
    "boundary_sweep": "Boundary precision, recall and F1 per tolerance, pooled (micro-averaged) over every "
                      "item and annotator pair: sed_eval's onset/offset evaluation between annotators.",
    "boundary_sweep[].tolerance": "Tolerance τ, seconds.",
    "boundary_sweep[].precision": "`matched` / `n_a`; null when `n_a` is 0.",
    "boundary_sweep[].recall": "`matched` / `n_b`; null when `n_b` is 0.",
    "boundary_sweep[].f1": "2 × `matched` / (`n_a` + `n_b`); null when there is no boundary (see `reason`).",
    "boundary_sweep[].f1_ci": "Percentile bootstrap interval of `f1` over items at `settings.ci_level`; null "
                              "without bootstrap, with fewer than two items or too few defined resamples.",
    "boundary_sweep[].start_f1": "F1 of starts alone: 2 × matched starts / (starts of a + starts of b).",
    "boundary_sweep[].end_f1": "F1 of ends alone: 2 × matched ends / (ends of a + ends of b).",
    "boundary_sweep[].matched": "Matched boundaries (starts plus ends), summed over items and pairs.",
    "boundary_sweep[].n_a": "Boundaries of the pairs' first annotators (2 per segment), summed over items and "
                            "pairs.",
    "boundary_sweep[].n_b": "Boundaries of the pairs' second annotators, summed the same way.",
    "boundary_sweep[].reason": "Why `f1` is null (no scored item has a segment); null when it is defined.",
    # ------------------------------------------------------------------ masks
    "settings.label": "Only masks with this label count, others as nothing marked; null: every mask counts.",
    "settings.max_iter": "STAPLE's iteration limit.",
    "settings.tol": "STAPLE stops when no annotator's sensitivity or specificity moves by more than this.",
    "settings.start": "STAPLE's start: `votes` (vote shares, then an M-step, as SimpleITK), `rates` (every rate "
                      "0.9999) or `potato` (Potato 2.8's whole variant).",
    "settings.rle_order": "Pixel order of every run-length encoding: column-major, as COCO.",
    "settings.prior": "STAPLE's prior: fixed at the mean of all votes, not re-estimated.",
    "n_masks": "Mask rows read (a blank `rle`, 'nothing marked', counts).",
    "mean_pairwise_iou": "Mean mask IoU over every annotator pair on every compared item, pairs of two empty "
                         "masks skipped; n: those (item, pair) IoUs. Undefined (null) when there are none.",
    "mean_dice": "Mean Dice of each annotator's mask against the STAPLE consensus (1 when both are empty); n: "
                 "(item, annotator) pairs.",
    "mean_majority_dice": "Mean Dice of each annotator's mask against the majority vote (pixels marked by more "
                          "than half of the annotators); n: (item, annotator) pairs.",
    "consensus_majority_dice": "Mean over items of the Dice between STAPLE consensus and majority vote; n: "
                               "compared items.",
    "annotators[].sensitivity": "Mean STAPLE sensitivity over the annotator's items; n: items where it is "
                                "defined (the consensus has foreground); null when there are none.",
    "annotators[].specificity": "Mean STAPLE specificity over the annotator's items; n: items where it is "
                                "defined (the consensus has background); null when there are none.",
    "annotators[].dice": "Mean Dice against the STAPLE consensus over the annotator's items; n: those items.",
    "annotators[].majority_dice": "Mean Dice against the majority vote over the annotator's items; n: those items.",
    "annotators[].mean_iou": "Mean mask IoU with each other annotator on shared items, two empty masks skipped; "
                             "n: those (item, other annotator) IoUs; null when there are none.",
    "pairs[].n_items": "Compared items both annotators have a row for.",
    "pairs[].mean_iou": "Mean mask IoU of the pair over those items, two empty masks skipped; n: items where "
                        "it is defined. Undefined (null) when both are empty on every one.",
    "items[].width": "Mask width, pixels.",
    "items[].height": "Mask height, pixels.",
    "items[].sensitivity": "Each annotator's STAPLE sensitivity p (true-positive rate); null where the "
                           "consensus has no foreground.",
    "items[].specificity": "Each annotator's STAPLE specificity q (true-negative rate); null where the "
                           "consensus has no background.",
    "items[].dice": "Each annotator's Dice against the STAPLE consensus.",
    "items[].majority_dice": "Each annotator's Dice against the majority vote.",
    "items[].mean_pairwise_iou": "Mean mask IoU over the item's annotator pairs, two empty masks skipped; null "
                                 "when every mask is empty.",
    "items[].consensus_area": "Pixels in the STAPLE consensus (posterior W ≥ 0.5).",
    "items[].majority_area": "Pixels marked by more than half of the annotators.",
    "items[].consensus_majority_dice": "Dice between the STAPLE consensus and the majority vote.",
    "items[].consensus_rle": "The STAPLE consensus as COCO run lengths (column-major, background first).",
    "items[].majority_rle": "The majority vote as COCO run lengths.",
    "items[].annotator_rle": "Each annotator's mask (several united) as COCO run lengths, one list per annotator.",
    "items[].prior": "STAPLE's prior π: the share of foreground over all annotators' pixels, clamped to "
                     "[1e-10, 1 − 1e-10].",
    "items[].iterations": "EM iterations STAPLE ran.",
    "items[].converged": "Whether STAPLE converged within `settings.max_iter` iterations (potato start: 50).",
    # ------------------------------------------------------------------ traces
    "settings.level": "Level of measurement for α: `nominal` or `ordinal` (κ and percent agreement compare "
                      "labels for equality at either level); labels also `interval`, `ratio` or `set`.",
    "settings.order": "Ordinal labels from lowest to highest, when given; null: labels are text (nominal) or "
                      "ordered as numbers.",
    "settings.top_units": "Most disputed units listed in `units`, at most.",
    "n_traces": "Traces in the input.",
    "n_steps": "Distinct step positions over all traces.",
    "n_units": "Units: (trace, step) pairs with at least one label.",
    "n_labels": "Labels given (one per annotator per unit labelled).",
    "categories": "The distinct labels, sorted (ordinal: lowest first; labels with an `order`: every label of "
                  "it; level set: the distinct label sets, written `a` and `b` joined by a vertical bar).",
    "alpha": "Krippendorff's α over all units, metric `alpha.level`; n: units with two or more labels; "
             "interval over traces. Undefined (null) when nothing is pairable or every pairable label is equal.",
    "alpha.level": "The metric of α: `nominal` or `ordinal`.",
    "cohen_kappa": "Cohen's κ of every annotator pair over the units both labelled, and its mean over pairs.",
    "cohen_kappa.pairs": "One row per annotator pair that shares a labelled unit; above 5,000 such pairs "
                         "(`MAX_PAIR_ROWS`), only the 5,000 that share the most units (ties in annotator "
                         "order), with a warning.",
    "cohen_kappa.pairs_shown": "Pairs listed in `cohen_kappa.pairs` (at most 5,000).",
    "cohen_kappa.n_pairs_total": "Annotator pairs that share a labelled unit; the mean κ and its interval count "
                                 "all of them, listed or not.",
    "cohen_kappa.pairs[].a": "The pair's first annotator (names sorted: `a` before `b`).",
    "cohen_kappa.pairs[].b": "The pair's second annotator.",
    "cohen_kappa.pairs[].kappa": "Cohen's κ = (p_o − p_e) / (1 − p_e), p_e from each annotator's own label "
                                 "shares on the shared units; n: shared units; no interval. Undefined (null) "
                                 "when both gave one and the same label on all of them.",
    "cohen_kappa.pairs[].percent_agreement": "p_o: the share of shared units on which the two gave the same label.",
    "cohen_kappa.pairs[].n_units": "Units both annotators labelled.",
    "cohen_kappa.mean": "Mean κ over the pairs where it is defined; n: those pairs; interval over traces. "
                        "Undefined (null) when κ is defined for no pair.",
    "cohen_kappa.n_pairs_without_shared_units": "Annotator pairs with no labelled unit in common (not in `pairs`).",
    "fleiss_kappa": "Fleiss' κ = (P̄ − P̄_e) / (1 − P̄_e) over all units; n: units; interval over traces. "
                    "Undefined (null) unless every unit has the same number (≥ 2) of labels, or when all "
                    "labels are in one category.",
    "fleiss_kappa.annotators_per_unit": "Labels per unit, the same on every unit; null when units differ.",
    "percent_agreement": "Mean over units with two or more labels of P_u, the share of agreeing ordered label "
                         "pairs within the unit, in [0, 1]; n: those units; interval over traces.",
    "steps": "One row per step position s (step s of every trace).",
    "steps[].step": "The step position.",
    "steps[].alpha": "α over the units at this step; n: those with two or more labels; interval over traces.",
    "steps[].percent_agreement": "Mean P_u over those units; null when none has two labels.",
    "steps[].n_units": "Traces that have a label at this step.",
    "steps[].n_labels": "Labels given at this step.",
    "traces": "One row per trace, lowest percent agreement first (traces with nothing comparable last).",
    "traces[].trace": "Trace name.",
    "traces[].alpha": "α over the trace's units; n: those with two or more labels; no interval.",
    "traces[].percent_agreement": "Mean P_u over the trace's units with two or more labels; null when none.",
    "traces[].n_steps": "Labelled steps (units) of the trace.",
    "traces[].n_annotators": "Annotators who labelled at least one of its steps.",
    "traces[].n_disputed_steps": "Its units with two or more labels that are not all equal (P_u < 1).",
    "units": "The most disputed units (P_u < 1), lowest P_u first, at most `settings.top_units`.",
    "units[].trace": "The unit's trace.",
    "units[].step": "The unit's step.",
    "units[].percent_agreement": "P_u of the unit.",
    "units[].labels": "Each annotator's label on the unit, by annotator name.",
    "units[].labels{name}": "The label that annotator gave.",
    "n_disputed_units": "Units with two or more labels that are not all equal (all of them, not only those listed).",
}
