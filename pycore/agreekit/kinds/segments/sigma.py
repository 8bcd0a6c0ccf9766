"""σ and KS in the segments report: the within-clip chance baseline, with intervals and per-pair values.

The measure is :mod:`agreekit.measures.segment_chance`: within distances of the
matched segment pairs against the distances of the pairs matched after each
clip's segments are placed at random inside the clip, K seeded times.  Here:

* each clip's duration (the ``durations`` input, else its last segment end over
  all annotators, an assumption the report states);
* σ = 1 − mean(within) / mean(chance) and the KS D of the two distributions,
  with the chance mean's standard error over placements;
* a percentile interval of σ over bootstrap resamples of clips, reweighting the
  per-clip sums of both sides (a clip's chance pairs go with it);
* per annotator pair: σ of the pair's matched segments against the chance
  pairs of the same two annotators; per annotator: its matched pairs against
  its chance pairs; per clip: the mean within distance.

Potato 2.8 has no σ for segments: in ``match="potato"`` mode σ and KS stay
undefined, with that reason.
"""
from __future__ import annotations

import numpy as np

from ...arrays import name_list, safe_ratio
from ...measures import bootstrap as boot
from ...measures.chance import ks_statistic, sigma_value, snap
from ...measures.ecdf import ecdf_summary
from ...measures.segment_chance import ClipSegments, chance_matches, within_matches
from ...results import estimate
from .durations import clip_durations

DEFAULT_PLACEMENTS = None   # automatic: until the chance mean's standard error is at most SE_TARGET
MAX_PLACEMENTS = 10_000
POTATO_REASON = ("σ is not computed in potato mode: Potato has no σ for time segments (agreekit's segment σ "
                 "uses a within-clip chance baseline; docs/segments.md)")
NO_CHANCE = "no pair of segments matched in any chance placement: the chance baseline is undefined"


def clip_segments(objects, start, end, lengths):
    """The :class:`~agreekit.measures.segment_chance.ClipSegments` of the compared clips.

    ``lengths`` maps each compared item to its duration
    (:func:`agreekit.kinds.segments.durations.clip_durations`).
    """
    sizes = np.diff(objects.offsets).astype(np.intp)
    item = np.repeat(np.arange(objects.n_items, dtype=np.intp), sizes)
    # Labels compared as the report's matching compares them (as strings), for its tie-break.
    _, label = np.unique(np.array([str(lab) for lab in objects.labels], dtype=str), return_inverse=True)
    return ClipSegments(start=start, end=end, item=item, annotator=objects.annotator_of.astype(np.intp),
                        label=label.ravel().astype(np.intp), members=objects.members,
                        duration=np.array([lengths[i] for i in objects.item_ids], dtype=float),
                        draw_order=objects.object_ranks)


def report_localization(corpus, segmented, durations, settings, data, warnings, progress=None):
    """The report's ``localization``; outside potato mode its σ columns join the rows of ``data``'s
    ``pairs``, ``annotators`` and ``items`` tables (``segmented``: the report's SegmentObjects)."""
    if settings["match"] == "potato":
        return {"sigma": estimate(None, reason=POTATO_REASON), "ks": estimate(None, reason=POTATO_REASON)}
    if progress is not None:
        progress(0, 1, "chance placements")
    section, pairs, annotators, items = segment_localization(corpus, *segmented, durations, settings, warnings)
    for entry in data["pairs"]:
        entry.update(pairs.get((entry["a"], entry["b"])) or empty_group())
    for entry in data["annotators"]:
        entry.update(annotators.get(entry["annotator"]) or empty_group())
    for entry in data["items"]:
        entry.update(items[entry["item"]])
    return section


