"""The labels report's part of the methods paragraph (:mod:`agreekit.methods`)."""
from ...references import COHEN_1960, FLEISS_1971, GWET_2008, KRIPPENDORFF_2004
from ...registry import MethodsText


def describe(data):
    """``(sentences, references)`` on the level and the coefficients."""
    level = data.get("settings", {}).get("level")
    metric = (data.get("coefficients", {}).get("alpha") or {}).get("metric") or level
    sentences = [
        f"Agreement is Krippendorff's α at the {level} level ({metric} distance; {KRIPPENDORFF_2004.cite}), which "
        "allows missing ratings, beside Cohen's κ per annotator pair "
        f"({COHEN_1960.cite}), Fleiss' κ ({FLEISS_1971.cite}), Gwet's AC1 ({GWET_2008.cite}) and the percent "
        "agreement (not corrected for chance).",
    ]
    return sentences, (KRIPPENDORFF_2004, COHEN_1960, FLEISS_1971, GWET_2008)


METHODS = MethodsText(describe=describe, items="items")
