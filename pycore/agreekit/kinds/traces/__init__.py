"""Per-step labels of agent traces: the ``traces`` kind (its rows, report, item detail and command-line text).

Importing the package registers the kind (:func:`agreekit.registry.register` in :mod:`.report`).
"""
from .report import traces

__all__ = ["traces"]
