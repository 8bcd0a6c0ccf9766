"""The spans kind's command-line text: exact and partial F1, character-level α and α_U, then the
five-way disagreement table in total, per annotator pair and per label.

The spans no partner took are named from the reader's side, as on the page (``web/kinds/spans.mjs``):
with one annotator pair, "found by <annotator> only"; with more, the sides differ from pair to pair,
so the total has one row, "found by one annotator of a pair only", and the per-pair table names both.
"""
from __future__ import annotations

from ...text import estimate_text, table

SHOWN = 10  # rows of the per-pair, per-label and per-item tables; the rest are counted ("... N more")
MATCHED = (("exact", "exact: same boundaries, same label"),
           ("label_only", "label only: same boundaries, different label"),
           ("boundary_only", "boundary only: same label, different boundaries"),
           ("both", "both: overlapping, boundaries and label differ"))
UNITIZING_REMEDY = {"item lengths are needed": "item lengths are needed: give --lengths"}
# The spans against a reference, the reference as side a (kinds/spans/reference.py): the columns the
# per-annotator table against the reference adds (agreekit.reference.text), in the reader's words.
REFERENCE_COLUMNS = (("outcomes.exact", "exact"), ("outcomes.label_only", "label only"),
                     ("outcomes.boundary_only", "boundary only"), ("outcomes.both", "both"),
                     ("outcomes.missed_a", "found by reference only"),
                     ("outcomes.missed_b", "found by annotator only"))


def format_spans(report):
    """The spans report as text: counts and settings, the four coefficients, then the five-way tables."""
    d = report.to_dict()
    lines = [_title(d), _settings(d), "", *_coefficients(d), "",
             "five-way disagreement, all annotator pairs pooled over items (counted in spans):",
             table(_outcome_rows(d["disagreement"]), [("outcome", "outcome"), ("spans", "spans"), ("share", "share"),
                                                      ("pairs", "matched pairs"), ("remedy", "what it points to")]),
             f"  {_note(d['disagreement'])}", "",
             *_pair_lines(d["disagreement"]), "",
             "five-way disagreement per label (counted in spans; the rows sum to the total's spans column):",
             table(d["disagreement"]["labels"], [("label", "label"), *[(k, k.replace("_", " ")) for k, _ in MATCHED],
                                                 ("missed", "found by one only"), ("n_spans", "spans")], SHOWN),
             "", "labels (exact and partial F1 pooled over items and annotator pairs):",
             table(d["labels"], [("label", "label"), ("n_spans", "spans"), ("n_annotators", "annotators"),
                                 ("exact_f1", "exact F1"), ("partial_f1", "partial F1")], SHOWN),
             "", "items with most disagreement:",
             table(_item_rows(d["items"]), _item_columns(d["items"]), SHOWN)]
    return "\n".join(lines + [f"warning: {w}" for w in d["warnings"]])


def _title(d):
    return (f"agreekit spans: {d['n_items']} items ({d['n_items_scored']} scored: two or more annotators), "
            f"{d['n_annotators']} annotators, {d['n_spans']} spans")


def _settings(d):
    s = d["settings"]
    level = int(round(s["ci_level"] * 100))
    return (f"settings: match {s['match']}; partial match: {s['partial_rule']}; lengths: {s['lengths']}; "
            f"{s['bootstrap']} bootstrap resamples over items (seed {s['seed']}), {level}% intervals")


def _coefficients(d):
    """The four corpus values, each named, with its interval or the reason it is undefined."""
    alpha_u = dict(d["unitizing_alpha"])
    alpha_u["reason"] = UNITIZING_REMEDY.get(alpha_u["reason"], alpha_u["reason"])
    return [f"exact F1                  {_mean_text(d['exact_f1'])}",
            f"partial F1                {_mean_text(d['partial_f1'])}",
            f"character-level alpha     {_mean_text(d['char_alpha'], 'nominal, each character its label; ')}",
            f"unitizing alpha (α_U)     {estimate_text(alpha_u)}   (Krippendorff 2004, over characters)"]


