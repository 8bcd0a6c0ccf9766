"""Rows in: read pasted CSV/TSV text or a list of dicts into checked rows.

Every kind of annotation arrives as a table with one annotation per row.  This module only reads the table and binds its
columns to canonical names; each kind's module converts and checks the values.
Errors name the line, the column and the value, and reject the whole input:
nothing is silently dropped.

Line numbers are 1-based lines of the pasted text, counting the header; for a
list of dicts, ``line`` is the 1-based position in the list.  An error in an
input other than the rows (a kind's second table, such as span lengths) names
that input in ``field``.
"""
from __future__ import annotations

import csv
import io
import itertools
import math
from typing import NamedTuple

from .errors import InputError, InputErrors  # noqa: F401  (InputError also imported from here by older code)

# Every kind accepts these names for its annotator column.
ANNOTATOR_SYNONYMS = ("rater", "worker", "user", "coder", "judge", "annotator_id", "worker_id", "user_id",
                      "rater_id", "coder_id")
READING_STAGE = "reading rows"  # the progress stage of read_table
MAX_ROW_ERRORS = 20  # the rows' errors a reader collects before it stops listing them (it still counts them)
PROGRESS_EVERY = 4096  # rows between progress calls: ~10 a second on a 20 MB paste, cheap on small ones


class Row(NamedTuple):
    """One input row: its line number and its values under canonical names."""

    line: int
    values: dict


def _first_line(text):
    for line in io.StringIO(text):
        if line.strip():
            return line
    return ""


def _split(text):
    """Split pasted text into (line number, fields) records, detecting tab, comma or semicolon.

    Fields keep their white space here; blank records are skipped.  Records are
    read as they are consumed; the text's line count comes first.
    """
    # Lone CR (old Mac) and CRLF line breaks read as LF; the csv module rejects a lone CR
    # inside an unquoted field. A field may be as long as the whole text (long documents, big RLE).
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    csv.field_size_limit(max(len(text) + 1, 131072))
    first = _first_line(text)
    if "\t" in first:
        delimiter = "\t"
    else:
        counts = {d: first.count(d) for d in ",;"}
        delimiter = max(counts, key=counts.get) if max(counts.values()) > 0 else ","
    # After a comma or semicolon a space is layout ("a, b"); after a tab it may be content.
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, skipinitialspace=delimiter != "\t")
    n_lines = text.count("\n") + (not text.endswith("\n"))
    return n_lines, ((reader.line_num, record) for record in reader if any(map(str.strip, record)))


def _normalize(name):
    return name.strip().lower().replace(" ", "_").replace("-", "_")


def bind_columns(header, columns, synonyms, alternatives=()):
    """Map header names onto canonical names.

    ``columns`` is the canonical column order; ``synonyms`` maps canonical name
    to accepted aliases; ``alternatives`` lists other full sets of canonical
    names (e.g. corner form ``x1, y1, x2, y2``) that may stand in for
    ``columns``.  Returns ``{canonical: index}`` or ``None`` when the header
    names no known column (then the input is taken as headerless).
    """
    lookup = {}
    known = set(columns)
    for alt in alternatives:
        known.update(alt)
    for name in known:
        lookup[_normalize(name)] = name
        for alias in synonyms.get(name, ()):
            lookup[_normalize(alias)] = name
    bound = {}
    for index, raw in enumerate(header):
        name = lookup.get(_normalize(raw))
        if name is None:
            continue
        if name in bound:
            raise InputError(f"header names column '{name}' twice", line=1, column=raw)
        bound[name] = index
    return bound or None


def _is_number(field):
    try:
        float(field)
    except (TypeError, ValueError, OverflowError):
        return False
    return True


def looks_like_header(fields, bound):
    """A first record is a header when it names known columns and holds no number.

    A data row's label may happen to be a column name (a box labelled ``x``),
    but a data row of any kind has at least one number or names at most one column.
    """
    if bound is None or any(_is_number(f) for f in fields if f.strip()):
        return False
    return len(bound) >= 2 or len(bound) == len(fields)


