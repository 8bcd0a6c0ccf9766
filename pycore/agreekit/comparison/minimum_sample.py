"""Krippendorff's minimum number of values for α, beside the planner's answer.

Krippendorff (2004, *Content Analysis*, 2nd ed., §11.4.4), after Bloch & Kraemer (1989, eq. 3.7),
gives the number of values (pairable judgements) needed to decide that α exceeds a smallest
acceptable α_min at significance level p, when the least frequent category has probability P_c:

    N = m · z_p² · [ (1 + α_min)(3 − α_min) / (4 (1 − α_min) P_c (1 − P_c)) − α_min ],

z_p the one-tailed standard normal quantile and m the number of coders (his table is for m = 2).
The formula reproduces his table's entries 139 (α_min 0.800, p 0.05, P_c 0.25) and 81
(α_min 0.667), as quoted in secondary sources (``tests/test_plan.py``); the table itself is not
copied here.  It answers a different question from the planner (a one-sided test of α ≥ α_min,
not an interval's width), so both are reported.
"""
from __future__ import annotations

import math
from statistics import NormalDist

ALPHA_MINIMA = (0.667, 0.800, 0.900)
SIGNIFICANCE = 0.05


def minimum_values(alpha_min, p, p_c, coders=2):
    """Krippendorff's (2004) minimum number of values N for α_min, significance ``p``, rarest share ``p_c``."""
    if not (0 < p_c < 1 and 0 <= alpha_min < 1 and 0 < p < 1):
        raise ValueError("need 0 < p_c < 1, 0 ≤ α_min < 1 and 0 < p < 1")
    z = NormalDist().inv_cdf(1.0 - p)
    term = (1 + alpha_min) * (3 - alpha_min) / (4 * (1 - alpha_min) * p_c * (1 - p_c)) - alpha_min
    return math.ceil(coders * z * z * term)


def minimum_sample_guidance(data):
    """The guidance for a report with a nominal α and a category-share table, else None."""
    shares = [row.get("share") for row in data.get("prevalence") or [] if isinstance(row, dict)]
    alpha = (data.get("coefficients") or {}).get("alpha") if isinstance(data.get("coefficients"), dict) else None
    if not shares or alpha is None or alpha.get("metric") != "nominal":
        return None
    p_c = min(s for s in shares if s is not None)
    if not 0 < p_c < 1:
        return None
    coders = int(data.get("n_annotators") or 2)
    rows = [{"alpha_min": a, "p": SIGNIFICANCE, "values": minimum_values(a, SIGNIFICANCE, p_c, coders),
             "items": math.ceil(minimum_values(a, SIGNIFICANCE, p_c, coders) / coders)} for a in ALPHA_MINIMA]
    return {"source": "Krippendorff (2004), Content Analysis, 2nd ed., §11.4.4 (after Bloch & Kraemer 1989, "
                      "eq. 3.7): formula, not his printed table",
            "least_frequent_share": p_c, "coders": coders, "rows": rows,
            "question": "values needed to conclude α ≥ α_min at p = 0.05 (one-sided), not an interval's width"}
