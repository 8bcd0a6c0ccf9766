"""The cuboids kind's item view: each cuboid's centre, size, quaternion and yaw."""
from __future__ import annotations

import math

from ...object_detail import ObjectSetup, object_detail
from ...object_sets import canonical_order, label_rules
from ...reference.setup import drawn_with_reference
from ...registry import ItemDetail
from .compare import cuboid_kind, cuboid_objects
from .rows import parse_cuboids


def yaw_of(quaternion):
    """The rotation about z (radians, in (−π, π]) of a unit quaternion ``(qx, qy, qz, qw)``."""
    qx, qy, qz, qw = quaternion
    return math.atan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))


def cuboid_setup(rows, threshold=0.25, match="optimal", reference_rows=None, **_):
    """The report's cuboids as an :class:`~agreekit.object_detail.ObjectSetup` (gold rows drawn as the reference)."""
    potato = match == "potato"
    records, _warnings = parse_cuboids(rows, keep_none_labels=potato)
    records = drawn_with_reference(records, reference_rows,
                                   lambda gold: parse_cuboids(gold, keep_none_labels=potato)[0])
    objects, array, _more = cuboid_objects(records, order=None if potato else canonical_order)
    kind = cuboid_kind(array)

    def describe(k):
        values = [float(v) for v in array[k]]
        return {**dict(zip(("cx", "cy", "cz", "sx", "sy", "sz", "qx", "qy", "qz", "qw"), values)),
                "yaw": yaw_of(values[6:])}
    return ObjectSetup(objects, kind.similarity, describe, label_rules(potato)[0], threshold, match, kind)


DETAIL = ItemDetail(setup=cuboid_setup, detail=object_detail)
