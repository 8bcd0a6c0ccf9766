"""The command line's text of a report's ``reference`` section: one row per annotator against the reference."""
from __future__ import annotations

from ..text import estimate_text, format_value, table

COLUMNS = [("annotator", "annotator"), ("precision", "precision"), ("recall", "recall"), ("f1", "F1"),
           ("mean_matched_iou", "IoU"), ("sigma", "sigma"), ("kappa", "kappa"), ("missing", "missing"),
           ("extra", "extra"), ("low_overlap", "low overlap"), ("wrong_label", "wrong label"),
           ("reliability", "reliability")]


def _flat(row, name, extra=()):
    """A table row: estimates as their values, the conflict counts beside them, then the ``extra``
    columns (dotted keys into the row) a kind adds."""
    out = {"annotator": name}
    for key, _ in COLUMNS[1:7]:
        value = row.get(key)
        out[key] = value["value"] if isinstance(value, dict) else value
    out.update(row["conflicts"])
    out["reliability"] = row.get("reliability")
    for key, _ in extra:
        out[key] = _at(row, key)
    return out


def _at(row, dotted):
    """``row``'s value at a dotted key, None where it has none."""
    for part in dotted.split("."):
        row = row.get(part) if isinstance(row, dict) else None
    return row


def reference_text(d, extra=()):
    """Lines describing ``d["reference"]`` (a report as a dict), or none without a reference.

    ``extra``: ``(dotted key, heading)`` columns the kind adds to each annotator's row
    (``Kind.reference_columns``, in the kind's words).
    """
    ref = d.get("reference")
    if not ref:
        return []
    total = ref["total"]
    who = f"annotator {ref['annotator']}" if ref["source"] == "annotator" else f"reference {ref['source']}"
    ranked = any("reliability" in row for row in ref["annotators"])   # against a leave-one-out consensus
    columns = [c for c in COLUMNS if (c[0] != "sigma" or "sigma" in total) and (c[0] != "reliability" or ranked)]
    columns += list(extra)
    rows = [_flat(row, row["annotator"], extra) for row in ref["annotators"]] + [_flat(total, "(all)", extra)]
    lines = [
        "",
        f"against the reference ({who}): {ref['n_annotators']} annotators, {ref['n_items']} items, "
        f"threshold {ref['threshold']}, low overlap from {ref['low_overlap']}",
        f"precision                 {estimate_text(total['precision'])}",
        f"recall                    {estimate_text(total['recall'])}",
        f"F1                        {estimate_text(total['f1'])}",
        f"mean matched IoU          {estimate_text(total['mean_matched_iou'])}",
    ]
    if "sigma" in total:
        lines.append(f"sigma vs reference        {estimate_text(total['sigma'])}")
    lines += [f"kappa on matched labels   {estimate_text(total['kappa'])}", "",
              "annotators against the reference:", table(rows, columns), "",
              "items with most conflicts:",
              table(ref["items"], [("item", "item"), ("n_conflicts", "conflicts"), ("recall", "recall"),
                                   ("precision", "precision"), ("n_annotators", "annotators")], limit=10)]
    if "mean_within" in total:
        lines.insert(7, f"  mean matched distance {format_value(total['mean_within'])}, cross baseline "
                        f"{format_value(total['mean_between_cross'])} (its objects against the reference's on "
                        "other items)")
    return lines
