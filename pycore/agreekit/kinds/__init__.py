"""Kinds of annotation: rows in, a :class:`~agreekit.results.Report` out, one package each.

Each kind is a package here (``boxes``, ``spans``, ``segments``, ``polygons``,
``masks``, ``cuboids``, ``traces``) holding everything about it: reading and
checking its rows, its report function registered with
:func:`agreekit.registry.register`, its item detail and its command-line text.
Kinds never import each other; what two kinds share sits below them.

:func:`load_kinds` imports every kind package, which fills
:data:`agreekit.registry.KINDS`.  Folders named in the environment variable
``AGREEKIT_KIND_PATHS`` (separated by ``os.pathsep``), or passed as ``extra``,
are searched for more kind packages, imported as ``agreekit.kinds.<name>`` like
the built-in ones (``docs/architecture.md``, "Adding a kind").
"""
from __future__ import annotations

import importlib
import os
import pkgutil

from ..registry import KINDS

PATHS_VARIABLE = "AGREEKIT_KIND_PATHS"


def _extra_paths(extra):
    """Folders of further kind packages: ``extra`` then those of :data:`PATHS_VARIABLE`."""
    named = [p for p in os.environ.get(PATHS_VARIABLE, "").split(os.pathsep) if p]
    return [os.path.abspath(p) for p in (*extra, *named)]


def load_kinds(extra=()):
    """Import every kind package (each registers itself); :data:`KINDS` in tab order.

    Parameters
    ----------
    extra : sequence of str
        Folders holding further kind packages (one sub-folder per kind).
    """
    for path in _extra_paths(extra):
        if path not in __path__:
            __path__.append(path)
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            importlib.import_module(f"{__name__}.{module.name}")
    ordered = sorted(KINDS.items(), key=lambda item: item[1].position)
    KINDS.clear()
    KINDS.update(ordered)
    return KINDS
