"""Temporal IoU of time segments [start, end], as pure array functions.

The IoU of two intervals is the interval form of the Jaccard index,
|overlap| / |union|.  Zero-length segments (start = end) have no measure, so
two of them give 0/0; the two rules for that case are those of the Potato
versions agreekit is compared with (``docs/potato-differences.md``).
"""
from __future__ import annotations

import numpy as np

from ..arrays import safe_ratio

IOU_RULES = ("default", "potato")


def temporal_iou(start_a, end_a, start_b, end_b, rule="default"):
    """Temporal IoU of every segment of A with every segment of B.

    IoU = I / (L_a + L_b − I), with I = max(0, min(e_a, e_b) − max(s_a, s_b))
    the length of the overlap and L = e − s the lengths.  The union
    L_a + L_b − I is 0 only when both segments have zero length; the rule
    says what such pairs, and pairs with one zero-length segment, score.

    Parameters
    ----------
    start_a, end_a : array_like, shape (m,)
        Starts and ends of A's segments (any time unit, ``end >= start``).
    start_b, end_b : array_like, shape (n,)
        Starts and ends of B's segments.
    rule : {"default", "potato"}
        ``"default"`` (Potato 2.11): where the union is 0 (two zero-length
        segments) the IoU is 1 if the two segments have the same start and the
        same end (the same instant marked twice) and 0 otherwise; a zero-length
        segment against a segment of positive length has I = 0, so IoU 0.
        ``"potato"`` (Potato 2.8, its ``geometry.temporal_iou``): the IoU is 0
        wherever either segment has ``end <= start``, even for two identical
        instants.

    Returns
    -------
    ndarray, shape (m, n)
        ``iou[i, j]`` of A's segment i and B's segment j, in [0, 1].

    Raises
    ------
    ValueError
        For a ``rule`` not in :data:`IOU_RULES`.

    References
    ----------
    Jaccard, P. (1912). The distribution of the flora in the alpine zone.
    New Phytologist 11(2), 37–50.  Differences from Potato:
    ``docs/potato-differences.md``.

    Examples
    --------
    >>> float(temporal_iou([0.0], [4.0], [1.0], [5.0])[0, 0])
    0.6
    """
    if rule not in IOU_RULES:
        raise ValueError(f"unknown IoU rule {rule!r}; expected one of {', '.join(IOU_RULES)}")
    sa = np.asarray(start_a, dtype=float)[:, None]
    ea = np.asarray(end_a, dtype=float)[:, None]
    sb = np.asarray(start_b, dtype=float)[None, :]
    eb = np.asarray(end_b, dtype=float)[None, :]
    intersection = np.maximum(0.0, np.minimum(ea, eb) - np.maximum(sa, sb))
    union = (ea - sa) + (eb - sb) - intersection
    iou = np.where(union > 0, safe_ratio(intersection, union), 0.0)
    if rule == "potato":
        return np.where((ea > sa) & (eb > sb), iou, 0.0)
    # union = 0 only for two zero-length segments; identical ones agree fully.
    return np.where((union <= 0) & (sa == sb) & (ea == eb), 1.0, iou)


def paired_temporal_iou(start_a, end_a, start_b, end_b):
    """Temporal IoU of segment ``a[k]`` with segment ``b[k]``, elementwise (the ``"default"`` rule).

    The same arithmetic, operation for operation, as :func:`temporal_iou`, so a
    pair gets bit-equal values from both.  Arrays of any one broadcastable shape.
    """
    sa, ea, sb, eb = (np.asarray(x, dtype=float) for x in (start_a, end_a, start_b, end_b))
    intersection = np.maximum(0.0, np.minimum(ea, eb) - np.maximum(sa, sb))
    union = (ea - sa) + (eb - sb) - intersection
    iou = np.where(union > 0, safe_ratio(intersection, union), 0.0)
    return np.where((union <= 0) & (sa == sb) & (ea == eb), 1.0, iou)


def paired_temporal_giou(start_a, end_a, start_b, end_b):
    """Generalized IoU of segment ``a[k]`` with segment ``b[k]``, elementwise, in [−1, 1].

    GIoU = IoU − (H − U) / H (Rezatofighi et al. 2019, in one dimension), with U
    the union and H = max(e_a, e_b) − min(s_a, s_b) the length of the smallest
    interval holding both.  Where H = 0 (two identical instants) GIoU = IoU.
    IoU as :func:`paired_temporal_iou`.
    """
    sa, ea, sb, eb = (np.asarray(x, dtype=float) for x in (start_a, end_a, start_b, end_b))
    intersection = np.maximum(0.0, np.minimum(ea, eb) - np.maximum(sa, sb))
    union = (ea - sa) + (eb - sb) - intersection
    hull = np.maximum(ea, eb) - np.minimum(sa, sb)
    penalty = np.where(hull > 0, safe_ratio(hull - union, hull), 0.0)
    return paired_temporal_iou(sa, ea, sb, eb) - penalty
