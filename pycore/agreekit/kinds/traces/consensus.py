"""The traces kind's consensus: each step's (weighted) majority label, ties to the smallest label text.

An annotator's label of one step is an object ``(step, label)`` of the trace.
Two such objects match when they are the same step (similarity 1 for the same
label, 0 for another, −1 for another step, so at threshold 0 only the same step
matches): each step of a trace is one cluster of the annotators who labelled it.
The quorum counts the annotators who labelled any step of the trace, so a step
most of them skipped has no consensus label.  The spread is the share of its
annotators whose label differs from the majority; the ranking's reliability is
an annotator's share of steps labelled as the others' majority
(``mean_similarity``).  Labels are compared as text (level nominal).  Traces
have no "labelled nothing" row: a trace without a consensus step has no row.
"""
from __future__ import annotations

import numpy as np

from ...object_consensus import majority_label
from ...object_sets import Annotation
from ...registry import ConsensusHook
from .rows import read_traces


def read(rows, **_):
    """Each label as a record whose geometry is ``(step, label)``; threshold 0 (same step)."""
    parsed = read_traces(rows)
    records = []
    for unit, annotator in zip(*np.nonzero(parsed.values >= 0)):
        label = str(parsed.categories[parsed.values[unit, annotator]])
        step = int(parsed.steps[parsed.unit_step[unit]])
        records.append(Annotation(0, parsed.traces[parsed.unit_trace[unit]], parsed.annotators[annotator],
                                  (step, label), label))
    return records, 0.0, list(parsed.warnings)


def similarity(objects):
    """1 for the same step and label, 0 for the same step and another label, −1 for another step."""
    steps = np.array([o[0] for o in objects])
    labels = np.array([o[1] for o in objects], dtype=object)
    same_step = steps[:, None] == steps[None, :]
    return np.where(same_step, (labels[:, None] == labels[None, :]).astype(float), -1.0)


def fuse(objects, weights):
    """The step and its majority label."""
    return (objects[0][0], majority_label([o[1] for o in objects], weights))


def to_row(trace, annotator, step_label, label):
    """A trace row, or None for a trace without a consensus step (traces have no empty row)."""
    if step_label is None:
        return None
    return {"trace": trace, "step": int(step_label[0]), "annotator": annotator, "label": label}


CONSENSUS = ConsensusHook(read=read, similarity=similarity, fuse=fuse, key=lambda o: (int(o[0]), str(o[1])),
                          to_row=to_row, options=(), reliability="mean_similarity", weighting="mean_similarity")
