"""CVAT for images 1.1 XML: boxes, polygons (rotated boxes among them) and masks.

Layout (CVAT's ``dump_as_cvat_annotation``; site/content/en/docs/other/xml_format.md)::

    <annotations><version>1.1</version><meta><job>…<assignee><username/></assignee>…</job></meta>
      <image id="0" name="img_a.jpg" width="200" height="100">
        <box label="dog" xtl="20.00" ytl="20.00" xbr="80.00" ybr="60.00" [rotation="15.00"] occluded="0"/>
        <polygon label="dog" points="x0,y0;x1,y1;…"/>
        <mask label="dog" rle="3, 5, 7, …" left="707" top="888" width="13" height="15"/>
      </image> …
    </annotations>

in pixels from the top-left corner; the item is the image ``name`` (image ids are
frame numbers of the task or job, so replicas are joined on names).

* Box: ``x = xtl``, ``w = xbr − xtl`` (decimal differences, as written).  A box with
  ``rotation`` ≠ 0 (degrees, clockwise on screen, about the box centre) is no
  axis-aligned box: boxes leave it out; polygons read it, like every box, as its
  four corners turned as CVAT turns them (RotatedBoxesToPolygons).
* Polygon: ``points`` as agreekit's ``x1 y1 x2 y2 …``.
* Mask: ``rle`` counts CVAT's own runs over the ``left, top, width, height`` crop,
  row by row, starting with background (cvat-core ``rle2Mask``); agreekit
  re-encodes the mask on the whole image as COCO column-major run lengths.
* ``outside="1"`` (a shape not in view on that image) is left out; ``occluded``
  shapes are kept as drawn (the annotator marked a partly hidden object).
  Polylines, points, cuboids, ellipses, skeletons, tags and ``<track>`` elements
  (CVAT for video) are left out with their reason.
* Kind ``labels`` reads each image's ``<tag>`` elements instead (see :func:`read`).

Annotator: the job's assignee (``meta/job/assignee/username``) when the file names
one, else the file (its stem, or the folders that tell files of one name apart, as
for ``annotations.xml`` in job zips).  The task owner (``meta/task/owner``) is the
task's author, the same for every job, so it is never taken.  An annotator with two
files holding one image keeps the later one (by ``meta/*/updated`` when every file
has it, else the file read last).

Saw nothing: CVAT writes every image of a job, empty or not, so an empty ``<image>``
is a saw-nothing row; but the XML does not say whether the job was finished, so an
empty image may be one nobody looked at yet (warned).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

import numpy as np

from ..arrays import name_list
from ..geometry.row_runs import crop_rows_to_columns
from ..parse.rle import MAX_PIXELS
from ..rows import InputError
from .base import Conversion, Reader, Skipped, parse_xml, register_format
from .label_answers import LABELS, QUESTION, Answer, answer_rows
from .submissions import Submission, annotator_names, merge


__all__ = ["detect", "read", "crop_runs_to_coco"]

KINDS = ("boxes", "polygons", "masks")
SHAPE_KIND = {"box": "boxes", "polygon": "polygons", "mask": "masks"}
NOUN = {"boxes": "box", "polygons": "polygon", "masks": "mask"}
ROOT = re.compile(r"<annotations>\s*<version>")
MODEL_SOURCES = ("auto", "semi-auto")
TRACK = "track (CVAT for video; export 'CVAT for images 1.1')"
TAG_QUESTION = "tag"


class Image(NamedTuple):
    """One ``<image>``: its item name, size and where it is (for messages)."""

    item: str
    width: int | None
    height: int | None
    record: str   # "image 3 (img_a.jpg)", for messages


class Outcome(NamedTuple):
    """A shape read: its geometry columns, or the reason it is left out."""

    geometry: dict | None
    skipped: str | None = None


def detect(source):
    """None when ``source`` is a CVAT XML file, else why not (its name and first bytes only)."""
    if not source.name.lower().endswith(".xml"):
        return "not an .xml file"
    if not ROOT.search(source.head()):
        return "no <annotations><version> at the start"
    return None


# ----------------------------------------------------------------- the file

def _parse(source):
    root = parse_xml(source)  # CVAT never declares entities; an XML bomb does (in UTF-8 or UTF-16)
    if root.tag != "annotations":
        raise InputError(f"{source.name}: the root element is <{root.tag}>, not <annotations>")
    return root


def _assignee(root):
    name = (root.findtext("meta/job/assignee/username") or "").strip()
    return name or None


def _updated(root):
    text = root.findtext("meta/job/updated") or root.findtext("meta/task/updated")
    try:
        return datetime.fromisoformat(text.strip()) if text else None
    except ValueError:
        return None


def _ranks(roots):
    """Each file's ``updated`` time stamp when every file has one (the later submission wins), else zeros."""
    dates = [_updated(root) for root in roots]
    if all(dates) and len({date.tzinfo is None for date in dates}) == 1:
        return [date.timestamp() for date in dates]
    return [0.0] * len(roots)


