"""Label Studio's answers about a whole task: ``Choices``, ``Rating``, ``Taxonomy`` and ``Number`` results.

A result of one of these control tags that shares no ``id`` with a drawn region is an answer
about the task; the question is its ``from_name`` (the control tag's name).

=========  ==================================  =====================================
type       value                               labels
=========  ==================================  =====================================
choices    ``{"choices": ["a", …]}``           each choice (several: a set)
taxonomy   ``{"taxonomy": [["a", "b"], …]}``   each path, joined with ``/`` (a set)
rating     ``{"rating": 4}``                   the number
number     ``{"number": 2.5}``                 the number
=========  ==================================  =====================================

A per-region answer (``perRegion``: the result shares its id with a rectangle, a span, …) is
about that region, not the task: it is skipped with its reason.  ``TextArea``, ``DateTime``,
``Ranker`` and ``Pairwise`` answers are skipped too.  JSON_MIN writes a single choice as a
plain value beside the task's data, where it cannot be told from a data field: export JSON.

References
----------
Label Studio tag documentation: Choices, Rating, Taxonomy, Number
(labelstud.io/tags/choices, …/rating, …/taxonomy, …/number).
"""
from __future__ import annotations

import math

from collections import Counter

from ..rows import InputError
from .base import Conversion
from .label_answers import LABELS, Answer, answer_rows, label_text
from .labelstudio_regions import SHAPE_KIND

READ = ("choices", "taxonomy", "rating", "number")
NOT_READ = {"textarea": "a free-text answer (TextArea), not a label",
            "datetime": "a date answer (DateTime), not a label",
            "ranker": "a ranking (Ranker), not a label", "pairwise": "a pairwise comparison, not a label"}
PER_REGION = "a per-region answer (about one region, not the whole task)"


def _kind(result):
    """The answer type of one result: its ``type``, else the value field it carries."""
    declared = str(result.get("type") or "").lower()
    if declared in READ or declared in NOT_READ:
        return declared
    value = result.get("value", {})
    return next((name for name in READ if name in value), None)


def _labels(kind, value, where):
    """The labels of one answer's value."""
    field = value.get(kind)
    if kind == "choices":
        if not isinstance(field, list) or not all(isinstance(c, (str, int, float)) for c in field):
            raise InputError(f"{where}: 'choices' must be a list of texts", column="choices", value=field)
        return tuple(label_text(c) for c in field)
    if kind == "taxonomy":
        if not isinstance(field, list) or not all(isinstance(p, list) for p in field):
            raise InputError(f"{where}: 'taxonomy' must be a list of paths (lists of texts)", column="taxonomy",
                             value=field)
        return tuple("/".join(label_text(part) for part in path) for path in field if path)
    if isinstance(field, bool) or not isinstance(field, (int, float)) or not math.isfinite(field):
        raise InputError(f"{where}: '{kind}' must be a finite number", column=kind, value=field)
    return (label_text(field),)


def task_answers(submission, skip):
    """The answers of one submission (see the module docstring); ``skip(where, reason)`` records the others."""
    region_ids = {r.get("id") for r in submission.results if isinstance(r, dict) and r.get("id") is not None
                  and _kind(r) is None and r.get("type") != "relation"}
    out = []
    for k, result in enumerate(submission.results):
        if not isinstance(result, dict) or not isinstance(result.get("value", {}), dict):
            continue  # the region reader names a malformed result
        kind = _kind(result)
        if kind is None:
            continue
        where = f"{submission.where}, result {result.get('id') or k}"
        if kind in NOT_READ:
            skip(where, NOT_READ[kind])
        elif result.get("id") is not None and result.get("id") in region_ids:
            skip(where, PER_REGION)
        else:
            question = str(result.get("from_name") or kind)
            out.append(Answer(submission.source, where, submission.item, submission.annotator, question,
                              _labels(kind, result.get("value", {}), where)))
    return out


def label_conversion(format, title, entries, answers, answer_skips, notes, question):
    """The ``labels`` conversion: the answers to one question, and what the regions would give.

    ``entries`` are ``(submission, regions)``; ``answer_skips`` ``(source, where, reason)`` of the answers
    left out; ``notes`` the reader's :class:`~agreekit.formats.labelstudio_rows.Notes`.
    """
    for source, where, reason in answer_skips:
        notes.skip(source, where, reason)
    rows, warnings = answer_rows(answers, question, title, notes.skipped)
    regions = Counter(SHAPE_KIND[region.shape] for _, found in entries for region in found)
    also = [f"the files also hold {n} region(s) of kind {name}: convert with --kind {name}"
            for name, n in regions.most_common()]
    return Conversion(format, LABELS, rows, None, notes.warnings() + warnings, notes.skipped, also=also)
