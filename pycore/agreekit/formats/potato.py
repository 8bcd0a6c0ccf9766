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
* Labels (radio, multiselect, likert, slider answers), one schema at a time
  (option ``question``): an option stored as ``true`` is its name, a number
  (a likert point's value, a slider's) is itself, ``false`` is not chosen, and
  free text (text boxes) is skipped.  Several options of one schema are a set.
"""
from __future__ import annotations

import json
import re
from typing import NamedTuple

from ..arrays import name_list
from ..options import Option
from ..rows import InputError
from .base import Conversion, Reader, load_json, register_format
from .label_answers import LABELS, QUESTION, answer_rows, choose_question, held_answers
from .potato_answers import answers, geometry_held
from .potato_images import IMAGE_KINDS, image_rows, sized_masks, sizes_table
from .span_records import Submission, checked_offsets, first_line, jsonl_records, keep_latest, saw_nothing, span_row

NAME = "potato"
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
    schemas: tuple = ()    # the schemas of its other labels (radio, likert, multiselect, text answers)
    answers: tuple = ()    # those labels as (schema, name, value)


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
                value = load_json(value)
            except ValueError:
                raise InputError(f"{where}: the '_data' label is not JSON") from None
        if not isinstance(value, list):
            raise InputError(f"{where}: the '_data' label must hold a list of objects")
        objects = (objects or []) + value
    return objects


def _answer_schemas(raw):
    """The schemas of one instance's label answers other than image data (``{schema, name}`` or ``{schema: …}``)."""
    if isinstance(raw, dict):
        return tuple(str(schema) for schema, labels in raw.items() if isinstance(labels, dict)
                     and any(name != IMAGE_LABEL for name in labels))
    return tuple(str(entry[0].get("schema")) for entry in raw if isinstance(entry, (list, tuple)) and len(entry) == 2
                 and isinstance(entry[0], dict) and entry[0].get("name") != IMAGE_LABEL)


def _answer_entries(raw):
    """``((schema, name, value), …)`` of one instance's label answers other than image data."""
    if isinstance(raw, dict):
        return tuple((str(schema), str(name), value) for schema, labels in raw.items() if isinstance(labels, dict)
                     for name, value in labels.items() if name != IMAGE_LABEL)
    return tuple((str(entry[0].get("schema")), str(entry[0].get("name")), entry[1]) for entry in raw
                 if isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[0], dict)
                 and entry[0].get("name") != IMAGE_LABEL)


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
        state = load_json(source.text())
    except ValueError as error:
        raise InputError(f"{source.name}: not JSON ({error.args[0]})") from None
    if not isinstance(state, dict):
        raise InputError(f"{source.name}: a user state must be a JSON object")
    annotator = str(state.get("user_id") or source.folder)
    if not annotator:
        raise InputError(f"{source.name}: no 'user_id' and no user folder to name the annotator")
    labels = state.get("instance_id_to_label_to_value") or {}
    spans = state.get("instance_id_to_span_to_value") or {}
    for name, value in (("instance_id_to_label_to_value", labels), ("instance_id_to_span_to_value", spans)):
        if not isinstance(value, dict):
            raise InputError(f"{source.name}: '{name}' must be an object (instance id → annotations)", column=name)
    records = []
    for instance in dict.fromkeys([*labels, *spans]):
        where = f"{source.name}: instance {instance!r}"
        raw, marked = labels.get(instance) or [], spans.get(instance) or []
        if not isinstance(raw, (list, dict)) or not isinstance(marked, (list, dict)):
            raise InputError(f"{where}: its labels and spans must be lists or objects", column="instance")
        records.append(Record(source.name, where, annotator, str(instance), _image_objects(raw, where),
                              list(_span_dicts(marked)), _answer_schemas(raw), _answer_entries(raw)))
    current = state.get("current_instance_index")
    ordering = state.get("instance_id_ordering") or []
    if not isinstance(ordering, list):
        raise InputError(f"{source.name}: 'instance_id_ordering' must be a list of instance ids",
                         column="instance_id_ordering")
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
        raw, marked = record.get("labels") or {}, record.get("spans") or {}
        if not isinstance(raw, (list, dict)) or not isinstance(marked, (list, dict)):
            raise InputError(f"{where}: 'labels' and 'spans' must be lists or objects", column="labels")
        read = Record(source.name, where, annotator, item, _image_objects(raw, where), list(_span_dicts(marked)),
                      _answer_schemas(raw), _answer_entries(raw))
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
        records, seen, owner, empty = [], {}, {}, []
        for source in states:
            annotator, state_records, state_seen = _state(source)
            if annotator in owner:
                raise InputError(f"{source.name} and {owner[annotator]} both hold the state of user {annotator!r}")
            owner[annotator], seen[annotator] = source.name, state_seen
            records += state_records
            if not state_records and not state_seen:
                empty.append(f"{annotator} ({source.name})")
        if empty:
            warnings.append(f"{len(empty)} user state(s) hold no annotation and no position in a queue, so those "
                            f"annotators are left out: {name_list(empty)}")
        return Annotations(records, seen, SEEN_IN_STATES, warnings, [])
    kept = keep_latest([s for source in exports for s in _export_submissions(source)])
    records = [s.rows[0] for s in kept.submissions]
    return Annotations(records, {}, SEEN_IN_JSONL, warnings + kept.warnings, kept.skipped)


