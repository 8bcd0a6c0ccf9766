"""Agreement over sets of objects per item: the engine behind boxes (and any
other kind whose annotations are objects with a similarity and a distance).

For each item annotated by ≥ 2 annotators ("comparable"), and each sorted
annotator pair on it, the pair's objects are matched one-to-one at a
similarity threshold (:mod:`agreekit.matching`).  From the matches:

* Raw measures, Potato's definitions (reference semantics §7), pooled over
  (item, annotator pair): ``mean_agreement`` (Σ matched similarity, halved on
  a label mismatch, over matches + unmatched; 1 if both drew nothing, 0 if
  one did), ``detection_f1`` = 2·matches/(|a| + |b|) (1 if both empty),
  ``mean_object_count_diff`` = mean ||a| − |b||; ``mean_matched_iou`` pools
  over matched pairs.
* Detection α: nominal Krippendorff α over present/absent of each annotator
  of the item in each cluster (annotators who drew nothing count as absent).
  Classification α: nominal α over the labels of clusters with ≥ 2 members.
* σ = 1 − mean(within) / mean(between).  Within: the distance of every
  matched pair.  Between: the mean distance over **all** unordered pairs of
  objects (pooled over every annotator, matched or not) on different
  comparable items, streamed in chunks; above ``pair_budget`` pairs a seeded
  uniform sample of pairs is used and its standard error reported.
* KS: the textbook two-sample Kolmogorov–Smirnov D = sup |F_within − F_between|,
  evaluated from counts of between distances below and at each within value
  (so ties are handled exactly and the between list is never sorted).
* Bootstrap over items by reweighting per-item sums (:mod:`agreekit.bootstrap`);
  pairs of two copies of one drawn item never enter the between baseline.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import bootstrap as boot
from .alpha import alpha_from_coincidence, undefined_reason, unit_coincidences
from .matching import clusters as make_clusters
from .matching import match

DEFAULT_PAIR_BUDGET = 50_000_000
SAMPLED_PAIRS = 2_000_000
_CHUNK_ELEMENTS = 1 << 21


@dataclass
class ObjectSet:
    """Objects of the comparable items, contiguous by item.

    ``offsets[i]:offsets[i + 1]`` are item i's objects; ``members[i]`` maps
    annotator position → global object indices (an empty array for an
    annotator who saw the item and drew nothing).
    """

    item_ids: list
    annotators: list
    offsets: np.ndarray
    annotator_of: np.ndarray
    labels: list
    members: list
    lines: np.ndarray = field(default=None)

    @property
    def n_objects(self):
        return int(self.offsets[-1])


@dataclass
class ObjectKind:
    """How to compare objects of one kind, by global object index."""

    similarity: Callable        # (idx) -> (k × k) similarity among objects idx
    paired_distance: Callable   # (ia, ib) -> distances of pairs (ia[k], ib[k])
    distance_block: Callable    # (rows, cols) -> (len(rows) × len(cols)) distances


def _label_equal(a, b):
    return a == b


def _take(sim, rows, cols):
    """sim[rows][:, cols], by slicing when both index runs are contiguous (the usual case)."""
    if len(rows) and len(cols) and rows[-1] - rows[0] + 1 == len(rows) and cols[-1] - cols[0] + 1 == len(cols):
        return sim[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    return sim[np.ix_(rows, cols)]


def item_similarities(objects, kind):
    """Each comparable item's object-by-object similarity matrix (local indices)."""
    out = []
    for i in range(len(objects.item_ids)):
        start, stop = objects.offsets[i], objects.offsets[i + 1]
        out.append(kind.similarity(np.arange(start, stop)) if stop > start else np.zeros((0, 0)))
    return out


def pair_matching(objects, sims, threshold, mode, progress=None):
    """Match every annotator pair on every item.  Returns per-pair records
    ``(item, a, b, objects of a, objects of b, matched of a, matched of b, similarities)``."""
    records = []
    n_items = len(objects.item_ids)
    for i in range(n_items):
        start = objects.offsets[i]
        sim = sims[i]
        positions = sorted(objects.members[i])
        for x, a in enumerate(positions):
            for b in positions[x + 1:]:
                ga, gb = objects.members[i][a], objects.members[i][b]
                sub = _take(sim, ga - start, gb - start)
                rows, cols = match(sub, threshold, mode)
                records.append((i, a, b, ga, gb, ga[rows], gb[cols], sub[rows, cols]))
        if progress is not None and (i % 50 == 0 or i == n_items - 1):
            progress(i + 1, n_items, "matching")
    return records


