"""Potato: ``annotation_output/<user>/user_state.json``, and the JSONL of ``python -m potato.export -f jsonl``.

A user state holds one annotator's work: ``user_id``, the queue
(``instance_id_ordering``, ``current_instance_index``), the labels
(``instance_id_to_label_to_value``: ``[[{schema, name}, value], …]``, or the
older ``{schema: {name: value}}``) and the spans
(``instance_id_to_span_to_value``: ``[[span, value], …]``).  The JSONL export
has one record per annotator and instance: ``instance_id, user_id, labels,
spans``.  Image annotations are a JSON list under the label name ``_data``.

* Annotator: ``user_id`` (else the user's folder).  Item: the instance id (a
  span's ``target_field``, in multi-field items, is appended: ``doc_1#title``).
* Image objects: ``bbox`` → a box, ``polygon`` → a polygon, ``mask`` → a mask;
  other types (landmark, ellipse, freeform, …) are skipped with the reason.
  Box and polygon coordinates under ``coordinates`` are fractions of the image
  (0–1): pixels when ``image_sizes`` gives the item's size, else kept as
  fractions with a warning; the older flat shape is in pixels.  A mask's RLE
  (``counts``, ``size: [height, width]``) is row-major, starting with
  background: it is decoded to pixels and re-encoded as COCO's column-major RLE.
* Saw nothing, images: a ``_data`` of ``"[]"`` (no object of the kind read).
  Spans: Potato does not record "read it, marked nothing"; the items up to the
  annotator's current position in the queue, and every item with an entry,
  count as seen (the JSONL export: every item with a record), with a warning.
* Discontinuous spans (``additional_parts``) become one span per part, with a warning.
"""
from __future__ import annotations

import json
import re
from typing import NamedTuple

import numpy as np

from ..arrays import name_list
from ..geometry.rle import encode
from ..parse.rle import rle_to_string
from ..rows import InputError
from .base import Conversion, Reader, Skipped, register_format
from .span_records import Submission, checked_offsets, first_line, jsonl_records, keep_latest, saw_nothing, span_row

NAME = "potato"
IMAGE_KINDS = {"bbox": "boxes", "polygon": "polygons", "mask": "masks"}
IMAGE_LABEL = "_data"
JSONL_START = re.compile(r'^\{\s*"instance_id"\s*:')
SEEN_IN_STATES = ("Potato does not record which texts an annotator read without marking a span: the items up to "
                  "each annotator's current position in their queue (instance_id_ordering up to "
                  "current_instance_index) and every item they annotated count as seen, the others as never seen")
SEEN_IN_JSONL = ("Potato's JSONL export has a record only for items an annotator annotated: an item with a record "
                 "but no spans counts as seen with nothing marked, an item without one as never seen")


class Record(NamedTuple):
    """One annotator's annotations of one instance."""

    source: str
    where: str
    annotator: str
    instance: str
    objects: list | None   # image objects from the ``_data`` labels; None: the instance has no image data
    spans: list            # span dicts


class Shape(NamedTuple):
    """One image object's row fields, and what was assumed to get them."""

    fields: dict
    fractions: bool = False   # coordinates in fractions of the image (no image size known)
    padded: bool = False      # mask runs that stopped short of the image, read as ending in background


class ImageRows(NamedTuple):
    """The rows of one image kind, the items kept in fractions, and how many masks were padded."""

    rows: list
    in_fractions: list
    n_padded: int


class Annotations(NamedTuple):
    """Every record read, and the instances each annotator saw (for spans)."""

    records: list
    seen: dict             # annotator -> [instance, …] in queue order
    seen_note: str         # how "seen" was decided, for span warnings
    warnings: list
    skipped: list


