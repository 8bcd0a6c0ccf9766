"""The labels report as the command line prints it: the coefficients with their intervals, the kappa
paradox sentence, the prevalence table, the pairs, the annotators and the most disputed items."""
from __future__ import annotations

from ...text import estimate_text, table

NAMES = (("alpha", "Krippendorff's alpha"), ("alpha_jaccard", "alpha, Jaccard distance"),
         ("percent_agreement", "percent agreement"), ("cohen_kappa", "Cohen's kappa, mean over pairs"),
         ("cohen_kappa_linear", "  linear weights"), ("cohen_kappa_quadratic", "  quadratic weights"),
         ("fleiss_kappa", "Fleiss' kappa"), ("conger_kappa", "Conger's kappa"), ("gwet_ac1", "Gwet's AC1"),
         ("gwet_ac2_linear", "Gwet's AC2, linear"), ("gwet_ac2_quadratic", "Gwet's AC2, quadratic"),
         ("scott_pi", "Scott's pi"), ("brennan_prediger", "Brennan-Prediger"),
         ("icc_2_1", "ICC(2,1) absolute"), ("icc_3_1", "ICC(3,1) consistency"))
SHOWN = 10


def _coefficient_lines(d):
    lines = []
    for key, name in NAMES:
        e = d["coefficients"][key]
        if e["value"] is None and e["reason"].startswith("only for"):
            continue
        extra = f"   ({e['left_out']})" if e.get("left_out") and e["value"] is not None else ""
        if e.get("f_ci"):
            extra += f"   F interval [{e['f_ci'][0]:.4f}, {e['f_ci'][1]:.4f}]"
        lines.append(f"{name:<32} {estimate_text(e)}{extra}")
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
    items = [{**i, "labels": ", ".join(f"{r['annotator']}={r['label']}" for r in i["ratings"])} for i in d["items"]]
    lines += ["", "labels:", table(d["prevalence"], [("label", "label"), ("n", "ratings"), ("share", "share")],
                                   SHOWN),
              "", "annotator pairs:",
              table(d["pairs"], [("a", "a"), ("b", "b"), ("n_items", "items"), ("percent_agreement", "agree"),
                                 ("cohen_kappa", "kappa"), ("scott_pi", "pi")], SHOWN),
              "", "annotators:",
              table(d["annotators"], [("annotator", "annotator"), ("n_items", "items"),
                                      ("percent_agreement", "agree"), ("cohen_kappa", "mean kappa")], SHOWN),
              "", f"most disputed items ({d['n_disputed_items']} in all):",
              table(items, [("item", "item"), ("percent_agreement", "agree"), ("labels", "labels")], SHOWN)]
    return "\n".join(lines + [f"warning: {w}" for w in d["warnings"]])
