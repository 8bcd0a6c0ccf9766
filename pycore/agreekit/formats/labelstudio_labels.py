"""Label Studio's classifications of a whole task (Choices, Rating, Number) as rows of the labels kind; see
:mod:`.labelstudio`.

One question (a control tag, the result's ``from_name``) is read at a time: the option ``question``
names it.  A ``choices`` value gives its choices as labels (several: a label set, read at the labels
kind's level ``set``); ``rating`` and ``number`` their value.  Text areas, dates, taxonomies and
rankings are not labels and are skipped with their reason; so are regions (read them with their own
kind) and Choices attached to a region (a region's attribute, not the task's answer).  An annotation
without an answer to the question is not a rating (skipped, counted).  JSON_MIN keeps a single
choice as a bare text beside the task's data, where it cannot be told from the data: read the JSON
export.

This module is part of the Label Studio reader: it registers nothing.
"""
from __future__ import annotations

from ..arrays import name_list
from ..rows import InputError
from .base import Conversion
from .labelstudio_regions import SHAPE_KIND, _grouped, _shape, number


def _answer(value):
    """The labels of one classification value, or None when it is no label (a text, a date, …)."""
    choices = value.get("choices")
    if isinstance(choices, list) and all(isinstance(c, (str, int, float)) and not isinstance(c, bool)
                                         for c in choices):
        return [str(c) for c in choices]
    for field in ("rating", "number"):
        score = value.get(field)
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            return [str(number(score))]
    return None


def task_answers(submission):
    """``(answers, not_labels, n_regions)``: question → labels of the task-level classifications of one
    annotation, the (question, kind of value) of its other answers, and how many regions it holds."""
    answers, not_labels, n_regions = {}, [], 0
    for group in _grouped(submission.results, submission.where):
        shapes = [_shape(str(r.get("type") or "").lower(), r.get("value", {})) for r in group]
        if any(shape in SHAPE_KIND for shape in shapes):
            n_regions += 1  # Choices sharing a region's id describe the region, not the task
            continue
        for shape, result in zip(shapes, group):
            if shape != "classification":
                continue
            question, labels = str(result.get("from_name") or "?"), _answer(result.get("value", {}))
            if labels is None:
                not_labels.append((question, str(result.get("type") or "value")))
            else:
                answers.setdefault(question, []).extend(labels)
    return answers, not_labels, n_regions


def holds_answers(submissions):
    """True when some annotation answers a classification question."""
    return any(task_answers(s)[0] for s in submissions)


def _question(held, question):
    if not held:
        raise InputError("Label Studio: no classification answers (Choices, Rating, Number) to read as labels",
                         column="kind", value="labels")
    if question is None and len(held) > 1:
        raise InputError(f"Label Studio: the annotations answer {len(held)} questions ({name_list(held)}); the "
                         "labels kind reads one at a time: choose it with the option question", column="question")
    if question is not None and question not in held:
        raise InputError(f"Label Studio: no answers to question {question!r}; the annotations answer "
                         f"{name_list(held)}", column="question", value=question)
    return held[0] if question is None else question


def label_conversion(format, submissions, question, notes):
    """The labels-kind :class:`Conversion` of the answers to one question."""
    read = [(s, *task_answers(s)) for s in submissions]
    question = _question(sorted({q for _, answers, _, _ in read for q in answers}), question)
    rows, several = [], 0
    for submission, answers, not_labels, n_regions in read:
        labels = [label for label in dict.fromkeys(answers.get(question, [])) if label.strip()]
        several += len(labels) > 1
        rows += [{"item": submission.item, "annotator": submission.annotator, "label": label} for label in labels]
        if not labels:
            notes.skip(submission.source, submission.where, f"no answer to {question} (not rated)")
        for other in sorted(set(answers) - {question}):
            notes.skip(submission.source, submission.where, f"answer to {other} (one question is read at a time: "
                                                            "option question)")
        for asked, kind in not_labels:
            notes.skip(submission.source, submission.where, f"{kind} answer to {asked} (not a label)")
        for _ in range(n_regions):
            notes.skip(submission.source, submission.where, "a region (read with its kind)")
    notes.extra.append(f"read the answers to {question} as labels; an annotation without one is not a rating")
    if several:
        notes.extra.append(f"{several} annotation(s) chose several labels: read them at the labels kind's level set")
    return Conversion(format, "labels", rows, None, notes.warnings(), notes.skipped)
