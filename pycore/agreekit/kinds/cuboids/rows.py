"""Cuboid rows: reading and checking centre, size and rotation (quaternion or yaw).

Rows ``item, annotator, cx, cy, cz, sx, sy, sz, qx, qy, qz, qw, label``: centre,
full extents along the cuboid's own axes and its rotation as a quaternion in
(x, y, z, w) order (normalized on read), or ``yaw`` (radians about z) instead of
the quaternion. A row with item and annotator and all geometry empty means the
annotator saw the item and drew nothing; an annotator with no row for an item
never saw it.
"""
from __future__ import annotations

import numpy as np

from ...geometry.cuboids import normalize_quaternion, yaw_quaternion
from ...object_sets import Annotation
from ...rows import ANNOTATOR_SYNONYMS, InputError, RowErrors, is_blank, read_table, to_float, to_text

CENTRE = ("cx", "cy", "cz")
SIZE = ("sx", "sy", "sz")
QUATERNION = ("qx", "qy", "qz", "qw")
COLUMNS = ("item", "annotator", *CENTRE, *SIZE, *QUATERNION, "label")
YAW_COLUMNS = ("item", "annotator", *CENTRE, *SIZE, "yaw", "label")
SYNONYMS = {
    "item": ("scene", "frame", "scan", "sample", "image", "item_id", "scene_id", "frame_id", "file"),
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("class", "category", "class_name", "category_name", "tag", "object_class"),
    "cx": ("x", "center_x", "centre_x", "pos_x"),
    "cy": ("y", "center_y", "centre_y", "pos_y"),
    "cz": ("z", "center_z", "centre_z", "pos_z"),
    "sx": ("dx", "size_x", "length", "l"),
    "sy": ("dy", "size_y", "width", "w"),
    "sz": ("dz", "size_z", "height", "h"),
    "qx": ("rot_x", "quat_x", "rotation_x"),
    "qy": ("rot_y", "quat_y", "rotation_y"),
    "qz": ("rot_z", "quat_z", "rotation_z"),
    "qw": ("rot_w", "quat_w", "rotation_w"),
    "yaw": ("heading", "theta"),
}
def parse_cuboids(rows, keep_none_labels=False, progress=None):
    """Read and check cuboid rows.

    Returns ``(records, warnings)``; each record is ``(line, item, annotator,
    cuboid or None, label)`` with ``cuboid`` the 10-vector
    ``[cx, cy, cz, sx, sy, sz, qx, qy, qz, qw]`` (unit quaternion) and None meaning
    "saw the item, drew nothing". Raises :class:`InputError` naming the line and
    column of the first bad value: non-numeric or non-finite numbers, a negative
    size, a zero quaternion, partly empty geometry, a label without a cuboid, both
    or neither of a quaternion and a yaw.  ``progress`` is passed to
    :func:`agreekit.rows.read_table`.
    """
    table = read_table(rows, COLUMNS, SYNONYMS, alternatives=(YAW_COLUMNS,), required=("item", "annotator"),
                       progress=progress)
    present = set(table[0].values) if table else set()
    missing = [c for c in CENTRE + SIZE if c not in present]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}: expected {', '.join(COLUMNS)} "
                         "(or yaw instead of qx, qy, qz, qw)", line=1, column=missing[0])
    has_quaternion = all(c in present for c in QUATERNION)
    if not has_quaternion and any(c in present for c in QUATERNION):
        column = next(c for c in QUATERNION if c not in present)
        raise InputError("a quaternion needs all four columns qx, qy, qz, qw", line=1, column=column)
    if not has_quaternion and "yaw" not in present:
        raise InputError("no rotation: give qx, qy, qz, qw (a quaternion) or yaw (radians about z)", line=1,
                         column="qx")
    records = []
    geometry = CENTRE + SIZE + (QUATERNION if has_quaternion else ("yaw",))
    errors = RowErrors()  # every bad row is named, not only the first
    for row in table:
        with errors:
            absent = [c for c in geometry if c not in row.values]  # dict rows: each has its own keys
            if absent:
                raise InputError(f"missing column(s) {', '.join(absent)} in this row: give every row the cuboid "
                                 "columns (blank for an annotator who drew nothing)", line=row.line, column=absent[0])
            item = to_text(row, "item")
            annotator = to_text(row, "annotator")
            if row.values.get("label") is None and keep_none_labels:
                label = None
            else:
                label = to_text(row, "label", required=False)
            cuboid = _read_geometry(row, has_quaternion, "yaw" in present)
            if cuboid is None and label:
                raise InputError("a label without a cuboid: fill in the cuboid, or leave the label empty to say "
                                 "the annotator drew nothing", line=row.line, column="label", value=label)
            records.append(Annotation(row.line, item, annotator, cuboid, label))
    errors.check()
    return records, []


def _read_geometry(row, has_quaternion, has_yaw):
    """The row's cuboid 10-vector, or None when all its geometry is empty."""
    quaternion_blank = [is_blank(row.values.get(c)) for c in QUATERNION] if has_quaternion else []
    yaw_blank = is_blank(row.values.get("yaw")) if has_yaw else True
    shape_blank = [is_blank(row.values.get(c)) for c in CENTRE + SIZE]
    if all(shape_blank) and all(quaternion_blank) and yaw_blank:
        return None
    if any(shape_blank):
        column = (CENTRE + SIZE)[shape_blank.index(True)]
        raise InputError(f"'{column}' is empty while other cuboid fields are filled", line=row.line,
                         column=column, value="")
    quaternion_given = has_quaternion and not all(quaternion_blank)
    if quaternion_given and any(quaternion_blank):
        column = QUATERNION[quaternion_blank.index(True)]
        raise InputError(f"'{column}' is empty while other quaternion fields are filled", line=row.line,
                         column=column, value="")
    if quaternion_given and not yaw_blank:
        raise InputError("both a quaternion and a yaw are given: give one rotation", line=row.line,
                         column="yaw", value=row.values.get("yaw"))
    if not quaternion_given and yaw_blank:
        column = "qx" if has_quaternion else "yaw"
        raise InputError("the rotation is empty: give qx, qy, qz, qw or yaw", line=row.line, column=column,
                         value="")
    centre = [to_float(row, c) for c in CENTRE]
    size = [to_float(row, c) for c in SIZE]
    for column, value in zip(SIZE, size):
        if value < 0:
            raise InputError(f"'{column}' is a negative size", line=row.line, column=column,
                             value=row.values.get(column))
        if 0 < value < 1e-100 or value > 1e100:
            raise InputError(f"'{column}' is outside [1e-100, 1e100], where volumes stay finite; rescale "
                             "the coordinates", line=row.line, column=column, value=row.values.get(column))
    for column, value in zip(CENTRE, centre):
        if abs(value) > 1e100:
            raise InputError(f"'{column}' is beyond ±1e100; rescale the coordinates", line=row.line,
                             column=column, value=row.values.get(column))
    if quaternion_given:
        raw = [to_float(row, c) for c in QUATERNION]
        try:
            q = normalize_quaternion(raw)
        except InputError:
            raise InputError("the rotation quaternion (qx, qy, qz, qw) is zero", line=row.line, column="qx",
                             value=", ".join(str(row.values.get(c)) for c in QUATERNION)) from None
    else:
        q = yaw_quaternion(to_float(row, "yaw"))
    return np.concatenate([centre, size, q])
