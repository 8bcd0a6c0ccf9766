"""The declared shape of every kind's report, one module per kind (:mod:`agreekit.report_shape`).

``docs/report.md`` is generated from these declarations (``scripts/report_doc.py``) and
``tests/test_report_shape.py`` checks every kind's reports against them.
"""
from __future__ import annotations

from ..report_shape import rows, tooltips
from . import boxes, cuboids, masks, polygons, segments, spans, traces

SHAPES = {"boxes": boxes.SHAPE, "spans": spans.SHAPE, "segments": segments.SHAPE, "polygons": polygons.SHAPE,
          "masks": masks.SHAPE, "cuboids": cuboids.SHAPE, "traces": traces.SHAPE}


def shape_of(kind):
    """The declared :class:`~agreekit.report_shape.Section` of ``kind``'s report (``KeyError`` if none)."""
    return SHAPES[kind]


def kind_tooltips():
    """``{kind: {key path: one-line meaning}}`` for every kind."""
    return {kind: tooltips(shape) for kind, shape in SHAPES.items()}


__all__ = ["SHAPES", "shape_of", "kind_tooltips", "rows"]
