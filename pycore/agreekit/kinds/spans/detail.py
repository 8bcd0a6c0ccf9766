"""The spans kind's item view: each annotator's spans and the five-way outcome of each pair."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...errors import InputError
from ...measures.span_matching import OUTCOMES, Track, five_way
from ...reference.setup import gold_name
from ...registry import ItemDetail
from .rows import build_items, read_lengths, read_spans


class SpanSetup(NamedTuple):
    """A spans report's items by name and its matching mode."""

    items: dict   # name -> agreekit.kinds.spans.rows.Item
    match: str


def spans_setup(rows, lengths=None, match="optimal", reference_rows=None, **_):
    """The report's items (texts and lengths too) from its rows and ``lengths`` option; gold rows
    (``reference_rows``) drawn as the annotator ``⟨reference⟩``."""
    raw = read_spans(rows)
    if reference_rows is not None:
        for item, by_annotator in read_spans(reference_rows).items():
            raw.setdefault(item, {})[gold_name()] = [span for spans in by_annotator.values() for span in spans]
    length_map, texts = (None, None) if lengths is None else read_lengths(lengths)
    items, _warnings, _source = build_items(raw, length_map, texts)
    return SpanSetup({item.name: item for item in items}, match)


def span_detail(setup, name):
    """Item ``name``'s spans by annotator, and the five-way outcome of every annotator pair.

    Spans are in the order they are scored in (by start, end, label; row order with
    ``match="potato"``); ``matches`` are the matched pairs of the five-way table
    (:func:`agreekit.measures.span_matching.five_way`) with their outcome, ``missed`` per
    span the number of pairs in which it has no partner.
    """
    if name not in setup.items:
        raise InputError(f"no item {name!r} in the report's input")
    item = setup.items[name]
    annotators = item.annotators
    ordered = [item.spans[a] if setup.match == "potato" else sorted(item.spans[a], key=lambda p: (p.start, p.end, p.label))
               for a in annotators]
    label_ids = {label: k for k, label in enumerate(sorted({p.label for spans in ordered for p in spans}))}
    offsets = np.cumsum([0] + [len(spans) for spans in ordered]).tolist()
    shapes = [{"annotator": a, "line": p.line, "label": p.label, "geometry": {"start": p.start, "end": p.end}}
              for a, spans in zip(annotators, ordered) for p in spans]
    missed = [0] * len(shapes)
    matches = []
    for x in range(len(annotators)):
        for y in range(x + 1, len(annotators)):
            pair = five_way(Track.of(ordered[x], label_ids), Track.of(ordered[y], label_ids))
            matches += [{"a": offsets[x] + int(r), "b": offsets[y] + int(c), "outcome": OUTCOMES[int(o)]}
                        for r, c, o in zip(pair.rows, pair.cols, pair.outcome)]
            for k in pair.missed_a:
                missed[offsets[x] + int(k)] += 1
            for k in pair.missed_b:
                missed[offsets[y] + int(k)] += 1
    for shape, n in zip(shapes, missed):
        shape["n_missed"] = n
    return {"item": name, "annotators": annotators, "length": item.length, "text": item.text, "shapes": shapes,
            "matches": matches, "settings": {"match": setup.match}}


DETAIL = ItemDetail(setup=spans_setup, detail=span_detail)
