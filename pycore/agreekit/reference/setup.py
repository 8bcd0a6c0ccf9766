"""Which records are the reference, and which are scored against it.

Three sources (``docs/reference.md``):

* ``reference="<name>"``: one annotator of the rows (the expert).  Its records
  become the reference and it leaves the agreement tables.
* ``reference_rows=...``: gold rows of the same columns, read by the kind's own
  parser; their annotator column is not used.
* a reference per annotator (:func:`per_annotator`): ``gold_rows_for(name)``
  gives the rows annotator ``name`` is scored against.  A leave-one-out
  consensus is ``gold_rows_for = lambda a: consensus_rows(kind, rows,
  exclude_annotator=a)``: no annotator is scored against a reference it helped
  to make.

Every reference's records are renamed to a reserved annotator name
(:func:`gold_name`), so one object set holds the annotators and their
references, and the engine (:mod:`.scores`) pairs each annotator with its own.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..arrays import name_list
from ..errors import InputError

GOLD = "\u27e8reference\u27e9"   # ⟨reference⟩: no row can carry it (it is refused below)
SOURCES = ("annotator", "rows", "per annotator")


def gold_name(annotator=None):
    """The reserved name of the reference records (of ``annotator``'s own reference when given)."""
    return GOLD if annotator is None else f"{GOLD}{annotator}"


@dataclass(frozen=True)
class ReferenceRecords:
    """The records scored, the reference records, and who is scored against which reference.

    ``gold_of`` maps each scored annotator to the reserved name of its
    reference; ``source`` is one of :data:`SOURCES`; ``annotator`` the expert's
    name (source ``annotator``), else None; ``n_gold_items_unused``: items of
    the reference that no scored annotator has a row for (counted, not scored);
    ``reliability``: with a leave-one-out consensus, each annotator's gold-free
    reliability (:func:`agreekit.annotator_ranking.annotator_ranking`), else None.
    """

    raters: list
    gold: list
    gold_of: dict
    source: str
    annotator: object
    warnings: tuple
    n_gold_items_unused: int
    reliability: object = None


def _renamed(records, name):
    return [r._replace(annotator=name) for r in records]


def _refuse_reserved(records, where):
    reserved = [r for r in records if r.annotator.startswith(GOLD)]
    if reserved:
        raise InputError(f"the annotator name {reserved[0].annotator!r} is reserved for the reference{where}",
                         line=reserved[0].line, column="annotator", value=reserved[0].annotator)


def _unused(raters, gold):
    """Items of the reference no scored annotator has a row for, and the warning that names them."""
    seen = {r.item for r in raters}
    unused = sorted({r.item for r in gold} - seen)
    if not unused:
        return 0, []
    return len(unused), [f"{len(unused)} item(s) of the reference have no row of any annotator scored against it "
                         f"and are not scored: {name_list(unused)}"]


def from_annotator(records, name):
    """The expert ``name`` of the rows as the reference; an unknown name lists the annotators."""
    _refuse_reserved(records, "")
    names = sorted({r.annotator for r in records})
    if name not in names:
        raise InputError(f"reference {name!r} is not an annotator of the rows; the annotators are "
                         + name_list(names, limit=30), column="reference", value=name)
    raters = [r for r in records if r.annotator != name]
    gold = _renamed([r for r in records if r.annotator == name], gold_name())
    n_unused, notes = _unused(raters, gold)
    note = (f"reference: annotator {name!r}; it is scored as the reference and left out of the agreement "
            "measures, which compare the other annotators")
    return ReferenceRecords(raters, gold, {a: gold_name() for a in {r.annotator for r in raters}}, "annotator",
                            name, (note, *notes), n_unused)


def from_rows(records, gold_records):
    """Gold records (already parsed) as the reference of every annotator of ``records``."""
    _refuse_reserved(records, "")
    if not gold_records:
        raise InputError("the reference rows are empty", column="reference_rows")
    gold = _renamed(gold_records, gold_name())
    n_unused, notes = _unused(records, gold)
    sources = sorted({r.annotator for r in gold_records})
    note = "reference: the given reference rows" + (f" (annotator column: {name_list(sources)})"
                                                      if len(sources) > 1 else "")
    return ReferenceRecords(list(records), gold, {a: gold_name() for a in {r.annotator for r in records}}, "rows",
                            None, (note, *notes), n_unused)


def per_annotator(records, gold_records_for, what="a reference built for each annotator"):
    """Each annotator scored against its own reference: ``gold_records_for(name)`` → parsed records.

    The seam of a leave-one-out consensus (the module docstring).  An annotator
    whose reference is empty is scored against nothing (every object extra).
    """
    _refuse_reserved(records, "")
    names = sorted({r.annotator for r in records})
    gold, gold_of = [], {}
    for name in names:
        gold_of[name] = gold_name(name)
        gold += _renamed(gold_records_for(name), gold_of[name])
    seen = {r.item for r in records}
    unused = sorted({r.item for r in gold} - seen)
    notes = [f"reference: {what}"]
    if unused:
        notes.append(f"{len(unused)} item(s) of the references have no row of any annotator and are not scored: "
                     + name_list(unused))
    return ReferenceRecords(list(records), gold, gold_of, "per annotator", None, tuple(notes), len(unused))


def choose(records, *, reference=None, reference_rows=None, parse, consensus=None):
    """The :class:`ReferenceRecords` the options ask for, or None without a reference.

    ``parse(rows)`` reads reference rows into records (the kind's parser);
    ``consensus`` (optional) is ``gold_rows_for(name)`` for ``reference="consensus"``.
    """
    if reference is None and reference_rows is None:
        return None
    if reference is not None and reference_rows is not None:
        raise InputError("give either reference (an annotator's name) or reference_rows (gold rows), not both",
                         column="reference", value=reference)
    if reference_rows is not None:
        return from_rows(records, _parsed(parse, reference_rows))
    if reference == "consensus":
        if consensus is None:
            raise InputError("reference=consensus is not available for this kind yet: name an annotator or "
                             "give reference rows", column="reference", value=reference)
        return per_annotator(records, lambda name: _parsed(parse, consensus(name), empty_ok=True),
                             "each annotator's leave-one-out consensus of the others")
    return from_annotator(records, reference.strip())


def _parsed(parse, rows, empty_ok=False):
    """Reference rows read by the kind's parser; an error names the reference rows."""
    if empty_ok and not rows:
        return []
    try:
        return parse(rows)
    except InputError as error:
        raise InputError(f"in the reference rows: {error.message}", line=error.line, column=error.column,
                         value=error.value, field="reference_rows") from None


def drawn_with_reference(records, reference_rows, parse):
    """``records`` and, when ``reference_rows`` are given, the reference's records under the reserved
    name (:func:`gold_name`): what an item view draws, the reference beside the annotators."""
    if reference_rows is None:
        return records
    return list(records) + _renamed(_parsed(parse, reference_rows), gold_name())
