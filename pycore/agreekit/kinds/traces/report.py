"""Agent traces: agreement on per-step labels.

Input rows ``trace, step, annotator, label``: a trace is the item, ``step`` an
integer position in it, and each (trace, step) is one **unit**. An annotator
labels a unit at most once; a unit may have any number of annotators, and
annotators may skip units (missing values).

Measures, over all units, per step position (step s of every trace) and per trace:

* Krippendorff's α (nominal, or ordinal with ``level="ordinal"``) over the units'
  coincidence matrix (:mod:`agreekit.measures.alpha`; Krippendorff 2011). Units
  with one label are not pairable and add nothing.
* Percent agreement (a fraction in [0, 1]): the share P_u of agreeing ordered label
  pairs within a unit (:func:`~agreekit.measures.kappa.unit_agreement`), averaged
  over units with m_u ≥ 2 labels.
* Cohen's κ (:func:`~agreekit.measures.kappa.cohen_kappa`; Cohen 1960) for every
  annotator pair over the units both labelled, and the mean over pairs where κ is defined
  (:func:`~agreekit.measures.kappa.pair_kappas`, block by block). Above ``MAX_PAIR_ROWS``
  pairs the report lists those sharing the most units and says so.
* Fleiss' κ (:func:`~agreekit.measures.kappa.fleiss_kappa`; Fleiss 1971) when every
  unit has the same number m ≥ 2 of annotators; otherwise null, with the reason.

κ and percent agreement compare labels for equality at either level; only α
uses the ordinal metric. Bootstrap intervals resample **traces** (steps of one
trace are not independent): per-trace sums are computed once and reweighted
(:mod:`agreekit.measures.bootstrap`).

Potato's per-step α is always undefined and its per-step κ uses only the last
trace's labels (docs/potato-differences.md); none of that is reproduced here.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ... import options as opts
from ...arrays import content_ranks, safe_ratio, tracks_by_item
from ...measures import bootstrap as boot
from ...measures.alpha import alpha_from_coincidence, undefined_reason, unit_coincidences
from ...measures.kappa import fleiss_kappa, kappa_reason, pair_kappas, unit_agreement
from ...reference.report import reference_part, reference_records
from ...registry import register
from ...results import CI_LEVEL, Report, estimate
from .consensus import CONSENSUS
from .detail import DETAIL
from .reference import SAME_STEP, reader, step_records, step_set, without
from .rows import COLUMNS, SYNONYMS, StepLabels, order_ranks, read_traces
from .text import format_traces
from .shape import SHAPE
from .methods import METHODS

DEFAULT_TOP_UNITS = 50
# Annotator pairs listed in cohen_kappa.pairs.  Above it the report lists the pairs that share the most
# units and says so; the mean κ and its interval count every pair (docs/traces.md).
MAX_PAIR_ROWS = 5000


def _trace_ranks(data: StepLabels):
    """The traces' content order for the bootstrap: each annotator's (step, label) pairs, not names."""
    unit, annotator = np.nonzero(data.values >= 0)
    keys = [(data.steps[data.unit_step[u]], data.categories[data.values[u, a]]) for u, a in zip(unit, annotator)]
    return content_ranks(tracks_by_item(len(data.traces), data.unit_trace[unit], annotator.tolist(), keys), data.traces)


# --------------------------------------------------------------------------- sums over units

class UnitSums(NamedTuple):
    """Per-unit values and their per-trace sums, computed once for every section."""

    labels: np.ndarray          # (units,) m_u, labels on the unit
    pairable: np.ndarray        # (units,) m_u ≥ 2
    unit_o: np.ndarray          # (units, C, C) coincidence matrices
    p_unit: np.ndarray          # (units,) P_u, NaN where not pairable
    trace_o: np.ndarray         # (traces, C, C) Σ over the trace's units
    trace_agree: np.ndarray     # (traces,) Σ P_u over pairable units
    trace_pairable: np.ndarray  # (traces,) pairable units
    trace_totals: np.ndarray    # (traces, C) labels of each category


def _unit_sums(data: StepLabels) -> UnitSums:
    counts = data.counts()
    labels = counts.sum(axis=1)
    pairable = labels >= 2
    unit_o = unit_coincidences(counts) if data.categories else np.zeros((len(labels), 0, 0))
    p_unit = unit_agreement(counts)

    def per_trace(x):
        out = np.zeros((len(data.traces),) + np.shape(x)[1:])
        np.add.at(out, data.unit_trace, x)
        return out

    return UnitSums(labels, pairable, unit_o, p_unit, per_trace(unit_o), per_trace(np.nan_to_num(p_unit)),
                    per_trace(pairable.astype(float)), per_trace(counts))


def _reweighted(weights, tables):
    """Σ_t weights[r, t] · tables[t] for each resample r: (R, C, C) from (T, C, C)."""
    n_cat = tables.shape[-1]
    return (weights @ tables.reshape(len(tables), -1)).reshape(-1, n_cat, n_cat)


def _alpha(o, metric):
    return alpha_from_coincidence(o, metric) if o.shape[-1] else float("nan")


def _alpha_estimate(o, metric, n_units, ci=None):
    value = _alpha(o, metric)
    reason = None if math.isfinite(value) else (undefined_reason(o) if o.size else "no labels") or "undefined"
    return estimate(value, ci, reason, n=n_units)


# --------------------------------------------------------------------------- sections

def _alpha_section(sums: UnitSums, level, resamples):
    alpha_ci = None
    if resamples is not None and sums.trace_o.shape[-1]:
        alpha_ci = boot.percentile_ci(_alpha(_reweighted(resamples, sums.trace_o), level))
    alpha = _alpha_estimate(sums.trace_o.sum(axis=0), level, sums.pairable.sum(), alpha_ci)
    alpha["level"] = level
    return alpha


def _percent_section(sums: UnitSums, resamples):
    percent = float(safe_ratio(sums.trace_agree.sum(), sums.trace_pairable.sum()))
    percent_ci = None
    if resamples is not None:
        percent_ci = boot.percentile_ci(safe_ratio(resamples @ sums.trace_agree, resamples @ sums.trace_pairable))
    return estimate(percent, percent_ci, "no unit has two or more labels", n=sums.pairable.sum())


def _cohen_section(data: StepLabels, resamples):
    pairs = pair_kappas(data.values, data.unit_trace, len(data.traces), len(data.categories), resamples,
                        MAX_PAIR_ROWS)
    listed = pairs.listed
    rows = [{"a": data.annotators[a], "b": data.annotators[b],
             "kappa": estimate(kappa, None, kappa_reason(table), n=table.sum()),
             "percent_agreement": float(observed), "n_units": int(table.sum())}
            for a, b, table, kappa, observed in zip(listed.a.tolist(), listed.b.tolist(), listed.tables,
                                                    listed.kappa, listed.observed)]
    defined = np.isfinite(pairs.kappas)
    mean = float(pairs.kappas[defined].mean()) if defined.any() else float("nan")
    mean_ci = None
    if pairs.resampled_mean is not None and len(pairs.kappas) and math.isfinite(mean):
        mean_ci = boot.percentile_ci(pairs.resampled_mean)
    n_ann = len(data.annotators)
    reason = ("fewer than two annotators" if n_ann < 2 else
              "no annotator pair shares a labelled unit" if not len(pairs.kappas) else
              "κ is undefined for every annotator pair")
    return {"pairs": rows,
            "pairs_shown": len(rows),
            "n_pairs_total": len(pairs.kappas),
            "mean": estimate(mean, mean_ci, reason, n=defined.sum()),
            "n_pairs_without_shared_units": n_ann * (n_ann - 1) // 2 - len(pairs.kappas)}


def _pair_warnings(cohen):
    """Say so when ``cohen_kappa.pairs`` lists fewer pairs than share a unit."""
    if cohen["n_pairs_total"] <= cohen["pairs_shown"]:
        return []
    return [f"{cohen['n_pairs_total']} annotator pairs share a labelled unit: cohen_kappa.pairs lists the "
            f"{cohen['pairs_shown']} that share the most units (ties in annotator order); the mean κ, its "
            "interval and every other number count every pair"]


def _fleiss_section(data: StepLabels, sums: UnitSums, resamples):
    sizes = np.unique(sums.labels)
    if len(sizes) != 1 or sizes[0] < 2:
        reason = ("every unit has a single label" if len(sizes) == 1 else
                  f"units have different numbers of annotators ({int(sizes.min())} to {int(sizes.max())}); "
                  "Fleiss' κ needs the same number on every unit")
        return estimate(None, None, reason, n=len(sums.labels), annotators_per_unit=None)
    size = float(sizes[0])
    n_units_per_trace = np.bincount(data.unit_trace, minlength=len(data.traces)).astype(float)
    value = float(fleiss_kappa(sums.trace_agree.sum(), n_units_per_trace.sum(), sums.trace_totals.sum(axis=0), size))
    fleiss_ci = None
    if resamples is not None:
        fleiss_ci = boot.percentile_ci(fleiss_kappa(resamples @ sums.trace_agree, resamples @ n_units_per_trace,
                                                    resamples @ sums.trace_totals, size))
    return estimate(value, fleiss_ci, "every label is in one category: expected agreement is 1",
                    n=len(sums.labels), annotators_per_unit=int(size))


def _step_section(data: StepLabels, sums: UnitSums, metric, resamples):
    out = []
    for s, step in enumerate(data.steps):
        units = np.flatnonzero(data.unit_step == s)
        pairable = np.isfinite(sums.p_unit[units])
        alpha_ci = None
        if resamples is not None and data.categories:
            # One unit per trace at this step: reweight it by its trace's draw count.
            weights = resamples[:, data.unit_trace[units]]
            alpha_ci = boot.percentile_ci(_alpha(_reweighted(weights, sums.unit_o[units]), metric))
        percent = float(sums.p_unit[units][pairable].mean()) if pairable.any() else float("nan")
        out.append({
            "step": step,
            "alpha": _alpha_estimate(sums.unit_o[units].sum(axis=0), metric, pairable.sum(), alpha_ci),
            "percent_agreement": percent if math.isfinite(percent) else None,
            "n_units": int(len(units)),
            "n_labels": int((data.values[units] >= 0).sum()),
        })
    return out


def _trace_section(data: StepLabels, sums: UnitSums, metric):
    out = []
    for t, trace in enumerate(data.traces):
        units = np.flatnonzero(data.unit_trace == t)
        p_unit = sums.p_unit[units]
        percent = float(safe_ratio(sums.trace_agree[t], sums.trace_pairable[t]))
        out.append({
            "trace": trace,
            "alpha": _alpha_estimate(sums.trace_o[t], metric, sums.trace_pairable[t]),
            "percent_agreement": percent if math.isfinite(percent) else None,
            "n_steps": int(len(units)),
            "n_annotators": int((data.values[units] >= 0).any(axis=0).sum()),
            "n_disputed_steps": int(np.sum(np.isfinite(p_unit) & (p_unit < 1.0))),
        })
    # Most disagreement first; traces with nothing comparable last; ties keep input order.
    out.sort(key=lambda r: (r["percent_agreement"] is None, r["percent_agreement"] or 0.0))
    return out


def _disputed_units(data: StepLabels, sums: UnitSums, top_units):
    """The ``top_units`` pairable units with the lowest P_u < 1, with their labels."""
    order = np.argsort(np.where(sums.pairable, sums.p_unit, np.inf), kind="stable")[:max(int(top_units), 0)]
    return [{
        "trace": data.traces[data.unit_trace[u]],
        "step": data.steps[data.unit_step[u]],
        "percent_agreement": float(sums.p_unit[u]),
        "labels": {data.annotators[a]: data.categories[data.values[u, a]]
                   for a in np.flatnonzero(data.values[u] >= 0)},
    } for u in order if sums.pairable[u] and sums.p_unit[u] < 1.0]


# --------------------------------------------------------------------------- report

@register("traces", title="Traces", summary="per-step labels of agent traces: trace, step, annotator, label",
          options=(opts.Option("level", "choice", "Level of measurement for α", choices=(
                       opts.Choice("nominal", "nominal (labels are names)"),
                       opts.Choice("ordinal", "ordinal (labels are ranked)"))),
                   opts.Option("order", "labels", "Ordinal order (lowest first)",
                               "ordinal labels from lowest to highest, comma-separated, when they are not numbers"),
                   opts.BOOTSTRAP.but(help="resamples over traces for the percentile intervals (0 = none)"),
                   opts.SEED,
                   opts.Option("top_units", "int", "Disputed units listed", minimum=0, maximum=100_000),
                   opts.REFERENCE, opts.REFERENCE_ROWS),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_units", position=7, text=format_traces,
          item_detail=DETAIL, shape=SHAPE, consensus=CONSENSUS,
          methods=METHODS)
def traces(rows, *, level="nominal", order=None, bootstrap=boot.DEFAULT_RESAMPLES, seed=boot.DEFAULT_SEED,
           top_units=DEFAULT_TOP_UNITS, reference=None, reference_rows=None, progress=None):
    """Agreement on per-step labels of agent traces (see the module docstring).

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text or dicts with ``trace, step, annotator, label``.
    level : {"nominal", "ordinal"}
        Level of measurement for α.
    order : list of str or str, optional
        Ordinal labels from lowest to highest when they are not numbers.
    bootstrap, seed : int
        Resamples of traces (0 = no intervals) and their seed.
    top_units : int
        How many of the most disputed units to list.
    reference, reference_rows : optional
        Score every annotator against a reference (an annotator of the rows, who then leaves the
        agreement measures, or gold rows), step by step (``docs/reference.md``).
    progress : callable, optional
        ``progress(done, total, stage)``, called between stages (the page's progress bar).

    Returns
    -------
    Report
        Keys in ``docs/traces.md``.
    """
    data = read_traces(rows, level=level, order=order, progress=progress)
    _, chosen = reference_records(step_records(data), reference=reference, reference_rows=reference_rows,
                                  parse=reader(level, order), kind="traces", rows=rows)
    if chosen is not None and chosen.source == "annotator":
        data = without(data, chosen.annotator)
    if progress is not None:
        progress(0, 3, "agreement")
    sums = _unit_sums(data)
    n_traces = len(data.traces)
    resamples = (boot.resample_counts(n_traces, bootstrap, seed, _trace_ranks(data), list(data.traces))
                 if bootstrap > 0 and n_traces >= 2 else None)
    alpha = _alpha_section(sums, level, resamples)
    percent_agreement = _percent_section(sums, resamples)
    if progress is not None:
        progress(1, 3, "kappa")
    cohen = _cohen_section(data, resamples)
    fleiss = _fleiss_section(data, sums, resamples)
    if progress is not None:
        progress(2, 3, "steps and traces")
    report = {
        "settings": {"level": level, "order": list(order_ranks(order)) if order is not None else None,
                     "bootstrap": bootstrap, "seed": seed, "ci_level": CI_LEVEL,
                     "top_units": int(top_units)},
        "n_traces": n_traces,
        "n_steps": len(data.steps),
        "n_units": int(len(sums.labels)),
        "n_labels": int(sums.labels.sum()),
        "n_annotators": len(data.annotators),
        "annotators": list(data.annotators),
        "categories": list(data.categories),
        "alpha": alpha,
        "cohen_kappa": cohen,
        "fleiss_kappa": fleiss,
        "percent_agreement": percent_agreement,
        "steps": _step_section(data, sums, level, resamples),
        "traces": _trace_section(data, sums, level),
        "units": _disputed_units(data, sums, top_units),
        "n_disputed_units": int(np.sum(sums.pairable & (sums.p_unit < 1.0))),
        "warnings": list(data.warnings) + _pair_warnings(cohen),
    }
    if chosen is not None:
        report["reference"], notes, more_settings = reference_part(
            chosen, step_set, threshold=SAME_STEP, low_overlap=SAME_STEP, mode="optimal", label_key=str,
            bootstrap=bootstrap, seed=seed, localization=False)
        report["warnings"] += notes
        report["settings"]["reference"] = more_settings["reference"]
    return Report("traces", report)
