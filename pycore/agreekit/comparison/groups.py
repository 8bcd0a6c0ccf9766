"""One table split into two groups by a column (experts vs crowd on the same items): ``--group-by``."""
from __future__ import annotations

import csv
import io

from ..errors import InputError


def _normalize(name):
    return str(name).strip().lower().replace(" ", "_").replace("-", "_")


def _delimiter(text):
    first = next((line for line in text.splitlines() if line.strip()), "")
    if "\t" in first:
        return "\t"
    return ";" if first.count(";") > first.count(",") else ","


def _chosen(values, groups, column):
    """The two group values: ``groups`` if given, else the column's two distinct values (sorted)."""
    present = sorted(set(values))
    if groups is not None:
        groups = [str(g) for g in groups]
        if len(groups) != 2 or groups[0] == groups[1]:
            raise InputError(f"give two different groups of column '{column}', got {groups}", column=column)
        missing = [g for g in groups if g not in present]
        if missing:
            raise InputError(f"group {missing[0]!r} is not a value of column '{column}' (values: "
                             + ", ".join(present[:10]) + ")", column=column, value=missing[0])
        return groups
    if len(present) != 2:
        raise InputError(f"column '{column}' has {len(present)} distinct values ({', '.join(present[:10])}); "
                         "name the two groups to compare", column=column)
    return present


def split_groups(rows, column, groups=None):
    """``(rows_a, rows_b, (group_a, group_b))``: the rows of each group, without the group column.

    ``rows`` is CSV/TSV text with a header or a list of dicts; ``groups`` names the two values of
    ``column`` to compare (A first); without it the column must have exactly two values (A is the
    first in sorted order).
    """
    if isinstance(rows, str):
        return _split_text(rows, column, groups)
    rows = list(rows)
    keys = {_normalize(k): k for row in rows[:1] for k in row}
    if _normalize(column) not in keys:
        raise InputError(f"no column '{column}' to group by", column=column)
    key = keys[_normalize(column)]
    values = [str(row.get(key, "")).strip() for row in rows]
    a, b = _chosen(values, groups, column)
    pick = [[{k: v for k, v in row.items() if k != key} for row, g in zip(rows, values) if g == name]
            for name in (a, b)]
    return pick[0], pick[1], (a, b)


def _split_text(text, column, groups):
    delimiter = _delimiter(text)
    records = [r for r in csv.reader(io.StringIO(text.replace("\r\n", "\n")), delimiter=delimiter,
                                     skipinitialspace=delimiter != "\t") if any(f.strip() for f in r)]
    if not records:
        raise InputError("no rows to group")
    header = [_normalize(name) for name in records[0]]
    if _normalize(column) not in header:
        raise InputError(f"no column '{column}' to group by (columns: {', '.join(records[0])})", line=1,
                         column=column)
    at = header.index(_normalize(column))
    values = [r[at].strip() if at < len(r) else "" for r in records[1:]]
    a, b = _chosen(values, groups, column)
    out = []
    for name in (a, b):
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
        writer.writerow(records[0][:at] + records[0][at + 1:])
        writer.writerows(r[:at] + r[at + 1:] for r, g in zip(records[1:], values) if g == name)
        out.append(buffer.getvalue())
    return out[0], out[1], (a, b)