def detect(source):
    """None for a Potato ``user_state.json`` or JSONL export, else why not."""
    name = source.name.lower()
    if name.endswith(".json"):
        head = source.head()
        if head.lstrip().startswith("{") and '"instance_id_ordering"' in head:
            return None
        return "no 'instance_id_ordering' (not a Potato user_state.json)"
    if name.endswith(".jsonl"):
        line = first_line(source)
        if JSONL_START.match(line) and '"user_id"' in line:
            return None
        return "no 'instance_id' and 'user_id' (not a Potato JSONL export)"
    return "not a user_state.json or Potato JSONL export"


def companion(source):
    """True: a Potato output folder holds logs, configurations and caches beside the user states."""
    return True


# ----------------------------------------------------------------- records in

def _label_values(raw, where):
    """``[(name, value)]`` of one instance's labels, in either stored shape."""
    if isinstance(raw, dict):  # older states and the JSONL export: {schema: {name: value}}
        return [(name, value) for labels in raw.values() if isinstance(labels, dict) for name, value in labels.items()]
    if not isinstance(raw, list):
        raise InputError(f"{where}: the labels must be a list of [label, value] pairs")
    return [(entry[0].get("name"), entry[1]) for entry in raw
            if isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[0], dict)]


def _image_objects(raw, where):
    """The image objects of one instance (all ``_data`` labels together), or None if it has none."""
    objects = None
    for name, value in _label_values(raw, where):
        if name != IMAGE_LABEL:
            continue
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise InputError(f"{where}: the '_data' label is not JSON") from None
        if not isinstance(value, list):
            raise InputError(f"{where}: the '_data' label must hold a list of objects")
        objects = (objects or []) + value
    return objects


def _span_dicts(raw):
    """The span dicts of one instance: ``[[span, value], …]`` or ``{schema: [span, …] | {id: span}}``."""
    entries = raw if isinstance(raw, list) else [span for spans in raw.values() if isinstance(spans, (list, dict))
                                                 for span in (spans.values() if isinstance(spans, dict) else spans)]
    for entry in entries:
        span = entry[0] if isinstance(entry, (list, tuple)) and len(entry) == 2 else entry
        if isinstance(span, dict):
            yield span


def _state(source):
    """The records of one ``user_state.json`` and the instances its annotator saw."""
    try:
        state = json.loads(source.text())
    except ValueError as error:
        raise InputError(f"{source.name}: not JSON ({error.args[0]})") from None
    annotator = str(state.get("user_id") or source.folder)
    if not annotator:
        raise InputError(f"{source.name}: no 'user_id' and no user folder to name the annotator")
    labels = state.get("instance_id_to_label_to_value") or {}
    spans = state.get("instance_id_to_span_to_value") or {}
    records = []
    for instance in dict.fromkeys([*labels, *spans]):
        where = f"{source.name}: instance {instance!r}"
        records.append(Record(source.name, where, annotator, str(instance),
                              _image_objects(labels.get(instance, []), where), list(_span_dicts(spans.get(instance, [])))))
    current = state.get("current_instance_index")
    ordering = state.get("instance_id_ordering") or []
    shown = ordering[:current + 1] if isinstance(current, int) and not isinstance(current, bool) else []
    return annotator, records, [str(i) for i in shown]


def _export_submissions(source):
    """The records of one JSONL export as submissions (one per line)."""
    out = []
    for line, record in jsonl_records(source):
        where = f"{source.name} line {line}"
        if "instance_id" not in record or "user_id" not in record:
            raise InputError(f"{where}: a record needs 'instance_id' and 'user_id'")
        item, annotator = str(record["instance_id"]), str(record["user_id"])
        read = Record(source.name, where, annotator, item, _image_objects(record.get("labels") or {}, where),
                      list(_span_dicts(record.get("spans") or {})))
        out.append(Submission(item, annotator, (len(out),), source.name, where, [read]))
    return out