def _whole(element, name, where, required=True):
    text = element.get(name)
    if text is None and not required:
        return None
    try:
        return int(text)
    except (TypeError, ValueError):
        raise InputError(f"{where}: '{name}' must be a whole number", column=name, value=text) from None


def _images(source, root):
    """The :class:`Image` of each ``<image>``, named by ``name``; where a project repeats a name, with its
    task (``name (task 4)``), else with its subset (``Train/name``)."""
    elements = root.findall("image")
    counts = Counter(element.get("name") for element in elements)
    images = []
    for element in elements:
        name = element.get("name")
        record = f"image {element.get('id')} ({name})"
        where = f"{source.name}: {record}"
        if not name:
            raise InputError(f"{where}: an <image> needs a 'name'", column="name")
        if counts[name] > 1 and element.get("task_id") is not None:
            name = f"{name} (task {element.get('task_id')})"
        elif counts[name] > 1 and element.get("subset"):  # a project's subsets (Train, Test) may share names
            name = f"{element.get('subset')}/{name}"
        images.append(Image(name, _whole(element, "width", where, False), _whole(element, "height", where, False),
                            record))
    twice = [item for item, n in Counter(image.item for image in images).items() if n > 1]
    if twice:
        raise InputError(f"{source.name}: image {name_list(twice)} is listed more than once", column="name",
                         value=twice[0])
    return images


# ----------------------------------------------------------------- shapes

def _number(element, name, where):
    text = element.get(name)
    try:
        value = Decimal(text)
    except (TypeError, InvalidOperation):
        raise InputError(f"{where}: '{name}' must be a number", column=name, value=text) from None
    if not value.is_finite() or not math.isfinite(float(value)):  # 1e400 is a finite Decimal, but no float
        raise InputError(f"{where}: '{name}' must be a finite number", column=name, value=text)
    return value


def _corners(xtl, ytl, xbr, ybr, degrees):
    """The box's corners, clockwise from top-left, turned by ``degrees`` about its centre as CVAT turns them."""
    corners = [(xtl, ytl), (xbr, ytl), (xbr, ybr), (xtl, ybr)]
    if degrees == 0:
        return corners
    angle = math.radians(degrees)
    cx, cy = (xtl + xbr) / 2, (ytl + ybr) / 2
    return [(cx + math.cos(angle) * (x - cx) - math.sin(angle) * (y - cy),
             cy + math.sin(angle) * (x - cx) + math.cos(angle) * (y - cy)) for x, y in corners]


def _box(element, kind, where):
    xtl, ytl, xbr, ybr = (_number(element, name, where) for name in ("xtl", "ytl", "xbr", "ybr"))
    degrees = float(_number(element, "rotation", where)) if element.get("rotation") is not None else 0.0
    if kind == "boxes":
        if degrees % 360:
            return Outcome(None, "rotated box (read it as polygons)")
        return Outcome({"x": float(xtl), "y": float(ytl), "w": float(xbr - xtl), "h": float(ybr - ytl)})
    corners = _corners(float(xtl), float(ytl), float(xbr), float(ybr), degrees)
    return Outcome({"points": " ".join(repr(v) for corner in corners for v in corner)})


def _polygon(element, where):
    text = element.get("points") or ""
    try:
        pairs = [[float(v) for v in pair.split(",")] for pair in text.split(";")]
    except ValueError:
        pairs = []
    if len(pairs) < 3 or any(len(pair) != 2 or not all(map(math.isfinite, pair)) for pair in pairs):
        raise InputError(f"{where}: 'points' must be at least 3 points 'x,y;x,y;…'", column="points", value=text)
    return Outcome({"points": " ".join(repr(v) for pair in pairs for v in pair)})


