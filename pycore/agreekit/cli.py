"""Command line: ``python -m agreekit KIND FILE|- [options]``.

Prints a readable summary, or the report as JSON with ``--json``.  Bad input
exits with code 2 and the error message (which names the line and column).
"""
from __future__ import annotations

import argparse
import json
import sys

from .rows import InputError


def _numbers(text):
    """A comma-separated list of numbers, for options such as ``--tolerances``."""
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


# kind -> (function name in agreekit, help text, [(flag, kwargs for add_argument)])
COMMON = [
    ("--match", dict(choices=["optimal", "potato"], help="matching mode (default optimal)")),
    ("--bootstrap", dict(type=int, help="bootstrap resamples (default 1000; 0 = none)")),
    ("--seed", dict(type=int, help="bootstrap seed")),
]
KINDS = {
    "boxes": ("boxes", "bounding boxes: item, annotator, x, y, w, h, label", [
        ("--threshold", dict(type=float, help="IoU threshold for a match (default 0.5)")),
        ("--distance", dict(choices=["giou", "iou", "centroid"], help="distance for sigma (default giou)")),
        ("--pair-budget", dict(type=int, help="largest exact between-item pair count before sampling")),
    ]),
    "segments": ("segments", "time segments: item, annotator, start, end, label (seconds)", [
        ("--threshold", dict(type=float, help="temporal IoU threshold for a match (default 0.5)")),
        ("--tolerances", dict(type=_numbers, help="boundary tolerances in seconds, comma-separated "
                                                 "(default 0.1,0.25,0.5,1,2)")),
    ]),
    "spans": ("spans", "text spans: item, annotator, start, end, label (character offsets [start, end))", [
        # dest ends in _file: main() reads the named file and passes its text as lengths=
        ("--lengths", dict(dest="lengths_file", metavar="FILE",
                           help="item lengths: CSV/TSV with item,length or item,text columns")),
    ]),
    "polygons": ("polygons", "polygons: item, annotator, points (x1 y1 x2 y2 ...), label", [
        ("--threshold", dict(type=float, help="polygon IoU threshold for a match (default 0.5)")),
        ("--distance", dict(choices=["giou", "iou", "centroid"], help="distance for sigma (default giou)")),
        ("--pair-budget", dict(type=int, help="largest exact between-item pair count before sampling")),
    ]),
    "masks": ("masks", "pixel masks: item, annotator, width, height, rle (COCO), label", [
        ("--label", dict(help="only masks with this label (others count as nothing marked)")),
        ("--max-iter", dict(type=int, help="STAPLE iteration limit (default 1000)")),
        ("--start", dict(choices=["votes", "rates", "potato"],
                         help="STAPLE start (default votes, as SimpleITK; potato = Potato 2.8's whole variant)")),
    ]),
    "cuboids": ("cuboids", "3D cuboids: item, annotator, cx, cy, cz, sx, sy, sz, qx, qy, qz, qw (or yaw), label", [
        ("--threshold", dict(type=float, help="IoU3D threshold for a match (default 0.25)")),
        ("--pair-budget", dict(type=int, help="largest exact between-item pair count before sampling")),
    ]),
    "traces": ("traces", "per-step labels of agent traces: trace, step, annotator, label", [
        ("--level", dict(choices=["nominal", "ordinal"], help="level of measurement for alpha (default nominal)")),
        ("--order", dict(help="ordinal labels from lowest to highest, comma-separated (when not numbers)")),
        ("--top-units", dict(type=int, help="how many of the most disputed units to list (default 50)")),
        ("--bootstrap", dict(type=int, help="bootstrap resamples over traces (default 1000; 0 = none)")),
        ("--seed", dict(type=int, help="bootstrap seed")),
    ]),
}
NO_COMMON = {"masks", "traces"}  # kinds without matching (traces bring their own bootstrap options)


def _read_source(path):
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8-sig") as handle:
        return handle.read()


