"""What every importer shares: sources, the conversion record, the reader registry and detection.

A source is one file as ``(name, bytes)``: the name carries the annotator for
formats that keep one annotator per file or folder, and names the file in every
error.  A reader turns the sources of one format into rows of one kind, the
same rows the paste box takes: boxes ``item, annotator, x, y, w, h, label``;
polygons ``item, annotator, points, label``; masks ``item, annotator, width,
height, rle, label`` (COCO column-major RLE); spans and segments ``item,
annotator, start, end, label``.  "Saw the item and marked nothing" is a row
with only ``item`` and ``annotator``; "never saw it" is no row.  Nothing is
dropped silently: every annotation a reader leaves out is a :class:`Skipped`
record with its reason, counted in the summary.
"""
from __future__ import annotations

import csv
import inspect
import io
import json
import os
import xml.etree.ElementTree as ElementTree
import xml.parsers.expat as expat
import zipfile
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Callable

from ..arrays import name_list
from ..registry import KINDS
from ..rows import InputError
from .format_options import check_options, reader_options
from .supplied_tables import SUPPLIED_TABLES

READERS: dict = {}
MAX_SOURCE_BYTES = 512 * 1024 * 1024  # one export file, or one member of a zip uncompressed
MAX_ZIP_BYTES = 1024 * 1024 * 1024    # all the members of one zip, uncompressed


def kind_columns(kind):
    """The canonical columns of ``kind``'s rows, from the registry."""
    return KINDS[kind].columns


@dataclass(frozen=True)
class Source:
    """One input file: its name (a path inside a folder or zip) and its bytes."""

    name: str
    data: bytes

    @property
    def stem(self):
        """The file name without folders and extension (an annotator name for per-file formats)."""
        return PurePosixPath(self.name.replace("\\", "/")).stem

    @property
    def folder(self):
        """The name of the folder holding the file, or "" (an annotator name for per-folder formats)."""
        parts = PurePosixPath(self.name.replace("\\", "/")).parts
        return parts[-2] if len(parts) > 1 else ""

    def text(self):
        """The bytes as text: UTF-8 (a BOM dropped) or UTF-16 with a BOM; else an error naming the byte."""
        data = self.data
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            try:
                return data.decode("utf-16")
            except UnicodeDecodeError as error:  # an odd byte count (cut short) or a lone surrogate
                raise InputError(f"{self.name}: not UTF-16 text (byte {error.start}; is the file cut short?)") from None
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise InputError(f"{self.name}: not UTF-8 text (byte {error.start}, 0x{data[error.start]:02x})",
                             line=line) from None

    def head(self, size=4096):
        """The first ``size`` bytes as text, undecodable bytes replaced (for detection only)."""
        data = self.data[:size]
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return data.decode("utf-16", errors="replace")
        return data.decode("utf-8", errors="replace").lstrip("\ufeff")


@dataclass(frozen=True)
class Skipped:
    """An annotation (or a whole record) a reader left out, where it was and why."""

    source: str
    where: str    # task id, image name, line number or JSON path
    reason: str


