"""RTTM (NIST Rich Transcription Time Marked): speaker turns as time segments.

One record a line, fields separated by white space::

    SPEAKER <file> <chnl> <tbeg> <tdur> <NA> <NA> <name> <NA> <NA>

with the onset ``tbeg`` and the duration ``tdur`` in seconds.  A turn becomes
the segment ``[tbeg, tbeg + tdur]`` labelled with the speaker ``name``.  By
default each RTTM file is one annotator's (``annotator_from="source"``: the
annotator is the file's name without extension) and the item is the
recording (``file``; ``file#chnl`` for a recording annotated on more than one
channel).  ``annotator_from="file"`` reads one RTTM as pygamma-agreement's
``Continuum.from_rttm`` does: the ``file`` field names the annotator and the
whole RTTM file is one item (named after the file).

RTTM cannot say "listened and found no speech": a recording absent from an
annotator's file means never heard, unless the option ``recordings`` lists
the recordings every annotator went through, and then a listed recording
without turns is a saw-nothing row.  Other record types (``SPKR-INFO``,
``LEXEME``, ``NOSCORE``, …) are skipped with their type as the reason; ``;;``
lines are comments.

References
----------
NIST RT-09 evaluation plan, appendix A (the RTTM format).
bootphon/pygamma-agreement, ``pygamma_agreement/continuum.py`` (``Continuum.from_rttm``).
"""
from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from ..arrays import name_list
from ..options import Choice, Option
from ..rows import InputError
from ._segments import Segment, Track, check_choice, check_names, decimal_time, reject_unknown, segment_conversion
from .base import Reader, Skipped, register_format

TITLE = "RTTM"
RECORD_TYPES = frozenset(("SPEAKER", "SPKR-INFO", "SEGMENT", "NOSCORE", "NO_RT_METADATA", "LEXEME", "NON-LEX",
                          "NON-SPEECH", "FILLER", "EDIT", "IP", "CB", "A/P", "SU"))
MIN_FIELDS = 8  # type file chnl tbeg tdur ortho stype name; conf and slat are often left off
LAYOUT = "SPEAKER file chnl tbeg tdur <NA> <NA> name <NA> <NA>"
ANNOTATOR_FROM = ("source", "file")


class Turn(NamedTuple):
    """One SPEAKER record."""

    recording: str
    channel: str
    start: float
    end: float
    speaker: str


def _records(text):
    """``(line number, fields)`` of the records: blank lines and ``;;`` comments left out."""
    for number, line in enumerate(text.split("\n"), 1):
        fields = line.split()
        if fields and not fields[0].startswith(";;"):
            yield number, fields


def detect(source):
    """None when the first record of ``source`` is an RTTM record (or an ``.rttm`` file has none), else why not."""
    for _, fields in _records(source.head()):
        if fields[0] not in RECORD_TYPES:
            return f"the first record starts with {fields[0][:20]!r}, not an RTTM type (SPEAKER, …)"
        if len(fields) < MIN_FIELDS:
            return f"the first record has {len(fields)} fields, not {LAYOUT}"
        return None
    if source.name.lower().endswith(".rttm"):  # an annotator who heard no speech (counted with recordings)
        return None
    return "no records"


def read_turns(source, skipped):
    """The SPEAKER turns of one file, in file order; other records go to ``skipped``.

    Parameters
    ----------
    source : Source
        One RTTM file.
    skipped : list
        Receives a :class:`~agreekit.formats.base.Skipped` for every record
        that is not a SPEAKER turn.

    Returns
    -------
    list of Turn
        ``end = tbeg + tdur`` computed in decimal, so ``0.1 + 0.2`` is ``0.3``.

    Raises
    ------
    InputError
        Naming the file, the line and the field: an unknown record type, a
        SPEAKER line with too few fields, a non-numeric or negative time.
    """
    turns = []
    for line, fields in _records(source.text()):
        kind = fields[0]
        if kind not in RECORD_TYPES:
            raise InputError(f"{source.name}: {kind[:20]!r} is not an RTTM record type; expected {LAYOUT}",
                             line=line, column="type", value=kind)
        if kind != "SPEAKER":
            skipped.append(Skipped(source.name, f"line {line}", f"{kind} record (not a speaker turn)"))
            continue
        if len(fields) < MIN_FIELDS:
            raise InputError(f"{source.name}: a SPEAKER line has {len(fields)} fields, not {LAYOUT}", line=line)
        onset = decimal_time(fields[3], source.name, "tbeg", line)
        duration = decimal_time(fields[4], source.name, "tdur", line)
        if duration < 0:
            raise InputError(f"{source.name}: the duration tdur is negative", line=line, column="tdur",
                             value=fields[4])
        turns.append(Turn(fields[1], fields[2], float(onset), float(onset + duration), fields[7]))
    return turns


def _item_namer(turns_by_source):
    """The item of a turn: its recording, or ``recording#channel`` for a recording seen on several channels."""
    channels = defaultdict(set)
    for turns in turns_by_source:
        for turn in turns:
            channels[turn.recording].add(turn.channel)
    split = {recording for recording, seen in channels.items() if len(seen) > 1}
    return lambda turn: f"{turn.recording}#{turn.channel}" if turn.recording in split else turn.recording


