"""The declared shape of a labels report: every key with its type and meaning."""
from ...report_shape import estimate, key, list_of, section
from ... import shared_shapes as common
from ...reference.shape import SETTINGS_REFERENCE, reference

EST = "interval: bootstrap over items"
ORDERED_ONLY = "(ordinal, interval, ratio; else null with its reason)"

SETTINGS = section(
    key("level", "text", "Level of measurement: `nominal`, `ordinal`, `interval`, `ratio` or `set`."),
    key("order", list_of("text"), "Ordinal labels from lowest to highest, when given at level ordinal; null "
        "otherwise.", null=True),
    common.SETTINGS_BOOTSTRAP,
    common.SETTINGS_SEED,
    common.SETTINGS_CI_LEVEL,
    SETTINGS_REFERENCE,
)

INPUT = section(
    key("layout", "text", "`long` (one row per judgement) or `matrix` (one row per item, one column per "
        "annotator), detected from the first lines (docs/labels.md)."),
    key("reading", "text", "The reading in words: which columns were items and annotators."),
)

WEIGHTS = key("weights", "text", "The agreement weights: `identity`, `linear` or `quadratic`.")
LEFT_OUT = (key("n_items_left_out", "integer", "Items left out because not every annotator rated them."),
            key("left_out", "text", "How many items were left out and why, in words; null when none.", null=True))
ICC = estimate(key("f_ci", list_of("number"), "McGraw & Wong's F-based 95% interval, or null.", null=True),
               *LEFT_OUT)

COEFFICIENTS = section(
    key("alpha", estimate(key("metric", "text", "The difference function: `nominal`, `ordinal`, `interval`, "
                                                "`ratio` or (level set) `masi`.")),
        f"Krippendorff's α at `settings.level` (set: MASI distance), missing ratings allowed; n: items with two or "
        f"more ratings; {EST}."),
    key("alpha_jaccard", estimate(key("metric", "text", "`jaccard`.")),
        f"Level set: Krippendorff's α with the Jaccard distance; {EST}; null at other levels."),
    key("percent_agreement", estimate(), "p_a: mean over items with two or more ratings of the share of agreeing "
        f"ordered rating pairs within the item; {EST}."),
    key("gwet_ac1", estimate(), f"Gwet's AC1 (irrCAC's definition, missing ratings allowed); {EST}."),
    key("brennan_prediger", estimate(), f"Brennan–Prediger: chance agreement 1/q over the q categories; {EST}."),
    key("conger_kappa", estimate(), f"Conger's κ (each annotator's own label shares, irrCAC's definition); {EST}."),
    key("gwet_ac2_linear", estimate(WEIGHTS), f"Gwet's AC2 with linear weights {ORDERED_ONLY}."),
    key("gwet_ac2_quadratic", estimate(WEIGHTS), f"Gwet's AC2 with quadratic weights {ORDERED_ONLY}."),
    key("cohen_kappa", estimate(WEIGHTS), "Mean of Cohen's κ over the annotator pairs where it is defined; n: "
        f"those pairs; {EST}."),
    key("cohen_kappa_linear", estimate(WEIGHTS), f"Mean linearly weighted κ over pairs {ORDERED_ONLY}."),
    key("cohen_kappa_quadratic", estimate(WEIGHTS), f"Mean quadratically weighted κ over pairs {ORDERED_ONLY}."),
    key("fleiss_kappa", estimate(*LEFT_OUT), f"Fleiss' κ over the items every annotator rated; n: those items; {EST}."),
    key("scott_pi", estimate(), "Scott's π of the two annotators over their shared items (null with more or "
        f"fewer annotators); {EST}."),
    key("icc_2_1", ICC, "ICC(2,1), absolute agreement of single ratings, over the items every annotator rated "
        f"(interval, ratio; else null); {EST}."),
    key("icc_3_1", ICC, "ICC(3,1), consistency of single ratings, over the items every annotator rated "
        f"(interval, ratio; else null); {EST}."),
)

