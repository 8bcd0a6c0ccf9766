"""brat standoff: one folder per annotator, each document a ``<doc>.ann`` beside its ``<doc>.txt``.

The layout is the one bratiaa expects: the annotators' folders side by side,
holding the same relative paths (``alice/doc-1.ann``, ``bob/doc-1.ann``).

* Item: the document's path inside the annotator's folder, without extension
  (``doc-1``, ``news/doc-1``); its ``.txt`` gives the item's text (``lengths``;
  every annotator's copy must be the same text).
* Annotator: the folder (the first level below the folder they share).
* Spans: text-bound lines ``T1<TAB>PER 0 5<TAB>Alice``, offsets in code points
  into the ``.txt``, checked against the line's text.  A discontinuous span
  (``0 5;7 9``) becomes one span per fragment, with a warning (agreekit has no
  multi-fragment spans).  Relations, events, attributes, normalizations and
  notes (``R``, ``E``, ``A``/``M``, ``N``, ``#``, ``*``) are skipped, each with
  its reason.
* Saw nothing: an ``.ann`` with no text-bound line.  Never saw: no ``.ann``
  (a ``.txt`` alone counts as never seen, with a warning).
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import NamedTuple

from ..arrays import name_list
from ..rows import InputError
from .base import Conversion, Reader, Skipped, register_format, text_lines
from .span_records import checked_offsets, same_text_key, saw_nothing, span_row, used_texts

NAME = "brat"
ANN_LINE = re.compile(r"^(?:[TREAMN]\d+|#\d*|\*)\t")
FRAGMENT = re.compile(r"^\s*(\d+)\s+(\d+)\s*$")
SKIPPED_LINES = {"R": "relation", "E": "event", "A": "attribute", "M": "attribute", "N": "normalization",
                 "#": "note", "*": "equivalence"}
COMPANION_SUFFIXES = (".txt", ".conf")


class Document(NamedTuple):
    """One file of the layout: whose it is and which document."""

    annotator: str
    item: str
    source: object


def detect(source):
    """None for a brat ``.ann`` file, else why not."""
    if not source.name.lower().endswith(".ann"):
        return "not a .ann file"
    first = next((line for line in source.head().splitlines() if line.strip()), None)
    if first is not None and not ANN_LINE.match(first):
        return "its first line is not a brat annotation (T1<TAB>…)"
    return None


def companion(source):
    """True for the files brat keeps beside its ``.ann`` files: the texts and the configuration."""
    return source.name.lower().endswith(COMPANION_SUFFIXES)


def _parts(source):
    return PurePosixPath(source.name.replace("\\", "/")).parts


def _root_depth(annotations):
    """How many leading folders the annotators' folders share (the annotator is the next one)."""
    folders = [_parts(source)[:-1] for source in annotations]
    depth = 0
    while all(len(f) > depth for f in folders) and len({f[depth] for f in folders}) == 1:
        depth += 1
    if any(len(f) == depth for f in folders):  # a file right in the shared folder: that folder is its annotator
        depth -= 1
    if depth < 0:
        raise InputError(f"{annotations[0].name}: brat files need one folder per annotator; pass the folder that "
                         "holds the annotators' folders (alice/, bob/) rather than the files themselves")
    return depth


def _layout(sources):
    """The ``.ann`` and ``.txt`` documents by (annotator, item), and the files that fit neither."""
    annotations = [s for s in sources if s.name.lower().endswith(".ann")]
    depth = _root_depth(annotations)
    anns, txts, other = {}, {}, []
    for source in sources:
        parts, suffix = _parts(source), PurePosixPath(source.name).suffix.lower()
        if suffix not in (".ann", ".txt") or len(parts) < depth + 2:
            other.append(source.name)
            continue
        item = str(PurePosixPath(*parts[depth + 1:]).with_suffix(""))
        document = Document(parts[depth], item, source)
        (anns if suffix == ".ann" else txts)[(document.annotator, item)] = document
    return anns, txts, other


def _item_texts(anns, txts):
    """item → text from the ``.txt`` files beside the ``.ann`` files (every annotator's copy the same)."""
    texts, first = {}, {}
    for key, document in txts.items():
        if key not in anns:
            continue
        text = document.source.text()
        if texts.setdefault(document.item, text) != text:
            raise InputError(f"{document.source.name} differs from {first[document.item]}: the annotators must "
                             "annotate the same text")
        first.setdefault(document.item, document.source.name)
    return texts


