"""COCO JSON (object detection, instance segmentation): boxes, polygons and masks.

Layout (Lin et al. 2014, as ``pycocotools`` reads it)::

    {"images": [{"id", "file_name", "width", "height"}], "categories": [{"id", "name"}],
     "annotations": [{"id", "image_id", "category_id", "bbox": [x, y, w, h], "iscrowd",
                      "segmentation": [[x1, y1, x2, y2, ...]] | {"size": [h, w], "counts": [...] | "..."}}]}

in pixels from the top-left corner.  The item is the image's ``file_name`` (image
ids are numbered per file).  ``category_id`` becomes the label through ``categories``.

COCO has no annotator field; the annotator of an annotation is, in this order:

* its ``rater_id``, ``rater`` or ``annotator`` field (the first of these the file's
  annotations carry; ``rater_id`` when only the images have a ``rater_list``):
  ``rater_id``/``rater`` with ``images[].rater_list`` is the multi-annotator
  convention of Tschirschwitz et al.'s toolkit; ``annotator`` is what Label Studio
  adds with ``LABEL_STUDIO_FORCE_ANNOTATOR_EXPORT``;
* else the ``annotator`` of its image entry (kalphacv: one image entry per annotator
  and image, sharing the ``file_name``);
* else the file: one file per annotator, named by its stem (files of one name by the
  folders that tell them apart).

Saw nothing: an image listed in an annotator's file (or image entry, or in the image's
``rater_list``) without annotations from that annotator.  An ``annotator`` field on the
annotations alone cannot say who saw an image and drew nothing (warned).  An annotator
who hands in an image twice (two files, or two image entries) keeps the one read last.

Left out, with the reason: crowd regions (``iscrowd`` 1) for boxes and polygons (one
region over several objects cannot be matched to one object; for masks their pixels
join the annotator's mask, warned); for polygons, multi-part polygons, RLE masks and
annotations without a segmentation; for masks, polygon segmentations (read them as
polygons).  Masks keep COCO's own run lengths (column-major, compressed or not).
``iscrowd`` may be 0/1, true/false or those as strings (some tools write ``"0"``); a
mask object without ``counts`` is an error (not an empty mask); a flat
``segmentation`` ``[x1, y1, ...]`` (without COCO's list of rings) is one polygon.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from typing import NamedTuple

from ..arrays import name_list
from ..parse.rle import parse_rle
from ..rows import InputError
from .base import Conversion, Reader, Skipped, load_json, register_format
from .submissions import Submission, annotator_names, merge

__all__ = ["detect", "read"]

KINDS = ("boxes", "polygons", "masks")
RATER_FIELDS = ("rater_id", "rater", "annotator")  # on annotations; the first one present is used
IMAGES_LIST = re.compile(r'"images"\s*:\s*\[')
ANNOTATIONS_LIST = re.compile(r'"annotations"\s*:\s*\[')
CROWD = "crowd region (iscrowd 1)"


class Image(NamedTuple):
    """One entry of ``images``."""

    id: object
    item: str              # file_name
    width: int | None
    height: int | None
    annotator: str | None  # images[].annotator (one entry per annotator)
    raters: tuple          # images[].rater_list


class Outcome(NamedTuple):
    """An annotation read: its geometry columns, or the reason it is left out."""

    geometry: dict | None
    skipped: str | None = None


def detect(source):
    """None when ``source`` is a COCO JSON file, else why not (its name and first bytes only)."""
    if not source.name.lower().endswith(".json"):
        return "not a .json file"
    head = source.head().lstrip()
    if not head.startswith("{"):
        return "not a JSON object"
    if not (IMAGES_LIST.search(head) or (ANNOTATIONS_LIST.search(head) and '"image_id"' in head)):
        return "no 'images' or 'annotations' list at the start"
    return None


# ----------------------------------------------------------------- the file's tables

def _load(source):
    try:
        data = load_json(source.text())
    except json.JSONDecodeError as error:
        raise InputError(f"{source.name}: not valid JSON ({error.msg})", line=error.lineno) from None
    if not (isinstance(data, dict) and isinstance(data.get("images", []), list)
            and isinstance(data.get("annotations"), list)):
        raise InputError(f"{source.name}: not a COCO file: expected an object with 'images' and 'annotations' lists")
    return data


def _size(entry, key, where):
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InputError(f"{where}: '{key}' must be a positive whole number of pixels", column=key, value=value)
    return int(value)


def _images(source, data):
    """Image id → :class:`Image`."""
    images = {}
    for index, entry in enumerate(data.get("images", [])):
        where = f"{source.name}: images[{index}]"
        if not isinstance(entry, dict) or not _is_id(entry.get("id")) or not isinstance(entry.get("file_name"), str) \
                or not entry["file_name"]:
            raise InputError(f"{where}: an image needs an 'id' and a 'file_name'", column="file_name")
        if entry["id"] in images:
            raise InputError(f"{where}: image id {entry['id']!r} is listed twice", column="id", value=entry["id"])
        raters = entry.get("rater_list", [])
        if not isinstance(raters, list):  # KaLOS writes sessions as {"rater": [session, ...]}
            raise InputError(f"{where}: 'rater_list' must be a list of annotators (rating sessions are not "
                             "read: keep one session per annotator)", column="rater_list")
        annotator = entry.get("annotator")
        images[entry["id"]] = Image(entry["id"], entry["file_name"], _size(entry, "width", where),
                                    _size(entry, "height", where), None if annotator is None else str(annotator),
                                    tuple(str(rater) for rater in raters))
    return images


def _labels(source, data):
    """Category id → name, or None when the file has no ``categories``."""
    if data.get("categories") is None:
        return None
    if not isinstance(data["categories"], list):
        raise InputError(f"{source.name}: 'categories' must be a list of {{id, name}}", column="categories")
    labels = {}
    for index, category in enumerate(data["categories"]):
        if not (isinstance(category, dict) and _is_id(category.get("id")) and isinstance(category.get("name"), str)):
            raise InputError(f"{source.name}: categories[{index}] needs an 'id' and a 'name'", column="categories")
        labels[category["id"]] = category["name"]
    return labels


# ----------------------------------------------------------------- one annotation

def _numbers(value, where, column, what, length=None):
    """``value`` as a list of numbers (``length`` of them when given), else an error naming the field."""
    if not isinstance(value, list) or (length is not None and len(value) != length) \
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise InputError(f"{where}: '{column}' must be {what}", column=column, value=value)
    if not all(math.isfinite(v) for v in value):
        raise InputError(f"{where}: '{column}' holds a number that is not finite ({value})", column=column,
                         value=value)
    return value


def _box(annotation, where):
    bbox = annotation.get("bbox")
    if not bbox:
        return Outcome(None, "no bbox")
    x, y, w, h = _numbers(bbox, where, "bbox", "[x, y, width, height] in pixels", length=4)
    return Outcome({"x": x, "y": y, "w": w, "h": h})


def _polygon(annotation, where):
    segmentation = annotation.get("segmentation")
    if not segmentation:
        return Outcome(None, "no segmentation (a box only)")
    if isinstance(segmentation, dict):
        return Outcome(None, "RLE mask (not a polygon)")
    if not isinstance(segmentation, list):
        raise InputError(f"{where}: 'segmentation' must be a list of polygons or an RLE object",
                         column="segmentation", value=segmentation)
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in segmentation):
        segmentation = [segmentation]  # one polygon written flat, [x1, y1, x2, y2, ...] (not COCO's nesting)
    if len(segmentation) > 1:
        return Outcome(None, "multi-part polygon")
    ring = _numbers(segmentation[0], where, "segmentation", "a list of polygons [x1, y1, x2, y2, ...]")
    if len(ring) % 2 or len(ring) < 6:
        raise InputError(f"{where}: a polygon needs at least 3 points as x, y pairs; it has {len(ring)} numbers",
                         column="segmentation")
    return Outcome({"points": " ".join(repr(v) for v in ring)})


def _mask(annotation, image, where):
    segmentation = annotation.get("segmentation")
    if not segmentation:
        return Outcome(None, "no segmentation (a box only)")
    if not isinstance(segmentation, dict):
        return Outcome(None, "polygon (not an RLE mask; read it as polygons)")
    size = segmentation.get("size")
    if not (isinstance(size, list) and len(size) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
        raise InputError(f"{where}: an RLE mask needs 'size': [height, width]", column="segmentation")
    height, width = size
    if (image.height, image.width) not in ((None, None), (height, width)):
        raise InputError(f"{where}: the mask is {width} × {height} but its image is {image.width} × {image.height}",
                         column="segmentation")
    counts = segmentation.get("counts")
    if not isinstance(counts, (str, list)):  # a mask without its runs is not an empty mask
        raise InputError(f"{where}: an RLE mask needs 'counts' (a string or a list of run lengths), found "
                         f"{counts!r}", column="segmentation.counts", value=counts)
    rle = " ".join(str(c) for c in counts) if isinstance(counts, list) else counts
    try:
        parse_rle(rle, height, width)
    except InputError as error:
        raise InputError(f"{where}: {error.message}", column="segmentation") from None
    return Outcome({"width": width, "height": height, "rle": rle})


CROWD_VALUES = {0: False, 1: True, "0": False, "1": True, "false": False, "true": True}


def is_crowd(annotation, where):
    """The annotation's ``iscrowd`` as a bool: 0/1, true/false, or those as strings; else an error."""
    value = annotation.get("iscrowd", 0)
    key = value.strip().lower() if isinstance(value, str) else value
    if isinstance(key, float) and key.is_integer():
        key = int(key)
    if not isinstance(key, (int, str)) or key not in CROWD_VALUES:
        raise InputError(f"{where}: 'iscrowd' must be 0 or 1, found {value!r}", column="iscrowd", value=value)
    return CROWD_VALUES[key]


