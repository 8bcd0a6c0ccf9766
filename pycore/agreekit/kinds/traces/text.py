"""The traces kind's command-line text: α, κ and percent agreement, by step and by trace."""
from __future__ import annotations

from ...text import estimate_text, table


def format_traces(report):
    """The trace report: α, κ and percent agreement, then α by step position and the disputed units."""
    d = report.to_dict()
    s = d["settings"]
    a, cohen, fleiss, percent = d["alpha"], d["cohen_kappa"], d["fleiss_kappa"], d["percent_agreement"]
    steps = [{"step": r["step"], "alpha": r["alpha"]["value"], "percent_agreement": r["percent_agreement"],
              "n_units": r["n_units"]} for r in d["steps"]]
    traces = [{**r, "alpha": r["alpha"]["value"]} for r in d["traces"]]
    units = [{**u, "labels": ", ".join(f"{k}={v}" for k, v in u["labels"].items())} for u in d["units"]]
    lines = [
        f"agreekit traces: {d['n_traces']} traces, {d['n_units']} units (trace, step), {d['n_labels']} labels, "
        f"{d['n_annotators']} annotators",
        f"settings: level {s['level']}, {s['bootstrap']} bootstrap resamples over traces (seed {s['seed']})",
        "",
        f"Krippendorff alpha ({s['level']})  {estimate_text(a)}",
        f"mean Cohen kappa          {estimate_text(cohen['mean'])}   over {cohen['mean']['n']} annotator pairs",
        f"Fleiss kappa              {estimate_text(fleiss)}",
        f"percent agreement         {estimate_text(percent)}"
        "   (share of agreeing label pairs within a unit)",
        "",
        "annotator pairs:",
        table(cohen["pairs"], [("a", "a"), ("b", "b"), ("kappa", "kappa"), ("percent_agreement", "agree"),
                                ("n_units", "units")]),
        "",
        "by step position:",
        table(steps, [("step", "step"), ("alpha", "alpha"), ("percent_agreement", "agree"), ("n_units", "units")]),
        "",
        "traces with most disagreement:",
        table(traces, [("trace", "trace"), ("alpha", "alpha"), ("percent_agreement", "agree"),
                        ("n_disputed_steps", "disputed steps"), ("n_steps", "steps")], limit=10),
        "",
        f"most disputed units ({d['n_disputed_units']} in all):",
        table(units, [("trace", "trace"), ("step", "step"), ("percent_agreement", "agree"), ("labels", "labels")],
               limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)
