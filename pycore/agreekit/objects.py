"""Agreement over sets of objects per item: the engine behind boxes (and any
other kind whose annotations are objects with a similarity and a distance).

For each item annotated by ≥ 2 annotators ("comparable"), and each sorted
annotator pair on it, the pair's objects are matched one-to-one at a
similarity threshold (:mod:`agreekit.matching`).  From the matches:

* Raw measures, Potato's definitions (``docs/potato-differences.md``), pooled over
  (item, annotator pair): ``mean_agreement`` (Σ matched similarity, halved on
  a label mismatch, over matches + unmatched; 1 if both drew nothing, 0 if
  one did), ``detection_f1`` = 2·matches/(|a| + |b|) (1 if both empty),
  ``mean_object_count_diff`` = mean ||a| − |b||; ``mean_matched_iou`` pools
  over matched pairs.
* Detection α: nominal Krippendorff α over present/absent of each annotator
  of the item in each cluster (annotators who drew nothing count as absent).
  Classification α: nominal α over the labels of clusters with ≥ 2 members.
* σ = 1 − mean(within) / mean(between) (:mod:`agreekit.measures.chance`).  Within: the distance of every
  matched pair.  Between: the mean distance over **all** unordered pairs of
  objects (pooled over every annotator, matched or not) on different
  comparable items, streamed in chunks; above ``pair_budget`` pairs a seeded
  uniform sample of pairs is used and its standard error reported.
* KS: the textbook two-sample Kolmogorov–Smirnov D = sup |F_within − F_between|,
  evaluated from counts of between distances below and at each within value
  (so ties are handled exactly and the between list is never sorted).
* Bootstrap over items by reweighting per-item sums (:mod:`agreekit.measures.bootstrap`);
  pairs of two copies of one drawn item never enter the between baseline.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from . import breakdowns
from .arrays import safe_ratio
from .matching import clusters as make_clusters
from .matching import disjoint_pairs, match
from .measures import bootstrap as boot
from .measures import cross, pair_sigma
from .measures.alpha import alpha_from_coincidence
from .measures.chance import between_baseline, ks_statistic, needs_sparse, resampled_between
from .measures.sigma import sigma_reason, sigma_value
from .measures.ecdf import between_ecdf, ecdf_summary
from . import object_sets
from .object_alpha import AlphaInputs, _potato_alpha_rule, alpha_estimate, alpha_inputs  # noqa: F401
from .object_blocks import LargeItem, block_matches, large_item_clusters
from .object_sets import item_label_equality, labels_equal
from .results import CI_LEVEL, Report, estimate


@dataclass(frozen=True)
class ObjectKind:
    """How to compare objects of one kind, by global object index.

    ``paired_distance`` and ``distance_block`` are None for a kind without σ;
    ``similarity_block`` None for a kind that only gives the square (see :meth:`block`).
    """

    similarity: Callable        # (idx) -> (k × k) similarity among objects idx
    paired_distance: Callable   # (ia, ib) -> distances of pairs (ia[k], ib[k])
    distance_block: Callable    # (rows, cols) -> (len(rows) × len(cols)) distances
    similarity_block: Callable = None  # (rows, cols) -> (len(rows) × len(cols)) similarities
    candidates: Callable = None  # (rows, cols) -> (r, c, s): every pair that may have similarity > 0, with it
    transposed_distance_block: Callable = None  # (rows, cols) -> distance_block(rows, cols).T, C-contiguous

    def block(self, rows, cols):
        """Similarity of objects ``rows`` × ``cols``: the kind's own block, else cut from its square."""
        if self.similarity_block is not None:
            return self.similarity_block(rows, cols)
        return self.similarity(np.concatenate([rows, cols]))[:len(rows), len(rows):]


