"""The polygons kind's item view: each polygon's ``points`` as a flat ``x1 y1 x2 y2 …`` list."""
from __future__ import annotations

import numpy as np

from ...geometry import polygons as geo
from ...object_detail import ObjectSetup, object_detail
from ...reference.setup import drawn_with_reference
from ...registry import ItemDetail
from .compare import polygon_kind, polygon_objects
from .rows import parse_polygons


def polygon_setup(rows, threshold=0.5, match="optimal", distance="giou", reference_rows=None, **_):
    """The report's polygons as an :class:`~agreekit.object_detail.ObjectSetup` (gold rows drawn as the reference)."""
    records, parsed = parse_polygons(rows)
    records = drawn_with_reference(records, reference_rows, lambda gold: _gold(gold, parsed))
    objects, index, _warnings = polygon_objects(records, parsed, match)
    ordered = [parsed[int(k)] for k in index[:, 0]]
    item_of = np.repeat(np.arange(len(objects.item_ids)), np.diff(objects.offsets))
    kind = polygon_kind(geo.pack(ordered), distance, item_of)
    describe = lambda k: {"points": [float(v) for v in ordered[k].ravel()]}  # noqa: E731
    return ObjectSetup(objects, kind.similarity, describe, str, threshold, match, kind)


def _gold(rows, parsed):
    """Reference rows as records whose polygon indices continue ``parsed`` (which receives their polygons)."""
    records, polygons = parse_polygons(rows)
    offset = len(parsed)
    parsed.extend(polygons)
    return [r if r.geometry is None else r._replace(geometry=[r.geometry[0] + offset]) for r in records]


DETAIL = ItemDetail(setup=polygon_setup, detail=object_detail)
