"""The ``labels`` kind: agreement on categories, ordinal scales, numbers and label sets.

``rows`` reads long rows or a reliability matrix, ``scale`` turns the labels into a ratings
matrix at the level of measurement, ``coefficients`` and ``pairs`` compute every coefficient
(the formulas live in :mod:`agreekit.measures`), ``tables`` the prevalence table, the kappa
paradox sentence and the disputed items, ``report`` registers the kind, ``text`` is its
command-line summary and ``examples`` its example rows.
"""
from .report import labels

__all__ = ["labels"]
