"""Label Studio exports: "JSON" (the default, a list of tasks) and "JSON_MIN", one file or several.

JSON
    ``[{"id", "data": {...}, "annotations": [{"completed_by", "was_cancelled",
    "created_at", "updated_at", "result": [{"id", "type", "from_name",
    "to_name", "original_width", "original_height", "value": {...}}]}],
    "predictions": [...]}]`` (``completions`` for ``annotations`` before Label
    Studio 1.0).
JSON_MIN
    One record per (task, annotation): the task's data fields, ``id`` (the
    task), ``annotator``, ``annotation_id``, ``created_at``, ``updated_at``,
    and per control tag (``from_name``) the list of its values, with
    ``original_width``/``original_height`` copied into each.

Rules (the regions themselves: :mod:`.labelstudio_regions`; their rows:
:mod:`.labelstudio_rows`; answers about whole tasks as the labels kind: :mod:`.labelstudio_answers`):

* The annotator is ``completed_by`` (a user id, or the ``email`` of a user
  object), JSON_MIN's ``annotator``, else the file name; when several files
  all hold one and the same user (one project per annotator, exported by one
  account), each file is an annotator named after it.
* An annotation with ``result: []`` is an annotator who saw the item and
  marked nothing; a cancelled one (``was_cancelled``: Skip pressed) or no
  annotation means never saw it.
* ``predictions`` (model output, or pre-annotations such as agreekit's own
  export) are read as annotators named after their ``model_version``
  ("prediction" when it has none), with the option ``predictions``:
  ``"auto"`` (the default) reads them when the files hold no annotation at
  all (an export of pre-annotations) and leaves them out otherwise,
  ``"read"`` reads them beside the annotations, ``"ignore"`` never.
* Two annotations of one annotator on one item: the latest (``updated_at``,
  else ``created_at``, else the last in the files) is kept.
* The item is the task's ``meta.item`` when it has one (agreekit's export
  writes it: Label Studio keeps a task's ``meta`` through import and export),
  else the file name of the task's image or audio (without the
  8-character prefix Label Studio gives uploads), else the task id.

References
----------
Label Studio documentation, "Label Studio JSON format of annotated tasks"
(guide/task_format) and "Export annotations" (guide/export);
HumanSignal/label-studio-converter, ``converter.py`` (``convert_to_json_min``,
``annotation_result_from_task``) and ``utils.py`` (``get_annotator``).
"""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from urllib.parse import unquote

from ..options import Choice, Option
from ..rows import InputError
from ._segments import check_choice
from .base import Conversion, Reader, load_json, register_format
from .label_answers import LABELS, QUESTION, held_answers
from .labelstudio_annotators import keep_latest, name_annotators
from .labelstudio_answers import label_conversion, task_answers
from .labelstudio_regions import NOT_READ, read_regions
from .labelstudio_rows import Notes, choose_kind, in_file, kind_rows

__all__ = ["Submission", "detect", "read"]

FORMAT = "labelstudio"
TITLE = "Label Studio JSON"
KINDS = ("boxes", "polygons", "masks", "spans", "segments", LABELS)
# JSON_MIN keys that are neither task data nor a control tag's values
MIN_META = frozenset({"id", "annotator", "annotation_id", "created_at", "updated_at", "lead_time", "agreement",
                      "drafts", "predictions"})
MEDIA_KEYS = ("image", "audio", "video", "url")
FILE_NAME = re.compile(r"[^/\\]+\.[A-Za-z0-9]{2,5}")
UPLOAD_PREFIX = re.compile(r"^[0-9a-f]{8}-")
PREDICTIONS = ("auto", "read", "ignore")


@dataclass(frozen=True)
class Submission:
    """One annotation: one annotator's work on one task."""

    source: str            # the file
    task: str              # the task id (or #position when the task has none)
    where: str             # "task 3, annotation 12", for messages
    data: dict             # the task's data (JSON_MIN: the record's data fields)
    annotator: str | None  # None until named after the file
    when: str | None       # updated_at, else created_at
    results: tuple
    item: str | None = None
    prediction: bool = False  # model output, named after its model_version


# --------------------------------------------------------------------------- detection

def _contains(source, head, key):
    return key in head or key.encode() in source.data