def raw_measures(objects, records, label_equal=_label_equal):
    """Potato's raw measures, pooled; plus per-record values for breakdowns."""
    agreement, f1, count_diff = [], [], []
    for _, _, _, ga, gb, ma, mb, s in records:
        na, nb, nm = len(ga), len(gb), len(ma)
        if na == 0 and nb == 0:
            agreement.append(1.0)
            f1.append(1.0)
        elif na == 0 or nb == 0:
            agreement.append(0.0)
            f1.append(0.0)
        else:
            weights = np.array([1.0 if label_equal(objects.labels[p], objects.labels[q]) else 0.5
                                for p, q in zip(ma, mb)])
            total = float(np.sum(s * weights)) if nm else 0.0
            agreement.append(min(1.0, max(0.0, total / (na + nb - nm))))
            f1.append(2.0 * nm / (na + nb))
        count_diff.append(abs(na - nb))
    matched = np.concatenate([r[7] for r in records]) if records else np.zeros(0)
    return {
        "agreement": np.array(agreement), "f1": np.array(f1), "count_diff": np.array(count_diff, float),
        "matched_similarity": matched,
    }


def _mean(values):
    values = np.asarray(values, dtype=float)
    return float(values.mean()) if values.size else float("nan")


def item_clusters(objects, sims, threshold, mode):
    """Clusters per item, each a dict {annotator position: object index}."""
    out = []
    for i in range(len(objects.item_ids)):
        start, stop = objects.offsets[i], objects.offsets[i + 1]
        positions = sorted(objects.members[i])
        if stop == start:
            out.append([])
            continue
        local = [objects.members[i][p] - start for p in positions]
        groups = make_clusters(local, sims[i], threshold, mode)
        out.append([{positions[k]: int(obj) + start for k, obj in g.items()} for g in groups])
    return out


def alpha_inputs(objects, clusters, label_key=str):
    """Per-item coincidence matrices for detection and classification α.

    Returns ``(detection (n_items, 2, 2), classification (n_items, C, C),
    label categories, n_detection_units, n_classification_units)``.
    """
    n_items = len(objects.item_ids)
    detection = np.zeros((n_items, 2, 2))
    labels = sorted({label_key(objects.labels[obj]) for groups in clusters for g in groups
                     if len(g) >= 2 for obj in g.values()})
    index = {lab: k for k, lab in enumerate(labels)}
    classification = np.zeros((n_items, len(labels), len(labels)))
    n_det = n_cls = 0
    for i, groups in enumerate(clusters):
        m = len(objects.members[i])
        if groups:
            present = np.array([len(g) for g in groups], dtype=float)
            counts = np.stack([m - present, present], axis=1)
            detection[i] = unit_coincidences(counts).sum(axis=0)
            n_det += len(groups)
        multi = [g for g in groups if len(g) >= 2]
        if multi and labels:
            counts = np.zeros((len(multi), len(labels)))
            for u, g in enumerate(multi):
                for obj in g.values():
                    counts[u, index[label_key(objects.labels[obj])]] += 1
            classification[i] = unit_coincidences(counts).sum(axis=0)
            n_cls += len(multi)
    return detection, classification, labels, n_det, n_cls


