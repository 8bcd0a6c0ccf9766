"""Reports out: a nested mapping with attribute access that turns into JSON.

``Report.to_dict()`` is JSON-safe: numpy scalars and arrays become Python
numbers and lists, and NaN or ±inf become ``None`` (strict JSON has no NaN).
An undefined value travels with a ``reason`` beside it, never as 0 or 1.
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


CI_LEVEL = 0.95  # every interval agreekit reports is a 95% percentile interval


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
        ci = [float(ci[0]), float(ci[1])]
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
        return json_safe(self._data)

    def to_json(self, **kwargs):
        return json.dumps(self.to_dict(), allow_nan=False, **kwargs)
