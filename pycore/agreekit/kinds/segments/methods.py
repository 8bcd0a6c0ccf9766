"""The segments report's part of the methods paragraph (:mod:`agreekit.methods`)."""
from ...references import BRAYLAN_2022, KRIPPENDORFF_1995, KRIPPENDORFF_2004, KUHN_1955
from ...registry import MethodsText

DISTANCES = {"giou": "(1 − GIoU)/2 of the two time intervals", "iou": "1 − temporal IoU"}


def describe(data):
    """``(sentences, references)`` on segment matching, σ against within-clip chance, α_U and the sweep."""
    settings, loc = data.get("settings", {}), data.get("localization", {})
    tolerances = ", ".join(f"{t:g}" for t in settings.get("tolerances") or ())
    placements = loc.get("chance_placements")
    sentences = [
        "Within each clip, the segments of every pair of annotators were matched one to one "
        f"({settings.get('match')} matching; {KUHN_1955.cite}), a pair matching only at temporal IoU ≥ "
        f"{settings.get('threshold')}.",
        f"Timing agreement is σ = 1 − D_w / D_c (after {BRAYLAN_2022.cite}), where D_w is the mean distance "
        f"({DISTANCES.get(settings.get('distance'), settings.get('distance'))}) between matched segments and D_c "
        "the same mean after each clip's segments are placed at random inside the clip, each keeping its length, "
        f"and matched again ({placements if placements is not None else 'K'} placements).",
        f"Krippendorff's unitizing α_U ({KRIPPENDORFF_1995.cite}) is computed over the seconds of each clip, "
        f"detection and classification agreement as Krippendorff's nominal α ({KRIPPENDORFF_2004.cite}), and "
        f"boundary F1 at tolerances of {tolerances} s.",
    ]
    return sentences, (KUHN_1955, BRAYLAN_2022, KRIPPENDORFF_1995, KRIPPENDORFF_2004)


METHODS = MethodsText(describe=describe, items="clips")
