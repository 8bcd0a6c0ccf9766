"""Audacity label tracks (File ▸ Export ▸ Export Labels…): one label a line, as time segments.

Each line is ``start<TAB>end<TAB>label`` in seconds (Audacity writes six
decimals; a point label has ``start == end``).  A label with a spectral
selection is followed by a line ``\\<TAB>low_hz<TAB>high_hz``, which is not
an annotation of its own: those lines are left out, with a warning.
Exporting several label tracks merges them into one file, so each file is
one annotator's: the annotator and the clip come from the file name,
``<clip>_<annotator>.txt`` split at the last ``_`` (the option ``separator``
changes the character), or the option ``item`` names the clip and the whole
file name is the annotator.  An empty file is an annotator who labelled
nothing on that clip.

Detection looks at the shape of the first line — two numbers and a text,
tab-separated — so an agreekit TSV (a header ``item<TAB>annotator<TAB>…``,
or rows of five or more fields) is never taken for a label track.  An empty
file cannot be recognised; name the format (``--from audacity``) to read one.

References
----------
Audacity manual, "Importing and Exporting Labels"
(https://manual.audacityteam.org/man/importing_and_exporting_labels.html).
"""
from __future__ import annotations

import re

from ..options import Option
from ..rows import InputError
from ._segments import Segment, Track, clip_and_annotator, decimal_time, reject_unknown, segment_conversion
from .base import Reader, register_format

TITLE = "Audacity labels"
NUMBER = r"[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?"
LABEL_LINE = re.compile(rf"{NUMBER}\t{NUMBER}(?:\t[^\t]*)?")
LAYOUT = "start<TAB>end<TAB>label"


def _lines(text):
    """``(line number, line)`` of the non-blank lines; only ``\\n`` ends a line (labels may hold other breaks)."""
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if line.strip():
            yield number, line


def detect(source):
    """None when the first line of ``source`` is an Audacity label line, else why not."""
    for _, line in _lines(source.head()):
        if LABEL_LINE.fullmatch(line):
            return None
        return f"the first line is not {LAYOUT}"
    return "empty file (an empty label track is read when the format is named)"


def _seconds(text, source, field, line):
    """A time field; a decimal comma (Audacity in some locales) is read as a point."""
    return decimal_time(text.strip().replace(",", "."), source.name, field, line)


def read_labels(source):
    """The labels of one file, in file order, and the number of spectral-selection lines left out.

    Parameters
    ----------
    source : Source
        One exported label file.

    Returns
    -------
    segments : list of Segment
        Label texts stripped; a line of two fields is a label with no text.
    n_spectral : int
        Lines starting with ``\\`` (the frequency range of the label above).

    Raises
    ------
    InputError
        Naming the file, the line and the field: not two or three fields, a
        time that is not a number, ``end < start``.
    """
    segments, n_spectral = [], 0
    for number, line in _lines(source.text()):
        if line.startswith("\\"):
            n_spectral += 1
            continue
        fields = line.split("\t")
        if len(fields) not in (2, 3):
            raise InputError(f"{source.name}: expected {LAYOUT}, found {len(fields)} tab-separated field(s)",
                             line=number)
        start = _seconds(fields[0], source, "start", number)
        end = _seconds(fields[1], source, "end", number)
        if end < start:
            raise InputError(f"{source.name}: the label ends ({end}) before it starts ({start})", line=number,
                             column="end", value=fields[1])
        segments.append(Segment(float(start), float(end), fields[2].strip() if len(fields) == 3 else ""))
    return segments, n_spectral


def read(sources, kind=None, *, item=None, separator="_", **unknown):
    """Segments from Audacity label files, one file per annotator and clip.

    Parameters
    ----------
    sources : list of Source
        Label files named ``<clip><separator><annotator>.txt``.
    kind : {"segments", None}
        Only segments.
    item : str, optional
        The clip every file labels; each file's name is then its annotator.
    separator : str
        Without ``item``: the character between clip and annotator in file
        names, split at its last occurrence.

    Returns
    -------
    Conversion
    """
    reject_unknown(TITLE, unknown, ("item", "separator"))
    if not isinstance(separator, str) or not separator:
        raise InputError(f"{TITLE}: option separator must be a non-empty text", column="separator", value=separator)
    tracks, n_spectral = [], 0
    for source in sources:
        names = clip_and_annotator(source, item, separator)
        segments, spectral = read_labels(source)
        n_spectral += spectral
        tracks.append(Track(names.item, names.annotator, source.name, tuple(segments)))
    warnings = []
    if n_spectral:
        warnings.append(f"{n_spectral} spectral-selection line(s) (\\ low_hz high_hz) left out: agreekit compares "
                        "times, not frequency ranges")
    return segment_conversion("audacity", tracks, warnings,
                              hint=" (the clip is the file name before the last separator, or the option item)")


OPTIONS = (
    Option("item", "text", "Clip of every file", "the clip every label file annotates; each file's name is then "
           "its annotator"),
    Option("separator", "text", "Clip–annotator separator", "without a clip: the character between clip and "
           "annotator in file names (split at its last occurrence)"),
)

register_format(Reader(name="audacity", title=TITLE, kinds=("segments",), detect=detect, read=read, position=90,
                       options=OPTIONS))
