"""Polygon rows: reading and checking ``item, annotator, points, label``."""
from __future__ import annotations

from ...geometry import polygon_checks as checks
from ...object_sets import Annotation
from ...parse.points import parse_points
from ...rows import ANNOTATOR_SYNONYMS, InputError, RowErrors, is_blank, read_table, to_text

COLUMNS = ("item", "annotator", "points", "label")
SYNONYMS = {
    "item": ("image", "image_id", "img", "item_id", "file", "filename", "image_name"),
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("class", "category", "class_name", "category_name", "tag"),
    "points": ("polygon", "vertices", "coordinates", "segmentation"),
}
def parse_polygons(rows, progress=None):
    """Read and check polygon rows.

    Returns ``(records, polygons)``: records ``(line, item, annotator, geometry,
    label)`` where ``geometry`` is ``[k]`` (the index of the row's polygon in
    ``polygons``) or None for "saw the item, drew nothing".  ``progress`` is
    passed to :func:`agreekit.rows.read_table`.
    """
    table = read_table(rows, COLUMNS, SYNONYMS, required=("item", "annotator", "points"), progress=progress)
    records, polygons, lines, texts = [], [], [], []
    errors = RowErrors()  # every bad row is named, not only the first
    for row in table:
        with errors:
            item = to_text(row, "item")
            annotator = to_text(row, "annotator")
            label = to_text(row, "label", required=False)
            value = row.values.get("points")
            if (isinstance(value, str) or value is None) and is_blank(value):
                if label:
                    raise InputError("a label without a polygon: fill in the points, or leave the label empty "
                                     "to say the annotator drew nothing", line=row.line, column="label", value=label)
                records.append(Annotation(row.line, item, annotator, None, label))
                continue
            records.append(Annotation(row.line, item, annotator, [len(polygons)], label))
            polygons.append(parse_points(value, line=row.line))
            lines.append(row.line)
            texts.append(value)
    errors.check()
    return records, checks.validate_polygons(polygons, lines, values=texts)