class PairMatch(NamedTuple):
    """One annotator pair (a < b, positions) on one item and its one-to-one matching."""

    item: int
    a: int
    b: int
    objects_a: np.ndarray     # global indices of a's objects on the item
    objects_b: np.ndarray
    matched_a: np.ndarray     # matched objects, aligned: matched_a[k] ↔ matched_b[k]
    matched_b: np.ndarray
    similarity: np.ndarray    # similarity of each matched pair


class MatchedPairs(NamedTuple):
    """Every matched pair of objects, flattened over the :class:`PairMatch` records."""

    a: np.ndarray        # global object index on the lower annotator's side
    b: np.ndarray
    record: np.ndarray   # index of its PairMatch
    item: np.ndarray



# ----------------------------------------------------------------- matching

def _local_index(indices, start):
    """Global object ``indices`` as a local index of their item: a slice when they are one run (the usual
    case; the objects of one annotator on one item are contiguous), else the array."""
    local = indices - start
    if len(local) and local[-1] - local[0] + 1 == len(local):
        return slice(int(local[0]), int(local[-1]) + 1)
    return local


def _take(matrix, rows, cols):
    """matrix[rows][:, cols] for local indices of :func:`_local_index`, by slicing when both are slices;
    of a large item's :class:`~agreekit.object_blocks.LargeItem` or ``ItemLabels``, that block computed."""
    if isinstance(matrix, (LargeItem, object_sets.ItemLabels)):
        rows, cols = (np.arange(k.start, k.stop) if isinstance(k, slice) else k for k in (rows, cols))
        return matrix.dense(rows, cols) if isinstance(matrix, LargeItem) else matrix.block(rows, cols)
    if isinstance(rows, slice) and isinstance(cols, slice):
        return matrix[rows, cols]
    rows, cols = (np.arange(matrix.shape[0])[rows], np.arange(matrix.shape[1])[cols])
    return matrix[np.ix_(rows, cols)]


def item_similarities(objects, kind):
    """Each comparable item's object-by-object similarity matrix (local indices); a
    :class:`~agreekit.object_blocks.LargeItem` above ``DENSE_ITEM_OBJECTS`` objects."""
    out = []
    for i in range(objects.n_items):
        start, stop = objects.offsets[i], objects.offsets[i + 1]
        if stop - start > object_sets.DENSE_ITEM_OBJECTS:
            out.append(LargeItem(int(start), kind.block, kind.candidates))
        else:
            out.append(kind.similarity(np.arange(start, stop)) if stop > start else np.zeros((0, 0)))
    return out


def pair_matching(objects, sims, threshold, mode, same_labels, progress=None):
    """Match every annotator pair on every item: a list of :class:`PairMatch`."""
    records = []
    for i in range(objects.n_items):
        positions = sorted(objects.members[i])
        drawn = [objects.members[i][a] for a in positions]
        if isinstance(sims[i], LargeItem):
            records += _large_item_pairs(i, sims[i], same_labels[i], positions, drawn, threshold, mode)
            continue
        local = [_local_index(g, objects.offsets[i]) for g in drawn]
        allowed = sims[i] >= threshold  # match's own first step, once per item
        for x, a in enumerate(positions):
            for y in range(x + 1, len(positions)):
                sub = _take(sims[i], local[x], local[y])
                found = disjoint_pairs(_take(allowed, local[x], local[y])) if mode == "optimal" else None
                if found is None:  # pairs that compete for an object, or Potato's mode: solve
                    found = match(sub, threshold, mode, _take(same_labels[i], local[x], local[y]))
                rows, cols = found
                ga, gb = drawn[x], drawn[y]
                records.append(PairMatch(i, a, positions[y], ga, gb, ga[rows], gb[cols], sub[rows, cols]))
        if progress is not None and (i % 50 == 0 or i == objects.n_items - 1):
            progress(i + 1, objects.n_items, "matching")
    return records


