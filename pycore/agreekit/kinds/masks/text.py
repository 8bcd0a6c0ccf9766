"""The masks kind's command-line text: per-annotator rates, Dice against STAPLE and the vote, items."""
from __future__ import annotations

from ...text import format_value, table


def format_masks(report):
    """The mask report: per annotator sensitivity and specificity side by side (under- and
    over-segmenting have opposite fixes), Dice against STAPLE and against the vote, then items."""
    d = report.to_dict()
    s = d["settings"]

    def value(entry, key):
        return entry[key]["value"]

    annotators = [{**a, **{k: value(a, k) for k in ("sensitivity", "specificity", "dice", "majority_dice",
                                                      "mean_iou")}} for a in d["annotators"]]
    pairs = [{**p, "mean_iou": value(p, "mean_iou")} for p in d["pairs"]]
    items = [{**e, "mean_dice": sum(e["dice"]) / len(e["dice"])} for e in d["items"]]
    lines = [
        f"agreekit masks: {d['n_items']} comparable images, {d['n_annotators']} annotators, {d['n_masks']} masks",
        f"settings: STAPLE with a fixed prior, start {s['start']}, at most {s['max_iter']} iterations; "
        f"RLE {s['rle_order']}" + (f"; label {s['label']}" if s["label"] is not None else ""),
        "",
        f"mean pairwise mask IoU             {format_value(d['mean_pairwise_iou']['value'])}",
        f"mean Dice vs STAPLE consensus      {format_value(d['mean_dice']['value'])}",
        f"mean Dice vs majority vote         {format_value(d['mean_majority_dice']['value'])}",
        f"Dice STAPLE vs majority vote       {format_value(d['consensus_majority_dice']['value'])}",
        "",
        "annotators (means over images; low sensitivity = under-segmenting, low specificity = over-segmenting):",
        table(annotators, [("annotator", "annotator"), ("sensitivity", "sensitivity"),
                            ("specificity", "specificity"), ("dice", "Dice STAPLE"),
                            ("majority_dice", "Dice vote"), ("mean_iou", "IoU others"), ("n_items", "images")]),
        "",
        "annotator pairs:",
        table(pairs, [("a", "a"), ("b", "b"), ("mean_iou", "mask IoU"), ("n_items", "images")]),
        "",
        "images with most disagreement:",
        table(items, [("item", "image"), ("mean_dice", "mean Dice"), ("mean_pairwise_iou", "mean IoU"),
                       ("consensus_area", "consensus px"), ("majority_area", "vote px"),
                       ("iterations", "iterations")], limit=10),
    ]
    lines += [f"warning: {w}" for w in d["warnings"]]
    return "\n".join(lines)
