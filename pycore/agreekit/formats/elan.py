"""ELAN annotation documents (.eaf, XML): time-aligned tier annotations as time segments.

An ``ALIGNABLE_ANNOTATION`` points at two ``TIME_SLOT``\\ s of the
``TIME_ORDER``, whose ``TIME_VALUE`` is in milliseconds; it becomes the
segment between them, in seconds, labelled with its ``ANNOTATION_VALUE``.  A
slot without a ``TIME_VALUE`` (unaligned: subdivisions of a parent that the
annotator did not place) gets the time ELAN displays for it: the aligned
slots before and after it along the tier's chain of annotations, with the
unaligned ones spread evenly in between (with a warning); one with no
aligned slot on a side is skipped, and an annotator whose annotations on a
clip were all skipped is left out there (warned), not read as one who marked
nothing.  ``REF_ANNOTATION``\\ s (symbolic
association and subdivision tiers) are skipped with their reason: they have
no times of their own, and taking their parent's would count the parent's
timing twice.

Annotators, per tier: the tier's ``ANNOTATOR`` attribute; else, with the
option ``tier_pattern`` (a regular expression searched in the tier name, its
group ``annotator`` or first group naming the annotator), the tier-name
convention ELAN's inter-annotator reliability dialog uses (``gesture_A``,
``gesture_B``); else the file's name (one .eaf per annotator).  The tiers of
one annotator in one file are merged (with a warning; the option ``tiers``
selects tiers).  A time-alignable tier with no annotations is an annotator
who marked nothing.  The item is the first linked media file's name without
extension, else the .eaf file's.

References
----------
ELAN Annotation Format, schema EAFv3.0 (MPI for Psycholinguistics, The Language Archive).
ELAN manual, "Calculate inter-annotator reliability".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import NamedTuple
from urllib.parse import unquote

from ..arrays import name_list
from ..options import Choice, Option
from ..rows import InputError
from ._segments import (Segment, Track, check_choice, check_names, clip_durations, decimal_time, reject_unknown,
                        segment_conversion)
from .base import Reader, Skipped, parse_xml, register_format

TITLE = "ELAN"
REF_REASON = "REF_ANNOTATION (symbolic tier: no times of its own)"
UNRESOLVED_REASON = "unaligned time slot with no aligned slot on one side"


class Aligned(NamedTuple):
    """One ALIGNABLE_ANNOTATION: its id, its two time slots and its value."""

    id: str
    start_slot: str
    end_slot: str
    value: str


class TierAnnotator(NamedTuple):
    """Who annotated a tier, and by which rule (``attribute``, ``pattern``, ``file``; None: no match)."""

    name: str | None
    rule: str


@dataclass
class Notes:
    """What the reading assumed, gathered over the files for the warnings."""

    interpolated: int = 0
    from_file: list = field(default_factory=list)
    merged: list = field(default_factory=list)
    origins: list = field(default_factory=list)
    left_out: list = field(default_factory=list)
    last_slots: list = field(default_factory=list)  # (clip, seconds, file) of each file's last aligned time slot
    no_slot: list = field(default_factory=list)     # files with no aligned time slot

    def warnings(self):
        """The warning lines."""
        lines = []
        if self.left_out:
            lines.append(f"{len(self.left_out)} annotator(s) whose annotations on a clip were all skipped are left "
                         f"out there, not counted as saw nothing: {name_list(self.left_out)}")
        if self.interpolated:
            lines.append(f"{self.interpolated} annotation(s) on unaligned time slots (no TIME_VALUE): times "
                         "interpolated evenly between the aligned slots around them along the tier, as ELAN "
                         "shows them")
        if self.from_file:
            lines.append(f"{len(self.from_file)} tier(s) without an ANNOTATOR attribute: their annotator is the "
                         f"file name ({name_list(self.from_file)})")
        if self.merged:
            lines.append(f"tiers of one annotator merged (choose tiers with the option tiers): "
                         f"{name_list(self.merged)}")
        if self.origins:
            lines.append(f"TIME_ORIGIN not applied, times are as ELAN stores them: {name_list(self.origins)}")
        if self.last_slots:
            lines.append("clip durations taken from each file's last time slot (option duration): a lower bound, "
                         "as an .eaf file does not store its media's duration")
        if self.no_slot:
            lines.append(f"no aligned time slot to take a clip duration from: {name_list(self.no_slot)}")
        return lines


def detect(source):
    """None when ``source`` holds an ELAN ANNOTATION_DOCUMENT, else why not."""
    return None if "<ANNOTATION_DOCUMENT" in source.head() else "no ANNOTATION_DOCUMENT element"


def _document(source):
    """The root element, checked: an ANNOTATION_DOCUMENT with times in milliseconds."""
    root = parse_xml(source)  # entity declarations refused: ELAN never writes them
    if root.tag != "ANNOTATION_DOCUMENT":
        raise InputError(f"{source.name}: the root element is {root.tag}, not ANNOTATION_DOCUMENT")
    header = root.find("HEADER")
    units = "milliseconds" if header is None else header.get("TIME_UNITS", "milliseconds")
    if units != "milliseconds":
        raise InputError(f"{source.name}: HEADER TIME_UNITS is {units!r}; agreekit reads milliseconds",
                         column="TIME_UNITS", value=units)
    return root


def _slot_times(root, source):
    """``{TIME_SLOT_ID: milliseconds as Decimal, or None for an unaligned slot}``."""
    slots = {}
    for slot in root.iterfind("TIME_ORDER/TIME_SLOT"):
        slot_id, value = slot.get("TIME_SLOT_ID"), slot.get("TIME_VALUE")
        slots[slot_id] = None if value is None else decimal_time(value, source.name, "TIME_VALUE",
                                                                 where=f"TIME_SLOT {slot_id}")
    return slots


def _media(root, source, notes):
    """The first linked media file's name without extension, or None; a TIME_ORIGIN is noted."""
    descriptor = root.find("HEADER/MEDIA_DESCRIPTOR")
    if descriptor is None:
        return None
    url = descriptor.get("MEDIA_URL") or descriptor.get("RELATIVE_MEDIA_URL") or ""
    name = unquote(re.split(r"[/\\]", url)[-1])
    if descriptor.get("TIME_ORIGIN") not in (None, "", "0"):
        notes.origins.append(f"{source.name} ({descriptor.get('TIME_ORIGIN')} ms)")
    return PurePosixPath(name).stem or None


