"""The labels kind's consensus: each item's (weighted) majority label, ties to the smallest label text.

Every annotator of an item is a member of its one cluster (match threshold 0),
so the support is the number of annotators who labelled it and the spread the
share of them whose label differs from the majority (1 − similarity, which is
label equality).  The label is the nominal mode at every level: the median of
an ordinal scale or the mean of numbers would be other choices, not made here.
A judgement holding several labels (level ``set``, split by ``|``) is one label
text here.  The ranking's reliability is an annotator's agreement with the
others' majority label over its items (``mean_similarity``).
"""
from __future__ import annotations

import numpy as np

from ...object_consensus import majority_label
from ...object_sets import Annotation
from ...registry import ConsensusHook
from .rows import read_judgements


def read(rows, **_):
    """The judgements as records whose geometry is the label, and threshold 0 (everyone matches)."""
    reading = read_judgements(rows)
    return [Annotation(j.line, j.item, j.annotator, j.label, j.label) for j in reading.judgements], 0.0, []


def similarity(labels):
    """1 for equal labels, 0 otherwise."""
    labels = np.array(list(labels), dtype=object)
    return (labels[:, None] == labels[None, :]).astype(float)


def to_row(item, annotator, label, _label):
    return {"item": item, "annotator": annotator, "label": "" if label is None else label}


CONSENSUS = ConsensusHook(read=read, similarity=similarity, fuse=majority_label, key=lambda label: (label,),
                          to_row=to_row, options=(), reliability="mean_similarity", weighting="mean_similarity")
