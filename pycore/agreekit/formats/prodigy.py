"""Prodigy: the JSON Lines that ``prodigy db-out <dataset>`` writes (ner_manual, spans_manual, image_manual).

Every line is one answer: the task (``text`` or ``image``), the annotator's
``spans`` and ``answer`` (accept, reject or ignore).

* Item: ``_input_hash``, Prodigy's hash of the input (the same text gives the
  same hash, which is how Prodigy's own ``metric.iaa.*`` recipes group answers).
  A text task's ``text`` gives the item's text (``lengths``).
* Annotator: ``_annotator_id``, else ``_session_id``, else the file name (one
  dataset per annotator), with a warning.
* ``accept``: each span is a row (text spans: ``start``, ``end``, ``label``,
  code points, checked against ``text`` and against the span's own ``text``
  when it has one; image spans: ``rect`` → a box from ``x, y, width, height``,
  ``polygon``/``freehand`` → a polygon from ``points``, in pixels); no spans →
  saw the item and marked nothing.
* An image task whose regions are all of other kinds (polygons when reading
  boxes) is left out, not read as saw-nothing: its regions are skipped and the
  pair is named in a warning.  Relations (``rel.manual``) are skipped and
  counted; choice tasks (``textcat.manual``, entity linking: ``options`` and
  the accepted option ids) are skipped with their reason, so a file of them
  alone is refused saying what it holds.
* ``ignore`` → never saw it (skipped); ``reject`` → never saw it (skipped, with
  a warning: in the manual interfaces reject marks a bad example).  Binary
  ``ner`` and ``classification`` tasks, where accept and reject are the answer
  itself, are refused as regions.
* Kind ``labels`` reads answers about the whole item: binary
  ``classification`` tasks (accept → the label, reject → "not label") and
  choice tasks (the accepted option ids); see :func:`read`.
* An annotator who answered one input twice keeps the latest answer
  (``_timestamp``, then file order).
"""
from __future__ import annotations

import json
import math
from typing import NamedTuple

from ..arrays import name_list
from ..rows import InputError
from .base import Conversion, Reader, Skipped, register_format
from .label_answers import LABELS, QUESTION, Answer, answer_rows, choose_question, label_text
from .span_records import (Submission, checked_offsets, first_record, jsonl_records, keep_latest, kept_rows,
                           saw_nothing, span_row, used_texts)

NAME = "prodigy"
BINARY_VIEWS = ("ner", "classification")
SKIP_REASONS = {"ignore": "ignored in Prodigy (counted as never seen)",
                "reject": "rejected in Prodigy, a bad example (counted as never seen)"}
SHAPE_KINDS = {"rect": "boxes", "polygon": "polygons", "freehand": "polygons"}
CHOICE = "a choice answer (options: text classification or entity linking), not regions"
RELATION = "a relation between spans (relations are not read)"
OFF_KIND = "only regions of other kinds"
CHOICE_ON_SPAN = "a choice about one span (entity linking), not about the whole item"
CHOICE_QUESTION = "choice"  # a choice task names no question: its interface is the question


class Task(NamedTuple):
    """One answer as read: where it is, whose it is, and the record."""

    source: str
    where: str
    item: str
    annotator: str
    order: tuple
    record: dict

    @property
    def is_image(self):
        """True for an image task (image_manual), False for a text task."""
        return "image" in self.record or any(isinstance(s, dict) and "points" in s for s in self.spans)

    @property
    def is_choice(self):
        """True for a choice task (textcat.manual, entity linking): its answer is the options it accepts."""
        return self.record.get("_view_id") == "choice" or "options" in self.record

    @property
    def spans(self):
        """The task's spans (a list; missing or null reads as none)."""
        return self.record.get("spans") or []


def detect(source):
    """None for ``prodigy db-out`` JSON Lines, else why not."""
    record = first_record(source)
    if record is None:
        return "not JSON Lines"
    if "_input_hash" not in record or "_task_hash" not in record:
        return "no '_input_hash' and '_task_hash'"
    return None