@dataclass
class Conversion:
    """The rows of one kind read from the sources of one format.

    ``lengths`` maps item → text for spans when the export carries the texts
    (they give character-level α its item lengths); ``durations`` maps item →
    seconds for segments when the export carries the clip's length (a TextGrid's
    ``xmax``); ``image_sizes`` maps item → ``(width, height)`` in pixels when the
    export carries the image's size (the exporters take it; the reports do not);
    ``skipped`` lists what was left out and why; ``format_options`` the format's
    options the files were read with (a share link carries them).
    """

    format: str
    kind: str
    rows: list
    lengths: dict | None = None
    warnings: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    sources: list = field(default_factory=list)
    durations: dict | None = None
    also: list = field(default_factory=list)  # what a reading as another kind would find, in words
    image_sizes: dict | None = None
    format_options: dict = field(default_factory=dict)  # the format's options it was read with (checked)

    def summary(self):
        """Counts for the page and the CLI: items, annotators, annotations, saw-nothing rows, skipped by reason."""
        # A mask's width and height are the image's, present on a saw-nothing row too; a kind with no geometry
        # (labels) holds its annotation in the label.
        columns = [c for c in kind_columns(self.kind) if c not in ("item", "annotator", "width", "height")]
        geometry = [c for c in columns if c != "label"] or columns
        empty = sum(1 for r in self.rows if all(r.get(c) in (None, "") for c in geometry))
        return {"format": self.format, "kind": self.kind, "sources": list(self.sources),
                "n_items": len({r["item"] for r in self.rows}),
                "n_annotators": len({r["annotator"] for r in self.rows}),
                "n_annotations": len(self.rows) - empty, "n_saw_nothing": empty,
                "n_skipped": len(self.skipped),
                "skipped": dict(Counter(s.reason for s in self.skipped)),
                "warnings": list(self.warnings), "also_holds": list(self.also)}

    def to_csv(self):
        """The rows as the CSV text a user would paste (header first)."""
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=kind_columns(self.kind), lineterminator="\n",
                                extrasaction="ignore")
        writer.writeheader()
        writer.writerows({k: ("" if v is None else v) for k, v in row.items()} for row in self.rows)
        return out.getvalue()

    def option_tables(self):
        """The table options :meth:`options` supplies, as the CSV text the page's option fields take."""
        return {table.option: table.csv(getattr(self, table.attribute)) for table in self._tables()}

    def options(self):
        """Report options the conversion supplies (span texts as ``lengths``, clip lengths as ``durations``)."""
        return {table.option: dict(getattr(self, table.attribute)) for table in self._tables()}

    def _tables(self):
        """The :data:`SUPPLIED_TABLES` of this conversion's kind that it holds."""
        return [table for table in SUPPLIED_TABLES if table.kind == self.kind and getattr(self, table.attribute)]


@dataclass(frozen=True)
class Reader:
    """A tool's export format.

    ``detect(source)`` returns None when the source is in this format, else a
    short reason why not (shown when no format fits).  ``read(sources, kind,
    **options)`` returns a :class:`Conversion`; ``kind`` is None to let the
    reader choose from the content (it raises when the content holds several
    kinds and none was asked for).  ``companion(source)``, if given, is True for
    a file that is no format on its own but may travel with this format's files
    (a brat ``.txt`` beside its ``.ann``, the other files of a Potato output
    folder); ``read`` receives it with the others and says what it did with it.

    ``options`` declares the format's options once (:class:`agreekit.options.Option`
    records, their defaults in ``read``'s signature): the command line's help,
    the page's import form and share links are built from them, and
    :func:`check_options` checks what a caller gives against them.
    """

    name: str
    title: str
    kinds: tuple
    detect: Callable
    read: Callable
    position: int = 100
    companion: Callable | None = None
    options: tuple = ()

    def defaults(self):
        """``{option name: default}`` from ``read``'s signature (None: no default)."""
        parameters = inspect.signature(self.read).parameters
        return {o.name: (None if parameters[o.name].default is inspect.Parameter.empty
                         else parameters[o.name].default) for o in self.options}

    def to_json(self):
        """The format for the page: name, title, kinds and its options (:meth:`Option.to_json`)."""
        defaults = self.defaults()
        return {"name": self.name, "title": self.title, "kinds": list(self.kinds),
                "options": [o.to_json(defaults[o.name]) for o in self.options]}


def formats_json():
    """Every format's :meth:`Reader.to_json`, in detection order (the page's import form is built from it)."""
    return [reader.to_json() for reader in sorted(READERS.values(), key=lambda r: r.position)]


def register_format(reader):
    """Add ``reader`` to :data:`READERS` (each format module calls this once)."""
    READERS[reader.name] = reader
    return reader


def text_lines(text):
    """The lines of ``text``, split at ``\n`` only (a ``\r`` before it dropped), as JSON Lines and brat define
    them: ``str.splitlines`` also splits at U+0085, U+2028 and U+2029, which may sit inside a record's text."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def load_json(text):
    """``json.loads(text)``; JSON nested too deeply for Python's parser is a :class:`json.JSONDecodeError`
    (as malformed JSON is), not a ``RecursionError``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply (arrays or objects inside each other beyond Python's "
                                   "recursion limit)", text, 0) from None