def between_baseline(objects, kind, within_sorted, pair_budget=DEFAULT_PAIR_BUDGET, seed=boot.DEFAULT_SEED,
                     progress=None):
    """Mean distance over pairs of objects on different items, with KS counts.

    Returns a dict with ``sum``, ``n``, ``exact``, ``se`` (sampled only),
    ``item_sums`` and ``item_counts`` (n_items × n_items, zero diagonal) and
    ``le``/``lt``: for each sorted within value w_k, how many between
    distances are ≤ w_k and < w_k.
    """
    offsets = objects.offsets
    sizes = np.diff(offsets).astype(float)
    n_items = len(sizes)
    total_pairs = (sizes.sum() ** 2 - (sizes ** 2).sum()) / 2.0
    result = {"item_sums": np.zeros((n_items, n_items)), "le": np.zeros(len(within_sorted)),
              "lt": np.zeros(len(within_sorted)), "histogram": np.zeros(_HISTOGRAM_BINS),
              "total_pairs": int(total_pairs)}
    if total_pairs == 0:
        result.update(sum=0.0, n=0, exact=True, se=None, item_counts=np.zeros((n_items, n_items)))
        return result
    if total_pairs <= pair_budget:
        _between_exact(objects, kind, within_sorted, result, progress)
        result["item_counts"] = np.outer(sizes, sizes) - np.diag(sizes ** 2)
        result["exact"] = True
        result["se"] = None
    else:
        _between_sampled(objects, kind, within_sorted, result, seed, progress, min(SAMPLED_PAIRS, pair_budget))
        result["exact"] = False
    return result


_CELLS = 1 << 18
_HISTOGRAM_BINS = 200


def _cell_table(within_sorted):
    """Search positions of the within values per cell of a uniform grid on [0, 1].

    A between distance in a cell holding no within value has the same
    ``searchsorted`` position as the cell's left edge, so only distances in
    the few cells that hold a within value need an exact search.  The grid
    is dyadic, so cell edges and ``floor(d · cells)`` are exact in floating point.
    """
    edges = np.arange(_CELLS + 1) / _CELLS
    position = np.searchsorted(within_sorted, edges, "left")
    return position[:-1], position[1:] > position[:-1]


def _accumulate(d, within_sorted, result):
    """Add the KS counts of between distances ``d`` (flat, all in [0, 1])."""
    if within_sorted.size == 0 or d.size == 0:
        return
    bins = len(within_sorted) + 1
    if "cells" not in result:
        result["cells"] = _cell_table(within_sorted)
    # A coarse histogram of every between distance, so the chart can draw the whole curve.
    cell = np.clip((d * _HISTOGRAM_BINS).astype(np.intp), 0, _HISTOGRAM_BINS - 1)
    result["histogram"] += np.bincount(cell, minlength=_HISTOGRAM_BINS)
    # Distances above the largest within value raise no count at any within value.
    above = d > within_sorted[-1]
    if above.any():
        d = d[~above]
    start, ambiguous = result["cells"]
    cell = (d * _CELLS).astype(np.int64)
    np.clip(cell, 0, _CELLS - 1, out=cell)
    left = start[cell]
    exact = np.flatnonzero(ambiguous[cell] | (d < 0) | (d > 1))
    right = left.copy()
    if exact.size:
        left[exact] = np.searchsorted(within_sorted, d[exact], "left")
        right[exact] = np.searchsorted(within_sorted, d[exact], "right")
    result["le"] += np.cumsum(np.bincount(left, minlength=bins))[:-1]
    result["lt"] += np.cumsum(np.bincount(right, minlength=bins))[:-1]


def _between_exact(objects, kind, within_sorted, result, progress):
    offsets = objects.offsets
    n_objects = int(offsets[-1])
    n_items = len(offsets) - 1
    item_of = np.repeat(np.arange(n_items), np.diff(offsets))
    sums = result["item_sums"]
    total = 0.0
    p = 0
    while p < n_items:
        # A block of whole items [p, q) whose rows × remaining columns fit a chunk.
        q = p + 1
        width = n_objects - offsets[p]
        while q < n_items and (offsets[q + 1] - offsets[p]) * width <= _CHUNK_ELEMENTS:
            q += 1
        r0, r1 = offsets[p], offsets[q]
        rows = np.arange(r0, r1)
        parts = []
        if q - p > 1:  # pairs inside the block: only with a later item
            inner = kind.distance_block(rows, rows)
            later = item_of[rows][None, :] > item_of[rows][:, None]
            parts.append((np.where(later, inner, 0.0), inner[later], p, q))
        if r1 < n_objects:  # every column after the block is a later item
            outer = kind.distance_block(rows, np.arange(r1, n_objects))
            parts.append((outer, outer.ravel(), q, n_items))
        for block, flat, c0, c1 in parts:
            cols_offsets = offsets[c0:c1 + 1] - offsets[c0]
            col_nonempty = np.diff(cols_offsets) > 0
            row_offsets = offsets[p:q + 1] - r0
            row_nonempty = np.diff(row_offsets) > 0
            reduced = np.add.reduceat(block, cols_offsets[:-1][col_nonempty], axis=1)
            reduced = np.add.reduceat(reduced, row_offsets[:-1][row_nonempty], axis=0)
            sums[np.ix_(np.arange(p, q)[row_nonempty],
                        np.arange(c0, c1)[col_nonempty])] += reduced
            total += float(flat.sum())
            _accumulate(flat, within_sorted, result)
        if progress is not None:
            progress(int(r1), n_objects, "chance baseline")
        p = q
    result["item_sums"] = sums + sums.T
    sizes = np.diff(offsets).astype(float)
    result["sum"] = total
    result["n"] = int((sizes.sum() ** 2 - (sizes ** 2).sum()) / 2.0)


