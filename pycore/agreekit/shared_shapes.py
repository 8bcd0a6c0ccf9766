"""Keys and sections shared by several kinds' reports, and the object kinds' report."""
from .reference.shape import SETTINGS_LOW_OVERLAP, SETTINGS_REFERENCE, reference
from .report_shape import estimate, key, list_of, map_of, section

ANNOTATORS_ANNOTATOR = key("annotator", "text",
    "Annotator name.")

ANNOTATORS_DETECTION_F1 = key("detection_f1", "number",
    "`detection_f1` over the annotator's comparisons.", null=True)

ANNOTATORS_MEAN_AGREEMENT = key("mean_agreement", "number",
    "`mean_agreement` over the annotator's comparisons.", null=True)

ANNOTATORS_MEAN_MATCHED_IOU = key("mean_matched_iou", "number",
    "Mean similarity of the annotator's matched pairs; null when none.", null=True)

ANNOTATORS_N_ITEMS = key("n_items", "integer",
    "Compared items the annotator has a row for (a 'nothing marked' row counts).")

ANNOTATORS_N_ITEM_PAIRS = key("n_item_pairs", "integer",
    "Comparisons (item, annotator pair) the annotator takes part in.")

ANNOTATORS_N_MATCHED = key("n_matched", "integer",
    "Matched pairs with one of the annotator's objects.")

ANNOTATORS_N_OBJECTS = key("n_objects", "integer",
    "Objects the annotator drew on compared items.")

CLASSIFICATION = key("classification", estimate(),
    "Classification α: nominal Krippendorff's α of the labels in clusters found by two or more annotators; n: those "
    "clusters. Undefined (null) when there are none or all their labels are equal (potato: also with under 2 such "
    "clusters or annotators).")

DETECTION = key("detection", estimate(),
    "Detection α: nominal Krippendorff's α of present/absent, each annotator of the item in each cluster of matched "
    "objects (one who drew nothing is absent); n: clusters. Undefined (null) when nothing is pairable or all values "
    "are equal (potato: also with under 2 clusters or annotators).")

DETECTION_F1 = key("detection_f1", "number",
    "Mean over (item, annotator pair) of 2 × matches / (objects of a + objects of b); 1 for a pair who both drew "
    "nothing.", null=True)

ITEMS_ANNOTATORS = key("annotators", list_of("text"),
    "The item's annotators, sorted (spans: those compared on it; masks: the order of the per-annotator lists "
    "`sensitivity`, `specificity`, `dice`, `majority_dice`, `annotator_rle`).")

ITEMS_DETECTION_F1 = key("detection_f1", "number",
    "Mean detection F1 over the item's annotator pairs.")

ITEMS_ITEM = key("item", "text",
    "Item name.")

ITEMS_N_ANNOTATORS = key("n_annotators", "integer",
    "Annotators with a row for the item, an empty one included (spans in potato mode: on a scored item, only those "
    "with a span).")

ITEMS_N_UNMATCHED = key("n_unmatched", "integer",
    "Objects left unmatched, summed over the item's annotator pairs (an object counts once for each pair it is "
    "unmatched in).")

ITEMS_OBJECTS_PER_ANNOTATOR = key("objects_per_annotator", map_of("integer"),
    "Objects each annotator drew on the item, by annotator name.")

KIND = key("kind", "text",
    "The kind of annotation: `boxes`, `spans`, `segments`, `polygons`, `masks`, `cuboids`, `traces` or `labels`.")

LABELS_LABEL = key("label", "text",
    "The label.")

LABELS_MEAN_MATCHED_IOU = key("mean_matched_iou", "number",
    "Mean similarity of those matched pairs; null when none.", null=True)

LABELS_N_LABEL_MISMATCH = key("n_label_mismatch", "integer",
    "Of those, the pairs whose other object has a different label.")

LABELS_N_MATCHED = key("n_matched", "integer",
    "Matched pairs in which either object has this label.")

LABELS_N_OBJECTS = key("n_objects", "integer",
    "Objects with this label.")