def _tasks(sources):
    """Every answer of every source as a :class:`Task`, and how many took the file name as annotator."""
    tasks, from_file = [], 0
    for source in sources:
        for line, record in jsonl_records(source):
            where = f"{source.name} line {line}"
            if "_input_hash" not in record:
                raise InputError(f"{where}: no '_input_hash' (the item)", column="_input_hash")
            if record.get("answer") not in ("accept", "reject", "ignore"):
                raise InputError(f"{where}: 'answer' is {record.get('answer')!r}, expected accept, reject or "
                                 "ignore (is this a db-out export?)", column="answer", value=record.get("answer"))
            _check_types(record, where)
            annotator = record.get("_annotator_id") or record.get("_session_id")
            if not annotator:
                annotator, from_file = source.stem, from_file + 1
            order = (record.get("_timestamp") or 0, len(tasks))
            tasks.append(Task(source.name, where, str(record["_input_hash"]), str(annotator), order, record))
    return tasks, from_file


FIELD_TYPES = {"spans": (list,), "relations": (list,), "options": (list,), "_timestamp": (int, float),
               "_annotator_id": (str, int), "_session_id": (str, int), "text": (str,), "image": (str,)}


def _check_types(record, where):
    """An :class:`InputError` naming the field when a field Prodigy writes has another JSON type."""
    for name, types in FIELD_TYPES.items():
        value = record.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, types)):
            raise InputError(f"{where}: '{name}' must be {' or '.join(t.__name__ for t in types)}, not {value!r}",
                             column=name, value=value)
    if not all(isinstance(span, dict) and isinstance(span.get("type", ""), str) for span in record.get("spans") or []):
        raise InputError(f"{where}: 'spans' must be a list of objects (a 'type' a text)", column="spans")
    if "_input_hash" in record and not isinstance(record["_input_hash"], (str, int)):
        raise InputError(f"{where}: '_input_hash' must be a number or a text", column="_input_hash",
                         value=record["_input_hash"])


def _kind_of(tasks, kind):
    """The kind to read: ``kind`` if given, else the one kind the accepted answers hold."""
    if kind is not None:
        return kind
    found = set()
    for task in tasks:
        if task.record["answer"] != "accept" or task.is_choice:
            continue
        if task.is_image:
            found |= {SHAPE_KINDS.get(span.get("type"), "boxes") for span in task.spans}
        elif task.spans:
            found.add("spans")
    if not found:
        found = {"boxes" if any(task.is_image for task in tasks) else "spans"}
    if len(found) > 1:
        raise InputError(f"Prodigy: the files hold {' and '.join(sorted(found))}; choose one kind (--kind, or "
                         "kind= in Python)")
    return found.pop()


def _text_rows(task, texts):
    """The span rows of an accepted text task (checked against its text), or its saw-nothing row."""
    text = task.record.get("text")
    if not isinstance(text, str):
        raise InputError(f"{task.where}: a text task needs its 'text'", column="text")
    if texts.setdefault(task.item, text) != text:
        raise InputError(f"{task.where}: _input_hash {task.item} names two different texts", column="text")
    rows = []
    for number, span in enumerate(task.spans, start=1):
        where = f"{task.where}, span {number}"
        if not isinstance(span, dict) or not span.get("label"):
            raise InputError(f"{where}: a span needs 'start', 'end' and 'label'", column="spans")
        start, end = checked_offsets(span.get("start"), span.get("end"), text, where, quoted=span.get("text"))
        rows.append(span_row(task.item, task.annotator, start, end, str(span["label"])))
    return rows or [saw_nothing(task.item, task.annotator)]