def _fragments(field, where):
    """``[(start, end), …]`` of a text-bound line's offsets field (``0 5`` or ``0 5;7 9``)."""
    out = []
    for fragment in field.split(";"):
        match = FRAGMENT.match(fragment)
        if match is None:
            raise InputError(f"{where}: offsets {field!r} are not 'start end' pairs separated by ';'")
        out.append((int(match.group(1)), int(match.group(2))))
    return out


def _span_rows(document, text, line, where):
    """The rows of one text-bound line (one per fragment), checked against the text."""
    fields = line.split("\t")
    label, _, offsets = fields[1].partition(" ") if len(fields) >= 2 else ("", "", "")
    if len(fields) < 3 or not label or not offsets:
        raise InputError(f"{where}: a text-bound line is 'T<n><TAB><label> <start> <end><TAB><text>'")
    fragments = _fragments(offsets, where)
    quoted = fields[2]
    if len(fragments) == 1:
        fragments = [checked_offsets(*fragments[0], text, where, quoted=quoted)]
    else:
        fragments = [checked_offsets(s, e, text, f"{where}, fragment {k}") for k, (s, e) in enumerate(fragments, 1)]
        joined = None if text is None else " ".join(text[s:e] for s, e in fragments)
        if joined is not None and same_text_key(joined) != same_text_key(quoted):
            raise InputError(f"{where}: the fragments cut out {joined!r} but the line's text is {quoted!r}")
    return [span_row(document.item, document.annotator, s, e, label) for s, e in fragments]


def _document_rows(document, text, skipped):
    """The rows of one ``.ann`` file and how many discontinuous spans it split."""
    rows, split = [], 0
    for number, line in enumerate(text_lines(document.source.text()), start=1):
        if not line.strip():
            continue
        where = f"{document.source.name} line {number}"
        if line.startswith("T"):
            spans = _span_rows(document, text, line, where)
            split += len(spans) > 1
            rows += spans
            continue
        kind = SKIPPED_LINES.get(line[:1])
        if kind is None:
            raise InputError(f"{where}: not a brat annotation line ({line[:40]!r})")
        skipped.append(Skipped(document.source.name, where, f"{kind}: agreekit compares spans only"))
    return (rows or [saw_nothing(document.item, document.annotator)]), split


def read(sources, kind=None):
    """Span rows from brat standoff folders, one per annotator.

    Parameters
    ----------
    sources : list of Source
        The files under the folder holding the annotators' folders (a zip of it
        works too); ``.conf`` and other files are ignored with a warning.
    kind : str, optional
        ``spans`` (the only kind).

    Returns
    -------
    Conversion
        With the ``.txt`` texts as ``lengths``.
    """
    anns, txts, other = _layout(sources)
    texts = _item_texts(anns, txts)
    rows, skipped, split = [], [], 0
    for key in sorted(anns):
        document_rows, n_split = _document_rows(anns[key], texts.get(key[1]), skipped)
        rows += document_rows
        split += n_split
    warnings = [f"annotators are the folders {name_list(sorted({a for a, _ in anns}))}"]
    if split:
        warnings.append(f"{split} discontinuous span(s) were split into one span per fragment (agreekit has no "
                        "multi-fragment spans)")
    untexted = sorted(document.source.name for key, document in anns.items() if key not in txts)
    if untexted:
        warnings.append(f"{len(untexted)} .ann file(s) have no .txt beside them: their offsets are not checked and "
                        f"their texts are unknown ({name_list(untexted)})")
    unannotated = sorted(document.source.name for key, document in txts.items() if key not in anns)
    if unannotated:
        warnings.append(f"{len(unannotated)} .txt file(s) have no .ann beside them: counted as never seen by that "
                        f"annotator ({name_list(unannotated)})")
    if other:
        warnings.append(f"ignored {len(other)} other file(s): {name_list(other)}")
    return Conversion(NAME, "spans", rows, lengths=used_texts(texts, rows), warnings=warnings, skipped=skipped)


register_format(Reader(name=NAME, title="brat standoff", kinds=("spans",), detect=detect, read=read, position=60,
                       companion=companion))
