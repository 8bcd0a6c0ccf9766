"""Command line: ``python -m agreekit KIND FILE|- [options]``.

Prints the kind's text (``Kind.text``, else :func:`agreekit.text.format_summary`), the report
as JSON with ``--json``, or its methods paragraph and references with ``--methods``
(:mod:`agreekit.methods`).  Bad input
exits with code 2 and the error message (which names the line and column).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from pathlib import Path

from . import KINDS, adjudication_csv, annotator_ranking, consensus_rows, reference_conflicts
from .cli_args import argument, read_text
from .cli_compare import add_compare, add_plan, run_compare, run_plan
from .formats import READERS, convert, load_sources
from .formats.base import detect, reader_options
from .formats.writers import WRITERS, write, writer_options
from .errors import InputError
from .methods import methods
from .reference.text import reference_text
from .text import format_summary


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
        p.add_argument("--option", dest="format_options", action="append", default=[], metavar="NAME=VALUE",
                       help="an option of the export format (repeatable; see 'agreekit convert --help')")
        defaults = kind.defaults()
        for option in kind.options:
            flag, keywords = argument(option, defaults[option.name])
            p.add_argument(flag, **keywords)
        p.add_argument("--json", action="store_true", help="print the report as JSON")
        p.add_argument("--methods", action="store_true", help="print a methods paragraph (data, measures, matching, "
                       "baseline, bootstrap, version) and its references as BibTeX, for a paper")
        p.add_argument("--adjudication", metavar="OUT.csv", help="with --reference: write the adjudication list")
    add_compare(sub)
    add_plan(sub)
    c = sub.add_parser("convert", help="convert annotation-tool exports to agreekit rows (CSV on stdout)",
                       epilog=_format_options_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("file", nargs="+", help="export files, folders or zips")
    c.add_argument("--from", dest="source_format", choices=formats, help="the export format (default: detect)")
    c.add_argument("--kind", dest="convert_kind", choices=list(KINDS),
                   help="the kind to read when an export holds several")
    c.add_argument("--option", dest="format_options", action="append", default=[], metavar="NAME=VALUE",
                   help="an option of the export format (repeatable; VALUE is text, read in the option's declared "
                        "type: a list comma-separated or as JSON), e.g. --option separator=- --option tiers=gesture_A")
    c.add_argument("--to", choices=["csv", "json"], default="csv",
                   help="csv: the rows; json: rows, span texts, warnings and the summary")
    _export_parser(sub, formats)
    _consensus_parser(sub, formats)
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


def _consensus_parser(sub, formats):
    """``agreekit consensus KIND FILE``: one sub-command per kind with a consensus hook."""
    c = sub.add_parser("consensus", help="the annotators' consensus without gold (CSV rows on stdout) and a "
                       "ranking of the annotators against it", description="Cluster matched objects across "
                       "annotators, keep those a quorum drew, fuse them; see docs/consensus.md.")
    kinds = c.add_subparsers(dest="consensus_kind", required=True)
    for name, kind in KINDS.items():
        if kind.consensus is None:
            continue
        p = kinds.add_parser(name, help=kind.summary, description=kind.summary)
        p.add_argument("file", nargs="+", help="CSV/TSV file with a header, - for standard input, or exports")
        p.add_argument("--from", dest="source_format", choices=formats, help="the export format (default: detect)")
        p.add_argument("--option", dest="format_options", action="append", default=[], metavar="NAME=VALUE",
                       help="an option of the export format read (repeatable; see 'agreekit convert --help')")
        defaults = kind.defaults()
        for option in kind.options:
            if option.name in kind.consensus.options:
                flag, keywords = argument(option, defaults[option.name])
                p.add_argument(flag, **keywords)
        p.add_argument("--quorum", type=int, help="supporting annotators an object needs (default: a strict "
                       "majority of those who saw the item)")
        p.add_argument("--exclude-annotator", metavar="NAME", help="the consensus of the others (leave-one-out)")
        p.add_argument("--annotator", default="consensus", help="the annotator name of the consensus rows")
        p.add_argument("--ranking", action="store_true", help="print the annotators' reliability table (CSV) "
                       "instead of the rows")
        p.add_argument("--rounds", type=int, default=1, help="reliability-weighted rounds of the ranking (default 1)")
        p.add_argument("--json", action="store_true", help="print the consensus (and ranking) as JSON")


def _csv(rows):
    """CSV text (header first) of a list of dicts that share their keys."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: "" if v is None else v for k, v in row.items()} for row in rows)
    return out.getvalue().rstrip("\n")


