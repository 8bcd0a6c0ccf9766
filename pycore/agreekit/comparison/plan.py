"""How many items for an interval this narrow: :func:`plan`, from a pilot.

Method (``docs/compare.md``): the pilot's items are resampled with replacement to n' items
(each copy renamed, so a drawn item counts as a new one) for several n'; each resampled corpus
gets its report and bootstrap intervals, whose half-widths h(n') are averaged over replicates.
A percentile interval of a smooth statistic narrows as n^(−1/2), so log h = log c − ½ log n is
fitted by least squares over these check points (slope fixed; the free slope is reported beside
it as a check), and the predicted n for a requested half-width h* is (c / h*)².  Annotators per
item stay as in the pilot: only the number of items is planned.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..registry import get
from ..results import json_safe
from ..rows import read_table
from . import walk
from .result import plain
from .minimum_sample import minimum_sample_guidance

FACTORS = (0.5, 1.0, 2.0, 4.0)   # check points: n' = factor × pilot items
PLAN_RESAMPLES = 200             # bootstrap resamples per check point's report
REPLICATES = 2                   # resampled corpora per check point
PLAN_SEED = 20260814


@dataclass(frozen=True)
class CheckPoint:
    n_items: int
    half_width: float | None
    fitted: float | None


@dataclass(frozen=True)
class CoefficientPlan:
    """One coefficient: its pilot value and half-width, the fit h = c · n^(−½), the predicted n."""

    name: str
    value: float | None
    pilot_half_width: float | None
    constant: float | None
    free_slope: float | None
    predicted_items: int | None
    check_points: tuple
    reason: str | None


@dataclass(frozen=True)
class Plan:
    kind: str
    half_width: float
    n_pilot_items: int
    coefficients: tuple
    krippendorff: dict | None
    method: str
    warnings: tuple

    def coefficient(self, name):
        for c in self.coefficients:
            if c.name == name:
                return c
        raise KeyError(name)

    def to_dict(self):
        """JSON-ready data (NaN and ±inf as None)."""
        return json_safe(plain(self))


def _pilot_items(spec, rows):
    """The pilot's rows as canonical dicts grouped by item (the kind's first column), in first-seen order."""
    try:
        table = read_table(rows, spec.columns, spec.synonyms, spec.alternatives, required=(spec.columns[0],))
    except InputError as error:
        raise InputError(f"the planner needs long rows with an '{spec.columns[0]}' column: {error}") from None
    key = spec.columns[0]
    items = {}
    for row in table:
        values = {k: v for k, v in row.values.items() if v is not None}
        items.setdefault(str(values.get(key)), []).append(values)
    return key, items


def _resampled_rows(key, items, names, n, rng):
    rows = []
    for copy, name in enumerate(rng.choice(len(names), size=n, replace=True)):
        rows += [{**r, key: f"{names[name]}#{copy}"} for r in items[names[name]]]
    return rows


def _half_widths(report_data):
    out = {}
    for name, est in walk.coefficients(report_data).items():
        ci = est.get("ci")
        out[name] = (ci[1] - ci[0]) / 2.0 if ci is not None else None
    return out


def _fit(points):
    """``(c, free slope)`` of log h = log c − ½ log n over the check points with a half-width."""
    usable = [(n, h) for n, h in points if h is not None and h > 0]
    if len(usable) < 2:
        return None, None
    logn, logh = np.log([p[0] for p in usable]), np.log([p[1] for p in usable])
    constant = float(np.exp(np.mean(logh + 0.5 * logn)))
    slope = float(np.polyfit(logn, logh, 1)[0])
    return constant, slope


def _check_points(spec, pilot_items, options, sizes, replicates, seed):
    """``{coefficient: [(n', mean half-width)]}`` over resampled corpora of each size."""
    key, items = pilot_items
    names = sorted(items)
    rng = np.random.default_rng(seed)
    points = {}
    for n in sizes:
        widths = {}
        for _ in range(replicates):
            report = spec.function(_resampled_rows(key, items, names, n, rng), **options)
            for name, h in _half_widths(report._data).items():
                widths.setdefault(name, []).append(h)
        for name, hs in widths.items():
            defined = [h for h in hs if h is not None]
            points.setdefault(name, []).append((n, float(np.mean(defined)) if defined else None))
    return points


def plan(kind, rows, *, half_width=0.05, sizes=None, replicates=REPLICATES, bootstrap=PLAN_RESAMPLES,
         seed=PLAN_SEED, **options):
    """How many items give each coefficient a 95 % interval of ``half_width``, predicted from a pilot.

    Parameters
    ----------
    kind : str
    rows : str or list of dict
        The pilot, long rows (one annotation per row).
    half_width : float
        The requested half-width of the 95 % percentile interval.
    sizes : sequence of int, optional
        The check points n' (default: 0.5, 1, 2 and 4 times the pilot's items).
    replicates, bootstrap, seed : int
        Resampled corpora per check point, bootstrap resamples per report, and the seed.
    **options
        The kind's options.

    Returns
    -------
    Plan
        Per coefficient: ``predicted_items`` = ⌈(c / half_width)²⌉ from the fit h = c · n^(−½) over
        ``check_points`` (with the free slope as a check); ``krippendorff``: the minimum number of
        values of Krippendorff (2004, §11.4.4) where a nominal α and category shares apply.
    """
    if not (isinstance(half_width, (int, float)) and 0 < half_width < 1):
        raise InputError(f"half_width must be between 0 and 1, got {half_width!r}", column="half_width",
                         value=half_width)
    spec = get(kind)
    if "bootstrap" not in {o.name for o in spec.options}:
        raise InputError(f"{kind} reports have no bootstrap intervals, so there is nothing to plan")
    options = {**options, "bootstrap": bootstrap, "seed": seed}
    pilot = spec.function(rows, **options)
    pilot_items = _pilot_items(spec, rows)
    n_pilot = len(pilot_items[1])
    if n_pilot < 2:
        raise InputError("the pilot needs two or more items")
    sizes = sorted({max(2, int(round(f * n_pilot))) for f in FACTORS} if sizes is None else set(map(int, sizes)))
    points = _check_points(spec, pilot_items, options, sizes, replicates, seed)
    out = [_coefficient_plan(name, est, points.get(name, []), half_width)
           for name, est in walk.coefficients(pilot._data).items() if est.get("ci") is not None]
    return Plan(kind, float(half_width), n_pilot, tuple(out), minimum_sample_guidance(pilot._data),
                f"half-width of {bootstrap}-resample percentile intervals on {replicates} corpora of n' items "
                f"resampled from the pilot's {n_pilot}, n' in {sizes}; fit h = c·n^(−1/2)", ())


def _coefficient_plan(name, est, points, target):
    pilot_h = (est["ci"][1] - est["ci"][0]) / 2.0
    constant, slope = _fit(points)
    checks = tuple(CheckPoint(n, h, constant / math.sqrt(n) if constant else None) for n, h in points)
    if constant is None:
        return CoefficientPlan(name, est.get("value"), pilot_h, None, None, None, checks,
                               "fewer than two check points have an interval of positive width")
    predicted = max(2, math.ceil((constant / target) ** 2))
    return CoefficientPlan(name, est.get("value"), pilot_h, constant, slope, predicted, checks, None)
