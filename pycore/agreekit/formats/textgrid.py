"""Praat TextGrid (Save as text file / Save as short text file): interval tiers as time segments.

Praat reads a text TextGrid as a flat sequence of quoted strings, numbers and
flags (``<exists>``); everything else — the keys of the long format
(``xmin =``), index brackets (``[1]``) and ``!`` comments — is there for the
human reader.  Both the long and the short text format are therefore read by
one tokenizer, in UTF-8 or UTF-16 (Praat writes UTF-16 with a byte-order mark
when a label is not ASCII); ``""`` inside a string is a quote.

Interval tiers tile their whole time range, so an interval with empty text
is a gap, not an annotation, and is left out; a tier holding only empty
intervals is an annotator who marked nothing (the saw-nothing row).  Point
tiers (``TextTier``) are skipped: a point has no duration.  The tiers' ``xmax``
is where the recording ends: it is the clip's duration (the ``durations`` input
of the segments report), so the stretch after the last annotation counts.

Annotators: by default (``annotator="tier"``) each interval tier is one
annotator, named by the tier, and the file (named after its recording, as
Praat names a TextGrid after its Sound) is the item — a TextGrid is one
recording's annotation, and a tier per annotator needs no naming convention.
With ``annotator="file"`` each file is one annotator's, named
``<clip>_<annotator>.TextGrid`` (or the option ``item`` names the clip), and
all its interval tiers are that annotator's segments.

References
----------
Praat manual, "TextGrid file formats" (https://www.fon.hum.uva.nl/praat/manual/TextGrid_file_formats.html).
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

from ..arrays import name_list
from ..options import Choice, Option
from ..rows import InputError
from ._segments import (Segment, Track, check_choice, clip_and_annotator, clip_durations, reject_unknown,
                        segment_conversion)
from .base import Reader, Skipped, register_format

TITLE = "Praat TextGrid"
HEADER = re.compile(r'\s*(?:File type\s*=\s*)?"ooTextFile(?: short)?"\s*(?:Object class\s*=\s*)?"TextGrid"')
TOKEN = re.compile(r'"(?:[^"]|"")*"|"|\[[^\]\n]*\]|![^\n]*|<[^>\s]*>|[^\s"\[!<]+')
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")  # Praat also reads "0s" as 0
ANNOTATORS = ("tier", "file")


class Token(NamedTuple):
    """A string, number or flag of the file, and where it starts (a character offset)."""

    kind: str
    value: object
    position: int


class Interval(NamedTuple):
    """An interval of an interval tier, or a point of a point tier (``start == end``)."""

    start: float
    end: float
    text: str


class Tier(NamedTuple):
    """One tier: its name, whether it holds intervals or points, and them in file order."""

    name: str
    intervals: bool
    entries: tuple
    end: float = 0.0       # the tier's xmax: where the recording ends


def detect(source):
    """None when ``source`` starts like a Praat TextGrid (text, binary or chronological), else why not."""
    head = source.head(512)
    if HEADER.match(head) or head.startswith("ooBinaryFile\x08TextGrid") \
            or '"Praat chronological TextGrid text file"' in head[:64]:
        return None
    return 'no "ooTextFile" TextGrid header'


def _tokens(text):
    """The strings, numbers and flags of ``text``, in order; an unterminated string is an error (raised by the caller)."""
    for match in TOKEN.finditer(text):
        word = match.group()
        if word.startswith('"'):
            yield Token("string" if len(word) > 1 else "unterminated", word[1:-1].replace('""', '"'), match.start())
        elif word.startswith("<"):
            yield Token("flag", word, match.start())
        elif not word.startswith(("[", "!")) and (number := NUMBER.match(word)):
            yield Token("number", float(number.group()), match.start())


class _Cursor:
    """Reads the tokens of one file in order; errors name the file, the place and the line."""

    def __init__(self, source, text):
        self.source, self.text = source, text
        self.tokens = _tokens(text)
        self.where, self.position = "header", 0

    def error(self, message):
        line = self.text.count("\n", 0, self.position) + 1
        return InputError(f"{self.source.name}: {self.where}: {message}", line=line)

    def take(self, kind, what):
        token = next(self.tokens, None)
        if token is None:
            raise self.error(f"the file ends where {what} was expected (is it cut short?)")
        self.position = token.position
        if token.kind == "unterminated":
            raise self.error("a string is not closed by a quote")
        if token.kind != kind:
            raise self.error(f"expected {what}, found {token.value!r}")
        if kind == "number" and not math.isfinite(token.value):
            raise self.error(f"{what} is not a finite number")
        return token.value

    def count(self, what):
        value = self.take("number", what)
        if value < 0 or not value.is_integer():
            raise self.error(f"{what} must be a whole number, found {value:g}")
        return int(value)


def _tier(cursor, index):
    """Tier ``index`` (1-based) at the cursor."""
    cursor.where = f"tier {index}"
    kind = cursor.take("string", "the tier class (IntervalTier or TextTier)")
    if kind not in ("IntervalTier", "TextTier"):
        raise cursor.error(f"unknown tier class {kind!r}; expected IntervalTier or TextTier")
    name = cursor.take("string", "the tier name")
    cursor.where = f"tier {name!r}"
    cursor.take("number", "the tier start time")
    tier_end = cursor.take("number", "the tier end time")
    entries = []
    for number in range(1, cursor.count("the number of intervals or points") + 1):
        if kind == "IntervalTier":
            cursor.where = f"tier {name!r} interval {number}"
            start, end = cursor.take("number", "xmin"), cursor.take("number", "xmax")
            if end < start:
                raise cursor.error(f"the interval ends ({end:g}) before it starts ({start:g})")
        else:
            cursor.where = f"tier {name!r} point {number}"
            start = end = cursor.take("number", "the point time")
        entries.append(Interval(start, end, cursor.take("string", "the text")))
    return Tier(name, kind == "IntervalTier", tuple(entries), tier_end)


def read_textgrid(source):
    """The tiers of one text TextGrid, long or short format.

    Parameters
    ----------
    source : Source
        A TextGrid saved as a text file (UTF-8, or UTF-16 with a byte-order mark).

    Returns
    -------
    list of Tier
        In file order; times in seconds.

    Raises
    ------
    InputError
        For a binary or chronological TextGrid (save it as a text file), and
        for a malformed or cut-short file, naming the tier, the interval and
        the line.
    """
    if source.data.startswith(b"ooBinaryFile"):
        raise InputError(f"{source.name}: a binary TextGrid; open it in Praat and use Save as text file")
    text = source.text()
    cursor = _Cursor(source, text)
    file_type = cursor.take("string", '"ooTextFile"')
    if file_type == "Praat chronological TextGrid text file":
        raise InputError(f"{source.name}: a chronological TextGrid; open it in Praat and use Save as text file")
    if file_type not in ("ooTextFile", "ooTextFile short") or cursor.take("string", '"TextGrid"') != "TextGrid":
        raise cursor.error('not a TextGrid text file (expected "ooTextFile" and "TextGrid")')
    cursor.take("number", "the start time")
    cursor.take("number", "the end time")
    if cursor.take("flag", "<exists>") != "<exists>":
        return []
    return [_tier(cursor, index) for index in range(1, cursor.count("the number of tiers") + 1)]


def _segments(tier):
    """The non-empty intervals of an interval tier (empty ones are the gaps between annotations)."""
    return tuple(Segment(e.start, e.end, e.text.strip()) for e in tier.entries if e.text.strip())


def _file_track(source, tiers, item, separator, warnings):
    """With ``annotator="file"``: every interval tier of the file is one annotator's."""
    names = clip_and_annotator(source, item, separator)
    labelled = [tier.name for tier in tiers if tier.intervals and _segments(tier)]
    if len(labelled) > 1:
        warnings.append(f"{source.name}: interval tiers {name_list(labelled)} are merged into the segments of "
                        f"{names.annotator}")
    segments = tuple(s for tier in tiers if tier.intervals for s in _segments(tier))
    return Track(names.item, names.annotator, source.name, segments)


