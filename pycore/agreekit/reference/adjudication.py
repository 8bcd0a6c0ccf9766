"""The adjudication list of a report: its reference section's conflicts as :class:`~agreekit.conflicts.ItemConflict`.

Each item row of the ``reference`` section (:mod:`.tables`) names the annotators
with a conflict on it and their counts of each conflict type (:mod:`.scores`:
missing, extra, low overlap, wrong label).  One record per (item, conflict
type): the annotators involved (and the reference: its annotator's name,
``reference`` for gold rows, ``consensus`` for a leave-one-out consensus), the
weight = the number of objects in that conflict (so an item with more
disagreeing objects comes first in :func:`agreekit.conflicts.adjudication_order`),
and a detail naming each annotator's count.  ``agreekit.adjudication_csv`` writes them.
"""
from __future__ import annotations

from ..conflicts import ItemConflict
from ..errors import InputError
from .scores import CONFLICTS

__all__ = ["reference_conflicts"]


def _reference_name(section):
    if section["source"] == "annotator":
        return section["annotator"]
    return "consensus" if section["source"] == "per annotator" else "reference"


def reference_conflicts(report):
    """The conflicts of a report's ``reference`` section, one :class:`ItemConflict` per (item, conflict type).

    Parameters
    ----------
    report : dict or report object
        A report with a reference (``reference=`` given), or its ``to_dict()``.

    Returns
    -------
    list of ItemConflict
        In the section's item order; :func:`agreekit.conflicts.adjudication_order` sorts them for a reviewer.
    """
    data = report.to_dict() if hasattr(report, "to_dict") else report
    section = data.get("reference") if isinstance(data, dict) else None
    if not section:
        raise InputError("the adjudication list needs a report with a reference (give reference=NAME, a file of "
                         "reference rows or consensus)", column="reference")
    reference = _reference_name(section)
    out = []
    for item in section["items"]:
        for conflict in CONFLICTS:
            involved = [(row["annotator"], row[conflict]) for row in item["annotator_conflicts"] if row[conflict]]
            if not involved:
                continue
            detail = ", ".join(f"{name}: {count}" for name, count in involved) + f" (against {reference})"
            out.append(ItemConflict(item["item"], conflict.replace("_", " "),
                                    annotators=(reference, *(name for name, _ in involved)),
                                    weight=float(sum(count for _, count in involved)), detail=detail))
    return out