RANKING_COLUMNS = ("annotator", "reliability", "recall", "precision", "f1", "mean_similarity", "n_items",
                   "n_objects", "n_reference", "matched", "same_as")


def _ranking_rows(ranking):
    rows = [s.to_dict() for s in ranking.scores]
    return [{key: (" ".join(row[key]) if isinstance(row[key], list) else row[key]) for key in RANKING_COLUMNS}
            for row in rows]


def _consensus(args):
    kind = args.consensus_kind
    options = {o.name: getattr(args, o.name) for o in KINDS[kind].options
               if o.name in KINDS[kind].consensus.options and getattr(args, o.name, None) is not None}
    rows, _conversion, summary = _rows_from(args.file, kind, args.source_format,
                                            _format_options(args.format_options))
    for line in summary:
        print(f"agreekit: {line}", file=sys.stderr)
    result = consensus_rows(kind, rows, quorum=args.quorum, exclude_annotator=args.exclude_annotator,
                            annotator=args.annotator, **options)
    for warning in result.warnings:
        print(f"agreekit: warning: {warning}", file=sys.stderr)
    ranking = annotator_ranking(kind, rows, quorum=args.quorum, rounds=args.rounds, **options) \
        if args.ranking else None
    if args.json:
        data = {"consensus": result.to_dict(), **({"ranking": ranking.to_dict()} if ranking else {})}
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)
    return _csv(_ranking_rows(ranking)) if ranking else _csv(list(result.rows))


PLAIN_TABLES = (".csv", ".tsv", ".txt", ".tab")


def _rows_from(files, kind, source_format, format_options=None):
    """``(rows, the conversion or None, summary lines)``: a CSV/TSV table as text, or a converted export."""
    format_options = format_options or {}  # the export format's own options

    def plain_table():
        if format_options:
            raise InputError(f"--option {next(iter(format_options))}=… is an option of an export format; "
                             f"{files[0]} is read as a table of rows", column="option")
        return read_text(files[0]), None, []
    if source_format is None and len(files) == 1 and (files[0] == "-" or not os.path.exists(files[0])):
        return plain_table()
    if source_format is None:
        sources = load_sources(files)
        try:
            source_format = detect(sources)
        except InputError:
            if len(files) == 1 and files[0].lower().endswith(PLAIN_TABLES):
                return plain_table()
            raise
    conversion = convert(files, format=source_format, kind=kind, **format_options)
    return conversion.rows, conversion, _summary_lines(conversion)


def _summary_lines(conversion):
    s = conversion.summary()
    lines = [f"imported {s['format']}: {s['n_items']} items, {s['n_annotators']} annotators, "
             f"{s['n_annotations']} annotations, {s['n_saw_nothing']} saw-nothing rows from "
             f"{len(s['sources'])} file(s)"]
    lines += [f"skipped {n}: {reason}" for reason, n in s["skipped"].items()]
    return lines + [f"warning: {w}" for w in s["warnings"]] + [f"note: {a}" for a in s["also_holds"]]


def _format_options_help():
    """The options of each export format, for ``convert --help``: from each format's declaration."""
    lines = ["format options (--option NAME=VALUE):"]
    for name, reader in sorted(READERS.items()):
        names = reader_options(reader)
        lines.append(f"  {name:12} {', '.join(names) if names else '(none)'}")
        defaults = reader.defaults()
        for option in reader.options:
            allowed = f" ({option.range_text()})" if option.type == "choice" else ""
            default = f"; default {defaults[option.name]}" if defaults[option.name] is not None else ""
            lines.append(f"      {option.name}: {option.label}{allowed}{default}")
    return "\n".join(lines)


