"""Praat TextGrid writer: segments, one TextGrid (long text format) per item, one interval tier per annotator.

The layout :mod:`agreekit.formats.textgrid` reads by default: the file is the
clip (``<item>.TextGrid``), each interval tier an annotator (named after
them, in name order), each non-empty interval a segment; the gaps between
segments are empty intervals, as Praat's tiers tile their time range.  A tier
of empty intervals is an annotator who listened and marked nothing.  The
grid runs from 0 (or the earliest start, when negative) to the clip's
duration from the option ``durations`` (item → seconds), else to the last
segment's end; the importer gives it back as the clip's duration.

Cannot carry (refused, naming the item and annotator): overlapping segments
of one annotator on one clip (an interval tier cannot hold them), segments of
zero length, and segments without a label (an empty interval is a gap).
Labels keep no white space at their ends (Praat's importer strips it).
Several items make several files: a zip.
"""
from __future__ import annotations

from ...arrays import name_list
from ...rows import InputError
from . import Writer, Written, register_writer
from .names import file_name
from .records import grouped, is_empty, item_table, number_text

NAME = "textgrid"


def _quoted(text):
    return '"' + text.replace('"', '""') + '"'


def _intervals(item, annotator, segments, xmin, xmax):
    """The tier's intervals ``(start, end, text)``: the segments in time order, gaps filled with empty text."""
    out, at = [], xmin
    for start, end, label in sorted(segments):
        if start < at:
            raise InputError(f"TextGrid: {annotator} on {item} has overlapping segments (one ends at {at:g}, the "
                             f"next starts at {start:g}); an interval tier cannot hold them", column="start",
                             value=start)
        if end == start or not label.strip():
            why = "a segment of zero length" if end == start else "a segment without a label"
            raise InputError(f"TextGrid: {annotator} on {item} has {why} at {start:g}, which an interval tier "
                             "cannot hold", column="end" if end == start else "label", value=start)
        if start > at:
            out.append((at, start, ""))
        out.append((start, end, label.strip()))
        at = end
    if at < xmax or not out:
        out.append((at, xmax, ""))
    return out


def _grid(item, tiers, xmin, xmax):
    lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "",
             f"xmin = {number_text(xmin)}", f"xmax = {number_text(xmax)}", "tiers? <exists>",
             f"size = {len(tiers)}", "item []:"]
    for number, (annotator, segments) in enumerate(tiers, start=1):
        intervals = _intervals(item, annotator, segments, xmin, xmax)
        lines += [f"    item [{number}]:", '        class = "IntervalTier"', f"        name = {_quoted(annotator)}",
                  f"        xmin = {number_text(xmin)}", f"        xmax = {number_text(xmax)}",
                  f"        intervals: size = {len(intervals)}"]
        for k, (start, end, text) in enumerate(intervals, start=1):
            lines += [f"        intervals [{k}]:", f"            xmin = {number_text(start)}",
                      f"            xmax = {number_text(end)}", f"            text = {_quoted(text)}"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _bounds(item, records, durations):
    starts = [r.geometry["start"] for r in records if not is_empty(r)]
    ends = [r.geometry["end"] for r in records if not is_empty(r)]
    xmin, last = min([0.0, *starts]), max(ends, default=0.0)
    if item not in durations:
        return xmin, last if last > xmin else xmin + 1.0  # a clip with no segment gets one second
    try:
        duration = float(durations[item])
    except (TypeError, ValueError):
        raise InputError(f"option durations: {item}: not a number of seconds", column="durations",
                         value=durations[item]) from None
    if duration < last:
        raise InputError(f"option durations: {item} lasts {duration:g} s but a segment ends at {last:g} s",
                         column="durations", value=duration)
    return xmin, duration


def write(kind, records, *, durations=None):
    """One TextGrid per item (see the module docstring)."""
    unlabelled = sorted({f"{r.annotator} on {r.item}" for r in records if not is_empty(r) and r.label is None})
    if unlabelled:
        raise InputError("TextGrid: an interval without text is a gap, so every segment needs a label; without "
                         f"one: {name_list(unlabelled)}", column="label")
    durations = item_table(durations, ("item", "duration"), "durations") or {}
    files = []
    for item, mine in grouped(records, "item").items():
        tiers = [(annotator, [(r.geometry["start"], r.geometry["end"], r.label) for r in track if not is_empty(r)])
                 for annotator, track in grouped(mine, "annotator").items()]
        xmin, xmax = _bounds(item, mine, durations)
        files.append((f"{file_name(item, 'item', 'TextGrid')}.TextGrid", _grid(item, tiers, xmin, xmax)))
    return Written(NAME, tuple(files))


register_writer(Writer(name=NAME, title="Praat TextGrid", kinds=("segments",), write=write, reader="textgrid",
                       suffix=".TextGrid"))
