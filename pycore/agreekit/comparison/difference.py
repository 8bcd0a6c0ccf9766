"""One coefficient in A and in B: the difference B − A, its bootstrap interval, p-value and sentence.

The interval is the percentile interval (Efron & Tibshirani 1993, §13.3) of Δ*_r = B*_r − A*_r over
resamples r where both are defined; with paired resamples (:mod:`agreekit.measures.paired_counts`)
A*_r and B*_r come from the same counts of the shared items.  The p-value is the two-sided bootstrap
p-value of Δ = 0, p = min(1, 2 · min(#{Δ* ≤ 0} + 1, #{Δ* ≥ 0} + 1) / (R + 1)) (Davison & Hinkley
1997, §4.4.1, eq. 4.11, with the +1 that keeps it above 0 for finite R), reported beside the interval,
never instead of it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..measures.bootstrap import percentile_ci
from ..results import CI_LEVEL


@dataclass(frozen=True)
class Difference:
    """One coefficient compared: ``delta`` = ``value_b`` − ``value_a`` with its interval.

    ``resampling`` is "paired" (A and B resampled with the same counts of their shared items),
    "independent" (resampled separately), or None when there is no interval; ``reason`` says why
    a value or the interval is missing.
    """

    name: str
    value_a: float | None
    value_b: float | None
    delta: float | None
    ci: tuple | None
    ci_level: float | None
    p_value: float | None
    resampling: str | None
    sentence: str
    reason: str | None = None
    n_a: int | None = None
    n_b: int | None = None


def _finite(value):
    return value is not None and math.isfinite(float(value))


def delta_draws(draws_a, draws_b):
    """Δ*_r = B*_r − A*_r, NaN where either is undefined (None when a side has no draws)."""
    if draws_a is None or draws_b is None or len(draws_a) != len(draws_b):
        return None
    return np.asarray(draws_b, dtype=float) - np.asarray(draws_a, dtype=float)


def bootstrap_p_value(deltas):
    """Two-sided bootstrap p-value of Δ = 0 from the defined ``deltas`` (None when none are)."""
    finite = deltas[np.isfinite(deltas)]
    if finite.size == 0:
        return None
    below, above = np.count_nonzero(finite <= 0.0), np.count_nonzero(finite >= 0.0)
    return float(min(1.0, 2.0 * min(below + 1, above + 1) / (finite.size + 1)))


def difference(name, a, b, draws_a=None, draws_b=None, resampling=None):
    """:class:`Difference` of the estimates (or plain numbers) ``a`` and ``b`` of one coefficient."""
    value_a, n_a = (a.get("value"), a.get("n")) if isinstance(a, dict) else (a, None)
    value_b, n_b = (b.get("value"), b.get("n")) if isinstance(b, dict) else (b, None)
    value_a = float(value_a) if _finite(value_a) else None
    value_b = float(value_b) if _finite(value_b) else None
    delta = value_b - value_a if value_a is not None and value_b is not None else None
    deltas = delta_draws(draws_a, draws_b) if delta is not None else None
    ci = percentile_ci(deltas) if deltas is not None else None
    p_value = bootstrap_p_value(deltas) if ci is not None else None
    reason = _reason(a, b, value_a, value_b, draws_a, draws_b, ci)
    words = sentence(name, value_a, value_b, delta, ci, reason)
    return Difference(name, value_a, value_b, delta, tuple(ci) if ci else None, CI_LEVEL if ci else None,
                      p_value, resampling if ci else None, words, reason, n_a, n_b)


def _reason(a, b, value_a, value_b, draws_a, draws_b, ci):
    if value_a is None or value_b is None:
        side = a if value_a is None else b
        why = side.get("reason") if isinstance(side, dict) else None
        return f"undefined in {'A' if value_a is None else 'B'}" + (f": {why}" if why else "")
    if ci is not None:
        return None
    if draws_a is None or draws_b is None:
        return "no interval: the report gives this value no bootstrap interval"
    return "no interval: fewer than half the resamples define the difference"


def sentence(name, value_a, value_b, delta, ci, reason, digits=2):
    """The difference in words: "σ rose by 0.12 [0.05, 0.19] (from 0.50 to 0.62); the interval excludes 0"."""
    if delta is None:
        return f"{name}: no difference ({reason})"
    f = f"{{:.{digits}f}}"
    size = f.format(abs(delta)) if round(abs(delta), digits) else f"{abs(delta):.2g}"
    verb = "did not change" if delta == 0 else ("rose" if delta > 0 else "fell")
    change = f"{name} {verb}" if delta == 0 else f"{name} {verb} by {size}"
    span = f" (from {f.format(value_a)} to {f.format(value_b)})"
    if ci is None:
        return change + span + f"; {reason}"
    low, high = ci
    if low == high == 0.0:
        return change + span + "; every resample gives the same value in A and B"
    verdict = ("the interval excludes 0" if low > 0 or high < 0
               else "the interval includes 0, so the data are consistent with no change")
    return change + f" [{f.format(low)}, {f.format(high)}]" + span + f"; {verdict}"
