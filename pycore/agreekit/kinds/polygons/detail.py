"""The polygons kind's item view: each polygon's ``points`` as a flat ``x1 y1 x2 y2 …`` list."""
from __future__ import annotations

import numpy as np

from ...geometry import polygons as geo
from ...object_detail import ObjectSetup, object_detail
from ...registry import ItemDetail
from .compare import polygon_kind, polygon_objects
from .rows import parse_polygons


def polygon_setup(rows, threshold=0.5, match="optimal", distance="giou", **_):
    """The report's polygons as an :class:`~agreekit.object_detail.ObjectSetup`."""
    records, parsed = parse_polygons(rows)
    objects, index, _warnings = polygon_objects(records, parsed, match)
    ordered = [parsed[int(k)] for k in index[:, 0]]
    item_of = np.repeat(np.arange(len(objects.item_ids)), np.diff(objects.offsets))
    kind = polygon_kind(geo.pack(ordered), distance, item_of)
    describe = lambda k: {"points": [float(v) for v in ordered[k].ravel()]}  # noqa: E731
    return ObjectSetup(objects, kind.similarity, describe, str, threshold, match, kind)


DETAIL = ItemDetail(setup=polygon_setup, detail=object_detail)
