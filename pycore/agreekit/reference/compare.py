"""Each annotator's objects matched to its reference's, item by item.

For every item and every scored annotator ``a`` whose reference ``g`` has a
row on the item (a *comparison*), a's objects are matched one-to-one to g's
at the similarity ``threshold`` (:func:`agreekit.matching.match`, the report's
matching mode).  Those pairs are the detections.  The objects left over on
both sides are matched again at ``low_overlap`` (when it is below the
threshold): such a pair is a *low overlap* conflict — the annotator drew the
object, but not well enough to count.  Two stages, so the detections are
exactly those at the threshold and a low-overlap pair never displaces one.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..matching import match
from ..object_blocks import LargeItem, block_matches
from ..object_sets import item_label_equality, label_codes
from ..objects import _local_index, _take, item_similarities


@dataclass(frozen=True)
class Comparisons:
    """The comparisons (item, annotator against its reference) and their matched pairs, as arrays.

    Per comparison c: ``item[c]``, ``annotator[c]`` and ``gold[c]`` (positions
    in ``objects.annotators``), ``n_drawn`` and ``n_reference`` (objects),
    ``n_low`` (low-overlap pairs).  Per matched pair k (at the threshold):
    ``drawn[k]`` and ``ref[k]`` (global object indices), ``similarity[k]`` and
    ``pair_of[k]`` (its comparison); ``low_drawn``/``low_ref``/``low_of`` the
    low-overlap pairs likewise.  ``unscored`` maps an annotator position to its
    items without a reference row.
    """

    item: np.ndarray
    annotator: np.ndarray
    gold: np.ndarray
    n_drawn: np.ndarray
    n_reference: np.ndarray
    n_low: np.ndarray
    drawn: np.ndarray
    ref: np.ndarray
    similarity: np.ndarray
    pair_of: np.ndarray
    low_drawn: np.ndarray
    low_ref: np.ndarray
    low_of: np.ndarray
    unscored: dict

    @property
    def n(self):
        return len(self.item)

    def n_matched(self):
        """Matched pairs per comparison."""
        return np.bincount(self.pair_of, minlength=self.n)


def gold_positions(objects, gold_of):
    """``{annotator position: its reference's position}`` for the annotators whose reference has a row."""
    position = {name: k for k, name in enumerate(objects.annotators)}
    return {position[a]: position[g] for a, g in gold_of.items() if a in position and g in position}


def _two_stage(sub, same, threshold, low_overlap, mode):
    """Matches at ``threshold``, then the leftovers' matches at ``low_overlap`` (local index arrays)."""
    rows, cols = match(sub, threshold, mode, same)
    if not low_overlap < threshold or sub.size == 0:
        empty = np.zeros(0, dtype=np.intp)
        return (rows, cols), (empty, empty)
    free = np.ones(sub.shape[0], dtype=bool), np.ones(sub.shape[1], dtype=bool)
    free[0][rows], free[1][cols] = False, False
    free_r, free_c = np.flatnonzero(free[0]), np.flatnonzero(free[1])
    low_sub = sub[np.ix_(free_r, free_c)]
    if not (low_sub >= low_overlap).any():   # most comparisons: nothing left near enough
        empty = np.zeros(0, dtype=np.intp)
        return (rows, cols), (empty, empty)
    lr, lc = match(low_sub, low_overlap, mode, same[np.ix_(free_r, free_c)])
    return (rows, cols), (free_r[lr], free_c[lc])


def _two_stage_blocks(item, labels, rows, cols, threshold, low_overlap, mode):
    """:func:`_two_stage` on a :class:`~agreekit.object_blocks.LargeItem` (``rows``, ``cols``: its local
    indices), block by block: ``((r, c), (low r, low c), similarity of the matches)``."""
    r, c, sim = block_matches(item, labels, rows, cols, threshold, mode)
    empty = np.zeros(0, dtype=np.intp)
    if not low_overlap < threshold:
        return (r, c), (empty, empty), sim
    free_r, free_c = np.setdiff1d(np.arange(len(rows)), r), np.setdiff1d(np.arange(len(cols)), c)
    if not free_r.size or not free_c.size:
        return (r, c), (empty, empty), sim
    lr, lc, _ = block_matches(item, labels, rows[free_r], cols[free_c], low_overlap, mode)
    return (r, c), (free_r[lr], free_c[lc]), sim


# Long: one pass over items and annotators that fills every array of Comparisons.
def compare(objects, kind, gold_of, *, threshold, low_overlap, mode, label_key):
    """The :class:`Comparisons` of every scored annotator with its reference (``gold_of``: names)."""
    pos = gold_positions(objects, gold_of)
    sims = item_similarities(objects, kind)
    same_labels = item_label_equality(objects, label_key)
    cols = {name: [] for name in ("item", "annotator", "gold", "n_drawn", "n_reference", "n_low")}
    pairs = {name: [] for name in ("drawn", "ref", "similarity", "pair_of", "low_drawn", "low_ref", "low_of")}
    unscored = {}
    names = {objects.annotators.index(a) for a in gold_of if a in objects.annotators}
    for i in range(objects.n_items):
        member, start = objects.members[i], objects.offsets[i]
        for a in sorted(member):
            if a not in names:
                continue
            g = pos.get(a)
            if g is None or g not in member:
                unscored.setdefault(a, []).append(i)
                continue
            if isinstance(sims[i], LargeItem):
                (r, c), (lr, lc), matched = _two_stage_blocks(sims[i], same_labels[i], member[a] - start,
                                                              member[g] - start, threshold, low_overlap, mode)
            else:
                la, lg = _local_index(member[a], start), _local_index(member[g], start)
                sub = _take(sims[i], la, lg)
                (r, c), (lr, lc) = _two_stage(sub, _take(same_labels[i], la, lg), threshold, low_overlap, mode)
                matched = sub[r, c]
            k = len(cols["item"])
            for name, value in zip(cols, (i, a, g, len(member[a]), len(member[g]), len(lr))):
                cols[name].append(value)
            ga, gg = member[a], member[g]
            pairs["drawn"].append(ga[r])
            pairs["ref"].append(gg[c])
            pairs["similarity"].append(matched)
            pairs["pair_of"].append(np.full(len(r), k, dtype=np.intp))
            pairs["low_drawn"].append(ga[lr])
            pairs["low_ref"].append(gg[lc])
            pairs["low_of"].append(np.full(len(lr), k, dtype=np.intp))
    arrays = {name: np.array(v, dtype=np.intp) for name, v in cols.items()}
    flat = {name: (np.concatenate(v) if v else np.zeros(0)).astype(float if name == "similarity" else np.intp)
            for name, v in pairs.items()}
    return Comparisons(**arrays, **flat, unscored=unscored)


def matched_labels(objects, comparisons, label_key):
    """``(drawn codes, reference codes, label names)`` of the matched pairs; codes index the sorted names."""
    codes, keys = label_codes(objects.labels, label_key)
    names = sorted(str(k) for k in keys)
    remap = np.array([names.index(str(k)) for k in keys], dtype=np.intp)
    code = remap[codes] if len(codes) else np.zeros(0, dtype=np.intp)
    return code[comparisons.drawn], code[comparisons.ref], names, code
