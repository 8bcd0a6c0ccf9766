"""Breakdowns of the object engine's measures: per annotator pair, per annotator, per label, per item.

Every row pools the same quantities as the headline numbers, restricted to its
group: detection F1 and mean agreement over the (item, annotator pair) records
of the group, matched IoU and the within distance over its matched pairs, and
σ of the group's within mean against the corpus baseline (σ and the within
mean only for kinds with localization).  A pair's σ is against its own
cross-annotator baseline (a's objects on one item against b's on another), an
annotator's against its objects paired with every other annotator's on other
items (:mod:`agreekit.measures.cross`); a label's against the corpus baseline.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .arrays import safe_ratio
from .measures import cross, pair_sigma
from .measures.chance import sigma_value
from .results import estimate


def grouped_means(keys, values, n_groups):
    """Mean of ``values`` per integer key (NaN for an empty group), and the counts per group."""
    counts = np.bincount(keys, minlength=n_groups).astype(float)
    sums = np.bincount(keys, weights=values, minlength=n_groups) if len(keys) else np.zeros(n_groups)
    with np.errstate(divide="ignore", invalid="ignore"):
        return sums / counts, counts


@dataclass(frozen=True)
class PairIntervals:
    """The pair table's σ intervals: one ``[low, high]`` or None per pair (``cis``, None for all), and
    why an interval is null (``reason``; a σ that is itself undefined says so instead)."""

    cis: list | None
    reason: str | None


def _sigma_columns(match_index, match_group, n_groups, loc, baselines=None, intervals=None):
    """``mean_within`` and ``sigma`` per group, or nothing for a kind without localization.
    ``baselines``: each group's between mean, shown as ``mean_between_cross`` (default: the corpus's);
    ``intervals`` (:class:`PairIntervals`): σ's ``ci`` and ``ci_reason`` per group."""
    if loc is None:
        return [{} for _ in range(n_groups)]
    mean_within, n = grouped_means(match_group, loc.within[match_index], n_groups)
    between = np.full(n_groups, loc.mean_between) if baselines is None else baselines
    cis = [None] * n_groups if intervals is None or intervals.cis is None else intervals.cis
    out = []
    # list(array): the same numpy scalars as array[g], made at once (thousands of annotator pairs)
    for mean, base, count, ci in zip(list(mean_within), list(between), list(n), cis):
        value = sigma_value(mean, base)
        reason = "no matched pairs" if count == 0 else "the chance baseline is undefined"
        sigma = estimate(value, ci, reason, n=count)
        if intervals is not None:
            sigma["ci_reason"] = None if sigma["ci"] is not None else (
                intervals.reason if sigma["value"] is not None else "σ is undefined")
        row = {"mean_within": mean, "sigma": sigma}
        out.append(row if baselines is None else {**row, "mean_between_cross": base})
    return out


def _cross_means(loc, by_annotator, codes=None, n_names=0):
    """Cross baselines per annotator (``codes`` None) or per annotator pair (codes a·n + b); None
    without localization.  Without per-pair sums (too many annotators), every pair gets the corpus's."""
    if loc is None:
        return None
    cross = loc.between["cross"]
    if by_annotator:
        return safe_ratio(cross.annotator_sums, cross.annotator_counts)
    if cross.pair_sums is None:
        return np.full(len(codes), loc.mean_between_cross)
    a, b = codes // n_names, codes % n_names
    return safe_ratio(cross.pair_sums[a, b], cross.pair_counts[a, b])


def _group_rows(record_groups, match_groups, n_groups, raw, loc, baselines=None, intervals=None):
    """Measures per group; ``record_groups``/``match_groups`` are (index, group) arrays
    assigning records (annotator pairs on items) and matched pairs to groups."""
    rec, rec_group = record_groups
    mat, mat_group = match_groups
    f1, n_records = grouped_means(rec_group, raw["f1"][rec], n_groups)
    agreement, _ = grouped_means(rec_group, raw["agreement"][rec], n_groups)
    iou, n_matched = grouped_means(mat_group, raw["matched_similarity"][mat], n_groups)
    sigma = _sigma_columns(mat, mat_group, n_groups, loc, baselines, intervals)
    columns = zip(n_records.astype(int).tolist(), n_matched.astype(int).tolist(), list(f1), list(agreement),
                  list(iou), sigma)
    return [{"n_item_pairs": n_rec, "n_matched": n_mat, "detection_f1": f, "mean_agreement": a,
             "mean_matched_iou": i, **sig} for n_rec, n_mat, f, a, i, sig in columns]