def _symbolic_types(root):
    """Linguistic type ids whose tiers hold symbolic (not time-aligned) annotations."""
    return {t.get("LINGUISTIC_TYPE_ID") for t in root.iterfind("LINGUISTIC_TYPE")
            if t.get("TIME_ALIGNABLE", "true") == "false"}


def _annotations(tier, source, skipped):
    """The ALIGNABLE_ANNOTATIONs of a tier; its REF_ANNOTATIONs go to ``skipped``."""
    tier_id, found = tier.get("TIER_ID"), []
    for annotation in tier.iterfind("ANNOTATION/*"):
        annotation_id = annotation.get("ANNOTATION_ID", "?")
        if annotation.tag != "ALIGNABLE_ANNOTATION":
            skipped.append(Skipped(source.name, f"tier {tier_id!r} annotation {annotation_id}",
                                   REF_REASON if annotation.tag == "REF_ANNOTATION" else f"{annotation.tag} element"))
            continue
        refs = [annotation.get(name) for name in ("TIME_SLOT_REF1", "TIME_SLOT_REF2")]
        if None in refs:
            raise InputError(f"{source.name}: tier {tier_id!r} annotation {annotation_id}: no TIME_SLOT_REF"
                             f"{refs.index(None) + 1}", column=f"TIME_SLOT_REF{refs.index(None) + 1}")
        value = annotation.findtext("ANNOTATION_VALUE") or ""
        found.append(Aligned(annotation_id, refs[0], refs[1], value.strip()))
    return found


def _spread(chain, slots):
    """Times of the slots of one chain: aligned ones as given, unaligned ones evenly between aligned neighbours."""
    known = [index for index, slot in enumerate(chain) if slots[slot] is not None]
    times = {chain[index]: slots[chain[index]] for index in known}
    for left, right in zip(known, known[1:]):
        first, last = slots[chain[left]], slots[chain[right]]
        for index in range(left + 1, right):
            times[chain[index]] = first + (last - first) * (index - left) / (right - left)
    return times