def _between_sampled(objects, kind, within_sorted, result, seed, progress, sample_size):
    offsets = objects.offsets
    n_objects = int(offsets[-1])
    n_items = len(offsets) - 1
    item_of = np.repeat(np.arange(n_items), np.diff(offsets))
    rng = np.random.default_rng(seed)
    first, second = [], []
    wanted = max(int(sample_size), 2)
    while wanted > 0:
        i = rng.integers(0, n_objects, size=2 * wanted)
        j = rng.integers(0, n_objects, size=2 * wanted)
        ok = item_of[i] != item_of[j]
        i, j = i[ok][:wanted], j[ok][:wanted]
        first.append(i)
        second.append(j)
        wanted -= len(i)
    i, j = np.concatenate(first), np.concatenate(second)
    d = np.concatenate([kind.paired_distance(i[s:s + _CHUNK_ELEMENTS], j[s:s + _CHUNK_ELEMENTS])
                        for s in range(0, len(i), _CHUNK_ELEMENTS)])
    sums = np.zeros((n_items, n_items))
    counts = np.zeros((n_items, n_items))
    np.add.at(sums, (item_of[i], item_of[j]), d)
    np.add.at(counts, (item_of[i], item_of[j]), 1.0)
    result["item_sums"] = sums + sums.T
    result["item_counts"] = counts + counts.T
    result["sum"] = float(d.sum())
    result["n"] = int(len(d))
    result["se"] = float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else None
    _accumulate(d, within_sorted, result)
    if progress is not None:
        progress(1, 1, "chance baseline (sampled)")


def ks_statistic(within_sorted, le, lt, n_between):
    """Textbook two-sample KS D from counts of between values ≤ and < each within value."""
    n = len(within_sorted)
    if n == 0 or n_between == 0:
        return float("nan")
    w = np.asarray(within_sorted)
    f_within_at = np.searchsorted(w, w, "right") / n
    f_within_before = np.searchsorted(w, w, "left") / n
    gap_at = np.abs(f_within_at - le / n_between)
    gap_before = np.abs(f_within_before - lt / n_between)
    return float(max(gap_at.max(), gap_before.max()))


def sigma_value(mean_within, mean_between):
    if not np.isfinite(mean_within) or not np.isfinite(mean_between) or mean_between <= 0:
        return float("nan")
    return 1.0 - mean_within / mean_between


def sigma_reason(n_within, n_between, mean_between):
    if n_within == 0:
        return "no matched pairs: no within-item distances"
    if n_between == 0:
        return "fewer than two comparable items: no between-item pairs"
    if not mean_between > 0:
        return "every between-item distance is 0"
    return None


def ecdf_summary(values, points=200):
    """A compact ECDF of sorted ``values``: at most ``points`` quantile steps."""
    values = np.sort(np.asarray(values, dtype=float))
    if values.size == 0:
        return {"x": [], "y": []}
    k = np.unique(np.linspace(0, values.size - 1, min(points, values.size)).round().astype(int))
    return {"x": values[k].tolist(), "y": ((k + 1) / values.size).tolist()}


