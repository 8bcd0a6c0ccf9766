"""α_U of a corpus of unitized items: each item's units on its continuum, and α_U with bootstrap intervals.

Krippendorff's unitizing α_U (:mod:`agreekit.measures.unitizing`), overall and
per label:

over a discrete continuum (positions of size 1, Krippendorff's discrete
formulas, e.g. the characters of a text) or a continuous one (positions of size
0, e.g. seconds).  The kinds that report α_U gather their items with
:func:`gathered` and call :func:`alpha_u_estimate`; they name the unit in the
warnings.

Items with two or more annotators and a positive length take part, every
annotator of an item an observer (one who marked nothing marks only gaps).
Units are clipped to their item and those of length 0 are left out (they mark
no position); an annotator's overlapping units of one label on one item become
their union (a warning counts them).  The items are laid end to end as the
measure module states; the bootstrap resamples them, reweighting their sums.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .arrays import canonical_ranks, content_key
from .measures.bootstrap import percentile_ci, resample_counts
from .measures.unitizing import Continua, alpha_u, components, merge_overlaps
from .results import estimate

NAME = "α_U"
LENGTHS_NEEDED = "item lengths are needed"
NO_ITEMS = "no item has two or more annotators and a positive length"
NO_UNITS = "nobody marked a unit of positive length: there is nothing to agree on"
NO_EXPECTED = "no expected disagreement (D_e = 0)"


class Gathered(NamedTuple):
    """Units of the items taking part, before clipping: unit arrays (U,), item arrays (K,)."""

    item: np.ndarray
    start: np.ndarray
    end: np.ndarray
    observer: np.ndarray
    labels: list
    lines: np.ndarray
    lengths: np.ndarray  # L_k
    observers: np.ndarray  # m_k
    ranks: np.ndarray  # each item's place in the content order the bootstrap draws in
    ids: list = None   # the items' names (a comparison's count source pairs items by them)


def gathered(items, ids=None):
    """:class:`Gathered` from ``[(length, [(start, end, labels, lines) per observer])]``, items of length > 0;
    ``ids``, the items' names, in the same order."""
    columns = {"item": [], "start": [], "end": [], "observer": [], "lines": []}
    labels, lengths, observers, keys = [], [], [], []
    kept = []
    for k, (length, tracks) in enumerate(items):
        if length <= 0:
            continue
        kept.append(k)
        keys.append((float(length), content_key(_unit_keys(*track) for track in tracks)))
        for observer, (start, end, track_labels, lines) in enumerate(tracks):
            columns["item"].append(np.full(len(start), len(lengths), dtype=np.intp))
            columns["observer"].append(np.full(len(start), observer, dtype=np.intp))
            columns["start"].append(np.asarray(start, dtype=float))
            columns["end"].append(np.asarray(end, dtype=float))
            columns["lines"].append(np.asarray(lines, dtype=np.intp))
            labels.extend(track_labels)
        lengths.append(float(length))
        observers.append(len(tracks))
    arrays = {name: np.concatenate(parts) if parts else np.zeros(0, dtype=float if name in ("start", "end")
                                                                 else np.intp)
              for name, parts in columns.items()}
    return Gathered(arrays["item"], arrays["start"], arrays["end"], arrays["observer"], labels, arrays["lines"],
                    np.array(lengths), np.array(observers, dtype=np.intp), canonical_ranks(keys),
                    None if ids is None else [ids[k] for k in kept])


def _unit_keys(start, end, labels, _lines):
    """An observer's units on an item as ``(start, end, label)``: their content, for the item order."""
    return zip(map(float, start), map(float, end), ["" if label is None else str(label) for label in labels])


def undefined(reason, continuum, n=0):
    return estimate(None, reason=reason, n=n, name=NAME, continuum=continuum, length=None, n_units=0,
                    observed_disagreement=None, expected_disagreement=None, per_label=[])


def alpha_u_estimate(gathered, step, continuum, bootstrap, seed, warnings, unit):
    """α_U and its ``per_label`` rows as estimates, and the lines of the units clipped to their item."""
    g = gathered
    start = np.clip(g.start, 0.0, g.lengths[g.item]) if len(g.item) else g.start
    end = np.clip(g.end, 0.0, g.lengths[g.item]) if len(g.item) else g.end
    clipped = g.lines[(start != g.start) | (end != g.end)]
    n_items = len(g.lengths)
    if not n_items:
        return undefined(NO_ITEMS, continuum), clipped
    marked = end > start
    labels = sorted({label for label, keep in zip(g.labels, marked) if keep})
    if not labels:
        return undefined(NO_UNITS, continuum, n_items), clipped
    label_id = {label: k for k, label in enumerate(labels)}
    category = np.array([label_id.get(label, 0) for label in g.labels], dtype=np.intp)
    units = Continua.of(g.item[marked], start[marked], end[marked], g.observer[marked], category[marked],
                        g.lengths, g.observers, len(labels))
    continua = merge_overlaps(units)
    if len(continua) < len(units):
        warnings.append(f"α_U: {len(units) - len(continua)} {unit}(s) overlap another {unit} of the same annotator "
                        f"and label on the same item and are merged into their union (Krippendorff's units of "
                        f"one observer and category do not overlap)")
    parts = components(continua, step)
    point = alpha_u(parts)
    counts = resample_counts(n_items, bootstrap, seed, g.ranks, g.ids) if n_items >= 2 and bootstrap else None
    resampled = alpha_u(parts, counts) if counts is not None else None
    n_units = np.bincount(continua.category, minlength=len(labels))
    per_label = []
    for k, label in enumerate(labels):
        ci = percentile_ci(resampled.per_category[:, k]) if resampled is not None else None
        per_label.append({"label": label, **estimate(
            point.per_category[k], ci, reason=None if np.isfinite(point.per_category[k]) else NO_EXPECTED,
            n=n_items, n_units=int(n_units[k]), observed_disagreement=point.observed[k],
            expected_disagreement=point.expected[k])})
    ci = percentile_ci(resampled.value) if resampled is not None else None
    alpha = estimate(point.value, ci, reason=NO_EXPECTED, n=n_items, name=NAME, continuum=continuum,
                     length=float(g.lengths.sum()), n_units=len(continua),
                     observed_disagreement=float(point.observed.sum()),
                     expected_disagreement=float(point.expected.sum()), per_label=per_label)
    return alpha, clipped