def _tracks_by_file_name(sources, turns_by_source, recordings):
    """One annotator per RTTM file; ``recordings`` (or None) are the items every annotator went through."""
    item_of = _item_namer(turns_by_source)
    tracks = []
    for source, turns in zip(sources, turns_by_source):
        segments = {item: [] for item in recordings or ()}
        for turn in turns:
            segments.setdefault(item_of(turn), []).append(Segment(turn.start, turn.end, turn.speaker))
        tracks += [Track(item, source.stem, source.name, tuple(found)) for item, found in segments.items()]
    return tracks


def _tracks_by_file_field(sources, turns_by_source):
    """pygamma-agreement's reading: the ``file`` field is the annotator, the RTTM file the item."""
    tracks = []
    for source, turns in zip(sources, turns_by_source):
        segments = {}
        for turn in turns:
            segments.setdefault(turn.recording, []).append(Segment(turn.start, turn.end, turn.speaker))
        tracks += [Track(source.stem, annotator, source.name, tuple(found)) for annotator, found in segments.items()]
    return tracks


def _coverage_warnings(tracks, recordings):
    """What the absence of turns was taken to mean, and recordings outside the list."""
    annotators = sorted({t.annotator for t in tracks})
    heard = defaultdict(set)
    for track in tracks:
        heard[track.item].add(track.annotator)
    if recordings is not None:
        extra = [item for item in heard if item not in recordings]
        return [f"{len(extra)} recording(s) not in the option recordings, kept: {name_list(extra)}"] if extra else []
    partial = [f"{item} (not {', '.join(a for a in annotators if a not in who)})" for item, who in heard.items()
               if len(who) < len(annotators)]
    if not partial:
        return []
    return [f"{len(partial)} recording(s) without turns from some annotator: {name_list(partial)}; RTTM cannot say "
            "'heard it, no speech', so those annotators count as never having heard it (list the recordings "
            "in the option recordings to count them as heard with no speech)"]


def _speaker_warnings(tracks):
    """RTTM speaker names are arbitrary per annotator: say so when annotators share none."""
    names = defaultdict(list)
    for track in tracks:
        if track.segments:
            names[track.item].append({s.label for s in track.segments})
    disjoint = [item for item, sets in names.items()
                if len(sets) > 1 and all(not (a & b) for i, a in enumerate(sets) for b in sets[i + 1:])]
    if not disjoint:
        return []
    return [f"on {len(disjoint)} recording(s) the annotators share no speaker name ({name_list(disjoint)}): "
            "diarization names speakers arbitrarily (SPEAKER_00 vs anna), and classification α compares the "
            "names as given; map them to common names first"]


def read(sources, kind=None, *, annotator_from="source", recordings=None, **unknown):
    """Segments from RTTM files.

    Parameters
    ----------
    sources : list of Source
        One RTTM file per annotator (or, with ``annotator_from="file"``, per item).
    kind : {"segments", None}
        Only segments.
    annotator_from : {"source", "file"}
        ``"source"``: the annotator is the RTTM file's name, the item the
        recording (the ``file`` field).  ``"file"``: the ``file`` field is the
        annotator and the RTTM file's name is the item (pygamma-agreement).
    recordings : list of str, optional
        With ``annotator_from="source"``: the recordings (items) every
        annotator went through; one without turns in an annotator's file is a
        saw-nothing row.

    Returns
    -------
    Conversion
    """
    reject_unknown(TITLE, unknown, ("annotator_from", "recordings"))
    check_choice(TITLE, "annotator_from", annotator_from, ANNOTATOR_FROM)
    recordings = check_names(TITLE, "recordings", recordings)
    if recordings is not None and annotator_from == "file":
        raise InputError(f"{TITLE}: the option recordings lists items, which are files when "
                         "annotator_from='file'", column="recordings")
    skipped = []
    turns_by_source = [read_turns(source, skipped) for source in sources]
    if annotator_from == "file":
        tracks = _tracks_by_file_field(sources, turns_by_source)
        return segment_conversion("rttm", tracks, _speaker_warnings(tracks), skipped)
    tracks = _tracks_by_file_name(sources, turns_by_source, recordings)
    warnings = _coverage_warnings(tracks, recordings) + _speaker_warnings(tracks)
    silent = [source.name for source, turns in zip(sources, turns_by_source) if not turns]
    if silent and recordings is None:
        warnings.append(f"{len(silent)} file(s) without speaker turns: {name_list(silent)}; without the option "
                        "recordings their annotators are left out")
    return segment_conversion("rttm", tracks, warnings, skipped,
                              hint=" (one RTTM file is one annotator's; for one file holding every annotator "
                                   "in its file field, read with annotator_from='file')")


OPTIONS = (
    Option("annotator_from", "choice", "Annotator from",
           "whose turns an RTTM file holds: one annotator's (named by the file), or one recording's, the "
           "'file' field naming the annotator (pygamma-agreement)",
           choices=(Choice("source", "the RTTM file's name"), Choice("file", "the 'file' field"))),
    Option("recordings", "labels", "Recordings every annotator heard",
           "comma-separated; a listed recording without turns in an annotator's file is a saw-nothing row"),
)

register_format(Reader(name="rttm", title=TITLE, kinds=("segments",), detect=detect, read=read, position=60,
                       options=OPTIONS))
