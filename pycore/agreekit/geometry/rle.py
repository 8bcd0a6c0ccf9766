"""Binary masks as COCO run lengths: encoding, decoding, and mask IoU computed on runs.

Run lengths (their text forms are read by :mod:`agreekit.parse.rle`) alternate
background, foreground, …, starting with background, over the pixels in
column-major order.

Mask IoU = |A ∩ B| / |A ∪ B|, computed on runs: the run boundaries of all masks of
an item are merged into segments on which every mask's value is constant
(:func:`segments`), so no mask is ever expanded to pixels.

References
----------
T.-Y. Lin et al., "Microsoft COCO: Common Objects in Context", ECCV 2014; the
codec is ``rleToString``/``rleFrString`` of ``pycocotools/common/maskApi.c``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..arrays import safe_ratio

__all__ = ["encode", "decode", "Segments", "segments", "runs_of_segments", "union_runs", "mask_iou", "pairwise_iou"]


# --------------------------------------------------------------------------- masks and runs

def encode(mask) -> np.ndarray:
    """Uncompressed COCO run lengths of a 2-D boolean mask.

    Parameters
    ----------
    mask : array_like of bool, shape (height, width)

    Returns
    -------
    np.ndarray of int64
        Run lengths in column-major order, background first, summing to ``mask.size``.

    >>> encode([[False, True], [True, True]]).tolist()
    [1, 3]
    >>> encode([[True, False]]).tolist()
    [0, 1, 1]
    """
    flat = np.asarray(mask, dtype=bool).ravel(order="F")
    change = np.flatnonzero(flat[1:] != flat[:-1]) + 1
    edges = np.concatenate([[0], change, [flat.size]])
    runs = np.diff(edges)
    if flat.size and flat[0]:
        runs = np.concatenate([[0], runs])
    return runs.astype(np.int64)


def decode(counts, height: int, width: int) -> np.ndarray:
    """The ``(height, width)`` boolean mask of uncompressed COCO run lengths (inverse of :func:`encode`).

    >>> decode([1, 3], 2, 2).tolist()
    [[False, True], [True, True]]
    """
    counts = np.asarray(counts, dtype=np.int64)
    values = np.arange(len(counts)) % 2 == 1
    return np.repeat(values, counts).reshape((height, width), order="F")


# --------------------------------------------------------------------------- several masks on runs

class Segments(NamedTuple):
    """Several masks of one size cut into segments on which every mask is constant."""

    lengths: np.ndarray  # (segments,) pixel count of each segment
    votes: np.ndarray    # (masks, segments) bool: each mask's value on each segment


def segments(runs_list, n_pixels: int) -> Segments:
    """Merge the run boundaries of several masks of ``n_pixels`` into common :class:`Segments`.

    >>> cut = segments([[1, 3], [2, 2]], 4)
    >>> cut.lengths.tolist(), cut.votes.tolist()
    ([1, 1, 2], [[False, True, True], [False, False, True]])
    """
    ends = [np.cumsum(r) for r in runs_list]
    bounds = np.unique(np.concatenate([[0, n_pixels]] + ends))
    starts = bounds[:-1]
    votes = np.array([np.searchsorted(e, starts, side="right") % 2 == 1 for e in ends]).reshape(len(ends), -1)
    return Segments(np.diff(bounds), votes)


def runs_of_segments(lengths, values) -> np.ndarray:
    """Run lengths (background first) of one mask given by its value on each segment.

    >>> runs_of_segments(np.array([1, 1, 2]), np.array([False, True, True])).tolist()
    [1, 3]
    """
    if len(values) == 0:
        return np.zeros(1, dtype=np.int64)
    change = np.flatnonzero(values[1:] != values[:-1]) + 1
    edges = np.concatenate([[0], change])
    runs = np.add.reduceat(lengths, edges)
    if values[0]:
        runs = np.concatenate([[0], runs])
    return runs.astype(np.int64)


def union_runs(runs_list, n_pixels: int) -> np.ndarray:
    """Run lengths of the union (OR) of several masks of ``n_pixels``, computed on runs.

    >>> union_runs([[1, 1, 2], [3, 1]], 4).tolist()
    [1, 1, 1, 1]
    """
    cut = segments(runs_list, n_pixels)
    return runs_of_segments(cut.lengths, cut.votes.any(axis=0))


def mask_iou(runs_a, runs_b) -> float:
    """IoU |A ∩ B| / |A ∪ B| of two masks of one size given as run lengths; NaN when both are empty.

    >>> mask_iou([1, 3], [2, 2])
    0.6666666666666666
    """
    cut = segments([runs_a, runs_b], int(np.sum(runs_a)))
    inter = float(np.sum(cut.lengths[cut.votes[0] & cut.votes[1]]))
    union = float(np.sum(cut.lengths[cut.votes[0] | cut.votes[1]]))
    return float(safe_ratio(inter, union))


def pairwise_iou(votes, lengths) -> np.ndarray:
    """The masks × masks IoU matrix of masks given on common segments.

    Parameters
    ----------
    votes : np.ndarray of bool, shape (masks, segments)
    lengths : np.ndarray, shape (segments,)
        Pixel count of each segment.

    Returns
    -------
    np.ndarray, shape (masks, masks)
        NaN where both masks are empty.
    """
    marked = np.asarray(votes).astype(float)
    inter = (marked * lengths) @ marked.T
    size = np.diag(inter)
    union = size[:, None] + size[None, :] - inter
    return safe_ratio(inter, union)
