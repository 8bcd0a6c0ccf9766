"""doccano: the JSONL export of a sequence-labeling or classification project, one file per member (``alice.jsonl``).

With "Share annotations across all users" off, doccano's export writes one
file per project member, named after the member, each listing the examples
with that member's spans; with it on, one ``all.jsonl`` without any annotator,
which agreement cannot use (it is refused, saying why).

* Item: the example's ``id``; its ``text`` gives the item's text (``lengths``).
* Annotator: the file name (``alice.jsonl`` → ``alice``).
* Spans: ``label: [[start, end, label], …]`` (sequence labeling), or
  ``entities``: the same triples (intent detection) or objects with
  ``start_offset, end_offset, label`` (relation projects; relations are
  skipped).  Offsets are code points, checked against the text.
* Saw nothing: with "Export only approved documents" each file lists only the
  examples its member confirmed, so a listed example without spans is "saw it,
  marked nothing" and an unlisted one "never saw it".  Without it every file
  lists every example, and ``[]`` cannot tell "found nothing" from "never
  opened": it is read as ``unlabelled`` says (saw nothing by default), and a
  warning says which export it looks like.
* Categories (a text- or image-classification project: ``label: ["positive"]``,
  or ``cats``) are the labels kind's rows, one question ``label``: see :func:`read`.
"""
from __future__ import annotations

import unicodedata
from typing import NamedTuple

from ..arrays import name_list
from ..options import Choice, Option
from ..rows import InputError
from .base import Conversion, Reader, Skipped, register_format
from .label_answers import LABELS, QUESTION, Answer, answer_rows, label_text
from .span_records import (Submission, checked_offsets, first_record, jsonl_records, keep_latest, kept_rows,
                           saw_nothing, span_row, used_texts)

NAME = "doccano"
UNLABELLED = ("saw", "unseen")
CATEGORY_QUESTION = "label"  # a text-classification project asks one question
COLLABORATIVE_FILE = "all"
# Characters doccano counts differently in grapheme mode (one cluster, several code points)
JOINERS = ("\u200d", "\ufe0f", "\ufe0e")


class Example(NamedTuple):
    """One line of a member's file."""

    source: str
    where: str
    item: str
    annotator: str
    text: str
    spans: list   # [(start, end, label)] as exported


def detect(source):
    """None for a doccano sequence-labeling JSONL file, else why not."""
    if not source.name.lower().endswith(".jsonl"):
        return "not a .jsonl file"
    record = first_record(source)
    if record is None:
        return "not JSON Lines"
    if "_input_hash" in record:
        return "a Prodigy export ('_input_hash')"
    if "id" not in record or not ({"text", "data", "filename"} & set(record)) or \
            not ({"label", "entities", "cats"} & set(record)):
        return "no 'id', 'text' (or doccano 1.x 'data', or an image's 'filename') and 'label', 'entities' or 'cats'"
    return None


def _triples(value, where):
    """``[(start, end, label)]`` from doccano's span list (triples or entity objects)."""
    if not isinstance(value, list):
        raise InputError(f"{where}: expected a list of spans, got {type(value).__name__}")
    out = []
    for number, span in enumerate(value, start=1):
        if isinstance(span, dict) and {"start_offset", "end_offset", "label"} <= set(span):
            out.append((span["start_offset"], span["end_offset"], span["label"]))
        elif isinstance(span, list) and len(span) == 3:
            out.append(tuple(span))
        elif isinstance(span, str):
            raise InputError(f"{where}: the labels are categories ({span!r}), from a text-classification "
                             "project: convert with --kind labels")
        else:
            raise InputError(f"{where}, span {number}: expected [start, end, label] or an entity object, got "
                             f"{span!r}")
    return out


def _refuse_collaborative(source):
    """An :class:`InputError` for ``all.jsonl``: it does not say whose labels it holds."""
    if source.stem.lower() == COLLABORATIVE_FILE:
        raise InputError(f"{source.name}: doccano writes all.jsonl when 'Share annotations across all users' is "
                         "on; it merges every member's labels without saying whose, so agreement cannot be "
                         "computed from it (doccano#2329). Turn the setting off in the project's settings and "
                         "export again: you get one file per member (if a member is called 'all', rename the file)")


def _examples(source, skipped):
    """The examples of one member's file."""
    _refuse_collaborative(source)
    out = []
    for line, record in jsonl_records(source):
        where = f"{source.name} line {line}"
        text = record.get("text", record.get("data"))  # doccano 1.x wrote the text as 'data'
        if "id" not in record or not isinstance(text, str):
            raise InputError(f"{where}: an example needs 'id' and 'text' (or 'data')", column="text")
        field = "entities" if "entities" in record else "label"
        spans = _triples(record.get(field, []), f"{where} '{field}'")
        for number, relation in enumerate(record.get("relations") or [], start=1):
            skipped.append(Skipped(source.name, f"{where}, relation {number}", "relation: agreekit compares spans"))
        out.append(Example(source.name, where, str(record["id"]), source.stem, text, spans))
    return out


def _rows(example, texts):
    """The span rows of one example (checked against its text), or its saw-nothing row."""
    if texts.setdefault(example.item, example.text) != example.text:
        raise InputError(f"{example.where}: example {example.item} has a different text in another file")
    rows = []
    for number, (start, end, label) in enumerate(example.spans, start=1):
        start, end = checked_offsets(start, end, example.text, f"{example.where}, span {number}")
        rows.append(span_row(example.item, example.annotator, start, end, str(label)))
    return rows or [saw_nothing(example.item, example.annotator)]