LOCALIZATION_KS = key("ks", estimate(),
    "Two-sample Kolmogorov–Smirnov D, the largest gap between the ECDFs of the within and the chance distances "
    "(between-item; segments: of the placements), in [0, 1]; n: matched pairs; no interval. Undefined (null) when σ "
    "is.")

LOCALIZATION_SIGMA = key("sigma", estimate(),
    "σ = 1 − `mean_within` / the chance mean (`mean_between`; segments: `mean_chance`): 1 when matched objects "
    "coincide, 0 when they are no closer than chance; n: matched pairs. Undefined (null) with no matched pair, no "
    "chance pair (fewer than two compared items; segments: no match in any placement) or a chance mean of 0; "
    "segments in potato mode (Potato has no segment σ), with n null.")

MEAN_AGREEMENT = key("mean_agreement", "number",
    "Potato's agreement, averaged over (item, annotator pair): the summed similarity of the matches (halved where "
    "labels differ) / (matches + unmatched objects); 1 when both drew nothing, 0 when one did.", null=True)

MEAN_MATCHED_IOU = key("mean_matched_iou", "number",
    "Mean similarity (IoU; IoU₃D for cuboids, temporal IoU for segments) over all matched pairs; null when nothing "
    "matched.", null=True)

MEAN_OBJECT_COUNT_DIFF = key("mean_object_count_diff", "number",
    "Mean over (item, annotator pair) of the absolute difference of the two annotators' object counts.", null=True)

N_ANNOTATORS = key("n_annotators", "integer",
    "Distinct annotators in the input.")

N_ITEMS = key("n_items", "integer",
    "Compared items, those with at least two annotators; spans instead counts every item with a row (compared: "
    "`n_items_scored`).")

N_ITEMS_TOTAL = key("n_items_total", "integer",
    "Items with at least one row, compared or not.")

N_ITEM_PAIRS = key("n_item_pairs", "integer",
    "Comparisons: (item, annotator pair) for every pair of annotators on every compared item.")

N_MATCHED_PAIRS = key("n_matched_pairs", "integer",
    "Matched pairs of objects (boxes, polygons, cuboids or segments), over all comparisons.")

PAIRS_A = key("a", "text",
    "The pair's first annotator (names sorted: `a` before `b`).")

PAIRS_B = key("b", "text",
    "The pair's second annotator.")

PAIRS_DETECTION_F1 = key("detection_f1", "number",
    "`detection_f1` over the pair's items.")

PAIRS_MEAN_AGREEMENT = key("mean_agreement", "number",
    "`mean_agreement` over the pair's items.")

PAIRS_MEAN_MATCHED_IOU = key("mean_matched_iou", "number",
    "Mean similarity of the pair's matched objects; null when none matched.", null=True)

PAIRS_N_ITEM_PAIRS = key("n_item_pairs", "integer",
    "Compared items both annotators have a row for.")

PAIRS_N_MATCHED = key("n_matched", "integer",
    "Objects of `a` matched to objects of `b` over those items.")

SETTINGS_BOOTSTRAP = key("bootstrap", "integer",
    "Bootstrap resamples for the intervals, resampling items (traces: whole traces); 0 = no intervals.")

SETTINGS_CI_LEVEL = key("ci_level", "number",
    "Level of every interval in the report (0.95).")

SETTINGS_DISTANCE = key("distance", "text",
    "Distance of σ and KS, in [0, 1]: `giou` = (1 − GIoU)/2, `iou` = 1 − IoU (cuboids: IoU₃D, the only one; "
    "segments: temporal, of the two), `centroid` = min(1, centre distance / √2).")

SETTINGS_MATCH = key("match", "text",
    "How two annotators' annotations are paired: `optimal` (maximum matching, independent of row order) or `potato` "
    "(reproduces Potato 2.8's matching and rules).")

SETTINGS_SEED = key("seed", "integer",
    "Seed of the bootstrap (and of a sampled chance baseline in boxes, polygons and cuboids, and of the chance "
    "placements of segments).")

