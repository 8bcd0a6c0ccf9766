"""3D cuboids: the ``cuboids`` kind (its rows, report, item detail and command-line text).

Importing the package registers the kind (:func:`agreekit.registry.register` in :mod:`.report`).
"""
from .report import cuboids

__all__ = ["cuboids"]
