"""The report's ``reference`` section: each annotator against its reference, and in total.

Definitions (``docs/reference.md``), per annotator and pooled over annotators,
all from the comparisons of :mod:`.compare` (an annotator's objects on an item
against its reference's objects there):

* precision = matched / drawn, recall = matched / reference objects,
  F1 = 2·matched / (drawn + reference), each pooled over the comparisons
  (micro averages); matched = the one-to-one matches at the threshold;
* mean matched similarity (IoU, IoU₃D, temporal or span IoU: the kind's);
* σ against the reference = 1 − mean(distance of the matched pairs) / the
  cross baseline (:mod:`.baseline`): 0 for an annotator no closer to the
  reference's objects on its own item than to those of other items;
* κ: Cohen's κ of (reference label, drawn label) over the matched pairs, and
  their confusion table;
* conflicts, named as CVAT's quality report names them: ``missing`` (a
  reference object matched by nothing), ``extra`` (a drawn object matching
  nothing), ``low_overlap`` (a leftover pair whose similarity is at least
  ``low_overlap`` but below the threshold), ``wrong_label`` (matched, labels
  differ).  Per comparison: missing + low_overlap + matched = reference objects,
  extra + low_overlap + matched = drawn objects.
"""
from __future__ import annotations

import numpy as np

from ..measures.chance import sigma_reason, sigma_value
from ..measures.kappa import cohen_kappa, kappa_reason
from ..results import estimate
from . import intervals, tables
from .baseline import cross_baseline
from .compare import compare, matched_labels

CONFLICTS = ("missing", "extra", "low_overlap", "wrong_label")


def comparison_values(objects, kind, comps, label_key, localization):
    """Per-comparison sums (counts, similarity, conflicts, within distances) and the label codes of the pairs."""
    drawn_codes, ref_codes, names, codes = matched_labels(objects, comps, label_key)
    n = comps.n
    n_matched = comps.n_matched().astype(float)
    within = (kind.paired_distance(comps.drawn, comps.ref) if localization and len(comps.drawn)
              else np.zeros(len(comps.drawn)))
    values = {"n_matched": n_matched, "n_drawn": comps.n_drawn.astype(float),
              "n_reference": comps.n_reference.astype(float),
              "similarity_sum": np.bincount(comps.pair_of, comps.similarity, minlength=n),
              "within_sum": np.bincount(comps.pair_of, within, minlength=n)}
    conflicts = {"missing": values["n_reference"] - n_matched - comps.n_low,
                 "extra": values["n_drawn"] - n_matched - comps.n_low,
                 "low_overlap": comps.n_low.astype(float),
                 "wrong_label": np.bincount(comps.pair_of[drawn_codes != ref_codes], minlength=n).astype(float)}
    return values, conflicts, (drawn_codes, ref_codes, names, codes)


def _sums(values, conflicts, select=None):
    pick = (lambda v: v.sum()) if select is None else (lambda v: np.bincount(select[0], v, minlength=select[1]))
    return {name: pick(v) for name, v in {**values, **conflicts}.items()}


def _estimates(sums, cross_sum, cross_n, table, cis, localization):
    """One row of scores (the total or one annotator's) from its summed counts."""
    cis = cis or {}
    ratios = intervals.ratio_values(sums)
    m, drawn, ref = int(sums["n_matched"]), int(sums["n_drawn"]), int(sums["n_reference"])
    mean_within = sums["within_sum"] / m if m else float("nan")
    cross = cross_sum / cross_n if cross_n else float("nan")
    row = {
        "n_drawn": drawn, "n_reference": ref, "n_matched": m,
        "precision": estimate(ratios["precision"], cis.get("precision"), "nothing drawn on scored items", n=drawn),
        "recall": estimate(ratios["recall"], cis.get("recall"), "no reference objects on scored items", n=ref),
        "f1": estimate(ratios["f1"], cis.get("f1"), "no objects on either side", n=drawn + ref),
        "mean_matched_iou": estimate(ratios["mean_matched_iou"], cis.get("mean_matched_iou"), "no matched pairs",
                                     n=m),
        "kappa": estimate(cohen_kappa(table).kappa if m else float("nan"), cis.get("kappa"),
                          (kappa_reason(table) if m else None) or "no matched pairs", n=m),
        "conflicts": {name: int(round(sums[name])) for name in CONFLICTS},
    }
    if localization:
        row.update({"sigma": estimate(sigma_value(mean_within, cross), cis.get("sigma"),
                                      sigma_reason(m, int(cross_n), cross), n=m),
                    "mean_within": mean_within, "mean_between_cross": cross})
    return row