def _read_annotation(annotation, image, kind, where):
    """The annotation's geometry for ``kind``, or why it is left out."""
    if kind == "masks":
        return _mask(annotation, image, where)
    if is_crowd(annotation, where):
        return Outcome(None, CROWD)
    return _box(annotation, where) if kind == "boxes" else _polygon(annotation, where)


def _is_id(value):
    """True for a value COCO uses as an id (a number or a text), never a list or an object."""
    return isinstance(value, (int, float, str)) and not isinstance(value, bool)


def _label(annotation, labels, where):
    category = annotation.get("category_id")
    if category is not None and not _is_id(category):
        raise InputError(f"{where}: category_id must be a number or a text, not {category!r}", column="category_id",
                         value=category)
    if labels is None or category is None:
        return None if category is None else str(category)
    if category not in labels:
        raise InputError(f"{where}: category_id {category!r} is not in 'categories'", column="category_id",
                         value=category)
    return labels[category]


# ----------------------------------------------------------------- one file

class Rule(NamedTuple):
    """A file's annotator rule: an annotation field, the image entries, or the file."""

    field: str | None   # annotations[].<field> names the annotator
    per_image: bool     # else images[].annotator does (one entry per annotator and image)
    file_annotator: str

    def unit(self, image, annotation=None):
        """``(annotator, item, entry)`` of an annotation on ``image``; entry tells image entries apart."""
        if self.field is not None:
            return str(annotation[self.field]), image.item, None
        if self.per_image:
            return image.annotator, image.item, image.id
        return self.file_annotator, image.item, None

    def viewers(self, image):
        """The units of the annotators the file says saw ``image``."""
        if self.field is not None:
            return [(str(rater), image.item, None) for rater in image.raters]
        return [self.unit(image)]


