"""Box rows: reading and checking ``item, annotator, x, y, w, h, label`` (or corners).

Rows ``item, annotator, x, y, w, h, label`` (top-left corner, width, height),
or corner form ``x1, y1, x2, y2``.  A row with item and annotator and all
geometry empty means the annotator saw the item and drew nothing; an annotator
with no row for an item never saw it.
"""
from __future__ import annotations

import math

import numpy as np

from ...object_sets import Annotation, build_objects, canonical_order
from ...rows import ANNOTATOR_SYNONYMS, InputError, RowErrors, is_blank, read_table, to_float, to_text

COLUMNS = ("item", "annotator", "x", "y", "w", "h", "label")
CORNERS = ("item", "annotator", "x1", "y1", "x2", "y2", "label")
SYNONYMS = {
    "item": ("image", "image_id", "img", "item_id", "file", "filename", "image_name"),
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("class", "category", "class_name", "category_name", "tag"),
    "w": ("width",),
    "h": ("height",),
    "x1": ("xmin", "left"),
    "y1": ("ymin", "top"),
    "x2": ("xmax", "right"),
    "y2": ("ymax", "bottom"),
}


def parse_boxes(rows, keep_none_labels=False, progress=None):
    """Read and check box rows.

    Returns ``(records, warnings)`` where each record is ``(line, item,
    annotator, box or None, label)``; ``box`` is ``[x, y, w, h]`` and None
    means "saw the item, drew nothing".  Raises :class:`InputError` naming
    the line and column of the first bad value.  ``progress`` is passed to
    :func:`agreekit.rows.read_table`.
    """
    table = read_table(rows, COLUMNS, SYNONYMS, alternatives=(CORNERS,), required=("item", "annotator"),
                       progress=progress)
    if not table:
        raise InputError("no rows: the input is empty")
    present = set(table[0].values)
    corner = {"x1", "y1", "x2", "y2"} <= present
    if corner and {"x", "y", "w", "h"} <= present:
        raise InputError("the header has both x, y, w, h and x1, y1, x2, y2: keep one set of box columns",
                         line=table[0].line if not isinstance(rows, str) else 1, column="x1")
    geometry_cols = ("x1", "y1", "x2", "y2") if corner else ("x", "y", "w", "h")
    missing = [c for c in geometry_cols if c not in present]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}: expected x, y, w, h or x1, y1, x2, y2",
                         line=1, column=missing[0])
    records = []
    errors = RowErrors()  # every bad row is named, not only the first
    for row in table:
        with errors:
            absent = [c for c in geometry_cols if c not in row.values]  # dict rows: each has its own keys
            if absent:
                raise InputError(f"missing column(s) {', '.join(absent)} in this row: give every row the box "
                                 "columns (blank for an annotator who drew nothing)", line=row.line, column=absent[0])
            record = _plain_record(row, geometry_cols, corner, keep_none_labels)
            records.append(record if record is not None else _checked_record(row, geometry_cols, corner,
                                                                                 keep_none_labels))
    errors.check()
    return records, []


def _checked_record(row, geometry_cols, corner, keep_none_labels):
    """One row's :class:`Annotation`, every field checked in order; raises the row's first error."""
    item = to_text(row, "item")
    annotator = to_text(row, "annotator")
    raw_label = row.values.get("label")
    if raw_label is None and keep_none_labels:
        label = None
    else:
        label = to_text(row, "label", required=False)
    blank = [is_blank(row.values.get(c)) for c in geometry_cols]
    if all(blank):
        if label:
            raise InputError("a label without a box: fill in the box, or leave the label empty "
                             "to say the annotator drew nothing", line=row.line, column="label", value=label)
        return Annotation(row.line, item, annotator, None, label)
    if any(blank):
        column = geometry_cols[blank.index(True)]
        raise InputError(f"'{column}' is empty while other box fields are filled", line=row.line,
                         column=column, value="")
    a, b, c, d = (to_float(row, col) for col in geometry_cols)
    box = [a, b, c - a, d - b] if corner else [a, b, c, d]
    check_extent(row, box, geometry_cols)
    return Annotation(row.line, item, annotator, box, label)


