"""The traces kind's item view: one trace's labels by step and annotator, and its disputed steps."""
from __future__ import annotations

from typing import Callable, NamedTuple

from ...errors import InputError
from ...reference.setup import gold_name
from ...registry import ItemDetail
from ...rows import read_table, to_int, to_text
from .rows import COLUMNS, SYNONYMS, read_traces


class TraceSetup(NamedTuple):
    """A traces report's rows by trace, and the corpus's labels (for colours that hold across traces)."""

    by_trace: dict    # trace -> [{annotator, step, label, line}] in row order
    labels: list      # every label text, sorted
    compare: Callable  # label text -> the value labels are compared by
    level: str


def traces_setup(rows, level="nominal", order=None, reference_rows=None, **_):
    """Checked trace rows (:func:`.rows.read_traces` raises on bad ones) by trace; gold rows
    (``reference_rows``) as the annotator ``⟨reference⟩``."""
    by_trace = {}
    _add_cells(by_trace, rows, level, order)
    if reference_rows is not None:
        _add_cells(by_trace, reference_rows, level, order, annotator=gold_name())
    numeric = level == "ordinal" and order is None
    labels = sorted({cell["label"] for cells in by_trace.values() for cell in cells})
    return TraceSetup(by_trace, labels, float if numeric else str, level)


def _add_cells(by_trace, rows, level, order, annotator=None):
    """Each row of ``rows`` as a cell of its trace (under ``annotator`` when given: the reference's)."""
    read_traces(rows, level=level, order=order)
    for row in read_table(rows, COLUMNS, SYNONYMS, required=COLUMNS):
        by_trace.setdefault(to_text(row, "trace"), []).append(
            {"annotator": annotator or to_text(row, "annotator"), "step": to_int(row, "step"),
             "label": to_text(row, "label"), "line": row.line})


def trace_detail(setup, item):
    """Trace ``item``: its labels by step and annotator, and the steps where labels differ."""
    if item not in setup.by_trace:
        raise InputError(f"no trace {item!r} in the report's input")
    cells = sorted(setup.by_trace[item], key=lambda c: (c["step"], c["annotator"]))
    by_step = {}
    for cell in cells:
        by_step.setdefault(cell["step"], set()).add(setup.compare(cell["label"]))
    counts = {}
    for cell in cells:
        counts[cell["step"]] = counts.get(cell["step"], 0) + 1
    return {"item": item, "annotators": sorted({c["annotator"] for c in cells}), "steps": sorted(by_step),
            "cells": cells, "labels": setup.labels,
            "disputed": [step for step, values in sorted(by_step.items()) if len(values) > 1 and counts[step] > 1],
            "settings": {"level": setup.level}}


DETAIL = ItemDetail(setup=traces_setup, detail=trace_detail)
