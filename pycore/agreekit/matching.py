"""Matching objects between annotators, and clusters across annotators.

Two modes (``docs/potato-differences.md`` §2–3; the differences are deliberate):

* ``optimal`` — one-to-one, only pairs with similarity ≥ threshold allowed;
  maximize the number of matched pairs, then their total similarity, then
  (the tie-break) the number of same-label pairs.  Solved by one
  ``scipy.optimize.linear_sum_assignment`` on weights K + s + ε·[same label]
  for allowed pairs (K larger than any achievable total similarity, so one
  more pair always wins; ε = TIE_BREAK / (K + 1), so the label bonus of a
  whole matching stays below 10⁻⁹ and decides only between matchings whose
  total similarity agrees to that) and 0 for forbidden ones.  Matchings that
  are still equally good are told apart by object order, which the object
  engine makes canonical (sorted by geometry, then label), so the result does
  not depend on the order of the input rows.  When the allowed pairs share no
  object (most annotator pairs), they are that matching and none is solved.
  Blocks too large to hold (:mod:`agreekit.object_blocks`) are solved from
  their allowed pairs alone, component by component (:func:`match_allowed`):
  the same matching, except that among matchings equally good to the last bit
  (exact duplicates) the solver's choice is made within each component.
* ``potato`` — Potato 2.8: ``linear_sum_assignment`` on 1 − s over all pairs,
  then drop assigned pairs below the threshold.  A sub-threshold pairing can
  thereby displace a valid match.

Clusters (units for detection and classification α) visit annotators in
sorted order.  ``optimal`` assigns each annotator's objects to the existing
clusters by the optimal matching against each cluster's founding object;
``potato`` is Potato's greedy first-fit (each object joins the first cluster,
in creation order, whose founder it matches at the threshold).
"""
from __future__ import annotations

import numpy as np

from .runtime import linear_sum_assignment

MODES = ("optimal", "potato")
TIE_BREAK = 1e-9  # total-similarity difference below which two matchings count as equally good


def disjoint_pairs(allowed):
    """``(rows, cols)`` of the allowed pairs (n × m bool) when they share no object, else None.

    Then taking them all is the one largest matching, which ``optimal``
    returns without solving (most annotator pairs on most items).
    """
    rows, cols = allowed.nonzero()
    if len(set(rows.tolist())) == len(rows) and len(set(cols.tolist())) == len(cols):
        return rows, cols
    return None


def match(sim, threshold, mode="optimal", same_label=None):
    """One-to-one matches from a similarity matrix ``sim`` (n × m).

    Parameters
    ----------
    sim : array, shape (n, m)
        Similarities of the two annotators' objects.
    threshold : float
        Pairs with ``sim ≥ threshold`` (inclusive) may match.
    mode : {"optimal", "potato"}
        See the module docstring.
    same_label : bool array, shape (n, m), optional
        Whether two objects carry the same label: the tie-break of ``optimal``.

    Returns
    -------
    rows, cols : int arrays
        Matched index pairs, ordered by row.
    """
    sim = np.asarray(sim, dtype=float)
    if sim.size == 0:
        empty = np.zeros(0, dtype=int)
        return empty, empty
    if mode == "potato":
        rows, cols = linear_sum_assignment(1.0 - sim)
    elif mode == "optimal":
        allowed = sim >= threshold
        disjoint = disjoint_pairs(allowed)
        if disjoint is not None:
            return disjoint
        bonus = float(min(sim.shape)) + 1.0
        weights = bonus + sim
        if same_label is not None:
            weights = weights + (TIE_BREAK / (bonus + 1.0)) * np.asarray(same_label, dtype=float)
        rows, cols = linear_sum_assignment(np.where(allowed, weights, 0.0), maximize=True)
    else:
        raise ValueError(f"unknown match mode {mode!r}; expected one of {', '.join(MODES)}")
    keep = sim[rows, cols] >= threshold
    return rows[keep], cols[keep]


def clusters(members, sim, threshold, mode="optimal", same_label=None):
    """Group objects of one item into clusters, at most one per annotator.

    ``members`` is a list, in annotator order, of index arrays into ``sim``
    (the item's object-by-object similarity matrix); ``same_label`` the
    item's object-by-object label equality (the tie-break of :func:`match`).
    Returns a list of clusters, each a dict ``{annotator position: object
    index}`` in creation order.
    """
    found = []  # list of (founder index, {annotator position: object index})
    for position, objects in enumerate(members):
        objects = np.asarray(objects, dtype=int)
        if objects.size == 0:
            continue
        if mode == "potato":
            for obj in objects:
                for founder, group in found:
                    if position not in group and sim[founder, obj] >= threshold:
                        group[position] = int(obj)
                        break
                else:
                    found.append((int(obj), {position: int(obj)}))
            continue
        matched = []
        if found:
            # objects × founders, indexed by broadcasting (what np.ix_ builds, without its cost per call)
            block = (objects[:, None], np.array([f for f, _ in found])[None, :])
            block_sim = sim[block]
            pairs = disjoint_pairs(block_sim >= threshold)  # match's shortcut, before the label block
            if pairs is None:
                pairs = match(block_sim, threshold, "optimal", None if same_label is None else same_label[block])
            matched = zip(pairs[0].tolist(), pairs[1].tolist())
        _join(found, position, objects.tolist(), matched)
    return [group for _, group in found]