def _slot_milliseconds(annotations, slots):
    """``{slot: milliseconds}`` for the slots of one tier, following its chains of adjoining annotations."""
    following = {a.start_slot: a.end_slot for a in annotations}
    ends = {a.end_slot for a in annotations}
    times = {}
    for head in dict.fromkeys(a.start_slot for a in annotations if a.start_slot not in ends):
        chain = [head]
        while chain[-1] in following and len(chain) <= len(annotations):
            chain.append(following[chain[-1]])
        times.update(_spread(chain, slots))
    return times


def _tier_segments(tier_id, annotations, slots, source, skipped, notes):
    """The segments of one tier's aligned annotations, in seconds."""
    for annotation in annotations:
        for slot in (annotation.start_slot, annotation.end_slot):
            if slot not in slots:
                raise InputError(f"{source.name}: tier {tier_id!r} annotation {annotation.id}: time slot {slot!r} "
                                 "is not in the TIME_ORDER", column="TIME_SLOT_REF", value=slot)
    times = _slot_milliseconds(annotations, slots)
    segments = []
    for annotation in annotations:
        start, end = (times.get(slot, slots[slot]) for slot in (annotation.start_slot, annotation.end_slot))
        if start is None or end is None:
            skipped.append(Skipped(source.name, f"tier {tier_id!r} annotation {annotation.id}", UNRESOLVED_REASON))
            continue
        if end < start:
            raise InputError(f"{source.name}: tier {tier_id!r} annotation {annotation.id} ends ({end} ms) before "
                             f"it starts ({start} ms)")
        notes.interpolated += slots[annotation.start_slot] is None or slots[annotation.end_slot] is None
        segments.append(Segment(float(start / 1000), float(end / 1000), annotation.value))
    return segments


def _annotator_of(tier, pattern, file_name):
    """The tier's annotator: its ANNOTATOR attribute, else the pattern's match in its name, else the file name."""
    named = (tier.get("ANNOTATOR") or "").strip()
    if named:
        return TierAnnotator(named, "attribute")
    if pattern is None:
        return TierAnnotator(file_name, "file")
    match = pattern.search(tier.get("TIER_ID", ""))
    if match is None:
        return TierAnnotator(None, "pattern")
    group = "annotator" if "annotator" in pattern.groupindex else 1 if pattern.groups else 0
    return TierAnnotator((match.group(group) or "").strip() or None, "pattern")


def _skip_all(tier, source, skipped, reason):
    """Every annotation of a tier left out, for ``reason``."""
    skipped += [Skipped(source.name, f"tier {tier.get('TIER_ID')!r} annotation {a.get('ANNOTATION_ID', '?')}", reason)
                for a in tier.iterfind("ANNOTATION/*")]


def _note_last_slot(clip, slots, source, notes):
    """The file's last aligned time slot, in seconds, as its clip's duration (a lower bound)."""
    aligned = [ms for ms in slots.values() if ms is not None]
    if aligned:
        notes.last_slots.append((clip, float(max(aligned) / 1000), source.name))
    else:
        notes.no_slot.append(source.name)


def _file_tracks(source, item, pattern, selected, last_slot, skipped, notes):
    """The tracks of one .eaf file: its tiers' segments grouped by (item, annotator)."""
    root = _document(source)
    slots, symbolic_types = _slot_times(root, source), _symbolic_types(root)
    clip = item if item is not None else _media(root, source, notes) or source.stem
    if last_slot:
        _note_last_slot(clip, slots, source, notes)
    grouped, labelled, drew = {}, {}, set()
    for tier in root.iterfind("TIER"):
        tier_id = tier.get("TIER_ID", "")
        if selected is not None and tier_id not in selected:
            _skip_all(tier, source, skipped, "tier not selected (option tiers)")
            continue
        annotator = _annotator_of(tier, pattern, source.stem)
        if annotator.name is None:
            _skip_all(tier, source, skipped, "tier name does not match tier_pattern")
            continue
        annotations = _annotations(tier, source, skipped)
        symbolic = tier.get("LINGUISTIC_TYPE_REF") in symbolic_types or tier.find("ANNOTATION/REF_ANNOTATION") is not None
        if symbolic and not annotations:
            continue  # a symbolic tier says nothing about where its annotator looked
        if annotator.rule == "file":
            notes.from_file.append(f"{source.name}: {tier_id}")
        segments = _tier_segments(tier_id, annotations, slots, source, skipped, notes)
        grouped.setdefault(annotator.name, []).extend(segments)
        if annotations:
            drew.add(annotator.name)
        if segments:
            labelled.setdefault(annotator.name, []).append(tier_id)
    for annotator, tier_ids in labelled.items():
        if len(tier_ids) > 1:
            notes.merged.append(f"{annotator} on {clip} ({', '.join(tier_ids)})")
    empty = [annotator for annotator, segments in grouped.items() if not segments and annotator in drew]
    notes.left_out += [f"{annotator} on {clip} ({source.name})" for annotator in empty]
    return [Track(clip, annotator, source.name, tuple(segments)) for annotator, segments in grouped.items()
            if annotator not in empty]


