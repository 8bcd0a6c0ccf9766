"""How Potato's reference summaries (tests/fixtures/potato) name our report's values.

Shared by the tests of every kind built on the box report (boxes, cuboids).
"""

# summary key in the reference -> dotted key in our report
SUMMARY_KEYS = {
    "mean_agreement": "mean_agreement",
    "mean_matched_iou": "mean_matched_iou",
    "detection_f1": "detection_f1",
    "mean_object_count_diff": "mean_object_count_diff",
    "detection_alpha": "detection.value",
    "classification_alpha": "classification.value",
    "n_matched_pairs": "n_matched_pairs",
    "mean_within_distance": "localization.mean_within",
    "sigma_exact_allpairs": "localization.sigma.value",
    "mean_between_distance_exact": "localization.mean_between",
    "n_between_pairs_exact": "localization.n_between",
    "ks_exact_allpairs_standard": "localization.ks.value",
}


def dotted(report, key):
    """``report["a"]["b"]`` for the key ``"a.b"``."""
    value = report
    for part in key.split("."):
        value = value[part]
    return value
