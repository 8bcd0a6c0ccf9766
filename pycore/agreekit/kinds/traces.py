"""Agent traces: agreement on per-step labels.

Input rows ``trace, step, annotator, label``: a trace is the item, ``step`` an
integer position in it, and each (trace, step) is one **unit**. An annotator
labels a unit at most once; a unit may have any number of annotators, and
annotators may skip units (missing values).

Measures, over all units and per step position (step s of every trace) and per
trace:

* Krippendorff's α (nominal, or ordinal with ``level="ordinal"``) over the
  units' coincidence matrix (:mod:`agreekit.alpha`; Krippendorff 2011,
  "Computing Krippendorff's Alpha-Reliability"). Units with one label are not
  pairable and add nothing.
* Percent agreement (reported as a fraction in [0, 1]): the share of agreeing
  ordered label pairs within a unit, P_u = Σ_c n_uc (n_uc − 1) / (m_u (m_u − 1)),
  averaged over units with m_u ≥ 2 labels (Fleiss 1971, the P_i of his κ).
* Cohen's κ for every annotator pair over the units both labelled,
  κ = (p_o − p_e) / (1 − p_e) with p_e = Σ_c p_a(c) p_b(c) from each annotator's
  own marginals on those units (Cohen 1960), and the mean over pairs where κ is
  defined.
* Fleiss' κ (Fleiss 1971) when every unit has the same number m ≥ 2 of
  annotators: κ = (P̄ − P̄_e) / (1 − P̄_e), P̄ the mean of P_u, P̄_e = Σ_c p_c²
  with p_c the share of all labels in category c. Otherwise null, with the reason.

κ and percent agreement compare labels for equality at either level; only α
uses the ordinal metric.

Bootstrap intervals resample **traces** (steps of one trace are not
independent): per-trace sums are computed once and reweighted
(:mod:`agreekit.bootstrap`).

Potato's per-step α is always undefined and its per-step κ uses only the last
trace's labels (reference semantics §11); none of that is reproduced here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..measures import bootstrap as boot
from ..measures.alpha import alpha_from_coincidence, undefined_reason, unit_coincidences
from .. import options as opts
from ..registry import register
from ..results import CI_LEVEL, Report, estimate
from ..rows import ANNOTATOR_SYNONYMS, InputError, read_table, to_float, to_int, to_text

COLUMNS = ("trace", "step", "annotator", "label")
SYNONYMS = {
    "trace": ("item", "trace_id", "trajectory", "episode", "conversation", "instance", "task", "run"),
    "step": ("step_index", "step_id", "position", "turn", "index"),
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("class", "category", "score", "rating", "grade", "value", "verdict"),
}
LEVELS = ("nominal", "ordinal")
DEFAULT_TOP_UNITS = 50


# --------------------------------------------------------------------------- input

@dataclass
class StepLabels:
    """Checked trace input as a units × annotators matrix of category indices.

    ``values[u, a]`` is the category index of annotator ``annotators[a]`` on unit u,
    or −1 where that annotator gave no label. Unit u is step ``steps[unit_step[u]]``
    of trace ``traces[unit_trace[u]]``. Traces keep the order of their first row,
    annotators are sorted, steps and ordinal categories ascending.
    """

    traces: list
    steps: list
    annotators: list
    categories: list
    unit_trace: np.ndarray
    unit_step: np.ndarray
    values: np.ndarray
    warnings: list

    def counts(self):
        """(units × categories) number of labels of each category per unit."""
        out = np.zeros((len(self.values), len(self.categories)))
        unit, annotator = np.nonzero(self.values >= 0)
        np.add.at(out, (unit, self.values[unit, annotator]), 1.0)
        return out


def read_traces(source, level="nominal", order=None):
    """Parse and check trace rows into :class:`StepLabels`.

    Nominal labels are compared as text. Ordinal labels are numbers, ordered
    numerically, unless ``order`` lists the labels from lowest to highest.
    Errors name the line and column: missing trace, annotator or label, a step
    that is not a whole number, a non-numeric ordinal label (or one not in
    ``order``), one annotator labelling the same unit twice.
    """
    if level not in LEVELS:
        raise InputError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}", column="level")
    rank = _order_ranks(order) if order is not None else None
    rows = read_table(source, COLUMNS, SYNONYMS, required=COLUMNS)
    records = []
    seen = {}
    for row in rows:
        trace = to_text(row, "trace")
        step = to_int(row, "step")
        annotator = to_text(row, "annotator")
        label = to_text(row, "label")
        if rank is not None:
            if label not in rank:
                raise InputError(f"label {label!r} is not in the given order", line=row.line, column="label",
                                 value=label)
            category = rank[label]
        elif level == "ordinal":
            category = to_float(row, "label")
        else:
            category = label
        key = (trace, step, annotator)
        if key in seen:
            raise InputError(f"annotator {annotator!r} labelled step {step} of trace {trace!r} twice "
                             f"(also on line {seen[key]})", line=row.line, column="annotator", value=annotator)
        seen[key] = row.line
        records.append((trace, step, annotator, category))
    return _build(records, order)


def _order_ranks(order):
    if isinstance(order, str):
        order = [part.strip() for part in order.split(",")]
    labels = [str(label).strip() for label in order]
    if len(set(labels)) != len(labels) or not all(labels):
        raise InputError("order must list distinct, non-empty labels", column="order", value=order)
    return {label: rank for rank, label in enumerate(labels)}


def _build(records, order):
    traces = list(dict.fromkeys(r[0] for r in records))
    steps = sorted({r[1] for r in records})
    annotators = sorted({r[2] for r in records})
    if order is not None:
        categories = list(_order_ranks(order))
        code = {rank: rank for rank in range(len(categories))}
    else:
        distinct = sorted({r[3] for r in records})
        categories = [_display(c) for c in distinct]
        code = {c: k for k, c in enumerate(distinct)}
    trace_index = {t: k for k, t in enumerate(traces)}
    step_index = {s: k for k, s in enumerate(steps)}
    annotator_index = {a: k for k, a in enumerate(annotators)}
    unit_of = {}
    for trace, step, _, _ in records:
        unit_of.setdefault((trace, step), len(unit_of))
    # Units in trace order (first appearance), then by step.
    keys = sorted(unit_of, key=lambda u: (trace_index[u[0]], u[1]))
    unit_index = {u: k for k, u in enumerate(keys)}
    values = np.full((len(keys), len(annotators)), -1, dtype=int)
    for trace, step, annotator, category in records:
        values[unit_index[(trace, step)], annotator_index[annotator]] = code[category]
    unit_trace = np.array([trace_index[t] for t, _ in keys], dtype=int)
    unit_step = np.array([step_index[s] for _, s in keys], dtype=int)
    labelled = (values >= 0).sum(axis=1)
    warnings = []
    single = int(np.sum(labelled < 2))
    if single:
        warnings.append(f"{single} of {len(keys)} unit(s) have a single label: they are kept but cannot be "
                        "compared, so they add nothing to α, κ or percent agreement")
    if len(annotators) < 2:
        warnings.append("only one annotator: nothing can be compared")
    return StepLabels(traces, steps, annotators, categories, unit_trace, unit_step, values, warnings)


def _display(category):
    if isinstance(category, float) and category.is_integer():
        return int(category)
    return category


# --------------------------------------------------------------------------- measures

def unit_agreement(counts):
    """Per-unit share of agreeing ordered label pairs P_u; NaN for units with < 2 labels."""
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = (counts * (counts - 1)).sum(axis=-1) / (m * (m - 1))
    return np.where(m >= 2, p, np.nan)


def cohen_kappa(table):
    """Cohen's κ of a (..., C, C) contingency table (rows: annotator a, columns: b).

    Returns ``(kappa, p_o)``; κ is NaN where there are no shared units or p_e = 1.
    """
    table = np.asarray(table, dtype=float)
    n = table.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        p_o = np.trace(table, axis1=-2, axis2=-1) / n
        p_e = (table.sum(axis=-1) * table.sum(axis=-2)).sum(axis=-1) / n ** 2
        kappa = (p_o - p_e) / (1.0 - p_e)
    kappa = np.where((n > 0) & (p_e < 1.0), kappa, np.nan)
    return kappa, np.where(n > 0, p_o, np.nan)


def kappa_reason(table):
    """Why Cohen's κ of ``table`` is undefined, or None."""
    table = np.asarray(table, dtype=float)
    n = table.sum()
    if n == 0:
        return "the two annotators share no labelled unit"
    if np.count_nonzero(table.sum(axis=1)) == 1 and np.count_nonzero(table.sum(axis=0)) == 1 \
            and np.argmax(table.sum(axis=1)) == np.argmax(table.sum(axis=0)):
        return "both annotators gave one and the same label on every shared unit: expected agreement is 1"
    return None