def pair_codes(objects, records):
    """``(codes, record_pair)``: a·A + b of each annotator pair that shares an item (sorted; a < b), and
    the index in ``codes`` of each record's pair."""
    rec_a = np.array([r.a for r in records], dtype=np.intp)
    rec_b = np.array([r.b for r in records], dtype=np.intp)
    codes, rec_pair = np.unique(rec_a * len(objects.annotators) + rec_b, return_inverse=True)
    return codes, rec_pair.ravel()


def pair_rows(objects, records, pairs, raw, loc, intervals=None):
    """One row per annotator pair that shares an item; ``intervals``: :class:`PairIntervals` of their σ."""
    names = objects.annotators
    codes, rec_pair = pair_codes(objects, records)
    rows = _group_rows((np.arange(len(records)), rec_pair), (np.arange(len(pairs.record)), rec_pair[pairs.record]),
                       len(codes), raw, loc, _cross_means(loc, False, codes, len(names)), intervals)
    return [{"a": names[c // len(names)], "b": names[c % len(names)], **row} for c, row in zip(codes, rows)]


def pair_sigma_terms(objects, records, pairs, loc, n_resamples):
    """``(terms, reason)``: the :class:`~agreekit.measures.pair_sigma.PairTerms` of the pair table's σ
    intervals (None without them), and why a pair's interval may be null."""
    if loc is None:
        return None, None
    if n_resamples <= 0:
        return None, "no bootstrap"
    runs = cross.object_runs(objects.offsets, objects.annotator_of)
    run_pairs = loc.between["cross"].run_pairs if loc.between["cross"] is not None else None
    if run_pairs is None:
        return None, pair_sigma.unkept_reason(len(objects.annotators), len(runs.item), objects.n_items,
                                              loc.between["exact"])
    if objects.n_items < 2:
        return None, "fewer than 2 items to resample"
    codes, rec_pair = pair_codes(objects, records)
    terms = pair_sigma.pair_terms(codes, codes[rec_pair[pairs.record]], pairs.item, loc.within, runs, run_pairs,
                                  len(objects.annotators), objects.n_items)
    return terms, "fewer than half the resamples give a defined σ"


def annotator_rows(objects, records, pairs, raw, loc):
    """One row per annotator: every record and matched pair it takes part in."""
    names = objects.annotators
    rec_a = np.array([r.a for r in records], dtype=np.intp)
    rec_b = np.array([r.b for r in records], dtype=np.intp)
    both_rec = np.tile(np.arange(len(records)), 2)
    both_mat = np.tile(np.arange(len(pairs.record)), 2)
    rows = _group_rows((both_rec, np.concatenate([rec_a, rec_b])),
                       (both_mat, np.concatenate([rec_a[pairs.record], rec_b[pairs.record]])), len(names), raw, loc,
                       _cross_means(loc, True))
    n_objects = np.bincount(objects.annotator_of, minlength=len(names))
    n_items = np.bincount(np.array([a for member in objects.members for a in member], dtype=np.intp),
                          minlength=len(names))
    return [{"annotator": names[a], "n_items": int(n_items[a]), "n_objects": int(n_objects[a]), **rows[a]}
            for a in range(len(names))]


def label_rows(objects, pairs, raw, loc, label_key):
    """Per label: its objects, and the matched pairs in which either object carries it."""
    keys = [label_key(label) for label in objects.labels]
    if not keys:
        return []
    names, codes = np.unique(np.array(keys, dtype=object).astype(str), return_inverse=True)
    codes = codes.ravel()
    n = len(names)
    la, lb = codes[pairs.a], codes[pairs.b]
    differ = la != lb
    index = np.arange(len(pairs.a))
    member_match = np.concatenate([index, index[differ]])
    member_label = np.concatenate([la, lb[differ]])
    iou, n_matched = grouped_means(member_label, raw["matched_similarity"][member_match], n)
    sigma = _sigma_columns(member_match, member_label, n, loc)
    mismatched = np.bincount(np.concatenate([la[differ], lb[differ]]), minlength=n)
    n_objects = np.bincount(codes, minlength=n)
    return [{"label": str(names[k]), "n_objects": int(n_objects[k]), "n_matched": int(n_matched[k]),
             "n_label_mismatch": int(mismatched[k]), "mean_matched_iou": iou[k], **sigma[k]} for k in range(n)]


def item_problems(objects, pairs, raw, groups, threshold, label_key, loc=None):
    """Per item, what is wrong on it, as counts (arrays over items).

    ``n_missed``: for each cluster of matched objects drawn by at least half of the item's annotators, the
    annotators who did not draw it; ``n_extra``: the objects of clusters drawn by fewer than half;
    ``n_shifted``: matched pairs whose similarity is in the lower half of the matched range
    [threshold, 1] (matched, but only just) or, with a localization ``loc``, whose distance is at least the
    mean between-item distance (no closer than chance); ``n_label_mismatch``: matched pairs whose labels differ.
    """
    n = objects.n_items
    item = np.repeat(np.arange(n, dtype=np.intp), [len(clusters) for clusters in groups])
    size = np.fromiter((len(cluster) for clusters in groups for cluster in clusters), dtype=np.intp, count=item.size)
    drew = np.array([len(member) for member in objects.members], dtype=np.intp)[item]
    most = 2 * size >= drew
    missed = np.bincount(item[most], weights=(drew - size)[most], minlength=n).astype(np.intp)
    extra = np.bincount(item[~most], weights=size[~most], minlength=n).astype(np.intp)
    near = raw["matched_similarity"] < (1.0 + threshold) / 2
    if loc is not None and np.isfinite(loc.mean_between) and loc.within.size == near.size:
        near = near | (loc.within >= loc.mean_between)
    keys = np.array([label_key(label) for label in objects.labels], dtype=object).astype(str)
    differ = keys[pairs.a] != keys[pairs.b] if pairs.a.size else np.zeros(0, dtype=bool)
    return {"n_missed": missed, "n_extra": extra,
            "n_shifted": np.bincount(pairs.item[near], minlength=n),
            "n_label_mismatch": np.bincount(pairs.item[differ], minlength=n)}


def item_rows(objects, records, raw, loc, problems=None):
    """One row per comparable item, most disagreement first (lowest detection F1, then most label mismatches,
    then largest within mean)."""
    by_item = {}
    for r, record in enumerate(records):
        by_item.setdefault(record.item, []).append(r)
    unmatched_of = [len(r.objects_a) + len(r.objects_b) - 2 * len(r.matched_a) for r in records]
    out = []
    for i, item in enumerate(objects.item_ids):
        rec = np.array(by_item.get(i, []), dtype=np.intp)
        unmatched = sum(unmatched_of[r] for r in by_item.get(i, []))
        row = {"item": item, "n_annotators": len(objects.members[i]),
               "objects_per_annotator": {objects.annotators[a]: int(len(v))
                                         for a, v in sorted(objects.members[i].items())},
               "n_unmatched": int(unmatched),
               "detection_f1": float(raw["f1"][rec].mean()) if rec.size else float("nan")}
        row.update({name: int(counts[i]) for name, counts in (problems or {}).items()})
        if loc is not None:
            row["mean_within"] = loc.within_sum[i] / loc.within_n[i] if loc.within_n[i] else float("nan")
        out.append(row)
    # Ties of F1 (often 1: every object found) go to the label errors, then to the matched pairs' distance.
    out.sort(key=lambda d: (-(1 - (d["detection_f1"] if np.isfinite(d["detection_f1"]) else 1)),
                            -d.get("n_label_mismatch", 0),
                            -(d["mean_within"] if np.isfinite(d.get("mean_within", np.nan)) else 0)))
    return out


def tables(objects, records, pairs, raw, loc, label_key, groups=None, threshold=None, pair_intervals=None):
    """The four breakdowns under their report keys (the items with :func:`item_problems` given ``groups``;
    ``pair_intervals``: :class:`PairIntervals` of the pairs' σ)."""
    problems = item_problems(objects, pairs, raw, groups, threshold, label_key, loc) if groups is not None else None
    return {"pairs": pair_rows(objects, records, pairs, raw, loc, pair_intervals),
            "annotators": annotator_rows(objects, records, pairs, raw, loc),
            "labels": label_rows(objects, pairs, raw, loc, label_key),
            "items": item_rows(objects, records, raw, loc, problems)}
