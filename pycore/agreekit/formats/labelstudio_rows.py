"""Label Studio regions turned into the rows of one agreekit kind, with notes on every assumption.

Each kept annotation (one annotator's submission on one item) gives its rows
of the chosen kind, or one saw-nothing row (item and annotator, the other
columns blank) when it has none; regions of other kinds, and regions agreekit cannot read, are left
out as :class:`~agreekit.formats.base.Skipped` records.
"""
from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..arrays import name_list
from ..registry import KINDS
from ..rows import InputError
from .base import Skipped
from .labelstudio_regions import (SHAPE_KIND, SHAPE_TITLE, TextOffsets, box, mask, number, polygon, rotation,
                                  segment)

__all__ = ["Notes", "in_file", "choose_kind", "saw_nothing", "kind_rows"]

MESSAGES = {
    "cancelled": "{n} cancelled annotation(s) (the annotator pressed Skip) are left out: those annotators "
                 "count as never having seen those tasks ({examples})",
    "unannotated": "{n} task(s) have no annotation: nobody saw them ({examples})",
    "predictions": "{n} prediction(s) (model output) are ignored; read them as annotators named after their "
                   "model_version with the option predictions='read' ({examples})",
    "predictions read": "{n} prediction(s) are read as annotators named after their model_version ({examples})",
    "no annotator": "{n} annotation(s) have no completed_by: their annotator is the file name ({examples})",
    "duplicate": "{n} annotator(s) submitted one item more than once; the latest annotation (by updated_at, "
                 "else created_at, else the last in the files) is kept: {examples}",
    "item names": "{n} image or audio name(s) are shared by several tasks of one file; those items are "
                  "named name#task: {examples}",
    "percent": "{n} item(s) have no original_width/original_height: their coordinates stay in percent of the "
               "image ({examples})",
    "mixed sizes": "{n} item(s) have regions with different original_width/original_height; each region is "
                   "scaled by its own ({examples})",
    "size from item": "{n} region(s) have no original_width/original_height and are scaled by their item's "
                      "size from other regions ({examples})",
    "image rotation": "{n} region(s) are on an image turned in Label Studio (image_rotation ≠ 0); their "
                      "coordinates are taken as exported ({examples})",
    "left out": "{n} annotation(s) hold regions but none that is read as this kind: they are left out, not "
                "counted as saw nothing ({examples})",
    "rotated": "{n} rotated rectangle(s) are left out of boxes, which are axis-aligned: read them as "
               "polygons with --kind polygons ({examples})",
    "rectangle as polygon": "{n} rectangle(s) are read as 4-point polygons ({examples})",
    "several labels": "{n} region(s) have several labels, joined with '+' into one ({examples})",
    "utf16": "{n} span(s) follow characters outside the Basic Multilingual Plane (emoji, …): their offsets, "
             "UTF-16 code units in Label Studio, are converted to code points ({examples})",
    "code points": "{n} span(s) match their text only when their offsets are read as code points, not as "
                   "UTF-16 code units ({examples})",
    "texts": "{n} task(s) have spans on several texts; each text is an item, named task:text ({examples})",
    "channels": "{n} item(s) have segments on several audio channels; each channel is an item, named "
                "item#chN ({examples})",
    "choice tags": "the tasks hold several classification tags ({examples}); each is an item of its own, named "
                   "item:tag",
    "no choice": "{n} annotation(s) hold no choice: those annotators did not rate those tasks ({examples})",
}


