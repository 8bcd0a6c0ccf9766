"""Bootstrap intervals of each annotator pair's σ against its own cross-annotator baseline.

In a resample that draws item i c_i times, the pair {a, b} has

    σ_ab = 1 − (Σ_i c_i W_i / Σ_i c_i M_i) / (Σ_{r,s} c_{i(r)} c_{i(s)} S_rs / Σ_{r,s} c_{i(r)} c_{i(s)} n_r n_s),

with W_i and M_i the sum and number of the pair's within distances on item i
(its matched pairs), and, over the unordered pairs of *runs* r, s (one
annotator's n_r objects on one item, :class:`~.cross.Runs`) of a and b on
different items, S_rs the sum of their distances: the same reweighting by
item counts as the corpus σ_cross (:mod:`agreekit.objects`), restricted to the
pair.  The run-pair sums are kept only up to ``cross.PAIR_INTERVAL_ANNOTATORS``
annotators and ``cross.PAIR_INTERVAL_RUNS`` runs on the exact path with at most
``cross.DENSE_ITEMS`` items (:func:`unkept_reason`); beyond, a pair's interval
is null with that reason.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..arrays import safe_ratio
from . import cross
from .run_sums import run_sums


@dataclass(frozen=True)
class PairTerms:
    """Per-pair within and baseline entries, each sorted by the pair's index in the pair table."""

    n_pairs: int
    within_pair: np.ndarray    # (w,) pair of each (pair, item) entry
    within_item: np.ndarray    # (w,)
    within_sum: np.ndarray     # (w,) W_i
    within_n: np.ndarray       # (w,) M_i
    base_pair: np.ndarray      # (e,) pair of each run pair
    base_first: np.ndarray     # (e,) item of the first run
    base_second: np.ndarray    # (e,) item of the second run
    base_sum: np.ndarray       # (e,) S_rs
    base_n: np.ndarray         # (e,) n_r n_s


def unkept_reason(n_annotators, n_runs, n_items, exact):
    """Why the run-pair sums of the pairs' baselines are not kept (None when they are)."""
    if not exact:
        return "the chance baseline is sampled: the pair's baseline item-pair sums are not kept"
    if n_items > cross.DENSE_ITEMS:
        return f"above {cross.DENSE_ITEMS:,} items the pair's baseline item-pair sums are not kept"
    if n_annotators > min(cross.PAIR_ANNOTATORS, cross.PAIR_INTERVAL_ANNOTATORS):
        return (f"above {cross.PAIR_INTERVAL_ANNOTATORS:,} annotators the pair's baseline item-pair sums "
                "are not kept")
    if n_runs > cross.PAIR_INTERVAL_RUNS:
        return (f"above {cross.PAIR_INTERVAL_RUNS:,} (annotator, item) groups of objects the pair's baseline "
                "item-pair sums are not kept")
    return None


def pair_terms(pair_codes, match_code, match_item, within, runs, run_pairs, n_annotators, n_items):
    """The :class:`PairTerms` of the pair table.

    ``pair_codes``: a·A + b (a < b) of the table's pairs, sorted; ``match_code``, ``match_item``,
    ``within``: each matched pair's pair code, item and distance; ``runs`` (:class:`~.cross.Runs`)
    and ``run_pairs`` (:func:`~.cross.run_pair_sums`) of the objects.
    """
    n_pairs = len(pair_codes)
    pair = np.searchsorted(pair_codes, match_code).astype(np.intp)
    keys, inverse = np.unique(pair * n_items + np.asarray(match_item, dtype=np.intp), return_inverse=True)
    inverse = inverse.ravel()
    w_sum = np.bincount(inverse, within, len(keys))
    w_n = np.bincount(inverse, minlength=len(keys)).astype(float)
    first, second, total = run_pairs
    a, b = runs.annotator[first], runs.annotator[second]
    code = np.minimum(a, b) * n_annotators + np.maximum(a, b)
    where = np.minimum(np.searchsorted(pair_codes, code), max(n_pairs - 1, 0))
    listed = (pair_codes[where] == code) if n_pairs else np.zeros(len(code), bool)
    order = np.argsort(where[listed], kind="stable")
    pick = np.flatnonzero(listed)[order]
    return PairTerms(n_pairs, keys // n_items, keys % n_items, w_sum, w_n, where[pick].astype(np.intp),
                     runs.item[first[pick]], runs.item[second[pick]], total[pick],
                     runs.size[first[pick]] * runs.size[second[pick]])


def _by_pair(pair, n_pairs, values):
    """(n_pairs × resamples) sums of the rows of ``values`` (entries × resamples, sorted by ``pair``)."""
    out = np.zeros((n_pairs, values.shape[1]))
    if len(pair):
        starts = np.flatnonzero(np.diff(pair, prepend=-1)).astype(np.intp)
        out[pair[starts]] = run_sums(values, starts)
    return out


def resampled_pair_sigma(terms, counts):
    """σ of every pair in each resample: (resamples × pairs), NaN where undefined."""
    by_item = np.ascontiguousarray(np.asarray(counts, dtype=float).T)   # items × resamples
    within = by_item[terms.within_item]
    within_mean = safe_ratio(_by_pair(terms.within_pair, terms.n_pairs, within * terms.within_sum[:, None]),
                             _by_pair(terms.within_pair, terms.n_pairs, within * terms.within_n[:, None]))
    weight = by_item[terms.base_first] * by_item[terms.base_second]
    base_mean = safe_ratio(_by_pair(terms.base_pair, terms.n_pairs, weight * terms.base_sum[:, None]),
                           _by_pair(terms.base_pair, terms.n_pairs, weight * terms.base_n[:, None]))
    return (1.0 - safe_ratio(within_mean, base_mean)).T
