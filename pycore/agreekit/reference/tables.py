"""Per-label and per-item rows of the reference section (definitions in :mod:`.scores`)."""
from __future__ import annotations

import numpy as np

from ..arrays import safe_ratio
from ..results import estimate


def _objects_of(objects, comps, side):
    """Global indices of every comparison's drawn (``side="annotator"``) or reference (``"gold"``) objects."""
    who = comps.annotator if side == "annotator" else comps.gold
    parts = [objects.members[i][a] for i, a in zip(comps.item.tolist(), who.tolist())]
    return np.concatenate(parts).astype(np.intp) if parts else np.zeros(0, np.intp)


def label_rows(objects, comps, labels, codes, conflicts, values):
    """One row per label: recall by reference label, precision by drawn label, conflicts by label.

    A reference object counts once per annotator compared with it.
    """
    n = len(labels)
    count = lambda idx: np.bincount(codes[idx], minlength=n) if len(idx) else np.zeros(n, np.intp)  # noqa: E731
    n_reference, n_drawn = count(_objects_of(objects, comps, "gold")), count(_objects_of(objects, comps, "annotator"))
    matched_ref, matched_drawn = count(comps.ref), count(comps.drawn)
    low_ref, low_drawn = count(comps.low_ref), count(comps.low_drawn)
    ref_codes = codes[comps.ref] if len(comps.ref) else np.zeros(0, np.intp)
    wrong = np.bincount(ref_codes[ref_codes != codes[comps.drawn]], minlength=n) if len(comps.ref) else np.zeros(n)
    iou = safe_ratio(np.bincount(ref_codes, comps.similarity, minlength=n), matched_ref)
    recall, precision = safe_ratio(matched_ref, n_reference), safe_ratio(matched_drawn, n_drawn)
    rows = []
    for k, label in enumerate(labels):
        rows.append({"label": label, "n_reference": int(n_reference[k]), "n_drawn": int(n_drawn[k]),
                     "recall": estimate(recall[k], reason="no reference object has this label", n=n_reference[k]),
                     "precision": estimate(precision[k], reason="no drawn object has this label", n=n_drawn[k]),
                     "mean_matched_iou": float(iou[k]),
                     "conflicts": {"missing": int(n_reference[k] - matched_ref[k] - low_ref[k]),
                                   "extra": int(n_drawn[k] - matched_drawn[k] - low_drawn[k]),
                                   "low_overlap": int(low_ref[k]), "wrong_label": int(wrong[k])}})
    return rows


def item_rows(objects, comps, values, conflicts):
    """One row per scored item, most conflicts first (then lowest recall, then name)."""
    n_items = objects.n_items
    add = lambda v: np.bincount(comps.item, v, minlength=n_items)  # noqa: E731
    matched, drawn, ref = add(values["n_matched"]), add(values["n_drawn"]), add(values["n_reference"])
    counts = {name: add(v) for name, v in conflicts.items()}
    n_comparisons = np.bincount(comps.item, minlength=n_items)
    precision, recall = safe_ratio(matched, drawn), safe_ratio(matched, ref)
    f1 = safe_ratio(2 * matched, drawn + ref)
    by_annotator = _annotator_conflicts(objects, comps, conflicts)
    rows = []
    for i in np.flatnonzero(n_comparisons).tolist():
        row_conflicts = {name: int(round(v[i])) for name, v in counts.items()}
        rows.append({"item": objects.item_ids[i], "n_annotators": int(n_comparisons[i]),
                     "n_drawn": int(drawn[i]), "n_reference": int(ref[i]), "n_matched": int(matched[i]),
                     "precision": float(precision[i]), "recall": float(recall[i]), "f1": float(f1[i]),
                     "conflicts": row_conflicts, "n_conflicts": sum(row_conflicts.values()),
                     "annotator_conflicts": sorted(by_annotator.get(i, ()), key=lambda r: r["annotator"])})
    rows.sort(key=lambda r: (-r["n_conflicts"], r["recall"] if np.isfinite(r["recall"]) else 2.0, r["item"]))
    return rows


def _annotator_conflicts(objects, comps, conflicts):
    """item index → rows ``{"annotator", **conflict counts}`` of the comparisons with any conflict."""
    names = list(conflicts)
    counts = np.stack([np.asarray(conflicts[name]) for name in names], axis=1) if comps.n else np.zeros((0, 0))
    out = {}
    for k in np.flatnonzero(counts.sum(axis=1) > 0).tolist() if comps.n else []:
        row = {"annotator": objects.annotators[int(comps.annotator[k])],
               **{name: int(round(counts[k, j])) for j, name in enumerate(names)}}
        out.setdefault(int(comps.item[k]), []).append(row)
    return out
