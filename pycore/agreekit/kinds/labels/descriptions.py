"""Meanings of the labels report's own keys, for ``docs/report.md`` (keys shared with other kinds are
described once in :mod:`agreekit.schema_text`).  No entry may contain a pipe character."""

_EST = "interval: bootstrap over items"

DESCRIPTIONS = {
    "input": "How the input was read.",
    "input.layout": "`long` (one row per judgement: item, annotator, label) or `matrix` (one row per item, one "
                    "column per annotator), detected from the first lines (docs/labels.md).",
    "input.reading": "The reading in words: which columns were items and annotators.",
    "n_ratings": "Judgements (ratings) read: one per item and annotator that rated it.",
    "coefficients": "Every coefficient over all items, one estimate each; one that does not apply at "
                    "`settings.level` is null with its reason.",
    "coefficients.alpha": f"Krippendorff's α at `settings.level` (set: with the MASI distance), missing ratings "
                          f"allowed; n: items with two or more ratings; {_EST}.",
    "coefficients.alpha.metric": "The difference function of α: `nominal`, `ordinal`, `interval`, `ratio` or `masi`.",
    "coefficients.alpha_jaccard": f"Level set: Krippendorff's α with the Jaccard distance; {_EST}.",
    "coefficients.alpha_jaccard.metric": "`jaccard`.",
    "coefficients.percent_agreement": "p_a: the mean over items with two or more ratings of the share of "
                                      f"agreeing ordered rating pairs within the item; {_EST}.",
    "coefficients.gwet_ac1": f"Gwet's AC1 (irrCAC's definition, missing ratings allowed); {_EST}.",
    "coefficients.gwet_ac2_linear": "Gwet's AC2 with linear weights (ordinal, interval, ratio).",
    "coefficients.gwet_ac2_linear.weights": "`linear`.",
    "coefficients.gwet_ac2_quadratic": "Gwet's AC2 with quadratic weights (ordinal, interval, ratio).",
    "coefficients.gwet_ac2_quadratic.weights": "`quadratic`.",
    "coefficients.brennan_prediger": f"Brennan–Prediger: chance agreement 1/q over the q categories; {_EST}.",
    "coefficients.conger_kappa": f"Conger's κ (multi-rater Cohen's κ, irrCAC's definition); {_EST}.",
    "coefficients.cohen_kappa": f"Mean of Cohen's κ over the annotator pairs where it is defined; n: those pairs; "
                                f"{_EST}.",
    "coefficients.cohen_kappa.weights": "`identity`, `linear` or `quadratic`.",
    "coefficients.cohen_kappa_linear": "Mean linearly weighted κ over pairs (ordinal, interval, ratio).",
    "coefficients.cohen_kappa_linear.weights": "`linear`.",
    "coefficients.cohen_kappa_quadratic": "Mean quadratically weighted κ over pairs (ordinal, interval, ratio).",
    "coefficients.cohen_kappa_quadratic.weights": "`quadratic`.",
    "coefficients.fleiss_kappa": f"Fleiss' κ over the items every annotator rated; n: those items; {_EST}.",
    "coefficients.fleiss_kappa.n_items_left_out": "Items left out because not every annotator rated them.",
    "coefficients.fleiss_kappa.left_out": "How many items were left out and why, in words; null when none.",
    "coefficients.scott_pi": "Scott's π of the two annotators (null with more or fewer); n: shared items.",
    "coefficients.icc_2_1": "ICC(2,1), absolute agreement of single ratings (interval, ratio), over the items "
                            f"every annotator rated; {_EST}.",
    "coefficients.icc_2_1.f_ci": "McGraw & Wong's F-based 95% interval, or null.",
    "coefficients.icc_2_1.n_items_left_out": "Items left out because not every annotator rated them.",
    "coefficients.icc_2_1.left_out": "How many items were left out and why; null when none.",
    "coefficients.icc_3_1": "ICC(3,1), consistency of single ratings (interval, ratio), over the items every "
                            f"annotator rated; {_EST}.",
    "coefficients.icc_3_1.f_ci": "McGraw & Wong's F-based 95% interval, or null.",
    "coefficients.icc_3_1.n_items_left_out": "Items left out because not every annotator rated them.",
    "coefficients.icc_3_1.left_out": "How many items were left out and why; null when none.",
    "kappa_paradox": "One sentence when percent agreement is at least 0.8 and Conger's κ at least 0.3 below it "
                     "because one label dominates (Feinstein & Cicchetti 1990); null otherwise.",
    "prevalence": "One row per category, in `categories` order.",
    "prevalence[].label": "The category.",
    "prevalence[].n": "Ratings in this category.",
    "prevalence[].share": "Its share of all ratings.",
    "prevalence[].per_annotator": "Ratings in this category by each annotator, in `annotators` order.",
    "pairs[].percent_agreement": f"Share of the shared items given the same category; {_EST}.",
    "pairs[].cohen_kappa": f"Cohen's κ over the shared items; {_EST}.",
    "pairs[].cohen_kappa_linear": "Linearly weighted κ (ordinal, interval, ratio).",
    "pairs[].cohen_kappa_quadratic": "Quadratically weighted κ (ordinal, interval, ratio).",
    "pairs[].scott_pi": f"Scott's π over the shared items; {_EST}.",
    "pairs[].confusion": "Confusion table: row = a's category, column = b's, in `categories` order; null above 30 "
                         "categories.",
    "n_pairs_without_shared_items": "Annotator pairs with no item in common (not in `pairs`).",
    "annotators[].n_pairs": "Pairs with another annotator that share an item.",
    "annotators[].cohen_kappa": f"Mean Cohen's κ with the others, over its pairs where defined; {_EST}.",
    "annotators[].percent_agreement": f"Share of its shared items on which it agrees with each other "
                                      f"annotator, pooled over its pairs; {_EST}.",
    "items[].percent_agreement": "Share of agreeing ordered rating pairs on the item.",
    "items[].n_ratings": "Ratings of the item.",
    "items[].ratings": "Each annotator's label of the item.",
    "items[].ratings[].annotator": "Annotator name.",
    "items[].ratings[].label": "The label (category) given.",
    "n_disputed_items": "Items with two or more ratings that are not all equal (all of them, not only those listed).",
}
