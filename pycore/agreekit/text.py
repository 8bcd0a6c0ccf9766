"""Reports as plain text for the command line: values, estimates and tables.

:func:`format_summary` is the text of a kind that declares none (every scalar of
the report by key); a kind's own text (``Kind.text``) builds on
:func:`format_value`, :func:`estimate_text` and :func:`table`.
"""
from __future__ import annotations


def format_value(value):
    """A report value as text: an estimate by its value, null as ``null``, floats to 4 decimals."""
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
    text = f"{value:.4f}"
    if ci:
        text += f"  [{ci[0]:.4f}, {ci[1]:.4f}]"
    return text
