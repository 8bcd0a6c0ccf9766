"""Conflicts: the disagreements on one item that a person should look at, and the order to look at them in.

A reference or consensus comparison (or any other check) reports each
disagreement as an :class:`ItemConflict`: the item, the kind of conflict
(CVAT's quality report names them *missing*, *extra*, *low overlap* and
*wrong label*; spans add their own outcomes), the annotators involved, and a
weight saying how much it needs a human (1 by default; a caller may weigh a
low overlap by 1 − IoU, say).  :func:`adjudication_order` sorts them for a
reviewer: the items that need a human most first.  This module names no kind
and computes nothing from geometry; it is the record the comparisons and the
adjudication list (:mod:`agreekit.formats.writers.adjudication`) share.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import InputError

__all__ = ["ItemConflict", "adjudication_order", "item_needs"]


@dataclass(frozen=True)
class ItemConflict:
    """One disagreement on one item.

    Attributes
    ----------
    item : str
    conflict : str
        What kind of disagreement: "missing", "extra", "low overlap", "wrong label", …
    annotators : tuple of str
        The annotators involved (a reference or "consensus" among them, when one is).
    weight : float
        How much the conflict needs a human, ≥ 0 (1 for a plain count).
    detail : str
        What a reviewer should know: the labels, the overlap, the objects.
    """

    item: str
    conflict: str
    annotators: tuple = ()
    weight: float = 1.0
    detail: str = ""

    def __post_init__(self):
        if not isinstance(self.weight, (int, float)) or isinstance(self.weight, bool) \
                or not math.isfinite(self.weight) or self.weight < 0:
            raise InputError(f"conflict on {self.item}: weight must be a number ≥ 0, not {self.weight!r}",
                             column="weight", value=self.weight)
        object.__setattr__(self, "annotators", tuple(sorted(str(a) for a in self.annotators)))


def item_needs(conflicts):
    """item → ``(total weight, number of conflicts)``: how much each item needs a human."""
    needs = {}
    for conflict in conflicts:
        weight, count = needs.get(conflict.item, (0.0, 0))
        needs[conflict.item] = (weight + conflict.weight, count + 1)
    return needs


def adjudication_order(conflicts):
    """The conflicts sorted for a reviewer.

    Items by their total weight, then by their number of conflicts (both
    descending), then by name; within an item, the heaviest conflict first,
    then by conflict, annotators and detail.  The order depends on the
    conflicts alone, never on the order they came in.
    """
    needs = item_needs(conflicts)
    return sorted(conflicts, key=lambda c: (-needs[c.item][0], -needs[c.item][1], c.item, -c.weight, c.conflict,
                                            c.annotators, c.detail))
