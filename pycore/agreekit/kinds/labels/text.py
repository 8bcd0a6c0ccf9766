"""The labels report as the command line prints it: the coefficients with their intervals, the kappa
paradox sentence, the prevalence table, the pairs, the annotators and the most disputed items."""
from __future__ import annotations

NAMES = (("alpha", "Krippendorff's alpha"), ("alpha_jaccard", "alpha, Jaccard distance"),
         ("percent_agreement", "percent agreement"), ("cohen_kappa", "Cohen's kappa, mean over pairs"),
         ("cohen_kappa_linear", "  linear weights"), ("cohen_kappa_quadratic", "  quadratic weights"),
         ("fleiss_kappa", "Fleiss' kappa"), ("conger_kappa", "Conger's kappa"), ("gwet_ac1", "Gwet's AC1"),
         ("gwet_ac2_linear", "Gwet's AC2, linear"), ("gwet_ac2_quadratic", "Gwet's AC2, quadratic"),
         ("scott_pi", "Scott's pi"), ("brennan_prediger", "Brennan-Prediger"),
         ("icc_2_1", "ICC(2,1) absolute"), ("icc_3_1", "ICC(3,1) consistency"))
SHOWN = 10


def _number(value):
    return "null" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)


def _estimate(e):
    if e["value"] is None:
        return f"undefined ({e['reason']})"
    text = f"{e['value']:.4f}"
    return text + (f"  [{e['ci'][0]:.4f}, {e['ci'][1]:.4f}]" if e["ci"] else "")


def _table(rows, columns):
    """Plain-text table of ``rows`` (lists of cells) under ``columns`` headings, ``SHOWN`` rows at most."""
    cells = [list(columns)] + [[_number(c["value"] if isinstance(c, dict) else c) for c in row]
                               for row in rows[:SHOWN]]
    widths = [max(len(row[k]) for row in cells) for k in range(len(columns))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in cells]
    return lines + ([f"... {len(rows) - SHOWN} more (use --json)"] if len(rows) > SHOWN else [])


def _coefficient_lines(d):
    lines = []
    for key, name in NAMES:
        e = d["coefficients"][key]
        if e["value"] is None and e["reason"].startswith("only for"):
            continue
        extra = f"   ({e['left_out']})" if e.get("left_out") and e["value"] is not None else ""
        if e.get("f_ci"):
            extra += f"   F interval [{e['f_ci'][0]:.4f}, {e['f_ci'][1]:.4f}]"
        lines.append(f"{name:<32} {_estimate(e)}{extra}")
    return lines


def format_report(report):
    """The readable summary of a labels report."""
    d = report.to_dict()
    s = d["settings"]
    lines = [f"agreekit labels: {d['n_items_total']} items ({d['n_items']} with two or more ratings), "
             f"{d['n_annotators']} annotators, {d['n_ratings']} ratings",
             f"input: {d['input']['reading']}",
             f"settings: level {s['level']}, {s['bootstrap']} bootstrap resamples over items (seed {s['seed']})", ""]
    lines += _coefficient_lines(d)
    if d["kappa_paradox"]:
        lines += ["", d["kappa_paradox"]]
    lines += ["", "labels:"] + _table([[r["label"], r["n"], r["share"]] for r in d["prevalence"]],
                                      ("label", "ratings", "share"))
    lines += ["", "annotator pairs:"] + _table(
        [[p["a"], p["b"], p["n_items"], p["percent_agreement"], p["cohen_kappa"], p["scott_pi"]] for p in d["pairs"]],
        ("a", "b", "items", "agree", "kappa", "pi"))
    lines += ["", "annotators:"] + _table(
        [[a["annotator"], a["n_items"], a["percent_agreement"], a["cohen_kappa"]] for a in d["annotators"]],
        ("annotator", "items", "agree", "mean kappa"))
    lines += ["", f"most disputed items ({d['n_disputed_items']} in all):"] + _table(
        [[i["item"], i["percent_agreement"], ", ".join(f"{r['annotator']}={r['label']}" for r in i["ratings"])]
         for i in d["items"]], ("item", "agree", "labels"))
    return "\n".join(lines + [f"warning: {w}" for w in d["warnings"]])