def between_ecdf(within_sorted, le, n_between, histogram):
    """The between ECDF for the chart: exact at every within value (where KS is
    read) and at the edges of a 200-bin histogram over [0, 1] (the rest of the curve;
    at an edge e the value is the share of distances below e, and 1 at e = 1)."""
    if n_between == 0:
        return {"x": [], "y": []}
    x_within = np.unique(within_sorted)
    last = np.searchsorted(within_sorted, x_within, "right") - 1
    y_within = le[last] / n_between if len(x_within) else np.zeros(0)
    edges = np.arange(1, len(histogram) + 1) / len(histogram)
    y_edges = np.cumsum(histogram) / n_between
    x = np.concatenate([x_within, edges])
    y = np.concatenate([y_within, y_edges])
    order = np.lexsort((y, x))
    return {"x": x[order].tolist(), "y": y[order].tolist()}


def bootstrap_intervals(per_item, between, detection, classification, n_resamples, seed, level=0.95):
    """Percentile intervals for σ, detection α and classification α."""
    n_items = len(per_item["within_sum"])
    if n_resamples <= 0 or n_items < 2:
        return {"sigma": None, "detection": None, "classification": None}
    counts = boot.resample_counts(n_items, n_resamples, seed)
    sigma_ci = None
    if between is not None:  # None: this kind has no localization (σ)
        within_sum = counts @ per_item["within_sum"]
        within_n = counts @ per_item["within_n"]
        between_sum = boot.weighted_pair_sums(counts, between["item_sums"])
        between_n = boot.weighted_pair_sums(counts, between["item_counts"])
        with np.errstate(divide="ignore", invalid="ignore"):
            mean_within = within_sum / within_n
            mean_between = between_sum / between_n
            sigma = np.where(mean_between > 0, 1.0 - mean_within / mean_between, np.nan)
        sigma_ci = boot.percentile_ci(sigma, level)
    det = alpha_from_coincidence((counts @ detection.reshape(n_items, -1)).reshape(-1, 2, 2))
    c = classification.shape[-1]
    cls = (alpha_from_coincidence((counts @ classification.reshape(n_items, -1)).reshape(-1, c, c))
           if c else np.full(n_resamples, np.nan))
    return {"sigma": sigma_ci, "detection": boot.percentile_ci(det, level),
            "classification": boot.percentile_ci(cls, level)}


def alpha_section(o, n_units, ci, key="alpha"):
    value = alpha_from_coincidence(o) if o.size else float("nan")
    reason = None
    if not np.isfinite(value):
        reason = "no units" if n_units == 0 else (undefined_reason(o) if o.size else "no units")
        reason = reason or "undefined"
    return {key: value, "ci": ci if np.isfinite(value) else None, "reason": reason, "n_units": n_units}


def _grouped_means(keys, values, n_groups):
    """Mean of ``values`` per integer key (NaN for an empty group), and the counts."""
    counts = np.bincount(keys, minlength=n_groups).astype(float)
    sums = np.bincount(keys, weights=values, minlength=n_groups) if len(keys) else np.zeros(n_groups)
    with np.errstate(divide="ignore", invalid="ignore"):
        return sums / counts, counts


def _breakdown(record_groups, match_groups, n_groups, raw, within, mean_between):
    """Measures per group.  ``record_groups``/``match_groups``: (index, group) arrays
    assigning records (annotator pairs on items) and matched pairs to groups."""
    rec, rec_group = record_groups
    mat, mat_group = match_groups
    f1, n_records = _grouped_means(rec_group, raw["f1"][rec], n_groups)
    agreement, _ = _grouped_means(rec_group, raw["agreement"][rec], n_groups)
    iou, n_matched = _grouped_means(mat_group, raw["matched_similarity"][mat], n_groups)
    if within is not None:
        mean_within, _ = _grouped_means(mat_group, within[mat], n_groups)
    else:
        mean_within = np.full(n_groups, np.nan)
    return [{"n_item_pairs": int(n_records[g]), "n_matched": int(n_matched[g]), "detection_f1": f1[g],
             "mean_agreement": agreement[g], "mean_matched_iou": iou[g], "mean_within": mean_within[g],
             "sigma": sigma_value(mean_within[g], mean_between)} for g in range(n_groups)]


