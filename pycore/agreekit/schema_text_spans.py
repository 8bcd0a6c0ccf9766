"""Meanings of the spans report keys (merged into :data:`agreekit.schema_text.DESCRIPTIONS`)."""

SPAN_DESCRIPTIONS = {
    # ------------------------------------------------------------------ spans
    "settings.lengths": "Where item lengths came from: `texts`, `lengths` (both given) or `largest end` (none "
                        "given: each item's largest span end).",
    "settings.partial_rule": "The rule by which two spans agree partially, in words.",
    "n_items_scored": "Items compared: two or more annotators (potato mode: two with a span, and length > 0).",
    "n_spans": "Spans in the input, all items.",
    "exact_f1": "Exact F1: per item, the mean over annotator pairs of 2 × TP / (spans of a + spans of b), TP "
                "the spans equal in start, end and label matched one-to-one (1 when both marked nothing); "
                "the mean over scored items; n: scored items where it is defined.",
    "partial_f1": "Partial F1: as `exact_f1`, spans agreeing when they have the same label and are equal or "
                  "overlap by at least half of either (TP a maximum matching); n: scored items where defined.",
    "char_alpha": "Character-level α: per item, nominal Krippendorff's α with characters as units, valued by "
                  "each annotator's covering span label (or O); the mean over scored items; n: items where "
                  "it is defined. Undefined (null) when it is defined on no item.",
    "char_alpha.name": "Display name, `character-level α` (it is not Krippendorff's unitizing α_U, "
                       "`unitizing_alpha`).",
    "disagreement": "The five-way disagreement table: each annotator pair's spans matched one-to-one, "
                    "preferring exact, then label only, then boundary only, then both; spans left over are missed.",
    "disagreement.total": "The table summed over every annotator pair on every scored item.",
    "disagreement.total.exact": "Matched span pairs equal in start, end and label.",
    "disagreement.total.label_only": "Matched span pairs with the same start and end but different labels.",
    "disagreement.total.boundary_only": "Matched span pairs with the same label, overlapping, different boundaries.",
    "disagreement.total.both": "Matched span pairs overlapping with different boundaries and different labels.",
    "disagreement.total.missed_a": "Spans of a pair's first annotator (`a`) left without a partner.",
    "disagreement.total.missed_b": "Spans of a pair's second annotator (`b`) left without a partner.",
    "disagreement.total.n_spans": "Spans compared: 2 × matched pairs + `missed_a` + `missed_b` (a span counts "
                                  "once per other annotator of its item).",
    "disagreement.total.shares": "Each outcome's share of `n_spans` (a matched pair counts its two spans); null "
                                 "when `n_spans` is 0.",
    "disagreement.total.shares.exact": "Share of compared spans in exact matches.",
    "disagreement.total.shares.label_only": "Share of compared spans in label-only matches.",
    "disagreement.total.shares.boundary_only": "Share of compared spans in boundary-only matches.",
    "disagreement.total.shares.both": "Share of compared spans in matches differing in both.",
    "disagreement.total.shares.missed_a": "Share of compared spans that are `missed_a`.",
    "disagreement.total.shares.missed_b": "Share of compared spans that are `missed_b`.",
    "disagreement.pairs": "The table per annotator pair that shares a scored item; above 5,000 such pairs "
                          "(`MAX_PAIR_ROWS`), only the 5,000 that share the most items (ties in annotator "
                          "order), with a warning.",
    "disagreement.pairs_shown": "Pairs listed in `disagreement.pairs` (at most 5,000).",
    "disagreement.n_pairs_total": "Annotator pairs that share a scored item; every total, F1 and α counts all "
                                  "of them, listed or not.",
    "disagreement.pairs[].a": "The pair's first annotator (names sorted: `a` before `b`).",
    "disagreement.pairs[].b": "The pair's second annotator.",
    "disagreement.pairs[].n_items": "Scored items on which both are compared.",
    "disagreement.pairs[].exact_f1": "The pair's exact F1, averaged over those items.",
    "disagreement.pairs[].partial_f1": "The pair's partial F1, averaged over those items.",
    "disagreement.pairs[].exact": "As `disagreement.total.exact`, for this pair.",
    "disagreement.pairs[].label_only": "As `disagreement.total.label_only`, for this pair.",
    "disagreement.pairs[].boundary_only": "As `disagreement.total.boundary_only`, for this pair.",
    "disagreement.pairs[].both": "As `disagreement.total.both`, for this pair.",
    "disagreement.pairs[].missed_a": "Spans of `a` left without a partner in `b`.",
    "disagreement.pairs[].missed_b": "Spans of `b` left without a partner in `a`.",
    "disagreement.pairs[].n_spans": "Spans the pair compared: 2 × matched pairs + `missed_a` + `missed_b`.",
    "disagreement.pairs[].shares": "Each outcome's share of the pair's `n_spans`; null when it is 0.",
    "disagreement.pairs[].shares.exact": "As `disagreement.total.shares.exact`, for this pair.",
    "disagreement.pairs[].shares.label_only": "As `disagreement.total.shares.label_only`, for this pair.",
    "disagreement.pairs[].shares.boundary_only": "As `disagreement.total.shares.boundary_only`, for this pair.",
    "disagreement.pairs[].shares.both": "As `disagreement.total.shares.both`, for this pair.",
    "disagreement.pairs[].shares.missed_a": "As `disagreement.total.shares.missed_a`, for this pair.",
    "disagreement.pairs[].shares.missed_b": "As `disagreement.total.shares.missed_b`, for this pair.",
    "disagreement.labels": "The table per label, counted in spans: a matched pair adds its outcome to the label "
                           "of each of its two spans.",
    "disagreement.labels[].label": "The label.",
    "disagreement.labels[].n_spans": "Compared spans with this label (once per other annotator of their item).",
    "disagreement.labels[].exact": "Of those, spans in an exact match.",
    "disagreement.labels[].label_only": "Spans in a label-only match (same boundaries, the partner labelled "
                                        "otherwise).",
    "disagreement.labels[].boundary_only": "Spans in a boundary-only match.",
    "disagreement.labels[].both": "Spans in a match differing in both boundaries and label.",
    "disagreement.labels[].missed": "Spans left without a partner.",
    "disagreement.labels[].shares": "Each count's share of the label's `n_spans`; null when it is 0.",
    "disagreement.labels[].shares.exact": "Share of the label's compared spans in exact matches.",
    "disagreement.labels[].shares.label_only": "Share in label-only matches.",
    "disagreement.labels[].shares.boundary_only": "Share in boundary-only matches.",
    "disagreement.labels[].shares.both": "Share in matches differing in both.",
    "disagreement.labels[].shares.missed": "Share left without a partner.",
    "disagreement.labels[].confused_with": "Labels this one was matched with in label-only or both matches, "
                                           "most frequent first.",
    "disagreement.labels[].confused_with{name}": "Matched pairs (label only or both) joining this label and that one.",
    "disagreement.remedies": "What each outcome suggests fixing in the guidelines, in words (fixed text).",
    "disagreement.remedies.exact": "For exact matches: nothing to fix.",
    "disagreement.remedies.label_only": "For label-only matches: the label definitions.",
    "disagreement.remedies.boundary_only": "For boundary-only matches: the boundary rules.",
    "disagreement.remedies.both": "For matches differing in both: boundary rules and label definitions.",
    "disagreement.remedies.missed": "For missed spans: what counts as an entity.",
    "disagreement.note": "How the table counts spans, in words (fixed text).",
    "labels[].n_spans": "Spans with this label in the input.",
    "labels[].n_annotators": "Annotators who used this label.",
    "labels[].exact_f1": "Exact F1 of the label pooled over every compared pair and item: 2 × exact matches "
                         "with it / its compared spans; null when none was compared.",
    "labels[].partial_f1": "Partial F1 of the label, pooled the same way; null when none was compared.",
    "items[].length": "Item length in characters (given, from its text, or its largest span end).",
    "items[].scored": "Whether the item was compared; an item not scored (a single annotator, or potato mode's "
                      "rules) has only `item`, `length`, `reason`, `annotators`, `n_annotators`, `n_spans`.",
    "items[].n_spans": "Spans of the item's annotators on it.",
    "items[].exact_f1": "Mean exact F1 over the item's annotator pairs.",
    "items[].partial_f1": "Mean partial F1 over the item's annotator pairs.",
    "items[].char_alpha": "Character-level α of the item; n: its characters (`length`); no interval. Undefined "
                          "(null) with fewer than two characters or one label on every character.",
    "items[].disagreement_share": "Share of the item's compared spans not in an exact match (0 when nothing "
                                  "was compared).",
    "items[].n_disagreements": "Disagreements on the item: matches that are not exact, plus missed spans.",
    "items[].outcomes": "The five-way counts on the item, summed over its annotator pairs.",
    "items[].outcomes.exact": "Exact matches on the item.",
    "items[].outcomes.label_only": "Label-only matches on the item.",
    "items[].outcomes.boundary_only": "Boundary-only matches on the item.",
    "items[].outcomes.both": "Matches differing in both on the item.",
    "items[].outcomes.missed_a": "Spans of a pair's first annotator left without a partner.",
    "items[].outcomes.missed_b": "Spans of a pair's second annotator left without a partner.",
    "items[].examples": "Up to 10 of the item's disagreements, pair by pair: inexact matches first, then spans "
                        "only one of the two marked.",
    "items[].examples[].a": "The pair's first annotator.",
    "items[].examples[].b": "The pair's second annotator.",
    "items[].examples[].outcome": "`label_only`, `boundary_only`, `both`, `missed_a` (only `a` marked it) or "
                                  "`missed_b` (only `b` did).",
    "items[].examples[].span_a": "The span of `a`; null for `missed_b`.",
    "items[].examples[].span_a.start": "Start offset, characters (inclusive).",
    "items[].examples[].span_a.end": "End offset, characters (exclusive).",
    "items[].examples[].span_a.label": "The span's label.",
    "items[].examples[].span_a.line": "Input line of the span's row.",
    "items[].examples[].span_a.text": "The span's text (only when texts are given).",
    "items[].examples[].span_b": "The span of `b`; null for `missed_a`.",
    "items[].examples[].span_b.start": "Start offset, characters (inclusive).",
    "items[].examples[].span_b.end": "End offset, characters (exclusive).",
    "items[].examples[].span_b.label": "The span's label.",
    "items[].examples[].span_b.line": "Input line of the span's row.",
    "items[].examples[].span_b.text": "The span's text (only when texts are given).",
    "items[].examples[].context": "The item's text around the span(s), up to 30 characters either side, … where "
                                  "cut; null when no texts are given.",
}