def detect(source):
    """None when ``source`` is a Label Studio JSON or JSON_MIN export, else why not.

    A ``.json`` file holding a list of objects with the keys of a task
    (``data`` and ``annotations`` or ``completions``, with ``result``,
    ``predictions`` or ``drafts``) or of a JSON_MIN record (``annotator`` and
    ``annotation_id``); or a CSV export (JSON_MIN's records as rows, their
    lists as JSON text), whose header has ``annotator`` and ``annotation_id``.
    """
    if source.name.lower().endswith(".csv"):
        header = set(next(csv.reader([source.head().split("\n", 1)[0]]), []))
        return None if {"annotator", "annotation_id"} <= header else "a .csv without 'annotator' and 'annotation_id'"
    if not source.name.lower().endswith(".json"):
        return "not a .json file"
    head = source.head().lstrip()
    if not head.startswith("["):
        return "not a JSON list (an export is a list of tasks)"
    if not head[1:].lstrip().startswith("{"):
        return "not a list of task objects"
    def holds(*keys):
        return any(_contains(source, head, f'"{key}"') for key in keys)

    if holds("data") and holds("annotations", "completions", "predictions") and holds("result", "predictions",
                                                                                      "drafts"):
        return None
    if holds("annotator") and holds("annotation_id"):
        return None
    return "no task keys ('data' and 'annotations', or JSON_MIN's 'annotator' and 'annotation_id')"


# --------------------------------------------------------------------------- files → submissions

def _csv_records(source):
    """The records of a Label Studio CSV export: JSON_MIN's records, their lists and objects as JSON text."""
    records = []
    for line, row in enumerate(csv.DictReader(io.StringIO(source.text(), newline="")), start=2):
        record = {}
        for key, value in row.items():
            if key is None:
                raise InputError(f"{source.name}: line {line} has more fields than the header", line=line)
            text = (value or "").strip()
            if not text:  # JSON_MIN leaves out a key without a value; the CSV has an empty cell
                continue
            try:
                record[key] = load_json(text) if text[0] in "[{" else value
            except ValueError as error:
                raise InputError(f"{source.name}: line {line}, column {key!r}: not JSON ({error.args[0]})",
                                 line=line, column=key) from None
        records.append(record)
    return records


def _records(source):
    if source.name.lower().endswith(".csv"):
        return _csv_records(source)
    try:
        data = load_json(source.text())
    except json.JSONDecodeError as error:
        raise InputError(f"{source.name}: not valid JSON ({error.msg} at line {error.lineno}, column "
                         f"{error.colno}); is the file complete?", line=error.lineno) from None
    if not isinstance(data, list):
        raise InputError(f"{source.name}: a Label Studio export is a list of tasks, not a JSON "
                         f"{type(data).__name__}")
    return data


def _annotator_of(value):
    """The annotator's name from ``completed_by`` / ``annotator``: a user id, or a user object's email or id."""
    if isinstance(value, dict):
        value = value.get("email") or value.get("id")
    return None if value is None or value == "" else str(value)


def _prediction_submissions(source, task, data, predictions):
    """The predictions of one task as submissions, each named after its ``model_version``."""
    if not isinstance(predictions, list):
        raise InputError(f"{source.name}: task {task}: 'predictions' is not a JSON list", column="predictions")
    out = []
    for k, prediction in enumerate(predictions, start=1):
        where = f"task {task}, prediction {prediction.get('id', k) if isinstance(prediction, dict) else k}"
        results = prediction.get("result") or [] if isinstance(prediction, dict) else None
        if not isinstance(results, list):
            raise InputError(f"{source.name}: {where}: 'result' is not a JSON list", column="result")
        version = prediction.get("model_version")
        annotator = "prediction" if version is None or str(version).strip() == "" else str(version)
        out.append(Submission(source.name, task, where, data, annotator,
                              prediction.get("updated_at") or prediction.get("created_at"), tuple(results),
                              prediction=True))
    return out


