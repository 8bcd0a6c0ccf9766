"""Rows in, for the writers: the rows a kind's report accepts, as checked records in one canonical order.

A writer takes the same rows as the kind's report (CSV/TSV text with the
kind's column names or their synonyms, or a list of dicts: consensus rows,
adjudicated rows, plain rows) and needs them as numbers in agreekit's units:
boxes ``x, y, w, h`` (corner columns converted), polygon vertices as
``(x, y)`` pairs, masks as ``width, height`` and COCO run lengths, span
offsets as code points, segment times in seconds.  A row whose geometry is
blank is the annotator's "saw the item, marked nothing" (``geometry`` None).

The records come sorted by item, annotator, geometry and label, so what a
writer makes from them does not depend on the order of the rows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...geometry.polygon_checks import validate_polygons
from ...kinds.labels.rows import read_judgements
from ...parse.points import parse_points
from ...parse.rle import parse_rle
from ...registry import KINDS
from ...rows import InputError, check_order, is_blank, read_table, to_float, to_int, to_text

__all__ = ["Record", "read_records", "item_table", "number_text"]


@dataclass(frozen=True)
class Record:
    """One row: the item, the annotator, its geometry (None: saw the item, marked nothing) and its label.

    ``geometry`` maps the kind's geometry columns to numbers (``points``: a
    tuple of ``(x, y)`` pairs; ``rle``: the run-length text as given).
    """

    item: str
    annotator: str
    geometry: dict | None
    label: str | None
    line: int = 0

    def key(self):
        """The sort key: item, annotator, geometry values, label (a saw-nothing record first)."""
        values = () if self.geometry is None else tuple(_sortable(v) for v in self.geometry.values())
        return (self.item, self.annotator, self.geometry is not None, values, self.label or "")


def _sortable(value):
    """A value as a key that orders numbers, texts and None (a tuple element by element)."""
    if isinstance(value, tuple):
        return tuple(map(_sortable, value))
    if isinstance(value, (int, float)):
        return (0, float(value), "")
    return (1, 0.0, "" if value is None else str(value))


def number_text(value):
    """A number as text that reads back to the same float: ``20`` for a whole number, else ``repr``.

    >>> number_text(20.0), number_text(0.1), number_text(3)
    ('20', '0.1', '3')
    """
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 2 ** 53 else repr(value)


# ----------------------------------------------------------------- geometry of one row, per kind

def _box(row):
    if {"x1", "y1", "x2", "y2"} <= set(row.values):  # corner form (dict rows may each have their own keys)
        x1, y1, x2, y2 = (to_float(row, c) for c in ("x1", "y1", "x2", "y2"))
        x, y, w, h = min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)
    else:
        x, y, w, h = (to_float(row, c) for c in ("x", "y", "w", "h"))
    for name, value in (("w", w), ("h", h)):
        if value < 0:
            raise InputError(f"'{name}' must not be negative", line=row.line, column=name, value=value)
    return {"x": x, "y": y, "w": w, "h": h}


def _polygon(row):
    vertices = validate_polygons([parse_points(row.values.get("points"), line=row.line)], lines=[row.line])[0]
    return {"points": tuple((float(x), float(y)) for x, y in vertices.tolist())}


def _mask(row):
    width, height = to_int(row, "width"), to_int(row, "height")
    value = row.values.get("rle")
    text = " ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value).strip()
    parse_rle(text, height, width, line=row.line)  # checks the runs add up to the image
    return {"width": width, "height": height, "rle": text}


def _span(row):
    start, end = to_int(row, "start"), to_int(row, "end")
    if not 0 <= start <= end:
        raise InputError(f"a span needs 0 ≤ start ≤ end, got {start}–{end}", line=row.line, column="end", value=end)
    return {"start": start, "end": end}


def _segment(row):
    start, end = to_float(row, "start"), to_float(row, "end")
    check_order(row, start, end)
    return {"start": start, "end": end}


GEOMETRY = {"boxes": (("x", "y", "w", "h", "x1", "y1", "x2", "y2"), _box), "polygons": (("points",), _polygon),
            "masks": (("rle",), _mask), "spans": (("start", "end"), _span), "segments": (("start", "end"), _segment)}


def _blank(row, columns):
    return all(is_blank(row.values.get(c)) for c in columns)


def _record(kind, row):
    item, annotator = to_text(row, "item"), to_text(row, "annotator")
    label = to_text(row, "label", required=False) or None
    columns, read = GEOMETRY[kind]
    if not _blank(row, columns):
        return Record(item, annotator, read(row), label, row.line)
    if label is not None:
        raise InputError("a label without geometry: fill it in, or leave the label empty to say the annotator "
                         "marked nothing", line=row.line, column="label", value=label)
    if kind == "masks":  # an empty mask keeps its image's size, which the formats write
        return Record(item, annotator, {"width": to_int(row, "width"), "height": to_int(row, "height"),
                                        "rle": None}, None, row.line)
    return Record(item, annotator, None, None, row.line)


def read_records(kind, rows):
    """The rows of ``kind`` as sorted :class:`Record` s.

    Parameters
    ----------
    kind : str
        A kind with geometry the writers know (boxes, polygons, masks, spans,
        segments), or labels (``geometry`` ``{}``).
    rows : str or list of dict
        What the kind's report takes.

    Returns
    -------
    list of Record
        Sorted by :meth:`Record.key`.  A mask's saw-nothing record has
        ``geometry`` ``{"width", "height", "rle": None}`` (see :func:`is_empty`).

    Raises
    ------
    InputError
        Naming the line, column and value of the first bad field.
    """
    if kind == "labels":  # long rows or a reliability matrix: the kind's own reader tells them apart
        judgements = read_judgements(rows).judgements
        return sorted((Record(j.item, j.annotator, {}, j.label, j.line) for j in judgements), key=Record.key)
    spec = KINDS[kind]
    table = read_table(rows, spec.columns, spec.synonyms, spec.alternatives, required=("item", "annotator"))
    return sorted((_record(kind, row) for row in table), key=Record.key)


def is_empty(record):
    """True for a saw-nothing record (a mask's keeps its image size but no runs)."""
    return record.geometry is None or record.geometry.get("rle", "") is None


def item_table(value, columns, name):
    """An option that maps items to values: a dict, or CSV text / dicts with ``columns`` (item first).

    Returns ``{item: value}`` with a 1-column table's value as is, a 2-column one's as a tuple.
    """
    if value is None:
        return None
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    try:
        table = read_table(value, columns, required=columns, keep_space=columns[1:])
    except InputError as error:
        raise InputError(f"option {name}: {error.message}", line=error.line, column=error.column,
                         value=error.value) from None
    out = {}
    for row in table:
        values = tuple(row.values[c] for c in columns[1:])
        out[to_text(row, "item")] = values[0] if len(values) == 1 else values
    return out


def image_sizes(value):
    """``image_sizes`` (item → ``(width, height)``) checked: positive whole pixels."""
    table = item_table(value, ("item", "width", "height"), "image_sizes") or {}
    out = {}
    for item, size in table.items():
        try:
            width, height = (float(v) for v in size)
        except (TypeError, ValueError):
            raise InputError(f"option image_sizes: {item}: expected (width, height), got {size!r}",
                             column="image_sizes", value=item) from None
        if not (math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0):
            raise InputError(f"option image_sizes: {item}: width and height must be positive", column="image_sizes",
                             value=item)
        out[item] = (number_or_int(width), number_or_int(height))
    return out


def number_or_int(value):
    """``value`` as an int when whole (pixel sizes), else as a float."""
    return int(value) if float(value).is_integer() else float(value)


def mask_pixels(record):
    """The boolean ``(height, width)`` mask of a mask record's COCO runs (column-major, background first)."""
    g = record.geometry
    runs = parse_rle(g["rle"], g["height"], g["width"], line=record.line)
    # np.intp counts: np.repeat cannot cast int64 counts to Pyodide's 32-bit index type
    return np.repeat(np.arange(len(runs)) % 2 == 1, np.asarray(runs, dtype=np.intp)).reshape(
        (g["height"], g["width"]), order="F")


def grouped(records, *fields):
    """``{key: [records]}`` by the values of ``fields`` (``"item"``, ``"annotator"``), in the records' order."""
    out = {}
    for record in records:
        out.setdefault(tuple(getattr(record, f) for f in fields) if len(fields) > 1 else getattr(record, fields[0]),
                       []).append(record)
    return out