def _rule(source, images, annotations, file_annotator):
    """The file's :class:`Rule`, after checking that the file follows it throughout."""
    present = {key for annotation in annotations if isinstance(annotation, dict) for key in annotation}
    field = next((key for key in RATER_FIELDS if key in present), None)
    if field is None and any(image.raters for image in images.values()):
        field = RATER_FIELDS[0]  # a rater_list calls for annotators on the annotations, even with none there
    per_image = field is None and any(image.annotator is not None for image in images.values())
    if per_image:
        missing = [image.id for image in images.values() if image.annotator is None]
        if missing:
            raise InputError(f"{source.name}: images {name_list(missing)} name no 'annotator', other images do",
                             column="annotator")
    elif field is None:
        twice = [item for item, n in Counter(image.item for image in images.values()).items() if n > 1]
        if twice:
            raise InputError(f"{source.name}: {name_list(twice)} listed more than once in 'images', and nothing "
                             "says whose annotations are whose: give each annotator their own file, or an "
                             "'annotator' field to the images or annotations", column="file_name", value=twice[0])
    return Rule(field, per_image, file_annotator)


class FileRead(NamedTuple):
    """A file's submissions in reading order, and what to warn about."""

    submissions: list
    n_crowd_masks: int
    warnings: list


def _read_file(source, data, kind, file_annotator):
    images, labels = _images(source, data), _labels(source, data)
    rule = _rule(source, images, data["annotations"], file_annotator)
    units = {}  # (annotator, item, entry) → Submission, in reading order

    def unit(key, image):
        size = None if image.width is None or image.height is None else (image.width, image.height)
        return units.setdefault(key, Submission(source.name, key[0], key[1], [], [], size))

    for image in images.values():
        for key in rule.viewers(image):
            unit(key, image)
    n_crowd_masks = 0
    for index, annotation in enumerate(data["annotations"]):
        record = f"annotations[{index}] (id {annotation.get('id') if isinstance(annotation, dict) else None})"
        where = f"{source.name}: {record}"
        if not isinstance(annotation, dict) or not _is_id(annotation.get("image_id")) \
                or annotation["image_id"] not in images:
            raise InputError(f"{where}: its image_id is not in 'images'", column="image_id")
        if rule.field is not None and annotation.get(rule.field) in (None, ""):
            raise InputError(f"{where}: no '{rule.field}' naming its annotator (the file's other annotations or "
                             "rater lists name theirs)", column=rule.field)
        image = images[annotation["image_id"]]
        submission = unit(rule.unit(image, annotation), image)
        outcome = _read_annotation(annotation, image, kind, where)
        if outcome.geometry is None:
            submission.skipped.append(Skipped(source.name, record, outcome.skipped))
            continue
        n_crowd_masks += is_crowd(annotation, where)
        submission.rows.append({"item": image.item, "annotator": submission.annotator, **outcome.geometry,
                                "label": _label(annotation, labels, where)})
    warnings = []
    if labels is None and data["annotations"]:
        warnings.append(f"{source.name}: no 'categories': the labels are the category ids")
    if rule.field is not None and not any(image.raters for image in images.values()):
        warnings.append(f"{source.name}: the annotations name their annotator ('{rule.field}') but the images "
                        "have no 'rater_list', so an image an annotator left empty counts as never seen")
    return FileRead(list(units.values()), n_crowd_masks, warnings)


