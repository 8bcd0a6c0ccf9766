"""The shape of a report, declared: typed keys with a one-line meaning each.

A kind declares its report (``kinds`` → ``to_dict()``) as a :class:`Section` of
:class:`Key` records, built with :func:`key`, :func:`section`, :func:`list_of`,
:func:`map_of` (keys that are data: annotator names, labels) and :func:`estimate`
(the shape of :func:`agreekit.results.estimate`, ``{value, ci, ci_level, reason, n}``
plus declared extras).  From a declaration:

* :func:`check` lists what a report does differently (a key not declared, a
  declared key missing, a value of the wrong type), so a test fails on drift;
* :func:`rows` gives the table of ``docs/report.md`` (``scripts/report_doc.py``);
* :func:`tooltips` gives ``{key path: meaning}``.

Paths use ``[]`` for list entries and ``{name}`` for the entries of a map keyed
by data, e.g. ``pairs[].a`` or ``items[].objects_per_annotator{name}``.

Types are the JSON types: ``"text"``, ``"integer"``, ``"number"`` (integer or
float), ``"boolean"``, ``"any"``, a tuple of them (either), or a structure (:class:`Section`, :class:`ListOf`,
:class:`MapOf`, :class:`Estimate`).  ``null=True`` admits ``None``;
``optional=True`` lets the key be absent (its meaning says when).
"""
from __future__ import annotations

from dataclasses import dataclass

SCALARS = ("text", "integer", "number", "boolean", "any")


@dataclass(frozen=True)
class Key:
    """One key of a report: its name, type, one-line meaning, and whether it may be null or absent."""

    name: str
    type: object
    description: str
    null: bool = False
    optional: bool = False


@dataclass(frozen=True)
class Section:
    """A JSON object with exactly the declared keys (optional ones may be absent)."""

    keys: tuple


@dataclass(frozen=True)
class ListOf:
    """A JSON list whose entries all have type ``entry`` (``None`` entries when ``null``)."""

    entry: object
    null: bool = False


@dataclass(frozen=True)
class MapOf:
    """A JSON object keyed by data (annotator names, labels), every value of type ``value``."""

    value: object


@dataclass(frozen=True)
class Estimate:
    """An estimate ``{value, ci, ci_level, reason, n}`` (:func:`agreekit.results.estimate`) with ``extra`` keys."""

    extra: tuple = ()


def key(name, type, description, *, null=False, optional=False):
    """Declare one key; ``type`` is a scalar name (:data:`SCALARS`), a tuple of them, or a structure."""
    names = (type,) if isinstance(type, str) else type if isinstance(type, tuple) else ()
    if any(t not in SCALARS for t in names):
        raise ValueError(f"key {name!r}: type {type!r} is not one of {', '.join(SCALARS)} or a structure")
    if not description or "\n" in description or "|" in description:
        raise ValueError(f"key {name!r}: the meaning must be one line without '|' (it becomes a table cell)")
    return Key(name, type, description, null, optional)


def section(*keys):
    """A JSON object of the given :class:`Key` records (names unique)."""
    names = [k.name for k in keys]
    doubled = sorted({n for n in names if names.count(n) > 1})
    if doubled:
        raise ValueError(f"keys declared twice: {', '.join(doubled)}")
    return Section(tuple(keys))


def list_of(entry, *, null=False):
    """A JSON list of ``entry`` (a scalar name or a structure)."""
    return ListOf(entry, null)


def map_of(value):
    """A JSON object keyed by data, each value of type ``value``."""
    return MapOf(value)


def estimate(*extra):
    """The estimate shape with further declared keys (e.g. ``alpha.level``)."""
    return Estimate(tuple(extra))


ESTIMATE_FIELDS = section(
    key("value", "number", "The coefficient; null when undefined.", null=True),
    key("ci", list_of("number"), "Percentile bootstrap interval [low, high], or null.", null=True),
    key("ci_level", "number", "Level of `ci` (0.95); null exactly when `ci` is.", null=True),
    key("reason", "text", "Why `value` is null; null when it is not.", null=True),
    key("n", "integer", "What the value is computed over (named per key).", null=True),
)


# --------------------------------------------------------------------------- check

