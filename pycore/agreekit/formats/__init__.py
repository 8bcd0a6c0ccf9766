"""Importers: the export files of annotation tools turned into agreekit rows.

One module per tool format; each registers a :class:`~agreekit.formats.base.Reader`
(its name, the kinds it yields, a detector and a reader from bytes to rows).
:func:`convert` is the one entry point: paths, directories, zip files or
``(name, bytes)`` pairs in, a :class:`~agreekit.formats.base.Conversion` out
(the rows the paste box takes, span texts, warnings, and a summary of what was
read and what was skipped and why).
"""
import importlib
import pkgutil

from .base import READERS, Conversion, Skipped, Source, convert, load_sources

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["READERS", "Conversion", "Skipped", "Source", "convert", "load_sources"]