def crop_runs_to_coco(counts, left, top, width, height, image_width, image_height):
    """COCO run lengths over the whole image of a mask given as CVAT's runs over a crop.

    Parameters
    ----------
    counts : sequence of int
        CVAT's ``rle``: run lengths over the ``width × height`` crop, row by row
        (row-major), alternating background and foreground, starting with background.
    left, top, width, height : int
        The crop in the image, in pixels.
    image_width, image_height : int
        The image's size.

    Returns
    -------
    np.ndarray of int64
        Run lengths of the whole image in COCO's column-major order (:func:`agreekit.geometry.rle.encode`).

    Raises
    ------
    ValueError
        Runs that do not add up to ``width · height``, or a crop outside the image.

    References
    ----------
    cvat-ai/cvat: cvat-core ``rle2Mask``; cvat/apps/dataset_manager/formats/transformations.py
    (``MaskConverter.cvat_rle_to_dm_rle``).

    >>> crop_runs_to_coco([1, 2, 1], 1, 0, 2, 2, 3, 2).tolist()
    [3, 2, 1]
    """
    counts = [int(c) for c in counts]  # summed as Python integers: int64 sums of huge runs could wrap around
    if any(c < 0 for c in counts) or sum(counts) != width * height:
        raise ValueError(f"the runs add up to {sum(counts)}, not the crop's {width} × {height} pixels")
    if left < 0 or top < 0 or left + width > image_width or top + height > image_height:
        raise ValueError(f"the crop {width} × {height} at ({left}, {top}) is not inside the "
                         f"{image_width} × {image_height} image")
    if image_width * image_height > MAX_PIXELS:
        raise ValueError(f"the image of {image_width} × {image_height} pixels is above the ceiling of "
                         f"{MAX_PIXELS:,} pixels")
    # No pixel is held: the runs are reordered on runs (agreekit.geometry.row_runs), whatever the crop's size.
    return crop_rows_to_columns(np.array(counts, dtype=np.int64), left, top, width, height, image_width, image_height)


def _mask(element, image, where):
    if image.width is None or image.height is None:
        raise InputError(f"{where}: a mask needs the image's 'width' and 'height'", column="width")
    left, top, width, height = (_whole(element, name, where) for name in ("left", "top", "width", "height"))
    text = element.get("rle") or ""
    try:
        counts = [int(token) for token in text.replace(",", " ").split()]
        runs = crop_runs_to_coco(counts, left, top, width, height, image.width, image.height)
    except ValueError as error:
        raise InputError(f"{where}: {error}", column="rle") from None
    return Outcome({"width": image.width, "height": image.height, "rle": " ".join(str(r) for r in runs)})


def _read_shape(element, image, kind, where):
    """The shape's geometry for ``kind``, or why it is left out."""
    shape_kind = SHAPE_KIND.get(element.tag)
    if shape_kind is None:
        return Outcome(None, f"{element.tag} (no agreekit kind reads it)")
    if element.get("outside") == "1":
        return Outcome(None, "outside (not in view on this image)")
    if element.tag == "box" and kind in ("boxes", "polygons"):
        return _box(element, kind, where)
    if shape_kind != kind:
        return Outcome(None, f"{element.tag} (not a {NOUN[kind]})")
    return _polygon(element, where) if kind == "polygons" else _mask(element, image, where)


# ----------------------------------------------------------------- the reader

class FileRead(NamedTuple):
    """A file's submissions (one per image), the skipped tracks and the counts to warn about."""

    submissions: list
    tracks: list
    n_model_shapes: int
    n_boxes_as_polygons: int


def _read_file(source, root, kind, annotator, rank):
    submissions, n_model_shapes, n_boxes_as_polygons = [], 0, 0
    for image, element in zip(_images(source, root), root.findall("image")):
        size = None if image.width is None or image.height is None else (image.width, image.height)
        submission = Submission(source.name, annotator, image.item, [], [], size, rank)
        for index, shape in enumerate(element):
            record = f"{image.record} <{shape.tag}> {index}"
            where = f"{source.name}: {record}"
            outcome = _read_shape(shape, image, kind, where)
            if outcome.geometry is None:
                submission.skipped.append(Skipped(source.name, record, outcome.skipped))
                continue
            if shape.get("label") is None:
                raise InputError(f"{where}: a shape needs a 'label'", column="label")
            n_model_shapes += shape.get("source") in MODEL_SOURCES
            n_boxes_as_polygons += shape.tag == "box" and kind == "polygons"
            submission.rows.append({"item": image.item, "annotator": annotator, **outcome.geometry,
                                    "label": shape.get("label")})
        submissions.append(submission)
    tracks = [Skipped(source.name, f"track {track.get('id')} frame {shape.get('frame')}", TRACK)
              for track in root.findall("track") for shape in track]
    return FileRead(submissions, tracks, n_model_shapes, n_boxes_as_polygons)


def _choose_kind(roots):
    found = sorted({SHAPE_KIND[shape.tag] for root in roots for image in root.findall("image") for shape in image
                    if shape.tag in SHAPE_KIND}, key=KINDS.index)
    if len(found) > 1:
        raise InputError(f"CVAT: the files hold {' and '.join(found)}; choose the kind to read", column="kind")
    return found[0] if found else "boxes"