def check(shape, report, path=""):
    """Problems of ``report`` against ``shape``, one readable line each (empty: it conforms).

    >>> shape = section(key("a", "integer", "A count."), key("b", estimate(), "A coefficient."))
    >>> check(shape, {"a": 1, "b": {"value": None, "ci": None, "ci_level": None, "reason": "x", "n": 0}})
    []
    >>> check(shape, {"a": "1", "c": 2})
    ['b: declared but missing', 'a: text where integer is declared', 'c: present but not declared']
    """
    if isinstance(shape, Estimate):
        return _check_section(section(*ESTIMATE_FIELDS.keys, *shape.extra), report, path) \
            + _check_estimate(report, path)
    if isinstance(shape, Section):
        return _check_section(shape, report, path)
    if isinstance(shape, ListOf):
        if not isinstance(report, list):
            return [f"{path}: {_json_type(report)} where a list is declared"]
        return [problem for entry in report for problem in _check_value(shape.entry, shape.null, entry, path + "[]")]
    if isinstance(shape, MapOf):
        if not isinstance(report, dict):
            return [f"{path}: {_json_type(report)} where a map is declared"]
        return [problem for value in report.values() for problem in check(shape.value, value, path + "{name}")]
    if isinstance(shape, tuple):
        fits = any(_scalar_fits(t, report) for t in shape)
    else:
        fits = _scalar_fits(shape, report)
    return [] if fits else [f"{path}: {_json_type(report)} where {type_name(shape)} is declared"]


def _check_value(type, null, value, path):
    return [] if value is None and null else check(type, value, path)


def _check_section(shape, report, path):
    if not isinstance(report, dict):
        return [f"{path or 'report'}: {_json_type(report)} where an object is declared"]
    prefix = f"{path}." if path else ""
    declared = {k.name: k for k in shape.keys}
    problems = [f"{prefix}{k.name}: declared but missing" for k in shape.keys
                if k.name not in report and not k.optional]
    for name, value in report.items():
        if name not in declared:
            problems.append(f"{prefix}{name}: present but not declared")
        else:
            problems += _check_value(declared[name].type, declared[name].null, value, prefix + name)
    return problems


def _check_estimate(report, path):
    """The estimate's own rules: a reason exactly when the value is undefined, a level exactly with an interval."""
    if not isinstance(report, dict):
        return []
    problems = []
    if (report.get("value") is None) != (report.get("reason") is not None):
        problems.append(f"{path}: `reason` must be given exactly when `value` is null")
    if (report.get("ci") is None) != (report.get("ci_level") is None):
        problems.append(f"{path}: `ci_level` must be null exactly when `ci` is")
    if isinstance(report.get("ci"), list) and len(report["ci"]) != 2:
        problems.append(f"{path}.ci: {len(report['ci'])} numbers where [low, high] is declared")
    return problems


def _scalar_fits(type, value):
    if type == "any":
        return True
    if isinstance(value, bool):
        return type == "boolean"
    if type == "integer":
        return isinstance(value, int)
    if type == "number":
        return isinstance(value, (int, float))
    return type == "text" and isinstance(value, str)


def _json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    for python, name in ((float, "number"), (str, "text"), (list, "list"), (dict, "object")):
        if isinstance(value, python):
            return name
    return type(value).__name__


# --------------------------------------------------------------------------- rows and tooltips

@dataclass(frozen=True)
class Row:
    """One line of a report's key table: dotted path, type in words, meaning."""

    path: str
    type: str
    description: str


def type_name(type):
    """The type in words for the table: ``text``, ``list of integer``, ``map of object``, ``estimate``."""
    if isinstance(type, Estimate):
        return "estimate"
    if isinstance(type, Section):
        return "object"
    if isinstance(type, ListOf):
        return f"list of {type_name(type.entry)}" + ("-or-null" if type.null else "")
    if isinstance(type, MapOf):
        return f"map of {type_name(type.value)}"
    return " or ".join(type) if isinstance(type, tuple) else type


def rows(shape, path=""):
    """Every declared key, depth first in declaration order, as :class:`Row` records.

    >>> [r.path for r in rows(section(key("p", list_of(section(key("a", "text", "A."))), "Pairs.")))]
    ['p', 'p[].a']
    """
    out = []
    if isinstance(shape, Estimate):
        keys = shape.extra
    elif isinstance(shape, Section):
        keys = shape.keys
    elif isinstance(shape, ListOf):
        return rows(shape.entry, path + "[]")
    elif isinstance(shape, MapOf):
        return rows(shape.value, path + "{name}")
    else:
        return out
    prefix = f"{path}." if path else ""
    for k in keys:
        words = type_name(k.type) + (" or null" if k.null else "") + (", optional" if k.optional else "")
        out.append(Row(prefix + k.name, words, k.description))
        out += rows(k.type, prefix + k.name)
    return out


def tooltips(shape):
    """``{key path: one-line meaning}`` of every declared key."""
    return {row.path: row.description for row in rows(shape)}