@dataclass
class Notes:
    """What a conversion left out (:class:`Skipped`) and the assumptions it made (counted by key)."""

    skipped: list = field(default_factory=list)
    seen: dict = field(default_factory=dict)   # key of MESSAGES → examples, in order
    extra: list = field(default_factory=list)  # warnings that are not counts
    drew: set = field(default_factory=set)     # submissions (by where) with regions of kinds not read

    def skip(self, source, where, reason):
        """Record an annotation left out."""
        self.skipped.append(Skipped(source, where, reason))

    def note(self, key, example):
        """Count one case of the assumption ``key`` (a key of :data:`MESSAGES`)."""
        # examples are listed comma-separated: "task 5, region b2" is shown as "task 5 region b2"
        self.seen.setdefault(key, []).append(str(example).replace(", ", " "))

    def warnings(self):
        """One line per assumption made, in the order of :data:`MESSAGES`, then the others."""
        lines = [MESSAGES[key].format(n=len(self.seen[key]), examples=name_list(self.seen[key]))
                 for key in MESSAGES if key in self.seen]
        return lines + self.extra


@contextmanager
def in_file(name):
    """Prefix the file name to an :class:`InputError` raised inside (regions know their task, not their file)."""
    try:
        yield
    except InputError as error:
        if error.message.startswith(f"{name}:"):
            raise
        raise InputError(f"{name}: {error.message}", line=error.line, column=error.column,
                         value=error.value) from None


def choose_kind(entries, kind):
    """The kind to read.

    Parameters
    ----------
    entries : list of (Submission, list of Region)
    kind : str or None
        The kind asked for (returned as is), or None.

    Returns
    -------
    str
        ``kind``, else the one kind the regions hold (rectangles count as boxes).

    Raises
    ------
    InputError
        The regions hold several kinds (listed, with their counts) or none.
    """
    if kind is not None:
        return kind
    found = Counter(SHAPE_KIND[region.shape] for _, regions in entries for region in regions)
    if len(found) == 1:
        return next(iter(found))
    if not found:
        raise InputError("Label Studio: no regions of a kind agreekit reads (rectangles, polygons, brush masks, "
                         "text spans, audio or time-series segments); to read empty annotations choose a kind "
                         "with --kind", column="kind")
    held = ", ".join(f"{name} ({n} region{'s' if n > 1 else ''})" for name, n in found.most_common())
    raise InputError(f"Label Studio: the export holds several kinds: {held}; choose one with --kind "
                     f"(e.g. --kind {found.most_common(1)[0][0]})", column="kind")


def _row(submission, region, notes, **geometry):
    if region.n_labels > 1:
        notes.note("several labels", region.where)
    return {"item": submission.item, "annotator": submission.annotator, **geometry, "label": region.label}


def saw_nothing(kind, item, annotator, size=None):
    """The row of an annotator who saw ``item`` and marked nothing: every column of ``kind`` blank.

    The kinds read a list of dicts by its columns, so the blank geometry is
    spelled out; a mask's row keeps the image ``size`` (an empty mask has one).
    """
    row = dict.fromkeys(KINDS[kind].columns)
    row.update(item=item, annotator=annotator)
    if size is not None:
        row.update(width=int(size[0]), height=int(size[1]))
    return row


def left_out(submission, regions, notes):
    """True (and noted) when a submission that made no row of the kind had regions, all left out or of other
    kinds: the export does not say that this annotator saw nothing of the kind, so no saw-nothing row."""
    if regions or submission.where in notes.drew:
        notes.note("left out", submission.where)
        return True
    return False


def _other_kind(submission, region, kind, notes):
    notes.skip(submission.source, region.where, f"{SHAPE_TITLE[region.shape]}, not {kind}")


# --------------------------------------------------------------------------- images

def _item_sizes(entries, notes):
    """Each item's image size: the first ``(original_width, original_height)`` among its regions, or None."""
    sizes, shown = {}, {}
    for submission, regions in entries:
        sizes.setdefault(submission.item, None)
        for region in regions:
            if region.size is not None:
                shown.setdefault(submission.item, set()).add(region.size)
                if sizes[submission.item] is None:
                    sizes[submission.item] = region.size
    for item, found in shown.items():
        if len(found) > 1:
            notes.note("mixed sizes", item)
    return sizes


