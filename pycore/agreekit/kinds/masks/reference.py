"""Masks against a reference: each annotator's mask of an item (its masks united) an object of the
reference engine (:mod:`agreekit.reference`), similar by mask IoU.

An annotator matches the reference on an item when their masks' IoU reaches
the threshold; a mask below it but at least ``low_overlap`` is a low-overlap
conflict; a mask where the reference marked nothing is extra, nothing where
it marked something missing.  The mean matched IoU is the mask IoU.  No σ: a
mask of another image (of another size) is no chance baseline for this one.
"""
from __future__ import annotations

import numpy as np

from ...errors import InputError
from ...geometry.rle import mask_iou, union_runs
from ...object_sets import Annotation, build_objects
from ...objects import ObjectKind


def mask_records(data, runs, sizes=None):
    """Records of :class:`MaskRows` ``data``, one per (item, annotator), masks united; ``runs`` receives
    the united run lengths (a record's geometry is its index there).  ``sizes`` (item → (height, width)),
    when given, must hold for every item it names (reference rows against the rows)."""
    records = []
    for item, masks in data.items.items():
        if sizes is not None and item in sizes and sizes[item] != (masks.height, masks.width):
            height, width = sizes[item]
            raise InputError(f"item {item!r} is {masks.width} × {masks.height} in the reference rows but "
                             f"{width} × {height} in the rows", column="width", value=masks.width,
                             field="reference_rows")
        for annotator, masks_of in masks.by_annotator.items():
            united = union_runs(masks_of, masks.height * masks.width)
            if united.size <= 1:   # one background run: nothing marked
                records.append(Annotation(0, item, annotator, None, ""))
                continue
            records.append(Annotation(0, item, annotator, (len(runs),), ""))
            runs.append(united)
    return records


def mask_set(records, runs):
    """``(objects, ObjectKind)`` of mask records: mask IoU, no distance; items ordered by the masks' runs."""
    content = lambda r: (runs[r.geometry[0]].tobytes(),)  # noqa: E731  (not the index: that follows row order)
    objects, index, _ = build_objects(records, width=1, noun="mask(s)", plural="masks", content=content)
    own = [runs[int(k)] for k in index[:, 0]]

    def similarity(idx):
        out = np.eye(len(idx))
        for x in range(len(idx)):
            for y in range(x + 1, len(idx)):
                out[x, y] = out[y, x] = np.nan_to_num(mask_iou(own[idx[x]], own[idx[y]]))
        return out
    return objects, ObjectKind(similarity=similarity, paired_distance=None, distance_block=None)
