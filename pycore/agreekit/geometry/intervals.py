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


def paired_temporal_iou(start_a, end_a, start_b, end_b, rule="default"):
    """Temporal IoU of segment ``a[k]`` with segment ``b[k]``, elementwise.

    The same arithmetic, operation for operation, as :func:`temporal_iou` (and
    its ``rule``), so a pair gets bit-equal values from both.  Arrays of any one
    broadcastable shape.
    """
    sa, ea, sb, eb = (np.asarray(x, dtype=float) for x in (start_a, end_a, start_b, end_b))
    intersection = np.maximum(0.0, np.minimum(ea, eb) - np.maximum(sa, sb))
    union = (ea - sa) + (eb - sb) - intersection
    iou = np.where(union > 0, safe_ratio(intersection, union), 0.0)
    if rule == "potato":
        return np.where((ea > sa) & (eb > sb), iou, 0.0)
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


def overlapping_pairs(low_a, high_a, low_b, high_b, chunk=1 << 20):
    """Every pair (a[r], b[c]) whose closed intervals [low, high] meet: ``(r, c)``, ordered by r then c.

    A sweep: b sorted by its low ends, and for each a only the b whose low end
    lies in [low_a − the longest b, high_a] are looked at, ``chunk`` at a time;
    memory grows with the pairs that meet (and the longest b), not with n·m.
    Intervals that meet are a superset of the pairs with a positive overlap.
    """
    low_a, high_a, low_b, high_b = (np.asarray(x, dtype=float) for x in (low_a, high_a, low_b, high_b))
    empty = np.zeros(0, dtype=np.intp)
    if not len(low_a) or not len(low_b):
        return empty, empty
    order = np.argsort(low_b, kind="stable")
    sorted_low = low_b[order]
    first = np.searchsorted(sorted_low, low_a - float(np.max(high_b - low_b)), side="left")
    counts = np.maximum(np.searchsorted(sorted_low, high_a, side="right") - first, 0)
    ends = np.cumsum(counts, dtype=np.int64)  # n·m may outgrow a 32-bit intp (Pyodide)
    found_r, found_c, row = [], [], 0
    while row < len(low_a):  # rows in groups of about ``chunk`` looked-at pairs (at least one row)
        stop = max(row + 1, int(np.searchsorted(ends, ends[row] - counts[row] + chunk, side="right")))
        n = counts[row:stop]
        r = np.repeat(np.arange(row, stop, dtype=np.intp), n)
        step = np.arange(int(n.sum()), dtype=np.intp) - np.repeat(np.cumsum(n) - n, n)
        c = order[np.repeat(first[row:stop], n) + step]
        keep = high_b[c] >= low_a[r]
        found_r.append(r[keep])
        found_c.append(c[keep])
        row = stop
    r, c = np.concatenate(found_r), np.concatenate(found_c)
    by_row = np.lexsort((c, r))
    return r[by_row], c[by_row]
