"""Segments as objects of the object engine, and the boundary blocks of the tolerance sweep."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...geometry.intervals import overlapping_pairs, paired_temporal_iou, temporal_iou
from ...measures.boundaries import BoundaryBlock
from ...arrays import content_ranks
from ...object_sets import ObjectSet, object_ranks
from ...objects import ObjectKind

DEFAULT_TOLERANCES = (0.1, 0.25, 0.5, 1.0, 2.0)  # seconds: the boundary sweep's default tolerances


class SegmentObjects(NamedTuple):
    """The scored segments as objects, with their start and end times by global object index."""

    objects: ObjectSet
    start: np.ndarray
    end: np.ndarray


def segment_objects(corpus, canonical=True):
    """The scored items of ``corpus`` as objects for :func:`~agreekit.objects.object_report`.

    Parameters
    ----------
    corpus : Corpus
        Checked input (:func:`read_segments`).
    canonical : bool
        Order each annotator's segments by start, end, then label: the
        tie-break of matching among equally good matchings (as for boxes), so
        that the order of the rows cannot change a report.  False keeps row
        order, as Potato mode must.

    Returns
    -------
    SegmentObjects
        The :class:`~agreekit.objects.ObjectSet` of the items with two or more
        annotators, contiguous by item, and the segments' start and end times.
    """
    annotators = corpus.annotators
    position = {a: k for k, a in enumerate(annotators)}
    item_ids, members, offsets = [], [], [0]
    starts, ends, labels, owner, lines = [], [], [], [], []
    count = 0
    for item in corpus.scored_items():
        member = {}
        for annotator, track in corpus.items[item].items():
            order = _canonical_order(track) if canonical else list(range(len(track)))
            starts.append(track.start[order])
            ends.append(track.end[order])
            labels.extend(track.labels[k] for k in order)
            lines.extend(track.lines[k] for k in order)
            owner.extend([position[annotator]] * len(track))
            member[position[annotator]] = np.arange(count, count + len(track))
            count += len(track)
        item_ids.append(item)
        members.append(member)
        offsets.append(count)
    start = np.concatenate(starts) if starts else np.zeros(0)
    end = np.concatenate(ends) if ends else np.zeros(0)
    keys = list(zip(start.tolist(), end.tolist(), ["" if label is None else str(label) for label in labels]))
    item_ranks = content_ranks([[[keys[k] for k in m] for m in member.values()] for member in members], item_ids)
    objects = ObjectSet(item_ids=item_ids, annotators=annotators, offsets=np.array(offsets),
                        annotator_of=np.array(owner, dtype=int), labels=labels, members=members,
                        lines=np.array(lines, dtype=int), item_ranks=item_ranks,
                        object_ranks=object_ranks(item_ranks, members, annotators, keys))
    return SegmentObjects(objects, start, end)


def _canonical_order(track):
    """Positions of a track's segments sorted by start, end, then label."""
    keys = list(zip(track.start.tolist(), track.end.tolist(), track.labels))
    return sorted(range(len(keys)), key=keys.__getitem__)


def segment_kind(start, end, rule):
    """How segments compare: temporal IoU as the similarity, and no distance (no σ).

    Parameters
    ----------
    start, end : ndarray, shape (n,)
        Times of the segments, by global object index.
    rule : {"default", "potato"}
        The zero-length rule of :func:`~agreekit.geometry.intervals.temporal_iou`.

    Returns
    -------
    ObjectKind
    """
    return ObjectKind(similarity=lambda idx: temporal_iou(start[idx], end[idx], start[idx], end[idx], rule),
                      paired_distance=None, distance_block=None,
                      similarity_block=lambda rows, cols: temporal_iou(start[rows], end[rows], start[cols], end[cols],
                                                                       rule),
                      candidates=lambda rows, cols: _candidates(start[rows], end[rows], start[cols], end[cols], rule))


def _candidates(start_a, end_a, start_b, end_b, rule):
    """The pairs of segments a × b that meet, with their temporal IoU (``ObjectKind.candidates``): a
    superset of the pairs with IoU > 0 (two identical instants included)."""
    r, c = overlapping_pairs(start_a, end_a, start_b, end_b)
    return r, c, paired_temporal_iou(start_a[r], end_a[r], start_b[c], end_b[c], rule)


class PairBlocks(NamedTuple):
    """The boundary blocks of a corpus and the annotator pairs their ``pair`` positions name."""

    blocks: list   # BoundaryBlock per (item, annotator pair): items in order, pairs in sorted order
    pairs: list    # pairs[p] = (a, b), annotator names with a < b


def boundary_blocks(corpus, items):
    """One :class:`~agreekit.measures.boundaries.BoundaryBlock` per (item, annotator pair).

    Parameters
    ----------
    corpus : Corpus
        Checked input.
    items : sequence
        The items to take, in order (block ``item`` is the position here).

    Returns
    -------
    PairBlocks
        Blocks in item order, then annotator pair order; pairs numbered in
        order of first appearance.
    """
    pair_position = {}
    blocks = []
    for i, item in enumerate(items):
        tracks = corpus.items[item]
        names = list(tracks)
        for x in range(len(names)):
            for y in range(x + 1, len(names)):
                a, b = tracks[names[x]], tracks[names[y]]
                pair = pair_position.setdefault((names[x], names[y]), len(pair_position))
                blocks.append(BoundaryBlock(item=i, pair=pair, start_a=a.start, end_a=a.end,
                                            start_b=b.start, end_b=b.end))
    return PairBlocks(blocks, sorted(pair_position, key=pair_position.get))
