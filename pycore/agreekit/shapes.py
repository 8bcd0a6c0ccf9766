"""Every registered kind's declared report shape, read from the registry.

Each kind declares its report in ``kinds/<kind>/shape.py`` (the vocabulary is
:mod:`agreekit.report_shape`) and passes it to ``register(shape=…)``.
``docs/report.md`` is generated from these declarations (``scripts/report_doc.py``)
and ``tests/test_report_shape.py`` checks every kind's reports against them.
"""
from __future__ import annotations

from .errors import InputError
from .registry import KINDS, get
from .report_shape import tooltips


def shape_of(kind):
    """The declared :class:`~agreekit.report_shape.Section` of ``kind``'s report.

    ``kind`` must be registered (:func:`agreekit.registry.get` names the known
    ones); a kind registered without a shape is an :class:`InputError`.
    """
    shape = get(kind).shape
    if shape is None:
        raise InputError(f"kind {kind!r} declares no report shape (register(..., shape=...))", value=kind)
    return shape


def shapes():
    """``{kind: shape}`` of every registered kind, in tab order."""
    return {kind: shape_of(kind) for kind in sorted(KINDS, key=lambda name: KINDS[name].position)}


def kind_tooltips():
    """``{kind: {key path: one-line meaning}}`` of every registered kind."""
    return {kind: tooltips(shape) for kind, shape in shapes().items()}