SETTINGS_THRESHOLD = key("threshold", "number",
    "Similarity at or above which two objects of two annotators can match: IoU (boxes, polygons), IoU₃D (cuboids) "
    "or temporal IoU (segments).")

WARNINGS = key("warnings", list_of("text"),
    "Notes, in words, on suspicious but accepted input and on what was left out.")

WITHIN_ECDF = section(
    key("x", list_of("number"),
        "Within distances at up to 200 evenly spaced ranks, ascending."),
    key("y", list_of("number"),
        "The ECDF at each `x`: (rank + 1) / `n_within`."),
)

OBJECT_SETTINGS = section(
    SETTINGS_THRESHOLD,
    SETTINGS_DISTANCE,
    SETTINGS_MATCH,
    SETTINGS_BOOTSTRAP,
    SETTINGS_SEED,
    key("pair_budget", "integer",
        "Largest number of between-item pairs the chance baseline computes exactly; above it, a seeded sample of at "
        "most 2,000,000 pairs."),
    key("significance_level", "number",
        "Level of σ_B (`localization.significance_share`): the quantile of the between-item distances a within "
        "distance must fall below (default 0.05)."),
    SETTINGS_REFERENCE,
    SETTINGS_LOW_OVERLAP,
    SETTINGS_CI_LEVEL,
)

OBJECT_LOCALIZATION_BETWEEN_ECDF = section(
    key("x", list_of("number"),
        "The distinct within distances and the bin edges 0.005, 0.01, …, 1, ascending."),
    key("y", list_of("number"),
        "Share of between distances at or below each `x` (at a bin edge: below it; 1 at 1)."),
)

OBJECT_LOCALIZATION = section(
    LOCALIZATION_SIGMA,
    LOCALIZATION_KS,
    key("sigma_cross", estimate(),
        "σ against the cross-annotator baseline: 1 − `mean_within` / `mean_between_cross`; n: matched pairs. Unlike "
        "the pooled σ, an annotator consistent with itself (the same box on every image) does not lower its own "
        "baseline. Undefined (null) as for σ; no interval above 2,000 items (a warning)."),
    key("ks_cross", estimate(),
        "KS D of the within distances against the cross-annotator between distances; n: matched pairs; no interval. "
        "Undefined (null) when `sigma_cross` is."),
    key("significance_share", estimate(),
        "σ_B of Braylan, Alonso & Lease (2022): the share of matched pairs whose distance is below the "
        "`significance_level` quantile (inverse ECDF) of the pooled between distances, i.e. 1 − mean(d_within ≥ q); "
        "exact (no quantile is estimated: F_between is read at each within distance). Its interval resamples items "
        "with the quantile held fixed; n: matched pairs."),
    key("significance_level", "number",
        "The level of `significance_share` (`settings.significance_level`)."),
    key("mean_within", "number",
        "Mean distance over the matched pairs; null when there are none.", null=True),
    key("mean_between", "number",
        "Chance baseline: mean distance over unordered pairs of objects on different compared items, matched or not "
        "(a seeded sample when `between_exact` is false); null when there are no such pairs.", null=True),
    key("mean_between_cross", "number",
        "Cross-annotator baseline: mean distance over unordered pairs of objects drawn by different annotators on "
        "different compared items (of the sample when `between_exact` is false); null when there are none.",
        null=True),
    key("n_within", "integer",
        "Matched pairs whose distances make up `mean_within`."),
    key("n_between", "integer",
        "Between-item pairs in `mean_between`: all of them, or the sample's size."),
    key("n_between_cross", "integer",
        "Between-item pairs by different annotators in `mean_between_cross`."),
    key("n_between_possible", "integer",
        "All unordered pairs of objects on different compared items."),
    key("between_exact", "boolean",
        "True when `mean_between` is over every between-item pair, false when over a seeded sample (more pairs than "
        "`settings.pair_budget`)."),
    key("between_se", "number",
        "Standard error of `mean_between` when it is a sample; null when exact.", null=True),
    key("baseline_interval", "text",
        'How the σ interval\'s between-item term was computed: "exact", or a sentence naming the estimate (sampled '
        "item pairs) and its size."),
    key("baseline_interval_se", "number",
        "Standard error of a resampled between mean caused by that estimate (split-half); null when exact.",
        null=True),
    key("within_ecdf", WITHIN_ECDF,
        "ECDF of the within distances for the chart, at most 200 points."),
    key("between_ecdf", OBJECT_LOCALIZATION_BETWEEN_ECDF,
        "ECDF of the between distances for the chart: exact at every within distance, elsewhere at the edges of 200 "
        "equal bins of [0, 1]."),
)

