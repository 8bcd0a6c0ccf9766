"""Detection and classification α of the object engine: nominal Krippendorff α over the clusters
of each item (:func:`agreekit.objects.item_clusters`).

Detection α counts each annotator of the item as present or absent in each
cluster (annotators who drew nothing count as absent); classification α takes
the labels of the clusters with ≥ 2 members.  Potato's rule (``potato_alpha``)
returns NaN when the α rows span < 2 units or < 2 annotators.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .measures.alpha import alpha_from_coincidence, grouped_coincidences, undefined_reason
from .results import estimate


class AlphaInputs(NamedTuple):
    """Per-item coincidence matrices of detection and classification α."""

    detection: np.ndarray        # (n_items, 2, 2): present / absent per cluster
    classification: np.ndarray   # (n_items, C, C): labels of clusters with ≥ 2 members
    n_detection_units: int
    n_classification_units: int


def alpha_inputs(objects, clusters, label_key=str):
    """The :class:`AlphaInputs` of ``clusters`` (annotators who drew nothing count as absent)."""
    labels = sorted({label_key(objects.labels[obj]) for groups in clusters for g in groups
                     if len(g) >= 2 for obj in g.values()})
    index = {lab: k for k, lab in enumerate(labels)}
    presence, presence_item, label_counts, label_item = [], [], [], []  # one row per unit, and its item
    for i, groups in enumerate(clusters):
        for g in groups:
            presence.append((len(objects.members[i]) - len(g), len(g)))
            presence_item.append(i)
            if len(g) >= 2:
                counts = [0] * len(labels)
                for obj in g.values():
                    counts[index[label_key(objects.labels[obj])]] += 1
                label_counts.append(counts)
                label_item.append(i)
    return AlphaInputs(grouped_coincidences(presence, presence_item, objects.n_items, 2),
                       grouped_coincidences(label_counts, label_item, objects.n_items, len(labels)),
                       len(presence_item), len(label_item))


def alpha_estimate(o, n_units, ci):
    """Nominal α of the pooled coincidence matrix ``o`` as an estimate, with the reason when undefined."""
    value = alpha_from_coincidence(o) if o.size else float("nan")
    reason = None
    if not np.isfinite(value):
        reason = (undefined_reason(o) if o.size and n_units else None) or "no units"
    return estimate(value, ci, reason, n=n_units)


def _potato_alpha_rule(section, groups, objects, multi):
    """Potato returns NaN when the α rows span < 2 units or < 2 annotators."""
    units = [g for gs in groups for g in gs if (len(g) >= 2 or not multi)]
    if multi:
        annotators = {a for g in units for a in g}
    else:
        annotators = {a for i, gs in enumerate(groups) if gs for a in objects.members[i]}
    if len(units) < 2 or len(annotators) < 2:
        why = "fewer than 2 units" if len(units) < 2 else "fewer than 2 annotators"
        return estimate(None, reason=why + " (Potato's rule)", n=section["n"])
    return section
