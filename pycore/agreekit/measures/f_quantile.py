"""Quantiles of Fisher's F distribution, for the ICC's F-based intervals, without scipy.stats.

The page installs scipy in parts and never ``scipy.stats`` or ``scipy.special`` (tens of megabytes
and seconds of start-up for two quantiles), so the core computes them itself:

* the regularized incomplete beta function I_x(a, b) by its continued fraction, evaluated with
  the modified Lentz method on the side of x where it converges fast (Press et al., *Numerical
  Recipes*, 3rd ed., §6.4; DLMF 8.17.22);
* its inverse by Newton's method kept inside a bisection bracket, solving for the smaller of x
  and 1 − x so that both keep their relative precision;
* the F quantile from it: if X ~ Beta(d₁/2, d₂/2) then (d₂ X) / (d₁ (1 − X)) ~ F(d₁, d₂)
  (DLMF 8.17(iv), Abramowitz & Stegun 26.6.2).

Against ``scipy.stats.f.ppf`` (tests/test_f_quantile.py): relative error ≤ 5e-12 with both degrees of
freedom ≤ 1,000, ≤ 1e-10 up to 10⁴, ≤ 1e-8 up to 10⁶ (the log-gamma terms cancel there); an ICC's
interval is printed to four decimals.

>>> round(f_quantile(0.975, 10, 20), 4)  # F tables, upper 2.5 % point, ν₁ = 10, ν₂ = 20: 2.7737
2.7737
"""
from __future__ import annotations

import math

EPSILON = 1e-16
LARGEST_DF = 1e7
TINY = 1e-300


def _beta_fraction(x, a, b):
    """The continued fraction of I_x(a, b) (Numerical Recipes' ``betacf``); fast for x < (a+1)/(a+b+2)."""
    limit = 200 + int(10 * math.sqrt(max(a, b)))
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > TINY else TINY)
    fraction = d
    for m in range(1, limit + 1):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > TINY else TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > TINY else TINY
            step = c * d
            fraction *= step
        if abs(step - 1.0) < EPSILON:
            return fraction
    return math.nan


def _log_front(x, a, b):
    """log(x^a (1 − x)^b / B(a, b)), the factor in front of the continued fraction."""
    return a * math.log(x) + b * math.log1p(-x) - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))


def regularized_beta(x, a, b):
    """I_x(a, b), the regularized incomplete beta function (the Beta(a, b) distribution function).

    >>> regularized_beta(0.5, 2.0, 2.0)
    0.5
    """
    if not (a > 0 and b > 0) or math.isnan(x):
        return math.nan
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(_log_front(x, a, b)) * _beta_fraction(x, a, b) / a
    return 1.0 - math.exp(_log_front(x, a, b)) * _beta_fraction(1.0 - x, b, a) / b


def _smaller_root(p, a, b):
    """The x ≤ ½ with I_x(a, b) = p: Newton's steps on the Beta density, kept inside a bisection
    bracket (a step that would leave it bisects instead), until a step is below the last bit."""
    low, high, x = 0.0, 0.5, 0.25
    for _ in range(2000):
        excess = regularized_beta(x, a, b) - p
        low, high = (x, high) if excess < 0 else (low, x)
        density = math.exp(_log_front(x, a, b)) / (x * (1.0 - x))
        candidate = x - excess / density if density > 0 else math.nan
        if not low < candidate < high:
            candidate = 0.5 * (low + high)
        if abs(candidate - x) <= EPSILON * x or candidate in (low, high):
            return candidate
        x = candidate
    return x


def beta_quantile(p, a, b):
    """``(x, 1 − x)`` with I_x(a, b) = p, each to its own relative precision."""
    if not (0.0 < p < 1.0 and a > 0 and b > 0):
        return math.nan, math.nan
    if regularized_beta(0.5, a, b) >= p:
        x = _smaller_root(p, a, b)
        return x, 1.0 - x
    complement = _smaller_root(1.0 - p, b, a)  # I_{1−x}(b, a) = 1 − I_x(a, b)
    return 1.0 - complement, complement


def f_quantile(q, dfn, dfd):
    """The ``q`` quantile of the F distribution with ``dfn`` and ``dfd`` degrees of freedom (nan if undefined).

    Degrees of freedom above :data:`LARGEST_DF` are taken as that many: the quantile moves by
    O(1/df) beyond it (≤ 1e-6 relative), while the continued fraction's length grows as √df and
    the log-gamma terms lose a digit each tenfold (an ICC has at most (k − 1) n of them).
    """
    if not (0.0 < q < 1.0 and dfn > 0 and dfd > 0) or math.isinf(dfn) or math.isinf(dfd):
        return math.nan
    dfn, dfd = min(dfn, LARGEST_DF), min(dfd, LARGEST_DF)
    x, complement = beta_quantile(q, dfn / 2.0, dfd / 2.0)
    return dfd * x / (dfn * complement) if complement > 0 else math.inf
