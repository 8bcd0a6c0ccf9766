"""The declared shape of a report's ``reference`` section (:mod:`.scores`) and of its settings."""
from __future__ import annotations

from ..report_shape import estimate, key, list_of, section

CONFLICTS = section(
    key("missing", "integer", "Reference objects no drawn object matched, at the threshold or at `low_overlap`."),
    key("extra", "integer", "Drawn objects that matched no reference object, at the threshold or at `low_overlap`."),
    key("low_overlap", "integer",
        "Pairs of a leftover drawn and reference object with similarity at least `low_overlap` but below the "
        "threshold (matched one-to-one after the matches)."),
    key("wrong_label", "integer", "Matched pairs whose labels differ."),
)

SETTINGS_REFERENCE = key("reference", "text",
    "With a reference: the reference annotator's name, `rows` (gold rows) or `per annotator` (each annotator its "
    "own, e.g. a leave-one-out consensus); absent without one.", optional=True)
SETTINGS_LOW_OVERLAP = key("low_overlap", "number",
    "With a reference: the similarity from which a leftover pair is a low-overlap conflict; absent without one.",
    optional=True)


COMMON_SCORES = (
    key("n_drawn", "integer", "Objects drawn on the scored items (items the reference has a row for)."),
    key("n_reference", "integer", "Reference objects on those items (once per annotator compared)."),
    key("n_matched", "integer", "One-to-one matches at the threshold."),
    key("precision", estimate(), "Matched / drawn, pooled over the scored items; n: drawn objects."),
    key("recall", estimate(), "Matched / reference objects, pooled over the scored items; n: reference objects."),
    key("f1", estimate(), "2 × matched / (drawn + reference objects); n: drawn + reference objects."),
    key("mean_matched_iou", estimate(),
        "Mean similarity of the matched pairs (the kind's: IoU, IoU₃D, temporal or span IoU); n: matches."),
    key("kappa", estimate(),
        "Cohen's κ of (reference label, drawn label) over the matched pairs; n: matches. Undefined (null) without "
        "matches or when chance agreement is 1. Intervals while items × labels² (in total; per annotator, summed "
        "over annotators) is at most 4,194,304."),
    key("conflicts", CONFLICTS, "Conflict counts, as CVAT's quality report names them."),
)

SIGMA_SCORES = (
    key("sigma", estimate(),
        "σ against the reference: 1 − `mean_within` / `mean_between_cross`; 0 for an annotator no closer to the "
        "reference on its own item than on others (a fixed box); n: matches; per annotator, an interval while "
        "Σ (its items)² over annotators is at most 4,194,304."),
    key("mean_within", "number", "Mean distance of the matched pairs; null when none.", null=True),
    key("mean_between_cross", "number",
        "Cross baseline: mean distance of the annotator's objects on one scored item to the reference's on another; "
        "null when there are no such pairs.", null=True),
)


def scores(*extra, localization=True):
    """The scores of one annotator (or all pooled) against the reference, with a kind's ``extra`` keys
    (``localization=False``: a kind without σ against the reference)."""
    return (*COMMON_SCORES, *(SIGMA_SCORES if localization else ()), *extra)


def reference(*extra, localization=True):
    """The ``reference`` section; ``extra``: a kind's own keys of each scores row (e.g. spans' outcomes);
    ``localization=False``: without σ."""
    return section(
        key("source", "text", "`annotator` (an annotator of the rows), `rows` (gold rows) or `per annotator`."),
        key("annotator", "text", "The reference annotator's name (source `annotator`), else null.", null=True),
        key("threshold", "number", "Similarity at or above which a drawn and a reference object match."),
        key("low_overlap", "number", "Similarity from which a leftover pair is a low-overlap conflict."),
        key("n_annotators", "integer", "Annotators scored against the reference (the reference annotator not counted)."),
        key("n_items", "integer", "Items with at least one annotator scored against the reference."),
        key("n_comparisons", "integer", "Scored (item, annotator) comparisons."),
        key("n_items_without_reference", "integer",
            "Items with an annotator's rows but no row of its reference: not scored (a warning names them)."),
        key("n_reference_items_unused", "integer",
            "Items of the reference no scored annotator has a row for: not scored (a warning names them)."),
        key("total", section(*scores(*extra, localization=localization)),
            "The scores pooled over every scored annotator, with intervals."),
        key("annotators", list_of(section(
            key("annotator", "text", "Annotator name."),
            key("n_items", "integer", "Items scored for the annotator."),
            key("n_items_without_reference", "integer", "The annotator's items without a reference row."),
            *scores(*extra, localization=localization),
            key("reliability", "number",
                "With `reference=\"consensus\"` only: the annotator's gold-free reliability, `agreekit.annotator_ranking` "
                "(recall against the others' consensus, re-weighted by reliability for one round; see "
                "docs/consensus.md); null when it saw no item with another annotator.", null=True, optional=True))),
            "One row per annotator scored, by name; intervals over items."),
        key("confusion", section(
            key("labels", list_of("text"), "Labels, sorted: the rows (reference) and columns (drawn) of `counts`."),
            key("counts", list_of(list_of("integer")), "Matched pairs by reference label (row) and drawn label.")),
            "Label confusion of the matched pairs, all annotators pooled."),
        key("labels", list_of(section(
            key("label", "text", "The label."),
            key("n_reference", "integer", "Reference objects with it (once per annotator compared)."),
            key("n_drawn", "integer", "Drawn objects with it."),
            key("recall", estimate(), "Share of its reference objects matched; n: `n_reference`."),
            key("precision", estimate(), "Share of its drawn objects matched; n: `n_drawn`."),
            key("mean_matched_iou", "number", "Mean similarity of matches of its reference objects.", null=True),
            key("conflicts", CONFLICTS,
                "Conflicts by label: missing and low overlap by the reference's label, extra by the drawn label, "
                "wrong label by the reference's label."))), "One row per label."),
        key("items", list_of(section(
            key("item", "text", "Item name."),
            key("n_annotators", "integer", "Annotators scored on it."),
            key("n_drawn", "integer", "Objects they drew."),
            key("n_reference", "integer", "Reference objects, once per annotator compared."),
            key("n_matched", "integer", "Matches."),
            key("precision", "number", "Matched / drawn.", null=True),
            key("recall", "number", "Matched / reference objects.", null=True),
            key("f1", "number", "2 × matched / (drawn + reference objects).", null=True),
            key("conflicts", CONFLICTS, "The item's conflicts, over its annotators."),
            key("n_conflicts", "integer", "Their sum."),
            key("annotator_conflicts", list_of(section(
                key("annotator", "text", "Annotator name."), *CONFLICTS.keys)),
                "The annotators with a conflict on the item, by name, and their conflicts (the adjudication "
                "list's source)."))),
            "One row per scored item, most conflicts first (then lowest recall, then name)."),
    )
