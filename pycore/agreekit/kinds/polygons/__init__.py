"""Polygons: the ``polygons`` kind (its rows, report, item detail and command-line text).

Importing the package registers the kind (:func:`agreekit.registry.register` in :mod:`.report`).
"""
from .report import polygons

__all__ = ["polygons"]
