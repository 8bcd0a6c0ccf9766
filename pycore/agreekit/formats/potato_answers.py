"""Potato's label answers (radio, multiselect, likert, slider) as the labels kind's answers.

Each record's labels other than image data are ``(schema, name, value)``; one schema is one
question.  An option stored as ``true`` (radio, multiselect) is its name; a number (a likert
point's value, ``scale_4: "4"``, or a slider's ``"70"``) is itself; ``false`` is not chosen;
free text (a text box) is skipped with its reason.
"""
from __future__ import annotations

import math

from .base import Skipped
from .label_answers import Answer, label_text

__all__ = ["answers", "geometry_held"]

TRUE = (True, "true", "True", "on")
FALSE = (False, "false", "False", "off", None, "")


def _answer_labels(entries, where, skipped):
    """The labels of one schema's entries: a chosen option (``true``) is its name, a number (likert, slider)
    is itself; free text is skipped."""
    labels = []
    for name, value in entries:
        if value in TRUE:
            labels.append(name)
        elif value in FALSE:
            continue
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            labels.append(label_text(value))
        elif isinstance(value, str) and _is_number(value):
            labels.append(label_text(float(value)) if "." in value or "e" in value.lower() else value.strip())
        else:
            skipped.append(Skipped(where[0], where[1], f"a free-text answer ({name}), not a label"))
    return tuple(labels)


def _is_number(text):
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def answers(records, skipped, question=None):
    """One :class:`Answer` per record and schema (the question; only ``question``'s when given)."""
    out = []
    for position, record in enumerate(records):
        by_schema = {}
        for schema, name, value in record.answers:
            by_schema.setdefault(schema, []).append((name, value))
        for schema, entries in by_schema.items():
            if question is not None and schema != question:
                continue
            where = (record.source, f"{record.where}, schema {schema!r}")
            out.append(Answer(record.source, where[1], record.instance, record.annotator, schema,
                              _answer_labels(entries, where, skipped), (position,)))
    return out


def geometry_held(records):
    """What the spans and image readings would find, for the summary of a labels conversion."""
    spans = sum(len(r.spans) for r in records)
    objects = sum(len(r.objects or []) for r in records)
    return ([f"the files also hold {spans} span(s): convert with --kind spans"] if spans else []) + \
        ([f"the files also hold {objects} image object(s): convert with --kind boxes, polygons or masks"]
         if objects else [])
