"""CVAT for images 1.1 XML writer: boxes, polygons and masks, one file (one job) per annotator.

CVAT keeps one annotator per job, and :mod:`agreekit.formats.cvat` reads one
XML per job; so each annotator gets ``<annotator>.xml`` with their name in
``meta/job/assignee/username`` (which the importer takes before the file
name), holding the images they saw: CVAT writes every image of a job, and an
image without shapes comes back as "saw it, drew nothing".  Boxes are
``<box xtl ytl xbr ybr>``, polygons ``<polygon points="x,y;x,y;…">``, in
pixels; masks ``<mask rle left top width height>``, CVAT's run lengths
(row by row, background first) over the crop around the mask's pixels.
``width``/``height`` of an image are written when the option
``image_sizes`` gives them or the masks carry them.

Cannot carry: a shape without a label (CVAT requires one; refused), a mask
without a pixel (no shape: left out, said in the notes).  A file is named after its annotator with the
characters a file name cannot hold replaced by ``_``.  Several annotators make several files: a zip.
"""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import numpy as np

from ...arrays import name_list
from ...parse.rle import parse_rle
from ...rows import InputError
from . import Writer, Written, register_writer
from .names import safe_file_names
from .records import image_sizes as read_sizes
from .records import grouped, is_empty, mask_pixels, number_text

NAME = "cvat"
KINDS = ("boxes", "polygons", "masks")


def crop_runs(mask):
    """CVAT's ``(runs, left, top, width, height)`` of a boolean ``(height, width)`` mask with a pixel set.

    The runs alternate background and foreground over the crop around the set
    pixels, row by row, starting with background (the inverse of
    :func:`agreekit.formats.cvat.crop_runs_to_coco`).

    >>> crop_runs(np.array([[0, 0, 0], [0, 1, 1], [0, 0, 1]], dtype=bool))
    ([0, 2, 1, 1], 1, 1, 2, 2)
    """
    rows, columns = np.nonzero(mask)
    top, left = int(rows.min()), int(columns.min())
    crop = mask[top:rows.max() + 1, left:columns.max() + 1].ravel()
    changes = np.flatnonzero(np.diff(crop.astype(np.int8))) + 1
    bounds = np.concatenate(([0], changes, [crop.size]))
    runs = np.diff(bounds).tolist()
    if crop[0]:
        runs = [0] + runs  # CVAT's runs start with background
    return runs, left, top, int(columns.max()) + 1 - left, int(rows.max()) + 1 - top


def _mask(parent, record, common):
    counts, left, top, width, height = crop_runs(mask_pixels(record))
    ElementTree.SubElement(parent, "mask", {**common, "rle": ", ".join(map(str, counts)), "left": str(left),
                                            "top": str(top), "width": str(width), "height": str(height),
                                            "z_order": "0"})


def _shape(parent, kind, record):
    g = record.geometry
    common = {"label": record.label, "source": "manual", "occluded": "0"}
    if kind == "masks":
        _mask(parent, record, common)
    elif kind == "boxes":
        corners = {"xtl": g["x"], "ytl": g["y"], "xbr": g["x"] + g["w"], "ybr": g["y"] + g["h"]}
        ElementTree.SubElement(parent, "box", {**common, **{k: number_text(v) for k, v in corners.items()},
                                               "z_order": "0"})
    else:
        points = ";".join(f"{number_text(x)},{number_text(y)}" for x, y in g["points"])
        ElementTree.SubElement(parent, "polygon", {**common, "points": points, "z_order": "0"})


def _job(kind, annotator, records, image_ids, sizes):
    root = ElementTree.Element("annotations")
    ElementTree.SubElement(root, "version").text = "1.1"
    job = ElementTree.SubElement(ElementTree.SubElement(root, "meta"), "job")
    ElementTree.SubElement(ElementTree.SubElement(job, "assignee"), "username").text = annotator
    for item, mine in grouped(records, "item").items():
        attributes = {"id": str(image_ids[item]), "name": item}
        if item in sizes:
            attributes.update(width=str(sizes[item][0]), height=str(sizes[item][1]))
        image = ElementTree.SubElement(root, "image", attributes)
        for record in (r for r in mine if not is_empty(r) and not _blank_mask(r)):
            _shape(image, kind, record)
    ElementTree.indent(root)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="utf-8",
                                                                             xml_declaration=False) + b"\n"


def _blank_mask(record):
    """True for a mask row whose runs set no pixel (CVAT has no empty mask shape)."""
    if "rle" not in record.geometry:
        return False
    runs = parse_rle(record.geometry["rle"], record.geometry["height"], record.geometry["width"], line=record.line)
    return not np.any(np.asarray(runs)[1::2])


def _notes(kind, records):
    blank = sorted({f"{r.annotator} on {r.item}" for r in records if kind == "masks" and not is_empty(r)
                    and _blank_mask(r)})
    return (f"{len(blank)} mask(s) without a pixel are not written (CVAT has no empty mask): {name_list(blank)}",) \
        if blank else ()


def write(kind, records, *, image_sizes=None):
    """One CVAT for images 1.1 XML per annotator (see the module docstring)."""
    unlabelled = sorted({f"{r.annotator} on {r.item}" for r in records if not is_empty(r) and r.label is None})
    if unlabelled:
        raise InputError(f"CVAT requires a label on every shape; shapes without one: {name_list(unlabelled)}",
                         column="label")
    sizes = read_sizes(image_sizes)
    if kind == "masks":  # a mask carries its image's size
        sizes.update({r.item: (r.geometry["width"], r.geometry["height"]) for r in records})
    image_ids = {item: k for k, item in enumerate(sorted({r.item for r in records}))}
    by_annotator = grouped(records, "annotator")
    names = safe_file_names(by_annotator)  # the file's name is a convenience: the assignee names the annotator
    files = [(f"{names[annotator]}.xml", _job(kind, annotator, mine, image_ids, sizes))
             for annotator, mine in sorted(by_annotator.items())]
    return Written(NAME, tuple(files), _notes(kind, records))


register_writer(Writer(name=NAME, title="CVAT for images 1.1 XML", kinds=KINDS, write=write, reader="cvat",
                       suffix=".xml"))