# Field types whose float() can fail only with ValueError or OverflowError (bool, an int, is not among them).
_PLAIN_TYPES = frozenset({str, float, int, np.float64})


def _plain_record(row, geometry_cols, corner, keep_none_labels):
    """The row's :class:`Annotation` when its fields are plain, else None (then :func:`_checked_record`).

    Plain: item and annotator non-blank text, the label text or absent, and
    the four numbers of a type in ``_PLAIN_TYPES``, finite.  For such a row
    :func:`_checked_record` would pass every check before
    :func:`check_extent` and give the same record; most rows are plain, and
    its checks cell by cell were most of the time of reading a large file.
    """
    values = row.values
    item, annotator, label = values.get("item"), values.get("annotator"), values.get("label")
    if type(item) is not str or type(annotator) is not str or not (label is None or type(label) is str):
        return None
    item, annotator = item.strip(), annotator.strip()
    if not item or not annotator:
        return None
    cells = [values.get(column) for column in geometry_cols]
    if not _PLAIN_TYPES.issuperset(map(type, cells)):
        return None
    try:
        numbers = list(map(float, cells))
    except (ValueError, OverflowError):
        return None
    if not all(map(math.isfinite, numbers)):
        return None
    a, b, c, d = numbers
    box = [a, b, c - a, d - b] if corner else numbers
    check_extent(row, box, geometry_cols)
    if label is not None:
        label = label.strip()
    elif not keep_none_labels:
        label = ""  # no label column: to_text's blank
    return Annotation(row.line, item, annotator, box, label)


# Areas stay finite and non-zero in float64 (|area| in [1e-300, 1e300]) for coordinates in this range.
COORDINATE_RANGE = (1e-150, 1e150)


def check_extent(row, box, columns):
    """Reject a box whose area floating point cannot hold, or too small to resolve at its position.

    A side below 10⁻¹⁵⁰ or a coordinate above 10¹⁵⁰ makes an area under- or
    overflow (IoU 0 or NaN for identical boxes); a side under ~10⁻¹⁰ of its
    coordinate is lost to rounding when the far edge is computed (x + w).
    """
    low, high = COORDINATE_RANGE
    for column, value in zip(columns, box):
        if abs(value) > high:
            raise InputError(f"'{column}' is beyond ±{high:g}; rescale the coordinates", line=row.line,
                             column=column, value=row.values.get(column))
    for column, start, size in ((columns[2], box[0], box[2]), (columns[3], box[1], box[3])):
        if 0 < size < low:
            raise InputError(f"a box side of {size:g} is below {low:g}; rescale the coordinates", line=row.line,
                             column=column, value=row.values.get(column))
        if size > 0 and abs(((start + size) - start) - size) > 1e-6 * size:
            raise InputError(f"a box side of {size:g} is too small to resolve at coordinate {start:g} in "
                             "floating point; shift or rescale the coordinates", line=row.line, column=column,
                             value=row.values.get(column))


def flat_box(box):
    """Whether a box ``(x, y, w, h)`` has zero or negative width or height."""
    return box[2] <= 0 or box[3] <= 0


# At threshold 0 every pair may match (IoU ≥ 0), flat boxes too: the note says "above threshold 0".
FLAT_BOX_NOTE = ("box(es) with zero or negative width or height (lines {lines}): IoU 0 and GIoU −1 with every "
                 "box, so they match nothing above threshold 0")


def box_objects(records, order=canonical_order):
    """:func:`agreekit.object_sets.build_objects` of box records: ``(objects, boxes (n × 4), warnings)``."""
    return build_objects(records, width=4, noun="box(es)", plural="boxes", is_degenerate=flat_box,
                         degenerate_note=FLAT_BOX_NOTE, order=order)