def _own_inputs(baseline, comps, values, names, objects):
    """Per annotator (in ``names`` order): its item-pair cross sums and its within sums per own item, for its
    σ interval; None without them (no localization, or too many items × annotators)."""
    if baseline is None or baseline.own is None:
        return None
    position = {a: k for k, a in enumerate(objects.annotators)}
    out = []
    for name in names:
        own = baseline.own.get(position.get(name))
        if own is None:
            out.append(None)
            continue
        mine = comps.annotator == position[name]
        at = np.searchsorted(own.items, comps.item[mine])
        size = len(own.items)
        out.append((own, np.bincount(at, values["within_sum"][mine], minlength=size),
                    np.bincount(at, values["n_matched"][mine], minlength=size)))
    return out


def _label_tables(groups, n_groups, pair_group, ref_codes, drawn_codes, n_labels):
    """(n_groups, L, L) tables of matched pairs (reference label × drawn label) per group."""
    flat = (pair_group * n_labels + ref_codes) * n_labels + drawn_codes
    return np.bincount(flat, minlength=n_groups * n_labels * n_labels).reshape(n_groups, n_labels, n_labels)


# Long: assembles the section from the pieces, each a call; splitting it would only pass them around.
def reference_section(objects, kind, chosen, *, threshold, low_overlap, mode, label_key, bootstrap, seed,
                      localization=True):
    """The report's ``reference`` section (see the module docstring and ``docs/report.md``).

    ``chosen`` is :class:`.setup.ReferenceRecords`; ``objects`` the object set of its
    raters and references together, ``kind`` their :class:`~agreekit.objects.ObjectKind`.
    ``localization=False`` (a kind without a between-item distance) leaves σ out.
    """
    comps = compare(objects, kind, chosen.gold_of, threshold=threshold, low_overlap=low_overlap, mode=mode,
                    label_key=label_key)
    values, conflicts, (drawn_codes, ref_codes, labels, codes) = comparison_values(objects, kind, comps, label_key,
                                                                                   localization)
    names = sorted(chosen.gold_of)
    group_of = {objects.annotators.index(a): k for k, a in enumerate(names) if a in objects.annotators}
    group = np.array([group_of[a] for a in comps.annotator.tolist()], dtype=np.intp)
    baseline = cross_baseline(objects, kind, comps) if localization else None
    n_labels = len(labels)
    pair_group = group[comps.pair_of]
    label_tables = _label_tables(group, len(names), pair_group, ref_codes, drawn_codes, n_labels)
    within_item = (np.bincount(comps.item, values["within_sum"], minlength=objects.n_items),
                   np.bincount(comps.item, values["n_matched"], minlength=objects.n_items))
    cis = intervals.bootstrap({"group": group, "n_groups": len(names), "item": comps.item,
                               "values": {k: values[k] for k in ("n_matched", "n_drawn", "n_reference",
                                                                 "similarity_sum")},
                               "within": within_item, "baseline": baseline, "n_labels": n_labels,
                               "tables": intervals.item_label_tables(objects.n_items, comps.item[comps.pair_of],
                                                                     ref_codes, drawn_codes, n_labels),
                               "own": _own_inputs(baseline, comps, values, names, objects),
                               "own_tables": intervals.own_label_tables(
                                   comps.item, group, comps.item[comps.pair_of], pair_group, ref_codes, drawn_codes,
                                   len(names), n_labels)},
                              objects.n_items, bootstrap, seed, objects.item_ranks)
    per = _sums(values, conflicts, (group, len(names)))
    position = {a: k for k, a in enumerate(objects.annotators)}
    rows = []
    for k, name in enumerate(names):
        row_cis = {score: cis["annotators"][score][k] for score in cis["annotators"]} if cis else None
        p = position.get(name)
        cross = (baseline.annotator_sums[p], baseline.annotator_counts[p]) if baseline and p is not None else (0, 0)
        row = _estimates({s: v[k] for s, v in per.items()}, *cross, label_tables[k], row_cis, localization)
        rows.append({"annotator": name, "n_items": int(np.count_nonzero(group == k)),
                     "n_items_without_reference": 0, **row})
    cross_total = (baseline.annotator_sums.sum(), baseline.annotator_counts.sum()) if baseline else (0, 0)
    total = _estimates(_sums(values, conflicts), *cross_total, label_tables.sum(axis=0),
                       cis["total"] if cis else None, localization)
    return {
        "source": chosen.source,
        "annotator": chosen.annotator,
        "threshold": threshold,
        "low_overlap": low_overlap,
        "n_annotators": len(names),
        "n_items": int(len(np.unique(comps.item))),
        "n_comparisons": int(comps.n),
        "n_items_without_reference": 0,   # filled by .report, from the records (items left out of `objects` too)
        "n_reference_items_unused": int(chosen.n_gold_items_unused),
        "total": total,
        "annotators": rows,
        "confusion": {"labels": labels, "counts": label_tables.sum(axis=0).tolist()},
        "labels": tables.label_rows(objects, comps, labels, codes, conflicts, values),
        "items": tables.item_rows(objects, comps, values, conflicts),
    }
