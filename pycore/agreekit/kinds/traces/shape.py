"""The declared shape of a traces (labelled steps of runs) report: every key with its type and meaning."""
from ...report_shape import estimate, key, list_of, map_of, section
from ... import shared_shapes as common
from ...reference.shape import SETTINGS_REFERENCE, reference

SETTINGS = section(
    key("level", "text",
        "Level of measurement for α: `nominal` or `ordinal` (κ and percent agreement compare labels for equality at "
        "either level)."),
    key("order", list_of("text"),
        "Ordinal labels from lowest to highest, when given; null: labels are text (nominal) or ordered as numbers.",
        null=True),
    common.SETTINGS_BOOTSTRAP,
    common.SETTINGS_SEED,
    common.SETTINGS_CI_LEVEL,
    key("top_units", "integer",
        "Most disputed units listed in `units`, at most."),
    SETTINGS_REFERENCE,
)

ALPHA = estimate(
    key("level", "text",
        "The metric of α: `nominal` or `ordinal`."),
)

COHEN_KAPPA_PAIRS = section(
    key("a", "text",
        "The pair's first annotator (names sorted: `a` before `b`)."),
    key("b", "text",
        "The pair's second annotator."),
    key("kappa", estimate(),
        "Cohen's κ = (p_o − p_e) / (1 − p_e), p_e from each annotator's own label shares on the shared units; n: "
        "shared units; no interval. Undefined (null) when both gave one and the same label on all of them."),
    key("percent_agreement", "number",
        "p_o: the share of shared units on which the two gave the same label."),
    key("n_units", "integer",
        "Units both annotators labelled."),
)

COHEN_KAPPA = section(
    key("pairs", list_of(COHEN_KAPPA_PAIRS),
        "One row per annotator pair that shares a labelled unit; above 5,000 such pairs (`MAX_PAIR_ROWS`), only the "
        "5,000 that share the most units (ties in annotator order), with a warning."),
    key("pairs_shown", "integer",
        "Pairs listed in `cohen_kappa.pairs` (at most 5,000)."),
    key("n_pairs_total", "integer",
        "Annotator pairs that share a labelled unit; the mean κ and its interval count all of them, listed or not."),
    key("mean", estimate(),
        "Mean κ over the pairs where it is defined; n: those pairs; interval over traces. Undefined (null) when κ "
        "is defined for no pair."),
    key("n_pairs_without_shared_units", "integer",
        "Annotator pairs with no labelled unit in common (not in `pairs`)."),
)

FLEISS_KAPPA = estimate(
    key("annotators_per_unit", "integer",
        "Labels per unit, the same on every unit; null when units differ.", null=True),
)

STEPS = section(
    key("step", "integer",
        "The step position."),
    key("alpha", estimate(),
        "α over the units at this step; n: those with two or more labels; interval over traces."),
    key("percent_agreement", "number",
        "Mean P_u over those units; null when none has two labels.", null=True),
    key("n_units", "integer",
        "Traces that have a label at this step."),
    key("n_labels", "integer",
        "Labels given at this step."),
)

TRACES = section(
    key("trace", "text",
        "Trace name."),
    key("alpha", estimate(),
        "α over the trace's units; n: those with two or more labels; no interval."),
    key("percent_agreement", "number",
        "Mean P_u over the trace's units with two or more labels; null when none.", null=True),
    key("n_steps", "integer",
        "Labelled steps (units) of the trace."),
    key("n_annotators", "integer",
        "Annotators who labelled at least one of its steps."),
    key("n_disputed_steps", "integer",
        "Its units with two or more labels that are not all equal (P_u < 1)."),
)

UNITS = section(
    key("trace", "text",
        "The unit's trace."),
    key("step", "integer",
        "The unit's step."),
    key("percent_agreement", "number",
        "P_u of the unit."),
    key("labels", map_of(("text", "number")),
        "Each annotator's label on the unit, by annotator name (a number when the labels are numbers)."),
)

SHAPE = section(
    common.KIND,
    key("settings", SETTINGS,
        "The options the report was computed with, defaults filled in."),
    key("n_traces", "integer",
        "Traces in the input."),
    key("n_steps", "integer",
        "Distinct step positions over all traces."),
    key("n_units", "integer",
        "Units: (trace, step) pairs with at least one label."),
    key("n_labels", "integer",
        "Labels given (one per annotator per unit labelled)."),
    common.N_ANNOTATORS,
    key("annotators", list_of("text"),
        "One row per annotator (traces: the annotator names, sorted)."),
    key("categories", list_of(("text", "number")),
        "The distinct labels, sorted (ordinal: lowest first); numbers when the labels are numbers and no `order` is "
        "given."),
    key("alpha", ALPHA,
        "Krippendorff's α over all units, metric `alpha.level`; n: units with two or more labels; interval over "
        "traces. Undefined (null) when nothing is pairable or every pairable label is equal."),
    key("cohen_kappa", COHEN_KAPPA,
        "Cohen's κ of every annotator pair over the units both labelled, and its mean over pairs."),
    key("fleiss_kappa", FLEISS_KAPPA,
        "Fleiss' κ = (P̄ − P̄_e) / (1 − P̄_e) over all units; n: units; interval over traces. Undefined (null) "
        "unless every unit has the same number (≥ 2) of labels, or when all labels are in one category."),
    key("percent_agreement", estimate(),
        "Mean over units with two or more labels of P_u, the share of agreeing ordered label pairs within the unit, "
        "in [0, 1]; n: those units; interval over traces."),
    key("steps", list_of(STEPS),
        "One row per step position s (step s of every trace)."),
    key("traces", list_of(TRACES),
        "One row per trace, lowest percent agreement first (traces with nothing comparable last)."),
    key("units", list_of(UNITS),
        "The most disputed units (P_u < 1), lowest P_u first, at most `settings.top_units`."),
    key("n_disputed_units", "integer",
        "Units with two or more labels that are not all equal (all of them, not only those listed)."),
    key("reference", reference(localization=False),
        "Each annotator against the reference (options `reference` or `reference_rows`; docs/reference.md), step by "
        "step: items are traces, a label matches the reference's on the same step. Absent without a reference.",
        optional=True),
    common.WARNINGS,
)