def _task_submissions(source, task, record, notes):
    """The submissions of one task of the JSON export (cancelled ones left out, counted), predictions included."""
    data = record.get("data", {})
    annotations = record.get("annotations", record.get("completions", []))
    if not isinstance(data, dict) or not isinstance(annotations, list):
        field = "data" if not isinstance(data, dict) else "annotations"
        raise InputError(f"{source.name}: task {task}: '{field}' is not a JSON "
                         f"{'object' if field == 'data' else 'list'}", column=field)
    out = _prediction_submissions(source, task, data, record.get("predictions") or [])
    if not annotations and not out:
        notes.note("unannotated", f"task {task}")
    for k, annotation in enumerate(annotations, start=1):
        if not isinstance(annotation, dict):
            raise InputError(f"{source.name}: task {task}: annotation {k} is not a JSON object",
                             column="annotations")
        where = f"task {task}, annotation {annotation.get('id', k)}"
        if annotation.get("was_cancelled") or annotation.get("skipped"):
            notes.note("cancelled", where)
            notes.skip(source.name, where, "cancelled (the annotator pressed Skip)")
            continue
        results = annotation.get("result") or []
        if not isinstance(results, list):
            raise InputError(f"{source.name}: {where}: 'result' is not a JSON list", column="result")
        out.append(Submission(source.name, task, where, data, _annotator_of(annotation.get("completed_by")),
                              annotation.get("updated_at") or annotation.get("created_at"), tuple(results)))
    return out, data


def _is_regions(value):
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _min_submission(source, task, record, notes):
    """The submission of one JSON_MIN record (none for a task nobody annotated)."""
    data = {k: v for k, v in record.items() if k not in MIN_META and not _is_regions(v)}
    outputs = {k: v for k, v in record.items() if k not in MIN_META and _is_regions(v)}
    annotator = _annotator_of(record.get("annotator"))
    if annotator is None and record.get("annotation_id") is None and not outputs:
        notes.note("unannotated", f"task {task}")
        return [], data
    where = f"task {task}, annotation {record.get('annotation_id', '?')}"
    # the values lost their result's id and type: each is a region of its own, named tag[k]
    results = tuple({"id": f"{key}[{k}]", "from_name": key, "value": value}
                    for key, values in outputs.items() for k, value in enumerate(values))
    when = record.get("updated_at") or record.get("created_at")
    return [Submission(source.name, task, where, data, annotator, when, results)], data


def _file_name(value):
    """The file name in a task's image or audio URL or path, or None when ``value`` is not one."""
    if "\n" in value or len(value) > 4096 or (" " in value and "/" not in value):
        return None
    path = unquote(value.split("?d=", 1)[1]) if "?d=" in value else value.split("?", 1)[0].split("#", 1)[0]
    name = unquote(path.rstrip("/").rsplit("/", 1)[-1])
    if not FILE_NAME.fullmatch(name):
        return None
    return UPLOAD_PREFIX.sub("", name) if "/data/upload/" in value else name


def _media_name(data, to_names):
    """The file name of the task's media: the data field a result points at, then image, audio, …, then any."""
    for key in dict.fromkeys([k for k in to_names if isinstance(k, str)] + list(MEDIA_KEYS) + list(data)):
        value = data.get(key)
        name = _file_name(value) if isinstance(value, str) else None
        if name:
            return name
    return None


def _item_names(media, notes):
    """task → item: its media file name (name#task when tasks of one file share it), else its id."""
    tasks_of = {}
    for task, name in media.items():
        if name is not None:
            tasks_of.setdefault(name, []).append(task)
    for name, tasks in tasks_of.items():
        if len(tasks) > 1:
            notes.note("item names", name)
    return {task: task if name is None else name if len(tasks_of[name]) == 1 else f"{name}#{task}"
            for task, name in media.items()}


def _read_source(source, notes):
    submissions, media = [], {}
    for index, record in enumerate(_records(source)):
        if not isinstance(record, dict):
            raise InputError(f"{source.name}: element {index + 1} of the list is not a task object")
        task = f"#{index + 1}" if record.get("id") is None else str(record["id"])
        if "annotations" in record or "completions" in record or "predictions" in record:
            found, data = _task_submissions(source, task, record, notes)
        elif "annotator" in record or "annotation_id" in record:
            found, data = _min_submission(source, task, record, notes)
        else:
            raise InputError(f"{source.name}: task {task}: neither 'annotations' or 'predictions' (JSON export) "
                             "nor 'annotator' (JSON_MIN)", column="annotations")
        to_names = [r.get("to_name") for s in found for r in s.results if isinstance(r, dict)]
        meta = record.get("meta")
        named = meta.get("item") if isinstance(meta, dict) else None  # agreekit's export names its items there
        media.setdefault(task, named if isinstance(named, str) and named.strip() else _media_name(data, to_names))
        submissions += found
    names = _item_names(media, notes)
    return [replace(s, item=names[s.task]) for s in submissions]


