"""brat standoff writer: spans, one folder per annotator, each document an ``.ann`` beside its ``.txt``.

The layout :mod:`agreekit.formats.brat` reads (and bratiaa expects):
``<annotator>/<item>.ann`` with one text-bound line ``T<n><TAB><label>
<start> <end><TAB><text>`` per span (code-point offsets, the span's text with
its line breaks and tabs as spaces, as brat writes them), and
``<annotator>/<item>.txt``, the document's text; an ``.ann`` without lines is
an annotator who read the document and marked nothing.  ``annotation.conf``
at the top lists the labels as entity types, so brat shows them.  Items may
hold ``/`` (documents in folders).

Cannot carry (refused): spans without the document's text (give the option
``texts``, item → text: brat shows every annotation on its text), labels
with white space or none (a brat type is one word).  Always several files:
a zip.
"""
from __future__ import annotations

from ...arrays import name_list
from ...rows import InputError
from . import Writer, Written, register_writer
from .names import file_name, relative_path, single_words
from .records import grouped, is_empty, item_table

NAME = "brat"


def checked_texts(texts, records, format):
    """item → text from the option ``texts``, every span inside its text; else an error naming what is missing."""
    texts = item_table(texts, ("item", "text"), "texts") or {}
    missing = sorted({r.item for r in records} - set(texts))
    if missing:
        raise InputError(f"{format} needs the text of each document, which span rows do not carry: give them in "
                         f"the option texts (item → text); missing for {name_list(missing)}", column="texts",
                         value=missing[0])
    for record in (r for r in records if not is_empty(r)):
        if record.geometry["end"] > len(texts[record.item]):
            raise InputError(f"{record.annotator}'s span {record.geometry['start']}–{record.geometry['end']} on "
                             f"{record.item} ends past its text ({len(texts[record.item])} characters)",
                             line=record.line, column="end", value=record.geometry["end"])
    return texts


def _ann(records, text):
    lines = []
    for number, record in enumerate((r for r in records if not is_empty(r)), start=1):
        start, end = record.geometry["start"], record.geometry["end"]
        quoted = "".join(" " if c.isspace() else c for c in text[start:end])
        lines.append(f"T{number}\t{record.label} {start} {end}\t{quoted}\n")
    return "".join(lines).encode("utf-8")


def _conf(labels):
    return ("[entities]\n" + "".join(f"{label}\n" for label in labels)
            + "\n[relations]\n\n[events]\n\n[attributes]\n").encode("utf-8")


def write(kind, records, *, texts=None):
    """brat folders, one per annotator (see the module docstring)."""
    texts = checked_texts(texts, records, "brat")
    single_words({r.label for r in records if not is_empty(r)}, "label", "brat")
    files = [("annotation.conf", _conf(sorted({r.label for r in records if not is_empty(r)})))]
    for (item, annotator), mine in grouped(records, "item", "annotator").items():
        path = f"{file_name(annotator, 'annotator', 'brat')}/{relative_path(item, 'item', 'brat')}"
        files += [(f"{path}.ann", _ann(mine, texts[item])), (f"{path}.txt", texts[item].encode("utf-8"))]
    return Written(NAME, tuple(sorted(files)))


register_writer(Writer(name=NAME, title="brat standoff", kinds=("spans",), write=write, reader="brat", suffix=".zip"))
