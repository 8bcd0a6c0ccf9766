"""The declared shape of a spans (character offsets of labelled text) report: every key with its type and meaning."""
from ...report_shape import estimate, key, list_of, map_of, section
from ... import shared_shapes as common
from ...reference.shape import SETTINGS_LOW_OVERLAP, SETTINGS_REFERENCE, reference

SETTINGS = section(
    common.SETTINGS_MATCH,
    common.SETTINGS_BOOTSTRAP,
    common.SETTINGS_SEED,
    key("lengths", "text",
        "Where item lengths came from: `texts`, `lengths` (both given) or `largest end` (none given: each item's "
        "largest span end)."),
    key("partial_rule", "text",
        "The rule by which two spans agree partially, in words."),
    common.SETTINGS_CI_LEVEL,
    key("threshold", "number",
        "With a reference: the character IoU at or above which a span matches a reference span; absent without one.",
        optional=True),
    SETTINGS_REFERENCE,
    SETTINGS_LOW_OVERLAP,
)

CHAR_ALPHA = estimate(
    key("name", "text",
        "Display name, `character-level α` (it is not Krippendorff's unitizing α_U, `unitizing_alpha`)."),
)

UNITIZING_ALPHA = common.unitizing_alpha()

DISAGREEMENT_TOTAL_SHARES = section(
    key("exact", "number",
        "Share of compared spans in exact matches.", null=True),
    key("label_only", "number",
        "Share of compared spans in label-only matches.", null=True),
    key("boundary_only", "number",
        "Share of compared spans in boundary-only matches.", null=True),
    key("both", "number",
        "Share of compared spans in matches differing in both.", null=True),
    key("missed_a", "number",
        "Share of compared spans that are `missed_a`.", null=True),
    key("missed_b", "number",
        "Share of compared spans that are `missed_b`.", null=True),
)

DISAGREEMENT_TOTAL = section(
    key("exact", "integer",
        "Matched span pairs equal in start, end and label."),
    key("label_only", "integer",
        "Matched span pairs with the same start and end but different labels."),
    key("boundary_only", "integer",
        "Matched span pairs with the same label, overlapping, different boundaries."),
    key("both", "integer",
        "Matched span pairs overlapping with different boundaries and different labels."),
    key("missed_a", "integer",
        "Spans of a pair's first annotator (`a`) left without a partner."),
    key("missed_b", "integer",
        "Spans of a pair's second annotator (`b`) left without a partner."),
    key("n_spans", "integer",
        "Spans compared: 2 × matched pairs + `missed_a` + `missed_b` (a span counts once per other annotator of its "
        "item)."),
    key("shares", DISAGREEMENT_TOTAL_SHARES,
        "Each outcome's share of `n_spans` (a matched pair counts its two spans); null when `n_spans` is 0."),
)

DISAGREEMENT_SPANS = section(
    key("exact", "integer",
        "Spans in exact matches: 2 × `disagreement.total.exact`."),
    key("label_only", "integer",
        "Spans in label-only matches: 2 × `disagreement.total.label_only`."),
    key("boundary_only", "integer",
        "Spans in boundary-only matches: 2 × `disagreement.total.boundary_only`."),
    key("both", "integer",
        "Spans in matches differing in both: 2 × `disagreement.total.both`."),
    key("missed", "integer",
        "Spans left without a partner, either side of a pair: `missed_a` + `missed_b`."),
    key("n_spans", "integer",
        "Spans compared, as `disagreement.total.n_spans`."),
)

DISAGREEMENT_PAIRS_SHARES = section(
    key("exact", "number",
        "As `disagreement.total.shares.exact`, for this pair.", null=True),
    key("label_only", "number",
        "As `disagreement.total.shares.label_only`, for this pair.", null=True),
    key("boundary_only", "number",
        "As `disagreement.total.shares.boundary_only`, for this pair.", null=True),
    key("both", "number",
        "As `disagreement.total.shares.both`, for this pair.", null=True),
    key("missed_a", "number",
        "As `disagreement.total.shares.missed_a`, for this pair.", null=True),
    key("missed_b", "number",
        "As `disagreement.total.shares.missed_b`, for this pair.", null=True),
)

DISAGREEMENT_PAIRS = section(
    key("a", "text",
        "The pair's first annotator (names sorted: `a` before `b`)."),
    key("b", "text",
        "The pair's second annotator."),
    key("n_items", "integer",
        "Scored items on which both are compared."),
    key("exact_f1", "number",
        "The pair's exact F1, averaged over those items."),
    key("partial_f1", "number",
        "The pair's partial F1, averaged over those items."),
    key("exact", "integer",
        "As `disagreement.total.exact`, for this pair."),
    key("label_only", "integer",
        "As `disagreement.total.label_only`, for this pair."),
    key("boundary_only", "integer",
        "As `disagreement.total.boundary_only`, for this pair."),
    key("both", "integer",
        "As `disagreement.total.both`, for this pair."),
    key("missed_a", "integer",
        "Spans of `a` left without a partner in `b`."),
    key("missed_b", "integer",
        "Spans of `b` left without a partner in `a`."),
    key("n_spans", "integer",
        "Spans the pair compared: 2 × matched pairs + `missed_a` + `missed_b`."),
    key("shares", DISAGREEMENT_PAIRS_SHARES,
        "Each outcome's share of the pair's `n_spans`; null when it is 0."),
)

