"""The declared shape of a segments (labelled time intervals) report: every key with its type and meaning."""
from ...report_shape import estimate, key, list_of, section
from ... import shared_shapes as common
from ...reference.shape import SETTINGS_LOW_OVERLAP, SETTINGS_REFERENCE, reference

SETTINGS = section(
    common.SETTINGS_THRESHOLD,
    common.SETTINGS_MATCH,
    key("tolerances", list_of("number"),
        "Tolerances of the boundary sweep, seconds, ascending."),
    key("iou_rule", "text",
        "Temporal IoU of zero-length segments: `default` (two identical instants: 1) or `potato` (always 0, as "
        "Potato 2.8)."),
    common.SETTINGS_DISTANCE,
    key("placements", "integer",
        "K of segment σ's chance baseline as asked for; null: automatic (see `localization.chance_placements`).",
        null=True),
    common.SETTINGS_BOOTSTRAP,
    common.SETTINGS_SEED,
    common.SETTINGS_CI_LEVEL,
    SETTINGS_REFERENCE,
    SETTINGS_LOW_OVERLAP,
)

PAIRS_BOUNDARY_SWEEP = section(
    key("tolerance", "number",
        "Tolerance τ, seconds."),
    key("precision", "number",
        "`matched` / `n_a`; null when `a` has no boundary.", null=True),
    key("recall", "number",
        "`matched` / `n_b`; null when `b` has no boundary.", null=True),
    key("f1", "number",
        "2 × `matched` / (`n_a` + `n_b`); null when neither has a boundary.", null=True),
    key("matched", "integer",
        "Boundaries matched one-to-one within τ (starts to starts, ends to ends, a maximum matching per item)."),
    key("n_a", "integer",
        "Boundaries of `a` (2 per segment)."),
    key("n_b", "integer",
        "Boundaries of `b` (2 per segment)."),
)

PAIRS = section(
    common.PAIRS_A,
    common.PAIRS_B,
    common.PAIRS_N_ITEM_PAIRS,
    common.PAIRS_N_MATCHED,
    common.PAIRS_DETECTION_F1,
    common.PAIRS_MEAN_AGREEMENT,
    common.PAIRS_MEAN_MATCHED_IOU,
    key("boundary_sweep", list_of(PAIRS_BOUNDARY_SWEEP),
        "The pair's boundary sweep over the items they share, one row per tolerance."),
    key("mean_within", "number",
        "Mean distance of the pair's matched objects; null when none matched. Absent in potato mode.",
        null=True, optional=True),
    key("mean_chance", "number",
        "Segments: the pair's chance baseline, the mean distance of the pairs of these two annotators' segments "
        "matched in the chance placements; null when none matched. Absent in potato mode.", null=True, optional=True),
    key("sigma", estimate(),
        "σ of the pair: 1 − its `mean_within` / its own baseline (`mean_between_cross`; segments: `mean_chance`); "
        "n: its matched pairs; no interval. Undefined (null) with no matched pair or no baseline. Absent in potato "
        "mode.", optional=True),
)

ANNOTATORS = section(
    common.ANNOTATORS_ANNOTATOR,
    common.ANNOTATORS_N_ITEMS,
    common.ANNOTATORS_N_OBJECTS,
    common.ANNOTATORS_N_ITEM_PAIRS,
    common.ANNOTATORS_N_MATCHED,
    common.ANNOTATORS_DETECTION_F1,
    common.ANNOTATORS_MEAN_AGREEMENT,
    common.ANNOTATORS_MEAN_MATCHED_IOU,
    key("mean_within", "number",
        "Mean distance of the annotator's matched pairs; null when none. Absent in potato mode.",
        null=True, optional=True),
    key("mean_chance", "number",
        "Segments: the annotator's chance baseline, the mean distance of the chance placements' matched pairs with "
        "one of its segments. Absent in potato mode.", null=True, optional=True),
    key("sigma", estimate(),
        "σ of the annotator: 1 − the `mean_within` of its matched pairs / its baseline (`mean_between_cross`; "
        "segments: `mean_chance`); n: those pairs; no interval. Undefined (null) as for `pairs[].sigma`. Absent in "
        "potato mode.", optional=True),
)

