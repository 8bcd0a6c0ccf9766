"""Reading two reports of one kind side by side: their coefficients, their tables' rows, their items.

A *coefficient* is an estimate (a dict with ``value`` and ``ci``, :func:`agreekit.results.estimate`)
outside any list, named by its path (``localization.sigma``, ``coefficients.fleiss_kappa``).  A
*table* is a list of dicts; its rows are matched between the reports by their identifying fields
(:data:`ROW_KEYS`), so an annotator, a label or an item is compared with itself.
"""
from __future__ import annotations

import numpy as np

from ..results import DrawnInterval

ROW_KEYS = ("item", "trace", "step", "annotator", "a", "b", "label", "tolerance")
TABLES = (("annotators", ("annotators",)), ("pairs", ("pairs",)), ("labels", ("labels", "per_label", "prevalence")))
SKIPPED = ("settings", "warnings", "input", "within_ecdf", "between_ecdf")


def is_estimate(value):
    return isinstance(value, dict) and "value" in value and "ci" in value and "reason" in value


def draws_of(est):
    """The resampled values behind an estimate's interval, or None."""
    ci = est.get("ci") if isinstance(est, dict) else None
    return ci.draws if isinstance(ci, DrawnInterval) else None


def coefficients(data, prefix=""):
    """``{path: estimate}`` of every estimate outside lists, in report order."""
    out = {}
    for key, value in data.items():
        if key in SKIPPED:
            continue
        path = f"{prefix}{key}"
        if is_estimate(value):
            out[path] = value
        elif isinstance(value, dict):
            out.update(coefficients(value, path + "."))
    return out


def tables(data, prefix=""):
    """``{path: rows}`` of every list of dicts (at any depth, outside lists)."""
    out = {}
    for key, value in data.items():
        if key in SKIPPED:
            continue
        path = f"{prefix}{key}"
        if isinstance(value, list) and value and all(isinstance(row, dict) for row in value):
            out[path] = value
        elif isinstance(value, dict) and not is_estimate(value):
            out.update(tables(value, path + "."))
        elif is_estimate(value):
            out.update(tables({k: v for k, v in value.items() if k not in ("value", "ci")}, path + "."))
    return out


def row_key(row):
    """The row's identifying fields, as a sorted tuple of (name, text) pairs."""
    return tuple((k, str(row[k])) for k in ROW_KEYS if k in row and not isinstance(row[k], (dict, list)))


def item_table(tables_found, id_field):
    """The path of the per-item table: "items", else a top-level table whose rows are keyed by ``id_field``
    (the kind's first column) alone; None when there is none."""
    if "items" in tables_found:
        return "items"
    for path, rows in tables_found.items():
        if "." not in path and [k for k, _ in row_key(rows[0])] == [id_field]:
            return path
    return None


def table_kind(path):
    """"annotators", "pairs" or "labels": what the table at ``path`` lists (None: something else)."""
    last = path.rsplit(".", 1)[-1]
    for kind, names in TABLES:
        if last in names:
            return kind
    return None


def numbers(row):
    """``{field: estimate or float}`` of a row: its estimates and its non-count numbers."""
    out = {}
    for key, value in row.items():
        if key in ROW_KEYS:
            continue
        if is_estimate(value):
            out[key] = value
        elif isinstance(value, (float, np.floating)) and not isinstance(value, bool):
            out[key] = float(value)
    return out
