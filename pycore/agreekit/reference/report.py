"""The reference section of a kind's report, from the kind's parser and object builder.

A kind calls :func:`reference_records` on its parsed records before its
agreement report (the reference annotator leaves it), then :func:`reference_part`
for the section, its warnings and its settings.
"""
from __future__ import annotations

from ..arrays import name_list
from .scores import reference_section
from .setup import choose


# The consensus builder, ``consensus_rows(kind, rows, *, exclude_annotator, quorum=None) -> rows``, once it
# exists: ``reference="consensus"`` then scores each annotator against the consensus of the others.
CONSENSUS_ROWS = None


def reference_records(records, *, reference, reference_rows, parse, kind=None, rows=None, consensus=None):
    """``(records of the agreement report, ReferenceRecords or None)`` for the report's options.

    ``kind`` and ``rows`` (the kind's name and its input rows) let ``reference="consensus"`` build each
    annotator's leave-one-out reference with :data:`CONSENSUS_ROWS`; ``consensus``, a callable
    ``name -> rows``, overrides it.
    """
    if consensus is None and CONSENSUS_ROWS is not None and kind is not None:
        consensus = lambda name: CONSENSUS_ROWS(kind, rows, exclude_annotator=name)  # noqa: E731
    chosen = choose(records, reference=reference, reference_rows=reference_rows, parse=parse, consensus=consensus)
    return (records, None) if chosen is None else (chosen.raters, chosen)


def _without_reference(chosen):
    """Items of each annotator that its reference has no row for: ``{name: count}``, the distinct items, a warning."""
    gold_items = {}
    for r in chosen.gold:
        gold_items.setdefault(r.annotator, set()).add(r.item)
    missing, items = {}, set()
    for r in chosen.raters:
        if r.item not in gold_items.get(chosen.gold_of[r.annotator], ()):
            missing.setdefault(r.annotator, set()).add(r.item)
            items.add(r.item)
    note = ([f"{len(items)} item(s) have rows but no reference row and are not scored against the reference: "
             + name_list(sorted(items))] if items else [])
    return {a: len(v) for a, v in missing.items()}, len(items), note


def reference_part(chosen, build, **scoring):
    """``(section, warnings, settings)`` of the reference; ``build(records)`` → ``(objects, ObjectKind)``.

    ``scoring``: the keyword arguments of :func:`.scores.reference_section`.
    """
    objects, kind = build(chosen.raters + chosen.gold)
    section = reference_section(objects, kind, chosen, **scoring)
    missing, n_items, note = _without_reference(chosen)
    for row in section["annotators"]:
        row["n_items_without_reference"] = missing.get(row["annotator"], 0)
    section["n_items_without_reference"] = n_items
    settings = {"reference": chosen.annotator if chosen.source == "annotator" else chosen.source,
                "low_overlap": scoring["low_overlap"]}
    return section, [*chosen.warnings, *note], settings