# --------------------------------------------------------------------------- the reader

def _predictions_used(submissions, mode, notes):
    """The submissions to read: the annotations, and the predictions when ``mode`` says so (noted either way)."""
    check_choice(TITLE, "predictions", mode, PREDICTIONS)
    predicted = [s for s in submissions if s.prediction]
    annotated = [s for s in submissions if not s.prediction]
    use = mode == "read" or (mode == "auto" and not annotated)
    for submission in predicted:
        notes.note("predictions read" if use else "predictions", submission.where)
    if not use:
        humans = {s.task for s in annotated}
        for task in dict.fromkeys(s.task for s in predicted if s.task not in humans):
            notes.note("unannotated", f"task {task}")
    return annotated + predicted if use else annotated


def read(sources, kind, predictions="auto", question=None):
    """Rows of one kind from Label Studio JSON / JSON_MIN exports.

    Parameters
    ----------
    sources : list of Source
        The export files (several: one project per annotator, or parts of one).
    kind : str or None
        boxes, polygons, masks, spans, segments or labels (the Choices, Rating,
        Taxonomy and Number answers about whole tasks:
        :mod:`.labelstudio_answers`); None to take the one kind the regions
        hold (an :class:`InputError` lists them when there are several), or
        labels when there is no region but answers.
    predictions : {"auto", "read", "ignore"}
        Whether ``predictions`` are read, each as an annotator named after its
        ``model_version``: ``"auto"`` when no file holds an annotation (a
        pre-annotation export, such as agreekit's), ``"read"`` always (beside
        the annotators), ``"ignore"`` never.
    question : str, optional
        For labels: the control tag (``from_name``) whose answers to read;
        needed when the files answer several.

    Returns
    -------
    Conversion
        Rows, span texts (``lengths``: task → ``data`` text), warnings,
        skipped annotations, and in ``also`` what the other reading would find.

    Raises
    ------
    InputError
        Naming the file, the task, annotation or region, and the field.
    """
    notes = Notes()
    submissions = []
    for source in sources:
        submissions += _read_source(source, notes)
    submissions = _predictions_used(submissions, predictions, notes)
    humans = name_annotators([s for s in submissions if not s.prediction], sources, notes)
    submissions = keep_latest(humans + [s for s in submissions if s.prediction], notes)
    entries, answers, answer_skips = [], [], []
    for submission in submissions:
        with in_file(submission.source):
            regions, left_out = read_regions(submission.results, submission.where)
            answers += task_answers(submission, lambda where, reason, source=submission.source:
                                    answer_skips.append((source, where, reason)))
        for where, reason in left_out:
            if kind != LABELS:
                notes.skip(submission.source, where, reason)
            if reason not in (NOT_READ["classification"], NOT_READ["relation"]):  # a region, of no kind read
                notes.drew.add(submission.where)
        entries.append((submission, regions))
    if kind is None and answers and not any(regions for _, regions in entries):
        kind = LABELS
    if kind == LABELS:
        return label_conversion(FORMAT, TITLE, entries, answers, answer_skips, notes, question)
    kind = choose_kind(entries, kind)
    rows, lengths = kind_rows(kind, entries, notes)
    also = [held_answers(answers, "Choices/Rating/Taxonomy/Number answers")] if answers else []
    return Conversion(FORMAT, kind, rows, lengths or None, notes.warnings(), notes.skipped, also=also,
                      image_sizes=_image_sizes(entries) if kind in ("boxes", "polygons", "masks") else None)


def _image_sizes(entries):
    """item → (original_width, original_height) of its first region that gives them, or None."""
    sizes = {}
    for submission, regions in entries:
        for region in (r for r in regions if r.size is not None):
            sizes.setdefault(submission.item, tuple(int(v) if float(v).is_integer() else v for v in region.size))
    return sizes or None


OPTIONS = (
    Option("predictions", "choice", "Predictions (model output)",
           "whether the tasks' predictions are read, each as an annotator named after its model_version: when no "
           "file holds an annotation, always (beside the annotators), or never",
           choices=(Choice("auto", "when there are no annotations"), Choice("read", "always"),
                    Choice("ignore", "never"))),
    QUESTION,
)

register_format(Reader(name=FORMAT, title=TITLE, kinds=KINDS, detect=detect, read=read, position=10,
                       options=OPTIONS))
