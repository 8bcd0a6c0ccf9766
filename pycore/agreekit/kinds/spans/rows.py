"""Text spans in: rows of ``item, annotator, start, end, label`` and item lengths or texts.

Offsets are half-open character offsets ``[start, end)``.  A row with an item
and an annotator but no start, end or label means the annotator read the item
and marked nothing; an annotator with no row for an item never read it.  Item
lengths come separately as ``item, length`` rows, ``item, text`` rows or a
dict; without them an item's length is its largest span end.  Every error
names its line and column; suspicious but valid input gives a warning.

Offsets and lengths are at most ``MAX_CHARACTERS`` (10⁹): twice an overlap
must still fit a 32-bit integer, the index size of the page's WebAssembly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...arrays import content_ranks, name_list
from ...rows import (ANNOTATOR_SYNONYMS, InputError, Row, RowErrors, check_order, in_field, interval_is_blank,
                    read_table, shortened, to_int, to_text, values_by_item)

COLUMNS = ("item", "annotator", "start", "end", "label")
SYNONYMS = {
    "item": ("document", "doc", "doc_id", "document_id", "item_id", "text_id", "sentence_id"),
    "annotator": ANNOTATOR_SYNONYMS,
    "start": ("begin", "start_offset", "char_start", "start_char", "from"),
    "end": ("stop", "end_offset", "char_end", "end_char", "to"),
    "label": ("class", "category", "tag", "entity", "entity_type", "type"),
}
REQUIRED = ("item", "annotator", "start", "end")
LENGTH_COLUMNS = ("item", "length")
LENGTH_SYNONYMS = {"item": SYNONYMS["item"], "length": ("len", "n_chars", "chars", "text_length")}
TEXT_COLUMNS = ("text",)
TEXT_SYNONYMS = {"text": ("document_text", "content", "body", "sentence")}
# The largest offset or length, in characters: 2·overlap of two spans stays below 2³¹ (wasm32 integers).
MAX_CHARACTERS = 10 ** 9
LENGTHS_FIELD = "lengths"  # the report option that carries the lengths (InputError.field)


class Span(NamedTuple):
    """One span as read: ``[start, end)`` in characters, its label and its input line."""

    start: int
    end: int
    label: str
    line: int


@dataclass(frozen=True)
class Item:
    """One item: its length, its text (if given) and each annotator's spans in row order.

    ``spans[annotator]`` is a list of :class:`Span`; an empty list means the
    annotator read the item and marked nothing.  Annotators are kept sorted
    as strings: that is the pair order.
    """

    name: str
    length: int
    text: str | None
    spans: dict

    @property
    def annotators(self):
        """The annotators who read the item, sorted."""
        return list(self.spans)


class Items(NamedTuple):
    """The checked items in input order, the warnings about them, and where their lengths came from."""

    items: list
    warnings: list
    length_source: str


def read_spans(source, progress=None):
    """Parse and check span rows.

    Errors (the whole input is rejected) name the line and column: missing
    item or annotator, a non-integer or negative offset or one above
    ``MAX_CHARACTERS``, only one of start and end given, a label without a
    span, ``end < start``.

    Parameters
    ----------
    source : str or list of dict
        CSV/TSV text or rows with ``item, annotator, start, end, label``
        (or their synonyms, ``SYNONYMS``).
    progress : callable, optional
        Passed to :func:`agreekit.rows.read_table`.

    Returns
    -------
    dict
        ``{item: {annotator: [Span, ...]}}``; items keep the order of their
        first row, spans their row order; ``[]`` for an annotator who read the
        item and marked nothing.

    Raises
    ------
    agreekit.rows.InputError
    """
    rows = read_table(source, COLUMNS, SYNONYMS, required=REQUIRED, progress=progress)
    items = {}
    errors = RowErrors()  # every bad row is named, not only the first
    for row in rows:
        with errors:
            values = row.values
            item = _text(row, values.get("item"), "item")
            annotator = _text(row, values.get("annotator"), "annotator")
            label = _text(row, values.get("label"), "label", required=False)
            by_annotator = items.get(item)
            if by_annotator is None:
                by_annotator = items[item] = {}
            spans = by_annotator.get(annotator)
            if spans is None:
                spans = by_annotator[annotator] = []
            start, end = _offset(row, values.get("start"), "start"), _offset(row, values.get("end"), "end")
            if start is not None and end is not None:
                check_order(row, start, end)
                spans.append(Span(start, end, label, row.line))
                continue
            if interval_is_blank(row, label, "span"):
                continue
            start = characters(row, "start")
            end = characters(row, "end")
            check_order(row, start, end)
            spans.append(Span(start, end, label, row.line))
    errors.check()
    return items


# Fast paths for the common, plainly valid values; anything else falls through
# to the shared converters, which give the located error.  Same results either way.

def _text(row, value, column, required=True):
    if type(value) is str:
        stripped = value.strip()
        if stripped:
            return stripped
    return to_text(row, column, required=required)


def _offset(row, value, column):
    """A whole-number offset in [0, MAX_CHARACTERS], or None for anything that needs the full checks."""
    if type(value) is int and 0 <= value <= MAX_CHARACTERS:
        return value
    if type(value) is str and len(value) <= 9 and value.isascii() and value.isdigit():
        return int(value)
    return None


def characters(row, column):
    """A count of characters in ``row[column]``: a whole number from 0 to ``MAX_CHARACTERS``.

    Raises
    ------
    agreekit.rows.InputError
        Naming the line, the column and the value (shortened): not a whole
        number, negative, or above the ceiling.
    """
    value = row.values.get(column)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        number = int(value)
    elif isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        # Python refuses int() of thousands of digits; any such number is above the ceiling.
        digits = value.strip().lstrip("0") or "0"
        number = int(digits) if len(digits) <= 12 else MAX_CHARACTERS + 1
    else:
        number = to_int(row, column)
    if number < 0:
        raise InputError(f"{column} {shortened(value, 24)} is negative; characters count from 0",
                         line=row.line, column=column, value=shortened(value))
    if number > MAX_CHARACTERS:
        raise InputError(f"{column} {shortened(value, 24)} is above the ceiling of {MAX_CHARACTERS:,} "
                         "characters per item", line=row.line, column=column, value=shortened(value))
    return number


def read_lengths(source):
    """Item lengths, and texts when given.

    A repeated item is an error, as is a length that is negative, not an
    integer or above ``MAX_CHARACTERS`` (a text too, by its length).

    Parameters
    ----------
    source : str, list of dict or dict
        CSV/TSV text or rows with columns ``item, length`` or ``item, text``
        (then the length is the text's length in code points, Python's
        ``len``), or a dict mapping item to a length (int) or a text (str).

    Returns
    -------
    tuple
        ``({item: length}, {item: text} or None)``.

    Raises
    ------
    agreekit.rows.InputError
        With ``field`` set to ``"lengths"`` (the report option the table came
        in), so the page can point at that box rather than at the rows.
    """
    return in_field(LENGTHS_FIELD, _read_lengths, source)


def _read_lengths(source):
    """:func:`read_lengths` without the field on its errors."""
    if isinstance(source, dict):
        lengths, texts, errors = {}, {}, RowErrors()  # every bad entry is named, not only the first
        for position, (item, value) in enumerate(source.items(), start=1):
            with errors:
                if isinstance(value, str):
                    lengths[str(item)] = _text_length(position, value)
                    texts[str(item)] = value
                elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
                    lengths[str(item)] = characters(Row(position, {"length": value}), "length")
                else:
                    raise InputError(f"length of item {item!r} must be a non-negative integer or a text",
                                     line=position, column="length", value=shortened(value))
        errors.check()
        return lengths, (texts or None)
    rows = read_table(source, LENGTH_COLUMNS, {**LENGTH_SYNONYMS, **TEXT_SYNONYMS},
                      alternatives=[("item",) + TEXT_COLUMNS], required=("item",), keep_space=("text",))
    has_text = any("text" in row.values for row in rows)
    has_length = any("length" in row.values for row in rows)
    if not (has_text or has_length):
        raise InputError("lengths need a 'length' or a 'text' column beside 'item'", line=rows[0].line)
    if not has_text:
        return values_by_item(rows, lambda row: characters(row, "length")), None
    texts = values_by_item(rows, _row_text)
    return {item: len(text) for item, text in texts.items()}, (texts or None)


def _row_text(row):
    """The text of a row of item texts, within the ceiling of ``MAX_CHARACTERS``."""
    if "text" not in row.values:
        raise InputError("missing column 'text'", line=row.line, column="text")
    value = row.values["text"]
    text = "" if value is None else str(value)
    _text_length(row.line, text)
    return text


def _text_length(line, text):
    if len(text) > MAX_CHARACTERS:
        raise InputError(f"the text has {len(text):,} characters, above the ceiling of {MAX_CHARACTERS:,} "
                         "per item", line=line, column="text", value=shortened(text))
    return len(text)


def build_items(raw, lengths=None, texts=None):
    """Attach lengths to parsed spans and collect warnings about suspicious input.

    Parameters
    ----------
    raw : dict
        From :func:`read_spans`.
    lengths, texts : dict, optional
        From :func:`read_lengths`.  Without a length an item's length is its
        largest span end.

    Returns
    -------
    Items
        The :class:`Item` list in input order, the warnings, and where the
        lengths came from (``"texts"``, ``"lengths"`` or ``"largest end"``).
    """
    warnings = []
    fallback = []
    items = []
    for name, by_annotator in raw.items():
        spans = {a: by_annotator[a] for a in sorted(by_annotator)}
        largest_end = max((span.end for ss in spans.values() for span in ss), default=0)
        if lengths is not None and name in lengths:
            length = lengths[name]
        else:
            length = largest_end
            if lengths is not None:
                fallback.append(name)
        items.append(Item(name, length, None if texts is None else texts.get(name), spans))
    if lengths is None:
        warnings.append("no lengths given: each item's length is taken as its largest span end, so "
                        "characters after the last span go uncounted in character-level α")
        source = "largest end"
    else:
        source = "texts" if texts else "lengths"
        if fallback:
            warnings.append(f"{len(fallback)} item(s) have no length and use their largest span end: "
                            + name_list(fallback))
        unused = [item for item in lengths if item not in raw]
        if unused:
            warnings.append(f"{len(unused)} item(s) have a length but no rows (nobody read them) "
                            "and are not scored: " + name_list(unused))
    warnings.extend(_input_warnings(items))
    return Items(items, warnings, source)


def _input_warnings(items):
    """Spans beyond their item, zero-length and duplicate spans, items with a single annotator."""
    beyond, zero, duplicates, single = [], [], [], []
    for item in items:
        for annotator, spans in item.spans.items():
            seen = {}
            for span in spans:
                if span.end > item.length:
                    beyond.append(span.line)
                if span.start == span.end:
                    zero.append(span.line)
                key = (span.start, span.end, span.label)
                if key in seen:
                    duplicates.append((span.line, seen[key]))
                else:
                    seen[key] = span.line
        if len(item.spans) < 2:
            single.append(item.name)
    warnings = []
    if beyond:
        warnings.append(f"{len(beyond)} span(s) end beyond their item's length (clipped for "
                        "character-level α, kept as given for F1): lines " + name_list(beyond))
    if zero:
        warnings.append(f"{len(zero)} zero-length span(s) (start = end): they mark no character, "
                        "lines " + name_list(zero))
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate span(s) repeating an earlier one of the same "
                        "annotator on the same item: lines "
                        + name_list([f"{line} (= {first})" for line, first in duplicates]))
    if single:
        warnings.append(f"{len(single)} item(s) with a single annotator are not scored: "
                        + name_list(single))
    return warnings


def content_order(scored):
    """The content ranks of scored items (``.item``, an :class:`Item`, and its scored ``.annotators``), the
    bootstrap's order: length, then the annotators' spans; the name only between equal contents."""
    return content_ranks([[[p[:3] for p in s.item.spans[a]] for a in s.annotators] for s in scored],
                         [s.item.name for s in scored], [s.item.length for s in scored])