def _large_item_pairs(i, item, labels, positions, drawn, threshold, mode):
    """The :class:`PairMatch` records of a :class:`~agreekit.object_blocks.LargeItem`, block by block."""
    records = []
    for x, a in enumerate(positions):
        for y in range(x + 1, len(positions)):
            ga, gb = drawn[x], drawn[y]
            rows, cols, sim = block_matches(item, labels, ga - item.start, gb - item.start, threshold, mode)
            records.append(PairMatch(i, a, positions[y], ga, gb, ga[rows], gb[cols], sim))
    return records


def matched_pairs(records):
    """The matched object pairs of ``records``, flattened (:class:`MatchedPairs`)."""
    if not records:
        empty = np.zeros(0, dtype=np.intp)
        return MatchedPairs(empty, empty, empty, empty)
    sizes = [len(r.matched_a) for r in records]
    record = np.repeat(np.arange(len(records), dtype=np.intp), sizes)
    items = np.array([r.item for r in records], dtype=np.intp)
    return MatchedPairs(np.concatenate([r.matched_a for r in records]).astype(np.intp),
                        np.concatenate([r.matched_b for r in records]).astype(np.intp), record, items[record])


def raw_measures(objects, records, label_equal):
    """Potato's raw measures per :class:`PairMatch` record (pooled by the caller)."""
    pairs = matched_pairs(records)
    similarity = np.concatenate([r.similarity for r in records]) if records else np.zeros(0)
    # Potato's weight of a matched pair: 1 for the same label, ½ for another.
    weighted = similarity * np.where(labels_equal(objects.labels, pairs.a, pairs.b, label_equal), 1.0, 0.5)
    agreement, f1, end = [], [], 0
    for r in records:
        na, nb, nm = len(r.objects_a), len(r.objects_b), len(r.matched_a)
        end += nm
        if na == 0 or nb == 0:
            both_empty = float(na == nb)  # both drew nothing: full agreement; one did: none
            agreement.append(both_empty)
            f1.append(both_empty)
            continue
        total = float(weighted[end - nm:end].sum()) if nm else 0.0  # the method: np.sum's, without its wrapper
        agreement.append(min(1.0, max(0.0, total / (na + nb - nm))))
        f1.append(2.0 * nm / (na + nb))
    return {"agreement": np.array(agreement), "f1": np.array(f1),
            "count_diff": np.array([abs(len(r.objects_a) - len(r.objects_b)) for r in records], float),
            "matched_similarity": similarity}


def mean(values):
    """The mean of ``values``, NaN when there are none."""
    values = np.asarray(values, dtype=float)
    return float(values.mean()) if values.size else float("nan")


# ----------------------------------------------------------------- detection and classification α

def item_clusters(objects, sims, threshold, mode, same_labels):
    """Clusters per item, each a dict {annotator position: object index}."""
    out = []
    for i in range(objects.n_items):
        start, stop = objects.offsets[i], objects.offsets[i + 1]
        positions = sorted(objects.members[i])
        if stop == start:
            out.append([])
            continue
        local = [objects.members[i][p] - start for p in positions]
        if isinstance(sims[i], LargeItem):
            groups = large_item_clusters(sims[i], same_labels[i], local, threshold, mode)
        else:
            groups = make_clusters(local, sims[i], threshold, mode, same_labels[i])
        out.append([{positions[k]: int(obj) + start for k, obj in g.items()} for g in groups])
    return out


# ----------------------------------------------------------------- σ and the intervals

class Localization(NamedTuple):
    """Within-item distances of the matched pairs and the between-item baselines."""

    within: np.ndarray          # distance of each matched pair (aligned with MatchedPairs)
    within_sum: np.ndarray      # per item
    within_n: np.ndarray        # per item
    between: dict               # :func:`agreekit.measures.chance.between_baseline`
    mean_between: float
    mean_between_cross: float   # over pairs of objects by different annotators (:mod:`agreekit.measures.cross`)
    below_quantile: np.ndarray  # per item: matched pairs whose distance is below the between quantile
    significance_level: float


