"""Bootstrap intervals of the reference scores, by reweighting items (:mod:`agreekit.measures.bootstrap`).

Every score against the reference is a ratio of sums over comparisons (item,
annotator), so a resample weights each comparison by the count of its item:
per annotator and in total for precision, recall, F1, mean matched
similarity and σ against the reference (the within mean over the cross mean of
:mod:`.baseline`, whose item-pair sums are quadratic forms: the corpus's in
total, each annotator's own per annotator); in total also Cohen's κ on matched
labels (its per-item tables reweighted).  The resamples
are drawn in the items' content order (``ranks``), so neither row order nor
names change an interval.
"""
from __future__ import annotations

import numpy as np

from ..arrays import safe_ratio
from ..measures import bootstrap as boot
from ..measures.kappa import Margins, kappa_from_margins
from .baseline import resampled_cross_mean, resampled_own_sigma

RATIOS = {"precision": ("n_matched", "n_drawn"), "recall": ("n_matched", "n_reference"),
          "mean_matched_iou": ("similarity_sum", "n_matched")}
MAX_TABLE_ELEMENTS = 1 << 22   # items × labels²: the per-item label tables κ's interval reweights


def ratio_values(sums):
    """Precision, recall, F1 and mean matched similarity from summed counts (arrays of any shape)."""
    out = {name: safe_ratio(sums[top], sums[bottom]) for name, (top, bottom) in RATIOS.items()}
    out["f1"] = safe_ratio(2.0 * sums["n_matched"], sums["n_drawn"] + sums["n_reference"])
    return out


def item_label_tables(n_items, items, ref_codes, drawn_codes, n_labels):
    """(n_items, L²) counts of matched pairs by (reference label, drawn label) per item, or None if too large."""
    if n_items * n_labels * n_labels > MAX_TABLE_ELEMENTS or n_labels == 0:
        return None
    flat = (items * n_labels + ref_codes) * n_labels + drawn_codes
    return np.bincount(flat, minlength=n_items * n_labels * n_labels).reshape(n_items, -1).astype(float)


def own_label_tables(comps_item, group, pair_item, pair_group, ref_codes, drawn_codes, n_groups, n_labels):
    """Per group: its items (sorted) and its matched pairs' (items × L²) label tables, for κ's interval
    per annotator; None when Σ over groups of items × L² is above ``MAX_TABLE_ELEMENTS``."""
    items_of = [np.unique(comps_item[group == k]) for k in range(n_groups)]
    if sum(len(items) for items in items_of) * n_labels * n_labels > MAX_TABLE_ELEMENTS or not n_labels:
        return None
    out = []
    for k, items in enumerate(items_of):
        mine = pair_group == k
        at = np.searchsorted(items, pair_item[mine])
        flat = (at * n_labels + ref_codes[mine]) * n_labels + drawn_codes[mine]
        size = len(items) * n_labels * n_labels
        out.append((items, np.bincount(flat, minlength=size).reshape(len(items), n_labels * n_labels).astype(float)))
    return out


def _resampled_kappa(weights, table, n_labels):
    """Cohen's κ of each resample (rows of ``weights`` over the table's items)."""
    if not table.size:
        return np.full(len(weights), np.nan)
    return kappa_from_margins(Margins.of((weights @ table).reshape(len(weights), n_labels, n_labels))).kappa


def column_cis(values):
    """:func:`agreekit.measures.bootstrap.percentile_ci` of each column of ``values`` (resamples × groups):
    the columns defined in every resample in one call, the others one by one (the same numbers)."""
    whole = np.isfinite(values).all(axis=0)
    out = [None] * values.shape[1]
    if values.shape[0] >= 2 and whole.any():
        tail = (1.0 - boot.DEFAULT_LEVEL) / 2.0 * 100.0
        low, high = np.percentile(values[:, whole], [tail, 100.0 - tail], axis=0)
        for k, lo, hi in zip(np.flatnonzero(whole).tolist(), low.tolist(), high.tolist()):
            out[k] = [lo, hi]
    for k in np.flatnonzero(~whole).tolist():
        out[k] = boot.percentile_ci(values[:, k])
    return out