def read_table(source, columns, synonyms=None, alternatives=(), required=(), keep_space=(), progress=None):
    """Read ``source`` into a list of :class:`Row`.

    ``source`` is CSV/TSV text (header optional; without a header the columns
    must come in the canonical order ``columns``), or a list of dicts, or a
    list of sequences in the canonical order.  Unknown extra columns in a
    header are ignored; a row with the wrong number of fields is an error.
    ``required`` names the canonical columns the header must have.  Text
    fields are stripped of surrounding white space, except the columns named
    in ``keep_space`` (e.g. a document text whose offsets matter; quote such a
    field in CSV when it starts with white space).  ``progress(done, total,
    "reading rows")``, when given, is called at the start (``done`` 0), every few
    thousand rows with the lines (or list entries) read so far, and at the end.
    """
    synonyms = synonyms or {}
    if isinstance(source, str):
        return _read_text(source, columns, synonyms, alternatives, required, keep_space, progress)
    if isinstance(source, dict):
        raise InputError("expected rows (a list of dicts or CSV text), got a single dict")
    if not hasattr(source, "__len__"):
        progress = None  # an iterator: no total to report against
    if progress is not None:
        progress(0, len(source), READING_STAGE)
    rows = []
    bindings = {}  # rows of one shape share a binding: bind each key set once
    for position, record in enumerate(source, start=1):
        if isinstance(record, dict):
            keys = tuple(record)
            if keys not in bindings:
                bound = bind_columns(list(keys), columns, synonyms, alternatives) or {}
                bindings[keys] = [(name, keys[index]) for name, index in bound.items()]
            values = {name: record[key] for name, key in bindings[keys]}
        elif isinstance(record, (list, tuple)):
            if len(record) != len(columns):
                raise InputError(f"expected {len(columns)} fields ({', '.join(columns)}), got {len(record)}",
                                 line=position)
            values = dict(zip(columns, record))
        else:
            raise InputError(f"row is a {type(record).__name__}, expected a dict or a list", line=position)
        _check_required(values, required, position)
        rows.append(Row(position, values))
        if progress is not None and position % PROGRESS_EVERY == 0:
            progress(position, len(source), READING_STAGE)
    if progress is not None:
        progress(len(source), len(source), READING_STAGE)
    return rows


def _check_required(values, required, line):
    for name in required:
        if name not in values:
            raise InputError(f"missing column '{name}'", line=line, column=name)


def _read_text(text, columns, synonyms, alternatives, required, keep_space, progress):
    n_lines, records = _split(text)
    if progress is not None:
        progress(0, n_lines, READING_STAGE)
    first = next(records, None)
    if first is None:
        raise InputError("no rows: the input is empty")
    header_line, header = first
    header = [field.strip() for field in header]
    bound = bind_columns(header, columns, synonyms, alternatives)
    if not looks_like_header(header, bound):
        body = itertools.chain([first], records)
        bound = {name: index for index, name in enumerate(columns)}
        width = len(columns)
    else:
        body = records
        width = len(header)
        missing = [name for name in required if name not in bound]
        if missing:
            raise InputError(f"header lacks column(s) {', '.join(missing)}; "
                             f"expected {', '.join(columns)}", line=header_line)
    stripped = [(name, index) for name, index in bound.items() if name not in keep_space]
    kept = [(name, index) for name, index in bound.items() if name in keep_space]
    rows = []
    errors = RowErrors()  # every row of the wrong width is named, not only the first
    for line, record in body:
        if len(record) != width:
            with errors:
                raise InputError(f"expected {width} fields, got {len(record)}", line=line,
                                 value=",".join(record))
            continue
        values = {name: record[index].strip() for name, index in stripped}
        for name, index in kept:
            values[name] = record[index]
        rows.append(Row(line, values))
        if progress is not None and len(rows) % PROGRESS_EVERY == 0:
            progress(line, n_lines, READING_STAGE)
    errors.check()
    if not rows:
        raise InputError("no data rows below the header", line=header_line)
    if progress is not None:
        progress(n_lines, n_lines, READING_STAGE)
    return rows


class RowErrors:
    """The :class:`InputError` of each bad row, collected so that reading goes on past it.

    ``with errors:`` around one row's reading catches that row's error (any other exception goes
    through); :meth:`check` after the last row raises nothing, the one error, or
    :class:`~agreekit.errors.InputErrors` holding the first ``limit`` errors and the count of all,
    so that a user sees every bad row at once rather than one per try.
    """

    def __init__(self, limit=MAX_ROW_ERRORS):
        self.limit = limit
        self.errors = []
        self.total = 0

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is None or not issubclass(kind, InputError):
            return False
        self.total += 1
        if len(self.errors) < self.limit:
            self.errors.append(error)
        return True  # this row's error is kept; the next row is read

    def check(self):
        """Raise the collected errors, if any (see the class)."""
        if self.total == 1:
            raise self.errors[0]
        if self.total:
            raise InputErrors(self.errors, self.total)


