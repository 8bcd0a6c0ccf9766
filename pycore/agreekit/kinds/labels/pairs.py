"""Annotator pairs and annotators: Cohen's κ (and weighted), Scott's π and agreement per pair,
their means per annotator and over all pairs, each with its bootstrap interval over items.

A pair is compared on the items both annotators rated; a pair with none is counted, not listed.
Resampled values come from the pair's table reweighted by the same item draws as every other
coefficient (:func:`~agreekit.measures.pair_tables.many_pair_margins`), over the distinct rows of ratings
(:mod:`~agreekit.kinds.labels.patterns`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...arrays import safe_ratio
from ...measures.category_weights import agreement_weights
from ...measures.kappa import kappa_reason
from ...measures.pair_tables import (kappa_from_margins, many_pair_margins, scott_pi_from_margins, table_cells,
                                     weighted_tables)
from .coefficients import ORDERED, drawn, undefined

WEIGHTED = ("linear", "quadratic")


MAX_CONFUSION = 30  # categories up to which each pair row carries its confusion table


@dataclass(frozen=True)
class PairFits:
    """Every listed pair's coefficients under every row of the draws (pairs × (R + 1))."""

    a: np.ndarray
    b: np.ndarray
    shared: np.ndarray       # items both rated
    tables: list             # confusion table on the data per pair, or None above MAX_CONFUSION categories
    agree: np.ndarray        # agreeing shared items (drawn)
    compared: np.ndarray     # shared items (drawn)
    kappa: np.ndarray
    weighted: dict           # "linear"/"quadratic" -> (pairs, R + 1), ordered levels only
    pi: np.ndarray
    n_without_shared: int


def fit_pairs(ratings, level, grouped):
    """:class:`PairFits` of every annotator pair sharing an item (names sorted: a before b), from the
    ratings' :class:`~agreekit.kinds.labels.patterns.DrawnRows` ``grouped``."""
    q, codes, draws = len(ratings.categories), grouped.codes, grouped.draws
    weights = {"identity": np.eye(q)}
    if level in ORDERED:
        weights.update({w: agreement_weights(ratings.scores, w) for w in WEIGHTED})
    rows = {key: [] for key in ("a", "b", "shared", "tables", "agree", "compared", "kappa", "pi")}
    weighted = {w: [] for w in weights if w != "identity"}
    rated = codes >= 0
    every = [(a, b) for a in range(codes.shape[1]) for b in range(a + 1, codes.shape[1])]
    together = [(a, b, grouped.items(rated[:, a] & rated[:, b])) for a, b in every]
    listed = [(a, b, shared) for a, b, shared in together if shared]
    all_margins = many_pair_margins(codes, [(a, b) for a, b, _ in listed], q, weights, draws)
    for (a, b, shared), margins in zip(listed, all_margins):
        table = weighted_tables(table_cells(codes[:, a], codes[:, b], q), q, draws[:1])[0] \
            if q <= MAX_CONFUSION else None
        for key, value in (("a", a), ("b", b), ("shared", shared), ("tables", table),
                           ("agree", margins.agree["identity"]), ("compared", margins.n),
                           ("kappa", kappa_from_margins(margins, "identity", weights["identity"])),
                           ("pi", scott_pi_from_margins(margins))):
            rows[key].append(value)
        for name in weighted:
            weighted[name].append(kappa_from_margins(margins, name, weights[name]))
    width = len(draws)
    arrays = {key: np.array(value).reshape(-1, width) for key, value in rows.items()
              if key in ("agree", "compared", "kappa", "pi")}
    arrays.update({key: np.array(rows[key], dtype=np.intp) for key in ("a", "b", "shared")})
    return PairFits(**arrays, tables=rows["tables"], weighted={w: np.array(v).reshape(-1, width)
                                                                for w, v in weighted.items()},
                    n_without_shared=len(every) - len(listed))


def _mean_over(values, defined):
    """Mean over the rows where ``defined``, per column, of the finite entries (NaN where none)."""
    chosen = values[defined]
    finite = np.isfinite(chosen)
    return safe_ratio(np.where(finite, chosen, 0.0).sum(axis=0), finite.sum(axis=0))


def mean_kappas(fits, level):
    """Mean Cohen's κ (and weighted κ) over the pairs where it is defined on the data."""
    out = {}
    for key, values in [("cohen_kappa", fits.kappa)] + [(f"cohen_kappa_{w}", fits.weighted.get(w))
                                                        for w in WEIGHTED]:
        weights = key.rsplit("_", 1)[-1] if key != "cohen_kappa" else "identity"
        if values is None:
            out[key] = undefined("only for ordinal, interval and ratio levels", weights=weights)
            continue
        defined = np.isfinite(values[:, 0]) if len(values) else np.zeros(0, bool)
        mean = _mean_over(values, defined) if defined.any() else np.full(values.shape[1], np.nan)
        out[key] = drawn(mean, int(defined.sum()), "κ is defined for no annotator pair", weights=weights)
    return out


def pair_rows(ratings, fits):
    """One row per pair sharing an item: agreement, κ (weighted), Scott's π and the confusion table."""
    rows = []
    for p in range(len(fits.a)):
        n, table = int(fits.shared[p]), fits.tables[p]
        reason = (kappa_reason(table) if table is not None else None) or "undefined"
        row = {"a": ratings.annotators[fits.a[p]], "b": ratings.annotators[fits.b[p]], "n_items": n,
               "percent_agreement": drawn(safe_ratio(fits.agree[p], fits.compared[p]), n),
               "cohen_kappa": drawn(fits.kappa[p], n, reason)}
        for w in WEIGHTED:
            row[f"cohen_kappa_{w}"] = drawn(fits.weighted[w][p], n, reason) if w in fits.weighted else \
                undefined("only for ordinal, interval and ratio levels")
        row["scott_pi"] = drawn(fits.pi[p], n, reason)
        row["confusion"] = table.astype(int).tolist() if table is not None else None
        rows.append(row)
    return rows


def annotator_rows(ratings, fits):
    """Per annotator: items rated, labels used, mean κ with the others and agreement with them."""
    rows = []
    for g, name in enumerate(ratings.annotators):
        mine = (fits.a == g) | (fits.b == g)
        defined = mine & np.isfinite(fits.kappa[:, 0]) if len(fits.a) else mine
        kappa = _mean_over(fits.kappa, defined) if defined.any() else np.full(fits.kappa.shape[1], np.nan)
        agree = safe_ratio(fits.agree[mine].sum(axis=0), fits.compared[mine].sum(axis=0)) if mine.any() \
            else np.full(fits.kappa.shape[1], np.nan)
        shared = int(fits.shared[mine].sum())
        compared = (ratings.codes >= 0).sum(axis=1) >= 2
        rows.append({"annotator": name, "n_items": int(np.sum(compared & (ratings.codes[:, g] >= 0))),
                     "n_pairs": int(mine.sum()),
                     "cohen_kappa": drawn(kappa, int(defined.sum()), "κ is defined for none of its pairs"),
                     "percent_agreement": drawn(agree, shared, "it shares no item with another annotator")})
    return rows