# Long: the resampling loop gathers every score's resampled values in one pass over the chunks.
def bootstrap(inputs, n_items, n_resamples, seed, ranks):
    """Percentile intervals: ``{"annotators": {score: [ci per group]}, "total": {score: ci}}``, or None.

    ``inputs``: ``group`` (per comparison, the row it counts in), ``n_groups``,
    ``item`` (per comparison), ``values`` (per comparison: ``n_matched``,
    ``n_drawn``, ``n_reference``, ``similarity_sum``), ``within`` (per item:
    sums and counts of matched distances), ``baseline`` (:class:`.baseline.CrossBaseline`),
    ``tables`` (:func:`item_label_tables`, or None), ``n_labels``.
    """
    if n_resamples <= 0 or n_items < 2:
        return None
    order = np.argsort(inputs["group"], kind="stable")
    groups = inputs["group"][order]
    starts = np.flatnonzero(np.diff(groups, prepend=-1))
    present = groups[starts]
    items = inputs["item"][order]
    values = {name: np.asarray(v, dtype=float)[order] for name, v in inputs["values"].items()}
    per_group = {name: [] for name in (*RATIOS, "f1")}
    own = inputs.get("own")   # per group: (OwnPairs, within sums, within counts) or None: σ per annotator
    if own is not None:
        per_group["sigma"] = []
    own_tables = inputs.get("own_tables")   # per group: (its items, its items × L² label tables): κ per annotator
    if own_tables is not None:
        per_group["kappa"] = []
    total = {name: [] for name in (*RATIOS, "f1", "sigma", "kappa")}
    width = max(len(items), n_items, 1)
    max_elements = max(1, boot.BOOTSTRAP_ELEMENTS * n_items // width)
    within_sum, within_n = inputs["within"]
    # Each comparison is one (item, group): small enough, its values form an items × groups matrix per score,
    # and a resample's group sums are one matrix product.
    dense = n_items * inputs["n_groups"] <= MAX_TABLE_ELEMENTS
    if dense:
        tables = {name: np.zeros((n_items, inputs["n_groups"])) for name in values}
        for name, v in values.items():
            tables[name][items, groups] = v
    for counts in boot.resample_count_chunks(n_items, n_resamples, seed, max_elements=max_elements, ranks=ranks):
        if dense:
            sums = {name: counts @ table for name, table in tables.items()}
        else:
            weights = counts[:, items]
            sums = {name: np.zeros((len(counts), inputs["n_groups"])) for name in values}
            for name, v in values.items():
                if len(items):
                    sums[name][:, present] = np.add.reduceat(weights * v[None, :], starts, axis=1)
        for name, v in ratio_values(sums).items():
            per_group[name].append(v)
        for name, v in ratio_values({k: s.sum(axis=1) for k, s in sums.items()}).items():
            total[name].append(v)
        if own is not None:
            per_group["sigma"].append(np.column_stack(
                [resampled_own_sigma(*entry, counts) if entry is not None else np.full(len(counts), np.nan)
                 for entry in own]) if own else np.zeros((len(counts), 0)))
        if own_tables is not None:
            per_group["kappa"].append(np.column_stack(
                [_resampled_kappa(counts[:, items], table, inputs["n_labels"]) for items, table in own_tables])
                if own_tables else np.zeros((len(counts), 0)))
        cross = resampled_cross_mean(inputs["baseline"], counts)
        if cross is not None:
            total["sigma"].append(1.0 - safe_ratio(safe_ratio(counts @ within_sum, counts @ within_n), cross))
        if inputs["tables"] is not None:
            n_labels = inputs["n_labels"]
            table = (counts @ inputs["tables"]).reshape(len(counts), n_labels, n_labels)
            total["kappa"].append(kappa_from_margins(Margins.of(table)).kappa)
    out = {"annotators": {}, "total": {}}
    for name, chunks in per_group.items():
        joined = np.concatenate(chunks, axis=0)
        out["annotators"][name] = column_cis(joined)
    for name, chunks in total.items():
        out["total"][name] = boot.percentile_ci(np.concatenate(chunks)) if chunks else None
    return out
