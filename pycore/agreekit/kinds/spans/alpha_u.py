"""The spans report's α_U: over the characters ``[0, length)`` of each item.

Positions of size 1 (Krippendorff's discrete formulas), and only when item
lengths are given: the continuum must be the whole text, not the stretch up to
the last span.
"""
from __future__ import annotations

from ...unitizing_report import LENGTHS_NEEDED, alpha_u_estimate, gathered, undefined


def span_alpha_u(items, length_source, bootstrap, seed, warnings):
    """The spans report's ``unitizing_alpha`` over characters; appends its warnings to ``warnings``.

    Parameters
    ----------
    items : list of agreekit.kinds.spans.rows.Item
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
        return undefined(LENGTHS_NEEDED, "characters")
    taking_part, ids = [], []
    for item in items:
        if len(item.spans) >= 2:
            ids.append(item.name)
            taking_part.append((item.length, [([s.start for s in spans], [s.end for s in spans],
                                               [s.label for s in spans], [s.line for s in spans])
                                              for spans in item.spans.values()]))
    alpha, _ = alpha_u_estimate(gathered(taking_part, ids), 1.0, "characters", bootstrap, seed, warnings, "span")
    return alpha
