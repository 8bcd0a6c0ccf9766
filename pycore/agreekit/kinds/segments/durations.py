"""Clip durations in: ``item, duration`` rows (seconds), for the measures that need a clip's whole length.

Without them a clip is taken to end at its last segment end over all
annotators; the report that uses durations says so as an assumption.
"""
from __future__ import annotations

import math
from numbers import Real

from ...arrays import name_list
from ...rows import InputError, RowErrors, in_field, read_table, to_float, values_by_item

COLUMNS = ("item", "duration")
DURATIONS_FIELD = "durations"  # the report option that carries the durations (InputError.field)
DURATION_SYNONYMS = ("length", "seconds", "duration_s", "clip_duration", "total_duration")


def read_durations(source, item_synonyms=()):
    """Clip durations in seconds.

    Parameters
    ----------
    source : str, list of dict or dict
        CSV/TSV text or rows with ``item, duration``, or a dict item → seconds.
    item_synonyms : sequence of str
        Other names of the item column (the segment rows' synonyms).

    Returns
    -------
    dict
        ``{item: duration}``, every duration a finite number ≥ 0.

    Raises
    ------
    agreekit.rows.InputError
        Naming the line and column: a missing item, a duration that is not a
        finite number, a negative duration, an item given twice (every bad
        row: :class:`~agreekit.errors.InputErrors` when several); its ``field``
        says that it is in the durations, not in the segment rows.
    """
    return in_field(DURATIONS_FIELD, _read_durations, source, item_synonyms)


def _read_durations(source, item_synonyms):
    """:func:`read_durations` without the field on its errors."""
    if isinstance(source, dict):
        durations, errors = {}, RowErrors()  # every bad entry is named, not only the first
        for position, (item, value) in enumerate(source.items(), start=1):
            with errors:
                if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) or value < 0:
                    raise InputError(f"duration of item {item!r} must be a number of seconds ≥ 0",
                                     line=position, column="duration", value=value)
                durations[str(item)] = float(value)
        errors.check()
        return durations
    rows = read_table(source, COLUMNS, {"item": tuple(item_synonyms), "duration": DURATION_SYNONYMS},
                      required=COLUMNS)
    return values_by_item(rows, _duration)


def _duration(row):
    """The duration of a row, in seconds: a finite number ≥ 0."""
    duration = to_float(row, "duration")
    if duration < 0:
        raise InputError(f"duration {duration:g} is negative", line=row.line, column="duration",
                         value=row.values.get("duration"))
    return duration


def clip_durations(corpus, durations):
    """Each compared clip's duration, and the assumption made where none was given.

    Parameters
    ----------
    corpus : agreekit.kinds.segments.rows.Corpus
    durations : dict or None
        From :func:`read_durations`.

    Returns
    -------
    lengths : dict
        ``{item: seconds}`` for ``corpus.scored_items()``: the given duration,
        else the clip's last segment end over all annotators (0 without segments).
    assumption : str or None
        In words, how the clips without a duration were given one; None when
        every clip has one.
    """
    durations = durations or {}
    lengths, assumed = {}, []
    for item in corpus.scored_items():
        if item in durations:
            lengths[item] = durations[item]
            continue
        tracks = corpus.items[item].values()
        lengths[item] = max((float(track.end.max()) for track in tracks if len(track)), default=0.0)
        assumed.append(item)
    if not assumed:
        return lengths, None
    if not durations:
        return lengths, ("no durations given: each clip is taken to end at its last segment end over all "
                         "annotators, so time after it does not count")
    return lengths, (f"{len(assumed)} clip(s) without a duration are taken to end at their last segment end "
                     "over all annotators: " + name_list(sorted(assumed)))  # not in row order