PREVALENCE = section(
    key("label", "text", "The category."),
    key("n", "integer", "Ratings in this category."),
    key("share", "number", "Its share of all ratings."),
    key("per_annotator", list_of("integer"), "Ratings in this category by each annotator, in `annotators` order."),
)

PAIRS = section(
    common.PAIRS_A,
    common.PAIRS_B,
    key("n_items", "integer", "Items both annotators rated."),
    key("percent_agreement", estimate(), f"Share of the shared items given the same category; {EST}."),
    key("cohen_kappa", estimate(), f"Cohen's κ over the shared items; {EST}."),
    key("cohen_kappa_linear", estimate(), f"Linearly weighted κ {ORDERED_ONLY}."),
    key("cohen_kappa_quadratic", estimate(), f"Quadratically weighted κ {ORDERED_ONLY}."),
    key("scott_pi", estimate(), f"Scott's π over the shared items; {EST}."),
    key("confusion", list_of(list_of("integer")), "Confusion table: row = a's category, column = b's, in "
        "`categories` order; null above 30 categories.", null=True),
)

ANNOTATORS = section(
    common.ANNOTATORS_ANNOTATOR,
    key("n_items", "integer", "Compared items (two or more ratings) the annotator rated."),
    key("n_pairs", "integer", "Pairs with another annotator that share an item."),
    key("cohen_kappa", estimate(), f"Mean Cohen's κ with the others, over its pairs where defined; {EST}."),
    key("percent_agreement", estimate(), "Share of its shared items on which it agrees with each other "
        f"annotator, pooled over its pairs; {EST}."),
)

RATINGS = section(
    key("annotator", "text", "Annotator name."),
    key("label", "text", "The label (category) given."),
)

ITEMS = section(
    key("item", "text", "Item name."),
    key("percent_agreement", "number", "Share of agreeing ordered rating pairs on the item."),
    key("n_ratings", "integer", "Ratings of the item."),
    key("ratings", list_of(RATINGS), "Each annotator's label of the item."),
)

SHAPE = section(
    common.KIND,
    key("settings", SETTINGS, "The options the report was computed with, defaults filled in."),
    key("input", INPUT, "How the input was read."),
    key("n_items", "integer", "Compared items: those with two or more ratings."),
    common.N_ITEMS_TOTAL,
    common.N_ANNOTATORS,
    key("n_ratings", "integer", "Judgements read: one per item and annotator that rated it."),
    key("categories", list_of("text"), "The categories in scale order (nominal: sorted; ordinal with an `order`: "
        "every label of it; set: the distinct label sets, labels joined by a vertical bar)."),
    key("coefficients", COEFFICIENTS, "Every coefficient over all items, one estimate each; one that does not "
        "apply at `settings.level` is null with its reason."),
    key("kappa_paradox", "text", "One sentence when percent agreement is at least 0.8 and Conger's κ at least 0.3 "
        "below it because one label dominates (Feinstein & Cicchetti 1990); null otherwise.", null=True),
    key("prevalence", list_of(PREVALENCE), "One row per category, in `categories` order."),
    key("pairs", list_of(PAIRS), "One row per annotator pair that shares an item (names sorted)."),
    key("n_pairs_without_shared_items", "integer", "Annotator pairs with no item in common (not in `pairs`)."),
    key("annotators", list_of(ANNOTATORS), "One row per annotator, names sorted."),
    key("items", list_of(ITEMS), "The 20 most disputed items (agreement below 1), lowest `percent_agreement` "
        "first, ties by item name."),
    key("n_disputed_items", "integer", "Items with two or more ratings that are not all equal (all of them)."),
    key("reference", reference(localization=False),
        "Each annotator against the reference (options `reference` or `reference_rows`; docs/reference.md): a "
        "judgement is paired with the reference's judgement of the item (similarity 1, no low overlap), so the "
        "scores are κ, the confusion and the wrong labels. Absent without a reference.", optional=True),
    common.WARNINGS,
)
