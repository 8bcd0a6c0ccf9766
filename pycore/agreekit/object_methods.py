"""The methods paragraph's sentences on an object-engine report (:mod:`agreekit.objects`), for the
kinds that share it: matching rule and threshold, σ's distance and between-item baseline, α."""
from __future__ import annotations

from .references import BRAYLAN_2022, KRIPPENDORFF_2004, KUHN_1955, REZATOFIGHI_2019
from .registry import MethodsText

MATCHING = {
    "optimal": ("one to one, by the matching with the most pairs and, among those, the largest total {similarity} "
                f"(an assignment problem; {KUHN_1955.cite})", (KUHN_1955,)),
    "potato": ("one to one, by Potato 2.8's rule (an assignment on 1 − {similarity} over all pairs, "
               f"then pairs below the threshold dropped; {KUHN_1955.cite})", (KUHN_1955,)),
}
DISTANCES = {
    "giou": (f"(1 − GIoU)/2 ({REZATOFIGHI_2019.cite})", (REZATOFIGHI_2019,)),
    "iou": ("1 − {similarity}", ()),
    "centroid": ("the distance between centroids", ()),
}


def _baseline(loc, objects, items):
    between = loc.get("n_between")
    count = f"{between:,}" if isinstance(between, int) else "the"
    how = "all such pairs, exactly" if loc.get("between_exact", True) else "a seeded sample of such pairs"
    return f"between {objects} of different {items} ({count} pairs: {how})"


def object_methods(objects, items, similarity="IoU"):
    """The :class:`~agreekit.registry.MethodsText` of an object kind: ``objects`` and ``items`` name
    its objects and items (plural), ``similarity`` the overlap its matching uses ("IoU", "3D IoU")."""
    def describe(data):
        settings, loc = data.get("settings", {}), data.get("localization", {})
        rule, matched = MATCHING.get(settings.get("match"), ("one to one", ()))
        distance, distanced = DISTANCES.get(settings.get("distance"), (str(settings.get("distance")), ()))
        sentences = [
            f"On each of the {items}, the {objects} of every pair of annotators were matched "
            f"{rule.format(similarity=similarity)}, a pair matching only at {similarity} ≥ {settings.get('threshold')}.",
            f"Localization agreement is σ = 1 − D_w / D_b ({BRAYLAN_2022.cite}), where D_w is the mean distance "
            f"between matched {objects} and D_b the mean distance {_baseline(loc, objects, items)}; the distance is "
            f"{distance.format(similarity=similarity)}. σ = 1 is perfect agreement and σ = 0 what chance pairing of "
            f"{objects} from different {items} gives; the Kolmogorov–Smirnov statistic compares the two distance "
            "distributions.",
            f"Detection agreement (which {objects} were drawn) and classification agreement (the labels of matched "
            f"{objects}) are Krippendorff's nominal α ({KRIPPENDORFF_2004.cite}).",
        ]
        return sentences, (BRAYLAN_2022, *matched, *distanced, KRIPPENDORFF_2004)
    return MethodsText(describe=describe, items=items)
