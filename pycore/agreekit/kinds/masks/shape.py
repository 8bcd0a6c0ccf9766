"""The declared shape of a masks (run-length-encoded pixel masks) report: every key with its type and meaning."""
from ...report_shape import estimate, key, list_of, section
from ... import shared_shapes as common
from ...reference.shape import SETTINGS_LOW_OVERLAP, SETTINGS_REFERENCE, reference

SETTINGS = section(
    key("label", "text",
        "Only masks with this label count, others as nothing marked; null: every mask counts.", null=True),
    key("max_iter", "integer",
        "STAPLE's iteration limit."),
    key("tol", "number",
        "STAPLE stops when no annotator's sensitivity or specificity moves by more than this."),
    key("start", "text",
        "STAPLE's start: `votes` (vote shares, then an M-step, as SimpleITK), `rates` (every rate 0.9999) or "
        "`potato` (Potato 2.8's whole variant)."),
    key("rle_order", "text",
        "Pixel order of every run-length encoding: column-major, as COCO."),
    key("prior", "text",
        "STAPLE's prior: fixed at the mean of all votes, not re-estimated."),
    key("threshold", "number",
        "With a reference: the mask IoU at or above which a mask matches the reference's; absent without one.",
        optional=True),
    SETTINGS_REFERENCE,
    SETTINGS_LOW_OVERLAP,
)

ANNOTATORS = section(
    common.ANNOTATORS_ANNOTATOR,
    common.ANNOTATORS_N_ITEMS,
    key("sensitivity", estimate(),
        "Mean STAPLE sensitivity over the annotator's items; n: items where it is defined (the consensus has "
        "foreground); null when there are none."),
    key("specificity", estimate(),
        "Mean STAPLE specificity over the annotator's items; n: items where it is defined (the consensus has "
        "background); null when there are none."),
    key("dice", estimate(),
        "Mean Dice against the STAPLE consensus over the annotator's items; n: those items."),
    key("majority_dice", estimate(),
        "Mean Dice against the majority vote over the annotator's items; n: those items."),
    key("mean_iou", estimate(),
        "Mean mask IoU with each other annotator on shared items, two empty masks skipped; n: those (item, other "
        "annotator) IoUs; null when there are none."),
)

PAIRS = section(
    common.PAIRS_A,
    common.PAIRS_B,
    key("n_items", "integer",
        "Compared items both annotators have a row for."),
    key("mean_iou", estimate(),
        "Mean mask IoU of the pair over those items, two empty masks skipped; n: items where it is defined. "
        "Undefined (null) when both are empty on every one."),
)

ITEMS = section(
    common.ITEMS_ITEM,
    key("width", "integer",
        "Mask width, pixels."),
    key("height", "integer",
        "Mask height, pixels."),
    common.ITEMS_ANNOTATORS,
    key("sensitivity", list_of("number", null=True),
        "Each annotator's STAPLE sensitivity p (true-positive rate); null where the consensus has no foreground."),
    key("specificity", list_of("number", null=True),
        "Each annotator's STAPLE specificity q (true-negative rate); null where the consensus has no background."),
    key("dice", list_of("number"),
        "Each annotator's Dice against the STAPLE consensus."),
    key("majority_dice", list_of("number"),
        "Each annotator's Dice against the majority vote."),
    key("mean_pairwise_iou", "number",
        "Mean mask IoU over the item's annotator pairs, two empty masks skipped; null when every mask is empty.",
        null=True),
    key("consensus_area", "integer",
        "Pixels in the STAPLE consensus (posterior W ≥ 0.5)."),
    key("majority_area", "integer",
        "Pixels marked by more than half of the annotators."),
    key("consensus_majority_dice", "number",
        "Dice between the STAPLE consensus and the majority vote."),
    key("consensus_rle", list_of("integer"),
        "The STAPLE consensus as COCO run lengths (column-major, background first)."),
    key("majority_rle", list_of("integer"),
        "The majority vote as COCO run lengths."),
    key("annotator_rle", list_of(list_of("integer")),
        "Each annotator's mask (several united) as COCO run lengths, one list per annotator."),
    key("prior", "number",
        "STAPLE's prior π: the share of foreground over all annotators' pixels, clamped to [1e-10, 1 − 1e-10]."),
    key("iterations", "integer",
        "EM iterations STAPLE ran."),
    key("converged", "boolean",
        "Whether STAPLE converged within `settings.max_iter` iterations (potato start: 50)."),
)

SHAPE = section(
    common.KIND,
    key("settings", SETTINGS,
        "The options the report was computed with, defaults filled in."),
    common.N_ITEMS,
    common.N_ITEMS_TOTAL,
    common.N_ANNOTATORS,
    key("n_masks", "integer",
        "Mask rows read (a blank `rle`, 'nothing marked', counts)."),
    key("mean_pairwise_iou", estimate(),
        "Mean mask IoU over every annotator pair on every compared item, pairs of two empty masks skipped; n: those "
        "(item, pair) IoUs. Undefined (null) when there are none."),
    key("mean_dice", estimate(),
        "Mean Dice of each annotator's mask against the STAPLE consensus (1 when both are empty); n: (item, "
        "annotator) pairs."),
    key("mean_majority_dice", estimate(),
        "Mean Dice of each annotator's mask against the majority vote (pixels marked by more than half of the "
        "annotators); n: (item, annotator) pairs."),
    key("consensus_majority_dice", estimate(),
        "Mean over items of the Dice between STAPLE consensus and majority vote; n: compared items."),
    key("annotators", list_of(ANNOTATORS),
        "One row per annotator (traces: the annotator names, sorted)."),
    key("pairs", list_of(PAIRS),
        "One row per annotator pair that shares a compared item."),
    key("items", list_of(ITEMS),
        "One row per item, most disagreement first (objects: lowest `detection_f1`, then most `n_label_mismatch`, then largest `mean_within`; "
        "spans: largest `disagreement_share`, items not scored last; masks: lowest mean `dice`). Objects and masks "
        "list compared items only."),
    key("reference", reference(localization=False),
        "Each annotator against the reference (options `reference` or `reference_rows`; docs/reference.md): per "
        "item its masks united, matched to the reference's by mask IoU; 1000 bootstrap resamples over items; no σ. "
        "Absent without a reference.", optional=True),
    common.WARNINGS,
)
