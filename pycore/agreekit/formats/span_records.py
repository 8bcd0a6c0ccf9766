"""What the span importers share: JSON Lines records, span offsets checked against the text, one submission per pair.

Offsets are half-open code-point offsets ``[start, end)`` into the item's text
(Python's ``text[start:end]``), which is what Prodigy, doccano (by default),
brat and Potato write.  A span's exported text, where the format keeps one, is
compared with the text the offsets cut out, so an export whose offsets count
something else (UTF-16 code units, bytes, grapheme clusters) is caught with the
span named instead of read wrong.

An annotator may submit one item twice (a Prodigy dataset after a second
session, a doccano file with a repeated line): :func:`keep_latest` keeps the
latest submission of each (item, annotator) pair, records the others as
skipped and says so in a warning.
"""
from __future__ import annotations

from typing import NamedTuple

from ..arrays import name_list
from ..registry import KINDS
from ..rows import InputError
from .base import Skipped, load_json, text_lines

FIRST_LINE_BYTES = 64 * 1024 * 1024  # detection reads at most this much of a file's first line
SUPERSEDED = "superseded by a later submission of the same annotator"


def first_line(source):
    """The first non-blank line of ``source`` as text (for detection; undecodable bytes replaced)."""
    data = source.data[:FIRST_LINE_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n")
    end = data.find(b"\n")
    return data[:end if end >= 0 else len(data)].decode("utf-8", errors="replace").strip()


def first_record(source):
    """The first JSON Lines record of ``source`` as a dict, or None when its first line is not a JSON object."""
    line = first_line(source)
    try:
        record = load_json(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def jsonl_records(source):
    """``(line number, record)`` for every non-blank line of a JSON Lines source.

    Raises
    ------
    agreekit.rows.InputError
        Naming the file and the line: a line that is not JSON, or not a JSON object.
    """
    out = []
    for number, line in enumerate(text_lines(source.text()), start=1):
        if not line.strip():
            continue
        try:
            record = load_json(line)
        except ValueError as error:
            raise InputError(f"{source.name} line {number}: not JSON ({error.args[0]})", line=number) from None
        if not isinstance(record, dict):
            raise InputError(f"{source.name} line {number}: expected a JSON object, got {type(record).__name__}",
                             line=number)
        out.append((number, record))
    return out


def _offset(value, where, field):
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise InputError(f"{where}: '{field}' must be a whole number of characters, got {value!r}",
                         column=field, value=value)
    if value < 0:
        raise InputError(f"{where}: '{field}' {value} is negative", column=field, value=value)
    return value


def _utf16_slice(text, start, end):
    """``text[start:end]`` if the offsets counted UTF-16 code units (Java, JavaScript), for the error's hint."""
    units = text.encode("utf-16-le")
    return units[2 * start:2 * end].decode("utf-16-le", errors="replace")


def checked_offsets(start, end, text, where, quoted=None):
    """``(start, end)`` as ints after checking them against the item's text.

    Parameters
    ----------
    start, end : int
        Half-open code-point offsets.
    text : str or None
        The item's text; None when the export does not carry it (only the
        offsets' own consistency is checked then).
    where : str
        The file and record, for the error (``"alice.jsonl line 3, span 2"``).
    quoted : str, optional
        The span's text as the export wrote it; compared with ``text[start:end]``
        after mapping every white-space character to a space (brat writes line
        breaks inside a span as spaces).

    Raises
    ------
    agreekit.rows.InputError
        A negative or non-integer offset, ``end`` before ``start``, ``end`` past
        the text, or offsets that do not cut out the quoted text (with a hint
        when they would as UTF-16 code units).
    """
    start, end = _offset(start, where, "start"), _offset(end, where, "end")
    if quoted is not None and not isinstance(quoted, str):
        raise InputError(f"{where}: the span's 'text' must be a text, not {quoted!r}", column="text", value=quoted)
    if end < start:
        raise InputError(f"{where}: end {end} is before start {start}", column="end", value=end)
    if text is None:
        return start, end
    if end > len(text):
        raise InputError(f"{where}: end {end} is past the end of the text ({len(text)} characters)",
                         column="end", value=end)
    if quoted is not None and same_text_key(text[start:end]) != same_text_key(quoted):
        hint = ""
        if same_text_key(_utf16_slice(text, start, end)) == same_text_key(quoted):
            hint = " (the offsets look like UTF-16 code units, not characters)"
        elif "\r\n" in text:
            hint = " (the text has CRLF line breaks: were the offsets counted with LF breaks?)"
        raise InputError(f"{where}: the offsets {start}–{end} cut out {text[start:end]!r} but the span's text is "
                         f"{quoted!r}{hint}", column="start", value=start)
    return start, end


def same_text_key(text):
    """``text`` with every white-space character a space: what two renderings of one span text share."""
    return "".join(" " if c.isspace() else c for c in text)


def span_row(item, annotator, start, end, label):
    """A span row as :func:`agreekit.spans` takes it."""
    return {"item": item, "annotator": annotator, "start": start, "end": end, "label": label}


def saw_nothing(item, annotator, kind="spans"):
    """The row of an annotator who saw ``item`` and marked nothing: every column of ``kind``, all but two blank.

    The kinds read rows of dicts by their columns, so the blank ones are there, as None.
    """
    return {**dict.fromkeys(KINDS[kind].columns), "item": item, "annotator": annotator}


class Submission(NamedTuple):
    """One annotator's answer for one item: its rows (None when it is left out) and where it came from."""

    item: str
    annotator: str
    order: tuple          # later sorts higher: (timestamp, position) or (position,)
    source: str
    where: str
    rows: list | None     # None: the answer is left out (see ``reason``)
    reason: str | None = None


class Kept(NamedTuple):
    """The latest submission of every (item, annotator) pair, and what was left out."""

    submissions: list     # in order of the pair's first submission
    skipped: list         # Skipped, one per superseded submission
    warnings: list


def keep_latest(submissions):
    """Keep the latest :class:`Submission` of each (item, annotator) pair.

    Returns
    -------
    Kept
        The kept submissions, a :class:`~agreekit.formats.base.Skipped` record
        for each superseded one, and a warning naming the repeated pairs.
    """
    latest, skipped, repeated = {}, [], []
    for submission in submissions:
        key = (submission.item, submission.annotator)
        kept = latest.get(key)
        if kept is None:
            latest[key] = submission
            continue
        label = f"{submission.annotator} on {submission.item}"
        if label not in repeated:
            repeated.append(label)
        older, latest[key] = (submission, kept) if submission.order < kept.order else (kept, submission)
        skipped.append(Skipped(older.source, older.where, SUPERSEDED))
    warnings = []
    if repeated:
        warnings.append(f"{len(skipped)} submission(s) repeat an annotator's answer for an item; the latest of "
                        f"each is kept: {name_list(repeated)}")
    return Kept(list(latest.values()), skipped, warnings)


def kept_rows(kept, skipped):
    """The rows of the kept submissions; one without rows (never seen) is added to ``skipped`` with its reason."""
    rows = []
    for submission in kept.submissions:
        if submission.rows is None:
            skipped.append(Skipped(submission.source, submission.where, submission.reason))
        else:
            rows += submission.rows
    return rows


def used_texts(texts, rows):
    """The texts of the items that have rows (item → text), or None when there are none."""
    items = {row["item"] for row in rows}
    kept = {item: text for item, text in texts.items() if item in items}
    return kept or None
