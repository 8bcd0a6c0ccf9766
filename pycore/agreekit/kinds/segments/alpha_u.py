"""The segments report's α_U: over the seconds ``[0, duration)`` of each clip.

A continuous continuum (positions of size 0).  Durations come from the
``durations`` input; a clip without one ends at its last segment end over all
annotators, an assumption the report states.
"""
from __future__ import annotations

from ...arrays import name_list
from ...unitizing_report import alpha_u_estimate, gathered
from .durations import clip_durations


def segment_alpha_u(corpus, durations, bootstrap, seed, warnings):
    """The segments report's ``unitizing_alpha`` over seconds; appends its warnings to ``warnings``.

    Parameters
    ----------
    corpus : agreekit.kinds.segments.rows.Corpus
    durations : dict or None
        Clip durations in seconds (:func:`agreekit.kinds.segments.durations.read_durations`).
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
    ids = list(corpus.scored_items())
    unused = [item for item in durations or {} if item not in corpus.items]
    if unused:
        warnings.append(f"{len(unused)} clip(s) have a duration but no rows: " + name_list(unused))
    alpha, clipped = alpha_u_estimate(gathered(taking_part, ids), 0.0, "seconds", bootstrap, seed, warnings, "segment")
    if clipped.size:
        warnings.append(f"α_U: {clipped.size} segment(s) reach outside [0, duration) of their clip and are "
                        f"clipped to it, lines {name_list(clipped.tolist())}")
    alpha["assumption"] = assumption
    return alpha