def _point_skips(source, tiers):
    """A :class:`~agreekit.formats.base.Skipped` for every point of every point tier."""
    return [Skipped(source.name, f"tier {tier.name!r} point {number}", "point tier (TextTier): a point has no "
                    "duration") for tier in tiers if not tier.intervals for number in range(1, len(tier.entries) + 1)]


def _tier_tracks(source, tiers, clip):
    """With ``annotator="tier"``: one track per interval tier, the tier naming the annotator."""
    tracks = []
    for tier in (t for t in tiers if t.intervals):
        if not tier.name.strip():
            raise InputError(f"{source.name}: an interval tier without a name cannot name an annotator; "
                             "name the tier in Praat, or read with annotator='file'", column="annotator")
        tracks.append(Track(clip, tier.name.strip(), f"{source.name} tier {tier.name!r}", _segments(tier)))
    return tracks


def read(sources, kind=None, *, annotator="tier", item=None, separator="_", **unknown):
    """Segments from Praat TextGrids.

    Parameters
    ----------
    sources : list of Source
        Text TextGrids (long or short, UTF-8 or UTF-16).
    kind : {"segments", None}
        Only segments.
    annotator : {"tier", "file"}
        ``"tier"`` (default): each interval tier is an annotator, the file
        (its stem, or ``item``) the clip.  ``"file"``: each file is one
        annotator's, named ``<clip><separator><annotator>`` (or ``item`` is
        the clip and the file name the annotator).
    item : str, optional
        The clip every file annotates.
    separator : str
        With ``annotator="file"`` and no ``item``: the character between clip
        and annotator in file names (split at its last occurrence).

    Returns
    -------
    Conversion
    """
    reject_unknown(TITLE, unknown, ("annotator", "item", "separator"))
    check_choice(TITLE, "annotator", annotator, ANNOTATORS)
    tracks, warnings, skipped, ends = [], [], [], []
    for source in sources:
        tiers = read_textgrid(source)
        skipped += _point_skips(source, tiers)
        if annotator == "file":
            tracks.append(_file_track(source, tiers, item, separator, warnings))
        else:
            tracks += _tier_tracks(source, tiers, source.stem if item is None else str(item))
        if any(tier.end > 0 for tier in tiers):
            ends.append((tracks[-1].item if tracks else source.stem, max(tier.end for tier in tiers), source.name))
    hint = (" (each interval tier is an annotator; if each file is one annotator's, read with annotator='file' "
            "and name the files <clip>_<annotator>.TextGrid)") if annotator == "tier" else ""
    return segment_conversion("textgrid", tracks, warnings, skipped, hint=hint,
                              durations=clip_durations(ends, warnings))


OPTIONS = (
    Option("annotator", "choice", "Annotator from",
           "each interval tier is an annotator (the file the clip), or each file is one annotator's",
           choices=(Choice("tier", "each tier"), Choice("file", "each file"))),
    Option("item", "text", "Clip of every file", "the clip every file annotates"),
    Option("separator", "text", "Clip–annotator separator", "with annotators from files and no clip: the "
           "character between clip and annotator in file names (split at its last occurrence)"),
)

register_format(Reader(name="textgrid", title=TITLE, kinds=("segments",), detect=detect, read=read, position=70,
                       options=OPTIONS))
