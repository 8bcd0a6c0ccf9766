"""The ``compare`` and ``plan`` sub-commands of the command line (:mod:`agreekit.cli`, :mod:`agreekit.comparison`)."""
from __future__ import annotations

import json

from .cli_args import add_kind_options, read_text
from .comparison import compare, plan, split_groups
from .comparison.text import format_comparison, format_plan
from .errors import InputError
from .registry import KINDS


def add_compare(sub):
    """``agreekit compare KIND A B`` (or ``KIND FILE --group-by COLUMN``), one sub-command per kind."""
    c = sub.add_parser("compare", help="compare two rounds or groups: every coefficient's B − A with a paired "
                       "bootstrap interval", description="Compare two rounds (A.csv B.csv) or two groups of "
                       "one file (--group-by COLUMN). Items are matched by id; shared items are resampled jointly.")
    kinds = c.add_subparsers(dest="compare_kind", required=True)
    for name, kind in KINDS.items():
        p = kinds.add_parser(name, help=kind.summary)
        p.add_argument("file", nargs="+", help="A.csv B.csv, or one file with --group-by")
        p.add_argument("--group-by", dest="group_by", metavar="COLUMN", help="split one file into two groups "
                       "by this column (e.g. experts vs crowd on the same items)")
        p.add_argument("--groups", metavar="A,B", help="the two values of --group-by to compare (A first)")
        p.add_argument("--unpaired", action="store_true", help="resample B independently of A")
        p.add_argument("--top-items", dest="top_items", type=int, default=10, help="items that changed most to list")
        add_kind_options(p, kind)
        p.add_argument("--json", action="store_true", help="print the comparison as JSON")


def add_plan(sub):
    """``agreekit plan KIND FILE --half-width 0.05``, one sub-command per kind with a bootstrap."""
    c = sub.add_parser("plan", help="how many items for an interval of a given half-width, from a pilot")
    kinds = c.add_subparsers(dest="plan_kind", required=True)
    for name, kind in KINDS.items():
        if "bootstrap" not in {o.name for o in kind.options}:
            continue
        p = kinds.add_parser(name, help=kind.summary)
        p.add_argument("file", help="the pilot: CSV/TSV with a header (long rows)")
        p.add_argument("--half-width", dest="half_width", type=float, default=0.05,
                       help="requested half-width of the 95%% interval (default 0.05)")
        p.add_argument("--sizes", type=lambda t: [int(x) for x in t.split(",")], metavar="N,N,…",
                       help="check-point sizes n' (default 0.5, 1, 2, 4 × the pilot's items)")
        p.add_argument("--replicates", type=int, default=2, help="resampled corpora per check point")
        add_kind_options(p, kind)
        p.add_argument("--json", action="store_true", help="print the plan as JSON")


def run_plan(args):
    skip = ("kind", "plan_kind", "file", "json", "debug")
    options = {k: v for k, v in vars(args).items() if k not in skip and v is not None}
    for key in [k for k in options if k.endswith("_file")]:
        options[key[:-5]] = read_text(options.pop(key))
    result = plan(args.plan_kind, read_text(args.file), **options)
    return json.dumps(result.to_dict(), indent=2, allow_nan=False) if args.json else format_plan(result)


def run_compare(args):
    skip = ("kind", "compare_kind", "file", "json", "debug", "group_by", "groups", "unpaired", "top_items")
    options = {k: v for k, v in vars(args).items() if k not in skip and v is not None}
    for key in [k for k in options if k.endswith("_file")]:
        options[key[:-5]] = read_text(options.pop(key))
    if args.group_by:
        if len(args.file) != 1:
            raise InputError("--group-by takes one file")
        groups = args.groups.split(",") if args.groups else None
        rows_a, rows_b, names = split_groups(read_text(args.file[0]), args.group_by, groups)
    else:
        if len(args.file) != 2:
            raise InputError(f"compare takes two files (A B), or one with --group-by; got {len(args.file)}")
        rows_a, rows_b, names = read_text(args.file[0]), read_text(args.file[1]), tuple(args.file)
    try:
        result = compare(args.compare_kind, rows_a, rows_b, paired=not args.unpaired, top_items=args.top_items,
                         **options)
    except InputError as error:  # name the file (or group) the error is in, not "A" or "B"
        if error.field not in ("A", "B"):
            raise
        where = names[0] if error.field == "A" else names[1]
        located = InputError(error.message[3:], line=error.line, column=error.column)
        raise InputError(f"{where}, {located}", value=error.value) from None
    if args.json:
        return result.to_json(indent=2)
    return format_comparison(result, names)
