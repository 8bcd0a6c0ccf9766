"""Reports out: a nested mapping with attribute access that turns into JSON.

``Report.to_dict()`` is JSON-safe: numpy scalars and arrays become Python
numbers and lists, and NaN or ±inf become ``None`` (strict JSON has no NaN).
An undefined value travels with a ``reason`` beside it, never as 0 or 1.

:func:`json_safe` is the definition; ``Report.to_json`` writes the same text
without building the converted copy (a large box report has ~150,000 values,
and the walk took longer than the encoding), and ``to_dict`` reads that text
back, so the dict and the text agree by construction.
"""
from __future__ import annotations

import json
import math

import numpy as np


def json_safe(value):
    """Recursively convert ``value`` to JSON-safe Python objects."""
    if isinstance(value, Section):
        value = value._data
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, np.ndarray):
        return [json_safe(v) for v in value.tolist()]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None
    return value


def _encode_numpy(value):
    """``json.dumps``'s ``default``: what :func:`json_safe` makes of a value the encoder does not know.

    Python and numpy floats (``np.float64`` is a ``float``), ints, bools, str,
    lists, tuples and dicts the encoder writes itself, as :func:`json_safe`
    would.  A 0-d array is left to the exact definition (``TypeError``).
    """
    if isinstance(value, Section):
        return value._data
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return value.tolist()
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# Values whose children need no look (the common leaves, by exact type).
_LEAF_TYPES = frozenset({float, int, str, bool, type(None), np.float64})


def _keys_are_str(value):
    """True when every dict key in ``value`` (at any depth) is exactly a ``str``.

    Then ``json.dumps`` writes each key as :func:`json_safe`'s ``str(k)``; for
    other keys (True, None, NaN, 1 beside "1", ...) it would not.  Plain loops:
    generator expressions, or ``map`` and ``itertools.compress`` over a
    report's small dicts, made this walk two to three times slower.
    """
    pending = [value]
    while pending:
        value = pending.pop()
        if isinstance(value, Section):
            value = value._data
        if isinstance(value, dict):
            for key in value:
                if type(key) is not str:
                    return False
            value = value.values()
        elif not isinstance(value, (list, tuple)):
            continue  # an array or a numpy scalar: no keys inside
        for child in value:
            if type(child) not in _LEAF_TYPES:
                pending.append(child)
    return True


def _non_finite_tokens(text):
    """``(start, end)`` of each NaN, Infinity and -Infinity in ``text``, in order, strings included.

    ``str.find``: a regular expression scanning a text of megabytes was forty times slower.
    """
    spans = []
    for word in ("NaN", "Infinity"):
        at = text.find(word)
        while at >= 0:
            start = at - 1 if word == "Infinity" and text[at - 1:at] == "-" else at
            spans.append((start, at + len(word)))
            at = text.find(word, at + len(word))
    return sorted(spans)


def _null_non_finite(text):
    """``text`` (``json.dumps`` output) with each NaN, Infinity and -Infinity token turned into null.

    Only tokens outside string literals are numbers: a token is one when an
    even number of unescaped quotes precedes it.  They are counted without a
    parse: in a copy where every escaped backslash (``\\\\``) is blanked, a
    quote is escaped exactly when a backslash precedes it.  The copy keeps the
    text's length, so positions agree.
    """
    tokens = _non_finite_tokens(text)
    if not tokens:
        return text
    plain = text.replace("\\\\", "__")
    pieces, copied, counted, quotes = [], 0, 0, 0
    for start, end in tokens:
        quotes += plain.count('"', counted, start) - plain.count('\\"', counted, start)
        counted = start
        if quotes % 2 == 0:
            pieces += [text[copied:start], "null"]
            copied = end
    return "".join(pieces) + text[copied:]


def to_json_text(value, **kwargs):
    """``json.dumps(json_safe(value), allow_nan=False, **kwargs)``, the same text, faster.

    The encoder writes ``value`` itself (numpy values through
    :func:`_encode_numpy`) and the non-finite numbers are then nulled; a value
    with a non-``str`` key, or one the fast path does not know, goes through
    :func:`json_safe`.
    """
    if _keys_are_str(value):
        try:
            return _null_non_finite(json.dumps(value, default=_encode_numpy, **kwargs))
        except TypeError:
            pass  # the exact definition below writes it or raises its own error
    return json.dumps(json_safe(value), allow_nan=False, **kwargs)


CI_LEVEL = 0.95  # every interval agreekit reports is a 95% percentile interval


class DrawnInterval(list):
    """``[low, high]`` that also keeps the resampled values it was read from (``draws``, one per resample,
    NaN where undefined), so that two reports resampled alike can be compared resample by resample.

    Made only while counts are drawn for a comparison (:func:`agreekit.measures.bootstrap.drawing_counts`);
    it is a list, so a report carrying it writes the same JSON.
    """

    def __init__(self, bounds, draws):
        super().__init__(bounds)
        self.draws = draws


def estimate(value, ci=None, reason=None, n=None, ci_level=CI_LEVEL, **counts):
    """One coefficient as every report carries it: ``{value, ci, ci_level, reason, n, **counts}``.

    ``value`` is a float, or ``None`` when undefined (NaN, inf or None given);
    then ``reason`` says why (never empty) and ``ci`` is ``None``.  ``ci`` is
    ``[low, high]`` at ``ci_level``, or ``None`` (no bootstrap, or too few
    defined resamples); ``ci_level`` is ``None`` exactly when ``ci`` is.  ``n``
    counts what the value was computed over (units, items, matched pairs, …:
    ``docs/report.md`` names it per key); ``counts`` are kind-specific extras.

    >>> estimate(0.5, [0.4, 0.6], n=12)
    {'value': 0.5, 'ci': [0.4, 0.6], 'ci_level': 0.95, 'reason': None, 'n': 12}
    >>> estimate(float("nan"), [0.1, 0.2], reason="no units")["ci"] is None
    True
    """
    value = None if value is None or not math.isfinite(float(value)) else float(value)
    if value is None:
        ci, reason = None, reason or "undefined"
    else:
        reason = None
    if ci is not None:
        bounds = [float(ci[0]), float(ci[1])]
        ci = DrawnInterval(bounds, ci.draws) if isinstance(ci, DrawnInterval) else bounds
    return {"value": value, "ci": ci, "ci_level": ci_level if ci is not None else None, "reason": reason,
            "n": None if n is None else int(n), **counts}


class Section:
    """Read-only attribute and key access over a dict (nested dicts wrap too)."""

    def __init__(self, data):
        self._data = data

    def __getattr__(self, name):
        try:
            return _wrap(self._data[name])
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        return _wrap(self._data[key])

    def __contains__(self, key):
        return key in self._data

    def keys(self):
        return self._data.keys()

    def __repr__(self):
        return f"{type(self).__name__}({self._data!r})"


def _wrap(value):
    return Section(value) if isinstance(value, dict) else value


class Report(Section):
    """An agreement report of one ``kind`` (boxes, spans, segments, ...)."""

    def __init__(self, kind, data):
        super().__init__({"kind": kind, **data})

    def to_dict(self):
        """The report as JSON-safe Python data: :meth:`to_json` read back."""
        return json.loads(self.to_json())

    def to_json(self, **kwargs):
        """The report as strict JSON text (NaN and ±inf are null); ``kwargs`` go to ``json.dumps``."""
        return to_json_text(self._data, **kwargs)