DISAGREEMENT_LABELS_SHARES = section(
    key("exact", "number",
        "Share of the label's compared spans in exact matches.", null=True),
    key("label_only", "number",
        "Share in label-only matches.", null=True),
    key("boundary_only", "number",
        "Share in boundary-only matches.", null=True),
    key("both", "number",
        "Share in matches differing in both.", null=True),
    key("missed", "number",
        "Share left without a partner.", null=True),
)

DISAGREEMENT_LABELS = section(
    key("label", "text",
        "The label."),
    key("n_spans", "integer",
        "Compared spans with this label (once per other annotator of their item)."),
    key("exact", "integer",
        "Of those, spans in an exact match."),
    key("label_only", "integer",
        "Spans in a label-only match (same boundaries, the partner labelled otherwise)."),
    key("boundary_only", "integer",
        "Spans in a boundary-only match."),
    key("both", "integer",
        "Spans in a match differing in both boundaries and label."),
    key("missed", "integer",
        "Spans left without a partner."),
    key("shares", DISAGREEMENT_LABELS_SHARES,
        "Each count's share of the label's `n_spans`; null when it is 0."),
    key("confused_with", map_of("integer"),
        "Labels this one was matched with in label-only or both matches, most frequent first."),
)

DISAGREEMENT_REMEDIES = section(
    key("exact", "text",
        "For exact matches: nothing to fix."),
    key("label_only", "text",
        "For label-only matches: the label definitions."),
    key("boundary_only", "text",
        "For boundary-only matches: the boundary rules."),
    key("both", "text",
        "For matches differing in both: boundary rules and label definitions."),
    key("missed", "text",
        "For missed spans: what counts as an entity."),
)

DISAGREEMENT = section(
    key("total", DISAGREEMENT_TOTAL,
        "The table summed over every annotator pair on every scored item."),
    key("spans", DISAGREEMENT_SPANS,
        "The total table counted in spans, as `labels` counts them: the per-label rows sum to it."),
    key("pairs", list_of(DISAGREEMENT_PAIRS),
        "The table per annotator pair that shares a scored item; above 5,000 such pairs (`MAX_PAIR_ROWS`), only the "
        "5,000 that share the most items (ties in annotator order), with a warning."),
    key("pairs_shown", "integer",
        "Pairs listed in `disagreement.pairs` (at most 5,000)."),
    key("n_pairs_total", "integer",
        "Annotator pairs that share a scored item; every total, F1 and α counts all of them, listed or not."),
    key("labels", list_of(DISAGREEMENT_LABELS),
        "The table per label, counted in spans: a matched pair adds its outcome to the label of each of its two "
        "spans."),
    key("remedies", DISAGREEMENT_REMEDIES,
        "What each outcome suggests fixing in the guidelines, in words (fixed text)."),
    key("note", "text",
        "How the table counts spans, in words (fixed text)."),
)

LABELS = section(
    common.LABELS_LABEL,
    key("n_spans", "integer",
        "Spans with this label in the input."),
    key("n_annotators", "integer",
        "Annotators who used this label."),
    key("exact_f1", "number",
        "Exact F1 of the label pooled over every compared pair and item: 2 × exact matches with it / its compared "
        "spans; null when none was compared.", null=True),
    key("partial_f1", "number",
        "Partial F1 of the label, pooled the same way; null when none was compared.", null=True),
)

ITEMS_OUTCOMES = section(
    key("exact", "integer",
        "Exact matches on the item."),
    key("label_only", "integer",
        "Label-only matches on the item."),
    key("boundary_only", "integer",
        "Boundary-only matches on the item."),
    key("both", "integer",
        "Matches differing in both on the item."),
    key("missed_a", "integer",
        "Spans of a pair's first annotator left without a partner."),
    key("missed_b", "integer",
        "Spans of a pair's second annotator left without a partner."),
)

EXAMPLE_SPAN = section(
    key("start", "integer",
        "Start offset, characters (inclusive)."),
    key("end", "integer",
        "End offset, characters (exclusive)."),
    key("label", "text",
        "The span's label."),
    key("line", "integer",
        "Input line of the span's row."),
    key("text", "text",
        "The span's text; absent unless the items' texts are given (`lengths` as `item,text`).", optional=True),
)

ITEMS_EXAMPLES = section(
    key("a", "text",
        "The pair's first annotator."),
    key("b", "text",
        "The pair's second annotator."),
    key("outcome", "text",
        "`label_only`, `boundary_only`, `both`, `missed_a` (only `a` marked it) or `missed_b` (only `b` did)."),
    key("span_a", EXAMPLE_SPAN,
        "The span of `a`; null for `missed_b`.", null=True),
    key("span_b", EXAMPLE_SPAN,
        "The span of `b`; null for `missed_a`.", null=True),
    key("context", "text",
        "The item's text around the span(s), up to 30 characters either side, … where cut; null when no texts are "
        "given.", null=True),
)

