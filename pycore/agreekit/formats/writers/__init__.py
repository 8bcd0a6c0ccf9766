"""Exporters: rows of a kind written in an annotation tool's format, for the tool and agreekit's importers.

The way back from agreekit to the tool: the rows a kind's report takes
(consensus rows, adjudicated rows, plain rows) become a file the tool opens,
and the matching importer (:func:`agreekit.formats.convert`) reads back the
same items, annotators, geometry and labels.  One module per format registers
a :class:`Writer`; :func:`write` is the entry point and :func:`export` gives
the content alone.  A format that keeps one file per annotator or per item
(CVAT, brat, RTTM, TextGrid) gives several files; :attr:`Written.content` is
then a zip of them (fixed time stamps, sorted names: the same rows give the
same bytes).  What a format cannot carry is refused with the reason, or left
out and said in :attr:`Written.notes`.
"""
from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
import zipfile
from dataclasses import dataclass, field
from typing import Callable

from ...errors import InputError
from .records import read_records

__all__ = ["WRITERS", "Writer", "Written", "register_writer", "write", "export", "writer_options", "zip_files"]

WRITERS: dict = {}
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip holds: no clock in the bytes


@dataclass(frozen=True)
class Writer:
    """A tool format agreekit writes.

    ``write(kind, records, **options)`` returns a :class:`Written`; ``reader``
    names the importer that reads it back (:data:`agreekit.formats.READERS`),
    ``read_options`` the options that importer needs for it.
    """

    name: str
    title: str
    kinds: tuple
    write: Callable
    reader: str | None
    suffix: str


@dataclass(frozen=True)
class Written:
    """The files a writer made (name → bytes, sorted by name) and what it left out or assumed."""

    format: str
    files: tuple                     # ((name, bytes), …)
    notes: tuple = ()
    read_options: dict = field(default_factory=dict)

    @property
    def content(self):
        """One file's text (UTF-8), or a zip of several files as bytes."""
        if len(self.files) == 1:
            return self.files[0][1].decode("utf-8")
        return zip_files(self.files)

    @property
    def filename(self):
        """A name for :attr:`content`: the one file's, or ``<format>-export.zip``."""
        return self.files[0][0] if len(self.files) == 1 else f"{self.format}-export.zip"


def zip_files(files):
    """A zip of ``(name, bytes)`` pairs in sorted order, with fixed times (reproducible bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return out.getvalue()


def register_writer(writer):
    """Add ``writer`` to :data:`WRITERS` (each format module calls this once)."""
    WRITERS[writer.name] = writer
    return writer


def write(kind, rows, format, **options):
    """The rows of ``kind`` written in ``format``.

    Parameters
    ----------
    kind : str
        The kind of the rows (boxes, polygons, masks, spans, segments, …).
    rows : str or list of dict
        The rows the kind's report takes.
    format : str
        A name in :data:`WRITERS`: ``coco``, ``labelstudio``, ``cvat``, ``brat``, ``rttm``, ``textgrid``, ``csv``.
    **options
        The format's options (``image_sizes``, ``texts``, ``durations``, …; see its module).

    Returns
    -------
    Written

    Raises
    ------
    InputError
        An unknown format or option, a kind the format does not hold, a row
        the kind does not accept, or something the format cannot carry (with
        the reason and, when there is one, the option that supplies it).
    """
    if format not in WRITERS:
        raise InputError(f"unknown export format {format!r}; expected one of {', '.join(sorted(WRITERS))}",
                         column="format", value=format)
    writer = WRITERS[format]
    if kind not in writer.kinds and writer.kinds != ("*",):
        raise InputError(f"{writer.title} holds {', '.join(writer.kinds)}, not {kind}", column="kind", value=kind)
    _check_options(writer, options)
    records = rows if writer.kinds == ("*",) else read_records(kind, rows)
    if not records:
        raise InputError("no rows to export")
    return writer.write(kind, records, **options)


def writer_options(writer):
    """The option names ``writer.write`` takes (its keyword-only parameters)."""
    parameters = inspect.signature(writer.write).parameters.values()
    return tuple(p.name for p in parameters if p.kind == p.KEYWORD_ONLY)


def _check_options(writer, options):
    known = writer_options(writer)
    unknown = sorted(name for name in options if name not in known)
    if unknown:
        takes = f"its options are {', '.join(known)}" if known else "it takes no options"
        raise InputError(f"{writer.title}: unknown option {', '.join(map(repr, unknown))}; {takes}",
                         column=unknown[0], value=options[unknown[0]])


def export(kind, rows, format, **options):
    """The content of :func:`write`: the file's text, or a zip (bytes) when the format makes several files."""
    return write(kind, rows, format, **options).content


for _module in pkgutil.iter_modules(__path__):
    if _module.name != "records":
        importlib.import_module(f"{__name__}.{_module.name}")
