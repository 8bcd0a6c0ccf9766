"""The command-line text of an object-engine report (:mod:`agreekit.objects`), for the kinds that share it."""
from __future__ import annotations

from .text import estimate_text, format_value, table


def object_text(report, objects):
    """An object-engine report as a reader wants it: σ first, the raw IoU beside it, then breakdowns.

    ``objects`` names the objects (``"boxes"``, ``"polygons"``, …): the count key is ``n_<objects>``.
    """
    d = report.to_dict()
    s, loc = d["settings"], d["localization"]
    level = int(round(s["ci_level"] * 100))
    lines = [
        f"agreekit {d['kind']}: {d['n_items']} comparable items, {d['n_annotators']} annotators, "
        f"{d['n_' + objects]} {objects}",
        f"settings: threshold {s['threshold']}, distance {s['distance']}, match {s['match']}, "
        f"{s['bootstrap']} bootstrap resamples (seed {s['seed']}), {level}% intervals",
        "",
        f"sigma (localization)      {estimate_text(loc['sigma'])}",
        f"  1 = perfect, 0 = no better than {objects} from other images, < 0 = systematically worse",
        f"sigma_cross               {estimate_text(loc['sigma_cross'])}",
        "  against pairs by different annotators only (the pair and annotator tables use these baselines)",
        f"sigma_B (Braylan 2022)    {estimate_text(loc['significance_share'])}",
        f"  share of matched pairs below the {loc['significance_level']:g} quantile of between distances",
        f"raw mean matched IoU      {format_value(d['mean_matched_iou'])}   (no chance correction)",
        f"KS D within vs between    {format_value(loc['ks'])}   (cross: {format_value(loc['ks_cross'])})",
        f"mean distance             within {format_value(loc['mean_within'])} over {loc['n_within']} matched pairs; "
        f"between {format_value(loc['mean_between'])} over {loc['n_between']:,} pairs "
        f"({'exact, all pairs' if loc['between_exact'] else 'sampled'})",
        f"detection alpha           {estimate_text(d['detection'])}",
        f"classification alpha      {estimate_text(d['classification'])}",
        f"detection F1 {format_value(d['detection_f1'])}, mean agreement {format_value(d['mean_agreement'])}, "
        f"mean object-count difference {format_value(d['mean_object_count_diff'])}",
        "",
        "annotator pairs:",
        table(_pairs_with_intervals(d["pairs"]), [("a", "a"), ("b", "b"), ("sigma", "sigma  [low, high]"),
                                                  ("detection_f1", "det F1"),
                            ("mean_matched_iou", "IoU"), ("n_matched", "matched"), ("n_item_pairs", "items")]),
        "",
        "annotators (against all others):",
        table(d["annotators"], [("annotator", "annotator"), ("sigma", "sigma"), ("detection_f1", "det F1"),
                                 ("n_items", "items"), ("n_objects", objects)]),
        "",
        "labels:",
        table(d["labels"], [("label", "label"), ("sigma", "sigma"), ("mean_matched_iou", "IoU"),
                             ("n_objects", objects), ("n_label_mismatch", "mismatched")]),
        "",
        "items with most disagreement:",
        table(d["items"], [("item", "item"), ("detection_f1", "det F1"), ("n_unmatched", "unmatched"),
                            ("mean_within", "mean distance")], limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)


def _pairs_with_intervals(rows):
    """The pair rows with σ as text: ``value  [low, high]``, or ``undefined (reason)``."""
    return [{**row, "sigma": estimate_text(row["sigma"])} if isinstance(row.get("sigma"), dict) else row
            for row in rows]