def localize(objects, kind, pairs, pair_budget, seed, progress, significance_level=0.05):
    """The :class:`Localization` of the matched ``pairs``."""
    within = kind.paired_distance(pairs.a, pairs.b) if pairs.a.size else np.zeros(0)
    within_sum = np.bincount(pairs.item, weights=within, minlength=objects.n_items)
    within_n = np.bincount(pairs.item, minlength=objects.n_items).astype(float)
    order = np.argsort(within, kind="stable")
    between = between_baseline(objects, kind, within[order], pair_budget, seed, progress, cross=True)
    mean_between = between["sum"] / between["n"] if between["n"] else float("nan")
    cross = between["cross"]
    mean_cross = cross.total_sum / cross.total_n if cross.total_n else float("nan")
    below = np.zeros(len(within))
    below[order] = below_between_quantile(between["le"], between["n"], significance_level)
    below_quantile = np.bincount(pairs.item, weights=below, minlength=objects.n_items)
    return Localization(within, within_sum, within_n, between, mean_between, mean_cross, below_quantile,
                        significance_level)


def below_between_quantile(le, n_between, level):
    """For each sorted within distance w_k, whether w_k < q_level(between).

    q_level is the inverse-ECDF quantile min{x : F_between(x) ≥ level}, so
    w < q exactly when F_between(w) < level, and F_between(w_k) = le[k] /
    n_between is exact (after the KS grid snap): no quantile is estimated.
    """
    if n_between == 0:
        return np.zeros(len(le), dtype=bool)
    return le < level * n_between


def localization_section(loc, cis, baseline_se=None):
    """The report's ``localization``: σ, σ_cross, σ_B and KS as estimates, their ingredients beside
    them (``cis``: the intervals of :func:`bootstrap_intervals`, or None)."""
    cis = cis or {}
    within_sorted = np.sort(loc.within)
    between, cross = loc.between, loc.between["cross"]
    mean_within = mean(loc.within)
    n = len(loc.within)
    reason = sigma_reason(n, between["n"], loc.mean_between)
    reason_cross = sigma_reason(n, cross.total_n, loc.mean_between_cross)
    ks = ks_statistic(within_sorted, between["le"], between["lt"], between["n"])
    ks_cross = ks_statistic(within_sorted, between["le_cross"], between["lt_cross"], cross.total_n)
    share = float(loc.below_quantile.sum() / n) if n and between["n"] else float("nan")
    return {
        "sigma": estimate(sigma_value(mean_within, loc.mean_between), cis.get("sigma"), reason, n=n),
        "ks": estimate(ks, None, reason, n=n),
        "sigma_cross": estimate(sigma_value(mean_within, loc.mean_between_cross), cis.get("sigma_cross"),
                                reason_cross, n=n),
        "ks_cross": estimate(ks_cross, None, reason_cross, n=n),
        "significance_share": estimate(share, cis.get("significance_share"),
                                       sigma_reason(n, between["n"], 1.0), n=n),
        "significance_level": loc.significance_level,
        "mean_within": mean_within,
        "mean_between": loc.mean_between,
        "mean_between_cross": loc.mean_between_cross,
        "n_within": int(len(loc.within)),
        "n_between": int(between["n"]),
        "n_between_cross": int(cross.total_n),
        "n_between_possible": int(between["total_pairs"]),
        "between_exact": bool(between["exact"]),
        "between_se": between["se"],
        "baseline_interval": between["terms"].description,
        "baseline_interval_se": baseline_se,
        "within_ecdf": ecdf_summary(within_sorted),
        "between_ecdf": between_ecdf(within_sorted, between["le"], between["n"], between["histogram"]),
    }


def _resampled_sigma(counts, loc):
    """σ of each resample, and the error of its between mean from estimating the baseline (or None)."""
    mean_within = safe_ratio(counts @ loc.within_sum, counts @ loc.within_n)
    mean_between, error = resampled_between(loc.between["terms"], counts)
    return 1.0 - safe_ratio(mean_within, mean_between), error