OBJECT_PAIRS = section(
    PAIRS_A,
    PAIRS_B,
    PAIRS_N_ITEM_PAIRS,
    PAIRS_N_MATCHED,
    PAIRS_DETECTION_F1,
    PAIRS_MEAN_AGREEMENT,
    PAIRS_MEAN_MATCHED_IOU,
    key("mean_within", "number",
        "Mean distance of the pair's matched objects; null when none matched.", null=True),
    key("sigma", estimate(key("ci_reason", "text",
                              "Why `ci` is null (no bootstrap, too few defined resamples, σ undefined, or the "
                              "pair's baseline item-pair sums not kept: above 50 annotators, 1,024 (annotator, "
                              "item) groups or 2,000 items, or a sampled baseline); null when it is not.",
                              null=True)),
        "σ of the pair: 1 − its `mean_within` / its own baseline (`mean_between_cross`); n: its matched pairs. "
        "`ci`: the percentile interval over the report's resamples of items (the same counts as its other "
        "intervals), each resample reweighting the pair's within sums and its baseline's item-pair sums. "
        "Undefined (null) with no matched pair or no baseline."),
    key("mean_between_cross", "number",
        "The pair's chance baseline: mean distance of `a`'s objects on one item to `b`'s on another (above 1,000 "
        "annotators: the corpus `localization.mean_between_cross`, with a warning).", null=True),
)

OBJECT_ANNOTATORS = section(
    ANNOTATORS_ANNOTATOR,
    ANNOTATORS_N_ITEMS,
    ANNOTATORS_N_OBJECTS,
    ANNOTATORS_N_ITEM_PAIRS,
    ANNOTATORS_N_MATCHED,
    ANNOTATORS_DETECTION_F1,
    ANNOTATORS_MEAN_AGREEMENT,
    ANNOTATORS_MEAN_MATCHED_IOU,
    key("mean_within", "number",
        "Mean distance of the annotator's matched pairs; null when none.", null=True),
    key("sigma", estimate(),
        "σ of the annotator: 1 − the `mean_within` of its matched pairs / its baseline (`mean_between_cross`; "
        "segments: `mean_chance`); n: those pairs; no interval. Undefined (null) as for `pairs[].sigma`."),
    key("mean_between_cross", "number",
        "The annotator's chance baseline: mean distance of its objects to every other annotator's objects on other "
        "items.", null=True),
)

OBJECT_LABELS = section(
    LABELS_LABEL,
    LABELS_N_OBJECTS,
    LABELS_N_MATCHED,
    LABELS_N_LABEL_MISMATCH,
    LABELS_MEAN_MATCHED_IOU,
    key("mean_within", "number",
        "Mean distance of those matched pairs; null when none.", null=True),
    key("sigma", estimate(),
        "σ of the label: 1 − the `mean_within` of those pairs / the corpus `localization.mean_between`; n: those "
        "pairs; no interval. Undefined (null) as for `pairs[].sigma`."),
)

ITEMS_PROBLEMS = (  # what is wrong on an item of matched objects (breakdowns.item_problems)
    key("n_missed", "integer",
        "Objects missed: for each cluster of matched objects drawn by at least half of the item's annotators, the "
        "annotators who did not draw it."),
    key("n_extra", "integer",
        "Extra objects: those of clusters drawn by fewer than half of the item's annotators."),
    key("n_shifted", "integer",
        "Matched pairs matched only just: similarity in the lower half of the matched range [threshold, 1], or a "
        "distance of at least `localization.mean_between` (no closer than chance), when the report has it."),
    key("n_label_mismatch", "integer",
        "Matched pairs whose labels differ."),
)

