"""RTTM writer: segments as SPEAKER turns, one file per annotator.

``<annotator>.rttm`` holds ``SPEAKER <item> 1 <start> <duration> <NA> <NA>
<label> <NA> <NA>`` per segment, sorted, which :mod:`agreekit.formats.rttm`
reads back by default (the file names the annotator, the ``file`` field the
item).

Cannot carry: "listened and heard no speech".  An annotator's saw-nothing row
is left out (said in the notes); when every annotator went through every
item, reading back with the option ``recordings`` (listed in the notes)
restores them.  RTTM fields are separated by white space, so items and labels
must be single words and every segment needs a label (refused otherwise).
Several annotators make several files: a zip.
"""
from __future__ import annotations

from ...arrays import name_list
from . import Writer, Written, register_writer
from .names import file_name, single_words
from .records import grouped, is_empty, number_text

NAME = "rttm"


def _turn(record):
    g = record.geometry
    return (f"SPEAKER {record.item} 1 {number_text(g['start'])} {number_text(g['end'] - g['start'])} "
            f"<NA> <NA> {record.label} <NA> <NA>")


def write(kind, records):
    """One RTTM file per annotator (see the module docstring)."""
    drawn = [r for r in records if not is_empty(r)]
    single_words({r.item for r in records}, "item", "RTTM")
    single_words({r.label for r in drawn}, "label", "RTTM")
    by_annotator = grouped(drawn, "annotator")
    annotators = sorted({r.annotator for r in records})
    files = []
    for annotator in annotators:
        lines = [_turn(r) for r in by_annotator.get(annotator, [])]
        text = "".join(line + "\n" for line in lines)
        files.append((f"{file_name(annotator, 'annotator', 'RTTM')}.rttm", text.encode("utf-8")))
    notes, options = [], {}
    empty = sorted({f"{r.annotator} on {r.item}" for r in records if is_empty(r)})
    if empty:
        notes.append(f"RTTM cannot say 'heard it, no speech': {len(empty)} saw-nothing row(s) are not written "
                     f"({name_list(empty)})")
        items = sorted({r.item for r in records})
        seen = {(r.item, r.annotator) for r in records}
        if len(seen) == len(items) * len(annotators):  # everyone went through everything: the option restores it
            options["recordings"] = items
            notes.append("every annotator went through every item: read the files back with the option "
                         f"recordings={items!r} to restore them")
    return Written(NAME, tuple(files), tuple(notes), options)


register_writer(Writer(name=NAME, title="RTTM", kinds=("segments",), write=write, reader="rttm", suffix=".rttm"))