def segment_localization(corpus, objects, start, end, durations, options, warnings):
    """The segments report's σ: ``(localization section, pair columns, annotator columns, item columns)``.

    Parameters
    ----------
    corpus : agreekit.kinds.segments.rows.Corpus
    objects : ObjectSet
        The compared clips' segments, canonical order.
    start, end : ndarray
        Their times by global index.
    durations : dict or None
        Given clip durations.
    options : dict
        ``threshold``, ``distance``, ``placements``, ``bootstrap``, ``seed``.
    warnings : list
        The report's warnings (appended to).

    Returns
    -------
    tuple
        The ``localization`` dict, and ``{(a, b): columns}``, ``{annotator:
        columns}`` and ``{item: columns}`` to merge into the tables' rows.
    """
    lengths, assumption = clip_durations(corpus, durations)
    segments = clip_segments(objects, start, end, lengths)
    outside = objects.lines[(start < 0) | (end > segments.duration[segments.item])] if len(start) else []
    if len(outside):
        warnings.append(f"σ: {len(outside)} segment(s) reach outside [0, duration] of their clip; their chance "
                        f"placements lie inside it, lines {name_list(sorted(outside.tolist()))}")
    within = within_matches(segments, options["threshold"], options["distance"])
    chance = chance_matches(segments, options["threshold"], options["placements"], options["seed"],
                            options["distance"])
    ci = _sigma_interval(segments, within, chance.matches, options["bootstrap"], options["seed"], objects.item_ranks,
                         objects.item_ids)
    section = _section(within, chance, assumption, ci)
    names = objects.annotators
    n = len(names)
    pairs = {(names[code // n], names[code % n]): row
             for code, row in _group_columns(segments, within, chance.matches, n, by_pair=True).items()}
    annotators = {names[a]: row
                  for a, row in _group_columns(segments, within, chance.matches, n, by_pair=False).items()}
    total, count = _per_item(within, segments, objects.n_items)
    items = {item: {"mean_within": float(value)} for item, value in zip(objects.item_ids, safe_ratio(total, count))}
    return section, pairs, annotators, items


def empty_group():
    """The σ columns of an annotator pair or annotator without matched pairs."""
    return _group_sigma(float("nan"), float("nan"), 0)


def _reason(n_within, n_chance, mean_chance):
    if n_within == 0:
        return "no matched pairs: no within distances"
    if n_chance == 0:
        return NO_CHANCE
    if not mean_chance > 0:
        return "every chance distance is 0 (segments as long as their clips can only lie where they are)"
    return None


def _section(within, chance, assumption, ci):
    """σ (with its interval ``ci``), KS and their ingredients (``chance``: a Chance)."""
    within_sorted = np.sort(within.distance)
    chance_sorted = np.sort(chance.matches.distance)
    mean_within = float(within_sorted.mean()) if len(within_sorted) else float("nan")
    mean_chance = float(chance_sorted.mean()) if len(chance_sorted) else float("nan")
    reason = _reason(len(within_sorted), len(chance_sorted), mean_chance)
    ticks = snap(chance_sorted)
    at = snap(within_sorted)
    ks = ks_statistic(within_sorted, np.searchsorted(ticks, at, "right"), np.searchsorted(ticks, at, "left"),
                      len(chance_sorted))
    return {
        "sigma": estimate(sigma_value(mean_within, mean_chance), ci, reason, n=len(within_sorted)),
        "ks": estimate(ks, None, reason, n=len(within_sorted)),
        "mean_within": mean_within,
        "mean_chance": mean_chance,
        "n_within": len(within_sorted),
        "n_chance": len(chance_sorted),
        "chance_placements": int(chance.n_placements),
        "chance_se": chance.se,
        "assumption": assumption,
        "within_ecdf": ecdf_summary(within_sorted),
        "chance_ecdf": ecdf_summary(chance_sorted),
    }


def _per_item(matches, segments, n_items):
    """Sum and number of the distances of ``matches`` per clip."""
    item = segments.item[matches.a]
    return (np.bincount(item, weights=matches.distance, minlength=n_items),
            np.bincount(item, minlength=n_items).astype(float))


def _sigma_interval(segments, within, chance, n_resamples, seed, ranks=None, ids=None):
    """Percentile interval of σ over resamples of clips (the report's resamples, drawn in the clips' content
    order ``ranks``), or None."""
    n_items = len(segments.duration)
    if n_resamples <= 0 or n_items < 2:
        return None
    within_sum, within_n = _per_item(within, segments, n_items)
    chance_sum, chance_n = _per_item(chance, segments, n_items)
    values = []
    for counts in boot.resample_count_chunks(n_items, n_resamples, seed, ranks=ranks, items=ids):
        mean_within = safe_ratio(counts @ within_sum, counts @ within_n)
        mean_chance = safe_ratio(counts @ chance_sum, counts @ chance_n)
        values.append(1.0 - safe_ratio(mean_within, mean_chance))
    return boot.percentile_ci(np.concatenate(values))


def _group_sigma(mean_within, mean_chance, n):
    reason = "no matched pairs" if n == 0 else "no chance match of these segments"
    return {"mean_within": mean_within, "mean_chance": mean_chance,
            "sigma": estimate(sigma_value(mean_within, mean_chance), None, reason, n=n)}


def _group_means(codes, distance):
    """{code: (sum, count)} of ``distance`` per integer code."""
    present, inverse = np.unique(codes, return_inverse=True)
    inverse = inverse.ravel()
    sums = np.bincount(inverse, weights=distance, minlength=len(present))
    counts = np.bincount(inverse, minlength=len(present))
    return {int(c): (float(t), int(m)) for c, t, m in zip(present, sums, counts)}


def _group_columns(segments, within, chance, n_annotators, by_pair):
    """σ columns per annotator pair (code a · n + b, a < b) or per annotator (its position), for the
    groups with a matched pair on either side."""
    means = []
    for matches in (within, chance):
        a, b = segments.annotator[matches.a].astype(np.int64), segments.annotator[matches.b].astype(np.int64)
        if by_pair:
            means.append(_group_means(a * n_annotators + b, matches.distance))
        else:
            means.append(_group_means(np.concatenate([a, b]), np.tile(matches.distance, 2)))
    within_means, chance_means = means
    out = {}
    for code in sorted(set(within_means) | set(chance_means)):
        total, n = within_means.get(code, (0.0, 0))
        chance_total, chance_n = chance_means.get(code, (0.0, 0))
        out[code] = _group_sigma(total / n if n else float("nan"),
                                 chance_total / chance_n if chance_n else float("nan"), n)
    return out
