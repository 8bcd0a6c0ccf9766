"""One item of an object-engine report, shape by shape: the shared part of the item views.

A kind of the object engine describes its objects with an :class:`ObjectSetup`
(its :class:`~agreekit.object_sets.ObjectSet`, how two objects compare, and how one
is described to the page); :func:`object_detail` answers for one item with every
annotator's shapes, the one-to-one matches of every annotator pair on the item
with their similarity, and which shapes no other annotator matched.  The
matching is the object engine's own (:func:`agreekit.objects.pair_matching` over
the item's objects, in the kind's canonical order), so the pairs are the pairs
the report scored.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from .errors import InputError
from .object_sets import ObjectSet, item_label_equality
from .objects import item_similarities, pair_matching


class ObjectSetup(NamedTuple):
    """A report's objects, how they compare, and how each is described to the page."""

    objects: ObjectSet
    similarity: Callable       # (global indices) -> (k × k) similarity
    describe: Callable         # global index -> {geometry name: value}
    label_key: Callable        # label -> the key labels are compared by
    threshold: float
    mode: str
    kind: object = None        # the ObjectKind: items above DENSE_ITEM_OBJECTS are compared by blocks


def _one_item(objects, i):
    """Item ``i`` of ``objects`` as an :class:`ObjectSet` of one item (global object indices kept)."""
    return ObjectSet(item_ids=[objects.item_ids[i]], annotators=objects.annotators,
                     offsets=np.array(objects.offsets[i:i + 2], dtype=np.intp), annotator_of=objects.annotator_of,
                     labels=objects.labels, members=[objects.members[i]], lines=objects.lines)


def object_detail(setup, item):
    """Item ``item`` of an :class:`ObjectSetup` as a plain dict.

    Returns
    -------
    dict
        ``{item, annotators, empty, shapes, matches, settings}``: ``shapes`` in the
        engine's object order, each ``{annotator, line, label, geometry, n_matched}``
        (``geometry`` as the kind's ``describe`` gives it); ``matches`` ``{a, b,
        similarity, same_label}`` with ``a``, ``b`` positions in ``shapes``; ``empty``
        the annotators who saw the item and drew nothing.
    """
    objects = setup.objects
    position = {name: i for i, name in enumerate(objects.item_ids)}
    if item not in position:
        raise InputError(f"no item {item!r} among the items the report compares")
    i = position[item]
    start, stop = int(objects.offsets[i]), int(objects.offsets[i + 1])
    indices = np.arange(start, stop, dtype=np.intp)
    one = _one_item(objects, i)
    if setup.kind is not None:
        sims = item_similarities(one, setup.kind)
    else:
        sims = [setup.similarity(indices) if stop > start else np.zeros((0, 0))]
    same = item_label_equality(one, setup.label_key)
    records = pair_matching(one, sims, setup.threshold, setup.mode, same)
    local = lambda k: int(k) - start  # noqa: E731  (a shape's position in the item's list)
    matches = [{"a": local(p), "b": local(q), "similarity": float(s),
                "same_label": setup.label_key(objects.labels[p]) == setup.label_key(objects.labels[q])}
               for r in records for p, q, s in zip(r.matched_a, r.matched_b, r.similarity)]
    partners = np.zeros(stop - start, dtype=np.intp)
    for m in matches:
        partners[m["a"]] += 1
        partners[m["b"]] += 1
    shapes = [{"annotator": objects.annotators[int(objects.annotator_of[k])], "line": int(objects.lines[k]),
               "label": "" if objects.labels[k] is None else str(objects.labels[k]),
               "geometry": setup.describe(int(k)), "n_matched": int(partners[local(k)])} for k in indices]
    return {"item": item, "annotators": [objects.annotators[a] for a in sorted(objects.members[i])],
            "empty": [objects.annotators[a] for a, v in sorted(objects.members[i].items()) if len(v) == 0],
            "shapes": shapes, "matches": matches,
            "settings": {"threshold": setup.threshold, "match": setup.mode}}