def _annotations(sources):
    """Every record of the user states (or, without any, of the JSONL exports)."""
    fits = [s for s in sources if detect(s) is None]
    states = [s for s in fits if s.name.lower().endswith(".json")]
    exports = [s for s in fits if s.name.lower().endswith(".jsonl")]
    others = [s.name for s in sources if s not in fits]
    warnings = [f"ignored {len(others)} other file(s) of the output folder: {name_list(others)}"] if others else []
    if states:
        if exports:
            warnings.append(f"read the user states; ignored the JSONL export(s) {name_list([s.name for s in exports])}")
        records, seen, owner = [], {}, {}
        for source in states:
            annotator, state_records, state_seen = _state(source)
            if annotator in owner:
                raise InputError(f"{source.name} and {owner[annotator]} both hold the state of user {annotator!r}")
            owner[annotator], seen[annotator] = source.name, state_seen
            records += state_records
        return Annotations(records, seen, SEEN_IN_STATES, warnings, [])
    kept = keep_latest([s for source in exports for s in _export_submissions(source)])
    records = [s.rows[0] for s in kept.submissions]
    return Annotations(records, {}, SEEN_IN_JSONL, warnings + kept.warnings, kept.skipped)


def _kind_of(records, kind):
    """The kind to read: ``kind`` if given, else the one kind the records hold."""
    if kind is not None:
        return kind
    found = {"spans"} if any(r.spans for r in records) else set()
    found |= {IMAGE_KINDS[o.get("type")] for r in records for o in r.objects or []
              if isinstance(o, dict) and o.get("type") in IMAGE_KINDS}
    if not found:
        found = {"boxes" if any(r.objects is not None for r in records) else "spans"}
    if len(found) > 1:
        raise InputError(f"Potato: the files hold {' and '.join(sorted(found))}; choose one kind (--kind, or "
                         "kind= in Python)")
    return found.pop()


# ----------------------------------------------------------------- spans

def _item(instance, field):
    return instance if field is None else f"{instance}#{field}"


def _parts(span, where):
    """``[(start, end)]`` of one span: its own offsets, then its ``additional_parts`` (discontinuous spans)."""
    parts = [checked_offsets(span.get("start"), span.get("end"), None, where)]
    for number, part in enumerate(span.get("additional_parts") or [], start=1):
        if not isinstance(part, dict):
            raise InputError(f"{where}, part {number}: expected {{start, end}}")
        parts.append(checked_offsets(part.get("start"), part.get("end"), None, f"{where}, part {number}"))
    return parts


def _seen_pairs(annotations, image_instances):
    """``[(annotator, instance)]`` of every text instance an annotator saw, in queue order then record order."""
    pairs = [(a, i) for a, instances in annotations.seen.items() for i in instances]
    pairs += [(r.annotator, r.instance) for r in annotations.records]
    return [pair for pair in dict.fromkeys(pairs) if pair[1] not in image_instances]


def _span_rows(annotations):
    """Span rows of every text instance seen, and how many spans had several parts."""
    image_instances = {r.instance for r in annotations.records if r.objects is not None}
    by_pair = {(r.annotator, r.instance): r for r in annotations.records}
    fields = {}
    for record in annotations.records:
        for span in record.spans:
            fields.setdefault(record.instance, {})[span.get("target_field")] = None
    rows, split = [], 0
    for annotator, instance in _seen_pairs(annotations, image_instances):
        record = by_pair.get((annotator, instance))
        marked = set()
        for number, span in enumerate(record.spans if record else [], start=1):
            where = f"{record.where}, span {number}"
            if not span.get("name"):
                raise InputError(f"{where}: a span needs 'name' (its label)")
            item = _item(instance, span.get("target_field"))
            parts = _parts(span, where)
            split += len(parts) > 1
            rows += [span_row(item, annotator, start, end, str(span["name"])) for start, end in parts]
            marked.add(span.get("target_field"))
        rows += [saw_nothing(_item(instance, field), annotator)
                 for field in fields.get(instance, {None: None}) if field not in marked]
    return rows, split


# ----------------------------------------------------------------- images

