"""Labels in: one judgement per row (``item, annotator, label``), or a wide reliability matrix.

**Long rows** ``item, annotator, label`` (``value``, ``rating``, ``score`` … for ``label``): one row
per judgement; an annotator with no row for an item did not rate it.  Repeated rows of one item and
annotator are that annotator's label set when the level is ``set``, an error otherwise.

**A reliability matrix** (the input of K-Alpha, ReCal and irrCAC): one row per item, one column per
annotator, a blank cell = not rated; a column named ``item`` (or ``unit``, ``subject``, …) names
the items, otherwise they are numbered by row.  In a matrix a label set is written ``a|b``.

Which it is comes from the first line (:func:`detect_layout`): a header naming the annotator column
is long; a first line of numbers only is a headerless matrix (ReCal); any other header with an
item column and no annotator column, or one that is not three fields, is a matrix with annotator
names; three unknown names are a matrix header only when the next line holds numbers only (else
headerless long rows, in the canonical column order).  The report states the reading.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from ...errors import InputError
from ...rows import ANNOTATOR_SYNONYMS, RowErrors, bind_columns, is_blank, read_table, to_text

COLUMNS = ("item", "annotator", "label")
ITEM_SYNONYMS = ("unit", "subject", "item_id", "unit_id", "id", "document", "doc", "text_id", "image", "example")
SYNONYMS = {
    "item": ITEM_SYNONYMS,
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("value", "rating", "score", "category", "class", "choice", "answer", "code", "tag", "grade"),
}
SET_SEPARATOR = "|"  # between the labels of one matrix cell at level ``set``


@dataclass(frozen=True)
class Judgement:
    """One annotator's label of one item, as read (the line it came from)."""

    line: int
    item: str
    annotator: str
    label: str


@dataclass(frozen=True)
class Reading:
    """The judgements and, in words, how the input was read."""

    judgements: tuple
    layout: str          # "long" or "matrix"
    note: str
    unrated_items: tuple  # matrix rows with no rating at all (left out, named in a warning)


def _leading_records(text, count=2):
    """The first ``count`` non-blank records of ``text`` (the delimiter chosen as :mod:`agreekit.rows` does)."""
    lines = [line for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line.strip()]
    if not lines:
        return []
    first = lines[0]
    delimiter = "\t" if "\t" in first else max(",;", key=first.count) if first.count(",") + first.count(";") else ","
    reader = csv.reader(io.StringIO("\n".join(lines[:count])), delimiter=delimiter,
                        skipinitialspace=delimiter != "\t")
    return [[field.strip() for field in record] for record in reader][:count]


def _numeric_or_blank(fields):
    def number(field):
        try:
            float(field)
        except (ValueError, OverflowError):
            return False
        return True
    return all(not field or number(field) for field in fields)


def detect_layout(text):
    """``"long"``, ``"matrix"`` (with a header) or ``"bare matrix"`` (no header), from the first lines."""
    records = _leading_records(text)
    if not records:
        return "long"
    first = records[0]
    if _numeric_or_blank(first):
        return "bare matrix" if len(first) != 3 or _numeric_or_blank(first[1:2]) else "long"
    bound = bind_columns(first, COLUMNS, SYNONYMS) or {}
    if "annotator" in bound:
        return "long"
    if "item" in bound or len(first) != 3:
        return "matrix"
    return "matrix" if len(records) > 1 and _numeric_or_blank(records[1]) else "long"


def read_judgements(source, split_sets=False, progress=None):
    """Read long rows or a matrix (see the module docstring) into a :class:`Reading`.

    ``split_sets``: a matrix cell ``a|b`` holds the labels a and b (level ``set``).
    """
    layout = detect_layout(source) if isinstance(source, str) else "long"
    if layout == "long":
        rows = read_table(source, COLUMNS, SYNONYMS, required=COLUMNS, progress=progress)
        try:  # the fast path; on a bad row, read them all again to name every bad row, not only the first
            judgements = tuple(map(_long_judgement, rows))
        except InputError:
            judgements, errors = [], RowErrors()
            for row in rows:
                with errors:
                    judgements.append(_long_judgement(row))
            errors.check()
            judgements = tuple(judgements)
        return Reading(judgements, "long", "long rows: one judgement (item, annotator, label) per row", ())
    return _read_matrix(source, layout == "matrix", split_sets, progress)


def _long_judgement(row):
    """The :class:`Judgement` of one long row (text fields taken as they are when all three are non-blank)."""
    values = row.values
    item, annotator, label = values.get("item"), values.get("annotator"), values.get("label")
    if type(item) is str and type(annotator) is str and type(label) is str:  # noqa: E721 (str only, no subclass)
        item, annotator, label = item.strip(), annotator.strip(), label.strip()
        if item and annotator and label:  # the common case, without a call per field
            return Judgement(row.line, item, annotator, label)
    return Judgement(row.line, to_text(row, "item"), to_text(row, "annotator"),
                     _label(values.get("label"), row.line, "label"))


def _label(value, line, column):
    if is_blank(value):
        raise InputError("the label is empty: leave the row out for an item the annotator did not rate",
                         line=line, column=column, value="")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _matrix_item(row, item_column, number, seen):
    """The item of matrix ``row`` (its ``number`` without an item column), recorded in ``seen`` (item → line)."""
    item = to_text(row, item_column) if item_column else str(number)
    if item in seen:
        raise InputError(f"item {item!r} has two rows (lines {seen[item]} and {row.line})", line=row.line,
                         column=item_column, value=item)
    seen[item] = row.line
    return item


def _matrix_row(row, item, annotators, split_sets):
    """The judgements of matrix ``row`` (item ``item``): one per label of each non-blank cell."""
    judgements = []
    for annotator in annotators:
        cell = row.values.get(annotator)
        if is_blank(cell):
            continue
        labels = [part.strip() for part in cell.split(SET_SEPARATOR)] if split_sets else [cell.strip()]
        judgements += [Judgement(row.line, item, annotator, _label(label, row.line, annotator)) for label in labels]
    return judgements


def _read_matrix(text, has_header, split_sets, progress):
    header = _leading_records(text, 1)[0]
    if has_header:
        for position, name in enumerate(header, start=1):
            if not name:
                raise InputError(f"header field {position} is empty: name each annotator's column", line=1)
        columns = tuple(header)
    else:
        columns = tuple(f"coder {k}" for k in range(1, len(header) + 1))
    item_column = next((c for c in columns if bind_columns([c], COLUMNS, SYNONYMS) == {"item": 0}), None) \
        if has_header else None
    annotators = [c for c in columns if c != item_column]
    rows = read_table(text, columns, {}, progress=progress)
    judgements, seen, unrated = [], {}, []
    errors = RowErrors()  # every bad row is named (its first bad field), not only the first bad row
    for number, row in enumerate(rows, start=1):
        with errors:
            item = _matrix_item(row, item_column, number, seen)
            cells = _matrix_row(row, item, annotators, split_sets)
            judgements += cells
            if not cells:
                unrated.append(item)
    errors.check()
    named = f"items named by column {item_column!r}" if item_column else "items numbered by row"
    note = (f"a reliability matrix: one row per item ({named}), one column per annotator "
            f"({len(annotators)}: " + ("named in the header" if has_header else "no header, numbered") +
            "), a blank cell = not rated")
    return Reading(tuple(judgements), "matrix", note, tuple(unrated))