def parse_xml(source):
    """The root element of an XML source, parsed by expat without expanding entities.

    A document that declares entities (the "billion laughs" expansion, or an
    external entity naming a local file) is refused, in any encoding: no
    annotation tool's export needs them.  Malformed XML is an
    :class:`InputError` naming the line.
    """
    builder = ElementTree.TreeBuilder()
    parser = expat.ParserCreate(namespace_separator="}")

    def name(raw):  # "uri}local" → "{uri}local", as ElementTree names them
        return "{" + raw if "}" in raw else raw

    def refuse(*_):
        raise _Refused

    parser.StartElementHandler = lambda tag, attributes: builder.start(
        name(tag), {name(key): value for key, value in attributes.items()})
    parser.EndElementHandler = lambda tag: builder.end(name(tag))
    parser.CharacterDataHandler = builder.data
    parser.EntityDeclHandler = parser.UnparsedEntityDeclHandler = parser.ExternalEntityRefHandler = refuse
    try:
        parser.Parse(source.data, True)
        return builder.close()
    except _Refused:
        raise InputError(f"{source.name}: the XML has entity declarations (<!ENTITY …>), which agreekit does not "
                         "expand (an export never needs them): remove the DOCTYPE", line=parser.CurrentLineNumber,
                         column="DOCTYPE") from None
    except LookupError as error:  # an encoding Python does not know, declared in the XML declaration
        raise InputError(f"{source.name}: the XML declares an unknown encoding ({error})", line=1,
                         column="encoding") from None
    except expat.ExpatError as error:
        raise InputError(f"{source.name}: not well-formed XML ({expat.ErrorString(error.code)}: line "
                         f"{error.lineno}, column {error.offset})", line=error.lineno) from None


class _Refused(Exception):
    """Raised inside the XML parser's handlers to stop at an entity declaration."""


# ----------------------------------------------------------------- sources in

def hidden(path):
    """True for a path inside a hidden or system folder, or a hidden file (``.ipynb_checkpoints``, ``.git``,
    ``__MACOSX``, ``.DS_Store``): tools and operating systems write them, annotators do not."""
    return any(part.startswith(".") or part == "__MACOSX" for part in PurePosixPath(path).parts)


