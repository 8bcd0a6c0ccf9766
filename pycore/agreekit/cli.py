"""Command line: ``python -m agreekit KIND FILE|- [options]``.

Prints the kind's text (``Kind.text``, else :func:`agreekit.text.format_summary`), the report
as JSON with ``--json``, or its methods paragraph and references with ``--methods``
(:mod:`agreekit.methods`).  Bad input
exits with code 2 and the error message (which names the line and column).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import KINDS
from .formats import READERS, convert, load_sources
from .formats.base import detect, reader_options
from .formats.writers import WRITERS, write, writer_options
from .errors import InputError
from .methods import methods
from .text import format_summary


def _numbers(text):
    """A comma-separated list of numbers, for options such as ``--tolerances``."""
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


ARGUMENT_TYPES = {"float": float, "int": int, "floats": _numbers, "text": str, "labels": str}


def _argument(option, default):
    """``(flag, add_argument keywords)`` of a registry option."""
    shown = ",".join(f"{v:g}" for v in default) if isinstance(default, tuple) else default
    text = option.label + (f": {option.help}" if option.help else "")
    if default is not None:
        text += f" (default {shown})"
    flag = "--" + option.name.replace("_", "-")
    if option.type == "choice":
        return flag, {"choices": [c.value for c in option.choices], "help": text}
    if option.type == "table":  # a file name; main() reads it and passes its text
        return flag, {"dest": option.name + "_file", "metavar": "FILE", "help": text}
    return flag, {"type": ARGUMENT_TYPES[option.type], "help": text}


def read_text(path):
    """A file (or standard input for ``-``) as text: UTF-8, a leading BOM dropped.

    An invalid byte is an :class:`InputError` naming its line and byte offset.
    """
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        where = "standard input" if path == "-" else path
        raise InputError(f"{where} is not UTF-8 text: byte {error.start} (0x{data[error.start]:02x}) "
                         "is invalid; save the file as UTF-8", line=line) from None


def build_parser():
    parser = argparse.ArgumentParser(prog="agreekit",
                                     description="Chance-corrected agreement for structured annotations.")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an internal error")
    sub = parser.add_subparsers(dest="kind", required=True)
    formats = sorted(READERS)
    for name, kind in KINDS.items():
        p = sub.add_parser(name, help=kind.summary, description=kind.summary)
        p.add_argument("file", nargs="+", help="CSV/TSV file with a header, - for standard input, or the "
                       "export files of an annotation tool (detected; see 'agreekit convert')")
        p.add_argument("--from", dest="source_format", choices=formats, help="the export format (default: detect)")
        defaults = kind.defaults()
        for option in kind.options:
            flag, keywords = _argument(option, defaults[option.name])
            p.add_argument(flag, **keywords)
        p.add_argument("--json", action="store_true", help="print the report as JSON")
        p.add_argument("--methods", action="store_true", help="print a methods paragraph (data, measures, matching, "
                       "baseline, bootstrap, version) and its references as BibTeX, for a paper")
    c = sub.add_parser("convert", help="convert annotation-tool exports to agreekit rows (CSV on stdout)",
                       epilog=_format_options_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("file", nargs="+", help="export files, folders or zips")
    c.add_argument("--from", dest="source_format", choices=formats, help="the export format (default: detect)")
    c.add_argument("--kind", dest="convert_kind", choices=list(KINDS),
                   help="the kind to read when an export holds several")
    c.add_argument("--option", dest="format_options", action="append", default=[], metavar="NAME=VALUE",
                   help="an option of the export format (repeatable; VALUE is read as JSON when it parses, "
                        "else as text), e.g. --option separator=- --option 'tiers=[\"gesture_A\"]'")
    c.add_argument("--to", choices=["csv", "json"], default="csv",
                   help="csv: the rows; json: rows, span texts, warnings and the summary")
    _export_parser(sub, formats)
    return parser


def _export_parser(sub, formats):
    e = sub.add_parser("export", help="write rows in an annotation tool's format (COCO, Label Studio, CVAT, …)",
                       epilog=_writer_options_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    e.add_argument("export_kind", metavar="KIND", choices=list(KINDS), help="the kind of the rows")
    e.add_argument("file", nargs="+", help="CSV/TSV rows, - for standard input, or a tool's export files")
    e.add_argument("--from", dest="source_format", choices=formats, help="the input's export format (default: "
                   "detect)")
    e.add_argument("--to", dest="target_format", required=True, choices=sorted(WRITERS), help="the format to write")
    e.add_argument("-o", "--output", help="the file to write (default: standard output; a format that makes "
                   "several files writes a zip, which needs -o)")
    for name, columns in (("image_sizes", "item,width,height"), ("texts", "item,text"),
                          ("durations", "item,duration")):
        e.add_argument("--" + name.replace("_", "-"), dest=name + "_file", metavar="FILE",
                       help=f"CSV file {columns} for the formats that need it (option {name})")
    e.add_argument("--option", dest="format_options", action="append", default=[], metavar="NAME=VALUE",
                   help="an option of the format written (repeatable; VALUE is read as JSON when it parses)")


def _writer_options_help():
    lines = ["export formats and their options (--option NAME=VALUE):"]
    for name, writer in sorted(WRITERS.items()):
        options = writer_options(writer)
        kinds = "every kind" if writer.kinds == ("*",) else ", ".join(writer.kinds)
        lines.append(f"  {name:12} {kinds}; {', '.join(options) if options else 'no options'}")
    return "\n".join(lines)


PLAIN_TABLES = (".csv", ".tsv", ".txt", ".tab")


def _rows_from(files, kind, source_format):
    """``(rows, the conversion or None, summary lines)``: a CSV/TSV table as text, or a converted export."""
    if source_format is None and len(files) == 1 and (files[0] == "-" or not os.path.exists(files[0])):
        return read_text(files[0]), None, []
    if source_format is None:
        sources = load_sources(files)
        try:
            source_format = detect(sources)
        except InputError:
            if len(files) == 1 and files[0].lower().endswith(PLAIN_TABLES):
                return read_text(files[0]), None, []
            raise
    conversion = convert(files, format=source_format, kind=kind)
    return conversion.rows, conversion, _summary_lines(conversion)


def _summary_lines(conversion):
    s = conversion.summary()
    lines = [f"imported {s['format']}: {s['n_items']} items, {s['n_annotators']} annotators, "
             f"{s['n_annotations']} annotations, {s['n_saw_nothing']} saw-nothing rows from "
             f"{len(s['sources'])} file(s)"]
    lines += [f"skipped {n}: {reason}" for reason, n in s["skipped"].items()]
    return lines + [f"warning: {w}" for w in s["warnings"]]


def _format_options_help():
    """The options of each export format, for ``convert --help``."""
    lines = ["format options (--option NAME=VALUE):"]
    for name, reader in sorted(READERS.items()):
        options = reader_options(reader)
        lines.append(f"  {name:12} {', '.join(options) if options else '(none)'}")
    return "\n".join(lines)


def _format_options(pairs):
    """``{name: value}`` from ``NAME=VALUE`` texts; VALUE is JSON when it parses as JSON, else text."""
    options = {}
    for pair in pairs:
        name, found, value = pair.partition("=")
        if not found or not name.strip():
            raise InputError(f"--option {pair!r}: expected NAME=VALUE", column="option", value=pair)
        try:
            options[name.strip()] = json.loads(value)
        except ValueError:
            options[name.strip()] = value
    return options


def _convert(args):
    conversion = convert(args.file, format=args.source_format or "auto", kind=args.convert_kind,
                         **_format_options(args.format_options))
    for line in _summary_lines(conversion):
        print(f"agreekit: {line}", file=sys.stderr)
    if args.to == "json":
        return json.dumps({"kind": conversion.kind, "rows": conversion.rows, "lengths": conversion.lengths,
                           "durations": conversion.durations, "summary": conversion.summary()}, indent=2,
                          ensure_ascii=False, allow_nan=False)  # readers refuse non-finite numbers
    return conversion.to_csv().rstrip("\n")


def _export_options(args, conversion, writer):
    """The writer's options: from the import (span texts, clip durations, image sizes), the files given, then
    ``--option``."""
    known = writer_options(writer)
    imported = {} if conversion is None else {"texts": conversion.lengths, "durations": conversion.durations,
                                               "image_sizes": conversion.image_sizes}
    options = {name: value for name, value in imported.items() if name in known and value}
    for name in ("image_sizes", "texts", "durations"):
        path = getattr(args, name + "_file")
        if path is not None:
            options[name] = read_text(path)
    return {**options, **_format_options(args.format_options)}


def _export(args):
    rows, conversion, summary = _rows_from(args.file, args.export_kind, args.source_format)
    for line in summary:
        print(f"agreekit: {line}", file=sys.stderr)
    writer = WRITERS[args.target_format]
    written = write(args.export_kind, rows, args.target_format, **_export_options(args, conversion, writer))
    for note in written.notes:
        print(f"agreekit: note: {note}", file=sys.stderr)
    content = written.content
    if args.output is None and isinstance(content, bytes):
        raise InputError(f"{writer.title} makes {len(written.files)} files, written as a zip: give the zip's name "
                         "with -o FILE.zip", column="output")
    if args.output is None:
        return content.rstrip("\n")
    Path(args.output).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    print(f"agreekit: wrote {args.output} ({len(written.files)} file(s) in {writer.title})", file=sys.stderr)
    return None


def _run(args):
    if args.kind == "convert":
        return _convert(args)
    if args.kind == "export":
        return _export(args)
    skip = ("kind", "file", "json", "methods", "debug", "source_format")
    options = {k: v for k, v in vars(args).items() if k not in skip and v is not None}
    for key in [k for k in options if k.endswith("_file")]:  # options that name a file are read here
        options[key[:-5]] = read_text(options.pop(key))
    rows, conversion, summary = _rows_from(args.file, args.kind, args.source_format)
    imported = {} if conversion is None else conversion.options()
    for line in summary:
        print(f"agreekit: {line}", file=sys.stderr)
    report = KINDS[args.kind].function(rows, **{**imported, **options})
    if args.json:
        return json.dumps(report.to_dict(), indent=2, allow_nan=False)
    if args.methods:
        return methods(args.kind, report).to_text()
    return (KINDS[args.kind].text or format_summary)(report)


def main(argv=None):
    """Run the command line; returns the exit code (0 report, 2 bad input, 1 internal error)."""
    args = build_parser().parse_args(argv)
    try:
        output = _run(args)
        if output is not None:
            print(output)
    except (InputError, OSError) as error:
        print(f"agreekit: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001 — one readable line, never a traceback, unless --debug
        if args.debug:
            raise
        print(f"agreekit: internal error: {type(error).__name__}: {error} — please report it, with the input "
              "(--debug shows the traceback)", file=sys.stderr)
        return 1
    return 0
