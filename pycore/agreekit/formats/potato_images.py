"""Potato's image objects (the ``_data`` label) as rows of boxes, polygons or masks; see :mod:`.potato`.

This module is part of the Potato reader: it registers nothing.
"""
from __future__ import annotations

import csv
import io
import json
import math
from typing import NamedTuple

from ..parse.rle import rle_to_string
from ..rows import InputError
from .base import Skipped
from .cvat import crop_runs_to_coco
from .span_records import saw_nothing

IMAGE_KINDS = {"bbox": "boxes", "polygon": "polygons", "mask": "masks"}


class Shape(NamedTuple):
    """One image object's row fields, and what was assumed to get them."""

    fields: dict
    fractions: bool = False   # coordinates in fractions of the image (no image size known)
    padded: bool = False      # mask runs that stopped short of the image, read as ending in background


class ImageRows(NamedTuple):
    """The rows of one image kind, the items kept in fractions, and how many masks were padded."""

    rows: list
    in_fractions: list
    n_padded: int
    left_out: list         # "annotator on item" whose objects were all skipped (not "saw nothing")


def sizes_table(value):
    """``image_sizes`` as ``{item: (width, height)}``: a dict as given, or rows (a list of dicts, or the
    CSV/TSV text of a page's field, JSON text of a dict too) with columns ``item, width, height``."""
    if value is None or isinstance(value, dict):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("{"):
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict):
                raise InputError("option image_sizes: not a JSON object of item: [width, height]",
                                 column="image_sizes") from None
            return parsed
        dialect = "excel-tab" if "\t" in text.split("\n", 1)[0] else "excel"
        value = list(csv.DictReader(io.StringIO(text), dialect=dialect))
    sizes = {}
    for number, row in enumerate(value, start=2):
        if not isinstance(row, dict) or not {"item", "width", "height"} <= set(row):
            raise InputError("option image_sizes: rows need the columns item, width, height", line=number,
                             column="image_sizes")
        sizes[str(row["item"]).strip()] = (row["width"], row["height"])
    return sizes


def _size_of(sizes, item, where):
    """``(width, height)`` of ``item`` from ``image_sizes``, or None."""
    if sizes is None or item not in sizes:
        return None
    try:
        width, height = (float(v) for v in sizes[item])
    except (TypeError, ValueError):
        raise InputError(f"image_sizes[{item!r}] must be (width, height)", column="image_sizes") from None
    if width <= 0 or height <= 0:
        raise InputError(f"image_sizes[{item!r}] must be positive", column="image_sizes")
    return width, height


def _number(fields, name, where, *synonyms):
    for key in (name, *synonyms):
        value = fields.get(key) if isinstance(fields, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise InputError(f"{where}: '{key}' is not a finite number", column=key, value=value)
            return float(value)
    raise InputError(f"{where}: no number '{name}'", column=name)


def _box(obj, scale, where):
    """The :class:`Shape` ``{x, y, w, h}`` of a bbox object; fractions scaled by ``scale`` when given."""
    coords = obj.get("coordinates")
    fractions = coords is not None
    fields = coords if fractions else obj
    x, y = _number(fields, "x", where), _number(fields, "y", where)
    w, h = _number(fields, "width", where, "w"), _number(fields, "height", where, "h")
    if fractions and scale is not None:
        x, y, w, h = x * scale[0], y * scale[1], w * scale[0], h * scale[1]
    return Shape({"x": x, "y": y, "w": w, "h": h}, fractions and scale is None)


def _point(point, where):
    """``[x, y]`` of one polygon point, ``{x, y}`` or ``[x, y]``, both finite numbers."""
    if isinstance(point, list) and len(point) == 2:
        point = {"x": point[0], "y": point[1]}
    if not isinstance(point, dict):
        raise InputError(f"{where}: a polygon's points must be {{x, y}} or [x, y]", column="points", value=point)
    return [_number(point, "x", where), _number(point, "y", where)]


def _polygon(obj, scale, where):
    """The :class:`Shape` ``{points}`` of a polygon object (``[{x, y}, …]`` or ``[[x, y], …]``)."""
    fractions = obj.get("coordinates") is not None
    raw = obj.get("coordinates") if fractions else obj.get("points")
    if not isinstance(raw, list) or len(raw) < 3:
        raise InputError(f"{where}: a polygon needs at least 3 points")
    points = [_point(p, where) for p in raw]
    if fractions and scale is not None:
        points = [[x * scale[0], y * scale[1]] for x, y in points]
    return Shape({"points": json.dumps(points)}, fractions and scale is None)


def _mask(obj, where):
    """The :class:`Shape` ``{width, height, rle}`` of a mask: Potato's row-major runs as COCO's column-major RLE.

    Runs that stop short of ``height · width`` end in background, as Potato's own decoder reads them.
    """
    rle = obj.get("rle") if isinstance(obj.get("rle"), dict) else {}
    counts, size = rle.get("counts"), rle.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and v > 0 for v in size)):
        raise InputError(f"{where}: a mask needs 'rle.size' [height, width] in pixels")
    if not isinstance(counts, list) or not all(isinstance(c, int) and c >= 0 for c in counts):
        raise InputError(f"{where}: 'rle.counts' must be a list of run lengths")
    height, width = size
    covered = sum(counts)
    if covered > height * width:
        raise InputError(f"{where}: the runs add up to {covered}, more than {height} × {width} pixels")
    rest = height * width - covered  # runs that stop short end in background
    counts = counts + [rest] if len(counts) % 2 == 0 else counts[:-1] + [counts[-1] + rest]
    try:  # the whole image as CVAT's crop: reordered on runs, no pixel held
        runs = crop_runs_to_coco(counts, 0, 0, width, height, width, height)
    except ValueError as error:
        raise InputError(f"{where}: {error}", column="rle") from None
    return Shape({"width": width, "height": height, "rle": rle_to_string(runs)}, padded=covered < height * width)