def read(sources, kind=None, *, tier_pattern=None, tiers=None, item=None, duration="none", **unknown):
    """Segments from ELAN .eaf files.

    Parameters
    ----------
    sources : list of Source
        .eaf files: one holding every annotator's tiers, or one per annotator.
    kind : {"segments", None}
        Only segments.
    tier_pattern : str, optional
        A regular expression searched in the names of tiers without an
        ``ANNOTATOR`` attribute; its group ``annotator`` (else its first group,
        else the whole match) names the annotator, e.g. ``_(?P<annotator>[^_]+)$``
        for ``gesture_A``.  Tiers it does not match are skipped.
    tiers : list of str, optional
        Read only these tiers (by TIER_ID).
    item : str, optional
        The item every file annotates (default: the linked media file's name,
        else the .eaf file's).
    duration : {"none", "last_time_slot"}
        An .eaf file does not store its media's duration (EAF 3.0: the
        ``MEDIA_DESCRIPTOR`` holds the media's URL, MIME type, time origin and
        source, no length), so the clips' ``durations`` are left unset and a
        warning says so.  ``"last_time_slot"`` takes the time of each file's
        last aligned time slot instead (a lower bound; the longest over the
        files of a clip).

    Returns
    -------
    Conversion
    """
    reject_unknown(TITLE, unknown, ("tier_pattern", "tiers", "item", "duration"))
    check_choice(TITLE, "duration", duration, ("none", "last_time_slot"))
    selected = check_names(TITLE, "tiers", tiers)
    try:
        pattern = None if tier_pattern is None else re.compile(tier_pattern)
    except (re.error, TypeError) as error:
        raise InputError(f"{TITLE}: option tier_pattern is not a regular expression ({error})",
                         column="tier_pattern", value=tier_pattern) from None
    skipped, notes, tracks = [], Notes(), []
    for source in sources:
        tracks += _file_tracks(source, item, pattern, selected, duration == "last_time_slot", skipped, notes)
    warnings = notes.warnings() if duration == "last_time_slot" else [*notes.warnings(), NO_DURATION]
    durations = clip_durations(notes.last_slots, warnings)
    return segment_conversion("elan", tracks, warnings, skipped, durations=durations,
                              hint=" (annotators come from the tier ANNOTATOR attribute, the option tier_pattern "
                                   "or the file name)")


OPTIONS = (
    Option("tier_pattern", "text", "Annotator in tier names (regular expression)",
           "searched in the names of tiers without an ANNOTATOR attribute; its group 'annotator' (else its first "
           "group, else the match) names the annotator, e.g. _(?P<annotator>[^_]+)$ for gesture_A"),
    Option("tiers", "labels", "Tiers to read", "the TIER_IDs to read, comma-separated (default: every tier)"),
    Option("item", "text", "Item of every file", "the item every file annotates (default: the linked media "
           "file's name, else the .eaf file's)"),
    Option("duration", "choice", "Clip duration",
           "an .eaf file does not store its media's duration: leave the clips' durations unset, or take the "
           "time of the file's last time slot (a lower bound: the media may run on after it)",
           choices=(Choice("none", "not set (the file does not store it)"),
                    Choice("last_time_slot", "the last time slot (a lower bound)"))),
)
NO_DURATION = ("an .eaf file does not store its media's duration: the clips' durations are not set (the option "
               "duration=last_time_slot takes each file's last time slot as a lower bound)")

register_format(Reader(name="elan", title=TITLE, kinds=("segments",), detect=detect, read=read, position=80,
                       options=OPTIONS))
