"""Labels against a reference: each judgement an object of the reference engine (:mod:`agreekit.reference`).

Every two judgements of one item are equally similar (1), so an annotator's
judgement of an item is paired with the reference's judgement of it (several,
at level ``set``, paired preferring equal labels).  What is left to score is
the labels: ``wrong_label`` counts the items where they differ, ``kappa`` is
Cohen's κ of the annotator against the reference (nominal, whatever the
level), and the confusion table says which labels stand for which; precision
and recall say how many of each other's judgements found a partner.  No low
overlap and no σ.
"""
from __future__ import annotations

import numpy as np

from ...object_sets import Annotation, build_objects
from ...objects import ObjectKind
from .rows import read_judgements

SIMILAR = 1.0   # the similarity of any two judgements of one item: the match threshold and the low-overlap level


def judgement_records(judgements):
    """:class:`~agreekit.object_sets.Annotation` records of the judgements (geometry: none to compare)."""
    return [Annotation(j.line, j.item, j.annotator, (0.0,), j.label) for j in judgements]


def reader(split_sets):
    """The reference rows' parser at the report's level."""
    return lambda rows: judgement_records(read_judgements(rows, split_sets=split_sets).judgements)


def judgement_set(records):
    """``(objects, ObjectKind)`` of judgement records: every pair on an item equally similar, no distance."""
    objects, _, _ = build_objects(records, width=1, noun="judgement(s)", plural="judgements",
                                  order=lambda r: ((0.0,), str(r.label)))
    return objects, ObjectKind(similarity=lambda idx: np.full((len(idx), len(idx)), SIMILAR),
                               paired_distance=None, distance_block=None)
