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


@dataclass(frozen=True)
class PairTerms:
    """The pair table's per-item within sums and its pairs' run-pair baseline sums, dense (≤ 1,024 runs)."""

    pair_a: np.ndarray         # (P,) first annotator of each pair
    pair_b: np.ndarray         # (P,)
    within_sum: np.ndarray     # (n_items × P) W_i
    within_n: np.ndarray       # (n_items × P) M_i
    run_item: np.ndarray       # (R,)
    run_size: np.ndarray       # (R,) n_r
    run_members: tuple         # per annotator: its runs (intp); runs sorted by annotator
    groups: np.ndarray         # (R × A) 1 where run r is annotator a's
    run_sums: np.ndarray       # (R × R) symmetric S_rs, 0 for runs of one annotator or one item
    item_products: np.ndarray  # (n_items × P) n_ia n_ib: the pair's objects on one item, never a baseline pair


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
    pair = np.searchsorted(pair_codes, match_code).astype(np.intp)
    shape = (n_items, len(pair_codes))
    within_sum, within_n = np.zeros(shape), np.zeros(shape)
    np.add.at(within_sum, (np.asarray(match_item, dtype=np.intp), pair), within)
    np.add.at(within_n, (np.asarray(match_item, dtype=np.intp), pair), 1.0)
    n_runs = len(runs.item)
    first, second, total = run_pairs
    by_annotator = np.argsort(runs.annotator, kind="stable")   # runs of annotators < b: a prefix
    place = np.empty(n_runs, np.intp)
    place[by_annotator] = np.arange(n_runs)
    sums = np.zeros((n_runs, n_runs))
    sums[place[first], place[second]] = total
    sums += sums.T
    annotator, item = runs.annotator[by_annotator], runs.item[by_annotator]
    groups = np.zeros((n_runs, n_annotators))
    groups[np.arange(n_runs), annotator] = 1.0
    per_item = np.zeros((n_items, n_annotators))
    per_item[runs.item, runs.annotator] = runs.size
    a, b = pair_codes // n_annotators, pair_codes % n_annotators
    bounds = np.searchsorted(annotator, np.arange(n_annotators + 1))
    members = tuple(np.arange(bounds[k], bounds[k + 1], dtype=np.intp) for k in range(n_annotators))
    return PairTerms(a, b, within_sum, within_n, item, runs.size[by_annotator], members, groups, sums,
                     per_item[:, a] * per_item[:, b])


def resampled_pair_sigma(terms, counts):
    """σ of every pair in each resample: (resamples × pairs), NaN where undefined.

    Per annotator b, Y_b M (Y the runs' item counts) summed over the runs of each annotator a < b gives the
    baseline sums of b's pairs at once; the counts are (Σ_a-runs Y n)(Σ_b-runs Y n) − Σ_i c_i² n_ia n_ib.
    """
    counts = np.asarray(counts, dtype=float)
    within_mean = safe_ratio(counts @ terms.within_sum, counts @ terms.within_n)
    y = counts[:, terms.run_item]
    base_sums = np.zeros((len(counts),) + terms.groups.shape[1:] * 2)
    for b, runs in enumerate(terms.run_members):   # runs sorted by annotator: a < b are the first runs[0]
        if len(runs) and runs[0]:
            lower = slice(0, runs[0])
            base_sums[:, :, b] = ((y[:, runs] @ terms.run_sums[runs, lower]) * y[:, lower]) @ terms.groups[lower]
    totals = (y * terms.run_size) @ terms.groups
    base_n = totals[:, terms.pair_a] * totals[:, terms.pair_b] - (counts ** 2) @ terms.item_products
    base_mean = safe_ratio(base_sums[:, terms.pair_a, terms.pair_b], base_n)
    return 1.0 - safe_ratio(within_mean, base_mean)