def _quoted(value):
    """``value`` as an error message quotes it: ``'abc'`` (shortened)."""
    return repr(shortened(value))


def is_blank(value):
    """True for a missing value: None, or a string that is empty or only white space."""
    if value is None:
        return True
    return isinstance(value, str) and not value.strip()


def shortened(value, limit=60):
    """``value`` as text of at most ``limit`` characters ("…" where cut), for an error's ``value``."""
    try:
        text = str(value)
    except ValueError:  # an int beyond Python's 4300-digit limit for str()
        return f"an integer of {value.bit_length()} bits"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def to_text(row, column, required=True):
    """The value as a stripped string.  Blank is an error when ``required``."""
    value = row.values.get(column)
    if is_blank(value):
        if required:
            raise InputError(f"'{column}' is empty", line=row.line, column=column, value="")
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def to_float(row, column):
    """The value as a finite float; blank, non-numeric, NaN or inf is an error."""
    value = row.values.get(column)
    if is_blank(value):
        raise InputError(f"'{column}' is empty", line=row.line, column=column, value="")
    if isinstance(value, bool):
        raise InputError(f"{_quoted(value)} is not a number", line=row.line, column=column, value=value)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{_quoted(value)} is not a number", line=row.line, column=column,
                         value=value) from None
    except OverflowError:  # an int beyond the float range, from a list of dicts
        raise InputError(f"'{column}' is too large", line=row.line, column=column,
                         value=shortened(value)) from None
    if not math.isfinite(number):
        raise InputError(f"{_quoted(value)} is not a finite number", line=row.line, column=column, value=value)
    return number


def to_int(row, column):
    """The value as an integer; a float with a fractional part is an error."""
    number = to_float(row, column)
    if not number.is_integer():
        raise InputError(f"{_quoted(row.values.get(column))} is not a whole number", line=row.line, column=column,
                         value=row.values.get(column))
    return int(number)


def interval_is_blank(row, label, unit):
    """For rows with ``start`` and ``end``: True when both are blank.

    Both blank means the annotator read the item and marked nothing, which a
    label would contradict (an error).  Only one of them blank is an error
    naming the missing column.  ``unit`` names the thing ("span", "segment").
    """
    start_blank = is_blank(row.values.get("start"))
    end_blank = is_blank(row.values.get("end"))
    if start_blank and end_blank:
        if label:
            raise InputError(f"label {label!r} given without a start and an end; a row with no "
                             f"{unit} means the annotator marked nothing and must have no label",
                             line=row.line, column="label", value=label)
        return True
    if start_blank or end_blank:
        given, missing = ("end", "start") if start_blank else ("start", "end")
        raise InputError(f"'{missing}' is empty but '{given}' is given; give both, or neither "
                         "for an annotator who marked nothing", line=row.line, column=missing, value="")
    return False


def check_order(row, start, end):
    """The row's ``start`` and ``end`` (numbers, read) in order; ``end < start`` is the row's error,
    naming its ``end`` as written."""
    if end < start:
        raise InputError(f"end {end:.15g} is before start {start:.15g}", line=row.line, column="end",
                         value=row.values.get("end"))


def values_by_item(rows, value):
    """``{item: value(row)}`` of a table given beside the rows, one row per item (span lengths or
    texts, clip durations): every bad row is named (:class:`RowErrors`), not only the first.

    An item given twice is an error at its second row, even when its first row was in error.
    """
    values, seen, errors = {}, set(), RowErrors()
    for row in rows:
        with errors:
            item = to_text(row, "item")
            if item in seen:
                raise InputError(f"item {item!r} is given twice", line=row.line, column="item", value=item)
            seen.add(item)
            values[item] = value(row)
    errors.check()
    return values


def in_field(field, read, *args, **kwargs):
    """``read(*args, **kwargs)``, its errors (each of several) marked as errors of ``field``: the report
    option the table came in, so that the page points at that box rather than at the rows."""
    try:
        return read(*args, **kwargs)
    except InputError as error:
        for each in (error, *getattr(error, "errors", ())):
            each.field = field
        raise
