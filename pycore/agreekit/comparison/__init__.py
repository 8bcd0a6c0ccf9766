"""Comparing two rounds or groups of annotations (:func:`compare`) and planning how many items (:func:`plan`).

``docs/compare.md`` explains the paired resampling and the planner's method and limits.
"""
from .difference import Difference
from .groups import split_groups
from .plan import Plan, plan
from .result import Comparison
from .run import compare

__all__ = ["Comparison", "Difference", "Plan", "compare", "plan", "split_groups"]
