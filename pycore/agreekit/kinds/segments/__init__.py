"""Time segments: the ``segments`` kind (its rows, report, item detail and command-line text).

Importing the package registers the kind (:func:`agreekit.registry.register` in :mod:`.report`).
"""
from .report import segments

__all__ = ["segments"]