def _image_geometry(kind, submission, region, size, notes):
    """The geometry columns of one image region, or None when it is left out (recorded in ``notes``)."""
    def leave_out(reason):
        notes.skip(submission.source, region.where, reason)

    if kind == "boxes":
        if rotation(region):
            notes.note("rotated", region.where)
            return leave_out("rotated rectangle (boxes are axis-aligned)")
        x, y, w, h = box(region, size)
        return {"x": number(x), "y": number(y), "w": number(w), "h": number(h)}
    if kind == "polygons":
        if region.shape == "rectangle":
            if rotation(region) and size is None:
                return leave_out("rotated rectangle without original_width/original_height")
            notes.note("rectangle as polygon", region.where)
        vertices = polygon(region, size)
        if vertices is None:
            return leave_out("polygon that is not simple (self-intersecting, under 3 points or no area)")
        return {"points": " ".join(str(number(v)) for v in vertices.ravel().tolist())}
    if size is None:  # masks: a brush canvas cannot be unpacked without its size
        return leave_out("brush mask without original_width/original_height")
    width, height, runs = mask(region, size)
    return {"width": width, "height": height, "rle": runs}


def _image_rows(kind, entries, notes):
    sizes = _item_sizes(entries, notes)
    rows, in_percent = [], []
    for submission, regions in entries:
        made = []
        for region in regions:
            if SHAPE_KIND[region.shape] != kind and not (kind == "polygons" and region.shape == "rectangle"):
                _other_kind(submission, region, kind, notes)
                continue
            size = region.size or sizes[submission.item]
            if region.size is None and size is not None:
                notes.note("size from item", region.where)
            if size is None and kind != "masks" and submission.item not in in_percent:
                in_percent.append(submission.item)
            if region.image_rotation % 360:
                notes.note("image rotation", region.where)
            with in_file(submission.source):
                geometry = _image_geometry(kind, submission, region, size, notes)
            if geometry is not None:
                made.append(_row(submission, region, notes, **geometry))
        if made:
            rows += made
        elif left_out(submission, regions, notes):
            continue
        elif kind != "masks" or sizes[submission.item] is not None:
            rows.append(saw_nothing(kind, submission.item, submission.annotator, sizes[submission.item]
                                    if kind == "masks" else None))
        else:
            notes.skip(submission.source, submission.where, "empty annotation of an image of unknown size "
                       "(no brush mask gives original_width/original_height)")
    for item in in_percent:
        notes.note("percent", item)
    return rows


# --------------------------------------------------------------------------- text spans

def _text_candidates(data, to_name):
    """Texts a span could be on: the data field named by ``to_name``, then ``text``, then the other texts."""
    keys = [to_name, "text"] + list(data)
    out = []
    for key in keys:
        value = data.get(key) if key is not None else None
        if isinstance(value, str) and value not in out:
            out.append(value)
    return out


def _offsets(submission, region):
    value = region.value
    start, end, expected = value.get("start"), value.get("end"), value.get("text")
    for name, offset in (("start", start), ("end", end)):
        if not isinstance(offset, (int, float)) or isinstance(offset, bool) or not float(offset).is_integer():
            raise InputError(f"{submission.source}: {region.where}: value.{name} must be a whole number, "
                             f"not {offset!r}", column=f"value.{name}", value=offset)
    return int(start), int(end), expected if isinstance(expected, str) else None


def _resolved(submission, spans, to_name):
    """``(text, [(start, end, how), …])``: the first candidate text on which every span resolves."""
    candidates = _text_candidates(submission.data, to_name)
    offsets = [_offsets(submission, region) for region in spans]
    for text in candidates:
        index = TextOffsets(text)
        found = [index.resolve(*triple) for triple in offsets]
        if all(found):
            return text, found
    if not spans:
        return None, []
    if not candidates:
        raise InputError(f"{submission.source}: {submission.where}: the task data holds no text for its spans",
                         column="data")
    index = TextOffsets(candidates[0])
    for region, (start, end, expected) in zip(spans, offsets):
        if index.resolve(start, end, expected) is None:
            shown = index.text[start:end] if 0 <= start <= end <= len(index.text) else "out of range"
            raise InputError(f"{submission.source}: {region.where}: offsets {start}–{end} do not give the "
                             f"exported text {expected!r} (as UTF-16 units or as code points: {shown!r})",
                             column="value.start", value=start)
    raise InputError(f"{submission.source}: {submission.where}: no single text in the task data fits all "
                     "its spans", column="data")