def _resampled_localization(counts, loc):
    """σ_cross (None without dense cross terms) and σ_B of each resample; σ_B holds the between
    quantile at its full-corpus value and resamples the matched pairs below it."""
    share = safe_ratio(counts @ loc.below_quantile, counts @ loc.within_n)
    terms = loc.between["cross_terms"]
    if terms is None:
        return None, share
    mean_within = safe_ratio(counts @ loc.within_sum, counts @ loc.within_n)
    return 1.0 - safe_ratio(mean_within, resampled_between(terms, counts)[0]), share


def _resampled_alpha(counts, per_item):
    n_items, c = per_item.shape[0], per_item.shape[-1]
    if not c:
        return np.full(len(counts), np.nan)
    return alpha_from_coincidence((counts @ per_item.reshape(n_items, -1)).reshape(-1, c, c))


def bootstrap_intervals(n_items, loc, alpha_in, n_resamples, seed, ranks=None, items=None, progress=None,
                        pair_terms=None):
    """Percentile intervals of σ, σ_cross and σ_B (None without localization; σ_cross also without its
    dense item-pair terms), detection α and classification α, over resamples drawn in chunks;
    ``baseline_interval_se``: the root mean square over resamples of the error that estimating the
    baseline's item-pair sums adds to a between mean (None when they are exact).  ``ranks``: the
    items' content order, in which the resamples are drawn (``ObjectSet.item_ranks``); ``items`` their ids.
    ``pair_terms`` (:func:`agreekit.breakdowns.pair_sigma_terms`): also ``pairs``, the interval of each pair's σ (else None)."""
    names = ("sigma", "sigma_cross", "significance_share", "detection", "classification")
    if n_resamples <= 0 or n_items < 2:
        return {**dict.fromkeys(names), "baseline_interval_se": None, "pairs": None}
    values, error, done, progress = {name: [] for name in names}, [], 0, progress or (lambda *_: None)
    pair_values = []
    progress(0, n_resamples, "bootstrap")  # then after each of ≥ boot.PROGRESS_STEPS chunks of resamples
    step = boot.progress_chunk_elements(n_items, n_resamples)
    for counts in boot.resample_count_chunks(n_items, n_resamples, seed, step, ranks, items):
        if loc is not None:
            sigma, errors = _resampled_sigma(counts, loc)
            values["sigma"].append(sigma)
            error += [errors] if errors is not None else []
            sigma_cross, share = _resampled_localization(counts, loc)
            values["sigma_cross"] += [sigma_cross] if sigma_cross is not None else []
            values["significance_share"].append(share)
        if pair_terms is not None:
            pair_values.append(pair_sigma.resampled_pair_sigma(pair_terms, counts))
        values["detection"].append(_resampled_alpha(counts, alpha_in.detection))
        values["classification"].append(_resampled_alpha(counts, alpha_in.classification))
        progress(done := done + len(counts), n_resamples, "bootstrap")
    error = np.concatenate(error) if error else None
    out = {name: boot.percentile_ci(np.concatenate(v)) if v else None for name, v in values.items()}
    out["baseline_interval_se"] = float(np.sqrt(np.nanmean(error ** 2))) if error is not None else None
    draws = np.concatenate(pair_values) if pair_values else None
    out["pairs"] = [boot.percentile_ci(draws[:, p]) for p in range(draws.shape[1])] if draws is not None else None
    return out


# ----------------------------------------------------------------- the report