def _kind_of(records, kind):
    """The kind to read: ``kind`` if given, else the one kind the records hold."""
    if kind is not None:
        return kind
    if not any(r.spans or r.objects for r in records) and any(r.answers for r in records):
        return LABELS
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


def _refuse_answers_only(records):
    """An :class:`InputError` saying what the files hold when they hold label answers and no span at all:
    their items would otherwise all read as "seen, nothing marked" and agree perfectly."""
    if any(r.spans for r in records):
        return
    schemas = sorted({schema for r in records for schema in r.schemas})
    if schemas:
        n = sum(1 for r in records if r.schemas)
        raise InputError(f"Potato: the files hold label answers (schemas {name_list(schemas)}, on {n} "
                         "annotator-instance pair(s): radio, likert, multiselect or text answers), no spans: "
                         "convert with --kind labels", column="kind", value="spans")


def read(sources, kind=None, image_sizes=None, question=None):
    """Rows of ``kind`` from Potato's user states or JSONL export.

    Parameters
    ----------
    sources : list of Source
        ``user_state.json`` files (or the ``annotation_output`` folder; its
        other files are ignored with a warning), or ``annotations.jsonl``.
    kind : str, optional
        ``boxes``, ``polygons``, ``masks``, ``spans`` or ``labels``; by default the one kind the files hold
        (labels when they hold answers and no span or image object).
    image_sizes : dict or table, optional
        item → ``(width, height)`` in pixels, to turn Potato's fractions of the image into pixels; or
        rows ``item, width, height`` (CSV/TSV text or a list of dicts).
    question : str, optional
        For labels: the schema whose answers to read; needed when the files answer several.

    Returns
    -------
    Conversion
    """
    annotations = _annotations(sources)
    kind = _kind_of(annotations.records, kind)
    warnings, skipped = list(annotations.warnings), list(annotations.skipped)
    if kind == LABELS:
        found = answers(annotations.records, [])
        if not found:
            raise InputError("Potato: the files hold no label answers (radio, likert, multiselect, slider)",
                             column="kind", value=LABELS)
        asked = choose_question(found, question, "Potato")[0].question
        rows, more = answer_rows(answers(annotations.records, skipped, asked), asked, "Potato", skipped)
        return Conversion(NAME, kind, rows, warnings=warnings + more, skipped=skipped, also=geometry_held(
            annotations.records))
    also = [held_answers(answers(annotations.records, []), "radio/likert/multiselect/slider answers")] \
        if any(r.answers for r in annotations.records) else []
    if kind == "spans":
        _refuse_answers_only(annotations.records)
        rows, split = _span_rows(annotations)
        warnings.append(annotations.seen_note)
        schemas = sorted({str(span.get("schema")) for r in annotations.records for span in r.spans})
        if len(schemas) > 1:
            warnings.append(f"spans of {len(schemas)} schemas ({name_list(schemas)}) are compared together, by label")
        if split:
            warnings.append(f"{split} discontinuous span(s) were split into one span per part (agreekit has no "
                            "multi-fragment spans)")
        return Conversion(NAME, kind, rows, warnings=warnings, skipped=skipped, also=also)
    rows, in_fractions, padded, left_out = image_rows(annotations.records, kind, sizes_table(image_sizes), skipped)
    if left_out:
        warnings.append(f"{len(left_out)} (annotator, item) pair(s) hold only objects that are skipped and are left "
                        f"out, not counted as saw nothing: {name_list(left_out)}")
    if padded:
        warnings.append(f"{padded} mask(s) have runs that stop short of the image: the rest is read as background, "
                        "as Potato reads it")
    if kind == "masks":
        rows, unsized = sized_masks(rows)
        if unsized:
            warnings.append(f"{unsized} saw-nothing row(s) left out: nobody drew a mask on their image, so its size "
                            "is unknown")
    if in_fractions:
        warnings.append(f"{len(in_fractions)} item(s) have coordinates in fractions of the image (Potato's "
                        "output holds no image sizes) and are kept so; IoU and GIoU do not change, the centroid "
                        f"distance does: pass image_sizes for pixels ({name_list(in_fractions)})")
    return Conversion(NAME, kind, rows, warnings=warnings, skipped=skipped, also=also)


OPTIONS = (
    Option("image_sizes", "table", "Image sizes", "rows item, width, height in pixels, to turn Potato's "
           "fractions of the image into pixels"),
    QUESTION,
)

register_format(Reader(name=NAME, title="Potato", kinds=("boxes", "polygons", "masks", "spans", LABELS), detect=detect,
                       read=read, position=50, companion=companion, options=OPTIONS))
