"""Prodigy's choice and binary answers as rows of the labels kind; see :mod:`.prodigy`.

* A choice task (``textcat.manual``, entity linking: ``options`` and the ``accept``\\ ed option ids)
  is a question: its ``_task_hash`` is the item and each accepted option id a label (several: a
  label set, read at the labels kind's level ``set``).  Accepted with no option chosen gives no label
  (skipped, counted).
* A binary task (``ner``, ``classification``: accept or reject of one suggestion, as ``textcat.teach``
  and ``ner.teach`` write them) is a question too: its ``_task_hash`` is the item, ``accept`` or
  ``reject`` the label.
* ``ignore`` (and, for choice tasks, ``reject``: a bad example in the manual interfaces) means not
  rated.  Manual span and image tasks beside them are skipped with their reason.

This module is part of the Prodigy reader: it registers nothing.
"""
from __future__ import annotations

from ..rows import InputError
from .base import Skipped
from .span_records import Submission, keep_latest, kept_rows

NO_OPTION = "accepted with no option chosen (no label)"
REGIONS = "a manual task's regions (read with kind spans, boxes or polygons)"


def _accepted(task):
    """The accepted option ids of a choice task, as labels."""
    accepted = task.record.get("accept") or []
    if not isinstance(accepted, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool)
                                                 for v in accepted):
        raise InputError(f"{task.where}: 'accept' must be a list of option ids", column="accept", value=accepted)
    return [str(v) for v in dict.fromkeys(accepted)]


def _submission(task, skip_reasons):
    """The task as a :class:`Submission` of labels (rows None when not rated)."""
    item = task.record.get("_task_hash")
    if item is None or isinstance(item, bool) or not isinstance(item, (str, int)):
        raise InputError(f"{task.where}: a choice or binary task needs its '_task_hash' (the question)",
                         column="_task_hash", value=item)
    answer = task.record["answer"]

    def made(rows, reason=None):
        return Submission(str(item), task.annotator, task.order, task.source, task.where, rows, reason)

    if answer == "ignore" or (answer == "reject" and task.is_choice):
        return made(None, skip_reasons[answer])
    if task.is_choice:
        labels = _accepted(task)
        return made([{"item": str(item), "annotator": task.annotator, "label": label} for label in labels]
                    if labels else None, None if labels else NO_OPTION)
    return made([{"item": str(item), "annotator": task.annotator, "label": answer}])


def label_rows(tasks, skip_reasons):
    """``(rows, warnings, skipped)`` of the labels kind from the choice and binary tasks."""
    skipped, submissions = [], []
    for task in tasks:
        if task.is_choice or task.is_binary:
            submissions.append(_submission(task, skip_reasons))
        else:
            skipped.append(Skipped(task.source, task.where, REGIONS))
    kept = keep_latest(submissions)
    rows = kept_rows(kept, skipped)
    warnings = []
    if any(t.is_choice for t in tasks):
        several = sum(1 for s in kept.submissions if s.rows is not None and len(s.rows) > 1)
        warnings.append("choice tasks: each question (its _task_hash) is an item and its accepted options the labels"
                        + (f"; {several} answer(s) accept several options: read them at the labels kind's level set"
                           if several else ""))
    if any(t.is_binary for t in tasks):
        warnings.append("binary tasks: each suggestion (its _task_hash) is an item, labelled accept or reject")
    return rows, warnings + kept.warnings, skipped + kept.skipped