def _join(found, position, indices, matched):
    """Each matched ``(object row, founder position)`` joins that founder's cluster as ``position``'s
    object; ``position``'s other objects (``indices``) found clusters of their own, in order."""
    joined = set()
    for r, c in matched:
        found[c][1][position] = indices[r]
        joined.add(r)
    for r, obj in enumerate(indices):
        if r not in joined:
            found.append((obj, {position: obj}))


def match_allowed(rows, cols, sim, shape, same_label=None):
    """``optimal`` matches of an n × m block from its allowed pairs alone (``sim ≥ threshold``).

    Parameters
    ----------
    rows, cols, sim : arrays, shape (k,)
        The allowed pairs of the block and their similarities, ordered by row.
    shape : (n, m)
        The block's shape: it sets the weights K and ε exactly as :func:`match` does.
    same_label : bool array, shape (k,), optional
        Whether each allowed pair carries one label.

    Returns
    -------
    ndarray of positions into the pair arrays, ordered by row.

    The matching of :func:`match` on the dense block, computed on the connected
    components of the allowed pairs: a pair that shares no object with another
    allowed pair is matched as it is; each other component is solved by one
    ``linear_sum_assignment`` on its own rows and columns with :func:`match`'s
    weights (forbidden pairs 0).  The weight of a matching is the sum over the
    components, so a matching is best on the block exactly when it is best on
    each component.  Memory grows with the allowed pairs and the largest
    component, not with n·m.  Among matchings equally good to the last bit the
    solver's choice (object order) is made per component.
    """
    rows, cols = np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)
    if rows.size == 0:
        return np.zeros(0, dtype=np.intp)
    lone = (np.bincount(rows, minlength=shape[0])[rows] == 1) & (np.bincount(cols, minlength=shape[1])[cols] == 1)
    chosen = [np.flatnonzero(lone)]
    rest = np.flatnonzero(~lone)
    bonus = float(min(shape)) + 1.0
    label_weight = TIE_BREAK / (bonus + 1.0)
    for edges in _components(rows[rest], cols[rest], shape[0]):
        edges = rest[edges]
        unique_rows, r = np.unique(rows[edges], return_inverse=True)
        unique_cols, c = np.unique(cols[edges], return_inverse=True)
        weights = np.zeros((len(unique_rows), len(unique_cols)))
        weights[r, c] = bonus + sim[edges]  # the sums of match(), in its order
        if same_label is not None:
            weights[r, c] = weights[r, c] + label_weight * np.asarray(same_label, dtype=float)[edges]
        position = np.full(weights.shape, -1, dtype=np.intp)
        position[r, c] = edges
        a, b = linear_sum_assignment(weights, maximize=True)
        found = position[a, b]
        chosen.append(found[found >= 0])
    chosen = np.concatenate(chosen)
    return chosen[np.argsort(rows[chosen], kind="stable")]


def _components(rows, cols, n_rows):
    """The edges (rows[k], cols[k]) of a bipartite graph grouped by connected component: a list of
    arrays of edge positions, components in order of their first edge (union–find)."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for r, c in zip(rows.tolist(), (cols + n_rows).tolist()):
        ra, rb = find(r), find(c)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    roots = np.array([find(r) for r in rows.tolist()], dtype=np.intp)
    if roots.size == 0:
        return []
    order = np.argsort(roots, kind="stable")
    breaks = np.flatnonzero(np.diff(roots[order])) + 1
    return np.split(order, breaks)


def block_clusters(members, match_block, reached_founders, mode="optimal"):
    """:func:`clusters` of an item too large for its square similarity, from blocks computed on demand.

    ``match_block(objects, founders)`` returns the ``(rows, cols)`` of :func:`match` (``optimal``)
    on the objects × founders block; ``reached_founders(founders, objects)`` yields, for each
    object in turn, the positions of the founders it reaches at the threshold, ascending
    (``potato``).  Same clusters, in the same order, as :func:`clusters` on the square matrix.
    """
    found = []
    for position, objects in enumerate(members):
        objects = np.asarray(objects, dtype=np.intp)
        if objects.size == 0:
            continue
        founders = np.array([f for f, _ in found], dtype=np.intp)
        matched = []
        if founders.size and mode == "potato":
            # First fit: each object joins the first founder, in creation order, that it reaches and that
            # no object of this annotator joined yet (founders of this annotator's own are never eligible).
            taken = np.zeros(len(founders), dtype=bool)
            for r, reached in enumerate(reached_founders(founders, objects)):
                free = reached[~taken[reached]]
                if free.size:
                    taken[free[0]] = True
                    matched.append((r, int(free[0])))
        elif founders.size:
            rows, cols = match_block(objects, founders)
            matched = zip(rows.tolist(), cols.tolist())
        _join(found, position, objects.tolist(), matched)
    return [group for _, group in found]