def _warnings(roots, read_files, merged):
    warnings = [f"{file.tracks[0].source}: holds tracks (CVAT for video); export the job as 'CVAT for images "
                "1.1', which writes every tracked shape on its image" for file in read_files if file.tracks]
    versions = sorted({root.findtext("version") or "none" for root in roots} - {"1.1"})
    if versions:
        warnings.append(f"CVAT XML version {', '.join(versions)} read as 1.1")
    n_model = sum(file.n_model_shapes for file in read_files)
    if n_model:
        warnings.append(f"{n_model} shape(s) came from automatic annotation (source auto or semi-auto) and are "
                        "kept as the annotator's")
    n_boxes = sum(file.n_boxes_as_polygons for file in read_files)
    if n_boxes:
        warnings.append(f"{n_boxes} box(es) are read as polygons of their four corners (turned by their rotation)")
    if merged.saw_nothing:
        warnings.append(f"CVAT writes every image of a job and does not say whether the job was finished: "
                        f"{len(merged.saw_nothing)} image(s) with no shapes count as seen with nothing marked: "
                        f"{name_list(merged.saw_nothing)}")
    return warnings + merged.warnings


def _tag_answers(sources, roots, names, ranks):
    """One :class:`Answer` per file and image: its ``<tag>`` labels (none: not rated)."""
    answers = []
    for position, (source, root, rank) in enumerate(zip(sources, roots, ranks)):
        annotator = _assignee(root) or names[source.name]
        for image, element in zip(_images(source, root), root.findall("image")):
            labels = []
            for index, tag in enumerate(element.findall("tag")):
                if not (tag.get("label") or "").strip():
                    raise InputError(f"{source.name}: {image.record} <tag> {index}: a tag needs a 'label'",
                                     column="label")
                labels.append(tag.get("label").strip())
            answers.append(Answer(source.name, image.record, image.item, annotator, TAG_QUESTION, tuple(labels),
                                  (rank, position)))
    return answers


def _n_tags(roots):
    return sum(len(image.findall("tag")) for root in roots for image in root.findall("image"))


def _tag_conversion(sources, roots, question):
    """The ``labels`` conversion: each image's tags (several: a set), and what the shapes would give."""
    answers = _tag_answers(sources, roots, annotator_names(sources), _ranks(roots))
    skipped = []
    rows, warnings = answer_rows(answers, question, "CVAT", skipped)
    shapes = Counter(SHAPE_KIND[shape.tag] for root in roots for image in root.findall("image") for shape in image
                     if shape.tag in SHAPE_KIND)
    also = [f"the files also hold {n} shape(s) of kind {name}: convert with --kind {name}"
            for name, n in sorted(shapes.items())]
    return Conversion("cvat", LABELS, rows, warnings=warnings, skipped=skipped, also=also)


def read(sources, kind=None, question=None):
    """Rows of ``kind`` from CVAT for images 1.1 XML files, one per job (see the module docstring).

    Parameters
    ----------
    sources : list of Source
        One XML file per job or replica (or the job zips, which hold ``annotations.xml``).
    kind : {"boxes", "polygons", "masks", "labels"}, optional
        None reads the one kind of shape the files hold (labels when they hold tags and no shape), and is an
        error when they hold several.  Labels: each image's ``<tag>`` labels, the answer of its annotator to
        the one question ``tag`` (several tags: a set; an image without a tag is not rated).
    question : str, optional
        For labels: ``tag``, the one question CVAT's tags answer.

    Returns
    -------
    Conversion
    """
    roots = [_parse(source) for source in sources]
    if kind is None and not any(shape.tag in SHAPE_KIND for root in roots for image in root.findall("image")
                                for shape in image) and _n_tags(roots):
        kind = LABELS
    if kind == LABELS:
        return _tag_conversion(sources, roots, question)
    kind = kind or _choose_kind(roots)
    names = annotator_names(sources)
    read_files = [_read_file(source, root, kind, _assignee(root) or names[source.name], rank)
                  for source, root, rank in zip(sources, roots, _ranks(roots))]
    merged = merge((submission for file in read_files for submission in file.submissions), kind)
    skipped = merged.skipped + [track for file in read_files for track in file.tracks]
    n_tags = _n_tags(roots)
    also = [f"the files also hold {n_tags} image tag(s) (<tag>): convert with --kind labels"] if n_tags else []
    return Conversion("cvat", kind, merged.rows, warnings=_warnings(roots, read_files, merged), skipped=skipped,
                      also=also, image_sizes=merged.sizes or None)


register_format(Reader(name="cvat", title="CVAT for images 1.1 XML", kinds=KINDS + (LABELS,), detect=detect,
                       read=read, position=30, options=(QUESTION,)))
