"""What the time-segment importers share (RTTM, TextGrid, ELAN, Audacity labels).

Each of them reads its files into :class:`Track` records — one annotator's
segments on one clip, and where they were read — and hands them to
:func:`segment_conversion`, which keeps the latest of two submissions by one
annotator on one clip (with a warning), turns an empty track into the
saw-nothing row and every segment into a row ``item, annotator, start, end,
label``.  Times are read as decimals (:func:`decimal_time`) so that an onset
plus a duration, or milliseconds over a thousand, give the float nearest the
exact decimal result rather than a sum with rounding error.

This module is not a format: it registers nothing.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from ..arrays import name_list
from ..rows import InputError
from .base import Conversion


class Segment(NamedTuple):
    """One timed annotation, in seconds."""

    start: float
    end: float
    label: str


@dataclass(frozen=True)
class Track:
    """One annotator's segments on one clip; no segments means the annotator marked nothing."""

    item: str
    annotator: str
    where: str             # the file (and tier) it was read from, for warnings
    segments: tuple = ()


class ClipName(NamedTuple):
    """The clip and the annotator a file name stands for."""

    item: str
    annotator: str


def reject_unknown(title, unknown, known):
    """An :class:`InputError` for options a reader does not have (``unknown`` is a dict of them)."""
    if unknown:
        names = sorted(unknown)
        raise InputError(f"{title}: unknown option {', '.join(map(repr, names))}; the options are "
                         f"{', '.join(known)}", column=names[0])


def check_choice(title, name, value, choices):
    """An :class:`InputError` unless option ``name`` is one of ``choices``."""
    if value not in choices:
        raise InputError(f"{title}: option {name} must be one of {', '.join(map(repr, choices))}, "
                         f"not {value!r}", column=name, value=value)


def check_names(title, name, value):
    """Option ``name`` as a list of non-empty strings (None stays None), else an :class:`InputError`."""
    if value is None:
        return None
    if isinstance(value, str) or not all(isinstance(v, str) and v.strip() for v in value):
        raise InputError(f"{title}: option {name} must be a list of names, not {value!r}", column=name)
    return [v.strip() for v in value]


def clip_and_annotator(source, item=None, separator="_"):
    """The clip and annotator of a one-annotator file, from its name.

    Parameters
    ----------
    source : Source
        The file; its stem (name without folders and extension) is used.
    item : str, optional
        The clip every file labels; the whole stem is then the annotator.
    separator : str
        Without ``item``, the stem is ``<clip><separator><annotator>`` split at
        the last ``separator`` (clip names often hold underscores, annotator
        names seldom do): ``rec_01_alice`` → clip ``rec_01``, annotator ``alice``.

    Returns
    -------
    ClipName

    Raises
    ------
    InputError
        When there is no ``item`` and the stem holds no ``separator``.
    """
    stem = source.stem
    if item is not None:
        return ClipName(str(item), stem)
    if not isinstance(separator, str) or not separator:
        raise InputError(f"option separator must be a non-empty text, not {separator!r}", column="separator",
                         value=separator)
    clip, found, annotator = stem.rpartition(separator)
    if not (found and clip and annotator):
        raise InputError(f"{source.name}: cannot tell the clip from the file name; name each file "
                         f"<clip>{separator}<annotator> (c1{separator}alice.txt) or give the clip as the "
                         "option item", column="item")
    return ClipName(clip, annotator)


def decimal_time(text, source, field, line=None, where=""):
    """``text`` as a finite :class:`~decimal.Decimal`, else an :class:`InputError` naming the file,
    the record (``line`` or ``where``) and the field."""
    try:
        value = Decimal(text)
    except (InvalidOperation, TypeError, ValueError):
        value = None
    if value is not None and value.is_finite() and not math.isfinite(float(value)):
        value = None  # 9e999999 is a finite Decimal, but no float: no time
    if value is None or not value.is_finite():
        place = f"{where}: " if where else ""
        raise InputError(f"{source}: {place}{field} {text!r} is not a finite number", line=line, column=field,
                         value=text)
    return value


def clip_durations(found, warnings):
    """``{clip: seconds}`` from ``(clip, seconds, where)`` triples.

    Files that disagree on a clip's length are warned about and the longest is
    kept, so that no clip is cut short of a segment.
    """
    seen = {}
    for clip, seconds, where in found:
        seen.setdefault(clip, []).append((seconds, where))
    differ = [f"{clip} ({', '.join(f'{where}: {seconds:g} s' for seconds, where in given)})"
              for clip, given in seen.items() if len({seconds for seconds, _ in given}) > 1]
    if differ:
        warnings.append(f"the files give different durations for a clip; the longest is kept: {name_list(differ)}")
    return {clip: max(seconds for seconds, _ in given) for clip, given in seen.items()}


def segment_conversion(format, tracks, warnings=(), skipped=(), hint="", durations=None):
    """The :class:`~agreekit.formats.base.Conversion` of ``tracks`` (kind ``segments``).

    Parameters
    ----------
    format : str
        The reader's name.
    tracks : iterable of Track
        In reading order; a later track for the same (item, annotator)
        replaces an earlier one, and the replacement is warned about.
    warnings, skipped : sequence
        The reader's own warnings and :class:`~agreekit.formats.base.Skipped` records.
    durations : dict, optional
        Clip → seconds, when the files give each clip's length (the ``durations`` input).
    hint : str
        Appended to the warning given when no clip has two annotators (which
        option of the reader names annotators differently).

    Returns
    -------
    Conversion
        Rows ``item, annotator, start, end, label``; an empty track is a row
        with ``start``, ``end`` and ``label`` None (saw the clip, marked nothing).
    """
    latest, replaced = {}, []
    for track in tracks:
        key = (track.item, track.annotator)
        if key in latest:
            replaced.append(f"{track.annotator} on {track.item} ({latest[key].where}, then {track.where})")
        latest[key] = track
    rows = []
    for track in latest.values():
        if not track.segments:  # start, end and label present but None: a kind rejects a dict without them
            rows.append({"item": track.item, "annotator": track.annotator, "start": None, "end": None,
                         "label": None})
        rows.extend({"item": track.item, "annotator": track.annotator, "start": s.start, "end": s.end,
                     "label": s.label} for s in track.segments)
    warnings = list(warnings)
    if replaced:
        warnings.append(f"{len(replaced)} annotator(s) with two submissions on one clip; the later one is kept: "
                        f"{name_list(replaced)}")
    if latest and max(Counter(item for item, _ in latest).values()) < 2:
        warnings.append("no clip has two annotators, so nothing can be compared" + hint)
    return Conversion(format, "segments", rows, durations=durations or None, warnings=warnings,
                      skipped=list(skipped))