def _mean_text(e, what=""):
    """A mean over items with its interval and the items it is over, or why it is undefined."""
    if e["value"] is None:
        return estimate_text(e)
    return f"{estimate_text(e)}   ({what}mean over {e['n']} items)"


def _outcome_rows(disagreement):
    """The total's rows: the four matched outcomes, the one-sided spans named by side, and all spans."""
    total, spans, remedies = disagreement["total"], disagreement["spans"], disagreement["remedies"]
    n = spans["n_spans"]
    rows = [{"outcome": label, "spans": spans[key], "share": total["shares"][key], "pairs": total[key],
             "remedy": remedies[key]} for key, label in MATCHED]
    pair = _one_pair(disagreement)
    if pair is not None:
        rows += [{"outcome": f"found by {pair[side]} only", "spans": total[f"missed_{side}"],
                  "share": total["shares"][f"missed_{side}"], "pairs": "", "remedy": remedies["missed"]}
                 for side in ("a", "b")]
    else:
        rows.append({"outcome": "found by one annotator of a pair only (each side: the per-pair table)",
                     "spans": spans["missed"], "share": spans["missed"] / n if n else None, "pairs": "",
                     "remedy": remedies["missed"]})
    rows.append({"outcome": "all compared spans", "spans": n, "share": 1.0 if n else None, "pairs": "", "remedy": ""})
    return rows


def _one_pair(disagreement):
    """The single annotator pair of the corpus, or None when there are more (or none)."""
    pairs = disagreement["pairs"]
    return pairs[0] if len(pairs) == 1 and disagreement["n_pairs_total"] == 1 else None


def _note(disagreement):
    """How the counts add up, in the words of the table above."""
    spans = disagreement["spans"]
    matched = " + ".join(str(spans[key]) for key, _ in MATCHED)
    return (f"a matched pair is two spans, a span no partner took one, and a span counts once for each other "
            f"annotator of its item: {matched} + {spans['missed']} = {spans['n_spans']} spans")


def _pair_lines(disagreement):
    """The per-pair table, "A vs B", the one-sided spans by name; capped with a count of the rest."""
    pairs = disagreement["pairs"]
    rows = [{**p, "pair": f"{p['a']} vs {p['b']}", "only_a": f"{p['missed_a']} ({p['a']})",
             "only_b": f"{p['missed_b']} ({p['b']})"} for p in pairs]
    lines = ["five-way disagreement per annotator pair (A vs B: matched pairs of spans, then the spans only A "
             "and only B marked):",
             table(rows, [("pair", "pair"), ("n_items", "items"), ("exact_f1", "exact F1"),
                          ("partial_f1", "partial F1"), *[(k, k.replace("_", " ")) for k, _ in MATCHED],
                          ("only_a", "found by A only"), ("only_b", "found by B only"), ("n_spans", "spans")], SHOWN)]
    if not pairs:
        return [lines[0], "  none: no item has two or more annotators"]
    unlisted = disagreement["n_pairs_total"] - len(pairs)
    if unlisted > 0:
        lines.append(f"{unlisted} more pairs are not listed (the {len(pairs)} that share the most items are); "
                     "the totals count every pair")
    return lines


def _item_columns(items):
    """The per-item table's columns; "not scored because" only when an item is not scored."""
    columns = [("item", "item"), ("n_annotators", "annotators"), ("n_spans", "spans"), ("exact_f1", "exact F1"),
               ("partial_f1", "partial F1"), ("char_alpha", "char alpha"), ("disagreement_share", "disagreeing share")]
    return columns + ([("reason", "not scored because")] if any(not row["scored"] for row in items) else [])


def _item_rows(items):
    """Item rows with their character-level α as a value; an unscored item's measures blank, not null."""
    blank = {"exact_f1": "", "partial_f1": "", "char_alpha": "", "disagreement_share": ""}
    return [{**row, "char_alpha": row["char_alpha"]["value"]} if row["scored"] else {**row, **blank}
            for row in items]

