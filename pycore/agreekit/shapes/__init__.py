"""The declared shape of every kind's report: module ``shapes.<kind>`` holds ``SHAPE`` (:mod:`agreekit.report_shape`).

Adding a kind's shape means adding its module here; nothing lists them.
``docs/report.md`` is generated from these declarations (``scripts/report_doc.py``)
and ``tests/test_report_shape.py`` checks every kind's reports against them.
"""
from __future__ import annotations

import importlib

from ..registry import KINDS
from ..report_shape import tooltips


def shape_of(kind):
    """The declared :class:`~agreekit.report_shape.Section` of ``kind``'s report.

    ``kind`` must be registered (:func:`agreekit.registry.get` names the known ones);
    a registered kind without a shape module is a ``ModuleNotFoundError``.
    """
    return importlib.import_module(f"{__name__}.{kind}").SHAPE


def shapes():
    """``{kind: shape}`` of every registered kind, in tab order."""
    return {kind: shape_of(kind) for kind in sorted(KINDS, key=lambda name: KINDS[name].position)}


def kind_tooltips():
    """``{kind: {key path: one-line meaning}}`` of every registered kind."""
    return {kind: tooltips(shape) for kind, shape in shapes().items()}