def object_report(objects, kind, *, threshold, match_mode, bootstrap, seed, pair_budget,
                  progress=None, label_equal=_label_equal, label_key=str, localization=True,
                  potato_alpha=False):
    """All measures of the object engine as a plain dict (see module docstring)."""
    sims = item_similarities(objects, kind)
    records = pair_matching(objects, sims, threshold, match_mode, progress)
    raw = raw_measures(objects, records, label_equal)
    match_a = np.concatenate([r[5] for r in records]).astype(int) if records else np.zeros(0, int)
    match_b = np.concatenate([r[6] for r in records]).astype(int) if records else np.zeros(0, int)
    within_pair_index = np.repeat(np.arange(len(records)), [len(r[5]) for r in records]).astype(int)
    match_item = np.array([records[r][0] for r in within_pair_index], dtype=int)
    n_items = len(objects.item_ids)

    groups = item_clusters(objects, sims, threshold, match_mode)
    det_o, cls_o, categories, n_det, n_cls = alpha_inputs(objects, groups, label_key)
    data = {}
    within = None
    mean_between = float("nan")
    per_item = {"within_sum": np.zeros(n_items), "within_n": np.zeros(n_items)}
    between = None
    if localization:
        within = kind.paired_distance(match_a, match_b) if match_a.size else np.zeros(0)
        np.add.at(per_item["within_sum"], match_item, within)
        np.add.at(per_item["within_n"], match_item, 1.0)
        within_sorted = np.sort(within)
        between = between_baseline(objects, kind, within_sorted, pair_budget, seed, progress)
        mean_within = _mean(within)
        mean_between = between["sum"] / between["n"] if between["n"] else float("nan")
        sigma = sigma_value(mean_within, mean_between)
        data["localization"] = {
            "sigma": sigma,
            "ci": None,
            "reason": sigma_reason(len(within), between["n"], mean_between),
            "ks": ks_statistic(within_sorted, between["le"], between["lt"], between["n"]),
            "mean_within": mean_within,
            "mean_between": mean_between,
            "n_within": int(len(within)),
            "n_between": int(between["n"]),
            "n_between_possible": int(between["total_pairs"]),
            "between_exact": bool(between["exact"]),
            "between_se": between["se"],
            "within_ecdf": ecdf_summary(within_sorted),
            "between_ecdf": between_ecdf(within_sorted, between["le"], between["n"], between["histogram"]),
        }

    if progress is not None and bootstrap > 0:
        progress(0, 1, "bootstrap")
    cis = bootstrap_intervals(per_item, between, det_o, cls_o, bootstrap, seed)
    detection = alpha_section(det_o.sum(axis=0), n_det, cis["detection"])
    c = len(categories)
    classification = alpha_section(cls_o.sum(axis=0) if c else np.zeros((0, 0)), n_cls, cis["classification"])
    if potato_alpha:
        _potato_alpha_rule(detection, groups, objects, multi=False)
        _potato_alpha_rule(classification, groups, objects, multi=True)
    data["detection"] = detection
    data["classification"] = classification
    if localization and np.isfinite(data["localization"]["sigma"]):
        data["localization"]["ci"] = cis["sigma"]

    data.update({
        "mean_matched_iou": _mean(raw["matched_similarity"]),
        "detection_f1": _mean(raw["f1"]),
        "mean_agreement": _mean(raw["agreement"]),
        "mean_object_count_diff": _mean(raw["count_diff"]),
        "n_item_pairs": len(records),
        "n_matched_pairs": int(match_a.size),
    })

    names = objects.annotators
    n_names = len(names)
    rec_a = np.array([r[1] for r in records], dtype=int)
    rec_b = np.array([r[2] for r in records], dtype=int)
    rec_index = np.arange(len(records))
    pair_code = rec_a * n_names + rec_b
    codes, rec_pair = np.unique(pair_code, return_inverse=True)
    pairs = _breakdown((rec_index, rec_pair), (np.arange(len(within_pair_index)), rec_pair[within_pair_index]),
                       len(codes), raw, within, mean_between)
    data["pairs"] = [{"a": names[c // n_names], "b": names[c % n_names], **v} for c, v in zip(codes, pairs)]
    both_rec = np.concatenate([rec_index, rec_index])
    both_mat = np.concatenate([np.arange(len(within_pair_index))] * 2)
    per_annotator = _breakdown((both_rec, np.concatenate([rec_a, rec_b])),
                               (both_mat, np.concatenate([rec_a[within_pair_index], rec_b[within_pair_index]])),
                               n_names, raw, within, mean_between)
    n_objects_by = np.bincount(objects.annotator_of, minlength=len(names)) if objects.n_objects else \
        np.zeros(len(names), int)
    items_by = np.zeros(len(names), int)
    for member in objects.members:
        for a in member:
            items_by[a] += 1
    data["annotators"] = [{"annotator": names[a], "n_items": int(items_by[a]), "n_objects": int(n_objects_by[a]),
                           **per_annotator[a]} for a in range(n_names)]
    data["labels"] = _label_breakdown(objects, match_a, match_b, within, raw, mean_between, label_key)
    data["items"] = _item_breakdown(objects, records, raw, per_item, names)
    return data


def _potato_alpha_rule(section, groups, objects, multi):
    """Potato returns NaN when the α rows span < 2 units or < 2 annotators."""
    units = [g for gs in groups for g in gs if (len(g) >= 2 or not multi)]
    if multi:
        annotators = {a for g in units for a in g}
    else:
        annotators = {a for i, gs in enumerate(groups) if gs for a in objects.members[i]}
    if len(units) < 2 or len(annotators) < 2:
        section["alpha"] = float("nan")
        section["ci"] = None
        section["reason"] = ("fewer than 2 units" if len(units) < 2 else "fewer than 2 annotators") + \
            " (Potato's rule)"


def _label_breakdown(objects, match_a, match_b, within, raw, mean_between, label_key):
    """Per label: its objects, and the matched pairs in which either object carries it."""
    keys = [label_key(label) for label in objects.labels]
    if not keys:
        return []
    names, codes = np.unique(np.array(keys, dtype=object).astype(str), return_inverse=True)
    codes = codes.ravel()
    n = len(names)
    la, lb = codes[match_a], codes[match_b]
    differ = la != lb
    index = np.arange(len(match_a))
    member_match = np.concatenate([index, index[differ]])
    member_label = np.concatenate([la, lb[differ]])
    iou, n_matched = _grouped_means(member_label, raw["matched_similarity"][member_match], n)
    if within is not None:
        mean_within, _ = _grouped_means(member_label, within[member_match], n)
    else:
        mean_within = np.full(n, np.nan)
    mismatched = np.bincount(np.concatenate([la[differ], lb[differ]]), minlength=n)
    n_objects = np.bincount(codes, minlength=n)
    return [{"label": str(names[k]), "n_objects": int(n_objects[k]), "n_matched": int(n_matched[k]),
             "n_label_mismatch": int(mismatched[k]), "mean_matched_iou": iou[k], "mean_within": mean_within[k],
             "sigma": sigma_value(mean_within[k], mean_between)} for k in range(n)]


def _item_breakdown(objects, records, raw, per_item, names):
    out = []
    by_item = {}
    for r, rec in enumerate(records):
        by_item.setdefault(rec[0], []).append(r)
    for i, item in enumerate(objects.item_ids):
        rec = np.array(by_item.get(i, []), dtype=int)
        unmatched = sum(len(records[r][3]) + len(records[r][4]) - 2 * len(records[r][5]) for r in rec)
        n_within = per_item["within_n"][i]
        out.append({
            "item": item,
            "n_annotators": len(objects.members[i]),
            "objects_per_annotator": {names[a]: int(len(v)) for a, v in sorted(objects.members[i].items())},
            "n_unmatched": int(unmatched),
            "detection_f1": _mean(raw["f1"][rec]),
            "mean_within": per_item["within_sum"][i] / n_within if n_within else float("nan"),
        })
    out.sort(key=lambda d: (-(1 - (d["detection_f1"] if np.isfinite(d["detection_f1"]) else 1)),
                            -(d["mean_within"] if np.isfinite(d["mean_within"]) else 0)))
    return out
