"""Reports as plain text for the command line: values, estimates and tables.

:func:`format_summary` is the text of a kind that declares none (every scalar of
the report by key); a kind's own text (``Kind.text``) builds on
:func:`format_value`, :func:`estimate_text` and :func:`table`.
"""
from __future__ import annotations


DECIMALS = 4  # the precision of every number in the text output (the JSON keeps the raw values)


def fixed(value):
    """``value`` to ``DECIMALS`` places, without the sign of a value that rounds to zero.

    Sums in floating point leave −2.2e-16 where the exact value is 0; printed
    as "-0.0000" it reads as a negative estimate.

    >>> fixed(-2.220446049250313e-16), fixed(-0.00004), fixed(-0.00005), fixed(0.12345)
    ('0.0000', '0.0000', '-0.0001', '0.1235')
    """
    text = f"{value:.{DECIMALS}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def format_value(value):
    """A report value as text: an estimate by its value, null as ``null``, floats to 4 decimals (:func:`fixed`)."""
    if isinstance(value, dict) and "value" in value:  # an estimate in a table cell
        value = value["value"]
    if value is None:
        return "null"
    if isinstance(value, float):
        return fixed(value)
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
                lines.append(f"{prefix:<40} [{', '.join(format_value(v) for v in value)}]")
            else:
                lines.append(f"{prefix:<40} ({len(value)} entries; use --json)")
        else:
            lines.append(f"{prefix:<40} {format_value(value)}")

    data = report.to_dict()
    for key, value in data.items():
        if key in ("warnings",):
            continue
        walk(key, value)
    for warning in data.get("warnings", []):
        lines.append(f"warning: {warning}")
    return "\n".join(lines)


def table(rows, columns, limit=None):
    """Plain-text table of dicts; ``columns`` are (key, heading) pairs."""
    shown = rows[:limit] if limit else rows
    cells = [[h for _, h in columns]] + [[format_value(r.get(k)) for k, _ in columns] for r in shown]
    widths = [max(len(row[c]) for row in cells) for c in range(len(columns))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in cells]
    if limit and len(rows) > limit:
        lines.append(f"... {len(rows) - limit} more (use --json)")
    return "\n".join(lines)


def estimate_text(e):
    """An estimate as ``value  [low, high]``, or ``undefined (reason)``."""
    return with_ci(e["value"], e["ci"], e["reason"])


def with_ci(value, ci, reason=None):
    if value is None:
        return f"undefined ({reason})" if reason else "undefined"
    text = fixed(value)
    if ci:
        text += f"  [{fixed(ci[0])}, {fixed(ci[1])}]"
    return text
