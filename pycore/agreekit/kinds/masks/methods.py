"""The masks report's part of the methods paragraph (:mod:`agreekit.methods`)."""
from ...references import DICE_1945, WARFIELD_2004
from ...registry import MethodsText


def describe(data):
    """``(sentences, references)`` on STAPLE, Dice and the majority vote."""
    settings = data.get("settings", {})
    sentences = [
        f"For each image, a consensus mask was estimated by STAPLE ({WARFIELD_2004.cite}; start {settings.get('start')}, "
        f"at most {settings.get('max_iter')} iterations, tolerance {settings.get('tol')}, prior "
        f"{settings.get('prior')}), and each annotator's mask compared with it by the Dice coefficient "
        f"({DICE_1945.cite}); the same comparison against the majority vote (pixels marked by more than half of "
        "the annotators), and the mean pairwise IoU of the annotators' masks, are reported beside it. "
        "None of these is corrected for chance.",
    ]
    return sentences, (WARFIELD_2004, DICE_1945)


METHODS = MethodsText(describe=describe, items="images")
