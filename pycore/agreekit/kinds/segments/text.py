"""The segments kind's command-line text: α and the raw measures, then the boundary sweep."""
from __future__ import annotations

from ...text import estimate_text, format_value, table


def format_segments(report):
    """The segment report: α and the raw measures, then the boundary sweep with its tolerances."""
    d = report.to_dict()
    s = d["settings"]
    level = int(round(s["ci_level"] * 100))
    tolerances = s["tolerances"]
    sweep = [{**row, "tolerance": f"±{row['tolerance']:g} s",
              "f1_ci": "" if not row["f1_ci"] else f"[{row['f1_ci'][0]:.4f}, {row['f1_ci'][1]:.4f}]"}
             for row in d["boundary_sweep"]]

    def by_tolerance(entry, key):
        return {**entry, **{f"at {row['tolerance']:g}": row["f1"] for row in entry.get(key, [])}}

    f1_columns = [(f"at {t:g}", f"F1 ±{t:g}") for t in tolerances]
    lines = [
        f"agreekit segments: {d['n_items']} comparable clips, {d['n_annotators']} annotators, "
        f"{d['n_segments']} segments",
        f"settings: IoU threshold {s['threshold']}, match {s['match']}, {s['bootstrap']} bootstrap resamples "
        f"(seed {s['seed']}), {level}% intervals",
        "",
        f"detection alpha           {estimate_text(d['detection'])}",
        f"classification alpha      {estimate_text(d['classification'])}",
        f"mean matched IoU {format_value(d['mean_matched_iou'])}, detection F1 {format_value(d['detection_f1'])}, "
        f"mean agreement {format_value(d['mean_agreement'])}, "
        f"mean segment-count difference {format_value(d['mean_object_count_diff'])}",
        *_segment_sigma_lines(d["localization"]),
        f"unitizing alpha (α_U)     {estimate_text(d['unitizing_alpha'])}   (Krippendorff 2004, over seconds)",
        "",
        "boundary sweep (starts to starts, ends to ends, pooled over clips and annotator pairs):",
        table(sweep, [("tolerance", "tolerance"), ("precision", "precision"), ("recall", "recall"), ("f1", "F1"),
                       ("f1_ci", f"F1 {level}% interval"), ("start_f1", "starts F1"), ("end_f1", "ends F1")]),
        "  high F1 at wide tolerances with low F1 at narrow ones: agreement that an event happened, not on when",
        "",
        "annotator pairs (boundary F1 by tolerance):",
        table([by_tolerance(p, "boundary_sweep") for p in d["pairs"]],
               [("a", "a"), ("b", "b"), ("sigma", "sigma"), ("detection_f1", "det F1"), ("mean_matched_iou", "IoU"),
                ("n_matched", "matched")] + f1_columns),
        "",
        "clips with most disagreement:",
        table([by_tolerance(item, "boundary_f1") for item in d["items"]],
               [("item", "clip"), ("detection_f1", "det F1"), ("n_unmatched", "unmatched")] + f1_columns, limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)


def _segment_sigma_lines(loc):
    """σ and KS of segments against the within-clip chance baseline, or why there are none."""
    if "mean_chance" not in loc:
        return [f"sigma: {loc['sigma']['reason']}"]
    return [f"sigma (within clip)       {estimate_text(loc['sigma'])}",
            "  1 = perfect, 0 = no closer than the clip's segments placed at random, < 0 = worse",
            f"KS D within vs chance     {format_value(loc['ks'])}",
            f"mean distance             within {format_value(loc['mean_within'])} over {loc['n_within']} matched "
            f"pairs; chance {format_value(loc['mean_chance'])} over {loc['n_chance']:,} pairs in "
            f"{loc['chance_placements']} placements (standard error {format_value(loc['chance_se'])})"]
