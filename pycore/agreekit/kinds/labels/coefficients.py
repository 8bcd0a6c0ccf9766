"""The whole-data coefficients of a :class:`~agreekit.kinds.labels.scale.Ratings`, each an estimate.

Every coefficient is computed over the distinct rows of ratings under their draws
(:class:`~agreekit.kinds.labels.patterns.DrawnRows`): row 0 counts every item once (the value), the
other rows are bootstrap resamples of the items (the percentile interval).  Which coefficient
applies at which level, and why one is undefined, is said in its ``reason``.
"""
from __future__ import annotations

import numpy as np

from ...measures import multirater as mr
from ...measures.alpha_draws import alpha_under_draws
from ...measures.bootstrap import percentile_ci
from ...measures.category_weights import agreement_weights
from ...measures.icc import (f_interval_absolute, f_interval_consistency, icc_absolute, icc_consistency,
                             mean_squares)
from ...measures.set_distance import distance_matrix
from ...results import estimate

ORDERED = ("ordinal", "interval", "ratio")


def drawn(values, n, reason=None, **counts):
    """An estimate from ``values`` (R + 1,): the value, then the resamples' percentile interval."""
    values = np.asarray(values, dtype=float)
    ci = percentile_ci(values[1:]) if len(values) > 2 else None
    return estimate(values[0], ci, reason=reason, n=n, **counts)


def undefined(reason, n=0, **counts):
    """An estimate that does not apply or cannot be computed, with its ``reason``."""
    return estimate(None, reason=reason, n=n, **counts)


def why_undefined(ratings, counts):
    """The common reason a chance-corrected coefficient is undefined on these ratings."""
    if len(ratings.annotators) < 2:
        return "fewer than two annotators"
    if not np.any(counts.sum(axis=1) >= 2):
        return "no item has two or more ratings"
    if np.count_nonzero(counts.sum(axis=0)) < 2:
        return "every rating is the same category, so chance agreement is 1"
    return "chance agreement is 1"


def alpha_section(ratings, level, grouped, pairable, reason):
    """Krippendorff's α at ``level`` (set: MASI distance) and, for sets, with the Jaccard distance.

    ``grouped``: the :class:`~agreekit.kinds.labels.patterns.DrawnRows` of ``ratings``.
    """
    counts, draws = grouped.counts, grouped.draws
    if level == "set":
        masi = alpha_under_draws(counts, draws, distance=distance_matrix(ratings.sets, "masi"))
        jaccard = alpha_under_draws(counts, draws, distance=distance_matrix(ratings.sets, "jaccard"))
        return {"alpha": drawn(masi, pairable, reason, metric="masi"),
                "alpha_jaccard": drawn(jaccard, pairable, reason, metric="jaccard")}
    values = alpha_under_draws(counts, draws, level, scores=ratings.scores)
    return {"alpha": drawn(values, pairable, reason, metric=level),
            "alpha_jaccard": undefined("only for level set", metric="jaccard")}


def multirater_section(ratings, level, grouped, pairable, reason):
    """Percent agreement, Gwet's AC1/AC2, Conger's κ and Brennan–Prediger over all items (``grouped``:
    their :class:`~agreekit.kinds.labels.patterns.DrawnRows`)."""
    counts, draws = grouped.counts, grouped.draws
    identity = mr.drawn_terms(mr.item_terms(counts), draws)
    out = {"percent_agreement": drawn(mr.percent_agreement(identity), pairable, "no item has two or more ratings"),
           "gwet_ac1": drawn(mr.gwet_ac(identity), pairable, reason),
           "brennan_prediger": drawn(mr.brennan_prediger(identity), pairable, reason)}
    classified = mr.rater_classifications(grouped.codes, len(ratings.categories), draws)
    out["conger_kappa"] = drawn(mr.conger_kappa(identity, classified), pairable, reason)
    for weights in ("linear", "quadratic"):
        key = f"gwet_ac2_{weights}"
        if level in ORDERED:
            terms = mr.item_terms(counts, agreement_weights(ratings.scores, weights))
            out[key] = drawn(mr.gwet_ac(mr.drawn_terms(terms, draws)), pairable, reason, weights=weights)
        else:
            out[key] = undefined("only for ordinal, interval and ratio levels", weights=weights)
    return out


def complete_rows(grouped):
    """Indices of the rows of :class:`~agreekit.kinds.labels.patterns.DrawnRows` every annotator rated."""
    return np.flatnonzero((grouped.codes >= 0).all(axis=1))


def _left_out(ratings, n_complete):
    left = len(ratings.items) - n_complete
    return left, (f"{left} of {len(ratings.items)} items left out: not rated by all "
                  f"{len(ratings.annotators)} annotators" if left else None)


def fleiss_section(ratings, grouped, reason):
    """Fleiss' κ over the items every annotator rated, with how many were left out and why."""
    complete = complete_rows(grouped)
    n_complete = grouped.items(complete)
    left, note = _left_out(ratings, n_complete)
    if len(ratings.annotators) < 2 or n_complete == 0:
        return undefined(reason if len(ratings.annotators) < 2 else "no item is rated by every annotator",
                         n_items_left_out=left, left_out=note)
    counts = grouped.counts[complete]
    values = mr.fleiss_kappa(mr.drawn_terms(mr.item_terms(counts), grouped.draws[:, complete]))
    return drawn(values, n_complete, why_undefined(ratings, counts), n_items_left_out=left, left_out=note)


def icc_section(ratings, level, grouped):
    """ICC(2,1) and ICC(3,1) over the items every annotator rated (interval and ratio levels)."""
    complete = complete_rows(grouped)
    n_complete = grouped.items(complete)
    left, note = _left_out(ratings, n_complete)
    keys = ("icc_2_1", "icc_3_1")
    if level not in ("interval", "ratio"):
        return {key: undefined("only for interval and ratio levels", f_ci=None, n_items_left_out=left,
                               left_out=note) for key in keys}
    if len(ratings.annotators) < 2 or n_complete < 2:
        reason = "fewer than two annotators" if len(ratings.annotators) < 2 else \
            "fewer than two items are rated by every annotator"
        return {key: undefined(reason, f_ci=None, n_items_left_out=left, left_out=note) for key in keys}
    values = ratings.scores[grouped.codes[complete]]
    ms = mean_squares(values, grouped.draws[:, complete])  # row 0, the data, gives the F intervals
    reason = "no variance between or within items"
    return {"icc_2_1": drawn(icc_absolute(ms), n_complete, reason, f_ci=f_interval_absolute(ms),
                             n_items_left_out=left, left_out=note),
            "icc_3_1": drawn(icc_consistency(ms), n_complete, reason, f_ci=f_interval_consistency(ms),
                             n_items_left_out=left, left_out=note)}
