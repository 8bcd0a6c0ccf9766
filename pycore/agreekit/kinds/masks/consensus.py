"""The masks kind's consensus: per item, the pixel-wise (weighted) majority vote of the annotators who saw it.

As in the masks report, an annotator's masks on an item are united and one who
marked nothing has an empty mask, which votes "background" on every pixel.  So
every annotator who saw the item is a member of the item's one cluster (the
match threshold is 0, and two empty masks are identical), its support is the
number of those annotators, and the fused mask keeps the pixels that more than
half of the members' weight marked: with equal weights, the masks report's
majority vote (:func:`agreekit.measures.staple.majority_vote`).  An item whose
majority mask is empty gets a "marked nothing" row.  Every annotator matches at
threshold 0, so the ranking's reliability is the mean mask IoU with the others'
majority mask (``mean_similarity``), not the recall.
"""
from __future__ import annotations

import numpy as np

from ...geometry.rle import pairwise_iou, runs_of_segments, segments, union_runs
from ...object_sets import Annotation
from ...registry import ConsensusHook


def read(rows, label=None, **_):
    """One record per annotator and item: ``(height, width, runs…)`` of its united mask (empty included)."""
    from .report import parse_masks  # the report module registers this hook: imported when first used

    parsed = parse_masks(rows, label=label)
    records = []
    for item, masks in parsed.items.items():
        n = masks.height * masks.width
        for annotator, runs in masks.by_annotator.items():
            united = union_runs(runs, n)
            records.append(Annotation(0, item, annotator, (masks.height, masks.width, *map(int, united)),
                                      label or ""))
    return records, 0.0, list(parsed.warnings)


def _cut(masks):
    height, width = masks[0][0], masks[0][1]
    return segments([np.asarray(m[2:], dtype=np.int64) for m in masks], height * width), height, width


def similarity(masks):
    """Mask IoU of every pair; two empty masks are identical (1)."""
    if not len(masks):
        return np.zeros((0, 0))
    cut, _, _ = _cut(masks)
    return np.nan_to_num(pairwise_iou(cut.votes, cut.lengths), nan=1.0)


def fuse(masks, weights):
    """The pixels marked by more than half of the members' weight."""
    cut, height, width = _cut(masks)
    weights = np.asarray(weights, dtype=float)
    keep = weights @ cut.votes.astype(float) > weights.sum() / 2.0
    return (height, width, *map(int, runs_of_segments(cut.lengths, keep)))


def to_row(item, annotator, mask, label):
    """A mask row (run lengths as integers), blank rle for an empty mask; None without a mask (a quorum
    above the item's annotators), whose size the row could not give."""
    if mask is None:
        return None
    if len(mask) <= 3:
        return {"item": item, "annotator": annotator, "width": mask[1], "height": mask[0], "rle": "", "label": ""}
    return {"item": item, "annotator": annotator, "width": mask[1], "height": mask[0],
            "rle": " ".join(map(str, mask[2:])), "label": label}


CONSENSUS = ConsensusHook(read=read, similarity=similarity, fuse=fuse, key=tuple, to_row=to_row,
                          options=("label",), reliability="mean_similarity", weighting="mean_similarity")
