"""Judgements to a ratings matrix at a level of measurement: categories, their scores, codes.

* ``nominal``: the distinct label texts, sorted; no scores.
* ``ordinal``: labels that are all numbers are ordered as numbers (scores = the numbers);
  otherwise ``order`` (lowest first) gives the order and every one of its labels is a category
  (scores = ranks 1, 2, …); without it, an error lists the labels found.
* ``interval``, ``ratio``: every label a finite number (ratio: ≥ 0); scores = the numbers.
* ``set``: an annotator's labels of an item form one set (repeated long rows, or ``a|b`` in a
  matrix); the categories are the distinct sets, written ``a|b`` with their labels sorted.

Numbers are categories by value (``3`` and ``3.0`` are one), written without a needless ``.0``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...arrays import name_list
from ...errors import InputError

LEVELS = ("nominal", "ordinal", "interval", "ratio", "set")


@dataclass(frozen=True)
class Ratings:
    """Checked judgements as an items × annotators matrix of category codes (−1 = not rated)."""

    items: tuple        # item names, sorted
    annotators: tuple   # annotator names, sorted
    categories: tuple   # category texts, in scale order
    scores: np.ndarray | None  # (categories,) numbers or ranks; None for nominal and set
    sets: tuple | None  # level set: each category's frozenset of labels
    codes: np.ndarray   # (items, annotators) intp
    warnings: tuple


def natural_key(name):
    """Sort key putting numeric names in numeric order before the others."""
    number = _number(name)
    return (0, number, name) if number is not None else (1, 0.0, name)


def _number(text):
    try:
        value = float(text)
    except (TypeError, ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def number_text(value):
    """``3.0`` → ``"3"``, ``2.5`` → ``"2.5"``."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def build_ratings(judgements, level, order=None):
    """A :class:`Ratings` from :class:`~agreekit.kinds.labels.rows.Judgement` records.

    Raises :class:`~agreekit.rows.InputError` naming the line: a judgement repeated (levels other
    than ``set``), a label that is not a number (interval, ratio), a negative ratio value, an
    ordinal label outside ``order`` or text ordinal labels without an ``order``.
    """
    if level == "set":
        values, warnings = _sets(judgements)
        categories = sorted(set(values.values()), key=lambda s: (len(s), sorted(s)))
        texts = tuple("|".join(sorted(s)) for s in categories)
        return _matrix(values, categories, texts, None, tuple(categories), warnings)
    values = {(j.item, j.annotator): (j.line, j.label) for j in judgements}
    if len(values) != len(judgements):
        _repeated(judgements)
    labels = {key: label for key, (_, label) in values.items()}
    if level == "nominal":
        categories = sorted(set(labels.values()))
        return _matrix(labels, categories, tuple(categories), None, None, ())
    if level == "ordinal" and order is not None:
        return _ordered(values, order)
    numbers = _numbers(values, level)
    categories = sorted(set(numbers.values()))
    return _matrix(numbers, categories, tuple(number_text(c) for c in categories), np.array(categories, float),
                   None, ())


def _repeated(judgements):
    """Raise the :class:`InputError` of the first judgement repeating an earlier one's item and annotator."""
    seen = {}
    for j in judgements:
        key = (j.item, j.annotator)
        if key in seen:
            raise InputError(f"annotator {j.annotator!r} labels item {j.item!r} twice (line {seen[key]} "
                             "and this one); one label per item and annotator, or use level set for label sets",
                             line=j.line, column="label", value=j.label)
        seen[key] = j.line


def _sets(judgements):
    sets, repeated = {}, 0
    for j in judgements:
        labels = sets.setdefault((j.item, j.annotator), set())
        repeated += j.label in labels
        labels.add(j.label)
    warnings = (f"{repeated} label(s) given twice by one annotator for one item, counted once in its set",) \
        if repeated else ()
    return {key: frozenset(labels) for key, labels in sets.items()}, warnings


def _numbers(values, level):
    numbers = {}
    for key, (line, label) in values.items():
        number = _number(label)
        if number is None:
            if level == "ordinal":
                found = sorted({label for _, label in values.values()})
                raise InputError(f"ordinal labels that are not all numbers need an order (option order, lowest "
                                 f"first); the labels found: {name_list(found)}", line=line, column="label",
                                 value=label)
            raise InputError(f"level {level} needs a number, got {label!r}", line=line, column="label", value=label)
        if level == "ratio" and number < 0:
            raise InputError("level ratio needs values ≥ 0 (a ratio scale has a true zero)", line=line,
                             column="label", value=label)
        numbers[key] = number + 0.0  # -0.0 and 0.0 are one category
    return numbers


def _ordered(values, order):
    order = [str(label).strip() for label in order]
    if len(set(order)) != len(order):
        raise InputError(f"order names a label twice: {', '.join(order)}", column="order", value=",".join(order))
    rank = {label: r for r, label in enumerate(order, start=1)}
    outside = sorted({label for _, label in values.values() if label not in rank})
    if outside:
        line = min(line for line, label in values.values() if label in outside)
        raise InputError(f"label(s) {name_list(outside)} are not in the order {', '.join(order)}; the order must "
                         "list every label found", line=line, column="label", value=outside[0])
    labels = {key: label for key, (_, label) in values.items()}
    return _matrix(labels, order, tuple(order), np.arange(1.0, len(order) + 1.0), None, ())


def _matrix(values, categories, texts, scores, sets, warnings):
    items = sorted({item for item, _ in values}, key=natural_key)
    annotators = sorted({annotator for _, annotator in values})
    item_index = {name: i for i, name in enumerate(items)}
    annotator_index = {name: a for a, name in enumerate(annotators)}
    category_index = {c: k for k, c in enumerate(categories)}
    codes = np.full((len(items), len(annotators)), -1, dtype=np.intp)
    n = len(values)  # one assignment, not one numpy call per judgement
    rows = np.fromiter([item_index[item] for item, _ in values], np.intp, n)
    columns = np.fromiter([annotator_index[annotator] for _, annotator in values], np.intp, n)
    codes[rows, columns] = np.fromiter([category_index[value] for value in values.values()], np.intp, n)
    return Ratings(tuple(items), tuple(annotators), tuple(texts), scores, sets, codes, tuple(warnings))