def _format_options(pairs):
    """``{name: text}`` from ``NAME=VALUE`` texts; :func:`agreekit.formats.convert` reads each text in its
    option's declared type."""
    options = {}
    for pair in pairs:
        name, found, value = pair.partition("=")
        if not found or not name.strip():
            raise InputError(f"--option {pair!r}: expected NAME=VALUE", column="option", value=pair)
        options[name.strip()] = value
    return options


def _json_options(pairs):
    """``{name: value}`` of a writer's ``NAME=VALUE`` options; VALUE is JSON when it parses as JSON, else text."""
    options = _format_options(pairs)
    for name, value in options.items():
        try:
            options[name] = json.loads(value)
        except ValueError:
            pass
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
    return {**options, **_json_options(args.format_options)}


def _export(args):
    rows, conversion, summary = _rows_from(args.file, args.export_kind, args.source_format, {})
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
    if args.kind == "compare":
        return run_compare(args)
    if args.kind == "plan":
        return run_plan(args)
    if args.kind == "export":
        return _export(args)
    if args.kind == "consensus":
        return _consensus(args)
    skip = ("kind", "file", "json", "methods", "debug", "source_format", "format_options", "adjudication")
    options = {k: v for k, v in vars(args).items() if k not in skip and v is not None}
    for key in [k for k in options if k.endswith("_file")]:  # options that name a file are read here
        options[key[:-5]] = read_text(options.pop(key))
    rows, conversion, summary = _rows_from(args.file, args.kind, args.source_format,
                                           _format_options(args.format_options))
    imported = {} if conversion is None else conversion.options()
    for line in summary:
        print(f"agreekit: {line}", file=sys.stderr)
    _reference_file(options)
    report = KINDS[args.kind].function(rows, **{**imported, **options})
    if args.adjudication:  # the conflicts against the reference, the items that need a human most first
        Path(args.adjudication).write_text(adjudication_csv(reference_conflicts(report)), encoding="utf-8")
    if args.json:
        return json.dumps(report.to_dict(), indent=2, allow_nan=False)
    if args.methods:
        return methods(args.kind, report).to_text()
    kind = KINDS[args.kind]
    return "\n".join([(kind.text or format_summary)(report),
                      *reference_text(report.to_dict(), kind.reference_columns)])


def _reference_file(options):
    """``--reference FILE``: a value naming an existing file is read as the reference rows (gold)."""
    name = options.get("reference")
    if name is not None and name != "consensus" and os.path.isfile(name):
        if "reference_rows" in options:
            raise InputError("give --reference FILE or --reference-rows FILE, not both", column="reference")
        options["reference_rows"] = read_text(options.pop("reference"))


def _in_file(error, args):
    """``"FILE: "`` for an error at a line of a file the command line named (the rows, or the file of
    the option the error is in), unless the message names it already as ``FILE: …``; else ``""``."""
    if error.line is None:
        return ""
    if error.field is None:
        files = getattr(args, "file", None) or []
        path = files[0] if len(files) == 1 else None
    else:
        path = getattr(args, error.field + "_file", None)
        if path is None and error.field == "reference_rows":
            path = getattr(args, "reference", None)
    if not path or path == "-" or not os.path.isfile(path) or f"{path}: " in str(error):  # named as "FILE: …"
        return ""
    return f"{path}: "


def main(argv=None):
    """Run the command line; returns the exit code (0 report, 2 bad input, 1 internal error)."""
    args = build_parser().parse_args(argv)
    try:
        output = _run(args)
        if output is not None:
            print(output)
    except InputError as error:
        print(f"agreekit: {_in_file(error, args)}{error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"agreekit: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001 — one readable line, never a traceback, unless --debug
        if args.debug:
            raise
        print(f"agreekit: internal error: {type(error).__name__}: {error} — please report it, with the input "
              "(--debug shows the traceback)", file=sys.stderr)
        return 1
    return 0
