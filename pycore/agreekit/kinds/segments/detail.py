"""The segments kind's item view: each segment's ``start end``, and every boundary's matches in the sweep."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...measures.boundaries import block_matchings
from ...object_detail import ObjectSetup, object_detail
from ...reference.setup import gold_name
from ...registry import ItemDetail
from .compare import DEFAULT_TOLERANCES, boundary_blocks, segment_kind, segment_objects
from .rows import Corpus, Track, read_segments


def segment_shapes(corpus, threshold, match):
    """The segments of ``corpus`` as an :class:`~agreekit.object_detail.ObjectSetup`."""
    objects, start, end = segment_objects(corpus, canonical=match != "potato")
    kind = segment_kind(start, end, "potato" if match == "potato" else "default")
    describe = lambda k: {"start": float(start[k]), "end": float(end[k])}  # noqa: E731
    return ObjectSetup(objects, kind.similarity, describe, str, threshold, match, kind)


class SegmentSetup(NamedTuple):
    """A segments report's objects (as for the other engine kinds), its clips, and its sweep's tolerances."""

    shapes: ObjectSetup
    corpus: Corpus
    tolerances: list  # sorted, distinct, as the report's settings


def segments_setup(rows, threshold=0.5, match="optimal", tolerances=DEFAULT_TOLERANCES, reference_rows=None, **_):
    """:func:`segment_shapes` of the rows, and the corpus and tolerances (as the report sorts them) of the boundary
    sweep; gold rows (``reference_rows``) drawn as the annotator ``⟨reference⟩``."""
    corpus = read_segments(rows)
    if reference_rows is not None:
        corpus = _with_gold(corpus, read_segments(reference_rows))
    return SegmentSetup(segment_shapes(corpus, threshold, match), corpus, sorted({float(t) for t in tolerances}))


def _with_gold(corpus, gold):
    """``corpus`` with each clip's gold segments (all of the gold rows' annotators) as one more annotator."""
    items = {item: dict(tracks) for item, tracks in corpus.items.items()}
    for item, tracks in gold.items.items():
        parts = list(tracks.values())
        items.setdefault(item, {})[gold_name()] = Track(
            np.concatenate([t.start for t in parts]), np.concatenate([t.end for t in parts]),
            [label for t in parts for label in t.labels], [line for t in parts for line in t.lines])
    return Corpus(items, corpus.warnings)


def boundary_detail(corpus, item, tolerances):
    """Every boundary of clip ``item`` and each annotator pair's boundary matches at each tolerance.

    The matches are those of the report's boundary sweep
    (:func:`agreekit.measures.boundaries.block_matchings` over the blocks of
    :func:`.compare.boundary_blocks`): starts matched one-to-one to
    starts within τ and ends to ends, by a maximum matching.  Memory grows with
    the boundaries and the pairs within the widest tolerance, never with all pairs.

    Returns
    -------
    dict
        ``{tolerances, points, pairs}``: ``points`` ``{annotator, time, kind, line}``
        by annotator (sorted), each annotator's starts in row order then its ends;
        ``pairs`` ``{a, b, n_a, n_b, by_tolerance}`` (``n_a``, ``n_b``: boundaries,
        two per segment), ``by_tolerance`` one ``{tolerance, matched, a, b}`` per
        tolerance with ``a[k]``, ``b[k]`` the positions in ``points`` of the k-th match.
    """
    tracks = corpus.items[item]
    first = {}  # annotator -> position of its first boundary in points
    points = []
    for name, track in tracks.items():
        first[name] = len(points)
        for kind, times in (("start", track.start), ("end", track.end)):
            points += [{"annotator": name, "time": float(t), "kind": kind, "line": line}
                       for t, line in zip(times.tolist(), track.lines)]
    paired = boundary_blocks(corpus, [item])
    starts = block_matchings([b.start_a for b in paired.blocks], [b.start_b for b in paired.blocks], tolerances)
    ends = block_matchings([b.end_a for b in paired.blocks], [b.end_b for b in paired.blocks], tolerances)
    pairs = []
    for k, (a, b) in enumerate(paired.pairs):
        n_a, n_b = len(tracks[a]), len(tracks[b])
        by_tolerance = []
        for t, tolerance in enumerate(tolerances):
            (start_a, start_b), (end_a, end_b) = starts.pairs(t, k), ends.pairs(t, k)
            side_a = np.concatenate([start_a, end_a + n_a]) + first[a]
            side_b = np.concatenate([start_b, end_b + n_b]) + first[b]
            by_tolerance.append({"tolerance": tolerance, "matched": int(side_a.size),
                                 "a": side_a.tolist(), "b": side_b.tolist()})
        pairs.append({"a": a, "b": b, "n_a": 2 * n_a, "n_b": 2 * n_b, "by_tolerance": by_tolerance})
    return {"tolerances": list(tolerances), "points": points, "pairs": pairs}


def segment_detail(setup, item):
    """:func:`~agreekit.object_detail.object_detail` of a segments report, with the item's ``boundaries`` (:func:`boundary_detail`)."""
    detail = object_detail(setup.shapes, item)
    detail["boundaries"] = boundary_detail(setup.corpus, item, setup.tolerances)
    detail["settings"]["tolerances"] = list(setup.tolerances)
    return detail


DETAIL = ItemDetail(setup=segments_setup, detail=segment_detail)
