"""Trace rows: reading and checking ``trace, step, annotator, label`` into :class:`StepLabels`.

A trace is the item, ``step`` an integer position in it, and each (trace, step)
is one **unit**.  An annotator labels a unit at most once; a unit may have any
number of annotators, and annotators may skip units (missing values).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...rows import ANNOTATOR_SYNONYMS, InputError, RowErrors, read_table, to_float, to_int, to_text

COLUMNS = ("trace", "step", "annotator", "label")
SYNONYMS = {
    "trace": ("item", "trace_id", "trajectory", "episode", "conversation", "instance", "task", "run"),
    "step": ("step_index", "step_id", "position", "turn", "index"),
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("class", "category", "score", "rating", "grade", "value", "verdict"),
}
LEVELS = ("nominal", "ordinal")


class Label(NamedTuple):
    """One checked row: an annotator's label of step ``step`` of trace ``trace``."""

    trace: str
    step: int
    annotator: str
    category: object  # the text (nominal), a number (ordinal) or a rank in the given order


@dataclass(frozen=True)
class StepLabels:
    """Checked trace input as a units × annotators matrix of category indices.

    ``values[u, a]`` is the category index of annotator ``annotators[a]`` on unit u,
    or −1 where that annotator gave no label. Unit u is step ``steps[unit_step[u]]``
    of trace ``traces[unit_trace[u]]``. Traces keep the order of their first row,
    annotators are sorted, steps and ordinal categories ascending.
    """

    traces: list
    steps: list
    annotators: list
    categories: list
    unit_trace: np.ndarray
    unit_step: np.ndarray
    values: np.ndarray
    warnings: list

    def counts(self):
        """(units × categories) number of labels of each category per unit."""
        out = np.zeros((len(self.values), len(self.categories)))
        unit, annotator = np.nonzero(self.values >= 0)
        np.add.at(out, (unit, self.values[unit, annotator]), 1.0)
        return out


def read_traces(source, level="nominal", order=None, progress=None) -> StepLabels:
    """Parse and check trace rows into :class:`StepLabels`.

    Nominal labels are compared as text. Ordinal labels are numbers, ordered
    numerically, unless ``order`` lists the labels from lowest to highest.
    Errors name the line and column: missing trace, annotator or label, a step
    that is not a whole number, a non-numeric ordinal label (or one not in
    ``order``), one annotator labelling the same unit twice.  ``progress`` is
    passed to :func:`agreekit.rows.read_table`.
    """
    if level not in LEVELS:
        raise InputError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}", column="level")
    rank = order_ranks(order) if order is not None else None
    rows = read_table(source, COLUMNS, SYNONYMS, required=COLUMNS, progress=progress)
    records = []
    seen = {}
    errors = RowErrors()  # every bad row is named, not only the first
    for row in rows:
        with errors:
            trace = to_text(row, "trace")
            step = to_int(row, "step")
            annotator = to_text(row, "annotator")
            category = _category(row, level, rank)
            key = (trace, step, annotator)
            if key in seen:
                raise InputError(f"annotator {annotator!r} labelled step {step} of trace {trace!r} twice "
                                 f"(also on line {seen[key]})", line=row.line, column="annotator", value=annotator)
            seen[key] = row.line
            records.append(Label(trace, step, annotator, category))
    errors.check()
    return _build(records, order)


def _category(row, level, rank):
    """The row's label as compared: its rank in the given order, a number (ordinal) or text."""
    label = to_text(row, "label")
    if rank is not None:
        if label not in rank:
            raise InputError(f"label {label!r} is not in the given order", line=row.line, column="label",
                             value=label)
        return rank[label]
    if level == "ordinal":
        return to_float(row, "label")
    return label


def order_ranks(order):
    if isinstance(order, str):
        order = [part.strip() for part in order.split(",")]
    labels = [str(label).strip() for label in order]
    if len(set(labels)) != len(labels) or not all(labels):
        raise InputError("order must list distinct, non-empty labels", column="order", value=order)
    return {label: rank for rank, label in enumerate(labels)}


def _build(records, order):
    traces = list(dict.fromkeys(r.trace for r in records))
    steps = sorted({r.step for r in records})
    annotators = sorted({r.annotator for r in records})
    if order is not None:
        categories = list(order_ranks(order))
        code = {rank: rank for rank in range(len(categories))}
    else:
        distinct = sorted({r.category for r in records})
        categories = [_display(c) for c in distinct]
        code = {c: k for k, c in enumerate(distinct)}
    trace_index = {t: k for k, t in enumerate(traces)}
    step_index = {s: k for k, s in enumerate(steps)}
    annotator_index = {a: k for k, a in enumerate(annotators)}
    unit_of = {}
    for r in records:
        unit_of.setdefault((r.trace, r.step), len(unit_of))
    # Units in trace order (first appearance), then by step.
    keys = sorted(unit_of, key=lambda u: (trace_index[u[0]], u[1]))
    unit_index = {u: k for k, u in enumerate(keys)}
    values = np.full((len(keys), len(annotators)), -1, dtype=int)
    for r in records:
        values[unit_index[(r.trace, r.step)], annotator_index[r.annotator]] = code[r.category]
    unit_trace = np.array([trace_index[t] for t, _ in keys], dtype=int)
    unit_step = np.array([step_index[s] for _, s in keys], dtype=int)
    return StepLabels(traces, steps, annotators, categories, unit_trace, unit_step, values,
                      _input_warnings(values, annotators))


def _input_warnings(values, annotators):
    warnings = []
    single = int(np.sum((values >= 0).sum(axis=1) < 2))
    if single:
        warnings.append(f"{single} of {len(values)} unit(s) have a single label: they are kept but cannot be "
                        "compared, so they add nothing to α, κ or percent agreement")
    if len(annotators) < 2:
        warnings.append("only one annotator: nothing can be compared")
    return warnings


def _display(category):
    if isinstance(category, float) and category.is_integer():
        return int(category)
    return category