def _finite(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _number(span, names, where):
    for name in names:
        value = span.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise InputError(f"{where}: '{name}' is not a finite number", column=name, value=value)
            return float(value)
    raise InputError(f"{where}: no number '{names[0]}'", column=names[0])


def _shape_row(task, span, kind, where):
    """The row of one image span for ``kind``, or None when the shape is not of that kind."""
    shape = span.get("type", "rect")
    label = str(span.get("label", ""))
    if kind == "boxes" and shape == "rect":
        x, y = _number(span, ("x",), where), _number(span, ("y",), where)
        w, h = _number(span, ("width", "w"), where), _number(span, ("height", "h"), where)
        return {"item": task.item, "annotator": task.annotator, "x": x, "y": y, "w": w, "h": h, "label": label}
    if kind == "polygons" and shape in SHAPE_KINDS:
        points = span.get("points")
        if not isinstance(points, list) or len(points) < 3 or not all(
                isinstance(p, list) and len(p) == 2 and all(_finite(v) for v in p) for p in points):
            raise InputError(f"{where}: a {shape} needs at least 3 'points' [x, y] of finite numbers",
                             column="points", value=points)
        return {"item": task.item, "annotator": task.annotator, "points": json.dumps(points), "label": label}
    return None


def _image_rows(task, kind, skipped):
    """The rows of an accepted image task for ``kind``: its saw-nothing row when it has no regions, None when
    all its regions are of other kinds (the annotator did not say they saw nothing of ``kind``)."""
    rows = []
    for number, span in enumerate(task.spans, start=1):
        where = f"{task.where}, span {number}"
        if not isinstance(span, dict):
            raise InputError(f"{where}: a span must be a JSON object", column="spans")
        row = _shape_row(task, span, kind, where)
        if row is None:
            shape = span.get("type", "rect")
            other = SHAPE_KINDS.get(shape)
            skipped.append(Skipped(task.source, where, f"{shape}: read with kind {other}" if other
                                   else f"{shape}: no agreekit kind"))
        else:
            rows.append(row)
    if task.spans and not rows:
        return None
    return rows or [saw_nothing(task.item, task.annotator, kind)]


def _submission(task, kind, texts, skipped):
    """The task as a :class:`Submission` for ``kind`` (rows None when it is left out), or None if off-kind."""
    answer = task.record["answer"]
    if task.is_choice:
        skipped.append(Skipped(task.source, task.where, CHOICE))
        return None
    if task.is_image != (kind != "spans"):
        skipped.append(Skipped(task.source, task.where, "an image task (kind boxes or polygons)" if task.is_image
                               else "a text task (kind spans)"))
        return None
    if answer != "accept":
        return Submission(task.item, task.annotator, task.order, task.source, task.where, None, SKIP_REASONS[answer])
    relations = task.record.get("relations") or []
    skipped += [Skipped(task.source, f"{task.where}, relation {number}", RELATION)
                for number in range(1, len(relations) + 1)]
    rows = _image_rows(task, kind, skipped) if task.is_image else _text_rows(task, texts)
    return Submission(task.item, task.annotator, task.order, task.source, task.where, rows,
                      OFF_KIND if rows is None else None)


def _refuse_binary(tasks):
    """An :class:`InputError` for the first binary task (read as regions, accept/reject would mean nothing)."""
    for task in tasks:
        view = task.record.get("_view_id")
        if view in BINARY_VIEWS:
            hint = "; convert with --kind labels" if view == "classification" else ""
            raise InputError(f"{task.where}: a binary '{view}' task (accept or reject of one suggestion); agreekit "
                             f"reads the manual interfaces (ner_manual, spans_manual, image_manual) as regions{hint}")


def _about_items(task):
    """True for a task whose answer is about the whole item: binary classification, or a choice without spans."""
    return task.record.get("_view_id") == "classification" or (task.is_choice and not task.spans)


def _choice_labels(task):
    """The labels of an accepted choice task: the ids of the options it accepts."""
    accepted = task.record.get("accept")
    if not isinstance(accepted, list) or not all(isinstance(a, (str, int)) and not isinstance(a, bool)
                                                 for a in accepted):
        raise InputError(f"{task.where}: 'accept' must be a list of option ids", column="accept", value=accepted)
    return tuple(label_text(a) for a in accepted)


def _question(task):
    """The question a task answers: a binary task's label, else ``choice``."""
    if task.record.get("_view_id") != "classification":
        return CHOICE_QUESTION
    label = task.record.get("label")
    if not isinstance(label, (str, int)) or isinstance(label, bool) or not str(label).strip():
        raise InputError(f"{task.where}: a binary classification task needs its 'label'", column="label",
                         value=label)
    return label_text(label)


def _answer(task):
    """The :class:`Answer` of one task about the whole item, or the reason it gives none."""
    answer, question = task.record["answer"], _question(task)
    if answer == "ignore" or (answer == "reject" and question == CHOICE_QUESTION):
        return SKIP_REASONS[answer]
    if task.record.get("_view_id") == "classification":
        return Answer(task.source, task.where, task.item, task.annotator, question,
                      (question if answer == "accept" else f"not {question}",), task.order)
    return Answer(task.source, task.where, task.item, task.annotator, question, _choice_labels(task), task.order)


def _label_conversion(tasks, question, from_file):
    """The ``labels`` conversion: binary classification and choice answers, one question."""
    skipped, answers, reasons = [], [], []
    for task in tasks:
        if task.is_choice and task.spans:
            skipped.append(Skipped(task.source, task.where, CHOICE_ON_SPAN))
        elif _about_items(task):
            found = _answer(task)
            if isinstance(found, Answer):
                answers.append(found)
            else:
                reasons.append((_question(task), Skipped(task.source, task.where, found)))
    regions = sum(1 for t in tasks if not _about_items(t) and not t.is_choice and t.spans)
    if not answers:
        raise InputError("Prodigy: the files hold no accepted answer about whole items (binary classification "
                         "or choice tasks)", column="kind", value=LABELS)
    asked = choose_question(answers, question, "Prodigy")[0].question
    skipped += [skip for about, skip in reasons if about == asked]
    rows, warnings = answer_rows(answers, asked, "Prodigy", skipped)
    if from_file:
        warnings.append(f"{from_file} answer(s) have no _annotator_id or _session_id: their annotator is the file "
                        "name (one dataset per annotator)")
    also = [f"the files also hold {regions} task(s) with spans or image regions: convert with --kind spans, boxes "
            "or polygons"] if regions else []
    return Conversion(NAME, LABELS, rows, warnings=warnings, skipped=skipped, also=also)


def read(sources, kind=None, question=None):
    """Rows of ``kind`` (spans, boxes or polygons) from ``prodigy db-out`` JSON Lines.

    Parameters
    ----------
    sources : list of Source
        One or more db-out files (one dataset, or one per annotator).
    kind : str, optional
        ``spans``, ``boxes``, ``polygons`` or ``labels``; by default the one kind the accepted answers hold
        (labels when every task is a choice task).  Labels: a binary ``classification`` task (textcat.teach,
        textcat.binary) answers the question named by its ``label``: accept gives the label, reject "not
        label"; a choice task (textcat.manual: ``options`` and the ``accept``ed ids) answers the question
        ``choice`` with the accepted ids (several: a set); ignore is not rated.
    question : str, optional
        For labels: the question to read (a binary task's label, or ``choice``) when the files answer several.

    Returns
    -------
    Conversion
        With the texts of the text tasks as ``lengths``.
    """
    tasks, from_file = _tasks(sources)
    if kind is None and tasks and all(_about_items(t) for t in tasks):
        kind = LABELS
    if kind == LABELS:
        return _label_conversion(tasks, question, from_file)
    _refuse_binary(tasks)
    kind = _kind_of(tasks, kind)
    texts, skipped, warnings = {}, [], []
    submissions = [s for s in (_submission(task, kind, texts, skipped) for task in tasks) if s is not None]
    kept = keep_latest(submissions)
    off_kind = [f"{s.annotator} on {s.item}" for s in kept.submissions if s.reason == OFF_KIND]
    if off_kind:  # their regions are in skipped already; the pair is left out, not counted as saw nothing
        warnings.append(f"{len(off_kind)} (annotator, item) pair(s) hold only regions of other kinds and are left "
                        f"out, not counted as saw nothing: {name_list(off_kind)}")
        kept = kept._replace(submissions=[s for s in kept.submissions if s.reason != OFF_KIND])
    rows = kept_rows(kept, skipped)
    rejected = sum(1 for s in kept.submissions if s.reason == SKIP_REASONS["reject"])
    if rejected:
        warnings.append(f"{rejected} rejected answer(s) count as never seen: in the manual interfaces reject "
                        "marks a bad example, not an answer about its spans")
    if from_file:
        warnings.append(f"{from_file} answer(s) have no _annotator_id or _session_id: their annotator is the file "
                        "name (one dataset per annotator)")
    choices = sum(1 for t in tasks if t.is_choice and not t.spans and t.record["answer"] == "accept")
    also = [f"the files also hold {choices} accepted choice answer(s) about whole items: convert with --kind "
            "labels"] if choices else []
    return Conversion(NAME, kind, rows, lengths=used_texts(texts, rows) if kind == "spans" else None,
                      warnings=warnings + kept.warnings, skipped=skipped + kept.skipped, also=also)


register_format(Reader(name=NAME, title="Prodigy JSONL", kinds=("spans", "boxes", "polygons", LABELS), detect=detect,
                       read=read, position=40, options=(QUESTION,)))
