"""agreekit CSV: the rows under the kind's canonical column names, sorted.

Every kind's rows, in the columns the kind's report and the page's paste box
read (``item, annotator, x, y, w, h, label`` for boxes, …): box corners are
written as ``x, y, w, h``, polygon points as ``x1 y1 x2 y2 …``; the kinds
without geometry the writers know keep the column set they came in (a
cuboid's yaw).  The rows are sorted by
their values, so the file does not depend on the order of the input rows.
A labels matrix (one column per annotator) is written in the long form
``item, annotator, label``.
"""
from __future__ import annotations

import csv
import io

from ...registry import KINDS
from ...rows import read_table
from ...kinds.labels.rows import read_judgements
from . import Writer, Written, register_writer
from .records import GEOMETRY, is_empty, number_text, read_records

NAME = "csv"


def _text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return number_text(value)
    return str(value)


def _geometry_rows(kind, rows):
    out = []
    for record in read_records(kind, rows):
        geometry = dict(record.geometry or {})
        if "points" in geometry:
            geometry["points"] = " ".join(number_text(v) for pair in geometry["points"] for v in pair)
        if is_empty(record) and kind != "masks":
            geometry = {}
        out.append({"item": record.item, "annotator": record.annotator, **geometry, "label": record.label})
    return list(KINDS[kind].columns), out


def _plain_rows(kind, rows):
    """Any kind's rows by the columns they bind to (its columns, or one of its alternative column sets)."""
    spec = KINDS[kind]
    if kind == "labels" and isinstance(rows, str):  # a matrix reads only through the kind's own reader
        judgements = read_judgements(rows).judgements
        return ["item", "annotator", "label"], [{"item": j.item, "annotator": j.annotator, "label": j.label}
                                                for j in judgements]
    table = read_table(rows, spec.columns, spec.synonyms, spec.alternatives)
    present = {c for row in table for c in row.values}
    sets = [spec.columns, *spec.alternatives]
    columns = next((list(s) for s in sets if present <= set(s)), [c for s in sets for c in s if c in present])
    return list(dict.fromkeys(columns)), [row.values for row in table]


def write(kind, rows):
    """The rows of ``kind`` as agreekit CSV (header, then rows sorted by their values)."""
    columns, records = _geometry_rows(kind, rows) if kind in GEOMETRY else _plain_rows(kind, rows)
    lines = sorted([_text(record.get(c)) for c in columns] for record in records)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(lines)
    return Written(NAME, ((f"{kind}.csv", out.getvalue().encode("utf-8")),))


register_writer(Writer(name=NAME, title="agreekit CSV", kinds=("*",), write=write, reader=None, suffix=".csv"))