def object_report(objects, kind, *, threshold, match_mode, bootstrap, seed, pair_budget, progress=None,
                  label_equal=lambda a, b: a == b, label_key=str, localization=True, potato_alpha=False,
                  significance_level=0.05):
    """All measures of the object engine as a plain dict (see the module docstring).

    ``localization=False`` (a kind without σ) leaves σ, KS and the within
    distances out of every section.
    """
    if localization and needs_sparse(np.diff(objects.offsets), pair_budget):
        import scipy.sparse  # noqa: F401  (the page installs it on demand and runs the report again: fail first)
    sims = item_similarities(objects, kind)
    same_labels = item_label_equality(objects, label_key)
    records = pair_matching(objects, sims, threshold, match_mode, same_labels, progress)
    raw = raw_measures(objects, records, label_equal)
    pairs = matched_pairs(records)
    groups = item_clusters(objects, sims, threshold, match_mode, same_labels)
    alpha_in = alpha_inputs(objects, groups, label_key)
    loc = localize(objects, kind, pairs, pair_budget, seed, progress, significance_level) if localization else None
    terms, unkept = breakdowns.pair_sigma_terms(objects, records, pairs, loc, bootstrap)
    cis = bootstrap_intervals(objects.n_items, loc, alpha_in, bootstrap, seed, objects.item_ranks, objects.item_ids,
                              progress, terms)
    detection = alpha_estimate(alpha_in.detection.sum(axis=0), alpha_in.n_detection_units, cis["detection"])
    classification = alpha_estimate(alpha_in.classification.sum(axis=0), alpha_in.n_classification_units,
                                    cis["classification"])
    if potato_alpha:
        detection = _potato_alpha_rule(detection, groups, objects, multi=False)
        classification = _potato_alpha_rule(classification, groups, objects, multi=True)
    section = localization_section(loc, cis, cis["baseline_interval_se"]) if loc is not None else None
    data = {"localization": section} if section is not None else {}
    data.update({
        "detection": detection,
        "classification": classification,
        "mean_matched_iou": mean(raw["matched_similarity"]),
        "detection_f1": mean(raw["f1"]),
        "mean_agreement": mean(raw["agreement"]),
        "mean_object_count_diff": mean(raw["count_diff"]),
        "n_item_pairs": len(records),
        "n_matched_pairs": int(pairs.a.size),
    })
    data.update(breakdowns.tables(objects, records, pairs, raw, loc, label_key, groups, threshold,
                                  breakdowns.PairIntervals(cis["pairs"], unkept)))
    return data


def object_kind_report(kind, count_key, count, records, objects, data, warnings, settings, pair_budget=None):
    """The box-style report of one kind of object (boxes, polygons, cuboids) from the engine's output.

    ``pair_budget``: the budget the baseline was computed with, when the kind scaled the one in
    ``settings`` (polygons count vertex work).
    """
    loc = data["localization"]
    budget = settings["pair_budget"] if pair_budget is None else pair_budget
    if not loc["between_exact"]:
        warnings.append(f"the chance baseline has {loc['n_between_possible']:,} pairs, more than the budget "
                        f"{budget:,}: it is a seeded sample of {loc['n_between']:,} pairs "
                        f"(standard error of the mean {loc['between_se']:.2g})")
    if settings.get("bootstrap") and loc["between_exact"] and objects.n_items > cross.DENSE_ITEMS:
        warnings.append(f"no interval for σ_cross: above {cross.DENSE_ITEMS:,} items its item-pair sums are "
                        "not kept")
    if len(objects.annotators) > cross.PAIR_ANNOTATORS:
        warnings.append(f"more than {cross.PAIR_ANNOTATORS:,} annotators: per-pair cross baselines are not "
                        "kept; the pair table's σ uses the corpus σ_cross baseline")
    if loc["baseline_interval_se"] is not None:
        warnings.append(f"the σ interval's chance baseline is {loc['baseline_interval']} (standard error of a "
                        f"resampled between mean {loc['baseline_interval_se']:.2g})")
    return Report(kind, {
        "settings": {**settings, "ci_level": CI_LEVEL},
        "n_items": objects.n_items,
        "n_items_total": len({r.item for r in records}),
        "n_annotators": len({r.annotator for r in records}),
        count_key: count,
        **data,
        "warnings": warnings,
    })
