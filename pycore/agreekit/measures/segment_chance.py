"""The within-clip chance baseline of segment σ: each clip's segments placed at random, then matched again.

σ = 1 − mean(within) / mean(chance), with the KS statistic of the two distance
distributions beside it (``docs/segments.md``).

* **Within**: the distance of every matched pair of segments: two annotators'
  segments on a clip matched one-to-one at the temporal IoU threshold, the
  optimal matching of :func:`agreekit.matching.match` (the report's own).
* **Chance**: every segment is moved to a random place inside its clip — it
  keeps its length L and its start is drawn uniformly in [0, D − L], D the
  clip's duration (start 0 for a segment longer than its clip) — and the same
  matching runs on every annotator pair of the clip.  The distances of the
  pairs it matches, pooled over K seeded placements, are the chance
  distribution.  Matched pairs on both sides: the within distances are those of
  pairs that passed the threshold, so a baseline over all pairs would credit
  chance matches with agreement.
* Distances in [0, 1]: ``iou`` = 1 − tIoU, ``giou`` = (1 − GIoU)/2 with the
  one-dimensional GIoU of :func:`agreekit.geometry.intervals.paired_temporal_giou`.

**Draws.**  Placement k takes row k of
``default_rng([seed, PLACEMENT_STREAM]).random((K, n))``; column r belongs to
the r-th segment in canonical order (items by content, then each item's
annotator tracks by content, then each track's segments by start, end and
label; ``ClipSegments.draw_order``), so the placements depend neither on the
order of the input rows nor on the names of items and annotators.

**Speed.**  Above threshold 0 two segments can match only if they overlap (or
are one instant marked twice), so for a chunk of placements at once each
segment is searched, on one sorted line of every (placement, clip, annotator),
among the other annotators' segments that start at most the longest length
before its end: the possible pairs are those at or above the threshold.  The
optimal matching of an annotator pair's block is the union of the optimal
matchings of the connected components of its possible pairs (the number of
pairs, the total similarity and the same-label count are sums over pairs), so
a segment with one possible partner is matched at once, a component of up to
``ENUMERATED_EDGES`` pairs is solved by trying all its subsets together
(vectorised), and a larger one by :func:`~agreekit.matching.match` itself.
Only exact ties (probability 0 for random placements) could be broken
otherwise than by matching the whole block; the within side is therefore
matched block by block, exactly as the report matches.  At threshold 0 every
pair of a block may match and whole blocks go to :func:`~agreekit.matching.match`
(slow, but exact).  Cost: O(K · n log n) plus the possible pairs.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..geometry.intervals import paired_temporal_giou, paired_temporal_iou, temporal_iou
from ..matching import TIE_BREAK, match

DISTANCES = ("giou", "iou")
PLACEMENT_STREAM = 3         # keeps the placements' random numbers apart from the bootstrap's
_CHUNK_ELEMENTS = 1 << 20    # placements × searched (or, at threshold 0, all) pairs per chunk
ROUND = 20                   # automatic K: placements are added 20 at a time …
SE_TARGET = 0.0025           # … until the chance mean's standard error is at most this …
AUTO_MAX = 1000              # … or there are this many
ENUMERATED_EDGES = 8         # components of up to this many possible pairs: every subset tried (2⁸ = 256)


class ClipSegments(NamedTuple):
    """Segments of the compared clips, contiguous by clip; arrays of shape (n,) unless stated."""

    start: np.ndarray
    end: np.ndarray
    item: np.ndarray         # clip position of each segment
    annotator: np.ndarray    # annotator position of each segment
    label: np.ndarray        # label code of each segment (the tie-break of matching)
    members: list            # per clip: {annotator position: global indices}
    duration: np.ndarray     # (n_clips,) clip durations D
    draw_order: np.ndarray   # each segment's column in the placement draws


class Candidates(NamedTuple):
    """Pairs of segments of one clip by two annotators (a's annotator < b's)."""

    a: np.ndarray
    b: np.ndarray


class Matches(NamedTuple):
    """Matched pairs of segments: in which placement, which two (global indices), and their distance."""

    placement: np.ndarray
    a: np.ndarray
    b: np.ndarray
    distance: np.ndarray


def segment_distance(start_a, end_a, start_b, end_b, distance="giou"):
    """The σ distance of segment pairs, elementwise: ``giou`` (1 − GIoU)/2 or ``iou`` 1 − tIoU, in [0, 1]."""
    if distance == "iou":
        return 1.0 - paired_temporal_iou(start_a, end_a, start_b, end_b)
    if distance == "giou":
        return 0.5 * (1.0 - paired_temporal_giou(start_a, end_a, start_b, end_b))
    raise ValueError(f"unknown distance {distance!r}; expected one of {', '.join(DISTANCES)}")


def candidate_pairs(segments):
    """Every pair of segments of one clip by two annotators, as :class:`Candidates` (threshold 0).

    Segments of a clip are contiguous and ordered by annotator, so each
    segment's partners are the later segments of its clip by another annotator.
    """
    n = len(segments.start)
    if n == 0:
        empty = np.zeros(0, dtype=np.intp)
        return Candidates(empty, empty)
    starts = np.flatnonzero(np.r_[True, segments.item[1:] != segments.item[:-1]])
    stops = np.r_[starts[1:], n]
    clip_stop = np.repeat(stops, np.diff(np.r_[starts, n]))
    partners = (clip_stop - np.arange(n)).astype(np.intp) - 1
    first = np.repeat(np.arange(n, dtype=np.intp), partners)
    run_start = np.repeat(np.cumsum(partners) - partners, partners)
    second = first + 1 + (np.arange(len(first), dtype=np.intp) - run_start)
    keep = segments.annotator[first] != segments.annotator[second]
    return Candidates(first[keep], second[keep])


class Queries(NamedTuple):
    """Each segment with each later annotator of its clip: the (segment, annotator) pairs to search."""

    segment: np.ndarray
    partner: np.ndarray


def partner_queries(segments):
    """The :class:`Queries`: segment o with every annotator of its clip after o's own (a < b once)."""
    n_annotators = int(segments.annotator.max()) + 1 if len(segments.annotator) else 1
    present = np.unique(segments.item.astype(np.int64) * n_annotators + segments.annotator)
    own = segments.item.astype(np.int64) * n_annotators + segments.annotator
    low = np.searchsorted(present, own, "right")
    high = np.searchsorted(present, (segments.item.astype(np.int64) + 1) * n_annotators, "left")
    segment, position = _expand(np.arange(len(own), dtype=np.intp), low, high)
    return Queries(segment, (present[position] % n_annotators).astype(np.intp))


