"""The traces report's part of the methods paragraph (:mod:`agreekit.methods`)."""
from ...references import COHEN_1960, FLEISS_1971, KRIPPENDORFF_2004
from ...registry import MethodsText


def describe(data):
    """``(sentences, references)`` on the units and the coefficients over them."""
    level = data.get("settings", {}).get("level")
    sentences = [
        "Each step of each trace is one unit, labelled by the annotators who judged it.",
        f"Agreement over all units is Krippendorff's α at the {level} level ({KRIPPENDORFF_2004.cite}), also per step "
        f"position and per trace, beside Cohen's κ per annotator pair ({COHEN_1960.cite}), Fleiss' κ "
        f"({FLEISS_1971.cite}) and the percent agreement (not corrected for chance).",
    ]
    return sentences, (KRIPPENDORFF_2004, COHEN_1960, FLEISS_1971)


METHODS = MethodsText(describe=describe, items="traces", items_key="n_traces")
