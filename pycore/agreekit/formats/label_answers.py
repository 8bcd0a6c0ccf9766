"""Answers to questions about a whole item (a choice, a rating, a set of tags) turned into ``labels`` rows.

Every tool names its questions: Label Studio's control tag (``from_name``), Potato's schema,
Prodigy's label (binary tasks) or choice view, doccano's and CVAT's one category field.  One
question is one agreement study, so a conversion reads one: the option ``question=NAME``
chooses it; with several questions in the files and none chosen the conversion is refused,
listing them with their answer counts.  An answer with several labels (a multiple choice, a
taxonomy, a multiselect, several CVAT tags) is several rows, one label each: read them at
level ``set``.  An annotator with no answer did not rate the item (no row): an empty answer is
skipped with its reason, since "chose nothing" is no label.

A file that holds regions as well gives each reader both readings; :func:`held_answers`
words what the other reading would find, for the conversion summary.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..arrays import name_list
from ..options import Option
from ..rows import InputError
from .base import Skipped

LABELS = "labels"
QUESTION = Option("question", "text", "Question read as labels",
                  "with kind labels: the question (control, schema, category field) whose answers are read; "
                  "needed when the files answer several")


@dataclass(frozen=True)
class Answer:
    """One annotator's answer to one question about one item."""

    source: str
    where: str       # task, line or image, for messages
    item: str
    annotator: str
    question: str
    labels: tuple    # the chosen labels (several: a set), as text
    order: tuple = ()  # (timestamp, position): the latest of two answers wins


def label_text(value):
    """A label as text: whole numbers without ``.0`` (a rating of 4.0 reads as ``4``)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def question_counts(answers):
    """``{question: number of answers}`` in order of first appearance."""
    return dict(Counter(a.question for a in answers))


class QuestionChoice(InputError):
    """The files answer several questions and none was chosen; ``questions`` lists them with their counts."""

    def __init__(self, message, questions):
        super().__init__(message, column="question")
        self.questions = questions  # [{"question": name, "n_answers": n}] in order of first appearance


def choose_question(answers, question, title):
    """The answers to one question: ``question`` if given, else the only one; else an error listing them."""
    counts = question_counts(answers)
    listed = ", ".join(f"{name!r} ({n} answer{'s' if n > 1 else ''})" for name, n in counts.items())
    if question is not None:
        if question not in counts:
            raise InputError(f"{title}: no question {question!r}; the files answer {listed or 'no question'}",
                             column="question", value=question)
        return [a for a in answers if a.question == question]
    if len(counts) > 1:
        first = next(iter(counts))
        raise QuestionChoice(f"{title}: the files answer {len(counts)} questions: {listed}; choose one with "
                             f"--option question=NAME (e.g. question={first})",
                             [{"question": name, "n_answers": n} for name, n in counts.items()])
    return list(answers)


def answer_rows(answers, question, title, skipped):
    """``labels`` rows and warnings from the answers to one question (see the module docstring).

    Two answers of one annotator to one item keep the latest (``order``), the other skipped.
    """
    chosen = choose_question(answers, question, title)
    latest = {}
    for answer in sorted(chosen, key=lambda a: a.order):
        earlier = latest.get((answer.item, answer.annotator))
        if earlier is not None:
            skipped.append(Skipped(earlier.source, earlier.where, "an earlier answer by the same annotator"))
        latest[(answer.item, answer.annotator)] = answer
    rows, several = [], []
    for answer in latest.values():
        if not answer.labels:
            skipped.append(Skipped(answer.source, answer.where, "an empty answer (no label chosen: not rated)"))
            continue
        if len(set(answer.labels)) > 1:
            several.append(f"{answer.annotator} on {answer.item}")
        rows += [{"item": answer.item, "annotator": answer.annotator, "label": label}
                 for label in dict.fromkeys(answer.labels)]
    warnings = []
    if chosen:
        warnings.append(f"question {chosen[0].question!r}: {len(latest)} answer(s) read as labels")
    if several:
        warnings.append(f"{len(several)} answer(s) hold several labels, one row each: read them with level set "
                        f"({name_list(several)})")
    return rows, warnings


def held_answers(answers, noun="answers"):
    """A sentence for the summary of a conversion of another kind: what a ``labels`` reading would find."""
    counts = question_counts(answers)
    if not counts:
        return None
    total = sum(counts.values())
    named = ", ".join(f"{name} ({n})" for name, n in counts.items())
    return (f"the files also hold {total} {noun} to {len(counts)} question(s) about whole items ({named}): "
            f"convert with --kind labels")
