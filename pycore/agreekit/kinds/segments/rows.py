"""Segment rows: reading and checking ``item, annotator, start, end, label`` (seconds) into a :class:`Corpus`.

A row with an item and an annotator but no start, end or label means the
annotator went through the clip and marked nothing; an annotator with no row for
a clip never saw it.  ``end < start`` is an input error (Potato silently swaps
the two); zero-length segments (``start == end``) are allowed and kept.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...arrays import name_list
from ...rows import (ANNOTATOR_SYNONYMS, InputError, RowErrors, check_order, interval_is_blank, read_table, shortened,
                    to_float, to_text)

COLUMNS = ("item", "annotator", "start", "end", "label")
SYNONYMS = {
    "item": ("clip", "clip_id", "item_id", "file", "audio", "video", "recording", "episode", "trace"),
    "annotator": ANNOTATOR_SYNONYMS,
    "start": ("start_time", "onset", "begin", "from", "t_start", "start_s"),
    "end": ("end_time", "offset", "stop", "to", "t_end", "end_s"),
    "label": ("class", "category", "event", "event_label", "tag", "speaker", "phase"),
}
REQUIRED = ("item", "annotator", "start", "end")

# The largest time magnitude. Beyond 1e300, lengths and unions overflow to inf (identical segments
# got IoU 0); α_U's sums of cubed lengths overflow from ~1e102. 1e100 seconds leaves both finite.
MAX_SECONDS = 1e100


class Segment(NamedTuple):
    """One checked segment row."""

    start: float
    end: float
    label: str
    line: int


@dataclass(frozen=True)
class Track:
    """One annotator's segments on one clip, in row order."""

    start: np.ndarray
    end: np.ndarray
    labels: list
    lines: list

    def __len__(self):
        return len(self.labels)


@dataclass(frozen=True)
class Corpus:
    """Checked segment input: ``items[item][annotator] -> Track``.

    Items keep the order of their first row, annotators within an item are
    sorted as strings (the pair and cluster order, as in Potato).
    ``warnings`` lists suspicious but valid input.
    """

    items: dict
    warnings: list

    @property
    def annotators(self):
        return sorted({a for tracks in self.items.values() for a in tracks})

    def scored_items(self):
        """Items with at least two annotators, the only ones that can be compared."""
        return [item for item, tracks in self.items.items() if len(tracks) >= 2]


def read_segments(source, progress=None):
    """Parse and check segment rows.

    Parameters
    ----------
    source : str or list of dict
        CSV/TSV text (header optional) or dicts with ``item, annotator, start,
        end, label``.
    progress : callable, optional
        Passed to :func:`agreekit.rows.read_table`.

    Returns
    -------
    Corpus
        The tracks of every item and annotator, and warnings about suspicious
        but valid input (zero-length and duplicate segments, items with one
        annotator, empty rows of annotators who also marked segments).

    Raises
    ------
    InputError
        Naming the line and column: missing item or annotator, non-numeric or
        non-finite time or one beyond ``MAX_SECONDS``, only one of start and
        end given, a label without a segment, ``end < start``.
    """
    rows = read_table(source, COLUMNS, SYNONYMS, required=REQUIRED, progress=progress)
    raw = {}  # item -> annotator -> [Segment] ([] for "marked nothing")
    marked_nothing = {}  # (item, annotator) -> line of the first empty row
    errors = RowErrors()  # every bad row is named, not only the first
    for row in rows:
        with errors:
            item = _text(row, "item")
            annotator = _text(row, "annotator")
            label = _text(row, "label", required=False)
            marked = raw.setdefault(item, {}).setdefault(annotator, [])
            if interval_is_blank(row, label, "segment"):
                marked_nothing.setdefault((item, annotator), row.line)
                continue
            start = _seconds(row, "start")
            end = _seconds(row, "end")
            check_order(row, start, end)
            marked.append(Segment(start, end, label, row.line))
    errors.check()
    items, warnings = _build_tracks(raw)
    mixed = sorted(line for (item, annotator), line in marked_nothing.items() if raw[item][annotator])
    if mixed:
        warnings.append(f"{len(mixed)} empty row(s) for an annotator who also marked segments on that item, "
                        f"lines {name_list(mixed)}: the empty row adds nothing and is ignored")
    return Corpus(items, warnings)


def _text(row, column, required=True):
    """:func:`~agreekit.rows.to_text`, with a fast path for the common case of a non-blank string."""
    value = row.values.get(column)
    if type(value) is str and (value := value.strip()):
        return value
    return to_text(row, column, required)


def _seconds(row, column):
    """:func:`~agreekit.rows.to_float` within ±``MAX_SECONDS``, with a fast path for a string holding one."""
    value = row.values.get(column)
    if type(value) is str:
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if abs(number) <= MAX_SECONDS:  # False for NaN
            return number
    number = to_float(row, column)  # converts other types, or raises the located error
    if abs(number) > MAX_SECONDS:
        raise InputError(f"'{column}' is beyond ±{MAX_SECONDS:g} seconds; rescale the times", line=row.line,
                         column=column, value=shortened(value))
    return number


def _build_tracks(raw):
    """``{item: {annotator: Track}}`` (annotators sorted) from parsed rows, and the warnings about them."""
    items = {}
    zero_length, duplicates, single = [], [], []
    for item, tracks in raw.items():
        built = {}
        for annotator in sorted(tracks):
            segments = tracks[annotator]
            track = Track(start=np.array([s.start for s in segments], dtype=float),
                          end=np.array([s.end for s in segments], dtype=float),
                          labels=[s.label for s in segments], lines=[s.line for s in segments])
            zero_length.extend(line for s, e, line in zip(track.start, track.end, track.lines) if s == e)
            seen = set()
            for key, line in zip(zip(track.start.tolist(), track.end.tolist(), track.labels), track.lines):
                if key in seen:
                    duplicates.append(line)
                seen.add(key)
            built[annotator] = track
        if len(built) < 2:
            single.append(item)
        items[item] = built
    warnings = []
    if zero_length:
        warnings.append(f"{len(zero_length)} zero-length segment(s) (start = end), lines "
                        f"{name_list(zero_length)}: kept; by default two identical ones match, with match='potato' "
                        "(Potato 2.8) they match nothing above threshold 0")
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate segment(s) repeating an earlier one of the same "
                        f"annotator on the same item, lines {name_list(duplicates)}: kept")
    if single:
        warnings.append(f"{len(single)} item(s) with a single annotator are not scored: "
                        f"{name_list([repr(item) for item in single])}")
    return items, warnings