def _span_rows(entries, notes):
    texts_of = {}
    for submission, regions in entries:
        names = texts_of.setdefault(submission.item, {})  # the text fields spans point at, in order
        names.update(dict.fromkeys(r.to_name for r in regions if r.shape == "text"))
    for item, names in texts_of.items():
        if len(names) > 1:
            notes.note("texts", item)
    rows, lengths = [], {}
    for submission, regions in entries:
        for region in regions:
            if region.shape != "text":
                _other_kind(submission, region, "spans", notes)
        if not any(region.shape == "text" for region in regions) and left_out(submission, regions, notes):
            continue
        names = list(texts_of[submission.item]) or [None]
        for to_name in names:
            item = submission.item if len(names) == 1 else f"{submission.item}:{to_name}"
            spans = [r for r in regions if r.shape == "text" and (len(names) == 1 or r.to_name == to_name)]
            text, found = _resolved(submission, spans, to_name)
            if text is not None and lengths.setdefault(item, text) != text:
                raise InputError(f"{submission.source}: {submission.where}: item {item} has another text in "
                                 "another annotation or file", column="data")
            made = []
            for region, (start, end, how) in zip(spans, found):
                if how != "same":
                    notes.note(how, region.where)
                made.append({**_row(submission, region, notes, start=start, end=end), "item": item})
            rows += made or [saw_nothing("spans", item, submission.annotator)]
    return rows, lengths


# --------------------------------------------------------------------------- time segments

def _channel(region):
    channel = region.value.get("channel")
    return channel if isinstance(channel, int) and not isinstance(channel, bool) else 0


def _segment_rows(entries, notes):
    channels = {}
    for submission, regions in entries:
        found = channels.setdefault(submission.item, {})
        found.update(dict.fromkeys(_channel(r) for r in regions if r.shape == "audio"))
    for item, found in channels.items():
        if len(found) > 1:
            notes.note("channels", item)
    rows = []
    for submission, regions in entries:
        split = len(channels[submission.item]) > 1
        per_channel = {channel: [] for channel in (sorted(channels[submission.item]) if split else [None])}
        for region in regions:
            if SHAPE_KIND[region.shape] != "segments":
                _other_kind(submission, region, "segments", notes)
                continue
            with in_file(submission.source):
                start, end = segment(region)
            row = _row(submission, region, notes, start=number(start), end=number(end))
            per_channel.setdefault(_channel(region) if split else None, []).append(row)
        if not any(per_channel.values()) and left_out(submission, regions, notes):
            continue
        for channel, made in per_channel.items():
            item = submission.item if channel is None else f"{submission.item}#ch{channel}"
            rows += [{**row, "item": item} for row in made] or [saw_nothing("segments", item, submission.annotator)]
    return rows


def kind_rows(kind, entries, notes):
    """The rows of ``kind`` and, for spans, the texts (item → text).

    Parameters
    ----------
    kind : str
        boxes, polygons, masks, spans or segments.
    entries : list of (Submission, list of Region)
        The kept annotations, each with its regions, in file order.
    notes : Notes
        Collects what is left out and the assumptions made.

    Returns
    -------
    rows : list of dict
        The columns of ``kind``; a submission with nothing of ``kind`` gives a
        saw-nothing row (:func:`saw_nothing`).
    lengths : dict or None
    """
    if kind == "spans":
        return _span_rows(entries, notes)
    if kind == "segments":
        return _segment_rows(entries, notes), None
    return _image_rows(kind, entries, notes), None