# ----------------------------------------------------------------- the reader

def _choose_kind(files):
    if any(isinstance(a, dict) and a.get("segmentation") for data in files for a in data["annotations"]):
        raise InputError("COCO: the annotations hold boxes and segmentations; choose the kind to read "
                         "(boxes, polygons or masks)", column="kind")
    return "boxes"


def read(sources, kind=None, **options):
    """Rows of ``kind`` from COCO JSON files (see the module docstring for the rules).

    Parameters
    ----------
    sources : list of Source
        One file per annotator, or files whose images or annotations name their annotators.
    kind : {"boxes", "polygons", "masks"}, optional
        None reads boxes when no annotation has a segmentation, else is an error.

    Returns
    -------
    Conversion
    """
    if options:
        raise InputError(f"COCO takes no options ({', '.join(sorted(options))} given)")
    files = [_load(source) for source in sources]
    kind = kind or _choose_kind(files)
    names = annotator_names(sources)
    read_files = [_read_file(source, data, kind, names[source.name]) for source, data in zip(sources, files)]
    merged = merge((submission for file in read_files for submission in file.submissions), kind)
    warnings = [w for file in read_files for w in file.warnings] + merged.warnings
    n_crowd = sum(file.n_crowd_masks for file in read_files)
    if n_crowd:
        warnings.append(f"{n_crowd} crowd region(s) (iscrowd 1) are read as masks: their pixels join the "
                        "annotator's mask of the image")
    return Conversion("coco", kind, merged.rows, warnings=warnings, skipped=merged.skipped,
                      image_sizes=merged.sizes or None)


register_format(Reader(name="coco", title="COCO JSON", kinds=KINDS, detect=detect, read=read, position=20))