def _object_row(record, obj, kind, scale, where):
    """The :class:`Shape` of one image object of ``kind`` as a whole row (fractions scaled by ``scale``)."""
    shape = _mask(obj, where) if kind == "masks" else (_box if kind == "boxes" else _polygon)(obj, scale, where)
    row = {"item": record.instance, "annotator": record.annotator, **shape.fields, "label": str(obj.get("label", ""))}
    return shape._replace(fields=row)


def _skip_reason(obj, kind):
    """Why an image object is not read as ``kind``, or None when it is."""
    shape = obj.get("type") if isinstance(obj, dict) else None
    if shape not in IMAGE_KINDS:
        return f"{shape}: no agreekit kind" if shape else "not an image object"
    if IMAGE_KINDS[shape] != kind:
        return f"{shape}: read with kind {IMAGE_KINDS[shape]}"
    if shape == "mask" and not (obj.get("rle") or {}).get("counts"):
        return "a mask without run lengths (Potato drops it too)"
    return None


def image_rows(records, kind, sizes, skipped):
    """:class:`ImageRows` of ``kind`` from the image objects."""
    rows, units, padded, left_out = [], {}, 0, []
    for record in (r for r in records if r.objects is not None):
        drawn, scale = [], _size_of(sizes, record.instance, record.where)
        for number, obj in enumerate(record.objects, start=1):
            where = f"{record.where}, object {number}"
            reason = _skip_reason(obj, kind)
            if reason is not None:
                skipped.append(Skipped(record.source, where, reason))
                continue
            shape = _object_row(record, obj, kind, scale, where)
            if units.setdefault(record.instance, shape.fractions) != shape.fractions:
                raise InputError(f"{where}: item {record.instance!r} mixes coordinates in fractions of the image and "
                                 "in pixels; pass image_sizes for it", column="image_sizes")
            drawn.append(shape.fields)
            padded += shape.padded
        if drawn or not record.objects:
            rows += drawn or [saw_nothing(record.instance, record.annotator, kind)]
        else:
            left_out.append(f"{record.annotator} on {record.instance}")
    return ImageRows(rows, sorted(item for item, fractions in units.items() if fractions), padded, left_out)


def sized_masks(rows):
    """Mask rows with the saw-nothing rows given their item's size (items nobody drew a mask on are left out)."""
    sizes = {r["item"]: (r["width"], r["height"]) for r in rows if r["rle"] is not None}
    out = []
    for row in rows:
        if row["rle"] is None and row["item"] in sizes:
            width, height = sizes[row["item"]]
            row = {**row, "width": width, "height": height, "rle": ""}
        if row["rle"] is not None:
            out.append(row)
    return out, len(rows) - len(out)
