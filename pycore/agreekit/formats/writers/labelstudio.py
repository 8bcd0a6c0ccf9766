"""Label Studio JSON writer: one task per item, each annotator's rows as a prediction the user can correct.

Label Studio imports a list of tasks ``{"data", "meta", "predictions":
[{"model_version", "result": [...]}]}`` and shows each prediction as a
pre-annotation to accept or correct; agreekit's importer reads predictions as
annotators named after ``model_version`` (:mod:`agreekit.formats.labelstudio`,
option ``predictions``).  So each annotator (a consensus is one) is one
prediction, ``model_version`` their name; an annotator who saw the item and
marked nothing is a prediction with an empty ``result``.

=========  ==================================================================
kind       result (``from_name`` / ``to_name`` options; defaults below)
=========  ==================================================================
boxes      ``rectanglelabels``: x, y, width, height in percent of
           ``original_width``/``original_height``, rotation 0 (label / image)
polygons   ``polygonlabels``: points in percent, closed (label / image)
masks      ``brushlabels``: ``format: "rle"``, Label Studio's brush run
           lengths of the mask's RGBA canvas (label / image)
spans      ``labels``: start, end (UTF-16 code units, as Label Studio counts),
           text (label / text); ``data.text`` is the document
segments   ``labels``: start, end in seconds, channel 0 (label / audio)
labels     ``choices``: the annotator's labels of the item (several: a
           label set) (label / text); ``data.text`` is the item's text
           from ``texts``, else the item's name
=========  ==================================================================

The task's ``meta.item`` names the item (Label Studio keeps a task's
``meta`` through import and export, and agreekit's importer reads it); its
``data`` field (``image``, ``text`` or ``audio``) holds, for images and
audio, ``url_prefix`` + the item (e.g. ``/data/local-files/?d=`` so Label
Studio finds the files).  A region without
a label is written without ``…labels``.

Cannot carry (refused with the option that supplies it): image sizes for
boxes and polygons (``image_sizes``: percent coordinates need them), the
documents' texts for spans (``texts``).  An image that has only empty masks
has no brush region to give its size, so agreekit's importer leaves its
saw-nothing rows out (said in the notes).
"""
from __future__ import annotations

import json

from ...arrays import name_list
from ...rows import InputError
from . import Writer, Written, register_writer
from ..labelstudio_brush import brush_rle
from .brat import checked_texts
from .records import image_sizes as read_sizes
from .records import grouped, is_empty, item_table, mask_pixels

NAME = "labelstudio"
KINDS = ("boxes", "polygons", "masks", "spans", "segments", "labels")
TARGET = {"boxes": "image", "polygons": "image", "masks": "image", "spans": "text", "segments": "audio",
          "labels": "text"}
RESULT_TYPE = {"boxes": "rectanglelabels", "polygons": "polygonlabels", "masks": "brushlabels", "spans": "labels",
               "segments": "labels", "labels": "choices"}
BARE_TYPE = {"boxes": "rectangle", "polygons": "polygon", "masks": "brush"}  # a region without a label


def _utf16(text, offset):
    """The UTF-16 code-unit offset of code point ``offset`` (what Label Studio counts in JavaScript)."""
    return offset + sum(1 for c in text[:offset] if ord(c) > 0xFFFF)


def _value(kind, record, size, text):
    g = record.geometry
    if kind == "boxes":
        width, height = size
        return {"x": g["x"] * 100 / width, "y": g["y"] * 100 / height, "width": g["w"] * 100 / width,
                "height": g["h"] * 100 / height, "rotation": 0}
    if kind == "polygons":
        width, height = size
        return {"points": [[x * 100 / width, y * 100 / height] for x, y in g["points"]], "closed": True}
    if kind == "masks":
        return {"format": "rle", "rle": brush_rle(mask_pixels(record))}
    if kind == "spans":
        return {"start": _utf16(text, g["start"]), "end": _utf16(text, g["end"]), "text": text[g["start"]:g["end"]]}
    return {"start": g["start"], "end": g["end"], "channel": 0}


def _result(kind, record, number, names, size, text):
    value = _value(kind, record, size, text)
    result_type = RESULT_TYPE[kind]
    if record.label is not None:
        value[result_type] = [record.label]
    else:
        result_type = BARE_TYPE.get(kind, result_type)
    result = {"id": f"r{number}", "type": result_type, "from_name": names[0], "to_name": names[1], "value": value}
    if size is not None:
        result.update(original_width=size[0], original_height=size[1], image_rotation=0)
    return result


def _choices(records, number, names):
    labels = sorted({r.label for r in records})
    return {"id": f"{number}_1", "type": "choices", "from_name": names[0], "to_name": names[1],
            "value": {"choices": labels}}


def _sizes(kind, records, given):
    sizes = read_sizes(given)
    if kind == "masks":  # a mask carries its image's size
        sizes.update({r.item: (r.geometry["width"], r.geometry["height"]) for r in records})
    missing = sorted({r.item for r in records} - set(sizes)) if kind in ("boxes", "polygons") else []
    if missing:
        raise InputError("Label Studio writes image regions in percent of the image, whose size the rows do not "
                         "carry: give it in the option image_sizes (item → width, height); missing for "
                         f"{name_list(missing)}", column="image_sizes", value=missing[0])
    return sizes


def _task(kind, item, records, names, sizes, texts, url_prefix):
    data_key = TARGET[kind]
    data = {data_key: texts[item] if kind == "spans" else texts.get(item, item) if kind == "labels"
            else f"{url_prefix}{item}"}
    predictions = []
    for number, (annotator, mine) in enumerate(grouped(records, "annotator").items(), start=1):
        if kind == "labels":  # one choices result with every label the annotator gave the item
            predictions.append({"model_version": annotator, "result": [_choices(mine, number, names)]})
            continue
        size = sizes.get(item) if TARGET[kind] == "image" else None
        results = [_result(kind, r, f"{number}_{k}", names, size, texts.get(item))
                   for k, r in enumerate((r for r in mine if not is_empty(r)), start=1)]
        predictions.append({"model_version": annotator, "result": results})
    return {"data": data, "meta": {"item": item}, "predictions": predictions}


def _unsized_empty_masks(kind, records):
    drawn = {r.item for r in records if not is_empty(r)}
    empty = sorted({r.item for r in records} - drawn) if kind == "masks" else []
    if not empty:
        return []
    return [f"{len(empty)} image(s) have only empty masks, and Label Studio gives an image's size only with a "
            f"brush region: agreekit's importer leaves their saw-nothing rows out ({name_list(empty)})"]


def write(kind, records, *, image_sizes=None, texts=None, from_name="label", to_name=None, url_prefix=""):
    """Label Studio tasks with one prediction per annotator (see the module docstring)."""
    sizes = _sizes(kind, records, image_sizes)
    texts = checked_texts(texts, records, "Label Studio") if kind == "spans" else \
        item_table(texts, ("item", "text"), "texts") or {}
    names = (str(from_name), str(to_name or TARGET[kind]))
    tasks = [_task(kind, item, mine, names, sizes, texts, url_prefix)
             for item, mine in grouped(records, "item").items()]
    text = json.dumps(tasks, indent=1, ensure_ascii=False, allow_nan=False)
    notes = _unsized_empty_masks(kind, records)
    return Written(NAME, ((f"{kind}-labelstudio.json", (text + "\n").encode("utf-8")),), tuple(notes),
                   read_options={"predictions": "read"})


register_writer(Writer(name=NAME, title="Label Studio JSON", kinds=KINDS, write=write, reader="labelstudio",
                       suffix=".json"))