OBJECT_ITEMS = section(
    ITEMS_ITEM,
    ITEMS_N_ANNOTATORS,
    ITEMS_OBJECTS_PER_ANNOTATOR,
    ITEMS_N_UNMATCHED,
    ITEMS_DETECTION_F1,
    *ITEMS_PROBLEMS,
    key("mean_within", "number",
        "Mean distance of the item's matched pairs; null when none.", null=True),
)


PER_LABEL_ALPHA = estimate(
    key("label", "text",
        "The label of this α_c."),
    key("n_units", "integer",
        "The label's units."),
    key("observed_disagreement", "number",
        "D_o of the label."),
    key("expected_disagreement", "number",
        "D_e of the label; α_c is null when it is 0.", null=True),
)


def unitizing_alpha(*extra):
    """Krippendorff's α_U as spans and segments report it, with the kind's ``extra`` keys."""
    return estimate(
        key("name", "text",
            "Display name, `α_U`."),
        key("continuum", "text",
            "What the continuum is made of: `characters` (spans: positions of size 1, Krippendorff's discrete "
            "formulas) or `seconds` (segments: a continuous continuum, so the value does not depend on the unit of "
            "time)."),
        key("length", "number",
            "Length of the continuum: the items' lengths summed (characters or seconds); null when α_U is not "
            "computed.", null=True),
        key("n_units", "integer",
            "Units compared: spans or segments clipped to their item, of positive length, an annotator's "
            "overlapping units of one label merged."),
        key("observed_disagreement", "number",
            "Σ D_o over the labels (each D_o as in `per_label`); null when α_U is not computed.", null=True),
        key("expected_disagreement", "number",
            "Σ D_e over the labels; null when α_U is not computed.", null=True),
        key("per_label", list_of(PER_LABEL_ALPHA),
            "One estimate per label, sorted: α_c = 1 − D_o / D_e of that label, with its interval, `label`, `n` "
            "(items, as above), `n_units` (its units), `observed_disagreement` (D_o) and `expected_disagreement` "
            "(D_e); value null when D_e is 0."),
        *extra,
    )


def object_report(count):
    """The report of an object kind (boxes, polygons, cuboids): ``count`` is its ``n_<objects>`` key."""
    return section(
        KIND,
        key("settings", OBJECT_SETTINGS,
            "The options the report was computed with, defaults filled in."),
        N_ITEMS,
        N_ITEMS_TOTAL,
        N_ANNOTATORS,
        count,
        key("localization", OBJECT_LOCALIZATION,
            "How close matched objects are, against chance: σ, KS and their ingredients. Boxes, polygons, cuboids: "
            "against objects of other items; segments: against the same clip's segments placed at random (potato "
            "mode: σ and KS only, both null)."),
        DETECTION,
        CLASSIFICATION,
        MEAN_MATCHED_IOU,
        DETECTION_F1,
        MEAN_AGREEMENT,
        MEAN_OBJECT_COUNT_DIFF,
        N_ITEM_PAIRS,
        N_MATCHED_PAIRS,
        key("pairs", list_of(OBJECT_PAIRS),
            "One row per annotator pair that shares a compared item."),
        key("annotators", list_of(OBJECT_ANNOTATORS),
            "One row per annotator (traces: the annotator names, sorted)."),
        key("labels", list_of(OBJECT_LABELS),
            "One row per label, sorted (spans: every label in the input; objects: labels of the objects on compared "
            "items, a missing label being '')."),
        key("items", list_of(OBJECT_ITEMS),
            "One row per item, most disagreement first (objects: lowest `detection_f1`, then most `n_label_mismatch`, then largest `mean_within`; "
            "spans: largest `disagreement_share`, items not scored last; masks: lowest mean `dice`). Objects and "
            "masks list compared items only."),
        key("reference", reference(),
            "Each annotator against the reference (options `reference` or `reference_rows`; docs/reference.md); "
            "absent without one.", optional=True),
        WARNINGS,
    )