def _size_of(sizes, item, where):
    """``(width, height)`` of ``item`` from ``image_sizes``, or None."""
    if sizes is None or item not in sizes:
        return None
    try:
        width, height = (float(v) for v in sizes[item])
    except (TypeError, ValueError):
        raise InputError(f"image_sizes[{item!r}] must be (width, height)", column="image_sizes") from None
    if width <= 0 or height <= 0:
        raise InputError(f"image_sizes[{item!r}] must be positive", column="image_sizes")
    return width, height


def _number(fields, name, where, *synonyms):
    for key in (name, *synonyms):
        value = fields.get(key) if isinstance(fields, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    raise InputError(f"{where}: no number '{name}'")


def _box(obj, scale, where):
    """The :class:`Shape` ``{x, y, w, h}`` of a bbox object; fractions scaled by ``scale`` when given."""
    coords = obj.get("coordinates")
    fractions = coords is not None
    fields = coords if fractions else obj
    x, y = _number(fields, "x", where), _number(fields, "y", where)
    w, h = _number(fields, "width", where, "w"), _number(fields, "height", where, "h")
    if fractions and scale is not None:
        x, y, w, h = x * scale[0], y * scale[1], w * scale[0], h * scale[1]
    return Shape({"x": x, "y": y, "w": w, "h": h}, fractions and scale is None)


def _polygon(obj, scale, where):
    """The :class:`Shape` ``{points}`` of a polygon object (``[{x, y}, …]`` or ``[[x, y], …]``)."""
    fractions = obj.get("coordinates") is not None
    raw = obj.get("coordinates") if fractions else obj.get("points")
    if not isinstance(raw, list) or len(raw) < 3:
        raise InputError(f"{where}: a polygon needs at least 3 points")
    points = [[_number(p, "x", where), _number(p, "y", where)] if isinstance(p, dict) else list(p) for p in raw]
    if fractions and scale is not None:
        points = [[x * scale[0], y * scale[1]] for x, y in points]
    return Shape({"points": json.dumps(points)}, fractions and scale is None)


def _mask(obj, where):
    """The :class:`Shape` ``{width, height, rle}`` of a mask: Potato's row-major runs as COCO's column-major RLE.

    Runs that stop short of ``height · width`` end in background, as Potato's own decoder reads them.
    """
    rle = obj.get("rle") if isinstance(obj.get("rle"), dict) else {}
    counts, size = rle.get("counts"), rle.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and v > 0 for v in size)):
        raise InputError(f"{where}: a mask needs 'rle.size' [height, width] in pixels")
    if not isinstance(counts, list) or not all(isinstance(c, int) and c >= 0 for c in counts):
        raise InputError(f"{where}: 'rle.counts' must be a list of run lengths")
    height, width = size
    covered = sum(counts)
    if covered > height * width:
        raise InputError(f"{where}: the runs add up to {covered}, more than {height} × {width} pixels")
    flat = np.zeros(height * width, dtype=bool)
    flat[:covered] = np.repeat(np.arange(len(counts)) % 2 == 1, counts)
    runs = encode(flat.reshape(height, width))
    return Shape({"width": width, "height": height, "rle": rle_to_string(runs)}, padded=covered < height * width)


def _object_row(record, obj, kind, scale, where):
    """The :class:`Shape` of one image object of ``kind`` as a whole row (fractions scaled by ``scale``)."""
    shape = _mask(obj, where) if kind == "masks" else (_box if kind == "boxes" else _polygon)(obj, scale, where)
    row = {"item": record.instance, "annotator": record.annotator, **shape.fields, "label": str(obj.get("label", ""))}
    return shape._replace(fields=row)


def _skip_reason(obj, kind):
    """Why an image object is not read as ``kind``, or None when it is."""
    shape = obj.get("type") if isinstance(obj, dict) else None
    if shape not in IMAGE_KINDS:
        return f"{shape}: no agreekit kind" if shape else "not an image object"
    if IMAGE_KINDS[shape] != kind:
        return f"{shape}: read with kind {IMAGE_KINDS[shape]}"
    if shape == "mask" and not (obj.get("rle") or {}).get("counts"):
        return "a mask without run lengths (Potato drops it too)"
    return None


