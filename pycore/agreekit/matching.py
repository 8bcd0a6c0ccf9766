"""Matching objects between annotators, and clusters across annotators.

Two modes (reference semantics §2–3; the differences are deliberate):

* ``optimal`` — one-to-one, only pairs with similarity ≥ threshold allowed;
  maximize the number of matched pairs, then their total similarity.  Solved
  by one ``scipy.optimize.linear_sum_assignment`` on weights K + s for
  allowed pairs (K larger than any achievable total similarity, so one more
  pair always wins) and 0 for forbidden ones.
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
from scipy.optimize import linear_sum_assignment

MODES = ("optimal", "potato")


def match(sim, threshold, mode="optimal"):
    """One-to-one matches from a similarity matrix ``sim`` (n × m).

    Returns ``(rows, cols)`` index arrays, ordered by row.  Every returned
    pair has ``sim ≥ threshold`` (inclusive).
    """
    sim = np.asarray(sim, dtype=float)
    if sim.size == 0:
        empty = np.zeros(0, dtype=int)
        return empty, empty
    if mode == "potato":
        rows, cols = linear_sum_assignment(1.0 - sim)
    elif mode == "optimal":
        allowed = sim >= threshold
        if not allowed.any():
            empty = np.zeros(0, dtype=int)
            return empty, empty
        bonus = float(min(sim.shape)) + 1.0
        rows, cols = linear_sum_assignment(np.where(allowed, bonus + sim, 0.0), maximize=True)
    else:
        raise ValueError(f"unknown match mode {mode!r}; expected one of {', '.join(MODES)}")
    keep = sim[rows, cols] >= threshold
    return rows[keep], cols[keep]


def clusters(members, sim, threshold, mode="optimal"):
    """Group objects of one item into clusters, at most one per annotator.

    ``members`` is a list, in annotator order, of index arrays into ``sim``
    (the item's object-by-object similarity matrix).  Returns a list of
    clusters, each a dict ``{annotator position: object index}`` in creation
    order.
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
        joined = set()
        if found:
            founders = np.array([f for f, _ in found])
            rows, cols = match(sim[np.ix_(objects, founders)], threshold, "optimal")
            for r, c in zip(rows, cols):
                found[c][1][position] = int(objects[r])
                joined.add(int(r))
        for r, obj in enumerate(objects):
            if r not in joined:
                found.append((int(obj), {position: int(obj)}))
    return [group for _, group in found]
