"""The reference section of a kind's report, from the kind's parser and object builder.

A kind calls :func:`reference_records` on its parsed records before its
agreement report (the reference annotator leaves it), then :func:`reference_part`
for the section, its warnings and its settings.
"""
from __future__ import annotations

import math
from dataclasses import replace

from ..annotator_ranking import annotator_ranking
from ..arrays import name_list
from ..object_consensus import consensus_hook, leave_one_out
from .scores import reference_section
from .setup import choose


def reference_records(records, *, reference, reference_rows, parse, kind=None, rows=None, options=None,
                      consensus=None):
    """``(records of the agreement report, ReferenceRecords or None)`` for the report's options.

    ``kind``, ``rows`` and ``options`` (the kind's name, its input rows and the report options its
    consensus reads, such as ``threshold``) let ``reference="consensus"`` score each annotator against
    the consensus of the others (:func:`agreekit.object_consensus.leave_one_out_rows`, built once for
    all annotators) and rank them (:func:`agreekit.annotator_ranking.annotator_ranking`: the section's
    ``reliability`` column); ``consensus``, a callable ``name -> rows``, overrides it.
    """
    built, ranked = {}, consensus is None and reference == "consensus" and kind is not None
    if ranked:
        consensus = _leave_one_out(kind, rows, options or {}, built)
    chosen = choose(records, reference=reference, reference_rows=reference_rows, parse=parse, consensus=consensus)
    if chosen is not None and built.get("warnings"):
        chosen = replace(chosen, warnings=tuple(chosen.warnings) + tuple(built["warnings"]))
    if chosen is not None and ranked:  # the gold-free reliability column, from the same options
        used = {name: value for name, value in (options or {}).items() if name in consensus_hook(kind).options}
        chosen = replace(chosen, reliability={s.annotator: s.reliability
                                              for s in annotator_ranking(kind, rows, **used).scores})
    return (records, None) if chosen is None else (chosen.raters, chosen)


def _leave_one_out(kind, rows, options, built):
    """``name -> rows``: each annotator's leave-one-out consensus, computed on first use for everyone (into
    ``built``, with the consensus's warnings)."""
    hook = consensus_hook(kind)
    used = {name: value for name, value in options.items() if name in hook.options}

    def others(name):
        if not built:
            built["rows"], built["warnings"] = leave_one_out(kind, rows, **used)
        return list(built["rows"].get(name, ()))
    return others


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
        if chosen.reliability is not None:
            value = chosen.reliability.get(row["annotator"], math.nan)
            row["reliability"] = value if math.isfinite(value) else None
    section["n_items_without_reference"] = n_items
    settings = {"reference": chosen.annotator if chosen.source == "annotator" else chosen.source,
                "low_overlap": scoring["low_overlap"]}
    return section, [*chosen.warnings, *note], settings