def _format_value(value):
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
        f"sigma (localization)      {_with_ci(loc['sigma'], loc['ci'], loc['reason'])}",
        f"  1 = perfect, 0 = no better than {objects} from other images, < 0 = systematically worse",
        f"raw mean matched IoU      {_format_value(d['mean_matched_iou'])}   (no chance correction)",
        f"KS D within vs between    {_format_value(loc['ks'])}",
        f"mean distance             within {_format_value(loc['mean_within'])} over {loc['n_within']} matched pairs; "
        f"between {_format_value(loc['mean_between'])} over {loc['n_between']:,} pairs "
        f"({'exact, all pairs' if loc['between_exact'] else 'sampled'})",
        f"detection alpha           {_with_ci(d['detection']['alpha'], d['detection']['ci'], d['detection']['reason'])}",
        f"classification alpha      "
        f"{_with_ci(d['classification']['alpha'], d['classification']['ci'], d['classification']['reason'])}",
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
        f"detection alpha           {_with_ci(d['detection']['alpha'], d['detection']['ci'], d['detection']['reason'])}",
        f"classification alpha      "
        f"{_with_ci(d['classification']['alpha'], d['classification']['ci'], d['classification']['reason'])}",
        f"mean matched IoU {_format_value(d['mean_matched_iou'])}, detection F1 {_format_value(d['detection_f1'])}, "
        f"mean agreement {_format_value(d['mean_agreement'])}, "
        f"mean segment-count difference {_format_value(d['mean_object_count_diff'])}",
        f"sigma: {d['localization']['reason']}",
        "",
        "boundary sweep (starts to starts, ends to ends, pooled over clips and annotator pairs):",
        _table(sweep, [("tolerance", "tolerance"), ("precision", "precision"), ("recall", "recall"), ("f1", "F1"),
                       ("f1_ci", f"F1 {level}% interval"), ("start_f1", "starts F1"), ("end_f1", "ends F1")]),
        "  high F1 at wide tolerances with low F1 at narrow ones: agreement that an event happened, not on when",
        "",
        "annotator pairs (boundary F1 by tolerance):",
        _table([by_tolerance(p, "boundary_sweep") for p in d["pairs"]],
               [("a", "a"), ("b", "b"), ("detection_f1", "det F1"), ("mean_matched_iou", "IoU"),
                ("n_matched", "matched")] + f1_columns),
        "",
        "clips with most disagreement:",
        _table([by_tolerance(item, "boundary_f1") for item in d["items"]],
               [("item", "clip"), ("detection_f1", "det F1"), ("n_unmatched", "unmatched")] + f1_columns, limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)


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
        f"Krippendorff alpha ({s['level']})  {_with_ci(a['value'], a['ci'], a['reason'])}",
        f"mean Cohen kappa          {_with_ci(cohen['mean']['value'], cohen['mean']['ci'], cohen['mean']['reason'])}"
        f"   over {cohen['mean']['n_pairs']} annotator pairs",
        f"Fleiss kappa              {_with_ci(fleiss['value'], fleiss['ci'], fleiss['reason'])}",
        f"percent agreement         {_with_ci(percent['value'], percent['ci'], percent['reason'])}"
        "   (share of agreeing label pairs within a unit)",
        "",
        "annotator pairs:",
        _table(cohen["pairs"], [("a", "a"), ("b", "b"), ("value", "kappa"), ("percent_agreement", "agree"),
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


def build_parser():
    parser = argparse.ArgumentParser(prog="agreekit", description="Chance-corrected agreement for structured annotations.")
    sub = parser.add_subparsers(dest="kind", required=True)
    for kind, (_, help_text, options) in KINDS.items():
        p = sub.add_parser(kind, help=help_text)
        p.add_argument("file", help="CSV/TSV file with a header, or - for standard input")
        for flag, kwargs in options + ([] if kind in NO_COMMON else COMMON):
            p.add_argument(flag, **kwargs)
        p.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def main(argv=None):
    import agreekit

    parser = build_parser()
    args = parser.parse_args(argv)
    function_name, _, _ = KINDS[args.kind]
    options = {k: v for k, v in vars(args).items() if k not in ("kind", "file", "json") and v is not None}
    try:
        text = _read_source(args.file)
        for key, value in list(options.items()):
            if key.endswith("_file"):  # options that name a file are read here, not in the core
                options[key[:-5]] = _read_source(value)
                del options[key]
        report = getattr(agreekit, function_name)(text, **options)
    except InputError as error:
        print(f"agreekit: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"agreekit: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, allow_nan=False))
    else:
        print(FORMATTERS.get(args.kind, format_summary)(report))
    return 0
