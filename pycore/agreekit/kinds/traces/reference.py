"""Traces against a reference: each trace an item of the reference engine, each labelled step an object.

Two labels match when they are on the same step of the same trace (similarity 1,
else 0; the threshold and the low-overlap level are 1, so there is no low
overlap), so the scores are per step: ``wrong_label`` counts the steps where the
annotator's label differs from the reference's, ``kappa`` is Cohen's κ of the
two over the steps both labelled (nominal), ``missing`` the steps of a trace the
reference labelled and the annotator did not, ``extra`` the reverse.  Items are
traces, so the intervals resample traces, as the agreement report's do.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...object_sets import Annotation, build_objects
from ...objects import ObjectKind
from .rows import _input_warnings, read_traces

SAME_STEP = 1.0


def step_records(data):
    """:class:`~agreekit.object_sets.Annotation` records of :class:`~.rows.StepLabels`: geometry the step."""
    records = []
    units, columns = np.nonzero(data.values >= 0)
    for u, a in zip(units.tolist(), columns.tolist()):
        records.append(Annotation(0, data.traces[data.unit_trace[u]], data.annotators[a],
                                  (float(data.steps[data.unit_step[u]]),), str(data.categories[data.values[u, a]])))
    return records


def reader(level, order):
    """The reference rows' parser at the report's level and order."""
    return lambda rows: step_records(read_traces(rows, level=level, order=order))


def without(data, annotator):
    """:class:`~.rows.StepLabels` without ``annotator``, and without the units only it labelled."""
    keep = [k for k, a in enumerate(data.annotators) if a != annotator]
    values = data.values[:, keep]
    labelled = (values >= 0).any(axis=1)
    annotators = [data.annotators[k] for k in keep]
    return replace(data, annotators=annotators, values=values[labelled], unit_trace=data.unit_trace[labelled],
                   unit_step=data.unit_step[labelled], warnings=_input_warnings(values[labelled], annotators))


def step_set(records):
    """``(objects, ObjectKind)`` of step records: similarity 1 on the same step, 0 otherwise; no distance."""
    objects, steps, _ = build_objects(records, width=1, noun="label(s)", plural="labels")
    step = steps[:, 0]
    return objects, ObjectKind(similarity=lambda idx: (step[idx][:, None] == step[idx][None, :]).astype(float),
                               paired_distance=None, distance_block=None)