def _expand(owner, low, high):
    """Each ``owner[q]`` repeated for every position in [low[q], high[q]): (owners, positions)."""
    width = np.maximum(high - low, 0).astype(np.intp)
    owners = np.repeat(owner, width)
    run_start = np.repeat(np.cumsum(width) - width, width)
    positions = np.repeat(low.astype(np.intp), width) + (np.arange(len(owners), dtype=np.intp) - run_start)
    return owners, positions


def _overlapping(segments, queries, start, end):
    """(placement, a, b) of every pair of a query's segment a with a segment b of its partner annotator
    whose start lies in [s_a − L_max, e_a] (loosely): all pairs that overlap or touch, and some more.

    Every (placement, clip, annotator) has its own stretch of one sorted line, S apart.
    """
    k_chunk, n = start.shape
    n_annotators = int(segments.annotator.max()) + 1
    n_groups = k_chunk * len(segments.duration) * n_annotators
    longest = float(np.max(end - start))
    stretch = 2.0 * (float(np.max(np.abs(start))) + float(np.max(np.abs(end))) + longest) + 1.0
    margin = stretch * max(n_groups, 1) * 2.0 ** -46  # far above the rounding of the line, far below S
    placement = np.repeat(np.arange(k_chunk, dtype=np.int64), n)
    own = (placement * len(segments.duration) + np.tile(segments.item, k_chunk)) * n_annotators
    line = (own + np.tile(segments.annotator, k_chunk)) * stretch + start.ravel()
    order = np.argsort(line, kind="stable")
    line = line[order]
    q = np.arange(k_chunk, dtype=np.int64)[:, None] * n + queries.segment[None, :]
    base = ((q // n) * len(segments.duration) + segments.item[queries.segment][None, :]) * n_annotators
    base = (base + queries.partner[None, :]) * stretch
    flat_a = q.ravel()
    low = np.searchsorted(line, (base + start.ravel()[flat_a].reshape(q.shape) - longest - margin).ravel(), "left")
    high = np.searchsorted(line, (base + end.ravel()[flat_a].reshape(q.shape) + margin).ravel(), "right")
    query, position = _expand(flat_a, low, high)
    b = order[position]
    return (query // n).astype(np.intp), (query % n).astype(np.intp), (b % n).astype(np.intp)


def _all_pairs(candidates, k_chunk):
    """(placement, a, b) of every candidate in every placement (threshold 0: every pair may match)."""
    placement = np.repeat(np.arange(k_chunk, dtype=np.intp), len(candidates.a))
    return placement, np.tile(candidates.a, k_chunk), np.tile(candidates.b, k_chunk)


def _repeated(keys):
    """Whether each key occurs more than once."""
    if keys.size == 0:
        return np.zeros(0, dtype=bool)
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return counts[inverse.ravel()] > 1


def match_placements(segments, start, end, threshold, distance="giou", exact_blocks=False, queries=None):
    """Match every annotator pair of every clip in each of a chunk of placements.

    Parameters
    ----------
    segments : ClipSegments
    start, end : ndarray, shape (k, n)
        The segments' times in each of k placements.
    threshold : float
        Temporal IoU at or above which two segments may match.
    distance : {"giou", "iou"}
    exact_blocks : bool
        Match every annotator pair of a clip where a segment has two possible
        partners by :func:`~agreekit.matching.match` on the whole block (ties
        then break exactly as in the report: the within side); else each
        connected component of possible partners alone (:func:`_component_matches`),
        except at threshold 0, where pairs of IoU 0 tie and whole blocks are matched.
    queries : Queries, optional
        :func:`partner_queries` of ``segments``, if already made.

    Returns
    -------
    Matches
        ``placement`` numbers the k rows; sorted by placement, a, b.
    """
    if len(segments.start) == 0:
        empty = np.zeros(0, dtype=np.intp)
        return Matches(empty, empty, empty, np.zeros(0))
    if threshold > 0:
        k, a, b = _overlapping(segments, partner_queries(segments) if queries is None else queries, start, end)
    else:
        k, a, b = _all_pairs(candidate_pairs(segments), len(start))
    iou = paired_temporal_iou(start[k, a], end[k, a], start[k, b], end[k, b])
    keep = iou >= threshold
    k, a, b, iou = k[keep], a[keep], b[keep], iou[keep]
    if exact_blocks or threshold <= 0:   # at threshold 0 partners of IoU 0 tie: the whole block breaks them
        k, a, b = _block_matches(segments, start, end, threshold, (k, a, b))
    else:
        k, a, b = _component_matches(segments, start, end, threshold, (k, a, b, iou))
    order = np.lexsort((b, a, k))
    k, a, b = k[order], a[order], b[order]
    return Matches(k, a, b, segment_distance(start[k, a], end[k, a], start[k, b], end[k, b], distance))


def _block_matches(segments, start, end, threshold, edges):
    """The possible pairs ``edges`` (placement, a, b) reduced to a matching, block by whole block."""
    k, a, b = edges
    n = len(segments.start)
    n_annotators = int(segments.annotator.max()) + 1
    annotator_a, annotator_b = segments.annotator[a], segments.annotator[b]
    conflict = (_repeated((k.astype(np.int64) * n + a) * n_annotators + annotator_b)
                | _repeated((k.astype(np.int64) * n + b) * n_annotators + annotator_a))
    block = ((k.astype(np.int64) * len(segments.duration) + segments.item[a]) * n_annotators
             + annotator_a) * n_annotators + annotator_b
    contested = np.unique(block[conflict])
    simple = ~np.isin(block, contested)
    parts = [(k[simple], a[simple], b[simple])]
    for key in contested.tolist():
        rest, partner = divmod(key, n_annotators)
        rest, own = divmod(rest, n_annotators)
        placement, item = divmod(rest, len(segments.duration))
        parts.append(_matched(segments, start, end, threshold, placement,
                              (segments.members[item][own], segments.members[item][partner])))
    return tuple(np.concatenate(column).astype(np.intp) for column in zip(*parts))


def _matched(segments, start, end, threshold, placement, rows_cols):
    """(placement, a, b) of :func:`agreekit.matching.match` on segments ``rows`` × ``cols`` of one placement."""
    ga, gb = rows_cols
    sim = temporal_iou(start[placement, ga], end[placement, ga], start[placement, gb], end[placement, gb])
    same_label = segments.label[ga][:, None] == segments.label[gb][None, :]
    rows, cols = match(sim, threshold, "optimal", same_label)
    return np.full(len(rows), placement, dtype=np.intp), ga[rows], gb[cols]


def _component_matches(segments, start, end, threshold, edges):
    """The possible pairs ``edges`` (placement, a, b, IoU) reduced to the optimal matching.

    The optimal matching of a block is the union of those of the connected
    components of its possible pairs (most pairs, then the largest total
    similarity, then most same-label pairs: all sums over pairs).  A component
    of at most ``ENUMERATED_EDGES`` pairs is solved by trying every subset of
    its pairs at once (vectorised); a larger one by
    :func:`~agreekit.matching.match` on its segments.
    """
    k, a, b, iou = edges
    if len(k) == 0:
        return k, a, b
    n = len(segments.start)
    n_annotators = int(segments.annotator.max()) + 1
    node_a = (k.astype(np.int64) * n + a) * n_annotators + segments.annotator[b]
    node_b = (k.astype(np.int64) * n + b) * n_annotators + segments.annotator[a]
    nodes, inverse = np.unique(np.concatenate([node_a, node_b]), return_inverse=True)
    inverse = inverse.ravel().astype(np.intp)
    ia, ib = inverse[:len(k)], inverse[len(k):]
    from scipy import sparse  # here, not with the package: seconds of the page's start-up in Pyodide
    from scipy.sparse.csgraph import connected_components
    graph = sparse.coo_matrix((np.ones(len(k)), (ia, ib)), shape=(len(nodes), len(nodes)))
    _, label = connected_components(graph, directed=False)
    component = label[ia]
    size = np.bincount(component)[component]
    weight = iou + (TIE_BREAK / (size + 2.0)) * (segments.label[a] == segments.label[b])
    chosen = np.zeros(len(k), dtype=bool)
    for edges_per_component in range(1, ENUMERATED_EDGES + 1):
        members = np.flatnonzero(size == edges_per_component)
        if members.size:
            members = members[np.argsort(component[members], kind="stable")]
            members = members.reshape(-1, edges_per_component)
            chosen[members] = _best_subsets(ia[members], ib[members], weight[members])
    parts = [(k[chosen], a[chosen], b[chosen])]
    large = np.flatnonzero(size > ENUMERATED_EDGES)
    large = large[np.argsort(component[large], kind="stable")]
    for group in np.split(large, np.flatnonzero(np.diff(component[large])) + 1) if large.size else []:
        parts.append(_matched(segments, start, end, threshold, int(k[group[0]]),
                              (np.unique(a[group]), np.unique(b[group]))))
    return tuple(np.concatenate(column).astype(np.intp) for column in zip(*parts))


def _best_subsets(node_a, node_b, weight):
    """For components of e pairs each, rows of (c, e) arrays: which pairs form the best matching.

    Every subset of a component's pairs is tried: a matching when no two of
    its pairs share a segment, scored (e + 1) · pairs + Σ weight (weights
    < 1 + 10⁻⁹, so one more pair always wins); the first best subset is kept.
    """
    n_components, e = weight.shape
    masks = ((np.arange(2 ** e)[:, None] >> np.arange(e)[None, :]) & 1).astype(bool)   # (2^e, e)
    invalid = np.zeros((n_components, 2 ** e), dtype=bool)
    for i in range(e):
        for j in range(i + 1, e):
            clash = (node_a[:, i] == node_a[:, j]) | (node_b[:, i] == node_b[:, j])
            invalid |= clash[:, None] & (masks[:, i] & masks[:, j])[None, :]
    score = weight @ masks.T.astype(float) + (e + 1.0) * masks.sum(axis=1)[None, :]
    score[invalid] = -np.inf
    return masks[np.argmax(score, axis=1)]


def within_matches(segments, threshold, distance="giou"):
    """The matched pairs of the segments where they are: the within distances (placement 0), matched
    block by block exactly as the report matches them."""
    return match_placements(segments, segments.start[None, :], segments.end[None, :], threshold, distance,
                            exact_blocks=True)


class Placer:
    """Seeded random placements, drawn in order: ``take(k)`` gives the next k, however they are chunked.

    Each segment keeps its length L; its start is u · max(D − L, 0), u the
    uniform draw of its column (module docstring) and D its clip's duration.
    """

    def __init__(self, segments, seed):
        self.length = segments.end - segments.start
        self.room = (np.maximum(segments.duration[segments.item] - self.length, 0.0) if len(self.length)
                     else self.length)
        self.order = segments.draw_order
        self.rng = np.random.default_rng([seed, PLACEMENT_STREAM])

    def take(self, size):
        """``(start, end)`` of the next ``size`` placements, each of shape (size, n)."""
        start = self.rng.random((size, len(self.length)))[:, self.order] * self.room
        return start, start + self.length


class Chance(NamedTuple):
    """The chance side: the matched pairs of every placement, how many placements, and the mean's SE."""

    matches: Matches
    n_placements: int
    se: float


def chance_matches(segments, threshold, n_placements=None, seed=0, distance="giou"):
    """The matched pairs of K seeded random placements (placement 0 … K − 1).

    Parameters
    ----------
    segments : ClipSegments
    threshold : float
    n_placements : int or None
        K; None: rounds of ``ROUND`` placements until the chance mean's
        standard error is at most ``SE_TARGET``, at least ``ROUND`` and at
        most ``AUTO_MAX`` placements.
    seed : int
    distance : {"giou", "iou"}

    Returns
    -------
    Chance
    """
    empty = np.zeros(0, dtype=np.intp)
    parts = [Matches(empty, empty, empty, np.zeros(0))]
    if len(segments.start) == 0:
        return Chance(parts[0], 0, float("nan"))
    queries = partner_queries(segments)
    width = len(candidate_pairs(segments).a) if threshold <= 0 else 4 * max(len(queries.segment), 1)
    chunk = max(1, _CHUNK_ELEMENTS // max(width, len(segments.start), 1))
    placer = Placer(segments, seed)
    done, se = 0, float("nan")
    wanted = n_placements if n_placements is not None else ROUND
    while done < wanted:
        size = min(chunk, wanted - done)
        start, end = placer.take(size)
        found = match_placements(segments, start, end, threshold, distance, queries=queries)
        parts.append(found._replace(placement=found.placement + done))
        done += size
        if done == wanted:
            matches = Matches(*(np.concatenate(column) for column in zip(*parts)))
            parts = [matches]
            se = chance_standard_error(matches, done)
            if n_placements is None and done < AUTO_MAX and not se <= SE_TARGET and len(matches.a):
                wanted += ROUND
    return Chance(parts[0], done, se)


def chance_standard_error(matches, n_placements):
    """Standard error of the chance mean Σd / N over placements (the ratio estimator's), or NaN.

    With S_k and N_k the sum and number of distances of placement k and m the
    pooled mean, SE² = Σ_k (S_k − m N_k)² / (K (K − 1) N̄²): the placements are
    independent replicates.
    """
    if n_placements < 2 or len(matches.a) == 0:
        return float("nan")
    sums = np.bincount(matches.placement, weights=matches.distance, minlength=n_placements)
    counts = np.bincount(matches.placement, minlength=n_placements).astype(float)
    pooled = sums.sum() / counts.sum()
    variance = np.sum((sums - pooled * counts) ** 2) / (n_placements * (n_placements - 1) * counts.mean() ** 2)
    return float(np.sqrt(variance))
