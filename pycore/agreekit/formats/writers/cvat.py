"""CVAT for images 1.1 XML writer: boxes and polygons, one file (one job) per annotator.

CVAT keeps one annotator per job, and :mod:`agreekit.formats.cvat` reads one
XML per job; so each annotator gets ``<annotator>.xml`` with their name in
``meta/job/assignee/username`` (which the importer takes before the file
name), holding the images they saw: CVAT writes every image of a job, and an
image without shapes comes back as "saw it, drew nothing".  Boxes are
``<box xtl ytl xbr ybr>``, polygons ``<polygon points="x,y;x,y;…">``, in
pixels; ``width``/``height`` of an image are written when the option
``image_sizes`` gives them (CVAT's importer matches images by name).

Cannot carry: a shape without a label (CVAT requires one; refused), masks
(not written: use COCO).  A file is named after its annotator with the
characters a file name cannot hold replaced by ``_``.  Several annotators make several files: a zip.
"""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from ...arrays import name_list
from ...rows import InputError
from . import Writer, Written, register_writer
from .names import safe_file_names
from .records import image_sizes as read_sizes
from .records import grouped, is_empty, number_text

NAME = "cvat"
KINDS = ("boxes", "polygons")


def _shape(parent, kind, record):
    g = record.geometry
    common = {"label": record.label, "source": "manual", "occluded": "0"}
    if kind == "boxes":
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
        for record in (r for r in mine if not is_empty(r)):
            _shape(image, kind, record)
    ElementTree.indent(root)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="utf-8",
                                                                             xml_declaration=False) + b"\n"


def write(kind, records, *, image_sizes=None):
    """One CVAT for images 1.1 XML per annotator (see the module docstring)."""
    unlabelled = sorted({f"{r.annotator} on {r.item}" for r in records if not is_empty(r) and r.label is None})
    if unlabelled:
        raise InputError(f"CVAT requires a label on every shape; shapes without one: {name_list(unlabelled)}",
                         column="label")
    sizes = read_sizes(image_sizes)
    image_ids = {item: k for k, item in enumerate(sorted({r.item for r in records}))}
    by_annotator = grouped(records, "annotator")
    names = safe_file_names(by_annotator)  # the file's name is a convenience: the assignee names the annotator
    files = [(f"{names[annotator]}.xml", _job(kind, annotator, mine, image_ids, sizes))
             for annotator, mine in sorted(by_annotator.items())]
    return Written(NAME, tuple(files))


register_writer(Writer(name=NAME, title="CVAT for images 1.1 XML", kinds=KINDS, write=write, reader="cvat",
                       suffix=".xml"))