def _image_rows(records, kind, sizes, skipped):
    """:class:`ImageRows` of ``kind`` from the image objects."""
    rows, units, padded = [], {}, 0
    for record in (r for r in records if r.objects is not None):
        drawn, scale = [], _size_of(sizes, record.instance, record.where)
        for number, obj in enumerate(record.objects, start=1):
            where = f"{record.where}, object {number}"
            reason = _skip_reason(obj, kind)
            if reason is not None:
                skipped.append(Skipped(record.source, where, reason))
                continue
            shape = _object_row(record, obj, kind, scale, where)
            if units.setdefault(record.instance, shape.fractions) != shape.fractions:
                raise InputError(f"{where}: item {record.instance!r} mixes coordinates in fractions of the image and "
                                 "in pixels; pass image_sizes for it", column="image_sizes")
            drawn.append(shape.fields)
            padded += shape.padded
        rows += drawn or [saw_nothing(record.instance, record.annotator, kind)]
    return ImageRows(rows, sorted(item for item, fractions in units.items() if fractions), padded)


def _sized_masks(rows):
    """Mask rows with the saw-nothing rows given their item's size (items nobody drew a mask on are left out)."""
    sizes = {r["item"]: (r["width"], r["height"]) for r in rows if r["rle"] is not None}
    out = []
    for row in rows:
        if row["rle"] is None and row["item"] in sizes:
            width, height = sizes[row["item"]]
            row = {**row, "width": width, "height": height, "rle": ""}
        if row["rle"] is not None:
            out.append(row)
    return out, len(rows) - len(out)


def read(sources, kind=None, image_sizes=None):
    """Rows of ``kind`` from Potato's user states or JSONL export.

    Parameters
    ----------
    sources : list of Source
        ``user_state.json`` files (or the ``annotation_output`` folder; its
        other files are ignored with a warning), or ``annotations.jsonl``.
    kind : str, optional
        ``boxes``, ``polygons``, ``masks`` or ``spans``; by default the one kind the files hold.
    image_sizes : dict, optional
        item → ``(width, height)`` in pixels, to turn Potato's fractions of the image into pixels.

    Returns
    -------
    Conversion
    """
    annotations = _annotations(sources)
    kind = _kind_of(annotations.records, kind)
    warnings, skipped = list(annotations.warnings), list(annotations.skipped)
    if kind == "spans":
        rows, split = _span_rows(annotations)
        warnings.append(annotations.seen_note)
        schemas = sorted({str(span.get("schema")) for r in annotations.records for span in r.spans})
        if len(schemas) > 1:
            warnings.append(f"spans of {len(schemas)} schemas ({name_list(schemas)}) are compared together, by label")
        if split:
            warnings.append(f"{split} discontinuous span(s) were split into one span per part (agreekit has no "
                            "multi-fragment spans)")
        return Conversion(NAME, kind, rows, warnings=warnings, skipped=skipped)
    rows, in_fractions, padded = _image_rows(annotations.records, kind, image_sizes, skipped)
    if padded:
        warnings.append(f"{padded} mask(s) have runs that stop short of the image: the rest is read as background, "
                        "as Potato reads it")
    if kind == "masks":
        rows, unsized = _sized_masks(rows)
        if unsized:
            warnings.append(f"{unsized} saw-nothing row(s) left out: nobody drew a mask on their image, so its size "
                            "is unknown")
    if in_fractions:
        warnings.append(f"{len(in_fractions)} item(s) have coordinates in fractions of the image (Potato's "
                        "output holds no image sizes) and are kept so; IoU and GIoU do not change, the centroid "
                        f"distance does: pass image_sizes for pixels ({name_list(in_fractions)})")
    return Conversion(NAME, kind, rows, warnings=warnings, skipped=skipped)


register_format(Reader(name=NAME, title="Potato", kinds=("boxes", "polygons", "masks", "spans"), detect=detect,
                       read=read, position=50, companion=companion))