LABELS = section(
    common.LABELS_LABEL,
    common.LABELS_N_OBJECTS,
    common.LABELS_N_MATCHED,
    common.LABELS_N_LABEL_MISMATCH,
    common.LABELS_MEAN_MATCHED_IOU,
)

ITEMS_BOUNDARY_F1 = section(
    key("tolerance", "number",
        "Tolerance τ, seconds."),
    key("f1", "number",
        "2 × matched boundaries / all boundaries, over the item's pairs; null when it has no segment.", null=True),
)

ITEMS = section(
    common.ITEMS_ITEM,
    common.ITEMS_N_ANNOTATORS,
    common.ITEMS_OBJECTS_PER_ANNOTATOR,
    common.ITEMS_N_UNMATCHED,
    common.ITEMS_DETECTION_F1,
    *common.ITEMS_PROBLEMS,
    key("boundary_f1", list_of(ITEMS_BOUNDARY_F1),
        "The item's boundary F1 per tolerance, pooled over its annotator pairs."),
    key("mean_within", "number",
        "Mean distance of the item's matched pairs; null when none. Absent in potato mode.", null=True, optional=True),
)

LOCALIZATION_CHANCE_ECDF = section(
    key("x", list_of("number"),
        "Chance distances at up to 200 evenly spaced ranks, ascending."),
    key("y", list_of("number"),
        "The ECDF at each `x`: (rank + 1) / `n_chance`."),
)

LOCALIZATION = section(
    common.LOCALIZATION_SIGMA,
    common.LOCALIZATION_KS,
    key("mean_within", "number",
        "Mean distance over the matched pairs; null when there are none. Absent in potato mode.",
        null=True, optional=True),
    key("mean_chance", "number",
        "Segments: the within-clip chance baseline, the mean distance of the pairs matched after every clip's "
        "segments are placed at random inside the clip (each keeps its length, its start uniform), pooled over "
        "`chance_placements` seeded placements; null when none matched. Absent in potato mode.",
        null=True, optional=True),
    key("n_within", "integer",
        "Matched pairs whose distances make up `mean_within`. Absent in potato mode.", optional=True),
    key("n_chance", "integer",
        "Segments: pairs matched in the chance placements, all placements together. Absent in potato mode.",
        optional=True),
    key("chance_placements", "integer",
        "Segments: K, the random placements of the chance baseline (`settings.placements`, or by default 20 at a "
        "time until `chance_se` is at most 0.0025, at most 1,000). Absent in potato mode.", optional=True),
    key("chance_se", "number",
        "Segments: standard error of `mean_chance` over the placements (each placement an independent replicate; "
        "ratio estimator); null with fewer than two placements. Absent in potato mode.", null=True, optional=True),
    key("assumption", "text",
        "Segments: how the clips' ends were found when durations are missing (each such clip ends at its last "
        "segment end over all annotators); null when every clip has a duration. Absent in potato mode.",
        null=True, optional=True),
    key("within_ecdf", common.WITHIN_ECDF,
        "ECDF of the within distances for the chart, at most 200 points. Absent in potato mode.", optional=True),
    key("chance_ecdf", LOCALIZATION_CHANCE_ECDF,
        "Segments: ECDF of the chance distances for the chart, at most 200 points. Absent in potato mode.",
        optional=True),
)