def _counted_differently(example):
    """True if a span starts after a character that grapheme mode or UTF-16 would count differently."""
    if not example.spans:
        return False
    head = example.text[:max(int(start) for start, _, _ in example.spans)]
    return any(ord(c) > 0xFFFF or c in JOINERS or unicodedata.combining(c) for c in head)


def _lists_the_same(examples):
    """True when every member's file lists the same examples (an export of all documents, or all approved)."""
    listed = {}
    for example in examples:
        listed.setdefault(example.annotator, set()).add(example.item)
    return len({frozenset(items) for items in listed.values()}) <= 1


def _mode_warning(same, unlabelled):
    """Which export the files look like, and how examples without spans were read."""
    if not same:
        return ("the members' files list different examples, as doccano's 'Export only approved documents' "
                "writes them: a listed example without spans counts as seen with nothing marked, an unlisted one "
                "as never seen")
    meaning = "seen with nothing marked" if unlabelled == "saw" else "never seen"
    return ("every member's file lists the same examples: either everyone approved all of them, or the export "
            "included unapproved documents, where an example without spans may never have been opened; examples "
            f"without spans count as {meaning} (unlabelled={unlabelled!r}; export with 'Export only approved "
            "documents' to tell the two apart)")


def _categories(record, where):
    """The categories of a text-classification record (``label``/``cats``: a list of texts, or ``cats`` as
    ``{category: true/score}``, those true or ≥ 0.5), or None for a sequence-labeling record."""
    value = record.get("cats", record.get("label"))
    if isinstance(value, dict):
        if not all(isinstance(v, (bool, int, float)) for v in value.values()):
            raise InputError(f"{where}: 'cats' must map each category to true/false or a score", column="cats")
        return tuple(label_text(k) for k, v in value.items() if v is True or (v is not False and v >= 0.5))
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(label_text(v) for v in value)  # [] is no category as well as no span: not rated
    if "cats" in record:
        raise InputError(f"{where}: 'cats' must be a list of categories or an object", column="cats", value=value)
    return None


def _category_answers(sources):
    """One :class:`Answer` per line of each member's file (the question: ``label``)."""
    answers = []
    for source in sources:
        _refuse_collaborative(source)
        for line, record in jsonl_records(source):
            where = f"{source.name} line {line}"
            if "id" not in record:
                raise InputError(f"{where}: an example needs 'id'", column="id")
            found = _categories(record, where)
            if found is None:
                raise InputError(f"{where}: 'label' holds spans, not categories (a sequence-labeling project): "
                                 "convert with --kind spans", column="label")
            answers.append(Answer(source.name, where, str(record["id"]), source.stem, CATEGORY_QUESTION, found,
                                  (len(answers),)))
    return answers


def _all_categories(sources):
    """True when every line of every file may be a text-classification record and one holds a category."""
    try:
        found = [_categories(record, "") for source in sources for _, record in jsonl_records(source)]
    except InputError:
        return False
    return None not in found and any(found)


def read(sources, kind=None, unlabelled="saw", question=None):
    """Span rows from doccano's per-member JSONL files.

    Parameters
    ----------
    sources : list of Source
        The members' ``<name>.jsonl`` files (the export zip holds them).
    kind : str, optional
        ``spans``, or ``labels`` for a text- or image-classification project (``label: ["positive"]``, or
        ``cats``: a list, or ``{category: true/score}``); by default labels when every line holds categories.
    unlabelled : {"saw", "unseen"}
        How an example without spans is read when every file lists the same
        examples: seen with nothing marked, or never seen.  (Labels: an example
        with no category is not rated, whatever this says.)
    question : str, optional
        For labels: ``label``, the one question a classification project asks.

    Returns
    -------
    Conversion
        With the examples' texts as ``lengths``.
    """
    if unlabelled not in UNLABELLED:
        raise InputError(f"unlabelled must be one of {', '.join(UNLABELLED)}", column="unlabelled", value=unlabelled)
    if kind == LABELS or (kind is None and _all_categories(sources)):
        skipped = []
        rows, warnings = answer_rows(_category_answers(sources), question, "doccano", skipped)
        return Conversion(NAME, LABELS, rows, warnings=warnings, skipped=skipped)
    skipped, examples = [], []
    for source in sources:
        examples += _examples(source, skipped)
    all_listed = _lists_the_same(examples)
    warnings = [_mode_warning(all_listed, unlabelled)]
    texts, submissions = {}, []
    for position, example in enumerate(examples):
        rows = _rows(example, texts)
        unseen = all_listed and unlabelled == "unseen" and not example.spans
        submissions.append(Submission(example.item, example.annotator, (position,), example.source, example.where,
                                      None if unseen else rows, "no spans, counted as never seen" if unseen else None))
    kept = keep_latest(submissions)
    rows = kept_rows(kept, skipped)
    shifted = [example.item for example in examples if _counted_differently(example)]
    if shifted:
        warnings.append(f"{len(set(shifted))} text(s) have characters before a span that other counts would shift: "
                        "agreekit reads doccano's offsets as code points, its default; with the project's grapheme "
                        "mode on (emoji sequences, combining marks), or from old versions counting UTF-16 (emoji), "
                        f"those spans would be shifted (items {name_list(sorted(set(shifted)))})")
    return Conversion(NAME, "spans", rows, lengths=used_texts(texts, rows), warnings=warnings + kept.warnings,
                      skipped=skipped + kept.skipped)


OPTIONS = (
    Option("unlabelled", "choice", "An example without spans",
           "how an example without spans is read when every member's file lists the same examples",
           choices=(Choice("saw", "seen, nothing marked"), Choice("unseen", "never seen"))),
    QUESTION,
)

register_format(Reader(name=NAME, title="doccano JSONL", kinds=("spans", LABELS), detect=detect, read=read,
                       position=45, options=OPTIONS))