ITEMS = section(
    common.ITEMS_ITEM,
    key("length", "integer",
        "Item length in characters (given, from its text, or its largest span end)."),
    key("scored", "boolean",
        "Whether the item was compared; an item not scored (a single annotator, or potato mode's rules) has only "
        "`item`, `length`, `reason`, `annotators`, `n_annotators`, `n_spans`."),
    common.ITEMS_ANNOTATORS,
    common.ITEMS_N_ANNOTATORS,
    key("n_spans", "integer",
        "Spans of the item's annotators on it."),
    key("exact_f1", "number",
        "Mean exact F1 over the item's annotator pairs. Absent on unscored items.", optional=True),
    key("partial_f1", "number",
        "Mean partial F1 over the item's annotator pairs. Absent on unscored items.", optional=True),
    key("char_alpha", estimate(),
        "Character-level α of the item; n: its characters (`length`); no interval. Undefined (null) with fewer than "
        "two characters or one label on every character. Absent on unscored items.", optional=True),
    key("disagreement_share", "number",
        "Share of the item's compared spans not in an exact match (0 when nothing was compared). Absent on unscored "
        "items.", optional=True),
    key("n_disagreements", "integer",
        "Disagreements on the item: matches that are not exact, plus missed spans. Absent on unscored items.",
        optional=True),
    key("n_unmatched", "integer",
        "Spans left without a partner, summed over the item's annotator pairs (`missed_a` + `missed_b`: a span counts "
        "once for each other annotator it has no partner in), as the item view counts them. Absent on unscored items.",
        optional=True),
    key("outcomes", ITEMS_OUTCOMES,
        "The five-way counts on the item, summed over its annotator pairs. Absent on unscored items.", optional=True),
    key("examples", list_of(ITEMS_EXAMPLES),
        "Up to 10 of the item's disagreements, pair by pair: inexact matches first, then spans only one of the two "
        "marked. Absent on unscored items.", optional=True),
    key("reason", "text",
        "Why an item is not scored (a single annotator; potato mode: fewer than two annotators with spans, or "
        "length 0); present on unscored items only, which carry no scores. Absent on unscored items.", optional=True),
)

SHAPE = section(
    common.KIND,
    key("settings", SETTINGS,
        "The options the report was computed with, defaults filled in."),
    common.N_ITEMS,
    key("n_items_scored", "integer",
        "Items compared: two or more annotators (potato mode: two with a span, and length > 0)."),
    common.N_ANNOTATORS,
    key("n_spans", "integer",
        "Spans in the input, all items."),
    key("exact_f1", estimate(),
        "Exact F1: per item, the mean over annotator pairs of 2 × TP / (spans of a + spans of b), TP the spans "
        "equal in start, end and label matched one-to-one (1 when both marked nothing); the mean over scored items; "
        "n: scored items where it is defined."),
    key("partial_f1", estimate(),
        "Partial F1: as `exact_f1`, spans agreeing when they have the same label and are equal or overlap by at "
        "least half of either (TP a maximum matching); n: scored items where defined."),
    key("char_alpha", CHAR_ALPHA,
        "Character-level α: per item, nominal Krippendorff's α with characters as units, valued by each annotator's "
        "covering span label (or O); the mean over scored items; n: items where it is defined. Undefined (null) "
        "when it is defined on no item."),
    key("unitizing_alpha", UNITIZING_ALPHA,
        "Krippendorff's unitizing α_U = 1 − Σ D_o / Σ D_e over the labels (Krippendorff 2004): how far annotators "
        "agree on where units lie on the continuum and what they are, chance-corrected; the items laid end to end "
        "(gaps end at item boundaries, each item with its own annotators); interval: bootstrap over items; n: items "
        "with two or more annotators and a positive length. Spans: null without item lengths. Not character-level "
        "α."),
    key("disagreement", DISAGREEMENT,
        "The five-way disagreement table: each annotator pair's spans matched one-to-one, preferring exact, then "
        "label only, then boundary only, then both; spans left over are missed."),
    key("labels", list_of(LABELS),
        "One row per label, sorted (spans: every label in the input; objects: labels of the objects on compared "
        "items, a missing label being '')."),
    key("items", list_of(ITEMS),
        "One row per item, most disagreement first (objects: lowest `detection_f1`, then most `n_label_mismatch`, then largest `mean_within`; "
        "spans: largest `disagreement_share`, items not scored last; masks: lowest mean `dice`). Objects and masks "
        "list compared items only."),
    key("reference", reference(key("outcomes", DISAGREEMENT_TOTAL,
                                    "The five-way table against the reference, the reference as `a`: `missed_a` "
                                    "are reference spans not marked (missing), `missed_b` spans the reference lacks "
                                    "(extra)."), localization=False),
        "Each annotator against the reference (options `reference` or `reference_rows`; docs/reference.md), spans "
        "matched by character IoU; no σ. Absent without a reference.", optional=True),
    common.WARNINGS,
)