BOUNDARY_SWEEP = section(
    key("tolerance", "number",
        "Tolerance τ, seconds."),
    key("precision", "number",
        "`matched` / `n_a`; null when `n_a` is 0.", null=True),
    key("recall", "number",
        "`matched` / `n_b`; null when `n_b` is 0.", null=True),
    key("f1", "number",
        "2 × `matched` / (`n_a` + `n_b`); null when there is no boundary (see `reason`).", null=True),
    key("f1_ci", list_of("number"),
        "Percentile bootstrap interval of `f1` over items at `settings.ci_level`; null without bootstrap, with "
        "fewer than two items or too few defined resamples.", null=True),
    key("start_f1", "number",
        "F1 of starts alone: 2 × matched starts / (starts of a + starts of b).", null=True),
    key("end_f1", "number",
        "F1 of ends alone: 2 × matched ends / (ends of a + ends of b).", null=True),
    key("matched", "integer",
        "Matched boundaries (starts plus ends), summed over items and pairs."),
    key("n_a", "integer",
        "Boundaries of the pairs' first annotators (2 per segment), summed over items and pairs."),
    key("n_b", "integer",
        "Boundaries of the pairs' second annotators, summed the same way."),
    key("reason", "text",
        "Why `f1` is null (no scored item has a segment); null when it is defined.", null=True),
)

UNITIZING_ALPHA = common.unitizing_alpha(
    key("assumption", "text",
        "Segments: how the clips' ends were found when durations are missing (each such clip ends at its last "
        "segment end over all annotators); null when every clip has a duration.", null=True),
)

SHAPE = section(
    common.KIND,
    key("settings", SETTINGS,
        "The options the report was computed with, defaults filled in."),
    common.N_ITEMS,
    common.N_ITEMS_TOTAL,
    common.N_ANNOTATORS,
    key("n_segments", "integer",
        "Segments in the input, all items ('marked nothing' rows not counted)."),
    common.DETECTION,
    common.CLASSIFICATION,
    common.MEAN_MATCHED_IOU,
    common.DETECTION_F1,
    common.MEAN_AGREEMENT,
    common.MEAN_OBJECT_COUNT_DIFF,
    common.N_ITEM_PAIRS,
    common.N_MATCHED_PAIRS,
    key("pairs", list_of(PAIRS),
        "One row per annotator pair that shares a compared item."),
    key("annotators", list_of(ANNOTATORS),
        "One row per annotator (traces: the annotator names, sorted)."),
    key("labels", list_of(LABELS),
        "One row per label, sorted (spans: every label in the input; objects: labels of the objects on compared "
        "items, a missing label being '')."),
    key("items", list_of(ITEMS),
        "One row per item, most disagreement first (objects: lowest `detection_f1`, then most `n_label_mismatch`, then largest `mean_within`; "
        "spans: largest `disagreement_share`, items not scored last; masks: lowest mean `dice`). Objects and masks "
        "list compared items only."),
    key("localization", LOCALIZATION,
        "How close matched objects are, against chance: σ, KS and their ingredients. Boxes, polygons, cuboids: "
        "against objects of other items; segments: against the same clip's segments placed at random (potato mode: "
        "σ and KS only, both null)."),
    key("boundary_sweep", list_of(BOUNDARY_SWEEP),
        "Boundary precision, recall and F1 per tolerance, pooled (micro-averaged) over every item and annotator "
        "pair: sed_eval's onset/offset evaluation between annotators."),
    key("unitizing_alpha", UNITIZING_ALPHA,
        "Krippendorff's unitizing α_U = 1 − Σ D_o / Σ D_e over the labels (Krippendorff 2004): how far annotators "
        "agree on where units lie on the continuum and what they are, chance-corrected; the items laid end to end "
        "(gaps end at item boundaries, each item with its own annotators); interval: bootstrap over items; n: items "
        "with two or more annotators and a positive length. Spans: null without item lengths. Not character-level "
        "α."),
    key("reference", reference(localization=False),
        "Each annotator against the reference (options `reference` or `reference_rows`; docs/reference.md), segments "
        "matched by temporal IoU; no σ. Absent without a reference.", optional=True),
    common.WARNINGS,
)
