"""COCO JSON writer: boxes, polygons and masks, every annotator in one file.

Written as the multi-annotator convention :mod:`agreekit.formats.coco` reads
first (Tschirschwitz et al.): each annotation names its annotator in
``rater_id``, and each image lists in ``rater_list`` the annotators who saw it,
so an annotator who saw an image and drew nothing comes back as such.  Images
are numbered in item order, categories in label order (from 1); a box or a
polygon gets its ``bbox`` and ``area``; a mask is ``segmentation: {"size":
[height, width], "counts": …}`` with the run lengths as given (a list when
they are numbers, COCO's compressed text as is), its ``area`` the foreground
pixels and its ``bbox`` their extent.

Cannot carry: the image sizes of boxes and polygons, which the rows do not
have and COCO requires (``images[].width/height``): give them in the option
``image_sizes`` (item → (width, height)); without them the export is refused.
A label-less annotation gets category 0, whose name is empty (pycocotools needs a
category on every annotation; the importer reads the empty name as no label).
"""
from __future__ import annotations

import json

import numpy as np

from ...arrays import name_list
from ...parse.rle import parse_rle
from ...rows import InputError
from . import Writer, Written, register_writer
from .records import grouped, image_sizes, is_empty

NAME = "coco"
KINDS = ("boxes", "polygons", "masks")


def _sizes(kind, records, given):
    """item → (width, height): a mask's own size, else the option ``image_sizes``."""
    sizes = dict(image_sizes(given))
    if kind == "masks":
        for record in records:
            sizes.setdefault(record.item, (record.geometry["width"], record.geometry["height"]))
    missing = sorted({r.item for r in records} - set(sizes))
    if missing:
        raise InputError(f"COCO needs each image's width and height, which {kind} rows do not carry: give them in "
                         f"the option image_sizes (item → width, height); missing for {name_list(missing)}",
                         column="image_sizes", value=missing[0])
    return sizes


def _shoelace(points):
    xs, ys = np.array([p[0] for p in points]), np.array([p[1] for p in points])
    return float(abs(np.dot(xs, np.roll(ys, -1)) - np.dot(ys, np.roll(xs, -1))) / 2)


def _mask_extent(runs, height):
    """``(area, [x, y, w, h])`` of the foreground of column-major run lengths (background first)."""
    ends = np.cumsum(runs)
    starts = ends - runs
    fg = np.arange(len(runs)) % 2 == 1
    first, last = starts[fg & (runs > 0)], ends[fg & (runs > 0)] - 1
    if len(first) == 0:
        return 0, [0, 0, 0, 0]
    col0, col1 = first // height, last // height
    spans_columns = col0 != col1  # a run over a column's end covers every row
    row0 = np.where(spans_columns, 0, first % height).min()
    row1 = np.where(spans_columns, height - 1, last % height).max()
    return int(runs[fg].sum()), [int(col0.min()), int(row0), int(col1.max() - col0.min() + 1), int(row1 - row0 + 1)]


def _geometry(kind, record):
    g = record.geometry
    if kind == "boxes":
        return {"bbox": [g["x"], g["y"], g["w"], g["h"]], "area": g["w"] * g["h"]}
    if kind == "polygons":
        xs, ys = [p[0] for p in g["points"]], [p[1] for p in g["points"]]
        return {"segmentation": [[v for pair in g["points"] for v in pair]],
                "bbox": [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)], "area": _shoelace(g["points"])}
    runs = parse_rle(g["rle"], g["height"], g["width"], line=record.line)
    area, bbox = _mask_extent(np.asarray(runs, dtype=np.int64), g["height"])
    tokens = g["rle"].replace(",", " ").split()
    counts = [int(t) for t in tokens] if all(t.isdigit() for t in tokens) else g["rle"]
    return {"segmentation": {"size": [g["height"], g["width"]], "counts": counts}, "area": area, "bbox": bbox}


def write(kind, records, *, image_sizes=None):
    """COCO JSON of box, polygon or mask records (see the module docstring)."""
    sizes = _sizes(kind, records, image_sizes)
    items = sorted({r.item for r in records})
    image_id = {item: k for k, item in enumerate(items, start=1)}
    viewers = {item: sorted({r.annotator for r in mine}) for item, mine in grouped(records, "item").items()}
    labels = sorted({r.label for r in records if r.label is not None})
    category_id = {label: k for k, label in enumerate(labels, start=1)}
    if any(r.label is None and not is_empty(r) for r in records):
        category_id[None] = 0  # "no label", first
    images = [{"id": image_id[item], "file_name": item, "width": sizes[item][0], "height": sizes[item][1],
               "rater_list": viewers[item]} for item in items]
    annotations = []
    for record in (r for r in records if not is_empty(r)):
        annotations.append({"id": len(annotations) + 1, "image_id": image_id[record.item],
                            "category_id": category_id[record.label], "rater_id": record.annotator, "iscrowd": 0,
                            **_geometry(kind, record)})
    document = {"info": {"description": "exported by agreekit"}, "images": images,
                "categories": [{"id": k, "name": label or ""} for label, k in sorted(category_id.items(),
                                                                                          key=lambda c: c[1])],
                "annotations": annotations}
    text = json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":"))  # compact, as COCO's are
    return Written(NAME, ((f"{kind}.json", (text + "\n").encode("utf-8")),))


register_writer(Writer(name=NAME, title="COCO JSON", kinds=KINDS, write=write, reader="coco", suffix=".json"))
