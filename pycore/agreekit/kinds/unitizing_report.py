"""α_U in the spans and segments reports: each item's units on its continuum, and α_U with bootstrap intervals.

Krippendorff's unitizing α_U (:mod:`agreekit.measures.unitizing`), overall and
per label:

* spans: over the characters ``[0, length)`` of each item, positions of size 1
  (Krippendorff's discrete formulas), and only when item lengths are given: the
  continuum must be the whole text, not the stretch up to the last span;
* segments: over the seconds ``[0, duration)`` of each clip, a continuous
  continuum (positions of size 0).  Durations come from the ``durations`` input;
  a clip without one ends at its last segment end over all annotators, an
  assumption the report states.

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

from ..arrays import canonical_ranks, content_key, name_list
from ..measures.bootstrap import percentile_ci, resample_counts
from ..measures.unitizing import Continua, alpha_u, components, merge_overlaps
from ..results import estimate
from .durations import clip_durations

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


def _gathered(items):
    """:class:`Gathered` from ``[(length, [(start, end, labels, lines) per observer])]``, items of length > 0."""
    columns = {"item": [], "start": [], "end": [], "observer": [], "lines": []}
    labels, lengths, observers, keys = [], [], [], []
    for length, tracks in items:
        if length <= 0:
            continue
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
                    np.array(lengths), np.array(observers, dtype=np.intp), canonical_ranks(keys))


def _unit_keys(start, end, labels, _lines):
    """An observer's units on an item as ``(start, end, label)``: their content, for the item order."""
    return zip(map(float, start), map(float, end), ["" if label is None else str(label) for label in labels])


def span_alpha_u(items, length_source, bootstrap, seed, warnings):
    """The spans report's ``unitizing_alpha`` over characters; appends its warnings to ``warnings``.

    Parameters
    ----------
    items : list of agreekit.kinds.span_input.Item
    length_source : str
        ``settings.lengths``; ``"largest end"`` (no lengths given) leaves α_U undefined.
    bootstrap, seed : int
        Resamples of items for the intervals, and their seed.
    warnings : list
        The report's warnings.

    Returns
    -------
    dict
        An estimate (:func:`agreekit.results.estimate`) with ``per_label`` estimates.
    """
    if length_source == "largest end":
        return _undefined(LENGTHS_NEEDED, "characters")
    taking_part = []
    for item in items:
        if len(item.spans) >= 2:
            taking_part.append((item.length, [([s.start for s in spans], [s.end for s in spans],
                                               [s.label for s in spans], [s.line for s in spans])
                                              for spans in item.spans.values()]))
    alpha, _ = _alpha_u_estimate(_gathered(taking_part), 1.0, "characters", bootstrap, seed, warnings, "span")
    return alpha


def segment_alpha_u(corpus, durations, bootstrap, seed, warnings):
    """The segments report's ``unitizing_alpha`` over seconds; appends its warnings to ``warnings``.

    Parameters
    ----------
    corpus : agreekit.kinds.segments.Corpus
    durations : dict or None
        Clip durations in seconds (:func:`agreekit.kinds.durations.read_durations`).
    bootstrap, seed : int
    warnings : list

    Returns
    -------
    dict
        An estimate with ``per_label`` estimates and ``assumption``: how the
        clips' ends were found, or null when every clip has a duration.
    """
    lengths, assumption = clip_durations(corpus, durations)
    taking_part = [(lengths[item], [(t.start, t.end, t.labels, t.lines) for t in corpus.items[item].values()])
                   for item in corpus.scored_items()]
    unused = [item for item in durations or {} if item not in corpus.items]
    if unused:
        warnings.append(f"{len(unused)} clip(s) have a duration but no rows: " + name_list(unused))
    alpha, clipped = _alpha_u_estimate(_gathered(taking_part), 0.0, "seconds", bootstrap, seed, warnings, "segment")
    if clipped.size:
        warnings.append(f"α_U: {clipped.size} segment(s) reach outside [0, duration) of their clip and are "
                        f"clipped to it, lines {name_list(clipped.tolist())}")
    alpha["assumption"] = assumption
    return alpha


def _undefined(reason, continuum, n=0):
    return estimate(None, reason=reason, n=n, name=NAME, continuum=continuum, length=None, n_units=0,
                    observed_disagreement=None, expected_disagreement=None, per_label=[])


def _alpha_u_estimate(gathered, step, continuum, bootstrap, seed, warnings, unit):
    """α_U and its ``per_label`` rows as estimates, and the lines of the units clipped to their item."""
    g = gathered
    start = np.clip(g.start, 0.0, g.lengths[g.item]) if len(g.item) else g.start
    end = np.clip(g.end, 0.0, g.lengths[g.item]) if len(g.item) else g.end
    clipped = g.lines[(start != g.start) | (end != g.end)]
    n_items = len(g.lengths)
    if not n_items:
        return _undefined(NO_ITEMS, continuum), clipped
    marked = end > start
    labels = sorted({label for label, keep in zip(g.labels, marked) if keep})
    if not labels:
        return _undefined(NO_UNITS, continuum, n_items), clipped
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
    counts = resample_counts(n_items, bootstrap, seed, g.ranks) if n_items >= 2 and bootstrap else None
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
