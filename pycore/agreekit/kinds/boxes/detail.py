"""The boxes kind's item view: each box as ``x y w h`` (top-left form), with the engine's matches."""
from __future__ import annotations

from ...object_detail import ObjectSetup, object_detail
from ...object_sets import canonical_order, label_rules
from ...reference.setup import drawn_with_reference
from ...registry import ItemDetail
from .compare import box_kind
from .rows import box_objects, parse_boxes


def box_setup(rows, threshold=0.5, match="optimal", distance="giou", reference_rows=None, **_):
    """The report's boxes as an :class:`~agreekit.object_detail.ObjectSetup` (gold rows drawn as the reference)."""
    potato = match == "potato"
    records, _warnings = parse_boxes(rows, keep_none_labels=potato)
    records = drawn_with_reference(records, reference_rows, lambda gold: parse_boxes(gold, keep_none_labels=potato)[0])
    objects, array, _more = box_objects(records, order=None if potato else canonical_order)
    kind = box_kind(array, distance, potato)
    describe = lambda k: dict(zip(("x", "y", "w", "h"), map(float, array[k])))  # noqa: E731
    return ObjectSetup(objects, kind.similarity, describe, label_rules(potato)[0], threshold, match, kind)


DETAIL = ItemDetail(setup=box_setup, detail=object_detail)