def fleiss_kappa(agree_sum, n_units, category_totals, m):
    """Fleiss' κ from Σ_u P_u, the number of units, Σ_u n_uc and labels per unit ``m``.

    Batched over leading axes (bootstrap resamples). NaN where P̄_e = 1 or no units.
    """
    agree_sum = np.asarray(agree_sum, dtype=float)
    n_units = np.asarray(n_units, dtype=float)
    category_totals = np.asarray(category_totals, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_bar = agree_sum / n_units
        share = category_totals / (n_units * m)[..., None]
        p_e = (share ** 2).sum(axis=-1)
        kappa = (p_bar - p_e) / (1.0 - p_e)
    return np.where((n_units > 0) & (p_e < 1.0), kappa, np.nan)


def _alpha(o, metric):
    return alpha_from_coincidence(o, metric) if o.shape[-1] else float("nan")


def _alpha_estimate(o, metric, n_units, ci=None):
    value = _alpha(o, metric)
    reason = None
    if not math.isfinite(value):
        reason = undefined_reason(o) if o.size else "no labels"
        reason = reason or "undefined"
    return estimate(value, ci, reason, n=n_units)


def _ratio(numerator, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), np.nan)


# --------------------------------------------------------------------------- report

@register("traces", title="Traces", summary="per-step labels of agent traces: trace, step, annotator, label",
          options=(opts.Option("level", "choice", "Level of measurement for α", choices=(
                       opts.Choice("nominal", "nominal (labels are names)"),
                       opts.Choice("ordinal", "ordinal (labels are ranked)"))),
                   opts.Option("order", "labels", "Ordinal order (lowest first)",
                               "ordinal labels from lowest to highest, comma-separated, when they are not numbers"),
                   opts.BOOTSTRAP.but(help="resamples over traces for the percentile intervals (0 = none)"),
                   opts.SEED,
                   opts.Option("top_units", "int", "Disputed units listed", minimum=0, maximum=100_000)),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_units", position=7)
def traces(rows, *, level="nominal", order=None, bootstrap=boot.DEFAULT_RESAMPLES, seed=boot.DEFAULT_SEED,
           top_units=DEFAULT_TOP_UNITS, progress=None):
    """Agreement on per-step labels of agent traces (see the module docstring).

    ``rows``: CSV/TSV text or a list of dicts with ``trace, step, annotator, label``.
    ``level``: "nominal" or "ordinal" (for α). ``order``: ordinal labels from lowest
    to highest when they are not numbers. ``bootstrap``: resamples of traces (0 = no
    intervals). ``top_units``: how many of the most disputed units to list.
    ``progress(done, total, stage)`` is called between stages (the page's progress bar).
    """
    data = read_traces(rows, level=level, order=order)
    if progress is not None:
        progress(0, 3, "agreement")
    n_traces, n_steps = len(data.traces), len(data.steps)
    n_cat = len(data.categories)
    counts = data.counts()
    m = counts.sum(axis=1)
    pairable = m >= 2
    unit_o = unit_coincidences(counts) if n_cat else np.zeros((len(m), 0, 0))
    p_unit = unit_agreement(counts)
    p_unit0 = np.nan_to_num(p_unit)

    def per_trace(x):
        out = np.zeros((n_traces,) + np.shape(x)[1:])
        np.add.at(out, data.unit_trace, x)
        return out

    trace_o = per_trace(unit_o)
    trace_agree = per_trace(p_unit0)
    trace_pairable = per_trace(pairable.astype(float))
    trace_totals = per_trace(counts)

    resamples = boot.resample_counts(n_traces, bootstrap, seed) if bootstrap > 0 and n_traces >= 2 else None

    def ci(values):
        return boot.percentile_ci(values) if resamples is not None else None

    # α over all units.
    o = trace_o.sum(axis=0)
    alpha_ci = None
    if resamples is not None and n_cat:
        alpha_ci = ci(_alpha((resamples @ trace_o.reshape(n_traces, -1)).reshape(-1, n_cat, n_cat), level))
    alpha = _alpha_estimate(o, level, pairable.sum(), alpha_ci)
    alpha["level"] = level

    # Percent agreement.
    percent = float(_ratio(trace_agree.sum(), trace_pairable.sum()))
    percent_ci = ci(_ratio(resamples @ trace_agree, resamples @ trace_pairable)) if resamples is not None else None
    percent_agreement = estimate(percent, percent_ci, "no unit has two or more labels", n=pairable.sum())

    if progress is not None:
        progress(1, 3, "kappa")
    cohen = _cohen_section(data, resamples, ci)
    fleiss = _fleiss_section(data, counts, trace_agree, trace_totals, resamples, ci)
    if progress is not None:
        progress(2, 3, "steps and traces")
    steps = _step_section(data, unit_o, p_unit, level, resamples, ci)
    trace_rows = _trace_section(data, p_unit, trace_o, trace_agree, trace_pairable, level)

    disputed = np.argsort(np.where(pairable, p_unit, np.inf), kind="stable")[:max(int(top_units), 0)]
    disputed = [u for u in disputed if pairable[u] and p_unit[u] < 1.0]
    units = [{
        "trace": data.traces[data.unit_trace[u]],
        "step": data.steps[data.unit_step[u]],
        "percent_agreement": float(p_unit[u]),
        "labels": {data.annotators[a]: data.categories[data.values[u, a]]
                   for a in np.flatnonzero(data.values[u] >= 0)},
    } for u in disputed]

    return Report("traces", {
        "settings": {"level": level, "order": list(_order_ranks(order)) if order is not None else None,
                     "bootstrap": bootstrap, "seed": seed, "ci_level": CI_LEVEL,
                     "top_units": int(top_units)},
        "n_traces": n_traces,
        "n_steps": n_steps,
        "n_units": int(len(m)),
        "n_labels": int(m.sum()),
        "n_annotators": len(data.annotators),
        "annotators": list(data.annotators),
        "categories": list(data.categories),
        "alpha": alpha,
        "cohen_kappa": cohen,
        "fleiss_kappa": fleiss,
        "percent_agreement": percent_agreement,
        "steps": steps,
        "traces": trace_rows,
        "units": units,
        "n_disputed_units": int(np.sum(pairable & (p_unit < 1.0))),
        "warnings": list(data.warnings),
    })


def _cohen_section(data, resamples, ci):
    n_ann, n_cat, n_traces = len(data.annotators), len(data.categories), len(data.traces)
    pairs, tables, trace_tables = [], [], []
    for a in range(n_ann):
        for b in range(a + 1, n_ann):
            shared = (data.values[:, a] >= 0) & (data.values[:, b] >= 0)
            if not shared.any():
                continue
            index = (data.unit_trace[shared], data.values[shared, a], data.values[shared, b])
            per_trace = np.zeros((n_traces, n_cat, n_cat))
            np.add.at(per_trace, index, 1.0)
            pairs.append((a, b))
            trace_tables.append(per_trace)
            tables.append(per_trace.sum(axis=0))
    out_pairs = []
    for (a, b), table in zip(pairs, tables):
        kappa, p_o = cohen_kappa(table)
        out_pairs.append({"a": data.annotators[a], "b": data.annotators[b],
                          "kappa": estimate(kappa, None, kappa_reason(table), n=table.sum()),
                          "percent_agreement": float(p_o), "n_units": int(table.sum())})
    values = np.array([p["kappa"]["value"] if p["kappa"]["value"] is not None else np.nan for p in out_pairs])
    defined = np.isfinite(values)
    mean = float(values[defined].mean()) if defined.any() else float("nan")
    mean_ci = None
    if resamples is not None and pairs and math.isfinite(mean):
        # Per pair, the resampled tables are the trace tables reweighted by the draw counts.
        kappas = np.stack([cohen_kappa((resamples @ t.reshape(n_traces, -1)).reshape(-1, n_cat, n_cat))[0]
                           for t in trace_tables], axis=1)
        finite = np.isfinite(kappas[:, defined])
        sums = np.where(finite, kappas[:, defined], 0.0).sum(axis=1)
        mean_ci = ci(_ratio(sums, finite.sum(axis=1)))
    n_possible = n_ann * (n_ann - 1) // 2
    reason = ("fewer than two annotators" if n_ann < 2 else
              "no annotator pair shares a labelled unit" if not pairs else
              "κ is undefined for every annotator pair")
    return {"pairs": out_pairs,
            "mean": estimate(mean, mean_ci, reason, n=defined.sum()),
            "n_pairs_without_shared_units": n_possible - len(pairs)}


def _fleiss_section(data, counts, trace_agree, trace_totals, resamples, ci):
    m = counts.sum(axis=1)
    sizes = np.unique(m)
    if len(sizes) != 1 or sizes[0] < 2:
        if len(sizes) == 1:
            reason = "every unit has a single label"
        else:
            reason = (f"units have different numbers of annotators ({int(sizes.min())} to {int(sizes.max())}); "
                      "Fleiss' κ needs the same number on every unit")
        return estimate(None, None, reason, n=len(m), annotators_per_unit=None)
    size = float(sizes[0])
    n_units_per_trace = np.bincount(data.unit_trace, minlength=len(data.traces)).astype(float)
    value = float(fleiss_kappa(trace_agree.sum(), n_units_per_trace.sum(), trace_totals.sum(axis=0), size))
    fleiss_ci = None
    if resamples is not None:
        fleiss_ci = ci(fleiss_kappa(resamples @ trace_agree, resamples @ n_units_per_trace,
                                    resamples @ trace_totals, size))
    return estimate(value, fleiss_ci, "every label is in one category: expected agreement is 1", n=len(m),
                    annotators_per_unit=int(size))


def _step_section(data, unit_o, p_unit, metric, resamples, ci):
    out = []
    n_cat = len(data.categories)
    for s, step in enumerate(data.steps):
        units = np.flatnonzero(data.unit_step == s)
        o = unit_o[units].sum(axis=0)
        pairable = np.isfinite(p_unit[units])
        alpha_ci = None
        if resamples is not None and n_cat:
            # One unit per trace at this step: reweight it by its trace's draw count.
            weights = resamples[:, data.unit_trace[units]]
            alpha_ci = ci(_alpha((weights @ unit_o[units].reshape(len(units), -1)).reshape(-1, n_cat, n_cat),
                                 metric))
        percent = float(p_unit[units][pairable].mean()) if pairable.any() else float("nan")
        out.append({
            "step": step,
            "alpha": _alpha_estimate(o, metric, pairable.sum(), alpha_ci),
            "percent_agreement": percent if math.isfinite(percent) else None,
            "n_units": int(len(units)),
            "n_labels": int((data.values[units] >= 0).sum()),
        })
    return out


def _trace_section(data, p_unit, trace_o, trace_agree, trace_pairable, metric):
    out = []
    for t, trace in enumerate(data.traces):
        units = np.flatnonzero(data.unit_trace == t)
        labelled = data.values[units] >= 0
        percent = float(_ratio(trace_agree[t], trace_pairable[t]))
        out.append({
            "trace": trace,
            "alpha": _alpha_estimate(trace_o[t], metric, trace_pairable[t]),
            "percent_agreement": percent if math.isfinite(percent) else None,
            "n_steps": int(len(units)),
            "n_annotators": int(labelled.any(axis=0).sum()),
            "n_disputed_steps": int(np.sum(np.isfinite(p_unit[units]) & (p_unit[units] < 1.0))),
        })
    # Most disagreement first; traces with nothing comparable last; ties keep input order.
    out.sort(key=lambda r: (r["percent_agreement"] is None, r["percent_agreement"] or 0.0))
    return out
