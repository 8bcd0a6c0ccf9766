"""The spans report's part of the methods paragraph (:mod:`agreekit.methods`)."""
from ...references import KRIPPENDORFF_1995, KRIPPENDORFF_2004
from ...registry import MethodsText


def describe(data):
    """``(sentences, references)`` on span matching, F1, character-level α and α_U."""
    settings = data.get("settings", {})
    unitizing = data.get("unitizing_alpha") or {}
    alpha_u = (f"Krippendorff's unitizing α_U ({KRIPPENDORFF_1995.cite}) is computed over the characters, the items "
               "laid end to end, from the item lengths given." if unitizing.get("value") is not None or
               unitizing.get("n_units") else
               "Krippendorff's unitizing α_U was not computed (it needs the items' lengths or texts).")
    sentences = [
        "The spans of every pair of annotators on the same item were matched one to one "
        f"({settings.get('match')} matching): exact agreement needs equal start, end and label (exact F1), partial "
        f"agreement {settings.get('partial_rule')} (partial F1).",
        f"Character-level α is Krippendorff's nominal α ({KRIPPENDORFF_2004.cite}) over the characters of each item "
        "(each character carries its span's label, or none), averaged over items.",
        alpha_u,
    ]
    return sentences, (KRIPPENDORFF_2004, KRIPPENDORFF_1995)


METHODS = MethodsText(describe=describe, items="items")
