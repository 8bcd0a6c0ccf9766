"""Command line: ``python -m agreekit KIND FILE|- [options]``.

Prints a readable summary, or the report as JSON with ``--json``.  Bad input
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
from .formats.base import detect
from .kinds.labels import text as labels_text
from .rows import InputError


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


def _format_value(value):
    if isinstance(value, dict) and "value" in value:  # an estimate in a table cell
        value = value["value"]
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def format_summary(report):
    """A readable multi-line summary: the scalar values of the report, by key."""
    lines = []

    def walk(prefix, value):
        if isinstance(value, dict):
            for key, sub in value.items():
                walk(f"{prefix}.{key}" if prefix else key, sub)
        elif isinstance(value, list):
            if value and all(isinstance(v, (int, float)) or v is None for v in value) and len(value) <= 2:
                lines.append(f"{prefix:<40} [{', '.join(_format_value(v) for v in value)}]")
            else:
                lines.append(f"{prefix:<40} ({len(value)} entries; use --json)")
        else:
            lines.append(f"{prefix:<40} {_format_value(value)}")

    data = report.to_dict()
    for key, value in data.items():
        if key in ("warnings",):
            continue
        walk(key, value)
    for warning in data.get("warnings", []):
        lines.append(f"warning: {warning}")
    return "\n".join(lines)


def _table(rows, columns, limit=None):
    """Plain-text table of dicts; ``columns`` are (key, heading) pairs."""
    shown = rows[:limit] if limit else rows
    cells = [[h for _, h in columns]] + [[_format_value(r.get(k)) for k, _ in columns] for r in shown]
    widths = [max(len(row[c]) for row in cells) for c in range(len(columns))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in cells]
    if limit and len(rows) > limit:
        lines.append(f"... {len(rows) - limit} more (use --json)")
    return "\n".join(lines)


def _estimate(e):
    """An estimate as ``value  [low, high]``, or ``undefined (reason)``."""
    return _with_ci(e["value"], e["ci"], e["reason"])


def _with_ci(value, ci, reason=None):
    if value is None:
        return f"undefined ({reason})" if reason else "undefined"
    text = f"{value:.4f}"
    if ci:
        text += f"  [{ci[0]:.4f}, {ci[1]:.4f}]"
    return text


def format_boxes(report, objects="boxes"):
    """The box report as a reader wants it: σ first, the raw IoU beside it, then breakdowns.
    Other object kinds with the same report (polygons) name their ``objects``."""
    d = report.to_dict()
    s, loc = d["settings"], d["localization"]
    level = int(round(s["ci_level"] * 100))
    lines = [
        f"agreekit {d['kind']}: {d['n_items']} comparable items, {d['n_annotators']} annotators, "
        f"{d['n_' + objects]} {objects}",
        f"settings: threshold {s['threshold']}, distance {s['distance']}, match {s['match']}, "
        f"{s['bootstrap']} bootstrap resamples (seed {s['seed']}), {level}% intervals",
        "",
        f"sigma (localization)      {_estimate(loc['sigma'])}",
        f"  1 = perfect, 0 = no better than {objects} from other images, < 0 = systematically worse",
        f"sigma_cross               {_estimate(loc['sigma_cross'])}",
        "  against pairs by different annotators only (the pair and annotator tables use these baselines)",
        f"sigma_B (Braylan 2022)    {_estimate(loc['significance_share'])}",
        f"  share of matched pairs below the {loc['significance_level']:g} quantile of between distances",
        f"raw mean matched IoU      {_format_value(d['mean_matched_iou'])}   (no chance correction)",
        f"KS D within vs between    {_format_value(loc['ks'])}   (cross: {_format_value(loc['ks_cross'])})",
        f"mean distance             within {_format_value(loc['mean_within'])} over {loc['n_within']} matched pairs; "
        f"between {_format_value(loc['mean_between'])} over {loc['n_between']:,} pairs "
        f"({'exact, all pairs' if loc['between_exact'] else 'sampled'})",
        f"detection alpha           {_estimate(d['detection'])}",
        f"classification alpha      {_estimate(d['classification'])}",
        f"detection F1 {_format_value(d['detection_f1'])}, mean agreement {_format_value(d['mean_agreement'])}, "
        f"mean object-count difference {_format_value(d['mean_object_count_diff'])}",
        "",
        "annotator pairs:",
        _table(d["pairs"], [("a", "a"), ("b", "b"), ("sigma", "sigma"), ("detection_f1", "det F1"),
                            ("mean_matched_iou", "IoU"), ("n_matched", "matched"), ("n_item_pairs", "items")]),
        "",
        "annotators (against all others):",
        _table(d["annotators"], [("annotator", "annotator"), ("sigma", "sigma"), ("detection_f1", "det F1"),
                                 ("n_items", "items"), ("n_objects", objects)]),
        "",
        "labels:",
        _table(d["labels"], [("label", "label"), ("sigma", "sigma"), ("mean_matched_iou", "IoU"),
                             ("n_objects", objects), ("n_label_mismatch", "mismatched")]),
        "",
        "items with most disagreement:",
        _table(d["items"], [("item", "item"), ("detection_f1", "det F1"), ("n_unmatched", "unmatched"),
                            ("mean_within", "mean distance")], limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)


def format_segments(report):
    """The segment report: α and the raw measures, then the boundary sweep with its tolerances."""
    d = report.to_dict()
    s = d["settings"]
    level = int(round(s["ci_level"] * 100))
    tolerances = s["tolerances"]
    sweep = [{**row, "tolerance": f"±{row['tolerance']:g} s",
              "f1_ci": "" if not row["f1_ci"] else f"[{row['f1_ci'][0]:.4f}, {row['f1_ci'][1]:.4f}]"}
             for row in d["boundary_sweep"]]

    def by_tolerance(entry, key):
        return {**entry, **{f"at {row['tolerance']:g}": row["f1"] for row in entry.get(key, [])}}

    f1_columns = [(f"at {t:g}", f"F1 ±{t:g}") for t in tolerances]
    lines = [
        f"agreekit segments: {d['n_items']} comparable clips, {d['n_annotators']} annotators, "
        f"{d['n_segments']} segments",
        f"settings: IoU threshold {s['threshold']}, match {s['match']}, {s['bootstrap']} bootstrap resamples "
        f"(seed {s['seed']}), {level}% intervals",
        "",
        f"detection alpha           {_estimate(d['detection'])}",
        f"classification alpha      {_estimate(d['classification'])}",
        f"mean matched IoU {_format_value(d['mean_matched_iou'])}, detection F1 {_format_value(d['detection_f1'])}, "
        f"mean agreement {_format_value(d['mean_agreement'])}, "
        f"mean segment-count difference {_format_value(d['mean_object_count_diff'])}",
        *_segment_sigma_lines(d["localization"]),
        f"unitizing alpha (α_U)     {_estimate(d['unitizing_alpha'])}   (Krippendorff 2004, over seconds)",
        "",
        "boundary sweep (starts to starts, ends to ends, pooled over clips and annotator pairs):",
        _table(sweep, [("tolerance", "tolerance"), ("precision", "precision"), ("recall", "recall"), ("f1", "F1"),
                       ("f1_ci", f"F1 {level}% interval"), ("start_f1", "starts F1"), ("end_f1", "ends F1")]),
        "  high F1 at wide tolerances with low F1 at narrow ones: agreement that an event happened, not on when",
        "",
        "annotator pairs (boundary F1 by tolerance):",
        _table([by_tolerance(p, "boundary_sweep") for p in d["pairs"]],
               [("a", "a"), ("b", "b"), ("sigma", "sigma"), ("detection_f1", "det F1"), ("mean_matched_iou", "IoU"),
                ("n_matched", "matched")] + f1_columns),
        "",
        "clips with most disagreement:",
        _table([by_tolerance(item, "boundary_f1") for item in d["items"]],
               [("item", "clip"), ("detection_f1", "det F1"), ("n_unmatched", "unmatched")] + f1_columns, limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)


def _segment_sigma_lines(loc):
    """σ and KS of segments against the within-clip chance baseline, or why there are none."""
    if "mean_chance" not in loc:
        return [f"sigma: {loc['sigma']['reason']}"]
    return [f"sigma (within clip)       {_estimate(loc['sigma'])}",
            "  1 = perfect, 0 = no closer than the clip's segments placed at random, < 0 = worse",
            f"KS D within vs chance     {_format_value(loc['ks'])}",
            f"mean distance             within {_format_value(loc['mean_within'])} over {loc['n_within']} matched "
            f"pairs; chance {_format_value(loc['mean_chance'])} over {loc['n_chance']:,} pairs in "
            f"{loc['chance_placements']} placements (standard error {_format_value(loc['chance_se'])})"]


def format_traces(report):
    """The trace report: α, κ and percent agreement, then α by step position and the disputed units."""
    d = report.to_dict()
    s = d["settings"]
    a, cohen, fleiss, percent = d["alpha"], d["cohen_kappa"], d["fleiss_kappa"], d["percent_agreement"]
    steps = [{"step": r["step"], "alpha": r["alpha"]["value"], "percent_agreement": r["percent_agreement"],
              "n_units": r["n_units"]} for r in d["steps"]]
    traces = [{**r, "alpha": r["alpha"]["value"]} for r in d["traces"]]
    units = [{**u, "labels": ", ".join(f"{k}={v}" for k, v in u["labels"].items())} for u in d["units"]]
    lines = [
        f"agreekit traces: {d['n_traces']} traces, {d['n_units']} units (trace, step), {d['n_labels']} labels, "
        f"{d['n_annotators']} annotators",
        f"settings: level {s['level']}, {s['bootstrap']} bootstrap resamples over traces (seed {s['seed']})",
        "",
        f"Krippendorff alpha ({s['level']})  {_estimate(a)}",
        f"mean Cohen kappa          {_estimate(cohen['mean'])}   over {cohen['mean']['n']} annotator pairs",
        f"Fleiss kappa              {_estimate(fleiss)}",
        f"percent agreement         {_estimate(percent)}"
        "   (share of agreeing label pairs within a unit)",
        "",
        "annotator pairs:",
        _table(cohen["pairs"], [("a", "a"), ("b", "b"), ("kappa", "kappa"), ("percent_agreement", "agree"),
                                ("n_units", "units")]),
        "",
        "by step position:",
        _table(steps, [("step", "step"), ("alpha", "alpha"), ("percent_agreement", "agree"), ("n_units", "units")]),
        "",
        "traces with most disagreement:",
        _table(traces, [("trace", "trace"), ("alpha", "alpha"), ("percent_agreement", "agree"),
                        ("n_disputed_steps", "disputed steps"), ("n_steps", "steps")], limit=10),
        "",
        f"most disputed units ({d['n_disputed_units']} in all):",
        _table(units, [("trace", "trace"), ("step", "step"), ("percent_agreement", "agree"), ("labels", "labels")],
               limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)


FORMATTERS = {"boxes": format_boxes, "segments": format_segments}
FORMATTERS["traces"] = format_traces
FORMATTERS["cuboids"] = lambda report: format_boxes(report, "cuboids")
FORMATTERS["polygons"] = lambda report: format_boxes(report, "polygons")


def format_masks(report):
    """The mask report: per annotator sensitivity and specificity side by side (under- and
    over-segmenting have opposite fixes), Dice against STAPLE and against the vote, then items."""
    d = report.to_dict()
    s = d["settings"]

    def value(entry, key):
        return entry[key]["value"]

    annotators = [{**a, **{k: value(a, k) for k in ("sensitivity", "specificity", "dice", "majority_dice",
                                                      "mean_iou")}} for a in d["annotators"]]
    pairs = [{**p, "mean_iou": value(p, "mean_iou")} for p in d["pairs"]]
    items = [{**e, "mean_dice": sum(e["dice"]) / len(e["dice"])} for e in d["items"]]
    lines = [
        f"agreekit masks: {d['n_items']} comparable images, {d['n_annotators']} annotators, {d['n_masks']} masks",
        f"settings: STAPLE with a fixed prior, start {s['start']}, at most {s['max_iter']} iterations; "
        f"RLE {s['rle_order']}" + (f"; label {s['label']}" if s["label"] is not None else ""),
        "",
        f"mean pairwise mask IoU             {_format_value(d['mean_pairwise_iou']['value'])}",
        f"mean Dice vs STAPLE consensus      {_format_value(d['mean_dice']['value'])}",
        f"mean Dice vs majority vote         {_format_value(d['mean_majority_dice']['value'])}",
        f"Dice STAPLE vs majority vote       {_format_value(d['consensus_majority_dice']['value'])}",
        "",
        "annotators (means over images; low sensitivity = under-segmenting, low specificity = over-segmenting):",
        _table(annotators, [("annotator", "annotator"), ("sensitivity", "sensitivity"),
                            ("specificity", "specificity"), ("dice", "Dice STAPLE"),
                            ("majority_dice", "Dice vote"), ("mean_iou", "IoU others"), ("n_items", "images")]),
        "",
        "annotator pairs:",
        _table(pairs, [("a", "a"), ("b", "b"), ("mean_iou", "mask IoU"), ("n_items", "images")]),
        "",
        "images with most disagreement:",
        _table(items, [("item", "image"), ("mean_dice", "mean Dice"), ("mean_pairwise_iou", "mean IoU"),
                       ("consensus_area", "consensus px"), ("majority_area", "vote px"),
                       ("iterations", "iterations")], limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)


FORMATTERS["masks"] = format_masks
FORMATTERS["labels"] = labels_text.format_report


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
    c = sub.add_parser("convert", help="convert annotation-tool exports to agreekit rows (CSV on stdout)")
    c.add_argument("file", nargs="+", help="export files, folders or zips")
    c.add_argument("--from", dest="source_format", choices=formats, help="the export format (default: detect)")
    c.add_argument("--kind", dest="convert_kind", choices=list(KINDS),
                   help="the kind to read when an export holds several")
    c.add_argument("--to", choices=["csv", "json"], default="csv",
                   help="csv: the rows; json: rows, span texts, warnings and the summary")
    return parser


PLAIN_TABLES = (".csv", ".tsv", ".txt", ".tab")


def _rows_from(files, kind, source_format):
    """``(rows, options from the import, summary lines)``: a CSV/TSV table as text, or a converted export."""
    if source_format is None and len(files) == 1 and (files[0] == "-" or not os.path.exists(files[0])):
        return read_text(files[0]), {}, []
    if source_format is None:
        sources = load_sources(files)
        try:
            source_format = detect(sources)
        except InputError:
            if len(files) == 1 and files[0].lower().endswith(PLAIN_TABLES):
                return read_text(files[0]), {}, []
            raise
    conversion = convert(files, format=source_format, kind=kind)
    return conversion.rows, conversion.options(), _summary_lines(conversion)


def _summary_lines(conversion):
    s = conversion.summary()
    lines = [f"imported {s['format']}: {s['n_items']} items, {s['n_annotators']} annotators, "
             f"{s['n_annotations']} annotations, {s['n_saw_nothing']} saw-nothing rows from "
             f"{len(s['sources'])} file(s)"]
    lines += [f"skipped {n}: {reason}" for reason, n in s["skipped"].items()]
    return lines + [f"warning: {w}" for w in s["warnings"]]


def _convert(args):
    conversion = convert(args.file, format=args.source_format or "auto", kind=args.convert_kind)
    for line in _summary_lines(conversion):
        print(f"agreekit: {line}", file=sys.stderr)
    if args.to == "json":
        return json.dumps({"kind": conversion.kind, "rows": conversion.rows, "lengths": conversion.lengths,
                           "summary": conversion.summary()}, indent=2, ensure_ascii=False)
    return conversion.to_csv().rstrip("\n")


def _run(args):
    if args.kind == "convert":
        return _convert(args)
    skip = ("kind", "file", "json", "debug", "source_format")
    options = {k: v for k, v in vars(args).items() if k not in skip and v is not None}
    for key in [k for k in options if k.endswith("_file")]:  # options that name a file are read here
        options[key[:-5]] = read_text(options.pop(key))
    rows, imported, summary = _rows_from(args.file, args.kind, args.source_format)
    for line in summary:
        print(f"agreekit: {line}", file=sys.stderr)
    report = KINDS[args.kind].function(rows, **{**imported, **options})
    if args.json:
        return json.dumps(report.to_dict(), indent=2, allow_nan=False)
    return FORMATTERS.get(args.kind, format_summary)(report)


def main(argv=None):
    """Run the command line; returns the exit code (0 report, 2 bad input, 1 internal error)."""
    args = build_parser().parse_args(argv)
    try:
        print(_run(args))
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