def _from_zip(name, data):
    """The files of a zip, each read up to :data:`MAX_SOURCE_BYTES` and all together up to :data:`MAX_ZIP_BYTES`
    uncompressed (the sizes a zip declares are not trusted: a small zip may expand to gigabytes)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = sorted(archive.infolist(), key=lambda i: i.filename)
    except (zipfile.BadZipFile, EOFError, ValueError) as error:
        raise InputError(f"{name}: not a readable zip file ({error})") from None
    out, budget = [], MAX_ZIP_BYTES
    for info in members:
        if info.is_dir() or hidden(info.filename):
            continue
        member = _zip_member(archive, info, name, budget)
        budget -= len(member)
        out.append(Source(f"{PurePosixPath(name).stem}/{info.filename}", member))
    return out


def _zip_member(archive, info, name, budget):
    """The bytes of one zip member, or an :class:`InputError` naming it (too large, encrypted, unreadable)."""
    limit = min(MAX_SOURCE_BYTES, budget)
    try:
        with archive.open(info) as handle:
            data = handle.read(limit + 1)
    except NotImplementedError as error:  # (a RuntimeError) a compression method zipfile does not have
        raise InputError(f"{name}: {info.filename} uses a compression agreekit cannot read ({error})") from None
    except RuntimeError as error:  # zipfile's "File ... is encrypted, password required"
        raise InputError(f"{name}: {info.filename} is encrypted ({error}); unzip it yourself") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as error:
        raise InputError(f"{name}: {info.filename} cannot be read from the zip ({error})") from None
    if len(data) > limit:
        which = (f"is larger than {MAX_SOURCE_BYTES:,} bytes uncompressed" if limit == MAX_SOURCE_BYTES else
                 f"takes the zip past {MAX_ZIP_BYTES:,} bytes uncompressed in all")
        raise InputError(f"{name}: {info.filename} {which}; unzip it and import fewer files at a time")
    return data


def _from_path(path):
    if os.path.isdir(path):
        out = []
        for folder, dirs, files in os.walk(path):  # top-down: a folder's files, then its sorted subfolders
            dirs[:] = sorted(d for d in dirs if not hidden(d))  # os.walk then does not enter hidden ones
            for file in sorted(f for f in files if not hidden(f)):
                full = os.path.join(folder, file)
                rel = os.path.relpath(full, os.path.dirname(os.path.abspath(path)))
                out += _expand(rel.replace(os.sep, "/"), _read_file(full))
        return out
    return _expand(os.path.basename(path), _read_file(path))


def _read_file(path):
    try:
        if os.path.getsize(path) > MAX_SOURCE_BYTES:
            raise InputError(f"{path} is larger than {MAX_SOURCE_BYTES:,} bytes")
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None


def _expand(name, data):
    return _from_zip(name, data) if data[:4] == b"PK\x03\x04" else [Source(name, data)]


def load_sources(sources):
    """Sources from a path, a directory (recursively, sorted), a zip, ``(name, bytes)`` pairs, or a list of them."""
    if isinstance(sources, (str, os.PathLike)) or (isinstance(sources, tuple) and len(sources) == 2
                                                   and isinstance(sources[1], (bytes, bytearray))):
        sources = [sources]
    out = []
    for source in sources:
        if isinstance(source, Source):
            out += _expand(source.name, source.data)
        elif isinstance(source, tuple):
            out += _expand(str(source[0]), bytes(source[1]))
        else:
            out += _from_path(os.fspath(source))
    if not out:
        raise InputError("no files to import")
    return out


# ----------------------------------------------------------------- detection and the entry point

def detect(sources):
    """The one format the sources are in, or an :class:`InputError` saying what was tried and why not.

    Files no format claims (a README, a LICENSE, a ``.uem``, a format's
    companion files) are left to :func:`unclaimed` as long as some file is in
    a format; files in two formats are an error naming them.
    """
    found, reasons = {}, {}
    for source in sources:
        fits = []
        for name, reader in sorted(READERS.items(), key=lambda item: item[1].position):
            reason = reader.detect(source)
            if reason is None:
                fits.append(name)
            else:
                reasons.setdefault(source.name, []).append(f"{reader.title}: {reason}")
        if fits:
            found.setdefault(fits[0], []).append(source.name)
    if len(found) > 1:
        named = [f"{name}: {', '.join(files[:3])}{' …' if len(files) > 3 else ''}"
                 for name, files in sorted(found.items())]
        raise InputError(f"the files are in different formats ({'; '.join(named)}); import one format at a time")
    if not found:
        source = sources[0]
        tried = "; ".join(reasons.get(source.name, [])) or "no format"
        raise InputError(f"{source.name}: not a format agreekit reads. Tried {tried}")
    return next(iter(found))


def unclaimed(sources, format):
    """The sources that are neither in ``format`` nor a companion file of it (a README, a LICENSE, …)."""
    reader = READERS[format]
    return [s for s in sources if reader.detect(s) is not None and not (reader.companion and reader.companion(s))]


def convert(sources, *, format="auto", kind=None, **options):
    """Rows for agreekit from annotation-tool exports.

    Parameters
    ----------
    sources : path, list of paths, directory, zip, ``(name, bytes)`` pairs or :class:`Source`
        The export files; folders and zips are read recursively in sorted order.
    format : str
        ``"auto"`` (detect) or a name in :data:`READERS` (``labelstudio``, ``coco``, …).
    kind : str, optional
        The kind of annotation to read when an export holds several (boxes, polygons, …).
    **options
        The format's own options (see its module).

    Returns
    -------
    Conversion
        ``rows`` (list of dicts for ``agreekit.report(kind, rows)``), ``lengths``,
        ``warnings``, ``skipped`` and :meth:`Conversion.summary`.
    """
    loaded, ignored = load_sources(sources), []
    if format == "auto":
        format = detect(loaded)
        ignored = unclaimed(loaded, format)
        loaded = [s for s in loaded if s not in ignored]
    if format not in READERS:
        raise InputError(f"unknown format {format!r}; expected one of {', '.join(sorted(READERS))}",
                         column="format", value=format)
    reader = READERS[format]
    if kind is not None and kind not in reader.kinds:
        raise InputError(f"{reader.title} exports hold {', '.join(reader.kinds)}, not {kind}", column="kind",
                         value=kind)
    options = check_options(reader, options)
    conversion = reader.read(loaded, kind, **options)
    conversion.sources = [s.name for s in loaded]
    conversion.format_options = options
    if ignored:
        conversion.warnings.append(f"ignored {len(ignored)} file(s) that are not {reader.title} files: "
                                   f"{name_list([s.name for s in ignored])}")
    columns = kind_columns(conversion.kind)  # every row has every column (None = empty), as the kinds read dicts
    conversion.rows = [{c: row.get(c) for c in columns} for row in conversion.rows]
    if not conversion.rows:
        raise InputError(f"{reader.title}: the files hold no {conversion.kind} annotations"
                         + (f" ({len(conversion.skipped)} skipped: "
                            + ", ".join(f"{n} {r}" for r, n in Counter(s.reason for s in conversion.skipped).items())
                            + ")" if conversion.skipped else ""))
    return conversion
