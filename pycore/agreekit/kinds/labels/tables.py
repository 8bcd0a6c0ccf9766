"""The descriptive parts of the labels report: the prevalence table, the kappa-paradox sentence and
the items carrying the most disagreement."""
from __future__ import annotations

import numpy as np

from ...arrays import safe_ratio

TOP_ITEMS = 20          # disputed items listed
PARADOX_AGREEMENT = 0.8  # percent agreement at or above which …
PARADOX_GAP = 0.3        # … a κ this much lower is called out


def prevalence(ratings, counts):
    """One row per category: how often it was given, its share of all ratings, per annotator."""
    total = counts.sum()
    used = [[int(np.sum(ratings.codes[:, g] == k)) for g in range(len(ratings.annotators))]
            for k in range(len(ratings.categories))]
    return [{"label": label, "n": int(counts[:, k].sum()), "share": float(safe_ratio(counts[:, k].sum(), total)),
             "per_annotator": used[k]} for k, label in enumerate(ratings.categories)]


def paradox(table, coefficients):
    """One sentence when agreement is high and κ low because one category dominates (else None).

    Feinstein & Cicchetti (1990), "High agreement but low kappa: I. The problems of two paradoxes".
    """
    agreement = coefficients["percent_agreement"]["value"]
    kappa = coefficients["conger_kappa"]["value"]
    ac1 = coefficients["gwet_ac1"]["value"]
    if agreement is None or kappa is None or agreement < PARADOX_AGREEMENT or kappa > agreement - PARADOX_GAP:
        return None
    top = max(table, key=lambda row: (row["share"], row["label"]))
    ac1_text = f"; Gwet's AC1, whose chance term shrinks when one label dominates, is {ac1:.2f}" \
        if ac1 is not None else ""
    return (f"Percent agreement is {agreement:.2f} but κ only {kappa:.2f}: label {top['label']!r} makes up "
            f"{top['share']:.0%} of all ratings, so the agreement κ expects by chance is already high "
            f"(the kappa paradox, Feinstein & Cicchetti 1990){ac1_text}.")


def disputed_items(ratings, counts):
    """The ``TOP_ITEMS`` items with the lowest agreement below 1, and how many there are in all."""
    m = counts.sum(axis=1)
    agreement = safe_ratio((counts * (counts - 1.0)).sum(axis=1), m * (m - 1.0))
    disputed = np.flatnonzero(np.isfinite(agreement) & (agreement < 1.0))
    order = sorted(disputed, key=lambda i: (agreement[i], i))[:TOP_ITEMS]  # items are sorted by name
    rows = [{"item": ratings.items[i], "percent_agreement": float(agreement[i]), "n_ratings": int(m[i]),
             "ratings": [{"annotator": ratings.annotators[g], "label": ratings.categories[ratings.codes[i, g]]}
                         for g in np.flatnonzero(ratings.codes[i] >= 0)]} for i in order]
    return rows, int(len(disputed))
