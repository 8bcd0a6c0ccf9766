"""Label Studio classifications read as the labels kind: each annotator's ``Choices`` (or ``Rating``) of a task.

A ``choices`` result holds ``value.choices``, the options the annotator
ticked (several for ``choice="multiple"``): each is one row ``item,
annotator, label``, so several choices of one annotator are a label set (the
labels kind's level ``set``).  A ``rating`` result's ``value.rating`` is one
row with the number as its label.  A choice that shares its ``id`` with a
region belongs to that region (per-region classification), not to the
task, and is left out.  When the tasks hold several classification
tags (``from_name``), each tag is an item of its own, named ``item:tag``.  An
annotation with no choice did not rate the task (no row, counted); regions
and other results are left out, each with its reason.  Read only when the
labels kind is asked for (``--kind labels``).

References
----------
Label Studio tag documentation (Choices, Rating) and "Label Studio JSON format of annotated tasks".
"""
from __future__ import annotations

from ..rows import InputError

__all__ = ["is_choice", "choice_rows"]

FIELDS = ("choices", "rating")


def is_choice(result):
    """True for a ``choices`` or ``rating`` result (by its type, else by its value's fields)."""
    value = result.get("value") if isinstance(result, dict) else None
    if not isinstance(value, dict):
        return False
    kind = str(result.get("type") or "").lower()
    return kind in FIELDS or (not kind and any(key in value for key in FIELDS) and len(value) <= 2)


def _task_choices(results):
    """The choice results of a task: a choice sharing its ``id`` with a region is that region's, not the task's."""
    regions = {r.get("id") for r in results if isinstance(r, dict) and not is_choice(r)} - {None}
    return [r for r in results if is_choice(r) and r.get("id") not in regions]


def _labels(submission, result):
    value = result["value"]
    if "rating" in value and "choices" not in value:
        rating = value["rating"]
        if isinstance(rating, bool) or not isinstance(rating, (int, float)):
            raise InputError(f"{submission.source}: {submission.where}: value.rating must be a number, not "
                             f"{rating!r}", column="value.rating", value=rating)
        return [str(int(rating)) if float(rating).is_integer() else str(rating)]
    choices = value.get("choices")
    if not isinstance(choices, list) or not all(isinstance(c, (str, int, float)) for c in choices):
        raise InputError(f"{submission.source}: {submission.where}: value.choices must be a list of texts",
                         column="value.choices", value=choices)
    return [str(c) for c in choices]


def choice_rows(submissions, notes):
    """The labels rows of the submissions' choices (see the module docstring).

    Parameters
    ----------
    submissions : list of Submission
        The kept annotations (and predictions read), in file order.
    notes : Notes
        Collects what is left out and the assumptions made.

    Returns
    -------
    list of dict
        ``item, annotator, label``.
    """
    tags = list(dict.fromkeys(r.get("from_name") for s in submissions for r in _task_choices(s.results)))
    if len(tags) > 1:
        notes.note("choice tags", ", ".join(str(t) for t in tags))
    rows = []
    for submission in submissions:
        found = _task_choices(submission.results)
        for k, result in enumerate(r for r in submission.results if not any(r is f for f in found)):
            notes.skip(submission.source, f"{submission.where}, result {k}", "region, or a result that is not a "
                       "choice of the task (reading the labels kind)")
        if not found:
            notes.note("no choice", submission.where)
        for result in found:
            item = submission.item if len(tags) <= 1 else f"{submission.item}:{result.get('from_name')}"
            rows += [{"item": item, "annotator": submission.annotator, "label": label}
                     for label in _labels(submission, result)]
    return rows
