"""Potato's label answers (radio, multiselect, likert, slider, number, text) as rows of the labels kind; see
:mod:`.potato`.

One question (a Potato *schema*) is read at a time: the labels kind measures agreement on one
question.  An answer stored as ``[{schema, name}, "true"]`` (radio, multiselect, select) is the label
``name``; any other value (likert's ``"4"`` under ``scale_4``, a slider's or a number's value, a text
box's text) is the label itself.  Several labels of one annotator on one instance (multiselect) are
several rows: a label set, read at the labels kind's level ``set``.  An annotator who did not answer
the question on an instance has no row (not rated).

This module is part of the Potato reader: it registers nothing.
"""
from __future__ import annotations

from ..arrays import name_list
from ..rows import InputError
from .base import Skipped

IMAGE_LABEL = "_data"
UNCHECKED = ("", "false", None)  # a checkbox Potato stored as unticked


def answers_of(raw):
    """``((schema, name, value), …)`` of one instance's label answers other than image data, in either stored shape
    (``[[{schema, name}, value], …]``, or the older and the JSONL export's ``{schema: {name: value}}``)."""
    if isinstance(raw, dict):
        return tuple((str(schema), str(name), value) for schema, labels in raw.items() if isinstance(labels, dict)
                     for name, value in labels.items() if name != IMAGE_LABEL)
    return tuple((str(entry[0].get("schema")), str(entry[0].get("name")), entry[1]) for entry in raw
                 if isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[0], dict)
                 and entry[0].get("name") != IMAGE_LABEL)


def _label(name, value):
    """The label of one answer: the option's name when Potato stored it as ticked, else the value as text."""
    if isinstance(value, bool) or str(value).strip().lower() == "true":
        return name
    return str(value).strip()


def _schema_to_read(records, schema):
    """The one schema to read: ``schema`` if the files hold it, else the only one they hold."""
    held = sorted({answer[0] for r in records for answer in r.answers})
    if not held:
        raise InputError("Potato: the files hold no label answers (radio, likert, multiselect, …)", column="kind",
                         value="labels")
    if schema is None and len(held) > 1:
        raise InputError(f"Potato: the files hold answers to {len(held)} questions ({name_list(held)}); the labels "
                         "kind reads one at a time: choose it with the option schema", column="schema")
    if schema is not None and schema not in held:
        raise InputError(f"Potato: no answers to schema {schema!r}; the files hold {name_list(held)}",
                         column="schema", value=schema)
    return held[0] if schema is None else schema


def label_rows(records, schema, skipped):
    """``(rows, warnings)``: the labels-kind rows of one schema's answers; everything else goes to ``skipped``."""
    schema = _schema_to_read(records, schema)
    rows, several = [], 0
    for record in records:
        labels = [_label(name, value) for s, name, value in record.answers if s == schema and value not in UNCHECKED]
        skipped += [Skipped(record.source, record.where, f"answer to schema {s!r} (one question is read at a time: "
                                                         "option schema)") for s, _, _ in record.answers if s != schema]
        skipped += [Skipped(record.source, record.where, "span (read with kind spans)") for _ in record.spans]
        skipped += [Skipped(record.source, record.where, "image object (read with kind boxes, polygons or masks)")
                    for _ in record.objects or []]
        labels = [label for label in dict.fromkeys(labels) if label]
        several += len(labels) > 1
        rows += [{"item": record.instance, "annotator": record.annotator, "label": label} for label in labels]
    warnings = [f"read the answers to schema {schema!r} as labels; an annotator without an answer on an instance "
                "did not rate it"]
    if several:
        warnings.append(f"{several} (annotator, instance) pair(s) hold several labels (multiselect): read them at "
                        "the labels kind's level set")
    return rows, warnings
